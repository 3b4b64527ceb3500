/* SPDX-License-Identifier: MIT */
/* Links: bounded FIFOs with a latency between two components. A per-link delivery event wakes
 * the receiver when the oldest unannounced message becomes receivable; receiving wakes a
 * sender that was refused, so back-pressure never loses a message or a wake-up. */
#include "sim_internal.h"

#include <stdlib.h>
#include <string.h>

static inline uint32_t ring_index(const struct sim_link *l, uint64_t msg_no)
{
	/* msg_no counts sends; the head holds message number `received`. */
	uint64_t i = l->head + (msg_no - l->received);
	return (uint32_t)(i >= l->capacity ? i - l->capacity : i);
}

static void link_deliver_fire(struct sim *sim, struct sim_event *ev)
{
	struct sim_link *l = SIM_CONTAINER_OF(ev, struct sim_link, deliver_ev);
	uint64_t now = sim->now_ps;
	if (l->announced < l->received)
		l->announced = l->received;
	while (l->announced < l->sent && l->ready_ps[ring_index(l, l->announced)] <= now)
		l->announced++;
	sim_component_wake(l->receiver);
	if (l->announced < l->sent)
		sim_event_schedule(sim, ev, l->ready_ps[ring_index(l, l->announced)]);
}

int sim_link_init(struct sim_link *l, const char *name, struct sim_component *sender,
		  struct sim_component *receiver, uint64_t latency_ps, uint32_t capacity,
		  struct sim_error *err)
{
	memset(l, 0, sizeof *l);
	sim_event_init(&l->deliver_ev, SIM_PRIO_DELIVERY, link_deliver_fire);
	SIM_ASSERT(receiver && receiver->sim); /* the receiver must be added first */
	if (capacity == 0)
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
				     "link %s: capacity must be at least 1 message", name ? name : "?");
	l->name = name;
	l->sender = sender;
	l->receiver = receiver;
	l->latency_ps = latency_ps;
	l->capacity = capacity;
	l->msgs = calloc(capacity, sizeof *l->msgs);
	l->ready_ps = calloc(capacity, sizeof *l->ready_ps);
	if (!l->msgs || !l->ready_ps) {
		sim_link_fini(l);
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL,
				     "link %s: out of memory for %u slots", name ? name : "?", capacity);
	}
	return sim_event_reserve(receiver->sim, 1, err);
}

void sim_link_fini(struct sim_link *l)
{
	free(l->msgs);
	free(l->ready_ps);
	l->msgs = NULL;
	l->ready_ps = NULL;
	l->count = 0;
}

bool sim_link_try_send(struct sim *sim, struct sim_link *l, void *msg)
{
	if (l->count >= l->capacity) {
		l->sender_blocked = true;
		l->refused++;
		return false;
	}
	uint32_t tail = l->head + l->count;
	if (tail >= l->capacity)
		tail -= l->capacity;
	uint64_t ready = sim->now_ps + l->latency_ps;
	l->msgs[tail] = msg;
	l->ready_ps[tail] = ready;
	l->count++;
	l->sent++;
	/* Not queued means every earlier message was announced: this one is the oldest unannounced. */
	if (!sim_event_queued(&l->deliver_ev))
		sim_event_schedule(sim, &l->deliver_ev, ready);
	return true;
}

void *sim_link_peek(const struct sim *sim, const struct sim_link *l)
{
	if (l->count == 0 || l->ready_ps[l->head] > sim->now_ps)
		return NULL;
	return l->msgs[l->head];
}

void *sim_link_recv(struct sim *sim, struct sim_link *l)
{
	if (l->count == 0 || l->ready_ps[l->head] > sim->now_ps)
		return NULL;
	void *msg = l->msgs[l->head];
	l->head = l->head + 1 == l->capacity ? 0 : l->head + 1;
	l->count--;
	l->received++;
	if (l->sender_blocked) {
		l->sender_blocked = false;
		if (l->sender)
			sim_component_wake(l->sender);
	}
	return msg;
}
