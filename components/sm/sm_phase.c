/* SPDX-License-Identifier: MIT */
/* PAWS phase lengths with this machine's latencies (gpu.core.phase_latency = machine): the
 * frontend's phases (which instructions form each) timed by the SM's own result latencies. */
#include <stdlib.h>

#include "sm_internal.h"

void sm_phase_lengths(const struct wi_static *wi, uint32_t n, const uint32_t *cost, struct sm_phase *out,
		      uint32_t *phase_len)
{
	uint32_t acc = 0;
	for (uint32_t pc = n; pc-- > 0;) {
		if (pc + 1 == n || wi[pc + 1].phase_id != wi[pc].phase_id)
			acc = 0;
		acc += cost[pc];
		out[pc].distance_cycles = acc;
		phase_len[wi[pc].phase_id] = acc; /* the phase's first instruction writes last */
	}
	for (uint32_t pc = 0; pc < n; pc++) {
		uint32_t ph = wi[pc].phase_id;
		out[pc].len_cycles = phase_len[ph];
		out[pc].next_len_cycles = ph + 1 <= wi[n - 1].phase_id ? phase_len[ph + 1] : 0;
	}
}

/* The cycles an instruction adds to its phase: its result latency on this SM, a global, local
 * or texture access only its issue (its memory latency is what phases hide; the frontend's
 * fixed table counts 4, the issue at simt_width 8), shared and constant accesses the memory
 * pipeline and their hit latency. */
static uint32_t phase_cost(const struct sm *sm, const struct wi_static *si)
{
	switch (si->lat_class) {
	case WI_LAT_MEM:
		return 1;
	case WI_LAT_SHARED:
		return sm->mem_pipe_cycles + sm->phase_shared_cycles;
	case WI_LAT_CONST:
		return sm->mem_pipe_cycles + sm->phase_const_cycles;
	default:
		return sm_result_cycles(sm, si);
	}
}

void sm_phase_kernel_begin(struct sm *sm)
{
	uint32_t n = sm->n_insts;
	if (!sm->phase_machine || n == 0)
		return;
	if (n > sm->phase_cap) {
		free(sm->phase);
		free(sm->phase_scratch);
		sm->phase = malloc(n * sizeof *sm->phase);
		sm->phase_scratch = malloc(2 * (size_t)n * sizeof *sm->phase_scratch);
		if (!sm->phase || !sm->phase_scratch)
			abort(); /* kernel start, not the cycle path: the host is out of memory */
		sm->phase_cap = n;
	}
	uint32_t *cost = sm->phase_scratch, *phase_len = sm->phase_scratch + n;
	for (uint32_t pc = 0; pc < n; pc++)
		cost[pc] = phase_cost(sm, &sm->insts[pc]);
	sm_phase_lengths(sm->insts, n, cost, sm->phase, phase_len);
}
