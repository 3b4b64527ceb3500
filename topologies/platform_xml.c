/* SPDX-License-Identifier: MIT */
/* SimGrid platform files read with expat: the structures SimGrid 3.32 aborts on (duplicate and
 * symmetrical-duplicate routes, routes in zones that take none, unsupported elements) and the
 * values it refuses without a line are refused here, each at its element's line. */
#ifdef WARPSIM_HAVE_SIMGRID
#include "platform_xml.h"

#include <ctype.h>
#include <expat.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <strings.h>

/* Files past this are no NoC: the largest legal one (4096 hosts in Full zones) is far smaller
 * in clusters, and the whole file is held in memory. */
#define PLAT_MAX_BYTES (64u << 20)
#define PLAT_MAX_ZONE_DEPTH 64

struct topo_plat_name {
	char *key;                   /* kind letter + name; NULL: free slot */
	int line;
};

enum zone_kind { ZONE_ROUTED, ZONE_STAR, ZONE_NONE, ZONE_VIVALDI };

struct zone {
	int line, members;           /* members: hosts, routers, child zones and clusters */
	enum zone_kind kind;
	int idx;                     /* numbers route keys per zone */
	int endpoints;               /* distinct names routes start or end at */
	bool dijkstra, floyd;
	char id[64];
};

struct rd {
	XML_Parser xp;
	const char *path;
	struct topo_plat *p;
	struct sim_error *err;
	int rc;
	struct zone zones[PLAT_MAX_ZONE_DEPTH];
	int depth, n_zones_seen, roots;
	int zone_or_cluster;         /* any <zone>, <AS> or <cluster> */
	int outside_line;            /* first host/router/link/route outside any zone */
	long hosts;                  /* hosts so far, against TOPO_SIMGRID_MAX_HOSTS */
	int route_line, route_links; /* the open route element */
	char route_el[16], route_src[128], route_dst[128];
};

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a: short keys, no adversary worth more */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static struct topo_plat_name *slot(const struct topo_plat *p, const char *key)
{
	if (!p->cap_names)
		return NULL;
	size_t m = p->cap_names - 1;
	for (size_t i = (size_t)hash_str(key) & m;; i = (i + 1) & m)
		if (!p->names[i].key || !strcmp(p->names[i].key, key))
			return &p->names[i];
}

static int lookup(const struct topo_plat *p, char kind, const char *name)
{
	char key[320];
	snprintf(key, sizeof key, "%c%s", kind, name);
	const struct topo_plat_name *s = slot(p, key);
	return s && s->key ? s->line : 0;
}

/* Insert kind+name at line: 0, the line it was first seen at (kept), or -1 out of memory. */
static int insert(struct topo_plat *p, char kind, const char *name, int line)
{
	if (2 * (p->n_names + 1) > p->cap_names) { /* half full at most: short probes */
		size_t cap = p->cap_names ? 2 * p->cap_names : 256;
		struct topo_plat_name *old = p->names;
		size_t old_cap = p->cap_names;
		p->names = calloc(cap, sizeof *p->names);
		if (!p->names) {
			p->names = old;
			return -1;
		}
		p->cap_names = cap;
		for (size_t i = 0; i < old_cap; i++)
			if (old[i].key)
				*slot(p, old[i].key) = old[i];
		free(old);
	}
	size_t len = strlen(name);
	char *key = malloc(len + 2);
	if (!key)
		return -1;
	key[0] = kind;
	memcpy(key + 1, name, len + 1);
	struct topo_plat_name *s = slot(p, key);
	if (s->key) {
		free(key);
		return s->line;
	}
	s->key = key;
	s->line = line;
	p->n_names++;
	return 0;
}

static const char *attr(const char **a, const char *name)
{
	for (; a[0]; a += 2)
		if (!strcmp(a[0], name))
			return a[1];
	return NULL;
}

static int fail(struct rd *r, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(struct rd *r, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	r->rc = sim_error_set(r->err, SIM_ERR_CONFIG, r->path, line, 0, NULL, "%s", msg);
	XML_StopParser(r->xp, XML_FALSE);
	return r->rc;
}

static int nomem(struct rd *r)
{
	r->rc = sim_error_set(r->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory reading %s", r->path);
	XML_StopParser(r->xp, XML_FALSE);
	return r->rc;
}

/* A name in the netpoint namespace (hosts, routers, zones and clusters share it in SimGrid). */
static int name_new(struct rd *r, const char *el, const char *id, int line)
{
	if (!id)
		return 0; /* a required attribute: SimGrid's parser names it */
	int first = insert(r->p, 'N', id, line);
	if (first < 0)
		return nomem(r);
	if (first)
		return fail(r, line, "<%s id=\"%s\">: the name \"%s\" is already used at line %d", el, id, id, first);
	return 0;
}

/* Numbers separated by any of seps into v (at most max); -1 if a part is not a positive number. */
static int numbers(const char *s, const char *seps, long *v, int max)
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
		if (total > 100000000L)
			return -1;
		if (*s == ',')
			s++;
		else if (*s)
			return -1;
	}
	return total;
}

/* A value with a unit ("32Bps", "1.5us"): its number must be positive (bandwidth) or at least 0
 * (latency) whatever the unit, which only scales it. A value without a leading number is left
 * to SimGrid, whose parser refuses it at its line. */
static int value_check(struct rd *r, const char *el, const char *id, const char *name, const char *v,
		       bool positive, int line)
{
	if (!v)
		return 0;
	char *end;
	double x = strtod(v, &end);
	if (end == v)
		return 0;
	if (!isfinite(x) || (positive ? !(x > 0) : !(x >= 0)))
		return fail(r, line, "<%s id=\"%s\">: %s=\"%s\" must be %s", el, id ? id : "?", name, v,
			    positive ? "a positive finite number with a unit" : "a finite number >= 0 with a unit");
	return 0;
}

static int hosts_add(struct rd *r, long n, const char *el, const char *id, int line)
{
	r->hosts += n;
	if (r->hosts > TOPO_SIMGRID_MAX_HOSTS)
		return fail(r, line, "<%s id=\"%s\">: the platform reaches %ld hosts here, at most %d (every host "
			    "pair's route is kept)", el, id ? id : "?", r->hosts, TOPO_SIMGRID_MAX_HOSTS);
	return 0;
}

/* SimGrid aborts (xbt_die) on a cluster whose radicals do not fill its TORUS, FAT_TREE or
 * DRAGONFLY shape, and builds a cluster of 10^8 hosts before anything can count them. */
static int cluster_check(struct rd *r, const char **a, int line)
{
	const char *id = attr(a, "id") ? attr(a, "id") : "?", *topo = attr(a, "topology");
	const char *params = attr(a, "topo_parameters") ? attr(a, "topo_parameters") : "";
	const char *radical = attr(a, "radical") ? attr(a, "radical") : "";
	long hosts = radical_count(radical);
	if (hosts < 0)
		return fail(r, line, "cluster %s: radical \"%s\" is not a list of numbers and ranges like 0-15,20", id,
			    radical);
	if (hosts > TOPO_SIMGRID_MAX_HOSTS)
		return fail(r, line, "cluster %s: %ld hosts, at most %d", id, hosts, TOPO_SIMGRID_MAX_HOSTS);
	if (hosts_add(r, hosts, "cluster", id, line))
		return r->rc;
	if (value_check(r, "cluster", id, "bw", attr(a, "bw"), true, line) ||
	    value_check(r, "cluster", id, "lat", attr(a, "lat"), false, line) ||
	    value_check(r, "cluster", id, "bb_bw", attr(a, "bb_bw"), true, line) ||
	    value_check(r, "cluster", id, "bb_lat", attr(a, "bb_lat"), false, line) ||
	    value_check(r, "cluster", id, "loopback_bw", attr(a, "loopback_bw"), true, line) ||
	    value_check(r, "cluster", id, "loopback_lat", attr(a, "loopback_lat"), false, line) ||
	    value_check(r, "cluster", id, "limiter_link", attr(a, "limiter_link"), true, line))
		return r->rc;
	/* the cluster's hosts, by name, for messages about them */
	const char *pre = attr(a, "prefix") ? attr(a, "prefix") : "", *suf = attr(a, "suffix") ? attr(a, "suffix") : "";
	bool ascending = true;
	long prev_hi = -1;
	for (const char *s = radical; *s;) {
		char *e;
		long lo = strtol(s, &e, 10), hi = lo;
		if (*e == '-')
			hi = strtol(e + 1, &e, 10);
		ascending = ascending && lo > prev_hi;
		prev_hi = hi;
		for (long i = lo; i <= hi; i++) {
			char host[300];
			snprintf(host, sizeof host, "%s%ld%s", pre, i, suf);
			int first = insert(r->p, 'H', host, line);
			if (first < 0)
				return nomem(r);
			if (first)
				return fail(r, line, "cluster %s: its host %s is already declared at line %d", id, host,
					    first);
		}
		s = *e == ',' ? e + 1 : e;
	}
	/* a lone cluster's routes follow from its kind (simgrid.c composes them) */
	bool lone = !r->depth && r->roots == 1 && ascending;
	long v[16], shape = 1;
	int k;
	if (!topo || !strcmp(topo, "FLAT")) {
		r->p->lone_cluster = lone ? 'F' : 0;
		return 0;
	} else if (!strcmp(topo, "TORUS")) {
		r->p->lone_cluster = lone ? 'T' : 0;
		k = numbers(params, ",", v, 16);
		for (int i = 0; i < k; i++)
			shape *= v[i];
		if (k > 0 && !r->p->torus_nd && k <= TOPO_MAX_DIMS) {
			for (int i = 0; i < k; i++)
				r->p->torus_dims[i] = (int)v[i];
			r->p->torus_nd = k;
		}
	} else if (!strcmp(topo, "FAT_TREE")) {
		/* levels;down,...;up,...;links,...: the hosts are the product of the downs */
		const char *down = strchr(params, ';');
		const char *up = down ? strchr(down + 1, ';') : NULL;
		k = -1;
		if (down && up) {
			char d[128];
			snprintf(d, sizeof d, "%.*s", (int)(up - down - 1), down + 1);
			k = numbers(d, ",", v, 16);
			for (int i = 0; i < k; i++)
				shape *= v[i];
		}
	} else if (!strcmp(topo, "DRAGONFLY")) {
		/* groups,links;chassis,links;routers,links;nodes */
		k = numbers(params, ",;", v, 16);
		if (k == 7)
			shape = v[0] * v[2] * v[4] * v[6];
		else
			k = -1;
	} else {
		return 0; /* SimGrid's parser refuses other topologies at this line */
	}
	if (k <= 0)
		return fail(r, line, "cluster %s: topo_parameters \"%s\" do not describe a %s", id, params, topo);
	if (shape != hosts)
		return fail(r, line, "cluster %s: %s \"%s\" has %ld places but radical \"%s\" names %ld hosts", id, topo,
			    params, shape, radical, hosts);
	return 0;
}

/* Routed zones (Full, Floyd, Dijkstra) keep one route per (src, dst): Full and Floyd abort on a
 * second (xbt_assert), Dijkstra crashes; a symmetrical route also fills (dst, src). */
static int route_check(struct rd *r, const char *el, const char **a, int line)
{
	struct zone *z = &r->zones[r->depth - 1];
	if (z->kind == ZONE_NONE || z->kind == ZONE_VIVALDI)
		return fail(r, line, "<%s> in zone %s, whose routing \"%s\" takes no routes", el, z->id,
			    z->kind == ZONE_NONE ? "None" : "Vivaldi");
	const char *src = attr(a, "src"), *dst = attr(a, "dst"), *sym = attr(a, "symmetrical");
	snprintf(r->route_el, sizeof r->route_el, "%s", el);
	snprintf(r->route_src, sizeof r->route_src, "%s", src ? src : "?");
	snprintf(r->route_dst, sizeof r->route_dst, "%s", dst ? dst : "?");
	r->route_line = line;
	r->route_links = 0;
	if (!src || !dst || z->kind != ZONE_ROUTED)
		return 0; /* SimGrid names a missing attribute; a Cluster zone checks its routes itself */
	bool symmetrical = !sym || !strcasecmp(sym, "YES");
	char key[300];
	for (int e = 0; e < 2; e++) {
		snprintf(key, sizeof key, "%d\x1f%s", z->idx, e ? dst : src);
		int seen = insert(r->p, 'E', key, line);
		if (seen < 0)
			return nomem(r);
		z->endpoints += !seen;
	}
	snprintf(key, sizeof key, "%d\x1f%s\x1f%s", z->idx, src, dst);
	int first = insert(r->p, 'R', key, line);
	if (first < 0)
		return nomem(r);
	if (first)
		return fail(r, line, "<%s src=\"%s\" dst=\"%s\">: zone %s already has a route from %s to %s (line %d%s)",
			    el, src, dst, z->id, src, dst, first,
			    lookup(r->p, 'S', key) ? ", as the reverse of a symmetrical route" : "");
	/* Floyd and Dijkstra add the reverse of a symmetrical route even from a point to itself:
	 * Floyd aborts finding it full, Dijkstra throws for the edge it already has and crashes
	 * naming it (its Route has no src_; both found by fuzz_simgrid) */
	if (symmetrical && !strcmp(src, dst) && (z->floyd || z->dijkstra))
		return fail(r, line, "<%s src=\"%s\" dst=\"%s\">: a route from a point to itself in a %s zone "
			    "needs symmetrical=\"NO\"", el, src, dst, z->floyd ? "Floyd" : "Dijkstra");
	if (symmetrical && strcmp(src, dst)) {
		snprintf(key, sizeof key, "%d\x1f%s\x1f%s", z->idx, dst, src);
		first = insert(r->p, 'R', key, line);
		if (first < 0 || insert(r->p, 'S', key, line) < 0)
			return nomem(r);
		if (first)
			return fail(r, line, "<%s src=\"%s\" dst=\"%s\"> is symmetrical (the default) but zone %s already has "
				    "a route from %s to %s (line %d): declare symmetrical=\"NO\" on both", el, src, dst,
				    z->id, dst, src, first);
	}
	return 0;
}

static const char *const unsupported[] = {
	"include", "trace", "random", "trace_connect", "storage_type", "storage", "mount", "disk", "host_link",
	"cabinet", "peer", "backbone", "bypassASroute", "bypassRoute", "bypassZoneRoute", "process", "actor",
	"argument", "config", "model_prop", NULL};

static void XMLCALL on_start(void *ud, const char *el, const char **a)
{
	struct rd *r = ud;
	if (r->rc)
		return;
	int line = (int)XML_GetCurrentLineNumber(r->xp);
	/* attribute values with a control byte (see topo_plat_read): SimGrid would read the name
	 * past it, we would cut it there */
	for (const char **q = a; q[0]; q += 2)
		if (strchr(q[1], 0x7f)) {
			fail(r, line, "<%s %s=...>: control character in the value", el, q[0]);
			return;
		}
	for (int i = 0; unsupported[i]; i++)
		if (!strcmp(el, unsupported[i])) {
			/* several make SimGrid die (include, storage, actors without a function); the
			 * rest add nothing a NoC uses and would be ignored */
			fail(r, line, "<%s> is not read by warpsim's SimGrid topology (zones, clusters, hosts, "
			     "routers, links and routes only)", el);
			return;
		}
	bool zone = !strcmp(el, "zone") || !strcmp(el, "AS"), cluster = !strcmp(el, "cluster");
	const char *id = attr(a, "id");
	if (zone || cluster) {
		r->zone_or_cluster = 1;
		if (r->depth)
			r->zones[r->depth - 1].members++;
		else if (++r->roots > 1) {
			fail(r, line, "<%s id=\"%s\">: a second top-level zone (a platform has one root zone)", el,
			     id ? id : "?");
			return;
		}
		if (name_new(r, el, id, line))
			return;
	}
	if (cluster) {
		cluster_check(r, a, line);
		return;
	}
	if (zone) {
		if (r->depth == PLAT_MAX_ZONE_DEPTH) {
			fail(r, line, "zones nested deeper than %d", PLAT_MAX_ZONE_DEPTH);
			return;
		}
		const char *routing = attr(a, "routing");
		struct zone *z = &r->zones[r->depth++];
		memset(z, 0, sizeof *z);
		z->line = line;
		z->idx = r->n_zones_seen++;
		snprintf(z->id, sizeof z->id, "%s", id ? id : "?");
		if (!routing)
			return; /* required: SimGrid's parser says so */
		static const char *const routed[] = {"Full", "Floyd", "Dijkstra", "DijkstraCache", NULL};
		z->kind = ZONE_VIVALDI;
		for (int i = 0; routed[i]; i++)
			if (!strcasecmp(routing, routed[i]))
				z->kind = ZONE_ROUTED;
		z->dijkstra = !strncasecmp(routing, "Dijkstra", 8);
		z->floyd = !strcasecmp(routing, "Floyd");
		if (!strcasecmp(routing, "Cluster"))
			/* a hand-written StarZone: SimGrid aborts routing to a member without its UP and
			 * DOWN links (found by fuzz_simgrid); <cluster> builds them whole */
			fail(r, line, "<%s id=\"%s\">: routing \"Cluster\" is not read (write a <cluster>)", el, z->id);
		else if (!strcasecmp(routing, "None"))
			z->kind = ZONE_NONE;
		else if (z->kind != ZONE_ROUTED && strcasecmp(routing, "Vivaldi"))
			/* SimGrid dies on an unknown one; Wifi zones are no NoC */
			fail(r, line, "<%s id=\"%s\">: routing \"%s\" is not one of Full, Floyd, Dijkstra, DijkstraCache, "
			     "None, Vivaldi", el, z->id, routing);
		return;
	}
	bool host = !strcmp(el, "host"), router = !strcmp(el, "router"), link = !strcmp(el, "link");
	bool route = !strcmp(el, "route") || !strcmp(el, "zoneRoute") || !strcmp(el, "ASroute");
	if ((host || router || link || route) && !r->depth) {
		if (!r->outside_line)
			r->outside_line = line;
		return;
	}
	if (host || router) {
		r->zones[r->depth - 1].members++;
		if (name_new(r, el, id, line))
			return;
		if (!host || !id)
			return;
		int first = insert(r->p, 'H', id, line);
		if (first < 0)
			nomem(r);
		else if (first)
			fail(r, line, "<host id=\"%s\">: a host of that name is already declared at line %d", id, first);
		else
			hosts_add(r, 1, el, id, line);
	} else if (link) {
		if (!id)
			return;
		int first = insert(r->p, 'L', id, line);
		if (first < 0) {
			nomem(r);
			return;
		}
		if (first) { /* SimGrid 3.32 keeps the second silently */
			fail(r, line, "<link id=\"%s\">: a link of that name is already declared at line %d", id, first);
			return;
		}
		if (!value_check(r, el, id, "bandwidth", attr(a, "bandwidth"), true, line))
			value_check(r, el, id, "latency", attr(a, "latency"), false, line);
	} else if (route) {
		route_check(r, el, a, line);
	} else if (!strcmp(el, "link_ctn")) {
		r->route_links++;
	}
	/* platform and prop need nothing; an element outside SimGrid's DTD is refused by SimGrid's
	 * own validating parser, at its line */
}

static void XMLCALL on_end(void *ud, const char *el)
{
	struct rd *r = ud;
	if (r->rc)
		return;
	if (!strcmp(el, "zone") || !strcmp(el, "AS")) {
		struct zone *z = &r->zones[--r->depth];
		/* SimGrid aborts routing between two members of a None zone (EmptyZone) */
		if (z->kind == ZONE_NONE && z->members > 1)
			fail(r, z->line, "<%s id=\"%s\"> has routing \"None\" but %d members (hosts, routers, zones): "
			     "nothing routes between them", el, z->id, z->members);
		/* SimGrid's Dijkstra crashes routing from a member no route names (found by
		 * fuzz_simgrid): each member must start or end a route */
		else if (z->kind == ZONE_ROUTED && z->dijkstra && z->members > 1 && z->endpoints < z->members)
			fail(r, z->line, "<%s id=\"%s\"> (routing Dijkstra): %d of its %d hosts, routers and zones are "
			     "in no route", el, z->id, z->members - z->endpoints, z->members);
	} else if ((!strcmp(el, "route") || !strcmp(el, "zoneRoute") || !strcmp(el, "ASroute")) && r->route_line &&
		   r->route_links == 0) {
		fail(r, r->route_line, "<%s src=\"%s\" dst=\"%s\"> has no <link_ctn>", r->route_el, r->route_src,
		     r->route_dst);
	}
	if (!strcmp(el, "route") || !strcmp(el, "zoneRoute") || !strcmp(el, "ASroute"))
		r->route_line = 0;
}

/* Blank (keeping newlines) every processing instruction outside comments and CDATA, the XML
 * declaration included: SimGrid's lexer skips any "<?...?>", expat refuses many (found by
 * fuzz_simgrid: "<?xmion='1.0'?>" hid a platform SimGrid then crashed on). The encoding the
 * declaration names is overridden anyway (ISO-8859-1 below). */
static void blank_pis(char *b, size_t n)
{
	for (size_t i = 0; i + 1 < n;) {
		const char *open = NULL, *close = NULL;
		if (b[i] == '<' && i + 3 < n && !memcmp(b + i, "<!--", 4))
			open = "<!--", close = "-->";
		else if (b[i] == '<' && i + 8 < n && !memcmp(b + i, "<![CDATA[", 9))
			open = "<![CDATA[", close = "]]>";
		else if (b[i] == '<' && b[i + 1] == '?')
			open = "<?", close = "?>";
		if (!open) {
			i++;
			continue;
		}
		size_t from = i + strlen(open);
		char *e = from <= n ? strstr(b + from, close) : NULL; /* b holds no NUL before b[n] */
		size_t end = e ? (size_t)(e - b) + strlen(close) : n;
		if (open[1] == '?')
			for (size_t k = i; k < end; k++)
				if (b[k] != '\n')
					b[k] = ' ';
		i = end;
	}
}

int topo_plat_read(const char *path, struct topo_plat *p, struct sim_error *err)
{
	memset(p, 0, sizeof *p);
	p->well_formed = true;
	FILE *f = fopen(path, "rb");
	if (!f)
		return 0; /* SimGrid names the failure */
	char *buf = malloc(PLAT_MAX_BYTES + 1);
	size_t n = buf ? fread(buf, 1, PLAT_MAX_BYTES + 1, f) : 0;
	fclose(f);
	if (!buf)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory reading %s", path);
	if (n > PLAT_MAX_BYTES) {
		free(buf);
		return sim_error_set(err, SIM_ERR_CONFIG, path, 0, 0, NULL, "SimGrid platform larger than %u MiB",
				     PLAT_MAX_BYTES >> 20);
	}
	/* SimGrid's lexer takes any byte in comments, expat refuses control bytes and malformed
	 * UTF-8: control bytes become DEL (legal XML, refused in values above) and the text is read
	 * as ISO-8859-1, where every other byte is a character. Newlines stay, so lines agree. */
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)buf[i] < 0x20 && buf[i] != '\n' && buf[i] != '\r' && buf[i] != '\t')
			buf[i] = 0x7f;
	buf[n] = '\0';
	blank_pis(buf, n);
	struct rd r = {.path = path, .p = p, .err = err};
	r.xp = XML_ParserCreate("ISO-8859-1");
	if (!r.xp) {
		free(buf);
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory reading %s", path);
	}
	XML_SetUserData(r.xp, &r);
	XML_SetElementHandler(r.xp, on_start, on_end);
	enum XML_Status st = XML_Parse(r.xp, buf, (int)n, XML_TRUE);
	free(buf);
	if (!r.rc && st != XML_STATUS_OK) {
		enum XML_Error code = XML_GetErrorCode(r.xp);
		if (code == XML_ERROR_NO_ELEMENTS && !r.zone_or_cluster) {
			/* SimGrid 3.32 accepts a file of only a prolog and comments and crashes on it */
			r.rc = sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
					     "SimGrid platform %s has no <platform> element (only a prolog and comments, or nothing)", path);
		} else {
			p->well_formed = false;
			p->xml_line = (int)XML_GetCurrentLineNumber(r.xp);
			snprintf(p->xml_msg, sizeof p->xml_msg, "%s", XML_ErrorString(code));
		}
	}
	XML_ParserFree(r.xp);
	if (!r.rc && p->well_formed) {
		if (!r.zone_or_cluster)
			/* SimGrid 3.32 dereferences a null root zone sealing such a platform */
			r.rc = sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
					     "SimGrid platform %s has no <zone> or <cluster>: no hosts to make a NoC of", path);
		else if (r.outside_line)
			r.rc = sim_error_set(err, SIM_ERR_CONFIG, path, r.outside_line, 0, NULL,
					     "a host, router, link or route outside any <zone>");
	}
	if (r.rc)
		topo_plat_fini(p);
	return r.rc;
}

int topo_plat_link_line(const struct topo_plat *p, const char *name)
{
	int line = lookup(p, 'L', name);
	size_t len = strlen(name);
	char base[256];
	if (!line && len < sizeof base) { /* a SPLITDUPLEX half */
		memcpy(base, name, len + 1);
		if (len > 3 && !strcmp(base + len - 3, "_UP"))
			base[len - 3] = '\0';
		else if (len > 5 && !strcmp(base + len - 5, "_DOWN"))
			base[len - 5] = '\0';
		line = lookup(p, 'L', base);
		/* a cluster's links are named after it ("c_link_3_UP", "c_backbone") */
		for (char *u = strrchr(base, '_'); !line && u; u = strrchr(base, '_')) {
			*u = '\0';
			line = lookup(p, 'N', base);
		}
	}
	return line;
}

int topo_plat_host_line(const struct topo_plat *p, const char *name)
{
	return lookup(p, 'H', name);
}

void topo_plat_fini(struct topo_plat *p)
{
	for (size_t i = 0; i < p->cap_names; i++)
		free(p->names[i].key);
	free(p->names);
	p->names = NULL;
	p->n_names = p->cap_names = 0;
}
#else
typedef int topo_platform_xml_unused; /* ISO C needs a declaration in every translation unit */
#endif
