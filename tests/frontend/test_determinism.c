/* SPDX-License-Identifier: MIT */
/* frontend determinism: the same launch gives identical memory and counts, run twice or in
 * two threads at once (no global mutable state; directed rounding is per-thread FP state). */
#include <pthread.h>

#include "fe_test.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"

/* every thread adds with .rp then .rz into two arrays: concurrent threads switching the FP
 * rounding mode must not disturb each other; atomics fold all threads into one sum */
static const char *ptx =
	HDR ".visible .entry k(.param .u64 out)\n{\n.reg .b32 %r<8>;\n.reg .f32 %f<8>;\n.reg .b64 %rd<8>;\n"
	"ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\nmov.u32 %r2, %ctaid.x;\nmad.lo.u32 %r3, %r2, 128, %r1;\n"
	"cvt.rn.f32.u32 %f1, %r3;\nmul.rn.f32 %f2, %f1, 0f3DCCCCCD;\n"
	"add.rp.f32 %f3, %f2, 0f33D6BF95;\nadd.rz.f32 %f4, %f2, 0f33D6BF95;\n"
	"mul.wide.u32 %rd2, %r3, 8;\nadd.s64 %rd3, %rd1, %rd2;\nst.global.v2.f32 [%rd3+16], {%f3, %f4};\n"
	"atom.global.add.u32 %r4, [%rd1], %r3;\natom.global.add.f32 %f5, [%rd1+8], %f2;\nret;\n}\n";

enum { CTAS = 8, THREADS = CTAS * 128, BYTES = 16 + THREADS * 8 };

struct run {
	uint8_t mem[BYTES];
	uint64_t winsts;
	int rc;
};

static void *run_once(void *arg)
{
	struct run *r = arg;
	struct fe_module *m = NULL;
	struct sim_error err;
	r->rc = fe_module_parse_string("d.ptx", ptx, &m, &err);
	if (r->rc)
		return NULL;
	struct fe_memory *mem = fe_memory_create();
	uint64_t out = fe_mem_alloc(mem, BYTES);
	uint8_t pbuf[8];
	memcpy(pbuf, &out, 8);
	for (int rep = 0; rep < 20 && !r->rc; rep++) {
		uint32_t grid[3] = {CTAS, 1, 1}, block[3] = {128, 1, 1};
		struct fe_launch *l = fe_launch_create(m, mem, "k", grid, block, 0, pbuf, 8, 0, &err);
		r->rc = l ? fe_launch_run_functional(l, &r->winsts, NULL, &err) : -1;
		fe_launch_destroy(l);
	}
	fe_mem_read(mem, out, r->mem, BYTES, &err);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
	return NULL;
}

Test(determinism, same_launch_same_memory_sequential_and_in_threads)
{
	static struct run a, b, c;
	run_once(&a);
	cr_assert_eq(a.rc, 0);
	pthread_t tb, tc;
	cr_assert_eq(pthread_create(&tb, NULL, run_once, &b), 0);
	cr_assert_eq(pthread_create(&tc, NULL, run_once, &c), 0);
	pthread_join(tb, NULL);
	pthread_join(tc, NULL);
	cr_assert(b.rc == 0 && c.rc == 0);
	cr_assert_eq(memcmp(a.mem, b.mem, BYTES), 0);
	cr_assert_eq(memcmp(a.mem, c.mem, BYTES), 0);
	cr_assert_eq(a.winsts, b.winsts);
	/* 20 launches add 0 + 1 + ... + 1023 = 523776 each into the u32 counter */
	uint32_t sum;
	memcpy(&sum, a.mem, 4);
	cr_assert_eq(sum, 20u * 523776u);
	/* .rp result is one ulp above .rz whenever the tiny addend is inexact (t = 1: 0.1f + 1e-7) */
	float up, dn;
	memcpy(&up, a.mem + 16 + 8, 4);
	memcpy(&dn, a.mem + 16 + 12, 4);
	cr_assert(up > dn, "%.9g %.9g", up, dn);
	/* warp instructions of one launch: 8 CTAs x 4 warps x 14 straight-line instructions */
	cr_assert_eq(a.winsts, 32 * 14);
}
