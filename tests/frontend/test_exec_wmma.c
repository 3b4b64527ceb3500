/* SPDX-License-Identifier: MIT */
/* wmma (frontend/exec_wmma.c): loads, products and stores of fragments against results worked
 * out by hand, their static description for the timing model, and the faults and refusals. */
#include "fe_test.h"

#define HDR ".version 9.0\n.target sm_75\n.address_size 64\n"
#define R8(p, b) "{%" p #b "0, %" p #b "1, %" p #b "2, %" p #b "3, %" p #b "4, %" p #b "5, %" p #b "6, %" p #b "7}"

/* D = A x B + C, m16n16k16, f16 inputs, f32 C and D: A row-major (stride 16 given), B
 * row-major (stride left out: 16), C row-major, D stored column-major. */
static const char *f32_ptx =
	HDR ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
	".reg .b32 %ra<8>;\n.reg .b32 %rb<8>;\n.reg .f32 %fc<8>;\n.reg .f32 %fd<8>;\n.reg .b64 %rd<5>;\n"
	"ld.param.u64 %rd1, [pa];\nld.param.u64 %rd2, [pb];\nld.param.u64 %rd3, [pc];\nld.param.u64 %rd4, [pd];\n"
	"wmma.load.a.sync.aligned.row.m16n16k16.global.f16 " R8("ra", ) ", [%rd1], 16;\n"
	"wmma.load.b.sync.aligned.row.m16n16k16.global.f16 " R8("rb", ) ", [%rd2];\n"
	"wmma.load.c.sync.aligned.row.m16n16k16.global.f32 " R8("fc", ) ", [%rd3], 16;\n"
	"wmma.mma.sync.aligned.row.row.m16n16k16.f32.f32 " R8("fd", ) ", " R8("ra", ) ", " R8("rb", ) ", " R8("fc", ) ";\n"
	"wmma.store.d.sync.aligned.col.m16n16k16.global.f32 [%rd4], " R8("fd", ) ", 16;\n"
	"ret;\n}\n";

/* IEEE half of a small non-negative integer */
static uint16_t half_of(unsigned v)
{
	if (!v)
		return 0;
	unsigned e = 31 - (unsigned)__builtin_clz(v);
	return (uint16_t)((e + 15) << 10 | ((v << (10 - e)) & 0x3ff));
}

static int run4(const char *ptx, uint32_t threads, const void *a, size_t na, const void *b, size_t nb,
		const void *c, size_t nc, void *d, size_t nd, uint64_t bad_a, struct sim_error *err)
{
	struct fe_module *m = fe_t_load_str(ptx);
	struct fe_memory *mem = fe_memory_create();
	uint64_t args[4] = {fe_t_buf(mem, a, na), fe_t_buf(mem, b, nb), fe_t_buf(mem, c, nc), fe_t_buf(mem, NULL, nd)};
	if (bad_a)
		args[0] = bad_a;
	int rc = fe_t_launch(m, mem, "k", 1, threads, 0, args, 4, NULL, err);
	if (!rc)
		fe_t_read(mem, args[3], d, nd);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
	return rc;
}

Test(exec_wmma, f16_product_with_f32_accumulator)
{
	/* A = 2I, B[k][j] = j, C[i][j] = i: D[i][j] = 2j + i, stored column-major: d[j*16 + i] */
	uint16_t a[256] = {0}, b[256];
	float c[256], d[256];
	for (int i = 0; i < 16; i++)
		a[i * 16 + i] = 0x4000; /* 2.0 */
	for (int k = 0; k < 16; k++)
		for (int j = 0; j < 16; j++)
			b[k * 16 + j] = half_of((unsigned)j), c[k * 16 + j] = (float)k;
	struct sim_error err;
	sim_error_clear(&err);
	cr_assert_eq(run4(f32_ptx, 32, a, sizeof a, b, sizeof b, c, sizeof c, d, sizeof d, 0, &err), 0, "%s", err.msg);
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++)
			cr_assert_eq(d[j * 16 + i], (float)(2 * j + i), "D[%d][%d] = %g", i, j, d[j * 16 + i]);
}

Test(exec_wmma, s8_product_with_s32_accumulator)
{
	/* A all -1 (row-major), B[k][j] = j - 8 (column-major: b[j*16 + k]), C = 100 (column-major):
	 * D[i][j] = -16 (j - 8) + 100, stored row-major */
	static const char *ptx =
		HDR ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
		".reg .b32 %ra<2>;\n.reg .b32 %rb<2>;\n.reg .b32 %rc<8>;\n.reg .b32 %rd<8>;\n.reg .b64 %p<5>;\n"
		"ld.param.u64 %p1, [pa];\nld.param.u64 %p2, [pb];\nld.param.u64 %p3, [pc];\nld.param.u64 %p4, [pd];\n"
		"wmma.load.a.sync.aligned.row.m16n16k16.global.s8 {%ra0, %ra1}, [%p1], 16;\n"
		"wmma.load.b.sync.aligned.col.m16n16k16.global.s8 {%rb0, %rb1}, [%p2], 16;\n"
		"wmma.load.c.sync.aligned.col.m16n16k16.global.s32 " R8("rc", ) ", [%p3], 16;\n"
		"wmma.mma.sync.aligned.row.col.m16n16k16.s32.s8.s8.s32 " R8("rd", ) ", {%ra0, %ra1}, {%rb0, %rb1}, " R8("rc", ) ";\n"
		"wmma.store.d.sync.aligned.row.m16n16k16.global.s32 [%p4], " R8("rd", ) ", 16;\n"
		"ret;\n}\n";
	int8_t a[256], b[256];
	int32_t c[256], d[256];
	for (int i = 0; i < 256; i++)
		a[i] = -1, b[i] = (int8_t)(i / 16 - 8), c[i] = 100;
	struct sim_error err;
	sim_error_clear(&err);
	cr_assert_eq(run4(ptx, 32, a, sizeof a, b, sizeof b, c, sizeof c, d, sizeof d, 0, &err), 0, "%s", err.msg);
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 16; j++)
			cr_assert_eq(d[i * 16 + j], -16 * (j - 8) + 100, "D[%d][%d] = %d", i, j, d[i * 16 + j]);
}

Test(exec_wmma, a_partial_warp_or_a_wild_address_faults)
{
	uint16_t a[256] = {0}, b[256] = {0};
	float c[256] = {0}, d[256];
	struct sim_error err;
	sim_error_clear(&err);
	cr_assert_eq(run4(f32_ptx, 16, a, sizeof a, b, sizeof b, c, sizeof c, d, sizeof d, 0, &err), SIM_ERR_PROGRAM);
	cr_assert(strstr(err.msg, "wmma needs every lane of a 32-lane warp (.sync.aligned): 16 lanes active of 32"),
		  "%s", err.msg);
	sim_error_clear(&err);
	cr_assert_eq(run4(f32_ptx, 32, a, sizeof a, b, sizeof b, c, sizeof c, d, sizeof d, 0x40000000, &err),
		     SIM_ERR_PROGRAM);
	cr_assert(strstr(err.msg, "wmma load of 2 bytes at 0x40000000 is out of bounds"), "%s", err.msg);
}

Test(exec_wmma, the_timing_model_sees_every_register_and_the_tensor_class)
{
	struct fe_module *m = fe_t_load_str(f32_ptx);
	struct fe_launch_info info;
	struct sim_error err;
	cr_assert_eq(fe_kernel_info(m, "k", &info, &err), 0);
	const struct wi_static *la = &info.insts[4], *lc = &info.insts[6], *mma = &info.insts[7], *st = &info.insts[8];
	/* the A load: 8 registers written, the address read; 16 rows of 32 bytes over 32 lanes */
	cr_assert_eq(la->n_dst, 8);
	cr_assert_eq(la->n_src, 1);
	cr_assert_eq(la->unit, WI_UNIT_LDST);
	cr_assert_eq(la->mem_kind, WI_MEM_LOAD);
	cr_assert_eq(la->access_bytes, 16);
	cr_assert(la->flags & WI_F_LONG_LAT);
	/* the f32 C load: 16 rows of 64 bytes, 32 bytes a lane */
	cr_assert_eq(lc->access_bytes, 32);
	/* the product reads three fragments of 8 registers and writes one */
	cr_assert_eq(mma->n_src, 24);
	cr_assert_eq(mma->n_dst, 8);
	cr_assert_eq(mma->unit, WI_UNIT_SP);
	cr_assert_eq(mma->lat_class, WI_LAT_TENSOR);
	cr_assert_eq(mma->ii_class, WI_II_TENSOR);
	/* the store reads the address and the 8 registers (the stride is an immediate) */
	cr_assert_eq(st->n_src, 9);
	cr_assert_eq(st->n_dst, 0);
	cr_assert_eq(st->mem_kind, WI_MEM_STORE);
	fe_module_destroy(m);
}

Test(exec_wmma, unsupported_shapes_and_wrong_fragments_are_refused)
{
	char msg[512];
	struct sim_error err;
	fe_t_parse_fail(HDR ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<2>;\n"
			"wmma.load.a.sync.aligned.row.m16n8k16.global.f16 " R8("r", ) ", [%rd1];\nret;\n}\n",
			msg, sizeof msg, &err);
	cr_assert(strstr(msg, "wmma.load.a.sync.aligned.row.m16n8k16.global.f16"), "%s", msg);
	fe_t_parse_fail(HDR ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<8>;\n.reg .b64 %rd<2>;\n"
			"wmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%r0, %r1, %r2, %r3}, [%rd1];\nret;\n}\n",
			msg, sizeof msg, &err);
	cr_assert(strstr(msg, "operand 1 must be a fragment of 8 registers"), "%s", msg);
}
