/* SPDX-License-Identifier: MIT */
/* Tests for `warpsim sweep` and `warpsim report` on what goes wrong (issue 19): a bad spec is
 * refused whole before the first run, a sweep whose every run fails collects nothing without
 * crashing, two sweeps into one directory run each run once, SIGINT reaches the runs, and a
 * report over a sweep with a missing run says so and fails. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static int sh(const char *cmd_fmt, const char *a, const char *b, char *out, size_t n)
{
	char cmd[4096];
	snprintf(cmd, sizeof cmd, cmd_fmt, getenv("WARPSIM_BIN"), a, b);
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p);
	size_t k = fread(out, 1, n - 1, p);
	out[k] = '\0';
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void rm_rf(const char *dir)
{
	char p[1024];
	snprintf(p, sizeof p, "rm -rf '%s'", dir);
	cr_assert_eq(system(p), 0);
}

Test(sweep_checks, a_bad_spec_is_refused_before_any_run, .timeout = 120)
{
	static const struct { const char *spec, *want; } cases[] = {
		{"missing_config", "missing_config.cfg:5: sweep.configs[1]: configs/nope.cfg: cannot open"},
		{"missing_workload", "missing_workload.cfg:6: sweep.workloads[1]: workloads/nope/nope.cfg"},
		{"bad_override", "bad_override.cfg:8: sweep.configs[0] with variant fifo: <command line>: "
				 "gpu.core.scheduler.policy: unknown policy \"fifo\""},
		{"unknown_setting_override", "unknown_setting_override.cfg:7: sweep.overrides[1]: <command line>: "
					     "gpu.core.nonsense: unknown setting"},
		{"bad_size", "bad_size.cfg:6: sweep.workloads[0]: workloads/vecadd/vecadd.cfg:6: sizes has no group 'huge'"},
		{"unknown_key", "unknown_key.cfg:5: workload: unknown setting"},
		{"cross_setting", "cross_setting.cfg:7: sweep.configs[0] with variant tiny-eject: <command line>: "
				  "gpu.noc.eject_queue_flits: 1 flits cannot hold"},
		{"variant_config", "variant_config.cfg:7: variant owl: configs[0]: configs/presets/nope.cfg"},
		{"unknown_stat", "unknown_stat.cfg:7: sweep.stats[1]: no machine of the sweep has a stat named "
				 "'sm.0.l1d.missez'"},
	};
	char dir[] = "/tmp/ws_swc_XXXXXX", out[8192], spec[256];
	cr_assert_not_null(mkdtemp(dir));
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(spec, sizeof spec, "tests/bad_inputs/sweeps/%s.cfg", cases[i].spec);
		int rc = sh("%s sweep %s --jobs 1 --out %s 2>&1", spec, dir, out, sizeof out);
		cr_expect_eq(rc, 2, "%s: exit %d: %s", spec, rc, out);
		cr_expect(strstr(out, cases[i].want), "%s: %s", spec, out);
		cr_expect(!strstr(out, "runs done"), "%s: a run started: %s", spec, out);
	}
	/* nothing was written for any of them */
	char p[512];
	snprintf(p, sizeof p, "%s/bad", dir);
	cr_expect(access(p, F_OK) != 0, "%s exists", p);
	/* --out naming a file */
	int rc = sh("%s sweep %s --out %s/ 2>&1", "tests/bad_inputs/sweeps/ok.cfg", "tests/bad_inputs/catalog.txt", out,
		    sizeof out);
	cr_expect_eq(rc, 2, "%s", out);
	cr_expect(strstr(out, "--out: tests/bad_inputs/catalog.txt/"), "%s", out);
	rm_rf(dir);
}

Test(sweep_checks, every_run_failing_collects_nothing_and_exits_1, .timeout = 120)
{
	char dir[] = "/tmp/ws_swc_XXXXXX", out[8192];
	cr_assert_not_null(mkdtemp(dir));
	int rc = sh("%s sweep %s --jobs 1 --out %s 2>&1", "tests/tools/sweep_all_fail.cfg", dir, out, sizeof out);
	cr_assert_eq(rc, 1, "%s", out);
	cr_assert(strstr(out, "1 of 1 runs failed"), "%s", out);
	rc = sh("%s sweep --collect %s/%s 2>&1", dir, "allfail", out, sizeof out);
	cr_assert_eq(rc, 0, "%s", out);
	cr_assert(strstr(out, "collected 0 runs (1 without results)"), "%s", out);
	rm_rf(dir);
}

/* "sweep: X/6 runs done (Y already complete" in the last progress line: X - Y runs done here. */
static int executed(const char *out)
{
	int x = -1, y = -1;
	for (const char *p = out; (p = strstr(p, "sweep: ")); p++) {
		int a, b;
		if (sscanf(p, "sweep: %d/6 runs done (%d already complete", &a, &b) == 2) {
			x = a;
			y = b;
		}
	}
	cr_assert(x >= 0 && y >= 0, "no progress line: %s", out);
	return x - y;
}

Test(sweep_checks, two_sweeps_into_one_directory_run_each_run_once, .timeout = 280)
{
	char dir[] = "/tmp/ws_swc_XXXXXX", a_out[16384], b_out[16384], cmd[1024];
	cr_assert_not_null(mkdtemp(dir));
	char a_log[600];
	snprintf(a_log, sizeof a_log, "%s.a.log", dir);
	/* A in the background, B in the foreground a moment later */
	snprintf(cmd, sizeof cmd, "%s sweep tests/tools/sweep_lock.cfg --jobs 1 --out %s > %s 2>&1 &",
		 getenv("WARPSIM_BIN"), dir, a_log);
	cr_assert_eq(system(cmd), 0);
	nanosleep(&(struct timespec){0, 300000000}, NULL);
	int rc = sh("%s sweep %s --jobs 1 --out %s 2>&1", "tests/tools/sweep_lock.cfg", dir, b_out, sizeof b_out);
	cr_assert_eq(rc, 0, "%s", b_out);
	/* B waited for A's runs, so A is at most finishing its last one: wait for its log's end */
	for (int t = 0; t < 600; t++) {
		FILE *f = fopen(a_log, "r");
		size_t k = f ? fread(a_out, 1, sizeof a_out - 1, f) : 0;
		if (f)
			fclose(f);
		a_out[k] = '\0';
		if (strstr(a_out, "collected "))
			break;
		nanosleep(&(struct timespec){0, 100000000}, NULL);
	}
	cr_assert(strstr(a_out, "collected 6 runs"), "%s", a_out);
	cr_assert(strstr(b_out, "collected 6 runs"), "%s", b_out);
	int ea = executed(a_out), eb = executed(b_out);
	cr_assert_eq(ea + eb, 6, "A ran %d and B ran %d of 6 runs:\n%s\n---\n%s", ea, eb, a_out, b_out);
	unlink(a_log);
	rm_rf(dir);
}

/* Processes whose command line mentions s (the sweep's runs name their output directory). */
static int procs_mentioning(const char *s)
{
	int n = 0;
	DIR *d = opendir("/proc");
	cr_assert(d);
	struct dirent *e;
	while ((e = readdir(d))) {
		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		char p[300], buf[4096];
		snprintf(p, sizeof p, "/proc/%s/cmdline", e->d_name);
		FILE *f = fopen(p, "r");
		if (!f)
			continue;
		size_t k = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
		for (size_t i = 0; i < k; i++)
			if (!buf[i])
				buf[i] = ' ';
		buf[k] = '\0';
		n += strstr(buf, s) != NULL && strstr(buf, " run ") != NULL;
	}
	closedir(d);
	return n;
}

Test(sweep_checks, sigint_to_the_sweep_stops_its_runs, .timeout = 120)
{
	char dir[] = "/tmp/ws_swc_XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	const char *bin = getenv("WARPSIM_BIN");
	char *argv[] = {(char *)bin, "sweep", "tests/tools/sweep_forever.cfg", "--jobs", "2", "--out", dir, NULL};
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	cr_assert_eq(posix_spawn(&pid, bin, &fa, NULL, argv, environ), 0);
	posix_spawn_file_actions_destroy(&fa);
	/* both runs started (they never end) */
	int seen = 0;
	for (int t = 0; t < 200 && seen < 2; t++) {
		nanosleep(&(struct timespec){0, 50000000}, NULL);
		seen = procs_mentioning(dir);
	}
	/* the SIGINT goes before any assert: a failed assert ends this test without it, and the
	 * sweep and its runs, which never end, would be left running (two such runs were found
	 * still running two hours after an interrupted test run on a busy machine) */
	int killed = kill(pid, SIGINT), st;
	pid_t waited = waitpid(pid, &st, 0);
	cr_assert_eq(seen, 2, "runs found: %d", seen);
	cr_assert_eq(killed, 0);
	cr_assert_eq(waited, pid);
	cr_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT, "the sweep ended with status %#x", st);
	/* the runs went with it (they are reaped before the sweep dies) */
	cr_assert_eq(procs_mentioning(dir), 0, "runs left running after SIGINT");
	rm_rf(dir);
}

Test(sweep_checks, report_over_a_missing_baseline_says_so_and_fails, .timeout = 120)
{
	char dir[] = "/tmp/ws_swc_XXXXXX", out[8192], p[600];
	cr_assert_not_null(mkdtemp(dir));
	/* two workloads x lrr, gto; vecadd's lrr (the baseline) never finished */
	snprintf(p, sizeof p, "%s/results.csv", dir);
	FILE *f = fopen(p, "w");
	cr_assert(f);
	fprintf(f, "config,workload,variant,gpu.ipc\nowl-28,saxpy,gto,90\nowl-28,saxpy,lrr,100\n"
		   "owl-28,vecadd,gto,50\n");
	fclose(f);
	int rc = sh("%s report %s%s 2>&1", dir, "", out, sizeof out);
	cr_assert_eq(rc, 2, "%s", out);
	cr_assert(strstr(out, "runs missing from the results: vecadd/lrr"), "%s", out);
	snprintf(p, sizeof p, "%s/report.md", dir);
	f = fopen(p, "r");
	cr_assert(f, "report.md is still written");
	char md[16384];
	size_t k = fread(md, 1, sizeof md - 1, f);
	md[k] = '\0';
	fclose(f);
	cr_assert(strstr(md, "| vecadd | missing (vecadd/lrr) |"), "%s", md);
	char *mem = strstr(md, "## Memory");
	if (mem)
		*mem = '\0'; /* the speedup section (this table has no memory columns) */
	cr_assert(!strstr(md, "nan"), "%s", md);
	/* the baseline comes first; the geomean of gto is over saxpy alone: 90 / 100 */
	cr_assert(strstr(md, "| **geomean** | **1.000** | **0.900** |"), "%s", md);
	cr_assert(strstr(md, "**Incomplete**: 1 run is missing (vecadd/lrr)"), "%s", md);
	rm_rf(dir);
}
