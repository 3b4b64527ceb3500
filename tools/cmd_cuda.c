/* SPDX-License-Identifier: MIT */
/* `warpsim cuda -c CONFIG [-s k=v] [-o DIR] -- PROGRAM ARGS`: run an unmodified CUDA program
 * (built with nvcc -cudart shared) on the simulated GPU: warpsim's libcudart.so.13 first in
 * the library path, the machine in the environment; exits with the program's status, or 1 when
 * it exited 0 but the runtime refused a launch or a launch faulted (WARPSIM_STATUS_FD). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"

static void usage(void)
{
	printf("usage: warpsim cuda -c CONFIG [-c PRESET]... [-s key=value]... [-o DIR] [--functional]\n"
	       "                   [--quiet] [--progress | --no-progress] [--progress-interval S]\n"
	       "                   [budget and launch options] -- PROGRAM [ARGS...]\n"
	       "  runs PROGRAM (built with nvcc -cudart shared) on the simulated GPU; its exit\n"
	       "  status is warpsim's, but 1 when it exited 0 after the runtime refused a launch or\n"
	       "  a launch faulted. -o DIR gets stats.json (one record per launch, keyed by the\n"
	       "  kernel's C++ name and launch number; refused and faulted launches and, when the\n"
	       "  program was killed by SIGINT or SIGTERM or faulted, \"incomplete\" under\n"
	       "  \"provenance\"), config.cfg and cta_timeline.csv when the program has exited\n"
	       "  (stats.failed.json instead if it failed). --progress: as `warpsim run`'s.\n"
	       "  The same by hand: LD_LIBRARY_PATH=DIR_OF_LIBCUDART WARPSIM_CONFIG=CONFIG PROGRAM\n"
	       "  (WARPSIM_OVERRIDES: key=value lines, WARPSIM_OUTDIR, WARPSIM_FUNCTIONAL=1,\n"
	       "  WARPSIM_PTX: a PTX file for programs that carry none, WARPSIM_PROGRESS=S)\n");
	cli_budget_usage(stdout);
}

static bool has_cudart(const char *dir)
{
	char p[PATH_MAX + 32];
	struct stat st;
	snprintf(p, sizeof p, "%s/libcudart.so.13", dir);
	return !stat(p, &st);
}

/* Where libcudart.so.13 is: $WARPSIM_CUDART_DIR, beside the binary in a build tree (lib/),
 * or installed (../lib/warpsim and the like). */
static int cudart_dir(char *out, size_t n, struct sim_error *err)
{
	const char *env = getenv("WARPSIM_CUDART_DIR");
	if (env && *env) {
		snprintf(out, n, "%s", env);
		if (has_cudart(out))
			return 0;
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "WARPSIM_CUDART_DIR",
				     "%s holds no libcudart.so.13", env);
	}
	char exe[PATH_MAX - 64];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len <= 0)
		return sim_error_set(err, SIM_ERR_IO, NULL, 0, 0, NULL, "cannot find the warpsim binary");
	exe[len] = '\0';
	char *slash = strrchr(exe, '/');
	*slash = '\0';
	static const char *const rel[] = {"lib", "../lib/warpsim", "../lib64/warpsim",
					  "../lib/x86_64-linux-gnu/warpsim"};
	for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
		snprintf(out, n, "%s/%s", exe, rel[i]);
		if (has_cudart(out))
			return 0;
	}
	return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, NULL,
			     "libcudart.so.13 is neither in %s/lib nor in %s/../lib/warpsim (build "
			     "the cudart target, or set WARPSIM_CUDART_DIR)", exe, exe);
}

/* The program's pid while it runs: SIGINT and SIGTERM to warpsim (a sweep stopping its runs)
 * are passed on to it, and warpsim waits for it, so no program runs on unwatched. */
static volatile sig_atomic_t cuda_child;

static void forward_signal(int sig)
{
	if (cuda_child > 0)
		kill((pid_t)cuda_child, sig);
}

/* The staged outputs into dir, stats.json last, so that (as with `warpsim run`) its presence
 * marks a complete run, which sweeps skip on a restart: a program that failed (its own check,
 * a fault, a signal) leaves stats.failed.json instead. False if there were none. */
static bool publish(const char *stage, const char *dir, bool ok)
{
	static const char *const names[] = {"config.cfg", "cta_timeline.csv", "stats.json"};
	char from[PATH_MAX + 32], to[PATH_MAX + 32];
	bool any = false;
	for (size_t i = 0; i < 3; i++) {
		snprintf(from, sizeof from, "%s/%s", stage, names[i]);
		snprintf(to, sizeof to, "%s/%s", dir, i == 2 && !ok ? "stats.failed.json" : names[i]);
		if (!rename(from, to))
			any = true;
		else if (errno != ENOENT)
			fprintf(stderr, "warpsim cuda: cannot move %s to %s: %s\n", from, to, strerror(errno));
	}
	if (ok) { /* a stale failure of an earlier run into the same directory */
		snprintf(to, sizeof to, "%s/stats.failed.json", dir);
		unlink(to);
	}
	rmdir(stage);
	return any;
}

/* What the program's runtime told (cudart/cuda_run.c): that it loaded, the launches it ran,
 * refused and saw fault. */
struct child_status {
	bool loaded, exec_failed, counted;
	unsigned long long launches, refused, faulted;
};

static void read_status(int fd, struct child_status *cs)
{
	char buf[4096];
	size_t n = 0;
	ssize_t r;
	while (n < sizeof buf - 1 && ((r = read(fd, buf + n, sizeof buf - 1 - n)) > 0 || (r < 0 && errno == EINTR)))
		n += r > 0 ? (size_t)r : 0;
	buf[n] = '\0';
	for (char *line = buf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		cs->loaded |= !strcmp(line, "loaded");
		cs->exec_failed |= !strcmp(line, "exec failed");
		if (sscanf(line, "launches %llu refused %llu faulted %llu", &cs->launches, &cs->refused,
			   &cs->faulted) == 3)
			cs->counted = true;
	}
}

/* Exit status 127 before the runtime loaded: the dynamic loader refused the program (its own
 * message is above). One line that says why, from the loader's trace of the same program
 * (LD_TRACE_LOADED_OBJECTS: it lists the libraries, and with LD_BIND_NOW and LD_WARN the
 * undefined symbols, and runs nothing of the program). */
static void explain_loader(char *const *argv, const char *cudart)
{
	int fd[2];
	if (pipe(fd))
		return;
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fd[1], STDOUT_FILENO);
		dup2(fd[1], STDERR_FILENO);
		close(fd[0]);
		setenv("LD_TRACE_LOADED_OBJECTS", "1", 1);
		setenv("LD_BIND_NOW", "1", 1);
		setenv("LD_WARN", "1", 1);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	char buf[16384];
	size_t n = 0;
	ssize_t r;
	while (pid > 0 && n < sizeof buf - 1 &&
	       ((r = read(fd[0], buf + n, sizeof buf - 1 - n)) > 0 || (r < 0 && errno == EINTR)))
		n += r > 0 ? (size_t)r : 0;
	buf[n] = '\0';
	close(fd[0]);
	if (pid > 0)
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	char why[512] = "";
	for (char *line = buf, *next; line && *line && !why[0]; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *nf = strstr(line, " => not found"), *us = strstr(line, "undefined symbol: ");
		while (*line == '\t' || *line == ' ')
			line++;
		if (nf) {
			*nf = '\0';
			snprintf(why, sizeof why, "the library %.200s is not found%s", line,
				 strncmp(line, "libcudart", 9) ? " (warpsim puts its libcudart.so.13 on "
				 "the library path, nothing else)" : "");
		} else if (us) {
			snprintf(why, sizeof why, "%.400s", us);
			char *sp = strpbrk(why + 18, " \t");
			if (sp)
				*sp = '\0';
			if (strstr(line, "libcudart"))
				strncat(why, " (in warpsim's libcudart.so.13)", sizeof why - strlen(why) - 1);
		}
	}
	fprintf(stderr, "warpsim cuda: %s did not run: the dynamic loader refused it (exit status "
		"127)%s%s; warpsim's runtime is %s/libcudart.so.13\n", argv[0], why[0] ? ": " : "", why,
		cudart);
}

/* "N launches, C core cycles" from the run's stats.json, or nothing. */
static void summary(const char *dir, const char *file, bool keep, const struct child_status *cs)
{
	char p[PATH_MAX + 32];
	snprintf(p, sizeof p, "%s/%s", dir, file);
	json_t *doc = json_load_file(p, 0, NULL);
	if (!doc)
		return;
	json_t *tot = json_object_get(doc, "total");
	json_t *cyc = json_object_get(tot, "gpu.cycles"), *wi = json_object_get(tot, "gpu.warp_insts");
	/* a functional run (--functional) has its executor's counts only */
	bool functional = !cyc && json_object_get(tot, "gpu.functional.warp_insts");
	if (functional)
		wi = json_object_get(tot, "gpu.functional.warp_insts");
	json_t *prov = json_object_get(doc, "provenance");
	const char *incomplete = json_string_value(json_object_get(prov, "incomplete"));
	char mishaps[96] = "";
	if (cs->refused || cs->faulted)
		snprintf(mishaps, sizeof mishaps, " (%llu refused by the runtime, %llu faulted)",
			 cs->refused, cs->faulted);
	/* concurrent streams (stats.json "streams", "concurrent") */
	char conc[96] = "";
	json_t *streams = json_object_get(doc, "streams"), *batches = json_object_get(doc, "concurrent");
	long long side = 0;
	for (size_t i = 0; i < json_array_size(batches); i++)
		side += json_integer_value(json_object_get(json_array_get(batches, i), "launches"));
	if (streams)
		snprintf(conc, sizeof conc, " (%zu streams, %lld side by side in %zu batches)",
			 json_object_size(streams), side, json_array_size(batches));
	/* a capped or sampled run says so (stats.json "budget", "sampling") */
	char more[256] = "";
	json_t *b = json_object_get(doc, "budget"), *smp = json_object_get(doc, "sampling");
	if (json_is_true(json_object_get(b, "capped")))
		snprintf(more, sizeof more, "; capped by %s at launch %lld",
			 json_string_value(json_object_get(b, "limit")),
			 (long long)json_integer_value(json_object_get(b, "launch")));
	else if (json_integer_value(json_object_get(b, "functional_launches")) && !smp)
		snprintf(more, sizeof more, "; %lld launches run functionally",
			 (long long)json_integer_value(json_object_get(b, "functional_launches")));
	if (smp)
		snprintf(more + strlen(more), sizeof more - strlen(more),
			 "; sampled: %lld core cycles estimated, bound +-%.2f%%",
			 (long long)json_integer_value(json_object_get(smp, "total_cycles")),
			 100 * json_real_value(json_object_get(smp, "error_bound_frac")));
	char cycles[48] = "run functionally";
	if (!functional)
		snprintf(cycles, sizeof cycles, "%lld core cycles", (long long)json_integer_value(cyc));
	fprintf(stderr, "warpsim cuda: %zu kernel launches%s%s, %s, %lld warp instructions%s%s%s%s%s\n",
		json_array_size(json_object_get(doc, "kernels")), conc, mishaps, cycles,
		(long long)json_integer_value(wi), more, incomplete ? "; incomplete: " : "",
		incomplete ? incomplete : "", keep ? "; stats in " : "", keep ? p : "");
	json_decref(doc);
}

int cmd_cuda(int argc, char **argv, struct sim_error *err)
{
	int sep = 1;
	while (sep < argc && strcmp(argv[sep], "--"))
		sep++;
	static const char *const with_value[] = {"--progress-interval", CLI_BUDGET_WITH_VALUE, NULL};
	static const char *const flags[] = {"--functional", "--quiet", "--progress", "--no-progress",
					    CLI_BUDGET_FLAGS, NULL};
	struct cli_opts o;
	struct cli_budget_buf bb;
	int rc = cli_parse(sep, argv, "cso", with_value, flags, &o, err);
	if (!rc)
		rc = cli_budget_overrides(&o, &bb, err);
	if (rc)
		return rc;
	if (o.help) {
		usage();
		return 0;
	}
	if (o.n_positional)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, o.positional[0],
				     "unexpected argument (the program comes after --)");
	if (sep + 1 >= argc)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--",
				     "cuda needs -- PROGRAM [ARGS...]");
	bool functional = cli_long(&o, "--functional") != NULL, show_progress;
	double interval_s;
	if ((rc = cli_progress_opts(&o, cli_long(&o, "--quiet") != NULL, &show_progress, &interval_s, err)))
		return rc;
	if (!o.n_configs && !functional)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "-c", "cuda needs -c CONFIG");
	/* the configuration is checked here, so a typo fails before the program starts */
	struct cfg *c = NULL;
	if ((rc = cli_build_cfg(&o, &c, err)))
		return rc;
	cfg_destroy(c);
	char dir[PATH_MAX];
	if ((rc = cudart_dir(dir, sizeof dir, err)))
		return rc;
	char tmpdir[] = "/tmp/warpsim-cuda-XXXXXX", stage[PATH_MAX];
	const char *outdir = o.outdir;
	if (o.outdir && (rc = cli_mkdirs(o.outdir, err)))
		return rc;
	if (o.outdir) {
		/* the program writes its outputs here; they move into -o DIR when it has exited */
		snprintf(stage, sizeof stage, "%s/.partial.%ld", o.outdir, (long)getpid());
		if ((rc = cli_mkdirs(stage, err)))
			return rc;
		outdir = stage;
	}
	if (!outdir && !cli_long(&o, "--quiet"))
		outdir = mkdtemp(tmpdir);

	size_t cap = 16;
	for (int i = 0; i < o.n_configs; i++)
		cap += strlen(o.configs[i]) + 1;
	for (int i = 0; i < o.n_overrides; i++)
		cap += strlen(o.overrides[i]) + 1;
	char *cfgs = calloc(1, cap), *ovs = calloc(1, cap);
	char *ldp = malloc(strlen(dir) + 2 + (getenv("LD_LIBRARY_PATH") ? strlen(getenv("LD_LIBRARY_PATH")) : 0));
	if (!cfgs || !ovs || !ldp) {
		free(cfgs), free(ovs), free(ldp);
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	}
	for (int i = 0; i < o.n_configs; i++) {
		if (strchr(o.configs[i], ':')) {
			free(cfgs), free(ovs), free(ldp);
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, o.configs[i],
					     "a configuration path with ':' cannot be passed on");
		}
		strcat(strcat(cfgs, i ? ":" : ""), o.configs[i]);
	}
	for (int i = 0; i < o.n_overrides; i++)
		strcat(strcat(ovs, i ? "\n" : ""), o.overrides[i]);
	sprintf(ldp, "%s%s%s", dir, getenv("LD_LIBRARY_PATH") ? ":" : "",
		getenv("LD_LIBRARY_PATH") ? getenv("LD_LIBRARY_PATH") : "");
	setenv("LD_LIBRARY_PATH", ldp, 1);
	setenv("WARPSIM_CONFIG", cfgs, 1);
	setenv("WARPSIM_OVERRIDES", ovs, 1);
	if (functional)
		setenv("WARPSIM_FUNCTIONAL", "1", 1);
	else
		unsetenv("WARPSIM_FUNCTIONAL");
	if (outdir)
		setenv("WARPSIM_OUTDIR", outdir, 1);
	else
		unsetenv("WARPSIM_OUTDIR");
	char iv[32];
	snprintf(iv, sizeof iv, "%g", interval_s);
	if (show_progress)
		setenv("WARPSIM_PROGRESS", iv, 1);
	else
		unsetenv("WARPSIM_PROGRESS");
	free(cfgs), free(ovs), free(ldp);
	/* The runtime's report: the read end stays here, the write end goes to the program only. */
	int sfd[2];
	if (pipe(sfd))
		return sim_error_set(err, SIM_ERR_IO, NULL, 0, 0, NULL, "pipe: %s", strerror(errno));
	fcntl(sfd[0], F_SETFD, FD_CLOEXEC);
	fcntl(sfd[1], F_SETFD, FD_CLOEXEC);

	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return sim_error_set(err, SIM_ERR_IO, NULL, 0, 0, NULL, "fork: %s", strerror(errno));
	if (pid == 0) {
		int wfd = dup(sfd[1]); /* without close-on-exec */
		char fds[16];
		snprintf(fds, sizeof fds, "%d", wfd);
		setenv("WARPSIM_STATUS_FD", fds, 1);
		execvp(argv[sep + 1], argv + sep + 1);
		int e = errno;
		if (write(wfd, "exec failed\n", 12) < 0) {
			/* the message below says it anyway */
		}
		fprintf(stderr, "warpsim cuda: %s: %s\n", argv[sep + 1], strerror(e));
		_exit(127);
	}
	close(sfd[1]);
	cuda_child = pid;
	struct sigaction sa = {.sa_handler = forward_signal}, old_int, old_term;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	cuda_child = 0;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	struct child_status cs = {0};
	/* what the program wrote is in the pipe; a child of it that kept the pipe must not hold us */
	fcntl(sfd[0], F_SETFL, O_NONBLOCK);
	read_status(sfd[0], &cs);
	close(sfd[0]);
	int code = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
	if (!code && (cs.refused || cs.faulted))
		code = 1;
	bool ok = !code;
	if (o.outdir)
		outdir = publish(stage, o.outdir, ok) ? o.outdir : NULL;
	if (!cli_long(&o, "--quiet") && outdir)
		summary(outdir, ok || outdir == tmpdir ? "stats.json" : "stats.failed.json", outdir != tmpdir, &cs);
	if (outdir && outdir == tmpdir) {
		static const char *const names[] = {"stats.json", "config.cfg", "cta_timeline.csv"};
		char p[PATH_MAX];
		for (size_t i = 0; i < 3; i++) {
			snprintf(p, sizeof p, "%s/%s", tmpdir, names[i]);
			unlink(p);
		}
		rmdir(tmpdir);
	}
	if (WIFSIGNALED(status))
		fprintf(stderr, "warpsim cuda: %s died of signal %d (%s)\n", argv[sep + 1], WTERMSIG(status),
			strsignal(WTERMSIG(status)));
	else if (code == 127 && !cs.loaded && !cs.exec_failed)
		explain_loader(argv + sep + 1, dir);
	else if (code && !WEXITSTATUS(status))
		fprintf(stderr, "warpsim cuda: %s exited 0, but %llu launches were refused by the runtime "
			"and %llu faulted: exit status 1\n", argv[sep + 1], cs.refused, cs.faulted);
	return code;
}
