/* SPDX-License-Identifier: MIT */
/* wmma, the warp-wide matrix instructions nvcuda::wmma compiles to (tensor cores): loads and
 * stores of fragments and their product, over a fragment layout of our own (PTX leaves the
 * layout to the implementation; frontend/NOTES.md). */
#include <string.h>

#include "decode.h"
#include "exec_int.h"

/* Fragment layout: lane l's slot s (register s / epr, its element s % epr from the low bits)
 * holds element e = (l * S + s) mod (rows * cols) of the matrix, S = regs * epr slots a lane,
 * in row-major order (row e / cols, column e % cols) whatever the memory layout; an f16 a/b
 * fragment has more slots than elements, so every element sits in two (m16n16k16), one or four
 * lanes' slots, all loaded with it. Element-wise code on fragments (x[i] *= alpha) changes the
 * copies alike; mma reads each element from its last slot in lane order. */
static inline uint32_t frag_elem(const struct fe_wmma_geom *g, uint32_t lane, uint32_t slot)
{
	return (lane * g->regs * g->epr + slot) % (g->rows * g->cols);
}

/* Slot s's bits of a register value. */
static inline uint64_t slot_bits(const struct fe_wmma_geom *g, uint64_t reg, uint32_t s)
{
	uint32_t b = 8 * g->esize;
	return (reg >> (b * (s % g->epr))) & ((1ull << b) - 1);
}

static int need_full_warp(const struct fe_warp *w, uint32_t pc, const uint64_t *mask, struct sim_error *err)
{
	if (w->n_lanes == 32 && (mask[0] & 0xffffffffull) == 0xffffffffull)
		return 0;
	uint32_t lane = 0;
	while (lane < w->n_lanes && !fe_mask_test(mask, lane))
		lane++;
	return fe_exec_fault(w, lane < w->n_lanes ? lane : 0, pc, err, "wmma needs every lane of a 32-lane "
			     "warp (.sync.aligned): %u lanes active of %u", fe_mask_count(w, mask), w->n_lanes);
}

static int wmma_ldst(struct fe_warp *w, uint32_t pc, const struct fe_inst *in,
		     struct warp_inst *out, struct sim_error *err)
{
	const bool st = in->op == FE_OP_WMMA_STORE, col = in->boolop & FE_WMMA_COL;
	const struct fe_opnd *ao = &in->o[st ? 0 : 1], *vo = &in->o[st ? 1 : 0];
	struct fe_wmma_geom g;
	bool ok = fe_wmma_geom(in->part, in->cmp, in->type, &g);
	SIM_ASSERT(ok && vo->n == g.regs);
	const uint32_t lines = col ? g.cols : g.rows, line_elems = col ? g.rows : g.cols;
	const uint32_t lane_bytes = fe_wmma_lane_bytes(in), per_line = lines >= 32 ? 1 : 32 / lines;
	uint64_t dstate = 0;
	for (uint32_t lane = 0; lane < 32; lane++) {
		uint64_t a = addr_value(w, ao, lane), tm;
		uint64_t stride = in->n_opnd > 2 ? (uint32_t)fe_exec_src(w, &in->o[2], lane, FE_T_U32) : line_elems;
		uint64_t regs[FE_MAX_VEC] = {0};
		for (uint32_t j = 0; st && j < g.regs; j++)
			regs[j] = *reg_slot(w, vo->vec[j], lane);
		for (uint32_t s = 0; s < g.regs * g.epr; s++) {
			uint32_t e = frag_elem(&g, lane, s), r = e / g.cols, c = e % g.cols;
			uint64_t ea = a + ((col ? (uint64_t)c * stride + r : (uint64_t)r * stride + c) * g.esize);
			if (ea % g.esize)
				return fe_exec_fault(w, lane, pc, err, "misaligned wmma %s of %u bytes at 0x%llx",
						     st ? "store" : "load", g.esize, (unsigned long long)ea);
			uint8_t *p = fe_exec_mem_at(w, lane, in->space, ea, g.esize, &tm);
			if (!p)
				return fe_exec_fault(w, lane, pc, err, "wmma %s of %u bytes at 0x%llx is out of bounds",
						     st ? "store" : "load", g.esize, (unsigned long long)ea);
			uint64_t v = 0;
			memcpy(&v, p, g.esize); /* little-endian host */
			if (st) {
				uint64_t nv = slot_bits(&g, regs[s / g.epr], s);
				memcpy(p, &nv, g.esize);
				dstate += (nv - v) * fe_state_key(tm);
			} else {
				regs[s / g.epr] |= v << (8 * g.esize * (s % g.epr));
			}
		}
		for (uint32_t j = 0; !st && j < g.regs; j++)
			dst(w, vo->vec[j], lane, regs[j], g.esize == 4 ? (enum fe_type)in->type : FE_T_B32);
		/* the timing model's view: lane l reads part l % per_line of line l / per_line (a row,
		 * or a column for .col), so the lanes together touch exactly the fragment's lines */
		uint32_t line = (lane / per_line) % lines, part = lane % per_line;
		uint64_t la = a + ((uint64_t)line * stride * g.esize) + (uint64_t)part * lane_bytes;
		if (out->addr && fe_exec_mem_at(w, lane, in->space, la, 1, &tm))
			out->addr[lane] = tm;
		else if (out->addr)
			out->addr[lane] = la;
	}
	out->access_bytes = lane_bytes;
	if (st)
		w->cta->l->mem_state += dstate;
	return 0;
}

/* The warp's fragment in operand o (geometry g) as a matrix of doubles, row-major. */
static void gather(const struct fe_warp *w, const struct fe_opnd *o, const struct fe_wmma_geom *g, uint8_t type,
		   double *m)
{
	for (uint32_t lane = 0; lane < 32; lane++)
		for (uint32_t s = 0; s < g->regs * g->epr; s++) {
			uint64_t b = slot_bits(g, *reg_slot(w, o->vec[s / g->epr], lane), s);
			double v;
			switch (type) {
			case FE_T_F16: v = fe_half_to_f32((uint16_t)b); break;
			case FE_T_F32: { float f; uint32_t u = (uint32_t)b; memcpy(&f, &u, 4); v = f; break; }
			case FE_T_S8: v = (int8_t)b; break;
			case FE_T_S32: v = (int32_t)(uint32_t)b; break;
			default: v = (double)b; break; /* u8 */
			}
			m[frag_elem(g, lane, s)] = v;
		}
}

/* D = A x B + C. Floating point: every product of two halves is exact in a double; the k
 * products of a row and column are added to C in k order in double precision (exact unless the
 * terms span more than 53 bits of magnitude) and the sum rounded once to D's type, to nearest
 * even. NVIDIA's tensor cores add in an undocumented order and precision, so their last bit may
 * differ. Integers: exact, wrapped to 32 bits, or clamped with .satfinite. */
static void wmma_mma(struct fe_warp *w, const struct fe_inst *in)
{
	struct fe_wmma_geom ga, gb, gc, gd;
	bool ok = fe_wmma_geom(FE_WMMA_A, in->cmp, in->type3, &ga) && fe_wmma_geom(FE_WMMA_B, in->cmp, in->type3, &gb) &&
		  fe_wmma_geom(FE_WMMA_C, in->cmp, in->type2, &gc) && fe_wmma_geom(FE_WMMA_C, in->cmp, in->type, &gd);
	SIM_ASSERT(ok);
	double a[512], b[512], c[256];
	gather(w, &in->o[1], &ga, in->type3, a);
	gather(w, &in->o[2], &gb, in->type3, b);
	gather(w, &in->o[3], &gc, in->type2, c);
	const uint32_t M = ga.rows, N = gb.cols, K = ga.cols;
	double d[256];
	for (uint32_t i = 0; i < M; i++)
		for (uint32_t j = 0; j < N; j++) {
			double sum = c[i * N + j];
			for (uint32_t k = 0; k < K; k++)
				sum += a[i * K + k] * b[k * N + j];
			d[i * N + j] = sum;
		}
	const struct fe_opnd *o = &in->o[0];
	for (uint32_t lane = 0; lane < 32; lane++) {
		uint64_t regs[FE_MAX_VEC] = {0};
		for (uint32_t s = 0; s < gd.regs * gd.epr; s++) {
			double v = d[frag_elem(&gd, lane, s)];
			uint64_t bits;
			if (in->type == FE_T_F16) {
				bits = fe_double_to_half(v);
			} else if (in->type == FE_T_F32) {
				float f = (float)v;
				uint32_t u;
				memcpy(&u, &f, 4);
				bits = u;
			} else if (in->flags & FE_IF_SAT) {
				bits = (uint32_t)(int32_t)(v > 2147483647.0 ? 2147483647.0 : v < -2147483648.0 ? -2147483648.0 : v);
			} else {
				bits = (uint32_t)(int64_t)v; /* exact (|v| < 2^53), wrapped */
			}
			regs[s / gd.epr] |= bits << (8 * gd.esize * (s % gd.epr));
		}
		for (uint32_t j = 0; j < gd.regs; j++)
			dst(w, o->vec[j], lane, regs[j], gd.esize == 4 ? (enum fe_type)in->type : FE_T_B32);
	}
}

int fe_exec_wmma(struct fe_warp *w, uint32_t pc, const struct fe_inst *in, const uint64_t *mask,
		 struct warp_inst *out, struct sim_error *err)
{
	int rc = need_full_warp(w, pc, mask, err);
	if (rc)
		return rc;
	if (in->op != FE_OP_WMMA_MMA)
		return wmma_ldst(w, pc, in, out, err);
	wmma_mma(w, in);
	return 0;
}
