/* SPDX-License-Identifier: MIT */
/* Operands of the functional executor: special registers (the clocks included), immediates by
 * type, guards, register writes and the fault message naming a thread. */
#include <stdarg.h>
#include <stdio.h>

#include "exec_int.h"

/* The clock registers. On an SM (fe_cta_set_clock) they read the SM's simulated core cycle and
 * the simulated time; on the functional executor, which has no time, its clock counts the
 * warp instructions the CTA has executed so far, this one included: it advances with every
 * instruction any warp of the CTA executes, so a spin-wait on it ends (frontend/NOTES.md). A CTA
 * taken off its SM by a budget cut counts on from the SM's cycle (and time) at the cut. */
static uint64_t clock_value(const struct fe_warp *w, uint8_t sr)
{
	const struct fe_cta *c = w->cta;
	if (c->clock)
		return sr == FE_SR_GLOBALTIMER ? c->clock->time_ns(c->clock->ctx) :
			c->clock->cycle(c->clock->ctx);
	uint64_t n = fe_cta_warp_insts(c) - c->clock_base_insts;
	return (sr == FE_SR_GLOBALTIMER ? c->clock_base_ns : c->clock_base_cycle) + n;
}

uint64_t fe_exec_sreg(const struct fe_warp *w, uint32_t lane, uint8_t sr)
{
	const struct fe_cta *c = w->cta;
	const struct fe_launch *l = c->l;
	uint32_t t = tid_linear(w, lane), bx = l->block[0], by = l->block[1];
	uint32_t l32 = lane & 31;
	switch (sr) {
	case FE_SR_TID_X: return t % bx;
	case FE_SR_TID_Y: return (t / bx) % by;
	case FE_SR_TID_Z: return t / (bx * by);
	case FE_SR_NTID_X: case FE_SR_NTID_Y: case FE_SR_NTID_Z: return l->block[sr - FE_SR_NTID_X];
	case FE_SR_CTAID_X: case FE_SR_CTAID_Y: case FE_SR_CTAID_Z: return c->ctaid[sr - FE_SR_CTAID_X];
	case FE_SR_NCTAID_X: case FE_SR_NCTAID_Y: case FE_SR_NCTAID_Z: return l->grid[sr - FE_SR_NCTAID_X];
	case FE_SR_LANEID: return l32;
	case FE_SR_WARPID: return t / 32;
	case FE_SR_NWARPID: return (l->threads_per_cta + 31) / 32;
	case FE_SR_SMID: return c->sm_id;
	case FE_SR_NSMID: return c->sm_id + 1;
	case FE_SR_CLOCK: case FE_SR_CLOCK64: case FE_SR_GLOBALTIMER: return clock_value(w, sr);
	case FE_SR_GRIDID: return 0;
	case FE_SR_LANEMASK_EQ: return 1ull << l32;
	case FE_SR_LANEMASK_LT: return (1ull << l32) - 1;
	case FE_SR_LANEMASK_LE: return (2ull << l32) - 1;
	case FE_SR_LANEMASK_GT: return 0xffffffffull & ~((2ull << l32) - 1);
	case FE_SR_LANEMASK_GE: return 0xffffffffull & ~((1ull << l32) - 1);
	case FE_SR_WARPSZ: return 32;
	default: return 0;
	}
}

/* An immediate operand read as type t. */
uint64_t fe_exec_imm(const struct fe_opnd *o, enum fe_type t)
{
	if (o->imm_is_f) {
		/* a 0f/0d literal of the instruction's own width is used bit for bit (NaN payloads) */
		if ((t == FE_T_F32 && o->n == 32) || (t == FE_T_F64 && o->n == 64))
			return (uint64_t)o->imm;
		if (t == FE_T_F32)
			return f32_bits((float)o->fval);
		if (t == FE_T_F64)
			return f64_bits(o->fval);
		if (t == FE_T_F16)
			return fe_double_to_half(o->fval);
		return (uint64_t)o->imm;   /* 0f bit pattern into .b32 */
	}
	if (t == FE_T_F32)
		return f32_bits((float)o->imm);
	if (t == FE_T_F64)
		return f64_bits((double)o->imm);
	return (uint64_t)o->imm;
}

uint64_t fe_exec_src(const struct fe_warp *w, const struct fe_opnd *o, uint32_t lane, enum fe_type t)
{
	return fe_opnd_value(w, o, lane, t);
}

bool fe_exec_read_pred(const struct fe_warp *w, const struct fe_opnd *o, uint32_t lane)
{
	return fe_opnd_value(w, o, lane, FE_T_PRED) != 0;
}

void fe_exec_write(struct fe_warp *w, uint16_t reg, uint32_t lane, uint64_t v, enum fe_type t)
{
	dst(w, reg, lane, v, t);
}

int fe_exec_fault(const struct fe_warp *w, uint32_t lane, uint32_t pc, struct sim_error *err,
		  const char *fmt, ...)
{
	const struct fe_cta *c = w->cta;
	const struct fe_launch *l = c->l;
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	uint32_t t = tid_linear(w, lane);
	const struct wi_static *ws = &l->k->wi[pc];
	return sim_error_set(err, SIM_ERR_PROGRAM, l->m->path, (int)ws->src_line, 0,
			     l->m->funcs[l->k->func].name,
			     "block (%u,%u,%u) thread (%u,%u,%u) pc %u '%s': %s", c->ctaid[0],
			     c->ctaid[1], c->ctaid[2], t % l->block[0], (t / l->block[0]) % l->block[1],
			     t / (l->block[0] * l->block[1]), pc, ws->text, what);
}

void fe_exec_pred_bits(const struct fe_warp *w, uint16_t reg, uint64_t *bits)
{
	/* computed for every lane without branches (the predicate often differs between lanes) */
	const uint64_t *g = reg_slot(w, reg, 0);
	for (uint32_t i = 0; i < w->mask_words; i++) {
		uint32_t b = i * 64, n = w->n_lanes - b < 64 ? w->n_lanes - b : 64;
		const uint64_t *gw = g + b;
		uint64_t nz = 0; /* bit j: lane b + j's predicate is nonzero; gathered from the top */
#pragma GCC unroll 8
		for (uint32_t j = n; j-- > 0;)
			nz = nz * 2 + (gw[j] != 0);
		bits[i] = nz;
	}
}

void fe_exec_guard(const struct fe_warp *w, uint16_t guard, bool guard_neg, const uint64_t *mask,
		   uint64_t *out)
{
	fe_mask_zero(out);
	if (guard == FE_NO_REG) {
		for (uint32_t i = 0; i < w->mask_words; i++)
			out[i] = mask[i];
		return;
	}
	/* a lane stays when its predicate differs from the guard's negation */
	uint64_t nz[WI_MASK_WORDS];
	fe_exec_pred_bits(w, guard, nz);
	for (uint32_t i = 0; i < w->mask_words; i++)
		out[i] = fe_guard_word(w, i, mask[i], nz[i], guard_neg);
}
