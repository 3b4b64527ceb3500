/* SPDX-License-Identifier: MIT */
/* Tests for the time series (components/sampler.c, `warpsim run --sample N`): sampling leaves
 * the stats unchanged, and the intervals add up to the run's totals. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/csv.h"

static int sh(const char *cmd)
{
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* stats.json without its provenance (host, date, wall time differ between two runs) */
static char *body(const char *path)
{
	json_t *doc = json_load_file(path, 0, NULL);
	cr_assert_not_null(doc, "%s", path);
	json_object_del(doc, "provenance");
	char *s = json_dumps(doc, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	json_decref(doc);
	return s;
}

static double col_sum(const struct csv_table *t, const char *name)
{
	int c = csv_col(t, name);
	cr_assert_geq(c, 0, "no column %s", name);
	double s = 0;
	for (int r = 0; r < t->n_rows; r++)
		s += csv_num(t, r, c);
	return s;
}

static double total(json_t *tot, const char *name)
{
	json_t *v = json_object_get(tot, name);
	cr_assert(json_is_number(v), "no stat %s", name);
	return json_number_value(v);
}

/* bfs: ten launches of different lengths, so intervals end inside kernels and at their ends */
#define RUN "%s run -c configs/owl-28.cfg -w workloads/bfs/bfs.cfg --quiet -o %s/%s"

Test(sampler, sampling_changes_nothing_and_intervals_sum_to_the_totals, .timeout = 120)
{
	const char *bin = getenv("WARPSIM_BIN");
	cr_assert_not_null(bin);
	char dir[] = "/tmp/ws_sample_XXXXXX", cmd[1024], p[1024];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, RUN, bin, dir, "plain");
	cr_assert_eq(sh(cmd), 0);
	snprintf(cmd, sizeof cmd, RUN " --sample 50", bin, dir, "sampled");
	cr_assert_eq(sh(cmd), 0);
	snprintf(p, sizeof p, "%s/plain/stats.json", dir);
	char *a = body(p);
	snprintf(p, sizeof p, "%s/sampled/stats.json", dir);
	char *b = body(p);
	cr_expect_str_eq(a, b, "--sample changed the stats");
	json_t *doc = json_load_file(p, 0, NULL);
	json_t *tot = json_object_get(doc, "total");
	snprintf(p, sizeof p, "%s/sampled/samples.csv", dir);
	struct csv_table *t = malloc(sizeof *t);
	struct sim_error err = {0};
	cr_assert_eq(csv_load(p, t, &err), 0, "%s", err.msg);
	cr_assert_gt(t->n_rows, 100); /* 21833 cycles / 50, plus a tail per launch */
	cr_expect_eq(col_sum(t, "cycles"), total(tot, "gpu.cycles"));
	cr_expect_eq(col_sum(t, "warp_insts"), total(tot, "gpu.warp_insts"));
	static const char *const cls[] = {"issued", "structural", "data", "control", "fetch", "barrier",
					  "exit", "no_warp"};
	for (size_t k = 0; k < sizeof cls / sizeof cls[0]; k++) {
		char c[64], g[64];
		snprintf(c, sizeof c, "sched.%s", cls[k]);
		snprintf(g, sizeof g, "gpu.stall.%s", cls[k]);
		cr_expect_eq(col_sum(t, c), total(tot, g), "%s", c);
	}
	cr_expect_eq(col_sum(t, "l1d.accesses"), total(tot, "gpu.l1d.accesses"));
	cr_expect_eq(col_sum(t, "l2.accesses"), total(tot, "gpu.l2.accesses"));
	cr_expect_eq(col_sum(t, "dram.accesses"), total(tot, "gpu.dram.reads") + total(tot, "gpu.dram.writes"));
	/* every launch appears, intervals are contiguous within it and at most 50 cycles long */
	int kc = csv_col(t, "kernel"), s0 = csv_col(t, "cycle_start"), s1 = csv_col(t, "cycle_end");
	cr_expect_eq(csv_num(t, t->n_rows - 1, kc) + 1, total(tot, "gpu.kernels"));
	for (int r = 1; r < t->n_rows; r++) {
		cr_expect_leq(csv_num(t, r, s1) - csv_num(t, r, s0), 50.0, "row %d", r);
		if (csv_num(t, r, kc) == csv_num(t, r - 1, kc))
			cr_expect_eq(csv_num(t, r, s0), csv_num(t, r - 1, s1), "row %d", r);
	}
	/* Inside a launch a row counts every SM's cycles, those it slept through included
	 * (sm_sync_counters): its classes add up to 28 SMs x 1 scheduler x its cycles. (A
	 * launch's first row holds one cycle more, its last one fewer: a row ends after the
	 * ticks of its end cycle.) */
	int ccol[sizeof cls / sizeof cls[0]];
	for (size_t k = 0; k < sizeof cls / sizeof cls[0]; k++) {
		char c[64];
		snprintf(c, sizeof c, "sched.%s", cls[k]);
		ccol[k] = csv_col(t, c);
	}
	for (int r = 1; r + 1 < t->n_rows; r++) {
		if (csv_num(t, r - 1, kc) != csv_num(t, r, kc) || csv_num(t, r + 1, kc) != csv_num(t, r, kc))
			continue;
		double sum = 0;
		for (size_t k = 0; k < sizeof cls / sizeof cls[0]; k++)
			sum += csv_num(t, r, ccol[k]);
		cr_expect_eq(sum, 28.0 * csv_num(t, r, csv_col(t, "cycles")), "row %d", r);
	}
	/* IPC per SM adds up to the total IPC of a row */
	int ipc = csv_col(t, "ipc"), sm0 = csv_col(t, "ipc.sm0");
	for (int r = 0; r < t->n_rows; r++) {
		double sum = 0;
		for (int i = 0; i < 28; i++)
			sum += csv_num(t, r, sm0 + i);
		cr_expect(fabs(sum - csv_num(t, r, ipc)) < 1e-4, "row %d: %g vs %g", r, sum, csv_num(t, r, ipc));
	}
	free(a);
	free(b);
	json_decref(doc);
	csv_free(t);
	free(t);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(sh(cmd), 0);
}

/* A launch whose last CTA completes on a sample boundary: vecadd's one launch starts at 0 and
 * its last CTA completes at cycle E (its CTA timeline), so --sample E puts a sample there; the
 * rows stay at most E cycles long (the sample is taken, and a one-cycle tail row to the launch's
 * end E + 1 follows), where skipping it made one row of E + 1. */
Test(sampler, a_launch_ending_on_a_sample_boundary_keeps_its_rows_within_the_interval, .timeout = 60)
{
	const char *bin = getenv("WARPSIM_BIN");
	cr_assert_not_null(bin);
	char dir[] = "/tmp/ws_sample_XXXXXX", cmd[1024], p[1024];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, "%s run -c configs/owl-28.cfg -w workloads/vecadd/vecadd.cfg --quiet -o %s/plain",
		 bin, dir);
	cr_assert_eq(sh(cmd), 0);
	struct csv_table *t = malloc(sizeof *t);
	struct sim_error err = {0};
	snprintf(p, sizeof p, "%s/plain/cta_timeline.csv", dir);
	cr_assert_eq(csv_load(p, t, &err), 0, "%s", err.msg);
	int ec = csv_col(t, "end_cycle"), sc = csv_col(t, "start_cycle");
	double e = 0, s0 = 1e30;
	for (int r = 0; r < t->n_rows; r++) {
		e = fmax(e, csv_num(t, r, ec));
		s0 = fmin(s0, csv_num(t, r, sc));
	}
	csv_free(t);
	cr_assert_eq(s0, 0.0);
	cr_assert_gt(e, 100.0);
	snprintf(cmd, sizeof cmd, "%s run -c configs/owl-28.cfg -w workloads/vecadd/vecadd.cfg --quiet --sample %.0f -o %s/s",
		 bin, e, dir);
	cr_assert_eq(sh(cmd), 0);
	snprintf(p, sizeof p, "%s/s/samples.csv", dir);
	cr_assert_eq(csv_load(p, t, &err), 0, "%s", err.msg);
	int c0 = csv_col(t, "cycle_start"), c1 = csv_col(t, "cycle_end");
	cr_assert_eq(t->n_rows, 2);
	cr_expect_eq(csv_num(t, 0, c0), 0.0);
	cr_expect_eq(csv_num(t, 0, c1), e);
	cr_expect_eq(csv_num(t, 1, c0), e);
	cr_expect_eq(csv_num(t, 1, c1), e + 1);
	csv_free(t);
	free(t);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(sh(cmd), 0);
}

Test(sampler, sample_needs_an_output_directory_and_a_count)
{
	const char *bin = getenv("WARPSIM_BIN");
	cr_assert_not_null(bin);
	char cmd[512];
	snprintf(cmd, sizeof cmd, "%s run -c configs/owl-28.cfg -w workloads/vecadd/vecadd.cfg --sample 100 "
		 ">/dev/null 2>&1", bin);
	cr_expect_eq(sh(cmd), 2);
	snprintf(cmd, sizeof cmd, "%s run -c configs/owl-28.cfg -w workloads/vecadd/vecadd.cfg --sample 0 -o /tmp "
		 ">/dev/null 2>&1", bin);
	cr_expect_eq(sh(cmd), 2);
}
