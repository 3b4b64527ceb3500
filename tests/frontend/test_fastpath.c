/* SPDX-License-Identifier: MIT */
/* The executor's fast loops (struct fe_xop, the scalar ld/st loop) against the full per-lane
 * semantics: every instruction below runs from the same random register, shared and global
 * state through fe_exec_inst and fe_exec_inst_generic, with full, sparse, single-lane and
 * empty masks, on 32-lane and 128-lane warps; registers, carry flags, memory, the addresses
 * reported to the timing model (where the fast path is asked for them) and any fault must
 * agree bit for bit. */
#include <stdlib.h>

#include "fe_test.h"
#include "frontend/exec_int.h"

#define SHARED_BYTES 2048
#define GLOBAL_BYTES 4096

static const char *text =
	".version 9.0\n.target sm_75\n.address_size 64\n"
	".visible .entry k(.param .u64 p0, .param .u32 p1)\n{\n"
	".reg .pred %p<8>;\n.reg .b16 %h<8>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n"
	".reg .f32 %f<8>;\n.reg .f64 %fd<8>;\n"
	".shared .align 8 .b8 sh[2048];\n"
	/* integer arithmetic and logic, every width */
	"add.s32 %r1, %r2, %r3;\nadd.u32 %r1, %r2, 7;\nadd.s64 %rd1, %rd2, %rd3;\n"
	"add.u64 %rd1, %rd2, -5;\nadd.s16 %h1, %h2, %h3;\nadd.u16 %h1, %h2, 300;\n"
	"add.cc.u32 %r1, %r2, %r3;\naddc.u32 %r4, %r2, %r3;\nadd.sat.s32 %r1, %r2, %r3;\n"
	"sub.s32 %r1, %r2, %r3;\nsub.u64 %rd1, 100, %rd2;\nsub.s16 %h1, %h2, %h3;\n"
	"and.b32 %r1, %r2, %r3;\nor.b32 %r1, %r2, %r3;\nxor.b32 %r1, %r2, 0xff00ff;\n"
	"and.b64 %rd1, %rd2, %rd3;\nor.b16 %h1, %h2, %h3;\nnot.b32 %r1, %r2;\nnot.b64 %rd1, %rd2;\n"
	"and.pred %p1, %p2, %p3;\nor.pred %p1, !%p2, %p3;\nxor.pred %p1, %p2, !%p3;\n"
	"not.pred %p1, %p2;\nnot.pred %p1, !%p2;\n"
	"shl.b32 %r1, %r2, %r3;\nshl.b32 %r1, %r2, 5;\nshl.b64 %rd1, %rd2, %r3;\nshl.b16 %h1, %h2, %r3;\n"
	"shr.u32 %r1, %r2, %r3;\nshr.s32 %r1, %r2, %r3;\nshr.s32 %r1, %r2, 31;\nshr.s64 %rd1, %rd2, %r3;\n"
	"shr.u64 %rd1, %rd2, %r3;\nshr.s16 %h1, %h2, %r3;\nshr.b32 %r1, %r2, %r3;\n"
	/* immediate counts (one shift for every lane), within and past the width */
	"shl.b32 %r1, %r2, 40;\nshl.b64 %rd1, %rd2, 63;\nshl.b16 %h1, %h2, 16;\nshr.u32 %r1, %r2, 33;\n"
	"shr.u32 %r1, %r2, 7;\nshr.s32 %r1, %r2, 32;\nshr.s64 %rd1, %rd2, 64;\nshr.s64 %rd1, %rd2, 9;\n"
	"shr.u64 %rd1, %rd2, 70;\nshr.u64 %rd1, %rd2, 40;\nshr.s16 %h1, %h2, 15;\nshr.s16 %h1, %h2, 20;\n"
	"shr.u16 %h1, %h2, 16;\nshr.u16 %h1, %h2, 3;\nshr.b64 %rd1, %rd2, 0;\n"
	"mul.lo.s32 %r1, %r2, %r3;\nmul.lo.u64 %rd1, %rd2, %rd3;\nmul.wide.s32 %rd1, %r2, %r3;\n"
	"mul.wide.u32 %rd1, %r2, 12;\nmul.wide.s16 %r1, %h2, %h3;\nmul.wide.u16 %r1, %h2, %h3;\n"
	"mul.hi.s32 %r1, %r2, %r3;\nmul.lo.s16 %h1, %h2, %h3;\n"
	"mad.lo.s32 %r1, %r2, %r3, %r4;\nmad.lo.u32 %r1, %r2, 3, %r4;\nmad.wide.s32 %rd1, %r2, %r3, %rd4;\n"
	"mad.wide.u32 %rd1, %r2, %r3, 99;\nmad.lo.s64 %rd1, %rd2, %rd3, %rd4;\nmad.wide.s16 %r1, %h2, %h3, %r4;\n"
	/* comparisons */
	"setp.eq.s32 %p1, %r2, %r3;\nsetp.ne.s32 %p1, %r2, %r3;\nsetp.lt.s32 %p1, %r2, %r3;\n"
	"setp.le.s32 %p1, %r2, %r3;\nsetp.gt.s32 %p1, %r2, %r3;\nsetp.ge.s32 %p1, %r2, -3;\n"
	"setp.lo.u32 %p1, %r2, %r3;\nsetp.ls.u32 %p1, %r2, %r3;\nsetp.hi.u32 %p1, %r2, %r3;\n"
	"setp.hs.u32 %p1, %r2, %r3;\nsetp.lt.u32 %p1, %r2, %r3;\nsetp.ge.u32 %p1, %r2, 16;\n"
	"setp.gt.s64 %p1, %rd2, %rd3;\nsetp.le.u64 %p1, %rd2, %rd3;\nsetp.lt.s16 %p1, %h2, %h3;\n"
	"setp.eq.b32 %p1, %r2, %r3;\nsetp.ne.b64 %p1, %rd2, 0;\n"
	"setp.lt.s32 %p1|%p2, %r2, %r3;\nsetp.lt.and.s32 %p1|%p2, %r2, %r3, %p4;\n"
	"setp.ge.or.u32 %p1, %r2, 5, !%p4;\nsetp.ne.xor.s32 %p1, %r2, %r3, %p4;\n"
	"setp.eq.f32 %p1, %f2, %f3;\nsetp.ne.f32 %p1, %f2, %f3;\nsetp.lt.f32 %p1, %f2, %f3;\n"
	"setp.le.f32 %p1, %f2, %f3;\nsetp.gt.f32 %p1, %f2, %f3;\nsetp.ge.f32 %p1, %f2, %f3;\n"
	"setp.equ.f32 %p1, %f2, %f3;\nsetp.neu.f32 %p1, %f2, %f3;\nsetp.ltu.f32 %p1, %f2, %f3;\n"
	"setp.leu.f32 %p1, %f2, %f3;\nsetp.gtu.f32 %p1, %f2, %f3;\nsetp.geu.f32 %p1, %f2, %f3;\n"
	"setp.num.f32 %p1, %f2, %f3;\nsetp.nan.f32 %p1, %f2, %f3;\nsetp.lt.f32 %p1, %f2, 0f3F800000;\n"
	"setp.gt.f64 %p1|%p2, %fd2, %fd3;\nsetp.nan.f64 %p1, %fd2, %fd3;\nsetp.equ.and.f64 %p1, %fd2, %fd3, %p4;\n"
	"setp.lt.f16 %p1, %h2, %h3;\n"
	"selp.b32 %r1, %r2, %r3, %p4;\nselp.s32 %r1, 5, %r3, %p4;\nselp.f32 %f1, %f2, 0f3F800000, %p4;\n"
	"selp.u64 %rd1, %rd2, %rd3, %p4;\nselp.b16 %h1, %h2, %h3, %p4;\nselp.s16 %h1, %h2, -2, %p4;\n"
	/* moves and conversions */
	"mov.u32 %r1, %r2;\nmov.b32 %r1, 42;\nmov.u32 %r1, %tid.x;\nmov.u32 %r1, %laneid;\n"
	"mov.u32 %r1, %lanemask_lt;\nmov.u32 %r1, %ctaid.x;\nmov.u64 %rd1, %rd2;\nmov.f32 %f1, 0f3F800000;\n"
	"mov.f32 %f1, %f2;\nmov.f64 %fd1, 0d3FF0000000000000;\nmov.b16 %h1, %h2;\nmov.s16 %h1, -7;\n"
	"mov.pred %p1, %p2;\nmov.u32 %r1, sh;\nmov.b64 {%r1, %r2}, %rd3;\nmov.b64 %rd1, {%r2, %r3};\n"
	"cvt.s64.s32 %rd1, %r2;\ncvt.u64.u32 %rd1, %r2;\ncvt.u32.u64 %r1, %rd2;\ncvt.s32.s16 %r1, %h2;\n"
	"cvt.u16.u32 %h1, %r2;\ncvt.s32.s64 %r1, %rd2;\ncvt.s16.s8 %h1, %h2;\ncvt.u32.s16 %r1, %h2;\n"
	"cvt.sat.s32.s64 %r1, %rd2;\ncvt.rn.f32.s32 %f1, %r2;\ncvt.rzi.s32.f32 %r1, %f2;\n"
	"cvt.rn.f32.u32 %f1, %r2;\ncvt.f32.s64 %f1, %rd2;\ncvt.rn.f32.u64 %f1, %rd2;\ncvt.rn.f32.s16 %f1, %h2;\n"
	"cvt.rn.f32.u8 %f1, %r2;\ncvt.rn.f32.s32 %f1, 7;\ncvt.rz.f32.s32 %f1, %r2;\ncvt.rn.ftz.f32.s64 %f1, %rd2;\n"
	"cvt.rzi.s32.f64 %r1, %fd2;\ncvt.rni.s32.f32 %r1, %f2;\ncvt.rmi.u32.f32 %r1, %f2;\n"
	"cvt.rpi.s64.f64 %rd1, %fd2;\ncvt.rzi.u64.f32 %rd1, %f2;\ncvt.rzi.s16.f32 %h1, %f2;\n"
	"cvt.rzi.u16.f64 %h1, %fd2;\ncvt.sat.rzi.s32.f32 %r1, %f2;\ncvt.rzi.ftz.s32.f32 %r1, %f2;\n"
	"cvt.f64.f32 %fd1, %f2;\ncvt.rn.f32.f64 %f1, %fd2;\ncvt.rz.f32.f64 %f1, %fd2;\n"
	"cvt.ftz.f64.f32 %fd1, %f2;\ncvt.rn.ftz.f32.f64 %f1, %fd2;\ncvt.rni.f64.f32 %fd1, %f2;\n"
	"cvt.rn.f32.f64 %f1, 0d3FF0000000000001;\ncvt.rzi.s32.f32 %r1, 0f4F000000;\n"
	"min.s32 %r1, %r2, %r3;\nmax.s32 %r1, %r2, 0;\nmin.u32 %r1, %r2, %r3;\nmax.u32 %r1, %r2, 100;\n"
	"min.s64 %rd1, %rd2, %rd3;\nmax.u64 %rd1, %rd2, %rd3;\nmin.s16 %h1, %h2, %h3;\nmax.u16 %h1, %h2, -1;\n"
	"min.b32 %r1, %r2, %r3;\n"
	"div.s32 %r1, %r2, %r3;\ndiv.u32 %r1, %r2, %r3;\nrem.s32 %r1, %r2, %r3;\nrem.u32 %r1, %r2, 13;\n"
	"div.s64 %rd1, %rd2, %rd3;\nrem.u64 %rd1, %rd2, %rd3;\ndiv.s16 %h1, %h2, %h3;\nrem.s32 %r1, %r2, -1;\n"
	"div.u32 %r1, %r2, 0;\n"
	"cvta.to.global.u64 %rd1, %rd2;\ncvta.global.u64 %rd1, %rd2;\ncvta.shared.u64 %rd1, %rd2;\n"
	"cvta.to.shared.u64 %rd1, %rd2;\ncvta.local.u64 %rd1, %rd2;\ncvta.to.local.u64 %rd1, %rd2;\n"
	"cvta.shared.u64 %rd1, sh;\ncvta.to.shared.u32 %r1, %rd2;\n"
	/* floating point */
	"add.f32 %f1, %f2, %f3;\nadd.rn.f32 %f1, %f2, %f3;\nsub.f32 %f1, %f2, 0f3F800000;\n"
	"sub.rn.f32 %f1, 0f40000000, %f3;\nmul.rn.f32 %f1, %f2, %f3;\nmul.f32 %f1, %f2, 0f3E800000;\n"
	"fma.rn.f32 %f1, %f2, %f3, %f4;\nmad.rn.f32 %f1, %f2, %f3, %f4;\nfma.rn.f32 %f1, %f2, 0f40000000, %f4;\n"
	"add.ftz.f32 %f1, %f2, %f3;\nadd.rz.f32 %f1, %f2, %f3;\nmul.sat.f32 %f1, %f2, %f3;\n"
	"add.f64 %fd1, %fd2, %fd3;\nsub.rn.f64 %fd1, %fd2, %fd3;\nmul.f64 %fd1, %fd2, 0d4000000000000000;\n"
	"fma.rn.f64 %fd1, %fd2, %fd3, %fd4;\nadd.f16 %h1, %h2, %h3;\n"
	/* memory: %r5 is a shared offset, %rd5 a global address, %rd6 a generic address */
	"ld.shared.u32 %r1, [%r5];\nld.shared.s32 %r1, [%r5+4];\nld.shared.s8 %r1, [%r5+3];\n"
	"ld.shared.u8 %r1, [%r5+1];\nld.shared.u16 %h1, [%r5];\nld.shared.s16 %h1, [%r5+2];\n"
	"ld.shared.u64 %rd1, [%r5];\nld.shared.f32 %f1, [%r5+4];\nld.shared.f64 %fd1, [%r5];\n"
	"ld.shared.b16 %h1, [%r5+6];\nld.shared.u32 %r1, [sh+8];\nld.shared.v2.u32 {%r1, %r2}, [%r5];\n"
	"st.shared.u32 [%r5], %r1;\nst.shared.u8 [%r5+1], %r1;\nst.shared.u16 [%r5+2], %h1;\n"
	"st.shared.u64 [%r5], %rd1;\nst.shared.f32 [%r5+4], %f1;\nst.shared.f64 [%r5], %fd1;\n"
	"st.shared.u32 [%r5], 77;\nst.shared.v2.u32 [%r5], {%r1, %r2};\n"
	"ld.global.u32 %r1, [%rd5];\nld.global.s32 %r1, [%rd5+4];\nld.global.u64 %rd1, [%rd5+8];\n"
	"ld.global.f32 %f1, [%rd5];\nld.global.s8 %r1, [%rd5+1];\nld.global.u16 %h1, [%rd5+2];\n"
	"ld.global.nc.f32 %f1, [%rd5];\nst.global.u32 [%rd5], %r1;\nst.global.u64 [%rd5+8], %rd1;\n"
	"st.global.u8 [%rd5+3], %r1;\nst.global.f32 [%rd5], %f1;\n"
	"ld.param.u64 %rd1, [p0];\nld.param.u32 %r1, [p1];\n"
	"ld.u32 %r1, [%rd6];\nst.u32 [%rd6], %r1;\n"
	/* loads whose value register is their address register; an immediate 0 operand; more
	 * integer comparisons and widening multiplies the fast loops take directly */
	"ld.shared.u32 %r5, [%r5];\nld.global.u64 %rd5, [%rd5+8];\nld.global.s32 %r5, [%rd5];\n"
	"ld.const.u32 %r1, [%rd5];\nadd.s32 %r1, %r2, 0;\nfma.rn.f32 %f1, %f2, %f3, 0f00000000;\n"
	"setp.ge.s32 %p1, %r2, %r3;\nsetp.ne.u32 %p1, %r2, 0;\nsetp.eq.u64 %p1, %rd2, %rd3;\n"
	"setp.lt.s64 %p1, %rd2, -1;\nsetp.hi.u64 %p1, %rd2, %rd3;\nsetp.le.u16 %p1, %h2, %h3;\n"
	"mul.wide.s32 %rd1, %r2, -3;\nmad.wide.u32 %rd1, %r2, %r3, %rd4;\nshr.s32 %r1, %r2, 0;\n"
	/* immediates the link's columns hold (fe_xop.icol): at the ends of the operand's width (the
	 * parser refuses one past it), negative, the sign bit alone, all ones, f32/f64 bit patterns (a NaN with a payload, -infinity,
	 * -0), every source an immediate, one value in several instructions and operands */
	"add.s16 %h1, %h2, -32768;\nsetp.lt.s16 %p1, %h2, 65535;\nsetp.gt.u32 %p1, %r2, 0xffffffff;\n"
	"and.b32 %r1, %r2, -65536;\nadd.u32 %r1, %r2, 0xffffffff;\nmul.lo.s32 %r1, %r2, -2147483648;\n"
	"or.b64 %rd1, %rd2, 0x8000000000000000;\nxor.b64 %rd1, %rd2, -1;\nsub.s64 %rd1, -1, %rd2;\n"
	"mad.lo.s32 %r1, %r2, 7, -100;\nmad.wide.s32 %rd1, %r2, -7, -100;\nmin.s32 %r1, %r2, -100;\n"
	"selp.b32 %r1, 1, 0, %p4;\nselp.u64 %rd1, -1, 0x100000000, %p4;\nmov.b64 %rd1, 0x123456789abcdef0;\n"
	"mov.u16 %h1, 0xffff;\ncvt.u16.u32 %h1, 0x12345;\ncvt.rn.f32.s32 %f1, -2147483648;\n"
	"add.f32 %f1, %f2, 0f7FC00001;\nmul.f32 %f1, %f2, 0fFF800000;\nsub.f32 %f1, 0f80000000, %f3;\n"
	"fma.rn.f32 %f1, 0f3F800000, %f3, 0f7FC00001;\nadd.f64 %fd1, %fd2, 0d7FF8000000000001;\n"
	"mul.f64 %fd1, %fd2, 0dFFF0000000000000;\nfma.rn.f64 %fd1, %fd2, 0d8000000000000000, 0d3FF0000000000000;\n"
	"setp.lt.f32 %p1, %f2, 0f7FC00001;\nsetp.ge.f64 %p1|%p2, %fd2, 0dFFF0000000000000;\n"
	"add.f32 %f1, %f2, 1.5;\nmul.f64 %fd1, %fd2, -0.25;\ncvt.rzi.s32.f64 %r1, 0d41E0000000000000;\n"
	/* 16-bit comparisons and results (PTX's bools and chars) */
	"setp.ne.s16 %p1, %h2, 0;\nsetp.eq.b16 %p1, %h2, %h3;\nsetp.gt.s16 %p1, %h2, -1;\nsetp.hs.u16 %p1, %h2, 65535;\n"
	"and.b16 %h1, %h2, 0xff00;\nxor.b16 %h1, %h2, %h3;\nmov.u16 %h1, %h2;\nselp.u16 %h1, 1, 0, %p4;\n"
	/* loads at a constant address, read once for every lane (one faults: past the end,
	 * misaligned) */
	"ld.shared.u16 %h1, [sh+6];\nld.shared.s16 %h1, [sh+6];\nld.shared.u64 %rd1, [sh+2040];\n"
	"ld.shared.u32 %r1, [sh+2048];\nld.param.u32 %r1, [p1+2];\nld.shared.s8 %r1, [sh+5];\n"
	/* integer neg: a sub from the zero column */
	"neg.s32 %r1, %r2;\nneg.s64 %rd1, %rd2;\nneg.s16 %h1, %h2;\nneg.f32 %f1, %f2;\n"
	"ret;\n}\n";

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rng_state = x;
}

/* Register contents that reach the edge cases: small and extreme integers, sign bits,
 * float specials (NaN, infinities, signed zeros, subnormals), random bits. */
static uint64_t interesting(void)
{
	static const uint64_t v[] = {
		0, 1, 2, 3, 31, 32, 33, 63, 64, 0x7fffffff, 0x80000000, 0xffffffff, 0xffffffffffffffffull,
		0x8000000000000000ull, 0x7fffffffffffffffull, 0xffff, 0x8000, 0x7f, 0x80, 0xff,
		0x3f800000, 0xbf800000, 0x7fc00000, 0x7f800001, 0x7f800000, 0xff800000, 0x80000000,
		0x00000001, 0x007fffff, 0x3ff0000000000000ull, 0x7ff8000000000000ull,
		0x7ff0000000000000ull, 0x0000000000000001ull, 0xfff0000000000000ull, 0x3c00, 0x7e00,
		FE_SHARED_WIN, FE_SHARED_WIN + 40, FE_SHARED_WIN + FE_WIN_BYTES - 1,
		FE_SHARED_WIN + FE_WIN_BYTES, FE_SHARED_WIN - 1, FE_LOCAL_WIN + 8, FE_PARAM_WIN + 4,
	};
	switch (rnd() % 4) {
	case 0: return v[rnd() % (sizeof v / sizeof v[0])];
	case 1: return rnd() % 64;
	case 2: return (uint64_t)(int64_t)(int32_t)rnd();
	default: return rnd();
	}
}

struct state {
	uint64_t *regs;
	uint8_t *carry;
	uint8_t shared[SHARED_BYTES];
	uint8_t global[GLOBAL_BYTES];
};

static void save(struct fe_warp *w, struct fe_memory *mem, uint64_t gbase, struct state *s, size_t nregs)
{
	memcpy(s->regs, w->regs, nregs * w->n_lanes * sizeof *w->regs);
	memcpy(s->carry, w->carry, w->n_lanes);
	memcpy(s->shared, w->cta->shared, SHARED_BYTES);
	fe_t_read(mem, gbase, s->global, GLOBAL_BYTES);
}

static void load(struct fe_warp *w, struct fe_memory *mem, uint64_t gbase, const struct state *s, size_t nregs)
{
	struct sim_error err;
	memcpy(w->regs, s->regs, nregs * w->n_lanes * sizeof *w->regs);
	memcpy(w->carry, s->carry, w->n_lanes);
	memcpy(w->cta->shared, s->shared, SHARED_BYTES);
	cr_assert_eq(fe_mem_write(mem, gbase, s->global, GLOBAL_BYTES, &err), 0);
}

/* An address for lane: mostly valid and aligned, sometimes misaligned or out of bounds so
 * that the faults are compared too. */
static uint64_t address(uint64_t base, uint64_t bytes, uint64_t win)
{
	uint64_t r = rnd() % 64;
	if (r == 0)
		return win + base + bytes + 64 * (rnd() % 4);       /* past the end */
	if (r == 1)
		return (win + base + rnd() % (bytes - 16)) | 1;      /* misaligned */
	if (r == 2)
		return win + base + bytes - rnd() % 9;               /* at the end, either side */
	return win + base + (rnd() % (bytes / 8 - 2)) * 8;
}

static void fill_mask(uint64_t *m, uint32_t lanes, int kind)
{
	memset(m, 0, WI_MASK_WORDS * sizeof *m);
	for (uint32_t l = 0; l < lanes; l++) {
		bool on;
		switch (kind) {
		case 0: on = true; break;                              /* full */
		case 1: on = rnd() & 1; break;                         /* sparse */
		case 2: on = l == lanes / 2 + 1; break;                /* one lane */
		case 3: on = false; break;                             /* none */
		default: on = l < 64 || (rnd() % 5 == 0); break;       /* first word full */
		}
		if (on)
			m[l >> 6] |= 1ull << (l & 63);
	}
}

static void run_warp_size(uint32_t warp_size)
{
	struct fe_module *m = fe_t_load_str(text);
	struct fe_memory *mem = fe_memory_create();
	uint64_t gbase = fe_t_buf(mem, NULL, GLOBAL_BYTES);
	uint64_t args[2] = {gbase, 12345};
	uint8_t pbuf[16];
	memcpy(pbuf, &args[0], 8);
	memcpy(pbuf + 8, &args[1], 4);
	struct sim_error err;
	uint32_t grid[3] = {3, 1, 1}, block[3] = {128, 1, 1};
	struct fe_launch *l = fe_launch_create(m, mem, "k", grid, block, 0, pbuf, 12, 0, &err);
	cr_assert_not_null(l);
	struct fe_cta *c = fe_cta_create(l, 1, warp_size, 0, &err);
	cr_assert_not_null(c);
	cr_assert_eq(c->shared_bytes, SHARED_BYTES);
	struct fe_warp *w = fe_cta_warp(c, 0);
	const struct fe_kernel *k = l->k;
	size_t nregs = k->n_regs, nl = w->n_lanes;
	struct state init, fast, ref;
	struct state *st[3] = {&init, &fast, &ref};
	for (int i = 0; i < 3; i++) {
		st[i]->regs = calloc(nregs * nl, sizeof(uint64_t));
		st[i]->carry = calloc(nl, 1);
	}
	uint64_t *addr_f = calloc(nl, 8), *addr_r = calloc(nl, 8);
	uint32_t n_fast = 0;
	for (uint32_t pc = 0; pc < k->n_insts; pc++) {
		const struct fe_inst *in = &k->prog[pc];
		if (in->op == FE_OP_RET)
			continue;
		n_fast += k->xop[pc].kind != FE_X_GENERIC;
		for (int trial = 0; trial < 40; trial++) {
			for (size_t i = 0; i < nregs * nl; i++)
				w->regs[i] = interesting();
			for (size_t i = 0; i < nl; i++)
				w->carry[i] = rnd() & 1;
			for (size_t i = 0; i < SHARED_BYTES; i++)
				c->shared[i] = (uint8_t)rnd();
			/* address registers of this instruction's memory operand */
			for (int o = 0; o < in->n_opnd; o++) {
				const struct fe_opnd *op = &in->o[o];
				if (op->kind != FE_OK_ADDR || op->reg == FE_NO_REG)
					continue;
				for (size_t lane = 0; lane < nl; lane++) {
					uint64_t a;
					if (in->space == WI_SPACE_SHARED)
						a = address(0, SHARED_BYTES, 0);
					else if (in->space == WI_SPACE_GLOBAL)
						a = address(gbase, GLOBAL_BYTES, 0);
					else
						a = rnd() & 1 ? address(0, SHARED_BYTES, FE_SHARED_WIN) :
							address(gbase, GLOBAL_BYTES, 0);
					w->regs[(size_t)op->reg * nl + lane] = a;
				}
			}
			uint8_t g[GLOBAL_BYTES];
			for (size_t i = 0; i < GLOBAL_BYTES; i++)
				g[i] = (uint8_t)rnd();
			cr_assert_eq(fe_mem_write(mem, gbase, g, GLOBAL_BYTES, &err), 0);
			save(w, mem, gbase, &init, nregs);

			uint64_t mask[WI_MASK_WORDS];
			fill_mask(mask, warp_size, trial % 5);
			struct warp_inst wf, wr;
			memset(&wf, 0, sizeof wf);
			memset(&wr, 0, sizeof wr);
			memset(addr_f, 0xa5, nl * 8);
			memset(addr_r, 0xa5, nl * 8);
			/* odd trials: the fast path records no addresses (a functional turn's ld/st) */
			wf.addr = trial % 2 ? NULL : addr_f;
			wr.addr = addr_r;
			struct sim_error ef, er;
			sim_error_clear(&ef);
			sim_error_clear(&er);
			int rf = fe_exec_inst(w, pc, mask, &wf, &ef);
			save(w, mem, gbase, &fast, nregs);
			load(w, mem, gbase, &init, nregs);
			int rr = fe_exec_inst_generic(w, pc, mask, &wr, &er);
			save(w, mem, gbase, &ref, nregs);
			const char *what = k->wi[pc].text;
			cr_assert_eq(rf, rr, "pc %u '%s' warp %u trial %d: rc %d vs %d", pc, what, warp_size,
				     trial, rf, rr);
			if (rf) {
				char bf[512], br[512];
				sim_error_format(&ef, bf, sizeof bf);
				sim_error_format(&er, br, sizeof br);
				cr_assert_str_eq(bf, br, "pc %u '%s'", pc, what);
			}
			for (size_t i = 0; i < nregs * nl; i++)
				cr_assert_eq(fast.regs[i], ref.regs[i],
					     "pc %u '%s' warp %u trial %d: register %zu lane %zu: 0x%llx vs 0x%llx",
					     pc, what, warp_size, trial, i / nl, i % nl,
					     (unsigned long long)fast.regs[i], (unsigned long long)ref.regs[i]);
			cr_assert_eq(memcmp(fast.carry, ref.carry, nl), 0, "pc %u '%s': carry", pc, what);
			cr_assert_eq(memcmp(fast.shared, ref.shared, SHARED_BYTES), 0, "pc %u '%s': shared", pc, what);
			cr_assert_eq(memcmp(fast.global, ref.global, GLOBAL_BYTES), 0, "pc %u '%s': global", pc, what);
			if (wf.addr)
				cr_assert_eq(memcmp(addr_f, addr_r, nl * 8), 0, "pc %u '%s': addresses", pc, what);
			/* a loop that hands back its predicate's lanes (a one-result setp, predicate
			 * logic) hands back what it wrote: the guard cache relies on it */
			const struct fe_xop *x = &k->xop[pc];
			if (x->fast) {
				load(w, mem, gbase, &init, nregs);
				uint64_t pbits[WI_MASK_WORDS];
				memset(pbits, 0xa5, sizeof pbits);
				if (fe_exec_fast(w, x, mask, pbits)) {
					cr_assert(x->kind == FE_X_SETP_INT || x->kind == FE_X_SETP_F32 ||
						  x->kind == FE_X_SETP_F64 || (x->kind >= FE_X_PAND && x->kind <= FE_X_PNOT),
						  "pc %u '%s': bits from a kind without a predicate result", pc, what);
					for (size_t lane = 0; lane < nl; lane++) {
						bool bit = (pbits[lane / 64] >> (lane % 64)) & 1;
						bool want = fe_mask_test(mask, (uint32_t)lane) && w->regs[(size_t)x->d * nl + lane];
						cr_assert_eq(bit, want, "pc %u '%s' trial %d lane %zu: bit %d", pc, what, trial,
							     lane, bit);
					}
				}
			}
		}
	}
	/* the shapes meant for the fast loops did get them */
	cr_assert_gt(n_fast, 100, "only %u instructions decoded to fast loops", n_fast);
	for (int i = 0; i < 3; i++) {
		free(st[i]->regs);
		free(st[i]->carry);
	}
	free(addr_f);
	free(addr_r);
	fe_cta_destroy(c);
	fe_launch_destroy(l);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

Test(fastpath, fast_loops_match_the_per_lane_semantics_on_32_lane_warps)
{
	run_warp_size(32);
}

Test(fastpath, fast_loops_match_the_per_lane_semantics_on_128_lane_warps)
{
	run_warp_size(128);
}

Test(fastpath, decoded_kinds_of_common_shapes)
{
	struct fe_module *m = fe_t_load_str(text);
	const struct fe_kernel *k = &m->kernels[0];
	/* spot checks: the hot shapes are fast, the special cases stay generic */
	struct { const char *prefix; bool fast; } want[] = {
		{"add.s32 %r1, %r2, %r3", true}, {"add.cc.u32", false}, {"add.sat.s32", false},
		{"setp.lt.and.s32", true}, {"setp.lt.f16", false}, {"mov.u32 %r1, %tid.x", true},
		{"mov.u32 %r1, sh", true}, {"mov.pred", false}, {"cvta.to.shared.u64", true}, {"cvt.sat.s32.s64", false},
		{"cvt.rn.f32.s32", true}, {"cvt.rz.f32.s32", false}, {"cvt.rn.ftz.f32.s64", false},
		{"cvt.rzi.s32.f32", true}, {"cvt.rmi.u32.f32", true}, {"cvt.rpi.s64.f64", true},
		{"cvt.rzi.ftz.s32.f32", false}, {"cvt.f64.f32", true}, {"cvt.rn.f32.f64", true},
		{"cvt.rz.f32.f64", false}, {"cvt.ftz.f64.f32", false}, {"cvt.rn.ftz.f32.f64", false},
		{"cvt.rni.f64.f32", false}, {"min.s32", true}, {"rem.u32", true}, {"div.s64", true}, {"max.u64", true}, {"fma.rn.f32 %f1, %f2, %f3", true}, {"add.ftz.f32", false},
		{"add.rz.f32", false}, {"mul.hi.s32", false}, {"mul.wide.s16", true}, {"add.f16", false},
		{"ld.shared.u32 %r1, [%r5]", true}, {"ld.shared.u32 %r1, [sh+8]", true},
		{"ld.shared.v2.u32", false}, {"st.shared.u32 [%r5], %r1", true}, {"st.shared.u32 [%r5], 77", false},
		{"ld.global.u64", true}, {"st.global.f32", true}, {"ld.param.u64", true},
		{"ld.const.u32", true}, {"ld.u32 %r1, [%rd6]", false}, {"st.u32", false},
		{"neg.s32", true}, {"neg.s16", true}, {"neg.f32", false}, {"and.pred", true},
		{"setp.ne.s16", true}, {"ld.shared.u32 %r1, [sh+2048]", true}, {"ld.param.u32 %r1, [p1+2]", true},
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		bool found = false;
		for (uint32_t pc = 0; pc < k->n_insts && !found; pc++) {
			const char *t = k->wi[pc].text;
			while (*t == ' ' || *t == '\t')
				t++;
			if (strncmp(t, want[i].prefix, strlen(want[i].prefix)))
				continue;
			found = true;
			cr_assert_eq(k->xop[pc].kind != FE_X_GENERIC, want[i].fast, "%s", want[i].prefix);
		}
		cr_assert(found, "%s not in the kernel", want[i].prefix);
	}
	fe_module_destroy(m);
}

/* The link's immediate columns (fe_xop.icol, fe_exec_decode_kernel): every source a fast loop
 * reads without a register has a column of WI_MAX_LANES copies of its immediate, 0 the shared
 * zero column, any other value one column of the kernel's for all its uses; a shift's count
 * and cvta's window are read from imm and get none. */
Test(fastpath, immediate_columns_hold_each_value_once_for_every_lane)
{
	struct fe_module *m = fe_t_load_str(text);
	const struct fe_kernel *k = &m->kernels[0];
	uint32_t n_nonzero = 0, n_shared = 0;
	for (uint32_t pc = 0; pc < k->n_insts; pc++) {
		const struct fe_xop *x = &k->xop[pc];
		if (x->kind == FE_X_GENERIC || x->kind == FE_X_LD || x->kind == FE_X_ST)
			continue;
		cr_assert_not_null(x->fast, "pc %u '%s'", pc, k->wi[pc].text);
		for (int i = 0; i < 3; i++) {
			if (x->r[i] != FE_NO_REG)
				continue;
			bool own = !((x->kind == FE_X_SHL || x->kind == FE_X_SHR) && i == 1) &&
				   !((x->kind == FE_X_CVTA_TO || x->kind == FE_X_CVTA_FROM) && i == 2);
			if (!own || x->imm[i] == 0) {
				if (x->imm[i] == 0)
					cr_assert_eq(x->icol[i], fe_zero_column, "pc %u '%s' source %d", pc, k->wi[pc].text, i);
				continue;
			}
			const uint64_t *c = x->icol[i];
			cr_assert_not_null(c, "pc %u '%s' source %d", pc, k->wi[pc].text, i);
			cr_assert(c >= k->imm_cols && c < k->imm_cols + (size_t)k->n_imm_cols * WI_MAX_LANES &&
				  (c - k->imm_cols) % WI_MAX_LANES == 0, "pc %u: not a column of the kernel's", pc);
			for (uint32_t l = 0; l < WI_MAX_LANES; l++)
				cr_assert_eq(c[l], x->imm[i], "pc %u '%s' source %d lane %u", pc, k->wi[pc].text, i, l);
			n_nonzero++;
			/* the same value anywhere else in the kernel reads the same column */
			for (uint32_t q = 0; q < pc; q++)
				for (int j = 0; j < 3; j++)
					if (k->xop[q].icol[j] && k->xop[q].icol[j] != fe_zero_column &&
					    k->xop[q].imm[j] == x->imm[i]) {
						cr_assert_eq(k->xop[q].icol[j], c, "pc %u and %u share 0x%llx", q, pc,
							     (unsigned long long)x->imm[i]);
						n_shared++;
					}
		}
	}
	/* the text repeats values (7, -100, 1.0f ...) and has dozens of distinct ones */
	cr_assert_gt(n_shared, 5);
	cr_assert_gt(k->n_imm_cols, 20);
	cr_assert_lt(k->n_imm_cols, n_nonzero);
	fe_module_destroy(m);
}

/* fe_exec_guard against the definition: a lane of the mask stays when its predicate register
 * is nonzero (@%p) or zero (@!%p); lanes outside the mask stay off. */
Test(fastpath, guard_mask_matches_the_per_lane_definition)
{
	struct fe_module *m = fe_t_load_str(text);
	struct fe_memory *mem = fe_memory_create();
	uint8_t pbuf[16] = {0};
	struct sim_error err;
	uint32_t grid[3] = {1, 1, 1}, block[3] = {200, 1, 1};
	struct fe_launch *l = fe_launch_create(m, mem, "k", grid, block, 0, pbuf, 12, 0, &err);
	cr_assert_not_null(l);
	const uint32_t sizes[] = {32, 128, 200};
	for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
		struct fe_cta *c = fe_cta_create(l, 0, sizes[si], 0, &err);
		cr_assert_not_null(c);
		struct fe_warp *w = fe_cta_warp(c, 0);
		for (int trial = 0; trial < 200; trial++) {
			uint16_t reg = (uint16_t)(rnd() % l->k->n_regs);
			bool neg = rnd() & 1;
			for (uint32_t lane = 0; lane < w->n_lanes; lane++)
				w->regs[(size_t)reg * w->n_lanes + lane] = rnd() % 3 ? rnd() & 1 : interesting();
			uint64_t mask[WI_MASK_WORDS], got[WI_MASK_WORDS], want[WI_MASK_WORDS];
			fill_mask(mask, w->n_lanes, trial % 5);
			memset(want, 0, sizeof want);
			for (uint32_t lane = 0; lane < w->n_lanes; lane++) {
				bool p = w->regs[(size_t)reg * w->n_lanes + lane] != 0;
				if (((mask[lane >> 6] >> (lane & 63)) & 1) && p != neg)
					want[lane >> 6] |= 1ull << (lane & 63);
			}
			memset(got, 0xa5, sizeof got);
			fe_exec_guard(w, trial % 7 ? reg : FE_NO_REG, neg, mask, got);
			if (trial % 7 == 0)
				memcpy(want, mask, sizeof want);
			cr_assert_eq(memcmp(got, want, sizeof got), 0, "warp %u trial %d", sizes[si], trial);
		}
		fe_cta_destroy(c);
	}
	fe_launch_destroy(l);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}
