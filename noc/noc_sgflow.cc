/* SPDX-License-Identifier: MIT */
/* simgrid-flow NoC: the flow backend's job done by SimGrid (CM02 max-min, no cross traffic, no
 * TCP window), advanced in lock-step with the NoC clock; a cross-check of noc_flow.c. */
#ifdef WARPSIM_HAVE_SIMGRID
extern "C" {
#include "noc_impl.h"
}

#include <simgrid/engine.h>
#include <simgrid/s4u.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

/* One SimGrid second is one NoC cycle. Links carry no latency in SimGrid (with zero latency
 * every flow has the same CM02 weight, so the sharing is plain max-min); the fixed part
 * (pipeline, link and channel latencies) is added per route exactly as noc_flow.c does, so
 * the two backends differ only in how bandwidth is shared: SimGrid recomputes rates at each
 * completion instant, the native model at cycle boundaries. A packet accepted in cycle c
 * starts at c + 1; one whose transfer ends at time F is done in cycle ceil(F) - 1. */

namespace {

struct sgf_pkt {
	void *payload;
	int32_t src, dst;
	uint8_t cls;
	bool started;
	uint32_t bytes;
	uint64_t enq_cycle, arrive_cycle;
	uint32_t next;
	double self_finish;           /* loaded platforms have no host-to-itself route */
	sg4::CommPtr comm;
};

constexpr uint32_t SGF_NONE = UINT32_MAX;

struct sgf_impl {
	std::vector<sg4::Host *> host;      /* [net * n_nodes + node] */
	std::vector<sgf_pkt> pkt;
	uint32_t free_head = SGF_NONE;
	std::vector<uint32_t> active;       /* accepted, not yet sent whole */
	std::vector<uint32_t> ejq;          /* [node * classes + cls] arrival-ordered list */
	std::vector<uint32_t> src_count;
	std::vector<uint32_t> prop;         /* [pairs] fixed latency, cycles */
	int n_nets = 1;
	bool reuse = false;                 /* the platform came from a SimGrid file */
	uint64_t outstanding = 0, injected = 0, ejected = 0, bytes_ejected = 0;
	struct stat_avg lat_net = {0, 0}, lat_total = {0, 0};
};

} // namespace

struct noc_sgflow {
	struct noc_base b; /* first: standard layout, so struct noc * casts to it */
	sgf_impl *impl;
};

/* SimGrid has one engine per process; this backend builds its platform in it once. */
static bool sgf_platform_built;

static sgf_impl *impl_of(const struct noc_base *b) { return reinterpret_cast<const noc_sgflow *>(b)->impl; }

static void sgf_step(struct noc_base *b, uint64_t c)
{
	sgf_impl *m = impl_of(b);
	while (simgrid_get_clock() < (double)c)
		simgrid_run_until((double)c);
	for (uint32_t pi : m->active) {
		sgf_pkt &p = m->pkt[pi];
		if (!p.started && p.enq_cycle < c) {
			p.started = true;
			b->moves++;
			if (m->reuse && p.src == p.dst) {
				p.self_finish = (double)c + (double)p.bytes / (double)b->p.channel_bytes;
				continue;
			}
			p.comm = sg4::Comm::sendto_async(m->host[(size_t)(m->n_nets == 2 ? p.cls : 0) * (size_t)b->topo->n_nodes + (size_t)p.src],
							 m->host[(size_t)(m->n_nets == 2 ? p.cls : 0) * (size_t)b->topo->n_nodes + (size_t)p.dst],
							 p.bytes);
		}
	}
	while (simgrid_get_clock() < (double)(c + 1))
		simgrid_run_until((double)(c + 1));
	size_t keep = 0;
	for (size_t i = 0; i < m->active.size(); i++) {
		uint32_t pi = m->active[i];
		sgf_pkt &p = m->pkt[pi];
		bool self = m->reuse && p.src == p.dst;
		if (!p.started || (self ? p.self_finish > (double)(c + 1) : !p.comm->test())) {
			m->active[keep++] = pi;
			continue;
		}
		b->moves++;
		double fin = self ? p.self_finish : p.comm->get_finish_time();
		p.comm = nullptr;
		uint64_t done = (uint64_t)std::ceil(fin - 1e-9) - 1;
		m->src_count[(size_t)p.src * NOC_NUM_CLASSES + p.cls]--;
		p.arrive_cycle = done + m->prop[(size_t)p.src * (size_t)b->topo->n_nodes + (size_t)p.dst];
		uint32_t *at = &m->ejq[(size_t)p.dst * NOC_NUM_CLASSES + p.cls];
		while (*at != SGF_NONE && m->pkt[*at].arrive_cycle <= p.arrive_cycle)
			at = &m->pkt[*at].next;
		p.next = *at;
		*at = pi;
		stat_avg_add(&m->lat_net, (double)(p.arrive_cycle - p.enq_cycle - 1));
		stat_avg_add(&m->lat_total, (double)(p.arrive_cycle - p.enq_cycle));
		noc_base_wake_sink(b, p.dst, p.arrive_cycle);
	}
	m->active.resize(keep);
}

static bool sgf_busy(const struct noc_base *b) { return !impl_of(b)->active.empty(); }

static bool sgf_try_inject(struct noc *pub, int src, int dst, enum noc_class cls, uint32_t size_bytes, void *payload)
{
	auto *b = reinterpret_cast<struct noc_base *>(pub);
	sgf_impl *m = impl_of(b);
	SIM_ASSERT(src >= 0 && src < pub->n_nodes && dst >= 0 && dst < pub->n_nodes && cls < NOC_NUM_CLASSES);
	uint64_t now = noc_base_now(b);
	uint32_t &cnt = m->src_count[(size_t)src * NOC_NUM_CLASSES + cls];
	if (cnt >= (uint32_t)b->p.inject_queue_packets || m->free_head == SGF_NONE) {
		noc_base_refused(b, src, now);
		return false;
	}
	uint32_t pi = m->free_head;
	sgf_pkt &p = m->pkt[pi];
	m->free_head = p.next;
	uint32_t cb = b->p.channel_bytes;
	p = sgf_pkt{};
	p.payload = payload;
	p.src = src;
	p.dst = dst;
	p.cls = (uint8_t)cls;
	p.bytes = (size_bytes ? (size_bytes + cb - 1) / cb : 1) * cb;
	p.enq_cycle = now;
	p.next = SGF_NONE;
	m->active.push_back(pi);
	cnt++;
	m->outstanding++;
	m->injected++;
	noc_base_kick(b);
	return true;
}

static uint32_t *sgf_ready(struct noc *pub, int node, enum noc_class cls)
{
	auto *b = reinterpret_cast<struct noc_base *>(pub);
	sgf_impl *m = impl_of(b);
	SIM_ASSERT(node >= 0 && node < pub->n_nodes && cls < NOC_NUM_CLASSES);
	uint32_t *h = &m->ejq[(size_t)node * NOC_NUM_CLASSES + cls];
	if (*h == SGF_NONE || m->pkt[*h].arrive_cycle > noc_base_now(b))
		return nullptr;
	return h;
}

static void *sgf_peek_eject(struct noc *pub, int node, enum noc_class cls)
{
	uint32_t *h = sgf_ready(pub, node, cls);
	return h ? impl_of(reinterpret_cast<struct noc_base *>(pub))->pkt[*h].payload : nullptr;
}

static void *sgf_try_eject(struct noc *pub, int node, enum noc_class cls)
{
	uint32_t *h = sgf_ready(pub, node, cls);
	if (!h)
		return nullptr;
	sgf_impl *m = impl_of(reinterpret_cast<struct noc_base *>(pub));
	uint32_t pi = *h;
	sgf_pkt &p = m->pkt[pi];
	*h = p.next;
	m->ejected++;
	m->bytes_ejected += p.bytes;
	m->outstanding--;
	p.next = m->free_head;
	m->free_head = pi;
	return p.payload;
}

static uint64_t sgf_outstanding(const struct noc *pub)
{
	return impl_of(reinterpret_cast<const struct noc_base *>(pub))->outstanding;
}

static void sgf_destroy(struct noc *pub)
{
	auto *n = reinterpret_cast<noc_sgflow *>(pub);
	/* Transfers still running belong to SimGrid's engine, which outlives us (one per process)
	 * and complains when an unfinished Comm is released: hand them over instead. */
	for (uint32_t pi : n->impl->active)
		if (n->impl->pkt[pi].comm)
			(void)n->impl->pkt[pi].comm.detach();
	delete n->impl;
	delete n;
}

static void sgf_summary(const struct noc_base *b, struct noc_summary *o)
{
	const sgf_impl *m = impl_of(b);
	o->packets_injected = m->injected;
	o->packets_ejected = m->ejected;
	o->flits_ejected = m->bytes_ejected / b->p.channel_bytes;
	o->avg_queue_cycles = m->lat_net.n ? 1.0 : 0.0;
	o->avg_network_cycles = m->lat_net.n ? m->lat_net.sum / (double)m->lat_net.n : 0;
	o->inject_refused = b->refused;
}

static void sgf_dump(const struct noc_base *b, FILE *out)
{
	fprintf(out, "noc (simgrid-flow): %llu packets outstanding, %zu flows sending, SimGrid clock %g\n",
		(unsigned long long)impl_of(b)->outstanding, impl_of(b)->active.size(), simgrid_get_clock());
}

static const struct noc_ops sgf_ops = {
	"simgrid-flow", sgf_try_inject, sgf_try_eject, sgf_peek_eject, sgf_outstanding, sgf_destroy,
};
static const struct noc_drive_ops sgf_drive = {sgf_step, sgf_busy, sgf_summary, sgf_dump};

/* Natural order of host names, as topologies/simgrid.c numbers nodes. */
static bool natural_less(const std::string &a, const std::string &b)
{
	size_t i = 0, j = 0;
	while (i < a.size() && j < b.size()) {
		if (isdigit((unsigned char)a[i]) && isdigit((unsigned char)b[j])) {
			size_t ei = i, ej = j;
			while (ei < a.size() && isdigit((unsigned char)a[ei]))
				ei++;
			while (ej < b.size() && isdigit((unsigned char)b[ej]))
				ej++;
			unsigned long x = std::stoul(a.substr(i, ei - i)), y = std::stoul(b.substr(j, ej - j));
			if (x != y)
				return x < y;
			i = ei;
			j = ej;
			continue;
		}
		if (a[i] != b[j])
			return (unsigned char)a[i] < (unsigned char)b[j];
		i++;
		j++;
	}
	return a.size() - i < b.size() - j;
}

extern "C" struct noc_base *noc_sgflow_plugin_new(const struct noc_params *p, const struct topo *t, struct sim_error *err)
{
	bool reuse = !strcmp(t->kind, "simgrid");
	if (sgf_platform_built || (!reuse && sg4::Engine::is_initialized())) {
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "gpu.noc.model",
			      "simgrid-flow: SimGrid already holds a platform in this process (one engine per process)");
		return nullptr;
	}
	auto *n = new noc_sgflow();
	std::memset(&n->b, 0, sizeof n->b);
	n->impl = new sgf_impl();
	sgf_impl *m = n->impl;
	n->b.pub.ops = &sgf_ops;
	n->b.drive = &sgf_drive;
	n->b.p = *p;
	int N = t->n_nodes;
	m->n_nets = reuse ? 1 : (p->separate_networks ? 2 : 1);
	m->reuse = reuse;
	if (reuse) {
		/* The loader sealed SimGrid's platform already: use its hosts and its routes. */
		std::vector<sg4::Host *> all = sg4::Engine::get_instance()->get_all_hosts();
		std::sort(all.begin(), all.end(), [](sg4::Host *x, sg4::Host *y) { return natural_less(x->get_name(), y->get_name()); });
		m->host = all;
		/* Latency is the fixed part we add per route (the topology kept it); in SimGrid
		 * it would also weigh CM02's sharing, so zero it. */
		for (sg4::Link *l : sg4::Engine::get_instance()->get_all_links())
			l->set_latency(0);
	} else {
		int ac = 6;
		char a0[] = "warpsim", a1[] = "--cfg=network/model:CM02", a2[] = "--cfg=network/crosstraffic:0",
		     a3[] = "--cfg=network/optim:Full", a4[] = "--cfg=network/TCP-gamma:0", a5[] = "--log=root.thres:critical";
		char *av[] = {a0, a1, a2, a3, a4, a5, nullptr};
		simgrid_init(&ac, av);
		auto *zone = sg4::create_full_zone("noc");
		double cb = (double)p->channel_bytes;
		for (int k = 0; k < m->n_nets; k++) {
			std::vector<sg4::Link *> link((size_t)t->n_links), inj((size_t)N), ej((size_t)N);
			for (int i = 0; i < N; i++) {
				m->host.push_back(zone->create_host("n" + std::to_string(i) + "." + std::to_string(k), 1e9));
				inj[(size_t)i] = zone->create_link("inj" + std::to_string(i) + "." + std::to_string(k), cb)->set_latency(0)->seal();
				ej[(size_t)i] = zone->create_link("ej" + std::to_string(i) + "." + std::to_string(k), cb)->set_latency(0)->seal();
			}
			for (int l = 0; l < t->n_links; l++) {
				double bw = t->links[l].bandwidth_bytes_cycle > 0 ? t->links[l].bandwidth_bytes_cycle : cb;
				link[(size_t)l] = zone->create_link("l" + std::to_string(l) + "." + std::to_string(k), bw)->set_latency(0)->seal();
			}
			for (int s = 0; s < N; s++)
				for (int d = 0; d < N; d++) {
					std::vector<sg4::LinkInRoute> r{sg4::LinkInRoute(inj[(size_t)s])};
					const int32_t *l = topo_route_links(t, s, d);
					for (int i = 0; i < topo_route_len(t, s, d); i++)
						r.emplace_back(link[(size_t)l[i]]);
					r.emplace_back(ej[(size_t)d]);
					zone->add_route(m->host[(size_t)(k * N + s)]->get_netpoint(), m->host[(size_t)(k * N + d)]->get_netpoint(),
							nullptr, nullptr, r, false);
				}
		}
		zone->seal();
		simgrid_run_until(0);
	}
	sgf_platform_built = true;
	uint32_t n_pkt = (uint32_t)N * NOC_NUM_CLASSES * (uint32_t)(p->inject_queue_packets + p->eject_queue_flits);
	m->pkt.resize(n_pkt);
	for (uint32_t i = 0; i < n_pkt; i++)
		m->pkt[i].next = i + 1 < n_pkt ? i + 1 : SGF_NONE;
	m->free_head = 0;
	m->active.reserve(n_pkt);
	m->ejq.assign((size_t)N * NOC_NUM_CLASSES, SGF_NONE);
	m->src_count.assign((size_t)N * NOC_NUM_CLASSES, 0);
	m->prop.resize((size_t)N * (size_t)N);
	uint32_t pipe = (uint32_t)(p->routing_delay_cycles + p->vc_alloc_delay_cycles + p->sw_alloc_delay_cycles + p->st_delay_cycles);
	for (int s = 0; s < N; s++)
		for (int d = 0; d < N; d++) {
			int len = topo_route_len(t, s, d);
			const int32_t *l = topo_route_links(t, s, d);
			uint32_t prop = 2 * p->inject_latency_cycles + (uint32_t)(len + 1) * pipe;
			for (int i = 0; i < len; i++)
				prop += t->links[l[i]].latency_cycles;
			m->prop[(size_t)s * (size_t)N + (size_t)d] = prop;
		}
	return &n->b;
}

extern "C" int noc_sgflow_plugin_stats(struct noc_base *b, struct stats *st)
{
	sgf_impl *m = impl_of(b);
	stats_counter(st, &m->injected, "packets", "packets accepted by try_inject", "noc.packets_injected");
	stats_counter(st, &m->ejected, "packets", "packets taken by try_eject", "noc.packets_ejected");
	stats_avg(st, &m->lat_net, "cycles", "packet latency: leaves the source until the tail arrives", "noc.latency.network");
	stats_avg(st, &m->lat_total, "cycles", "packet latency: accepted until the tail arrives", "noc.latency.total");
	return 0;
}
#endif
