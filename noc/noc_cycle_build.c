/* SPDX-License-Identifier: MIT */
/* The cycle-level NoC's construction: the allocations it frees at destroy, and each physical
 * network's routers, ports, VCs, buffers, credit targets and sources. */
#include "noc_cycle_impl.h"

#include <stdlib.h>

void *noc_cyc_zalloc(struct noc_cyc *n, size_t count, size_t size)
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

static int init_ovc(struct noc_cyc *n, struct cyc_out_vc *o, int credits, int ring)
{
	o->owner = -1;
	o->credits = credits;
	o->cr_cap = (uint16_t)(ring > 0 ? ring : 1);
	o->cr_ready = noc_cyc_zalloc(n, o->cr_cap, sizeof *o->cr_ready);
	return o->cr_ready ? 0 : -1;
}

int noc_cyc_build_net(struct noc_cyc *n, struct cyc_net *net, const struct topo *t)
{
	const int V = n->V, depth = n->b.p.vc_buffer_flits;
	net->r = noc_cyc_zalloc(n, (size_t)t->n_routers, sizeof *net->r);
	net->src = noc_cyc_zalloc(n, (size_t)t->n_nodes, sizeof *net->src);
	net->link_out_port = noc_cyc_zalloc(n, (size_t)t->n_links, sizeof(int));
	net->node_out_port = noc_cyc_zalloc(n, (size_t)t->n_nodes, sizeof(int));
	int *in_port_of_link = noc_cyc_zalloc(n, (size_t)t->n_links, sizeof(int));
	net->src_busy = noc_cyc_zalloc(n, (size_t)(t->n_nodes + 63) / 64, sizeof *net->src_busy);
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
		r->in = noc_cyc_zalloc(n, (size_t)r->n_in, sizeof *r->in);
		r->out = noc_cyc_zalloc(n, (size_t)r->n_out, sizeof *r->out);
		r->va_best = noc_cyc_zalloc(n, (size_t)(r->n_out * V), sizeof *r->va_best);
		r->va_touched = noc_cyc_zalloc(n, (size_t)(r->n_out * V), sizeof *r->va_touched);
		r->sa_best = noc_cyc_zalloc(n, (size_t)r->n_out, sizeof *r->sa_best);
		r->sa_choice = noc_cyc_zalloc(n, (size_t)r->n_in, sizeof *r->sa_choice);
		r->in_busy = noc_cyc_zalloc(n, (size_t)(r->n_in + 63) / 64, sizeof *r->in_busy);
		r->in_va_blocked = noc_cyc_zalloc(n, (size_t)(r->n_in + 63) / 64, sizeof *r->in_va_blocked);
		r->in_active = noc_cyc_zalloc(n, (size_t)(r->n_in + 63) / 64, sizeof *r->in_active);
		r->sa_req = noc_cyc_zalloc(n, (size_t)(r->n_out + 63) / 64, sizeof *r->sa_req);
		if (n->b.p.internal_speedup > 1 || n->b.p.input_speedup > 1) {
			r->out_sent = noc_cyc_zalloc(n, (size_t)r->n_out, 1);
			r->xin_sent = noc_cyc_zalloc(n, (size_t)(r->n_in * n->b.p.input_speedup), 1);
			if (!r->out_sent || !r->xin_sent)
				return -1;
		}
		if (n->b.p.allocator == NOC_ALLOC_ISLIP) {
			const int Sin = n->b.p.input_speedup;
			r->n_xin = r->n_in * Sin;
			r->xin_words = (r->n_xin + 63) / 64;
			const size_t ow = (size_t)(r->n_out + 63) / 64, nx = (size_t)r->n_xin;
			r->xin_vc_rr = noc_cyc_zalloc(n, nx, sizeof *r->xin_vc_rr);
			r->xin_acc_rr = noc_cyc_zalloc(n, nx, sizeof *r->xin_acc_rr);
			r->isl_req = noc_cyc_zalloc(n, (size_t)r->n_out * (size_t)r->xin_words, sizeof *r->isl_req);
			r->isl_grant = noc_cyc_zalloc(n, nx * ow, sizeof *r->isl_grant);
			r->isl_granted = noc_cyc_zalloc(n, (size_t)r->xin_words, sizeof *r->isl_granted);
			r->isl_req_vc = noc_cyc_zalloc(n, nx * (size_t)r->n_out, sizeof *r->isl_req_vc);
			r->sa_vc = noc_cyc_zalloc(n, (size_t)r->n_out, sizeof *r->sa_vc);
			if (!r->xin_vc_rr || !r->xin_acc_rr || !r->isl_req || !r->isl_grant || !r->isl_granted ||
			    !r->isl_req_vc || !r->sa_vc)
				return -1;
			for (int x = 0; x < r->n_xin; x++)
				r->xin_vc_rr[x] = (uint32_t)(x % Sin); /* BookSim's _sw_rr_offset */
		}
		if (!r->in || !r->out || !r->va_best || !r->va_touched || !r->sa_best || !r->sa_choice || !r->in_busy ||
		    !r->in_va_blocked || !r->in_active || !r->sa_req)
			return -1;
		for (int k = 0; k < r->n_out * V; k++)
			r->va_best[k] = -1;
		for (int k = 0; k < r->n_out; k++)
			r->sa_best[k] = -1;
		/* One block each for the router's input VCs and their rings: fewer cache lines. */
		struct cyc_in_vc *vcs = noc_cyc_zalloc(n, (size_t)r->n_in * (size_t)V, sizeof *vcs);
		struct cyc_flit *bufs = noc_cyc_zalloc(n, (size_t)r->n_in * (size_t)V * (size_t)depth, sizeof *bufs);
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
		s->vc = noc_cyc_zalloc(n, (size_t)V, sizeof *s->vc);
		if (!s->vc)
			return -1;
		for (int v = 0; v < V; v++)
			if (init_ovc(n, &s->vc[v], depth, depth))
				return -1;
		for (int m = 0; m < NOC_NUM_CLASSES; m++) {
			s->q[m] = noc_cyc_zalloc(n, (size_t)n->b.p.inject_queue_packets, sizeof(uint32_t));
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
			op->vc = noc_cyc_zalloc(n, (size_t)V, sizeof *op->vc);
			op->va_rr = noc_cyc_zalloc(n, (size_t)V, sizeof *op->va_rr);
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
