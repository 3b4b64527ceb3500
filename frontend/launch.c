/* SPDX-License-Identifier: MIT */
/* Launches, CTAs and warps: module and kernel queries, a launch's parameters and symbols, CTAs
 * created, restarted and recycled. A warp's SIMT stack and control flow are in simt.c. */
#include <stdlib.h>
#include <string.h>

#include "exec_int.h"

/* ---- module queries ----------------------------------------------------------------- */

const char *fe_module_path(const struct fe_module *m)
{
	return m->path;
}

uint32_t fe_module_kernel_count(const struct fe_module *m)
{
	return m->n_kernels;
}

const char *fe_module_kernel_name(const struct fe_module *m, uint32_t i)
{
	return i < m->n_kernels ? m->funcs[m->kernels[i].func].name : NULL;
}

const char *fe_module_kernel_cxx_name(const struct fe_module *m, uint32_t i)
{
	return i < m->n_kernels ? m->cxx_names[i] : NULL;
}

int fe_module_kernel_index(const struct fe_module *m, const char *name, struct sim_error *err)
{
	return fe_kernel_find(m, name, err);
}

uint32_t fe_module_kernel_max_threads(const struct fe_module *m, uint32_t i)
{
	if (i >= m->n_kernels)
		return 0;
	const struct fe_func *f = &m->funcs[m->kernels[i].func];
	const uint32_t *t = f->reqntid[0] ? f->reqntid : f->maxntid;
	return t[0] ? t[0] * (t[1] ? t[1] : 1) * (t[2] ? t[2] : 1) : 0;
}

void fe_launch_set_printf(struct fe_launch *l, FILE *out)
{
	l->printf_out = out;
}

void fe_launch_set_stack_bytes(struct fe_launch *l, uint64_t bytes)
{
	l->stack_bytes = bytes;
}

int fe_kernel_params(const struct fe_module *m, const char *kernel, uint32_t *n_params,
		     struct sim_error *err)
{
	int k = fe_kernel_find(m, kernel, err);
	if (k < 0)
		return k;
	*n_params = m->funcs[m->kernels[k].func].n_params;
	return 0;
}

int fe_kernel_param(const struct fe_module *m, const char *kernel, uint32_t i, uint32_t *offset,
		    uint32_t *size_bytes, uint32_t *align, struct sim_error *err)
{
	int k = fe_kernel_find(m, kernel, err);
	if (k < 0)
		return k;
	const struct fe_func *f = &m->funcs[m->kernels[k].func];
	if (i >= f->n_params)
		return sim_error_set(err, SIM_ERR_INPUT, m->path, (int)f->line, 0, kernel,
				     "kernel has %u parameters, asked for parameter %u", f->n_params, i);
	const struct fe_sym *y = &m->syms[f->params[i]];
	*offset = y->off;
	*size_bytes = y->size_bytes;
	*align = y->align;
	return 0;
}

int fe_kernel_info(const struct fe_module *m, const char *kernel, struct fe_launch_info *out,
		   struct sim_error *err)
{
	int k = fe_kernel_find(m, kernel, err);
	if (k < 0)
		return k;
	const struct fe_kernel *kk = &m->kernels[k];
	memset(out, 0, sizeof *out);
	out->kernel_name = m->funcs[kk->func].name;
	out->cxx_name = m->cxx_names[k];
	out->regs_per_thread = kk->regs_estimate;
	out->regs_source = FE_REGS_ESTIMATE;
	out->shared_bytes_per_cta = kk->shared_static_bytes;
	out->local_bytes_per_thread = kk->local_bytes;
	out->n_insts = kk->n_insts;
	out->insts = kk->wi;
	return 0;
}

/* ---- launches ------------------------------------------------------------------------ */

struct fe_launch *fe_launch_create(const struct fe_module *m, struct fe_memory *mem,
				   const char *kernel, const uint32_t grid[3], const uint32_t block[3],
				   uint32_t dyn_shared_bytes, const void *params, size_t params_bytes,
				   uint32_t regs_per_thread, struct sim_error *err)
{
	int ki = fe_kernel_find(m, kernel, err);
	if (ki < 0)
		return NULL;
	const struct fe_kernel *k = &m->kernels[ki];
	const struct fe_func *f = &m->funcs[k->func];
	uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
	uint64_t ctas = (uint64_t)grid[0] * grid[1] * grid[2];
	if (!threads || threads > 1024 || !ctas || ctas > UINT32_MAX) {
		sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, kernel,
			      "bad launch shape: grid (%u,%u,%u) block (%u,%u,%u); blocks have 1..1024 threads",
			      grid[0], grid[1], grid[2], block[0], block[1], block[2]);
		return NULL;
	}
	if (params_bytes < f->param_bytes) {
		sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, kernel,
			      "parameter buffer has %zu bytes, the kernel's parameters need %u",
			      params_bytes, f->param_bytes);
		return NULL;
	}
	if (dyn_shared_bytes > (1u << 24)) {
		sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, kernel, "dynamic shared memory of %u bytes is too large",
			      dyn_shared_bytes);
		return NULL;
	}
	struct fe_launch *l = calloc(1, sizeof *l);
	if (!l) {
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		return NULL;
	}
	l->m = m;
	l->k = k;
	l->mem = mem;
	memcpy(l->grid, grid, sizeof l->grid);
	memcpy(l->block, block, sizeof l->block);
	l->dyn_shared_bytes = dyn_shared_bytes;
	l->param_bytes = (uint32_t)params_bytes;
	l->params = calloc(params_bytes ? params_bytes : 1, 1);
	l->gsym_addr = calloc(m->n_syms ? m->n_syms : 1, sizeof *l->gsym_addr);
	if (!l->params || !l->gsym_addr) {
		fe_launch_destroy(l);
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		return NULL;
	}
	if (params_bytes)
		memcpy(l->params, params, params_bytes);
	l->n_ctas = (uint32_t)ctas;
	l->threads_per_cta = (uint32_t)threads;
	l->regs_per_thread = regs_per_thread ? regs_per_thread : k->regs_estimate;
	l->regs_source = regs_per_thread ? FE_REGS_GIVEN : FE_REGS_ESTIMATE;
	l->stack_bytes = FE_DEFAULT_STACK_BYTES;
	for (uint32_t s = 0; s < m->n_syms; s++) {
		uint8_t kind = m->syms[s].kind;
		if (kind != FE_SYM_GLOBAL && kind != FE_SYM_CONST)
			continue;
		if (fe_memory_sym_addr(mem, m, s, &l->gsym_addr[s])) {
			/* first launch on this memory: place the module's variables now */
			if (fe_memory_bind_module(mem, m, err) || fe_memory_sym_addr(mem, m, s, &l->gsym_addr[s])) {
				fe_launch_destroy(l);
				return NULL;
			}
		}
	}
	return l;
}

void fe_launch_set_regs(struct fe_launch *l, uint32_t regs_per_thread, enum fe_regs_source src)
{
	l->regs_per_thread = regs_per_thread;
	l->regs_source = (uint8_t)src;
}

void fe_launch_destroy(struct fe_launch *l)
{
	if (!l)
		return;
	free(l->params);
	free(l->gsym_addr);
	free(l);
}

void fe_launch_get_info(const struct fe_launch *l, struct fe_launch_info *out)
{
	memset(out, 0, sizeof *out);
	out->kernel_name = l->m->funcs[l->k->func].name;
	out->cxx_name = l->m->cxx_names[l->k - l->m->kernels];
	memcpy(out->grid, l->grid, sizeof out->grid);
	memcpy(out->block, l->block, sizeof out->block);
	out->n_ctas = l->n_ctas;
	out->threads_per_cta = l->threads_per_cta;
	out->regs_per_thread = l->regs_per_thread;
	out->regs_source = l->regs_source;
	out->shared_bytes_per_cta = l->k->shared_static_bytes + l->dyn_shared_bytes;
	out->local_bytes_per_thread = l->k->local_bytes;
	out->n_insts = l->k->n_insts;
	out->insts = l->k->wi;
	for (const struct fe_kernel *k = l->m->kernels; k < l->k; k++)
		out->code_first_inst += k->n_insts;
	out->code_module = l->m;
}

/* ---- CTAs and warps ------------------------------------------------------------------ */

void fe_cta_destroy(struct fe_cta *cta)
{
	if (!cta)
		return;
	if (cta->warps) {
		for (uint32_t i = 0; i < cta->n_warps; i++) {
			struct fe_warp *w = &cta->warps[i];
			free(w->regs);
			free(w->carry);
			if (w->stack != w->stack_inline)
				free(w->stack);
			free(w->save);
		}
	}
	free(cta->warps);
	free(cta->shared);
	free(cta->local);
	free(cta->fparam);
	free(cta);
}

/* Register words of one warp of c: [n_regs][n_lanes]. */
static size_t cta_reg_words(const struct fe_cta *c)
{
	return (size_t)(c->l->k->n_regs ? c->l->k->n_regs : 1) * c->warp_size;
}

/* Warp i of c at the kernel's start: every field of struct fe_warp that running a CTA changes is
 * set here, so that a restarted CTA's warps (fe_cta_restart) start as fe_cta_create's zeroed ones
 * without zeroing the whole struct again (a memset of its 832 bytes, 576 of them the inline
 * SIMT entries, per warp and CTA). What is not set here: the buffers and their
 * capacities (regs, carry, stack, cap, save, save_cap), the CTA's to keep; the SIMT entries
 * above the bottom one, zeroed when pushed (simt_push); red_pc and red_mask, written by a bar.red
 * before red_deliver reads them; and the bottom entry's mask words from mask_words on, zero in
 * every entry as long as the warp size is the CTA's (nothing writes them; fe_cta_recycle reuses a
 * CTA only for the same warp size). A field added to struct fe_warp is set here or belongs to
 * one of these. */
static void warp_start(struct fe_cta *c, uint32_t i)
{
	struct fe_warp *w = &c->warps[i];
	w->cta = c;
	w->k = c->l->k;
	w->id = i;
	w->n_lanes = c->warp_size;
	w->mask_words = (c->warp_size + 63) / 64;
	w->n_insts = 0;
	w->red_pending = false;
	w->red_gen = 0;
	w->save_len = 0;
	w->save_depth = 0;
	w->stack_used = 0;
	struct fe_simt_entry *e = &w->stack[0];
	e->pc = 0;
	e->rpc = FE_PC_NONE;
	e->call_pc = 0;
	e->kind = FE_SIMT_NORMAL;
	e->saved = 0;
	/* the warp's threads: all its lanes but in a CTA's partial last warp */
	const uint32_t first = i * c->warp_size, T = c->l->threads_per_cta;
	const uint32_t lanes = T - first < c->warp_size ? T - first : c->warp_size;
	for (uint32_t wd = 0; wd < w->mask_words; wd++)
		e->mask[wd] = wd * 64 >= lanes ? 0 :
			lanes - wd * 64 >= 64 ? ~0ull : (1ull << (lanes - wd * 64)) - 1;
	w->sp = 1;
	w->pc = 0;
}

void fe_cta_restart(struct fe_cta *c, uint32_t cta_id)
{
	const struct fe_launch *l = c->l;
	SIM_ASSERT(cta_id < l->n_ctas);
	c->id = cta_id;
	c->ctaid[0] = cta_id % l->grid[0];
	c->ctaid[1] = (cta_id / l->grid[0]) % l->grid[1];
	c->ctaid[2] = cta_id / (l->grid[0] * l->grid[1]);
	c->clock = NULL;
	c->clock_base_cycle = c->clock_base_ns = c->clock_base_insts = 0;
	memset(c->red_gen, 0, sizeof c->red_gen);
	memset(c->red_true, 0, sizeof c->red_true);
	memset(c->red_n, 0, sizeof c->red_n);
	/* The carry flags, shared and local memory, the call scratch and every register that some
	 * path reads before writing (k->entry_regs) start zeroed, as fe_cta_create's calloc leaves
	 * them for the timing model: their contents at a CTA's start are undefined in CUDA and
	 * PTX, but a kernel that reads before it writes must compute the same in both modes. The
	 * other registers are written before any read, so what they hold is never seen; zeroing
	 * them all was 3.8% of Rodinia lud's functional CPU (92 registers x 256 threads). */
	const uint32_t T = l->threads_per_cta;
	memset(c->shared, 0, c->shared_bytes);
	memset(c->local, 0, (size_t)T * l->k->local_bytes);
	memset(c->fparam, 0, (size_t)T * l->k->fparam_bytes);
	for (uint32_t i = 0; i < c->n_warps; i++) {
		struct fe_warp *w = &c->warps[i];
		for (uint32_t j = 0; j < l->k->n_entry_regs; j++) /* the rest are written first */
			memset(w->regs + (size_t)l->k->entry_regs[j] * c->warp_size, 0, c->warp_size * sizeof *w->regs);
		memset(w->carry, 0, c->warp_size);
		warp_start(c, i); /* the rest of the warp's state */
	}
}

struct fe_cta *fe_cta_create(struct fe_launch *l, uint32_t cta_id, uint32_t warp_size,
			     uint32_t sm_id, struct sim_error *err)
{
	if (cta_id >= l->n_ctas || warp_size == 0 || warp_size > WI_MAX_LANES) {
		sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, NULL,
			      "CTA %u of %u with warp size %u (1..%u) cannot be created", cta_id, l->n_ctas,
			      warp_size, WI_MAX_LANES);
		return NULL;
	}
	struct fe_cta *c = calloc(1, sizeof *c);
	if (!c)
		goto nomem;
	const struct fe_kernel *k = l->k;
	uint32_t T = l->threads_per_cta;
	c->l = l;
	c->id = cta_id;
	c->ctaid[0] = cta_id % l->grid[0];
	c->ctaid[1] = (cta_id / l->grid[0]) % l->grid[1];
	c->ctaid[2] = cta_id / (l->grid[0] * l->grid[1]);
	c->sm_id = sm_id;
	c->warp_size = warp_size;
	c->n_warps = (T + warp_size - 1) / warp_size;
	uint32_t dyn_off = k->dyn_shared ? (k->shared_static_bytes + 15) / 16 * 16 : k->shared_static_bytes;
	c->shared_bytes = dyn_off + l->dyn_shared_bytes;
	c->shared = calloc(c->shared_bytes ? c->shared_bytes : 1, 1);
	c->local = calloc((size_t)T * k->local_bytes + 1, 1);
	c->fparam = calloc((size_t)T * k->fparam_bytes + 1, 1);
	/* 64-byte aligned (struct fe_warp's layout relies on it); sizeof is a multiple of 64 */
	c->warps = aligned_alloc(_Alignof(struct fe_warp), (size_t)c->n_warps * sizeof *c->warps);
	if (!c->shared || !c->local || !c->fparam || !c->warps)
		goto nomem;
	memset(c->warps, 0, (size_t)c->n_warps * sizeof *c->warps);
	for (uint32_t i = 0; i < c->n_warps; i++) {
		struct fe_warp *w = &c->warps[i];
		w->regs = calloc(cta_reg_words(c), sizeof *w->regs);
		w->carry = calloc(warp_size, 1);
		w->cap = FE_SIMT_INLINE;
		w->stack = w->stack_inline;
		if (!w->regs || !w->carry)
			goto nomem;
		warp_start(c, i);
	}
	return c;
nomem:
	fe_cta_destroy(c);
	sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory creating CTA %u", cta_id);
	return NULL;
}

struct fe_cta *fe_cta_recycle(struct fe_cta *spare, struct fe_launch *l, uint32_t cta_id,
			      uint32_t warp_size, uint32_t sm_id, struct sim_error *err)
{
	if (spare && spare->l == l && spare->warp_size == warp_size && spare->sm_id == sm_id &&
	    cta_id < l->n_ctas) {
		fe_cta_restart(spare, cta_id);
		return spare;
	}
	fe_cta_destroy(spare);
	return fe_cta_create(l, cta_id, warp_size, sm_id, err);
}

void fe_cta_set_clock(struct fe_cta *cta, const struct fe_clock *clk)
{
	cta->clock = clk;
}

uint32_t fe_cta_warp_count(const struct fe_cta *cta)
{
	return cta->n_warps;
}

struct fe_warp *fe_cta_warp(struct fe_cta *cta, uint32_t i)
{
	return i < cta->n_warps ? &cta->warps[i] : NULL;
}

uint32_t fe_warp_pc(const struct fe_warp *w)
{
	return w->pc;
}

bool fe_warp_done(const struct fe_warp *w)
{
	return fe_warp_exited(w);
}

void fe_warp_next_mask(const struct fe_warp *w, uint64_t mask[WI_MASK_WORDS])
{
	/* fixed-size stores, not memset/memcpy calls: this runs for every issued instruction */
	fe_mask_zero(mask);
	if (w->sp) {
		const uint64_t *m = w->stack[w->sp - 1].mask;
		for (uint32_t i = 0; i < w->mask_words; i++)
			mask[i] = m[i];
	}
}
