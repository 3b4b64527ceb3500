/* SPDX-License-Identifier: MIT */
/* One memory controller and its DRAM banks: bounded request queue, FR-FCFS or FCFS command
 * scheduling over per-bank timing state, data bus, OWL's opportunistic prefetcher, OWL metrics. */
#ifndef WARPSIM_DRAM_H
#define WARPSIM_DRAM_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/config.h"
#include "../engine/sim_error.h"
#include "../engine/stats.h"
#include "addrmap.h"
#include "dram_check.h"
#include "mem_req.h"

#define DRAM_MAX_BANKS 64
#define DRAM_MAX_ROW_LINES 256 /* lines per row the prefetcher can track */
#define DRAM_FAW_ACTS 4        /* tFAW: at most 4 activates in any tFAW window */

enum dram_sched { DRAM_SCHED_FRFCFS, DRAM_SCHED_FCFS };

/* Timings are in DRAM command-clock cycles (gpu.dram.clock_mhz). Read-only after init. */
struct dram_cfg {
	uint32_t banks;             /* per channel, <= DRAM_MAX_BANKS */
	uint32_t row_bytes;         /* row (page) size per bank */
	uint32_t line_bytes;        /* bytes moved per request (the L2 line) */
	uint32_t queue_size;        /* MC request queue entries (demands; prefetches do not use it) */
	enum dram_sched sched;
	bool close_row;             /* precharge a row as soon as no queued request hits it */
	uint32_t tRCD, tRP, tRAS, tRC, tRRD, tCL, tWL, tWR, tWTR, tRTW, tCCD, tRTP;
	uint32_t tFAW;              /* 0 = no four-activate window */
	uint32_t tREFI, tRFC;       /* refresh interval (0 = no refresh) and all-bank REF time */
	uint32_t burst_cycles;      /* data-bus cycles to move one line (see dram_cfg_read) */
	/* Data-bus cycles to read one line: more than burst_cycles when the L2 fills a line in
	 * requests smaller than a burst (gpu.l2.fill_request_bytes); 0 = burst_cycles. */
	uint32_t rd_burst_cycles;
	/* A read of fewer bytes than the line (mem_req.dram_bytes, from a sectored L2) takes
	 * ceil(bytes / rd_req_bytes) requests of rd_req_cycles each; rd_req_bytes 0 = always
	 * rd_burst_cycles. */
	uint32_t rd_req_bytes, rd_req_cycles;
	/* Opportunistic prefetcher (OWL Sec 4.4). */
	bool prefetch;
	uint32_t pf_lower, pf_higher; /* C when demands are many / few */
	double pf_threshold;        /* < 0: the running average of the MC queue length */
	bool pf_stop_on_demand;     /* OWL 4.4's first scheme: stop at once for a demand to another row */
	bool check;                 /* sim.check: record commands for the protocol checker */
};

/* A finished request. MEM_REQ_PREFETCH requests belong to the MC: the callee must not keep
 * the pointer after returning. Others are handed back to their owner (the L2). */
typedef void (*dram_done_fn)(void *ctx, struct mem_req *req, uint64_t now_cycle);
/* Whether the line at addr needs no prefetch (already in, or coming to, the L2). May be NULL. */
typedef bool (*dram_pf_filter_fn)(void *ctx, uint64_t addr);

struct dram_qent {
	struct mem_req *req;        /* NULL: an MC-owned prefetch (pf_line gives the line) */
	uint64_t enq_cycle;
	uint64_t first_cmd_cycle;   /* UINT64_MAX until a command was issued for it */
	uint64_t done_cycle;        /* in flight: cycle its data transfer ends */
	uint32_t bank, row, line;   /* line = column / line_bytes */
	uint32_t pf_slot;           /* prefetch: index in pf_reqs */
	bool is_write;
	bool needed_act, needed_pre; /* row-miss / row-conflict classification */
};

struct dram_bank {
	bool open;
	uint32_t row;               /* open row when open */
	uint64_t act_ready;         /* earliest ACT (tRP after PRE, tRC after ACT) */
	uint64_t pre_ready;         /* earliest PRE (tRAS, tWR, tRTP) */
	uint64_t col_ready;         /* earliest RD/WR (tRCD after ACT) */
	uint32_t queued;            /* demands queued for this bank */
	uint32_t outstanding;       /* queued + in flight (for BLP), demands only */
	uint32_t open_hits;         /* queued demands to the open row (kept as the queue and the
	                               row change: FR-FCFS asks it for every entry every cycle) */
	/* prefetcher state for the open row */
	uint64_t fetched[DRAM_MAX_ROW_LINES / 64]; /* bit per line sent to the L2 since ACT */
	uint32_t pf_issued;         /* prefetches since the row was opened */
	bool pf_row;                /* the open row was opened by a demand read: OWL 4.4 prefetches
	                               only from such rows, never from one a write-back opened */
	/* pf_next_line's last answer, valid while the fetched lines and the filter's version
	 * (dram_mc.pf_version) are unchanged */
	bool pf_memo_ok;
	uint32_t pf_memo_line;
	uint64_t pf_memo_ver;
	/* counters */
	uint64_t reads, writes, row_hits, row_misses, row_conflicts, activates, precharges;
	uint64_t prefetches;
};

struct dram_mc {
	struct dram_cfg cfg;
	const struct mem_addrmap *map; /* to turn a prefetched line into an address */
	uint32_t channel;
	dram_done_fn done;
	dram_pf_filter_fn pf_filter;
	/* Optional: a value that changes whenever a pf_filter answer may change (set after
	 * dram_mc_init); with it, pf_filter answers are reused while it holds. */
	uint64_t (*pf_version)(const void *ctx);
	void *ctx;
	uint32_t lines_per_row;
	struct dram_bank bank[DRAM_MAX_BANKS];
	struct dram_qent *q;        /* [queue_size], arrival order, q_len used */
	uint32_t q_len;
	struct dram_qent *fly;      /* [fly_cap] issued column commands */
	uint32_t fly_len, fly_cap;
	struct mem_req *pf_reqs;    /* [pf_cap] prefetch request bodies */
	uint32_t *pf_free;          /* [pf_cap] stack of free pf_reqs indices */
	uint32_t pf_cap, pf_nfree;
	uint64_t rd_ready, wr_ready; /* channel: tCCD, tWTR, tRTW */
	uint64_t act_ready;         /* channel: tRRD */
	uint64_t faw[DRAM_FAW_ACTS]; /* cycles of the last 4 ACTs (ring) */
	uint32_t faw_head;
	uint64_t bus_free;          /* data bus idle from this cycle */
	uint64_t ref_due;           /* cycle the next refresh is due (tREFI) */
	bool ref_pending;           /* due: precharging all banks, then REF; nothing else issues */
	uint64_t last_cmd_cycle;    /* one command per cycle */
	bool cmd_issued_any;
	/* metrics accumulated as time-weighted sums between changes */
	uint64_t acc_cycle;         /* cycle up to which the sums below are accumulated */
	uint32_t busy_banks;        /* banks with outstanding > 0 */
	uint64_t blp_sum, blp_cycles; /* sum of busy_banks per cycle; cycles with busy_banks > 0 */
	uint64_t qlen_sum;          /* sum over cycles of q_len (average queue length) */
	uint64_t bus_busy_cycles;
	uint64_t reads, writes, row_hits, row_misses, row_conflicts, activates, precharges;
	uint64_t refreshes;
	uint64_t pf_issued, pf_filtered, rejected;
	struct stat_avg queue_lat, service_lat; /* cycles: enqueue->first command, ->data done */
	struct dram_check *chk;     /* protocol checker when cfg.check, else NULL (owned) */
};

/* Sizes and timings checked (SIM_ERR_CONFIG naming gpu.dram.<field>); allocates queues.
 * map may be NULL when cfg->prefetch is false. */
int dram_mc_init(struct dram_mc *mc, const struct dram_cfg *cfg, const struct mem_addrmap *map,
		 uint32_t channel, dram_done_fn done, dram_pf_filter_fn pf_filter, void *ctx,
		 struct sim_error *err);
void dram_mc_fini(struct dram_mc *mc);   /* safe on a zeroed mc */

/* Fill cfg from gpu.dram.* (timings, scheduler, prefetcher); line_bytes from gpu.l2.line_bytes. */
int dram_cfg_read(struct dram_cfg *out, const struct cfg *cfg, struct sim_error *err);

/* Queue a read or write (req->bank/row/col decoded by the caller) at now_cycle. false = the
 * queue is full: nothing is taken, retry later (back-pressure). */
bool dram_mc_try_enqueue(struct dram_mc *mc, struct mem_req *req, uint64_t now_cycle);
static inline bool dram_mc_full(const struct dram_mc *mc) { return mc->q_len >= mc->cfg.queue_size; }

/* Run cycle now_cycle (cycles must not decrease): complete transfers ending by now (done()),
 * then issue at most one command. Returns the next cycle at which something can happen
 * without new input (SIM_NEVER when idle). */
uint64_t dram_mc_tick(struct dram_mc *mc, uint64_t now_cycle);
/* Demands queued or in flight. */
uint64_t dram_mc_outstanding(const struct dram_mc *mc);

/* OWL Sec 2.2 metrics up to cycle now (the sums are brought up to date first). */
void dram_mc_sync(struct dram_mc *mc, uint64_t now_cycle);
double dram_mc_blp(const struct dram_mc *mc);          /* banks busy per busy cycle */
double dram_mc_row_hit_rate(const struct dram_mc *mc); /* demand column accesses */
double dram_mc_avg_queue_len(const struct dram_mc *mc);
double dram_mc_bus_util(const struct dram_mc *mc, uint64_t elapsed_cycles); /* data bus busy share */

/* sim.check: replay the recorded command trace (0 when checking is off or all is well;
 * SIM_ERR_FAULT naming the broken timing rule otherwise). */
int dram_mc_check(struct dram_mc *mc, struct sim_error *err);

/* mc.<c>.* and mc.<c>.bank.<b>.*. */
void dram_mc_stats_register(struct dram_mc *mc, struct stats *st);

/* Data-bus cycles of a read of req (NULL: an MC prefetch of a line): dram_bytes when a
 * sectored L2 set it, else the line. cfg as dram_mc_init keeps it (rd_burst_cycles set). */
uint32_t dram_read_burst_cycles(const struct dram_cfg *cfg, const struct mem_req *req);

#endif
