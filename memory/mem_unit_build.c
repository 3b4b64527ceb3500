/* SPDX-License-Identifier: MIT */
/* The memory unit's settings (gpu.memory.*), its construction from them, its statistics and
 * its teardown. The timing is in mem_unit.c. */
#include "mem_unit_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../noc/noc.h"

/* ---- settings -------------------------------------------------------------------- */

static const char *const mu_models[] = {"full", "perfect-l1", "perfect-l2", "fixed-latency", NULL};
static const char *const mu_repl[] = {"lru", "fifo", NULL};
static const char *const mu_alloc[] = {"on-fill", "on-miss", NULL};
static const char *const mu_rfail[] = {"refuse", "hold", NULL};
static const char *const mu_wpol[] = {"write-back", "write-through", "write-evict", "local-wb-global-evict", NULL};
static const char *const mu_index[] = {"linear", "xor", "fermi-hash", NULL};
static const char *const mu_l1c_gran[] = {"word", "line", NULL};

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
		     "global/local stores: write-back (+allocate) | write-through (no allocate) | write-evict (Fermi) | "
		     "local-wb-global-evict (GPGPU-Sim's dl1 'L', LOCAL_WB_GLOBAL_WT: a local store hit marks the line dirty and "
		     "stays in the L1D, a global store hit evicts it; every store miss goes below without allocating)"),
	CFG_KEY_INT("gpu.memory.l1d.hit_latency_cycles", "cycles", 20, 1, 10000, "L1D hit latency (core cycles)"),
	CFG_KEY_INT("gpu.memory.l1d.miss_delay_cycles", "cycles", 0, 0, 10000,
		    "cycles a load miss or a store that the L1D sends below waits before it may leave the miss "
		    "queue: GPGPU-Sim 4.x's -gpgpu_l1_latency, whose queue every L1D access passes before its tag "
		    "access, misses too (ldst_unit::L1_latency_queue_cycle); 0 = they leave at once (2.x, 3.x). "
		    "Atomics, constant and texture misses and write-backs do not wait"),
	CFG_KEY_ENUM("gpu.memory.l1d.set_index", "linear", mu_index,
		     "L1D set index: linear (low line-address bits) | xor (low bits XOR the two fields above them: power-of-two strides spread over the sets) | "
		     "fermi-hash (GPGPU-Sim's 'H' index of its GTX480 L1D: line-address bits 0-4 XOR byte-address bits 13,14,15,17,19; bit 12 on top with 64 sets; 32 or 64 sets only)"),
	CFG_KEY_ENUM("gpu.memory.l1d.allocate", "on-fill", mu_alloc,
		     "when a load miss takes its L1D way: on-fill (the victim is chosen when the data arrives) | on-miss "
		     "(GPGPU-Sim 3.x/4.x's allocate-on-miss, dl1 'm': the way is reserved at the miss and its victim evicted "
		     "then; a miss whose set has every way reserved is refused, GPGPU-Sim's LINE_ALLOC_FAIL reservation failure)"),
	CFG_KEY_ENUM("gpu.memory.reservation_fail", "refuse", mu_rfail,
		     "an L1 access that finds no MSHR entry (or its entry full), no way to reserve or no miss-queue slot: "
		     "refuse (its instruction is refused at issue and retried; other warps' memory instructions may go first) | "
		     "hold (GPGPU-Sim's RESERVATION_FAIL: the instruction is accepted and waits in the L1 stage, which serves "
		     "nothing else meanwhile, as the access stays at the head of GPGPU-Sim's L1 latency queue)"),
	CFG_KEY_BOOL("gpu.memory.l1d.flush_at_launch", false,
		     "invalidate every L1D line when a kernel starts (GPGPU-Sim's -gpgpu_flush_l1_cache: "
		     "the next launch misses on what the last one left); dirty lines of a write-back "
		     "L1D are written back, MSHRs are empty then (a launch starts after the last drained)"),
	CFG_KEY_INT("gpu.memory.l1c.size_kb", "KiB", 8, 1, 65536, "L1 constant cache capacity (.const and .param loads)"),
	CFG_KEY_INT("gpu.memory.l1c.assoc", "ways", 4, 1, 256, "L1 constant cache associativity"),
	CFG_KEY_INT("gpu.memory.l1c.line_bytes", "bytes", 64, 16, 4096, "L1 constant cache line"),
	CFG_KEY_ENUM("gpu.memory.l1c.replacement", "lru", mu_repl, "L1C replacement: lru | fifo"),
	CFG_KEY_ENUM("gpu.memory.l1c.access_granularity", "word", mu_l1c_gran,
		     "what one constant-cache access of a warp's .const/.param load serves, one access a cycle: "
		     "word (a distinct 4-byte word: Fermi's constant cache serves one address per cycle, CUDA C "
		     "Programming Guide, compute capability 2.x) | line (a distinct L1C line: GPGPU-Sim 2.x-4.x "
		     "group a warp's constant accesses by line, warp_inst_t::generate_mem_accesses, and "
		     "ldst_unit::constant_cycle sends one a cycle)"),
	CFG_KEY_INT("gpu.memory.l1c.mshr_entries", "entries", 0, 0, 1024,
		    "MSHR entries that may hold L1C misses at once, out of gpu.memory.mshr.entries (0: no cap "
		    "of its own). GPGPU-Sim's constant cache has its own MSHRs (-gpgpu_const_cache:l1 "
		    "...,S:2:32,4 on GTX480: 2 entries); an L1C miss finding them all taken waits as a miss "
		    "finding no free entry does (gpu.memory.reservation_fail)"),
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
		const char *wp = cfg_str(cfg, MU_KEY("write_policy"));
		m->l1d_local_wb = !strcmp(wp, "local-wb-global-evict");
		cc.write_policy = m->l1d_local_wb ? CACHE_WRITE_EVICT
						  : (enum cache_write_policy)cache_write_policy_parse(wp);
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
	/* l1c.access_granularity = word: Fermi's constant cache serves one address per cycle, so a
	 * warp reading k distinct words takes k passes (CUDA C Programming Guide, compute
	 * capability 2.x, constant memory) and its "coalescing" unit is a 4-byte word. line:
	 * GPGPU-Sim's, one access per distinct line (configs/README.md). */
	if (id == MU_L1C && !strcmp(cfg_str(cfg, "gpu.memory.l1c.access_granularity"), "word"))
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
	stats_counter(st, &m->flushes, "launches", "L1D flushes (gpu.memory.l1d.flush_at_launch: one per kernel launch)",
		      "sm.%u.l1d.flushes", id);
	stats_counter(st, &m->flushed_lines, "lines", "valid L1D lines dropped by those flushes (dirty ones written back)",
		      "sm.%u.l1d.flushed_lines", id);
	stats_counter(st, &m->warm_fills, "lines",
		      "L1D lines installed by functionally executed launches' accesses "
		      "(sim.functional_launches_cache = warm; also in sm.N.l1d.fills)", "sm.%u.l1d.warm_fills", id);
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
	stats_avg(st, &m->lat_store, "cycles", "write-through store: to its ack (with gpu.l2.write_ack = false: until the NoC takes it)", "sm.%u.mem.lat.store", id);
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
		if ((int)(m->amap.n_channels * m->amap.sub_partitions) > ports->noc->n_mcs) {
			cfg_error(err, cfg, "gpu.dram.channels", "%u channels x %u L2 sub-partitions but the NoC places %d memory nodes",
				  m->amap.n_channels, m->amap.sub_partitions, ports->noc->n_mcs);
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
	m->flush_at_launch = cfg_bool(cfg, "gpu.memory.l1d.flush_at_launch");
	m->l1d_alloc_on_miss = !strcmp(cfg_str(cfg, "gpu.memory.l1d.allocate"), "on-miss");
	m->hold_on_fail = !strcmp(cfg_str(cfg, "gpu.memory.reservation_fail"), "hold");
	m->l1d_miss_delay_cycles = (uint32_t)cfg_int(cfg, "gpu.memory.l1d.miss_delay_cycles");
	m->l1c_mshr_entries = (uint32_t)cfg_int(cfg, "gpu.memory.l1c.mshr_entries");
	if (m->have_addrmap && cfg_is_defined(cfg, "gpu.l2.sector_bytes")) {
		uint32_t sb = (uint32_t)cfg_int(cfg, "gpu.l2.sector_bytes");
		uint32_t lb = (uint32_t)cfg_int(cfg, "gpu.l2.line_bytes");
		if (sb && sb < lb && m->coal[MU_L1D].line_bytes <= lb) {
			m->l2_sector_bytes = sb;
			m->l2_line_bytes = lb;
		}
	}
	/* GPGPU-Sim 2.x: a plain write is done once pushed into the interconnect (shader.cc
	 * fq_push, no MSHR), and the partition pops it without a reply (gpu-sim.cc 1470-1476) */
	m->no_write_ack = ports->noc && cfg_is_defined(cfg, "gpu.l2.write_ack") && !cfg_bool(cfg, "gpu.l2.write_ack");
	if (m->flush_at_launch && m->cache[MU_L1D].cfg.write_policy == CACHE_WRITE_BACK) {
		/* room for every line of the L1D dirty at once, allocated here, not at the flush */
		m->flush_wb = calloc((size_t)m->cache[MU_L1D].n_sets * m->cache[MU_L1D].cfg.assoc,
				     sizeof *m->flush_wb);
		if (!m->flush_wb) {
			sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "mem_unit flush buffer");
			goto fail;
		}
	}
	struct mshr_cfg mc = {(uint32_t)cfg_int(cfg, "gpu.memory.mshr.entries"),
			      (uint32_t)cfg_int(cfg, "gpu.memory.mshr.merges_per_entry")};
	if (mshr_init(&m->mshr, &mc, err))
		goto fail;
	if (m->l1c_mshr_entries > mc.entries) {
		cfg_error(err, cfg, "gpu.memory.l1c.mshr_entries", "%u entries: more than gpu.memory.mshr.entries (%u)",
			  m->l1c_mshr_entries, mc.entries);
		goto fail;
	}
	m->shm.banks = (uint32_t)cfg_int(cfg, "gpu.memory.shared.banks");
	m->shm.bank_bytes = (uint32_t)cfg_int(cfg, "gpu.memory.shared.bank_bytes");
	m->shm.latency_cycles = (uint32_t)cfg_int(cfg, "gpu.memory.shared.latency_cycles");
	if (m->shm.bank_bytes & (m->shm.bank_bytes - 1)) {
		cfg_error(err, cfg, "gpu.memory.shared.bank_bytes", "must be a power of two, got %u", m->shm.bank_bytes);
		goto fail;
	}
	m->n_slots = (uint32_t)cfg_int(cfg, "gpu.memory.max_inflight_insts");
	/* A request waiting out gpu.memory.l1d.miss_delay_cycles is in GPGPU-Sim's L1 latency
	 * queue, which holds one access per cycle of the delay, not in its miss queue: the ring
	 * holds both, so its demand capacity is the miss queue's plus the delay. */
	m->missq_cap = (uint32_t)cfg_int(cfg, "gpu.memory.miss_queue_entries") + m->l1d_miss_delay_cycles;
	m->ring_cap = m->missq_cap + mc.entries + 1;
	m->slots = calloc(m->n_slots, sizeof *m->slots);
	m->slot_free = calloc(m->n_slots, sizeof *m->slot_free);
	if (m->slot_free)
		for (uint32_t i = 0; i < m->n_slots; i++)
			m->slot_free[i] = m->n_slots - 1 - i; /* top of the stack is slot 0 */
	m->heap = calloc(m->n_slots, sizeof *m->heap);
	m->ring = calloc(m->ring_cap, sizeof *m->ring);
	m->st.reqs = calloc(coal_max_reqs(WI_MAX_LANES), sizeof *m->st.reqs);
	m->warm_reqs = calloc(coal_max_reqs(WI_MAX_LANES), sizeof *m->warm_reqs);
	m->memo = calloc(MU_MEMO_ENTRIES, sizeof *m->memo);
	m->shm_scratch = calloc(shmem_scratch_words(WI_MAX_LANES, 16, m->shm.bank_bytes), sizeof *m->shm_scratch);
	if (!m->slots || !m->slot_free || !m->heap || !m->ring || !m->st.reqs || !m->warm_reqs || !m->shm_scratch ||
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
	free(m->warm_reqs);
	free(m->memo);
	free(m->shm_scratch);
	free(m->flush_wb);
	free(m);
}
