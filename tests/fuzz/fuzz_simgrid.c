/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: SimGrid platform files through topo_simgrid_load. SimGrid keeps one engine
 * per process, so each input is loaded in a forked child; the child must end with 0 (loaded) or
 * a clean error, never a signal or a sanitizer report (exit 1), else this process aborts and
 * libFuzzer keeps the input. SimGrid itself is not instrumented, so the search is mostly blind:
 * this is a crash hunt at the C/C++ boundary and in simgrid.c, not a coverage-guided one. A
 * child running past 10 s (a huge but legal platform) is killed and not counted as a crash.
 * An input starting with '#' is a recipe rather than a file: its bytes choose nested zones,
 * routings, hosts, links and routes among few names, so duplicate, symmetrical and
 * overlapping routes and zones within zones come up far more often than from mutated text. */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef WARPSIM_HAVE_SIMGRID
#include "topologies/topology.h"

enum { CHILD_LOADED = 0, CHILD_REFUSED = 3 };

struct recipe {
	const uint8_t *d;
	size_t n, at;
	FILE *f;
	int zones;
};

static unsigned take(struct recipe *r, unsigned mod)
{
	return r->at < r->n ? r->d[r->at++] % mod : 0;
}

/* One zone: hosts h<zone>_<i>, a router, links, then routes and zoneRoutes whose ends are drawn
 * from the few names in it, so that pairs repeat. */
static void recipe_zone(struct recipe *r, int depth)
{
	static const char *const routing[] = {"Full", "Floyd", "Dijkstra", "DijkstraCache", "None", "Vivaldi", "Cluster", "Star"};
	int z = r->zones++;
	fprintf(r->f, "<zone id=\"z%d\" routing=\"%s\">\n", z, routing[take(r, 8)]);
	int hosts = (int)take(r, 4), kids = depth < 3 ? (int)take(r, 3) : 0, first_kid = r->zones;
	for (int i = 0; i < hosts; i++)
		fprintf(r->f, "<host id=\"h%d_%d\" speed=\"1Gf\"/>\n", z, i);
	fprintf(r->f, "<router id=\"g%d\"/>\n", z);
	for (int k = 0; k < kids; k++) {
		if (take(r, 4) == 0)
			fprintf(r->f, "<cluster id=\"c%d_%d\" prefix=\"c%d_%d_\" radical=\"0-%u\" suffix=\"\" speed=\"1Gf\" "
				"bw=\"%uBps\" lat=\"1s\"%s/>\n", z, k, z, k, take(r, 8), take(r, 3) * 16,
				take(r, 2) ? " topology=\"TORUS\" topo_parameters=\"2,2\"" : "");
		else
			recipe_zone(r, depth + 1);
	}
	for (int l = 0; l < 3; l++)
		fprintf(r->f, "<link id=\"l%d_%d\" bandwidth=\"%uBps\" latency=\"1s\"%s/>\n", z, l, take(r, 3) * 32,
			take(r, 2) ? " sharing_policy=\"SPLITDUPLEX\"" : "");
	int routes = (int)take(r, 6);
	for (int i = 0; i < routes; i++) {
		bool zr = kids > 1 && take(r, 2);
		unsigned a = take(r, zr ? (unsigned)kids : (unsigned)hosts + 1), b = take(r, zr ? (unsigned)kids : (unsigned)hosts + 1);
		char src[32], dst[32];
		if (zr) {
			snprintf(src, sizeof src, "z%u", (unsigned)first_kid + a);
			snprintf(dst, sizeof dst, "z%u", (unsigned)first_kid + b);
		} else {
			snprintf(src, sizeof src, a == (unsigned)hosts ? "g%d" : "h%d_%u", z, a);
			snprintf(dst, sizeof dst, b == (unsigned)hosts ? "g%d" : "h%d_%u", z, b);
		}
		fprintf(r->f, "<%s src=\"%s\" dst=\"%s\"%s%s>", zr ? "zoneRoute" : "route", src, dst,
			zr ? " gw_src=\"g0\" gw_dst=\"g0\"" : "", take(r, 2) ? " symmetrical=\"NO\"" : "");
		int links = (int)take(r, 3);
		for (int l = 0; l < links; l++)
			fprintf(r->f, "<link_ctn id=\"l%d_%u\"%s/>", z, take(r, 3), take(r, 2) ? " direction=\"UP\"" : "");
		fprintf(r->f, "</%s>\n", zr ? "zoneRoute" : "route");
	}
	fprintf(r->f, "</zone>\n");
}

/* SimGrid's plugin is opened here, once, so that every forked child inherits it loaded instead
 * of loading libsimgrid and its dependencies again (a quarter of the executions per second). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	struct sim_error err = {0};
	if (!topo_sg_plugin_symbol("topo_sg_plugin_load", &err)) {
		fprintf(stderr, "fuzz_simgrid: %s\n", err.msg);
		exit(2);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	if (!path[0]) {
		snprintf(path, sizeof path, "/tmp/ws_fuzz_sg_%ld.xml", (long)getpid());
	}
	FILE *f = fopen(path, "wb");
	if (!f)
		return 0;
	if (size > 0 && data[0] == '#') {
		struct recipe r = {.d = data, .n = size, .at = 1, .f = f};
		fprintf(f, "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
			"<platform version=\"4.1\">\n");
		recipe_zone(&r, 0);
		fprintf(f, "</platform>\n");
	} else {
		fwrite(data, 1, size, f);
	}
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
