/* SPDX-License-Identifier: MIT */
/* Tests for `warpsim report` (tools/cmd_report.c) on one run's time series: a run made with
 * --sample gets its IPC heat map and DRAM figures, each as SVG and PNG. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int sh(const char *cmd)
{
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

Test(cmd_report, a_sampled_run_gets_its_time_series_figures, .timeout = 120)
{
	const char *bin = getenv("WARPSIM_BIN");
	cr_assert_not_null(bin);
	char dir[] = "/tmp/ws_rep_XXXXXX", cmd[1024], p[1024];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, "%s run -c configs/owl-28.cfg -w workloads/bfs/bfs.cfg --quiet --sample 200 -o %s "
		 "&& %s report %s >/dev/null", bin, dir, bin, dir);
	cr_assert_eq(sh(cmd), 0);
	static const char *const files[] = {"ts_ipc.svg", "ts_ipc.png", "ts_dram.svg", "ts_dram.png"};
	for (size_t i = 0; i < 4; i++) {
		snprintf(p, sizeof p, "%s/plots/%s", dir, files[i]);
		cr_expect_eq(access(p, R_OK), 0, "no %s", p);
	}
	/* the heat map has one column of boxes per SM: 28 plot elements */
	snprintf(p, sizeof p, "%s/plots/ts_ipc.gp", dir);
	FILE *f = fopen(p, "r");
	cr_assert_not_null(f);
	char buf[8192];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	cr_expect(strstr(buf, "for [i=0:27]") && strstr(buf, "column(7+i)"), "%s", buf);
	snprintf(p, sizeof p, "%s/report.md", dir);
	f = fopen(p, "r");
	cr_assert_not_null(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	cr_expect(strstr(buf, "plots/ts_ipc.svg") && strstr(buf, "plots/ts_dram.svg"), "%s", buf);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(sh(cmd), 0);
}
