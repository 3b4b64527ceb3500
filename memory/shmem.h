/* SPDX-License-Identifier: MIT */
/* Banked shared memory timing: lanes hitting different words of one bank serialise (a k-way
 * conflict takes k passes); lanes reading the same word share one access (broadcast). */
#ifndef WARPSIM_SHMEM_H
#define WARPSIM_SHMEM_H

#include <stdint.h>

#include "../frontend/warp_inst.h"

#define SHMEM_MAX_BANKS 128

struct shmem_cfg {
	uint32_t banks;          /* 1..SHMEM_MAX_BANKS, 32 by default (Fermi) */
	uint32_t bank_bytes;     /* word width of a bank, power of two: 4 by default */
	uint32_t latency_cycles; /* of a conflict-free access */
};

/* Passes (bank-serialised access rounds) for wi's active lanes: the largest number of
 * distinct words any one bank must deliver; 1 when conflict-free, 0 with no active lane.
 * scratch must hold shmem_scratch_words(wi->n_lanes, wi->access_bytes, bank_bytes) entries
 * (caller-owned, sized at build: no allocation here). O(w) in the words touched without
 * conflicts, O(w^2) at worst. */
uint32_t shmem_passes(const struct shmem_cfg *cfg, const struct warp_inst *wi, uint64_t *scratch);

static inline uint32_t shmem_scratch_words(uint32_t n_lanes, uint32_t max_access_bytes, uint32_t bank_bytes)
{
	uint32_t per = (max_access_bytes + bank_bytes - 1) / bank_bytes + 1;
	return n_lanes * per;
}

#endif
