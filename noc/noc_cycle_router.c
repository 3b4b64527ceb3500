/* SPDX-License-Identifier: MIT */
/* The cycle-level NoC's cycle loop and router front end, one router one cycle: route computation,
 * VC allocation, switch allocation (rounds with a speedup); the grants are noc_cycle_traverse.c. */
#include "noc_cycle_impl.h"

#include <string.h>

/* ---- route computation and allocators ------------------------------------------------ */

static void router_route(struct noc_cyc *n, struct cyc_net *net, struct cyc_in_vc *iv, uint64_t c)
{
	struct cyc_pkt *p = &n->pkt[iv->buf[iv->head].pkt];
	SIM_ASSERT(iv->buf[iv->head].seq == 0);
	int local = n->n_nets == 2 ? 0 : p->cls;
	if (p->hop < p->route_len) {
		int link = p->route_link[p->hop];
		int k = p->route_vc[p->hop];
		int per = net->per_link;
		iv->out_port = (int16_t)net->link_out_port[link];
		iv->vc_lo = (uint8_t)((local * n->K + k) * per);
		iv->vc_hi = (uint8_t)(iv->vc_lo + per);
		iv->vc_mask = net->link_vcs << iv->vc_lo;
		iv->ejq = -1;
		p->hop++;
	} else {
		int per = net->per_node; /* ejection: any VC of the message class */
		iv->out_port = (int16_t)net->node_out_port[p->dst];
		iv->vc_lo = (uint8_t)(local * per);
		iv->vc_hi = (uint8_t)(iv->vc_lo + per);
		iv->vc_mask = net->node_vcs << iv->vc_lo;
		iv->ejq = p->dst * NOC_NUM_CLASSES + p->cls;
	}
	iv->state = VC_VA;
	iv->stage_ready = c + (uint64_t)n->b.p.routing_delay_cycles;
}

/* The VA search as first written, (next_vc + k) % span in 32 bits: differs from the cyclic
 * order of the bit search only when next_vc + k wraps, after 2^32 - span grants at one port. */
static int va_pick_wrapping(const struct cyc_out_port *op, const struct cyc_in_vc *iv)
{
	uint32_t span = (uint32_t)(iv->vc_hi - iv->vc_lo);
	for (uint32_t k = 0; k < span; k++) {
		int ov = iv->vc_lo + (int)((op->next_vc + k) % span);
		if (op->vc[ov].owner < 0)
			return ov;
	}
	return -1; /* not reached: the caller saw a free VC in the range */
}

/* Input port ip's SA request: the first of its VCs, in round-robin order from sa_rr, whose
 * head flit may leave in cycle c (sa_ready); -1 if none. */
static inline int sa_pick(struct noc_cyc *n, struct cyc_in_port *ip, uint64_t cand, uint64_t c, uint64_t *wake)
{
	/* The candidate VCs at or above sa_rr, then those below. */
	uint64_t bits = cand & (~UINT64_C(0) << ip->sa_rr), rest = cand ^ bits;
	for (;;) {
		if (!bits) {
			if (!rest)
				return -1;
			bits = rest;
			rest = 0;
		}
		int v = __builtin_ctzll(bits);
		bits &= bits - 1;
		if (sa_ready(n, ip, v, c, wake))
			return v;
	}
}

/* Input port i's SA bid with its VCs in cand (busy and active): the output port it asks for
 * keeps the first bidder at or after its sa_rr. False when no VC of i can send. */
static inline __attribute__((always_inline)) bool sa_bid(struct noc_cyc *n, struct cyc_router *r, int i, uint64_t cand, uint64_t c, uint64_t *wake)
{
	struct cyc_in_port *ip = &r->in[i];
	int v = sa_pick(n, ip, cand, c, wake);
	r->sa_choice[i] = (int16_t)v;
	if (v < 0)
		return false;
	if (n->b.p.allocator == NOC_ALLOC_RR)
		ip->sa_rr = v + 1 == n->V ? 0 : (uint32_t)v + 1;
	int opi = ip->vc[v].out_port;
	int32_t cur = r->sa_best[opi];
	if (cur < 0) {
		r->sa_best[opi] = i;
		bitset_add(r->sa_req, (unsigned)opi);
	} else {
		/* Round robin from sa_rr: ports bid in increasing order, so a later bid wins only
		 * by being the first at or after the pointer. */
		uint32_t rr = r->out[opi].sa_rr;
		if ((uint32_t)cur < rr && (uint32_t)i >= rr)
			r->sa_best[opi] = i;
	}
	return true;
}

/* One cycle of router r. Also sets r->next_c: c + 1 after any route computation or bid
 * (won or lost: the state changed or the bid is retried), else the earliest cycle at
 * which a VC's wait ends by itself. Waits that end only by an event outside this router
 * (a flit or a credit arriving, an ejection slot freed) count as never here: those events
 * lower next_c themselves. A VA request with no free output VC waits for this router's
 * own SA to release one, which is a bid. V: n->V, a constant in the 1-VC instance (noc_cyc_step). */
static inline __attribute__((always_inline)) void router_step(struct noc_cyc *n, struct cyc_net *net, struct cyc_router *r,
							      uint64_t c, const int V)
{
	const uint32_t n_inputs = (uint32_t)(r->n_in * V);
	const int in_words = r->in_words;
	uint64_t wake = UINT64_MAX;
	bool routed = false;

	/* With a VC allocation delay a VC granted now cannot bid for the switch this cycle, and SA
	 * reads nothing that VA bids change: one pass over the ports makes both bids (a port's SA
	 * bid from its VCs active before the VA commit). Without the delay, SA follows the commit. */
	const bool islip = n->b.p.allocator == NOC_ALLOC_ISLIP;
	const bool one_pass = n->va_delay > 0 && !islip;
	bool any = false;
	uint64_t multi = 0;           /* nonzero: some input port bid with two candidate VCs or more */

	/* RC, then VA bids (input side picks one free output VC, output side picks one input). */
	int n_touched = 0;
	for (int wi = 0; wi < in_words; wi++) {
		for (uint64_t ports = r->in_busy[wi]; ports; ports &= ports - 1) {
			int i = wi * 64 + __builtin_ctzll(ports);
			struct cyc_in_port *ip = &r->in[i];
			for (uint64_t bits = ip->busy & ~ip->active & ~ip->va_blocked; bits; bits &= bits - 1) {
				int v = __builtin_ctzll(bits);
				struct cyc_in_vc *iv = &ip->vc[v];
				if (iv->state == VC_IDLE) {
					if (iv->head_ready > c) {
						wake = min_u64(wake, iv->head_ready);
						continue;
					}
					router_route(n, net, iv, c);
					routed = true;
				}
				if (iv->stage_ready > c) {
					wake = min_u64(wake, iv->stage_ready);
					continue;
				}
				struct cyc_out_port *op = &r->out[iv->out_port];
				/* The first free VC of the head's range from the output port's rotating
				 * pointer (vc_lo + next_vc % span, then round the range), so successive
				 * packets through a port spread over the downstream VCs. */
				uint64_t avail = op->free_vcs & iv->vc_mask;
				if (!avail) {
					ip->va_blocked |= UINT64_C(1) << v;
					bitset_add(r->in_va_blocked, (unsigned)i);
					continue;
				}
				uint64_t from = avail & (~UINT64_C(0) << (iv->vc_lo + op->next_off));
				int pick = __builtin_ctzll(from ? from : avail);
				if (op->next_vc > UINT32_MAX - op->span)
					pick = va_pick_wrapping(op, iv);
				uint32_t me = (uint32_t)(i * V + v), slot = (uint32_t)(iv->out_port * V + pick);
				int32_t cur = r->va_best[slot];
				if (cur < 0) {
					r->va_touched[n_touched++] = slot;
					r->va_best[slot] = (int32_t)me;
				} else if ((uint32_t)cur < op->va_rr[pick] && me >= op->va_rr[pick]) {
					/* Round robin from va_rr: inputs bid in increasing order, so a later
					 * bid wins only by being the first at or after the pointer. */
					r->va_best[slot] = (int32_t)me;
				}
			}
			uint64_t cand = one_pass ? ip->busy & ip->active & ~ip->sa_blocked : 0;
			if (cand) {
				any |= sa_bid(n, r, i, cand, c, &wake);
				multi |= cand & (cand - 1);
			}
		}
	}
	for (int k = 0; k < n_touched; k++) {
		uint32_t slot = r->va_touched[k];
		int32_t w = r->va_best[slot];
		r->va_best[slot] = -1;
		int opi = (int)slot / V, ov = (int)slot % V;
		struct cyc_out_port *op = &r->out[opi];
		struct cyc_in_port *ip = &r->in[w / V];
		struct cyc_in_vc *iv = &ip->vc[w % V];
		op->vc[ov].owner = w;
		op->vc[ov].own_port = (int16_t)(w / V);
		op->vc[ov].own_vc = (int16_t)(w % V);
		op->free_vcs &= ~(UINT64_C(1) << ov);
		op->va_rr[ov] = (uint32_t)w + 1 == n_inputs ? 0 : (uint32_t)w + 1;
		iv->state = VC_ACTIVE;
		ip->active |= UINT64_C(1) << (w % V);
		bitset_add(r->in_active, (unsigned)(w / V));
		iv->out_vc = (int16_t)ov;
		iv->ovc = &op->vc[ov];
		if (++op->next_vc == 0)
			op->next_off = 0; /* 2^32 % span need not be 0 */
		else if (++op->next_off == op->span)
			op->next_off = 0;
		iv->stage_ready = c + (uint64_t)n->va_delay;
	}

	/* iSLIP reads every VC of a port at once, after the VA commit: a VC granted now waits
	 * va_delay > 0 (sa_ready), or may request this cycle with a delay of 0. */
	if (islip) {
		bool req = noc_cyc_islip(n, r, c, &wake);
		r->next_c = routed || n_touched || req ? c + 1 : wake;
		return;
	}
	/* SA: each input port bids with one VC, each output port grants one input port. */
	if (!one_pass)
		for (int wi = 0; wi < in_words; wi++)
			for (uint64_t ports = r->in_busy[wi] & r->in_active[wi]; ports; ports &= ports - 1) {
				int i = wi * 64 + __builtin_ctzll(ports);
				uint64_t cand = r->in[i].busy & r->in[i].active & ~r->in[i].sa_blocked;
				if (cand) {
					any |= sa_bid(n, r, i, cand, c, &wake);
					multi |= cand & (cand - 1);
				}
			}
	r->next_c = routed || n_touched || any ? c + 1 : wake;
	if (!any)
		return;
	/* Speedup: further switch allocation rounds in the same cycle (BookSim's internal_speedup
	 * S steps the router S times a cycle; its input_speedup Sin gives each input port Sin
	 * crossbar inputs, VC v on input v % Sin). A round lets each crossbar input send one more
	 * flit, up to S a cycle, and each output take one more, up to S a cycle; what an output
	 * takes beyond one a cycle waits in its output buffer (router_grant, noc_cycle_traverse.c).
	 * With S = 1 a round after the first can grant only a VC of a port that bid with two
	 * candidates or more in the round before: a port's lone candidate has either sent (its
	 * crossbar input is used up), lost (the output it asked for granted another port), or
	 * failed in sa_pick, and fails again (same cycle, and this router's grants move flits
	 * and credits only to other routers unless a link loops back: self_link). VCs that won
	 * VA this cycle wait va_delay > 0 in one_pass mode, and were candidates
	 * already otherwise. So such a round changes nothing and is skipped. Whether the next
	 * round runs is known from this round's bids, before its grants: they are counted in
	 * out_sent/xin_sent only then, and the counts are cleared after the last counted round. */
	const int S = n->b.p.internal_speedup, Sin = n->b.p.input_speedup;
	bool counted = false;
	for (int round = 1;; round++) {
		bool next = round < r->sa_rounds && (multi || r->sa_rounds_always);
		noc_cyc_router_grants(n, r, c, next);
		if (!next)
			break;
		counted = true;
		any = false;
		multi = 0;
		for (int wi = 0; wi < in_words; wi++)
			for (uint64_t ports = r->in_busy[wi] & r->in_active[wi]; ports; ports &= ports - 1) {
				int i = wi * 64 + __builtin_ctzll(ports);
				struct cyc_in_port *ip = &r->in[i];
				uint64_t cand = ip->busy & ip->active & ~ip->sa_blocked;
				for (uint64_t bits = cand; bits; bits &= bits - 1) {
					int v = __builtin_ctzll(bits);
					if (r->xin_sent[i * Sin + v % Sin] >= S || r->out_sent[ip->vc[v].out_port] >= S)
						cand &= ~(UINT64_C(1) << v);
				}
				if (cand) {
					any |= sa_bid(n, r, i, cand, c, &wake);
					multi |= cand & (cand - 1);
				}
			}
		if (!any)
			break;
	}
	if (counted) {
		memset(r->out_sent, 0, (size_t)r->n_out);
		memset(r->xin_sent, 0, (size_t)(r->n_in * Sin));
	}
}

/* ---- the cycle loop ------------------------------------------------------------------ */

/* Here, not with the sources (noc_cycle.c): router_step is inlined into it, 1% fewer
 * instructions on warpsim noc's uniform traffic than a call per router. Its 1-VC instance (gtx480's
 * and m2090's crossbars) has the VC arithmetic folded: 3.6% fewer NoC instructions on gtx480 bfs medium. */
void noc_cyc_step(struct noc_base *b, uint64_t c)
{
	struct noc_cyc *n = (struct noc_cyc *)b;
	for (int k = 0; k < n->n_nets; k++) {
		struct cyc_net *net = &n->net[k];
		if (n->flits_in_routers)
			for (struct cyc_router *r = net->r, *end = r + b->topo->n_routers; r != end; r++) {
				if (!r->flits)
					continue;
				/* Counted here, not in router_step: a router not due this cycle
				 * still holds its flits. */
				r->occ_sum += r->flits;
				if (r->next_c <= c) {
					if (n->V == 1)
						router_step(n, net, r, c, 1);
					else
						router_step(n, net, r, c, n->V);
				}
			}
		if (n->pkts_in_sources)
			for (int w = 0; w * 64 < b->topo->n_nodes; w++)
				for (uint64_t bits = net->src_busy[w]; bits; bits &= bits - 1)
					noc_cyc_source_step(n, net, w * 64 + __builtin_ctzll(bits), c);
	}
}
