/* SPDX-License-Identifier: MIT */
/* Tests for components/gpu.h: whole-GPU runs are deterministic (byte-identical stats JSON for the
 * same config, workload and seed), kernels finish under every memory model, and the summary
 * stats add up. */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "components/gpu.h"
#include "scheduler/sched_params.h"
#include "tests/frontend/fake_ptxas.h"
#include "workloads/workload.h"

static char *run_preset(const char *preset, const char *const *overrides, int n_over, const char *workload,
			uint64_t *cycles)
{
	struct sim_error err;
	struct cfg *c = cfg_create();
	cr_assert_eq(gpu_cfg_define_all(c, &err), 0);
	cr_assert_eq(cfg_load_file(c, "configs/owl-28.cfg", &err), 0, "%s", err.msg);
	if (preset)
		cr_assert_eq(cfg_load_file(c, preset, &err), 0, "%s", err.msg);
	cr_assert_eq(cfg_set_override(c, "sim.check=true", &err), 0);
	for (int i = 0; i < n_over; i++)
		cr_assert_eq(cfg_set_override(c, overrides[i], &err), 0, "%s", err.msg);
	struct stats *st = stats_create();
	struct gpu *g = gpu_create(c, st, &err);
	cr_assert_not_null(g, "%s", err.msg);
	struct workload *w = workload_load(workload, &err);
	cr_assert_not_null(w, "%s", err.msg);
	struct fe_device dev = gpu_device(g);
	int rc = workload_run(w, &dev, NULL, &err);
	cr_assert_eq(rc, 0, "%s: %s:%d: %s", workload, err.file, err.line, err.msg);
	if (cycles)
		*cycles = gpu_core_cycles(g);
	char *json = stats_to_json_string(st);
	workload_destroy(w);
	gpu_destroy(g);
	stats_destroy(st);
	cfg_destroy(c);
	return json;
}

static char *run_once(const char *const *overrides, int n_over, const char *workload, uint64_t *cycles)
{
	return run_preset(NULL, overrides, n_over, workload, cycles);
}

/* Every issue and fetch policy and every preset finishes an irregular kernel (divergence,
 * memory refusals, many launches) and passes sim.check's end-of-kernel leak checks: the SM's
 * shortcuts for pure policies (policy.h SCHED_RANK_*) and LWM's sub-warps included. */
Test(gpu, every_policy_and_preset_finishes_an_irregular_kernel, .timeout = 600)
{
	char o[96];
	for (const char *const *p = sched_issue_names(); *p; p++) {
		snprintf(o, sizeof o, "gpu.core.scheduler.policy=%s", *p);
		const char *over[] = {o};
		free(run_once(over, 1, "workloads/bfs/bfs.cfg", NULL));
	}
	for (const char *const *p = sched_fetch_names(); *p; p++) {
		snprintf(o, sizeof o, "gpu.core.scheduler.fetch=%s", *p);
		const char *over[] = {o};
		free(run_once(over, 1, "workloads/bfs/bfs.cfg", NULL));
	}
	static const char *const presets[] = {"configs/presets/owl.cfg", "configs/presets/baws.cfg",
					      "configs/presets/lwm.cfg"};
	for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
		free(run_preset(presets[i], NULL, 0, "workloads/bfs/bfs.cfg", NULL));
}

Test(gpu, same_seed_gives_identical_stats, .timeout = 120)
{
	const char *over[] = {"gpu.core.scheduler.policy=gto"};
	char *a = run_once(over, 1, "workloads/reduce/reduce.cfg", NULL);
	char *b = run_once(over, 1, "workloads/reduce/reduce.cfg", NULL);
	cr_assert(strcmp(a, b) == 0, "two runs of the same configuration differ");
	free(a);
	free(b);
}

Test(gpu, irregular_workload_is_deterministic_under_owl, .timeout = 120)
{
	const char *over[] = {"gpu.core.scheduler.policy=owl-blp", "gpu.dram.prefetch=opportunistic"};
	char *a = run_once(over, 2, "workloads/bfs/bfs.cfg", NULL);
	char *b = run_once(over, 2, "workloads/bfs/bfs.cfg", NULL);
	cr_assert(strcmp(a, b) == 0, "two runs of the same configuration differ");
	free(a);
	free(b);
}

/* A stat's value in the totals of a stats JSON document (0 when absent: unregistered). */
static double total_stat(const char *json, const char *name)
{
	json_error_t je;
	json_t *doc = json_loads(json, 0, &je);
	cr_assert_not_null(doc, "%s", je.text);
	double x = json_number_value(json_object_get(json_object_get(doc, "total"), name));
	json_decref(doc);
	return x;
}

/* vecadd small (n = 4000: 16 CTAs of 256 threads, 128 warps) under every memory model. What the
 * kernel executes does not depend on the model, and is counted by hand from vecadd.ptx:
 * 10 instructions up to and including the guarded branch, 11 on the in-range path, then ret.
 * Warps 0..124 are all in range (4000 = 125 x 32): 22 warp instructions each; warps 125..127
 * all out of range, branch straight to ret: 11 each. 125 x 22 + 3 x 11 = 2783.
 * Thread instructions count lanes that execute (a guard that is false does not): 9 unguarded
 * instructions x 4096 lanes + the branch on the 96 out-of-range lanes + 11 x 4000 + ret x 4096
 * = 36864 + 96 + 44000 + 4096 = 85056.
 * The memory traffic, for the models that have it: each in-range warp's two loads and store
 * touch 128 B, two 64-B L1 lines each: 125 x 3 x 2 = 750 L1D accesses. With the full hierarchy
 * the L2 sees the 2 x 16000 B / 64 = 500 lines of a and b once each, plus one constant-cache
 * miss for the kernel parameters from each of the 16 cores running a CTA (516 accesses); DRAM
 * reads those 500 lines and the parameters' line once (501). c stays dirty in the write-back
 * L1s (1 KB per core): no DRAM write. The cycle counts are not derivable by hand; only their
 * order is checked. */
Test(gpu, every_memory_model_finishes_and_perfect_l1_is_fastest, .timeout = 120)
{
	static const char *models[] = {"full", "perfect-l2", "perfect-l1", "fixed-latency"};
	uint64_t cyc[4];
	for (int i = 0; i < 4; i++) {
		char o[64];
		snprintf(o, sizeof o, "gpu.memory.model=%s", models[i]);
		const char *over[] = {o};
		char *js = run_once(over, 1, "workloads/vecadd/vecadd.cfg", &cyc[i]);
		cr_expect_eq(total_stat(js, "gpu.warp_insts"), 2783, "%s", models[i]);
		cr_expect_eq(total_stat(js, "gpu.thread_insts"), 85056, "%s", models[i]);
		cr_expect_eq(total_stat(js, "gpu.ctas"), 16, "%s", models[i]);
		cr_expect_eq(total_stat(js, "gpu.cycles"), (double)cyc[i], "%s", models[i]);
		if (i <= 1)
			cr_expect_eq(total_stat(js, "gpu.l1d.accesses"), 750, "%s", models[i]);
		cr_expect_eq(total_stat(js, "gpu.l2.accesses"), i == 0 ? 516 : 0, "%s", models[i]);
		cr_expect_eq(total_stat(js, "gpu.dram.reads"), i == 0 ? 501 : 0, "%s", models[i]);
		cr_expect_eq(total_stat(js, "gpu.dram.writes"), 0, "%s", models[i]);
		free(js);
	}
	/* PMEM (OWL): every access hits L1, so no model can beat it; perfect L2 beats the full hierarchy. */
	cr_assert_leq(cyc[2], cyc[0]);
	cr_assert_leq(cyc[2], cyc[1]);
	cr_assert_leq(cyc[1], cyc[0]);
}

/* The host API may run several simulations in threads of one process (issue 9): nothing global
 * may be shared. Two concurrent whole-GPU runs (cycle NoC, full memory) give the stats of a
 * run alone. No Criterion assert inside the threads. */
struct thread_run {
	const char *workload;
	char *json;
};

static void *thread_run(void *arg)
{
	struct thread_run *t = arg;
	struct sim_error err;
	struct cfg *c = cfg_create();
	struct stats *st = stats_create();
	struct gpu *g = NULL;
	struct workload *w = NULL;
	if (c && st && !gpu_cfg_define_all(c, &err) && !cfg_load_file(c, "configs/owl-28.cfg", &err) &&
	    (g = gpu_create(c, st, &err)) && (w = workload_load(t->workload, &err))) {
		struct fe_device dev = gpu_device(g);
		if (!workload_run(w, &dev, NULL, &err))
			t->json = stats_to_json_string(st);
	}
	workload_destroy(w);
	gpu_destroy(g);
	stats_destroy(st);
	cfg_destroy(c);
	return NULL;
}

Test(gpu, simulations_in_concurrent_threads_match_a_run_alone, .timeout = 300)
{
	struct thread_run alone = {"workloads/reduce/reduce.cfg", NULL};
	thread_run(&alone);
	cr_assert_not_null(alone.json);
	struct thread_run t[2] = {{"workloads/reduce/reduce.cfg", NULL}, {"workloads/reduce/reduce.cfg", NULL}};
	pthread_t th[2];
	for (int i = 0; i < 2; i++)
		cr_assert_eq(pthread_create(&th[i], NULL, thread_run, &t[i]), 0);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < 2; i++) {
		cr_assert_not_null(t[i].json, "thread %d failed", i);
		cr_assert(strcmp(t[i].json, alone.json) == 0, "thread %d's stats differ from the run alone", i);
		free(t[i].json);
	}
	free(alone.json);
}

/* A write-heavy kernel on gtx480: transpose_naive at 512 x 512 writes each 128 B output line
 * (8192 of them, 1 MB > the 768 KB L2) in 16 pieces of 8 B from 2 CTAs 32 CTAs apart. A
 * write-back L2 that keeps the line until the pieces are in writes it back about once: at
 * most 2 DRAM writes per output line. The column walk strides 2 KB, which a linearly indexed
 * slice piles into 8 of its 128 sets (21,007 writes measured); gtx480's L2 hashes its index. */
Test(gpu, transpose_naive_writes_each_output_line_back_at_most_twice, .timeout = 300)
{
	struct sim_error err;
	struct cfg *c = cfg_create();
	cr_assert_eq(gpu_cfg_define_all(c, &err), 0);
	cr_assert_eq(cfg_load_file(c, "configs/gtx480.cfg", &err), 0, "%s", err.msg);
	struct stats *st = stats_create();
	struct gpu *g = gpu_create(c, st, &err);
	cr_assert_not_null(g, "%s", err.msg);
	struct workload *w = workload_load_size("workloads/transpose/naive.cfg", "medium", &err);
	cr_assert_not_null(w, "%s", err.msg);
	struct fe_device dev = gpu_device(g);
	cr_assert_eq(workload_run(w, &dev, NULL, &err), 0, "%s", err.msg);
	uint64_t writes = 0, reads = 0;
	cr_assert(stats_get_u64(st, "gpu.dram.writes", &writes));
	cr_assert(stats_get_u64(st, "gpu.dram.reads", &reads));
	cr_assert_leq(writes, 2 * 8192, "%lu DRAM writes for 8192 output lines", (unsigned long)writes);
	cr_assert_leq(reads, 8192 + 8192 / 10, "%lu DRAM reads for 8192 input lines", (unsigned long)reads);
	workload_destroy(w);
	gpu_destroy(g);
	stats_destroy(st);
	cfg_destroy(c);
}

/* A stat's value in the first kernel's record and in the totals of a stats JSON document. */
static double kernel0_stat(const char *json, const char *name, double *total)
{
	json_error_t je;
	json_t *doc = json_loads(json, 0, &je);
	cr_assert_not_null(doc, "%s", je.text);
	json_t *k = json_object_get(json_array_get(json_object_get(doc, "kernels"), 0), "stats");
	json_t *v = json_object_get(k, name);
	cr_assert_not_null(v, "no %s in the kernel's record", name);
	double x = json_number_value(v);
	*total = json_number_value(json_object_get(json_object_get(doc, "total"), name));
	json_decref(doc);
	return x;
}

Test(gpu, lwm1_is_a_7_stage_pipeline_with_a_64_kb_register_file)
{
	/* 002 Sec 6.3 "a simple 7-stage pipeline": fetch and decode, then Table 1's 5-stage back end
	 * that an ALU result passes before the barrel lets its warp fetch again; Table 1's 64 KB
	 * register file for 1024 threads. */
	struct sim_error err;
	struct cfg *c = cfg_create();
	cr_assert_eq(gpu_cfg_define_all(c, &err), 0);
	cr_assert_eq(cfg_load_file(c, "configs/lwm-1.cfg", &err), 0, "%s", err.msg);
	cr_assert(cfg_bool(c, "gpu.core.barrel"));
	int64_t loop = cfg_int(c, "gpu.core.fetch_decode_cycles") + cfg_int(c, "gpu.core.latency.int") +
		       cfg_int(c, "gpu.core.latency.alu_pipeline");
	cr_expect_eq(loop, 7);
	cr_expect_eq(cfg_int(c, "gpu.core.latency.fp32"), cfg_int(c, "gpu.core.latency.int"));
	cr_expect_eq(cfg_int(c, "gpu.core.registers") * 4, 64 * 1024);
	cr_expect_eq(cfg_int(c, "gpu.core.registers"), cfg_int(c, "gpu.core.max_regs_per_thread") * 1024);
	cfg_destroy(c);
}

/* gpu.core.max_regs_per_thread (a register-limited compile, as lwm-1's 16): vecadd's 12 stays,
 * a cap of 8 gives it 8, whatever the source. */
Test(gpu, a_register_cap_gives_a_launch_that_many, .timeout = 120)
{
	double total;
	const char *over16[] = {"gpu.core.max_regs_per_thread=16"}, *over8[] = {"gpu.core.max_regs_per_thread=8"};
	char *json = run_once(over16, 1, "workloads/vecadd/vecadd.cfg", NULL);
	cr_expect_eq(kernel0_stat(json, "gpu.regs_per_thread", &total), 12.0);
	free(json);
	json = run_once(over8, 1, "workloads/vecadd/vecadd.cfg", NULL);
	cr_expect_eq(kernel0_stat(json, "gpu.regs_per_thread", &total), 8.0);
	cr_expect_eq(kernel0_stat(json, "gpu.regs_source", &total), 1.0);
	free(json);
}

/* gpu.regs_per_thread and gpu.regs_source (1 given, 2 ptxas, run now or cached, 4 estimate) per
 * kernel: a result says which register count its occupancy came from. */
Test(gpu, each_kernel_records_its_register_count_and_its_source, .timeout = 120)
{
	double total;
	/* vecadd.cfg: regs_per_thread = { vecadd = 12; }, one launch */
	char *json = run_once(NULL, 0, "workloads/vecadd/vecadd.cfg", NULL);
	cr_expect_eq(kernel0_stat(json, "gpu.regs_per_thread", &total), 12.0);
	cr_expect_eq(kernel0_stat(json, "gpu.regs_source", &total), 1.0);
	cr_expect_eq(kernel0_stat(json, "gpu.regs_launches.given", &total), 1.0);
	cr_expect_eq(total, 1.0);
	free(json);

	/* structarg.cfg gives no count: the estimate without ptxas (link_cfg.c's figure for the kernel) */
	struct sim_error err = {0};
	struct workload *w = workload_load("tests/workloads/data/structarg.cfg", &err);
	cr_assert_not_null(w, "%s", err.msg);
	struct fe_launch_info info;
	cr_assert_eq(fe_kernel_info(workload_module(w), "scale_struct", &info, &err), 0);
	workload_destroy(w);
	setenv("WARPSIM_PTXAS", "none", 1);
	json = run_once(NULL, 0, "tests/workloads/data/structarg.cfg", NULL);
	cr_expect_eq(kernel0_stat(json, "gpu.regs_per_thread", &total), (double)info.regs_per_thread);
	cr_expect_eq(kernel0_stat(json, "gpu.regs_source", &total), 4.0);
	cr_expect_eq(kernel0_stat(json, "gpu.regs_launches.estimate", &total), 1.0);
	free(json);

	/* a ptxas that reports 40: run, then the cache */
	struct fake_ptxas k;
	fake_ptxas_init(&k,
			"ptxas info    : Compiling entry function 'scale_struct' for 'sm_75'\n"
			"ptxas info    : Used 40 registers, 360 bytes cmem[0]\n", 0);
	setenv("WARPSIM_PTXAS", k.ptxas, 1);
	setenv("WARPSIM_CACHE_DIR", k.cache, 1);
	json = run_once(NULL, 0, "tests/workloads/data/structarg.cfg", NULL);
	cr_expect_eq(kernel0_stat(json, "gpu.regs_per_thread", &total), 40.0);
	cr_expect_eq(kernel0_stat(json, "gpu.regs_source", &total), 2.0);
	free(json);
	json = run_once(NULL, 0, "tests/workloads/data/structarg.cfg", NULL);
	cr_expect_eq(kernel0_stat(json, "gpu.regs_per_thread", &total), 40.0);
	/* from the cache: the same stats as the run that filled it (determinism) */
	cr_expect_eq(kernel0_stat(json, "gpu.regs_source", &total), 2.0);
	cr_expect_eq(kernel0_stat(json, "gpu.regs_launches.ptxas", &total), 1.0);
	free(json);
	cr_expect_eq(fake_ptxas_calls(&k), 1);
	fake_ptxas_fini(&k);
}
