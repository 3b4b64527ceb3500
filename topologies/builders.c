/* SPDX-License-Identifier: MIT */
/* Built-in topologies: mesh (dimension order), torus and ring (dimension order + datelines),
 * crossbar (one router), k-ary n-tree (up-down), and an arbitrary graph (BFS routes). */
#include "topology.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_dims(const int *dims, int n_dims, int *total, struct sim_error *err)
{
	if (n_dims < 1 || n_dims > TOPO_MAX_DIMS)
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL, "need 1..%d dimensions, got %d",
				     TOPO_MAX_DIMS, n_dims);
	long n = 1;
	for (int i = 0; i < n_dims; i++) {
		if (dims[i] < 1 || dims[i] > 4096)
			return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
					     "dimension %d must be 1..4096, got %d", i, dims[i]);
		n *= dims[i];
		if (n > 65536)
			return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
					     "at most 65536 routers, the dimensions give more");
	}
	*total = (int)n;
	return 0;
}

static void coords_of(int r, const int *dims, int n_dims, int *x)
{
	for (int i = 0; i < n_dims; i++) {
		x[i] = r % dims[i];
		r /= dims[i];
	}
}

static int router_of(const int *x, const int *dims, int n_dims)
{
	int r = 0;
	for (int i = n_dims - 1; i >= 0; i--)
		r = r * dims[i] + x[i];
	return r;
}

/* Mesh and torus share the link layout: link_of[(r*n_dims+dim)*2+dir] (dir 0 = +, 1 = -). */
static struct topo *grid(const char *kind, const int *dims, int n_dims, bool wrap, bool datelines,
			 uint32_t latency_cycles, struct sim_error *err)
{
	int n = 0;
	if (check_dims(dims, n_dims, &n, err))
		return NULL;
	struct topo *t = topo_alloc(kind, n, n, n * n_dims * 2, err);
	int *link_of = malloc((size_t)n * (size_t)n_dims * 2 * sizeof *link_of);
	int32_t *rl = malloc((size_t)(n * n_dims + 1) * sizeof *rl);
	uint8_t *rv = malloc((size_t)(n * n_dims + 1));
	if (!t || !link_of || !rl || !rv) {
		if (t)
			sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory building the %s", kind);
		goto fail;
	}
	memcpy(t->dims, dims, (size_t)n_dims * sizeof *dims);
	t->n_dims = n_dims;
	t->n_vc_classes = (wrap && datelines) ? 2 : 1;
	for (int r = 0; r < n; r++)
		t->node_router[r] = r;
	int x[TOPO_MAX_DIMS], y[TOPO_MAX_DIMS];
	for (int r = 0; r < n; r++) {
		coords_of(r, dims, n_dims, x);
		for (int dm = 0; dm < n_dims; dm++) {
			int k = dims[dm];
			for (int dir = 0; dir < 2; dir++) {
				int *slot = &link_of[(r * n_dims + dm) * 2 + dir];
				*slot = -1;
				memcpy(y, x, sizeof y);
				y[dm] = x[dm] + (dir ? -1 : 1);
				if (y[dm] < 0 || y[dm] >= k) {
					if (!wrap)
						continue;
					y[dm] = (y[dm] + k) % k;
				}
				/* k == 2 in a torus: + and - reach the same neighbour; one link each way. */
				if (k < 2 || (wrap && k == 2 && dir == 1))
					continue;
				*slot = topo_add_link(t, r, router_of(y, dims, n_dims), latency_cycles, 0);
			}
			if (wrap && k == 2)
				link_of[(r * n_dims + dm) * 2 + 1] = link_of[(r * n_dims + dm) * 2];
		}
	}
	for (int s = 0; s < n; s++) {
		for (int d = 0; d < n; d++) {
			int len = 0;
			coords_of(s, dims, n_dims, x);
			coords_of(d, dims, n_dims, y);
			for (int dm = 0; dm < n_dims; dm++) {
				int k = dims[dm];
				int dir, steps;
				if (wrap) {
					int fwd = ((y[dm] - x[dm]) % k + k) % k;
					dir = fwd <= k / 2 ? 0 : 1; /* ties go + (BookSim's dim_order_torus too) */
					steps = dir ? k - fwd : fwd;
				} else {
					dir = y[dm] < x[dm];
					steps = dir ? x[dm] - y[dm] : y[dm] - x[dm];
				}
				uint8_t cls = 0; /* dateline class resets in each dimension */
				for (int i = 0; i < steps; i++) {
					int r = router_of(x, dims, n_dims);
					bool crosses = dir == 0 ? x[dm] == k - 1 : x[dm] == 0;
					if (wrap && datelines && crosses)
						cls = 1;
					rl[len] = link_of[(r * n_dims + dm) * 2 + dir];
					rv[len++] = cls;
					x[dm] = ((x[dm] + (dir ? -1 : 1)) % k + k) % k;
				}
			}
			if (topo_set_route(t, s, d, rl, rv, len, err))
				goto fail;
		}
	}
	free(link_of);
	free(rl);
	free(rv);
	return t;
fail:
	free(link_of);
	free(rl);
	free(rv);
	topo_destroy(t);
	return NULL;
}

struct topo *topo_mesh(const int *dims, int n_dims, uint32_t latency_cycles, struct sim_error *err)
{
	return grid("mesh", dims, n_dims, false, false, latency_cycles, err);
}

struct topo *topo_torus(const int *dims, int n_dims, bool datelines, uint32_t latency_cycles,
			struct sim_error *err)
{
	return grid("torus", dims, n_dims, true, datelines, latency_cycles, err);
}

struct topo *topo_ring(int n, bool datelines, uint32_t latency_cycles, struct sim_error *err)
{
	struct topo *t = grid("ring", &n, 1, true, datelines, latency_cycles, err);
	return t;
}

struct topo *topo_crossbar(int n, struct sim_error *err)
{
	if (n < 1 || n > 4096) {
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL, "crossbar needs 1..4096 nodes, got %d", n);
		return NULL;
	}
	struct topo *t = topo_alloc("crossbar", n, 1, 0, err);
	if (!t)
		return NULL;
	t->dims[0] = n;
	t->n_dims = 1;
	for (int s = 0; s < n; s++)
		for (int d = 0; d < n; d++)
			if (topo_set_route(t, s, d, NULL, NULL, 0, err)) {
				topo_destroy(t);
				return NULL;
			}
	return t;
}

static int ipow(int b, int e)
{
	int r = 1;
	while (e-- > 0)
		r *= b;
	return r;
}

static int set_digit(int w, int k, int pos, int v)
{
	int p = ipow(k, pos);
	return w - ((w / p) % k) * p + v * p;
}

struct topo *topo_fat_tree(int k, int levels, uint32_t latency_cycles, struct sim_error *err)
{
	if (k < 2 || levels < 1 || ipow(k, levels) > 65536) {
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
			      "fat-tree needs k >= 2, levels >= 1 and k^levels <= 65536 (k=%d levels=%d)", k, levels);
		return NULL;
	}
	int per = ipow(k, levels - 1); /* switches per level */
	int n = per * k;
	struct topo *t = topo_alloc("fat-tree", n, levels * per, 2 * (levels - 1) * per * k, err);
	int32_t *rl = malloc((size_t)(2 * levels + 1) * sizeof *rl);
	if (!t || !rl) {
		if (t)
			sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory building the fat-tree");
		goto fail;
	}
	t->dims[0] = k;
	t->dims[1] = levels;
	t->n_dims = 2;
	for (int p = 0; p < n; p++)
		t->node_router[p] = p / k;
	for (int l = 0; l + 1 < levels; l++)
		for (int w = 0; w < per; w++)
			for (int c = 0; c < k; c++) {
				int up = (l + 1) * per + set_digit(w, k, l, c);
				topo_add_link(t, l * per + w, up, latency_cycles, 0);
				topo_add_link(t, up, l * per + w, latency_cycles, 0);
			}
	for (int s = 0; s < n; s++)
		for (int d = 0; d < n; d++) {
			int ws = s / k, wd = d / k, len = 0, top = 0;
			while (ws / ipow(k, top) != wd / ipow(k, top))
				top++;
			/* Up: fix digit l to the destination's at each level, so the way down is the
			 * destination's own column (one down path per destination: up*-down*). */
			int w = ws;
			for (int l = 0; l < top; l++) {
				int w2 = set_digit(w, k, l, (wd / ipow(k, l)) % k);
				rl[len++] = topo_find_link(t, l * per + w, (l + 1) * per + w2);
				w = w2;
			}
			for (int l = top; l > 0; l--)
				rl[len++] = topo_find_link(t, l * per + wd, (l - 1) * per + wd);
			if (topo_set_route(t, s, d, rl, NULL, len, err))
				goto fail;
		}
	free(rl);
	return t;
fail:
	free(rl);
	topo_destroy(t);
	return NULL;
}

struct topo *topo_graph(int n, const int64_t *pairs, size_t n_pairs, bool bidir, bool hop_classes,
			uint32_t latency_cycles, struct sim_error *err)
{
	if (n < 1 || n > 65536) {
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL, "graph needs 1..65536 nodes, got %d", n);
		return NULL;
	}
	for (size_t i = 0; i < 2 * n_pairs; i++)
		if (pairs[i] < 0 || pairs[i] >= n) {
			sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
				      "graph link %zu names node %lld, outside 0..%d", i / 2, (long long)pairs[i], n - 1);
			return NULL;
		}
	struct topo *t = topo_alloc("graph", n, n, (int)n_pairs * 2, err);
	int *parent = malloc((size_t)n * sizeof *parent);
	int *queue = malloc((size_t)n * sizeof *queue);
	int32_t *rl = malloc((size_t)n * sizeof *rl);
	uint8_t *rv = malloc((size_t)n);
	if (!t || !parent || !queue || !rl || !rv) {
		if (t)
			sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory building the graph");
		goto fail;
	}
	for (int r = 0; r < n; r++)
		t->node_router[r] = r;
	for (size_t i = 0; i < n_pairs; i++) {
		int a = (int)pairs[2 * i], b = (int)pairs[2 * i + 1];
		if (a != b && topo_find_link(t, a, b) < 0)
			topo_add_link(t, a, b, latency_cycles, 0);
		if (bidir && a != b && topo_find_link(t, b, a) < 0)
			topo_add_link(t, b, a, latency_cycles, 0);
	}
	int max_len = 0;
	for (int s = 0; s < n; s++) {
		/* BFS visiting neighbours in increasing router number: deterministic routes. */
		for (int r = 0; r < n; r++)
			parent[r] = -1;
		parent[s] = s;
		int qh = 0, qt = 0;
		queue[qt++] = s;
		while (qh < qt) {
			int v = queue[qh++];
			for (int w = 0; w < n; w++)
				if (parent[w] < 0 && topo_find_link(t, v, w) >= 0) {
					parent[w] = v;
					queue[qt++] = w;
				}
		}
		for (int d = 0; d < n; d++) {
			if (parent[d] < 0) {
				sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
					      "graph is not connected: no path from node %d to node %d", s, d);
				goto fail;
			}
			int len = 0;
			for (int v = d; v != s; v = parent[v])
				len++;
			int i = len;
			for (int v = d; v != s; v = parent[v])
				rl[--i] = topo_find_link(t, parent[v], v);
			for (i = 0; i < len; i++)
				rv[i] = hop_classes ? (uint8_t)(i < TOPO_MAX_VC_CLASSES ? i : TOPO_MAX_VC_CLASSES - 1) : 0;
			if (len > max_len)
				max_len = len;
			if (topo_set_route(t, s, d, rl, rv, len, err))
				goto fail;
		}
	}
	if (hop_classes) {
		if (max_len > TOPO_MAX_VC_CLASSES) {
			sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
				      "graph diameter %d exceeds %d hop classes", max_len, TOPO_MAX_VC_CLASSES);
			goto fail;
		}
		t->n_vc_classes = max_len > 0 ? max_len : 1;
	}
	free(parent);
	free(queue);
	free(rl);
	free(rv);
	return t;
fail:
	free(parent);
	free(queue);
	free(rl);
	free(rv);
	topo_destroy(t);
	return NULL;
}
