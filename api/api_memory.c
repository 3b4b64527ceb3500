/* SPDX-License-Identifier: MIT */
/* include/warpsim.h's device memory, symbols and textures over the machine's fe_memory: every
 * range checked to lie inside one live allocation before anything is read or written. */
#include <string.h>

#include "api_guard.h"
#include "api_machine.h"

int warpsim_malloc(struct warpsim *ws, uint64_t bytes, uint64_t *addr, struct warpsim_error *err)
{
	int rc;
	if ((rc = api_need(addr, __func__, "addr", err)))
		return rc;
	*addr = 0;
	if ((rc = api_need_machine(ws, __func__, err)))
		return rc;
	uint64_t a = fe_mem_alloc(ws->mem, bytes ? bytes : 1);
	if (!a)
		return api_fail(err, WARPSIM_ERR_NOMEM, "device allocation of %llu bytes failed",
				(unsigned long long)bytes);
	*addr = a;
	return 0;
}

int warpsim_free(struct warpsim *ws, uint64_t addr, struct warpsim_error *err)
{
	int rc = api_need_machine(ws, __func__, err);
	if (rc)
		return rc;
	struct sim_error e;
	sim_error_clear(&e);
	return fe_mem_free(ws->mem, addr, &e) ? api_fail_sim(err, &e) : 0;
}

bool warpsim_allocation(const struct warpsim *ws, uint64_t addr, uint64_t *base, uint64_t *bytes)
{
	if (api_need_machine(ws, __func__, NULL))
		return false;
	if (fe_mem_allocation(ws->mem, addr, base, bytes))
		return true;
	api_fail(NULL, WARPSIM_ERR_INPUT, "%s: 0x%llx is in no device allocation", __func__,
		 (unsigned long long)addr);
	return false;
}

uint64_t warpsim_allocated_bytes(const struct warpsim *ws)
{
	return api_need_machine(ws, __func__, NULL) ? 0 : fe_mem_live_bytes(ws->mem);
}

/* [a, a+n) inside one live allocation; the error names the address and the size. */
static int range_check(const struct warpsim *ws, uint64_t a, uint64_t n, const char *what,
		       struct warpsim_error *err)
{
	uint64_t base, bytes;
	if (fe_mem_allocation(ws->mem, a, &base, &bytes) && n <= bytes && a - base <= bytes - n)
		return 0;
	return api_fail(err, WARPSIM_ERR_INPUT,
			"%s range 0x%llx + %llu bytes is not inside one device allocation", what,
			(unsigned long long)a, (unsigned long long)n);
}

int warpsim_write(struct warpsim *ws, uint64_t dst, const void *src, uint64_t bytes,
		  struct warpsim_error *err)
{
	int rc = api_need_machine(ws, __func__, err);
	if (rc || !bytes)
		return rc;
	if ((rc = api_need(src, __func__, "src", err)) ||
	    (rc = range_check(ws, dst, bytes, "destination", err)))
		return rc;
	struct sim_error e;
	sim_error_clear(&e);
	if (fe_mem_write(ws->mem, dst, src, bytes, &e))
		return api_fail_sim(err, &e);
	/* gpu.l2.fill_on_copy: a host copy installs its lines in the L2, as `warpsim run`'s host
	 * (workloads/host.c) and GPGPU-Sim's perf_sim_memcpy do; libcudart's cudaMemcpy comes here */
	if (ws->dev.copied)
		ws->dev.copied(ws->dev.ctx, dst, bytes);
	return 0;
}

int warpsim_read(struct warpsim *ws, void *dst, uint64_t src, uint64_t bytes,
		 struct warpsim_error *err)
{
	int rc = api_need_machine(ws, __func__, err);
	if (rc || !bytes)
		return rc;
	if ((rc = api_need(dst, __func__, "dst", err)) || (rc = range_check(ws, src, bytes, "source", err)))
		return rc;
	struct sim_error e;
	sim_error_clear(&e);
	return fe_mem_read(ws->mem, src, dst, bytes, &e) ? api_fail_sim(err, &e) : 0;
}

int warpsim_memset(struct warpsim *ws, uint64_t dst, int value, uint64_t bytes,
		   struct warpsim_error *err)
{
	int rc = api_need_machine(ws, __func__, err);
	if (rc || !bytes)
		return rc;
	unsigned char buf[4096];
	memset(buf, value, sizeof buf);
	rc = range_check(ws, dst, bytes, "destination", err);
	for (uint64_t done = 0; !rc && done < bytes; done += sizeof buf) {
		uint64_t n = bytes - done < sizeof buf ? bytes - done : sizeof buf;
		rc = warpsim_write(ws, dst + done, buf, n, err);
	}
	return rc;
}

int warpsim_copy(struct warpsim *ws, uint64_t dst, uint64_t src, uint64_t bytes,
		 struct warpsim_error *err)
{
	int rc = api_need_machine(ws, __func__, err);
	if (rc || !bytes)
		return rc;
	unsigned char buf[4096];
	if (!(rc = range_check(ws, src, bytes, "source", err)))
		rc = range_check(ws, dst, bytes, "destination", err);
	/* overlapping ranges copy as memmove does: backwards when dst is above src (both ranges
	 * are inside allocations here, so src + bytes does not wrap) */
	bool back = !rc && dst > src && dst < src + bytes;
	for (uint64_t done = 0; !rc && done < bytes; done += sizeof buf) {
		uint64_t n = bytes - done < sizeof buf ? bytes - done : sizeof buf;
		uint64_t off = back ? bytes - done - n : done;
		rc = warpsim_read(ws, buf, src + off, n, err);
		if (!rc)
			rc = warpsim_write(ws, dst + off, buf, n, err);
	}
	return rc;
}

int warpsim_symbol(const struct warpsim_module *m, const char *name, uint64_t *addr,
		   uint64_t *bytes, struct warpsim_error *err)
{
	int rc;
	if ((rc = api_need_module(m, __func__, err)) || (rc = api_need(name, __func__, "name", err)) ||
	    (rc = api_need(addr, __func__, "addr", err)))
		return rc;
	struct sim_error e;
	sim_error_clear(&e);
	return fe_symbol(m->ws->mem, m->m, name, addr, bytes, &e) ? api_fail_sim(err, &e) : 0;
}

int warpsim_texture_create(struct warpsim *ws, const struct warpsim_texture *t, uint64_t *handle,
			   struct warpsim_error *err)
{
	int rc;
	if ((rc = api_need(handle, __func__, "handle", err)))
		return rc;
	*handle = 0;
	if ((rc = api_need_machine(ws, __func__, err)) || (rc = api_need(t, __func__, "t", err)))
		return rc;
	/* The texels' extent, pitch x (height - 1) + width x texel, can pass 2^64 for a made-up
	 * shape and wrap to a size that fits; no allocation exceeds 2^40 bytes, so refuse any
	 * shape whose rows alone exceed that (kept below 2^64 by the bounds of the factors). */
	uint64_t texel = 4ull * t->channels;
	uint64_t pitch = t->pitch_bytes ? t->pitch_bytes : t->width * texel;
	if (t->height > 1 && pitch > (1ull << 40) / (t->height - 1))
		return api_fail(err, WARPSIM_ERR_INPUT, "%s: texture of %ux%u texels (pitch %llu "
				"bytes) is larger than any device allocation", __func__, t->width,
				t->height, (unsigned long long)pitch);
	struct sim_error e;
	sim_error_clear(&e);
	struct fe_tex_desc d = {.addr = t->addr, .width = t->width, .height = t->height,
				.pitch_bytes = t->pitch_bytes, .channels = t->channels,
				.normalized_coords = t->normalized_coords};
	return fe_texture_create(ws->mem, &d, handle, &e) ? api_fail_sim(err, &e) : 0;
}

int warpsim_texture_destroy(struct warpsim *ws, uint64_t handle, struct warpsim_error *err)
{
	int rc = api_need_machine(ws, __func__, err);
	if (rc)
		return rc;
	struct sim_error e;
	sim_error_clear(&e);
	return fe_texture_destroy(ws->mem, handle, &e) ? api_fail_sim(err, &e) : 0;
}
