/* SPDX-License-Identifier: MIT */
/* Shared-memory bank-conflict counting. Word w lives in bank w mod banks; passes = max over
 * banks of the distinct words requested there (same-word requests are broadcast). */
#include "shmem.h"

#include <stdbool.h>

/* The active lanes of word i of wi's mask (lanes past n_lanes cleared). */
static inline uint64_t active_bits(const struct warp_inst *wi, uint32_t i)
{
	uint64_t active = wi->mask[i];
	if (wi->n_lanes - i * 64 < 64)
		active &= (UINT64_C(1) << (wi->n_lanes - i * 64)) - 1;
	return active;
}

/* The general count. */
static uint32_t passes_counted(const struct shmem_cfg *cfg, const struct warp_inst *wi, uint64_t *scratch)
{
	/* Distinct words per bank, counted as they come: the first word a bank sees is kept
	 * apart, so the usual cases (one word per bank, broadcasts) cost one compare; a further
	 * word is looked up among the distinct words so far (scratch). */
	uint32_t ab = wi->access_bytes ? wi->access_bytes : 1;
	uint32_t shift = (uint32_t)__builtin_ctz(cfg->bank_bytes); /* a power of two (mem_unit checks) */
	uint32_t banks = cfg->banks;
	bool pow2 = (banks & (banks - 1)) == 0;
	uint32_t count[SHMEM_MAX_BANKS];
	uint64_t first_word[SHMEM_MAX_BANKS];
	for (uint32_t b = 0; b < banks; b++)
		count[b] = 0;
	uint32_t n = 0, passes = 0;
	for (uint32_t base = 0; base < wi->n_lanes; base += 64) {
		for (uint64_t active = active_bits(wi, base / 64); active; active &= active - 1) {
			uint32_t lane = base + (uint32_t)__builtin_ctzll(active);
			uint64_t first = wi->addr[lane] >> shift, last = (wi->addr[lane] + ab - 1) >> shift;
			for (uint64_t w = first; w <= last; w++) {
				uint32_t b = pow2 ? (uint32_t)(w & (banks - 1)) : (uint32_t)(w % banks);
				if (count[b] == 0) {
					count[b] = 1;
					first_word[b] = w;
				} else if (first_word[b] == w) {
					continue; /* broadcast */
				} else {
					uint32_t j = 0;
					while (j < n && scratch[j] != w)
						j++;
					if (j < n)
						continue; /* broadcast */
					scratch[n++] = w;
					count[b]++;
				}
				if (count[b] > passes)
					passes = count[b];
			}
		}
	}
	return passes;
}

uint32_t shmem_passes(const struct shmem_cfg *cfg, const struct warp_inst *wi, uint64_t *scratch)
{
	/* Conflict-free by span: `banks` consecutive words lie in `banks` different banks, so when
	 * every word touched lies within one such window each bank has at most one distinct word:
	 * one pass. That covers the common patterns (broadcasts, unit strides, a tile's rows
	 * read by half-warps) for the price of a min/max over the addresses, about a quarter of
	 * the count's. The span is taken over whole accesses (lo to hi + ab - 1); an access whose
	 * end passes 2^64 touches no word in the count (its loop is empty), so it is left to it. */
	uint64_t ab = wi->access_bytes ? wi->access_bytes : 1;
	uint64_t lo = UINT64_MAX, hi = 0;
	bool any = false;
	for (uint32_t base = 0; base < wi->n_lanes; base += 64) {
		uint64_t active = active_bits(wi, base / 64);
		if (!active)
			continue;
		any = true;
		const uint64_t *addr = wi->addr + base;
		if (active == UINT64_MAX || (wi->n_lanes - base < 64 && active == (UINT64_C(1) << (wi->n_lanes - base)) - 1)) {
			/* All lanes of the word: no mask walk; four lanes a step (the loop's own
			 * instructions were a third of it). */
			uint32_t e = wi->n_lanes - base < 64 ? wi->n_lanes - base : 64, l = 0;
			for (; l + 4 <= e; l += 4) {
				uint64_t a0 = addr[l], a1 = addr[l + 1], a2 = addr[l + 2], a3 = addr[l + 3];
				lo = a0 < lo ? a0 : lo;
				hi = a0 > hi ? a0 : hi;
				lo = a1 < lo ? a1 : lo;
				hi = a1 > hi ? a1 : hi;
				lo = a2 < lo ? a2 : lo;
				hi = a2 > hi ? a2 : hi;
				lo = a3 < lo ? a3 : lo;
				hi = a3 > hi ? a3 : hi;
			}
			for (; l < e; l++) {
				lo = addr[l] < lo ? addr[l] : lo;
				hi = addr[l] > hi ? addr[l] : hi;
			}
		} else {
			for (; active; active &= active - 1) {
				uint64_t a = addr[__builtin_ctzll(active)];
				lo = a < lo ? a : lo;
				hi = a > hi ? a : hi;
			}
		}
	}
	if (!any)
		return 0;
	if (hi <= UINT64_MAX - (ab - 1)) {
		uint32_t shift = (uint32_t)__builtin_ctz(cfg->bank_bytes);
		if (((hi + ab - 1) >> shift) - (lo >> shift) < cfg->banks)
			return 1;
	}
	return passes_counted(cfg, wi, scratch);
}
