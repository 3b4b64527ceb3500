/* SPDX-License-Identifier: MIT */
/* Set-associative cache model (tags and state only, no data) shared by L1D, L1 const/tex and
 * the L2 slices: LRU or FIFO, three write policies, optional sectors, a per-line user bit. */
#ifndef WARPSIM_CACHE_H
#define WARPSIM_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/sim_error.h"
#include "../engine/stats.h"

enum cache_repl { CACHE_REPL_LRU, CACHE_REPL_FIFO };

/* How a line address picks its set. LINEAR: its low bits (consecutive lines, consecutive
 * sets). XOR: those bits XOR-ed with the next two fields of the same width above them, so
 * lines a power-of-two stride apart (a column walk of a row-major matrix) spread over the sets
 * instead of piling into a few (XOR-based placement, as GPU caches hash their index).
 * FERMI_HASH: GPGPU-Sim's 'H' set index (gpu-cache.cc FERMI_HASH_SET_FUNCTION, after Nugteren
 * et al., HPCA 2014), the one its GTX480 L1D uses: the 5 low line-address bits (byte address
 * bits 7-11 for 128 B lines) XOR byte address bits 13, 14, 15, 17 and 19; with 64 sets, byte
 * address bit 12 is the sixth bit. Only for 32 or 64 sets (cache_init refuses others). */
enum cache_index { CACHE_INDEX_LINEAR, CACHE_INDEX_XOR, CACHE_INDEX_FERMI_HASH };

enum cache_write_policy {
	CACHE_WRITE_BACK,    /* write-back + write-allocate: a write hit marks the line dirty; the
	                        caller fills on a write miss (cache_write_allocates() is true) */
	CACHE_WRITE_THROUGH, /* write-through, no allocate: a write hit updates the line (stays
	                        clean); every write also goes below; a write miss does not fill */
	CACHE_WRITE_EVICT,   /* Fermi L1 global stores: a write hit invalidates the line; every
	                        write goes below; a write miss does not fill */
};

/* Read-only after cache_init. */
struct cache_cfg {
	uint32_t size_bytes;         /* total capacity; size/(assoc*line) sets, a power of two */
	uint32_t assoc;              /* ways per set, >= 1 */
	uint32_t line_bytes;         /* power of two, >= 4 */
	uint32_t sector_bytes;       /* 0 or line_bytes: unsectored; else power of two dividing
	                                line_bytes, at most 32 sectors per line */
	enum cache_repl repl;
	enum cache_write_policy write_policy;
	enum cache_index index;      /* set-index function (default LINEAR) */
	uint32_t hit_latency_cycles; /* of the owner's clock; the model only stores it */
};

struct cache_line {
	uint64_t line_addr;     /* address >> log2(line_bytes); CACHE_NO_LINE while invalid
	                           (no sector valid or unread, not reserved), so a lookup compares one
	                           field per way */
	uint64_t stamp;         /* LRU: last access; FIFO: fill time (cache's access counter) */
	uint32_t sectors;       /* valid sectors (bit i = sector i); 0 with unread 0 = line invalid */
	uint32_t unread;        /* sectors written in part and never fetched (cache_write_sectors):
	                           they hold the line (it is written back) but a read misses them
	                           until a fill brings them; disjoint from sectors */
	bool dirty;
	bool user;              /* owner's bit (L2: "filled by the prefetcher, not yet used") */
	bool reserved;          /* allocated at a miss, its fill pending (cache_reserve): holds its
	                           tag, misses every access, is never a fill's victim */
};

#define CACHE_NO_LINE UINT64_MAX /* no address >> log2(line_bytes >= 4) reaches it */

/* What a fill displaced (valid = false when an empty or the same line was used). */
struct cache_victim {
	bool valid;
	bool dirty;             /* the caller must write it back (write-back policy) */
	bool user;              /* its user bit at eviction (L2: an unused prefetch) */
	uint64_t addr;          /* byte address of the victim line (line-aligned) */
};

/* Result of a lookup. */
struct cache_outcome {
	bool hit;               /* line present with every requested sector valid */
	bool line_present;      /* tag matched (a sector miss has line_present && !hit) */
	bool user;              /* the line's user bit before the access (when line_present) */
};

struct cache {
	struct cache_cfg cfg;
	uint32_t n_sets;
	uint32_t set_bits;      /* log2(n_sets) */
	uint32_t set_shift;     /* log2(line_bytes) */
	uint32_t n_sectors;     /* sectors per line (1 when unsectored) */
	uint32_t sector_shift;  /* log2(sector_bytes) */
	struct cache_line *lines; /* [n_sets * assoc], owned */
	/* Valid lines per hash bucket of the line address (cache_bucket_): a lookup of a line
	 * whose bucket is empty misses without scanning its set, the usual answer of the
	 * memory unit's prechecks and of an L2 slice on a streaming kernel. Kept wherever a
	 * line_addr changes (all in cache.c). */
	uint32_t *present;      /* [bucket_mask + 1], owned */
	uint32_t bucket_mask;   /* buckets - 1: at least 4 per line, a power of two */
	uint32_t bucket_shift;  /* log2(buckets) */
	uint64_t tick;          /* access counter for LRU/FIFO stamps (ties impossible) */
	/* counters (accesses) */
	uint64_t accesses, hits, misses; /* all demand lookups (read + write) */
	uint64_t read_hits, read_misses, write_hits, write_misses;
	uint64_t sector_misses; /* misses where the tag matched but a sector was missing */
	uint64_t fills, evictions, dirty_evictions, invalidations;
	uint64_t version;       /* changes whenever a line's presence or valid sectors change
	                           (lets a caller reuse a cache_probe answer while it holds) */
};

/* Validates cfg (SIM_ERR_CONFIG naming the bad field) and allocates the tag array. */
int cache_init(struct cache *c, const struct cache_cfg *cfg, struct sim_error *err);
/* Safe on a zeroed or half-initialised cache. */
void cache_fini(struct cache *c);

/* Line-aligned byte address, and the sector mask covering [addr, addr+bytes) within its
 * line (bytes = 0 means the whole line). */
static inline uint64_t cache_line_base(const struct cache *c, uint64_t addr)
{
	return addr & ~(((uint64_t)1 << c->set_shift) - 1);
}
uint32_t cache_sector_mask(const struct cache *c, uint64_t addr, uint32_t bytes);

/* Internals of the lookups, inline because the memory unit probes on every precheck. */
static inline uint32_t cache_all_sectors_(const struct cache *c)
{
	return c->n_sectors >= 32 ? UINT32_MAX : ((1u << c->n_sectors) - 1);
}

static inline uint32_t cache_bucket_(const struct cache *c, uint64_t la)
{
	return (uint32_t)(la ^ (la >> c->bucket_shift)) & c->bucket_mask;
}

/* The set of line address la (cfg.index). */
static inline uint32_t cache_set_(const struct cache *c, uint64_t la)
{
	uint64_t x = la;
	if (c->cfg.index == CACHE_INDEX_XOR) {
		x ^= (la >> c->set_bits) ^ (la >> (2 * c->set_bits));
	} else if (c->cfg.index == CACHE_INDEX_FERMI_HASH) {
		uint64_t a = la << c->set_shift; /* the line's byte address */
		uint64_t upper = ((a >> 13) & 7) | (((a >> 17) & 1) << 3) | (((a >> 19) & 1) << 4);
		x = (la & 0x1f) ^ upper;
		if (c->n_sets == 64)
			x |= ((a >> 12) & 1) << 5;
	}
	return (uint32_t)x & (c->n_sets - 1);
}

/* The way holding line address la (address >> set_shift), or NULL. */
static inline struct cache_line *cache_find_(const struct cache *c, uint64_t la)
{
	if (!c->present[cache_bucket_(c, la)])
		return NULL;
	struct cache_line *set = &c->lines[(size_t)cache_set_(c, la) * c->cfg.assoc];
	for (uint32_t w = 0; w < c->cfg.assoc; w++)
		if (set[w].line_addr == la) /* an invalid way holds CACHE_NO_LINE */
			return &set[w];
	return NULL;
}

/* A demand access: updates LRU order and counters and applies the write policy on a
 * write hit (WRITE_BACK: mark dirty; WRITE_THROUGH: nothing; WRITE_EVICT: invalidate).
 * sectors = 0 means the whole line. Does not fill on a miss: the caller calls cache_fill
 * when the data arrives (reads, and writes when cache_write_allocates()). */
struct cache_outcome cache_lookup(struct cache *c, uint64_t addr, bool is_write, uint32_t sectors);
/* cache_lookup (count) or cache_touch (!count) with write policy wp for this access instead
 * of the cache's own: GPGPU-Sim's L1D policy 'L' (LOCAL_WB_GLOBAL_WT) writes local stores back
 * and global ones evict. */
struct cache_outcome cache_lookup_wp(struct cache *c, uint64_t addr, bool is_write, uint32_t sectors,
				     enum cache_write_policy wp, bool count);
/* cache_lookup's state changes (LRU order, write policy) without its counters: accesses
 * replayed to warm the cache, which no demand made (sim.functional_launches_cache). */
struct cache_outcome cache_touch(struct cache *c, uint64_t addr, bool is_write, uint32_t sectors);
/* Same question without any side effect (no stats, no LRU update). */
static inline bool cache_probe(const struct cache *c, uint64_t addr, uint32_t sectors)
{
	if (!sectors)
		sectors = cache_all_sectors_(c);
	const struct cache_line *l = cache_find_(c, addr >> c->set_shift);
	return l && (l->sectors & sectors) == sectors;
}

/* The valid sectors of addr's line (0 when absent or reserved), no side effect. */
static inline uint32_t cache_valid_sectors(const struct cache *c, uint64_t addr)
{
	const struct cache_line *l = cache_find_(c, addr >> c->set_shift);
	return l && !l->reserved ? l->sectors : 0;
}

/* Demand accesses counted sector by sector (a sectored L2, GPGPU-Sim's sector_cache: one
 * access per sector of a request): n sectors accessed, of which hits hit and misses missed
 * (the rest, n - hits - misses, found their sector being fetched: the owner counts those
 * pending hits); sector_misses of the missed ones are read misses on a present line. Only
 * counters; the line state goes through cache_touch (reads), cache_fill and cache_write_sectors. */
void cache_count_sectors(struct cache *c, bool is_write, uint32_t n, uint32_t hits, uint32_t misses,
			 uint32_t sector_misses);

/* A write-back cache's write that supplies sectors full (every byte written: they become
 * valid) and partial (some bytes: unless valid already they become unread, GPGPU-Sim's
 * MODIFIED sector that is not readable, fetched by the next read of it: the L2's
 * LAZY_FETCH_ON_READ). The line is marked dirty and most recently used; when absent it is
 * installed as cache_fill installs one, the displaced line in *victim (may be NULL). Not
 * counted (cache_count_sectors). full | partial must not be 0. */
void cache_write_sectors(struct cache *c, uint64_t addr, uint32_t full, uint32_t partial,
			 struct cache_victim *victim);

/* Install addr's line (or add sectors to it when present or reserved: no eviction then).
 * Chooses an invalid way first, else the LRU / first-filled way that is not reserved (a
 * reserved one only when all are); filled sectors stop being unread. The displaced line is described in
 * *victim (may be NULL if the caller does not care, e.g. a write-through cache). dirty and
 * user set the new line's bits (dirty is OR-ed into a present line). */
void cache_fill(struct cache *c, uint64_t addr, uint32_t sectors, bool dirty, bool user,
		struct cache_victim *victim);

/* Allocate on miss (GPGPU-Sim's tag_array::access for an allocate-on-miss cache, 3.x and
 * 4.x): a miss takes its way at once, evicting now what a fill would evict later, and the way
 * stays reserved until cache_fill brings the line. cache_can_reserve: addr's line is not
 * reserved already and its set has a way that is not reserved (else GPGPU-Sim's
 * LINE_ALLOC_FAIL). cache_reserve does it (the caller checked cache_can_reserve); a present
 * line (a sector miss) is reserved in place without eviction. The displaced line is in
 * *victim as for cache_fill. A reserved line misses reads and writes alike (a write to it
 * changes nothing: GPGPU-Sim's HIT_RESERVED store goes below as a miss), and a fill of it
 * clears the reservation. */
bool cache_can_reserve(const struct cache *c, uint64_t addr);
void cache_reserve(struct cache *c, uint64_t addr, struct cache_victim *victim);

/* Per-line bits; false when the line is not present. */
bool cache_mark_dirty(struct cache *c, uint64_t addr);
bool cache_set_user(struct cache *c, uint64_t addr, bool user);
/* Drop the line (write-evict, coherence); returns whether it was present. */
bool cache_invalidate(struct cache *c, uint64_t addr);
/* Drop every line at once (a flash invalidation: the L1D flushed at a kernel launch). The
 * byte address of each dirty line dropped is stored in dirty_addrs[] (room for one per line,
 * size / line_bytes) and their count in *n_dirty: the caller writes them back. With
 * dirty_addrs NULL dirty lines are dropped unwritten, as GPGPU-Sim's L1D invalidation at a
 * launch drops its dirty local lines (tag_array::invalidate). Returns the number of valid lines dropped. Not counted in
 * invalidations (the owner counts flushes). O(lines + buckets): once per launch, not per
 * access. */
uint32_t cache_invalidate_all(struct cache *c, uint64_t *dirty_addrs, uint32_t *n_dirty);

static inline bool cache_write_allocates(const struct cache *c)
{
	return c->cfg.write_policy == CACHE_WRITE_BACK;
}

/* "<prefix>.accesses", ".hits", ".misses", ".read_hits", ..., ".hit_rate" and ".miss_rate"
 * (per-scope ratios). prefix is copied. */
void cache_stats_register(struct cache *c, struct stats *st, const char *prefix);

/* Parse "lru"/"fifo", "write-back"/"write-through"/"write-evict" and "linear"/"xor"; -1 if
 * unknown. */
int cache_repl_parse(const char *s);
int cache_index_parse(const char *s);
int cache_write_policy_parse(const char *s);

#endif
