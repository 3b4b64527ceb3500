/* SPDX-License-Identifier: MIT */
/* libcudart.so.13: events and streams, and the table of the handles the runtime hands out.
 * A handle is a slot index and that slot's generation, never a pointer: a destroyed handle, one
 * from before cudaDeviceReset or a made-up one is refused with cudaErrorInvalidResourceHandle
 * without anything being read through it, and a reused slot cannot revive an old handle. */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart_int.h"

/* handle = generation << 32 | slot << 2 | kind. Generations start at 1, so every live handle
 * is at least 2^32: NULL, cudaStreamLegacy (1) and cudaStreamPerThread (2) are never one. */
#define KIND_BITS 2u
#define MAX_SLOTS (1u << 30)
_Static_assert(sizeof(void *) == 8, "handles are 64-bit values");

enum { KIND_FREE = 0, KIND_EVENT = 1, KIND_STREAM = 2 };

enum { EVENT_BLOCKING_SYNC = 1, EVENT_DISABLE_TIMING = 2, EVENT_INTERPROCESS = 4 };
enum { STREAM_NON_BLOCKING = 1 };

struct cr_slot {
	uint32_t gen;       /* bumped at each free: handles of earlier lives no longer match */
	uint8_t kind;       /* KIND_*, KIND_FREE when on the free list */
	uint32_t next_free; /* index + 1 of the next free slot, 0: none */
	unsigned flags;     /* as created (cudaEvent*, cudaStream* flags) */
	uint64_t time_ps;   /* events: simulated time when last recorded */
	bool recorded;      /* events: recorded at least once */
	uint32_t pending;   /* events: index + 1 of the queued launch it follows (cuda_streams.c);
	                       its time is that launch's end, known when the queue has run */
};

static void *handle_of(uint32_t slot)
{
	const struct cr_slot *s = &cr.slots[slot];
	return (void *)(uintptr_t)(((uint64_t)s->gen << 32) | ((uint64_t)slot << KIND_BITS) | s->kind);
}

/* The live slot of kind that h names, or NULL: h is only decoded, never dereferenced. */
static struct cr_slot *slot_get(const void *h, int kind)
{
	uint64_t v = (uint64_t)(uintptr_t)h;
	uint64_t slot = (v & 0xffffffffu) >> KIND_BITS;
	if ((v & ((1u << KIND_BITS) - 1)) != (uint64_t)kind || slot >= cr.n_slots)
		return NULL;
	struct cr_slot *s = &cr.slots[slot];
	return s->kind == kind && s->gen == (uint32_t)(v >> 32) ? s : NULL;
}

/* A fresh slot of kind; its handle in *h. The table grows by doubling (amortised O(1)). */
static cudaError_t slot_new(int kind, unsigned flags, void **h, const char *call)
{
	if (!cr.free_head) {
		if (cr.n_slots == cr.cap_slots) {
			if (cr.cap_slots >= MAX_SLOTS)
				return cr_fail(cudaErrorMemoryAllocation, call,
					       "%u events and streams are live, the most the runtime "
					       "can tell apart", MAX_SLOTS);
			uint32_t nc = cr.cap_slots ? 2 * cr.cap_slots : 64;
			struct cr_slot *ns = realloc(cr.slots, nc * sizeof *ns);
			if (!ns)
				return cr_fail(cudaErrorMemoryAllocation, call, "out of host memory");
			cr.slots = ns;
			cr.cap_slots = nc;
		}
		cr.slots[cr.n_slots] = (struct cr_slot){.gen = 1};
		cr.free_head = ++cr.n_slots;
	}
	uint32_t i = cr.free_head - 1;
	struct cr_slot *s = &cr.slots[i];
	cr.free_head = s->next_free;
	*s = (struct cr_slot){.gen = s->gen, .kind = (uint8_t)kind, .flags = flags};
	*h = handle_of(i);
	return cudaSuccess;
}

static void slot_free(struct cr_slot *s)
{
	s->kind = KIND_FREE;
	if (!++s->gen) /* after 2^32 lives of one slot: 0 is kept out so no handle is below 2^32 */
		s->gen = 1;
	s->next_free = cr.free_head;
	cr.free_head = (uint32_t)(s - cr.slots) + 1;
}

void cr_handles_reset(void)
{
	for (uint32_t i = 0; i < cr.n_slots; i++)
		if (cr.slots[i].kind != KIND_FREE)
			slot_free(&cr.slots[i]);
}

static cudaError_t bad_handle(const char *call, const char *what, const void *h)
{
	return cr_fail(cudaErrorInvalidResourceHandle, call,
		       "%s %p is no live %s of this runtime (destroyed, created before "
		       "cudaDeviceReset, or never created)", what, h, what);
}

cudaError_t cr_stream_check(const void *s, const char *call)
{
	/* 0: the legacy default stream; 1, 2: cudaStreamLegacy, cudaStreamPerThread */
	if (cr_capturing(s)) {
		cr_capture_invalidate();
		return cr_fail(cudaErrorStreamCaptureUnsupported, call, "the stream is being captured "
			       "into a graph: warpsim captures kernel launches, cudaMemcpyAsync, "
			       "cudaMemsetAsync and cudaLaunchHostFunc only");
	}
	if ((uintptr_t)s <= 2 || slot_get(s, KIND_STREAM))
		return cudaSuccess;
	return bad_handle(call, "stream", s);
}

uint32_t cr_stream_key(const void *stream, bool *nonblocking)
{
	uintptr_t v = (uintptr_t)stream;
	if (nonblocking)
		*nonblocking = false;
	if (v <= 2)
		return v == 2 ? 1 : 0;
	struct cr_slot *s = slot_get(stream, KIND_STREAM);
	assert(s);
	if (nonblocking)
		*nonblocking = (s->flags & STREAM_NON_BLOCKING) != 0;
	return (uint32_t)(s - cr.slots) + 2;
}

void cr_events_settle(const uint64_t *end_ps, uint32_t n)
{
	(void)n; /* read only by the assert: unused under NDEBUG */
	for (uint32_t i = 0; i < cr.n_slots; i++) {
		struct cr_slot *s = &cr.slots[i];
		if (s->kind != KIND_EVENT || !s->pending)
			continue;
		assert(s->pending <= n);
		if (end_ps)
			s->time_ps = end_ps[s->pending - 1];
		s->pending = 0;
	}
}

/* Run the queued launches when the event (or stream) still waits for one: the answer of a
 * synchronisation or query is then known. */
static cudaError_t settle_event(const struct cr_slot *s)
{
	return s && s->pending ? cr_queue_flush() : cudaSuccess;
}

/* ---- events ------------------------------------------------------------------------- */

cudaError_t cudaEventCreateWithFlags(void **ev, unsigned flags)
{
	const char *call = "cudaEventCreateWithFlags";
	if (!ev)
		return cr_fail(cudaErrorInvalidValue, call, "NULL event pointer");
	if (flags & ~(unsigned)(EVENT_BLOCKING_SYNC | EVENT_DISABLE_TIMING | EVENT_INTERPROCESS))
		return cr_fail(cudaErrorInvalidValue, call, "flags 0x%x: only cudaEventBlockingSync, "
			       "cudaEventDisableTiming and cudaEventInterprocess (0x7) exist", flags);
	if ((flags & EVENT_INTERPROCESS) && !(flags & EVENT_DISABLE_TIMING))
		return cr_fail(cudaErrorInvalidValue, call,
			       "cudaEventInterprocess needs cudaEventDisableTiming");
	cr_lock();
	cudaError_t e = slot_new(KIND_EVENT, flags, ev, call);
	cr_unlock();
	return e;
}

cudaError_t cudaEventCreate(void **ev)
{
	return cudaEventCreateWithFlags(ev, 0);
}

cudaError_t cudaEventDestroy(void *ev)
{
	cr_lock();
	struct cr_slot *s = slot_get(ev, KIND_EVENT);
	cudaError_t e = s ? cudaSuccess : bad_handle("cudaEventDestroy", "event", ev);
	if (s)
		slot_free(s);
	cr_unlock();
	return e;
}

cudaError_t cudaEventRecordWithFlags(void *ev, void *stream, unsigned flags)
{
	const char *call = "cudaEventRecord";
	cr_lock();
	struct cr_slot *s = slot_get(ev, KIND_EVENT);
	cudaError_t e = !s ? bad_handle(call, "event", ev) : cr_stream_check(stream, call);
	if (!e && flags > 1) /* cudaEventRecordDefault, cudaEventRecordExternal */
		e = cr_fail(cudaErrorInvalidValue, call, "flags 0x%x (0 or 1)", flags);
	if (!e)
		s->pending = 0;
	/* with launches queued, an event in a stream of the program's follows that stream's
	 * last one (or is reached now); in the legacy stream it follows everything, so the queue
	 * runs first (cr_ready) */
	if (!e && cr_queue_pending() && cr_stream_key(stream, NULL) != 0 && !cr.sticky_err) {
		s->pending = cr_queue_last(stream);
		s->time_ps = warpsim_now_ps(cr.ws);
		s->recorded = true;
	} else if (!e && !(e = cr_ready())) {
		s->time_ps = warpsim_now_ps(cr.ws);
		s->recorded = true;
	}
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaEventRecord(void *ev, void *stream)
{
	return cudaEventRecordWithFlags(ev, stream, 0);
}

/* Every operation has completed when its call returns: a live event is always reached. */
cudaError_t cudaEventSynchronize(void *ev)
{
	cr_lock();
	struct cr_slot *s = slot_get(ev, KIND_EVENT);
	cudaError_t e = s ? settle_event(s) : bad_handle("cudaEventSynchronize", "event", ev);
	if (!e)
		e = cr.sticky_err;
	cr_unlock();
	return cr_ret(e);
}

/* An event behind queued launches was not reached when asked: cudaErrorNotReady (no error,
 * not recorded as the last one), and the queue runs, so it is reached at the next query. */
cudaError_t cudaEventQuery(void *ev)
{
	cr_lock();
	struct cr_slot *s = slot_get(ev, KIND_EVENT);
	bool waiting = s && s->pending;
	cudaError_t e = s ? settle_event(s) : bad_handle("cudaEventQuery", "event", ev);
	if (!e)
		e = cr.sticky_err;
	cr_unlock();
	return !e && waiting ? cudaErrorNotReady : cr_ret(e);
}

cudaError_t cudaEventElapsedTime(float *ms, void *start, void *end)
{
	const char *call = "cudaEventElapsedTime";
	cr_lock();
	struct cr_slot *a = slot_get(start, KIND_EVENT), *b = slot_get(end, KIND_EVENT);
	cudaError_t e = cudaSuccess;
	if (!a || !b)
		e = bad_handle(call, "event", a ? end : start);
	else if ((e = settle_event(a)) || (e = settle_event(b)))
		;
	else if (!ms)
		e = cr_fail(cudaErrorInvalidValue, call, "NULL result pointer");
	else if ((a->flags | b->flags) & EVENT_DISABLE_TIMING)
		e = cr_fail(cudaErrorInvalidResourceHandle, call,
			    "an event created with cudaEventDisableTiming has no time");
	else if (!a->recorded || !b->recorded)
		e = cr_fail(cudaErrorInvalidResourceHandle, call, "the %s event was never recorded",
			    a->recorded ? "end" : "start");
	else
		*ms = (float)(((double)b->time_ps - (double)a->time_ps) * 1e-9);
	cr_unlock();
	return cr_ret(e);
}

/* ---- streams ------------------------------------------------------------------------ */

cudaError_t cudaStreamCreateWithFlags(void **s, unsigned flags)
{
	const char *call = "cudaStreamCreateWithFlags";
	if (!s)
		return cr_fail(cudaErrorInvalidValue, call, "NULL stream pointer");
	if (flags & ~(unsigned)STREAM_NON_BLOCKING)
		return cr_fail(cudaErrorInvalidValue, call, "flags 0x%x: only cudaStreamNonBlocking "
			       "(0x1) exists", flags);
	cr_lock();
	cudaError_t e = slot_new(KIND_STREAM, flags, s, call);
	cr_unlock();
	return e;
}

cudaError_t cudaStreamCreate(void **s)
{
	return cudaStreamCreateWithFlags(s, 0);
}

/* priority: CUDA clamps it to the device's range, which here is the single priority 0 */
cudaError_t cudaStreamCreateWithPriority(void **s, unsigned flags, int priority)
{
	(void)priority;
	return cudaStreamCreateWithFlags(s, flags);
}

cudaError_t cudaStreamDestroy(void *s)
{
	cr_lock();
	struct cr_slot *sl = slot_get(s, KIND_STREAM);
	/* the default streams (0, 1, 2) are no stream the program created */
	cudaError_t e = sl ? cudaSuccess : bad_handle("cudaStreamDestroy", "stream", s);
	if (sl) {
		cr_capture_stream_gone(s);
		cr_queue_flush(); /* its work completes, as CUDA's does after the destroy */
		slot_free(sl);
	}
	cr_unlock();
	return e;
}

cudaError_t cudaStreamSynchronize(void *s)
{
	cr_lock();
	cudaError_t e = cr_stream_check(s, "cudaStreamSynchronize");
	if (!e)
		e = cr_queue_pending() ? cr_queue_flush() : cr.sticky_err;
	cr_unlock();
	return cr_ret(e);
}

/* As cudaEventQuery: a stream with queued launches is not done when asked; the queue runs. */
cudaError_t cudaStreamQuery(void *s)
{
	cr_lock();
	cudaError_t e = cr_stream_check(s, "cudaStreamQuery");
	bool waiting = !e && cr_queue_pending() &&
		       (cr_queue_last(s) || cr_stream_key(s, NULL) == 0);
	if (!e)
		e = waiting ? cr_queue_flush() : cr.sticky_err;
	cr_unlock();
	return !e && waiting ? cudaErrorNotReady : cr_ret(e);
}

cudaError_t cudaStreamWaitEvent(void *s, void *ev, unsigned flags)
{
	const char *call = "cudaStreamWaitEvent";
	cr_lock();
	cudaError_t e = cr_stream_check(s, call);
	if (!e && !slot_get(ev, KIND_EVENT))
		e = bad_handle(call, "event", ev);
	if (!e && flags > 1) /* cudaEventWaitDefault, cudaEventWaitExternal */
		e = cr_fail(cudaErrorInvalidValue, call, "flags 0x%x (0 or 1)", flags);
	if (!e)
		e = cr.sticky_err;
	struct cr_slot *evs = e ? NULL : slot_get(ev, KIND_EVENT);
	if (evs && evs->pending)
		e = cr_queue_wait(s, evs->pending - 1);
	cr_unlock();
	return cr_ret(e);
}

cudaError_t cudaStreamGetFlags(void *s, unsigned *flags)
{
	cr_lock();
	cudaError_t e = cr_stream_check(s, "cudaStreamGetFlags");
	if (!e && !flags)
		e = cr_fail(cudaErrorInvalidValue, "cudaStreamGetFlags", "NULL flags pointer");
	if (!e)
		*flags = (uintptr_t)s <= 2 ? 0 : slot_get(s, KIND_STREAM)->flags;
	cr_unlock();
	return cr_ret(e);
}
