/* SPDX-License-Identifier: MIT */
/* Concurrent streams (gpu.cta_dispatcher.concurrent_kernels = on-gpu): kernel launches are
 * queued with what they wait for (the earlier work of their stream, events, the legacy default
 * stream's rule) and run side by side when the program next needs a result: any call that
 * touches the device (cr_ready), a synchronisation or a query. With the setting off nothing is
 * queued and every launch runs to completion in its call, as before. */
#include <stdlib.h>
#include <string.h>

#include "cudart_int.h"

struct qlaunch {
	struct warpsim_module *m;
	uint32_t k;
	struct warpsim_launch l;
	unsigned char *params;      /* owned copy: CUDA takes the arguments at the launch */
	uint32_t key;               /* stream (cr_stream_key) */
	uint32_t *after;            /* earlier entries it waits for */
	uint32_t n_after;
};

struct qstream {
	uint32_t last;              /* index + 1 of the stream's last queued launch, 0: none */
	bool nonblocking;
	uint32_t *waits;            /* entries its next launch waits for (cudaStreamWaitEvent) */
	uint32_t n_waits, cap_waits;
};

/* The runtime's one queue, beside its one state (cr) and under its lock. */
static struct {
	struct qlaunch *q;
	uint32_t n, cap;
	struct qstream *s;          /* by stream key */
	uint32_t n_s;
} Q;

bool cr_queue_on(void)
{
	const char *v = cr.ws ? warpsim_config_str(cr.ws, "gpu.cta_dispatcher.concurrent_kernels") : NULL;
	return v && !strcmp(v, "on-gpu");
}

bool cr_queue_pending(void) { return Q.n > 0; }

static struct qstream *qs(uint32_t key)
{
	if (key >= Q.n_s) {
		uint32_t nn = key + 8;
		struct qstream *ns = realloc(Q.s, nn * sizeof *ns);
		if (!ns)
			return NULL;
		memset(ns + Q.n_s, 0, (nn - Q.n_s) * sizeof *ns);
		Q.s = ns;
		Q.n_s = nn;
	}
	return &Q.s[key];
}

uint32_t cr_queue_last(const void *stream)
{
	uint32_t key = cr_stream_key(stream, NULL);
	return key < Q.n_s ? Q.s[key].last : 0;
}

cudaError_t cr_queue_wait(const void *stream, uint32_t entry)
{
	struct qstream *s = qs(cr_stream_key(stream, NULL));
	if (s && s->n_waits == s->cap_waits) {
		uint32_t nc = s->cap_waits ? 2 * s->cap_waits : 4;
		uint32_t *nw = realloc(s->waits, nc * sizeof *nw);
		if (nw)
			s->waits = nw, s->cap_waits = nc;
	}
	if (!s || s->n_waits == s->cap_waits)
		return cr_fail(cudaErrorMemoryAllocation, "cudaStreamWaitEvent", "out of host memory");
	s->waits[s->n_waits++] = entry;
	return cudaSuccess;
}

static cudaError_t add_after(struct qlaunch *e, uint32_t entry_plus1)
{
	if (!entry_plus1)
		return cudaSuccess;
	uint32_t *na = realloc(e->after, (e->n_after + 1) * sizeof *na);
	if (!na)
		return cudaErrorMemoryAllocation;
	e->after = na;
	e->after[e->n_after++] = entry_plus1 - 1;
	return cudaSuccess;
}

static void entry_free(struct qlaunch *e)
{
	free(e->params);
	free(e->after);
}

/* A stream's launch waits for its stream's last one and the events waited for; the legacy
 * default stream's for the last launch of every blocking stream, and a blocking stream's for
 * the legacy stream's last (CUDA's implicit synchronisation; cudaStreamNonBlocking streams
 * take no part in it). */
cudaError_t cr_queue_launch(struct warpsim_module *m, uint32_t k, struct dim3 grid,
			    struct dim3 block, size_t shared, const void *params,
			    uint32_t param_bytes, void *stream, const char *call)
{
	bool nonblocking = false;
	uint32_t key = cr_stream_key(stream, &nonblocking);
	struct qstream *s = qs(key), *legacy = qs(0);
	if (Q.n == Q.cap) {
		uint32_t nc = Q.cap ? 2 * Q.cap : 16;
		struct qlaunch *nq = realloc(Q.q, nc * sizeof *nq);
		if (nq)
			Q.q = nq, Q.cap = nc;
	}
	if (!s || !legacy || Q.n == Q.cap)
		return cr_fail(cudaErrorMemoryAllocation, call, "out of host memory");
	s = &Q.s[key];
	legacy = &Q.s[0];
	struct qlaunch *e = &Q.q[Q.n];
	*e = (struct qlaunch){.m = m, .k = k, .key = key};
	e->params = malloc(param_bytes ? param_bytes : 1);
	cudaError_t rc = e->params ? cudaSuccess : cudaErrorMemoryAllocation;
	if (!rc && param_bytes)
		memcpy(e->params, params, param_bytes);
	e->l = (struct warpsim_launch){.grid = {grid.x, grid.y, grid.z},
				       .block = {block.x, block.y, block.z},
				       .dynamic_shared_bytes = (uint32_t)shared, .params = e->params,
				       .params_bytes = param_bytes};
	if (!rc)
		rc = add_after(e, s->last);
	for (uint32_t i = 0; !rc && i < s->n_waits; i++)
		rc = add_after(e, s->waits[i] + 1);
	if (key == 0) {
		for (uint32_t j = 1; !rc && j < Q.n_s; j++)
			if (!Q.s[j].nonblocking)
				rc = add_after(e, Q.s[j].last);
	} else if (!nonblocking && !rc) {
		rc = add_after(e, legacy->last);
	}
	if (rc) {
		entry_free(e);
		return cr_fail(cudaErrorMemoryAllocation, call, "out of host memory");
	}
	s->n_waits = 0;
	s->nonblocking = nonblocking;
	s->last = ++Q.n;
	return cudaSuccess;
}

static void queue_clear(void)
{
	for (uint32_t i = 0; i < Q.n; i++)
		entry_free(&Q.q[i]);
	Q.n = 0;
	for (uint32_t j = 0; j < Q.n_s; j++)
		Q.s[j].last = Q.s[j].n_waits = 0;
}

cudaError_t cr_queue_flush(void)
{
	if (!Q.n)
		return cr.sticky_err;
	uint32_t n = Q.n;
	struct warpsim_batch_launch *b = calloc(n, sizeof *b);
	struct warpsim_launch_result *r = calloc(n, sizeof *r);
	uint64_t *end_ps = calloc(n, sizeof *end_ps);
	if (!b || !r || !end_ps) {
		free(b), free(r), free(end_ps);
		queue_clear();
		return cr_fail(cudaErrorMemoryAllocation, "stream synchronisation", "out of host memory");
	}
	for (uint32_t i = 0; i < n; i++)
		b[i] = (struct warpsim_batch_launch){.m = Q.q[i].m, .kernel = Q.q[i].k, .launch = Q.q[i].l,
						     .after = Q.q[i].after, .n_after = Q.q[i].n_after,
						     .stream = Q.q[i].key};
	const char *first = warpsim_kernel_name(Q.q[0].m, Q.q[0].k);
	struct warpsim_error err;
	cr_run_launch_begin(first);
	int rc = warpsim_launch_batch(cr.ws, b, n, r, &err);
	cr_run_launch_end();
	for (uint32_t i = 0; !rc && i < n; i++)
		end_ps[i] = r[i].end_ps;
	/* after a failure no event of the batch completes: they keep the time of their record */
	cr_events_settle(rc ? NULL : end_ps, n);
	free(b), free(r), free(end_ps);
	queue_clear();
	cudaError_t e = cr_launch_outcome(rc, &err, first, "kernel launch", n);
	return e ? e : cr.sticky_err;
}

void cr_queue_reset(void)
{
	queue_clear();
	for (uint32_t j = 0; j < Q.n_s; j++)
		free(Q.s[j].waits);
	free(Q.s);
	free(Q.q);
	memset(&Q, 0, sizeof Q);
}
