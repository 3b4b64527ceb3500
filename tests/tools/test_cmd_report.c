/* SPDX-License-Identifier: MIT */
/* Tests for `warpsim report` (tools/cmd_report.c): a run made with --sample gets its IPC heat
 * map and DRAM figures; a sweep's figures put the baseline first, then the spec's order, name
 * the baseline and the machine, cut an outlier, draw the baseline's CTA timeline of the first
 * workload one row per CTA slot, and each has a PNG beside its SVG; a sweep over two machines
 * gets each machine's own tables and figures, each speedup over the baseline on that machine. */
#include <criterion/criterion.h>
#include <dirent.h>
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

static void write_file(const char *dir, const char *name, const char *text)
{
	char p[1024];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	cr_assert_not_null(f, "%s", p);
	fputs(text, f);
	fclose(f);
}

static void read_file(const char *dir, const char *name, char *buf, size_t n)
{
	char p[1024];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "r");
	cr_assert_not_null(f, "no %s", p);
	size_t k = fread(buf, 1, n - 1, f);
	buf[k] = '\0';
	fclose(f);
}

/* A sweep directory made in dir (a mkdtemp template) with results.csv and sweep_order.txt. */
static void sweep_dir(char *dir, const char *results, const char *order)
{
	cr_assert_not_null(mkdtemp(dir));
	write_file(dir, "results.csv", results);
	write_file(dir, "sweep_order.txt", order);
}

/* `warpsim report dir` succeeds. */
static void report(const char *dir)
{
	const char *bin = getenv("WARPSIM_BIN");
	cr_assert_not_null(bin);
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s report %s >/dev/null", bin, dir);
	cr_assert_eq(sh(cmd), 0);
}

Test(cmd_report, a_sweep_report_puts_the_baseline_first_and_cuts_an_outlier, .timeout = 120)
{
	char dir[] = "/tmp/ws_rep_XXXXXX", cmd[1024], p[1024], buf[16384];
	/* results.csv is sorted by name; the spec listed vecadd before saxpy and zeta, lrr, gto.
	 * IPC over lrr: vecadd zeta 130/10 = 13, gto 1.1; saxpy zeta 1.2, gto 0.9; geomeans
	 * sqrt(13 x 1.2) = 3.94968, sqrt(1.1 x 0.9) = 0.994987 */
	sweep_dir(dir,
		  "config,workload,variant,gpu.ipc,gpu.dram.blp,gpu.dram.rbl,gpu.l1d.hit_rate,gpu.stall.issued_frac,"
		  "gpu.stall.no_warp_frac\n"
		  "owl-28,saxpy,gto,9,2,0.5,0.1,0.5,0.5\nowl-28,saxpy,lrr,10,2,0.5,0.1,0.5,0.5\n"
		  "owl-28,saxpy,zeta,12,2,0.5,0.1,0.5,0.5\nowl-28,vecadd,gto,11,2,0.5,0.1,0.5,0.5\n"
		  "owl-28,vecadd,lrr,10,2,0.5,0.1,0.5,0.5\nowl-28,vecadd,zeta,130,2,0.5,0.1,0.5,0.5\n",
		  "# order\nconfig owl-28\nworkload vecadd\nworkload saxpy\nvariant zeta\nvariant lrr\nvariant gto\n");
	/* timelines of two runs: the report draws the baseline's of the first workload */
	snprintf(cmd, sizeof cmd, "mkdir -p %s/owl-28/vecadd/lrr %s/owl-28/saxpy/gto", dir, dir);
	cr_assert_eq(sh(cmd), 0);
	snprintf(p, sizeof p, "%s/owl-28/vecadd/lrr", dir);
	write_file(p, "cta_timeline.csv", "kernel,cta,core,launch_seq,start_cycle,end_cycle\n"
					  "0,0,0,0,0,100\n0,1,1,1,0,50\n0,2,0,2,10,60\n0,3,0,3,100,150\n1,0,0,4,60,90\n");
	snprintf(p, sizeof p, "%s/owl-28/saxpy/gto", dir);
	write_file(p, "cta_timeline.csv", "kernel,cta,core,launch_seq,start_cycle,end_cycle\n0,0,0,0,0,10\n");
	report(dir);

	snprintf(p, sizeof p, "%s/plots", dir);
	read_file(p, "speedup.dat", buf, sizeof buf);
	cr_expect(strstr(buf, "# row lrr zeta gto\nvecadd 1 13 1.1\nsaxpy 1 1.2 0.9\ngeomean 1 3.94968 0.994987\n"),
		  "%s", buf);
	read_file(p, "speedup.gp", buf, sizeof buf);
	cr_expect(strstr(buf, "set title 'IPC speedup over lrr on owl-28'"), "%s", buf);
	/* the positive values' median is 1, the largest 13 > 3 x 1: cut at 3 rounded up to 5 */
	cr_expect(strstr(buf, "CLIP = 5\n") && strstr(buf, "set ytics 0,1,5\n"), "%s", buf);
	cr_expect(strstr(buf, "noenhanced") && strstr(buf, "pngcairo"), "%s", buf);
	read_file(dir, "report.md", buf, sizeof buf);
	cr_expect(strstr(buf, "| workload | lrr | zeta | gto |\n"), "%s", buf);
	cr_expect(strstr(buf, "Bars above 5 are cut at 5"), "%s", buf);
	cr_expect(strstr(buf, "## CTA timeline (vecadd, lrr on owl-28)"), "%s", buf);

	/* lowest free slot per SM: CTA 2 overlaps CTA 0 on SM 0 (slot 1), kernel 1's CTA takes the
	 * slot CTA 2 left at cycle 60, CTA 3 the one CTA 0 left at 100; rows are core x 2 + slot */
	read_file(p, "cta_timeline.dat", buf, sizeof buf);
	cr_expect(strstr(buf, "0 0 0 0 100 0\n0 1 1 10 60 0\n0 1 1 60 90 1\n0 0 0 100 150 0\n1 0 2 0 50 0\n"),
		  "%s", buf);
	read_file(p, "cta_timeline.gp", buf, sizeof buf);
	cr_expect(strstr(buf, "CTA timeline: vecadd / lrr on owl-28"), "%s", buf);

	/* every figure, with a PNG beside each SVG */
	static const char *const figs[] = {"speedup", "dram_blp", "dram_rbl", "l1d_hit_rate", "stalls", "cta_timeline"};
	for (size_t i = 0; i < sizeof figs / sizeof figs[0]; i++) {
		char f[1400];
		snprintf(f, sizeof f, "%s/%s.png", p, figs[i]);
		cr_expect_eq(access(f, R_OK), 0, "no %s", f);
	}
	DIR *d = opendir(p);
	cr_assert_not_null(d);
	int n_svg = 0;
	for (struct dirent *e; (e = readdir(d));) {
		size_t len = strlen(e->d_name);
		if (len < 4 || strcmp(e->d_name + len - 4, ".svg"))
			continue;
		n_svg++;
		char f[1400];
		snprintf(f, sizeof f, "%s/%.*s.png", p, (int)(len - 4), e->d_name);
		cr_expect_eq(access(f, R_OK), 0, "%s has no PNG beside it", e->d_name);
	}
	closedir(d);
	cr_expect_eq(n_svg, 6);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(sh(cmd), 0);
}

Test(cmd_report, a_sweep_over_two_machines_reports_each_on_its_own, .timeout = 120)
{
	char dir[] = "/tmp/ws_rep_XXXXXX", cmd[1024], p[1024], buf[16384];
	/* IPC over lrr: on m1 tl 12/10 = 1.2 (vecadd), 5/4 = 1.25 (saxpy); on m2 tl 9/10 = 0.9 and
	 * 6/8 = 0.75; geomeans sqrt(1.5) = 1.22474 and sqrt(0.675) = 0.821584. The sorted table
	 * has m1's rows first; the spec listed m2 first. */
	sweep_dir(dir,
		  "config,workload,variant,gpu.ipc,gpu.dram.blp,gpu.dram.rbl,gpu.l1d.hit_rate,gpu.stall.issued_frac\n"
		  "m1,saxpy,lrr,4,2,0.5,0.1,0.5\nm1,saxpy,tl,5,2,0.5,0.1,0.5\n"
		  "m1,vecadd,lrr,10,2,0.5,0.1,0.5\nm1,vecadd,tl,12,2,0.5,0.1,0.5\n"
		  "m2,saxpy,lrr,8,3,0.5,0.1,0.5\nm2,saxpy,tl,6,3,0.5,0.1,0.5\n"
		  "m2,vecadd,lrr,10,3,0.5,0.1,0.5\nm2,vecadd,tl,9,3,0.5,0.1,0.5\n",
		  "config m2\nconfig m1\nworkload vecadd\nworkload saxpy\nvariant lrr\nvariant tl\n");
	report(dir);
	snprintf(p, sizeof p, "%s/plots", dir);
	read_file(p, "speedup_m1.dat", buf, sizeof buf);
	cr_expect(strstr(buf, "# row lrr tl\nvecadd 1 1.2\nsaxpy 1 1.25\ngeomean 1 1.22474\n"), "%s", buf);
	read_file(p, "speedup_m2.dat", buf, sizeof buf);
	cr_expect(strstr(buf, "# row lrr tl\nvecadd 1 0.9\nsaxpy 1 0.75\ngeomean 1 0.821584\n"), "%s", buf);
	read_file(p, "dram_blp_m2.dat", buf, sizeof buf);
	cr_expect(strstr(buf, "vecadd 3 3\n"), "%s", buf);
	read_file(dir, "report.md", buf, sizeof buf);
	const char *m2 = strstr(buf, "# m2\n"), *m1 = strstr(buf, "# m1\n");
	cr_expect(m2 && m1 && m2 < m1, "machines in the spec's order: %s", buf);
	cr_expect(strstr(buf, "## IPC speedup over lrr on m2\n"), "%s", buf);
	cr_expect(strstr(buf, "| **geomean** | **1.000** | **0.822** |"), "%s", buf);
	cr_expect(strstr(buf, "| **geomean** | **1.000** | **1.225** |"), "%s", buf);
	cr_expect(strstr(buf, "](plots/speedup_m1.svg)"), "%s", buf);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(sh(cmd), 0);
}
