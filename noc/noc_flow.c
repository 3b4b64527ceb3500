/* SPDX-License-Identifier: MIT */
/* Flow-level NoC: each packet is a fluid flow over its route's links (plus the node's injection
 * and ejection channels) with max-min fair rates, recomputed only when the set of flows changes. */
#include "noc_impl.h"

#include <stdlib.h>
#include <string.h>

/* Latency of a packet alone: it starts the cycle after it is accepted, sends size/bandwidth
 * cycles, then its last byte needs inject + R*(rc+va+sa+st) + sum(link) + eject cycles, which
 * is the cycle model's zero-load figure (5R + 2 + L - 1 with the default pipeline). */

struct flow_pkt {
	void *payload;
	int32_t src, dst;
	uint8_t cls, active;
	double left_bytes, rate;      /* bytes still to send, bytes/cycle */
	uint32_t bytes;
	uint64_t enq_cycle, done_cycle, arrive_cycle;
	uint32_t next;                /* free list / ejection list */
	uint16_t n_res;               /* resources crossed: injection channel, links, ejection */
};

struct noc_flow {
	struct noc_base b;
	int n_nets, n_res;            /* resources: per net, links then inject then eject channels */
	double *cap;                  /* [n_res] bytes/cycle */
	double *left;                 /* scratch [n_res] */
	uint32_t *users;              /* scratch [n_res] unfrozen flows */
	struct flow_pkt *pkt;
	uint32_t n_pkt, free_head;
	uint32_t *active;             /* [n_pkt] indices of transmitting flows */
	uint32_t n_active;
	uint32_t *ejq;                /* [n_nodes * classes] head of the arrival-ordered list */
	uint32_t *src_count;          /* [n_nodes * classes] flows not yet sent whole */
	bool dirty;                   /* flow set changed: recompute rates */
	uint64_t outstanding, injected, ejected, bytes_ejected, recomputes;
	struct stat_avg lat_queue, lat_net, lat_total;
	uint32_t *hops_prop;          /* [pairs] fixed part of the latency, cycles */
	int32_t *res;                 /* [n_pkt * stride]: each packet's resources */
	int stride;                   /* longest route + 2 */
	/* recompute scratch, [n_res] each */
	uint8_t *mark;
	uint32_t *touch, *start, *fill, *count;
	uint32_t *heap, *hpos;        /* min-heap of resources by fair share left/users */
	uint32_t *list;               /* [n_pkt * stride] flows per resource (CSR) */
};

#define FLOW_NONE UINT32_MAX

static int res_count(const struct noc_flow *n, const struct flow_pkt *p, int32_t *res)
{
	const struct topo *t = n->b.topo;
	int per_net = t->n_links + 2 * t->n_nodes;
	int base = (n->n_nets == 2 ? p->cls : 0) * per_net;
	int len = topo_route_len(t, p->src, p->dst), k = 0;
	const int32_t *l = topo_route_links(t, p->src, p->dst);
	res[k++] = base + t->n_links + p->src;
	for (int i = 0; i < len; i++)
		res[k++] = base + l[i];
	res[k++] = base + t->n_links + t->n_nodes + p->dst;
	return k;
}

static inline double share_of(const struct noc_flow *n, uint32_t r) { return n->left[r] / n->users[r]; }

static inline void heap_swap(struct noc_flow *n, uint32_t i, uint32_t j)
{
	uint32_t a = n->heap[i], b = n->heap[j];
	n->heap[i] = b;
	n->heap[j] = a;
	n->hpos[b] = i;
	n->hpos[a] = j;
}

/* Ties break on resource number so the order is deterministic. */
static inline bool heap_less(const struct noc_flow *n, uint32_t a, uint32_t b)
{
	double x = share_of(n, a), y = share_of(n, b);
	return x < y || (x == y && a < b);
}

static void heap_up(struct noc_flow *n, uint32_t i)
{
	while (i && heap_less(n, n->heap[i], n->heap[(i - 1) / 2])) {
		heap_swap(n, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
}

static void heap_down(struct noc_flow *n, uint32_t hn, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, m = i;
		if (l < hn && heap_less(n, n->heap[l], n->heap[m]))
			m = l;
		if (l + 1 < hn && heap_less(n, n->heap[l + 1], n->heap[m]))
			m = l + 1;
		if (m == i)
			return;
		heap_swap(n, i, m);
		i = m;
	}
}

static void heap_remove(struct noc_flow *n, uint32_t *hn, uint32_t r)
{
	uint32_t i = n->hpos[r];
	(*hn)--;
	if (i == *hn)
		return;
	/* The last element fills the hole and may need to move either way. */
	uint32_t moved = n->heap[*hn];
	n->heap[i] = moved;
	n->hpos[moved] = i;
	heap_up(n, i);
	heap_down(n, *hn, n->hpos[moved]);
}

/* Progressive filling (max-min fairness) over the flows that have started: raise every
 * unfrozen rate together; the resources whose fair share is the smallest saturate first and
 * freeze the flows crossing them (all resources tied at that share in the same round, so
 * rounds = distinct share levels). O(rounds * touched resources + flow hops). Flows not
 * started yet get rate 0. */
static void recompute_rates(struct noc_flow *n)
{
	uint32_t n_touch = 0, started = 0;
	for (uint32_t i = 0; i < n->n_active; i++) {
		struct flow_pkt *p = &n->pkt[n->active[i]];
		p->rate = p->active ? -1 : 0;
		if (!p->active)
			continue;
		started++;
		const int32_t *res = &n->res[(size_t)n->active[i] * (size_t)n->stride];
		for (int j = 0; j < p->n_res; j++) {
			int32_t r = res[j];
			if (!n->mark[r]) {
				n->mark[r] = 1;
				n->touch[n_touch++] = (uint32_t)r;
				n->count[r] = 0;
				n->left[r] = n->cap[r];
			}
			n->count[r]++;
		}
	}
	uint32_t pos = 0;
	for (uint32_t k = 0; k < n_touch; k++) {
		uint32_t r = n->touch[k];
		n->start[r] = n->fill[r] = pos;
		n->users[r] = n->count[r];
		pos += n->count[r];
	}
	for (uint32_t i = 0; i < n->n_active; i++) {
		struct flow_pkt *p = &n->pkt[n->active[i]];
		if (!p->active)
			continue;
		const int32_t *res = &n->res[(size_t)n->active[i] * (size_t)n->stride];
		for (int j = 0; j < p->n_res; j++)
			n->list[n->fill[res[j]]++] = n->active[i];
	}
	/* Heap of resources by share; freezing a flow at the minimum share s never lowers
	 * another resource's share (left - s)/(users - 1) >= left/users when left/users >= s,
	 * so keys only grow: sift down. */
	uint32_t hn = 0;
	for (uint32_t k = 0; k < n_touch; k++) {
		uint32_t r = n->touch[k];
		n->heap[hn] = r;
		n->hpos[r] = hn++;
		heap_up(n, n->hpos[r]);
	}
	while (hn) {
		uint32_t top = n->heap[0];
		double share = n->left[top] / n->users[top];
		double thr = share * (1 + 1e-9);
		while (hn && n->left[n->heap[0]] / n->users[n->heap[0]] <= thr) {
			uint32_t r = n->heap[0];
			for (uint32_t e = n->start[r]; e < n->start[r] + n->count[r]; e++) {
				struct flow_pkt *p = &n->pkt[n->list[e]];
				if (p->rate >= 0)
					continue;
				p->rate = share;
				const int32_t *res = &n->res[(size_t)n->list[e] * (size_t)n->stride];
				for (int j = 0; j < p->n_res; j++) {
					uint32_t r2 = (uint32_t)res[j];
					n->left[r2] -= share;
					if (--n->users[r2] == 0)
						heap_remove(n, &hn, r2);
					else
						heap_down(n, hn, n->hpos[r2]);
				}
			}
		}
	}
	(void)started;
	for (uint32_t k = 0; k < n_touch; k++)
		n->mark[n->touch[k]] = 0;
	n->recomputes++;
	n->dirty = false;
}

/* Sent whole in cycle c: leaves the active set, arrives after the fixed latency. */
static void flow_done(struct noc_flow *n, uint32_t i, uint64_t c)
{
	uint32_t pi = n->active[i];
	struct flow_pkt *p = &n->pkt[pi];
	n->active[i] = n->active[--n->n_active];
	n->dirty = true;
	n->src_count[p->src * NOC_NUM_CLASSES + p->cls]--;
	p->done_cycle = c;
	p->arrive_cycle = c + n->hops_prop[(size_t)p->src * (size_t)n->b.topo->n_nodes + (size_t)p->dst];
	uint32_t *at = &n->ejq[p->dst * NOC_NUM_CLASSES + p->cls];
	while (*at != FLOW_NONE && n->pkt[*at].arrive_cycle <= p->arrive_cycle)
		at = &n->pkt[*at].next;
	p->next = *at;
	*at = pi;
	stat_avg_add(&n->lat_queue, 1.0);
	stat_avg_add(&n->lat_net, (double)(p->arrive_cycle - p->enq_cycle - 1));
	stat_avg_add(&n->lat_total, (double)(p->arrive_cycle - p->enq_cycle));
	noc_base_wake_sink(&n->b, p->dst, p->arrive_cycle);
}

/* One cycle of fluid flow. With flow_exact, rates are exact max-min between events: when a
 * flow finishes inside the cycle, the others are re-shared from that instant (as SimGrid
 * does), so no bandwidth is lost to the cycle grid; a flow that ends anywhere in cycle c is
 * done in c. Cost: one recompute per completion. */
static void flow_step(struct noc_base *b, uint64_t c)
{
	struct noc_flow *n = (struct noc_flow *)b;
	/* Flows accepted before this cycle start sending now. */
	for (uint32_t i = 0; i < n->n_active; i++) {
		struct flow_pkt *p = &n->pkt[n->active[i]];
		if (!p->active && p->enq_cycle < c) {
			p->active = 1;
			n->dirty = true;
		}
	}
	double t = 0; /* fraction of the cycle elapsed */
	while (t < 1.0 - 1e-12 && n->n_active) {
		if (n->dirty)
			recompute_rates(n);
		double dt = 1.0 - t;
		/* Approximate mode: rates hold for the whole cycle (one recompute per cycle; a
		 * flow that ends early leaves its share unused until the next cycle). */
		for (uint32_t i = 0; n->b.p.flow_exact && i < n->n_active; i++) {
			struct flow_pkt *p = &n->pkt[n->active[i]];
			if (p->rate > 0 && p->left_bytes / p->rate < dt)
				dt = p->left_bytes / p->rate;
		}
		bool any = false;
		for (uint32_t i = 0; i < n->n_active;) {
			struct flow_pkt *p = &n->pkt[n->active[i]];
			if (p->rate <= 0) {
				i++;
				continue;
			}
			any = true;
			p->left_bytes -= p->rate * dt;
			if (p->left_bytes > 1e-9 * p->bytes) {
				i++;
				continue;
			}
			flow_done(n, i, c);
		}
		if (!any)
			break;
		b->moves++;
		t += dt;
	}
}

static bool flow_busy(const struct noc_base *b)
{
	return ((const struct noc_flow *)b)->n_active > 0;
}

static bool flow_try_inject(struct noc *pub, int src, int dst, enum noc_class cls, uint32_t size_bytes, void *payload)
{
	struct noc_flow *n = (struct noc_flow *)pub;
	SIM_ASSERT(src >= 0 && src < pub->n_nodes && dst >= 0 && dst < pub->n_nodes && cls < NOC_NUM_CLASSES);
	uint64_t now = noc_base_now(&n->b);
	uint32_t *cnt = &n->src_count[src * NOC_NUM_CLASSES + cls];
	if (*cnt >= (uint32_t)n->b.p.inject_queue_packets || n->free_head == FLOW_NONE) {
		noc_base_refused(&n->b, src, now);
		return false;
	}
	uint32_t pi = n->free_head;
	struct flow_pkt *p = &n->pkt[pi];
	n->free_head = p->next;
	memset(p, 0, sizeof *p);
	p->payload = payload;
	p->src = src;
	p->dst = dst;
	p->cls = (uint8_t)cls;
	/* Whole flits, as the cycle model sends them. */
	uint32_t cb = n->b.p.channel_bytes;
	uint32_t flits = size_bytes ? (size_bytes + cb - 1) / cb : 1;
	p->bytes = flits * cb;
	p->left_bytes = p->bytes;
	p->enq_cycle = now;
	p->next = FLOW_NONE;
	p->n_res = (uint16_t)res_count(n, p, &n->res[(size_t)pi * (size_t)n->stride]);
	n->active[n->n_active++] = pi;
	(*cnt)++;
	n->outstanding++;
	n->injected++;
	noc_base_kick(&n->b);
	return true;
}

static uint32_t *ready_head(struct noc_flow *n, int node, enum noc_class cls)
{
	SIM_ASSERT(node >= 0 && node < n->b.pub.n_nodes && cls < NOC_NUM_CLASSES);
	uint32_t *h = &n->ejq[node * NOC_NUM_CLASSES + cls];
	if (*h == FLOW_NONE || n->pkt[*h].arrive_cycle > noc_base_now(&n->b))
		return NULL;
	return h;
}

static void *flow_peek_eject(struct noc *pub, int node, enum noc_class cls)
{
	struct noc_flow *n = (struct noc_flow *)pub;
	uint32_t *h = ready_head(n, node, cls);
	return h ? n->pkt[*h].payload : NULL;
}

static void *flow_try_eject(struct noc *pub, int node, enum noc_class cls)
{
	struct noc_flow *n = (struct noc_flow *)pub;
	uint32_t *h = ready_head(n, node, cls);
	if (!h)
		return NULL;
	uint32_t pi = *h;
	struct flow_pkt *p = &n->pkt[pi];
	*h = p->next;
	void *payload = p->payload;
	n->ejected++;
	n->bytes_ejected += p->bytes;
	n->outstanding--;
	p->next = n->free_head;
	n->free_head = pi;
	return payload;
}

static uint64_t flow_outstanding(const struct noc *pub)
{
	return ((const struct noc_flow *)pub)->outstanding;
}

static void flow_destroy(struct noc *pub)
{
	struct noc_flow *n = (struct noc_flow *)pub;
	free(n->cap);
	free(n->left);
	free(n->users);
	free(n->pkt);
	free(n->active);
	free(n->ejq);
	free(n->src_count);
	free(n->hops_prop);
	free(n->res);
	free(n->mark);
	free(n->touch);
	free(n->start);
	free(n->fill);
	free(n->count);
	free(n->list);
	free(n->heap);
	free(n->hpos);
	free(n);
}

static void flow_summary(const struct noc_base *b, struct noc_summary *o)
{
	const struct noc_flow *n = (const struct noc_flow *)b;
	o->packets_injected = n->injected;
	o->packets_ejected = n->ejected;
	o->flits_ejected = n->bytes_ejected / b->p.channel_bytes;
	o->avg_queue_cycles = n->lat_queue.n ? n->lat_queue.sum / (double)n->lat_queue.n : 0;
	o->avg_network_cycles = n->lat_net.n ? n->lat_net.sum / (double)n->lat_net.n : 0;
	o->inject_refused = b->refused;
}

static void flow_dump(const struct noc_base *b, FILE *out)
{
	const struct noc_flow *n = (const struct noc_flow *)b;
	fprintf(out, "noc (flow): %llu packets outstanding, %u flows sending\n",
		(unsigned long long)n->outstanding, n->n_active);
}

static const struct noc_ops flow_ops = {
	.name = "flow",
	.try_inject = flow_try_inject,
	.try_eject = flow_try_eject,
	.peek_eject = flow_peek_eject,
	.outstanding = flow_outstanding,
	.destroy = flow_destroy,
};
static const struct noc_drive_ops flow_drive = {
	.step = flow_step, .busy = flow_busy, .summary = flow_summary, .dump = flow_dump,
};

struct noc_base *noc_flow_new(const struct noc_params *p, const struct topo *t, struct sim_error *err)
{
	struct noc_flow *n = calloc(1, sizeof *n);
	if (!n)
		goto nomem;
	n->b.pub.ops = &flow_ops;
	n->b.drive = &flow_drive;
	n->b.p = *p;
	n->n_nets = p->separate_networks ? 2 : 1;
	int per_net = t->n_links + 2 * t->n_nodes;
	n->n_res = per_net * n->n_nets;
	size_t pairs = (size_t)t->n_nodes * (size_t)t->n_nodes;
	n->n_pkt = (uint32_t)t->n_nodes * NOC_NUM_CLASSES * (uint32_t)(p->inject_queue_packets + p->eject_queue_flits);
	n->cap = calloc((size_t)n->n_res, sizeof *n->cap);
	n->left = calloc((size_t)n->n_res, sizeof *n->left);
	n->users = calloc((size_t)n->n_res, sizeof *n->users);
	n->pkt = calloc(n->n_pkt, sizeof *n->pkt);
	n->active = calloc(n->n_pkt, sizeof *n->active);
	n->ejq = calloc((size_t)t->n_nodes * NOC_NUM_CLASSES, sizeof *n->ejq);
	n->src_count = calloc((size_t)t->n_nodes * NOC_NUM_CLASSES, sizeof *n->src_count);
	n->hops_prop = calloc(pairs, sizeof *n->hops_prop);
	int max_len = 0;
	for (size_t i = 0; i < pairs; i++)
		if (t->route_len[i] > max_len)
			max_len = t->route_len[i];
	n->stride = max_len + 2;
	n->res = calloc((size_t)n->n_pkt * (size_t)n->stride, sizeof *n->res);
	n->list = calloc((size_t)n->n_pkt * (size_t)n->stride, sizeof *n->list);
	n->mark = calloc((size_t)n->n_res, 1);
	n->touch = calloc((size_t)n->n_res, sizeof *n->touch);
	n->start = calloc((size_t)n->n_res, sizeof *n->start);
	n->fill = calloc((size_t)n->n_res, sizeof *n->fill);
	n->count = calloc((size_t)n->n_res, sizeof *n->count);
	n->heap = calloc((size_t)n->n_res, sizeof *n->heap);
	n->hpos = calloc((size_t)n->n_res, sizeof *n->hpos);
	if (!n->heap || !n->hpos ||!n->cap || !n->left || !n->users || !n->pkt || !n->active || !n->ejq || !n->src_count || !n->hops_prop ||
	    !n->res || !n->list || !n->mark || !n->touch || !n->start || !n->fill || !n->count) {
		flow_destroy(&n->b.pub);
		goto nomem;
	}
	for (int k = 0; k < n->n_nets; k++)
		for (int r = 0; r < per_net; r++) {
			double bw = r < t->n_links ? t->links[r].bandwidth_bytes_cycle : 0;
			n->cap[k * per_net + r] = bw > 0 ? bw : (double)p->channel_bytes;
		}
	for (uint32_t i = 0; i < n->n_pkt; i++)
		n->pkt[i].next = i + 1 < n->n_pkt ? i + 1 : FLOW_NONE;
	for (int i = 0; i < t->n_nodes * NOC_NUM_CLASSES; i++)
		n->ejq[i] = FLOW_NONE;
	uint32_t pipe = (uint32_t)(p->routing_delay_cycles + p->vc_alloc_delay_cycles + p->sw_alloc_delay_cycles + p->st_delay_cycles);
	for (int s = 0; s < t->n_nodes; s++)
		for (int d = 0; d < t->n_nodes; d++) {
			int len = topo_route_len(t, s, d);
			const int32_t *l = topo_route_links(t, s, d);
			uint32_t prop = 2 * p->inject_latency_cycles + (uint32_t)(len + 1) * pipe;
			for (int i = 0; i < len; i++)
				prop += t->links[l[i]].latency_cycles;
			n->hops_prop[(size_t)s * (size_t)t->n_nodes + (size_t)d] = prop;
		}
	return &n->b;
nomem:
	sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory building the flow NoC");
	return NULL;
}

int noc_flow_stats(struct noc_base *b, struct stats *st)
{
	struct noc_flow *n = (struct noc_flow *)b;
	stats_counter(st, &n->injected, "packets", "packets accepted by try_inject", "noc.packets_injected");
	stats_counter(st, &n->ejected, "packets", "packets taken by try_eject", "noc.packets_ejected");
	stats_counter(st, &n->recomputes, "", "max-min rate recomputations", "noc.flow.recomputes");
	stats_avg(st, &n->lat_net, "cycles", "packet latency: leaves the source until the tail arrives", "noc.latency.network");
	stats_avg(st, &n->lat_total, "cycles", "packet latency: accepted until the tail arrives", "noc.latency.total");
	return 0;
}
