/* SPDX-License-Identifier: MIT */
/* Shared-memory bank-conflict counting. Word w lives in bank w mod banks; passes = max over
 * banks of the distinct words requested there (same-word requests are broadcast). */
#include "shmem.h"

/* Shell sort: in place, no allocation (qsort may allocate), fine for <= a few thousand words. */
static void sort_u64(uint64_t *a, uint32_t n)
{
	static const uint32_t gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
	for (uint32_t g = 0; g < sizeof gaps / sizeof gaps[0]; g++) {
		uint32_t gap = gaps[g];
		for (uint32_t i = gap; i < n; i++) {
			uint64_t v = a[i];
			uint32_t j = i;
			for (; j >= gap && a[j - gap] > v; j -= gap)
				a[j] = a[j - gap];
			a[j] = v;
		}
	}
}

uint32_t shmem_passes(const struct shmem_cfg *cfg, const struct warp_inst *wi, uint64_t *scratch)
{
	uint32_t n = 0;
	uint32_t ab = wi->access_bytes ? wi->access_bytes : 1;
	for (uint32_t lane = 0; lane < wi->n_lanes; lane++) {
		if (!wi_lane_active(wi, lane))
			continue;
		uint64_t first = wi->addr[lane] / cfg->bank_bytes;
		uint64_t last = (wi->addr[lane] + ab - 1) / cfg->bank_bytes;
		for (uint64_t w = first; w <= last; w++)
			scratch[n++] = w;
	}
	if (!n)
		return 0;
	sort_u64(scratch, n);
	uint32_t count[SHMEM_MAX_BANKS] = {0};
	uint32_t passes = 0;
	for (uint32_t i = 0; i < n; i++) {
		if (i && scratch[i] == scratch[i - 1])
			continue; /* broadcast */
		uint32_t b = (uint32_t)(scratch[i] % cfg->banks);
		if (++count[b] > passes)
			passes = count[b];
	}
	return passes;
}
