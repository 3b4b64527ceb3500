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
#include <sys/stat.h>
#include <sys/types.h>
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
	cr_expect(strstr(buf, "# row, then one column per series: \"lrr\" \"zeta\" \"gto\"\n\"vecadd\" 1 13 1.1\n"
			       "\"saxpy\" 1 1.2 0.9\n\"geomean\" 1 3.94968 0.994987\n"),
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
	cr_expect(strstr(buf, "\"lrr\" \"tl\"\n\"vecadd\" 1 1.2\n\"saxpy\" 1 1.25\n\"geomean\" 1 1.22474\n"), "%s", buf);
	read_file(p, "speedup_m2.dat", buf, sizeof buf);
	cr_expect(strstr(buf, "\"lrr\" \"tl\"\n\"vecadd\" 1 0.9\n\"saxpy\" 1 0.75\n\"geomean\" 1 0.821584\n"), "%s", buf);
	read_file(p, "dram_blp_m2.dat", buf, sizeof buf);
	cr_expect(strstr(buf, "\"vecadd\" 3 3\n"), "%s", buf);
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

/* `warpsim report ARGS...` run from cwd without a shell (so that any directory name can be
 * passed as it is), its stderr into err_buf; returns its exit status. env_path: PATH for it, or
 * NULL to keep ours. */
static int report_argv(const char *cwd, const char *dir, const char *extra, const char *env_path, char *err_buf,
		       size_t n)
{
	const char *bin = getenv("WARPSIM_BIN");
	cr_assert_not_null(bin);
	char log[] = "/tmp/ws_rep_err_XXXXXX";
	int fd = mkstemp(log);
	cr_assert_geq(fd, 0);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		if (chdir(cwd) || dup2(fd, 2) < 0 || !freopen("/dev/null", "w", stdout))
			_exit(99);
		if (env_path)
			setenv("PATH", env_path, 1);
		if (extra)
			execl(bin, bin, "report", dir, extra, "all", (char *)NULL);
		else
			execl(bin, bin, "report", dir, (char *)NULL);
		_exit(98);
	}
	int st = 0;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	close(fd);
	FILE *f = fopen(log, "r");
	cr_assert_not_null(f);
	size_t k = fread(err_buf, 1, n - 1, f);
	err_buf[k] = '\0';
	fclose(f);
	unlink(log);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* No file named like the marker exists anywhere under dir (find(1) would need a shell). */
static int count_named(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	int n = 0;
	for (struct dirent *e; (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!strncmp(e->d_name, prefix, strlen(prefix)))
			n++;
		if (e->d_type == DT_DIR) {
			char sub[4096];
			snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
			n += count_named(sub, prefix);
		}
	}
	closedir(d);
	return n;
}

#define SHELL_TEXT "x';touch PWNED;'$(touch PWNED2)`touch PWNED3`|touch PWNED4&"

Test(cmd_report, a_cell_with_shell_text_is_refused_and_reaches_no_shell, .timeout = 60)
{
	static const char *const rows[] = {
		"config,workload,variant,gpu.ipc\nowl-28,vecadd,lrr,1\n\"" SHELL_TEXT "\",vecadd,lrr,2\n",
		"config,workload,variant,gpu.ipc\nowl-28,vecadd,lrr,1\nowl-28,\"" SHELL_TEXT "\",lrr,2\n",
		"config,workload,variant,gpu.ipc\nowl-28,vecadd,lrr,1\nowl-28,vecadd,\"" SHELL_TEXT "\",2\n",
	};
	static const char *const col[] = {"config", "workload", "variant"};
	for (int i = 0; i < 3; i++) {
		char dir[] = "/tmp/ws_rep_XXXXXX", buf[4096], cmd[256];
		sweep_dir(dir, rows[i], "");
		cr_expect_eq(report_argv(dir, ".", NULL, NULL, buf, sizeof buf), 2, "%s", buf);
		char want[64];
		snprintf(want, sizeof want, "results.csv:3: %s: ", col[i]);
		cr_expect(strstr(buf, want) && strstr(buf, "is not a sweep name"), "%s", buf);
		cr_expect_eq(count_named(dir, "PWNED"), 0);
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		cr_assert_eq(sh(cmd), 0);
	}
}

/* A run directory whose name holds every shell and gnuplot metacharacter (quotes, $( ),
 * backquotes, ;|&<>, globs, braces, ~ ! # @macro, %, a backslash, a newline and a tab) gets its
 * figures; nothing is run and the name reaches the scripts only as an inert string. */
Test(cmd_report, a_directory_named_with_every_metacharacter_gets_its_figures, .timeout = 120)
{
	const char *bin = getenv("WARPSIM_BIN");
	cr_assert_not_null(bin);
	char top[] = "/tmp/ws_rep_XXXXXX", cmd[1024], buf[8192];
	cr_assert_not_null(mkdtemp(top));
	snprintf(cmd, sizeof cmd, "%s run -c configs/owl-28.cfg -w workloads/vecadd/vecadd.cfg --quiet --sample 500 "
		 "-o %s/run >/dev/null", bin, top);
	cr_assert_eq(sh(cmd), 0);
	static const char name[] = "bob's $(touch PWNED1) `touch PWNED2`;touch PWNED3|&<>*?[x]{a,b}~!#@foo\"\\ %s\n"
				   "system('touch PWNED4')\t'";
	char from[1100], to[1100];
	snprintf(from, sizeof from, "%s/run", top);
	snprintf(to, sizeof to, "%s/%s", top, name);
	cr_assert_eq(rename(from, to), 0);
	cr_expect_eq(report_argv(top, name, NULL, NULL, buf, sizeof buf), 0, "%s", buf);
	cr_expect_eq(count_named(top, "PWNED"), 0);
	char plots[1200];
	snprintf(plots, sizeof plots, "%s/plots", to);
	static const char *const figs[] = {"ts_ipc.svg", "ts_ipc.png", "ts_dram.svg", "ts_dram.png"};
	for (int i = 0; i < 4; i++) {
		char p[1400];
		snprintf(p, sizeof p, "%s/%s", plots, figs[i]);
		cr_expect_eq(access(p, R_OK), 0, "no %s", p);
	}
	/* the title keeps the name on its one line, the quotes doubled; the data by a relative path */
	read_file(plots, "ts_ipc.gp", buf, sizeof buf);
	cr_expect(strstr(buf, "set title 'IPC per SM over time: bob''s $(touch PWNED1)") &&
		  strstr(buf, "%s system(''touch PWNED4'') '''\n"), "%s", buf);
	cr_expect(strstr(buf, "plot for [i=0:27] '../samples.csv' skip 1"), "%s", buf);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
	cr_assert_eq(sh(cmd), 0);
}

Test(cmd_report, a_results_table_without_its_run_columns_or_damaged_is_refused_with_its_line, .timeout = 60)
{
	static const struct {
		const char *csv, *want;
	} cases[] = {
		{"gpu.ipc,config,workload,variant\n1,m,w,v\n", "results.csv:1: the header must start config,workload,variant"},
		{"config,workload\nm,w\n", "results.csv:1: the header must start config,workload,variant (column 3"},
		{"config,workload,variant,gpu.ipc\nm,w,v,1,2\n", "results.csv:2: 5 cells where the header has 4"},
		{"config,workload,variant,gpu.ipc\nm,w,v,1\nm,w,v2\n", "results.csv:3: 3 cells where the header has 4"},
		{"config,workload,variant,gpu.ipc\nm,w,\"v,1\n", "results.csv:2: a quoted cell is not closed"},
		{"config,workload,variant,gpu.ipc\nm,w,\"v\"x,1\n", "results.csv:2: text after a quoted cell"},
		{"config,workload,variant,gpu.ipc\nm,w,v,1\n\nm,w,u,1\n", "results.csv:3: blank line inside the table"},
		{"config,workload,variant,gpu.ipc\nm,w,lrr,1\nm,w,lrr,2\n", "results.csv:3: the run m/w/lrr is also on line 2"},
		{"config,workload,variant,gpu.ipc\n..,w,lrr,1\n", "results.csv:2: config: '..' is not a sweep name"},
		{"config,workload,variant,gpu.ipc\nm,a/b,lrr,1\n", "results.csv:2: workload: 'a/b' is not a sweep name"},
		{"config,workload,variant,gpu.ipc\nm,w,,1\n", "results.csv:2: variant: '' is not a sweep name"},
		{"", "empty results"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char dir[] = "/tmp/ws_rep_XXXXXX", buf[4096], cmd[256];
		sweep_dir(dir, cases[i].csv, "");
		cr_expect_eq(report_argv(dir, ".", NULL, NULL, buf, sizeof buf), 2, "case %zu: %s", i, buf);
		cr_expect(strstr(buf, cases[i].want), "case %zu: wanted '%s', got %s", i, cases[i].want, buf);
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		cr_assert_eq(sh(cmd), 0);
	}
}

Test(cmd_report, a_damaged_samples_table_is_reported_as_such_not_as_gnuplot, .timeout = 60)
{
	static const struct {
		const char *csv, *want;
	} cases[] = {
		{"kernel,cycle_start,cycle_end,ipc.sm0,dram.bandwidth_gbs\n0,0,500,0.5,x1\n",
		 "samples.csv:2: dram.bandwidth_gbs: 'x1' is not a number"},
		{"kernel,cycle_start,cycle_end,ipc.sm0,dram.bandwidth_gbs\n0,0,500,0.5\n",
		 "samples.csv:2: 4 cells where the header has 5"},
		{"kernel,start,end,ipc.sm0,dram.bandwidth_gbs\n0,0,500,0.5,1\n", "samples.csv:1: not a samples table"},
		{"kernel,cycle_start,cycle_end,ipc\n0,0,500,0.5\n", "samples.csv:1: not a samples table: no ipc.sm0"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char dir[] = "/tmp/ws_rep_XXXXXX", buf[4096], cmd[256];
		cr_assert_not_null(mkdtemp(dir));
		write_file(dir, "samples.csv", cases[i].csv);
		cr_expect_eq(report_argv(dir, ".", NULL, NULL, buf, sizeof buf), 2, "case %zu: %s", i, buf);
		cr_expect(strstr(buf, cases[i].want) && !strstr(buf, "gnuplot"), "case %zu: wanted '%s', got %s", i,
			  cases[i].want, buf);
		snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
		cr_assert_eq(sh(cmd), 0);
	}
}

Test(cmd_report, gnuplot_missing_is_said_so, .timeout = 60)
{
	char dir[] = "/tmp/ws_rep_XXXXXX", buf[4096], cmd[256];
	cr_assert_not_null(mkdtemp(dir));
	write_file(dir, "samples.csv", "kernel,cycle_start,cycle_end,ipc.sm0,dram.bandwidth_gbs\n0,0,500,0.5,1\n");
	cr_expect_eq(report_argv(dir, ".", NULL, "/nonexistent", buf, sizeof buf), 2, "%s", buf);
	cr_expect(strstr(buf, "gnuplot: cannot run gnuplot: No such file or directory (install Debian's gnuplot-nox)"),
		  "%s", buf);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(sh(cmd), 0);
}

/* 750 configs x 2 workloads x 2 variants: every config keeps its section and its tables (none is
 * left out, as a fixed axis size once did), and beyond 16 configs no figure is drawn unless
 * asked, which the report says. */
Test(cmd_report, a_sweep_over_750_configs_keeps_every_config_with_tables_only, .timeout = 120)
{
	char dir[] = "/tmp/ws_rep_XXXXXX", cmd[256];
	size_t cap = 200000, len = 0;
	char *csv = malloc(cap);
	cr_assert_not_null(csv);
	len += (size_t)snprintf(csv + len, cap - len, "config,workload,variant,gpu.ipc\n");
	for (int c = 0; c < 750; c++)
		for (int w = 0; w < 2; w++)
			for (int v = 0; v < 2; v++)
				len += (size_t)snprintf(csv + len, cap - len, "m%d,w%d,%s,%d\n", c, w, v ? "gto" : "lrr",
							 10 + v * (c % 7));
	cr_assert_lt(len, cap - 1);
	sweep_dir(dir, csv, "");
	free(csv);
	char buf[4096];
	cr_expect_eq(report_argv(dir, ".", NULL, NULL, buf, sizeof buf), 0, "%s", buf);
	char p[1100];
	snprintf(p, sizeof p, "%s/report.md", dir);
	FILE *f = fopen(p, "r");
	cr_assert_not_null(f);
	int sections = 0;
	bool said = false, m749 = false;
	char line[1024];
	while (fgets(line, sizeof line, f)) {
		sections += !strncmp(line, "## IPC speedup over lrr on m", 28);
		said = said || strstr(line, "this one has 750, so the report has tables only");
		/* m749: 749 % 7 = 0, so gto's IPC equals lrr's: geomean 1 */
		m749 = m749 || !strcmp(line, "## IPC speedup over lrr on m749\n");
	}
	fclose(f);
	cr_expect_eq(sections, 750);
	cr_expect(said && m749);
	snprintf(p, sizeof p, "%s/plots", dir);
	cr_expect_eq(count_named(p, "speedup"), 0, "no figure drawn");
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(sh(cmd), 0);
}

Test(cmd_report, capped_and_sampled_runs_are_marked_and_listed, .timeout = 120)
{
	char dir[] = "/tmp/ws_rep_XXXXXX", cmd[1024], buf[16384];
	/* results.csv as sweep --collect writes it for a capped run (budget.capped 1) and a sampled
	 * one (sampling.* columns, empty for the others) */
	sweep_dir(dir,
		  "config,workload,variant,budget.capped,gpu.ipc,sampling.error_bound_frac,sampling.total_cycles\n"
		  "owl-28,bfs,gto,1,12,,\nowl-28,bfs,lrr,0,10,,\nowl-28,cfd,gto,0,11,0.0123,456789\n"
		  "owl-28,cfd,lrr,0,10,,\n",
		  "# order\nconfig owl-28\nworkload bfs\nworkload cfd\nvariant lrr\nvariant gto\n");
	report(dir);
	read_file(dir, "report.md", buf, sizeof buf);
	cr_expect(strstr(buf, "| bfs | 1.000 | 1.200 (capped) |\n| cfd | 1.000 | 1.100 (sampled) |\n"), "%s", buf);
	cr_expect(strstr(buf, "**Capped**: 1 run stopped at a budget (stats.json \"budget\"): bfs/gto;"), "%s", buf);
	cr_expect(strstr(buf, "**Sampled**: 1 run simulated some launches and estimated the others' cycles "
			      "(stats.json \"sampling\"; total cycles and bound): cfd/gto 456789 cycles +-1.23%;"),
		  "%s", buf);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(sh(cmd), 0);
}

Test(cmd_report, a_sweep_named_after_a_paper_prints_its_comparisons_over_its_own_baseline, .timeout = 60)
{
	/* lwm.cfg has no lrr: its baseline is the spec's first variant. IPC 100 / 120 / 90 on w1,
	 * 100 / 150 / 110 on w2: LWM over the baseline sqrt(1.2 x 1.5) = 1.3416, two-level
	 * sqrt(0.9 x 1.1) = 0.99499; lwm-2lev is not in the sweep, so its line is left out. */
	const char *bin = getenv("WARPSIM_BIN");
	cr_assert_not_null(bin);
	char top[] = "/tmp/ws_rep_XXXXXX", dir[1024], cmd[2048], buf[16384];
	cr_assert_not_null(mkdtemp(top));
	snprintf(dir, sizeof dir, "%s/lwm", top);
	cr_assert_eq(mkdir(dir, 0755), 0);
	write_file(dir, "results.csv",
		   "config,workload,variant,gpu.ipc\n"
		   "m,w1,2lev,90\nm,w1,baseline,100\nm,w1,lwm,120\n"
		   "m,w2,2lev,110\nm,w2,baseline,100\nm,w2,lwm,150\n");
	write_file(dir, "sweep_order.txt", "config m\nworkload w1\nworkload w2\nvariant baseline\nvariant lwm\nvariant 2lev\n");
	snprintf(cmd, sizeof cmd, "%s report %s --figures auto > %s/out.txt 2>&1", bin, dir, top);
	cr_assert_eq(sh(cmd), 0);
	read_file(top, "out.txt", buf, sizeof buf);
	cr_expect(strstr(buf, "LWM over the baseline (lwm / baseline): published +7.6%; here +34.2% over all 2"), "%s", buf);
	cr_expect(strstr(buf, "two-level over the baseline (2lev / baseline): published +10.1%; here -0.5% over all 2"),
		  "%s", buf);
	cr_expect(!strstr(buf, "lwm-2lev"), "%s", buf);
	cr_expect(strstr(buf, "lwm on m: no selection rule (2 workloads)") && strstr(buf, "+34.2% over all, no rule (2)"), "%s", buf);
	read_file(dir, "report.md", buf, sizeof buf);
	cr_expect(strstr(buf, "baseline baseline") && strstr(buf, "## The paper's comparisons"), "%s", buf);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
	cr_assert_eq(sh(cmd), 0);
}
