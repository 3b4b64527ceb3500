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
	uint32_t count[SHMEM_MAX_BANKS] = {0};
	uint64_t first_word[SHMEM_MAX_BANKS];
	uint32_t n = 0, passes = 0;
	for (uint32_t lane = 0; lane < wi->n_lanes; lane++) {
		if (!wi_lane_active(wi, lane))
			continue;
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
	return passes;
}
