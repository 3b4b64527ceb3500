/* SPDX-License-Identifier: MIT */
/* The cycle-level NoC's iSLIP switch allocator (gpu.noc.allocator = islip): output-first
 * request, grant, accept, one iteration, as BookSim2's switch allocation with its islip allocator
 * does it (GPGPU-Sim 4.2's intersim2 and 2.x's intersim allocate the same way). */
#include "noc_cycle_impl.h"

/* The first member of set (words 64-bit words) at or after from, else the first of all; -1 if
 * the set is empty: a round-robin arbiter's pick from its pointer. */
static inline __attribute__((always_inline)) int bitset_next_cyclic(const uint64_t *set, int words, uint32_t from)
{
	int w0 = (int)(from / 64);
	if (w0 < words) {
		uint64_t b = set[w0] & (~UINT64_C(0) << (from % 64));
		if (b)
			return w0 * 64 + __builtin_ctzll(b);
		for (int w = w0 + 1; w < words; w++)
			if (set[w])
				return w * 64 + __builtin_ctzll(set[w]);
	}
	for (int w = 0; w < words && w <= w0; w++)
		if (set[w])
			return w * 64 + __builtin_ctzll(set[w]);
	return -1;
}

/* One allocation and its grants. Crossbar input x = port * Sin + s serves the port's VCs v with
 * v % Sin == s (input_speedup Sin). xw, ow: r->xin_words, r->out_words; V: n->V; all constants
 * in the one-word instances (V and Sin too in the 1-VC one). False when nothing requested. */
static inline __attribute__((always_inline)) bool islip_round(struct noc_cyc *n, struct cyc_router *r, uint64_t c,
							      uint64_t *wake, const int xw, const int ow, const int V,
							      const int Sin)
{
	const int n_out = r->n_out;
	bool any = false;

	/* Requests: each crossbar input asks every output that one of its sendable VCs is routed
	 * to, naming the first such VC in round-robin order from its VC pointer (BookSim keeps one
	 * request per input and output, the one its round-robin order from _sw_rr_offset puts
	 * first). */
	for (int wi = 0; wi < r->in_words; wi++)
		for (uint64_t ports = r->in_busy[wi] & r->in_active[wi]; ports; ports &= ports - 1) {
			int i = wi * 64 + __builtin_ctzll(ports);
			struct cyc_in_port *ip = &r->in[i];
			uint64_t cand = ip->busy & ip->active & ~ip->sa_blocked;
			for (int s = 0; cand && s < Sin; s++) {
				uint64_t xc = cand & n->xin_vcs[s];
				if (!xc)
					continue;
				int x = i * Sin + s;
				uint64_t bits = xc & (~UINT64_C(0) << r->xin_vc_rr[x]), rest = xc ^ bits;
				for (;;) {
					if (!bits) {
						if (!rest)
							break;
						bits = rest;
						rest = 0;
					}
					int v = __builtin_ctzll(bits);
					bits &= bits - 1;
					if (!sa_ready(n, ip, v, c, wake))
						continue;
					int o = ip->vc[v].out_port;
					uint64_t *req = &r->isl_req[o * xw + x / 64], bit = UINT64_C(1) << (x % 64);
					if (*req & bit)
						continue;
					*req |= bit;
					r->isl_req_vc[x * n_out + o] = (int16_t)v;
					bitset_add(r->sa_req, (unsigned)o);
					any = true;
				}
			}
		}
	if (!any)
		return false;

	/* Grant: each requested output grants the first requesting input at or after its pointer. */
	for (int wo = 0; wo < ow; wo++) {
		for (uint64_t outs = r->sa_req[wo]; outs; outs &= outs - 1) {
			int o = wo * 64 + __builtin_ctzll(outs);
			uint64_t *req = &r->isl_req[o * xw];
			int x = bitset_next_cyclic(req, xw, r->out[o].sa_rr);
			for (int w = 0; w < xw; w++)
				req[w] = 0;
			bitset_add(&r->isl_grant[x * ow], (unsigned)o);
			bitset_add(r->isl_granted, (unsigned)x);
		}
		r->sa_req[wo] = 0;
	}

	/* Accept: each input accepts the first granting output at or after its accept pointer.
	 * Only an accept moves pointers (BookSim: those of the first iteration): the output's past
	 * the input, the input's past the output, the input's VC pointer by Sin past the VC. A
	 * declined grant leaves its output idle this round. */
	for (int wx = 0; wx < xw; wx++) {
		for (uint64_t xs = r->isl_granted[wx]; xs; xs &= xs - 1) {
			int x = wx * 64 + __builtin_ctzll(xs);
			uint64_t *g = &r->isl_grant[x * ow];
			int o = bitset_next_cyclic(g, ow, r->xin_acc_rr[x]);
			for (int w = 0; w < ow; w++)
				g[w] = 0;
			int v = r->isl_req_vc[x * n_out + o];
			r->out[o].sa_rr = x + 1 == r->n_xin ? 0 : (uint32_t)x + 1;
			r->xin_acc_rr[x] = o + 1 == n_out ? 0 : (uint32_t)o + 1;
			r->xin_vc_rr[x] = (uint32_t)((v + Sin) % V);
			r->sa_best[o] = x / Sin;
			r->sa_vc[o] = (int16_t)v;
			bitset_add(r->sa_req, (unsigned)o);
		}
		r->isl_granted[wx] = 0;
	}

	/* The matches cross the switch in output order, as the input-first allocators' grants. */
	for (int wo = 0; wo < ow; wo++) {
		uint64_t outs = r->sa_req[wo];
		r->sa_req[wo] = 0;
		for (; outs; outs &= outs - 1) {
			int o = wo * 64 + __builtin_ctzll(outs);
			noc_cyc_router_grant(n, r, o, r->sa_best[o], r->sa_vc[o], c, false);
		}
	}
	return true;
}

/* BookSim's internal_speedup S steps the router S times a cycle: S allocations, each over the
 * state the one before left (a crossbar input and an output move up to S flits a cycle; an
 * output's extra flits wait for the channel, noc_cycle_traverse.c). input_speedup is inside each
 * allocation (its crossbar inputs), not extra rounds as with the input-first allocators. */
bool noc_cyc_islip(struct noc_cyc *n, struct cyc_router *r, uint64_t c, uint64_t *wake)
{
	const bool one_word = r->xin_words == 1 && r->out_words == 1;
	const bool one_vc = one_word && n->V == 1 && n->b.p.input_speedup == 1;
	const int V = n->V, Sin = n->b.p.input_speedup;
	bool any = false;
	for (int k = 0; k < n->b.p.internal_speedup; k++) {
		bool req = one_vc     ? islip_round(n, r, c, wake, 1, 1, 1, 1)
			   : one_word ? islip_round(n, r, c, wake, 1, 1, V, Sin)
				      : islip_round(n, r, c, wake, r->xin_words, r->out_words, V, Sin);
		if (!req)
			break;
		any = true;
	}
	return any;
}
