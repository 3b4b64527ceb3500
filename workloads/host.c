/* SPDX-License-Identifier: MIT */
/* Host API (warpsim.h): device memory, copies and launches on one module through an fe_device.
 * Host-side only, never on the per-cycle path, so it may allocate. */
#include <stdlib.h>
#include <string.h>

#include "warpsim.h"

#include "../frontend/fe_ptxas.h"

struct ws_host {
	const struct fe_module *mod;
	struct fe_module *owned_mod; /* set by ws_host_open */
	struct fe_memory *mem;
	bool owns_mem;               /* false for ws_host_create_in */
	struct fe_device dev;
	struct ws_totals totals;
	uint32_t *regs;              /* [kernels] given registers per thread, 0 = none */
	FILE *printf_out;            /* device printf; NULL: not printed */
	uint64_t stack_bytes;        /* per thread for recursive calls; 0: the front end's default */
	/* counts for kernels without one given, on timing devices: asked of ptxas (or its cache)
	 * once, at the first launch that needs them */
	struct fe_ptxas_opts ptxas_opts;
	FILE *warn;                  /* NULL: stderr */
	bool ptxas_asked;
	struct fe_ptxas_regs ptxas;
	uint8_t *warned;             /* [kernels] the estimate warning was printed */
};

struct ws_host *ws_host_create(const struct fe_module *m, const struct fe_device *dev,
			       struct sim_error *err)
{
	return ws_host_create_in(m, dev, NULL, err);
}

struct ws_host *ws_host_create_in(const struct fe_module *m, const struct fe_device *dev,
				  struct fe_memory *mem, struct sim_error *err)
{
	if (!dev || !dev->launch) {
		sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, NULL, "ws_host_create: no device");
		return NULL;
	}
	struct ws_host *h = calloc(1, sizeof *h);
	if (!h) {
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		return NULL;
	}
	h->mod = m;
	h->dev = *dev;
	fe_ptxas_opts_from_env(&h->ptxas_opts);
	uint32_t nk = fe_module_kernel_count(m);
	h->regs = calloc(nk ? nk : 1, sizeof *h->regs);
	h->owns_mem = !mem;
	h->mem = mem ? mem : fe_memory_create();
	if (!h->mem || !h->regs) {
		free(h->regs);
		if (h->owns_mem)
			fe_memory_destroy(h->mem);
		free(h);
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory (device memory)");
		return NULL;
	}
	if (fe_memory_bind_module(h->mem, m, err)) {
		ws_host_destroy(h);
		return NULL;
	}
	return h;
}

struct ws_host *ws_host_open(const char *ptx_path, const struct fe_device *dev,
			     struct sim_error *err)
{
	struct fe_module *m = NULL;
	if (fe_module_load(ptx_path, &m, err))
		return NULL;
	struct ws_host *h = ws_host_create(m, dev, err);
	if (!h) {
		fe_module_destroy(m);
		return NULL;
	}
	h->owned_mod = m;
	return h;
}

void ws_host_destroy(struct ws_host *h)
{
	if (!h)
		return;
	if (h->mem && h->owns_mem)
		fe_memory_destroy(h->mem);
	free(h->regs);
	if (h->owned_mod)
		fe_module_destroy(h->owned_mod);
	fe_ptxas_regs_fini(&h->ptxas);
	free(h->warned);
	free(h);
}

const struct fe_module *ws_host_module(const struct ws_host *h) { return h->mod; }

void ws_host_totals(const struct ws_host *h, struct ws_totals *out) { *out = h->totals; }

int ws_set_regs_per_thread(struct ws_host *h, const char *kernel, uint32_t regs,
			   struct sim_error *err)
{
	int k = fe_module_kernel_index(h->mod, kernel, err);
	if (k < 0)
		return k;
	h->regs[k] = regs;
	return 0;
}

void ws_host_set_printf(struct ws_host *h, FILE *out)
{
	h->printf_out = out;
}

void ws_host_set_stack_bytes(struct ws_host *h, uint64_t bytes)
{
	h->stack_bytes = bytes;
}

struct fe_memory *ws_host_memory(const struct ws_host *h)
{
	return h->mem;
}

void ws_host_set_ptxas(struct ws_host *h, const struct fe_ptxas_opts *o, FILE *warn)
{
	h->ptxas_opts = *o;
	h->warn = warn;
}

/* Registers per thread of a kernel no count was given for: ptxas's, else 0 (the launch takes
 * the estimate) with a warning once per kernel, so a result never rests silently on a guess. */
static uint32_t ws_regs_lookup(struct ws_host *h, const char *kernel, enum fe_regs_source *src)
{
	FILE *warn = h->warn ? h->warn : stderr;
	uint32_t n = fe_module_kernel_count(h->mod), k = 0;
	if (!h->ptxas_asked) {
		h->ptxas_asked = true;
		fe_ptxas_module_regs(h->mod, &h->ptxas_opts, &h->ptxas);
		h->warned = calloc(n ? n : 1, 1);
		if (h->ptxas.cache_warning[0])
			fprintf(warn, "warpsim: warning: %s\n", h->ptxas.cache_warning);
	}
	while (k < n && strcmp(fe_module_kernel_name(h->mod, k), kernel))
		k++;
	uint32_t r = k < n && h->ptxas.regs ? h->ptxas.regs[k] : FE_PTXAS_NO_COUNT;
	if (h->ptxas.source != FE_REGS_ESTIMATE && r != FE_PTXAS_NO_COUNT && r > 0) {
		*src = h->ptxas.source;
		return r;
	}
	*src = FE_REGS_ESTIMATE;
	if (k < n && h->warned && !h->warned[k]) {
		h->warned[k] = 1;
		struct fe_launch_info info;
		if (fe_kernel_info(h->mod, kernel, &info, NULL))
			info.regs_per_thread = 0;
		fprintf(warn,
			"warpsim: warning: %s: kernel %s has no regs_per_thread given and %s%s; using "
			"warpsim's estimate of %u registers/thread (occupancy, and so the timing, depend "
			"on it)\n",
			fe_module_path(h->mod), kernel,
			h->ptxas.source == FE_REGS_ESTIMATE ? "" : "ptxas printed no count for it: ",
			h->ptxas.source == FE_REGS_ESTIMATE ? h->ptxas.why : h->ptxas.ptxas,
			info.regs_per_thread);
	}
	return 0;
}

int ws_malloc(struct ws_host *h, uint64_t *dptr, uint64_t bytes, struct sim_error *err)
{
	uint64_t a = fe_mem_alloc(h->mem, bytes ? bytes : 1);
	if (!a)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL,
				     "device allocation of %llu bytes failed",
				     (unsigned long long)bytes);
	*dptr = a;
	return 0;
}

int ws_memset(struct ws_host *h, uint64_t dptr, int value, uint64_t bytes, struct sim_error *err)
{
	unsigned char buf[4096];
	memset(buf, value, sizeof buf);
	while (bytes) {
		uint64_t n = bytes < sizeof buf ? bytes : sizeof buf;
		int rc = fe_mem_write(h->mem, dptr, buf, n, err);
		if (rc)
			return rc;
		dptr += n;
		bytes -= n;
	}
	return 0;
}

int ws_memcpy_h2d(struct ws_host *h, uint64_t dst, const void *src, uint64_t bytes,
		  struct sim_error *err)
{
	int rc = bytes ? fe_mem_write(h->mem, dst, src, bytes, err) : 0;
	if (!rc && bytes && h->dev.copied)
		h->dev.copied(h->dev.ctx, dst, bytes);
	return rc;
}

int ws_memcpy_d2h(struct ws_host *h, void *dst, uint64_t src, uint64_t bytes,
		  struct sim_error *err)
{
	int rc = bytes ? fe_mem_read(h->mem, src, dst, bytes, err) : 0;
	if (!rc && bytes && h->dev.copied)
		h->dev.copied(h->dev.ctx, src, bytes);
	return rc;
}

static int ws_symbol_range(struct ws_host *h, const char *symbol, uint64_t bytes, uint64_t offset,
			   uint64_t *addr, struct sim_error *err)
{
	uint64_t size = 0;
	int rc = fe_symbol(h->mem, h->mod, symbol, addr, &size, err);
	if (rc)
		return rc;
	if (offset > size || bytes > size - offset)
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, symbol,
				     "copy of %llu bytes at offset %llu exceeds symbol size %llu",
				     (unsigned long long)bytes, (unsigned long long)offset,
				     (unsigned long long)size);
	*addr += offset;
	return 0;
}

int ws_memcpy_to_symbol(struct ws_host *h, const char *symbol, const void *src, uint64_t bytes,
			uint64_t offset, struct sim_error *err)
{
	uint64_t a;
	int rc = ws_symbol_range(h, symbol, bytes, offset, &a, err);
	return rc ? rc : ws_memcpy_h2d(h, a, src, bytes, err);
}

int ws_memcpy_from_symbol(struct ws_host *h, void *dst, const char *symbol, uint64_t bytes,
			  uint64_t offset, struct sim_error *err)
{
	uint64_t a;
	int rc = ws_symbol_range(h, symbol, bytes, offset, &a, err);
	return rc ? rc : ws_memcpy_d2h(h, dst, a, bytes, err);
}

static uint32_t ws_arg_size(const struct ws_arg *a)
{
	switch (a->kind) {
	case WS_ARG_U32:
	case WS_ARG_S32:
	case WS_ARG_F32:
		return 4;
	case WS_ARG_BYTES:
		return a->size_bytes;
	default:
		return 8;
	}
}

static const char *ws_arg_kind_name(enum ws_arg_kind k)
{
	static const char *const names[] = {"pointer", "u32", "s32", "f32", "u64", "s64", "f64",
					    "struct"};
	return names[k];
}

static int ws_check_dims(const char *kernel, struct ws_dim3 g, struct ws_dim3 b, uint32_t shared,
			 struct sim_error *err)
{
	if (g.x < 1 || g.x > WS_MAX_GRID_X || g.y < 1 || g.y > WS_MAX_GRID_YZ || g.z < 1 ||
	    g.z > WS_MAX_GRID_YZ)
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, kernel,
				     "grid (%u,%u,%u) out of bounds (x 1..%u, y and z 1..%u)", g.x,
				     g.y, g.z, WS_MAX_GRID_X, WS_MAX_GRID_YZ);
	uint64_t threads = (uint64_t)b.x * b.y * b.z;
	if (b.x < 1 || b.x > WS_MAX_BLOCK_XY || b.y < 1 || b.y > WS_MAX_BLOCK_XY || b.z < 1 ||
	    b.z > WS_MAX_BLOCK_Z || threads > WS_MAX_THREADS_PER_BLOCK)
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, kernel,
				     "block (%u,%u,%u) out of bounds (x,y 1..%u, z 1..%u, at most "
				     "%u threads)",
				     b.x, b.y, b.z, WS_MAX_BLOCK_XY, WS_MAX_BLOCK_Z,
				     WS_MAX_THREADS_PER_BLOCK);
	if (shared > WS_MAX_DYN_SHARED_BYTES)
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, kernel,
				     "dynamic shared memory %u bytes exceeds %u", shared,
				     WS_MAX_DYN_SHARED_BYTES);
	return 0;
}

int ws_launch(struct ws_host *h, const char *kernel, struct ws_dim3 grid, struct ws_dim3 block,
	      uint32_t dyn_shared_bytes, const struct ws_arg *args, uint32_t n_args,
	      struct sim_error *err)
{
	uint32_t n_params = 0;
	int rc = fe_kernel_params(h->mod, kernel, &n_params, err);
	if (rc)
		return rc;
	if (n_params != n_args)
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, kernel,
				     "kernel %s takes %u arguments, %u given", kernel, n_params,
				     n_args);
	rc = ws_check_dims(kernel, grid, block, dyn_shared_bytes, err);
	if (rc)
		return rc;
	/* Parameter space is 4 KB at most, so the buffer lives on the stack. */
	unsigned char params[WS_MAX_PARAM_BYTES];
	uint32_t used = 0;
	for (uint32_t i = 0; i < n_args; i++) {
		uint32_t off, size, align;
		rc = fe_kernel_param(h->mod, kernel, i, &off, &size, &align, err);
		if (rc)
			return rc;
		const struct ws_arg *a = &args[i];
		uint32_t asz = ws_arg_size(a);
		if (asz != size)
			return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, kernel,
					     "argument %u of %s: a %s of %u bytes given for a "
					     "parameter of %u bytes",
					     i, kernel, ws_arg_kind_name(a->kind), asz, size);
		if ((uint64_t)off + size > sizeof params)
			return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, kernel,
					     "parameters of %s exceed %u bytes", kernel,
					     WS_MAX_PARAM_BYTES);
		unsigned char *p = params + off;
		uint32_t u32;
		switch (a->kind) {
		case WS_ARG_U32:
		case WS_ARG_S32:
			u32 = (uint32_t)a->v.u;
			memcpy(p, &u32, 4);
			break;
		case WS_ARG_F32:
			memcpy(p, &a->v.f, 4);
			break;
		case WS_ARG_F64:
			memcpy(p, &a->v.d, 8);
			break;
		case WS_ARG_BYTES:
			memcpy(p, a->bytes, size);
			break;
		default:
			memcpy(p, &a->v.u, 8);
			break;
		}
		if (off + size > used)
			used = off + size;
	}
	return ws_launch_params(h, kernel, grid, block, dyn_shared_bytes, params, used, err);
}

uint32_t ws_kernel_regs(struct ws_host *h, const char *kernel, enum fe_regs_source *src)
{
	int k = fe_module_kernel_index(h->mod, kernel, NULL);
	*src = FE_REGS_GIVEN;
	if (k >= 0 && h->regs[k])
		return h->regs[k];
	/* only the timing model uses the count: a functional run never needs ptxas */
	if (k >= 0 && h->dev.timing)
		return ws_regs_lookup(h, fe_module_kernel_name(h->mod, (uint32_t)k), src);
	*src = FE_REGS_ESTIMATE;
	return 0;
}

struct fe_launch *ws_launch_create(struct ws_host *h, const char *kernel, struct ws_dim3 grid,
				   struct ws_dim3 block, uint32_t dyn_shared_bytes, const void *params,
				   uint32_t params_bytes, struct sim_error *err)
{
	if (ws_check_dims(kernel, grid, block, dyn_shared_bytes, err))
		return NULL;
	enum fe_regs_source src;
	uint32_t regs = ws_kernel_regs(h, kernel, &src);
	const uint32_t g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
	struct fe_launch *l = fe_launch_create(h->mod, h->mem, kernel, g, b, dyn_shared_bytes,
					       params, params_bytes, regs, err);
	if (!l) {
		if (err && !err->code)
			err->code = SIM_ERR_INPUT;
		return NULL;
	}
	if (regs)
		fe_launch_set_regs(l, regs, src);
	fe_launch_set_printf(l, h->printf_out);
	if (h->stack_bytes)
		fe_launch_set_stack_bytes(l, h->stack_bytes);
	return l;
}

int ws_launch_params(struct ws_host *h, const char *kernel, struct ws_dim3 grid,
		     struct ws_dim3 block, uint32_t dyn_shared_bytes, const void *params,
		     uint32_t params_bytes, struct sim_error *err)
{
	struct fe_launch *l = ws_launch_create(h, kernel, grid, block, dyn_shared_bytes, params,
					       params_bytes, err);
	if (!l)
		return err && err->code ? err->code : SIM_ERR_INPUT;
	int rc = h->dev.launch(h->dev.ctx, l, err);
	fe_launch_destroy(l);
	if (rc)
		return rc;
	uint64_t ctas = (uint64_t)grid.x * grid.y * grid.z;
	h->totals.launches++;
	h->totals.ctas += ctas;
	h->totals.threads += ctas * block.x * block.y * block.z;
	return 0;
}

int ws_synchronize(struct ws_host *h, struct sim_error *err)
{
	(void)h;
	(void)err;
	return 0;
}

uint64_t ws_func_livelock_limit(const struct ws_func_stats *st)
{
	return !st || !st->livelock_warp_insts ? FE_LIVELOCK_WARP_INSTS
	       : st->livelock_warp_insts == UINT64_MAX ? 0
						       : st->livelock_warp_insts;
}

static int ws_functional_launch(void *ctx, struct fe_launch *l, struct sim_error *err)
{
	struct ws_func_stats *st = ctx;
	uint64_t wi = 0, ti = 0;
	uint64_t limit = ws_func_livelock_limit(st);
	if (st && st->poll)
		fe_launch_set_poll(l, st->poll, st->poll_ctx);
	int rc = fe_launch_run_functional_observe(l, limit, st ? st->observe : NULL, st ? st->observe_ctx : NULL, &wi,
						  &ti, err);
	if (!rc && st) {
		st->launches++;
		st->warp_insts += wi;
		st->thread_insts += ti;
	}
	return rc;
}

struct fe_device ws_functional_device(struct ws_func_stats *stats)
{
	return (struct fe_device){.launch = ws_functional_launch, .ctx = stats};
}
