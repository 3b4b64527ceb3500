/* SPDX-License-Identifier: MIT */
/* Topology storage (routers, links, per-pair routes) and the channel-dependency-graph deadlock
 * check. Build-time only: allocation and O(pairs * hops) loops are fine here. */
#include "topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct topo *topo_alloc(const char *kind, int n_nodes, int n_routers, int max_links, struct sim_error *err)
{
	struct topo *t = calloc(1, sizeof *t);
	if (!t)
		goto nomem;
	snprintf(t->kind, sizeof t->kind, "%s", kind);
	t->n_nodes = n_nodes;
	t->n_routers = n_routers;
	t->n_vc_classes = 1;
	size_t pairs = (size_t)n_nodes * (size_t)n_nodes;
	t->node_router = calloc((size_t)n_nodes, sizeof *t->node_router);
	t->links = calloc((size_t)(max_links > 0 ? max_links : 1), sizeof *t->links);
	t->route_off = calloc(pairs, sizeof *t->route_off);
	t->route_len = calloc(pairs, sizeof *t->route_len);
	t->route_cap = pairs * 2 + 16;
	t->route_link = malloc(t->route_cap * sizeof *t->route_link);
	t->route_vc = malloc(t->route_cap * sizeof *t->route_vc);
	if (!t->node_router || !t->links || !t->route_off || !t->route_len || !t->route_link || !t->route_vc)
		goto nomem;
	t->route_cap = pairs * 2 + 16;
	/* Routes not set yet: mark with UINT32_MAX offsets so validation catches gaps. */
	for (size_t i = 0; i < pairs; i++)
		t->route_off[i] = UINT32_MAX;
	return t;
nomem:
	topo_destroy(t);
	sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory building the %s topology", kind);
	return NULL;
}

void topo_destroy(struct topo *t)
{
	if (!t)
		return;
	free(t->node_router);
	free(t->links);
	free(t->route_off);
	free(t->route_len);
	free(t->route_link);
	free(t->route_vc);
	free(t);
}

int topo_add_link(struct topo *t, int src_router, int dst_router, uint32_t latency_cycles,
		  double bandwidth_bytes_cycle)
{
	struct topo_link *l = &t->links[t->n_links];
	l->src_router = src_router;
	l->dst_router = dst_router;
	l->latency_cycles = latency_cycles ? latency_cycles : 1;
	l->bandwidth_bytes_cycle = bandwidth_bytes_cycle;
	snprintf(l->name, sizeof l->name, "r%d->r%d", src_router, dst_router);
	return t->n_links++;
}

int topo_find_link(const struct topo *t, int src_router, int dst_router)
{
	for (int i = 0; i < t->n_links; i++)
		if (t->links[i].src_router == src_router && t->links[i].dst_router == dst_router)
			return i;
	return -1;
}

int topo_set_route(struct topo *t, int s, int d, const int32_t *links, const uint8_t *vc, int len,
		   struct sim_error *err)
{
	size_t used = t->route_used;
	if (len > UINT16_MAX)
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL, "route %d->%d has %d hops", s, d, len);
	if (used + (size_t)len > t->route_cap) {
		size_t cap = (used + (size_t)len) * 2;
		int32_t *nl = realloc(t->route_link, cap * sizeof *nl);
		if (nl)
			t->route_link = nl;
		uint8_t *nv = realloc(t->route_vc, cap * sizeof *nv);
		if (nv)
			t->route_vc = nv;
		if (!nl || !nv)
			return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory storing routes");
		t->route_cap = cap;
	}
	size_t p = (size_t)s * (size_t)t->n_nodes + (size_t)d;
	t->route_off[p] = (uint32_t)used;
	t->route_len[p] = (uint16_t)len;
	for (int i = 0; i < len; i++) {
		t->route_link[used + (size_t)i] = links[i];
		t->route_vc[used + (size_t)i] = vc ? vc[i] : 0;
	}
	t->route_used = used + (size_t)len;
	return 0;
}

int topo_validate_routes(const struct topo *t, struct sim_error *err)
{
	for (int s = 0; s < t->n_nodes; s++) {
		for (int d = 0; d < t->n_nodes; d++) {
			size_t p = (size_t)s * (size_t)t->n_nodes + (size_t)d;
			if (t->route_off[p] == UINT32_MAX)
				return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
						     "%s topology: no route from node %d to node %d", t->kind, s, d);
			int at = t->node_router[s];
			const int32_t *l = topo_route_links(t, s, d);
			const uint8_t *vc = topo_route_vcs(t, s, d);
			for (int i = 0; i < t->route_len[p]; i++) {
				if (l[i] < 0 || l[i] >= t->n_links || t->links[l[i]].src_router != at ||
				    vc[i] >= t->n_vc_classes)
					return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
							     "%s topology: route %d->%d broken at hop %d", t->kind, s, d, i);
				at = t->links[l[i]].dst_router;
			}
			if (at != t->node_router[d])
				return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
						     "%s topology: route %d->%d ends at router %d, not %d", t->kind, s, d,
						     at, t->node_router[d]);
		}
	}
	return 0;
}

/* ---- channel dependency graph ------------------------------------------------------ */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static int chan_text(const struct topo *t, uint32_t ch, char *buf, size_t n)
{
	uint32_t l = ch / (uint32_t)t->n_vc_classes, c = ch % (uint32_t)t->n_vc_classes;
	return snprintf(buf, n, "%s[vc%u]", t->links[l].name, c);
}

/* Add edge to the open-addressed set (empty slots hold EDGE_NONE); -1 out of memory. Routes
 * repeat the same few edges (32 M hop pairs over 16 K distinct ones in a 4096-host star), so
 * they are deduplicated here rather than sorted whole. */
#define EDGE_NONE UINT64_MAX /* no edge: channel ids are below 2^32 - 1 */
static size_t edge_hash(uint64_t x)
{
	/* splitmix64's finaliser: both halves (source and target channel) reach the low bits */
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return (size_t)(x ^ (x >> 31));
}
static int edge_set_add(uint64_t **set, size_t *cap, size_t *n, uint64_t edge)
{
	if (2 * (*n + 1) > *cap) {
		size_t nc = *cap ? 2 * *cap : 1024;
		uint64_t *ns = malloc(nc * sizeof *ns);
		if (!ns)
			return -1;
		for (size_t i = 0; i < nc; i++)
			ns[i] = EDGE_NONE;
		for (size_t i = 0; i < *cap; i++)
			if ((*set)[i] != EDGE_NONE) {
				size_t j = edge_hash((*set)[i]) & (nc - 1);
				while (ns[j] != EDGE_NONE)
					j = (j + 1) & (nc - 1);
				ns[j] = (*set)[i];
			}
		free(*set);
		*set = ns;
		*cap = nc;
	}
	size_t j = edge_hash(edge) & (*cap - 1);
	while ((*set)[j] != EDGE_NONE && (*set)[j] != edge)
		j = (j + 1) & (*cap - 1);
	if ((*set)[j] == EDGE_NONE) {
		(*set)[j] = edge;
		(*n)++;
	}
	return 0;
}

bool topo_cdg_acyclic(const struct topo *t, char *cycle_text, size_t n)
{
	uint32_t n_ch = (uint32_t)t->n_links * (uint32_t)t->n_vc_classes;
	size_t n_edges = 0, cap = 0;
	uint64_t *e = NULL, last = EDGE_NONE;
	for (int s = 0; s < t->n_nodes; s++)
		for (int d = 0; d < t->n_nodes; d++) {
			int len = topo_route_len(t, s, d);
			const int32_t *l = topo_route_links(t, s, d);
			const uint8_t *vc = topo_route_vcs(t, s, d);
			for (int i = 0; i + 1 < len; i++) {
				uint64_t a = (uint64_t)l[i] * (uint64_t)t->n_vc_classes + vc[i];
				uint64_t b = (uint64_t)l[i + 1] * (uint64_t)t->n_vc_classes + vc[i + 1];
				if ((a << 32 | b) != last && edge_set_add(&e, &cap, &n_edges, a << 32 | b)) {
					free(e);
					return false;
				}
				last = a << 32 | b;
			}
		}
	/* the set's edges, packed and sorted: the CSR below wants them in order */
	size_t m0 = 0;
	for (size_t i = 0; i < cap; i++)
		if (e[i] != EDGE_NONE)
			e[m0++] = e[i];
	if (n_edges)
		qsort(e, n_edges, sizeof *e, cmp_u64);
	/* CSR: start[v] .. start[v+1] over the sorted, deduplicated edge list. */
	uint32_t *start = calloc((size_t)n_ch + 1, sizeof *start);
	uint32_t *dst = malloc((n_edges + 1) * sizeof *dst);
	uint8_t *color = calloc((size_t)n_ch, 1);     /* 0 white, 1 on stack, 2 done */
	uint32_t *stack = malloc(((size_t)n_ch + 1) * sizeof *stack);
	uint32_t *it = calloc((size_t)n_ch, sizeof *it);
	bool ok = true;
	if (!start || !dst || !color || !stack || !it) {
		ok = false;
		goto out;
	}
	size_t m = 0;
	for (size_t i = 0; i < n_edges; i++) {
		if (i && e[i] == e[i - 1])
			continue;
		start[(e[i] >> 32) + 1]++;
		dst[m++] = (uint32_t)e[i];
	}
	for (uint32_t v = 0; v < n_ch; v++)
		start[v + 1] += start[v];
	/* Iterative DFS; a grey successor closes a cycle that is the stack from it to the top. */
	for (uint32_t root = 0; root < n_ch && ok; root++) {
		if (color[root])
			continue;
		size_t sp = 0;
		stack[sp++] = root;
		color[root] = 1;
		it[root] = start[root];
		while (sp && ok) {
			uint32_t v = stack[sp - 1];
			if (it[v] == start[v + 1]) {
				color[v] = 2;
				sp--;
				continue;
			}
			uint32_t w = dst[it[v]++];
			if (color[w] == 0) {
				color[w] = 1;
				it[w] = start[w];
				stack[sp++] = w;
			} else if (color[w] == 1) {
				ok = false;
				size_t k = sp;
				while (k > 0 && stack[k - 1] != w)
					k--;
				size_t pos = 0;
				if (cycle_text && n) {
					cycle_text[0] = '\0';
					for (size_t j = k - 1; j < sp && pos + 1 < n; j++) {
						pos += (size_t)chan_text(t, stack[j], cycle_text + pos, n - pos);
						if (pos + 1 < n)
							pos += (size_t)snprintf(cycle_text + pos, n - pos, " -> ");
					}
					if (pos + 1 < n)
						chan_text(t, w, cycle_text + pos, n - pos);
				}
			}
		}
	}
out:
	free(e);
	free(start);
	free(dst);
	free(color);
	free(stack);
	free(it);
	return ok;
}
