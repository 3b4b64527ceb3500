/* SPDX-License-Identifier: MIT */
/* Tests for `warpsim sweep` (tools/cmd_sweep.c): runs land atomically, a restarted sweep skips
 * completed runs and redoes interrupted ones, --emit writes the job array, --collect aggregates. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int sh(const char *fmt, const char *dir, char *out, size_t n)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, fmt, getenv("WARPSIM_BIN"), dir);
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p);
	size_t k = fread(out, 1, n - 1, p);
	out[k] = '\0';
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static bool exists(const char *dir, const char *rel)
{
	char p[1024];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	return access(p, F_OK) == 0;
}

#define RUN(d, r) "slurm-selftest/owl-28/" d "/" r

Test(sweep, restart_skips_completed_and_redoes_interrupted_runs, .timeout = 240)
{
	cr_assert_not_null(getenv("WARPSIM_BIN"));
	char dir[] = "/tmp/ws_sweep_XXXXXX", out[8192], p[1024];
	cr_assert_not_null(mkdtemp(dir));
	int rc = sh("%s sweep experiments/slurm-selftest.cfg --jobs 2 --out %s 2>&1", dir, out, sizeof out);
	cr_assert_eq(rc, 0, "%s", out);
	cr_expect(strstr(out, "(0 already complete, 0 failed)") && strstr(out, ", ETA 0:"), "no ETA: %s", out);
	cr_assert(exists(dir, RUN("vecadd", "lrr/stats.json")) && exists(dir, RUN("saxpy", "gto/stats.json")));
	cr_assert(exists(dir, RUN("vecadd", "lrr/config.cfg")));
	/* An interrupted run leaves its directory without stats.json (written last, atomically). */
	snprintf(p, sizeof p, "%s/" RUN("saxpy", "lrr/stats.json"), dir);
	cr_assert_eq(unlink(p), 0);
	struct stat before;
	snprintf(p, sizeof p, "%s/" RUN("vecadd", "lrr/stats.json"), dir);
	cr_assert_eq(stat(p, &before), 0);
	rc = sh("%s sweep experiments/slurm-selftest.cfg --jobs 2 --out %s 2>&1", dir, out, sizeof out);
	cr_assert_eq(rc, 0, "%s", out);
	cr_assert(strstr(out, "4/4 runs done (3 already complete, 0 failed)"), "%s", out);
	cr_assert(exists(dir, RUN("saxpy", "lrr/stats.json")));
	struct stat after;
	cr_assert_eq(stat(p, &after), 0);
	cr_assert_eq(before.st_mtim.tv_sec, after.st_mtim.tv_sec, "a completed run was redone");
	cr_assert_eq(before.st_mtim.tv_nsec, after.st_mtim.tv_nsec, "a completed run was redone");
	/* results.csv has a header and one row per run */
	snprintf(p, sizeof p, "%s/slurm-selftest/results.csv", dir);
	FILE *f = fopen(p, "r");
	cr_assert_not_null(f);
	int lines = 0;
	char line[65536];
	while (fgets(line, sizeof line, f))
		lines++;
	fclose(f);
	cr_assert_eq(lines, 5);
	snprintf(p, sizeof p, "rm -rf '%s'", dir);
	cr_assert_eq(system(p), 0);
}

Test(sweep, emit_slurm_writes_an_array_of_one_task_per_run, .timeout = 60)
{
	char dir[] = "/tmp/ws_sweep_XXXXXX", out[8192], p[1024];
	cr_assert_not_null(mkdtemp(dir));
	int rc = sh("%s sweep experiments/slurm-selftest.cfg --emit slurm --out %s 2>&1", dir, out, sizeof out);
	cr_assert_eq(rc, 0, "%s", out);
	snprintf(p, sizeof p, "%s/slurm-selftest/sweep.sbatch", dir);
	FILE *f = fopen(p, "r");
	cr_assert_not_null(f);
	char buf[8192];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	cr_assert(strstr(buf, "#SBATCH --array=0-3"), "%s", buf);
	snprintf(p, sizeof p, "%s/slurm-selftest/jobs.txt", dir);
	f = fopen(p, "r");
	cr_assert_not_null(f);
	int lines = 0;
	while (fgets(buf, sizeof buf, f))
		lines++;
	fclose(f);
	cr_assert_eq(lines, 4);
	/* the spec's order, which results.csv (sorted by name) loses, for the report */
	snprintf(p, sizeof p, "%s/slurm-selftest/sweep_order.txt", dir);
	f = fopen(p, "r");
	cr_assert_not_null(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	cr_expect(strstr(buf, "\nconfig owl-28\nworkload vecadd\nworkload saxpy\nvariant lrr\nvariant gto\n"), "%s", buf);
	snprintf(p, sizeof p, "rm -rf '%s'", dir);
	cr_assert_eq(system(p), 0);
}

Test(sweep, slurm_resources_come_from_the_spec_and_the_command_line, .timeout = 60)
{
	char dir[] = "/tmp/ws_sweep_XXXXXX", out[8192], p[1024];
	cr_assert_not_null(mkdtemp(dir));
	/* the spec asks 1:00:00, 2G and partition batch; the command line replaces the time and
	 * adds an account */
	int rc = sh("%s sweep tests/tools/sweep_slurm.cfg --emit slurm --time 30 --account proj-1 --out %s 2>&1",
		    dir, out, sizeof out);
	cr_assert_eq(rc, 0, "%s", out);
	snprintf(p, sizeof p, "%s/slurm-res/sweep.sbatch", dir);
	FILE *f = fopen(p, "r");
	cr_assert_not_null(f);
	char buf[8192];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	cr_expect(strstr(buf, "\n#SBATCH --time=30\n#SBATCH --mem=2G\n#SBATCH --partition=batch\n"
			      "#SBATCH --account=proj-1\n"), "%s", buf);
	cr_expect(!strstr(buf, "1:00:00"), "%s", buf);
	/* a local sweep has no use for them */
	rc = sh("%s sweep tests/tools/sweep_slurm.cfg --mem 4G --out %s 2>&1", dir, out, sizeof out);
	cr_expect_eq(rc, 2, "%s", out);
	cr_expect(strstr(out, "--mem: only with --emit slurm"), "%s", out);
	snprintf(p, sizeof p, "rm -rf '%s'", dir);
	cr_assert_eq(system(p), 0);
}

/* The emitted jobs are shell: a directory whose name would break a job line (a newline ends a
 * command, also out of the script's comment) or an #SBATCH line (a blank) is refused, and one
 * with quotes and $( ) is single-quoted, so no job runs what a name holds. */
Test(sweep, emit_refuses_a_directory_that_would_break_a_job_line, .timeout = 60)
{
	char dir[] = "/tmp/ws_sweep_XXXXXX", out[8192], p[1024];
	cr_assert_not_null(mkdtemp(dir));
	int rc = sh("%s sweep experiments/slurm-selftest.cfg --emit parallel --out '%s/a\nb' 2>&1", dir, out, sizeof out);
	cr_expect_eq(rc, 2, "%s", out);
	cr_expect(strstr(out, "--out: output directory") && strstr(out, "has a control character"), "%s", out);
	rc = sh("%s sweep experiments/slurm-selftest.cfg --emit slurm --out '%s/a b' 2>&1", dir, out, sizeof out);
	cr_expect_eq(rc, 2, "%s", out);
	cr_expect(strstr(out, "has a blank, which a #SBATCH line cannot hold"), "%s", out);
	rc = sh("%s sweep experiments/slurm-selftest.cfg --emit parallel --out \"%s/x'\\$(touch PWNED)\" 2>&1", dir, out,
		sizeof out);
	cr_expect_eq(rc, 0, "%s", out);
	snprintf(p, sizeof p, "%s/x'$(touch PWNED)/slurm-selftest/jobs.txt", dir);
	FILE *f = fopen(p, "r");
	cr_assert_not_null(f, "%s", p);
	char line[4096];
	cr_assert_not_null(fgets(line, sizeof line, f));
	fclose(f);
	/* the directory appears only inside single quotes, its quote as '\'' */
	cr_expect(strstr(line, "/x'\\''$(touch PWNED)/slurm-selftest/"), "%s", line);
	cr_expect(!exists(dir, "PWNED") && access("PWNED", F_OK) != 0);
	snprintf(p, sizeof p, "rm -rf '%s'", dir);
	cr_assert_eq(system(p), 0);
}
