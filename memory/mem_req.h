/* SPDX-License-Identifier: MIT */
/* Contract between the SM's LD/ST unit and memory/: a warp's accesses go in, exactly one
 * completion per load, store or atomic comes back; line requests travel L1 -> NoC -> L2 -> DRAM. */
#ifndef WARPSIM_MEM_REQ_H
#define WARPSIM_MEM_REQ_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/sim.h"
#include "../engine/stats.h"
#include "../engine/config.h"
#include "../frontend/warp_inst.h"

enum mem_req_kind { MEM_REQ_READ, MEM_REQ_WRITE, MEM_REQ_ATOMIC, MEM_REQ_PREFETCH, MEM_REQ_WRITEBACK };

/* Timestamps (ps) per stage, for latency breakdowns (NoC / L2 / queue / DRAM). 0 = not reached. */
enum mem_stage {
	MEM_T_ISSUE,        /* left the L1 miss path */
	MEM_T_NOC_INJECT,   /* accepted by the NoC at the SM */
	MEM_T_L2_ARRIVE,    /* ejected at the L2 slice */
	MEM_T_MC_ENQUEUE,   /* entered the memory controller queue (L2 miss) */
	MEM_T_DRAM_ISSUE,   /* its column command issued */
	MEM_T_DRAM_DONE,    /* data returned from DRAM */
	MEM_T_L2_REPLY,     /* reply injected at the L2 side */
	MEM_T_DONE,         /* reply ejected at the SM */
	MEM_T_COUNT
};

/* One line-sized request below L1 (pooled, owned by whoever holds it).
 * Protocol between an SM's mem_unit and the L2 slices: every request an SM injects
 * (NOC_CLASS_REQ to noc->mc_node[channel], its slice's node; READ and WRITEBACK carry 8 bytes of header,
 * WRITE/ATOMIC 8 + size_bytes) gets exactly one reply: the same struct, is_reply = 1,
 * injected in NOC_CLASS_REPLY to noc->core_node[src_sm] (READ/ATOMIC: 8 + size_bytes,
 * WRITE/WRITEBACK acks: 8 bytes). The SM allocated it from its own pool and frees it on the
 * reply. owner_ctx must come back unchanged. The one exception, gpu.l2.write_ack = false
 * (GPGPU-Sim 2.x, which sends no write acks): the SM marks its WRITE and WRITEBACK requests
 * no_ack, is done with them once the NoC took them (a store completes then), and the L2 slice
 * returns each to pool when it leaves the head of its reply queue, sending nothing. */
struct mem_req {
	uint64_t addr;              /* line-aligned physical address */
	uint32_t size_bytes;        /* bytes of data carried (line or sector) */
	uint8_t kind;               /* enum mem_req_kind */
	uint8_t is_reply;
	uint8_t ifetch;             /* a READ of an instruction-cache line (mem_unit_ifetch): below
	                               L1 a read like any other; its reply goes to the SM's fetch */
	uint8_t no_ack;             /* a WRITE or WRITEBACK that gets no reply (gpu.l2.write_ack) */
	uint16_t src_sm;            /* issuing core, or UINT16_MAX for L2/MC-originated */
	uint16_t channel;           /* L2 slice (addrmap.h: mem_addr_slice; the memory channel when
	                               gpu.l2.sub_partitions is 1), the index of its node in noc->mc_node */
	uint16_t bank;
	uint32_t row, col;
	/* A sectored L2 (gpu.l2.sector_bytes): the L2 sectors of its line a WRITE covers and those
	 * of them written whole (bit i = sector i), set by the SM. 0 = the sectors of
	 * [addr, addr + size_bytes), all whole (reads, atomics, L1 write-backs). */
	uint32_t sectors, full_sectors;
	uint32_t dram_bytes;        /* set by a sectored L2 on a miss: bytes its DRAM read fetches
	                               (the missing sectors); 0 = the line */
	uint32_t reply_parts;       /* a sectored L2 answers a read or atomic with one reply packet
	                               per sector (GPGPU-Sim 4: each sector its own mem_fetch back to
	                               the L1), all carrying this request: packets still to arrive,
	                               set before the first leaves; the SM takes the request on the
	                               last. 0 or 1: one packet */
	uint64_t id;                /* unique, for checking and tracing */
	uint64_t sm_ready_cycle;    /* the SM's cycle before which it may not leave its SM's miss
	                               queue (gpu.memory.l1d.miss_delay_cycles); 0: at once */
	uint64_t t_ps[MEM_T_COUNT];
	void *owner_ctx;            /* L1 MSHR entry etc.; opaque below */
	struct sim_pool *pool;      /* the pool it came from (freed into it by the L2 when no_ack) */
	struct mem_req *next;       /* intrusive queue link, free to whoever holds it */
};

/* ---- the SM-side memory unit (one per SM) ------------------------------------------
 * The SM hands it whole warp memory instructions. The unit owns coalescer, L1D,
 * L1 const/tex, MSHRs, banked shared memory and the study modes, and calls done()
 * once per accepted instruction when it completes (loads: data back; stores: acked). */
struct mem_unit;

typedef void (*mem_done_fn)(void *sm_ctx, uint64_t token, uint64_t now_ps);
/* An accepted load or atomic will get its data from below L1 (an access missed L1, merged into
 * a pending miss, or went to L2 as an atomic; every global/local/const/tex access of the
 * fixed-latency model): called at most once per instruction, before its done(), possibly from
 * inside mem_unit_try_issue (OWL Sec 2: a warp "blocked on a long latency memory operation"). */
typedef void (*mem_missed_fn)(void *sm_ctx, uint64_t token, uint64_t now_ps);
/* The instruction line at line_addr (from mem_unit_ifetch) arrived at now_ps. */
typedef void (*mem_ifetch_done_fn)(void *sm_ctx, uint64_t line_addr, uint64_t now_ps);

struct mem_unit_ports {
	struct sim_component *sm;   /* woken when something completes */
	mem_done_fn done;
	mem_missed_fn missed;       /* optional (NULL: not reported) */
	mem_ifetch_done_fn ifetch_done; /* needed for mem_unit_ifetch */
	void *sm_ctx;
	struct noc *noc;            /* NULL in perfect-l1 / fixed-latency modes; the unit maps an
	                               address to its L2 slice (memory/'s address map) and sends to
	                               noc->mc_node[slice] */
	int noc_node;               /* this SM's NoC node */
};

/* Build from gpu.memory.*, gpu.l1d.* etc. Registers stats "sm.<id>.l1d.*" etc. */
struct mem_unit *mem_unit_create(const struct cfg *cfg, struct sim *sim, struct stats *st,
				 uint32_t sm_id, struct sim_clock *core_clk,
				 const struct mem_unit_ports *ports, struct sim_error *err);
void mem_unit_destroy(struct mem_unit *m);

/* Accept a memory instruction (si->mem_kind != NONE) or refuse it (false): MSHRs or the
 * miss queue are full, or shared-memory bank conflicts from the previous one still
 * serialise. A refusal is a structural stall the SM counts. token comes back in done(). */
bool mem_unit_try_issue(struct mem_unit *m, const struct warp_inst *wi, uint64_t token,
			uint64_t now_cycle);
/* Send a read of the instruction-cache line at line_addr (bytes long) below L1, as GPGPU-Sim's
 * L1I misses go through the crossbar to the L2 and DRAM: no L1D, no MSHR of the unit; it takes
 * a place in the miss queue like a data miss. ports->ifetch_done gets the arrival. Only with the
 * NoC (the full and perfect-l2 models: mem_unit_has_ifetch). false: the miss queue is full,
 * nothing sent; retry in a later cycle. */
bool mem_unit_ifetch(struct mem_unit *m, uint64_t line_addr, uint32_t bytes, uint64_t now_cycle);
bool mem_unit_has_ifetch(const struct mem_unit *m);
/* Speed only: the refusals mem_unit_try_issue decides without looking at the instruction's
 * addresses (every in-flight slot used; shared banks still serialising; the L1 stage busy).
 * true: refused and counted exactly as mem_unit_try_issue would (the caller treats it as that
 * call's false); false: nothing done, call mem_unit_try_issue. */
bool mem_unit_refuse_now(struct mem_unit *m, const struct warp_inst *wi, uint64_t now_cycle);
/* Whether an instruction accepted earlier still holds the unit's access stage at now_cycle:
 * the L1 stage's further line passes (a divergent access, or one stalled on a full MSHR or miss
 * queue), or shared-memory banks still serialising a conflict. An in-order back end
 * (gpu.core.inorder_backend) issues nothing while it does. */
bool mem_unit_stage_busy(const struct mem_unit *m, uint64_t now_cycle);
/* Requests in flight, and flushed dirty lines not yet sent (for quiescence / watchdog). */
uint64_t mem_unit_outstanding(const struct mem_unit *m);
/* A kernel starts at now_cycle, before its first CTA. With gpu.memory.l1d.flush_at_launch the
 * L1D is emptied (GPGPU-Sim's -gpgpu_flush_l1_cache): every line invalid, dirty lines of a
 * write-back L1D written back (queued now, sent as the miss queue has room; none with
 * write-through or write-evict, which hold no dirty line). The constant and texture caches keep
 * their lines (GPGPU-Sim flushes only the L1D). Precondition: nothing in flight from the last
 * launch (asserted: launches start after the engine drained). Else nothing. */
void mem_unit_kernel_begin(struct mem_unit *m, uint64_t now_cycle);
/* sim.functional_launches_cache = warm: memory instruction wi, executed by the functional
 * executor for a CTA of this unit's core, applied to the L1D's tags as the L1 stage applies
 * an accepted access, with no timing and nothing in flight: a load hit refreshes its line, a
 * load miss fills it; a store follows the write policy (write-back: allocated without fetch,
 * dirty; write-through: a present line updated; write-evict: dropped); an atomic drops the
 * line. Each access that would go below the L1 (a load miss, a write-through or write-evict
 * store, an atomic, a dirty victim's write-back) is handed to below(ctx, line address,
 * bytes) in that order. The demand counters do not move; lines installed count in
 * sm.N.l1d.fills and sm.N.l1d.warm_fills. Global and local accesses only (the L1D; the
 * constant and texture caches are left as they are); nothing in the perfect-l1 and
 * fixed-latency models, which have no L1 tags. */
typedef void (*mem_unit_below_fn)(void *ctx, uint64_t addr, uint32_t bytes);
void mem_unit_warm(struct mem_unit *m, const struct warp_inst *wi, mem_unit_below_fn below, void *ctx);
/* Repeating refusals (speed only, results unchanged). The state epoch changes whenever a
 * refusal could be decided differently: a fill, the L1 stage going idle, a completion freeing
 * a slot while all were used, an injection after a miss-queue refusal at this epoch, an
 * accepted instruction. An instruction refused at an epoch is refused again, for the same
 * reason, while the epoch holds. mem_unit_refusals_stable: every refusal at cycle now_cycle was for
 * a reason only a state change can lift (not shared-memory banks that free with time); the
 * same instructions retried at the same epoch are then refused again for the same reasons.
 * mem_unit_repeat_refusals counts the refusals of the last cycle that had any once more, as
 * if they were retried in one more cycle. */
uint64_t mem_unit_epoch(const struct mem_unit *m);
bool mem_unit_refusals_stable(const struct mem_unit *m, uint64_t now_cycle);
void mem_unit_repeat_refusals(struct mem_unit *m);
/* Why an instruction was refused, one counter each (sm.N.mem.*_stalls). */
enum mem_refusal {
	MEM_REFUSE_BUSY,     /* the L1 stage still busy with an earlier instruction */
	MEM_REFUSE_SLOTS,    /* every in-flight slot used */
	MEM_REFUSE_MSHR,     /* an access needs an MSHR entry and none is free, or its entry is full */
	MEM_REFUSE_MISSQ,    /* the miss queue is full */
	MEM_REFUSE_SHARED,   /* shared banks still serialising a conflict (frees with time) */
	MEM_REFUSE_N
};
/* The same contract for one instruction at a time, kept by the caller in a note.
 * mem_unit_note_refusal describes the latest refusal, which was wi's; false when it is not
 * kept: shared-memory instructions (their banks free with time). mem_unit_refuse_again, for
 * the same instruction retried later: true when memory refuses it again, and then counts that
 * refusal at now_cycle exactly as mem_unit_try_issue would; false: nothing done, retry in full.
 * It refuses again while the note's epoch holds (for the same reason); else when a check that
 * reads no address refuses (every slot used, the L1 stage busy: mem_unit_refuse_now's, which
 * come first for any instruction that is not shared); else for a refusal for MSHRs decided
 * with every entry in use (note.full), while the MSHR epoch holds. That moves only when an
 * entry is released or a store changes L1 lines; until then an access needing a new entry
 * finds none, a pending entry's merges only grow and no probe turns into a hit, so the
 * precheck refuses for MSHRs again (ring room is never looked at: the MSHR check comes first).
 */
struct mem_refusal_note {
	uint64_t epoch;               /* mem_unit_epoch at the refusal */
	uint64_t mshr_epoch;          /* the MSHR epoch at it (used when full) */
	uint8_t why;                  /* enum mem_refusal */
	bool full;                    /* MEM_REFUSE_MSHR with every entry in use */
};
bool mem_unit_note_refusal(const struct mem_unit *m, const struct warp_inst *wi, struct mem_refusal_note *note);
bool mem_unit_refuse_again(struct mem_unit *m, const struct mem_refusal_note *note, uint64_t now_cycle);
/* The unit's engine component (registered by mem_unit_create on the core clock). When the
 * model uses the NoC (full, perfect-l2), mem_unit_create makes it the sink of ports->noc_node
 * (as noc_set_sink would), so replies wake it; the assembly need not. */
struct sim_component *mem_unit_component(struct mem_unit *m);
/* Settings gpu.memory.* (model, L1D/L1C/L1T, MSHRs, miss queue, shared memory). */
int mem_unit_cfg_define(struct cfg *c, struct sim_error *err);

#endif
