/* SPDX-License-Identifier: MIT */
/* SimGrid platforms as topologies: load the XML, seal it, read every host pair's route (asked of
 * SimGrid, or composed for a lone FLAT or TORUS cluster), infer the routers from how links join,
 * and give TORUS clusters dateline VC classes. */
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

/* s->d's links are used; consecutive links meet at one router (union-find variables: host i is
 * i, link k's start n + 2k, its end n + 2k + 1). */
static void route_union(int *uf, int *link_of, int n, int s, int d, const int32_t *r, int len);

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

static void route_union(int *uf, int *link_of, int n, int s, int d, const int32_t *r, int len)
{
	int prev = s;
	for (int i = 0; i < len; i++) {
		link_of[r[i]] = -2; /* used */
		uf_union(uf, prev, n + 2 * r[i]);
		prev = n + 2 * r[i] + 1;
	}
	uf_union(uf, prev, d);
}

/* Set err from SimGrid's message: at the platform's line where its parser gives one. */
static void sg_refusal(struct sim_error *err, const char *path, const char *msg, int line)
{
	if (line > 0)
		sim_error_set(err, SIM_ERR_CONFIG, path, line, 0, NULL, "SimGrid: %s", msg);
	else
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL, "SimGrid platform %s: %s", path, msg);
}

/* Asking SimGrid for every host pair's route costs about 4 us a pair (16 M pairs, a minute, at
 * 4096 hosts). A platform that is one FLAT or TORUS <cluster> has routes that follow from its
 * kind, so they are composed from O(n) of SimGrid's routes instead, then checked against
 * SimGrid on about 8n pairs; on any difference every pair is asked after all. Below this many
 * hosts asking is cheap: the composition is not tried. */
#define SG_COMPOSE_MIN_HOSTS 64

/* Where each pair's route comes from. */
struct sg_routes {
	char kind;                   /* 'P' asked per pair, 'F' star (P(s) then Q(d)), 'T' torus hops */
	int n;
	size_t *at;                  /* 'P': pair p's links at arena[at[p]..at[p+1]]; 'F': the up part
	                              * of host s at at[s], the down part of host d at at[n + d] */
	int32_t *arena;
	size_t arena_n, arena_cap;
	int32_t *hop;                /* 'T': [n][nd][2] the link of one hop from a host along a
	                              * dimension, + (0) or - (1) */
	int32_t *nbr;                /* 'T': [n][nd][2] the host that hop reaches */
	int dims[TOPO_MAX_DIMS], nd;
};

static void sg_routes_fini(struct sg_routes *rs)
{
	free(rs->at);
	free(rs->arena);
	free(rs->hop);
	free(rs->nbr);
	memset(rs, 0, sizeof *rs);
}

/* What asking SimGrid needs; links are numbered by their position in the sorted link list + 1
 * in their data pointer. */
struct sg_ask {
	sg_host_t *hosts;
	xbt_dynar_t dy;
	const char *path;
	const struct topo_plat *plat;
	char msg[400];
};

/* s->d's links (indices) into dy; their count, or -1 with err naming the pair. */
static int sg_ask_route(struct sg_ask *q, int s, int d, struct sim_error *err)
{
	xbt_dynar_reset(q->dy);
	if (topo_sg_guard_route(q->hosts[s], q->hosts[d], q->dy, q->msg, sizeof q->msg)) {
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL, "SimGrid platform %s: no route from %s to %s: %s",
			      q->path, sg_host_get_name(q->hosts[s]), sg_host_get_name(q->hosts[d]), q->msg);
		return -1;
	}
	int len = (int)xbt_dynar_length(q->dy);
	/* SimGrid returns an empty route where a zone has none (a Full zone without the pair's
	 * <route>, Vivaldi): no channel to send on */
	if (len == 0) {
		const char *a = sg_host_get_name(q->hosts[s]), *b = sg_host_get_name(q->hosts[d]);
		sim_error_set(err, SIM_ERR_CONFIG, q->path, topo_plat_host_line(q->plat, a), 0, NULL,
			      "host %s has no route to host %s (line %d): SimGrid gives no link between them, a NoC "
			      "needs a route between every pair of hosts", a, b, topo_plat_host_line(q->plat, b));
		return -1;
	}
	return len;
}

static int32_t sg_ask_link(const struct sg_ask *q, int i)
{
	return (int32_t)(intptr_t)sg_link_get_data(xbt_dynar_get_as(q->dy, (unsigned)i, sg_link_t)) - 1;
}

/* Append the links in dy[from..len) to the arena; -1 out of memory. */
static int arena_push(struct sg_routes *rs, const struct sg_ask *q, int from, int len)
{
	if (rs->arena_n + (size_t)(len - from) > rs->arena_cap) {
		size_t cap = rs->arena_cap ? 2 * rs->arena_cap : 4096;
		while (cap < rs->arena_n + (size_t)(len - from))
			cap *= 2;
		int32_t *na = realloc(rs->arena, cap * sizeof *na);
		if (!na)
			return -1;
		rs->arena = na;
		rs->arena_cap = cap;
	}
	for (int i = from; i < len; i++)
		rs->arena[rs->arena_n++] = sg_ask_link(q, i);
	return 0;
}

/* The route s->d (s != d): its links in *out (buf or the arena), their count. buf holds n + the
 * longest part. */
static int sg_routes_get(const struct sg_routes *rs, int s, int d, int32_t *buf, const int32_t **out)
{
	int n = rs->n;
	if (rs->kind == 'P') {
		size_t p = (size_t)s * (size_t)n + (size_t)d;
		*out = rs->arena + rs->at[p];
		return (int)(rs->at[p + 1] - rs->at[p]);
	}
	*out = buf;
	int len = 0;
	if (rs->kind == 'F') {
		for (size_t i = rs->at[s]; i < rs->at[s + 1]; i++)
			buf[len++] = rs->arena[i];
		for (size_t i = rs->at[n + d]; i < rs->at[n + d + 1]; i++)
			buf[len++] = rs->arena[i];
		return len;
	}
	/* SimGrid 3.32's TorusZone: dimensions in order (dims[0] fastest); in each, + when the
	 * target lies at most half a ring ahead, judged from the source's coordinate (so a tie in
	 * an even ring goes + from the lower half only), then hops until the coordinates agree */
	int cur = s;
	for (int e = 0, prod = 1; e < rs->nd; prod *= rs->dims[e], e++) {
		int D = rs->dims[e], mc = (s / prod) % D, tc = (d / prod) % D;
		if (mc == tc)
			continue;
		int dir = (tc > mc && tc <= mc + D / 2) || (mc > D / 2 && (mc + D / 2) % D >= tc) ? 0 : 1;
		for (int k = dir ? (mc - tc + D) % D : (tc - mc + D) % D; k > 0; k--) {
			size_t at = ((size_t)cur * (size_t)rs->nd + (size_t)e) * 2 + (size_t)dir;
			buf[len++] = rs->hop[at];
			cur = rs->nbr[at];
		}
	}
	return len;
}

/* Compose a lone cluster's routes from SimGrid's (see SG_COMPOSE_MIN_HOSTS). 0: composed; 1: not
 * composable (rs left empty, ask every pair); -1 out of memory. */
static int sg_routes_compose(struct sg_routes *rs, struct sg_ask *q, int n, char kind, const int *dims, int nd)
{
	struct sim_error ignored; /* a pair SimGrid fails on is asked and named again per pair */
	int32_t *buf = NULL;
	memset(rs, 0, sizeof *rs);
	rs->n = n;
	rs->kind = kind;
	int rc = 1;
	if (kind == 'F') {
		/* StarZone: a route is the source's up links then the destination's down links (a link
		 * in both, the backbone, once). The up part of s is its route to host 0 less the
		 * suffix all routes to 0 share; the down part of d, its route from host 1 (host 2 for
		 * d = 1) less host 1's up part. */
		size_t *to0 = malloc((size_t)(n + 1) * sizeof *to0);
		rs->at = malloc((size_t)(2 * n + 1) * sizeof *rs->at);
		if (!to0 || !rs->at) {
			free(to0);
			rc = -1;
			goto out;
		}
		int common = -1;
		to0[0] = to0[1] = 0;
		for (int s = 1; s < n; s++) {
			int len = sg_ask_route(q, s, 0, &ignored);
			if (len < 0 || arena_push(rs, q, 0, len)) {
				rc = len < 0 ? 1 : -1;
				free(to0);
				goto out;
			}
			to0[s + 1] = rs->arena_n;
			if (common < 0)
				common = len;
			int c = 0; /* shared suffix with route 1->0 */
			while (c < common && c < len && rs->arena[to0[s + 1] - 1 - (size_t)c] == rs->arena[to0[2] - 1 - (size_t)c])
				c++;
			common = c;
		}
		/* up parts: routes to 0 less the common suffix, in place; the down part of 0 is it */
		size_t w = 0;
		int32_t *a = rs->arena;
		int32_t suffix[64];
		/* a star has a down part (1 or 2 links) and an up part left */
		if (common < 1 || common > 64 || (size_t)common >= to0[2]) {
			free(to0);
			goto out;
		}
		for (int i = 0; i < common; i++)
			suffix[i] = a[to0[2] - (size_t)common + (size_t)i];
		rs->at[0] = 0;
		rs->at[1] = 0; /* host 0's up part: set below */
		for (int s = 1; s < n; s++) {
			size_t from = to0[s], to = to0[s + 1] - (size_t)common;
			if (to <= from) {
				free(to0);
				goto out;
			}
			rs->at[s] = w;
			while (from < to)
				a[w++] = a[from++];
		}
		free(to0);
		size_t ups_end = w;
		rs->arena_n = w;
		/* down parts follow: d = 0 the suffix, others from 1->d (2->1) */
		size_t *down = malloc((size_t)(n + 1) * sizeof *down);
		if (!down) {
			rc = -1;
			goto out;
		}
		for (int d = 0; d < n; d++) {
			down[d] = rs->arena_n;
			if (d == 0) {
				if (rs->arena_n + (size_t)common > rs->arena_cap) {
					free(down);
					rc = -1;
					goto out;
				}
				memcpy(rs->arena + rs->arena_n, suffix, (size_t)common * sizeof *suffix);
				rs->arena_n += (size_t)common;
				continue;
			}
			int from_host = d == 1 ? 2 : 1;
			size_t up0 = rs->at[from_host], up1 = from_host + 1 < n ? rs->at[from_host + 1] : ups_end;
			int len = sg_ask_route(q, from_host, d, &ignored);
			int up_len = (int)(up1 - up0), ok = len > up_len;
			for (int i = 0; ok && i < up_len; i++)
				ok = sg_ask_link(q, i) == rs->arena[up0 + (size_t)i];
			if (!ok || arena_push(rs, q, up_len, len)) {
				free(down);
				rc = ok ? -1 : 1;
				goto out;
			}
		}
		down[n] = rs->arena_n;
		/* host 0's up part: its route to 1 less 1's down part */
		int len = sg_ask_route(q, 0, 1, &ignored);
		int down1 = (int)(down[2] - down[1]), ok = len > down1;
		for (int i = 0; ok && i < down1; i++)
			ok = sg_ask_link(q, len - down1 + i) == rs->arena[down[1] + (size_t)i];
		size_t up0_at = rs->arena_n;
		if (!ok || arena_push(rs, q, 0, len - down1)) {
			free(down);
			rc = ok ? -1 : 1;
			goto out;
		}
		/* at: [0..n] up parts, [n..2n] down parts; host 0's up part is out of line, so the up
		 * parts are re-laid: at[s] for s in 0..n-1 with at[s+1] its end */
		size_t *at = malloc((size_t)(2 * n + 2) * sizeof *at);
		int32_t *ar = malloc((rs->arena_n + 1) * sizeof *ar);
		if (!at || !ar) {
			free(at);
			free(ar);
			free(down);
			rc = -1;
			goto out;
		}
		size_t m = 0;
		for (int s = 0; s < n; s++) {
			size_t f = s ? rs->at[s] : up0_at, t = s ? (s + 1 < n ? rs->at[s + 1] : ups_end) : rs->arena_n;
			at[s] = m;
			while (f < t)
				ar[m++] = rs->arena[f++];
		}
		for (int d = 0; d <= n; d++) {
			at[n + d] = m;
			if (d < n)
				for (size_t f = down[d]; f < down[d + 1]; f++)
					ar[m++] = rs->arena[f];
		}
		free(down);
		free(rs->at);
		free(rs->arena);
		rs->at = at;
		rs->arena = ar;
		rs->arena_n = rs->arena_cap = m;
	} else {
		/* TorusZone: a hop's link is SimGrid's one-link route to that neighbour (a limiter or
		 * a SHARED link gives other routes: asked per pair) */
		rs->nd = nd;
		memcpy(rs->dims, dims, (size_t)nd * sizeof *dims);
		rs->hop = malloc((size_t)n * (size_t)nd * 2 * sizeof *rs->hop);
		rs->nbr = malloc((size_t)n * (size_t)nd * 2 * sizeof *rs->nbr);
		if (!rs->hop || !rs->nbr) {
			rc = -1;
			goto out;
		}
		for (int c = 0; c < n; c++) {
			int prod = 1;
			for (int e = 0; e < nd; e++) {
				int D = dims[e], cc = (c / prod) % D;
				int nb[2] = {cc == D - 1 ? c + prod - prod * D : c + prod, cc == 0 ? c - prod + prod * D : c - prod};
				for (int dir = 0; dir < 2; dir++) {
					int32_t *h = &rs->hop[((size_t)c * (size_t)nd + (size_t)e) * 2 + (size_t)dir];
					*h = -1;
					rs->nbr[h - rs->hop] = nb[dir];
					if (nb[dir] == c)
						continue; /* a dimension of 1 */
					if (sg_ask_route(q, c, nb[dir], &ignored) != 1)
						goto out;
					*h = sg_ask_link(q, 0);
				}
				prod *= D;
			}
		}
	}
	/* Check against SimGrid: every host to several strides away (1, 2, 3, a prime, n/2, n/3),
	 * which covers host 0 both ways and every ring distance of small tori. */
	buf = malloc((size_t)(2 * n + 64) * sizeof *buf);
	if (!buf) {
		rc = -1;
		goto out;
	}
	int strides[] = {1, 2, 3, 7919 % n, n / 2, n / 3, n - 1};
	for (size_t k = 0; k < sizeof strides / sizeof *strides; k++) {
		if (strides[k] % n == 0)
			continue;
		for (int s = 0; s < n; s++) {
			int d = (s + strides[k]) % n;
			const int32_t *got;
			int len = sg_ask_route(q, s, d, &ignored), glen = sg_routes_get(rs, s, d, buf, &got);
			if (len != glen)
				goto out;
			for (int i = 0; i < len; i++)
				if (sg_ask_link(q, i) != got[i])
					goto out;
		}
	}
	rc = 0;
out:
	free(buf);
	if (rc) {
		sg_routes_fini(rs);
		rs->n = n;
	}
	return rc;
}

struct topo *topo_sg_plugin_load(const char *platform_xml, uint32_t channel_bytes, struct sim_error *err)
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
	int32_t *rl = NULL, *rbuf = NULL;
	uint8_t *rv = NULL;
	int8_t *hop_dim = NULL;      /* per topology link: a torus hop's dimension (-1 none, -2 unknown) */
	bool *hop_wrap = NULL;       /* per topology link: the hop crosses its ring's wrap */
	size_t pairs = (size_t)n * (size_t)n;
	struct sg_routes rs = {.n = n};
	struct sg_ask q = {.hosts = hosts, .path = platform_xml, .plat = &plat};
	if (!hosts)
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
	q.dy = xbt_dynar_new(sizeof(sg_link_t), NULL);
	if (!uf || !cls || !link_of)
		goto nomem;
	for (int i = 0; i < n_var; i++)
		uf[i] = i;
	for (int k = 0; k < n_sl; k++) {
		sg_link_set_data(sl[k], (void *)(intptr_t)(k + 1));
		link_of[k] = -1; /* -1 unused, -2 used, else the topology link */
	}
	/* Routes are read twice (unions, then links): composed, or asked once per pair and kept
	 * in one arena, route p at at[p] (no allocation per route: 16 M of them at 4096 hosts). */
	int composed = 1;
	if (plat.lone_cluster && n >= SG_COMPOSE_MIN_HOSTS) {
		long prod = 1;
		for (int i = 0; i < plat.torus_nd; i++)
			prod *= plat.torus_dims[i];
		if (plat.lone_cluster == 'F' || prod == n)
			composed = sg_routes_compose(&rs, &q, n, plat.lone_cluster, plat.torus_dims, plat.torus_nd);
		if (composed < 0)
			goto nomem;
	}
	if (composed) {
		rs.kind = 'P';
		rs.at = calloc(pairs + 1, sizeof *rs.at);
		if (!rs.at)
			goto nomem;
		for (int s = 0; s < n; s++)
			for (int d = 0; d < n; d++) {
				rs.at[(size_t)s * (size_t)n + (size_t)d] = rs.arena_n;
				if (s == d)
					continue;
				int len = sg_ask_route(&q, s, d, err);
				if (len < 0)
					goto out;
				if (arena_push(&rs, &q, 0, len))
					goto nomem;
			}
		rs.at[pairs] = rs.arena_n;
	}
	rbuf = malloc((size_t)(2 * n + 64) * sizeof *rbuf);
	if (!rbuf)
		goto nomem;
	/* The links routes use, the longest route, and which link ends meet (the routers). Composed
	 * routes are made of parts that pairs share, and a few pairs hold every part and every
	 * junction of two parts, so give the union of all pairs: one hop to each neighbour in a
	 * torus; in a star, every host to 0, 1 to every host, 0 to 1 and 2 to 1 (the up/down
	 * junctions form a connected bipartite graph). */
	int max_len = 0;
	const int32_t *r;
	if (rs.kind == 'T') {
		for (int s = 0; s < n; s++)
			for (int k = 0; k < 2 * rs.nd; k++) {
				int d = rs.nbr[(size_t)s * 2 * (size_t)rs.nd + (size_t)k];
				if (d == s)
					continue;
				int len = sg_routes_get(&rs, s, d, rbuf, &r);
				route_union(uf, link_of, n, s, d, r, len);
			}
		/* the longest route: each dimension's longest walk, SimGrid's direction rule */
		for (int e = 0; e < rs.nd; e++) {
			int D = rs.dims[e], most = 0;
			for (int mc = 0; mc < D; mc++)
				for (int tc = 0; tc < D; tc++) {
					int plus = (tc > mc && tc <= mc + D / 2) || (mc > D / 2 && (mc + D / 2) % D >= tc);
					int k = plus ? (tc - mc + D) % D : (mc - tc + D) % D;
					most = k > most ? k : most;
				}
			max_len += most;
		}
	} else {
		for (int s = 0; s < n; s++)
			for (int d = 0; d < n; d++) {
				bool f_part = d == 0 || s == 1 || (s == 0 && d == 1) || (s == 2 && d == 1);
				if (s == d || (rs.kind == 'F' && !f_part))
					continue;
				int len = sg_routes_get(&rs, s, d, rbuf, &r);
				route_union(uf, link_of, n, s, d, r, len);
				max_len = len > max_len ? len : max_len;
			}
		if (rs.kind == 'F')
			for (int s = 0; s < n; s++)
				for (int d = 0; d < n; d++) {
					int len = (int)(rs.at[s + 1] - rs.at[s] + rs.at[n + d + 1] - rs.at[n + d]);
					if (s != d && len > max_len)
						max_len = len;
				}
	}
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
	hop_dim = malloc((size_t)(n_sl > 0 ? n_sl : 1) * sizeof *hop_dim);
	hop_wrap = malloc((size_t)(n_sl > 0 ? n_sl : 1) * sizeof *hop_wrap);
	if (!hop_dim || !hop_wrap)
		goto nomem;
	for (int k = 0; k < n_sl; k++)
		hop_dim[k] = -2; /* not known yet */
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
			const int32_t *route;
			int len = s == d ? 0 : sg_routes_get(&rs, s, d, rbuf, &route);
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
					 * from the coordinates (dims[0] fastest, as SimGrid numbers them).
					 * A hop leaving the host at its link's source (every hop of a
					 * connected route) depends on the link alone: worked out once per
					 * link (half a billion hops in a 64x64 torus). */
					int L = rl[i], nxt = host_at[t->links[L].dst_router];
					bool memo = cur == host_at[t->links[L].src_router];
					if (memo && hop_dim[L] != -2) {
						if (hop_dim[L] != dim) {
							dim = hop_dim[L];
							c = 0;
						}
						if (hop_wrap[L])
							c = 1;
						cur = nxt >= 0 ? nxt : cur;
						rv[i] = c;
						continue;
					}
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
					if (memo) {
						hop_dim[L] = (int8_t)hd;
						hop_wrap[L] = wrap;
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
	if (q.dy)
		xbt_dynar_free(&q.dy);
	topo_plat_fini(&plat);
	sg_routes_fini(&rs);
	free(rbuf);
	free(hop_dim);
	free(hop_wrap);
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
