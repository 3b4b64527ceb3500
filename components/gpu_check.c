/* SPDX-License-Identifier: MIT */
/* sim.check at the end of a launch (or a concurrent batch): every part handed back what it took
 * and the request counts at each boundary agree. */
#include "gpu_internal.h"

#include <string.h>

#include "../noc/noc.h"

/* A stat counter's value, 0 when it is not registered (a memory model without that part). */
static uint64_t stat_u64(const struct gpu *g, const char *name)
{
	uint64_t v = 0;
	return stats_get_u64(g->st, name, &v) ? v : 0;
}

static int check_equal(const char *kernel, const char *a_name, uint64_t a, const char *b_name,
		       uint64_t b, struct sim_error *err)
{
	if (a == b)
		return 0;
	return sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, "sim.check",
			     "after kernel %s: %s (%llu) != %s (%llu): %s", kernel, a_name,
			     (unsigned long long)a, b_name, (unsigned long long)b,
			     a > b ? "something was lost" : "something was duplicated");
}

/* sim.check at the end of a kernel (the simulation is quiet): every part has handed back what
 * it took, and the request counts at each boundary agree (SM sent = NoC packets one way = L2
 * requests; NoC injected = ejected; the DRAM trace obeys its timings). Cumulative counters
 * are compared, so a loss in any kernel so far shows. */
int gpu_check_kernel_end(struct gpu *g, const char *kernel, struct sim_error *err)
{
	int rc;
	for (uint32_t i = 0; i < g->n_cores; i++)
		if ((rc = sm_check_kernel_end(g->sms[i], err)))
			return rc;
	if (!g->noc)
		return 0;
	if (noc_outstanding(g->noc))
		return sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, "sim.check",
				     "after kernel %s: the NoC still holds %llu packets", kernel,
				     (unsigned long long)noc_outstanding(g->noc));
	if ((rc = check_equal(kernel, "noc.packets_injected", stat_u64(g, "noc.packets_injected"),
			      "noc.packets_ejected", stat_u64(g, "noc.packets_ejected"), err)) ||
	    (rc = check_equal(kernel, "noc.flits_injected", stat_u64(g, "noc.flits_injected"),
			      "noc.flits_ejected", stat_u64(g, "noc.flits_ejected"), err)))
		return rc;
	uint64_t sent = gpu_sum_stat(g, "sm.%u.mem.reads_sent", g->n_cores) +
			gpu_sum_stat(g, "sm.%u.mem.writes_sent", g->n_cores) +
			gpu_sum_stat(g, "sm.%u.mem.writebacks_sent", g->n_cores) +
			gpu_sum_stat(g, "sm.%u.mem.atomics_sent", g->n_cores);
	uint64_t l2_in = gpu_sum_stat(g, "l2.%u.requests", g->n_slices);
	/* each request has one reply, but writes the L2 took without one (gpu.l2.write_ack) */
	uint64_t unacked = gpu_sum_stat(g, "l2.%u.unacked_writes", g->n_slices);
	if ((rc = check_equal(kernel, "requests sent by the SMs", sent, "requests received by the L2s",
			      l2_in, err)) ||
	    (rc = check_equal(kernel, "NoC packets", stat_u64(g, "noc.packets_injected"),
			      "requests + replies", 2 * sent - unacked, err)))
		return rc;
	/* MC in = out: each demand the controllers served (reads + writes) is one L2 demand fill
	 * or one completed write-back (the slices are empty, so all have completed). */
	uint64_t mc_served = gpu_sum_stat(g, "mc.%u.reads", g->n_chans) + gpu_sum_stat(g, "mc.%u.writes", g->n_chans);
	uint64_t l2_back = gpu_sum_stat(g, "l2.%u.dram_fills", g->n_slices) +
			   gpu_sum_stat(g, "l2.%u.writebacks", g->n_slices);
	if (!strcmp(cfg_str(g->cfg, "gpu.memory.model"), "full") &&
	    (rc = check_equal(kernel, "DRAM demands served (mc.*.reads + writes)", mc_served,
			      "L2 fills + write-backs", l2_back, err)))
		return rc;
	for (uint32_t i = 0; i < g->n_chans; i++)
		if ((rc = mem_channel_check(g->chans[i], err)))
			return rc;
	return 0;
}

