/* SPDX-License-Identifier: MIT */
/* Private state of an SM, shared by sm.c (build, launch, stats), sm_pipeline.c (the tick) and
 * sm_issue.c (issue). */
#ifndef WARPSIM_SM_INTERNAL_H
#define WARPSIM_SM_INTERNAL_H

#include "sm.h"

#define SM_MAX_IBUF 8        /* I-buffer entries per warp (gpu.core.ibuf_entries <= this) */
#define SM_SB_ENTRIES 16     /* in-flight register-writing instructions per warp */
#define SM_MAX_SCHED 8
#define SM_MAX_UNITS 8       /* units of one class */
#define SM_UNIT_CLASSES 3    /* SP, SFU, LDST (enum wi_unit order) */

enum sm_warp_state {
	SM_W_FREE,      /* slot unused */
	SM_W_ACTIVE,
	SM_W_BARRIER,   /* issued bar.sync, waiting for the CTA's live warps */
	SM_W_DRAINING,  /* finished functionally, its memory instructions not all completed */
	SM_W_EXITED,    /* finished; holds its slot until the CTA finishes (BAWS "exit") */
};

/* Per-warp status computed once per cycle before any scheduler issues. */
enum sm_wstat {
	SM_WS_NONE, SM_WS_READY, SM_WS_STRUCT, SM_WS_DATA, SM_WS_CONTROL, SM_WS_FETCH,
	SM_WS_BARRIER, SM_WS_EXIT
};

/* Status-pass flags of a warp: stalled on memory (OWL memory block), or another stall that
 * is not a barrier or exit. */
enum { SM_WF_MEM = 2, SM_WF_OTHER = 4 };

struct sm_ibuf_entry {
	uint32_t pc;
	uint64_t ready_cycle;   /* first cycle it may issue (fetch + decode, I-cache fill) */
};

struct sm_sb_entry {
	uint64_t release_cycle; /* its writes are visible from this cycle; UINT64_MAX while in memory */
	struct warp_inst *wi;   /* memory instruction, kept (pool) until done */
	uint64_t issue_cycle;
	uint16_t dst[WI_MAX_DST];
	uint8_t n_dst;
	bool used, mem, long_lat;
	bool missed;            /* memory reported its data comes from below L1 */
};

/* I-cache lines read through memory (icache.miss_path memory): the code of module-wide
 * instruction i is at SM_CODE_BASE_ADDR + i * inst_bytes, far above every global allocation
 * (frontend/memory.c allocates upward from FE_GLOBAL_BASE, 256 MiB), so code and data lines never
 * share an L2 line. A pending line's fill cycle, and the ready cycle of I-buffer entries fetched
 * from it, are SM_IC_PENDING until sm_ifetch_done. */
#define SM_CODE_BASE_ADDR (1ull << 40)
#define SM_IC_PENDING UINT64_MAX

struct sm_warp {
	/* Fields read by every cycle's status pass first (one cache line), the arrays after:
	 * the pass visits every warp each cycle, and the 848-byte struct spread them over four. */
	struct fe_warp *fw;
	uint8_t state;                  /* enum sm_warp_state */
	uint16_t cta_slot;
	uint8_t ib_head, ib_count;
	bool ctrl_flush;                /* I-buffer emptied by a control transfer, not yet refilled+issued */
	bool ft_fetch;                  /* gpu.core.fetch_fallthrough: the next fetch reads ft_pc (wrong path) */
	bool wrong_path;                /* the I-buffer holds that wrong-path fetch, dropped when due */
	uint8_t replay_sb;
	struct warp_inst *replay;       /* executed memory instruction memory refused; retried as is */
	uint64_t sb_block_until;        /* head blocked by the scoreboard before this cycle (cache);
	                                   UINT64_MAX: until a memory reply; 0: unknown */
	uint8_t sb_used;
	uint16_t sb_mask;               /* bit i: sb[i].used (the scan skips free entries unread) */
	bool sb_block_ll;               /* ...and by a long-latency load (view.waiting_long_lat) */
	bool sb_block_miss;             /* ...and by one that missed L1 (view.waiting_miss) */
	uint16_t miss_pending;          /* memory instructions reported missed, not completed */
	uint16_t mem_pending;           /* memory instructions not completed */
	uint64_t barrel_until;          /* gpu.core.barrel: first cycle its next instruction may issue
	                                   (last completion + fetch_decode_cycles), with mem_pending 0 */
	bool marked;
	uint64_t mark_cycle;            /* barrier arrival / finish cycle in the current warp-phase */
	uint32_t ft_pc;                 /* fall-through PC for ft_fetch */
	struct sm_ibuf_entry ib[SM_MAX_IBUF];
	struct sm_sb_entry sb[SM_SB_ENTRIES];
};

struct sm_cta {
	bool used;
	bool finish_pending;            /* every warp exited; reported at the end of the tick */
	struct fe_cta *fc;
	uint32_t cta_id;
	uint64_t launch_seq;
	uint16_t warp0;                 /* not contiguous in general: warps[] lists the slots */
	uint16_t n_warps, n_live, n_at_barrier, n_exited;
	uint16_t warps[SCHED_MAX_WARPS];
	uint64_t phase_start_cycle;     /* CTA start or last barrier release */
};

struct sm_unit {
	uint32_t count;
	uint32_t ii_cycles;             /* initiation interval: ceil(warp_size / width) */
	uint64_t next_free[SM_MAX_UNITS];
	/* gpu.core.units.writeback_slots: bit i of wb_mask = a result due in slot wb_base + i
	 * (a slot lasts the SP unit's initiation interval: unit_free_wb) */
	uint64_t wb_mask[SM_MAX_UNITS], wb_base[SM_MAX_UNITS];
};

/* PAWS phase data of one instruction with this SM's latencies (sm_phase.c). */
struct sm_phase {
	uint32_t distance_cycles, len_cycles, next_len_cycles;
};

struct sm {
	struct sim_component comp;      /* first: the engine's view */
	char name[32];
	struct sim *sim;
	uint32_t id, n_cores;
	struct cta_dispatcher *disp;
	struct fe_clock clock;          /* what its warps' %clock64 and %globaltimer read */
	/* settings */
	uint32_t warp_size, max_warps, max_threads, max_ctas, registers, shared_bytes;
	uint32_t n_sched, ibuf_entries;
	bool sched_rotating;            /* gpu.core.scheduler_order: scheduler (cycle % n) picks first */
	uint32_t lat[WI_LAT_COUNT];     /* cycles per latency class (SP/SFU ones with alu_pipeline) */
	uint32_t mem_pipe_cycles;       /* gpu.core.latency.mem_pipeline: after a memory reply */
	uint32_t ii_slots[WI_II_COUNT]; /* gpu.core.initiation.*: SP issue slots per ii class */
	uint32_t op_lat[WI_II_COUNT];   /* gpu.core.latency.ops.*: per ii class, alu_pipeline in; 0: lat[] */
	struct sm_unit units[SM_UNIT_CLASSES];
	uint64_t pipe_free[SM_MAX_UNITS];      /* latest next_free[k] of any class (sm_unit_take):
	                                          with shared_pipe, when pipeline k frees */
	/* I-cache: sets x assoc tags, LRU stamps, fill cycles */
	uint32_t ic_sets, ic_assoc, ic_line_bytes, ic_inst_bytes, ic_miss_cycles;
	uint32_t fetch_decode_cycles;   /* fetch at t (hit) -> issuable at t + this */
	bool barrel;                    /* gpu.core.barrel: one instruction per warp in the pipeline */
	bool inorder_backend;           /* gpu.core.inorder_backend: nothing issues while an earlier
	                                   memory instruction holds the memory stage */
	bool fetch_fallthrough;         /* gpu.core.fetch_fallthrough */
	bool wb_slots;                  /* gpu.core.units.writeback_slots */
	bool shared_pipe;               /* gpu.core.units.shared_pipeline: unit k of every class busy together */
	uint64_t *ic_tag;               /* [sets*assoc], UINT64_MAX = invalid */
	uint64_t *ic_lru;               /* last use stamp */
	uint64_t *ic_fill;              /* cycle the line's data arrives; SM_IC_PENDING: read from
	                                   memory (miss_path memory), not back yet */
	uint64_t ic_stamp;
	uint64_t ic_code_first_inst;    /* the running kernel's first instruction in its module */
	const void *ic_code_module;     /* whose code the cached lines hold (fe_launch_info) */
	bool ic_mem;                    /* gpu.core.icache.miss_path is memory (used when mem_ifetch is set) */
	bool (*mem_ifetch)(void *mem_ctx, uint64_t line_addr, uint32_t bytes, uint64_t now_cycle);
	/* policies and memory */
	struct sched *issue, *fetch;
	bool wrapped_sched;             /* issue/fetch built here from ops tables */
	bool fetch_partial;             /* the fetch policy's struct sched fetch_partial */
	bool mem_reports_misses;        /* the memory unit calls sm_mem_missed; else every
	                                   long-latency load counts as missed */
	void (*sched_destroy_fn)(struct sched *);
	void *mem;
	bool (*mem_try_issue)(void *mem, const struct warp_inst *wi, uint64_t token, uint64_t now_cycle);
	uint64_t (*mem_outstanding)(const void *mem);
	void (*mem_destroy)(void *mem);
	uint64_t (*mem_epoch)(const void *mem);
	bool (*mem_refusals_stable)(const void *mem, uint64_t now_cycle);
	void (*mem_repeat_refusals)(void *mem);
	bool (*mem_refuse_now)(void *mem, const struct warp_inst *wi, uint64_t now_cycle);
	bool (*mem_note_refusal)(const void *mem, const struct warp_inst *wi, struct mem_refusal_note *note);
	bool (*mem_refuse_again)(void *mem, const struct mem_refusal_note *note, uint64_t now_cycle);
	bool (*mem_stage_busy)(const void *mem, uint64_t now_cycle);
	void (*mem_kernel_begin)(void *mem, uint64_t now_cycle);
	void (*mem_warm)(void *mem, const struct warp_inst *wi, mem_unit_below_fn below, void *ctx);
	struct sim_pool wi_pool;        /* warp_inst + addr[warp_size] for memory instructions */
	struct warp_inst *scratch;      /* ALU/control instructions: nothing keeps them */
	/* kernel */
	const struct wi_static *insts;
	uint32_t n_insts;
	/* gpu.core.phase_latency = machine: the kernel's phase data timed by this SM (else the
	 * frontend's fixed table, in insts) */
	bool phase_machine;
	uint32_t phase_shared_cycles, phase_const_cycles; /* hit latencies of shared and l1c */
	struct sm_phase *phase;         /* [phase_cap], n_insts valid */
	uint32_t *phase_scratch;        /* [2 * phase_cap] */
	uint32_t phase_cap;
	uint32_t warps_per_cta, threads_per_cta, regs_per_thread, shared_per_cta;
	bool in_kernel;
	/* warps and CTAs */
	struct sm_warp warps[SCHED_MAX_WARPS];
	struct sm_cta ctas[SCHED_MAX_CTAS];
	/* Finished CTAs of the running kernel, kept for the next CTA launched here to reuse
	 * (fe_cta_recycle): allocating and zeroing a CTA's registers was 4.6% of gtx480 reduce.
	 * Each spare was resident once and a launch takes one when there is one, so
	 * n_resident_ctas + n_spare_ctas <= SCHED_MAX_CTAS. Freed at kernel end, before the
	 * launch they belong to can be. */
	struct fe_cta *spare_ctas[SCHED_MAX_CTAS];
	uint32_t n_spare_ctas;
	struct sched_warp_view views[SCHED_MAX_WARPS];
	/* Per-warp status cache, dense (read by every cycle's pass): the status, the cycle before
	 * which it holds unless an event touches the warp (0: recompute; see warp_status), and the
	 * pass's flags (SM_WF_*). Events that change a warp (issue, fetch, a memory completion,
	 * barrier release, finish, launch) zero its wst_until. */
	uint8_t wstatus[SCHED_MAX_WARPS];      /* enum sm_wstat */
	/* A warp's refused memory instruction (its replay), noted where the issue stage reads it
	 * without touching the warp: bit s of rf_mask says rf_note[s] describes slot s's last
	 * refusal (mem_unit_note_refusal), rf_ucls[s] is the instruction's unit class. A retry
	 * first asks memory whether the note still holds (mem_unit_refuse_again), after the unit
	 * check alone. On bfs an SM retries about 20 refused warps a cycle, each reading cold warp
	 * state. Set when a refusal is counted, cleared when the instruction is accepted and when
	 * a warp starts. */
	uint64_t rf_mask;
	struct mem_refusal_note rf_note[SCHED_MAX_WARPS];
	uint8_t rf_ucls[SCHED_MAX_WARPS];
	uint8_t wflags[SCHED_MAX_WARPS];
	uint64_t wst_until[SCHED_MAX_WARPS];   /* UINT64_MAX for a free slot: never due */
	uint64_t timed_mask;                   /* slots whose wst_until is not UINT64_MAX (sm_set_until) */
	/* Aggregates of the cached statuses of the warps in counted_mask, kept as statuses are
	 * refreshed: classes per scheduler, ready warps per scheduler, the OWL memory-block
	 * counts; fetch_mask is exact at every moment (valid, empty I-buffer, no replay). */
	uint64_t live_mask;                    /* slots in sched_warps (the pass visits these) */
	/* Statuses made stale by events since the last pass (wst_until 0), and the earliest
	 * wst_until in the future among the others: while no cached status has expired and none
	 * holding that earliest time was touched, the pass needs no walk over the warps. */
	uint64_t stale_mask;
	uint64_t next_due;
	bool next_due_dirty;
	uint64_t counted_mask;
	uint16_t cls_count[SM_MAX_SCHED][SM_CYC_COUNT];
	uint64_t ready_mask[SM_MAX_SCHED];
	uint32_t n_mem_wait, n_other_wait;
	uint64_t fetch_mask;
	uint8_t wunit[SCHED_MAX_WARPS];        /* unit class a ready warp's head needs */
	uint64_t unit_ready_mask[SM_UNIT_CLASSES];
	uint64_t unit_stale_mask;              /* ready warps whose unit class filled up this cycle */
	/* With a pure issue policy that ranks by keys (SCHED_RANK_PURE with NO_LIMIT or keys, no
	 * LWM) a warp waiting only for a busy unit keeps its cached READY status: the pass records
	 * which unit classes are free (units_free_at_pass) and schedule() treats the others' warps
	 * as structural. Saves flipping READY <-> STRUCT around every issue. A policy with an issue
	 * limit may read the views' ready / unit_busy (OWL's group_limit): with exact_unit_views
	 * the pass sets those of the READY warps of busy classes as warp_status would have
	 * (view_busy_mask: the warps it set unit_busy). */
	bool lazy_units, exact_unit_views;
	uint8_t units_free_at_pass;            /* bit per enum wi_unit */
	uint64_t view_busy_mask;
	uint8_t sched_of[SCHED_MAX_WARPS];     /* slot % n_sched */
	uint64_t unit_taken_cycle;             /* last cycle an issue took a unit (UINT64_MAX: none) */
	struct sched_core_view core;
	uint16_t sched_warps[SM_MAX_SCHED][SCHED_MAX_WARPS]; /* slots owned by each scheduler (live or exited) */
	uint16_t n_sched_warps[SM_MAX_SCHED];
	uint16_t rank_buf[SCHED_MAX_WARPS];
	uint32_t n_resident_ctas, n_resident_warps, n_live_warps;
	/* tick state */
	bool in_tick, activity;
	bool drain_ready;                      /* a draining warp's last memory reply came */
	bool finish_ready;                     /* some CTA has finish_pending */
	uint64_t acct_next;                    /* first cycle not yet accounted */
	uint8_t sleep_class[SM_MAX_SCHED];     /* class of each scheduler while asleep */
	bool sleep_memblock, sleep_nowarp;
	/* Quiet cycles (speed only). A cycle in which nothing issued and nothing changed, and every
	 * ready warp was refused by memory for a reason only a memory state change lifts, or left
	 * behind by a pure policy's issue limit, repeats identically while the memory unit's epoch
	 * holds, no status times out (until) and nothing calls into the SM (sm_quiet_end): the
	 * tick then only counts it again. */
	bool refused, left_behind;             /* this tick */
	uint32_t tick_refusals;
	struct {
		bool valid;
		bool memblock;
		uint64_t until;                /* first cycle a warp status may change */
		uint64_t mem_epoch;
		uint32_t refusals;             /* per cycle */
		uint8_t cls[SM_MAX_SCHED];
	} quiet;
	uint64_t quiet_repeats;                /* cycles counted by quiet_repeat (tests) */
	uint64_t rf_repeats;                   /* retries counted by refuse_again (tests) */
	/* Pipeline sleep (speed only; sm_pipeline.c: pipe_busy_until). The SM sleeps to the
	 * cycle its shared pipeline frees where full ticking would have ticked from pipe_next on
	 * only to refresh statuses in structural cycles. An event calling into the SM first makes
	 * those ticks, up to its cycle (sm_pipe_wake), so it finds the SM as full ticking would. */
	bool pipe_sleep;
	uint64_t pipe_next;                    /* full ticking's next tick */
	uint64_t pipe_sleeps;                  /* sleeps begun (tests) */
	struct sim_error err;
	bool failed;
	uint64_t alu_busy_until;        /* first cycle with no ALU instruction in flight */
	uint32_t mem_inflight;          /* memory instructions accepted, not completed */
	/* stats */
	struct sm_counters c;
	uint64_t sched_cyc[SM_MAX_SCHED][SM_CYC_COUNT];
	struct sm_lwm *lwm;             /* large warp microarchitecture (sm_lwm.c); NULL: off */
};

/* The warp's cached status no longer holds (an event touched it): recomputed by the next
 * status pass. */
static inline void sm_set_until(struct sm *sm, uint16_t slot, uint64_t until)
{
	uint64_t bit = 1ull << slot;
	sm->wst_until[slot] = until;
	sm->timed_mask = until == UINT64_MAX ? sm->timed_mask & ~bit : sm->timed_mask | bit;
}

/* Whether next_due may have to rise when slot's status leaves it: only if the slot held it
 * (a status that never expires cannot be the earliest expiry). */
static inline void sm_next_due_leave(struct sm *sm, uint16_t slot)
{
	if (sm->wst_until[slot] == sm->next_due && sm->next_due != UINT64_MAX)
		sm->next_due_dirty = true;
}

static inline void sm_status_stale(struct sm *sm, uint16_t slot)
{
	sm_next_due_leave(sm, slot);
	sm_set_until(sm, slot, 0);
	sm->stale_mask |= 1ull << slot;
}

/* After a write to the view's valid, waiting_long_lat, waiting_miss or at_barrier: its bits of
 * the policies' core.blocked_mask and core.miss_mask (policy.h). */
static inline void sm_view_blocked_sync(struct sm *sm, uint16_t slot)
{
	const struct sched_warp_view *v = &sm->views[slot];
	uint64_t bit = 1ull << slot;
	if (!v->valid || v->waiting_long_lat || v->at_barrier)
		sm->core.blocked_mask |= bit;
	else
		sm->core.blocked_mask &= ~bit;
	if (!v->valid || v->waiting_miss)
		sm->core.miss_mask |= bit;
	else
		sm->core.miss_mask &= ~bit;
}

/* After a change of the warp's I-buffer count, replay or validity: its fetch_mask bit (BAWS
 * Sec 2.2: a warp may fetch only with an empty I-buffer; with a SCHED_FETCH_PARTIAL fetch
 * policy, with a free slot and an instruction after the buffered ones). */
static inline void sm_fetch_bit(struct sm *sm, uint16_t slot)
{
	const struct sm_warp *w = &sm->warps[slot];
	bool room = w->ib_count == 0;
	if (!room && sm->fetch_partial && w->ib_count < sm->ibuf_entries)
		room = w->ib[(w->ib_head + w->ib_count - 1u) % sm->ibuf_entries].pc + 1u < sm->n_insts;
	bool ok = room && !w->replay && sm->views[slot].valid;
	sm->fetch_mask = (sm->fetch_mask & ~(1ull << slot)) | ((uint64_t)ok << slot);
}

/* Tell both policies (issue and fetch) of an event of warp slot / CTA slot at now. */
static inline void sm_notify(struct sm *sm, enum sched_event_kind k, uint16_t slot, uint16_t cta_slot, uint64_t arg,
			     uint64_t now)
{
	struct sched_event ev = {.kind = k, .warp_id = slot, .cta_slot = cta_slot, .arg = arg, .cycle = now};
	sched_notify(sm->issue, &ev);
	sched_notify(sm->fetch, &ev);
}

/* Unit k of class cls takes an instruction, busy until `until`. A unit is taken free, so its
 * next_free never decreases, and pipe_free[k] stays the latest of the classes' next_free[k]. */
static inline void sm_unit_take(struct sm *sm, unsigned cls, uint32_t k, uint64_t until)
{
	sm->units[cls].next_free[k] = until;
	if (until > sm->pipe_free[k])
		sm->pipe_free[k] = until;
}

/* The I-cache line holding the running kernel's instruction pc (module-wide code address /
 * line size: the tag of fetch_warp and sm_ifetch_done). */
static inline uint64_t sm_ic_line(const struct sm *sm, uint32_t pc)
{
	return (sm->ic_code_first_inst + pc) * sm->ic_inst_bytes / sm->ic_line_bytes;
}

/* Cycles from issue until instruction si's result can be read: its opcode group's latency
 * (gpu.core.latency.ops.*) where one is set, else its latency class's. */
static inline uint32_t sm_result_cycles(const struct sm *sm, const struct wi_static *si)
{
	uint32_t l = sm->op_lat[si->ii_class];
	return l ? l : sm->lat[si->lat_class];
}

/* sm_phase.c: phase distance, length and next phase's length of each of wi[0..n) (phases as the
 * frontend numbered them, ascending with pc), summing cost[pc] cycles; phase_len: n entries of
 * scratch. */
void sm_phase_lengths(const struct wi_static *wi, uint32_t n, const uint32_t *cost, struct sm_phase *out,
		      uint32_t *phase_len);
/* At kernel begin, with phase_machine: fills sm->phase for the kernel's instructions. */
void sm_phase_kernel_begin(struct sm *sm);

/* sm_issue.c: scheduler s's cycle at now: issues at most one warp instruction, returns the
 * scheduler's cycle class (enum sm_cyc). */
uint8_t sm_schedule(struct sm *sm, uint32_t s, uint64_t now);
/* Scheduler s's cycle class when nothing may issue (gpu.core.inorder_backend, the memory stage
 * held): structural for a ready warp or a large warp being split, else its warps' closest. */
uint8_t sm_schedule_blocked(const struct sm *sm, uint32_t s);
/* sm_pipeline.c */
/* Release CTA slot cs's barrier if every live warp has arrived (finished warps count as
 * arrived); the released warps issue from the next cycle. */
void sm_barrier_check(struct sm *sm, uint16_t cs, uint64_t now);
/* Warp slot executed its last instruction at now: it stops fetching and leaves its CTA's live
 * count. */
void sm_warp_finish(struct sm *sm, uint16_t slot, uint64_t now);
uint64_t sm_tick(struct sim_component *comp, uint64_t cycle);
/* Account [sm->acct_next, end) with the sleep classes. */
void sm_account_skipped(struct sm *sm, uint64_t end_cycle);
void sm_fail(struct sm *sm, const struct sim_error *err);
void sm_update_view_pc(struct sm *sm, uint16_t slot);
/* Before an event at `cycle` from the SM's memory unit (which ticks after the SM in a cycle,
 * being added after it) changes anything: the ticks a pipeline sleep left out up to and
 * including `cycle`. Then sm->acct_next is the first cycle the SM may tick. */
void sm_pipe_catch_up(struct sm *sm, uint64_t cycle);
/* The ticks a pipeline sleep left out before cycle `end`, the sleep going on (sm_sync_counters). */
void sm_pipe_ticks_before(struct sm *sm, uint64_t end);
static inline void sm_pipe_wake(struct sm *sm, uint64_t cycle)
{
	if (sm->pipe_sleep)
		sm_pipe_catch_up(sm, cycle);
}

/* sm_stats.c: register the SM's stats in st (at build). */
void sm_register_stats(struct sm *sm, struct stats *st);

#endif
