/* SPDX-License-Identifier: MIT */
/* SimGrid platforms as topologies: load the XML, seal it, read every host pair's route, infer
 * the routers from how links join, and give TORUS clusters dateline VC classes. */
#ifdef WARPSIM_HAVE_SIMGRID
#include "topology.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/dynar.h>

#include "../engine/cfg_text.h"
#include "platform_xml.h"
#include "simgrid_guard.h"

/* SimGrid keeps one engine per process and cannot be re-initialised or unloaded: a second
 * platform in the same process is refused. This flag is the only process-wide state in
 * warpsim, and it exists because SimGrid's is. */
static int simgrid_loaded;

/* Host names in natural order ("n2" before "n10"), so cluster radicals map to node numbers. */
static int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);
			if (x != y)
				return x < y ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

static int host_cmp(const void *x, const void *y)
{
	return natural_cmp(sg_host_get_name(*(const sg_host_t *)x), sg_host_get_name(*(const sg_host_t *)y));
}

static int link_cmp(const void *x, const void *y)
{
	return natural_cmp(sg_link_get_name(*(const sg_link_t *)x), sg_link_get_name(*(const sg_link_t *)y));
}

static int uf_find(int *p, int x)
{
	while (p[x] != x) {
		p[x] = p[p[x]];
		x = p[x];
	}
	return x;
}

static void uf_union(int *p, int a, int b)
{
	a = uf_find(p, a);
	b = uf_find(p, b);
	if (a != b)
		p[a < b ? b : a] = a < b ? a : b; /* smaller root wins: deterministic numbering */
}

/* Set err from SimGrid's message: at the platform's line where its parser gives one. */
static void sg_refusal(struct sim_error *err, const char *path, const char *msg, int line)
{
	if (line > 0)
		sim_error_set(err, SIM_ERR_CONFIG, path, line, 0, NULL, "SimGrid: %s", msg);
	else
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL, "SimGrid platform %s: %s", path, msg);
}

struct topo *topo_simgrid_load(const char *platform_xml, uint32_t channel_bytes, struct sim_error *err)
{
	/* A FIFO would block SimGrid's open; a missing file is named at gpu.noc.platform's line. */
	struct sim_error e2 = {0};
	if (cfg_check_regular_file(platform_xml, "SimGrid platform", NULL, 0, SIM_ERR_CONFIG, &e2)) {
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL, "%s", e2.msg);
		return NULL;
	}
	/* SimGrid aborts the process on several malformed structures: read the file first. */
	struct topo_plat plat;
	if (topo_plat_read(platform_xml, &plat, err))
		return NULL;
	if (simgrid_loaded) {
		topo_plat_fini(&plat);
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
			      "a SimGrid platform is already loaded in this process (SimGrid has one engine per process)");
		return NULL;
	}
	simgrid_loaded = 1;
	/* The network model must be chosen before loading: the simgrid-flow backend, which
	 * reuses this platform, wants CM02 max-min without cross traffic or TCP window. */
	int argc = 6;
	char a0[] = "warpsim", a1[] = "--log=root.thres:critical", a2[] = "--cfg=network/model:CM02",
	     a3[] = "--cfg=network/crosstraffic:0", a4[] = "--cfg=network/optim:Full", a5[] = "--cfg=network/TCP-gamma:0";
	char *argv[] = {a0, a1, a2, a3, a4, a5, NULL};
	char sg_msg[400];
	int sg_line = 0;
	/* SimGrid throws on a bad platform: caught at the C++ boundary (simgrid_guard.cc). A file
	 * expat found malformed is still given to SimGrid, whose own message is the one the
	 * platform's authors know; should SimGrid take it, expat's stands. */
	if (topo_sg_guard_load(&argc, argv, platform_xml, sg_msg, sizeof sg_msg, &sg_line)) {
		sg_refusal(err, platform_xml, sg_msg, sg_line);
		topo_plat_fini(&plat);
		return NULL;
	}
	if (!plat.well_formed) {
		sim_error_set(err, SIM_ERR_CONFIG, platform_xml, plat.xml_line, 0, NULL, "not well-formed XML: %s",
			      plat.xml_msg);
		topo_plat_fini(&plat);
		return NULL;
	}

	int n = (int)sg_host_count();
	if (n < 1) { /* sg_host_list() aborts the process on a platform without hosts */
		topo_plat_fini(&plat);
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL, "SimGrid platform %s has no hosts", platform_xml);
		return NULL;
	}
	/* Every host pair's route is kept (n^2 of them): 4096 hosts is 16 M routes, far beyond a
	 * GPU's NoC (topo_plat_read refuses more from the text; this holds whatever built them). */
	if (n > TOPO_SIMGRID_MAX_HOSTS) {
		topo_plat_fini(&plat);
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL, "SimGrid platform %s has %d hosts, at most %d",
			      platform_xml, n, TOPO_SIMGRID_MAX_HOSTS);
		return NULL;
	}
	sg_host_t *hosts = sg_host_list();
	int n_sl = (int)sg_link_count();
	sg_link_t *sl = sg_link_list();
	struct topo *t = NULL;
	int *uf = NULL, *cls = NULL, *link_of = NULL, *host_at = NULL;
	int32_t *rl = NULL, *arena = NULL;
	uint8_t *rv = NULL;
	xbt_dynar_t dy = NULL;
	size_t pairs = (size_t)n * (size_t)n, arena_n = 0, arena_cap = 0;
	/* Routes are read twice (unions, then links): kept in one arena, route p at route_at[p]
	 * (no allocation per route: 16 M of them at 4096 hosts). */
	size_t *route_at = calloc(pairs + 1, sizeof *route_at);
	if (!route_at || !hosts)
		goto nomem;
	qsort(hosts, (size_t)n, sizeof *hosts, host_cmp);
	if (n_sl > 1) /* sl may be NULL on a platform without links */
		qsort(sl, (size_t)n_sl, sizeof *sl, link_cmp);
	/* The NoC divides by a link's bandwidth and counts its latency in cycles: both must be
	 * finite, the bandwidth positive (SimGrid itself accepts 0Bps outside a cluster). */
	for (int k = 0; k < n_sl; k++) {
		double bw = sg_link_get_bandwidth(sl[k]), lat = sg_link_get_latency(sl[k]);
		if (!(bw > 0 && bw < 1e15) || !(lat >= 0 && lat < 1e9)) {
			const char *name = sg_link_get_name(sl[k]);
			sim_error_set(err, SIM_ERR_CONFIG, platform_xml, topo_plat_link_line(&plat, name), 0, NULL,
				      "link %s has bandwidth %g B/s and latency %g s (needs a positive finite bandwidth "
				      "and a latency below 1e9 s)", name, bw, lat);
			goto out;
		}
	}
	/* Union-find variables: host i is i; link k's start is n + 2k, its end n + 2k + 1. */
	int n_var = n + 2 * n_sl;
	uf = malloc((size_t)n_var * sizeof *uf);
	cls = malloc((size_t)n_var * sizeof *cls);
	link_of = malloc((size_t)(n_sl > 0 ? n_sl : 1) * sizeof *link_of);
	dy = xbt_dynar_new(sizeof(sg_link_t), NULL);
	if (!uf || !cls || !link_of)
		goto nomem;
	for (int i = 0; i < n_var; i++)
		uf[i] = i;
	for (int k = 0; k < n_sl; k++) {
		sg_link_set_data(sl[k], (void *)(intptr_t)(k + 1));
		link_of[k] = -1; /* -1 unused, -2 used, else the topology link */
	}
	int max_len = 0;
	for (int s = 0; s < n; s++)
		for (int d = 0; d < n; d++) {
			size_t p = (size_t)s * (size_t)n + (size_t)d;
			route_at[p] = arena_n;
			if (s == d)
				continue;
			xbt_dynar_reset(dy);
			if (topo_sg_guard_route(hosts[s], hosts[d], dy, sg_msg, sizeof sg_msg)) {
				sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
					      "SimGrid platform %s: no route from %s to %s: %s", platform_xml,
					      sg_host_get_name(hosts[s]), sg_host_get_name(hosts[d]), sg_msg);
				goto out;
			}
			int len = (int)xbt_dynar_length(dy);
			/* SimGrid returns an empty route where a zone has none (a Full zone without the
			 * pair's <route>, Vivaldi): no channel to send on */
			if (len == 0) {
				const char *a = sg_host_get_name(hosts[s]), *b = sg_host_get_name(hosts[d]);
				sim_error_set(err, SIM_ERR_CONFIG, platform_xml, topo_plat_host_line(&plat, a), 0, NULL,
					      "host %s has no route to host %s (line %d): SimGrid gives no link "
					      "between them, a NoC needs a route between every pair of hosts", a, b,
					      topo_plat_host_line(&plat, b));
				goto out;
			}
			if (arena_n + (size_t)len > arena_cap) {
				size_t cap = arena_cap ? 2 * arena_cap : 4096;
				while (cap < arena_n + (size_t)len)
					cap *= 2;
				int32_t *na = realloc(arena, cap * sizeof *arena);
				if (!na)
					goto nomem;
				arena = na;
				arena_cap = cap;
			}
			int32_t *r = arena + arena_n;
			arena_n += (size_t)len;
			for (int i = 0; i < len; i++) {
				sg_link_t l = xbt_dynar_get_as(dy, (unsigned)i, sg_link_t);
				r[i] = (int32_t)(intptr_t)sg_link_get_data(l) - 1;
				link_of[r[i]] = -2; /* used */
			}
			if (len > max_len)
				max_len = len;
			/* Consecutive links meet at one router. */
			int prev = s;
			for (int i = 0; i < len; i++) {
				uf_union(uf, prev, n + 2 * r[i]);
				prev = n + 2 * r[i] + 1;
			}
			uf_union(uf, prev, d);
		}
	route_at[pairs] = arena_n;
	/* A link whose two ends fell together is used both ways (a SHARED, not SPLITDUPLEX,
	 * link) or loops: the flit model needs directed channels. */
	for (int k = 0; k < n_sl; k++) {
		if (link_of[k] == -2 && uf_find(uf, n + 2 * k) == uf_find(uf, n + 2 * k + 1)) {
			const char *name = sg_link_get_name(sl[k]);
			sim_error_set(err, SIM_ERR_CONFIG, platform_xml, topo_plat_link_line(&plat, name), 0, NULL,
				      "SimGrid link %s is used in both directions (use SPLITDUPLEX links)", name);
			goto out;
		}
	}
	/* Routers: the union-find classes, numbered in order of their smallest variable. */
	int n_routers = 0;
	for (int v = 0; v < n_var; v++)
		cls[v] = -1;
	for (int v = 0; v < n_var; v++) {
		/* Ends of links no route uses (loopbacks, limiters) are no routers. */
		if (v >= n && link_of[(v - n) / 2] != -2)
			continue;
		int r = uf_find(uf, v);
		if (cls[r] < 0)
			cls[r] = n_routers++;
	}
	t = topo_alloc("simgrid", n, n_routers, n_sl, err);
	rl = malloc((size_t)(max_len + 1) * sizeof *rl);
	rv = malloc((size_t)(max_len + 1));
	host_at = malloc((size_t)(n_routers > 0 ? n_routers : 1) * sizeof *host_at);
	if (!t || !rl || !rv || !host_at)
		goto nomem;
	for (int i = 0; i < n_routers; i++)
		host_at[i] = -1;
	for (int i = 0; i < n; i++) {
		t->node_router[i] = cls[uf_find(uf, i)];
		host_at[t->node_router[i]] = i;
	}
	int *dims = plat.torus_dims, nd = plat.torus_nd;
	long prod = 1;
	for (int i = 0; i < nd; i++)
		prod *= dims[i];
	bool torus = nd > 0 && prod == n;
	t->n_vc_classes = torus ? 2 : 1;
	if (torus) {
		memcpy(t->dims, dims, (size_t)nd * sizeof *dims);
		t->n_dims = nd;
	}
	for (int s = 0; s < n; s++)
		for (int d = 0; d < n; d++) {
			size_t p = (size_t)s * (size_t)n + (size_t)d;
			int len = (int)(route_at[p + 1] - route_at[p]);
			const int32_t *route = arena + route_at[p];
			int cur = s, dim = -1;
			uint8_t c = 0;
			for (int i = 0; i < len; i++) {
				int k = route[i];
				if (link_of[k] == -2) {
					int a = cls[uf_find(uf, n + 2 * k)], b = cls[uf_find(uf, n + 2 * k + 1)];
					double lat = sg_link_get_latency(sl[k]);
					uint32_t lc = (uint32_t)llround(lat); /* one SimGrid second = one NoC cycle */
					link_of[k] = topo_add_link(t, a, b, lc ? lc : 1, sg_link_get_bandwidth(sl[k]));
					snprintf(t->links[link_of[k]].name, sizeof t->links[0].name, "%s", sg_link_get_name(sl[k]));
				}
				rl[i] = link_of[k];
				if (torus) {
					/* Torus routers are the hosts: the hop's dimension and wrap follow
					 * from the coordinates (dims[0] fastest, as SimGrid numbers them). */
					int nxt = host_at[t->links[rl[i]].dst_router];
					int x = cur, y = nxt, hd = -1;
					bool wrap = false;
					for (int e = 0; e < nd && y >= 0; e++) {
						int cx = x % dims[e], cy = y % dims[e];
						if (cx != cy) {
							hd = e;
							wrap = abs(cx - cy) == dims[e] - 1 && dims[e] > 2;
						}
						x /= dims[e];
						y /= dims[e];
					}
					if (hd != dim) {
						dim = hd;
						c = 0;
					}
					if (wrap)
						c = 1;
					cur = nxt >= 0 ? nxt : cur;
				}
				rv[i] = c;
			}
			if (topo_set_route(t, s, d, rl, rv, len, err))
				goto fail;
		}
	/* Non-torus platforms: one class if that is deadlock-free, else a class per hop. */
	if (!torus && !topo_cdg_acyclic(t, NULL, 0)) {
		if (max_len > TOPO_MAX_VC_CLASSES) {
			sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
				      "SimGrid platform routes need %d hop classes, at most %d", max_len, TOPO_MAX_VC_CLASSES);
			goto fail;
		}
		for (size_t i = 0; i < t->route_used; i++)
			t->route_vc[i] = 0;
		for (size_t p = 0; p < pairs; p++)
			for (int i = 0; i < t->route_len[p]; i++)
				t->route_vc[t->route_off[p] + (uint32_t)i] = (uint8_t)i;
		t->n_vc_classes = max_len;
	}
	(void)channel_bytes;
	goto out;
nomem:
	sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory reading the SimGrid platform");
fail:
	topo_destroy(t);
	t = NULL;
out:
	if (dy)
		xbt_dynar_free(&dy);
	topo_plat_fini(&plat);
	free(route_at);
	free(arena);
	free(uf);
	free(cls);
	free(link_of);
	free(host_at);
	free(rl);
	free(rv);
	free(hosts);
	free(sl);
	return t;
}
#else
typedef int topo_simgrid_unused; /* ISO C needs a declaration in every translation unit */
#endif
