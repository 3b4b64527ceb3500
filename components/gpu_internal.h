/* SPDX-License-Identifier: MIT */
/* Private to components/: the assembled GPU's state, shared by gpu.c (build, one launch at a
 * time) and gpu_batch.c (concurrent kernels). */
#ifndef WARPSIM_GPU_INTERNAL_H
#define WARPSIM_GPU_INTERNAL_H

#include "gpu.h"

#include "../memory/addrmap.h"
#include "../memory/mem_channel.h"
#include "cta_dispatcher.h"
#include "sampler.h"
#include "sm/sm.h"

struct gpu {
	const struct cfg *cfg;
	struct stats *st;
	struct sim *sim;
	struct sim_clock core_clk;
	struct cta_dispatcher *disp;
	struct noc *noc;                 /* NULL in perfect-l1 / fixed-latency modes */
	struct sm **sms;
	uint32_t n_cores;
	struct mem_channel **chans;
	uint32_t n_chans;
	uint32_t n_slices;                /* L2 slices: n_chans x gpu.l2.sub_partitions (stats l2.<slice>) */
	bool fill_on_copy;               /* gpu.l2.fill_on_copy (with chans only) */
	struct mem_addrmap amap;         /* to find a copied line's channel */
	uint64_t l2_line_bytes;
	uint64_t warm_line;              /* the line gpu_warm_l2 filled last (UINT64_MAX: none) */
	FILE *report;
	FILE *timeline;
	struct gpu_budget budget;        /* caps on the totals (gpu_set_budget), 0 = none */
	uint64_t max_issue_per_cycle;    /* warp instructions the GPU can issue in a cycle at most */
	uint32_t warp_size;
	bool check;                      /* sim.check: reconcile invariants at each kernel end */
	/* machine-wide summary counters (gpu.*), advanced at the end of each launch */
	uint64_t cycles, warp_insts, thread_insts, kernels, ctas;
	uint64_t grid_ctas; /* CTAs in the timed launches' grids, counted at launch (a cut one too) */
	uint64_t core_cycles, issue_core_cycles, idle_core_cycles;
	uint64_t sched_cycles, sched_class[SM_CYC_COUNT];
	uint64_t memory_block_cycles, no_warp_cycles;
	uint64_t rtru_wasted, rtru_total;
	uint64_t l1d_hits, l1d_accesses, dram_row_hits, dram_accesses, dram_reads, dram_writes;
	uint64_t l2_hits, l2_accesses, dram_bytes, dram_bus_busy_cycles;
	uint64_t mem_prev[10];           /* the memory sums above at the previous launch end */
	struct stat_avg noc_lat;         /* packet latency (NoC cycles) over the launches */
	struct stat_avg noc_lat_prev;    /* the NoC's own average at the previous launch end */
	const struct stat_avg *noc_lat_src; /* noc.latency.total (cycle model) or .network (flow) */
	/* registers per thread of the current (else the last) launch and their source, and
	 * launches by source (enum fe_regs_source): results hang on occupancy, so say where the
	 * count came from */
	uint32_t regs_per_thread;
	uint8_t regs_source;
	uint64_t regs_launches[FE_REGS_ESTIMATE + 1];
	struct sm_counters *last;        /* [n_cores] counters at the previous launch end */
	void (*progress_fn)(void *ctx, const struct gpu_progress *p);
	void *progress_ctx;
	uint32_t launch_ctas;            /* CTAs of the current launch, 0 between launches */
	struct fe_launch *launch;        /* the launch running, NULL between launches */
	struct gpu_batch_launch *batch;  /* the concurrent batch running (gpu_batch.c), else NULL */
	uint32_t n_batch;
	struct fe_state_ring mem_ring;   /* its memory-state samples, one per watchdog period */
	uint64_t mem_new_states;         /* samples that were none of the ring's: progress */
	uint64_t launch_start_cycle;
	struct sampler *sampler;         /* --sample: NULL when off */
	uint64_t sample_cycles;          /* interval in core cycles */
	uint64_t sample_next_cycle;      /* the cycle of the sample event last scheduled */
	struct sim_event sample_ev;      /* background: keeps nothing alive */
};

/* Fold the SMs' counters since the last launch end into the gpu.* sums as one launch of
 * kernel_cycles (gpu.kernels + 1); the memory counters likewise. */
void gpu_account_launch(struct gpu *g, uint64_t kernel_cycles);
void gpu_account_memory(struct gpu *g);
/* Sum of a per-SM or per-channel counter over all instances ("sm.%u.l1d.hits"). */
uint64_t gpu_sum_stat(const struct gpu *g, const char *fmt, uint32_t n);
/* sim.check's reconciliation after the kernels end (the simulation is quiet; gpu_check.c). */
int gpu_check_kernel_end(struct gpu *g, const char *kernel, struct sim_error *err);
/* Apply gpu.core.max_regs_per_thread to l; *info is then l's. note_regs: its registers and
 * their source in gpu.regs_* (inside the stats scope that should count the launch). */
void gpu_prepare_launch(struct gpu *g, struct fe_launch *l, struct fe_launch_info *info);
void gpu_note_regs(struct gpu *g, const struct fe_launch_info *info);
/* The run's stop reason and the SMs' errors as gpu_run_launch reports them; kernel names the
 * kernel (or kernels) in the messages. */
int gpu_stop_status(struct gpu *g, enum sim_stop why, const char *kernel, struct sim_error *err);

#endif
