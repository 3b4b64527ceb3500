/* SPDX-License-Identifier: MIT */
/* An SM's statistics (sm.<id>.*): its counters, the per-scheduler cycle classes and the derived
 * ratios (IPC, CINV, RTRU, GPGPU-Sim's idle), registered once at build. */
#include "sm_internal.h"

static double d_ipc(const void *v)
{
	const struct sm *sm = v;
	return sm->c.cycles ? (double)sm->c.thread_insts / (double)sm->c.cycles : 0.0;
}
static double d_warp_ipc(const void *v)
{
	const struct sm *sm = v;
	return sm->c.cycles ? (double)sm->c.warp_insts / (double)sm->c.cycles : 0.0;
}
static double d_cinv(const void *v)
{
	const struct sm *sm = v;
	return sm->c.cycles ? 1.0 - (double)sm->c.issue_cycles / (double)sm->c.cycles : 0.0;
}
static double d_rtru(const void *v)
{
	const struct sm *sm = v;
	return sm->c.rtru_phase_warp_cycles
		       ? (double)sm->c.rtru_wasted_warp_cycles / (double)sm->c.rtru_phase_warp_cycles
		       : 0.0;
}
/* GPGPU-Sim's "idle" (PRO, PAWS): no warp had a valid instruction. */
static double d_gpgpusim_idle(const void *v)
{
	const struct sm *sm = v;
	const uint64_t *s = sm->c.sched_cycles;
	return (double)(s[SM_CYC_CONTROL] + s[SM_CYC_FETCH] + s[SM_CYC_BARRIER] + s[SM_CYC_EXIT] +
			s[SM_CYC_NO_WARP]);
}

void sm_register_stats(struct sm *sm, struct stats *st)
{
	uint32_t id = sm->id;
	struct sm_counters *c = &sm->c;
	stats_counter(st, &c->cycles, "cycles", "core cycles inside kernels", "sm.%u.cycles", id);
	stats_counter(st, &c->warp_insts, "insts", "warp instructions issued", "sm.%u.warp_insts", id);
	stats_counter(st, &c->thread_insts, "insts", "thread instructions (active lanes) issued",
		      "sm.%u.thread_insts", id);
	stats_derived(st, d_ipc, sm, "insts/cycle", "thread instructions per cycle", "sm.%u.ipc", id);
	stats_derived(st, d_warp_ipc, sm, "insts/cycle", "warp instructions per cycle", "sm.%u.warp_ipc", id);
	stats_counter(st, &c->issue_cycles, "cycles", "cycles in which some scheduler issued",
		      "sm.%u.issue_cycles", id);
	stats_derived(st, d_cinv, sm, "fraction", "core inactive time CINV: cycles without issue / cycles (OWL)",
		      "sm.%u.cinv", id);
	stats_counter(st, &c->memory_block_cycles, "cycles",
		      "OWL MemoryBlockCycles: warps present, all waiting on memory", "sm.%u.memory_block_cycles", id);
	stats_counter(st, &c->no_warp_cycles, "cycles", "OWL NoWarpCycles: no warps while the kernel runs",
		      "sm.%u.no_warp_cycles", id);
	for (int k = 0; k < SM_CYC_COUNT; k++)
		stats_counter(st, &c->sched_cycles[k], "sched-cycles",
			      "scheduler cycles in this class, summed over the SM's schedulers (BAWS classes)",
			      "sm.%u.stall.%s", id, sm_cycle_class_name((enum sm_cycle_class)k));
	for (uint32_t s = 0; s < sm->n_sched; s++)
		for (int k = 0; k < SM_CYC_COUNT; k++)
			stats_counter(st, &sm->sched_cyc[s][k], "cycles", "cycles of this scheduler in this class",
				      "sm.%u.sched.%u.%s", id, s, sm_cycle_class_name((enum sm_cycle_class)k));
	stats_derived(st, d_gpgpusim_idle, sm, "sched-cycles",
		      "GPGPU-Sim idle: control + fetch + barrier + exit + no_warp", "sm.%u.gpgpusim.idle", id);
	stats_counter(st, &c->sched_cycles[SM_CYC_DATA], "sched-cycles", "GPGPU-Sim scoreboard stalls (= data)",
		      "sm.%u.gpgpusim.scoreboard", id);
	stats_counter(st, &c->sched_cycles[SM_CYC_STRUCTURAL], "sched-cycles",
		      "GPGPU-Sim pipeline stalls (= structural)", "sm.%u.gpgpusim.pipeline", id);
	stats_counter(st, &c->rtru_wasted_warp_cycles, "warp-cycles",
		      "BAWS Eq 1 numerator: sum over warp-phases of (maxT - Ti)", "sm.%u.rtru_wasted_warp_cycles", id);
	stats_counter(st, &c->rtru_phase_warp_cycles, "warp-cycles",
		      "BAWS Eq 1 denominator: sum over warp-phases of N * maxT", "sm.%u.rtru_phase_warp_cycles", id);
	stats_derived(st, d_rtru, sm, "fraction", "RTRU (BAWS Eq 1) over all warp-phases, weighted by N*maxT",
		      "sm.%u.rtru", id);
	stats_counter(st, &c->barriers_released, "barriers", "CTA barriers released", "sm.%u.barriers", id);
	stats_counter(st, &c->ctas_finished, "CTAs", "CTAs finished", "sm.%u.ctas_finished", id);
	stats_counter(st, &c->warps_exited, "warps", "warps exited", "sm.%u.warps_exited", id);
	stats_counter(st, &c->icache_hits, "fetches", "I-cache hits", "sm.%u.icache.hits", id);
	stats_counter(st, &c->icache_misses, "fetches", "I-cache misses", "sm.%u.icache.misses", id);
	stats_counter(st, &c->icache_refusals, "cycles",
		      "fetches refused: a miss found its set's ways all waiting or the miss queue full "
		      "(icache.miss_path memory)", "sm.%u.icache.refusals", id);
	stats_counter(st, &c->ibuf_flushes, "flushes", "I-buffers flushed by control transfers",
		      "sm.%u.ibuf_flushes", id);
	stats_counter(st, &c->mem_refusals, "refusals", "memory instructions refused by memory (retried)",
		      "sm.%u.mem_refusals", id);
	stats_counter(st, &c->wb_conflicts, "refusals",
		      "SP/SFU issues refused as the unit's result slot was taken (gpu.core.units.writeback_slots)",
		      "sm.%u.wb_conflicts", id);
	stats_counter(st, &c->alu_busy_cycles, "cycles", "cycles with an SP/SFU instruction in flight (PAWS Fig 10)",
		      "sm.%u.pipe.alu_busy_cycles", id);
	stats_counter(st, &c->mem_busy_cycles, "cycles", "cycles with a memory instruction in flight (PAWS Fig 10)",
		      "sm.%u.pipe.mem_busy_cycles", id);
	stats_counter(st, &c->alu_mem_overlap_cycles, "cycles", "cycles with both in flight (PAWS Fig 10)",
		      "sm.%u.pipe.overlap_cycles", id);
	stats_counter(st, &c->alu_inflight_inst_cycles, "inst-cycles",
		      "SP/SFU instructions in flight summed over cycles (PAWS Fig 11 load x cycles)",
		      "sm.%u.pipe.alu_inflight_inst_cycles", id);
	stats_counter(st, &c->mem_inflight_inst_cycles, "inst-cycles",
		      "memory instructions in flight summed over cycles (PAWS Fig 11 load x cycles)",
		      "sm.%u.pipe.mem_inflight_inst_cycles", id);
}

