/* SPDX-License-Identifier: MIT */
/* Launches, CTAs and warps: SIMT reconvergence stack (immediate post-dominators), calls and
 * returns, exit, barriers, and the purely functional runner fe_launch_run_functional. */
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

/* Warp i of c at the kernel's start, its struct zero but for its buffers (regs, carry, a
 * grown SIMT stack, the save area) and their capacities. */
static void warp_start(struct fe_cta *c, uint32_t i)
{
	struct fe_warp *w = &c->warps[i];
	w->cta = c;
	w->k = c->l->k;
	w->id = i;
	w->n_lanes = c->warp_size;
	w->mask_words = (c->warp_size + 63) / 64;
	struct fe_simt_entry *e = &w->stack[0];
	e->pc = 0;
	e->rpc = FE_PC_NONE;
	e->kind = FE_SIMT_NORMAL;
	/* the warp's threads: all its lanes but in a CTA's partial last warp */
	const uint32_t first = i * c->warp_size, T = c->l->threads_per_cta;
	const uint32_t lanes = T - first < c->warp_size ? T - first : c->warp_size;
	for (uint32_t wd = 0; wd * 64 < lanes; wd++)
		e->mask[wd] = lanes - wd * 64 >= 64 ? ~0ull : (1ull << (lanes - wd * 64)) - 1;
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
		uint64_t *regs = w->regs;
		uint8_t *carry = w->carry, *save = w->save;
		struct fe_simt_entry *stack = w->stack;
		uint32_t cap = w->cap;
		size_t save_cap = w->save_cap;
		memset(w, 0, sizeof *w);
		w->regs = regs;
		w->carry = carry;
		w->save = save;
		w->save_cap = save_cap;
		w->cap = cap;
		w->stack = stack; /* stack_inline, or the heap's if the stack grew */
		memset(w->stack, 0, sizeof *w->stack);
		for (uint32_t j = 0; j < l->k->n_entry_regs; j++) /* the rest are written first */
			memset(regs + (size_t)l->k->entry_regs[j] * c->warp_size, 0, c->warp_size * sizeof *regs);
		memset(w->carry, 0, c->warp_size);
		warp_start(c, i);
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

/* Top-of-stack pc, for w->pc after the stack changed. */
static uint32_t stack_pc(const struct fe_warp *w)
{
	return w->sp ? w->stack[w->sp - 1].pc : FE_PC_NONE;
}

bool fe_warp_done(const struct fe_warp *w)
{
	return w->sp == 0;
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

/* ---- SIMT stack ------------------------------------------------------------------------ */

static bool mask_empty(const struct fe_warp *w, const uint64_t *m)
{
	for (uint32_t i = 0; i < w->mask_words; i++)
		if (m[i])
			return false;
	return true;
}

static bool mask_eq(const struct fe_warp *w, const uint64_t *a, const uint64_t *b)
{
	return !memcmp(a, b, w->mask_words * sizeof *a);
}

uint32_t fe_warp_next_active(const struct fe_warp *w)
{
	return w->sp ? fe_mask_count(w, w->stack[w->sp - 1].mask) : 0;
}

/* Push an entry. The stack grows by doubling: depth is bounded by the nesting of divergent
 * branches and calls, so after the first few warps this never allocates. */
static struct fe_simt_entry *simt_push(struct fe_warp *w, struct sim_error *err)
{
	if (w->sp == w->cap) {
		bool in_warp = w->stack == w->stack_inline;
		struct fe_simt_entry *ns = in_warp ? malloc(2 * w->cap * sizeof *ns) :
			realloc(w->stack, 2 * w->cap * sizeof *ns);
		if (!ns) {
			sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory growing a SIMT stack");
			return NULL;
		}
		if (in_warp)
			memcpy(ns, w->stack_inline, w->cap * sizeof *ns);
		w->stack = ns;
		w->cap *= 2;
	}
	struct fe_simt_entry *e = &w->stack[w->sp++];
	memset(e, 0, sizeof *e);
	return e;
}

/* ---- the save stack of recursive calls ------------------------------------------------- */

/* Bytes of one lane's return values of callee. */
static uint32_t ret_bytes(const struct fe_module *m, const struct fe_func *callee)
{
	uint32_t n = 0;
	for (uint32_t r = 0; r < callee->n_rets; r++)
		n += m->syms[callee->rets[r]].size_bytes;
	return n;
}

/* A record: registers [n_regs][lanes], then per lane .local, call scratch and room for the
 * return values, then its frame's stack bytes (frame_stack_bytes) and its own size (so the top
 * record is found from the end). */
static size_t frame_record_bytes(const struct fe_warp *w, const struct fe_frame *fr, uint32_t rb)
{
	return (size_t)fr->n_regs * w->n_lanes * sizeof *w->regs +
	       (size_t)w->n_lanes * (fr->local_bytes + fr->fparam_bytes + rb) + 2 * sizeof(size_t);
}

/* The frame's bytes per thread on a hardware stack (FE_FRAME_LINK_BYTES). */
static uint64_t frame_stack_bytes(const struct fe_frame *fr)
{
	return (uint64_t)fr->local_bytes + fr->fparam_bytes + FE_FRAME_LINK_BYTES;
}

/* Threads of the warp's lanes exist up to the CTA's thread count (a partial last warp). */
static bool lane_thread(const struct fe_warp *w, uint32_t lane, size_t *t)
{
	*t = (size_t)w->id * w->n_lanes + lane;
	return *t < w->cta->l->threads_per_cta;
}

/* Before a call of a recursive function: its state as the caller's activation left it. */
static int frame_save(struct fe_warp *w, uint32_t func, uint32_t rb, struct sim_error *err)
{
	const struct fe_kernel *k = w->k;
	const struct fe_frame *fr = &k->frames[func];
	size_t need = frame_record_bytes(w, fr, rb);
	if (w->save_len + need > w->save_cap) {
		size_t cap = w->save_cap ? w->save_cap : 4096;
		while (cap < w->save_len + need)
			cap *= 2;
		uint8_t *ns = realloc(w->save, cap);
		if (!ns)
			return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL,
					     "out of memory growing a call stack (%zu bytes)", cap);
		w->save = ns;
		w->save_cap = cap;
	}
	uint8_t *p = w->save + w->save_len;
	size_t nr = (size_t)fr->n_regs * w->n_lanes * sizeof *w->regs;
	memcpy(p, w->regs + (size_t)fr->reg_off * w->n_lanes, nr);
	p += nr;
	for (uint32_t lane = 0; lane < w->n_lanes; lane++, p += fr->local_bytes + fr->fparam_bytes + rb) {
		size_t t;
		if (!lane_thread(w, lane, &t))
			continue;
		memcpy(p, w->cta->local + t * k->local_bytes + fr->local_off, fr->local_bytes);
		memcpy(p + fr->local_bytes, w->cta->fparam + t * k->fparam_bytes + fr->fparam_off,
		       fr->fparam_bytes);
	}
	size_t stack = (size_t)frame_stack_bytes(fr);
	memcpy(p, &stack, sizeof stack);
	memcpy(p + sizeof stack, &need, sizeof need);
	w->save_len += need;
	w->save_depth++;
	w->stack_used += stack;
	return 0;
}

/* The top record's start, and its size in *bytes. */
static uint8_t *frame_top(const struct fe_warp *w, size_t *bytes)
{
	memcpy(bytes, w->save + w->save_len - sizeof *bytes, sizeof *bytes);
	return w->save + w->save_len - *bytes;
}

static void frame_drop(struct fe_warp *w)
{
	size_t bytes, stack;
	frame_top(w, &bytes);
	memcpy(&stack, w->save + w->save_len - 2 * sizeof stack, sizeof stack);
	w->stack_used -= stack;
	w->save_len -= bytes;
	w->save_depth--;
}

/* Copy a finished call's results from the callee's return params to the caller's. A recursive
 * callee's own state is restored first (its return params, and the caller's when the caller is
 * itself, are in it): the results wait in the record meanwhile. */
static void call_return(struct fe_warp *w, const struct fe_simt_entry *f)
{
	const struct fe_launch *l = w->cta->l;
	const struct fe_module *m = l->m;
	const struct fe_kernel *k = l->k;
	const struct fe_call *c = &m->calls[k->prog[f->call_pc].call];
	const struct fe_func *callee = &m->funcs[c->func];
	if (!f->saved) {
		for (uint32_t lane = 0; lane < w->n_lanes; lane++) {
			if (!fe_mask_test(f->mask, lane))
				continue;
			uint8_t *fp = w->cta->fparam + (size_t)(w->id * w->n_lanes + lane) * k->fparam_bytes;
			for (uint32_t r = 0; r < c->n_rets; r++)
				memmove(fp + k->sym_off[c->rets[r]], fp + k->sym_off[callee->rets[r]],
					m->syms[callee->rets[r]].size_bytes);
		}
		return;
	}
	const struct fe_frame *fr = &k->frames[c->func];
	uint32_t rb = ret_bytes(m, callee), per_lane = fr->local_bytes + fr->fparam_bytes + rb;
	size_t bytes;
	uint8_t *rec = frame_top(w, &bytes), *lanes = rec + (size_t)fr->n_regs * w->n_lanes * sizeof *w->regs;
	for (uint32_t lane = 0; lane < w->n_lanes; lane++) {
		size_t t;
		if (!lane_thread(w, lane, &t))
			continue;
		uint8_t *fp = w->cta->fparam + t * k->fparam_bytes, *q = lanes + (size_t)lane * per_lane;
		if (fe_mask_test(f->mask, lane))
			for (uint32_t r = 0, o = 0; r < c->n_rets; o += m->syms[callee->rets[r]].size_bytes, r++)
				memcpy(q + fr->local_bytes + fr->fparam_bytes + o, fp + k->sym_off[callee->rets[r]],
				       m->syms[callee->rets[r]].size_bytes);
		memcpy(w->cta->local + t * k->local_bytes + fr->local_off, q, fr->local_bytes);
		memcpy(fp + fr->fparam_off, q + fr->local_bytes, fr->fparam_bytes);
		if (fe_mask_test(f->mask, lane))
			for (uint32_t r = 0, o = 0; r < c->n_rets; o += m->syms[callee->rets[r]].size_bytes, r++)
				memcpy(fp + k->sym_off[c->rets[r]], q + fr->local_bytes + fr->fparam_bytes + o,
				       m->syms[callee->rets[r]].size_bytes);
	}
	memcpy(w->regs + (size_t)fr->reg_off * w->n_lanes, rec, (size_t)fr->n_regs * w->n_lanes * sizeof *w->regs);
	frame_drop(w);
}

/* Pop entries that are finished: empty, reconverged (pc reached rpc), or calls whose lanes
 * have all returned. */
static void simt_settle(struct fe_warp *w)
{
	while (w->sp) {
		struct fe_simt_entry *e = &w->stack[w->sp - 1];
		if (mask_empty(w, e->mask)) {
			/* a call whose lanes all exited: nothing to return to */
			if (e->kind == FE_SIMT_CALL && e->saved)
				frame_drop(w);
			w->sp--;
		} else if (e->kind == FE_SIMT_NORMAL && e->pc == e->rpc) {
			w->sp--;
		} else if (e->kind == FE_SIMT_CALL && e->pc == FE_PC_NONE) {
			call_return(w, e);
			w->sp--;
		} else {
			break;
		}
	}
}

static void lanes_leave(struct fe_warp *w, uint32_t from, const uint64_t *lanes)
{
	for (uint32_t i = from; i < w->sp; i++)
		for (uint32_t j = 0; j < w->mask_words; j++)
			w->stack[i].mask[j] &= ~lanes[j];
}

/* The barrier of a bar.red has released this warp: deliver the CTA's reduction. */
static void red_deliver(struct fe_warp *w)
{
	struct fe_cta *c = w->cta;
	const struct fe_inst *ri = &w->k->prog[w->red_pc];
	uint32_t s = (w->red_gen - 1) & 1;
	uint64_t v = ri->part == FE_BAR_RED_POPC ? c->red_true[s] :
		ri->part == FE_BAR_RED_AND ? c->red_true[s] == c->red_n[s] : c->red_true[s] > 0;
	for (uint32_t lane = 0; lane < w->n_lanes; lane++)
		if (fe_mask_test(w->red_mask, lane))
			fe_exec_write(w, ri->o[0].reg, lane, v, (enum fe_type)ri->type);
	w->red_pending = false;
}

/* What every instruction does first: a pending bar.red result, the guard-applied mask (it goes
 * straight into out; nothing after this writes out->mask) and out's fields. */
static inline __attribute__((always_inline)) void
exec_begin(struct fe_warp *w, const struct fe_simt_entry *top, uint32_t pc, const struct fe_xop *x,
	   struct warp_inst *out)
{
	const struct fe_kernel *k = w->k;
	if (w->red_pending)
		red_deliver(w);
	uint64_t *active = out->mask;
	if (x->guard == FE_NO_REG) { /* fe_exec_guard's first case, without the call */
		fe_mask_zero(active);
		for (uint32_t i = 0; i < w->mask_words; i++)
			active[i] = top->mask[i];
	} else {
		fe_exec_guard(w, x->guard, x->guard_neg, top->mask, active);
	}
	out->si = &k->wi[pc];
	out->pc = pc;
	out->n_lanes = w->n_lanes;
	out->n_active = fe_mask_count(w, active);
	out->diverged = false;
	out->taken = false;
	out->access_bytes = (uint32_t)k->wi[pc].access_bytes * k->wi[pc].vec;
	w->n_insts++;
}

void fe_warp_settle(struct fe_warp *w)
{
	const struct fe_kernel *k = w->k;
	simt_settle(w);
	if (w->sp && w->stack[w->sp - 1].pc >= k->n_insts) {
		/* fell off the end of the code without ret/exit: those threads end */
		uint64_t all[WI_MASK_WORDS];
		memcpy(all, w->stack[w->sp - 1].mask, sizeof all);
		lanes_leave(w, 0, all);
		simt_settle(w);
	}
	w->pc = stack_pc(w);
}

/* Pop what finished and end lanes that ran off the code; the next pc into out. */
static void settle_tail(struct fe_warp *w, struct warp_inst *out)
{
	fe_warp_settle(w);
	out->next_pc = w->pc;
}

/* A control instruction (fe_op_is_control) at the top entry's pc. */
static __attribute__((noinline)) int warp_control(struct fe_warp *w, struct warp_inst *out,
						  struct sim_error *err)
{
	const struct fe_kernel *k = w->k;
	struct fe_simt_entry *top = &w->stack[w->sp - 1];
	uint32_t pc = top->pc;
	const struct fe_inst *in = &k->prog[pc];
	const struct fe_xop *x = &k->xop[pc];
	exec_begin(w, top, pc, x, out);
	uint64_t *active = out->mask;
	/* set where only the top entry's pc moved (no entry pushed, no lanes left) */
	bool only_pc = false;
	switch (x->op) {
	case FE_OP_BRA: {
		uint32_t target = x->target;
		enum fe_bra_way way = fe_bra_uniform(w, top, pc, target, active, out->n_active);
		if (way != FE_BRA_DIVERGES) {
			out->taken = way == FE_BRA_TAKEN;
			only_pc = true;
		} else {
			/* the words past the warp's lanes are zero in every mask (active and every entry) */
			uint64_t nt[WI_MASK_WORDS];
			fe_mask_zero(nt);
			for (uint32_t i = 0; i < w->mask_words; i++)
				nt[i] = top->mask[i] & ~active[i];
			/* divergence: the entry waits at the reconvergence point; the fall-through
			 * path runs first, then the taken path */
			uint32_t rpc = k->rpc[pc];
			top->pc = rpc;
			struct fe_simt_entry *e = simt_push(w, err);
			if (!e)
				return SIM_ERR_NOMEM;
			e->pc = target;
			e->rpc = rpc;
			memcpy(e->mask, active, sizeof e->mask);
			if (!(e = simt_push(w, err)))
				return SIM_ERR_NOMEM;
			e->pc = pc + 1;
			e->rpc = rpc;
			memcpy(e->mask, nt, sizeof e->mask);
			out->diverged = out->taken = true;
		}
		break;
	}
	case FE_OP_CALL: {
		top->pc = pc + 1;
		if (out->n_active == 0)
			break;
		const struct fe_module *m = w->cta->l->m;
		const struct fe_call *c = &m->calls[in->call];
		const struct fe_func *callee = &m->funcs[c->func];
		if (c->builtin == FE_BUILTIN_ASSERTFAIL) {
			for (uint32_t lane = 0; lane < w->n_lanes; lane++)
				if (fe_mask_test(active, lane))
					return fe_exec_fault(w, lane, pc, err, "assertion failed (__assertfail)");
		}
		if (c->builtin == FE_BUILTIN_VPRINTF) {
			/* printed at once, lane by lane: the order a warp's lines come out of the
			 * device's buffer; the call itself costs no simulated time beyond its issue */
			for (uint32_t lane = 0; lane < w->n_lanes; lane++) {
				if (!fe_mask_test(active, lane))
					continue;
				uint8_t *fp = w->cta->fparam + (size_t)(w->id * w->n_lanes + lane) * k->fparam_bytes;
				uint64_t a[2] = {0, 0};
				for (uint32_t i = 0; i < 2 && i < c->n_args; i++)
					memcpy(&a[i], fp + k->sym_off[c->args[i]],
					       m->syms[c->args[i]].size_bytes < 8 ? m->syms[c->args[i]].size_bytes : 8);
				int32_t r = fe_exec_printf(w, lane, a[0], a[1], w->cta->l->printf_out);
				if (c->n_rets) {
					uint8_t *rp = fp + k->sym_off[c->rets[0]];
					uint32_t rb = m->syms[c->rets[0]].size_bytes;
					memset(rp, 0, rb);
					memcpy(rp, &r, rb < 4 ? rb : 4);
				}
			}
			break;
		}
		/* a recursive callee's state is saved before its arguments overwrite it */
		bool save = k->frames[c->func].recursive;
		if (save && w->stack_used + frame_stack_bytes(&k->frames[c->func]) > w->cta->l->stack_bytes) {
			for (uint32_t lane = 0;; lane++)
				if (fe_mask_test(active, lane))
					return fe_exec_fault(w, lane, pc, err, "call stack overflow: %u nested "
							     "calls of recursive functions need about %llu "
							     "bytes of stack a thread (cudaLimitStackSize is "
							     "%llu)", w->save_depth + 1,
							     (unsigned long long)(w->stack_used +
								frame_stack_bytes(&k->frames[c->func])),
							     (unsigned long long)w->cta->l->stack_bytes);
		}
		int rc = save ? frame_save(w, c->func, ret_bytes(m, callee), err) : 0;
		if (rc)
			return rc;
		for (uint32_t lane = 0; lane < w->n_lanes; lane++) {
			if (!fe_mask_test(active, lane))
				continue;
			uint8_t *fp = w->cta->fparam + (size_t)(w->id * w->n_lanes + lane) * k->fparam_bytes;
			for (uint32_t a = 0; a < c->n_args; a++)
				memmove(fp + k->sym_off[callee->params[a]], fp + k->sym_off[c->args[a]],
					m->syms[callee->params[a]].size_bytes);
		}
		struct fe_simt_entry *e = simt_push(w, err);
		if (!e) {
			if (save)
				frame_drop(w);
			return SIM_ERR_NOMEM;
		}
		e->saved = save;
		e->pc = k->func_start[c->func];
		e->rpc = FE_PC_NONE;
		e->kind = FE_SIMT_CALL;
		e->call_pc = pc;
		memcpy(e->mask, active, sizeof e->mask);
		out->taken = true;
		break;
	}
	case FE_OP_RET: {
		int32_t f = (int32_t)w->sp - 1;
		while (f >= 0 && w->stack[f].kind != FE_SIMT_CALL)
			f--;
		if (f < 0)
			goto do_exit; /* ret from the kernel entry ends its threads */
		top->pc = pc + 1;
		if (out->n_active == 0)
			break;
		out->taken = true;
		if ((uint32_t)f == w->sp - 1) {
			if (mask_eq(w, active, top->mask)) {
				top->pc = FE_PC_NONE; /* all returned: settle copies results and pops */
			} else {
				/* some lanes return: the rest continue in a new entry above the frame */
				uint64_t rest[WI_MASK_WORDS];
				for (uint32_t i = 0; i < WI_MASK_WORDS; i++)
					rest[i] = top->mask[i] & ~active[i];
				top->pc = FE_PC_NONE;
				struct fe_simt_entry *e = simt_push(w, err);
				if (!e)
					return SIM_ERR_NOMEM;
				e->pc = pc + 1;
				e->rpc = FE_PC_NONE;
				memcpy(e->mask, rest, sizeof e->mask);
			}
		} else {
			lanes_leave(w, (uint32_t)f + 1, active);
		}
		break;
	}
	case FE_OP_EXIT:
	do_exit:
		top->pc = pc + 1;
		lanes_leave(w, 0, active);
		break;
	case FE_OP_TRAP:
		if (out->n_active == 0) {
			top->pc = pc + 1;
			break;
		}
		for (uint32_t lane = 0;; lane++)
			if (fe_mask_test(active, lane))
				return fe_exec_fault(w, lane, pc, err, "trap executed");
	case FE_OP_BAR:
		/* arrival only: the timing model (or fe_launch_run_functional) holds the warp */
		top->pc = pc + 1;
		only_pc = true;
		if (in->part != FE_BAR_SYNC) {
			struct fe_cta *c = w->cta;
			uint32_t g = w->red_gen++, s = g & 1;
			if (c->red_gen[s] != g) { /* a calloc'd CTA starts at generation 0 */
				c->red_gen[s] = g;
				c->red_true[s] = c->red_n[s] = 0;
			}
			const struct fe_opnd *po = &in->o[in->n_opnd - 1];
			for (uint32_t lane = 0; lane < w->n_lanes; lane++) {
				if (!fe_mask_test(active, lane))
					continue;
				c->red_n[s]++;
				c->red_true[s] += fe_exec_read_pred(w, po, lane);
			}
			w->red_pending = true;
			w->red_pc = pc;
			memcpy(w->red_mask, active, sizeof w->red_mask);
		}
		break;
	default: /* fe_op_is_control names exactly the cases above */
		SIM_ASSERT(!"warp_control of a non-control instruction");
		break;
	}
	if (only_pc) {
		/* The top entry's mask is the nonempty one it had (settled after every
		 * instruction); with its pc neither at its reconvergence point nor a call frame's
		 * FE_PC_NONE, nor past the code, simt_settle and the check below change nothing. */
		uint32_t npc = top->pc;
		if (npc != top->rpc && npc != FE_PC_NONE && npc < k->n_insts) {
			out->next_pc = npc;
			return 0;
		}
	}
	settle_tail(w, out);
	return 0;
}

int fe_warp_execute(struct fe_warp *w, struct warp_inst *out, struct sim_error *err)
{
	SIM_ASSERT(w->sp > 0);
	const struct fe_kernel *k = w->k;
	struct fe_simt_entry *top = &w->stack[w->sp - 1];
	uint32_t pc = top->pc;
	SIM_ASSERT(pc < k->n_insts);
	const struct fe_xop *x = &k->xop[pc];
	int rc;
	if (fe_op_is_control(x->op)) {
		rc = warp_control(w, out, err);
	} else {
		exec_begin(w, top, pc, x, out);
		rc = fe_exec_inst(w, pc, out->mask, out, err);
		if (!rc) {
			top->pc = pc + 1;
			/* only the top entry's pc moved: as in warp_control's only_pc case */
			uint32_t npc = pc + 1;
			if (npc != top->rpc && npc != FE_PC_NONE && npc < k->n_insts) {
				out->next_pc = npc;
				w->pc = npc;
				return 0;
			}
			settle_tail(w, out);
		}
	}
	/* on every path, faults included: some move the pc before failing */
	w->pc = stack_pc(w);
	return rc;
}
