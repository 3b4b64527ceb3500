/* SPDX-License-Identifier: MIT */
/* Tests for `warpsim sweep --collect` (tools/sweep_collect.c) and the sweep's path checks: a
 * damaged stats.json is refused naming the file and what is wrong (exit 2), never counted as a
 * result; a path or run name too long is an error naming it, never walked or made cut. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run `warpsim ARGS 2>&1` (ARGS after the binary); its exit status, its output in out. */
static int warpsim(const char *args, char *out, size_t n)
{
	size_t len = strlen(getenv("WARPSIM_BIN")) + strlen(args) + 16;
	char *cmd = malloc(len);
	cr_assert_not_null(cmd);
	snprintf(cmd, len, "%s %s 2>&1", getenv("WARPSIM_BIN"), args);
	FILE *p = popen(cmd, "r");
	free(cmd);
	cr_assert_not_null(p);
	size_t k = fread(out, 1, n - 1, p);
	out[k] = '\0';
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

static void rm_rf(const char *dir)
{
	char p[1024];
	snprintf(p, sizeof p, "rm -rf '%s'", dir);
	cr_assert_eq(system(p), 0);
}

/* dir/owl-28/vecadd/lrr/ made, its stats.json path in stats (n bytes) */
static void make_run_dir(const char *dir, char *stats, size_t n)
{
	char p[512];
	snprintf(p, sizeof p, "mkdir -p '%s/owl-28/vecadd/lrr'", dir);
	cr_assert_eq(system(p), 0);
	snprintf(stats, n, "%s/owl-28/vecadd/lrr/stats.json", dir);
}

Test(sweep_collect, a_damaged_stats_json_is_refused_naming_it, .timeout = 60)
{
	static const struct { const char *what, *text, *want; } cases[] = {
		{"empty file", "", "not valid JSON"},
		{"not JSON", "cycles = 12\n", "not valid JSON"},
		{"truncated", "{\n \"total\": {\n  \"gpu.cycles\": 1200,\n  \"gpu.ip", "not valid JSON"},
		{"an array", "[1, 2]\n", "expected a JSON object, got an array"},
		{"no total", "{\"kernels\": []}\n", "total: missing"},
		{"total a string", "{\"total\": \"x\"}\n", "total: expected an object of stats, got a string"},
		{"total an array", "{\"total\": [1]}\n", "total: expected an object of stats, got an array"},
		{"a stat a string", "{\"total\": {\"gpu.cycles\": \"1200\"}}\n",
		 "total.gpu.cycles: expected a number (or an object for a histogram), got a string"},
		{"a stat null", "{\"total\": {\"gpu.cycles\": 1200, \"gpu.ipc\": null}}\n",
		 "total.gpu.ipc: expected a number (or an object for a histogram), got null"},
		{"no cycle count", "{\"total\": {\"gpu.ipc\": 1.5}}\n", "total: has no gpu.cycles"},
		{"provenance not an object", "{\"provenance\": [\"h\"], \"total\": {\"gpu.cycles\": 1}}\n",
		 "provenance: expected an object, got an array"},
	};
	char dir[] = "/tmp/ws_swcol_XXXXXX", out[8192], stats[512], args[600], csv[600];
	cr_assert_not_null(mkdtemp(dir));
	make_run_dir(dir, stats, sizeof stats);
	snprintf(args, sizeof args, "sweep --collect %s", dir);
	snprintf(csv, sizeof csv, "%s/results.csv", dir);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		write_file(stats, cases[i].text);
		int rc = warpsim(args, out, sizeof out);
		cr_expect_eq(rc, 2, "%s: exit %d: %s", cases[i].what, rc, out);
		cr_expect(!strncmp(out, "warpsim sweep: ", 15) && !strncmp(out + 15, stats, strlen(stats)),
			  "%s: the file is not named first: %s", cases[i].what, out);
		cr_expect(strstr(out, cases[i].want), "%s: %s", cases[i].what, out);
		cr_expect(!strstr(out, "collected"), "%s: %s", cases[i].what, out);
		cr_expect(access(csv, F_OK) != 0, "%s: results.csv written", cases[i].what);
	}
	rm_rf(dir);
}

Test(sweep_collect, a_finished_run_is_a_row_and_a_run_without_stats_is_counted, .timeout = 60)
{
	char dir[] = "/tmp/ws_swcol_XXXXXX", out[8192], stats[512], p[600];
	cr_assert_not_null(mkdtemp(dir));
	make_run_dir(dir, stats, sizeof stats);
	/* a histogram (an object) is a stat too, not a column */
	write_file(stats, "{\"provenance\": {\"host\": \"h1\"}, \"total\": {\"gpu.cycles\": 1200, \"gpu.ipc\": 1.5, "
			  "\"gpu.lat\": {\"n\": 2, \"mean\": 3.0}, \"sm.0.x\": 7}}\n");
	snprintf(p, sizeof p, "mkdir -p '%s/owl-28/vecadd/gto' && touch '%s/owl-28/vecadd/gto/run.log'", dir, dir);
	cr_assert_eq(system(p), 0);
	snprintf(p, sizeof p, "sweep --collect %s", dir);
	int rc = warpsim(p, out, sizeof out);
	cr_assert_eq(rc, 0, "%s", out);
	cr_assert(strstr(out, "collected 1 runs (1 without results)"), "%s", out);
	snprintf(p, sizeof p, "%s/results.csv", dir);
	FILE *f = fopen(p, "r");
	cr_assert_not_null(f);
	char text[4096];
	size_t k = fread(text, 1, sizeof text - 1, f);
	text[k] = '\0';
	fclose(f);
	cr_assert_str_eq(text, "config,workload,variant,gpu.cycles,gpu.ipc,prov.host\nowl-28,vecadd,lrr,1200,1.5,h1\n");
	rm_rf(dir);
}

/* `warpsim sweep SPEC` of a spec with this text (in a temporary file), into a directory that
 * must never be made; its exit status and output. */
static int sweep_spec(const char *text, char *out, size_t n)
{
	char spec[] = "/tmp/ws_swcol_spec_XXXXXX", args[128];
	int fd = mkstemp(spec);
	cr_assert(fd >= 0);
	FILE *f = fdopen(fd, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
	snprintf(args, sizeof args, "sweep %s --jobs 1 --out /tmp/ws_swcol_never", spec);
	int rc = warpsim(args, out, n);
	unlink(spec);
	return rc;
}

Test(sweep_collect, a_path_too_long_is_an_error_naming_it, .timeout = 60)
{
	char dir[] = "/tmp/ws_swcol_XXXXXX", out[8192], stats[512];
	cr_assert_not_null(mkdtemp(dir));
	make_run_dir(dir, stats, sizeof stats);
	write_file(stats, "{\"total\": {\"gpu.cycles\": 1}}\n");
	/* the same directory named with 4080 bytes ("/." repeated): the directory and its
	 * results.csv fit in PATH_MAX (4096 with its NUL), the run directory under it does not */
	size_t len = strlen(dir) + 2 * 2030 + 40;
	char *arg = malloc(len);
	cr_assert_not_null(arg);
	int off = snprintf(arg, len, "sweep --collect %s", dir);
	for (int i = 0; i < 2030; i++)
		off += snprintf(arg + off, len - (size_t)off, "/.");
	int rc = warpsim(arg, out, sizeof out);
	free(arg);
	cr_expect_eq(rc, 2, "%s", out);
	cr_expect(strstr(out, "path too long ("), "%s", out);
	cr_expect(strstr(out, dir), "the path's start is not named: %s", out);
	rm_rf(dir);
	/* a run name longer than a directory's: refused at its line of the spec, before any run */
	char x300[301];
	memset(x300, 'x', 300);
	x300[300] = '\0';
	char spec_text[2048];
	snprintf(spec_text, sizeof spec_text,
		 "sweep = {\n  name = \"long\";\n  configs = [\"configs/owl-28.cfg\",\n    \"configs/%s.cfg\"];\n"
		 "  workloads = [\"workloads/vecadd/vecadd.cfg\"];\n  variants = ( { name = \"lrr\"; } );\n};\n", x300);
	rc = sweep_spec(spec_text, out, sizeof out);
	cr_expect_eq(rc, 2, "%s", out);
	cr_expect(strstr(out, ":4: sweep.configs[1]: run name 'xxxxxxxx"), "%s", out);
	cr_expect(strstr(out, "is longer than 255 characters (a directory name)"), "%s", out);
	snprintf(spec_text, sizeof spec_text,
		 "sweep = {\n  name = \"long\";\n  configs = [\"configs/owl-28.cfg\"];\n"
		 "  workloads = [\"workloads/vecadd/vecadd.cfg\"];\n  variants = (\n { name = \"%s\"; } );\n};\n", x300);
	rc = sweep_spec(spec_text, out, sizeof out);
	cr_expect_eq(rc, 2, "%s", out);
	cr_expect(strstr(out, ":6: name: variant name longer than 255 characters (a directory name)"), "%s", out);
	cr_expect(access("/tmp/ws_swcol_never", F_OK) != 0, "the output directory was made");
}

Test(sweep_collect, a_capped_or_sampled_run_has_its_columns, .timeout = 60)
{
	char dir[] = "/tmp/ws_swcol_XXXXXX", out[8192], stats[512], p[600];
	cr_assert_not_null(mkdtemp(dir));
	make_run_dir(dir, stats, sizeof stats);
	write_file(stats, "{\"total\": {\"gpu.cycles\": 1200}, \"budget\": {\"capped\": true, \"limit\": "
			  "\"sim.max_thread_insts\", \"functional_launches\": 3}, \"sampling\": {\"total_cycles\": 5000, "
			  "\"error_bound_frac\": 0.02, \"warp_inst_reduction\": 12.5, \"groups\": 4}}\n");
	snprintf(p, sizeof p, "sweep --collect %s", dir);
	int rc = warpsim(p, out, sizeof out);
	cr_assert_eq(rc, 0, "%s", out);
	snprintf(p, sizeof p, "%s/results.csv", dir);
	FILE *f = fopen(p, "r");
	cr_assert_not_null(f);
	char text[4096];
	size_t k = fread(text, 1, sizeof text - 1, f);
	text[k] = '\0';
	fclose(f);
	cr_assert_str_eq(text, "config,workload,variant,budget.capped,budget.functional_launches,gpu.cycles,"
			       "sampling.error_bound_frac,sampling.total_cycles,sampling.warp_inst_reduction\n"
			       "owl-28,vecadd,lrr,1,3,1200,0.02,5000,12.5\n");
	rm_rf(dir);
}
