/* SPDX-License-Identifier: MIT */
/* MSHR table: a flat array searched linearly (O(entries), 32 in owl-28), so no hashing and a
 * deterministic order; the search reads a dense array of line addresses first, and a bitmap of
 * free entries gives an allocation the lowest one. */
#include "mshr.h"

#include <stdlib.h>
#include <string.h>

int mshr_init(struct mshr *m, const struct mshr_cfg *cfg, struct sim_error *err)
{
	memset(m, 0, sizeof *m);
	if (cfg->entries < 1 || cfg->entries > 1024 || cfg->merges_per_entry < 1 || cfg->merges_per_entry > 1024)
		return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, "mshr",
				     "MSHR entries and merges per entry must be 1..1024, got %u and %u",
				     cfg->entries, cfg->merges_per_entry);
	m->cfg = *cfg;
	m->e = calloc(cfg->entries, sizeof *m->e);
	m->target_store = calloc((size_t)cfg->entries * cfg->merges_per_entry, sizeof *m->target_store);
	m->key = malloc(cfg->entries * sizeof *m->key);
	m->free_bits = calloc((cfg->entries + 63) / 64, sizeof *m->free_bits);
	if (!m->e || !m->target_store || !m->key || !m->free_bits) {
		mshr_fini(m);
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "MSHR table");
	}
	for (uint32_t i = 0; i < cfg->entries; i++) {
		m->e[i].targets = &m->target_store[(size_t)i * cfg->merges_per_entry];
		m->key[i] = MSHR_NO_KEY;
		m->free_bits[i / 64] |= UINT64_C(1) << (i % 64);
	}
	return 0;
}

void mshr_fini(struct mshr *m)
{
	free(m->e);
	free(m->target_store);
	free(m->key);
	free(m->free_bits);
	m->free_bits = NULL;
	m->e = NULL;
	m->target_store = NULL;
	m->key = NULL;
}

struct mshr_entry *mshr_find(struct mshr *m, uint8_t cache_id, uint64_t line_addr, uint32_t sectors)
{
	if (!m->used)
		return NULL;
	for (uint32_t i = 0; i < m->cfg.entries; i++) {
		if (m->key[i] != line_addr)
			continue;
		struct mshr_entry *e = &m->e[i];
		if (e->valid && e->cache_id == cache_id && (e->sectors & sectors) == sectors)
			return e;
	}
	return NULL;
}

struct mshr_entry *mshr_alloc(struct mshr *m, uint8_t cache_id, uint64_t line_addr, uint32_t sectors,
			      uint32_t target, uint64_t now_cycle)
{
	if (m->used >= m->cfg.entries)
		return NULL;
	uint32_t w = 0;
	while (!m->free_bits[w])
		w++; /* (a free entry exists: used < entries) */
	uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(m->free_bits[w]);
	struct mshr_entry *e = &m->e[i];
	SIM_ASSERT(i < m->cfg.entries && !e->valid);
	m->free_bits[w] &= m->free_bits[w] - 1;
	e->valid = true;
	e->cache_id = cache_id;
	e->line_addr = line_addr;
	m->key[i] = line_addr;
	e->sectors = sectors;
	e->n_targets = 1;
	e->targets[0] = target;
	e->alloc_cycle = now_cycle;
	m->used++;
	m->allocs++;
	return e;
}

bool mshr_merge(struct mshr *m, struct mshr_entry *e, uint32_t target)
{
	SIM_ASSERT(e->valid);
	if (e->n_targets >= m->cfg.merges_per_entry)
		return false;
	e->targets[e->n_targets++] = target;
	m->merges++;
	return true;
}

void mshr_release(struct mshr *m, struct mshr_entry *e)
{
	SIM_ASSERT(e->valid && m->used > 0);
	e->valid = false;
	e->n_targets = 0;
	uint32_t i = (uint32_t)(e - m->e);
	m->key[i] = MSHR_NO_KEY;
	m->free_bits[i / 64] |= UINT64_C(1) << (i % 64);
	m->used--;
}
