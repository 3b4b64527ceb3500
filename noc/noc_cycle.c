/* SPDX-License-Identifier: MIT */
/* Cycle-level NoC (BookSim iq_router-like): input-buffered VC routers, credit flow control,
 * RC/VA/SA/ST pipeline with settable delays, separable round-robin or iSLIP allocators. */
#include "noc_impl.h"

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

enum { VC_IDLE, VC_VA, VC_ACTIVE };
enum { PORT_LINK, PORT_NODE };

struct cyc_pkt {
	void *payload;
	int32_t src, dst;
	uint16_t flits, hop;          /* hop: links already routed by the head */
	uint16_t route_len;           /* topo_route_len(src, dst), looked up once at injection */
	uint8_t cls;                  /* enum noc_class */
	const int32_t *route_link;    /* topo_route_links(src, dst) */
	const uint8_t *route_vc;      /* topo_route_vcs(src, dst) */
	uint64_t enq_cycle, inject_cycle, head_arr_cycle;
	uint32_t next_free;
};

struct cyc_out_vc {
	int32_t owner;                /* input (port*V + vc) holding it, -1 when free */
	int32_t credits;              /* free slots downstream, usable now */
	uint64_t *cr_ready;           /* ring of pending credits' arrival cycles */
	uint16_t cr_head, cr_count, cr_cap;
	int16_t own_port, own_vc;     /* owner / V and owner % V while owner >= 0 (router VCs) */
};

struct cyc_out_port {
	int kind;                     /* PORT_LINK or PORT_NODE (ejection) */
	struct cyc_router *dst;       /* PORT_LINK: the router the link leads to */
	int dst_in_port;              /* PORT_LINK: its input port there */
	int node;                     /* PORT_NODE */
	/* sw_alloc + st delay + the channel's latency: a flit granted in cycle c is readable
	 * downstream from c + grant_delay (unless it waits for the channel, link_free). */
	uint32_t grant_delay;
	struct cyc_out_vc *vc;
	uint32_t *va_rr;              /* [V] round-robin pointer over inputs */
	uint32_t sa_rr;               /* over input ports */
	uint32_t next_vc;             /* VA: where the VC search starts */
	uint32_t next_off;            /* next_vc % span, kept with it (no division per bid) */
	uint32_t span;                /* VCs a head may take here: V / classes (/ route classes on links) */
	uint64_t free_vcs;            /* bit v: vc[v].owner < 0 (V <= 64) */
	uint64_t flits;               /* flits sent (link utilisation) */
	/* First cycle the channel is free: with an internal speedup an output may win several
	 * flits in one cycle, and all but the first wait in its output buffer. Without speedup
	 * every grant already finds the channel free (one grant a cycle, constant delay). */
	uint64_t link_free;
};

struct cyc_flit {
	uint64_t ready;               /* cycle from which it is readable */
	uint32_t pkt;                 /* packet index */
	uint16_t seq;                 /* flit number in its packet (0 = head) */
	bool tail;
};

/* The allocators read only this struct (not the ring) for the head flit's state. */
struct cyc_in_vc {
	uint64_t head_ready;          /* ready of buf[head] while count > 0 */
	uint64_t stage_ready;         /* earliest cycle of the next stage */
	struct cyc_flit *buf;         /* ring of depth flits */
	struct cyc_out_vc *ovc;       /* VC_ACTIVE: the output VC it holds */
	uint64_t vc_mask;             /* VC_VA/VC_ACTIVE: bits vc_lo .. vc_hi - 1 */
	int32_t ejq;                  /* routed to an ejection port: its queue in n->ejq, else -1 */
	uint16_t head, count;
	uint8_t state;
	uint8_t vc_lo, vc_hi;         /* output VCs the head may take */
	int16_t out_port, out_vc;
};

struct cyc_in_port {
	/* Where a freed slot's credit goes: the VCs of the upstream output port (a link) or of the
	 * node's injection channel (an injection port), and for a link the router that owns them. */
	struct cyc_out_vc *up_vc;     /* [V] */
	struct cyc_router *up;        /* the upstream router; NULL for an injection port */
	struct cyc_in_vc *vc;
	uint64_t busy;                /* bit v: vc[v] holds flits (V <= 64); the scans visit only these */
	uint64_t active;              /* bit v: vc[v] is VC_ACTIVE (SA looks at these, VA at the rest) */
	/* VCs whose bid is known to fail until an event outside their own visit: the scans skip
	 * them (a failed visit changes nothing) and the event clears the bit.
	 * va_blocked: VC_VA, stage over, no free VC in its range at its output port (cleared
	 * when a VC of that port is freed). sa_blocked: VC_ACTIVE, head ready, no credit and
	 * none on its way (cleared when a credit is sent back to its output VC, or a packet
	 * leaves an ejection queue of the router). */
	uint64_t va_blocked, sa_blocked;
	uint32_t sa_rr;               /* over VCs */
};

struct cyc_router {
	int n_in, n_out;
	struct cyc_in_port *in;
	struct cyc_out_port *out;
	uint32_t flits;               /* buffered flits: the router is skipped when 0 */
	uint64_t occ_sum;             /* sum over cycles of buffered flits */
	/* Earliest cycle at which router_step could bid or route. A step before it is
	 * a no-op (no bid changes no state), so this only needs to be a lower bound:
	 * router_step sets it from what its VCs wait for, and every change from outside
	 * (a flit pushed in, a credit returned, an ejection slot freed) lowers it. */
	uint64_t next_c;
	int32_t *va_best;             /* scratch [n_out * V] */
	uint32_t *va_touched;         /* scratch list of out*V+vc */
	int32_t *sa_best;             /* scratch [n_out] */
	int16_t *sa_choice;           /* scratch [n_in] */
	/* Bit sets, 64 ports a word: the steps visit only the ports they name, in index order. */
	uint64_t *in_busy;            /* [(n_in + 63) / 64]: input ports with a busy VC */
	uint64_t *in_va_blocked;      /* [(n_in + 63) / 64]: input ports with va_blocked VCs */
	uint64_t *sa_req;             /* scratch [(n_out + 63) / 64]: outputs requested in SA */
	/* With a speedup (noc_params.internal_speedup, input_speedup > 1), this cycle's grants:
	 * per output, and per crossbar input (input port i, VC v uses input i * Sin + v % Sin).
	 * Only a later SA round of the same cycle reads them, so a round's grants are counted
	 * only when another round follows (router_step), and they are all zero between steps. */
	uint8_t *out_sent;            /* [n_out] */
	uint8_t *xin_sent;            /* [n_in * input_speedup] */
	bool self_link;               /* a link joins this router to itself (see router_step) */
	/* Fixed at build, read every step. */
	int in_words, out_words;      /* (n_in + 63) / 64, (n_out + 63) / 64: words of the bit sets */
	int sa_rounds;                /* SA rounds a cycle: internal_speedup * input_speedup, 1 without */
	bool sa_rounds_always;        /* a later round may grant without a two-candidate bid: S > 1 or self_link */
};

struct cyc_source {
	int router, in_port;
	struct cyc_out_vc *vc;        /* [V]: the injection channel's VCs */
	uint32_t *q[NOC_NUM_CLASSES]; /* per local class: ring of packets */
	uint16_t q_head[NOC_NUM_CLASSES], q_count[NOC_NUM_CLASSES];
	int16_t cur_vc[NOC_NUM_CLASSES];
	uint16_t next_seq[NOC_NUM_CLASSES];
	uint16_t last_vc[NOC_NUM_CLASSES]; /* offset in the class's VC range */
	uint32_t rr;
};

/* Ejection queue of a node and class: whole packets in tail-arrival order. Its flit slots are
 * one credit pool shared by every VC of the ejection port, so packets on different VCs
 * eject in parallel (one VC per class would allow one packet per VA+SA round trip). */
struct cyc_ejq {
	uint32_t *pkt;
	uint64_t *tail_ready;         /* cycle the tail arrives */
	uint16_t head, count, cap;
	int32_t credits;              /* free flit slots, counting flits on their way */
};

struct cyc_net {
	int n_cls, cls_base;          /* message classes carried; global class of local 0 */
	int per_link;                 /* VCs of a (message class, route VC class) on a link: V / (n_cls * K) */
	int per_node;                 /* VCs of a message class at an ejection port: V / n_cls */
	uint64_t link_vcs, node_vcs;  /* per_link, per_node low bits set: a head's VC range at vc_lo 0 */
	struct cyc_router *r;
	struct cyc_source *src;       /* [n_nodes] */
	int *link_out_port;           /* [n_links] */
	int *node_out_port;           /* [n_nodes] ejection port at the node's router */
	/* Nodes whose source holds packets, one bit each: source_step runs only for these
	 * (an empty source does nothing, and sources never interact). */
	uint64_t *src_busy;           /* [(n_nodes + 63) / 64] */
};

struct noc_cyc {
	struct noc_base b;
	int V, K;                     /* VCs per port, route VC classes */
	int n_nets;
	struct cyc_net net[2];
	struct cyc_pkt *pkt;
	uint32_t n_pkt, free_head;
	struct cyc_ejq *ejq;          /* [n_nodes * NOC_NUM_CLASSES] */
	void **allocs;                /* everything allocated at build, freed at destroy */
	size_t n_allocs, cap_allocs;
	uint64_t flits_in_routers, pkts_in_sources, outstanding;
	uint64_t injected, ejected, flits_ejected, flits_injected;
	struct stat_avg lat_queue, lat_net, lat_serial, lat_total;
	int64_t credit_min;
};

static void *zalloc(struct noc_cyc *n, size_t count, size_t size)
{
	if (n->n_allocs == n->cap_allocs) {
		size_t cap = n->cap_allocs ? n->cap_allocs * 2 : 64;
		void **na = realloc(n->allocs, cap * sizeof *na);
		if (!na)
			return NULL;
		n->allocs = na;
		n->cap_allocs = cap;
	}
	void *p = calloc(count ? count : 1, size);
	if (p)
		n->allocs[n->n_allocs++] = p;
	return p;
}

/* ---- helpers ----------------------------------------------------------------------- */

static inline uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Port bit sets (64 ports a word). The index is unsigned: a signed one costs a sign fix-up
 * for every / and %. */
static inline void bitset_add(uint64_t *set, unsigned k)
{
	set[k / 64] |= UINT64_C(1) << (k % 64);
}

static inline void bitset_del(uint64_t *set, unsigned k)
{
	set[k / 64] &= ~(UINT64_C(1) << (k % 64));
}

static inline void router_wake(struct cyc_router *r, uint64_t c)
{
	if (c < r->next_c)
		r->next_c = c;
}

static inline int32_t ovc_credits(struct cyc_out_vc *o, uint64_t c)
{
	while (o->cr_count && o->cr_ready[o->cr_head] <= c) {
		o->credits++;
		if (++o->cr_head == o->cr_cap)
			o->cr_head = 0;
		o->cr_count--;
	}
	return o->credits;
}

static inline void ovc_credit_later(struct cyc_out_vc *o, uint64_t when)
{
	/* FIFO: credits are returned in the cycle order they are sent. */
	SIM_ASSERT(o->cr_count < o->cr_cap);
	uint32_t i = (uint32_t)o->cr_head + o->cr_count;
	o->cr_ready[i >= o->cr_cap ? i - o->cr_cap : i] = when;
	o->cr_count++;
}

static inline void ivc_push(struct cyc_router *r, int port, int vc, int depth, struct cyc_flit f)
{
	struct cyc_in_port *ip = &r->in[port];
	struct cyc_in_vc *v = &ip->vc[vc];
	SIM_ASSERT(v->count < depth); /* credits guarantee a free slot */
	int i = v->head + v->count;
	if (i >= depth)
		i -= depth;
	v->buf[i] = f;
	if (!v->count++)
		v->head_ready = f.ready;
	ip->busy |= UINT64_C(1) << vc;
	bitset_add(r->in_busy, (unsigned)port);
	r->flits++;
	router_wake(r, f.ready);
}

static inline struct cyc_net *net_of(struct noc_cyc *n, enum noc_class cls, int *local)
{
	if (n->n_nets == 2) {
		*local = 0;
		return &n->net[cls];
	}
	*local = (int)cls;
	return &n->net[0];
}

/* ---- ejection ---------------------------------------------------------------------- */

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
		int i = (q->head + q->count) % q->cap;
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

/* ---- one router, one cycle ----------------------------------------------------------- */

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
 * head flit may leave in cycle c; -1 if none. Lowers *wake to the cycle from which a
 * waiting VC could request by itself. */
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
		struct cyc_in_vc *iv = &ip->vc[v];
		uint64_t ready = iv->stage_ready > iv->head_ready ? iv->stage_ready : iv->head_ready;
		if (ready > c) {
			*wake = min_u64(*wake, ready);
			continue;
		}
		if (iv->ejq >= 0) {
			if (n->ejq[iv->ejq].credits <= 0) {
				ip->sa_blocked |= UINT64_C(1) << v; /* cyc_try_eject wakes the router */
				continue;
			}
		} else {
			struct cyc_out_vc *ov = iv->ovc;
			if (ovc_credits(ov, c) <= 0) {
				/* A credit on its way ends the wait; later ones wake the router. */
				if (ov->cr_count)
					*wake = min_u64(*wake, ov->cr_ready[ov->cr_head]);
				else
					ip->sa_blocked |= UINT64_C(1) << v;
				continue;
			}
		}
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
	if (!n->b.p.islip)
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

/* Output port o grants the input port that won it in SA: that input's chosen VC sends its
 * head flit. count: another SA round follows in this cycle (it reads out_sent/xin_sent). */
static void router_grant(struct noc_cyc *n, struct cyc_router *r, int o, uint64_t c, bool count)
{
	const int V = n->V, depth = n->b.p.vc_buffer_flits;
	int i = r->sa_best[o];
	r->sa_best[o] = -1;
	struct cyc_out_port *op = &r->out[o];
	struct cyc_in_port *ip = &r->in[i];
	int v = r->sa_choice[i];
	struct cyc_in_vc *iv = &ip->vc[v];
	op->sa_rr = i + 1 == r->n_in ? 0 : (uint32_t)i + 1;
	if (n->b.p.islip)
		ip->sa_rr = v + 1 == V ? 0 : (uint32_t)v + 1;

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
		va_unblock(r, o);
	}
}

/* Every output port that an input won in this SA round grants it. Grants in output order:
 * ejections add to the latency sums in this order. */
static void router_grants(struct noc_cyc *n, struct cyc_router *r, uint64_t c, bool count)
{
	for (int wo = 0; wo < r->out_words; wo++) {
		uint64_t outs = r->sa_req[wo];
		r->sa_req[wo] = 0;
		for (; outs; outs &= outs - 1)
			router_grant(n, r, wo * 64 + __builtin_ctzll(outs), c, count);
	}
}

/* One cycle of router r. Also sets r->next_c: c + 1 after any route computation or bid
 * (won or lost: the state changed or the bid is retried), else the earliest cycle at
 * which a VC's wait ends by itself. Waits that end only by an event outside this router
 * (a flit or a credit arriving, an ejection slot freed) count as never here: those events
 * lower next_c themselves. A VA request with no free output VC waits for this router's
 * own SA to release one, which is a bid. */
static void router_step(struct noc_cyc *n, struct cyc_net *net, struct cyc_router *r, uint64_t c)
{
	const int V = n->V;
	const uint32_t n_inputs = (uint32_t)(r->n_in * V);
	const int in_words = r->in_words;
	uint64_t wake = UINT64_MAX;
	bool routed = false;

	/* With a VC allocation delay a VC granted now cannot bid for the switch this cycle, and SA
	 * reads nothing that VA bids change: one pass over the ports makes both bids (a port's SA
	 * bid from its VCs active before the VA commit). Without the delay, SA follows the commit. */
	const bool one_pass = n->b.p.vc_alloc_delay_cycles > 0;
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
			uint64_t cand = ip->busy & ip->active & ~ip->sa_blocked;
			if (one_pass && cand) {
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
		iv->out_vc = (int16_t)ov;
		iv->ovc = &op->vc[ov];
		if (++op->next_vc == 0)
			op->next_off = 0; /* 2^32 % span need not be 0 */
		else if (++op->next_off == op->span)
			op->next_off = 0;
		iv->stage_ready = c + (uint64_t)n->b.p.vc_alloc_delay_cycles;
	}

	/* SA: each input port bids with one VC, each output port grants one input port. */
	if (!one_pass)
		for (int wi = 0; wi < in_words; wi++)
			for (uint64_t ports = r->in_busy[wi]; ports; ports &= ports - 1) {
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
	 * takes beyond one a cycle waits in its output buffer (router_grant).
	 * With S = 1 a round after the first can grant only a VC of a port that bid with two
	 * candidates or more in the round before: a port's lone candidate has either sent (its
	 * crossbar input is used up), lost (the output it asked for granted another port), or
	 * failed in sa_pick, and fails again (same cycle, and this router's grants move flits
	 * and credits only to other routers unless a link loops back: self_link). VCs that won
	 * VA this cycle wait vc_alloc_delay_cycles > 0 in one_pass mode, and were candidates
	 * already otherwise. So such a round changes nothing and is skipped. Whether the next
	 * round runs is known from this round's bids, before its grants: they are counted in
	 * out_sent/xin_sent only then, and the counts are cleared after the last counted round. */
	const int S = n->b.p.internal_speedup, Sin = n->b.p.input_speedup;
	bool counted = false;
	for (int round = 1;; round++) {
		bool next = round < r->sa_rounds && (multi || r->sa_rounds_always);
		router_grants(n, r, c, next);
		if (!next)
			break;
		counted = true;
		any = false;
		multi = 0;
		for (int wi = 0; wi < in_words; wi++)
			for (uint64_t ports = r->in_busy[wi]; ports; ports &= ports - 1) {
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

/* ---- sources ------------------------------------------------------------------------ */

static void source_step(struct noc_cyc *n, struct cyc_net *net, int node, uint64_t c)
{
	struct cyc_source *s = &net->src[node];
	int per = net->per_link;
	for (int k = 0; k < net->n_cls; k++) {
		int m = (int)((s->rr + (uint32_t)k) % (uint32_t)net->n_cls);
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
				int cand = lo + (s->last_vc[m] + 1 + j) % per;
				struct cyc_out_vc *o = &s->vc[cand];
				if (o->owner < 0 && ovc_credits(o, c) > 0) {
					vc = cand;
					s->last_vc[m] = (uint16_t)((cand - lo) % per);
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
			s->q_head[m] = (uint16_t)((s->q_head[m] + 1) % n->b.p.inject_queue_packets);
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

static void cyc_step(struct noc_base *b, uint64_t c)
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
				if (r->next_c <= c)
					router_step(n, net, r, c);
			}
		if (n->pkts_in_sources)
			for (int w = 0; w * 64 < b->topo->n_nodes; w++)
				for (uint64_t bits = net->src_busy[w]; bits; bits &= bits - 1)
					source_step(n, net, w * 64 + __builtin_ctzll(bits), c);
	}
}

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
	memset(p, 0, sizeof *p);
	p->payload = payload;
	p->src = src;
	p->dst = dst;
	p->cls = (uint8_t)cls;
	p->flits = (uint16_t)flits;
	p->route_len = (uint16_t)topo_route_len(n->b.topo, src, dst);
	p->route_link = topo_route_links(n->b.topo, src, dst);
	p->route_vc = topo_route_vcs(n->b.topo, src, dst);
	p->enq_cycle = now;
	s->q[m][(s->q_head[m] + s->q_count[m]) % n->b.p.inject_queue_packets] = pi;
	s->q_count[m]++;
	net->src_busy[src / 64] |= UINT64_C(1) << (src % 64);
	n->pkts_in_sources++;
	n->outstanding++;
	n->injected++;
	noc_base_kick(&n->b);
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
	q->head = (uint16_t)((q->head + 1) % q->cap);
	q->count--;
	q->credits += p->flits;
	/* The router holding the node's ejection port may have been waiting for these slots. */
	int m;
	struct cyc_router *r = &net_of(n, cls, &m)->r[n->b.topo->node_router[node]];
	router_wake(r, noc_base_now(&n->b));
	for (int i = 0; i < r->n_in; i++)
		r->in[i].sa_blocked = 0; /* those waiting for this queue, and others (they recheck) */
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
	.step = cyc_step, .busy = cyc_busy, .summary = cyc_summary, .dump = cyc_dump,
};

/* ---- build ------------------------------------------------------------------------- */

static int init_ovc(struct noc_cyc *n, struct cyc_out_vc *o, int credits, int ring)
{
	o->owner = -1;
	o->credits = credits;
	o->cr_cap = (uint16_t)(ring > 0 ? ring : 1);
	o->cr_ready = zalloc(n, o->cr_cap, sizeof *o->cr_ready);
	return o->cr_ready ? 0 : -1;
}

static int build_net(struct noc_cyc *n, struct cyc_net *net, const struct topo *t)
{
	const int V = n->V, depth = n->b.p.vc_buffer_flits;
	net->r = zalloc(n, (size_t)t->n_routers, sizeof *net->r);
	net->src = zalloc(n, (size_t)t->n_nodes, sizeof *net->src);
	net->link_out_port = zalloc(n, (size_t)t->n_links, sizeof(int));
	net->node_out_port = zalloc(n, (size_t)t->n_nodes, sizeof(int));
	int *in_port_of_link = zalloc(n, (size_t)t->n_links, sizeof(int));
	net->src_busy = zalloc(n, (size_t)(t->n_nodes + 63) / 64, sizeof *net->src_busy);
	if (!net->r || !net->src || !net->link_out_port || !net->node_out_port || !in_port_of_link || !net->src_busy)
		return -1;
	/* Ports: terminals first (in node order), then links (in link order). */
	for (int node = 0; node < t->n_nodes; node++) {
		struct cyc_router *r = &net->r[t->node_router[node]];
		net->src[node].router = t->node_router[node];
		net->src[node].in_port = r->n_in++;
		net->node_out_port[node] = r->n_out++;
	}
	for (int l = 0; l < t->n_links; l++) {
		net->link_out_port[l] = net->r[t->links[l].src_router].n_out++;
		in_port_of_link[l] = net->r[t->links[l].dst_router].n_in++;
	}
	for (int ri = 0; ri < t->n_routers; ri++) {
		struct cyc_router *r = &net->r[ri];
		r->in = zalloc(n, (size_t)r->n_in, sizeof *r->in);
		r->out = zalloc(n, (size_t)r->n_out, sizeof *r->out);
		r->va_best = zalloc(n, (size_t)(r->n_out * V), sizeof *r->va_best);
		r->va_touched = zalloc(n, (size_t)(r->n_out * V), sizeof *r->va_touched);
		r->sa_best = zalloc(n, (size_t)r->n_out, sizeof *r->sa_best);
		r->sa_choice = zalloc(n, (size_t)r->n_in, sizeof *r->sa_choice);
		r->in_busy = zalloc(n, (size_t)(r->n_in + 63) / 64, sizeof *r->in_busy);
		r->in_va_blocked = zalloc(n, (size_t)(r->n_in + 63) / 64, sizeof *r->in_va_blocked);
		r->sa_req = zalloc(n, (size_t)(r->n_out + 63) / 64, sizeof *r->sa_req);
		if (n->b.p.internal_speedup > 1 || n->b.p.input_speedup > 1) {
			r->out_sent = zalloc(n, (size_t)r->n_out, 1);
			r->xin_sent = zalloc(n, (size_t)(r->n_in * n->b.p.input_speedup), 1);
			if (!r->out_sent || !r->xin_sent)
				return -1;
		}
		if (!r->in || !r->out || !r->va_best || !r->va_touched || !r->sa_best || !r->sa_choice || !r->in_busy ||
		    !r->in_va_blocked || !r->sa_req)
			return -1;
		for (int k = 0; k < r->n_out * V; k++)
			r->va_best[k] = -1;
		for (int k = 0; k < r->n_out; k++)
			r->sa_best[k] = -1;
		/* One block each for the router's input VCs and their rings: fewer cache lines. */
		struct cyc_in_vc *vcs = zalloc(n, (size_t)r->n_in * (size_t)V, sizeof *vcs);
		struct cyc_flit *bufs = zalloc(n, (size_t)r->n_in * (size_t)V * (size_t)depth, sizeof *bufs);
		if (!vcs || !bufs)
			return -1;
		for (int i = 0; i < r->n_in; i++) {
			r->in[i].vc = &vcs[(size_t)i * (size_t)V];
			for (int v = 0; v < V; v++) {
				struct cyc_in_vc *iv = &r->in[i].vc[v];
				iv->buf = &bufs[((size_t)i * (size_t)V + (size_t)v) * (size_t)depth];
				iv->ejq = -1;
				iv->out_port = -1;
				iv->out_vc = -1;
			}
		}
	}
	/* A flit granted in cycle c crosses the switch (sw_alloc + st) and then its channel. */
	const uint32_t sw_st = (uint32_t)(n->b.p.sw_alloc_delay_cycles + n->b.p.st_delay_cycles);
	for (int node = 0; node < t->n_nodes; node++) {
		struct cyc_source *s = &net->src[node];
		struct cyc_router *r = &net->r[s->router];
		struct cyc_out_port *op = &r->out[net->node_out_port[node]];
		op->kind = PORT_NODE;
		op->node = node;
		op->grant_delay = sw_st + n->b.p.inject_latency_cycles;
		s->vc = zalloc(n, (size_t)V, sizeof *s->vc);
		if (!s->vc)
			return -1;
		for (int v = 0; v < V; v++)
			if (init_ovc(n, &s->vc[v], depth, depth))
				return -1;
		for (int m = 0; m < NOC_NUM_CLASSES; m++) {
			s->q[m] = zalloc(n, (size_t)n->b.p.inject_queue_packets, sizeof(uint32_t));
			s->cur_vc[m] = -1;
			if (!s->q[m])
				return -1;
		}
	}
	for (int l = 0; l < t->n_links; l++) {
		struct cyc_router *src = &net->r[t->links[l].src_router];
		struct cyc_router *dst = &net->r[t->links[l].dst_router];
		struct cyc_out_port *op = &src->out[net->link_out_port[l]];
		op->kind = PORT_LINK;
		op->dst = dst;
		op->dst_in_port = in_port_of_link[l];
		op->grant_delay = sw_st + t->links[l].latency_cycles;
		dst->in[in_port_of_link[l]].up = src;
		if (src == dst)
			src->self_link = true;
	}
	for (int ri = 0; ri < t->n_routers; ri++) {
		struct cyc_router *r = &net->r[ri];
		r->in_words = (r->n_in + 63) / 64;
		r->out_words = (r->n_out + 63) / 64;
		r->sa_rounds = r->out_sent ? n->b.p.internal_speedup * n->b.p.input_speedup : 1;
		r->sa_rounds_always = n->b.p.internal_speedup > 1 || r->self_link;
		for (int o = 0; o < r->n_out; o++) {
			struct cyc_out_port *op = &r->out[o];
			op->vc = zalloc(n, (size_t)V, sizeof *op->vc);
			op->va_rr = zalloc(n, (size_t)V, sizeof *op->va_rr);
			if (!op->vc || !op->va_rr)
				return -1;
			op->span = (uint32_t)(op->kind == PORT_NODE ? net->per_node : net->per_link);
			op->free_vcs = V >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << V) - 1;
			for (int v = 0; v < V; v++) {
				int credits = op->kind == PORT_NODE ? n->b.p.eject_queue_flits : depth;
				if (init_ovc(n, &op->vc[v], credits, depth))
					return -1;
			}
		}
	}
	/* Credit targets, now that every port's VCs exist. */
	for (int node = 0; node < t->n_nodes; node++) {
		struct cyc_source *s = &net->src[node];
		net->r[s->router].in[s->in_port].up_vc = s->vc;
	}
	for (int l = 0; l < t->n_links; l++)
		net->r[t->links[l].dst_router].in[in_port_of_link[l]].up_vc =
			net->r[t->links[l].src_router].out[net->link_out_port[l]].vc;
	return 0;
}

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
	for (int k = 0; k < n->n_nets; k++) {
		n->net[k].n_cls = cls_per_net;
		n->net[k].per_link = p->vcs / (cls_per_net * n->K);
		n->net[k].per_node = p->vcs / cls_per_net;
		n->net[k].link_vcs = n->net[k].per_link >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n->net[k].per_link) - 1;
		n->net[k].node_vcs = n->net[k].per_node >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << n->net[k].per_node) - 1;
		n->net[k].cls_base = k;
		if (build_net(n, &n->net[k], t))
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
	n->pkt = zalloc(n, n->n_pkt, sizeof *n->pkt);
	n->ejq = zalloc(n, (size_t)t->n_nodes * NOC_NUM_CLASSES, sizeof *n->ejq);
	if (!n->pkt || !n->ejq)
		goto nomem_n;
	for (uint32_t i = 0; i < n->n_pkt; i++)
		n->pkt[i].next_free = i + 1 < n->n_pkt ? i + 1 : UINT32_MAX;
	n->free_head = 0;
	for (int i = 0; i < t->n_nodes * NOC_NUM_CLASSES; i++) {
		struct cyc_ejq *q = &n->ejq[i];
		q->cap = (uint16_t)p->eject_queue_flits;
		q->credits = p->eject_queue_flits;
		q->pkt = zalloc(n, q->cap, sizeof *q->pkt);
		q->tail_ready = zalloc(n, q->cap, sizeof *q->tail_ready);
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
			struct cyc_ratio *r = zalloc(n, 1, sizeof *r);
			if (!r)
				return SIM_ERR_NOMEM;
			r->n = n;
			r->num = &op->flits;
			stats_counter(st, &op->flits, "flits", "flits sent on the link", "noc.%slink.%d.flits", net, l);
			stats_derived(st, per_cycle, r, "flits/cycle", "link utilisation (flits per NoC cycle)",
				      "noc.%slink.%d.utilisation", net, l);
		}
		for (int ri = 0; ri < t->n_routers; ri++) {
			struct cyc_ratio *r = zalloc(n, 1, sizeof *r);
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
