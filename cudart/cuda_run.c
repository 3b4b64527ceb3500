/* SPDX-License-Identifier: MIT */
/* What `warpsim cuda` shows and keeps of a program's run: the progress line, the launches the
 * runtime refused or that faulted (stats.json's "provenance", the closing line, the exit status),
 * and the statistics gathered so far when the program is killed (SIGINT, SIGTERM) or faults. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "../api/api_int.h"
#include "../tools/progress.h"
#include "cudart_int.h"

/* Refused or faulted launches listed by name in stats.json; all are counted. */
#define CR_RUN_LISTED 64

struct cr_mishap {
	char kernel[160];
	char call[40];
	cudaError_t e;
	char msg[320];
};

/* Written by the signal handlers: the first signal that stops the program (0: none). */
static volatile sig_atomic_t run_signal;
/* The pipe that wakes the watcher thread, and the one it answers a fault's handler on. */
static int wake_fd[2] = {-1, -1}, done_fd[2] = {-1, -1};
/* WARPSIM_STATUS_FD: what the `warpsim cuda` that started the program learns (cmd_cuda.c). */
static int status_fd = -1;
/* The process the handlers and the watcher belong to: a child the program forks inherits the
 * handlers but not the thread, and dies of its signals as it would without warpsim. */
static pid_t run_pid;

static struct {
	bool progress_on;
	struct progress pr;
	uint64_t refused, faulted, empty;
	struct cr_mishap listed_refused[CR_RUN_LISTED], listed_faulted[CR_RUN_LISTED];
	struct cr_mishap listed_empty[CR_RUN_LISTED];
	const char *running;   /* kernel of the launch under way (a signal's message) */
	uint64_t launch_no;    /* launches run, of every machine */
} run;

static void status_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void status_line(const char *fmt, ...)
{
	if (status_fd < 0)
		return;
	char line[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof line) /* one write: lines of one process never interleave */
		while (write(status_fd, line, (size_t)n) < 0 && errno == EINTR)
			;
}

static const char *sig_name(int sig)
{
	switch (sig) {
	case SIGINT: return "SIGINT";
	case SIGTERM: return "SIGTERM";
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGFPE: return "SIGFPE";
	case SIGILL: return "SIGILL";
	case SIGABRT: return "SIGABRT";
	default: return "a signal";
	}
}

static bool is_fault(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGABRT;
}

/* Outputs with the mark, then the signal's own action: the program dies of it, as it would
 * have without warpsim, and `warpsim cuda` reports the signal. cr.lock held. */
static void finish_on_signal(int sig, bool die)
{
	char why[512];
	if (run.running)
		snprintf(why, sizeof why, "%s during launch %llu (%s): the statistics are of what ran "
			 "until then, the launch under way in the totals but for gpu.*, which count "
			 "finished launches", sig_name(sig), (unsigned long long)run.launch_no, run.running);
	else
		snprintf(why, sizeof why, "%s between launches, after %llu: the statistics are of "
			 "what ran until then", sig_name(sig), (unsigned long long)run.launch_no);
	if (run.progress_on)
		progress_finish(&run.pr);
	fprintf(stderr, "warpsim cudart: %s; writing the statistics gathered so far\n",
		sig_name(sig));
	cr_finish(why);
	if (die) {
		/* unblocked first: the watcher thread blocks every signal */
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, sig);
		signal(sig, SIG_DFL);
		pthread_sigmask(SIG_UNBLOCK, &one, NULL);
		raise(sig);
	}
}

/* The gpu's periodic call while a launch runs (the launch holds cr.lock): a pending signal is
 * handled here, where the machine is between events; else the progress line. */
static void on_period(void *ctx, const struct gpu_progress *p)
{
	(void)ctx;
	if (run_signal)
		finish_on_signal(run_signal, true);
	if (run.progress_on)
		progress_report(&run.pr, p);
}

/* The functional executor's check while a launch runs (it has no periodic call): a pending
 * signal is handled there, as on_period handles it for the timing model. */
static int on_functional_poll(void *ctx, struct sim_error *err)
{
	(void)ctx;
	(void)err;
	if (run_signal)
		finish_on_signal(run_signal, true);
	return 0;
}

void cr_run_machine(struct warpsim *ws)
{
	if (wake_fd[0] >= 0)
		warpsim_set_functional_poll(ws, on_functional_poll, NULL);
	struct gpu *g = warpsim_gpu(ws);
	if (!g || (wake_fd[0] < 0 && !run.progress_on))
		return;
	if (run.progress_on)
		progress_set_budget(&run.pr, warpsim_cfg(ws));
	gpu_set_progress(g, on_period, NULL);
}

void cr_run_signal_check(void)
{
	if (run_signal)
		finish_on_signal(run_signal, !is_fault(run_signal));
}

void cr_run_launch_begin(const char *kernel)
{
	/* a signal the watcher could not act on yet (the program keeps calling in) */
	cr_run_signal_check();
	run.running = kernel;
	run.launch_no++;
}

void cr_run_launch_end(void)
{
	run.running = NULL;
	if (run.progress_on)
		progress_finish(&run.pr);
}

static void note(struct cr_mishap *list, uint64_t n, const char *kernel, const char *call,
		 cudaError_t e, const char *msg)
{
	if (n > CR_RUN_LISTED)
		return;
	struct cr_mishap *m = &list[n - 1];
	snprintf(m->kernel, sizeof m->kernel, "%s", kernel ? kernel : "(not a registered kernel)");
	snprintf(m->call, sizeof m->call, "%s", call);
	m->e = e;
	snprintf(m->msg, sizeof m->msg, "%s", msg);
}

void cr_run_refused(const char *kernel, const char *call, cudaError_t e)
{
	run.refused++;
	note(run.listed_refused, run.refused, kernel, call, e, cr.last_msg);
}

void cr_run_empty(const char *kernel, const char *call, cudaError_t e)
{
	run.empty++;
	note(run.listed_empty, run.empty, kernel, call, e, cr.last_msg);
}

void cr_run_faulted(const char *kernel, cudaError_t e, const char *msg)
{
	run.faulted++;
	note(run.listed_faulted, run.faulted, kernel, "kernel", e, msg);
}

static json_t *listed(const struct cr_mishap *list, uint64_t n)
{
	json_t *a = json_array();
	for (uint64_t i = 0; i < n && i < CR_RUN_LISTED; i++)
		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s}", "kernel", list[i].kernel,
						   "call", list[i].call, "error",
						   cudaGetErrorName(list[i].e), "message", list[i].msg));
	return a;
}

void cr_run_provenance(struct warpsim *ws, const char *incomplete, uint64_t launches_left_out)
{
	json_t *p = json_pack("{s:s, s:I, s:I, s:o, s:I, s:o}", "tool", "warpsim cuda",
			      "launches_refused", (json_int_t)run.refused, "launches_listed_max",
			      (json_int_t)CR_RUN_LISTED, "refused", listed(run.listed_refused, run.refused),
			      "launches_faulted", (json_int_t)run.faulted, "faulted",
			      listed(run.listed_faulted, run.faulted));
	if (p && run.empty) {
		json_object_set_new(p, "launches_empty", json_integer((json_int_t)run.empty));
		json_object_set_new(p, "empty", listed(run.listed_empty, run.empty));
	}
	if (p && launches_left_out)
		json_object_set_new(p, "launches_before_reset_left_out", json_integer((json_int_t)launches_left_out));
	if (p && incomplete)
		json_object_set_new(p, "incomplete", json_string(incomplete));
	warpsim_set_provenance(ws, p, NULL, NULL);
}

void cr_run_finished(void)
{
	status_line("launches %llu refused %llu faulted %llu\n", (unsigned long long)run.launch_no,
		    (unsigned long long)run.refused, (unsigned long long)run.faulted);
}

/* ---- signals ------------------------------------------------------------------------------ */

/* Async-signal-safe: a flag and a byte into a pipe. A fault waits (up to 10 s) for the watcher
 * to write the outputs before the signal takes its course; a fault inside the runtime itself
 * (this thread holds cr.lock) does not: the machine may be half-updated. */
static void on_signal(int sig)
{
	int saved = errno;
	if (getpid() != run_pid) {
		signal(sig, SIG_DFL);
		raise(sig);
		errno = saved;
		return;
	}
	bool inside = is_fault(sig) && cr_lock_held_here();
	if (!run_signal && !inside)
		run_signal = sig;
	char c = (char)sig;
	if (!inside && write(wake_fd[1], &c, 1) < 0) {
		/* the watcher is gone: the signal's own action below */
	}
	if (is_fault(sig)) {
		if (!inside) {
			struct pollfd pfd = {.fd = done_fd[0], .events = POLLIN};
			poll(&pfd, 1, 10000);
		}
		signal(sig, SIG_DFL);
		raise(sig); /* delivered when the handler returns: the program dies of it */
	}
	errno = saved;
}

/* Waits for a signal's byte, then takes cr.lock, which a running launch holds until on_period
 * (the timing model) or on_functional_poll (the functional executor) has handled the signal
 * (it ends the process). */
static void *watcher(void *arg)
{
	(void)arg;
	char c;
	for (;;) {
		ssize_t r = read(wake_fd[0], &c, 1);
		if (r == 1 && run_signal)
			break;
		if (r == 1 || (r < 0 && errno == EINTR))
			continue;
		return NULL;
	}
	int sig = run_signal;
	cr_lock();
	finish_on_signal(sig, !is_fault(sig));
	cr_unlock();
	if (write(done_fd[1], "d", 1) < 0) {
		/* the handler's poll times out */
	}
	return NULL;
}

static int cloexec_pipe(int fd[2])
{
	if (pipe(fd))
		return -1;
	fcntl(fd[0], F_SETFD, FD_CLOEXEC);
	fcntl(fd[1], F_SETFD, FD_CLOEXEC);
	return 0;
}

/* At load: the status pipe of `warpsim cuda`, the progress line, and, when the statistics go
 * to a directory, the signal handlers and their watcher (one thread, asleep on a pipe). */
__attribute__((constructor)) static void cr_run_load(void)
{
	const char *s = getenv("WARPSIM_STATUS_FD");
	if (s && *s) {
		char *end;
		long fd = strtol(s, &end, 10);
		if (!*end && fd > 2 && fd < 1 << 20 && fcntl((int)fd, F_SETFD, FD_CLOEXEC) == 0) {
			status_fd = (int)fd;
			unsetenv("WARPSIM_STATUS_FD"); /* not for the program's own children */
			status_line("loaded\n");
		}
	}
	const char *pv = getenv("WARPSIM_PROGRESS");
	if (pv && *pv) {
		char *end;
		double interval_s = strtod(pv, &end);
		if (!*end && interval_s >= 0)
			run.progress_on = true, progress_init(&run.pr, stderr, isatty(STDERR_FILENO),
							      interval_s, 0);
	}
	const char *dir = getenv("WARPSIM_OUTDIR");
	if (!dir || !*dir || cloexec_pipe(wake_fd) || cloexec_pipe(done_fd))
		return;
	run_pid = getpid();
	pthread_t t;
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	/* the watcher must not take the program's signals: it would answer its own fault */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int rc = pthread_create(&t, &a, watcher, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&a);
	if (rc)
		return;
	static const int sigs[] = {SIGINT, SIGTERM, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
	struct sigaction sa = {.sa_handler = on_signal};
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction old_sa;
		/* a signal the program's parent ignores (nohup) stays ignored */
		if (!sigaction(sigs[i], NULL, &old_sa) && old_sa.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}
