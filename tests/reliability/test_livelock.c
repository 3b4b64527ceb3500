/* SPDX-License-Identifier: MIT */
/* Tests the livelock watchdog end to end (warpsim run, WARPSIM_BIN): kernels whose warps keep
 * issuing (loads, branches) without a store, atomic, barrier arrival, warp exit or CTA
 * completion stop with exit 1, the report of every component (the warps with pc, PTX and line)
 * and a one-line error naming a spinning warp; a real workload with a window above its longest
 * gap runs to the end. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static char out[1 << 20];

static int run_capture(const char *args)
{
	const char *bin = getenv("WARPSIM_BIN");
	cr_assert(bin, "set WARPSIM_BIN to the warpsim executable");
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s %s 2>&1", bin, args);
	FILE *p = popen(cmd, "r");
	cr_assert(p);
	size_t n = fread(out, 1, sizeof out - 1, p);
	out[n] = 0;
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

Test(livelock, a_warp_spinning_on_a_flag_is_reported_with_pc_and_line, .timeout = 120)
{
	int rc = run_capture("run -c configs/owl-28.cfg -w tests/bad_inputs/programs/spin_flag.cfg --quiet "
			     "-s sim.livelock_cycles=300000");
	cr_assert_eq(rc, 1, "exit %d:\n%.3000s", rc, out);
	cr_assert(strstr(out, "livelock at "), "%.3000s", out);
	cr_assert(strstr(out, "kernel spin_flag livelocked: warps kept issuing for 300000 core cycles without a "
			      "store, atomic, barrier arrival, warp exit or CTA completion; spinning: sm.0 CTA 0 warp 0 "
			      "(threads 0..31) running at pc "),
		  "%.3000s", out);
	/* the dump names each warp with its pc, instruction and line, as the deadlock report */
	cr_assert(strstr(out, "'ld.volatile.global.u32 %r1, [%rd1];' (line 15)") ||
			  strstr(out, "'setp.eq.u32 %p1, %r1, 0;' (line 16)") ||
			  strstr(out, "'@%p1 bra $L_wait;' (line 17)"),
		  "%.3000s", out);
	cr_assert(!strstr(out, "deadlock:"), "a livelock is not a deadlock: %.3000s", out);
}

Test(livelock, a_warp_spinning_while_the_others_wait_at_a_barrier, .timeout = 120)
{
	int rc = run_capture("run -c configs/gtx480.cfg -w tests/bad_inputs/programs/spin_at_barrier.cfg --quiet "
			     "-s sim.livelock_cycles=300000");
	cr_assert_eq(rc, 1, "exit %d:\n%.3000s", rc, out);
	cr_assert(strstr(out, "kernel spin_at_barrier livelocked"), "%.3000s", out);
	/* the spinning warp is warp 0; warps 1..3 wait at bar.sync and are not named as spinning */
	cr_assert(strstr(out, "spinning: sm.0 CTA 0 warp 0 (threads 0..31) running at pc "), "%.3000s", out);
	cr_assert(strstr(out, "waits at bar.sync"), "%.3000s", out);
}

Test(livelock, a_branch_to_itself_and_the_window_is_the_users, .timeout = 120)
{
	int rc = run_capture("run -c configs/owl-28.cfg -w tests/bad_inputs/programs/forever.cfg --quiet "
			     "-s sim.livelock_cycles=100000 -s sim.watchdog_cycles=10000");
	cr_assert_eq(rc, 1, "exit %d:\n%.3000s", rc, out);
	cr_assert(strstr(out, "kernel forever livelocked: warps kept issuing for 100000 core cycles"), "%.3000s", out);
	cr_assert(strstr(out, "'bra.uni $L_top;' (line 35)"), "%.3000s", out);
	/* the report comes within a watchdog period of the window: the clock reads at most
	 * (100000 + 10000) cycles of 1300 MHz = 84.6 us = 84615385 ps */
	const char *at = strstr(out, "livelock at ");
	cr_assert(at);
	unsigned long long ps = strtoull(at + strlen("livelock at "), NULL, 10);
	cr_assert(ps >= 76923076ull && ps <= 84615385ull, "reported at %llu ps", ps);
}

Test(livelock, max_cycles_stays_the_users_explicit_cap, .timeout = 120)
{
	/* the cap comes first when it is shorter than the livelock window */
	int rc = run_capture("run -c configs/owl-28.cfg -w tests/bad_inputs/programs/forever.cfg --quiet "
			     "-s sim.max_cycles=20000");
	cr_assert_eq(rc, 1, "exit %d:\n%.3000s", rc, out);
	cr_assert(strstr(out, "sim.max_cycles: kernel forever did not finish within 20000 core cycles"), "%.3000s", out);
}

Test(livelock, a_real_kernel_with_long_gaps_is_not_a_livelock, .timeout = 200)
{
	/* shortphases medium on gtx480: longest gap 164,000 cycles (measured); a window of 500,000
	 * lets it finish and its check pass */
	int rc = run_capture("run -c configs/gtx480.cfg -w workloads/shortphases/shortphases.cfg --size medium "
			     "--quiet -s sim.livelock_cycles=500000 -s sim.watchdog_cycles=2000");
	cr_assert_eq(rc, 0, "exit %d:\n%.3000s", rc, out);
}
