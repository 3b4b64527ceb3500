/* SPDX-License-Identifier: MIT */
/* Private to noc/noc_cycle*.c: the cycle-level NoC's state (packets, routers, VCs, credits,
 * sources, ejection queues) and the buffer and credit helpers its stages share. */
#ifndef WARPSIM_NOC_CYCLE_IMPL_H
#define WARPSIM_NOC_CYCLE_IMPL_H

#include "noc_impl.h"

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
	uint32_t sa_rr;               /* over input ports; allocator islip: iSLIP's grant pointer over crossbar inputs */
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
	/* [(n_in + 63) / 64]: input ports with a VC_ACTIVE VC (in[i].active != 0; set at the VA
	 * commit, cleared when a tail leaves the last one). Switch allocation bids only from
	 * busy active VCs, so its scans visit in_busy & in_active. */
	uint64_t *in_active;
	uint64_t *in_va_blocked;      /* [(n_in + 63) / 64]: input ports with va_blocked VCs */
	uint64_t *sa_req;             /* scratch [(n_out + 63) / 64]: outputs requested in SA */
	/* With a speedup (noc_params.internal_speedup, input_speedup > 1), this cycle's grants:
	 * per output, and per crossbar input (input port i, VC v uses input i * Sin + v % Sin).
	 * Only a later SA round of the same cycle reads them, so a round's grants are counted
	 * only when another round follows (router_step), and they are all zero between steps. */
	uint8_t *out_sent;            /* [n_out] */
	uint8_t *xin_sent;            /* [n_in * input_speedup] */
	/* Allocator islip only (noc_cycle_islip.c), over crossbar inputs x = port * Sin + VC % Sin
	 * (Sin = input_speedup): per x its VC pointer (BookSim's _sw_rr_offset) and its accept
	 * pointer over outputs; scratch of one allocation, all zero between allocations: per output
	 * the inputs requesting it, per input the outputs granting it, the inputs with a grant; the
	 * VC of request (x, o); the VC each matched output takes. */
	uint32_t *xin_vc_rr, *xin_acc_rr; /* [n_xin] */
	uint64_t *isl_req;            /* [n_out * xin_words] */
	uint64_t *isl_grant;          /* [n_xin * out_words] */
	uint64_t *isl_granted;        /* [xin_words] */
	int16_t *isl_req_vc;          /* [n_xin * n_out] */
	int16_t *sa_vc;               /* [n_out] */
	int n_xin, xin_words;         /* n_in * input_speedup, (n_xin + 63) / 64 */
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
	/* Set when sa_ready marks an input VC sa_blocked for want of these credits; cleared by
	 * the try_eject that frees slots and unblocks them. Only such VCs wait for this queue
	 * (a VC with credits bids, and VA reads none), so while it is false, taking a packet
	 * needs neither the router's wake nor an unblock (both would change nothing). */
	bool waiters;
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
	uint64_t xin_vcs[8];          /* [s]: the VCs v with v % input_speedup == s (crossbar input s of a port) */
	/* Cycles from a VC's VC-allocation grant to its first switch-allocation bid:
	 * vc_alloc_delay_cycles, one less with an internal speedup (noc_cycle.c: cyc_create). */
	int va_delay;
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

/* Zeroed memory that lives as long as n (noc_cycle_build.c; cyc_destroy frees it). */
void *noc_cyc_zalloc(struct noc_cyc *n, size_t count, size_t size);
/* Ports, VCs, buffers and sources of one physical network on topology t; -1: out of memory. */
int noc_cyc_build_net(struct noc_cyc *n, struct cyc_net *net, const struct topo *t);
/* One cycle of the NoC: every router due (RC, VA, SA, then the grants), then every source
 * holding packets (noc_cycle_router.c). */
void noc_cyc_step(struct noc_base *b, uint64_t c);
/* Node's source on net sends at most one flit into its router (noc_cycle.c). */
void noc_cyc_source_step(struct noc_cyc *n, struct cyc_net *net, int node, uint64_t c);
/* The grants of one input-first SA round (sa_best, sa_choice): the pointers move, then
 * switch and link traversal, credits (noc_cycle_traverse.c). */
void noc_cyc_router_grants(struct noc_cyc *n, struct cyc_router *r, uint64_t c, bool count);
/* Input port i's VC v crosses the switch to output o in cycle c (noc_cycle_traverse.c). count:
 * another input-first SA round follows in this cycle (it reads out_sent/xin_sent). */
void noc_cyc_router_grant(struct noc_cyc *n, struct cyc_router *r, int o, int i, int v, uint64_t c, bool count);
/* Up to internal_speedup iSLIP switch allocations of router r in cycle c, each followed by its
 * grants (noc_cycle_islip.c). False when no VC requested the switch; lowers *wake as sa_ready. */
bool noc_cyc_islip(struct noc_cyc *n, struct cyc_router *r, uint64_t c, uint64_t *wake);

/* ---- helpers ----------------------------------------------------------------------- */

static inline uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* i mod cap for 0 <= i < 2 cap, without a division: a ring index plus a count or a step,
 * each below cap. */
static inline int cyc_ring(int i, int cap)
{
	return i >= cap ? i - cap : i;
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

/* Whether input VC v of port ip (active, holding flits) may send its head flit in cycle c: the
 * flit and the stage are ready, and its output VC (or ejection queue) has a credit. If not,
 * lowers *wake to the cycle from which it could by itself, or marks it sa_blocked when only an
 * event elsewhere ends the wait. */
static inline __attribute__((always_inline)) bool sa_ready(struct noc_cyc *n, struct cyc_in_port *ip, int v, uint64_t c,
							   uint64_t *wake)
{
	struct cyc_in_vc *iv = &ip->vc[v];
	uint64_t ready = iv->stage_ready > iv->head_ready ? iv->stage_ready : iv->head_ready;
	if (ready > c) {
		*wake = min_u64(*wake, ready);
		return false;
	}
	if (iv->ejq >= 0) {
		if (n->ejq[iv->ejq].credits <= 0) {
			ip->sa_blocked |= UINT64_C(1) << v; /* cyc_try_eject wakes the router */
			n->ejq[iv->ejq].waiters = true;
			return false;
		}
	} else {
		struct cyc_out_vc *ov = iv->ovc;
		if (ovc_credits(ov, c) <= 0) {
			/* A credit on its way ends the wait; later ones wake the router. */
			if (ov->cr_count)
				*wake = min_u64(*wake, ov->cr_ready[ov->cr_head]);
			else
				ip->sa_blocked |= UINT64_C(1) << v;
			return false;
		}
	}
	return true;
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

#endif
