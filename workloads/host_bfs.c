/* SPDX-License-Identifier: MIT */
/* BFS host routine (host = "bfs"): generates a random CSR graph, relaunches bfs_step level by
 * level until the changed flag stays clear, and checks the levels against a CPU BFS. Written
 * as CUDA host code would be, through warpsim.h. */
#include <stdlib.h>
#include <string.h>

#include "wl_int.h"

/* Random graph: vertex v gets 1..2*avg_degree-1 out-edges to uniform random vertices, so the
 * mean degree is avg_degree and the degrees are irregular. */
static int bfs_graph(int64_t n, int64_t avg_degree, uint64_t seed, int32_t **row_ptr,
		     int32_t **cols, int64_t *n_edges)
{
	uint64_t st = seed;
	int32_t *rp = malloc(sizeof *rp * (size_t)(n + 1));
	int32_t *c = malloc(sizeof *c * (size_t)(n * (2 * avg_degree - 1)));
	if (!rp || !c) {
		free(rp);
		free(c);
		return SIM_ERR_NOMEM;
	}
	int64_t e = 0;
	for (int64_t v = 0; v < n; v++) {
		rp[v] = (int32_t)e;
		int64_t d = 1 + (int64_t)(wl_rng_next(&st) % (uint64_t)(2 * avg_degree - 1));
		for (int64_t k = 0; k < d; k++)
			c[e++] = (int32_t)(wl_rng_next(&st) % (uint64_t)n);
	}
	rp[n] = (int32_t)e;
	*row_ptr = rp;
	*cols = c;
	*n_edges = e;
	return 0;
}

static void bfs_cpu(int64_t n, const int32_t *rp, const int32_t *cols, int32_t *level,
		    int32_t *queue)
{
	for (int64_t v = 0; v < n; v++)
		level[v] = -1;
	int64_t head = 0, tail = 0;
	level[0] = 0;
	queue[tail++] = 0;
	while (head < tail) {
		int32_t v = queue[head++];
		for (int32_t e = rp[v]; e < rp[v + 1]; e++)
			if (level[cols[e]] < 0) {
				level[cols[e]] = level[v] + 1;
				queue[tail++] = cols[e];
			}
	}
}

int wl_host_bfs(struct workload *w, struct ws_host *h, FILE *log, struct sim_error *err)
{
	int64_t n, deg, seed, threads;
	/* each parameter its own message, at the line that sets it */
	int rc = workload_param_int_in(w, "nodes", 1, 1 << 26, "the bfs host", &n, err);
	rc = rc ? rc : workload_param_int_in(w, "avg_degree", 1, 64, "the bfs host", &deg, err);
	rc = rc ? rc : workload_param_int(w, "seed", &seed, err);
	rc = rc ? rc : workload_param_int_in(w, "threads", 32, 1024, "the bfs host", &threads, err);
	if (rc)
		return rc;
	int32_t *rp = NULL, *cols = NULL, *level = NULL, *want = NULL;
	int64_t ne = 0;
	if (bfs_graph(n, deg, (uint64_t)seed, &rp, &cols, &ne))
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, "bfs", "out of memory");
	level = malloc(sizeof *level * (size_t)n);
	want = malloc(sizeof *want * (size_t)n * 2);
	if (!level || !want) {
		rc = sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, "bfs", "out of memory");
		goto out;
	}
	for (int64_t v = 0; v < n; v++)
		level[v] = v ? -1 : 0;

	uint64_t d_rp, d_cols, d_level, d_changed;
	rc = ws_malloc(h, &d_rp, sizeof *rp * (uint64_t)(n + 1), err);
	rc = rc ? rc : ws_malloc(h, &d_cols, sizeof *cols * (uint64_t)ne, err);
	rc = rc ? rc : ws_malloc(h, &d_level, sizeof *level * (uint64_t)n, err);
	rc = rc ? rc : ws_malloc(h, &d_changed, sizeof(int32_t), err);
	rc = rc ? rc : ws_memcpy_h2d(h, d_rp, rp, sizeof *rp * (uint64_t)(n + 1), err);
	rc = rc ? rc : ws_memcpy_h2d(h, d_cols, cols, sizeof *cols * (uint64_t)ne, err);
	rc = rc ? rc : ws_memcpy_h2d(h, d_level, level, sizeof *level * (uint64_t)n, err);
	struct ws_dim3 grid = WS_DIM3((uint32_t)((n + threads - 1) / threads), 1, 1);
	struct ws_dim3 block = WS_DIM3((uint32_t)threads, 1, 1);
	int32_t cur = 0, changed = 1;
	while (!rc && changed) {
		changed = 0;
		rc = ws_memcpy_h2d(h, d_changed, &changed, sizeof changed, err);
		rc = rc ? rc : ws_launch(h, "bfs_step", grid, block, 0,
					  WS_ARGS(WS_PTR(d_rp), WS_PTR(d_cols), WS_PTR(d_level),
						  WS_S32(cur), WS_S32(n), WS_PTR(d_changed)),
					  err);
		rc = rc ? rc : ws_synchronize(h, err);
		rc = rc ? rc : ws_memcpy_d2h(h, &changed, d_changed, sizeof changed, err);
		cur++;
	}
	rc = rc ? rc : ws_memcpy_d2h(h, level, d_level, sizeof *level * (uint64_t)n, err);
	if (rc)
		goto out;
	bfs_cpu(n, rp, cols, want, want + n);
	int64_t reached = 0;
	for (int64_t v = 0; v < n; v++) {
		reached += want[v] >= 0;
		if (level[v] != want[v]) {
			rc = sim_error_set(err, SIM_ERR_PROGRAM, w->path, 0, 0, "level",
					   "check of level failed at index %lld: got %d, expected %d",
					   (long long)v, level[v], want[v]);
			goto out;
		}
	}
	if (log)
		fprintf(log, "bfs: %lld nodes, %lld edges, %d launches, %lld reached: levels match\n",
			(long long)n, (long long)ne, cur, (long long)reached);
out:
	free(rp);
	free(cols);
	free(level);
	free(want);
	return rc;
}
