/* SPDX-License-Identifier: MIT */
/* Miss status holding registers: one entry per outstanding line (or sector set) miss, each
 * holding up to merges_per_entry waiting targets; a later miss to the same line merges. */
#ifndef WARPSIM_MSHR_H
#define WARPSIM_MSHR_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/sim_error.h"

struct mshr_cfg {
	uint32_t entries;          /* 1..1024: 32 per core in owl-28 (OWL Table 1) */
	uint32_t merges_per_entry; /* targets per entry, 1..1024 (the first miss counts as one) */
};

struct mshr_entry {
	bool valid;
	uint8_t cache_id;          /* which cache of the owner (L1D, L1C, L1T) it fills */
	uint64_t line_addr;        /* byte address, line-aligned */
	uint32_t sectors;          /* sectors requested below */
	uint32_t n_targets;
	uint32_t *targets;         /* [merges_per_entry], owner-defined ids (instruction slots) */
	uint64_t alloc_cycle;
};

struct mshr {
	struct mshr_cfg cfg;
	struct mshr_entry *e;      /* [entries], owned */
	uint64_t *key;             /* [entries], owned: line_addr of each valid entry, MSHR_NO_KEY
	                              when free (a dense array the lookup scans) */
	uint32_t *target_store;    /* [entries * merges_per_entry], owned */
	uint64_t *free_bits;       /* [(entries + 63) / 64], owned: bit i set while entry i is free,
	                              so an allocation takes the lowest free entry without a scan */
	uint32_t used;             /* valid entries */
	uint64_t allocs, merges;   /* counters */
};

#define MSHR_NO_KEY UINT64_MAX

int mshr_init(struct mshr *m, const struct mshr_cfg *cfg, struct sim_error *err);
void mshr_fini(struct mshr *m); /* safe on zeroed */

/* The valid entry of (cache_id, line) whose sectors cover the wanted ones, or NULL. O(entries). */
struct mshr_entry *mshr_find(struct mshr *m, uint8_t cache_id, uint64_t line_addr, uint32_t sectors);
static inline bool mshr_can_merge(const struct mshr *m, const struct mshr_entry *e)
{
	return e->n_targets < m->cfg.merges_per_entry;
}
static inline uint32_t mshr_free_entries(const struct mshr *m) { return m->cfg.entries - m->used; }
/* A new entry with target as its first target; NULL when all entries are in use. */
struct mshr_entry *mshr_alloc(struct mshr *m, uint8_t cache_id, uint64_t line_addr, uint32_t sectors,
			      uint32_t target, uint64_t now_cycle);
/* Add a waiting target; false when the entry already holds merges_per_entry. */
bool mshr_merge(struct mshr *m, struct mshr_entry *e, uint32_t target);
/* Free the entry (after its fill has served every target). */
void mshr_release(struct mshr *m, struct mshr_entry *e);

#endif
