/* SPDX-License-Identifier: MIT */
/* noc/noc_flow.c and noc/noc_sgflow.cc: max-min sharing, the fixed latency part, and the
 * native fluid model against SimGrid's on the same traffic. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "noc/noc_drive.h"

static struct noc *line3(const char *model)
{
	struct noc_params p;
	noc_params_default(&p);
	p.model = model;
	int dims[2] = {3, 1};
	struct sim_error err;
	struct noc *n = noc_create_from(&p, topo_mesh(dims, 2, 1, NULL), NULL, 0, NULL, 0, NULL, NULL, &err);
	cr_assert_not_null(n, "%s", err.msg);
	return n;
}

/* Packets A: 0 -> 2 and B: 1 -> 2, 4 flits (128 B) each, accepted in cycle 0. They share the
 * link 1->2 and node 2's ejection channel (32 B/cycle): max-min gives 16 B/cycle each, so both
 * send from cycle 1 to cycle 8 (done in cycle 8). Fixed part = 2 channels + routers x 4 +
 * links: A: 2 + 3*4 + 2 = 16, B: 2 + 2*4 + 1 = 11. A arrives at 8 + 16 = 24, B at 8 + 11 = 19. */
static void two_flows(const char *model)
{
	struct noc *n = line3(model);
	static int a, b;
	cr_assert(noc_try_inject(n, 0, 2, NOC_CLASS_REQ, 128, &a));
	cr_assert(noc_try_inject(n, 1, 2, NOC_CLASS_REQ, 128, &b));
	uint64_t got_a = 0, got_b = 0;
	while ((!got_a || !got_b) && noc_now_cycle(n) < 100) {
		noc_step(n);
		void *p;
		while ((p = noc_try_eject(n, 2, NOC_CLASS_REQ)))
			*(p == &a ? &got_a : &got_b) = noc_now_cycle(n);
	}
	cr_assert_eq(got_b, 19);
	cr_assert_eq(got_a, 24);
	noc_destroy(n);
}

Test(noc_flow, max_min_sharing_and_fixed_latency) { two_flows("flow"); }

static void lone_packet(const char *model)
{
	struct noc *n = line3(model);
	static int x;
	/* 0 -> 2: R = 3, 2 flits (33..64 B): 5*3 + 2 + 1 = 18. */
	cr_assert(noc_try_inject(n, 0, 2, NOC_CLASS_REPLY, 64, &x));
	while (!noc_try_eject(n, 2, NOC_CLASS_REPLY))
		noc_step(n);
	cr_assert_eq(noc_now_cycle(n), 18);
	noc_destroy(n);
}

Test(noc_flow, lone_packet_matches_cycle_model_formula) { lone_packet("flow"); }

/* Uniform random traffic (fixed generator) at 0.15 packets/node/cycle of 2 flits on a 4x4
 * mesh; returns the average packet latency. */
static double uniform_latency(const char *model)
{
	struct noc_params p;
	noc_params_default(&p);
	p.model = model;
	int dims[2] = {4, 4};
	struct sim_error err;
	struct noc *n = noc_create_from(&p, topo_mesh(dims, 2, 1, NULL), NULL, 0, NULL, 0, NULL, NULL, &err);
	cr_assert_not_null(n, "%s", err.msg);
	static uint64_t gen[1 << 16];
	uint64_t x = 7, sum = 0, cnt = 0;
	uint32_t id = 0;
	for (int c = 0; c < 3000; c++) {
		for (int s = 0; s < 16 && c < 2500; s++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			if (x % 100 < 15 && id < (1u << 16)) {
				gen[id] = noc_now_cycle(n);
				if (noc_try_inject(n, s, (int)((x >> 16) % 16), NOC_CLASS_REQ, 64, (void *)(uintptr_t)(id + 1)))
					id++;
			}
		}
		noc_step(n);
		for (int d = 0; d < 16; d++) {
			void *pl;
			while ((pl = noc_try_eject(n, d, NOC_CLASS_REQ))) {
				sum += noc_now_cycle(n) - gen[(uintptr_t)pl - 1];
				cnt++;
			}
		}
	}
	cr_assert_eq(cnt, id, "all packets delivered");
	cr_assert_gt(cnt, 5000);
	noc_destroy(n);
	return (double)sum / (double)cnt;
}

#ifdef WARPSIM_HAVE_SIMGRID
Test(noc_flow, simgrid_flow_shares_like_the_native_model) { two_flows("simgrid-flow"); }
Test(noc_flow, simgrid_flow_lone_packet_matches_formula) { lone_packet("simgrid-flow"); }

Test(noc_flow, simgrid_flow_agrees_with_flow_within_1_percent_below_saturation)
{
	double a = uniform_latency("flow");
	double b = uniform_latency("simgrid-flow");
	cr_assert_lt(fabs(a - b) / a, 0.01, "flow %.3f vs simgrid-flow %.3f", a, b);
}
#else
Test(noc_flow, flow_uniform_latency_near_zero_load)
{
	/* 4x4 mesh, uniform with self: mean hops 2 * 1.25 = 2.5, R = 3.5, 2 flits:
	 * 5 * 3.5 + 2 + 1 = 20.5 cycles at zero load; light load adds little. */
	double a = uniform_latency("flow");
	cr_assert(a >= 20.5 && a < 23, "%.3f", a);
}
#endif
