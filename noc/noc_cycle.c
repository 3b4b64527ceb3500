/* SPDX-License-Identifier: MIT */
/* Cycle-level NoC (BookSim iq_router-like): input-buffered VC routers, credit flow control,
 * RC/VA/SA/ST pipeline with settable delays, separable round-robin or iSLIP allocators. */
/* This file: injection (try_inject, the sources), ejection, the backend's ops, creation and
 * stats. The state is noc_cycle_impl.h, the cycle loop and RC/VA/SA noc_cycle_router.c, switch
 * and link traversal with credits noc_cycle_traverse.c, the build noc_cycle_build.c. */
#include "noc_cycle_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Timing model. Each stage is a timestamp, not a queue: a head flit that becomes readable in
 * an input buffer at cycle a does route computation, may bid for a VC from a + rc, for the
 * switch from (VA grant) + va, and a flit that wins SA at cycle s is readable downstream at
 * s + sa + st + link. With every delay 1 a hop costs 5 cycles; with the injection channel and
 * the one cycle a packet waits in the source queue, a 1-flit packet over R routers takes
 * 5R + 2 cycles (BookSim's zero-load figure). Because every flit moved in cycle c becomes
 * readable at c + 1 or later, routers can be stepped in any order within a cycle. */

/* ---- sources ------------------------------------------------------------------------ */

/* One cycle of node's source on net: at most one flit of its queued packets enters its router. */
void noc_cyc_source_step(struct noc_cyc *n, struct cyc_net *net, int node, uint64_t c)
{
	struct cyc_source *s = &net->src[node];
	int per = net->per_link;
	for (int k = 0; k < net->n_cls; k++) {
		int m = cyc_ring((int)s->rr + k, net->n_cls);
		if (!s->q_count[m])
			continue;
		uint32_t pi = s->q[m][s->q_head[m]];
		struct cyc_pkt *p = &n->pkt[pi];
		if (p->enq_cycle >= c)
			continue; /* accepted this cycle: leaves next cycle whatever the tick order */
		int vc = s->cur_vc[m];
		if (vc < 0) {
			/* Round-robin from the VC after the last one used (as BookSim's injection):
			 * back-to-back packets spread over the VCs instead of queueing in one. */
			int lo = m * n->K * per;
			for (int j = 0; j < per; j++) {
				int off = cyc_ring(s->last_vc[m] + 1 + j, per); /* last_vc, j < per */
				struct cyc_out_vc *o = &s->vc[lo + off];
				if (o->owner < 0 && ovc_credits(o, c) > 0) {
					vc = lo + off;
					s->last_vc[m] = (uint16_t)off;
					break;
				}
			}
			if (vc < 0)
				continue;
			s->cur_vc[m] = (int16_t)vc;
			s->vc[vc].owner = 0;
			p->inject_cycle = c;
		} else if (ovc_credits(&s->vc[vc], c) <= 0) {
			continue;
		}
		struct cyc_out_vc *o = &s->vc[vc];
		o->credits--;
		struct cyc_router *r = &net->r[s->router];
		struct cyc_flit f = {.ready = c + n->b.p.inject_latency_cycles, .pkt = pi, .seq = s->next_seq[m],
				     .tail = s->next_seq[m] + 1 == p->flits};
		ivc_push(r, s->in_port, vc, n->b.p.vc_buffer_flits, f);
		n->flits_in_routers++;
		n->flits_injected++;
		n->b.moves++;
		if (++s->next_seq[m] == p->flits) {
			s->next_seq[m] = 0;
			s->cur_vc[m] = -1;
			o->owner = -1;
			if (++s->q_head[m] == n->b.p.inject_queue_packets)
				s->q_head[m] = 0;
			s->q_count[m]--;
			n->pkts_in_sources--;
			bool empty = true;
			for (int j = 0; j < net->n_cls; j++)
				empty = empty && !s->q_count[j];
			if (empty)
				net->src_busy[node / 64] &= ~(UINT64_C(1) << (node % 64));
		}
		s->rr = (uint32_t)(m + 1);
		return; /* one flit per cycle on the injection channel */
	}
}

/* ---- backend ops -------------------------------------------------------------------- */

static bool cyc_busy(const struct noc_base *b)
{
	const struct noc_cyc *n = (const struct noc_cyc *)b;
	return n->flits_in_routers || n->pkts_in_sources;
}

static bool cyc_try_inject(struct noc *pub, int src, int dst, enum noc_class cls, uint32_t size_bytes, void *payload)
{
	struct noc_cyc *n = (struct noc_cyc *)pub;
	SIM_ASSERT(src >= 0 && src < pub->n_nodes && dst >= 0 && dst < pub->n_nodes && cls < NOC_NUM_CLASSES);
	uint64_t now = noc_base_now(&n->b);
	uint32_t cb = n->b.p.channel_bytes;
	uint32_t flits = size_bytes ? (size_bytes + cb - 1) / cb : 1;
	/* A packet larger than the ejection queue could never arrive whole. */
	SIM_ASSERT(flits <= (uint32_t)n->b.p.eject_queue_flits);
	int m;
	struct cyc_net *net = net_of(n, cls, &m);
	struct cyc_source *s = &net->src[src];
	if (s->q_count[m] >= n->b.p.inject_queue_packets || n->free_head == UINT32_MAX) {
		noc_base_refused(&n->b, src, now);
		return false;
	}
	uint32_t pi = n->free_head;
	struct cyc_pkt *p = &n->pkt[pi];
	n->free_head = p->next_free;
	*p = (struct cyc_pkt){
		.payload = payload,
		.src = src,
		.dst = dst,
		.cls = (uint8_t)cls,
		.flits = (uint16_t)flits,
		.route_len = (uint16_t)topo_route_len(n->b.topo, src, dst),
		.route_link = topo_route_links(n->b.topo, src, dst),
		.route_vc = topo_route_vcs(n->b.topo, src, dst),
		.enq_cycle = now,
	};
	int qi = cyc_ring(s->q_head[m] + s->q_count[m], n->b.p.inject_queue_packets);
	s->q[m][qi] = pi;
	s->q_count[m]++;
	net->src_busy[src / 64] |= UINT64_C(1) << (src % 64);
	/* A busy NoC has its next cycle's tick queued already (noc_tick returns cycle + 1 while
	 * busy, and this is the only way to become busy), which a kick would leave as it is. */
	if (!cyc_busy(&n->b))
		noc_base_kick(&n->b);
	n->pkts_in_sources++;
	n->outstanding++;
	n->injected++;
	return true;
}

static struct cyc_ejq *ready_ejq(struct noc_cyc *n, int node, enum noc_class cls)
{
	SIM_ASSERT(node >= 0 && node < n->b.pub.n_nodes && cls < NOC_NUM_CLASSES);
	struct cyc_ejq *q = &n->ejq[node * NOC_NUM_CLASSES + cls];
	if (!q->count || q->tail_ready[q->head] > noc_base_now(&n->b))
		return NULL;
	return q;
}

static void *cyc_peek_eject(struct noc *pub, int node, enum noc_class cls)
{
	struct noc_cyc *n = (struct noc_cyc *)pub;
	struct cyc_ejq *q = ready_ejq(n, node, cls);
	return q ? n->pkt[q->pkt[q->head]].payload : NULL;
}

static void *cyc_try_eject(struct noc *pub, int node, enum noc_class cls)
{
	struct noc_cyc *n = (struct noc_cyc *)pub;
	struct cyc_ejq *q = ready_ejq(n, node, cls);
	if (!q)
		return NULL;
	uint32_t pi = q->pkt[q->head];
	struct cyc_pkt *p = &n->pkt[pi];
	if (++q->head == q->cap)
		q->head = 0;
	q->count--;
	q->credits += p->flits;
	if (q->waiters) {
		/* The router holding the node's ejection port was waiting for these slots. */
		q->waiters = false;
		int m;
		struct cyc_router *r = &net_of(n, cls, &m)->r[n->b.topo->node_router[node]];
		router_wake(r, noc_base_now(&n->b));
		for (int i = 0; i < r->n_in; i++)
			r->in[i].sa_blocked = 0; /* those waiting for this queue, and others (they recheck) */
	}
	n->ejected++;
	n->flits_ejected += p->flits;
	n->outstanding--;
	void *payload = p->payload;
	p->next_free = n->free_head;
	n->free_head = pi;
	return payload;
}

static uint64_t cyc_outstanding(const struct noc *pub)
{
	return ((const struct noc_cyc *)pub)->outstanding;
}

static void cyc_destroy(struct noc *pub)
{
	struct noc_cyc *n = (struct noc_cyc *)pub;
	for (size_t i = 0; i < n->n_allocs; i++)
		free(n->allocs[i]);
	free(n->allocs);
	free(n);
}

static void cyc_summary(const struct noc_base *b, struct noc_summary *o)
{
	const struct noc_cyc *n = (const struct noc_cyc *)b;
	o->packets_injected = n->injected;
	o->packets_ejected = n->ejected;
	o->flits_ejected = n->flits_ejected;
	o->avg_queue_cycles = n->lat_queue.n ? n->lat_queue.sum / (double)n->lat_queue.n : 0;
	o->avg_network_cycles = n->lat_net.n ? n->lat_net.sum / (double)n->lat_net.n : 0;
	o->avg_serial_cycles = n->lat_serial.n ? n->lat_serial.sum / (double)n->lat_serial.n : 0;
	o->inject_refused = b->refused;
	o->flits_in_routers = n->flits_in_routers;
	o->credit_min = n->credit_min;
}

static void cyc_dump(const struct noc_base *b, FILE *out)
{
	const struct noc_cyc *n = (const struct noc_cyc *)b;
	fprintf(out, "noc (cycle): %llu packets outstanding, %llu flits in routers, %llu packets in sources\n",
		(unsigned long long)n->outstanding, (unsigned long long)n->flits_in_routers,
		(unsigned long long)n->pkts_in_sources);
	for (int k = 0; k < n->n_nets; k++)
		for (int r = 0; r < b->topo->n_routers; r++) {
			const struct cyc_router *rt = &n->net[k].r[r];
			if (!rt->flits)
				continue;
			fprintf(out, "  net %d router %d: %u flits;", k, r, rt->flits);
			for (int i = 0; i < rt->n_in; i++)
				for (int v = 0; v < n->V; v++)
					if (rt->in[i].vc[v].count)
						fprintf(out, " in%d.vc%d=%u(state %d out %d.%d)", i, v, rt->in[i].vc[v].count,
							rt->in[i].vc[v].state, rt->in[i].vc[v].out_port, rt->in[i].vc[v].out_vc);
			fprintf(out, "\n");
		}
	/* Packets that arrived but were not taken: who should have ejected them. */
	for (int node = 0; node < b->pub.n_nodes; node++)
		for (int cls = 0; cls < NOC_NUM_CLASSES; cls++) {
			const struct cyc_ejq *q = &n->ejq[node * NOC_NUM_CLASSES + cls];
			if (!q->count)
				continue;
			const struct sim_component *sink = b->pub.sink[node];
			fprintf(out, "  node %d class %s: %u packets waiting for ejection (head ready at cycle %llu), sink %s\n",
				node, cls == NOC_CLASS_REQ ? "request" : "reply", (unsigned)q->count,
				(unsigned long long)q->tail_ready[q->head], sink ? sink->name : "(none)");
		}
}

static const struct noc_ops cyc_ops = {
	.name = "cycle",
	.try_inject = cyc_try_inject,
	.try_eject = cyc_try_eject,
	.peek_eject = cyc_peek_eject,
	.outstanding = cyc_outstanding,
	.destroy = cyc_destroy,
};
static const struct noc_drive_ops cyc_drive = {
	.step = noc_cyc_step, .busy = cyc_busy, .summary = cyc_summary, .dump = cyc_dump,
};

struct noc_base *noc_cycle_new(const struct noc_params *p, const struct topo *t, struct sim_error *err)
{
	struct noc_cyc *n = calloc(1, sizeof *n);
	if (!n)
		goto nomem;
	n->b.pub.ops = &cyc_ops;
	n->b.drive = &cyc_drive;
	n->b.p = *p;
	n->b.topo = (struct topo *)t;
	n->V = p->vcs;
	/* BookSim steps a router internal_speedup times a cycle and each step runs every stage
	 * once; a stage of delay d >= 1 is done d - 1 cycles after its step (iq_router.cpp:
	 * GetSimTime() + delay - 1). So with a speedup a VC allocated in a cycle's first step
	 * bids for the switch in its second: VA and SA of delay 1 share one cycle, and a VC
	 * takes a new packet every cycle instead of every other (GPGPU-Sim's Fermi crossbar,
	 * 1-flit packets: uniform saturation 0.59 flits/node/cycle in BookSim, 0.30 here before). */
	n->va_delay = p->vc_alloc_delay_cycles - (p->internal_speedup > 1 && p->vc_alloc_delay_cycles > 0);
	n->K = t->n_vc_classes;
	n->n_nets = p->separate_networks ? 2 : 1;
	int cls_per_net = p->separate_networks ? 1 : NOC_NUM_CLASSES;
	if (p->vcs % (cls_per_net * n->K) || p->vcs > 64) {
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "gpu.noc.vcs",
			      "%d VCs cannot be split evenly into %d message class(es) x %d route VC class(es) (%s topology); "
			      "use a multiple of %d, at most 64",
			      p->vcs, cls_per_net, n->K, t->kind, cls_per_net * n->K);
		free(n);
		return NULL;
	}
	for (int v = 0; v < p->vcs; v++)
		n->xin_vcs[v % p->input_speedup] |= UINT64_C(1) << v;
	for (int k = 0; k < n->n_nets; k++) {
		n->net[k].n_cls = cls_per_net;
		n->net[k].per_link = p->vcs / (cls_per_net * n->K);
		n->net[k].per_node = p->vcs / cls_per_net;
		n->net[k].link_vcs = n->net[k].per_link >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n->net[k].per_link) - 1;
		n->net[k].node_vcs = n->net[k].per_node >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n->net[k].per_node) - 1;
		n->net[k].cls_base = k;
		if (noc_cyc_build_net(n, &n->net[k], t))
			goto nomem_n;
	}
	/* Packets: every one is in a source queue, has a flit in a router buffer, or sits in
	 * an ejection queue, so this many can never run out. */
	uint64_t slots = 0;
	for (int r = 0; r < t->n_routers; r++)
		slots += (uint64_t)n->net[0].r[r].n_in * (uint64_t)p->vcs * (uint64_t)p->vc_buffer_flits;
	slots *= (uint64_t)n->n_nets;
	slots += (uint64_t)t->n_nodes * NOC_NUM_CLASSES * ((uint64_t)p->inject_queue_packets + (uint64_t)p->eject_queue_flits);
	if (slots >= UINT32_MAX)
		goto nomem_n;
	n->n_pkt = (uint32_t)slots;
	n->pkt = noc_cyc_zalloc(n, n->n_pkt, sizeof *n->pkt);
	n->ejq = noc_cyc_zalloc(n, (size_t)t->n_nodes * NOC_NUM_CLASSES, sizeof *n->ejq);
	if (!n->pkt || !n->ejq)
		goto nomem_n;
	for (uint32_t i = 0; i < n->n_pkt; i++)
		n->pkt[i].next_free = i + 1 < n->n_pkt ? i + 1 : UINT32_MAX;
	n->free_head = 0;
	for (int i = 0; i < t->n_nodes * NOC_NUM_CLASSES; i++) {
		struct cyc_ejq *q = &n->ejq[i];
		q->cap = (uint16_t)p->eject_queue_flits;
		q->credits = p->eject_queue_flits;
		q->pkt = noc_cyc_zalloc(n, q->cap, sizeof *q->pkt);
		q->tail_ready = noc_cyc_zalloc(n, q->cap, sizeof *q->tail_ready);
		if (!q->pkt || !q->tail_ready)
			goto nomem_n;
	}
	return &n->b;
nomem_n:
	n->b.topo = NULL;
	cyc_destroy(&n->b.pub);
nomem:
	sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory building the cycle-level NoC");
	return NULL;
}

/* ---- stats ------------------------------------------------------------------------- */

struct cyc_ratio { const struct noc_cyc *n; const uint64_t *num; };

static double per_cycle(const void *ctx)
{
	const struct cyc_ratio *r = ctx;
	uint64_t cycles = noc_base_now(&r->n->b);
	return cycles ? (double)*r->num / (double)cycles : 0.0;
}

int noc_cycle_stats(struct noc_base *b, struct stats *st)
{
	struct noc_cyc *n = (struct noc_cyc *)b;
	const struct topo *t = b->topo;
	stats_counter(st, &n->injected, "packets", "packets accepted by try_inject", "noc.packets_injected");
	stats_counter(st, &n->ejected, "packets", "packets taken by try_eject", "noc.packets_ejected");
	stats_counter(st, &n->flits_injected, "flits", "flits that entered a router", "noc.flits_injected");
	stats_counter(st, &n->flits_ejected, "flits", "flits of ejected packets", "noc.flits_ejected");
	stats_avg(st, &n->lat_queue, "cycles", "packet latency: accepted until its head leaves the source queue", "noc.latency.queue");
	stats_avg(st, &n->lat_net, "cycles", "packet latency: head leaves the source until it reaches the destination", "noc.latency.network");
	stats_avg(st, &n->lat_serial, "cycles", "packet latency: head to tail at the destination (serialisation)", "noc.latency.serialisation");
	stats_avg(st, &n->lat_total, "cycles", "packet latency: accepted until the tail arrives", "noc.latency.total");
	for (int k = 0; k < n->n_nets; k++) {
		const char *net = n->n_nets == 2 ? (k ? "reply." : "req.") : "";
		for (int l = 0; l < t->n_links; l++) {
			struct cyc_out_port *op = &n->net[k].r[t->links[l].src_router].out[n->net[k].link_out_port[l]];
			struct cyc_ratio *r = noc_cyc_zalloc(n, 1, sizeof *r);
			if (!r)
				return SIM_ERR_NOMEM;
			r->n = n;
			r->num = &op->flits;
			stats_counter(st, &op->flits, "flits", "flits sent on the link", "noc.%slink.%d.flits", net, l);
			stats_derived(st, per_cycle, r, "flits/cycle", "link utilisation (flits per NoC cycle)",
				      "noc.%slink.%d.utilisation", net, l);
		}
		for (int ri = 0; ri < t->n_routers; ri++) {
			struct cyc_ratio *r = noc_cyc_zalloc(n, 1, sizeof *r);
			if (!r)
				return SIM_ERR_NOMEM;
			r->n = n;
			r->num = &n->net[k].r[ri].occ_sum;
			stats_derived(st, per_cycle, r, "flits", "average flits buffered in the router's input VCs",
				      "noc.%srouter.%d.occupancy", net, ri);
		}
	}
	return 0;
}
