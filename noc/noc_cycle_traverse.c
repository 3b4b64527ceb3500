/* SPDX-License-Identifier: MIT */
/* The cycle-level NoC's switch and link traversal: a flit granted the switch leaves its input
 * VC, its slot's credit goes upstream, it lands in the next router or its node's ejection queue. */
#include "noc_cycle_impl.h"

/* ---- arrival at a node's ejection queue ---------------------------------------------- */

static void eject_arrive(struct noc_cyc *n, int node, uint32_t pi, uint16_t seq, uint64_t t)
{
	struct cyc_pkt *p = &n->pkt[pi];
	struct cyc_ejq *q = &n->ejq[node * NOC_NUM_CLASSES + p->cls];
	if (seq == 0)
		p->head_arr_cycle = t;
	if (seq + 1 == p->flits) {
		/* Tails leave the last router in cycle order with the same delay: the queue
		 * stays sorted by arrival. */
		SIM_ASSERT(q->count < q->cap);
		int i = cyc_ring(q->head + q->count, q->cap);
		q->pkt[i] = pi;
		q->tail_ready[i] = t;
		q->count++;
		stat_avg_add(&n->lat_queue, (double)(p->inject_cycle - p->enq_cycle));
		stat_avg_add(&n->lat_net, (double)(p->head_arr_cycle - p->inject_cycle));
		stat_avg_add(&n->lat_serial, (double)(t - p->head_arr_cycle));
		stat_avg_add(&n->lat_total, (double)(t - p->enq_cycle));
		noc_base_wake_sink(&n->b, node, t);
	}
}

/* ---- switch and link traversal, credits ----------------------------------------------- */

/* A VC of output port o was freed: heads that found none free there may bid again. */
static void va_unblock(struct cyc_router *r, int o)
{
	for (int wi = 0; wi < r->in_words; wi++)
		for (uint64_t ports = r->in_va_blocked[wi]; ports; ports &= ports - 1) {
			int i = wi * 64 + __builtin_ctzll(ports);
			struct cyc_in_port *ip = &r->in[i];
			for (uint64_t bits = ip->va_blocked; bits; bits &= bits - 1) {
				int v = __builtin_ctzll(bits);
				if (ip->vc[v].out_port == o)
					ip->va_blocked &= ~(UINT64_C(1) << v);
			}
			if (!ip->va_blocked)
				bitset_del(r->in_va_blocked, (unsigned)i);
		}
}

/* Output port o takes the head flit of input port i's VC v (the allocator's pointers have
 * moved already). count: another SA round follows in this cycle (it reads out_sent/xin_sent). */
static inline __attribute__((always_inline)) void router_grant(struct noc_cyc *n, struct cyc_router *r, int o, int i,
							       int v, uint64_t c, bool count)
{
	const int depth = n->b.p.vc_buffer_flits;
	r->sa_best[o] = -1;
	struct cyc_out_port *op = &r->out[o];
	struct cyc_in_port *ip = &r->in[i];
	struct cyc_in_vc *iv = &ip->vc[v];

	struct cyc_flit f = iv->buf[iv->head];
	if (++iv->head == depth)
		iv->head = 0;
	if (--iv->count) {
		iv->head_ready = iv->buf[iv->head].ready;
	} else {
		ip->busy &= ~(UINT64_C(1) << v);
		if (!ip->busy)
			bitset_del(r->in_busy, (unsigned)i);
	}
	r->flits--;
	n->flits_in_routers--;
	struct cyc_out_vc *ov = iv->ovc;
	int32_t *credits = iv->ejq >= 0 ? &n->ejq[iv->ejq].credits : &ov->credits;
	--*credits;
	if (*credits < n->credit_min)
		n->credit_min = *credits;
	SIM_ASSERT(*credits >= 0);

	/* The freed slot's credit goes back upstream. */
	uint64_t cr = c + (uint64_t)n->b.p.credit_delay_cycles;
	struct cyc_out_vc *uo = &ip->up_vc[v];
	ovc_credit_later(uo, cr);
	if (ip->up) { /* a source's VCs: no owner port, and sources are not woken */
		if (uo->owner >= 0)
			ip->up->in[uo->own_port].sa_blocked &= ~(UINT64_C(1) << uo->own_vc);
		router_wake(ip->up, cr);
	}

	uint64_t t = c + op->grant_delay;
	if (t < op->link_free)
		t = op->link_free;
	op->link_free = t + 1;
	op->flits++;
	n->b.moves++;
	if (count) {
		r->out_sent[o]++;
		r->xin_sent[i * n->b.p.input_speedup + v % n->b.p.input_speedup]++;
	}
	if (op->kind == PORT_LINK) {
		f.ready = t;
		ivc_push(op->dst, op->dst_in_port, iv->out_vc, depth, f);
		n->flits_in_routers++;
	} else {
		eject_arrive(n, op->node, f.pkt, f.seq, t);
	}
	if (f.tail) {
		ov->owner = -1;
		op->free_vcs |= UINT64_C(1) << iv->out_vc;
		iv->state = VC_IDLE;
		ip->active &= ~(UINT64_C(1) << v);
		if (!ip->active)
			bitset_del(r->in_active, (unsigned)i);
		va_unblock(r, o);
	}
}

void noc_cyc_router_grant(struct noc_cyc *n, struct cyc_router *r, int o, int i, int v, uint64_t c, bool count)
{
	router_grant(n, r, o, i, v, c, count);
}

/* Every output port that an input won in this SA round grants it: the output's pointer moves
 * past the winner, and with islip_input_first the winner's VC pointer past its VC (with rr it
 * moved at the bid). Grants in output order: ejections add to the latency sums in this order. */
void noc_cyc_router_grants(struct noc_cyc *n, struct cyc_router *r, uint64_t c, bool count)
{
	const int V = n->V;
	const bool on_grant = n->b.p.allocator == NOC_ALLOC_ISLIP_INPUT_FIRST;
	for (int wo = 0; wo < r->out_words; wo++) {
		uint64_t outs = r->sa_req[wo];
		r->sa_req[wo] = 0;
		for (; outs; outs &= outs - 1) {
			int o = wo * 64 + __builtin_ctzll(outs);
			int i = r->sa_best[o], v = r->sa_choice[i];
			r->out[o].sa_rr = i + 1 == r->n_in ? 0 : (uint32_t)i + 1;
			if (on_grant)
				r->in[i].sa_rr = v + 1 == V ? 0 : (uint32_t)v + 1;
			router_grant(n, r, o, i, v, c, count);
		}
	}
}

