/* SPDX-License-Identifier: MIT */
/* Progress line: called once per watchdog period (not per cycle); prints only when interval_s
 * of wall time has passed, so the cost is a clock read per period. */
#include "progress.h"

#include <string.h>
#include <time.h>

/* Monotonic seconds (cli_now_s's clock: this file is also built into libcudart, without cli.c). */
static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void progress_init(struct progress *p, FILE *out, bool tty, double interval_s, uint64_t kernels_planned)
{
	memset(p, 0, sizeof *p);
	p->out = out;
	p->tty = tty;
	p->interval_s = interval_s;
	p->kernels_planned = kernels_planned;
	p->t0_s = p->last_s = now_s();
}

void progress_set_budget(struct progress *p, const struct cfg *c)
{
	p->max_thread_insts = (uint64_t)cfg_int(c, "sim.max_thread_insts");
	p->max_warp_insts = (uint64_t)cfg_int(c, "sim.max_warp_insts");
	p->max_cycles = (uint64_t)cfg_int(c, "sim.max_cycles");
}

/* 1234567 -> "1.23M" */
static void si(double v, char *buf, size_t n)
{
	if (v >= 1e9)
		snprintf(buf, n, "%.2fG", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, n, "%.2fM", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, n, "%.1fk", v / 1e3);
	else
		snprintf(buf, n, "%.0f", v);
}

void progress_format(const struct progress *p, const struct gpu_progress *gp, double elapsed_s, char *buf,
		     size_t n)
{
	char cyc[32], rate[32], kern[48], eta[48] = "";
	si((double)gp->cycles, cyc, sizeof cyc);
	si(elapsed_s > 0 ? (double)gp->warp_insts / elapsed_s : 0.0, rate, sizeof rate);
	if (p->kernels_planned)
		snprintf(kern, sizeof kern, "kernel %llu/%llu", (unsigned long long)gp->kernels_done + 1,
			 (unsigned long long)p->kernels_planned);
	else
		snprintf(kern, sizeof kern, "kernel %llu", (unsigned long long)gp->kernels_done + 1);
	/* Done so far: whole kernels plus the current one's share of finished CTAs (launches are
	 * taken as equally long: a guess, good for repeated kernels). */
	double cur = gp->ctas_total ? (double)gp->ctas_done / (double)gp->ctas_total : 0.0;
	if (p->kernels_planned) {
		double done = ((double)gp->kernels_done + cur) / (double)p->kernels_planned;
		if (done > 0.001 && done <= 1.0) {
			double left = elapsed_s * (1.0 - done) / done;
			snprintf(eta, sizeof eta, ", ETA %d:%02d", (int)(left / 60), (int)left % 60);
		}
	}
	char budget[96] = "";
	const struct {
		uint64_t cap, now;
		const char *what;
	} caps[] = {{p->max_thread_insts, gp->thread_insts, "thread insts"},
		    {p->max_warp_insts, gp->warp_insts, "warp insts"}, {p->max_cycles, gp->cycles, "cycles"}};
	double spent = -1;
	for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++) {
		double f = caps[i].cap ? (double)caps[i].now / (double)caps[i].cap : -1;
		if (f > spent) {
			char cap[32];
			si((double)caps[i].cap, cap, sizeof cap);
			snprintf(budget, sizeof budget, ", budget %.0f%% of %s %s", 100 * (f < 1 ? f : 1), cap,
				 caps[i].what);
			spent = f;
		}
	}
	if (spent > 0.001 && spent < 1.0) {
		double left = elapsed_s * (1.0 - spent) / spent;
		double done = p->kernels_planned ? ((double)gp->kernels_done + cur) / (double)p->kernels_planned : 0;
		if (!eta[0] || left < elapsed_s * (1.0 - done) / done)
			snprintf(eta, sizeof eta, ", ETA %d:%02d", (int)(left / 60), (int)left % 60);
	}
	snprintf(buf, n, "warpsim: %s cycles, %s (CTAs %llu/%llu), IPC %.2f warp inst/cycle, %s warp inst/s%s%s",
		 cyc, kern, (unsigned long long)gp->ctas_done, (unsigned long long)gp->ctas_total,
		 gp->cycles ? (double)gp->warp_insts / (double)gp->cycles : 0.0, rate, budget, eta);
}

void progress_report(void *ctx, const struct gpu_progress *gp)
{
	struct progress *p = ctx;
	double now = now_s();
	if (now - p->last_s < p->interval_s)
		return;
	p->last_s = now;
	char line[384];
	progress_format(p, gp, now - p->t0_s, line, sizeof line);
	int len = (int)strlen(line);
	if (p->tty) {
		/* pad over a longer previous line */
		fprintf(p->out, "\r%s%*s", line, p->width > len ? p->width - len : 0, "");
		p->width = len;
	} else {
		fprintf(p->out, "%s\n", line);
	}
	fflush(p->out);
	p->lines++;
}

void progress_finish(struct progress *p)
{
	if (p->tty && p->width) {
		fprintf(p->out, "\r%*s\r", p->width, "");
		fflush(p->out);
		p->width = 0;
	}
}
