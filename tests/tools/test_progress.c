/* SPDX-License-Identifier: MIT */
/* Tests for the progress line (tools/progress.c): shown on a terminal (a pseudo-terminal here),
 * not in a pipe unless --progress, never with --no-progress; its numbers and ETA. */
#include <criterion/criterion.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/progress.h"

/* Run argv (NULL-terminated) with stdin/out/err on a new pseudo-terminal; its output in out. */
static int run_on_pty(char *const argv[], char *out, size_t n)
{
	int master;
	pid_t pid = forkpty(&master, NULL, NULL, NULL);
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	size_t k = 0;
	for (;;) {
		ssize_t r = read(master, out + k, n - 1 - k);
		if (r <= 0) /* EIO once the child has closed the terminal */
			break;
		k += (size_t)r;
	}
	out[k] = '\0';
	close(master);
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* vecadd small runs 880 core cycles: a watchdog check every 200 gives four reports. */
#define RUN_ARGS "run", "-c", "configs/owl-28.cfg", "-w", "workloads/vecadd/vecadd.cfg", "-s", \
	"sim.watchdog_cycles=200", "--progress-interval", "0"

Test(progress, a_terminal_gets_the_line_rewritten_in_place, .timeout = 60)
{
	char *bin = getenv("WARPSIM_BIN");
	cr_assert_not_null(bin);
	static char out[65536];
	char *argv[] = {bin, RUN_ARGS, NULL};
	cr_assert_eq(run_on_pty(argv, out, sizeof out), 0, "%s", out);
	cr_expect(strstr(out, "\rwarpsim: "), "no progress line: %s", out);
	cr_expect(strstr(out, " cycles, kernel 1/1 (CTAs "), "%s", out);
	cr_expect(strstr(out, "warp inst/s, ETA 0:"), "%s", out);
	/* the line is cleared before the workload's check line */
	cr_expect(strstr(out, "\rcheck c: 4000 elements") || strstr(out, "\r\ncheck c:") ||
		  strstr(out, "\r\rcheck c:") || strstr(out, " \rcheck c:"), "%s", out);
	char *argv2[] = {bin, RUN_ARGS, "--no-progress", NULL};
	cr_assert_eq(run_on_pty(argv2, out, sizeof out), 0, "%s", out);
	cr_expect(!strstr(out, "warpsim: "), "--no-progress printed: %s", out);
}

Test(progress, a_pipe_gets_none_unless_asked, .timeout = 60)
{
	char *bin = getenv("WARPSIM_BIN");
	cr_assert_not_null(bin);
	char cmd[1024], out[65536];
	snprintf(cmd, sizeof cmd, "%s run -c configs/owl-28.cfg -w workloads/vecadd/vecadd.cfg -s "
		 "sim.watchdog_cycles=200 --progress-interval 0 %s 2>&1", bin, "");
	FILE *p = popen(cmd, "r");
	size_t k = fread(out, 1, sizeof out - 1, p);
	out[k] = '\0';
	cr_assert_eq(pclose(p), 0);
	cr_expect(!strstr(out, "warpsim: "), "%s", out);
	snprintf(cmd, sizeof cmd, "%s run -c configs/owl-28.cfg -w workloads/vecadd/vecadd.cfg -s "
		 "sim.watchdog_cycles=200 --progress-interval 0 --progress --quiet 2>&1", bin);
	p = popen(cmd, "r");
	k = fread(out, 1, sizeof out - 1, p);
	out[k] = '\0';
	cr_assert_eq(pclose(p), 0);
	/* one line per report, no carriage returns: the run ends at cycle 1387 (owl-28's one SIMT
	 * pipeline; 1101 with a pipeline per unit), a check every 200 cycles: six, or five if the
	 * kernel starts late */
	int lines = 0;
	for (char *q = out; (q = strstr(q, "warpsim: ")); q++)
		lines++;
	cr_expect(lines >= 5 && lines <= 6, "%d lines: %s", lines, out);
	cr_expect(!strchr(out, '\r'), "%s", out);
}

Test(progress, the_line_says_what_was_simulated_and_what_is_left)
{
	struct progress p;
	progress_init(&p, stderr, false, 1.0, 4);
	/* kernel 2 of 4, half its CTAs done: 1.5/4 done in 30 s -> 50 s left */
	struct gpu_progress gp = {.cycles = 2500000, .warp_insts = 6000000, .kernels_done = 1,
				  .ctas_done = 50, .ctas_total = 100};
	char line[256];
	progress_format(&p, &gp, 30.0, line, sizeof line);
	cr_expect_str_eq(line, "warpsim: 2.50M cycles, kernel 2/4 (CTAs 50/100), IPC 2.40 warp inst/cycle, "
			       "200.0k warp inst/s, ETA 0:50");
	progress_init(&p, stderr, false, 1.0, 0); /* a host routine: no ETA */
	progress_format(&p, &gp, 30.0, line, sizeof line);
	cr_expect_str_eq(line, "warpsim: 2.50M cycles, kernel 2 (CTAs 50/100), IPC 2.40 warp inst/cycle, "
			       "200.0k warp inst/s");
}

Test(progress, a_budget_shows_its_share_and_brings_the_eta_forward)
{
	struct progress p;
	progress_init(&p, stderr, false, 1.0, 4);
	/* 1.5/4 kernels done in 30 s (50 s left), but 6M of a 8M warp-instruction budget spent:
	 * 75% in 30 s -> 10 s left; the thread-instruction budget is further away (10%) */
	p.max_warp_insts = 8000000;
	p.max_thread_insts = 1920000000;
	struct gpu_progress gp = {.cycles = 2500000, .warp_insts = 6000000, .thread_insts = 192000000,
				  .kernels_done = 1, .ctas_done = 50, .ctas_total = 100};
	char line[384];
	progress_format(&p, &gp, 30.0, line, sizeof line);
	cr_expect_str_eq(line, "warpsim: 2.50M cycles, kernel 2/4 (CTAs 50/100), IPC 2.40 warp inst/cycle, "
			       "200.0k warp inst/s, budget 75% of 8.00M warp insts, ETA 0:10");
	/* a host routine (launches unknown): the budget gives the only ETA */
	progress_init(&p, stderr, false, 1.0, 0);
	p.max_cycles = 10000000;
	progress_format(&p, &gp, 30.0, line, sizeof line);
	cr_expect_str_eq(line, "warpsim: 2.50M cycles, kernel 2 (CTAs 50/100), IPC 2.40 warp inst/cycle, "
			       "200.0k warp inst/s, budget 25% of 10.00M cycles, ETA 1:30");
}
