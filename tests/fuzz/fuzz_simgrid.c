/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: SimGrid platform files through topo_simgrid_load. SimGrid keeps one engine
 * per process, so each input is loaded in a forked child; the child must end with 0 (loaded) or
 * a clean error, never a signal or a sanitizer report (exit 1), else this process aborts and
 * libFuzzer keeps the input. SimGrid itself is not instrumented, so the search is mostly blind:
 * this is a crash hunt at the C/C++ boundary and in simgrid.c, not a coverage-guided one. A
 * child running past 10 s (a huge but legal platform) is killed and not counted as a crash. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef WARPSIM_HAVE_SIMGRID
#include "topologies/topology.h"

enum { CHILD_LOADED = 0, CHILD_REFUSED = 3 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	if (!path[0]) {
		snprintf(path, sizeof path, "/tmp/ws_fuzz_sg_%ld.xml", (long)getpid());
	}
	FILE *f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		alarm(10);
		struct sim_error err = {0};
		struct topo *t = topo_simgrid_load(path, 32, &err);
		if (t) {
			(void)topo_validate_routes(t, &err);
			topo_destroy(t);
		}
		/* _exit: SimGrid's engine is never torn down, and its leaks are not ours to report */
		_exit(t ? CHILD_LOADED : err.code == SIM_ERR_CONFIG || err.code == SIM_ERR_NOMEM ? CHILD_REFUSED : 4);
	}
	int st = 0;
	while (waitpid(pid, &st, 0) < 0)
		;
	if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM)
		return 0;
	if (WIFSIGNALED(st) || (WEXITSTATUS(st) != CHILD_LOADED && WEXITSTATUS(st) != CHILD_REFUSED)) {
		fprintf(stderr, "fuzz_simgrid: the load %s %d (see above)\n",
			WIFSIGNALED(st) ? "died of signal" : "exited with", WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		abort();
	}
	return 0;
}
#else
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	return 0; /* built without SimGrid: nothing to fuzz */
}
#endif
