/* SPDX-License-Identifier: MIT */
/* The memory unit's state (memory/mem_req.h), shared by its timing (mem_unit.c) and its
 * settings, build and statistics (mem_unit_build.c). Internal to memory/. */
#ifndef WS_MEM_UNIT_INT_H
#define WS_MEM_UNIT_INT_H

#include "mem_req.h"

#include <string.h>

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
		bool local;             /* a .local access (l1d_local_wb applies) */
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
	bool l1d_local_wb;            /* write_policy = local-wb-global-evict: a local store hit stays
	                                 in the L1D, dirty (the L1D's own policy, write-evict, is for
	                                 global stores); local and global store misses go below
	                                 without allocating (GPGPU-Sim's dl1 'L' with 'N') */
	/* gpu.l2.sector_bytes and gpu.l2.line_bytes when the L2 is sectored (and its line holds
	 * an L1D line), else 0: stores then carry the L2 sectors they write (coal_store_sectors) */
	uint32_t l2_sector_bytes, l2_line_bytes;
	bool no_write_ack;            /* gpu.l2.write_ack = false (with a NoC): WRITE and WRITEBACK
	                                 requests get no reply; a store completes, and the unit is
	                                 done with them, once the NoC took them (mem_req.h) */
	uint32_t l1d_miss_delay_cycles; /* gpu.memory.l1d.miss_delay_cycles: a read miss or store the
	                                 L1D sends below leaves no earlier than this after its access */
	uint32_t l1c_mshr_entries;    /* gpu.memory.l1c.mshr_entries: at most this many MSHR entries
	                                 hold L1C misses at once (0: no cap of their own) */
	uint32_t mshr_used[MU_NCACHES]; /* valid MSHR entries per cache (mshr_alloc / mshr_release) */
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

/* ---- helpers shared by the timing (mem_unit.c) and the issue side (mem_unit_issue.c) ---- */
static inline double ps_to_cycles(const struct mem_unit *m, uint64_t ps)
{
	return (double)ps * (double)m->clk->freq_mhz / 1e6;
}

static inline void heap_push(struct mem_unit *m, uint64_t cycle, uint32_t slot)
{
	SIM_ASSERT(m->heap_n < m->n_slots);
	uint32_t i = m->heap_n++;
	struct mu_heap_ent e = {cycle, m->heap_seq++, slot};
	while (i) {
		uint32_t p = (i - 1) / 2;
		struct mu_heap_ent *pe = &m->heap[p];
		if (pe->cycle < e.cycle || (pe->cycle == e.cycle && pe->seq < e.seq))
			break;
		m->heap[i] = *pe;
		i = p;
	}
	m->heap[i] = e;
}

static inline struct mu_heap_ent heap_pop(struct mem_unit *m)
{
	struct mu_heap_ent top = m->heap[0];
	struct mu_heap_ent last = m->heap[--m->heap_n];
	uint32_t i = 0, n = m->heap_n;
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, s = i;
		struct mu_heap_ent *best = &last;
		if (l < n && (m->heap[l].cycle < best->cycle ||
			      (m->heap[l].cycle == best->cycle && m->heap[l].seq < best->seq))) {
			s = l;
			best = &m->heap[l];
		}
		if (r < n && (m->heap[r].cycle < best->cycle ||
			      (m->heap[r].cycle == best->cycle && m->heap[r].seq < best->seq)))
			s = r;
		if (s == i)
			break;
		m->heap[i] = m->heap[s];
		i = s;
	}
	if (n)
		m->heap[i] = last;
	return top;
}

static inline uint32_t slot_alloc(struct mem_unit *m, uint64_t token, uint64_t now_cycle)
{
	SIM_ASSERT(m->slots_used < m->n_slots);
	uint32_t i = m->slot_free[m->n_slots - 1 - m->slots_used];
	struct mu_slot *s = &m->slots[i];
	SIM_ASSERT(!s->used);
	memset(s, 0, sizeof *s);
	s->used = true;
	s->token = token;
	s->issue_cycle = now_cycle;
	m->slots_used++;
	return i;
}

static inline void slot_free(struct mem_unit *m, uint32_t i)
{
	m->slots[i].used = false;
	m->slots_used--;
	m->slot_free[m->n_slots - 1 - m->slots_used] = i;
}

/* Slot si's data comes from below L1 (mem_missed_fn): tell the SM once. */
static inline void note_miss(struct mem_unit *m, uint32_t si, uint64_t now_cycle)
{
	struct mu_slot *s = &m->slots[si];
	if (s->missed || !m->ports.missed)
		return;
	s->missed = true;
	m->ports.missed(m->ports.sm_ctx, s->token, sim_clock_edge_ps(m->clk, now_cycle));
}

/* One access of slot done at ready; when none is left, queue the completion. */
static inline void slot_served(struct mem_unit *m, uint32_t si, uint64_t ready_cycle)
{
	struct mu_slot *s = &m->slots[si];
	SIM_ASSERT(s->used && s->pending > 0);
	if (ready_cycle > s->ready_cycle)
		s->ready_cycle = ready_cycle;
	if (--s->pending == 0)
		heap_push(m, s->ready_cycle, si);
}

static inline struct mem_req *req_new(struct mem_unit *m, enum mem_req_kind kind, uint64_t line_addr,
			       uint32_t bytes, void *owner, uint64_t now_cycle)
{
	struct mem_req *r = sim_pool_alloc(&m->req_pool);
	SIM_ASSERT(r); /* the pool grows only when the system is out of memory */
	r->addr = line_addr;
	r->size_bytes = bytes;
	r->kind = (uint8_t)kind;
	r->ifetch = 0;
	r->src_sm = (uint16_t)m->sm_id;
	r->channel = m->have_addrmap ? (uint16_t)mem_addr_slice(&m->amap, line_addr) : 0;
	r->id = ((uint64_t)m->sm_id << 40) | m->next_req_id++;
	r->t_ps[MEM_T_ISSUE] = sim_clock_edge_ps(m->clk, now_cycle);
	r->sm_ready_cycle = 0;
	r->owner_ctx = owner;
	r->pool = &m->req_pool;
	r->no_ack = m->no_write_ack && (kind == MEM_REQ_WRITE || kind == MEM_REQ_WRITEBACK);
	m->reqs_live++;
	m->sent[kind]++;
	return r;
}

/* A store's requests to a sectored L2 get the sectors they write (coalescer.h). */
static inline void store_sectors(struct mem_unit *m, uint8_t mem_kind, uint8_t cid, const struct warp_inst *wi)
{
	if (!m->l2_sector_bytes || mem_kind != WI_MEM_STORE || cid != MU_L1D)
		return;
	for (uint32_t i = 0; i < m->st.n; i++) {
		struct coal_req *r = &m->st.reqs[i];
		r->l2_sectors = coal_store_sectors(wi, r, m->coal[MU_L1D].line_bytes, m->l2_line_bytes,
						   m->l2_sector_bytes, &r->l2_full);
	}
}

static inline void ring_push(struct mem_unit *m, struct mem_req *r)
{
	SIM_ASSERT(m->ring_n < m->ring_cap);
	m->ring[(m->ring_head + m->ring_n) % m->ring_cap] = r;
	m->ring_n++;
	if (r->kind != MEM_REQ_WRITEBACK)
		m->missq_demand++;
}

/* Room for a push other than a fill's victim. Invariant: ring_n + mshr.used <= ring_cap, so
 * every pending fill (each holds an MSHR entry) always finds room for its dirty victim and
 * replies are ejected unconditionally: the reply network never waits on the request network
 * (no protocol deadlock through the SM). demand: counts against the miss queue; new_mshr: the
 * push also takes an MSHR entry. */
/* GPGPU-Sim's LOCAL_WB_GLOBAL_WT (l1d_local_wb): a local store that hits the L1D marks the
 * line dirty and stays there (written back when evicted); true when it did, so the store
 * goes no further. count: a demand access (the L1 stage) or a replayed one (mem_unit_warm). */
static inline bool mu_local_store_kept(struct mem_unit *m, bool local, uint64_t line, uint32_t sectors, bool count)
{
	struct cache *c = &m->cache[MU_L1D];
	if (!m->l1d_local_wb || !local || !cache_probe(c, line, 0))
		return false;
	cache_lookup_wp(c, line, true, sectors, CACHE_WRITE_BACK, count);
	return true;
}

static inline bool can_push(const struct mem_unit *m, bool demand, bool new_mshr)
{
	if (demand && m->missq_demand >= m->missq_cap)
		return false;
	return m->ring_n + m->mshr.used + 1 + (new_mshr ? 1 : 0) <= m->ring_cap;
}

/* The memo entry for token. Any token works (entries are validated), but the index is chosen
 * for the SM's tokens, (warp slot << 8) | scoreboard entry: a warp has one instruction refused
 * at a time, so the slot bits give each waiting warp its own entry. Mixing in the low bits
 * made warps collide ((slot ^ entry) & 63) and evict each other's requests every cycle. */
static inline uint32_t memo_index(uint64_t token)
{
	return (uint32_t)((token >> 8) ^ (token >> 14) ^ (token >> 20)) & (MU_MEMO_ENTRIES - 1);
}

static inline void epoch_move(struct mem_unit *m)
{
	m->epoch++;
	m->missq_refused = false;
}

/* ---- MSHR line filter (struct mem_unit: mf_*) ---------------------------------------- */

static inline uint32_t mf_bucket(const struct mem_unit *m, uint64_t line)
{
	uint64_t x = line >> m->mf_shift;
	return (uint32_t)(x ^ (x >> 8) ^ (x >> 16)) & (MU_MF_BUCKETS - 1);
}

static inline void mf_add(struct mem_unit *m, const struct mshr_entry *e)
{
	uint32_t b = mf_bucket(m, e->line_addr);
	m->mf_x[b] ^= (uint16_t)(e - m->mshr.e);
	if (m->mf_cnt[b]++ == 0)
		m->mf_bits[b / 64] |= UINT64_C(1) << (b % 64);
}

static inline void mf_del(struct mem_unit *m, const struct mshr_entry *e)
{
	uint32_t b = mf_bucket(m, e->line_addr);
	SIM_ASSERT(m->mf_cnt[b] > 0);
	m->mf_x[b] ^= (uint16_t)(e - m->mshr.e);
	if (--m->mf_cnt[b] == 0)
		m->mf_bits[b / 64] &= ~(UINT64_C(1) << (b % 64));
}

/* Whether a miss of cache_id may take a new MSHR entry: one is free and, for the L1C, fewer
 * than l1c_mshr_entries hold its misses (GPGPU-Sim's constant cache has MSHRs of its own). */
static inline bool mu_mshr_room(const struct mem_unit *m, uint8_t cache_id)
{
	return mshr_free_entries(&m->mshr) &&
	       !(cache_id == MU_L1C && m->l1c_mshr_entries && m->mshr_used[MU_L1C] >= m->l1c_mshr_entries);
}

/* mshr_find, without its scan when no entry can hold the line. */
static inline struct mshr_entry *mu_mshr_find(struct mem_unit *m, uint8_t cache_id, uint64_t line,
					      uint32_t sectors)
{
	uint32_t b = mf_bucket(m, line);
	if (!(m->mf_bits[b / 64] >> (b % 64) & 1))
		return NULL;
	if (m->mf_cnt[b] == 1) {
		/* The only entry whose line falls here: mshr_find's answer is it or none. */
		struct mshr_entry *e = &m->mshr.e[m->mf_x[b]];
		SIM_ASSERT(e->valid);
		return e->line_addr == line && e->cache_id == cache_id && (e->sectors & sectors) == sectors ? e : NULL;
	}
	return mshr_find(&m->mshr, cache_id, line, sectors);
}

enum st_result { ST_DONE, ST_STALL_MSHR, ST_STALL_MISSQ };

/* The L1 stage's next access (mem_unit.c); true when one was processed. */
bool mu_stage_step(struct mem_unit *m, uint64_t now);
/* The next cycle the unit needs a tick at (mem_unit.c). */
uint64_t mu_next_need(struct mem_unit *m, uint64_t cycle);

/* The unit's engine callbacks (tick, outstanding, dump: mem_unit.c), for mem_unit_create. */
extern const struct sim_component_ops mu_ops;

#endif
