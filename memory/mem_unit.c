/* SPDX-License-Identifier: MIT */
/* The SM-side memory unit (memory/mem_req.h): coalescer -> L1D/L1C/L1T (one access per cycle
 * through a single port) -> MSHRs -> miss queue -> NoC, replies back, shared memory, study modes.
 * Tick order within a cycle: replies (fills), the L1 stage, one injection, then completions. */
#include "mem_req.h"

#include <stdlib.h>
#include <string.h>

#include "addrmap.h"
#include "cache.h"
#include "coalescer.h"
#include "mshr.h"
#include "shmem.h"
#include "../noc/noc.h"

enum mu_model { MU_FULL, MU_PERFECT_L1, MU_PERFECT_L2, MU_FIXED };
enum { MU_L1D, MU_L1C, MU_L1T, MU_NCACHES };
static const char *const mu_cache_names[MU_NCACHES] = {"l1d", "l1c", "l1t"};

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

	/* counters */
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

/* ---- settings -------------------------------------------------------------------- */

static const char *const mu_models[] = {"full", "perfect-l1", "perfect-l2", "fixed-latency", NULL};
static const char *const mu_repl[] = {"lru", "fifo", NULL};
static const char *const mu_wpol[] = {"write-back", "write-through", "write-evict", NULL};
static const char *const mu_index[] = {"linear", "xor", NULL};

/* Defaults are owl-28 (OWL Table 1: 32 KB 8-way L1D, 8 KB 4-way const and texture caches,
 * 64 B lines, 32 MSHRs/core; Sec 3 "write-back policies for both L1 and L2"). Merges per
 * entry (8) and miss-queue depth (8) follow GPGPU-Sim 3.x's Fermi dl1 "A:32:8,8". Hit and
 * shared latencies are not given by OWL: assumed values, set per machine in l1.cfg. */
static const struct cfg_key_def mu_keys[] = {
	CFG_KEY_ENUM("gpu.memory.model", "full", mu_models,
		     "full | perfect-l1 (every access hits L1: OWL's PMEM) | perfect-l2 | fixed-latency"),
	CFG_KEY_INT("gpu.memory.fixed_latency_cycles", "cycles", 120, 1, 1000000,
		    "fixed-latency model: every global/local/const/tex access completes this many core cycles after issue (OWL Sec 3: minimum L2 miss latency 120)"),
	CFG_KEY_INT("gpu.memory.max_inflight_insts", "instructions", 256, 1, 65536,
		    "memory instructions one SM may have in flight (bookkeeping bound, not a hardware structure)"),
	CFG_KEY_INT("gpu.memory.miss_queue_entries", "requests", 8, 1, 4096,
		    "L1 miss queue towards the NoC; full = the LD/ST unit stalls"),
	CFG_KEY_INT("gpu.memory.mshr.entries", "entries", 32, 1, 1024, "MSHR entries per core (OWL Table 1: 32)"),
	CFG_KEY_INT("gpu.memory.mshr.merges_per_entry", "requests", 8, 1, 1024,
		    "misses to one line an MSHR entry can hold (the first one included)"),
	CFG_KEY_INT("gpu.memory.atomic_segment_bytes", "bytes", 0, 0, 4096,
		    "0: a global atomic sends one request per L1D line its lanes touch; else one per segment "
		    "of this size (power of two, at most the line) carrying the whole segment both ways, as "
		    "GPGPU-Sim's atomic coalescing (memory_coalescing_arch_atomic: 32 B segments on Fermi, "
		    "each an L2 access and 8 + 32 bytes on the interconnect)"),
	CFG_KEY_INT("gpu.memory.l1d.size_kb", "KiB", 32, 1, 65536, "L1 data cache capacity"),
	CFG_KEY_INT("gpu.memory.l1d.assoc", "ways", 8, 1, 256, "L1 data cache associativity"),
	CFG_KEY_INT("gpu.memory.l1d.line_bytes", "bytes", 64, 16, 4096, "L1D line = coalescing granularity (64 owl-28, 128 gtx480)"),
	CFG_KEY_INT("gpu.memory.l1d.sector_bytes", "bytes", 0, 0, 4096,
		    "0 = whole-line requests; else requests carry only the touched sectors of this size"),
	CFG_KEY_ENUM("gpu.memory.l1d.replacement", "lru", mu_repl, "L1D replacement: lru | fifo"),
	CFG_KEY_ENUM("gpu.memory.l1d.write_policy", "write-back", mu_wpol,
		     "global/local stores: write-back (+allocate) | write-through (no allocate) | write-evict (Fermi)"),
	CFG_KEY_INT("gpu.memory.l1d.hit_latency_cycles", "cycles", 20, 1, 10000, "L1D hit latency (core cycles)"),
	CFG_KEY_ENUM("gpu.memory.l1d.set_index", "linear", mu_index,
		     "L1D set index: linear (low line-address bits) | xor (low bits XOR the two fields above them: power-of-two strides spread over the sets)"),
	CFG_KEY_INT("gpu.memory.l1c.size_kb", "KiB", 8, 1, 65536, "L1 constant cache capacity (.const and .param loads)"),
	CFG_KEY_INT("gpu.memory.l1c.assoc", "ways", 4, 1, 256, "L1 constant cache associativity"),
	CFG_KEY_INT("gpu.memory.l1c.line_bytes", "bytes", 64, 16, 4096, "L1 constant cache line"),
	CFG_KEY_ENUM("gpu.memory.l1c.replacement", "lru", mu_repl, "L1C replacement: lru | fifo"),
	CFG_KEY_INT("gpu.memory.l1c.hit_latency_cycles", "cycles", 20, 1, 10000, "L1C hit latency (core cycles)"),
	CFG_KEY_INT("gpu.memory.l1t.size_kb", "KiB", 8, 1, 65536, "L1 texture cache capacity"),
	CFG_KEY_INT("gpu.memory.l1t.assoc", "ways", 4, 1, 256, "L1 texture cache associativity"),
	CFG_KEY_INT("gpu.memory.l1t.line_bytes", "bytes", 64, 16, 4096, "L1 texture cache line"),
	CFG_KEY_ENUM("gpu.memory.l1t.replacement", "lru", mu_repl, "L1T replacement: lru | fifo"),
	CFG_KEY_INT("gpu.memory.l1t.hit_latency_cycles", "cycles", 20, 1, 10000, "L1T hit latency (core cycles)"),
	CFG_KEY_INT("gpu.memory.shared.banks", "banks", 32, 1, SHMEM_MAX_BANKS, "shared memory banks"),
	CFG_KEY_INT("gpu.memory.shared.bank_bytes", "bytes", 4, 1, 64, "width of one bank (power of two)"),
	CFG_KEY_INT("gpu.memory.shared.latency_cycles", "cycles", 20, 1, 10000,
		    "conflict-free shared access latency; a k-way conflict adds k-1 cycles"),
};

int mem_unit_cfg_define(struct cfg *c, struct sim_error *err)
{
	return cfg_define(c, mu_keys, SIM_ARRAY_LEN(mu_keys), err);
}

/* ---- small helpers ---------------------------------------------------------------- */

static double ps_to_cycles(const struct mem_unit *m, uint64_t ps)
{
	return (double)ps * (double)m->clk->freq_mhz / 1e6;
}

static void heap_push(struct mem_unit *m, uint64_t cycle, uint32_t slot)
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

static struct mu_heap_ent heap_pop(struct mem_unit *m)
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

static uint32_t slot_alloc(struct mem_unit *m, uint64_t token, uint64_t now_cycle)
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

static void slot_free(struct mem_unit *m, uint32_t i)
{
	m->slots[i].used = false;
	m->slots_used--;
	m->slot_free[m->n_slots - 1 - m->slots_used] = i;
}

/* Slot si's data comes from below L1 (mem_missed_fn): tell the SM once. */
static void note_miss(struct mem_unit *m, uint32_t si, uint64_t now_cycle)
{
	struct mu_slot *s = &m->slots[si];
	if (s->missed || !m->ports.missed)
		return;
	s->missed = true;
	m->ports.missed(m->ports.sm_ctx, s->token, sim_clock_edge_ps(m->clk, now_cycle));
}

/* One access of slot done at ready; when none is left, queue the completion. */
static void slot_served(struct mem_unit *m, uint32_t si, uint64_t ready_cycle)
{
	struct mu_slot *s = &m->slots[si];
	SIM_ASSERT(s->used && s->pending > 0);
	if (ready_cycle > s->ready_cycle)
		s->ready_cycle = ready_cycle;
	if (--s->pending == 0)
		heap_push(m, s->ready_cycle, si);
}

static struct mem_req *req_new(struct mem_unit *m, enum mem_req_kind kind, uint64_t line_addr,
			       uint32_t bytes, void *owner, uint64_t now_cycle)
{
	struct mem_req *r = sim_pool_alloc(&m->req_pool);
	SIM_ASSERT(r); /* the pool grows only when the system is out of memory */
	r->addr = line_addr;
	r->size_bytes = bytes;
	r->kind = (uint8_t)kind;
	r->ifetch = 0;
	r->src_sm = (uint16_t)m->sm_id;
	r->channel = m->have_addrmap ? (uint16_t)mem_addr_channel(&m->amap, line_addr) : 0;
	r->id = ((uint64_t)m->sm_id << 40) | m->next_req_id++;
	r->t_ps[MEM_T_ISSUE] = sim_clock_edge_ps(m->clk, now_cycle);
	r->owner_ctx = owner;
	m->reqs_live++;
	m->sent[kind]++;
	return r;
}

static void ring_push(struct mem_unit *m, struct mem_req *r)
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
static bool can_push(const struct mem_unit *m, bool demand, bool new_mshr)
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

static uint8_t space_cache(uint8_t space)
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

/* ---- the L1 stage --------------------------------------------------------------------- */

enum st_result { ST_DONE, ST_STALL_MSHR, ST_STALL_MISSQ };

/* Process one line access of the stage's instruction at cycle now. No side effect on a stall. */
static enum st_result stage_access(struct mem_unit *m, const struct coal_req *cr, uint64_t now)
{
	uint32_t si = m->st.slot;
	struct cache *c = &m->cache[m->st.cache_id];
	uint64_t hit_done = now + c->cfg.hit_latency_cycles;
	/* The constant cache's accesses are words (see cache_from_cfg); everything below L1 is
	 * in lines. */
	uint64_t line = cache_line_base(c, cr->line_addr);

	if (m->model == MU_PERFECT_L1) {
		slot_served(m, si, hit_done);
		return ST_DONE;
	}
	if (m->st.mem_kind == WI_MEM_ATOMIC) {
		/* Performed at L2 (OWL Sec 3: optimistic atomics); the stale L1 copy is dropped. */
		if (!can_push(m, true, false))
			return ST_STALL_MISSQ;
		cache_invalidate(c, line);
		/* With atomic_segment_bytes, cr is a segment of the line: its own request, carrying
		 * the whole segment both ways as GPGPU-Sim's (its mem_fetch data size is the
		 * segment's, whatever lanes are active); else the active lanes' bytes. */
		uint32_t seg = m->coal_atomic.line_bytes;
		ring_push(m, req_new(m, MEM_REQ_ATOMIC, seg ? cr->line_addr : line, seg ? seg : cr->lane_bytes,
				     &m->slots[si], now));
		note_miss(m, si, now);
		return ST_DONE;
	}
	if (m->st.mem_kind == WI_MEM_STORE) {
		m->mshr_epoch++; /* a written line's sectors may become valid: a probe may now hit */
		if (c->cfg.write_policy == CACHE_WRITE_BACK) {
			/* Write-allocate without fetch: the written sectors become valid and dirty. A
			 * displaced dirty line needs a ring slot, so require one first. */
			if (!can_push(m, false, false))
				return ST_STALL_MISSQ;
			struct cache_outcome o = cache_lookup(c, line, true, cr->sectors);
			if (!o.hit) {
				struct cache_victim v;
				cache_fill(c, line, cr->sectors, true, false, &v);
				if (v.valid && v.dirty)
					ring_push(m, req_new(m, MEM_REQ_WRITEBACK, v.addr, c->cfg.line_bytes, NULL, now));
			}
			slot_served(m, si, hit_done);
			return ST_DONE;
		}
		/* write-through / write-evict: the line state changes per policy, the data goes
		 * below and the store completes on the ack. */
		if (!can_push(m, true, false))
			return ST_STALL_MISSQ;
		cache_lookup(c, line, true, cr->sectors);
		uint32_t bytes = cr->lane_bytes < cr->bytes ? cr->lane_bytes : cr->bytes;
		ring_push(m, req_new(m, MEM_REQ_WRITE, line, bytes, &m->slots[si], now));
		return ST_DONE;
	}
	/* load */
	if (cache_probe(c, line, cr->sectors)) {
		cache_lookup(c, line, false, cr->sectors);
		slot_served(m, si, hit_done);
		return ST_DONE;
	}
	struct mshr_entry *e = mu_mshr_find(m, m->st.cache_id, line, cr->sectors);
	if (e) {
		if (!mshr_can_merge(&m->mshr, e))
			return ST_STALL_MSHR;
		cache_lookup(c, line, false, cr->sectors);
		mshr_merge(&m->mshr, e, si);
		m->pending_hits[m->st.cache_id]++;
		note_miss(m, si, now);
		return ST_DONE;
	}
	if (!mshr_free_entries(&m->mshr))
		return ST_STALL_MSHR;
	if (!can_push(m, true, true))
		return ST_STALL_MISSQ;
	cache_lookup(c, line, false, cr->sectors);
	e = mshr_alloc(&m->mshr, m->st.cache_id, line, cr->sectors, si, now);
	mf_add(m, e);
	ring_push(m, req_new(m, MEM_REQ_READ, line, m->st.cache_id == MU_L1C ? c->cfg.line_bytes : cr->bytes, e, now));
	note_miss(m, si, now);
	return ST_DONE;
}

/* A stage stalled on the MSHRs is not polled: only a fill frees them, and replies wake the
 * unit. Stall cycles are counted from the first refusal to the success. */
static bool stage_step(struct mem_unit *m, uint64_t now)
{
	if (!m->st.busy || m->st.last_cycle == now)
		return false;
	enum st_result r = stage_access(m, &m->st.reqs[m->st.next], now);
	if (r != ST_DONE) {
		if (m->st.stall_on == ST_NOT_STALLED) {
			m->st.stall_since = now;
			m->st.stall_on = r == ST_STALL_MSHR ? ST_ON_MSHR : ST_ON_QUEUE;
		}
		return false;
	}
	if (m->st.stall_on != ST_NOT_STALLED) {
		uint64_t n = now - m->st.stall_since;
		if (m->st.stall_on == ST_ON_MSHR)
			m->stall_mshr_cycles += n;
		else
			m->stall_missq_cycles += n;
		m->st.stall_on = ST_NOT_STALLED;
	}
	m->st.last_cycle = now;
	if (++m->st.next == m->st.n)
		m->st.busy = false;
	return true;
}

/* ---- NoC side ------------------------------------------------------------------------- */

static bool inject_step(struct mem_unit *m, uint64_t now)
{
	if (!m->ring_n || !m->ports.noc)
		return false;
	struct mem_req *r = m->ring[m->ring_head];
	uint32_t size = MU_REQ_HDR_BYTES;
	if (r->kind == MEM_REQ_WRITE || r->kind == MEM_REQ_ATOMIC || r->kind == MEM_REQ_WRITEBACK)
		size += r->size_bytes;
	struct noc *n = m->ports.noc;
	SIM_ASSERT(r->channel < n->n_mcs);
	if (!noc_try_inject(n, m->ports.noc_node, n->mc_node[r->channel], NOC_CLASS_REQ, size, r)) {
		m->inject_retry_cycles++;
		return false;
	}
	r->t_ps[MEM_T_NOC_INJECT] = sim_clock_edge_ps(m->clk, now);
	m->ring_head = (m->ring_head + 1) % m->ring_cap;
	m->ring_n--;
	if (r->kind != MEM_REQ_WRITEBACK)
		m->missq_demand--;
	return true;
}

static uint64_t span(const struct mem_req *r, enum mem_stage a, enum mem_stage b)
{
	return (r->t_ps[a] && r->t_ps[b] && r->t_ps[b] >= r->t_ps[a]) ? r->t_ps[b] - r->t_ps[a] : 0;
}

/* Round trip of a load miss split as OWL-style breakdowns need: SM miss queue, NoC both ways,
 * L2 (slice time not spent below it), MC queue, DRAM service. */
static void record_latency(struct mem_unit *m, const struct mem_req *r)
{
	uint64_t total = span(r, MEM_T_ISSUE, MEM_T_DONE);
	uint64_t noc = span(r, MEM_T_NOC_INJECT, MEM_T_L2_ARRIVE) + span(r, MEM_T_L2_REPLY, MEM_T_DONE);
	uint64_t mcq = span(r, MEM_T_MC_ENQUEUE, MEM_T_DRAM_ISSUE);
	uint64_t dram = span(r, MEM_T_DRAM_ISSUE, MEM_T_DRAM_DONE);
	uint64_t below = span(r, MEM_T_MC_ENQUEUE, MEM_T_DRAM_DONE);
	uint64_t l2 = span(r, MEM_T_L2_ARRIVE, MEM_T_L2_REPLY);
	l2 = l2 > below ? l2 - below : 0;
	stat_avg_add(&m->lat_total, ps_to_cycles(m, total));
	stat_avg_add(&m->lat_smq, ps_to_cycles(m, span(r, MEM_T_ISSUE, MEM_T_NOC_INJECT)));
	stat_avg_add(&m->lat_noc, ps_to_cycles(m, noc));
	stat_avg_add(&m->lat_l2, ps_to_cycles(m, l2));
	stat_avg_add(&m->lat_mcq, ps_to_cycles(m, mcq));
	stat_avg_add(&m->lat_dram, ps_to_cycles(m, dram));
	uint64_t cyc = (uint64_t)(ps_to_cycles(m, total) + 0.5);
	uint32_t b = 0;
	while (b + 1 < MU_HIST_BUCKETS && cyc >= (32ull << b))
		b++;
	m->lat_hist[b]++;
}

/* Take one reply; false if none. *filled: it was a read's fill (L1, MSHRs and ring changed). */
static bool eject_step(struct mem_unit *m, uint64_t now, bool *filled)
{
	struct noc *n = m->ports.noc;
	if (!n)
		return false;
	struct mem_req *r = noc_peek_eject(n, m->ports.noc_node, NOC_CLASS_REPLY);
	if (!r)
		return false;
	noc_try_eject(n, m->ports.noc_node, NOC_CLASS_REPLY);
	SIM_ASSERT(r->is_reply && r->src_sm == m->sm_id);
	r->t_ps[MEM_T_DONE] = sim_clock_edge_ps(m->clk, now);
	if (r->ifetch) {
		/* An instruction line: nothing of the unit's caches or MSHRs changes; the SM's fetch
		 * takes it (sm_ifetch_done wakes the SM). */
		SIM_ASSERT(r->kind == MEM_REQ_READ);
		m->ifetch_lat_sum_cycles += (uint64_t)(ps_to_cycles(m, span(r, MEM_T_ISSUE, MEM_T_DONE)) + 0.5);
		m->ports.ifetch_done(m->ports.sm_ctx, r->addr, sim_now_ps(m->sim));
		sim_pool_free(&m->req_pool, r);
		m->reqs_live--;
		return true;
	}
	switch (r->kind) {
	case MEM_REQ_READ: {
		struct mshr_entry *e = r->owner_ctx;
		SIM_ASSERT(e && e->valid && e->line_addr == r->addr);
		struct cache *c = &m->cache[e->cache_id];
		struct cache_victim v;
		cache_fill(c, e->line_addr, e->sectors, false, false, &v);
		if (v.valid && v.dirty)
			ring_push(m, req_new(m, MEM_REQ_WRITEBACK, v.addr, c->cfg.line_bytes, NULL, now));
		record_latency(m, r);
		for (uint32_t i = 0; i < e->n_targets; i++)
			slot_served(m, e->targets[i], now);
		mf_del(m, e);
		mshr_release(&m->mshr, e);
		m->mshr_epoch++;
		*filled = true;
		break;
	}
	case MEM_REQ_WRITE:
	case MEM_REQ_ATOMIC: {
		struct mu_slot *s = r->owner_ctx;
		if (r->kind == MEM_REQ_ATOMIC)
			record_latency(m, r);
		else
			stat_avg_add(&m->lat_store, ps_to_cycles(m, span(r, MEM_T_ISSUE, MEM_T_DONE)));
		slot_served(m, (uint32_t)(s - m->slots), now);
		break;
	}
	case MEM_REQ_WRITEBACK:
		break;
	default:
		SIM_ASSERT(0 && "unexpected reply kind at an SM");
	}
	sim_pool_free(&m->req_pool, r);
	m->reqs_live--;
	return true;
}

/* ---- tick ------------------------------------------------------------------------------- */

/* may_have_reply: false when the caller peeked this cycle and found no reply to eject (the
 * reply queue changes only by the NoC's own steps and by eject_step, so the answer holds to
 * the end of the tick and the peek, an indirect call, is not repeated). */
static uint64_t next_need(struct mem_unit *m, uint64_t cycle, bool may_have_reply)
{
	/* A stage waiting on the MSHRs sleeps until a reply wakes the unit; one waiting on the
	 * queue is retried while the queue drains. */
	if ((m->st.busy && m->st.stall_on != ST_ON_MSHR) || m->ring_n)
		return cycle + 1;
	if (may_have_reply && m->ports.noc && noc_peek_eject(m->ports.noc, m->ports.noc_node, NOC_CLASS_REPLY))
		return cycle + 1;
	/* Replies still in the NoC wake the unit (noc sink) when they become ejectable. */
	if (m->heap_n)
		return m->heap[0].cycle > cycle ? m->heap[0].cycle : cycle + 1;
	return SIM_NEVER;
}

static uint64_t mu_next_need(struct mem_unit *m, uint64_t cycle) { return next_need(m, cycle, true); }

static uint64_t mu_tick(struct sim_component *comp, uint64_t cycle)
{
	struct mem_unit *m = SIM_CONTAINER_OF(comp, struct mem_unit, comp);
	/* Whether a refusal could now be decided differently (struct mem_unit: epoch). */
	bool filled = false, was_busy = m->st.busy, slots_full = m->slots_used >= m->n_slots;
	bool ejected = eject_step(m, cycle, &filled);
	stage_step(m, cycle);
	bool moved = filled || (was_busy && !m->st.busy);
	if (inject_step(m, cycle) && m->missq_refused)
		moved = true;
	bool any = false;
	while (m->heap_n && m->heap[0].cycle <= cycle) {
		struct mu_heap_ent e = heap_pop(m);
		struct mu_slot *s = &m->slots[e.slot];
		SIM_ASSERT(s->used && s->pending == 0);
		uint64_t token = s->token;
		slot_free(m, e.slot);
		m->ports.done(m->ports.sm_ctx, token, sim_now_ps(m->sim));
		any = true;
	}
	if (moved || (any && slots_full))
		epoch_move(m);
	if (any) {
		sim_progress(m->sim);
		if (m->ports.sm)
			sim_component_wake(m->ports.sm);
	}
	return next_need(m, cycle, ejected);
}

static uint64_t mu_outstanding(const struct sim_component *comp)
{
	const struct mem_unit *m = SIM_CONTAINER_OF(comp, struct mem_unit, comp);
	return mem_unit_outstanding(m);
}

static void mu_dump(const struct sim_component *comp, FILE *out)
{
	const struct mem_unit *m = SIM_CONTAINER_OF(comp, struct mem_unit, comp);
	fprintf(out, "%s: %u instructions in flight, stage %s (%u/%u accesses), miss queue %u (%u demand), "
		"MSHR %u/%u used, %llu requests below L1\n",
		m->name, m->slots_used, m->st.busy ? "busy" : "idle", m->st.next, m->st.n, m->ring_n,
		m->missq_demand, m->mshr.used, m->mshr.cfg.entries, (unsigned long long)m->reqs_live);
	for (uint32_t i = 0; i < m->mshr.cfg.entries; i++) {
		const struct mshr_entry *e = &m->mshr.e[i];
		if (e->valid)
			fprintf(out, "  mshr %u: %s line 0x%llx, %u targets, since cycle %llu\n", i,
				mu_cache_names[e->cache_id], (unsigned long long)e->line_addr, e->n_targets,
				(unsigned long long)e->alloc_cycle);
	}
}

static const struct sim_component_ops mu_ops = {
	.tick = mu_tick,
	.outstanding = mu_outstanding,
	.dump = mu_dump,
};

/* ---- issue ------------------------------------------------------------------------------ */

/* Would stage_access need a new MSHR entry (or miss-queue slot) for any access of the
 * coalesced instruction? Used to refuse up front rather than accept and stall. */
static enum st_result precheck(struct mem_unit *m, uint8_t cache_id, uint8_t kind)
{
	if (m->model == MU_PERFECT_L1)
		return ST_DONE;
	if (kind == WI_MEM_STORE)
		return can_push(m, m->cache[cache_id].cfg.write_policy != CACHE_WRITE_BACK, false) ? ST_DONE
												 : ST_STALL_MISSQ;
	if (kind == WI_MEM_ATOMIC)
		return can_push(m, true, false) ? ST_DONE : ST_STALL_MISSQ;
	for (uint32_t i = 0; i < m->st.n; i++) {
		const struct coal_req *cr = &m->st.reqs[i];
		uint64_t line = cache_line_base(&m->cache[cache_id], cr->line_addr);
		if (cache_probe(&m->cache[cache_id], line, cr->sectors))
			continue;
		struct mshr_entry *e = mu_mshr_find(m, cache_id, line, cr->sectors);
		if (e && mshr_can_merge(&m->mshr, e))
			continue;
		if (e || !mshr_free_entries(&m->mshr))
			return ST_STALL_MSHR;
		if (!can_push(m, true, true))
			return ST_STALL_MISSQ;
	}
	return ST_DONE;
}

/* Starts the refusal record of cycle now on its first refusal. */
static void rf_begin(struct mem_unit *m, uint64_t now)
{
	if (m->rf_cycle == now)
		return;
	m->rf_cycle = now;
	memset(m->rf, 0, sizeof m->rf);
}

/* Count a refusal at cycle now under its reason (in this cycle's record and in the stat);
 * false, for `return refuse(...)`. */
static bool refuse(struct mem_unit *m, uint64_t now, enum mem_refusal why)
{
	rf_begin(m, now);
	m->rf[why]++;
	m->refused[why]++;
	m->rf_last = (uint8_t)why;
	m->rf_last_full = why == MEM_REFUSE_MSHR && !mshr_free_entries(&m->mshr);
	if (why == MEM_REFUSE_MISSQ)
		m->missq_refused = true;
	return false;
}

/* A refusal by the precheck: MSHRs or the miss queue. */
static bool refuse_stall(struct mem_unit *m, uint64_t now, enum st_result pre)
{
	return refuse(m, now, pre == ST_STALL_MSHR ? MEM_REFUSE_MSHR : MEM_REFUSE_MISSQ);
}

/* Everything but a refusal for a busy stage (mem_unit_try_issue). */
static __attribute__((noinline)) bool try_issue(struct mem_unit *m, const struct warp_inst *wi, uint64_t token,
						uint64_t now_cycle)
{
	const struct wi_static *si = wi->si;
	/* (mem_unit_refuse_now has refused for a full slot table, busy banks or a busy stage) */
	if (si->space == WI_SPACE_SHARED) {
		/* Banks serve one word each per pass; a k-way conflict takes k passes, and the
		 * banks are busy for all of them. */
		uint32_t passes = shmem_passes(&m->shm, wi, m->shm_scratch);
		if (!passes)
			passes = 1;
		uint32_t s = slot_alloc(m, token, now_cycle);
		m->shm_free_cycle = now_cycle + passes;
		m->shared_insts++;
		m->shared_conflict_cycles += passes - 1;
		m->slots[s].pending = 1;
		slot_served(m, s, now_cycle + (passes - 1) + m->shm.latency_cycles);
		sim_component_wake_at_cycle(&m->comp, mu_next_need(m, now_cycle));
		epoch_move(m);
		return true;
	}
	if (m->model == MU_FIXED) {
		uint32_t s = slot_alloc(m, token, now_cycle);
		m->insts[si->mem_kind]++;
		m->slots[s].pending = 1;
		slot_served(m, s, now_cycle + m->fixed_latency_cycles);
		if (si->mem_kind != WI_MEM_STORE)
			note_miss(m, s, now_cycle); /* the fixed latency stands for L2 / DRAM */
		sim_component_wake_at_cycle(&m->comp, mu_next_need(m, now_cycle));
		epoch_move(m);
		return true;
	}
	SIM_ASSERT(!m->st.busy);
	uint8_t cid = space_cache(si->space);
	const struct coal_cfg *cc =
		si->mem_kind == WI_MEM_ATOMIC && m->coal_atomic.line_bytes ? &m->coal_atomic : &m->coal[cid];
	struct mu_memo *mo = NULL;
	bool hit = false;
	if (wi->n_lanes <= MU_MEMO_LANES) {
		mo = &m->memo[memo_index(token)];
		/* (mem_kind too: an atomic's requests may be segments, a load's the same lanes' lines) */
		if (mo->valid && mo->token == token && mo->cache_id == cid && mo->mem_kind == si->mem_kind &&
		    mo->n_lanes == wi->n_lanes &&
		    mo->access_bytes == wi->access_bytes && mo->mask == wi->mask[0] &&
		    !memcmp(mo->addr, wi->addr, wi->n_lanes * sizeof *wi->addr)) {
			hit = true;
			if (mo->epoch == m->epoch && mo->mem_kind == si->mem_kind && mo->pre != ST_DONE) {
				/* Refused at this epoch: refused again for the same reason (the stage's
				 * request list is only needed by an accepted instruction). */
				m->st.n = mo->n_reqs;
				m->st.next = 0;
				m->st.cache_id = cid;
				m->st.mem_kind = si->mem_kind;
				return refuse_stall(m, now_cycle, (enum st_result)mo->pre);
			}
			m->st.n = mo->n_reqs;
			memcpy(m->st.reqs, mo->reqs, mo->n_reqs * sizeof *mo->reqs);
		} else {
			m->st.n = coal_run(cc, wi, m->st.reqs);
			mo->valid = false;
		}
	} else {
		m->st.n = coal_run(cc, wi, m->st.reqs);
	}
	m->st.next = 0;
	m->st.cache_id = cid;
	m->st.mem_kind = si->mem_kind;
	enum st_result pre = hit && mo->epoch == m->epoch && mo->mem_kind == si->mem_kind
				     ? (enum st_result)mo->pre
				     : precheck(m, cid, si->mem_kind);
	if (pre != ST_DONE) {
		if (mo) {
			mo->mem_kind = si->mem_kind;
			mo->pre = (uint8_t)pre;
			mo->epoch = m->epoch;
		}
		/* (an access wider than a constant-cache word can give more requests than an entry
		 * holds: not memoised) */
		if (mo && !hit && m->st.n <= 2 * MU_MEMO_LANES) {
			mo->valid = true;
			mo->token = token;
			mo->cache_id = cid;
			mo->n_lanes = wi->n_lanes;
			mo->access_bytes = wi->access_bytes;
			mo->mask = wi->mask[0];
			memcpy(mo->addr, wi->addr, wi->n_lanes * sizeof *wi->addr);
			mo->n_reqs = m->st.n;
			memcpy(mo->reqs, m->st.reqs, m->st.n * sizeof *mo->reqs);
		}
		return refuse_stall(m, now_cycle, pre);
	}
	uint32_t s = slot_alloc(m, token, now_cycle);
	m->insts[si->mem_kind]++;
	m->line_accesses += m->st.n;
	stat_avg_add(&m->reqs_per_inst, m->st.n);
	if (m->st.n == 0) {
		/* No active lane: completes at once (next cycle). */
		m->slots[s].pending = 1;
		slot_served(m, s, now_cycle + 1);
	} else {
		m->slots[s].pending = m->st.n;
		m->slots[s].is_load = si->mem_kind == WI_MEM_LOAD;
		m->st.slot = s;
		m->st.busy = true;
		m->st.last_cycle = UINT64_MAX;
		/* The first access uses the port in the issue cycle; the precheck guarantees it
		 * is accepted, the rest follow one per cycle from the unit's own ticks. */
		stage_step(m, now_cycle);
	}
	sim_component_wake_at_cycle(&m->comp, mu_next_need(m, now_cycle));
	epoch_move(m);
	return true;
}

/* The refusals that need no look at the addresses are decided first, without the full
 * function's register saves (about 40 % of the calls on a streaming kernel are refused for a
 * busy stage). */
bool mem_unit_try_issue(struct mem_unit *m, const struct warp_inst *wi, uint64_t token, uint64_t now_cycle)
{
	SIM_ASSERT(wi->si->mem_kind != WI_MEM_NONE);
	if (mem_unit_refuse_now(m, wi, now_cycle))
		return false;
	return try_issue(m, wi, token, now_cycle);
}

/* The two parts of the access stage an accepted instruction may still hold: the shared banks
 * serialising a conflict, and (not in the fixed model) the L1 stage's further line passes. */
static inline bool shm_held(const struct mem_unit *m, uint64_t now_cycle)
{
	return now_cycle < m->shm_free_cycle;
}

static inline bool l1_stage_held(const struct mem_unit *m)
{
	return m->model != MU_FIXED && m->st.busy;
}

/* try_issue's first checks, in its order: a full slot table, then shared banks still
 * serialising, then (not shared, not the fixed model) the stage busy. */
bool mem_unit_refuse_now(struct mem_unit *m, const struct warp_inst *wi, uint64_t now_cycle)
{
	const struct wi_static *si = wi->si;
	if (m->slots_used >= m->n_slots)
		return !refuse(m, now_cycle, MEM_REFUSE_SLOTS);
	if (si->space == WI_SPACE_SHARED) {
		if (shm_held(m, now_cycle))
			return !refuse(m, now_cycle, MEM_REFUSE_SHARED);
		return false;
	}
	if (l1_stage_held(m))
		return !refuse(m, now_cycle, MEM_REFUSE_BUSY);
	return false;
}

bool mem_unit_stage_busy(const struct mem_unit *m, uint64_t now_cycle)
{
	return shm_held(m, now_cycle) || l1_stage_held(m);
}

bool mem_unit_has_ifetch(const struct mem_unit *m) { return m->ports.noc && m->ports.ifetch_done; }

bool mem_unit_ifetch(struct mem_unit *m, uint64_t line_addr, uint32_t bytes, uint64_t now_cycle)
{
	SIM_ASSERT(mem_unit_has_ifetch(m));
	if (!can_push(m, true, false))
		return false;
	struct mem_req *r = req_new(m, MEM_REQ_READ, line_addr, bytes, NULL, now_cycle);
	r->ifetch = 1;
	m->ifetch_sent++;
	ring_push(m, r);
	sim_component_wake_at_cycle(&m->comp, mu_next_need(m, now_cycle));
	epoch_move(m); /* the miss queue filled by one: a data miss may now be refused */
	return true;
}

uint64_t mem_unit_outstanding(const struct mem_unit *m)
{
	return m->slots_used + m->reqs_live;
}

struct sim_component *mem_unit_component(struct mem_unit *m) { return &m->comp; }

uint64_t mem_unit_epoch(const struct mem_unit *m) { return m->epoch; }

bool mem_unit_refusals_stable(const struct mem_unit *m, uint64_t now_cycle)
{
	return m->rf_cycle == now_cycle && m->rf[MEM_REFUSE_SHARED] == 0;
}

void mem_unit_repeat_refusals(struct mem_unit *m)
{
	for (int why = 0; why < MEM_REFUSE_N; why++)
		m->refused[why] += m->rf[why];
}

bool mem_unit_note_refusal(const struct mem_unit *m, const struct warp_inst *wi, struct mem_refusal_note *note)
{
	if (wi->si->space == WI_SPACE_SHARED)
		return false;
	note->epoch = m->epoch;
	note->mshr_epoch = m->mshr_epoch;
	note->why = m->rf_last;
	note->full = m->rf_last_full;
	return true;
}

bool mem_unit_refuse_again(struct mem_unit *m, const struct mem_refusal_note *note, uint64_t now_cycle)
{
	if (note->epoch == m->epoch)
		return !refuse(m, now_cycle, (enum mem_refusal)note->why);
	/* mem_unit_refuse_now's checks for an instruction that is not shared */
	if (m->slots_used >= m->n_slots)
		return !refuse(m, now_cycle, MEM_REFUSE_SLOTS);
	if (l1_stage_held(m))
		return !refuse(m, now_cycle, MEM_REFUSE_BUSY);
	if (note->full && note->mshr_epoch == m->mshr_epoch)
		return !refuse(m, now_cycle, MEM_REFUSE_MSHR);
	return false;
}

/* ---- build ------------------------------------------------------------------------------ */

static int cache_from_cfg(struct mem_unit *m, const struct cfg *cfg, int id, struct sim_error *err)
{
	char key[64];
	const char *nm = mu_cache_names[id];
	struct cache_cfg cc = {0};
#define MU_KEY(k) (snprintf(key, sizeof key, "gpu.memory.%s.%s", nm, k), key)
	cc.size_bytes = (uint32_t)cfg_int(cfg, MU_KEY("size_kb")) * 1024u;
	cc.assoc = (uint32_t)cfg_int(cfg, MU_KEY("assoc"));
	cc.line_bytes = (uint32_t)cfg_int(cfg, MU_KEY("line_bytes"));
	cc.repl = (enum cache_repl)cache_repl_parse(cfg_str(cfg, MU_KEY("replacement")));
	cc.hit_latency_cycles = (uint32_t)cfg_int(cfg, MU_KEY("hit_latency_cycles"));
	if (id == MU_L1D) {
		cc.sector_bytes = (uint32_t)cfg_int(cfg, MU_KEY("sector_bytes"));
		cc.index = (enum cache_index)cache_index_parse(cfg_str(cfg, MU_KEY("set_index")));
		cc.write_policy = (enum cache_write_policy)cache_write_policy_parse(cfg_str(cfg, MU_KEY("write_policy")));
	} else {
		cc.write_policy = CACHE_WRITE_THROUGH; /* read-only caches: never dirty */
	}
	struct sim_error e2 = {0};
	if (cache_init(&m->cache[id], &cc, &e2)) {
		/* Name the setting the cache model complained about, at its source line. */
		char field[160];
		if (!strcmp(e2.setting, "size_bytes"))
			snprintf(field, sizeof field, "gpu.memory.%s.size_kb", nm);
		else
			snprintf(field, sizeof field, "gpu.memory.%s.%s", nm, e2.setting);
		if (!cfg_is_defined(cfg, field))
			snprintf(field, sizeof field, "gpu.memory.%s.line_bytes", nm);
		return cfg_error(err, cfg, field, "%s", e2.msg);
	}
	m->coal[id].line_bytes = cc.line_bytes;
	m->coal[id].sector_bytes = cc.sector_bytes;
	/* Fermi's constant cache serves one address per cycle: a warp reading k distinct words
	 * takes k passes (CUDA C Programming Guide, compute capability 2.x, constant memory), so
	 * its "coalescing" unit is a 4-byte word. */
	if (id == MU_L1C)
		m->coal[id].line_bytes = 4;
#undef MU_KEY
	return 0;
}

static void mu_stats(struct mem_unit *m, struct stats *st)
{
	uint32_t id = m->sm_id;
	for (int i = 0; i < MU_NCACHES; i++) {
		char prefix[48];
		snprintf(prefix, sizeof prefix, "sm.%u.%s", id, mu_cache_names[i]);
		cache_stats_register(&m->cache[i], st, prefix);
		/* GPGPU-Sim's "pending hits" (HIT_RESERVED): it does not count them as misses, we do
		 * (misses - pending_hits is its miss count). */
		stats_counter(st, &m->pending_hits[i], "accesses",
			      "read misses to a line already being fetched (merged into its MSHR entry; counted in misses)",
			      "%s.pending_hits", prefix);
	}
	stats_counter(st, &m->insts[WI_MEM_LOAD], "instructions", "global/local/const/tex loads accepted", "sm.%u.mem.loads", id);
	stats_counter(st, &m->insts[WI_MEM_STORE], "instructions", "global/local stores accepted", "sm.%u.mem.stores", id);
	stats_counter(st, &m->insts[WI_MEM_ATOMIC], "instructions", "atomics accepted", "sm.%u.mem.atomics", id);
	stats_counter(st, &m->shared_insts, "instructions", "shared-memory instructions", "sm.%u.shmem.insts", id);
	stats_counter(st, &m->shared_conflict_cycles, "cycles", "extra passes from bank conflicts (k-way costs k-1)",
		      "sm.%u.shmem.bank_conflict_cycles", id);
	stats_counter(st, &m->line_accesses, "requests", "coalesced line accesses to L1", "sm.%u.mem.line_accesses", id);
	stats_avg(st, &m->reqs_per_inst, "requests", "coalesced line requests per memory instruction",
		  "sm.%u.mem.requests_per_inst", id);
	stats_counter(st, &m->mshr.allocs, "entries", "MSHR entries allocated (misses sent)", "sm.%u.mshr.allocs", id);
	stats_counter(st, &m->mshr.merges, "requests", "misses merged into a pending MSHR entry", "sm.%u.mshr.merges", id);
	stats_counter(st, &m->refused[MEM_REFUSE_MSHR], "cycles", "issue refused: MSHR full (structural stall)", "sm.%u.mem.mshr_full_stalls", id);
	stats_counter(st, &m->refused[MEM_REFUSE_MISSQ], "cycles", "issue refused: miss queue full", "sm.%u.mem.missq_full_stalls", id);
	stats_counter(st, &m->refused[MEM_REFUSE_BUSY], "cycles", "issue refused: L1 stage still busy with the previous instruction",
		      "sm.%u.mem.stage_busy_stalls", id);
	stats_counter(st, &m->refused[MEM_REFUSE_SHARED], "cycles", "issue refused: shared banks still serialising a conflict",
		      "sm.%u.shmem.busy_stalls", id);
	stats_counter(st, &m->refused[MEM_REFUSE_SLOTS], "cycles", "issue refused: max_inflight_insts reached", "sm.%u.mem.slot_full_stalls", id);
	stats_counter(st, &m->stall_mshr_cycles, "cycles", "L1 stage blocked on a full MSHR", "sm.%u.mem.mshr_stall_cycles", id);
	stats_counter(st, &m->stall_missq_cycles, "cycles", "L1 stage blocked on a full miss queue", "sm.%u.mem.missq_stall_cycles", id);
	stats_counter(st, &m->sent[MEM_REQ_READ], "requests", "read requests sent below L1 (data and instruction lines)", "sm.%u.mem.reads_sent", id);
	stats_counter(st, &m->ifetch_sent, "requests", "instruction-cache lines read below L1 (gpu.core.icache.miss_path memory)", "sm.%u.mem.ifetch_sent", id);
	stats_counter(st, &m->ifetch_lat_sum_cycles, "cycles", "round trips of those reads, summed", "sm.%u.mem.ifetch_cycles", id);
	stats_counter(st, &m->sent[MEM_REQ_WRITE], "requests", "write requests sent below L1", "sm.%u.mem.writes_sent", id);
	stats_counter(st, &m->sent[MEM_REQ_ATOMIC], "requests", "atomic requests sent to L2", "sm.%u.mem.atomics_sent", id);
	stats_counter(st, &m->sent[MEM_REQ_WRITEBACK], "requests", "dirty L1 lines written back", "sm.%u.mem.writebacks_sent", id);
	stats_counter(st, &m->inject_retry_cycles, "cycles", "NoC refused the head of the miss queue", "sm.%u.mem.inject_retry_cycles", id);
	stats_avg(st, &m->lat_total, "cycles", "load miss round trip, L1 miss to reply", "sm.%u.mem.lat.total", id);
	stats_avg(st, &m->lat_smq, "cycles", "part in the SM miss queue", "sm.%u.mem.lat.sm_queue", id);
	stats_avg(st, &m->lat_noc, "cycles", "part in the NoC (both ways)", "sm.%u.mem.lat.noc", id);
	stats_avg(st, &m->lat_l2, "cycles", "part in the L2 slice (excluding MC and DRAM)", "sm.%u.mem.lat.l2", id);
	stats_avg(st, &m->lat_mcq, "cycles", "part queued in the memory controller", "sm.%u.mem.lat.mc_queue", id);
	stats_avg(st, &m->lat_dram, "cycles", "part in DRAM service", "sm.%u.mem.lat.dram", id);
	stats_avg(st, &m->lat_store, "cycles", "write-through store round trip to the ack", "sm.%u.mem.lat.store", id);
	for (uint32_t b = 0; b < MU_HIST_BUCKETS; b++) {
		if (b + 1 < MU_HIST_BUCKETS)
			stats_counter(st, &m->lat_hist[b], "requests", "load miss round trips below this many cycles",
				      "sm.%u.mem.lat.hist.lt%llu", id, 32ull << b);
		else
			stats_counter(st, &m->lat_hist[b], "requests", "load miss round trips of at least this many cycles",
				      "sm.%u.mem.lat.hist.ge%llu", id, 32ull << (b - 1));
	}
}

struct mem_unit *mem_unit_create(const struct cfg *cfg, struct sim *sim, struct stats *st, uint32_t sm_id,
				 struct sim_clock *core_clk, const struct mem_unit_ports *ports,
				 struct sim_error *err)
{
	struct mem_unit *m = calloc(1, sizeof *m);
	if (!m) {
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "mem_unit");
		return NULL;
	}
	m->rf_cycle = UINT64_MAX; /* no refusal recorded yet */
	m->sim = sim;
	m->clk = core_clk;
	m->ports = *ports;
	m->sm_id = sm_id;
	const char *model = cfg_str(cfg, "gpu.memory.model");
	m->model = !strcmp(model, "perfect-l1") ? MU_PERFECT_L1 : !strcmp(model, "perfect-l2") ? MU_PERFECT_L2
		   : !strcmp(model, "fixed-latency") ? MU_FIXED : MU_FULL;
	m->fixed_latency_cycles = (uint32_t)cfg_int(cfg, "gpu.memory.fixed_latency_cycles");
	if (!ports->done) {
		sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, NULL, "mem_unit: no done callback");
		goto fail;
	}
	if ((m->model == MU_FULL || m->model == MU_PERFECT_L2)) {
		if (!ports->noc) {
			cfg_error(err, cfg, "gpu.memory.model", "model \"%s\" sends misses over the NoC, but none was built", model);
			goto fail;
		}
		if (mem_addrmap_init(&m->amap, cfg, err))
			goto fail;
		if ((int)m->amap.n_channels > ports->noc->n_mcs) {
			cfg_error(err, cfg, "gpu.dram.channels", "%u channels but the NoC places %d memory nodes",
				  m->amap.n_channels, ports->noc->n_mcs);
			goto fail;
		}
		m->have_addrmap = true;
	}
	m->mf_shift = 63;
	for (int i = 0; i < MU_NCACHES; i++) {
		if (cache_from_cfg(m, cfg, i, err))
			goto fail;
		if (m->cache[i].set_shift < m->mf_shift)
			m->mf_shift = m->cache[i].set_shift;
	}
	uint32_t seg = (uint32_t)cfg_int(cfg, "gpu.memory.atomic_segment_bytes");
	if (seg) {
		if ((seg & (seg - 1)) || seg > m->coal[MU_L1D].line_bytes) {
			cfg_error(err, cfg, "gpu.memory.atomic_segment_bytes",
				  "%u bytes: must be a power of two no larger than the %u-byte L1D line", seg,
				  m->coal[MU_L1D].line_bytes);
			goto fail;
		}
		m->coal_atomic = (struct coal_cfg){.line_bytes = seg, .sector_bytes = 0};
	}
	struct mshr_cfg mc = {(uint32_t)cfg_int(cfg, "gpu.memory.mshr.entries"),
			      (uint32_t)cfg_int(cfg, "gpu.memory.mshr.merges_per_entry")};
	if (mshr_init(&m->mshr, &mc, err))
		goto fail;
	m->shm.banks = (uint32_t)cfg_int(cfg, "gpu.memory.shared.banks");
	m->shm.bank_bytes = (uint32_t)cfg_int(cfg, "gpu.memory.shared.bank_bytes");
	m->shm.latency_cycles = (uint32_t)cfg_int(cfg, "gpu.memory.shared.latency_cycles");
	if (m->shm.bank_bytes & (m->shm.bank_bytes - 1)) {
		cfg_error(err, cfg, "gpu.memory.shared.bank_bytes", "must be a power of two, got %u", m->shm.bank_bytes);
		goto fail;
	}
	m->n_slots = (uint32_t)cfg_int(cfg, "gpu.memory.max_inflight_insts");
	m->missq_cap = (uint32_t)cfg_int(cfg, "gpu.memory.miss_queue_entries");
	m->ring_cap = m->missq_cap + mc.entries + 1;
	m->slots = calloc(m->n_slots, sizeof *m->slots);
	m->slot_free = calloc(m->n_slots, sizeof *m->slot_free);
	if (m->slot_free)
		for (uint32_t i = 0; i < m->n_slots; i++)
			m->slot_free[i] = m->n_slots - 1 - i; /* top of the stack is slot 0 */
	m->heap = calloc(m->n_slots, sizeof *m->heap);
	m->ring = calloc(m->ring_cap, sizeof *m->ring);
	m->st.reqs = calloc(coal_max_reqs(WI_MAX_LANES), sizeof *m->st.reqs);
	m->memo = calloc(MU_MEMO_ENTRIES, sizeof *m->memo);
	m->shm_scratch = calloc(shmem_scratch_words(WI_MAX_LANES, 16, m->shm.bank_bytes), sizeof *m->shm_scratch);
	if (!m->slots || !m->slot_free || !m->heap || !m->ring || !m->st.reqs || !m->shm_scratch ||
	    !m->memo) {
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "mem_unit buffers");
		goto fail;
	}
	/* Enough requests for every MSHR, the miss queue and write-backs at build time. */
	if (sim_pool_init(&m->req_pool, sizeof(struct mem_req), m->ring_cap + mc.entries + m->n_slots, err))
		goto fail;
	snprintf(m->name, sizeof m->name, "sm.%u.mem", sm_id);
	m->comp.ops = &mu_ops;
	m->comp.name = m->name;
	m->comp.clk = core_clk;
	if (sim_component_add(sim, &m->comp, err))
		goto fail;
	if (m->have_addrmap) {
		/* What noc_set_sink() does, set here so replies wake the unit whoever assembles it,
		 * and memory/ links without noc/. */
		SIM_ASSERT(ports->noc_node >= 0 && ports->noc_node < ports->noc->n_nodes);
		ports->noc->sink[ports->noc_node] = &m->comp;
	}
	if (st)
		mu_stats(m, st);
	return m;
fail:
	mem_unit_destroy(m);
	return NULL;
}

void mem_unit_destroy(struct mem_unit *m)
{
	if (!m)
		return;
	for (int i = 0; i < MU_NCACHES; i++)
		cache_fini(&m->cache[i]);
	mshr_fini(&m->mshr);
	sim_pool_fini(&m->req_pool);
	free(m->slots);
	free(m->slot_free);
	free(m->heap);
	free(m->ring);
	free(m->st.reqs);
	free(m->memo);
	free(m->shm_scratch);
	free(m);
}
