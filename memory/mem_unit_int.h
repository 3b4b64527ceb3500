/* SPDX-License-Identifier: MIT */
/* The memory unit's state (memory/mem_req.h), shared by its timing (mem_unit.c) and its
 * settings, build and statistics (mem_unit_build.c). Internal to memory/. */
#ifndef WS_MEM_UNIT_INT_H
#define WS_MEM_UNIT_INT_H

#include "mem_req.h"

#include "addrmap.h"
#include "cache.h"
#include "coalescer.h"
#include "mshr.h"
#include "shmem.h"

enum mu_model { MU_FULL, MU_PERFECT_L1, MU_PERFECT_L2, MU_FIXED };
enum { MU_L1D, MU_L1C, MU_L1T, MU_NCACHES };
static const char *const mu_cache_names[MU_NCACHES] = {"l1d", "l1c", "l1t"};

/* The unit's cache of an access in space (enum wi_space). */
static inline uint8_t mu_space_cache(uint8_t space)
{
	switch (space) {
	case WI_SPACE_CONST:
	case WI_SPACE_PARAM:
		return MU_L1C;
	case WI_SPACE_TEX:
		return MU_L1T;
	default:
		return MU_L1D; /* global and local (local behaves like global, cached in L1) */
	}
}

#define MU_REQ_HDR_BYTES 8 /* header of a request / ack packet (mem_req.h protocol) */
#define MU_HIST_BUCKETS 8  /* < 32, < 64, ..., < 2048, >= 2048 cycles */

/* One accepted memory instruction until its done() call. */
struct mu_slot {
	bool used;
	uint64_t token;
	uint32_t pending;       /* accesses not yet served (unprocessed, or waiting below) */
	uint64_t ready_cycle;   /* completion cycle of the latest hit */
	uint64_t issue_cycle;
	bool is_load;           /* global/local/const/tex load: feeds the latency stats */
	bool missed;            /* ports.missed was called for it */
};

struct mu_heap_ent {
	uint64_t cycle, seq;
	uint32_t slot;
};

#define MU_MF_BUCKETS 256u
#define MU_MEMO_ENTRIES 64u
#define MU_MEMO_LANES 32u
struct mu_memo {
	bool valid;
	uint8_t cache_id;
	uint8_t mem_kind;             /* of the refused attempt */
	uint8_t pre;                  /* its precheck result (enum st_result) */
	uint64_t epoch;               /* mem_unit.epoch when refused */
	uint32_t n_lanes, access_bytes, n_reqs;
	uint64_t token;
	uint64_t mask;
	uint64_t addr[MU_MEMO_LANES];
	struct coal_req reqs[2 * MU_MEMO_LANES];
};

struct mem_unit {
	struct sim_component comp;
	char name[32];
	struct sim *sim;
	struct sim_clock *clk;
	struct mem_unit_ports ports;
	uint32_t sm_id;
	enum mu_model model;
	uint32_t fixed_latency_cycles;
	bool have_addrmap;
	struct mem_addrmap amap;

	struct cache cache[MU_NCACHES];
	struct coal_cfg coal[MU_NCACHES];
	struct coal_cfg coal_atomic;  /* gpu.memory.atomic_segment_bytes: atomics' segments (line_bytes
	                                 0: atomics coalesce by the L1D line) */
	struct mshr mshr;
	/* Which lines the MSHRs may hold: a count of valid entries per hash bucket of the line
	 * address, and a bit per non-empty bucket. A line whose bucket is empty is in no entry,
	 * so mshr_find (a scan of every entry) is skipped: the common answer for a streaming
	 * kernel's next line, asked by every precheck of a refused instruction. Kept by
	 * mf_add/mf_del at every mshr_alloc/mshr_release (all in this file). The XOR of the
	 * bucket's entry indices names its entry when it holds one, the usual case: a line
	 * whose entry is pending (a merge, or a refused instruction's recheck) is found
	 * without the scan too. */
	uint64_t mf_bits[MU_MF_BUCKETS / 64];
	uint16_t mf_cnt[MU_MF_BUCKETS]; /* <= mshr entries (<= 1024) */
	uint16_t mf_x[MU_MF_BUCKETS];   /* XOR of the indices of the bucket's valid entries */
	uint32_t mf_shift;              /* log2 of the smallest cache line */
	struct shmem_cfg shm;
	uint64_t shm_free_cycle;      /* first cycle the banks accept the next shared access */
	uint64_t *shm_scratch;

	/* instruction slots and the completion heap (one entry per slot at most) */
	struct mu_slot *slots;
	uint32_t n_slots, slots_used;
	uint32_t *slot_free;          /* stack of free slot indices (n_slots - slots_used of them) */
	struct mu_heap_ent *heap;
	uint32_t heap_n;
	uint64_t heap_seq;

	/* the L1 stage: one instruction, one line access per cycle */
	struct {
		bool busy;
		uint32_t slot;
		uint8_t cache_id;
		uint8_t mem_kind;       /* enum wi_mem_kind */
		uint32_t n, next;
		uint64_t last_cycle;    /* cycle an access was last processed (one per cycle) */
		uint64_t stall_since;   /* first cycle of the current MSHR / queue stall, or UINT64_MAX */
		enum st_result_kind { ST_NOT_STALLED, ST_ON_MSHR, ST_ON_QUEUE } stall_on;
		struct coal_req *reqs;  /* [coal_max_reqs(WI_MAX_LANES)] */
	} st;

	/* Coalescing memo: a refused instruction is retried as is every cycle (80 refusals per
	 * warp instruction on a streaming kernel), so its line requests are kept, keyed by token
	 * and validated against a copy of every input of coal_run (cache, lanes, mask, access
	 * size, addresses): a hit is exactly what coal_run would return. Warps of at most
	 * MU_MEMO_LANES lanes only. Indexed by memo_index. */
	struct mu_memo *memo;         /* [MU_MEMO_ENTRIES] */
	/* Moves (epoch_move) whenever a refusal could now be decided differently, so an
	 * instruction refused at the same epoch is refused again for the same reason (a memo hit
	 * skips the precheck; the SM repeats whole refused cycles by counting, and refuses a warp
	 * from its note: mem_unit_refuse_again). What a refusal
	 * reads and what changes it:
	 * - slots full: a completion freeing a slot while all were used;
	 * - stage busy: the stage going idle. While busy it refuses every instruction before
	 *   anything else is read, so its own accesses (L1, MSHRs, ring) need no move;
	 * - the precheck (L1 tags, MSHRs, ring): a fill (reply to a read) and the stage's
	 *   accesses (covered above); an injection only frees ring room, which can lift only a
	 *   refusal for a full miss queue (a refusal for MSHRs returns at an access needing a
	 *   new entry with none free or its entry full, and every earlier access passed whatever
	 *   room the ring had), so an injection moves the epoch only after such a refusal at this
	 *   epoch (missq_refused);
	 * - every accepted instruction.
	 * Acks of writes, atomics and write-backs change none of these. */
	uint64_t epoch;
	bool missq_refused;           /* a refusal for a full miss queue was decided at this epoch */
	/* Refusals of the last cycle that had any, by reason (mem_unit_repeat_refusals). */
	uint64_t rf_cycle;
	uint32_t rf[MEM_REFUSE_N];    /* by enum mem_refusal */
	uint8_t rf_last;              /* reason of the latest refusal (mem_unit_note_refusal) */
	bool rf_last_full;            /* it was for MSHRs with every entry in use */
	/* Moves when an MSHR entry is released or a store changes L1 lines: what can
	 * lift a refusal for MSHRs decided with every entry in use (mem_req.h). */
	uint64_t mshr_epoch;

	/* miss queue: demand requests (<= missq_cap) and write-backs share one ring whose
	 * extra room (mshr entries + 1) keeps a place for every pending fill's dirty victim */
	struct mem_req **ring;
	uint32_t ring_cap, ring_head, ring_n, missq_cap, missq_demand;
	struct sim_pool req_pool;
	uint64_t reqs_live, next_req_id;

	/* gpu.memory.l1d.flush_at_launch: the L1D's dirty lines at the last flush (write-back
	 * L1D only; [L1D lines], NULL otherwise), sent as write-backs from flush_wb_next on as the
	 * ring has room (mem_unit_kernel_begin, flush_step). */
	bool flush_at_launch;
	uint64_t *flush_wb;
	uint32_t flush_wb_n, flush_wb_next;

	struct coal_req *warm_reqs;   /* [coal_max_reqs(WI_MAX_LANES)]: mem_unit_warm's (the stage's
	                                 may be held by an instruction a budget cut off) */
	uint64_t warm_fills;          /* L1D lines installed by mem_unit_warm */

	bool l1d_alloc_on_miss;       /* gpu.memory.l1d.allocate = on-miss (cache_reserve) */
	/* gpu.l2.sector_bytes and gpu.l2.line_bytes when the L2 is sectored (and its line holds
	 * an L1D line), else 0: stores then carry the L2 sectors they write (coal_store_sectors) */
	uint32_t l2_sector_bytes, l2_line_bytes;
	bool hold_on_fail;            /* gpu.memory.reservation_fail = hold: an instruction whose access
	                                 finds no MSHR entry, way or miss-queue slot is accepted and
	                                 waits in the L1 stage (blocking the SM's later ones) */

	/* counters */
	uint64_t flushes, flushed_lines;
	uint64_t insts[4];            /* by enum wi_mem_kind (index 0 = shared) */
	uint64_t shared_insts, shared_conflict_cycles;
	uint64_t line_accesses;
	uint64_t pending_hits[MU_NCACHES]; /* misses merged into the line's pending MSHR entry */
	uint64_t refused[MEM_REFUSE_N]; /* by enum mem_refusal */
	uint64_t stall_mshr_cycles, stall_missq_cycles;
	uint64_t sent[5];             /* by enum mem_req_kind */
	uint64_t ifetch_sent, ifetch_lat_sum_cycles; /* instruction lines (also in sent[READ]) */
	uint64_t inject_retry_cycles;
	struct stat_avg reqs_per_inst;
	struct stat_avg lat_total, lat_smq, lat_noc, lat_l2, lat_mcq, lat_dram, lat_store;
	uint64_t lat_hist[MU_HIST_BUCKETS]; /* load round trips by power-of-two bucket (counters,
	                                       not a stat_hist, so the unit and the registry may be
	                                       torn down in either order) */
};

/* The unit's engine callbacks (tick, outstanding, dump: mem_unit.c), for mem_unit_create. */
extern const struct sim_component_ops mu_ops;

#endif
