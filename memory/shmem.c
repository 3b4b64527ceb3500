/* SPDX-License-Identifier: MIT */
/* Shared-memory bank-conflict counting. Word w lives in bank w mod banks; passes = max over
 * banks of the distinct words requested there (same-word requests are broadcast). */
#include "shmem.h"

#include <stdbool.h>

uint32_t shmem_passes(const struct shmem_cfg *cfg, const struct warp_inst *wi, uint64_t *scratch)
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
		uint64_t active = wi->mask[base / 64];
		if (wi->n_lanes - base < 64)
			active &= (1ull << (wi->n_lanes - base)) - 1;
		for (; active; active &= active - 1) {
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
