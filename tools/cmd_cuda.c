/* SPDX-License-Identifier: MIT */
/* `warpsim cuda -c CONFIG [-s k=v] [-o DIR] -- PROGRAM ARGS`: run an unmodified CUDA program
 * (built with nvcc -cudart shared) on the simulated GPU: warpsim's libcudart.so.13 first in
 * the library path, the machine in the environment; exits with the program's status. */
#include <errno.h>
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
	       "                   [--quiet] -- PROGRAM [ARGS...]\n"
	       "  runs PROGRAM (built with nvcc -cudart shared) on the simulated GPU; its exit\n"
	       "  status is warpsim's. -o DIR gets stats.json (one record per launch, keyed by the\n"
	       "  kernel's C++ name and launch number), config.cfg and cta_timeline.csv when the\n"
	       "  program has exited (stats.failed.json instead if it failed).\n"
	       "  The same by hand: LD_LIBRARY_PATH=DIR_OF_LIBCUDART WARPSIM_CONFIG=CONFIG PROGRAM\n"
	       "  (WARPSIM_OVERRIDES: key=value lines, WARPSIM_OUTDIR, WARPSIM_FUNCTIONAL=1,\n"
	       "  WARPSIM_PTX: a PTX file for programs that carry none)\n");
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

/* "N launches, C core cycles" from the run's stats.json, or nothing. */
static void summary(const char *dir, const char *file, bool keep)
{
	char p[PATH_MAX + 32];
	snprintf(p, sizeof p, "%s/%s", dir, file);
	json_t *doc = json_load_file(p, 0, NULL);
	if (!doc)
		return;
	json_t *tot = json_object_get(doc, "total");
	json_t *cyc = json_object_get(tot, "gpu.cycles"), *wi = json_object_get(tot, "gpu.warp_insts");
	fprintf(stderr, "warpsim cuda: %zu kernel launches, %lld core cycles, %lld warp instructions%s%s\n",
		json_array_size(json_object_get(doc, "kernels")), (long long)json_integer_value(cyc),
		(long long)json_integer_value(wi), keep ? "; stats in " : "", keep ? p : "");
	json_decref(doc);
}

int cmd_cuda(int argc, char **argv, struct sim_error *err)
{
	int sep = 1;
	while (sep < argc && strcmp(argv[sep], "--"))
		sep++;
	static const char *const flags[] = {"--functional", "--quiet", NULL};
	struct cli_opts o;
	int rc = cli_parse(sep, argv, "cso", NULL, flags, &o, err);
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
	bool functional = cli_long(&o, "--functional") != NULL;
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
	free(cfgs), free(ovs), free(ldp);

	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return sim_error_set(err, SIM_ERR_IO, NULL, 0, 0, NULL, "fork: %s", strerror(errno));
	if (pid == 0) {
		execvp(argv[sep + 1], argv + sep + 1);
		fprintf(stderr, "warpsim cuda: %s: %s\n", argv[sep + 1], strerror(errno));
		_exit(127);
	}
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
	bool ok = WIFEXITED(status) && !WEXITSTATUS(status);
	if (o.outdir)
		outdir = publish(stage, o.outdir, ok) ? o.outdir : NULL;
	if (!cli_long(&o, "--quiet") && outdir)
		summary(outdir, ok || outdir == tmpdir ? "stats.json" : "stats.failed.json", outdir != tmpdir);
	if (outdir && outdir == tmpdir) {
		static const char *const names[] = {"stats.json", "config.cfg", "cta_timeline.csv"};
		char p[PATH_MAX];
		for (size_t i = 0; i < 3; i++) {
			snprintf(p, sizeof p, "%s/%s", tmpdir, names[i]);
			unlink(p);
		}
		rmdir(tmpdir);
	}
	if (WIFSIGNALED(status)) {
		fprintf(stderr, "warpsim cuda: %s died of signal %d\n", argv[sep + 1], WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}
