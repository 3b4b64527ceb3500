/* SPDX-License-Identifier: MIT */
/* Memory instructions of the functional executor: address spaces and generic windows, bounds
 * and alignment faults, ld/st with vectors, atomics in lane order, texture fetches. */
#include <math.h>
#include <string.h>

#include "exec_int.h"

/* ---- memory --------------------------------------------------------------------------- */

/* The page of the last global access of an instruction: the lanes of a warp mostly touch
 * one page, and the page table does not change while an instruction executes. */
struct page_memo {
	uint64_t pno;
	uint8_t *base;           /* NULL: nothing remembered */
};

/* fe_mem_ptr through the memo: the same pointer (an access inside one page is the page's
 * base plus the offset; one that crosses a page asks fe_mem_ptr). */
static inline uint8_t *global_ptr(const struct fe_memory *mem, struct page_memo *pm, uint64_t a,
				  uint32_t n)
{
	const uint64_t page = 1ull << FE_PAGE_BITS;
	uint64_t pno = a >> FE_PAGE_BITS, off = a & (page - 1);
	if (off + n > page)
		return fe_mem_ptr(mem, a, n);
	if (!pm->base || pm->pno != pno) {
		uint8_t *b = fe_mem_page(mem, pno);
		if (!b)
			return NULL;
		pm->pno = pno;
		pm->base = b;
	}
	return pm->base + off;
}

/* [a, a+n) inside an area of size bytes, without overflow for huge (negative) a. */
static bool fits(uint64_t a, uint32_t n, uint64_t size)
{
	return a <= size && n <= size - a;
}

/* Host pointer for an access of n bytes at address a in space sp for lane; tm gets the
 * address the timing model sees. NULL when outside the space. */
static inline uint8_t *mem_at(struct fe_warp *w, uint32_t lane, uint8_t sp, bool kparam, uint64_t a,
			      uint32_t n, uint64_t *tm, struct page_memo *pm)
{
	struct fe_cta *c = w->cta;
	struct fe_launch *l = c->l;
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
		return global_ptr(l->mem, pm, a, n);
	case WI_SPACE_SHARED:
		return fits(a, n, c->shared_bytes) ? c->shared + a : NULL;
	case WI_SPACE_LOCAL: {
		uint32_t t = tid_linear(w, lane);
		uint32_t lb = l->k->local_bytes;
		if (!fits(a, n, lb))
			return NULL;
		/* The timing address: local memory is interleaved by 4-byte words across a CTA's
		 * threads (padded to whole warps), as the hardware and GPGPU-Sim lay it out
		 * (shader.cc translate_local_memaddr): word d of every thread is contiguous, so a
		 * warp's access to the same local word is one 128 B line, not a line per few
		 * threads. A CTA's local memory is one region of local_bytes x padded threads. An
		 * access wider than a word has its first word's address (one address per lane);
		 * GPGPU-Sim splits it into a word each, which gives the same lines for 8 bytes and
		 * twice ours for 16. */
		if (!generic) {
			uint64_t ptpc = ((uint64_t)l->threads_per_cta + c->warp_size - 1) / c->warp_size * c->warp_size;
			*tm = FE_LOCAL_WIN + (uint64_t)c->id * ptpc * lb + (uint64_t)(a / 4) * 4 * ptpc + 4 * (uint64_t)t +
			      a % 4;
		}
		return c->local + (size_t)t * lb + a;
	}
	case WI_SPACE_PARAM:
		if (kparam)
			return fits(a, n, l->param_bytes) ? l->params + a : NULL;
		return fits(a, n, l->k->fparam_bytes) ?
			c->fparam + (size_t)tid_linear(w, lane) * l->k->fparam_bytes + a : NULL;
	default:
		return NULL;
	}
}

uint8_t *fe_exec_mem_at(struct fe_warp *w, uint32_t lane, uint8_t sp, uint64_t a, uint32_t n,
			uint64_t *tm)
{
	struct page_memo pm = {0};
	return mem_at(w, lane, sp, false, a, n, tm, &pm);
}

uint8_t *fe_exec_generic_ptr(struct fe_warp *w, uint32_t lane, uint64_t a, uint32_t n)
{
	struct page_memo pm = {0};
	uint64_t tm;
	return mem_at(w, lane, WI_SPACE_NONE, false, a, n, &tm, &pm);
}

static const char *space_name(uint8_t sp)
{
	static const char *const n[] = {"generic", "global", "shared", "local", "const", "param", "tex"};
	return sp < 7 ? n[sp] : "?";
}

/* Little-endian n-byte values; on a little-endian host the common widths are one access. */
static inline uint64_t load_le(const uint8_t *p, uint32_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	switch (n) {
	case 1: return p[0];
	case 2: { uint16_t v; memcpy(&v, p, 2); return v; }
	case 4: { uint32_t v; memcpy(&v, p, 4); return v; }
	case 8: { uint64_t v; memcpy(&v, p, 8); return v; }
	default: break;
	}
#endif
	uint64_t v = 0;
	for (uint32_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static inline void store_le(uint8_t *p, uint64_t v, uint32_t n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	switch (n) {
	case 1: p[0] = (uint8_t)v; return;
	case 2: { uint16_t x = (uint16_t)v; memcpy(p, &x, 2); return; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(p, &x, 4); return; }
	case 8: memcpy(p, &v, 8); return;
	default: break;
	}
#endif
	for (uint32_t i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* a % n for the access sizes (powers of two) without a division */
static inline uint64_t misalign(uint64_t a, uint32_t n)
{
	return (n & (n - 1)) == 0 ? a & (n - 1) : a % n;
}

/* A fault of the fast ld/st loops, with the message of the per-lane path (misalignment is
 * checked first); out of line, so the loops keep their values in registers. */
static __attribute__((noinline, cold)) int ldst_fault(const struct fe_warp *w, uint32_t lane,
						      uint32_t pc, uint8_t sp, bool st, uint32_t tb,
						      uint64_t a, struct sim_error *err)
{
	if (a & (tb - 1))
		return fe_exec_fault(w, lane, pc, err, "misaligned %s %s of %u bytes at 0x%llx",
				     space_name(sp), st ? "store" : "load", tb, (unsigned long long)a);
	return fe_exec_fault(w, lane, pc, err, "%s %s of %u bytes at 0x%llx is out of bounds",
			     space_name(sp), st ? "store" : "load", tb, (unsigned long long)a);
}

/* The operands of one FE_X_LD/FE_X_ST instruction for ldst_loop. */
struct ldst_args {
	const uint64_t *ar;      /* address register column, or fe_zero_column */
	uint64_t base;           /* immediate offset plus a global symbol's address */
	uint64_t *col;           /* the value register's column */
	uint64_t *addr;          /* the addresses' record (NULL: none) */
	uint8_t *area;           /* flat: shared memory or the param buffer (not NULL) */
	uint64_t last;           /* flat: the highest address an access may start at */
	const struct fe_memory *mem;
	uint64_t *state;         /* store: the launch's mem_state */
	bool sg, f16;            /* load: norm() sign-extends / an f16 keeps 16 bits */
	uint8_t sp;
};

/* One loop over the lanes, specialised by the constant arguments (direction, flat area or
 * global pages, access bytes, and for 4-byte loads the sign). Equivalent to the per-lane path
 * of fe_exec_ldst: an access of tb (a power of two) bytes is aligned when a % tb == 0, then
 * [a, a + tb) lies inside a flat area of area_bytes >= tb bytes exactly when a <= area_bytes -
 * tb, and never crosses a global page (4096 is a multiple of tb), so the page of a holds it,
 * where global_ptr would find it through the same fe_mem_page. Lanes before a faulting one
 * have done their access, as in the per-lane path.
 * Each lane's checks are one comparison: flat, a rotated right by log2(tb) is at most
 * last / tb exactly when a is aligned and at most last (a misaligned a's low bits land at
 * the top, above any last / tb); global, a with the page offset's bits above the alignment
 * cleared equals the page's first address exactly when a is aligned and in that page. */
static inline __attribute__((always_inline)) int
ldst_loop(struct fe_warp *w, uint32_t pc, const uint64_t *mask, const struct ldst_args *la,
	  const bool flat, const bool st, const uint32_t tb, const int sgn, const bool rec,
	  struct sim_error *err)
{
	/* locals, not la->: the stores to col and addr (uint64_t) could alias la's fields */
	const uint64_t *ar = la->ar, base = la->base;
	uint64_t *col = la->col, *addr = la->addr;
	uint8_t *area = la->area;
	const struct fe_memory *mem = la->mem;
	const bool sg = sgn < 0 ? la->sg : sgn > 0, f16 = tb == 2 && la->f16;
	const unsigned sh = 64 - 8 * tb, lg = (unsigned)__builtin_ctz(tb);
	const uint64_t lastq = la->last >> lg;
	const uint64_t page = 1ull << FE_PAGE_BITS, pmask = ~(page - 1) | (tb - 1);
	uint64_t pfirst = page / 2;  /* the page held: its first address (page / 2: none yet,
	                                no a & pmask has that bit) */
	uintptr_t delta = 0;         /* host address - device address in that page */
	uint64_t dstate = 0;         /* store: mem_state's change, added once after the loop */
	FE_FOR_LANES(w, mask, lane,
		uint64_t a = base + ar[lane];
		uint8_t *p;
		if (flat) {
			if (__builtin_expect(((a >> lg) | (a << ((64 - lg) & 63))) > lastq, 0))
				return ldst_fault(w, lane, pc, la->sp, st, tb, a, err);
			p = area + a;
		} else {
			if (__builtin_expect((a & pmask) != pfirst, 0)) {
				if (a & (tb - 1))
					return ldst_fault(w, lane, pc, la->sp, st, tb, a, err);
				uint8_t *b = fe_mem_page(mem, a >> FE_PAGE_BITS);
				if (!b)
					return ldst_fault(w, lane, pc, la->sp, st, tb, a, err);
				pfirst = a & ~(page - 1);
				delta = (uintptr_t)b - (uintptr_t)pfirst;
			}
			p = (uint8_t *)(uintptr_t)(a + delta);
		}
		if (rec)
			addr[lane] = a;
		if (st) {
			/* the livelock rule's state hash: a store of the value already there adds 0
			 * (a load from the line about to be written, a subtraction and two multiplies) */
			uint64_t old = load_le(p, tb), v = (col[lane] << sh) >> sh;
			store_le(p, v, tb);
			dstate += (v - old) * fe_state_key(a);
		} else {
			/* dst(): norm() to the type as a shift pair */
			uint64_t v = load_le(p, tb);
			if (f16)
				v &= 0xffff;
			col[lane] = sg ? (uint64_t)((int64_t)(v << sh) >> sh) : (v << sh) >> sh;
		}
	);
	if (st)
		*la->state += dstate;
	return 0;
}

/* One FE_X_LD/FE_X_ST instruction: its operands, then ldst_loop with the constant arguments
 * (tb and sgn: as ldst_loop takes them, x->bits / 8 and -1 where not constant) and whether it
 * records addresses. */
static inline __attribute__((always_inline)) int
ldst_run(struct fe_warp *w, uint32_t pc, const struct fe_xop *x, const uint64_t *mask, uint64_t *addr,
	 struct sim_error *err, const bool flat, const bool st, const uint32_t tb, const int sgn)
{
	struct fe_cta *c = w->cta;
	struct fe_launch *l = c->l;
	struct ldst_args la = {
		.ar = x->r[0] != FE_NO_REG ? reg_slot(w, x->r[0], 0) : fe_zero_column,
		.base = x->imm[0] + (x->gsym != UINT32_MAX ? l->gsym_addr[x->gsym] : 0),
		.col = reg_slot(w, x->d, 0),
		.addr = addr,
		.mem = l->mem,
		.state = &l->mem_state,
		.sg = x->ssigned,
		.f16 = x->f16,
		.sp = x->space,
	};
	if (flat) {
		const bool shared = x->space == WI_SPACE_SHARED;
		const uint64_t bytes = shared ? c->shared_bytes : l->param_bytes;
		la.area = shared ? c->shared : l->params;
		/* a flat area that no access fits: the per-lane path (it faults) */
		if (bytes < tb || !la.area)
			return fe_exec_ldst(w, pc, x->in, mask, addr, err);
		la.last = bytes - tb;
	}
	return addr ? ldst_loop(w, pc, mask, &la, flat, st, tb, sgn, true, err) :
		ldst_loop(w, pc, mask, &la, flat, st, tb, sgn, false, err);
}

/* A load from a flat area at a constant address (no address register: a kernel parameter, a
 * shared variable): every lane reads the same bytes, so they are checked and read once and
 * copied into each active lane; a fault is the first active lane's, as in ldst_loop. */
static __attribute__((noinline)) int fast_ld_flat_uniform(struct fe_warp *w, uint32_t pc,
							  const struct fe_xop *x, const uint64_t *mask,
							  uint64_t *addr, struct sim_error *err)
{
	struct fe_cta *c = w->cta;
	struct fe_launch *l = c->l;
	const uint32_t tb = x->bits / 8;
	const bool shared = x->space == WI_SPACE_SHARED;
	const uint64_t bytes = shared ? c->shared_bytes : l->param_bytes, a = x->imm[0];
	const uint8_t *area = shared ? c->shared : l->params;
	uint64_t v = 0;
	bool read = false;
	uint64_t *col = reg_slot(w, x->d, 0);
	FE_FOR_LANES(w, mask, lane,
		if (!read) {
			/* ldst_loop's checks (a per-lane fault there faults the first lane here) */
			if ((a & (tb - 1)) || bytes < tb || a > bytes - tb || !area)
				return ldst_fault(w, lane, pc, x->space, false, tb, a, err);
			v = load_le(area + a, tb);
			if (tb == 2 && x->f16)
				v &= 0xffff;
			const unsigned sh = 64 - 8 * tb;
			v = x->ssigned ? (uint64_t)((int64_t)(v << sh) >> sh) : (v << sh) >> sh;
			read = true;
		}
		col[lane] = v;
		if (addr)
			addr[lane] = a;
	);
	return 0;
}

/* One function per shape, never inlined into a caller; the link picks it (fe_exec_ldst_fn).
 * Named fast_* as the ALU loops are: scripts/functional-speed.sh counts fast_* as the
 * executor's. */
#define LDST_FN(NAME, FLAT, ST, TB, SGN)                                                       \
	static __attribute__((noinline)) int NAME(struct fe_warp *w, uint32_t pc, const struct fe_xop *x, \
						  const uint64_t *mask, uint64_t *addr,          \
						  struct sim_error *err)                         \
	{                                                                                      \
		return ldst_run(w, pc, x, mask, addr, err, FLAT, ST, TB, SGN);                 \
	}
LDST_FN(fast_ld_flat_u32, true, false, 4, 0) LDST_FN(fast_ld_flat_s32, true, false, 4, 1)
LDST_FN(fast_ld_flat_64, true, false, 8, 0) LDST_FN(fast_ld_flat_any, true, false, x->bits / 8, -1)
LDST_FN(fast_st_flat_32, true, true, 4, 0) LDST_FN(fast_st_flat_any, true, true, x->bits / 8, 0)
LDST_FN(fast_ld_global_u32, false, false, 4, 0) LDST_FN(fast_ld_global_s32, false, false, 4, 1)
LDST_FN(fast_ld_global_64, false, false, 8, 0) LDST_FN(fast_ld_global_any, false, false, x->bits / 8, -1)
LDST_FN(fast_st_global_32, false, true, 4, 0) LDST_FN(fast_st_global_any, false, true, x->bits / 8, 0)
#undef LDST_FN

fe_ldst_fn fe_exec_ldst_fn(const struct fe_xop *x)
{
	if (x->kind != FE_X_LD && x->kind != FE_X_ST)
		return NULL;
	const bool flat = x->space == WI_SPACE_SHARED || x->space == WI_SPACE_PARAM;
	if (x->kind == FE_X_LD && flat && x->r[0] == FE_NO_REG)
		return fast_ld_flat_uniform;
	if (x->kind == FE_X_ST && x->bits == 32)
		return flat ? fast_st_flat_32 : fast_st_global_32;
	if (x->kind == FE_X_ST)
		return flat ? fast_st_flat_any : fast_st_global_any;
	if (x->bits == 32 && x->ssigned)
		return flat ? fast_ld_flat_s32 : fast_ld_global_s32;
	if (x->bits == 32)
		return flat ? fast_ld_flat_u32 : fast_ld_global_u32;
	if (x->bits == 64)
		return flat ? fast_ld_flat_64 : fast_ld_global_64;
	return flat ? fast_ld_flat_any : fast_ld_global_any;
}

/* Every ld/st lane by lane through mem_at: any space, generic addressing, vectors. */
int fe_exec_ldst(struct fe_warp *w, uint32_t pc, const struct fe_inst *in, const uint64_t *mask,
		 uint64_t *addr, struct sim_error *err)
{
	bool st = in->op == FE_OP_ST;
	const struct fe_opnd *ao = st ? &in->o[0] : &in->o[1], *vo = st ? &in->o[1] : &in->o[0];
	const enum fe_type t = (enum fe_type)in->type;
	const uint32_t tb = fe_type_bytes(t), n = tb * in->vec;
	const bool vec = vo->kind == FE_OK_VEC;
	/* a scalar store of a plain register reads its column directly */
	const uint64_t *sv = (st && in->vec == 1 && vo->kind == FE_OK_REG && !vo->neg) ? reg_slot(w, vo->reg, 0) : NULL;
	struct page_memo pm = {0, NULL};
	uint64_t dstate = 0; /* store: the launch's mem_state moves by this (see ldst_loop) */
	FE_FOR_LANES(w, mask, lane,
		uint64_t a = addr_value(w, ao, lane), tm;
		if (misalign(a, n))
			return fe_exec_fault(w, lane, pc, err, "misaligned %s %s of %u bytes at 0x%llx",
					     space_name(in->space), st ? "store" : "load", n, (unsigned long long)a);
		uint8_t *p = mem_at(w, lane, in->space, ao->kparam, a, n, &tm, &pm);
		if (!p)
			return fe_exec_fault(w, lane, pc, err, "%s %s of %u bytes at 0x%llx is out of bounds",
					     space_name(in->space), st ? "store" : "load", n, (unsigned long long)a);
		if (addr)
			addr[lane] = tm;
		if (sv) {
			uint64_t old = load_le(p, tb), v = zext(sv[lane], tb);
			store_le(p, v, tb);
			dstate += (v - old) * fe_state_key(tm);
			continue;
		}
		for (uint32_t e = 0; e < in->vec; e++) {
			uint16_t r = vec ? vo->vec[e] : vo->reg;
			if (st) {
				uint64_t v = vec ?
					(r == FE_NO_REG ? (uint64_t)vo->vimm[e] : *reg_slot(w, r, lane)) :
					fe_exec_src(w, vo, lane, t);
				uint64_t old = load_le(p + e * tb, tb);
				v = zext(v, tb);
				store_le(p + e * tb, v, tb);
				dstate += (v - old) * fe_state_key(tm + e * tb);
			} else {
				uint64_t v = load_le(p + e * tb, tb);
				if (t == FE_T_F16)
					v &= 0xffff;
				dst(w, r, lane, v, t);
			}
		}
	);
	if (st)
		w->cta->l->mem_state += dstate;
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
	struct page_memo pm = {0, NULL};
	uint64_t dstate = 0;  /* the launch's mem_state moves by this (see ldst_loop) */
	bool changed = false; /* some lane changed memory: forward progress */
	for (uint32_t lane = 0; lane < w->n_lanes; lane++) {
		if (!fe_mask_test(mask, lane))
			continue;
		uint64_t a = addr_value(w, ao, lane), tm;
		if (a % n)
			return fe_exec_fault(w, lane, pc, err, "misaligned atomic of %u bytes at 0x%llx", n,
					     (unsigned long long)a);
		uint8_t *p = mem_at(w, lane, in->space, false, a, n, &tm, &pm);
		if (!p)
			return fe_exec_fault(w, lane, pc, err, "%s atomic of %u bytes at 0x%llx is out of bounds",
					     space_name(in->space), n, (unsigned long long)a);
		if (out->addr)
			out->addr[lane] = tm;
		uint64_t old = load_le(p, n);
		uint64_t nv = zext(atom_apply(in, old, fe_exec_src(w, bo, lane, t), co ? fe_exec_src(w, co, lane, t) : 0), n);
		store_le(p, nv, n);
		changed |= nv != old;
		dstate += (nv - old) * fe_state_key(tm);
		if (!red)
			dst(w, in->o[0].reg, lane, old, t);
	}
	w->cta->l->mem_state += dstate;
	w->cta->l->atomic_changes += changed;
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

