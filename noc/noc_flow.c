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
	uint32_t next;                /* free list / ejection list / active list */
	uint32_t prev;
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
	int32_t *res;                 /* scratch: resources of one flow (longest route + 2) */
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

/* Progressive filling (max-min fairness): repeatedly saturate the resource with the smallest
 * fair share and freeze the flows crossing it. O(resources * (resources + flow hops)). */
static void recompute_rates(struct noc_flow *n)
{
	int32_t *res = n->res;
	memcpy(n->left, n->cap, (size_t)n->n_res * sizeof *n->left);
	memset(n->users, 0, (size_t)n->n_res * sizeof *n->users);
	for (uint32_t i = 0; i < n->n_active; i++) {
		struct flow_pkt *p = &n->pkt[n->active[i]];
		p->rate = -1;
		int k = res_count(n, p, res);
		for (int j = 0; j < k; j++)
			n->users[res[j]]++;
	}
	uint32_t frozen = 0;
	while (frozen < n->n_active) {
		int best = -1;
		double share = 0;
		for (int r = 0; r < n->n_res; r++)
			if (n->users[r] && (best < 0 || n->left[r] / n->users[r] < share)) {
				best = r;
				share = n->left[r] / n->users[r];
			}
		SIM_ASSERT(best >= 0);
		for (uint32_t i = 0; i < n->n_active; i++) {
			struct flow_pkt *p = &n->pkt[n->active[i]];
			if (p->rate >= 0)
				continue;
			int k = res_count(n, p, res);
			bool crosses = false;
			for (int j = 0; j < k; j++)
				crosses |= res[j] == best;
			if (!crosses)
				continue;
			p->rate = share;
			frozen++;
			for (int j = 0; j < k; j++) {
				n->left[res[j]] -= share;
				n->users[res[j]]--;
			}
		}
	}
	n->recomputes++;
	n->dirty = false;
}

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
	if (n->dirty) {
		/* Flows not started yet must not take bandwidth: park them at rate 0 by
		 * computing over started ones only. */
		uint32_t waiting = 0;
		for (uint32_t i = 0; i < n->n_active; i++)
			if (!n->pkt[n->active[i]].active) {
				uint32_t t = n->active[i];
				n->active[i] = n->active[waiting];
				n->active[waiting++] = t;
			}
		uint32_t *save = n->active;
		n->active += waiting;
		n->n_active -= waiting;
		recompute_rates(n);
		n->active = save;
		n->n_active += waiting;
		for (uint32_t i = 0; i < waiting; i++)
			n->pkt[n->active[i]].rate = 0;
	}
	for (uint32_t i = 0; i < n->n_active;) {
		uint32_t pi = n->active[i];
		struct flow_pkt *p = &n->pkt[pi];
		if (!p->active) {
			i++;
			continue;
		}
		p->left_bytes -= p->rate;
		if (p->rate > 0)
			b->moves++;
		if (p->left_bytes > 1e-9) {
			i++;
			continue;
		}
		/* Sent whole: leaves the active set, arrives after the fixed latency. */
		n->active[i] = n->active[--n->n_active];
		n->dirty = true;
		n->src_count[p->src * NOC_NUM_CLASSES + p->cls]--;
		p->done_cycle = c;
		p->arrive_cycle = c + n->hops_prop[(size_t)p->src * (size_t)b->topo->n_nodes + (size_t)p->dst];
		uint32_t *at = &n->ejq[p->dst * NOC_NUM_CLASSES + p->cls];
		while (*at != FLOW_NONE && n->pkt[*at].arrive_cycle <= p->arrive_cycle)
			at = &n->pkt[*at].next;
		p->next = *at;
		*at = pi;
		stat_avg_add(&n->lat_queue, 1.0);
		stat_avg_add(&n->lat_net, (double)(p->arrive_cycle - p->enq_cycle - 1));
		stat_avg_add(&n->lat_total, (double)(p->arrive_cycle - p->enq_cycle));
		noc_base_wake_sink(b, p->dst, p->arrive_cycle);
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
	n->res = calloc((size_t)max_len + 2, sizeof *n->res);
	if (!n->cap || !n->left || !n->users || !n->pkt || !n->active || !n->ejq || !n->src_count || !n->hops_prop || !n->res) {
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
