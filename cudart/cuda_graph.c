/* SPDX-License-Identifier: MIT */
/* libcudart.so.13: CUDA graphs made by stream capture. A capture records the kernel launches,
 * cudaMemcpyAsync, cudaMemsetAsync and cudaLaunchHostFunc calls made on one stream, in order;
 * an instantiated graph replays them in that order, which is a valid order of the graph since
 * one stream's operations depend on each other in sequence. Graphs built node by node
 * (cudaGraphAdd*Node), cross-stream capture (events joining other streams) and graph updates
 * are not supported (cuda_unsupported.def). */
#include <stdlib.h>
#include <string.h>

#include "cudart_int.h"

enum op_kind { OP_KERNEL, OP_COPY, OP_MEMSET, OP_HOST };

struct op {
	enum op_kind kind;
	struct cr_func *f;            /* kernel */
	struct dim3 grid, block;
	size_t shared;                /* dynamic shared bytes */
	void *params;                 /* kernel: the parameter buffer, owned */
	uint32_t param_bytes;
	void *dst;                    /* copy, memset */
	const void *src;              /* copy: read when the graph runs, as CUDA does */
	size_t n;                     /* bytes */
	int copy_kind, value;
	void (*fn)(void *);           /* host function */
	void *user;
};

/* A graph or an executable graph. Its handle is an id that is never reused (not a pointer),
 * so a destroyed or made-up handle is refused without anything being read through it. */
struct graph {
	uint64_t id;
	bool exec;                    /* a cudaGraphExec_t */
	struct op *ops;
	size_t n_ops, cap_ops;
};

static struct {
	struct graph **live;          /* O(live graphs) lookups: programs hold a few */
	size_t n_live, cap_live;
	uint64_t next_id;
	const void *stream;           /* being captured, NULL: none */
	struct graph *into;           /* the graph it is captured into */
	bool invalid;                 /* an operation the capture cannot hold was refused */
} g;

/* Handle values: 0x6700000000000000 + id, far from any pointer or small integer. */
#define GRAPH_HANDLE_BASE 0x6700000000000000ull

static void *handle_of(const struct graph *gr)
{
	return (void *)(uintptr_t)(GRAPH_HANDLE_BASE + gr->id);
}

static struct graph *graph_get(const void *h, bool exec)
{
	for (size_t i = 0; i < g.n_live; i++)
		if (handle_of(g.live[i]) == h && g.live[i]->exec == exec)
			return g.live[i];
	return NULL;
}

static void graph_free(struct graph *gr)
{
	if (!gr)
		return;
	for (size_t i = 0; i < gr->n_ops; i++)
		free(gr->ops[i].params);
	free(gr->ops);
	free(gr);
}

static struct graph *graph_new(bool exec)
{
	if (g.n_live == g.cap_live) {
		size_t nc = g.cap_live ? 2 * g.cap_live : 16;
		struct graph **nl = realloc(g.live, nc * sizeof *nl);
		if (!nl)
			return NULL;
		g.live = nl;
		g.cap_live = nc;
	}
	struct graph *gr = calloc(1, sizeof *gr);
	if (!gr)
		return NULL;
	gr->id = ++g.next_id;
	gr->exec = exec;
	g.live[g.n_live++] = gr;
	return gr;
}

static void graph_drop(struct graph *gr)
{
	for (size_t i = 0; i < g.n_live; i++)
		if (g.live[i] == gr) {
			g.live[i] = g.live[--g.n_live];
			break;
		}
	graph_free(gr);
}

void cr_graph_reset(void)
{
	for (size_t i = 0; i < g.n_live; i++)
		graph_free(g.live[i]);
	g.n_live = 0;
	g.stream = NULL;
	g.into = NULL;
	g.invalid = false;
}

bool cr_capturing(const void *stream)
{
	return g.stream && stream == g.stream;
}

void cr_capture_stream_gone(const void *stream)
{
	if (!cr_capturing(stream))
		return;
	graph_drop(g.into);
	g.stream = NULL;
	g.into = NULL;
}

/* A refused operation on the stream spoils the capture, as in CUDA (cr_stream_check). */
void cr_capture_invalidate(void)
{
	g.invalid = true;
}

static cudaError_t op_add(const struct op *o)
{
	struct graph *gr = g.into;
	if (gr->n_ops == gr->cap_ops) {
		size_t nc = gr->cap_ops ? 2 * gr->cap_ops : 16;
		struct op *no = realloc(gr->ops, nc * sizeof *no);
		if (!no)
			return cr_fail(cudaErrorMemoryAllocation, "stream capture", "out of host memory");
		gr->ops = no;
		gr->cap_ops = nc;
	}
	gr->ops[gr->n_ops++] = *o;
	return cudaSuccess;
}

cudaError_t cr_capture_kernel(struct cr_func *f, struct dim3 grid, struct dim3 block,
			      size_t shared, const void *params, uint32_t param_bytes,
			      const char *call)
{
	struct op o = {.kind = OP_KERNEL, .f = f, .grid = grid, .block = block, .shared = shared,
		       .param_bytes = param_bytes, .params = malloc(param_bytes ? param_bytes : 1)};
	if (!o.params)
		return cr_fail(cudaErrorMemoryAllocation, call, "out of host memory");
	memcpy(o.params, params, param_bytes);
	cudaError_t e = op_add(&o);
	if (e)
		free(o.params);
	return e;
}

cudaError_t cr_capture_copy(void *dst, const void *src, size_t n, int kind)
{
	return op_add(&(struct op){.kind = OP_COPY, .dst = dst, .src = src, .n = n,
				   .copy_kind = kind});
}

cudaError_t cr_capture_memset(void *p, int value, size_t n)
{
	return op_add(&(struct op){.kind = OP_MEMSET, .dst = p, .value = value, .n = n});
}

cudaError_t cr_capture_host(void (*fn)(void *), void *user)
{
	return op_add(&(struct op){.kind = OP_HOST, .fn = fn, .user = user});
}

/* ---- capture ------------------------------------------------------------------------- */

cudaError_t cudaStreamBeginCapture(void *stream, int mode)
{
	const char *call = "cudaStreamBeginCapture";
	cr_lock();
	cudaError_t e = g.stream ? cr_fail(cudaErrorIllegalState, call, "a stream is being "
					   "captured already: warpsim captures one at a time") :
		cr_stream_check(stream, call);
	if (!e && (uintptr_t)stream <= 2)
		e = cr_fail(cudaErrorStreamCaptureUnsupported, call,
			    "a default stream cannot be captured (create a stream)");
	else if (!e && (mode < 0 || mode > 2)) /* Global, ThreadLocal, Relaxed */
		e = cr_fail(cudaErrorInvalidValue, call, "capture mode %d (0..2)", mode);
	if (!e && !(g.into = graph_new(false)))
		e = cr_fail(cudaErrorMemoryAllocation, call, "out of host memory");
	if (!e) {
		g.stream = stream;
		g.invalid = false;
	}
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaStreamEndCapture(void *stream, void **graph)
{
	const char *call = "cudaStreamEndCapture";
	cr_lock();
	cudaError_t e = cudaSuccess;
	if (!graph)
		e = cr_fail(cudaErrorInvalidValue, call, "NULL result pointer");
	else if (!cr_capturing(stream))
		e = cr_fail(cudaErrorIllegalState, call, "the stream is not being captured");
	if (!e) {
		struct graph *gr = g.into;
		g.stream = NULL;
		g.into = NULL;
		if (g.invalid) {
			graph_drop(gr);
			*graph = NULL;
			e = cr_fail(cudaErrorStreamCaptureInvalidated, call, "an operation on the "
				    "stream was refused during the capture");
		} else {
			*graph = handle_of(gr);
		}
	}
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaStreamIsCapturing(void *stream, int *status)
{
	cr_lock();
	cudaError_t e = cudaSuccess;
	if (!status)
		e = cr_fail(cudaErrorInvalidValue, "cudaStreamIsCapturing", "NULL result pointer");
	else if (cr_capturing(stream))
		*status = g.invalid ? 2 : 1; /* cudaStreamCaptureStatusInvalidated, Active */
	else if (!(e = cr_stream_check(stream, "cudaStreamIsCapturing")))
		*status = 0;                 /* cudaStreamCaptureStatusNone */
	cr_unlock();
	return cr_ret(e);
}

/* ---- graphs ---------------------------------------------------------------------------- */

cudaError_t cudaGraphCreate(void **graph, unsigned flags)
{
	const char *call = "cudaGraphCreate";
	if (!graph || flags)
		return cr_fail(cudaErrorInvalidValue, call, graph ? "flags must be 0" :
			       "NULL result pointer");
	cr_lock();
	struct graph *gr = graph_new(false);
	cudaError_t e = gr ? cudaSuccess : cr_fail(cudaErrorMemoryAllocation, call, "out of host memory");
	if (gr)
		*graph = handle_of(gr);
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaGraphDestroy(void *graph)
{
	cr_lock();
	struct graph *gr = graph_get(graph, false);
	cudaError_t e = cudaSuccess;
	if (!gr || gr == g.into)
		e = cr_fail(cudaErrorInvalidValue, "cudaGraphDestroy", "%p is no graph (or is one "
			    "being captured)", graph);
	else
		graph_drop(gr);
	cr_unlock();
	return cr_ret(e);
}

static cudaError_t instantiate(void **exec, void *graph, unsigned long long flags,
			       const char *call)
{
	if (!exec)
		return cr_fail(cudaErrorInvalidValue, call, "NULL result pointer");
	/* AutoFreeOnLaunch (1), Upload (2), UseNodePriority (8) change nothing here; a graph
	 * launched from the device (4) would need device-side launches */
	if (flags & ~11ull)
		return cr_fail(cudaErrorNotSupported, call, "flags 0x%llx (1, 2 and 8 work)", flags);
	cr_lock();
	cudaError_t e = cudaSuccess;
	struct graph *gr = graph_get(graph, false), *x = NULL;
	if (!gr || gr == g.into)
		e = cr_fail(cudaErrorInvalidValue, call, "%p is no graph (or is one being captured)",
			    graph);
	else if (!(x = graph_new(true)))
		e = cr_fail(cudaErrorMemoryAllocation, call, "out of host memory");
	/* the executable graph is a copy: the graph may change or die after this */
	if (!e && gr->n_ops && !(x->ops = calloc(gr->n_ops, sizeof *x->ops)))
		e = cr_fail(cudaErrorMemoryAllocation, call, "out of host memory");
	for (size_t i = 0; !e && i < gr->n_ops; i++) {
		x->ops[i] = gr->ops[i];
		x->ops[i].params = NULL;
		x->n_ops = x->cap_ops = i + 1;
		if (gr->ops[i].kind == OP_KERNEL) {
			uint32_t b = gr->ops[i].param_bytes;
			if (!(x->ops[i].params = malloc(b ? b : 1)))
				e = cr_fail(cudaErrorMemoryAllocation, call, "out of host memory");
			else
				memcpy(x->ops[i].params, gr->ops[i].params, b);
		}
	}
	if (e && x)
		graph_drop(x);
	else if (!e)
		*exec = handle_of(x);
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaGraphInstantiate(void **exec, void *graph, unsigned long long flags)
{
	return instantiate(exec, graph, flags, "cudaGraphInstantiate");
}

cudaError_t cudaGraphInstantiateWithFlags(void **exec, void *graph, unsigned long long flags)
{
	return instantiate(exec, graph, flags, "cudaGraphInstantiateWithFlags");
}

cudaError_t cudaGraphExecDestroy(void *exec)
{
	cr_lock();
	struct graph *x = graph_get(exec, true);
	cudaError_t e = x ? cudaSuccess :
		cr_fail(cudaErrorInvalidValue, "cudaGraphExecDestroy", "%p is no executable graph",
			exec);
	if (x)
		graph_drop(x);
	cr_unlock();
	return cr_ret(e);
}

/* The operations in capture order, each complete before the next; the first error stops it.
 * A host function runs outside the runtime's lock, as cudaLaunchHostFunc's does. */
cudaError_t cudaGraphLaunch(void *exec, void *stream)
{
	const char *call = "cudaGraphLaunch";
	cr_lock();
	struct graph *x = graph_get(exec, true);
	cudaError_t e = x ? cr_stream_check(stream, call) :
		cr_fail(cudaErrorInvalidValue, call, "%p is no executable graph", exec);
	if (!e)
		e = cr_ready();
	for (size_t i = 0; !e && i < x->n_ops; i++) {
		const struct op *o = &x->ops[i];
		switch (o->kind) {
		case OP_KERNEL:
			e = cr_launch_params(o->f, o->grid, o->block, o->shared, o->params,
					     o->param_bytes);
			break;
		case OP_COPY:
			e = cudaMemcpy(o->dst, o->src, o->n, o->copy_kind);
			break;
		case OP_MEMSET:
			e = cudaMemset(o->dst, o->value, o->n);
			break;
		case OP_HOST:
			if ((e = cr.sticky_err))
				break;
			cr_unlock();
			o->fn(o->user);
			cr_lock();
			/* the function may have destroyed the graph (CUDA forbids it): stop */
			if (graph_get(exec, true) != x)
				e = cr_fail(cudaErrorIllegalState, call, "the graph was destroyed by "
					    "its own host function");
			break;
		}
	}
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaGraphUpload(void *exec, void *stream)
{
	cr_lock();
	cudaError_t e = graph_get(exec, true) ? cr_stream_check(stream, "cudaGraphUpload") :
		cr_fail(cudaErrorInvalidValue, "cudaGraphUpload", "%p is no executable graph", exec);
	cr_unlock();
	return cr_ret(e);
}

/* the per-thread default stream's entry points: every stream here behaves alike */
cudaError_t cudaStreamBeginCapture_ptsz(void *s, int mode)
{ return cudaStreamBeginCapture(s, mode); }
cudaError_t cudaStreamEndCapture_ptsz(void *s, void **graph)
{ return cudaStreamEndCapture(s, graph); }
cudaError_t cudaStreamIsCapturing_ptsz(void *s, int *status)
{ return cudaStreamIsCapturing(s, status); }
cudaError_t cudaGraphLaunch_ptsz(void *exec, void *s)
{ return cudaGraphLaunch(exec, s); }
cudaError_t cudaGraphUpload_ptsz(void *exec, void *s)
{ return cudaGraphUpload(exec, s); }
