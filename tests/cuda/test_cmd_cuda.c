/* SPDX-License-Identifier: MIT */
/* `warpsim cuda` (tools/cmd_cuda.c, cudart/cuda_run.c) as a user sees it: the progress line, the
 * statistics of a program stopped by SIGINT, SIGTERM or a fault (marked incomplete), the line
 * that says why the loader refused a program. Refused and faulted launches: test_cuda_programs.c
 * (errors, misuse). */
#define _XOPEN_SOURCE 700 /* nftw */
#include "cuda_test.h"

/* `timeout -s SIG SECS warpsim cuda -c gtx480 [extra] -o DIR -- stop_me MODE`; output in out. */
static int stop(const char *sig, const char *mode, const char *extra, const char *dir, char *out)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "timeout -s %s 8 %s cuda -c configs/gtx480.cfg %s -o %s -- "
		 "tests/cuda/bin/stop_me %s", sig, bin(), extra, dir, mode);
	return run_cuda(cmd, out);
}

static json_t *load(const struct tmp *t, const char *name)
{
	char p[512];
	json_t *doc = json_load_file(tmp_sub(t, name, p, sizeof p), 0, NULL);
	cr_assert_not_null(doc, "%s", p);
	return doc;
}

static const char *incomplete_of(json_t *doc)
{
	return json_string_value(json_object_get(json_object_get(doc, "provenance"), "incomplete"));
}

/* A watchdog check every 1000 cycles, each a report (interval 0): the first launch of warp_ops
 * (1 CTA) runs past 1000 cycles, its third (12 CTAs) past several thousand. */
Test(cmd_cuda, the_progress_line_on_request, .timeout = 240)
{
	char *out = buf(), cmd[1024];
	snprintf(cmd, sizeof cmd, "%s cuda -c configs/gtx480.cfg -s sim.watchdog_cycles=1000 --progress "
		 "--progress-interval 0 -- tests/cuda/bin/warp_ops", bin());
	cr_assert_eq(run_cuda(cmd, out), 0, "%s", out);
	cr_assert(strstr(out, "\nPASS\n"), "%s", out);
	/* not a terminal: one line per report, the number of launches unknown (no "/N", no ETA) */
	cr_assert(strstr(out, "warpsim: 1.0k cycles, kernel 1 (CTAs 0/1), IPC "), "%s", out);
	cr_assert(strstr(out, " cycles, kernel 3 (CTAs "), "%s", out);
	cr_assert(!strstr(out, "ETA"), "%s", out);
	/* a pipe gets none unless asked */
	snprintf(cmd, sizeof cmd, "%s cuda -c configs/gtx480.cfg -s sim.watchdog_cycles=1000 "
		 "--progress-interval 0 -- tests/cuda/bin/warp_ops", bin());
	cr_assert_eq(run_cuda(cmd, out), 0, "%s", out);
	cr_assert(!strstr(out, "warpsim: "), "%s", out);
	snprintf(cmd, sizeof cmd, "%s cuda -c configs/gtx480.cfg --progress --no-progress -- true", bin());
	cr_assert_eq(run(cmd, out), 2, "%s", out);
	cr_assert(strstr(out, "--progress: and --no-progress together"), "%s", out);
	free(out);
}

/* Stop stop_me MODE with signal SIG: its status (timeout's, or the program's own death), then
 * stats.failed.json with its one finished launch and the incomplete mark, which starts with
 * why; the loaded document (caller frees) and the output in out. */
static json_t *stopped(const char *sig, const char *mode, const char *extra, int want_status,
		       const char *why, const struct tmp *t, char *out)
{
	cr_assert_eq(stop(sig, mode, extra, t->path, out), want_status, "%s", out);
	cr_assert(strstr(out, "first launch done"), "%s", out);
	json_t *doc = load(t, "stats.failed.json");
	cr_assert_eq(json_array_size(json_object_get(doc, "kernels")), 1);
	const char *got = incomplete_of(doc);
	cr_assert(got && !strncmp(got, why, strlen(why)), "%s", got);
	return doc;
}

/* SIGTERM (a timeout) while the program sleeps after its first launch: that launch's statistics,
 * marked; the program dies of the signal (timeout itself says 124). */
Test(cmd_cuda, sigterm_between_launches_keeps_what_ran, .timeout = 60)
{
	char *out = buf();
	struct tmp t;
	tmp_init(&t);
	static const char why[] = "SIGTERM between launches, after 1: the statistics are of what ran until then";
	json_decref(stopped("TERM", "sleep", "", 124, why, &t, out));
	cr_assert(strstr(out, "stop_me died of signal 15 (Terminated)"), "%s", out);
	cr_assert(strstr(out, "; incomplete: SIGTERM between launches, after 1: "), "%s", out);
	tmp_fini(&t);
	free(out);
}

/* SIGINT during a launch that would run for hours: handled at the next watchdog check, the
 * launch under way in the live totals but not among the finished ones. */
Test(cmd_cuda, sigint_during_a_launch_keeps_what_ran, .timeout = 60)
{
	char *out = buf();
	struct tmp t;
	tmp_init(&t);
	json_t *doc = stopped("INT", "spin", "-s sim.watchdog_cycles=1000", 124,
			      "SIGINT during launch 2 (count(int volatile*, long long)): ", &t, out);
	cr_assert(strstr(out, "stop_me died of signal 2 (Interrupt)"), "%s", out);
	/* gpu.* count the finished launch alone; the SMs' counters the one under way too (on
	 * whichever SMs it runs: gtx480 starts a launch after the last launch's last SM) */
	json_t *tot = json_object_get(doc, "total"), *ks = json_object_get(doc, "kernels");
	json_int_t first = json_integer_value(json_object_get(json_object_get(json_array_get(ks, 0), "stats"),
							      "gpu.warp_insts"));
	cr_assert_eq(json_integer_value(json_object_get(tot, "gpu.warp_insts")), first);
	json_int_t on_sms = 0;
	for (int i = 0;; i++) {
		char key[32];
		snprintf(key, sizeof key, "sm.%d.warp_insts", i);
		json_t *v = json_object_get(tot, key);
		if (!v)
			break;
		on_sms += json_integer_value(v);
	}
	cr_assert_gt(on_sms, 100 * first);
	json_decref(doc);
	tmp_fini(&t);
	free(out);
}

/* The same on the functional executor (no periodic call of the timing model): the signal is
 * taken while the launch runs, not when it ends (in hours); the functional totals are the
 * finished launch's (1 CTA, one warp: 10 loop trips). */
Test(cmd_cuda, sigint_during_a_functional_launch_keeps_what_ran, .timeout = 60)
{
	char *out = buf();
	struct tmp t;
	tmp_init(&t);
	json_t *doc = stopped("INT", "spin", "--functional", 124,
			      "SIGINT during launch 2 (count(int volatile*, long long)): ", &t, out);
	cr_assert(strstr(out, "stop_me died of signal 2 (Interrupt)"), "%s", out);
	json_t *tot = json_object_get(doc, "total"), *ks = json_object_get(doc, "kernels");
	json_int_t first = json_integer_value(json_object_get(json_object_get(json_array_get(ks, 0), "stats"),
							      "gpu.functional.warp_insts"));
	cr_assert_gt(first, 0);
	cr_assert_eq(json_integer_value(json_object_get(tot, "gpu.functional.warp_insts")), first);
	json_decref(doc);
	tmp_fini(&t);
	free(out);
}

/* The program's own fault (a store through NULL on the host): the statistics, marked, then the
 * fault takes its course (exit status 128 + SIGSEGV). */
Test(cmd_cuda, a_faulting_program_keeps_what_ran, .timeout = 60)
{
	char *out = buf();
	struct tmp t;
	tmp_init(&t);
	json_decref(stopped("TERM", "segv", "", 139, "SIGSEGV between launches, after 1: the statistics "
			    "are of what ran until then", &t, out));
	cr_assert(strstr(out, "warpsim cudart: SIGSEGV; writing the statistics gathered so far"), "%s", out);
	tmp_fini(&t);
	free(out);
}

/* The loader refuses a program that needs a library no one has: one line says which. */
Test(cmd_cuda, the_loader_refusing_a_program_is_explained)
{
	char *out = buf(), cmd[1024];
	snprintf(cmd, sizeof cmd, "%s cuda -c configs/gtx480.cfg -- tests/cuda/bin/absent_lib", bin());
	cr_assert_eq(run_cuda(cmd, out), 127, "%s", out);
	cr_assert(strstr(out, "warpsim cuda: tests/cuda/bin/absent_lib did not run: the dynamic loader "
			 "refused it (exit status 127): the library libwarpsim_absent.so.1 is not found "
			 "(warpsim puts its libcudart.so.13 on the library path, nothing else); warpsim's "
			 "runtime is "), "%s", out);
	/* a program that cannot be executed at all is named by exec's error, not the loader */
	snprintf(cmd, sizeof cmd, "%s cuda -c configs/gtx480.cfg -- tests/cuda/no_such_program", bin());
	cr_assert_eq(run(cmd, out), 127, "%s", out);
	cr_assert(strstr(out, "warpsim cuda: tests/cuda/no_such_program: No such file or directory\n"), "%s", out);
	cr_assert(!strstr(out, "dynamic loader"), "%s", out);
	free(out);
}

/* --functional: the functional executor's own counts in stats.json (gpu.functional.*, a record
 * per launch) and the closing line; host_loop's 4,073 launches execute 317,444 warp
 * instructions, as many as its timing run issues (docs/sampling.md's table). */
Test(cmd_cuda, a_functional_run_counts_its_instructions, .timeout = 120)
{
	char *out = buf(), cmd[1024];
	struct tmp t;
	tmp_init(&t);
	snprintf(cmd, sizeof cmd, "%s cuda --functional -o %s -- tests/cuda/bin/host_loop", bin(), t.path);
	cr_assert_eq(run_cuda(cmd, out), 0, "%s", out);
	cr_assert(strstr(out, "warpsim cuda: 4073 kernel launches, run functionally, 317444 warp instructions;"),
		  "%s", out);
	json_t *doc = load(&t, "stats.json");
	json_t *tot = json_object_get(doc, "total"), *ks = json_object_get(doc, "kernels");
	cr_assert_eq(json_integer_value(json_object_get(tot, "gpu.functional.launches")), 4073);
	cr_assert_eq(json_integer_value(json_object_get(tot, "gpu.functional.warp_insts")), 317444);
	cr_assert_eq(json_array_size(ks), 4073);
	json_int_t sum = 0;
	size_t i;
	json_t *k;
	json_array_foreach(ks, i, k)
		sum += json_integer_value(json_object_get(json_object_get(k, "stats"), "gpu.functional.warp_insts"));
	cr_assert_eq(sum, 317444);
	json_decref(doc);
	tmp_fini(&t);
	free(out);
}
