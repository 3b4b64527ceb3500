/* SPDX-License-Identifier: MIT */
/* frontend functional executor (fe_launch_run_functional): each opcode family against results
 * worked out by hand, edge cases included. */
#include <math.h>

#include "fe_test.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* Each thread t loads in[t] (64-bit) into %rd5 (and %r1 = low half, %f1 = its bits as f32,
 * %fd1 as f64), runs the body, and stores %rd10 to out[t]. */
static const char *pre =
	HDR ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
	".reg .pred %p<8>;\n.reg .b16 %h<8>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<32>;\n"
	".reg .f32 %f<16>;\n.reg .f64 %fd<16>;\n"
	"ld.param.u64 %rd0, [out];\nld.param.u64 %rd1, [in];\nmov.u32 %r0, %tid.x;\n"
	"mul.wide.u32 %rd2, %r0, 8;\nadd.s64 %rd3, %rd0, %rd2;\nadd.s64 %rd4, %rd1, %rd2;\n"
	"ld.global.u64 %rd5, [%rd4];\ncvt.u32.u64 %r1, %rd5;\nmov.b32 %f1, %r1;\nmov.b64 %fd1, %rd5;\n"
	"mov.u64 %rd10, 0;\n";
static const char *post = "st.global.u64 [%rd3], %rd10;\nret;\n}\n";

static int run_body(const char *body, uint32_t n, const uint64_t *in, uint64_t *out,
		    struct sim_error *err)
{
	char text[8192];
	snprintf(text, sizeof text, "%s%s\n%s", pre, body, post);
	struct fe_module *m = fe_t_load_str(text);
	struct fe_memory *mem = fe_memory_create();
	uint64_t din = fe_t_buf(mem, in, n * 8), dout = fe_t_buf(mem, NULL, n * 8);
	uint64_t args[2] = {dout, din};
	int rc = fe_t_launch(m, mem, "k", 1, n, 0, args, 2, NULL, err);
	if (!rc)
		fe_t_read(mem, dout, out, n * 8);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
	return rc;
}

static void check(const char *body, uint32_t n, const uint64_t *in, const uint64_t *want)
{
	uint64_t out[64];
	struct sim_error err;
	sim_error_clear(&err);
	int rc = run_body(body, n, in, out, &err);
	cr_assert_eq(rc, 0, "%s: %s", body, err.msg);
	for (uint32_t i = 0; i < n; i++)
		cr_assert_eq(out[i], want[i], "%s\n thread %u: in 0x%llx got 0x%llx want 0x%llx", body, i,
			     (unsigned long long)in[i], (unsigned long long)out[i],
			     (unsigned long long)want[i]);
}

static uint64_t fb(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static uint64_t db(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

Test(exec, integer_add_sub_wrap_and_saturate)
{
	/* 0x7fffffff + 1 wraps to 0x80000000; .sat clamps to 0x7fffffff; 0 - 1 = 0xffffffff */
	uint64_t in[3] = {0x7fffffff, 0x7fffffff, 0};
	check("add.s32 %r2, %r1, 1; cvt.u64.u32 %rd10, %r2;", 1, in, (uint64_t[]){0x80000000});
	check("add.sat.s32 %r2, %r1, 1; cvt.u64.u32 %rd10, %r2;", 1, in, (uint64_t[]){0x7fffffff});
	check("sub.u32 %r2, %r1, 1; cvt.u64.u32 %rd10, %r2;", 1, in + 2, (uint64_t[]){0xffffffff});
	/* s64: -5 - 7 = -12 */
	check("sub.s64 %rd10, %rd5, 7;", 1, (uint64_t[]){(uint64_t)-5}, (uint64_t[]){(uint64_t)-12});
}

Test(exec, multiply_lo_hi_wide)
{
	/* mul.wide.s32: -3 * 5 = -15 in 64 bits */
	check("mul.wide.s32 %rd10, %r1, 5;", 1, (uint64_t[]){0xfffffffd}, (uint64_t[]){(uint64_t)-15});
	/* mul.wide.u32: 0xffffffff * 0xffffffff = 0xfffffffe00000001 */
	check("mul.wide.u32 %rd10, %r1, %r1;", 1, (uint64_t[]){0xffffffff}, (uint64_t[]){0xfffffffe00000001ull});
	/* mul.hi.u32 of the same = 0xfffffffe; mul.hi.s32 (-2)*3 = -6 -> high word 0xffffffff */
	check("mul.hi.u32 %r2, %r1, %r1; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){0xffffffff}, (uint64_t[]){0xfffffffe});
	check("mul.hi.s32 %r2, %r1, 3; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){0xfffffffe}, (uint64_t[]){0xffffffff});
	/* mul.lo.s32 0x10000 * 0x10000 = 2^32 -> low word 0 */
	check("mul.lo.s32 %r2, %r1, %r1; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){0x10000}, (uint64_t[]){0});
	/* mul.hi.u64 2^63 * 4 = 2^65 -> high 2 */
	check("mul.hi.u64 %rd10, %rd5, 4;", 1, (uint64_t[]){1ull << 63}, (uint64_t[]){2});
	/* mad.lo.s32 7*6+(-50) = -8; mad.wide.u32 0x80000000*4 + 1 = 0x200000001 */
	check("mad.lo.s32 %r2, %r1, 6, -50; cvt.s64.s32 %rd10, %r2;", 1, (uint64_t[]){7}, (uint64_t[]){(uint64_t)-8});
	check("mad.wide.u32 %rd10, %r1, 4, 1;", 1, (uint64_t[]){0x80000000}, (uint64_t[]){0x200000001ull});
	/* mul24.lo.u32 uses the low 24 bits: 0x1000003 -> 3, 3 * 5 = 15 */
	check("mul24.lo.u32 %r2, %r1, 5; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){0x1000003}, (uint64_t[]){15});
}

Test(exec, division_and_remainder_including_by_zero)
{
	/* C semantics: -7/2 = -3, -7%2 = -1 */
	check("div.s32 %r2, %r1, 2; cvt.s64.s32 %rd10, %r2;", 1, (uint64_t[]){(uint32_t)-7}, (uint64_t[]){(uint64_t)-3});
	check("rem.s32 %r2, %r1, 2; cvt.s64.s32 %rd10, %r2;", 1, (uint64_t[]){(uint32_t)-7}, (uint64_t[]){(uint64_t)-1});
	/* by zero (machine-specific in PTX; we give the GPU's answer): quotient all ones, remainder = dividend */
	check("div.u32 %r2, %r1, 0; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){7}, (uint64_t[]){0xffffffff});
	check("rem.u32 %r2, %r1, 0; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){7}, (uint64_t[]){7});
	/* INT_MIN / -1 wraps to INT_MIN */
	check("div.s32 %r2, %r1, -1; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){0x80000000}, (uint64_t[]){0x80000000});
	/* float: 1/0 = +inf, 0/0 = NaN (canonical or not, it is a NaN: checked via setp.nan) */
	check("div.rn.f32 %f2, 0f3F800000, %f1; mov.b32 %r2, %f2; cvt.u64.u32 %rd10, %r2;", 1,
	      (uint64_t[]){fb(0.0f)}, (uint64_t[]){0x7f800000});
	check("div.rn.f32 %f2, %f1, %f1; setp.nan.f32 %p1, %f2, %f2; selp.u64 %rd10, 1, 0, %p1;", 1,
	      (uint64_t[]){fb(0.0f)}, (uint64_t[]){1});
}

Test(exec, float_rounding_modes)
{
	/* 1 + 2^-24 is halfway between 1 and 1+2^-23: .rn ties to even (1.0), .rp rounds up,
	 * .rz and .rm truncate */
	const char *fmt = "add.%s.f32 %%f2, %%f1, 0f33800000; mov.b32 %%r2, %%f2; cvt.u64.u32 %%rd10, %%r2;";
	char body[256];
	uint64_t one = fb(1.0f);
	snprintf(body, sizeof body, fmt, "rn");
	check(body, 1, &one, (uint64_t[]){0x3f800000});
	snprintf(body, sizeof body, fmt, "rp");
	check(body, 1, &one, (uint64_t[]){0x3f800001});
	snprintf(body, sizeof body, fmt, "rz");
	check(body, 1, &one, (uint64_t[]){0x3f800000});
	/* -1 - 2^-24 with .rm goes away from zero: -(1+2^-23) = 0xbf800001 */
	check("sub.rm.f32 %f2, %f1, 0f33800000; mov.b32 %r2, %f2; cvt.u64.u32 %rd10, %r2;", 1,
	      (uint64_t[]){fb(-1.0f)}, (uint64_t[]){0xbf800001});
	/* sqrt.rn(2) = 1.41421354 = 0x3fb504f3; fma.rn(2,3,1) = 7 */
	check("sqrt.rn.f32 %f2, %f1; mov.b32 %r2, %f2; cvt.u64.u32 %rd10, %r2;", 1,
	      (uint64_t[]){fb(2.0f)}, (uint64_t[]){0x3fb504f3});
	check("fma.rn.f32 %f2, %f1, 0f40400000, 0f3F800000; mov.b32 %r2, %f2; cvt.u64.u32 %rd10, %r2;", 1,
	      (uint64_t[]){fb(2.0f)}, (uint64_t[]){fb(7.0f)});
	/* f64: 0.1 + 0.2 = 0.30000000000000004 (0x3fd3333333333334) */
	check("add.f64 %fd2, %fd1, 0d3FC999999999999A; mov.b64 %rd10, %fd2;", 1,
	      (uint64_t[]){db(0.1)}, (uint64_t[]){0x3fd3333333333334ull});
	/* min/max with one NaN return the other operand */
	check("min.f32 %f2, %f1, 0f40000000; mov.b32 %r2, %f2; cvt.u64.u32 %rd10, %r2;", 1,
	      (uint64_t[]){0x7fc00000}, (uint64_t[]){fb(2.0f)});
	/* .ftz flushes a subnormal input to zero: 2^-140 * 2 -> 0; .sat clamps 3.0 to 1.0 */
	check("mul.ftz.f32 %f2, %f1, 0f40000000; mov.b32 %r2, %f2; cvt.u64.u32 %rd10, %r2;", 1,
	      (uint64_t[]){0x00000800}, (uint64_t[]){0});
	check("add.sat.f32 %f2, %f1, 0f40000000; mov.b32 %r2, %f2; cvt.u64.u32 %rd10, %r2;", 1,
	      (uint64_t[]){fb(1.0f)}, (uint64_t[]){fb(1.0f)});
}

Test(exec, setp_ordered_and_unordered_with_nan)
{
	/* thread 0: NaN vs 1; thread 1: 0.5 vs 1. Result bits: lt, ltu, ne, neu, nan, ge */
	const char *body =
		"setp.lt.f32 %p1, %f1, 0f3F800000; selp.u64 %rd11, 1, 0, %p1;\n"
		"setp.ltu.f32 %p1, %f1, 0f3F800000; selp.u64 %rd12, 2, 0, %p1;\n"
		"setp.ne.f32 %p1, %f1, 0f3F800000; selp.u64 %rd13, 4, 0, %p1;\n"
		"setp.neu.f32 %p1, %f1, 0f3F800000; selp.u64 %rd14, 8, 0, %p1;\n"
		"setp.nan.f32 %p1, %f1, 0f3F800000; selp.u64 %rd15, 16, 0, %p1;\n"
		"setp.ge.f32 %p1|%p2, %f1, 0f3F800000; selp.u64 %rd16, 32, 0, %p2;\n"
		"add.u64 %rd10, %rd11, %rd12; add.u64 %rd10, %rd10, %rd13; add.u64 %rd10, %rd10, %rd14;\n"
		"add.u64 %rd10, %rd10, %rd15; add.u64 %rd10, %rd10, %rd16;";
	/* NaN: lt 0, ltu 2, ne 0, neu 8, nan 16, !ge 32 -> 58. 0.5: lt 1, ltu 2, ne 4, neu 8, !ge 32 -> 47 */
	check(body, 2, (uint64_t[]){0x7fc00000, fb(0.5f)}, (uint64_t[]){58, 47});
	/* integer compares: lt.s32 (-1 < 1) true but lo.u32 (0xffffffff < 1) false; and-combine */
	check("setp.lt.s32 %p1, %r1, 1; setp.lo.u32 %p2, %r1, 1; selp.u64 %rd11, 1, 0, %p1; selp.u64 %rd12, 2, 0, %p2; add.u64 %rd10, %rd11, %rd12;",
	      1, (uint64_t[]){0xffffffff}, (uint64_t[]){1});
	check("setp.gt.and.s32 %p1, %r1, 0, %p0; setp.eq.s32 %p0, %r1, %r1; setp.gt.and.s32 %p2, %r1, 0, %p0; selp.u64 %rd10, 1, 0, %p2;",
	      1, (uint64_t[]){3}, (uint64_t[]){1});
}

Test(exec, conversions_round_and_saturate)
{
	/* f32 -> s32: rni 2.5 -> 2 (even), 3.5 -> 4; rzi -2.7 -> -2; rmi -2.7 -> -3; rpi 2.1 -> 3 */
	check("cvt.rni.s32.f32 %r2, %f1; cvt.s64.s32 %rd10, %r2;", 2, (uint64_t[]){fb(2.5f), fb(3.5f)}, (uint64_t[]){2, 4});
	check("cvt.rzi.s32.f32 %r2, %f1; cvt.s64.s32 %rd10, %r2;", 1, (uint64_t[]){fb(-2.7f)}, (uint64_t[]){(uint64_t)-2});
	check("cvt.rmi.s32.f32 %r2, %f1; cvt.s64.s32 %rd10, %r2;", 1, (uint64_t[]){fb(-2.7f)}, (uint64_t[]){(uint64_t)-3});
	check("cvt.rpi.s32.f32 %r2, %f1; cvt.s64.s32 %rd10, %r2;", 1, (uint64_t[]){fb(2.1f)}, (uint64_t[]){3});
	/* out of range saturates, NaN gives 0; negative to unsigned gives 0 */
	check("cvt.rzi.s32.f32 %r2, %f1; cvt.u64.u32 %rd10, %r2;", 3,
	      (uint64_t[]){fb(3e9f), 0x7fc00000, fb(-3e9f)}, (uint64_t[]){0x7fffffff, 0, 0x80000000});
	check("cvt.rzi.u32.f32 %r2, %f1; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){fb(-5.0f)}, (uint64_t[]){0});
	/* s32 -> f32: 16777217 is not representable; .rn gives 16777216, .rp 16777218 */
	check("cvt.rn.f32.s32 %f2, %r1; mov.b32 %r2, %f2; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){16777217}, (uint64_t[]){fb(16777216.0f)});
	check("cvt.rp.f32.s32 %f2, %r1; mov.b32 %r2, %f2; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){16777217}, (uint64_t[]){fb(16777218.0f)});
	/* integer widths: s32 -1 -> s64 all ones; u64 -> u32 truncates; u32 -> u8 with .sat clamps to 255 */
	check("cvt.s64.s32 %rd10, %r1;", 1, (uint64_t[]){0xffffffff}, (uint64_t[]){~0ull});
	check("cvt.u32.u64 %r2, %rd5; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){0x123456789ull}, (uint64_t[]){0x23456789});
	check("cvt.sat.u8.u32 %r2, %r1; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){300}, (uint64_t[]){255});
	/* f64 -> f32 -> f64 round trip of 0.1 loses precision: (double)(float)0.1 */
	check("cvt.rn.f32.f64 %f2, %fd1; cvt.f64.f32 %fd2, %f2; mov.b64 %rd10, %fd2;", 1,
	      (uint64_t[]){db(0.1)}, (uint64_t[]){db((double)0.1f)});
	/* half: 1.0f -> 0x3c00, 65520 overflows to inf 0x7c00, and back 0x3555 -> 0.333251953125 */
	check("cvt.rn.f16.f32 %h1, %f1; cvt.u64.u16 %rd10, %h1;", 2, (uint64_t[]){fb(1.0f), fb(65520.0f)}, (uint64_t[]){0x3c00, 0x7c00});
	check("mov.b16 %h1, %r1; cvt.f32.f16 %f2, %h1; mov.b32 %r2, %f2; cvt.u64.u32 %rd10, %r2;", 1,
	      (uint64_t[]){0x3555}, (uint64_t[]){fb(0.333251953125f)});
}

Test(exec, shifts_and_bit_fields)
{
	check("shl.b32 %r2, %r1, 31; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){1}, (uint64_t[]){0x80000000});
	check("shl.b32 %r2, %r1, 32; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){1}, (uint64_t[]){0}); /* clamps */
	check("shr.s32 %r2, %r1, 1; cvt.s64.s32 %rd10, %r2;", 1, (uint64_t[]){(uint32_t)-8}, (uint64_t[]){(uint64_t)-4});
	check("shr.s32 %r2, %r1, 40; cvt.s64.s32 %rd10, %r2;", 1, (uint64_t[]){(uint32_t)-1}, (uint64_t[]){~0ull});
	check("shr.u32 %r2, %r1, 31; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){0x80000000}, (uint64_t[]){1});
	/* bfe.u32 0xabcd1234 from bit 8, 8 bits = 0x12; bfe.s32 of 0xf000 bits 12..15 = 0xf -> -1 */
	check("bfe.u32 %r2, %r1, 8, 8; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){0xabcd1234}, (uint64_t[]){0x12});
	check("bfe.s32 %r2, %r1, 12, 4; cvt.s64.s32 %rd10, %r2;", 1, (uint64_t[]){0xf000}, (uint64_t[]){~0ull});
	/* bfi: insert 0xf at bit 4, 4 bits, into 0x100 -> 0x1f0 */
	check("bfi.b32 %r2, 15, %r1, 4, 4; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){0x100}, (uint64_t[]){0x1f0});
	check("clz.b32 %r2, %r1; cvt.u64.u32 %rd10, %r2;", 2, (uint64_t[]){1, 0}, (uint64_t[]){31, 32});
	check("popc.b64 %r2, %rd5; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){0xf0f0000000000001ull}, (uint64_t[]){9});
	check("brev.b32 %r2, %r1; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){1}, (uint64_t[]){0x80000000});
	/* prmt {b,a} = 0x77665544_33221100, selector 0x5410 picks bytes 0,1,4,5 -> 0x55441100 */
	check("prmt.b32 %r2, %r1, 0x77665544, 0x5410; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){0x33221100}, (uint64_t[]){0x55441100});
	/* lop3 0x96 = a ^ b ^ c: 0xff00 ^ 0x0ff0 ^ 0x000f = 0xf0ff */
	check("lop3.b32 %r2, %r1, 0x0ff0, 0x000f, 0x96; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){0xff00}, (uint64_t[]){0xf0ff});
	check("and.b32 %r2, %r1, 0xff; or.b32 %r2, %r2, 0x100; xor.b32 %r2, %r2, 1; not.b32 %r3, %r2; cvt.u64.u32 %rd10, %r3;",
	      1, (uint64_t[]){0x1234}, (uint64_t[]){~0x135ull & 0xffffffffull});
	/* shf.l.wrap: (hi:lo) = (0x1:0x80000000) << 1 -> high word 0x3 */
	check("shf.l.wrap.b32 %r2, %r1, 1, 1; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){0x80000000}, (uint64_t[]){3});
}

Test(exec, carry_chain_adds_128_bits)
{
	/* (2^64 - 1) + 1 with add.cc/addc on 32-bit halves: low words 0, carry into the top */
	check("mov.b64 {%r2, %r3}, %rd5;\n"
	      "add.cc.u32 %r4, %r2, 1;\naddc.cc.u32 %r5, %r3, 0;\naddc.u32 %r6, 0, 0;\n"
	      "mov.b64 %rd6, {%r4, %r5};\ncvt.u64.u32 %rd7, %r6;\nadd.u64 %rd10, %rd6, %rd7;", 1,
	      (uint64_t[]){~0ull}, (uint64_t[]){1});
	/* sub.cc borrow: 0 - 1 sets CF; subc 5 - 0 - 1 = 4 */
	check("sub.cc.u32 %r2, 0, 1; subc.u32 %r3, 5, 0; cvt.u64.u32 %rd10, %r3;", 1, (uint64_t[]){0}, (uint64_t[]){4});
}

Test(exec, special_registers)
{
	/* 40 threads: laneid = t % 32, warpid = t / 32, ntid.x = 40 -> t%32 + 100*(t/32) + 1000*40 */
	uint64_t in[40], want[40];
	for (int t = 0; t < 40; t++) {
		in[t] = 0;
		want[t] = (uint64_t)(t % 32 + 100 * (t / 32) + 40000);
	}
	check("mov.u32 %r2, %laneid; mov.u32 %r3, %warpid; mov.u32 %r4, %ntid.x;\n"
	      "mad.lo.u32 %r5, %r3, 100, %r2; mad.lo.u32 %r5, %r4, 1000, %r5; cvt.u64.u32 %rd10, %r5;",
	      40, in, want);
}

Test(exec, vector_loads_and_local_memory)
{
	/* store 4 words to a .local array with st.local.v4, read back two with ld.local.v2 at +8 */
	const char *body =
		".local .align 16 .b8 buf[16];\n"
		"mov.u64 %rd6, buf;\nadd.u32 %r2, %r1, 1; add.u32 %r3, %r1, 2; add.u32 %r4, %r1, 3;\n"
		"st.local.v4.u32 [%rd6], {%r1, %r2, %r3, %r4};\n"
		"ld.local.v2.u32 {%r5, %r6}, [%rd6+8];\n"
		"mul.wide.u32 %rd7, %r5, 1000; cvt.u64.u32 %rd8, %r6; add.u64 %rd10, %rd7, %rd8;";
	/* in = 10 -> words 10,11,12,13; r5 = 12, r6 = 13 -> 12013 */
	check(body, 2, (uint64_t[]){10, 20}, (uint64_t[]){12013, 22023});
}

Test(exec, global_atomics_from_many_threads_give_exact_totals)
{
	const char *ptx =
		HDR ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n"
		"ld.param.u64 %rd1, [p];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\n"
		"mad.lo.u32 %r3, %r2, 256, %r1;\n"             /* global thread id g */
		"atom.global.add.u32 %r4, [%rd1], %r3;\n"      /* sum of g */
		"atom.global.max.s32 %r4, [%rd1+4], %r3;\n"    /* max g */
		"atom.global.inc.u32 %r4, [%rd1+8], 9;\n"      /* counter mod 10 */
		"red.global.add.u32 [%rd1+12], 1;\n"           /* count */
		"atom.global.exch.b32 %r4, [%rd1+16], %r3;\n"
		"atom.global.cas.b32 %r5, [%rd1+20], %r3, 77;\n" /* only g == 0 matches the initial 0 */
		"ret;\n}\n";
	struct fe_module *m = fe_t_load_str(ptx);
	struct fe_memory *mem = fe_memory_create();
	uint32_t init[6] = {0, 0, 0, 0, 0, 5};
	uint64_t d = fe_t_buf(mem, init, sizeof init);
	struct sim_error err;
	uint64_t args[1] = {d};
	cr_assert_eq(fe_t_launch(m, mem, "k", 4, 256, 0, args, 1, NULL, &err), 0, "%s", err.msg);
	uint32_t r[6];
	fe_t_read(mem, d, r, sizeof r);
	/* 1024 threads: sum 0..1023 = 523776; max 1023; inc wraps at 9: 1024 mod 10 = 4; count 1024 */
	cr_assert_eq(r[0], 523776);
	cr_assert_eq(r[1], 1023);
	cr_assert_eq(r[2], 4);
	cr_assert_eq(r[3], 1024);
	cr_assert_eq(r[4], 1023); /* lanes run in order, CTAs in order: the last exchange wins */
	cr_assert_eq(r[5], 77);   /* initial 5: thread g = 5 swaps in 77; g = 77 then matches and rewrites 77 */
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

Test(exec, out_of_bounds_global_access_names_thread_pc_and_address)
{
	/* thread 5 reads in[5] which holds a bogus pointer 0x40 */
	uint64_t in[8] = {0}, out[8];
	for (int i = 0; i < 8; i++)
		in[i] = 0;
	in[5] = 0x40;
	struct sim_error err;
	sim_error_clear(&err);
	int rc = run_body("@%p0 bra SKIP; SKIP: ld.global.u32 %r2, [%rd5];", 8, in, out, &err);
	cr_assert_eq(rc, SIM_ERR_PROGRAM);
	char msg[1024];
	sim_error_format(&err, msg, sizeof msg);
	/* thread 0 reads address 0 first: the first faulting lane is reported */
	cr_assert(strstr(msg, "thread (0,0,0)"), "%s", msg);
	cr_assert(strstr(msg, "global load of 4 bytes at 0x0 is out of bounds"), "%s", msg);
	cr_assert(strstr(msg, "t.ptx:"), "%s", msg);
	cr_assert(strstr(msg, "pc 12"), "%s", msg); /* 11 prologue instructions + bra */
}

/* Every allocation has 64 KiB of mapped slack on each side (FE_SLACK_BYTES): reads a little
 * before or past a buffer see zeros or a neighbour, as on a GPU, and only addresses further
 * from every allocation fault. Here in (24 bytes, one page) is the first allocation at
 * 0x10000000, its slack 0x0fff0000..0x0fffffff and 0x10001000..0x10010fff; out follows at
 * 0x10002000 (a page apart) with slack up to 0x10012fff. */
Test(exec, reads_near_an_allocation_see_its_slack_far_ones_fault)
{
	uint64_t in[3] = {0x10001ff8, 0x0fff0000, 0x10012ff8}, out[3];
	check("ld.global.u64 %rd10, [%rd5];", 3, in, (uint64_t[]){0, 0, 0});
	static const uint64_t far[2] = {0x10013000, 0x0ffefff8};
	for (int i = 0; i < 2; i++) {
		struct sim_error err;
		sim_error_clear(&err);
		in[2] = far[i];
		cr_assert_eq(run_body("ld.global.u64 %rd10, [%rd5];", 3, in, out, &err), SIM_ERR_PROGRAM);
		char want[80];
		snprintf(want, sizeof want, "global load of 8 bytes at 0x%llx is out of bounds", (unsigned long long)far[i]);
		cr_assert(strstr(err.msg, want), "%s", err.msg);
	}
}

Test(exec, misaligned_access_is_a_program_error)
{
	uint64_t in[1] = {0}, out[1];
	struct sim_error err;
	sim_error_clear(&err);
	int rc = run_body("ld.global.u32 %r2, [%rd4+2];", 1, in, out, &err);
	cr_assert_eq(rc, SIM_ERR_PROGRAM);
	cr_assert(strstr(err.msg, "misaligned global load of 4 bytes"), "%s", err.msg);
}

Test(exec, trap_is_a_program_error_naming_the_thread)
{
	uint64_t in[4] = {0}, out[4];
	struct sim_error err;
	sim_error_clear(&err);
	int rc = run_body("setp.eq.u32 %p1, %r0, 2; @%p1 trap;", 4, in, out, &err);
	cr_assert_eq(rc, SIM_ERR_PROGRAM);
	cr_assert(strstr(err.msg, "thread (2,0,0)") && strstr(err.msg, "trap executed"), "%s", err.msg);
}

Test(exec, bfind_finds_the_most_significant_bit)
{
	/* 0x10000 -> bit 16 (shift amount 31-16 = 15); 0 -> none (0xffffffff);
	 * s32 -2 = 0xfffffffe: highest bit differing from the sign is bit 0; s32 -1: none */
	check("bfind.u32 %r2, %r1; cvt.u64.u32 %rd10, %r2;", 2, (uint64_t[]){0x10000, 0}, (uint64_t[]){16, 0xffffffff});
	check("bfind.shiftamt.u32 %r2, %r1; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){0x10000}, (uint64_t[]){15});
	check("bfind.s32 %r2, %r1; cvt.u64.u32 %rd10, %r2;", 2, (uint64_t[]){0xfffffffe, 0xffffffff}, (uint64_t[]){0, 0xffffffff});
	check("bfind.u64 %r2, %rd5; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){1ull << 40}, (uint64_t[]){40});
}

Test(exec, half_precision_arithmetic)
{
	/* halves: 1.0 = 0x3c00, 2.0 = 0x4000, 3.0 = 0x4200, 0.5 = 0x3800, 65504 = 0x7bff (max) */
	check("mov.b16 %h1, %r1; add.f16 %h2, %h1, %h1; cvt.u64.u16 %rd10, %h2;", 1, (uint64_t[]){0x3c00}, (uint64_t[]){0x4000});
	/* 65504 + 65504 overflows to +inf (0x7c00); fma(2, 0.5, 3) = 4 (0x4400) */
	check("mov.b16 %h1, %r1; add.f16 %h2, %h1, %h1; cvt.u64.u16 %rd10, %h2;", 1, (uint64_t[]){0x7bff}, (uint64_t[]){0x7c00});
	check("mov.b16 %h1, %r1; mov.b16 %h3, 0x3800; mov.b16 %h4, 0x4200; fma.rn.f16 %h2, %h1, %h3, %h4; cvt.u64.u16 %rd10, %h2;",
	      1, (uint64_t[]){0x4000}, (uint64_t[]){0x4400});
	/* 1 + 2^-11 rounds to even (1.0): 2^-11 = 0x1000 */
	check("mov.b16 %h1, %r1; mov.b16 %h3, 0x1000; add.f16 %h2, %h1, %h3; cvt.u64.u16 %rd10, %h2;", 1, (uint64_t[]){0x3c00}, (uint64_t[]){0x3c00});
	/* f16x2: (1, 2) * (3, 0.5) = (3, 1) -> 0x3c00_4200 */
	check("mov.b32 %r3, 0x38004200; mul.f16x2 %r2, %r1, %r3; cvt.u64.u32 %rd10, %r2;", 1,
	      (uint64_t[]){0x40003c00}, (uint64_t[]){0x3c004200});
	/* setp.lt.f16 2 < 3 */
	check("mov.b16 %h1, %r1; mov.b16 %h3, 0x4200; setp.lt.f16 %p1, %h1, %h3; selp.u64 %rd10, 1, 0, %p1;", 1,
	      (uint64_t[]){0x4000}, (uint64_t[]){1});
}

Test(exec, negation_and_abs_of_the_most_negative_value_wrap)
{
	check("neg.s64 %rd10, %rd5;", 1, (uint64_t[]){1ull << 63}, (uint64_t[]){1ull << 63});
	check("abs.s32 %r2, %r1; cvt.u64.u32 %rd10, %r2;", 2, (uint64_t[]){0x80000000, (uint32_t)-5}, (uint64_t[]){0x80000000, 5});
	check("mov.u64 %rd10, -9223372036854775808;", 1, (uint64_t[]){0}, (uint64_t[]){1ull << 63});
}

Test(exec, shared_access_below_zero_is_out_of_bounds)
{
	/* s + (-8) wraps to a huge offset: must be refused, not wrap into the array */
	uint64_t in[1] = {0}, out[1];
	struct sim_error err;
	sim_error_clear(&err);
	int rc = run_body(".shared .align 4 .b8 s[16];\nmov.u32 %r2, s;\nld.shared.u32 %r3, [%r2+-8];", 1, in, out, &err);
	cr_assert_eq(rc, SIM_ERR_PROGRAM);
	cr_assert(strstr(err.msg, "shared load of 4 bytes at 0xfffffffffffffff8 is out of bounds"), "%s", err.msg);
}

Test(exec, dp4a_byte_dot_product)
{
	/* a = bytes (1, 2, 3, 0xff), b = bytes (4, 5, 6, 2), c = 10:
	 * unsigned: 4 + 10 + 18 + 255*2 = 542 -> 552; a signed (0xff = -1): 32 - 2 = 30 -> 40 */
	check("dp4a.u32.u32 %r2, %r1, 0x02060504, 10; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){0xff030201}, (uint64_t[]){552});
	check("dp4a.s32.u32 %r2, %r1, 0x02060504, 10; cvt.u64.u32 %rd10, %r2;", 1, (uint64_t[]){0xff030201}, (uint64_t[]){40});
}

Test(exec, bmsk_clamp_and_wrap)
{
	/* in: a in the low half, b in the high half. (1, 2): bits 1..2 = 0x6 (the ISA's example);
	 * (4, 0): width 0 is 0; (28, 8): past bit 31, clamped to 0xf0000000 in both modes (sum
	 * overflows); (33, 2): clamp: position past 31 -> 0; wrap: position 1 -> 0x6; (3, 40):
	 * clamp: width over 31 -> from bit 3 up, 0xfffffff8; wrap: width 8 -> 0x7f8 */
	uint64_t in[5] = {1 | 2ull << 32, 4, 28 | 8ull << 32, 33 | 2ull << 32, 3 | 40ull << 32};
	const char *body = "shr.u64 %rd6, %rd5, 32; cvt.u32.u64 %r2, %rd6; bmsk.%s.b32 %r3, %r1, %r2; "
			   "cvt.u64.u32 %rd10, %r3;";
	char b[256];
	snprintf(b, sizeof b, body, "clamp");
	check(b, 5, in, (uint64_t[]){0x6, 0, 0xf0000000, 0, 0xfffffff8});
	snprintf(b, sizeof b, body, "wrap");
	check(b, 5, in, (uint64_t[]){0x6, 0, 0xf0000000, 0x6, 0x7f8});
}

Test(exec, match_any_and_all_within_the_member_mask)
{
	/* 8 lanes, values 5 5 7 5 7 9 9 9 (lane 7 outside member mask 0x7f). any: the lanes of
	 * equal value among 0..6; all: not all equal (0, false); the 64-bit form compares all 64 bits */
	uint64_t in[8] = {5, 5, 7, 5, 7, 9, 9, 9};
	check("match.any.sync.b32 %r2, %r1, 0x7f; cvt.u64.u32 %rd10, %r2;", 8, in,
	      (uint64_t[]){0x0b, 0x0b, 0x14, 0x0b, 0x14, 0x60, 0x60, 0x60});
	check("match.all.sync.b32 %r2|%p1, %r1, 0x7f; selp.u64 %rd11, 1, 0, %p1; cvt.u64.u32 %rd10, %r2; "
	      "shl.b64 %rd11, %rd11, 32; or.b64 %rd10, %rd10, %rd11;", 8, in,
	      (uint64_t[]){0, 0, 0, 0, 0, 0, 0, 0});
	/* lanes 5 and 6 alone share 9: all is their mask (0x60) and true */
	check("match.all.sync.b32 %r2|%p1, %r1, 0x60; selp.u64 %rd11, 1, 0, %p1; cvt.u64.u32 %rd10, %r2; "
	      "shl.b64 %rd11, %rd11, 32; or.b64 %rd10, %rd10, %rd11;", 8, in,
	      (uint64_t[]){0x100000060, 0x100000060, 0x100000060, 0x100000060, 0x100000060, 0x100000060,
			   0x100000060, 0x100000060});
	uint64_t in64[4] = {1ull << 40, 1ull << 40 | 1, 1ull << 40, 2ull << 40};
	check("match.any.sync.b64 %r2, %rd5, 0xf; cvt.u64.u32 %rd10, %r2;", 4, in64,
	      (uint64_t[]){0x5, 0x2, 0x5, 0x8});
}

/* Recursion: each activation keeps its registers and .local across the inner calls (a lost
 * frame would change the sum), threads recurse to different depths (divergent calls): up to 28
 * frames of 36 bytes (4 of .local, 16 of .param, 16 of link), 1,008 of CUDA's default 1,024. */
Test(exec, recursive_calls_keep_a_frame_per_activation)
{
	static const char *ptx =
		HDR ".func (.param .b32 r) sum(.param .b32 n)\n{\n"
		".local .align 4 .b8 keep[4];\n.reg .b32 %r<8>;\n.reg .pred %p<2>;\n"
		"ld.param.b32 %r1, [n];\nmul.lo.s32 %r6, %r1, 3;\nst.local.b32 [keep], %r6;\n"
		"mov.b32 %r2, 0;\nsetp.eq.s32 %p1, %r1, 0;\n@%p1 bra DONE;\nsub.s32 %r3, %r1, 1;\n"
		"{ .param .b32 a; st.param.b32 [a], %r3; .param .b32 b;\n"
		"  call.uni (b), sum, (a); ld.param.b32 %r2, [b]; }\n"
		"DONE:\nld.local.b32 %r4, [keep];\nmul.lo.s32 %r7, %r1, 3;\nsub.s32 %r4, %r4, %r7;\n"
		"add.s32 %r5, %r2, %r1;\nadd.s32 %r5, %r5, %r4;\nst.param.b32 [r], %r5;\nret;\n}\n"
		".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n"
		"ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
		"{ .param .b32 a; st.param.b32 [a], %r1; .param .b32 b;\n"
		"  call.uni (b), sum, (a); ld.param.b32 %r2, [b]; }\n"
		"mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.u32 [%rd3], %r2;\nret;\n}\n";
	struct fe_module *m = fe_t_load_str(ptx);
	struct fe_memory *mem = fe_memory_create();
	uint64_t d = fe_t_buf(mem, NULL, 28 * 4), args[1] = {d};
	struct sim_error err;
	cr_assert_eq(fe_t_launch(m, mem, "k", 1, 28, 0, args, 1, NULL, &err), 0, "%s", err.msg);
	uint32_t r[28];
	fe_t_read(mem, d, r, sizeof r);
	for (uint32_t t = 0; t < 28; t++)
		cr_assert_eq(r[t], t * (t + 1) / 2, "thread %u: %u", t, r[t]);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}
