/* SPDX-License-Identifier: MIT */
/* A warp's SIMT reconvergence stack (immediate post-dominators): branches, calls and returns
 * with the save stack of recursive calls, exit, barriers, and fe_warp_execute. */
#include <stdlib.h>
#include <string.h>

#include "exec_int.h"

/* Top-of-stack pc, for w->pc after the stack changed. */
static uint32_t stack_pc(const struct fe_warp *w)
{
	return w->sp ? w->stack[w->sp - 1].pc : FE_PC_NONE;
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
