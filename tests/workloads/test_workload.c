/* SPDX-License-Identifier: MIT */
/* Tests of workloads/workload.h and warpsim.h: every workload's small size runs functionally and
 * passes its check; bad workload files fail with SIM_ERR_INPUT at file:line. Run from the repo
 * root. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "workloads/warpsim.h"
#include "workloads/wl_int.h"
#include "workloads/workload.h"

static const char *fmt_err(const struct sim_error *e)
{
	static _Thread_local char buf[1024];
	sim_error_format(e, buf, sizeof buf);
	return buf;
}

/* Load and run the small size functionally; compare the launch totals with the numbers worked
 * out by hand from the workload file (given per test). */
static void run_small(const char *path, uint64_t launches, uint64_t ctas, uint64_t threads)
{
	struct sim_error err = {0};
	struct workload *w = workload_load(path, &err);
	cr_assert_not_null(w, "%s", fmt_err(&err));
	cr_assert_str_eq(workload_size(w), "small");
	struct ws_func_stats st = {0};
	struct fe_device dev = workload_functional_device(&st);
	int rc = workload_run(w, &dev, NULL, &err);
	cr_assert_eq(rc, 0, "%s: %s", path, fmt_err(&err));
	struct ws_totals t;
	workload_totals(w, &t);
	cr_expect_eq(t.launches, launches, "%s: launches %llu", path, (unsigned long long)t.launches);
	cr_expect_eq(t.ctas, ctas, "%s: ctas %llu", path, (unsigned long long)t.ctas);
	cr_expect_eq(t.threads, threads, "%s: threads %llu", path, (unsigned long long)t.threads);
	cr_expect_eq(st.launches, launches);
	/* Every launched thread runs at least its index computation and exit. */
	cr_expect_geq(st.thread_insts, 2 * threads);
	cr_expect_geq(st.warp_insts, 2 * threads / 32);
	workload_destroy(w);
}

/* n = 4000: grid (4000+255)/256 = 16 CTAs of 256 = 4096 threads. */
Test(workload_small, vecadd) { run_small("workloads/vecadd/vecadd.cfg", 1, 16, 4096); }
/* 8 blocks of 256 = 2048 threads (grid stride: 4 elements each). */
Test(workload_small, saxpy) { run_small("workloads/saxpy/saxpy.cfg", 1, 8, 2048); }
/* dot_partial 8 CTAs + dot_final 1 CTA, 256 threads each: 9 CTAs, 2304 threads. */
Test(workload_small, dot) { run_small("workloads/dot/dot.cfg", 2, 9, 2304); }
/* 2048 rows / 128 = 16 CTAs, 2048 threads. */
Test(workload_small, spmv) { run_small("workloads/spmv/spmv.cfg", 1, 16, 2048); }
/* (2048+255)/256 = 8 CTAs, 2048 threads. */
Test(workload_small, kmeans) { run_small("workloads/kmeans/kmeans.cfg", 1, 8, 2048); }
/* map (4096+255)/256 = 16 CTAs + reduce 8 CTAs = 24 CTAs of 256 = 6144 threads. */
Test(workload_small, pagecount) { run_small("workloads/pagecount/pagecount.cfg", 2, 24, 6144); }
/* n = 48: 3x3 CTAs of 16x16 = 9 CTAs, 2304 threads. */
Test(workload_small, matmul) { run_small("workloads/matmul/matmul.cfg", 1, 9, 2304); }
/* (8192 + 511)/512 = 16 CTAs of 256 = 4096 threads. */
Test(workload_small, reduce) { run_small("workloads/reduce/reduce.cfg", 1, 16, 4096); }
/* 4 chunks: 4 CTAs of 512 = 2048 threads. */
Test(workload_small, fwt) { run_small("workloads/fwt/fwt.cfg", 1, 4, 2048); }
/* 8 CTAs of 256 = 2048 threads. */
Test(workload_small, histogram) { run_small("workloads/histogram/histogram.cfg", 1, 8, 2048); }
/* 3 steps x (64/16)^2 = 16 CTAs: 3 launches, 48 CTAs, 48*256 = 12288 threads. */
Test(workload_small, hotspot) { run_small("workloads/hotspot/hotspot.cfg", 3, 48, 12288); }
/* 2 chunks: 2 CTAs of 512 = 1024 threads. */
Test(workload_small, bitonic) { run_small("workloads/bitonic/bitonic.cfg", 1, 2, 1024); }
/* 1024/256 = 4 CTAs, 1024 threads. */
Test(workload_small, longcompute) { run_small("workloads/longcompute/longcompute.cfg", 1, 4, 1024); }
/* 2048/256 = 8 CTAs, 2048 threads. */
Test(workload_small, shortphases) { run_small("workloads/shortphases/shortphases.cfg", 1, 8, 2048); }
/* 1024/128 = 8 CTAs, 1024 threads. */
Test(workload_small, blackjack) { run_small("workloads/blackjack/blackjack.cfg", 1, 8, 1024); }
/* scatter 2048/256 = 8 CTAs of 256 + sort (32+63)/64 = 1 CTA of 64: 9 CTAs, 2112 threads. */
Test(workload_small, bucketsort) { run_small("workloads/bucketsort/bucketsort.cfg", 2, 9, 2112); }
/* (128+63)/64 = 2 CTAs of 64 = 128 threads. */
Test(workload_small, viterbi) { run_small("workloads/viterbi/viterbi.cfg", 1, 2, 128); }
/* The large-warp study's launches in CTAs of 256: blackjack 1024/256 = 4 CTAs; viterbi
 * (128+255)/256 = 1 CTA of 256 (its last 128 threads exit at once); bucketsort1k's scatter
 * 4096/256 = 16 CTAs + its shared-memory sort of 256 buckets in 1 CTA. */
Test(workload_small, blackjack256) { run_small("workloads/blackjack/blackjack256.cfg", 1, 4, 1024); }
Test(workload_small, viterbi256) { run_small("workloads/viterbi/viterbi256.cfg", 1, 1, 256); }
Test(workload_small, viterbi_priv) { run_small("workloads/viterbi/viterbi_priv.cfg", 1, 1, 256); }
Test(workload_small, bucketsort1k) { run_small("workloads/bucketsort/bucketsort1k.cfg", 2, 17, 4352); }

/* 64 x 64: 4 x 4 CTAs of 16 x 16 = 4096 threads; the result is checked against refs.c. */
Test(workload_small, transpose_naive) { run_small("workloads/transpose/naive.cfg", 1, 16, 4096); }

Test(workload_small, transpose_tiled) { run_small("workloads/transpose/tiled.cfg", 1, 16, 4096); }

/* The papers' kinds (workloads/README.md); each result is checked against refs_papers.c. */
/* 16x8 frame: 4x2 blocks, one CTA of 256 candidates each = 8 CTAs, 2048 threads. */
Test(workload_small, sad) { run_small("workloads/sad/sad.cfg", 1, 8, 2048); }
/* 4096 records / 128 = 32 CTAs. */
Test(workload_small, pvc) { run_small("workloads/pvc/pvc.cfg", 1, 32, 4096); }
/* 32 documents: 2x2 CTAs of 16x16 pairs = 4 CTAs, 1024 threads. */
Test(workload_small, ssc) { run_small("workloads/ssc/ssc.cfg", 1, 4, 1024); }
/* 2048 cells / 128 = 16 CTAs. */
Test(workload_small, cfd) { run_small("workloads/cfd/cfd.cfg", 1, 16, 2048); }
/* 2048 points / 128 = 16 CTAs. */
Test(workload_small, kmn) { run_small("workloads/kmn/kmn.cfg", 1, 16, 2048); }
/* 16 vector pairs, one CTA of 128 each. */
Test(workload_small, scp) { run_small("workloads/scp/scp.cfg", 1, 16, 2048); }
/* One signal: two radix-4 passes of 1024/128 = 8 CTAs + 16 chunks of 128 threads = 32 CTAs. */
Test(workload_small, fwtg) { run_small("workloads/fwtg/fwtg.cfg", 3, 32, 4096); }
/* 2048 documents / 128 = 16 CTAs. */
Test(workload_small, iix) { run_small("workloads/iix/iix.cfg", 1, 16, 2048); }
/* 2048 rows / 128 = 16 CTAs. */
Test(workload_small, spmvell) { run_small("workloads/spmvell/spmvell.cfg", 1, 16, 2048); }
/* 2 signals x 512 butterflies / 128 = 8 CTAs per stage, 10 stages: 80 CTAs, 10240 threads. */
Test(workload_small, fft) { run_small("workloads/fft/fft.cfg", 10, 80, 10240); }
/* 32x32 image: 2x2 tiles of 16x16, 4 launches: 16 CTAs, 4096 threads. */
Test(workload_small, srad2) { run_small("workloads/srad2/srad2.cfg", 4, 16, 4096); }
/* 64x16 plane: 2x2 CTAs of 32x8 = 4 CTAs, 1024 threads. */
Test(workload_small, stencil) { run_small("workloads/stencil/stencil.cfg", 1, 4, 1024); }
/* 4 CTAs of 256 each. */
Test(workload_small, phaseloop_long) { run_small("workloads/phaseloop/long.cfg", 1, 4, 1024); }

Test(workload_small, phaseloop_short) { run_small("workloads/phaseloop/short.cfg", 1, 4, 1024); }
/* 2048 / 256 = 8 CTAs. */
Test(workload_small, divwalk) { run_small("workloads/divwalk/divwalk.cfg", 1, 8, 2048); }
/* 32 CTAs of 64. */
Test(workload_small, ctawork) { run_small("workloads/ctawork/ctawork.cfg", 1, 32, 2048); }

/* BFS is host-driven: one launch per level until the flag clears, each 2048/256 = 8 CTAs. */
Test(workload_small, bfs_host_loop)
{
	struct sim_error err = {0};
	struct workload *w = workload_load("workloads/bfs/bfs.cfg", &err);
	cr_assert_not_null(w, "%s", fmt_err(&err));
	struct fe_device dev = workload_functional_device(NULL);
	cr_assert_eq(workload_run(w, &dev, NULL, &err), 0, "%s", fmt_err(&err));
	struct ws_totals t;
	workload_totals(w, &t);
	/* At least level 0 -> 1 and one launch that changes nothing. */
	cr_expect_geq(t.launches, 2);
	cr_expect_eq(t.ctas, 8 * t.launches);
	cr_expect_eq(t.threads, 2048 * t.launches);
	workload_destroy(w);
}

/* Struct by value: {f32 alpha @0, s32 n @4, ptr x @8} = 16 bytes; y = 2*[1,2,3,4], y[4] = 0. */
Test(workload, struct_argument_by_value)
{
	run_small("tests/workloads/data/structarg.cfg", 1, 1, 32);
}

/* a from a file, b a sequence: c = a + b checked against a file (arithmetic in the .cfg). */
Test(workload, file_and_sequence_init) { run_small("tests/workloads/data/fileinit.cfg", 1, 1, 32); }

Test(workload, same_run_gives_same_instruction_counts)
{
	/* blackjack's branches depend only on its seeded data, so two runs execute the same
	 * warp and thread instructions. */
	struct sim_error err = {0};
	struct workload *w = workload_load("workloads/blackjack/blackjack.cfg", &err);
	cr_assert_not_null(w, "%s", fmt_err(&err));
	struct ws_func_stats a = {0}, b = {0};
	struct fe_device da = workload_functional_device(&a), db = workload_functional_device(&b);
	cr_assert_eq(workload_run(w, &da, NULL, &err), 0, "%s", fmt_err(&err));
	cr_assert_eq(workload_run(w, &db, NULL, &err), 0, "%s", fmt_err(&err));
	cr_expect_eq(a.warp_insts, b.warp_insts);
	cr_expect_eq(a.thread_insts, b.thread_insts);
	/* blackjack's own count depends on its random data, so it is not derivable by hand: only
	 * that each of its 1024 / 32 = 32 warps executed something (its exit at least), so that the
	 * equalities above are not between two empty runs. */
	cr_expect_geq(a.warp_insts, 32);
	workload_destroy(w);

	/* The counters themselves, exactly, on a kernel counted by hand: vecadd small (n = 4000, 16
	 * CTAs of 256 threads, 128 warps). vecadd.ptx has 10 instructions up to and including the
	 * guarded branch, 11 on the in-range path, then ret: warps 0..124 (4000 = 125 x 32 threads in
	 * range) execute 22, warps 125..127 branch to ret: 11. 125 x 22 + 3 x 11 = 2783 warp
	 * instructions. Lanes: 9 unguarded x 4096 + the branch on the 96 out-of-range lanes (a false
	 * guard executes nothing) + 11 x 4000 + ret x 4096 = 85056 thread instructions. */
	w = workload_load("workloads/vecadd/vecadd.cfg", &err);
	cr_assert_not_null(w, "%s", fmt_err(&err));
	struct ws_func_stats v = {0};
	struct fe_device dv = workload_functional_device(&v);
	cr_assert_eq(workload_run(w, &dv, NULL, &err), 0, "%s", fmt_err(&err));
	cr_expect_eq(v.warp_insts, 2783);
	cr_expect_eq(v.thread_insts, 85056);
	workload_destroy(w);
}

Test(workload, second_run_starts_from_initial_data)
{
	/* hotspot swaps buffers each step: a second run must redo the same 3 steps from the
	 * initial temperatures (the check would fail on a continued run). */
	struct sim_error err = {0};
	struct workload *w = workload_load("workloads/hotspot/hotspot.cfg", &err);
	cr_assert_not_null(w, "%s", fmt_err(&err));
	struct fe_device dev = workload_functional_device(NULL);
	cr_assert_eq(workload_run(w, &dev, NULL, &err), 0, "%s", fmt_err(&err));
	cr_assert_eq(workload_run(w, &dev, NULL, &err), 0, "%s", fmt_err(&err));
	workload_destroy(w);
}

Test(workload, large_size_is_selectable)
{
	struct sim_error err = {0};
	struct workload *w = workload_load_size("workloads/vecadd/vecadd.cfg", "large", &err);
	cr_assert_not_null(w, "%s", fmt_err(&err));
	cr_expect_str_eq(workload_size(w), "large");
	cr_expect_str_eq(workload_name(w), "vecadd");
	int64_t n = 0;
	cr_expect_eq(workload_param_int(w, "n", &n, &err), 0);
	cr_expect_eq(n, 1048576);
	workload_destroy(w);
}

/* The matmul reference (refs.c) gives c[r][col] = fmaf(a[r][k], b[k][col], c) for k ascending
 * from 0.0f, bit for bit, on every column: n = 20 takes its eight-column steps and its tail. */
Test(workload, matmul_reference_is_fmaf_in_k_order)
{
	struct sim_error err = {0};
	struct workload *w = workload_load("tests/workloads/data/matmul20.cfg", &err);
	cr_assert_not_null(w, "%s", fmt_err(&err));
	enum { N = 20 };
	cr_assert_eq(w->n_bufs, 3);
	cr_assert_eq(w->bufs[0].count, N * N);
	const float *a = (const float *)w->bufs[0].init, *b = (const float *)w->bufs[1].init;
	float got[N * N];
	const struct wl_ref *ref = wl_ref_find("matmul");
	cr_assert_not_null(ref);
	cr_assert_eq(ref->fn(w, got, N * N, &err), 0, "%s", fmt_err(&err));
	for (int r = 0; r < N; r++) {
		for (int col = 0; col < N; col++) {
			float s = 0.0f;
			for (int k = 0; k < N; k++)
				s = fmaf(a[r * N + k], b[k * N + col], s);
			cr_assert_eq(memcmp(&got[r * N + col], &s, sizeof s), 0, "c[%d][%d]: %a, fmaf's %a",
				     r, col, (double)got[r * N + col], (double)s);
		}
	}
	workload_destroy(w);
}

/* Every workload file has a large size that loads (data generated, arguments sized); running
 * them is for experiments, not tests. */
Test(workload, every_large_size_loads)
{
	static const char *const names[] = {"vecadd", "saxpy", "dot", "bfs", "spmv", "kmeans",
					    "pagecount", "matmul", "reduce", "fwt", "histogram",
					    "hotspot", "bitonic", "longcompute", "shortphases",
					    "blackjack", "bucketsort", "viterbi", "sad", "pvc", "ssc",
					    "cfd", "kmn", "scp", "fwtg", "iix", "spmvell", "fft",
					    "srad2", "stencil", "divwalk", "ctawork", "blackjack/blackjack256",
					    "viterbi/viterbi256", "viterbi/viterbi_priv", "bucketsort/bucketsort1k"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char path[128];
		if (strchr(names[i], '/')) /* a second workload file beside a kernel */
			snprintf(path, sizeof path, "workloads/%s.cfg", names[i]);
		else
			snprintf(path, sizeof path, "workloads/%s/%s.cfg", names[i], names[i]);
		struct sim_error err = {0};
		struct workload *w = workload_load_size(path, "large", &err);
		cr_expect_not_null(w, "%s", fmt_err(&err));
		if (w)
			cr_expect_str_eq(workload_size(w), "large");
		workload_destroy(w);
	}
}

Test(workload, unknown_size_names_sizes_line)
{
	struct sim_error err = {0};
	struct workload *w = workload_load_size("workloads/vecadd/vecadd.cfg", "huge", &err);
	cr_assert_null(w);
	cr_expect_eq(err.code, SIM_ERR_INPUT);
	cr_expect_eq(err.line, 6, "%s", fmt_err(&err)); /* "sizes = {" is line 6 */
	cr_expect(strstr(err.msg, "huge"), "%s", err.msg);
}

Test(workload, failed_check_names_index_and_values)
{
	struct sim_error err = {0};
	struct workload *w = workload_load("tests/bad_inputs/workloads/check_mismatch.cfg", &err);
	cr_assert_not_null(w, "%s", fmt_err(&err));
	struct fe_device dev = workload_functional_device(NULL);
	int rc = workload_run(w, &dev, NULL, &err);
	cr_assert_eq(rc, SIM_ERR_PROGRAM, "%s", fmt_err(&err));
	cr_expect_eq(sim_error_exit_status(&err), 1);
	/* c = [1+10, 2+20, 3+30, 4+40] = [11,22,33,44] against [11,22,33,45]. */
	cr_expect(strstr(err.msg, "1 of 4 elements differ"), "%s", err.msg);
	cr_expect(strstr(err.msg, "index 3: got 44, expected 45"), "%s", err.msg);
	workload_destroy(w);
}

/* The device's result is compared a piece at a time: the count, the first index and both
 * values of a mismatch in the second 64 KB piece (c[25600] at byte 102400 kept its -7; a + b
 * there is 3 x 25600). */
Test(workload, failed_check_in_a_later_piece_names_index_and_values)
{
	struct sim_error err = {0};
	struct workload *w = workload_load("tests/workloads/data/check_chunks.cfg", &err);
	cr_assert_not_null(w, "%s", fmt_err(&err));
	struct fe_device dev = workload_functional_device(NULL);
	cr_assert_eq(workload_run(w, &dev, NULL, &err), SIM_ERR_PROGRAM, "%s", fmt_err(&err));
	cr_expect(strstr(err.msg, "14400 of 40000 elements differ"), "%s", err.msg);
	cr_expect(strstr(err.msg, "index 25600: got -7, expected 76800"), "%s", err.msg);
	workload_destroy(w);
}

/* Each bad file fails to load with SIM_ERR_INPUT (exit status 2) at the given line, and the
 * message contains the given text. */
static void expect_bad(const char *name, int line, const char *text)
{
	char path[256];
	snprintf(path, sizeof path, "tests/bad_inputs/workloads/%s", name);
	struct sim_error err = {0};
	struct workload *w = workload_load(path, &err);
	cr_assert_null(w, "%s loaded", name);
	cr_expect_eq(err.code, SIM_ERR_INPUT, "%s: %s", name, fmt_err(&err));
	cr_expect_eq(sim_error_exit_status(&err), 2);
	cr_expect(strstr(err.file, name), "%s: file '%s'", name, err.file);
	cr_expect_eq(err.line, line, "%s: line %d: %s", name, err.line, fmt_err(&err));
	cr_expect(strstr(err.msg, text), "%s: '%s' lacks '%s'", name, err.msg, text);
}

Test(workload_bad, unknown_top_level_key) { expect_bad("unknown_key.cfg", 9, "unknown key 'lanches'"); }
Test(workload_bad, unknown_launch_key) { expect_bad("unknown_launch_key.cfg", 10, "unknown key 'gird'"); }
Test(workload_bad, missing_buffer) { expect_bad("missing_buffer.cfg", 11, "no buffer or param named 'd'"); }
Test(workload_bad, wrong_argument_count) { expect_bad("wrong_arg_count.cfg", 11, "takes 4 arguments, 3 given"); }
Test(workload_bad, pointer_for_int) { expect_bad("wrong_arg_type.cfg", 11, "pointer (8 bytes) is given but the parameter is 4 bytes"); }
Test(workload_bad, f64_for_int) { expect_bad("wrong_arg_type_f64.cfg", 11, "f64 (8 bytes) is given but the parameter is 4 bytes"); }
Test(workload_bad, grid_out_of_bounds) { expect_bad("oob_grid.cfg", 11, "out of bounds"); }
Test(workload_bad, block_out_of_bounds) { expect_bad("oob_block.cfg", 11, "out of bounds"); }
Test(workload_bad, zero_grid) { expect_bad("zero_grid.cfg", 11, "out of bounds"); }
Test(workload_bad, unknown_kernel) { expect_bad("unknown_kernel.cfg", 10, "no kernel 'vecsub'"); }
Test(workload_bad, unknown_reference) { expect_bad("bad_reference.cfg", 13, "no built-in reference function 'vecsub'"); }
Test(workload_bad, malformed_expression) { expect_bad("bad_expr.cfg", 11, "expected a number"); }
Test(workload_bad, syntax_error) { expect_bad("syntax_error.cfg", 10, "syntax error"); }
Test(workload_bad, unknown_init) { expect_bad("bad_init.cfg", 6, "init must be"); }

/* ---- host API ------------------------------------------------------------------------------ */

Test(warpsim_host, launch_checks_argument_count_and_size)
{
	struct sim_error err = {0};
	struct fe_device dev = workload_functional_device(NULL);
	struct ws_host *h = ws_host_open("workloads/vecadd/vecadd.ptx", &dev, &err);
	cr_assert_not_null(h, "%s", fmt_err(&err));
	uint64_t a;
	cr_assert_eq(ws_malloc(h, &a, 64, &err), 0);
	int rc = ws_launch(h, "vecadd", WS_DIM3(1, 1, 1), WS_DIM3(16, 1, 1), 0,
			   WS_ARGS(WS_PTR(a), WS_PTR(a), WS_PTR(a)), &err);
	cr_expect_eq(rc, SIM_ERR_INPUT);
	cr_expect(strstr(err.msg, "takes 4 arguments, 3 given"), "%s", err.msg);
	rc = ws_launch(h, "vecadd", WS_DIM3(1, 1, 1), WS_DIM3(16, 1, 1), 0,
		       WS_ARGS(WS_PTR(a), WS_PTR(a), WS_PTR(a), WS_F64(16)), &err);
	cr_expect_eq(rc, SIM_ERR_INPUT);
	cr_expect(strstr(err.msg, "argument 3"), "%s", err.msg);
	rc = ws_launch(h, "vecadd", WS_DIM3(0, 1, 1), WS_DIM3(16, 1, 1), 0,
		       WS_ARGS(WS_PTR(a), WS_PTR(a), WS_PTR(a), WS_S32(16)), &err);
	cr_expect_eq(rc, SIM_ERR_INPUT);
	struct ws_totals t;
	ws_host_totals(h, &t);
	cr_expect_eq(t.launches, 0);
	ws_host_destroy(h);
}

Test(warpsim_host, vecadd_through_host_api)
{
	/* c[i] = i + 2i = 3i for i < 40 (two CTAs of 32, 24 threads idle). */
	struct sim_error err = {0};
	struct fe_device dev = workload_functional_device(NULL);
	struct ws_host *h = ws_host_open("workloads/vecadd/vecadd.ptx", &dev, &err);
	cr_assert_not_null(h, "%s", fmt_err(&err));
	float a[40], b[40], c[40];
	for (int i = 0; i < 40; i++) {
		a[i] = (float)i;
		b[i] = 2.0f * (float)i;
	}
	uint64_t da, db, dc;
	cr_assert_eq(ws_malloc(h, &da, sizeof a, &err), 0);
	cr_assert_eq(ws_malloc(h, &db, sizeof b, &err), 0);
	cr_assert_eq(ws_malloc(h, &dc, sizeof c, &err), 0);
	cr_assert_eq(ws_memcpy_h2d(h, da, a, sizeof a, &err), 0);
	cr_assert_eq(ws_memcpy_h2d(h, db, b, sizeof b, &err), 0);
	int rc = ws_launch(h, "vecadd", WS_DIM3(2, 1, 1), WS_DIM3(32, 1, 1), 0,
			   WS_ARGS(WS_PTR(da), WS_PTR(db), WS_PTR(dc), WS_S32(40)), &err);
	cr_assert_eq(rc, 0, "%s", fmt_err(&err));
	cr_assert_eq(ws_synchronize(h, &err), 0);
	cr_assert_eq(ws_memcpy_d2h(h, c, dc, sizeof c, &err), 0);
	for (int i = 0; i < 40; i++)
		cr_expect_eq(c[i], 3.0f * (float)i, "c[%d] = %g", i, c[i]);
	struct ws_totals t;
	ws_host_totals(h, &t);
	cr_expect_eq(t.launches, 1);
	cr_expect_eq(t.ctas, 2);
	cr_expect_eq(t.threads, 64);
	ws_host_destroy(h);
}

Test(warpsim_host, symbol_copy_bounds)
{
	/* kmeans.cu: __constant__ float centroids[16 * 8] = 512 bytes. */
	struct sim_error err = {0};
	struct fe_device dev = workload_functional_device(NULL);
	struct ws_host *h = ws_host_open("workloads/kmeans/kmeans.ptx", &dev, &err);
	cr_assert_not_null(h, "%s", fmt_err(&err));
	float v[129] = {0}, back[2];
	v[0] = 1.5f;
	v[1] = -2.0f;
	cr_expect_eq(ws_memcpy_to_symbol(h, "centroids", v, 512, 0, &err), 0, "%s", fmt_err(&err));
	cr_expect_eq(ws_memcpy_from_symbol(h, back, "centroids", 8, 0, &err), 0);
	cr_expect_eq(back[0], 1.5f);
	cr_expect_eq(back[1], -2.0f);
	cr_expect_eq(ws_memcpy_to_symbol(h, "centroids", v, 516, 0, &err), SIM_ERR_INPUT);
	cr_expect_eq(ws_memcpy_to_symbol(h, "centroids", v, 8, 508, &err), SIM_ERR_INPUT);
	ws_host_destroy(h);
}

/* init = "random" fills buffers from splitmix64 (wl_rng_next): f32 as lo + u (hi - lo) with u
 * the top 53 bits / 2^53, integers as lo + r % (hi - lo + 1). Values worked out apart (Python)
 * for vecadd's a (seed 1, [-1, 1)) and reduce's in (seed 15, [-1000, 1000]), first and last. */
static void expect_words(const char *path, const char *buf, uint64_t count, const uint64_t *at,
			 const uint32_t *want)
{
	struct sim_error err = {0};
	struct workload *w = workload_load(path, &err);
	cr_assert_not_null(w, "%s", fmt_err(&err));
	const struct wl_buffer *b = &w->bufs[wl_buffer_find(w, buf)];
	cr_assert_eq(b->count, count);
	for (int i = 0; i < 4; i++) {
		uint32_t got;
		memcpy(&got, b->init + 4 * at[i], 4);
		cr_assert_eq(got, want[i], "%s[%llu] = 0x%08x", buf, (unsigned long long)at[i], got);
	}
	workload_destroy(w);
}

Test(workload, random_inputs_are_the_seeded_values)
{
	static const uint64_t at_a[4] = {0, 1, 2, 3999}, at_in[4] = {0, 1, 2, 8191};
	static const uint32_t want_a[4] = {0x3e08516f, 0x3efbae37, 0x3f712746, 0x3ef9304f};
	static const uint32_t want_in[4] = {151, 108, (uint32_t)-137, (uint32_t)-335};
	expect_words("workloads/vecadd/vecadd.cfg", "a", 4000, at_a, want_a);
	expect_words("workloads/reduce/reduce.cfg", "in", 8192, at_in, want_in);
}

/* Every element of an f32 "random" buffer is the scalar draw: lo + u (hi - lo) rounded to float,
 * u = (wl_rng_next >> 11) / 2^53, element i from the seed's state after i + 1 steps (the
 * buffers are filled four at a time where the CPU allows; 1003 elements leave a tail of 3, and
 * vecadd large's a is 2^20 of them). */
static void expect_scalar_draws(const char *path, const char *size, const char *buf, uint64_t seed,
				double lo, double hi)
{
	struct sim_error err = {0};
	struct workload *w = workload_load_size(path, size, &err);
	cr_assert_not_null(w, "%s", fmt_err(&err));
	const struct wl_buffer *b = &w->bufs[wl_buffer_find(w, buf)];
	uint64_t st = seed;
	for (uint64_t i = 0; i < b->count; i++) {
		double u = (double)(wl_rng_next(&st) >> 11) * 0x1p-53;
		float want = (float)(lo + u * (hi - lo)), got;
		memcpy(&got, b->init + 4 * i, 4);
		cr_assert_eq(memcmp(&got, &want, 4), 0, "%s %s[%llu] = %a, the scalar draw %a", path, buf,
			     (unsigned long long)i, (double)got, (double)want);
	}
	workload_destroy(w);
}

Test(workload, random_f32_inputs_are_the_scalar_draws)
{
	expect_scalar_draws("tests/workloads/data/random_inputs.cfg", "small", "a", 7, -3.5, 2.25);
	expect_scalar_draws("tests/workloads/data/random_inputs.cfg", "small", "b", 123456789, 1e-3, 1e6);
	expect_scalar_draws("workloads/vecadd/vecadd.cfg", "large", "a", 1, -1.0, 1.0);
}

/* The same for 32-bit integers: lo + wl_rng_next % (hi - lo + 1), truncated to 32 bits. */
static void expect_scalar_ints(const char *path, const char *size, const char *buf, uint64_t seed,
			       int64_t lo, int64_t hi)
{
	struct sim_error err = {0};
	struct workload *w = workload_load_size(path, size, &err);
	cr_assert_not_null(w, "%s", fmt_err(&err));
	const struct wl_buffer *b = &w->bufs[wl_buffer_find(w, buf)];
	uint64_t st = seed, span = (uint64_t)(hi - lo) + 1;
	for (uint64_t i = 0; i < b->count; i++) {
		uint32_t want = (uint32_t)(lo + (int64_t)(wl_rng_next(&st) % span)), got;
		memcpy(&got, b->init + 4 * i, 4);
		cr_assert_eq(got, want, "%s %s[%llu] = %u, the scalar draw %u", path, buf,
			     (unsigned long long)i, got, want);
	}
	workload_destroy(w);
}

Test(workload, random_i32_inputs_are_the_scalar_draws)
{
	expect_scalar_ints("tests/workloads/data/random_inputs.cfg", "small", "i", 9, -1000, 1000);
	expect_scalar_ints("tests/workloads/data/random_inputs.cfg", "small", "u", 31, 5, 4294967295);
	expect_scalar_ints("tests/workloads/data/random_inputs.cfg", "small", "one", 4, -7, -7);
	expect_scalar_ints("workloads/reduce/reduce.cfg", "large", "in", 15, -1000, 1000);
}
