/* SPDX-License-Identifier: MIT */
/* Memory instructions of the functional executor: address spaces and generic windows, bounds
 * and alignment faults, ld/st with vectors, atomics in lane order, texture fetches. */
#include <math.h>
#include <string.h>

#include "exec_int.h"

/* ---- memory --------------------------------------------------------------------------- */

/* Host pointer for an access of n bytes at address a in space sp for lane; tm gets the
 * address the timing model sees. NULL when outside the space. */
static bool fits(uint64_t a, uint32_t n, uint64_t size)
{
	return a <= size && n <= size - a;
}

static uint8_t *mem_at(struct fe_warp *w, uint32_t lane, uint8_t sp, bool kparam, uint64_t a,
		       uint32_t n, uint64_t *tm)
{
	struct fe_cta *c = w->cta;
	struct fe_launch *l = c->l;
	uint32_t t = tid_linear(w, lane);
	*tm = a; /* generic accesses show the timing model the generic address itself */
	bool generic = sp == WI_SPACE_NONE;
	if (generic) { /* find the window */
		if (a >= FE_SHARED_WIN && a < FE_SHARED_WIN + FE_WIN_BYTES) {
			sp = WI_SPACE_SHARED;
			a -= FE_SHARED_WIN;
		} else if (a >= FE_LOCAL_WIN && a < FE_LOCAL_WIN + FE_WIN_BYTES) {
			sp = WI_SPACE_LOCAL;
			a -= FE_LOCAL_WIN;
		} else if (a >= FE_PARAM_WIN && a < FE_PARAM_WIN + FE_WIN_BYTES) {
			sp = WI_SPACE_PARAM;
			kparam = true;
			a -= FE_PARAM_WIN;
		} else {
			sp = WI_SPACE_GLOBAL;
		}
	}
	if (!generic)
		*tm = a;
	switch (sp) {
	case WI_SPACE_GLOBAL: case WI_SPACE_CONST:
		return fe_mem_ptr(l->mem, a, n);
	case WI_SPACE_SHARED:
		return fits(a, n, c->shared_bytes) ? c->shared + a : NULL;
	case WI_SPACE_LOCAL: {
		uint32_t lb = l->k->local_bytes;
		if (!fits(a, n, lb))
			return NULL;
		/* local memory is interleaved in DRAM in hardware; give the timing model a
		 * distinct address per thread */
		if (!generic)
			*tm = FE_LOCAL_WIN + ((uint64_t)c->id * l->threads_per_cta + t) * lb + a;
		return c->local + (size_t)t * lb + a;
	}
	case WI_SPACE_PARAM:
		if (kparam)
			return fits(a, n, l->param_bytes) ? l->params + a : NULL;
		return fits(a, n, l->k->fparam_bytes) ? c->fparam + (size_t)t * l->k->fparam_bytes + a : NULL;
	default:
		return NULL;
	}
}

/* [a, a+n) inside an area of size bytes, without overflow for huge (negative) a. */
static const char *space_name(uint8_t sp)
{
	static const char *const n[] = {"generic", "global", "shared", "local", "const", "param", "tex"};
	return sp < 7 ? n[sp] : "?";
}

static uint64_t load_le(const uint8_t *p, uint32_t n)
{
	uint64_t v = 0;
	for (uint32_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static void store_le(uint8_t *p, uint64_t v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

int fe_exec_ldst(struct fe_warp *w, uint32_t pc, const struct fe_inst *in, const uint64_t *mask,
		     struct warp_inst *out, struct sim_error *err)
{
	bool st = in->op == FE_OP_ST;
	const struct fe_opnd *ao = st ? &in->o[0] : &in->o[1], *vo = st ? &in->o[1] : &in->o[0];
	uint32_t tb = fe_type_bytes(in->type), n = tb * in->vec;
	for (uint32_t lane = 0; lane < w->n_lanes; lane++) {
		if (!fe_mask_test(mask, lane))
			continue;
		uint64_t a = addr_value(w, ao, lane), tm;
		if (a % n)
			return fe_exec_fault(w, lane, pc, err, "misaligned %s %s of %u bytes at 0x%llx",
					     space_name(in->space), st ? "store" : "load", n, (unsigned long long)a);
		uint8_t *p = mem_at(w, lane, in->space, ao->kparam, a, n, &tm);
		if (!p)
			return fe_exec_fault(w, lane, pc, err, "%s %s of %u bytes at 0x%llx is out of bounds",
					     space_name(in->space), st ? "store" : "load", n, (unsigned long long)a);
		if (out->addr)
			out->addr[lane] = tm;
		for (uint32_t e = 0; e < in->vec; e++) {
			uint16_t r = vo->kind == FE_OK_VEC ? vo->vec[e] : vo->reg;
			if (st) {
				uint64_t v = (vo->kind == FE_OK_VEC) ?
					(r == FE_NO_REG ? (uint64_t)vo->vimm[e] : *reg_slot(w, r, lane)) :
					fe_exec_src(w, vo, lane, (enum fe_type)in->type);
				store_le(p + e * tb, v, tb);
			} else {
				uint64_t v = load_le(p + e * tb, tb);
				if (in->type == FE_T_F16)
					v &= 0xffff;
				dst(w, r, lane, v, (enum fe_type)in->type);
			}
		}
	}
	return 0;
}

static uint64_t atom_apply(const struct fe_inst *in, uint64_t old, uint64_t b, uint64_t c)
{
	enum fe_type t = in->type;
	uint32_t n = fe_type_bytes(t);
	bool s = fe_type_is_signed(t);
	switch (in->part) {
	case FE_ATOM_ADD:
		if (t == FE_T_F32)
			return f32_bits(as_f32(old) + as_f32(b));
		if (t == FE_T_F64)
			return f64_bits(as_f64(old) + as_f64(b));
		return old + b;
	case FE_ATOM_MIN:
		if (t == FE_T_F32)
			return f32_bits(fminf(as_f32(old), as_f32(b)));
		return s ? ((int64_t)sext(old, n) < (int64_t)sext(b, n) ? old : b) :
			(zext(old, n) < zext(b, n) ? old : b);
	case FE_ATOM_MAX:
		if (t == FE_T_F32)
			return f32_bits(fmaxf(as_f32(old), as_f32(b)));
		return s ? ((int64_t)sext(old, n) > (int64_t)sext(b, n) ? old : b) :
			(zext(old, n) > zext(b, n) ? old : b);
	case FE_ATOM_EXCH: return b;
	case FE_ATOM_CAS: return zext(old, n) == zext(b, n) ? c : old;
	case FE_ATOM_AND: return old & b;
	case FE_ATOM_OR: return old | b;
	case FE_ATOM_XOR: return old ^ b;
	case FE_ATOM_INC: return zext(old, n) >= zext(b, n) ? 0 : old + 1;
	case FE_ATOM_DEC: return (zext(old, n) == 0 || zext(old, n) > zext(b, n)) ? b : old - 1;
	default: return old;
	}
}

/* Lanes apply their atomics one after another in lane order, so results are deterministic. */
int fe_exec_atom(struct fe_warp *w, uint32_t pc, const struct fe_inst *in, const uint64_t *mask,
		     struct warp_inst *out, struct sim_error *err)
{
	bool red = in->op == FE_OP_RED;
	const struct fe_opnd *ao = red ? &in->o[0] : &in->o[1];
	const struct fe_opnd *bo = red ? &in->o[1] : &in->o[2];
	const struct fe_opnd *co = (!red && in->n_opnd > 3) ? &in->o[3] : NULL;
	uint32_t n = fe_type_bytes(in->type);
	enum fe_type t = (enum fe_type)in->type;
	for (uint32_t lane = 0; lane < w->n_lanes; lane++) {
		if (!fe_mask_test(mask, lane))
			continue;
		uint64_t a = addr_value(w, ao, lane), tm;
		if (a % n)
			return fe_exec_fault(w, lane, pc, err, "misaligned atomic of %u bytes at 0x%llx", n,
					     (unsigned long long)a);
		uint8_t *p = mem_at(w, lane, in->space, false, a, n, &tm);
		if (!p)
			return fe_exec_fault(w, lane, pc, err, "%s atomic of %u bytes at 0x%llx is out of bounds",
					     space_name(in->space), n, (unsigned long long)a);
		if (out->addr)
			out->addr[lane] = tm;
		uint64_t old = load_le(p, n);
		uint64_t nv = atom_apply(in, old, fe_exec_src(w, bo, lane, t), co ? fe_exec_src(w, co, lane, t) : 0);
		store_le(p, nv, n);
		if (!red)
			dst(w, in->o[0].reg, lane, old, t);
	}
	return 0;
}

/* tex.1d/.2d.v4.dtype.ctype with point sampling: texel = floor(coordinate) (scaled by the size
 * for normalised coordinates), clamped to the edge; integer coordinates index directly. */
int fe_exec_tex(struct fe_warp *w, uint32_t pc, const struct fe_inst *in, const uint64_t *mask,
		    struct warp_inst *out, struct sim_error *err)
{
	const struct fe_opnd *ao = &in->o[1], *vo = &in->o[0];
	const struct fe_memory *mem = w->cta->l->mem;
	for (uint32_t lane = 0; lane < w->n_lanes; lane++) {
		if (!fe_mask_test(mask, lane))
			continue;
		uint64_t h = *reg_slot(w, ao->reg, lane);
		const struct fe_tex_desc *d = fe_mem_texture(mem, h);
		if (!d)
			return fe_exec_fault(w, lane, pc, err, "0x%llx is not a texture object",
					     (unsigned long long)h);
		int64_t xy[2] = {0, 0};
		uint32_t size[2] = {d->width, d->height};
		for (int k = 0; k < in->part && k < ao->n; k++) {
			uint64_t v = *reg_slot(w, ao->vec[k], lane);
			if (in->type2 == FE_T_F32) {
				double c = as_f32(v);
				if (d->normalized_coords)
					c *= size[k];
				xy[k] = isnan(c) ? 0 : c < -1e9 ? -1 : c > 1e9 ? (int64_t)size[k] : (int64_t)floor(c);
			} else {
				xy[k] = (int64_t)sext(v, 4);
			}
			xy[k] = xy[k] < 0 ? 0 : xy[k] >= size[k] ? size[k] - 1 : xy[k];
		}
		uint64_t a = d->addr + (uint64_t)xy[1] * d->pitch_bytes + (uint64_t)xy[0] * 4u * d->channels;
		const uint8_t *p = fe_mem_ptr(mem, a, 4u * d->channels);
		if (!p)
			return fe_exec_fault(w, lane, pc, err, "texel at 0x%llx is not allocated",
					     (unsigned long long)a);
		if (out->addr)
			out->addr[lane] = a;
		for (int e = 0; e < 4; e++) {
			uint64_t v = e < d->channels ? load_le(p + 4 * e, 4) : 0;
			dst(w, vo->kind == FE_OK_VEC ? vo->vec[e] : FE_NO_REG, lane, v, (enum fe_type)in->type);
		}
	}
	return 0;
}

