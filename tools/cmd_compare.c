/* SPDX-License-Identifier: MIT */
/* `warpsim compare`: the main job. Runs a sweep spec (default experiments/main.cfg: owl-28,
 * representative workloads, lrr/gto/tl/owl/baws) and prints IPC normalised to lrr with L1 hit
 * rate, BLP and RBL per run, plus the geometric mean speedup per policy. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "csv.h"
#include "sweep.h"

static void print_table(const struct csv_table *t, const char *base)
{
	int ipc = csv_col(t, "gpu.ipc"), l1 = csv_col(t, "gpu.l1d.hit_rate"), blp = csv_col(t, "gpu.dram.blp"),
	    rbl = csv_col(t, "gpu.dram.rbl"), cyc = csv_col(t, "gpu.cycles");
	printf("\n%-12s %-10s %10s %9s %8s %6s %6s %12s\n", "workload", "policy", "IPC", "IPC/lrr",
	       "L1 hit", "BLP", "RBL", "cycles");
	/* geometric mean of speedup per policy */
	char *pol[64];
	double logsum[64] = {0};
	int cnt[64] = {0}, n_pol = 0;
	for (int r = 0; r < t->n_rows; r++) {
		double base_ipc = NAN;
		for (int q = 0; q < t->n_rows; q++)
			if (!strcmp(t->cell[q][0], t->cell[r][0]) && !strcmp(t->cell[q][1], t->cell[r][1]) &&
			    !strcmp(t->cell[q][2], base))
				base_ipc = csv_num(t, q, ipc);
		double v = csv_num(t, r, ipc), sp = v / base_ipc;
		printf("%-12s %-10s %10.3f %9.3f %8.3f %6.2f %6.3f %12.0f\n", t->cell[r][1], t->cell[r][2], v,
		       sp, csv_num(t, r, l1), csv_num(t, r, blp), csv_num(t, r, rbl), csv_num(t, r, cyc));
		int k = 0;
		while (k < n_pol && strcmp(pol[k], t->cell[r][2]))
			k++;
		if (k == n_pol && n_pol < 64)
			pol[n_pol++] = t->cell[r][2];
		if (k < 64 && sp > 0 && isfinite(sp)) {
			logsum[k] += log(sp);
			cnt[k]++;
		}
	}
	printf("\ngeometric-mean IPC speedup over %s:", base);
	for (int k = 0; k < n_pol; k++)
		printf("  %s %.3f", pol[k], cnt[k] ? exp(logsum[k] / cnt[k]) : NAN);
	printf("\n");
}

int cmd_compare(int argc, char **argv, struct sim_error *err)
{
	static const char *const with_value[] = {"--spec", "--jobs", "--out", NULL};
	struct cli_opts o;
	int rc = cli_parse(argc, argv, "", with_value, NULL, &o, err);
	if (rc)
		return rc;
	if (o.help) {
		printf("usage: warpsim compare [--spec experiments/main.cfg] [--jobs N] [--out DIR]\n"
		       "runs the spec's configs x workloads x policies and prints IPC normalised to lrr,\n"
		       "L1 hit rate, BLP and RBL (the README's main job)\n");
		return 0;
	}
	if (o.n_positional)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, o.positional[0], "unexpected argument");
	const char *spec = cli_long(&o, "--spec") ? cli_long(&o, "--spec") : "experiments/main.cfg";
	int jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (cli_long(&o, "--jobs"))
		jobs = atoi(cli_long(&o, "--jobs"));
	if (jobs < 1 || jobs > 1024)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--jobs", "expected 1..1024");
	char out[PATH_MAX];
	if (cli_long(&o, "--out")) {
		snprintf(out, sizeof out, "%s", cli_long(&o, "--out"));
	} else {
		/* a fresh directory per invocation, so the table always reflects this build */
		time_t now = time(NULL);
		struct tm tm;
		gmtime_r(&now, &tm);
		snprintf(out, sizeof out, "results/compare-%04d%02d%02d-%02d%02d%02d-%ld", tm.tm_year + 1900,
			 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (long)getpid());
	}
	char dir[PATH_MAX];
	rc = sweep_run_spec(spec, out, jobs, NULL, NULL, dir, sizeof dir, err);
	if (rc)
		return rc;
	char csv[PATH_MAX + 16];
	snprintf(csv, sizeof csv, "%s/results.csv", dir);
	struct csv_table *t = malloc(sizeof *t);
	if (!t)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	rc = csv_load(csv, t, err);
	if (!rc)
		print_table(t, "lrr");
	csv_free(t);
	free(t);
	return rc;
}
