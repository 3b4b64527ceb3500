/* SPDX-License-Identifier: MIT */
/* Tests the deadlock watchdog's report end to end (warpsim run, WARPSIM_BIN): a DRAM so slow
 * (1 MHz, tRCD 1000 cycles = 1 ms) that nothing completes within sim.watchdog_cycles = 3000
 * core cycles (2.3 us at 1300 MHz) while loads are outstanding. The run must stop with exit 1
 * and a report naming each stuck warp (pc, instruction text, what it waits on), the non-empty
 * queues and the oldest request with the stages it has passed. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static char report[1 << 20];

static int run_capture(const char *args)
{
	const char *bin = getenv("WARPSIM_BIN");
	cr_assert(bin, "set WARPSIM_BIN to the warpsim executable");
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s %s 2>&1", bin, args);
	FILE *p = popen(cmd, "r");
	cr_assert(p);
	size_t n = fread(report, 1, sizeof report - 1, p);
	report[n] = 0;
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Test(watchdog, report_names_warps_queues_and_oldest_request, .timeout = 300)
{
	char dir[] = "/tmp/ws_wd_XXXXXX";
	cr_assert(mkdtemp(dir));
	char args[512];
	snprintf(args, sizeof args,
		 "run -c configs/owl-28.cfg -w workloads/vecadd/vecadd.cfg --quiet -o %s "
		 "-s gpu.dram.clock_mhz=1 -s gpu.dram.timing.rcd_cycles=1000 -s sim.watchdog_cycles=3000",
		 dir);
	int rc = run_capture(args);
	cr_assert_eq(rc, 1, "exit %d, output:\n%.2000s", rc, report);
	cr_assert(strstr(report, "deadlock at"), "%.2000s", report);
	/* vecadd.ptx line 28 is the first instruction, 'ld.param.u64 %rd1, [vecadd_param_0];'. */
	cr_assert(strstr(report, "warp 0 cta 0: active pc "), "%.2000s", report);
	cr_assert(strstr(report, "'ld.param.u64 %rd1, [vecadd_param_0];' (line 28)"), "%.2000s", report);
	cr_assert(strstr(report, "a memory instruction the memory unit refused"), "%.2000s", report);
	/* The first MC's queue holds the oldest request; its path stops at mc-enqueue. */
	cr_assert(strstr(report, "oldest queued request: id "), "%.2000s", report);
	cr_assert(strstr(report, "noc-inject "), "%.2000s", report);
	cr_assert(strstr(report, " mc-enqueue "), "%.2000s", report);
	cr_assert(!strstr(report, "dram-done"), "nothing can have left DRAM: %.2000s", report);
	/* No partial results: stats are written under a temporary name and renamed at the end. */
	char stats[600];
	snprintf(stats, sizeof stats, "%s/stats.json", dir);
	FILE *f = fopen(stats, "r");
	cr_assert_null(f, "partial %s left", stats);
	char rm[600];
	snprintf(rm, sizeof rm, "rm -rf %s", dir);
	cr_assert_eq(system(rm), 0);
}
