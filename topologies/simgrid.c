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
#include "simgrid_guard.h"

/* SimGrid keeps one engine per process and cannot be re-initialised or unloaded: a second
 * platform in the same process is refused. This flag is the only process-wide state in
 * warpsim, and it exists because SimGrid's is. */
static int simgrid_loaded;

#define TOPO_SIMGRID_MAX_HOSTS 4096

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

/* The platform XML's first TORUS cluster dimensions (SimGrid's C API does not expose them). */
static int torus_dims(const char *path, int *dims)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	static const size_t cap = 1 << 20;
	char *buf = malloc(cap);
	size_t n = buf ? fread(buf, 1, cap - 1, f) : 0;
	fclose(f);
	if (!buf)
		return 0;
	buf[n] = '\0';
	int nd = 0;
	const char *t = strstr(buf, "topology=\"TORUS\"");
	const char *p = t ? strstr(buf, "topo_parameters=\"") : NULL;
	if (p) {
		p += strlen("topo_parameters=\"");
		while (nd < TOPO_MAX_DIMS && isdigit((unsigned char)*p)) {
			dims[nd++] = (int)strtol(p, (char **)&p, 10);
			if (*p == ',')
				p++;
		}
	}
	free(buf);
	return nd;
}

/* The value of attribute name inside one element's text [el, end); "" if absent. */
static void xml_attr(const char *el, const char *end, const char *name, char *out, size_t n)
{
	out[0] = '\0';
	size_t len = strlen(name);
	for (const char *p = el; p && p < end; p++) {
		p = strstr(p, name);
		if (!p || p >= end)
			return;
		const char *q = p + len;
		while (*q == ' ' || *q == '\t' || *q == '\n')
			q++;
		if ((p == el || isspace((unsigned char)p[-1])) && *q == '=') {
			q++;
			while (*q == ' ' || *q == '\t' || *q == '\n')
				q++;
			char quote = *q;
			if (quote != '"' && quote != '\'')
				return;
			const char *v = q + 1, *ve = strchr(v, quote);
			if (!ve || ve > end)
				return;
			snprintf(out, n, "%.*s", (int)(ve - v), v);
			return;
		}
	}
}

/* Numbers separated by any of seps into v (at most max); -1 if a part is not a positive number. */
static int xml_numbers(const char *s, const char *seps, long *v, int max)
{
	int n = 0;
	while (*s) {
		char *e;
		if (!isdigit((unsigned char)*s))
			return -1;
		long x = strtol(s, &e, 10);
		if (x < 1 || x > 1000000 || n == max)
			return -1;
		v[n++] = x;
		s = e;
		if (*s && !strchr(seps, *s))
			return -1;
		if (*s)
			s++;
	}
	return n;
}

/* Hosts a radical ("0-15", "0-3,8,10-11") names; -1 when malformed. */
static long radical_count(const char *s)
{
	long total = 0;
	while (*s) {
		char *e;
		if (!isdigit((unsigned char)*s))
			return -1;
		long a = strtol(s, &e, 10), b = a;
		s = e;
		if (*s == '-') {
			if (!isdigit((unsigned char)s[1]))
				return -1;
			b = strtol(s + 1, &e, 10);
			s = e;
		}
		if (b < a || b - a > 100000000L)
			return -1;
		total += b - a + 1;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return total;
}

/* SimGrid aborts the process (xbt_die, not an exception) on a cluster whose radicals do not
 * fill its TORUS, FAT_TREE or DRAGONFLY shape, crashes on a platform without a zone (both found
 * by fuzz_simgrid), and builds a cluster of 10^8 hosts before anything can count them: the
 * text is checked first. */
static int check_clusters(const char *path, struct sim_error *err)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0; /* SimGrid reports it */
	static const size_t cap = 1 << 22;
	char *buf = malloc(cap);
	size_t n = buf ? fread(buf, 1, cap - 1, f) : 0;
	fclose(f);
	if (!buf)
		return 0;
	buf[n] = '\0';
	/* NUL bytes would end the string functions early (SimGrid's parser reads past them) and a
	 * commented-out cluster is no cluster: blank both, keeping the newlines for line numbers */
	for (size_t i = 0; i < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	for (char *c = strstr(buf, "<!--"); c; c = strstr(c, "<!--")) {
		char *e = strstr(c + 4, "-->");
		char *stop = e ? e + 3 : buf + n;
		for (; c < stop; c++)
			if (*c != '\n')
				*c = ' ';
	}
	int rc = 0;
	/* a platform with no zone at all makes SimGrid 3.32 dereference a null root zone when it
	 * seals the platform (found by fuzz_simgrid), and so does a file that is only a prolog and
	 * comments (no root element: SimGrid's parser accepts it). Other text without <platform>
	 * (garbage, an empty file) is left to SimGrid's parser, whose message says what is wrong. */
	bool prolog_only = strchr(buf, '<') != NULL; /* every '<' opens <?...?> or <!DOCTYPE...> */
	for (const char *p = strchr(buf, '<'); p && prolog_only; p = strchr(p + 1, '<'))
		prolog_only = p[1] == '?' || p[1] == '!';
	if (prolog_only)
		rc = sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
				   "SimGrid platform %s has no <platform> element (only a prolog and comments)", path);
	else if (strstr(buf, "<platform") && !strstr(buf, "<zone") && !strstr(buf, "<cluster") && !strstr(buf, "<AS"))
		rc = sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
				   "SimGrid platform %s has no <zone> or <cluster>: no hosts to make a NoC of", path);
	for (const char *p = buf; !rc && (p = strstr(p, "<cluster")); p++) {
		const char *end = strchr(p, '>');
		if (!end)
			break; /* SimGrid's parser says where */
		int line = 1;
		for (const char *q = buf; q < p; q++)
			line += *q == '\n';
		char topo[32], params[256], radical[256], id[64];
		xml_attr(p, end, "topology", topo, sizeof topo);
		xml_attr(p, end, "topo_parameters", params, sizeof params);
		xml_attr(p, end, "radical", radical, sizeof radical);
		xml_attr(p, end, "id", id, sizeof id);
		long hosts = radical_count(radical);
		if (hosts < 0) {
			rc = sim_error_set(err, SIM_ERR_CONFIG, path, line, 0, NULL, "cluster %s: radical \"%s\" is "
					   "not a list of numbers and ranges like 0-15,20", id, radical);
			break;
		}
		if (hosts > TOPO_SIMGRID_MAX_HOSTS) {
			rc = sim_error_set(err, SIM_ERR_CONFIG, path, line, 0, NULL, "cluster %s: %ld hosts, at most %d",
					   id, hosts, TOPO_SIMGRID_MAX_HOSTS);
			break;
		}
		long v[16], shape = 1;
		int k;
		if (!strcmp(topo, "TORUS")) {
			k = xml_numbers(params, ",", v, 16);
			for (int i = 0; i < k; i++)
				shape *= v[i];
		} else if (!strcmp(topo, "FAT_TREE")) {
			/* levels;down,...;up,...;links,...: the hosts are the product of the downs */
			char *down = strchr(params, ';');
			char *up = down ? strchr(down + 1, ';') : NULL;
			k = -1;
			if (down && up) {
				char d[128];
				snprintf(d, sizeof d, "%.*s", (int)(up - down - 1), down + 1);
				k = xml_numbers(d, ",", v, 16);
				for (int i = 0; i < k; i++)
					shape *= v[i];
			}
		} else if (!strcmp(topo, "DRAGONFLY")) {
			/* groups,links;chassis,links;routers,links;nodes */
			k = xml_numbers(params, ",;", v, 16);
			if (k == 7)
				shape = v[0] * v[2] * v[4] * v[6];
			else
				k = -1;
		} else {
			continue; /* FLAT and the rest take any count */
		}
		if (k <= 0) {
			rc = sim_error_set(err, SIM_ERR_CONFIG, path, line, 0, NULL, "cluster %s: topo_parameters "
					   "\"%s\" do not describe a %s", id, params, topo);
		} else if (shape != hosts) {
			rc = sim_error_set(err, SIM_ERR_CONFIG, path, line, 0, NULL, "cluster %s: %s \"%s\" has %ld "
					   "places but radical \"%s\" names %ld hosts", id, topo, params, shape,
					   radical, hosts);
		}
	}
	free(buf);
	return rc;
}

struct topo *topo_simgrid_load(const char *platform_xml, uint32_t channel_bytes, struct sim_error *err)
{
	/* A FIFO would block SimGrid's open; a missing file is named at gpu.noc.platform's line. */
	struct sim_error e2 = {0};
	if (cfg_check_regular_file(platform_xml, "SimGrid platform", NULL, 0, SIM_ERR_CONFIG, &e2)) {
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL, "%s", e2.msg);
		return NULL;
	}
	if (check_clusters(platform_xml, err))
		return NULL;
	if (simgrid_loaded) {
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
	/* SimGrid throws on a bad platform: caught at the C++ boundary (simgrid_guard.cc) and
	 * reported at the platform's line where its parser gives one. */
	if (topo_sg_guard_load(&argc, argv, platform_xml, sg_msg, sizeof sg_msg, &sg_line)) {
		if (sg_line > 0)
			sim_error_set(err, SIM_ERR_CONFIG, platform_xml, sg_line, 0, NULL, "SimGrid: %s", sg_msg);
		else
			sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL, "SimGrid platform %s: %s",
				      platform_xml, sg_msg);
		return NULL;
	}

	int n = (int)sg_host_count();
	if (n < 1) { /* sg_host_list() aborts the process on a platform without hosts */
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL, "SimGrid platform %s has no hosts", platform_xml);
		return NULL;
	}
	/* Every host pair's route is kept (n^2 of them): 4096 hosts is 16 M routes, far beyond a
	 * GPU's NoC; a cluster radical like "0-99999999" is a mistake, not a machine. */
	if (n > TOPO_SIMGRID_MAX_HOSTS) {
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL, "SimGrid platform %s has %d hosts, at most %d",
			      platform_xml, n, TOPO_SIMGRID_MAX_HOSTS);
		return NULL;
	}
	sg_host_t *hosts = sg_host_list();
	int n_sl = (int)sg_link_count();
	sg_link_t *sl = sg_link_list();
	struct topo *t = NULL;
	int *uf = NULL, *cls = NULL, *link_of = NULL;
	int32_t *rl = NULL;
	uint8_t *rv = NULL;
	size_t pairs = (size_t)n * (size_t)n;
	/* Routes are read twice (unions, then links): keep them. */
	int32_t **route = calloc(pairs, sizeof *route);
	int *route_n = calloc(pairs, sizeof *route_n);
	if (n < 1 || !route || !route_n) {
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL, "SimGrid platform %s has no hosts", platform_xml);
		goto out;
	}
	qsort(hosts, (size_t)n, sizeof *hosts, host_cmp);
	if (n_sl > 1) /* sl may be NULL on a platform without links */
		qsort(sl, (size_t)n_sl, sizeof *sl, link_cmp);
	/* The NoC divides by a link's bandwidth and counts its latency in cycles: both must be
	 * finite, the bandwidth positive (SimGrid itself accepts 0Bps outside a cluster). */
	for (int k = 0; k < n_sl; k++) {
		double bw = sg_link_get_bandwidth(sl[k]), lat = sg_link_get_latency(sl[k]);
		if (!(bw > 0 && bw < 1e15) || !(lat >= 0 && lat < 1e9)) {
			sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
				      "SimGrid platform %s: link %s has bandwidth %g B/s and latency %g s "
				      "(needs a positive finite bandwidth and a latency below 1e9 s)",
				      platform_xml, sg_link_get_name(sl[k]), bw, lat);
			goto out;
		}
	}
	/* Union-find variables: host i is i; link k's start is n + 2k, its end n + 2k + 1. */
	int n_var = n + 2 * n_sl;
	uf = malloc((size_t)n_var * sizeof *uf);
	cls = malloc((size_t)n_var * sizeof *cls);
	link_of = malloc((size_t)(n_sl > 0 ? n_sl : 1) * sizeof *link_of);
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
			if (s == d)
				continue;
			xbt_dynar_t dy = xbt_dynar_new(sizeof(sg_link_t), NULL);
			if (topo_sg_guard_route(hosts[s], hosts[d], dy, sg_msg, sizeof sg_msg)) {
				xbt_dynar_free(&dy);
				sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
					      "SimGrid platform %s: no route from %s to %s: %s", platform_xml,
					      sg_host_get_name(hosts[s]), sg_host_get_name(hosts[d]), sg_msg);
				goto out;
			}
			int len = (int)xbt_dynar_length(dy);
			size_t p = (size_t)s * (size_t)n + (size_t)d;
			route[p] = malloc((size_t)(len > 0 ? len : 1) * sizeof **route);
			if (!route[p]) {
				xbt_dynar_free(&dy);
				goto nomem;
			}
			route_n[p] = len;
			for (int i = 0; i < len; i++) {
				sg_link_t l = xbt_dynar_get_as(dy, (unsigned)i, sg_link_t);
				route[p][i] = (int32_t)(intptr_t)sg_link_get_data(l) - 1;
				link_of[route[p][i]] = -2; /* used */
			}
			xbt_dynar_free(&dy);
			if (len > max_len)
				max_len = len;
			/* Consecutive links meet at one router; an empty route joins the hosts. */
			int prev = s;
			for (int i = 0; i < len; i++) {
				uf_union(uf, prev, n + 2 * route[p][i]);
				prev = n + 2 * route[p][i] + 1;
			}
			uf_union(uf, prev, d);
		}
	/* A link whose two ends fell together is used both ways (a SHARED, not SPLITDUPLEX,
	 * link) or loops: the flit model needs directed channels. */
	for (int k = 0; k < n_sl; k++) {
		if (link_of[k] == -2 && uf_find(uf, n + 2 * k) == uf_find(uf, n + 2 * k + 1)) {
			sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
				      "SimGrid link %s is used in both directions (use SPLITDUPLEX links)",
				      sg_link_get_name(sl[k]));
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
	if (!t || !rl || !rv)
		goto nomem;
	for (int i = 0; i < n; i++)
		t->node_router[i] = cls[uf_find(uf, i)];
	int dims[TOPO_MAX_DIMS], nd = torus_dims(platform_xml, dims);
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
			int len = route_n[p];
			int cur = s, dim = -1;
			uint8_t c = 0;
			for (int i = 0; i < len; i++) {
				int k = route[p][i];
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
					int nxt = -1;
					int to_r = t->links[rl[i]].dst_router;
					for (int h = 0; h < n; h++)
						if (t->node_router[h] == to_r)
							nxt = h;
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
	if (route)
		for (size_t p = 0; p < pairs; p++)
			free(route[p]);
	free(route);
	free(route_n);
	free(uf);
	free(cls);
	free(link_of);
	free(rl);
	free(rv);
	free(hosts);
	free(sl);
	return t;
}
#else
typedef int topo_simgrid_unused; /* ISO C needs a declaration in every translation unit */
#endif
