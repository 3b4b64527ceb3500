/* SPDX-License-Identifier: MIT */
/* Tests memory/shmem.h: bank-conflict passes for 32 banks x 4 B. */
#include <criterion/criterion.h>
#include <stdbool.h>

#include "memory/shmem.h"

static uint64_t addr[32];
static uint64_t scratch[32 * 6];
static const struct shmem_cfg cfg = {.banks = 32, .bank_bytes = 4, .latency_cycles = 20};

static void warp(struct warp_inst *wi, uint64_t stride, uint32_t bytes)
{
	memset(wi, 0, sizeof *wi);
	wi->n_lanes = 32;
	wi->n_active = 32;
	wi->mask[0] = 0xffffffffull;
	wi->addr = addr;
	wi->access_bytes = bytes;
	for (uint32_t l = 0; l < 32; l++)
		addr[l] = l * stride;
}

Test(shmem, unit_stride_is_conflict_free)
{
	struct warp_inst wi;
	warp(&wi, 4, 4); /* word l in bank l */
	cr_expect_eq(shmem_passes(&cfg, &wi, scratch), 1);
}

Test(shmem, stride_two_words_is_two_way_conflict)
{
	/* stride 8 B: word 2l in bank 2l mod 32: banks 0,2,..,30 each get 2 distinct words. */
	struct warp_inst wi;
	warp(&wi, 8, 4);
	cr_expect_eq(shmem_passes(&cfg, &wi, scratch), 2);
}

Test(shmem, stride_32_words_is_32_way_conflict)
{
	/* stride 128 B: every lane in bank 0, 32 distinct words. */
	struct warp_inst wi;
	warp(&wi, 128, 4);
	cr_expect_eq(shmem_passes(&cfg, &wi, scratch), 32);
}

Test(shmem, same_word_is_broadcast)
{
	struct warp_inst wi;
	warp(&wi, 0, 4);
	cr_expect_eq(shmem_passes(&cfg, &wi, scratch), 1);
}

Test(shmem, no_active_lane_takes_no_pass)
{
	struct warp_inst wi;
	warp(&wi, 4, 4);
	wi.mask[0] = 0;
	cr_expect_eq(shmem_passes(&cfg, &wi, scratch), 0);
}

/* Reference: distinct words per bank by brute force. */
static uint32_t ref_passes(const struct shmem_cfg *c, const struct warp_inst *wi)
{
	static uint64_t words[32 * 6];
	uint32_t n = 0, passes = 0;
	for (uint32_t l = 0; l < wi->n_lanes; l++)
		if (wi->mask[0] >> l & 1)
			for (uint64_t w = wi->addr[l] / c->bank_bytes; w <= (wi->addr[l] + wi->access_bytes - 1) / c->bank_bytes; w++) {
				bool seen = false;
				for (uint32_t j = 0; j < n; j++)
					seen |= words[j] == w;
				if (!seen)
					words[n++] = w;
			}
	for (uint32_t b = 0; b < c->banks; b++) {
		uint32_t k = 0;
		for (uint32_t j = 0; j < n; j++)
			k += words[j] % c->banks == b;
		if (k > passes)
			passes = k;
	}
	return passes;
}

Test(shmem, random_patterns_match_a_brute_force_count)
{
	const struct shmem_cfg odd = {.banks = 17, .bank_bytes = 8, .latency_cycles = 20};
	uint64_t x = 88172645463325252ull;
	for (int t = 0; t < 2000; t++) {
		const struct shmem_cfg *c = t % 2 ? &cfg : &odd;
		struct warp_inst wi;
		warp(&wi, 0, 4u << (t % 3));
		for (uint32_t l = 0; l < 32; l++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			addr[l] = (x % (t % 5 == 0 ? 64 : 4096)) & ~3ull; /* small ranges force conflicts and broadcasts */
		}
		wi.mask[0] = x & 0xffffffffull;
		cr_assert_eq(shmem_passes(c, &wi, scratch), ref_passes(c, &wi), "pattern %d", t);
	}
}
