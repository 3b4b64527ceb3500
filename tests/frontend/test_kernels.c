/* SPDX-License-Identifier: MIT */
/* frontend on real nvcc output (the .ptx files in tests/frontend/data): whole kernels vs host results. */
#include <math.h>

#include "fe_test.h"

Test(kernels, vadd_adds_vectors_and_guards_the_tail)
{
	struct fe_module *m = fe_t_load_file("tests/frontend/data/misc.ptx");
	struct fe_memory *mem = fe_memory_create();
	enum { N = 100 };
	float a[N], b[N], c[N + 28];
	for (int i = 0; i < N; i++) {
		a[i] = (float)i * 0.5f;
		b[i] = 100.0f - (float)i;
	}
	uint64_t da = fe_t_buf(mem, a, sizeof a), db = fe_t_buf(mem, b, sizeof b);
	uint64_t dc = fe_t_buf(mem, NULL, sizeof c);
	uint64_t args[4] = {da, db, dc, N};
	struct sim_error err;
	/* 4 CTAs of 32 = 128 threads, the last 28 fail the i < n test */
	int rc = fe_t_launch(m, mem, "_Z4vaddPKfS0_Pfi", 4, 32, 0, args, 4, NULL, &err);
	cr_assert_eq(rc, 0, "%s", err.msg);
	fe_t_read(mem, dc, c, sizeof c);
	for (int i = 0; i < N; i++)
		cr_assert_float_eq(c[i], a[i] + b[i], 0.0f, "c[%d]=%f", i, c[i]);
	for (int i = N; i < N + 28; i++)
		cr_assert_eq(c[i], 0.0f);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

/* k2 of misc.cu: shared memory + barrier, loop, shfl.down, ballot, atomics, f64, div/rem. */
static int host_helper(int x, int y) { return x * y + (x >> 3); }

Test(kernels, misc_kernel_matches_host_reference)
{
	struct fe_module *m = fe_t_load_file("tests/frontend/data/misc.ptx");
	struct fe_memory *mem = fe_memory_create();
	enum { T = 128, NN = 5 };
	int out[512];
	double d[T];
	for (int i = 0; i < 512; i++)
		out[i] = (i * 7) % 13 - 6;
	for (int i = 0; i < T; i++)
		d[i] = i * 0.25;
	int init[512];
	memcpy(init, out, sizeof out);
	uint64_t dout = fe_t_buf(mem, out, sizeof out), dd = fe_t_buf(mem, d, sizeof d);
	uint64_t args[3] = {dout, dd, NN};
	struct sim_error err;
	int rc = fe_t_launch(m, mem, "_Z2k2PiPKdi", 1, T, 0, args, 3, NULL, &err);
	cr_assert_eq(rc, 0, "%s", err.msg);
	fe_t_read(mem, dout, out, sizeof out);
	/* host model of the kernel, warp by warp (shfl/ballot are per 32 lanes) */
	int v[T];
	for (int t = 0; t < T; t++) {
		v[t] = init[(t + 1) % 128];
		for (int i = 0; i < NN; i++) {
			if (t & 1)
				v[t] += i;
			else
				v[t] -= host_helper(v[t], i);
		}
	}
	int v2[T];
	unsigned ballot[4] = {0};
	for (int t = 0; t < T; t++) {
		int src = (t % 32) + 1 < 32 ? t + 1 : t; /* shfl.down by 1 within the warp */
		v2[t] = v[t] + v[src];
		if (v2[t] > 0)
			ballot[t / 32] |= 1u << (t % 32);
	}
	/* every thread adds its warp's ballot: 32 additions per warp, wrapping */
	unsigned bsum = (unsigned)init[200];
	for (int w = 0; w < 4; w++)
		bsum += 32u * ballot[w];
	for (int t = 0; t < T; t++) {
		unsigned b = ballot[t / 32];
		int exp = v2[t] + (int)(d[t] * 2.5) + __builtin_popcount(b) + (int)sqrtf((float)t) +
			  (int)sinf((float)t);
		cr_assert_eq(out[t], exp, "out[%d] = %d, expected %d", t, out[t], exp);
		long long w = (long long)t * 12345678901LL;
		int e2 = (int)(w >> 40) + t / (NN + 1) + t % 7;
		cr_assert_eq(out[t + 300], e2, "out[%d] = %d, expected %d", t + 300, out[t + 300], e2);
	}
	cr_assert_eq((unsigned)out[200], bsum);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

Test(kernels, noinline_calls_pass_params_and_results)
{
	struct fe_module *m = fe_t_load_file("tests/frontend/data/calls.ptx");
	struct fe_memory *mem = fe_memory_create();
	enum { T = 64 };
	int out[T];
	float fo[T];
	uint64_t dout = fe_t_buf(mem, NULL, sizeof out), dfo = fe_t_buf(mem, NULL, sizeof fo);
	uint64_t args[2] = {dout, dfo};
	struct sim_error err;
	int rc = fe_t_launch(m, mem, "_Z5callsPiPf", 2, 32, 0, args, 2, NULL, &err);
	cr_assert_eq(rc, 0, "%s", err.msg);
	fe_t_read(mem, dout, out, sizeof out);
	fe_t_read(mem, dfo, fo, sizeof fo);
	for (int t = 0; t < T; t++) {
		/* mix(x,y) = x odd ? x*y+7 : x-y */
		int a = (t & 1) ? t * 3 + 7 : t - 3;
		int b = ((t + 1) & 1) ? (t + 1) * t + 7 : (t + 1) - t;
		cr_assert_eq(out[t], a + b, "out[%d]=%d want %d", t, out[t], a + b);
		cr_assert_float_eq(fo[t], t * 0.5f, 0.0f);
	}
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

Test(kernels, divergent_loop_matches_host)
{
	struct fe_module *m = fe_t_load_file("tests/frontend/data/simt.ptx");
	struct fe_memory *mem = fe_memory_create();
	enum { T = 48, NN = 7 };
	int out[T];
	uint64_t dout = fe_t_buf(mem, NULL, sizeof out);
	uint64_t args[2] = {dout, NN};
	struct sim_error err;
	int rc = fe_t_launch(m, mem, "_Z7divergePii", 1, T, 0, args, 2, NULL, &err);
	cr_assert_eq(rc, 0, "%s", err.msg);
	fe_t_read(mem, dout, out, sizeof out);
	for (int t = 0; t < T; t++) {
		int acc = 0;
		for (int i = 0; i < NN; i++)
			acc += ((t + i) & 1) ? i : -2 * i;
		cr_assert_eq(out[t], acc, "out[%d]=%d want %d", t, out[t], acc);
	}
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

Test(kernels, shared_atomic_histogram_counts_every_element)
{
	struct fe_module *m = fe_t_load_file("tests/frontend/data/simt.ptx");
	struct fe_memory *mem = fe_memory_create();
	enum { N = 1000 };
	int in[N], bins[16] = {0}, want[16] = {0};
	for (int i = 0; i < N; i++) {
		in[i] = (i * 37 + 11) % 101;
		want[in[i] & 15]++;
	}
	uint64_t din = fe_t_buf(mem, in, sizeof in), db = fe_t_buf(mem, bins, sizeof bins);
	uint64_t args[3] = {din, db, N};
	struct sim_error err;
	/* 3 CTAs x 64 threads stride over 1000 elements */
	int rc = fe_t_launch(m, mem, "_Z4histPKiPii", 3, 64, 0, args, 3, NULL, &err);
	cr_assert_eq(rc, 0, "%s", err.msg);
	fe_t_read(mem, db, bins, sizeof bins);
	int total = 0;
	for (int b = 0; b < 16; b++) {
		cr_assert_eq(bins[b], want[b], "bin %d: %d want %d", b, bins[b], want[b]);
		total += bins[b];
	}
	cr_assert_eq(total, N);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

Test(kernels, tree_reduction_in_dynamic_shared_memory)
{
	struct fe_module *m = fe_t_load_file("tests/frontend/data/simt.ptx");
	struct fe_memory *mem = fe_memory_create();
	enum { B = 128, G = 3 };
	float in[B * G], out[G];
	for (int i = 0; i < B * G; i++)
		in[i] = (float)(i % 17); /* small integers: every partial sum is exact in f32 */
	uint64_t din = fe_t_buf(mem, in, sizeof in), dout = fe_t_buf(mem, NULL, sizeof out);
	uint64_t args[2] = {din, dout};
	struct sim_error err;
	int rc = fe_t_launch(m, mem, "_Z6reducePKfPf", G, B, B * 4, args, 2, NULL, &err);
	cr_assert_eq(rc, 0, "%s", err.msg);
	fe_t_read(mem, dout, out, sizeof out);
	for (int g = 0; g < G; g++) {
		float s = 0;
		for (int i = 0; i < B; i++)
			s += in[g * B + i];
		cr_assert_float_eq(out[g], s, 0.0f, "block %d: %f want %f", g, out[g], s);
	}
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

Test(kernels, constant_and_global_variables_are_bound)
{
	struct fe_module *m = fe_t_load_file("tests/frontend/data/simt.ptx");
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	cr_assert_eq(fe_memory_bind_module(mem, m, &err), 0);
	uint64_t ga, gsize;
	cr_assert_eq(fe_symbol(mem, m, "gcount", &ga, &gsize, &err), 0);
	cr_assert_eq(gsize, 4);
	int start = 1000;
	cr_assert_eq(fe_mem_write(mem, ga, &start, 4, &err), 0);
	float out[40];
	uint64_t dout = fe_t_buf(mem, NULL, sizeof out);
	uint64_t args[1] = {dout};
	int rc = fe_t_launch(m, mem, "_Z6constkPf", 1, 40, 0, args, 1, NULL, &err);
	cr_assert_eq(rc, 0, "%s", err.msg);
	fe_t_read(mem, dout, out, sizeof out);
	for (int t = 0; t < 40; t++)
		cr_assert_float_eq(out[t], (float)((t & 3) + 1) * (float)t, 0.0f); /* coef = {1,2,3,4} */
	int cnt;
	fe_t_read(mem, ga, &cnt, 4);
	cr_assert_eq(cnt, 1040);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

/* A module's .const variables are packed into one block in declaration order, each at its
 * .align (at least 8), and its .global ones into another, as ptxas lays out a constant bank:
 * four 1 KB tables start 1 KB apart, not each on its own 4 KB page (where all four would share
 * a 2-way 64 B-line constant cache's 16 sets of a 4 KB way). */
Test(kernels, module_variables_are_packed_per_state_space)
{
	struct fe_module *m = fe_t_load_str(
		".version 7.5\n.target sm_75\n.address_size 64\n"
		".const .align 4 .b8 t0[1024];\n"
		".global .align 4 .u32 g0;\n"
		".const .align 4 .b8 t1[1024];\n"
		".const .f32 s;\n"
		".const .align 16 .b8 t2[20];\n"
		".const .align 4 .b8 t3[1024] = {1, 2, 3};\n"
		".global .align 8 .b8 g1[3];\n"
		".visible .entry k()\n{\n\tret;\n}\n");
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	cr_assert_eq(fe_memory_bind_module(mem, m, &err), 0, "%s", err.msg);
	uint64_t a[7], size;
	const char *names[7] = {"t0", "t1", "s", "t2", "t3", "g0", "g1"};
	for (int i = 0; i < 7; i++)
		cr_assert_eq(fe_symbol(mem, m, names[i], &a[i], &size, &err), 0, "%s", names[i]);
	/* t0 at 0, t1 at 1024, s at 2048 (4 bytes), t2 at 2064 (align 16), t3 at 2088 (20 bytes
	 * on, rounded to 8) */
	cr_assert_eq(a[1] - a[0], 1024);
	cr_assert_eq(a[2] - a[0], 2048);
	cr_assert_eq(a[3] - a[0], 2064);
	cr_assert_eq(a[4] - a[0], 2088);
	cr_assert_eq(a[6] - a[5], 8); /* g0's 4 bytes, then g1 at 8 */
	uint8_t b[4];
	fe_t_read(mem, a[4], b, 4);
	cr_assert(b[0] == 1 && b[1] == 2 && b[2] == 3 && b[3] == 0);
	/* bound once: a second call changes nothing */
	cr_assert_eq(fe_memory_bind_module(mem, m, &err), 0);
	uint64_t again;
	cr_assert_eq(fe_symbol(mem, m, "t3", &again, &size, &err), 0);
	cr_assert_eq(again, a[4]);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

/* A module whose .global variables cannot be allocated (513 of 2^31 bytes, the parser's largest
 * variable, pack to past fe_mem_alloc's 2^40 bytes) after its .const one was: the call fails
 * naming the state space, and no variable of the module is left bound, so fe_symbol reports the
 * module unbound instead of answering for half of it. */
Test(kernels, a_module_that_cannot_be_bound_is_not_bound_at_all)
{
	static char ptx[513 * 48 + 256];
	int n = snprintf(ptx, sizeof ptx, ".version 7.5\n.target sm_75\n.address_size 64\n"
					   ".const .align 4 .b8 c0[64];\n");
	for (int i = 0; i < 513; i++)
		n += snprintf(ptx + n, sizeof ptx - (size_t)n, ".global .b8 g%d[2][1073741824];\n", i);
	snprintf(ptx + n, sizeof ptx - (size_t)n, ".visible .entry k()\n{\n\tret;\n}\n");
	struct fe_module *m = fe_t_load_str(ptx);
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	cr_assert_eq(fe_memory_bind_module(mem, m, &err), SIM_ERR_NOMEM);
	cr_assert(strstr(err.msg, ".global"), "%s", err.msg);
	uint64_t a, size;
	cr_assert_neq(fe_symbol(mem, m, "c0", &a, &size, &err), 0);
	cr_assert(strstr(err.msg, "not bound"), "%s", err.msg);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

Test(kernels, texture_objects_point_sampled_and_clamped)
{
	struct fe_module *m = fe_t_load_file("tests/frontend/data/tex.ptx");
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	/* t2: 4 x 3 texels of (x + 4y, 0.5); tf: {1, 2, 3}; ti: {10, 20, 30, 40, 50} */
	float t2[3][4][2];
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 4; x++) {
			t2[y][x][0] = (float)(x + 4 * y);
			t2[y][x][1] = 0.5f;
		}
	float tf[3] = {1, 2, 3};
	int ti[5] = {10, 20, 30, 40, 50};
	struct fe_tex_desc d2 = {.addr = fe_t_buf(mem, t2, sizeof t2), .width = 4, .height = 3, .channels = 2};
	struct fe_tex_desc df = {.addr = fe_t_buf(mem, tf, sizeof tf), .width = 3, .height = 1, .channels = 1};
	struct fe_tex_desc di = {.addr = fe_t_buf(mem, ti, sizeof ti), .width = 5, .height = 1, .channels = 1};
	uint64_t h2, hf, hi, hb;
	cr_assert_eq(fe_texture_create(mem, &d2, &h2, &err), 0);
	cr_assert_eq(fe_texture_create(mem, &df, &hf, &err), 0);
	cr_assert_eq(fe_texture_create(mem, &di, &hi, &err), 0);
	cr_assert(h2 && hf && hi);
	struct fe_tex_desc bad = {.addr = d2.addr, .width = 400, .height = 3, .channels = 4};
	cr_assert_eq(fe_texture_create(mem, &bad, &hb, &err), SIM_ERR_INPUT); /* past the allocation */
	cr_assert(strstr(err.msg, "does not lie in one allocation"), "%s", err.msg);
	/* 2^30 texels of 16 bytes a row, 2^30 + 1 rows: the span is 2^64 + 2^34 bytes, which wraps
	 * to 2^34 in 64 bits; the pitch (2^34) does not fit the descriptor's 32 bits either */
	struct fe_tex_desc huge = {.addr = d2.addr, .width = 1u << 30, .height = (1u << 30) + 1, .channels = 4};
	cr_assert_eq(fe_texture_create(mem, &huge, &hb, &err), SIM_ERR_INPUT);
	float out[8];
	uint64_t dout = fe_t_buf(mem, NULL, sizeof out);
	uint64_t args[4] = {dout, h2, hf, hi};
	cr_assert_eq(fe_t_launch(m, mem, "_Z4texkPfyyy", 1, 8, 0, args, 4, NULL, &err), 0, "%s", err.msg);
	fe_t_read(mem, dout, out, sizeof out);
	for (int i = 0; i < 8; i++) {
		/* tex2D(i + 0.5, 1.5) -> texel (min(i,3), 1); tex1D(i * 0.5) -> tf[min(i/2, 2)];
		 * tex1Dfetch(i) -> ti[min(i, 4)] */
		int x = i < 3 ? i : 3;
		float want = (float)(x + 4) + 0.5f * 10.0f + tf[i / 2 < 2 ? i / 2 : 2] * 100.0f +
			     (float)ti[i < 4 ? i : 4] * 1000.0f;
		cr_assert_float_eq(out[i], want, 0.0f, "thread %d: %f want %f", i, out[i], want);
	}
	/* a handle that is no texture object is a program error */
	args[2] = 12345;
	cr_assert_eq(fe_t_launch(m, mem, "_Z4texkPfyyy", 1, 8, 0, args, 4, NULL, &err), SIM_ERR_PROGRAM);
	cr_assert(strstr(err.msg, "0x3039 is not a texture object"), "%s", err.msg);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

Test(kernels, struct_argument_by_value_through_local_depot)
{
	struct fe_module *m = fe_t_load_file("tests/frontend/data/structarg.ptx");
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	const char *k = "_Z2sk1PPfi";
	uint32_t off, size, align;
	cr_assert_eq(fe_kernel_param(m, k, 0, &off, &size, &align, &err), 0);
	cr_assert(off == 0 && size == 32 && align == 8);
	cr_assert_eq(fe_kernel_param(m, k, 1, &off, &size, &align, &err), 0);
	cr_assert_eq(off, 32);
	cr_assert_eq(fe_kernel_param(m, k, 2, &off, &size, &align, &err), 0);
	cr_assert_eq(off, 40);
	struct { int a; float b; double c; int arr[4]; } p = {3, 0.5f, 0.25, {10, 20, 30, 40}};
	float out[8];
	uint64_t dout = fe_t_buf(mem, NULL, sizeof out);
	uint8_t buf[44];
	int kk = 1;
	memcpy(buf, &p, 32);
	memcpy(buf + 32, &dout, 8);
	memcpy(buf + 40, &kk, 4);
	uint32_t grid[3] = {1, 1, 1}, block[3] = {8, 1, 1};
	struct fe_launch *l = fe_launch_create(m, mem, k, grid, block, 0, buf, sizeof buf, 0, &err);
	cr_assert_not_null(l, "%s", err.msg);
	struct fe_launch_info info;
	fe_launch_get_info(l, &info);
	cr_assert_eq(info.local_bytes_per_thread, 32); /* __local_depot0[32] */
	cr_assert_eq(fe_launch_run_functional(l, NULL, NULL, &err), 0, "%s", err.msg);
	fe_launch_destroy(l);
	fe_t_read(mem, dout, out, sizeof out);
	for (int i = 0; i < 8; i++) /* a + b + c + arr[(i + k) & 3] */
		cr_assert_float_eq(out[i], 3.75f + (float)p.arr[(i + 1) & 3], 0.0f, "out[%d]=%f", i, out[i]);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

Test(kernels, printf_is_a_no_op_and_a_failed_assert_is_a_program_error)
{
	struct fe_module *m = fe_t_load_file("tests/frontend/data/assert.ptx");
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	int out[8];
	uint64_t dout = fe_t_buf(mem, NULL, sizeof out);
	/* n = 8: assert(i < n) holds for the 8 threads; thread 3 calls printf */
	uint64_t args[2] = {dout, 8};
	cr_assert_eq(fe_t_launch(m, mem, "_Z2akPii", 1, 8, 0, args, 2, NULL, &err), 0, "%s", err.msg);
	fe_t_read(mem, dout, out, sizeof out);
	for (int i = 0; i < 8; i++)
		cr_assert_eq(out[i], i);
	/* n = 5: threads 5..7 fail the assertion; the first of them is named */
	args[1] = 5;
	cr_assert_eq(fe_t_launch(m, mem, "_Z2akPii", 1, 8, 0, args, 2, NULL, &err), SIM_ERR_PROGRAM);
	cr_assert(strstr(err.msg, "thread (5,0,0)") && strstr(err.msg, "assertion failed"), "%s", err.msg);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

Test(kernels, syncthreads_count_and_or_reduce_over_the_cta)
{
	struct fe_module *m = fe_t_load_file("tests/frontend/data/syncred.ptx");
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	int out[200];
	uint64_t dout = fe_t_buf(mem, NULL, sizeof out);
	uint64_t args[1] = {dout};
	/* 2 CTAs of 100 threads (4 warps, the last with 4 lanes): per CTA count(t%3==0) = 34,
	 * and(t<1000) = 1, or(t==77) = 1, count(t&1) = 50 */
	cr_assert_eq(fe_t_launch(m, mem, "_Z7syncredPi", 2, 100, 0, args, 1, NULL, &err), 0, "%s", err.msg);
	fe_t_read(mem, dout, out, sizeof out);
	for (int i = 0; i < 200; i++)
		cr_assert_eq(out[i], 34 + 1000 + 10000 + 100000 * 50, "out[%d] = %d", i, out[i]);
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

/* nvcc expands expf, powf, erff, atan2f, fmodf, cbrtf, exp, pow, ... into long PTX sequences
 * (range reduction, polynomials, bit tricks, fma, ex2.approx): their results must agree with
 * the host's libm to a few ulp. */
Test(kernels, libdevice_math_matches_host_libm)
{
	struct fe_module *m = fe_t_load_file("tests/frontend/data/mathlib.ptx");
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	enum { N = 128 };
	float in[N], out[N * 12];
	double ind[N], outd[N * 6];
	for (int i = 0; i < N; i++) {
		in[i] = -1.9f + 3.8f * (float)i / N;
		ind[i] = -1.9 + 3.8 * i / N;
	}
	uint64_t di = fe_t_buf(mem, in, sizeof in), dout = fe_t_buf(mem, NULL, sizeof out);
	uint64_t did = fe_t_buf(mem, ind, sizeof ind), doutd = fe_t_buf(mem, NULL, sizeof outd);
	uint64_t a[2] = {di, dout}, ad[2] = {did, doutd};
	cr_assert_eq(fe_t_launch(m, mem, "mathf", N / 64, 64, 0, a, 2, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(fe_t_launch(m, mem, "mathd", N / 64, 64, 0, ad, 2, NULL, &err), 0, "%s", err.msg);
	fe_t_read(mem, dout, out, sizeof out);
	fe_t_read(mem, doutd, outd, sizeof outd);
	for (int i = 0; i < N; i++) {
		float x = in[i];
		double r[12] = {expf(x), logf(x + 2), sinf(x), cosf(x * 3), tanhf(x), powf(x + 2, 1.7f),
				erff(x), atan2f(x, 2), fmodf(x * 10, 0.3f), sqrtf(x + 2), roundf(x * 7), cbrtf(x)};
		for (int k = 0; k < 12; k++) {
			/* relative error against max(|r|, 1e-3): 4e-7 is about 3 ulp of a float */
			double e = fabs(out[i * 12 + k] - r[k]) / fmax(fabs(r[k]), 1e-3);
			cr_assert_leq(e, 4e-7, "function %d at x=%g: %.9g vs %.9g", k, x, out[i * 12 + k], r[k]);
		}
		double y = ind[i];
		double rd[6] = {exp(y), log(y + 2), sin(y), pow(y + 2, 1.7), y / (y + 3), sqrt(y + 2)};
		for (int k = 0; k < 6; k++) {
			double e = fabs(outd[i * 6 + k] - rd[k]) / fmax(fabs(rd[k]), 1e-3);
			cr_assert_leq(e, 1e-15, "double function %d at x=%g: %.17g vs %.17g", k, y, outd[i * 6 + k], rd[k]);
		}
	}
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}

/* host copy of tests/frontend/data/ctrl.cu */
static int ctrl_classify(int v)
{
	switch (v & 7) {
	case 0: return v * 3;
	case 1: return v + 11;
	case 2: return v - 4;
	case 3: return v ^ 0x55;
	case 4: return (int)((unsigned)v << 2);
	case 5: return v >> 1;
	case 6: return -v;
	default: return 7;
	}
}

static int ctrl_host(int t, int n)
{
	int acc = 0;
	if (t % 17 == 16)
		return -1;
	for (int i = 0; i < n; i++) {
		if ((i + t) % 5 == 0)
			continue;
		for (int j = 0; j < i; j++) {
			if (((t ^ j) & 3) == 3)
				break;
			acc += ctrl_classify(t + i * j);
			if (acc > 100000)
				return acc;
		}
		if (acc & 1)
			acc = acc * 3 + 1;
		else
			acc >>= 1;
		while (acc > 5000)
			acc -= 777;
	}
	return acc;
}

Test(kernels, nested_loops_break_continue_early_return_and_switch)
{
	struct fe_module *m = fe_t_load_file("tests/frontend/data/ctrl.ptx");
	struct fe_memory *mem = fe_memory_create();
	struct sim_error err;
	enum { T = 192, NN = 12 };
	int out[T];
	uint64_t dout = fe_t_buf(mem, NULL, sizeof out);
	uint64_t args[2] = {dout, NN};
	cr_assert_eq(fe_t_launch(m, mem, "ctrl", 3, 64, 0, args, 2, NULL, &err), 0, "%s", err.msg);
	fe_t_read(mem, dout, out, sizeof out);
	for (int t = 0; t < T; t++)
		cr_assert_eq(out[t], ctrl_host(t, NN), "thread %d: %d want %d", t, out[t], ctrl_host(t, NN));
	fe_memory_destroy(mem);
	fe_module_destroy(m);
}
