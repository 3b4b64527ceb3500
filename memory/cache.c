/* SPDX-License-Identifier: MIT */
/* Set-associative tag store: lookup/fill/invalidate with LRU or FIFO victims and three write
 * policies. O(assoc) per access; fine for the 4..16 ways the machines use. */
#include "cache.h"

#include <stdlib.h>
#include <string.h>

static bool is_pow2(uint64_t x) { return x && !(x & (x - 1)); }

static uint32_t log2u(uint64_t x)
{
	uint32_t n = 0;
	while (x > 1) {
		x >>= 1;
		n++;
	}
	return n;
}

int cache_init(struct cache *c, const struct cache_cfg *cfg, struct sim_error *err)
{
	memset(c, 0, sizeof *c);
	if (cfg->assoc == 0)
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "assoc", "cache associativity must be >= 1");
	if (!is_pow2(cfg->line_bytes) || cfg->line_bytes < 4)
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "line_bytes",
				     "cache line size must be a power of two >= 4, got %u", cfg->line_bytes);
	uint64_t way_bytes = (uint64_t)cfg->assoc * cfg->line_bytes;
	if (cfg->size_bytes == 0 || cfg->size_bytes % way_bytes != 0 || !is_pow2(cfg->size_bytes / way_bytes))
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "size_bytes",
				     "cache size %u bytes is not assoc (%u) x line (%u) x a power-of-two number of sets",
				     cfg->size_bytes, cfg->assoc, cfg->line_bytes);
	uint32_t sector = cfg->sector_bytes ? cfg->sector_bytes : cfg->line_bytes;
	if (!is_pow2(sector) || sector > cfg->line_bytes || cfg->line_bytes / sector > 32)
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "sector_bytes",
				     "sector size %u must be a power of two dividing the %u-byte line, at most 32 sectors",
				     cfg->sector_bytes, cfg->line_bytes);
	if (cfg->index == CACHE_INDEX_FERMI_HASH && cfg->size_bytes / way_bytes != 32 &&
	    cfg->size_bytes / way_bytes != 64)
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "set_index",
				     "set_index \"fermi-hash\" needs 32 or 64 sets (GPGPU-Sim's hash is defined for "
				     "those only); this cache has %u", (unsigned)(cfg->size_bytes / way_bytes));
	c->cfg = *cfg;
	c->n_sets = (uint32_t)(cfg->size_bytes / way_bytes);
	c->set_bits = log2u(c->n_sets);
	c->set_shift = log2u(cfg->line_bytes);
	c->n_sectors = cfg->line_bytes / sector;
	c->sector_shift = log2u(sector);
	c->lines = calloc((size_t)c->n_sets * cfg->assoc, sizeof *c->lines);
	size_t n_lines = (size_t)c->n_sets * cfg->assoc, buckets = 1;
	while (buckets < 4 * n_lines)
		buckets *= 2;
	c->bucket_mask = (uint32_t)(buckets - 1);
	c->bucket_shift = log2u(buckets);
	c->present = calloc(buckets, sizeof *c->present);
	if (!c->lines || !c->present) {
		cache_fini(c);
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "cache tag array");
	}
	for (size_t i = 0; i < (size_t)c->n_sets * cfg->assoc; i++)
		c->lines[i].line_addr = CACHE_NO_LINE;
	return 0;
}

void cache_fini(struct cache *c)
{
	free(c->lines);
	free(c->present);
	c->lines = NULL;
	c->present = NULL;
}

/* Every change of a way's line_addr goes through these two (struct cache: present). */
static void line_set(struct cache *c, struct cache_line *l, uint64_t la)
{
	c->present[cache_bucket_(c, la)]++;
	l->line_addr = la;
}

static void line_clear(struct cache *c, struct cache_line *l)
{
	c->present[cache_bucket_(c, l->line_addr)]--;
	l->line_addr = CACHE_NO_LINE;
}

static uint32_t all_sectors(const struct cache *c) { return cache_all_sectors_(c); }

uint32_t cache_sector_mask(const struct cache *c, uint64_t addr, uint32_t bytes)
{
	if (bytes == 0)
		return all_sectors(c);
	uint64_t off = addr - cache_line_base(c, addr);
	uint64_t last = off + bytes - 1;
	if (last >= c->cfg.line_bytes)
		last = c->cfg.line_bytes - 1;
	uint32_t first_s = (uint32_t)(off >> c->sector_shift);
	uint32_t last_s = (uint32_t)(last >> c->sector_shift);
	uint32_t m = 0;
	for (uint32_t s = first_s; s <= last_s; s++)
		m |= 1u << s;
	return m;
}

static struct cache_line *set_of(const struct cache *c, uint64_t line_addr)
{
	return &c->lines[(size_t)cache_set_(c, line_addr) * c->cfg.assoc];
}

static struct cache_line *find(const struct cache *c, uint64_t line_addr) { return cache_find_(c, line_addr); }

/* cache_lookup, and without its counters (count constant false) cache_touch. */
static inline __attribute__((always_inline)) struct cache_outcome lookup(struct cache *c, uint64_t addr, bool is_write,
								     uint32_t sectors, bool count,
								     enum cache_write_policy wp)
{
	struct cache_outcome o = {0};
	uint64_t la = addr >> c->set_shift;
	if (!sectors)
		sectors = all_sectors(c);
	struct cache_line *l = find(c, la);
	c->tick++;
	if (l && l->reserved) {
		l = NULL; /* its fill is pending: a miss, no state change (cache_reserve) */
		o.line_present = true;
	} else if (l) {
		o.line_present = true;
		o.user = l->user;
		/* A write supplies its own bytes, so for writes a present line is a hit whatever
		 * sectors are valid; the written sectors become valid. */
		o.hit = is_write || (l->sectors & sectors) == sectors;
		if (c->cfg.repl == CACHE_REPL_LRU)
			l->stamp = c->tick;
	}
	if (count) {
		c->accesses++;
		if (o.hit)
			c->hits++;
		else
			c->misses++;
	}
	if (is_write) {
		if (o.hit) {
			c->write_hits += count;
			c->version++;
			switch (wp) {
			case CACHE_WRITE_BACK:
				l->dirty = true;
				l->sectors |= sectors;
				l->unread &= ~sectors;
				break;
			case CACHE_WRITE_THROUGH:
				l->sectors |= sectors;
				l->unread &= ~sectors;
				break;
			case CACHE_WRITE_EVICT:
				line_clear(c, l);
				l->sectors = 0;
				l->unread = 0;
				l->dirty = false;
				l->user = false;
				c->invalidations += count;
				break;
			}
		} else {
			c->write_misses += count;
		}
	} else if (o.hit) {
		c->read_hits += count;
	} else {
		c->read_misses += count;
		if (l)
			c->sector_misses += count;
	}
	return o;
}

struct cache_outcome cache_lookup(struct cache *c, uint64_t addr, bool is_write, uint32_t sectors)
{
	return lookup(c, addr, is_write, sectors, true, c->cfg.write_policy);
}

struct cache_outcome cache_lookup_wp(struct cache *c, uint64_t addr, bool is_write, uint32_t sectors,
				     enum cache_write_policy wp, bool count)
{
	return lookup(c, addr, is_write, sectors, count, wp);
}

struct cache_outcome cache_touch(struct cache *c, uint64_t addr, bool is_write, uint32_t sectors)
{
	return lookup(c, addr, is_write, sectors, false, c->cfg.write_policy);
}


/* The way a new line of la takes: an invalid one first, else the LRU / first-filled one that
 * is not reserved; with any_if_all, a reserved one when every way is (else NULL). */
static struct cache_line *pick_victim(struct cache *c, uint64_t la, bool any_if_all)
{
	struct cache_line *set = set_of(c, la);
	struct cache_line *v = NULL, *r = NULL;
	for (uint32_t w = 0; w < c->cfg.assoc; w++) {
		struct cache_line *x = &set[w];
		if (!x->sectors && !x->unread && !x->reserved)
			return x;
		/* LRU: oldest last access; FIFO: oldest fill (stamp is not refreshed on hits). */
		struct cache_line **best = x->reserved ? &r : &v;
		if (!*best || x->stamp < (*best)->stamp)
			*best = x;
	}
	return v ? v : any_if_all ? r : NULL;
}

/* Evict what way v holds (described in *victim) and give it line la, stamped now, with no
 * sector valid, clean and not the user's: each caller then sets what it brings. */
static void fill_way(struct cache *c, struct cache_line *v, uint64_t la, struct cache_victim *victim)
{
	bool valid = v->sectors || v->unread;
	if (valid) {
		c->evictions++;
		if (v->dirty)
			c->dirty_evictions++;
		if (victim) {
			victim->valid = true;
			victim->dirty = v->dirty;
			victim->user = v->user;
			victim->addr = v->line_addr << c->set_shift;
		}
	}
	if (valid || v->reserved)
		line_clear(c, v);
	v->reserved = false;
	v->unread = 0;
	line_set(c, v, la);
	v->sectors = 0;
	v->dirty = false;
	v->user = false;
	v->stamp = c->tick;
}

void cache_fill(struct cache *c, uint64_t addr, uint32_t sectors, bool dirty, bool user,
		struct cache_victim *victim)
{
	c->version++;
	uint64_t la = addr >> c->set_shift;
	if (!sectors)
		sectors = all_sectors(c);
	if (victim)
		memset(victim, 0, sizeof *victim);
	c->tick++;
	c->fills++;
	struct cache_line *l = find(c, la);
	if (l) {
		/* Sector fill (or a racing second fill of the same line): no eviction, and the
		 * FIFO position stays that of the first fill. */
		l->sectors |= sectors;
		l->unread &= ~sectors;
		l->dirty |= dirty;
		l->user = user;
		l->reserved = false;
		if (c->cfg.repl == CACHE_REPL_LRU)
			l->stamp = c->tick;
		return;
	}
	struct cache_line *v = pick_victim(c, la, true);
	fill_way(c, v, la, victim);
	v->sectors = sectors;
	v->dirty = dirty;
	v->user = user;
}

bool cache_can_reserve(const struct cache *c, uint64_t addr)
{
	uint64_t la = addr >> c->set_shift;
	const struct cache_line *l = find(c, la);
	if (l)
		return !l->reserved;
	const struct cache_line *set = &c->lines[(size_t)cache_set_(c, la) * c->cfg.assoc];
	for (uint32_t w = 0; w < c->cfg.assoc; w++)
		if (!set[w].reserved)
			return true;
	return false;
}

void cache_reserve(struct cache *c, uint64_t addr, struct cache_victim *victim)
{
	c->version++;
	uint64_t la = addr >> c->set_shift;
	if (victim)
		memset(victim, 0, sizeof *victim);
	c->tick++;
	struct cache_line *l = find(c, la);
	if (!l) {
		l = pick_victim(c, la, false);
		SIM_ASSERT(l); /* cache_can_reserve */
		fill_way(c, l, la, victim);
	}
	SIM_ASSERT(!l->reserved);
	l->reserved = true;
	l->stamp = c->tick;
}

void cache_count_sectors(struct cache *c, bool is_write, uint32_t n, uint32_t hits, uint32_t misses,
			 uint32_t sector_misses)
{
	SIM_ASSERT(hits + misses <= n && sector_misses <= misses);
	c->accesses += n;
	c->hits += hits;
	c->misses += misses;
	if (is_write) {
		c->write_hits += hits;
		c->write_misses += misses;
	} else {
		c->read_hits += hits;
		c->read_misses += misses;
		c->sector_misses += sector_misses;
	}
}

void cache_write_sectors(struct cache *c, uint64_t addr, uint32_t full, uint32_t partial,
			 struct cache_victim *victim)
{
	SIM_ASSERT(full | partial);
	c->version++;
	uint64_t la = addr >> c->set_shift;
	if (victim)
		memset(victim, 0, sizeof *victim);
	c->tick++;
	struct cache_line *l = find(c, la);
	if (!l) {
		l = pick_victim(c, la, true);
		fill_way(c, l, la, victim);
	} else if (c->cfg.repl == CACHE_REPL_LRU) {
		l->stamp = c->tick;
	}
	l->reserved = false;
	l->sectors |= full;
	l->unread = (l->unread | (partial & ~l->sectors)) & ~l->sectors;
	l->dirty = true;
}

bool cache_mark_dirty(struct cache *c, uint64_t addr)
{
	struct cache_line *l = find(c, addr >> c->set_shift);
	if (l)
		l->dirty = true;
	return l != NULL;
}

bool cache_set_user(struct cache *c, uint64_t addr, bool user)
{
	struct cache_line *l = find(c, addr >> c->set_shift);
	if (l)
		l->user = user;
	return l != NULL;
}

bool cache_invalidate(struct cache *c, uint64_t addr)
{
	c->version++;
	struct cache_line *l = find(c, addr >> c->set_shift);
	if (!l)
		return false;
	bool valid = l->sectors || l->unread;
	line_clear(c, l);
	l->sectors = 0;
	l->unread = 0;
	l->dirty = false;
	l->user = false;
	l->reserved = false;
	c->invalidations += valid;
	return valid;
}

uint32_t cache_invalidate_all(struct cache *c, uint64_t *dirty_addrs, uint32_t *n_dirty)
{
	uint32_t valid = 0, dirty = 0;
	size_t n = (size_t)c->n_sets * c->cfg.assoc;
	for (size_t i = 0; i < n; i++) {
		struct cache_line *l = &c->lines[i];
		if (!l->sectors && !l->unread && !l->reserved)
			continue;
		valid += l->sectors || l->unread;
		l->unread = 0;
		l->reserved = false;
		if (l->dirty && dirty_addrs) /* without dirty_addrs a dirty line is dropped */
			dirty_addrs[dirty++] = l->line_addr << c->set_shift;
		l->line_addr = CACHE_NO_LINE;
		l->sectors = 0;
		l->dirty = false;
		l->user = false;
	}
	/* Every bucket is empty now: cleared at once rather than line by line. */
	memset(c->present, 0, ((size_t)c->bucket_mask + 1) * sizeof *c->present);
	c->version++;
	if (n_dirty)
		*n_dirty = dirty;
	return valid;
}

void cache_stats_register(struct cache *c, struct stats *st, const char *prefix)
{
	char num[192], den[192];
	stats_counter(st, &c->accesses, "accesses", "demand lookups (reads and writes)", "%s.accesses", prefix);
	stats_counter(st, &c->hits, "accesses", "read and write hits", "%s.hits", prefix);
	stats_counter(st, &c->misses, "accesses", "read and write misses", "%s.misses", prefix);
	snprintf(den, sizeof den, "%s.accesses", prefix);
	snprintf(num, sizeof num, "%s.hits", prefix);
	stats_ratio(st, num, den, 1.0, "ratio", "hits / accesses", "%s.hit_rate", prefix);
	snprintf(num, sizeof num, "%s.misses", prefix);
	stats_ratio(st, num, den, 1.0, "ratio", "misses / accesses", "%s.miss_rate", prefix);
	stats_counter(st, &c->read_hits, "accesses", "read hits", "%s.read_hits", prefix);
	stats_counter(st, &c->read_misses, "accesses", "read misses (incl. sector misses)", "%s.read_misses", prefix);
	stats_counter(st, &c->write_hits, "accesses", "write hits", "%s.write_hits", prefix);
	stats_counter(st, &c->write_misses, "accesses", "write misses", "%s.write_misses", prefix);
	stats_counter(st, &c->sector_misses, "accesses", "read misses with the tag present but a sector missing",
		      "%s.sector_misses", prefix);
	stats_counter(st, &c->fills, "lines", "lines or sectors filled", "%s.fills", prefix);
	stats_counter(st, &c->evictions, "lines", "valid lines evicted by fills", "%s.evictions", prefix);
	stats_counter(st, &c->dirty_evictions, "lines", "dirty lines evicted (written back)",
		      "%s.dirty_evictions", prefix);
	stats_counter(st, &c->invalidations, "lines", "lines invalidated (write-evict, explicit)",
		      "%s.invalidations", prefix);
}

int cache_repl_parse(const char *s)
{
	if (!strcmp(s, "lru"))
		return CACHE_REPL_LRU;
	if (!strcmp(s, "fifo"))
		return CACHE_REPL_FIFO;
	return -1;
}

int cache_index_parse(const char *s)
{
	if (!strcmp(s, "linear"))
		return CACHE_INDEX_LINEAR;
	if (!strcmp(s, "xor"))
		return CACHE_INDEX_XOR;
	if (!strcmp(s, "fermi-hash"))
		return CACHE_INDEX_FERMI_HASH;
	return -1;
}

int cache_write_policy_parse(const char *s)
{
	if (!strcmp(s, "write-back"))
		return CACHE_WRITE_BACK;
	if (!strcmp(s, "write-through"))
		return CACHE_WRITE_THROUGH;
	if (!strcmp(s, "write-evict"))
		return CACHE_WRITE_EVICT;
	return -1;
}
