/* SPDX-License-Identifier: MIT */
/* Tests for a run's provenance (tools/provenance.c): present in stats.json, config.cfg (as
 * comments) and results.csv, and enough to rerun a results.csv row to the same stats. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/csv.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *b = malloc((size_t)n + 1);
	cr_assert_not_null(b);
	cr_assert_eq(fread(b, 1, (size_t)n, f), (size_t)n);
	b[n] = '\0';
	fclose(f);
	return b;
}

/* The document without its provenance lines (as scripts/determinism.sh drops them). */
static char *body(const char *path)
{
	char *t = slurp(path);
	char *a = strstr(t, "\n \"provenance\": {\n");
	if (a) {
		char *b = strstr(a, "\n },\n");
		cr_assert_not_null(b);
		memmove(a + 1, b + 5, strlen(b + 5) + 1);
	}
	return t;
}

static int sh(const char *cmd)
{
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

Test(provenance, a_results_row_reruns_to_the_same_stats, .timeout = 200)
{
	const char *bin = getenv("WARPSIM_BIN");
	cr_assert_not_null(bin);
	char dir[] = "/tmp/ws_prov_XXXXXX", cmd[8192], p[1024];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, "%s sweep tests/tools/provenance.cfg --jobs 1 --out %s >%s/log 2>&1", bin,
		 dir, dir);
	cr_assert_eq(sh(cmd), 0);
	snprintf(p, sizeof p, "%s/prov/results.csv", dir);
	struct csv_table *t = malloc(sizeof *t);
	struct sim_error err = {0};
	cr_assert_eq(csv_load(p, t, &err), 0, "%s", err.msg);
	cr_assert_eq(t->n_rows, 2);
	/* the GPU-level memory stats and the spec's extra stats are columns */
	static const char *const cols[] = {"gpu.l2.hit_rate", "gpu.noc.latency", "gpu.dram.bandwidth_gbs",
					   "gpu.dram.utilisation", "sm.0.l1d.misses", "noc.latency.total"};
	for (size_t k = 0; k < sizeof cols / sizeof cols[0]; k++) {
		int c = csv_col(t, cols[k]);
		cr_assert_geq(c, 0, "no column %s", cols[k]);
		/* vecadd streams: every L2 access misses or merges into a miss (owl-28's L2 MSHRs
		 * hold 32 requests a line), so its hit rate is a rate but may be 0 */
		if (!strcmp(cols[k], "gpu.l2.hit_rate"))
			cr_expect(csv_num(t, 0, c) >= 0.0 && csv_num(t, 0, c) <= 1.0, "%s = %s", cols[k], t->cell[0][c]);
		else
			cr_expect_gt(csv_num(t, 0, c), 0.0, "%s = %s", cols[k], t->cell[0][c]);
	}
	int cmd_c = csv_col(t, "prov.command"), cwd_c = csv_col(t, "prov.cwd");
	cr_assert_geq(cmd_c, 0);
	cr_assert_geq(cwd_c, 0);
	cr_expect_eq(csv_num(t, 0, csv_col(t, "prov.seed")), 7.0);
	cr_expect_str_eq(t->cell[0][csv_col(t, "prov.size")], "small");
	cr_expect_str_eq(t->cell[0][csv_col(t, "prov.params")], "n=8192 blocks=8 alpha=2.5",
			 "%s", t->cell[0][csv_col(t, "prov.params")]);
	cr_expect_str_eq(t->cell[0][csv_col(t, "prov.overrides")],
			 "sim.seed=7 gpu.core.scheduler.policy=gto");
	cr_expect_eq(strlen(t->cell[0][csv_col(t, "prov.git_commit")]) >= 40, true);
	cr_expect_neq(t->cell[0][csv_col(t, "prov.host")][0], '\0');
	cr_expect_eq(strlen(t->cell[0][csv_col(t, "prov.date_utc")]), 20); /* 2026-01-02T03:04:05Z */
	/* rerun row 0 (saxpy/gto, sorted) from its provenance alone, into another directory */
	cr_assert(strstr(t->cell[0][cmd_c], "saxpy"), "%s", t->cell[0][cmd_c]);
	snprintf(cmd, sizeof cmd, "cd '%s' && %s -o %s/rerun --quiet", t->cell[0][cwd_c], t->cell[0][cmd_c], dir);
	cr_assert_eq(sh(cmd), 0, "%s", cmd);
	snprintf(p, sizeof p, "%s/prov/owl-28/saxpy/gto/stats.json", dir);
	char *a = body(p);
	snprintf(p, sizeof p, "%s/rerun/stats.json", dir);
	char *b = body(p);
	cr_expect(strstr(slurp(p), "\"provenance\""), "the rerun has its own provenance");
	cr_expect_str_eq(a, b, "the rerun's stats differ from the sweep's");
	/* config.cfg has it as comments; run.log has the summary */
	snprintf(p, sizeof p, "%s/prov/owl-28/saxpy/gto/config.cfg", dir);
	char *c = slurp(p);
	cr_expect(strstr(c, "\n# provenance") && strstr(c, "\n#   git_commit: "), "%s", c);
	snprintf(p, sizeof p, "%s/prov/owl-28/saxpy/gto/run.log", dir);
	char *l = slurp(p);
	cr_expect(strstr(l, "gpu.ipc") && strstr(l, "simulated "), "run.log: '%s'", l);
	free(a);
	free(b);
	free(c);
	free(l);
	csv_free(t);
	free(t);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(sh(cmd), 0);
}

Test(provenance, the_resolved_configuration_still_loads)
{
	/* comments only: a config.cfg with provenance is a valid -c file */
	const char *bin = getenv("WARPSIM_BIN");
	cr_assert_not_null(bin);
	char dir[] = "/tmp/ws_prov_XXXXXX", cmd[2048];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, "%s run -c configs/owl-28.cfg -w workloads/vecadd/vecadd.cfg -o %s --quiet && "
		 "%s validate -c %s/config.cfg >/dev/null", bin, dir, bin, dir);
	cr_assert_eq(sh(cmd), 0);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(sh(cmd), 0);
}
