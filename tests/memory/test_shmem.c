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

/* Reference for any warp size, mask and address: distinct words per bank by brute force. An
 * access whose end passes 2^64 touches no word, as in shmem_passes' count. */
static uint32_t ref_passes_any(const struct shmem_cfg *c, const struct warp_inst *wi, uint64_t *words)
{
	uint32_t n = 0, passes = 0;
	uint64_t ab = wi->access_bytes ? wi->access_bytes : 1;
	for (uint32_t l = 0; l < wi->n_lanes; l++) {
		if (!wi_lane_active(wi, l))
			continue;
		uint64_t first = wi->addr[l] / c->bank_bytes, last = (wi->addr[l] + ab - 1) / c->bank_bytes;
		for (uint64_t w = first; w <= last; w++) {
			bool seen = false;
			for (uint32_t j = 0; j < n; j++)
				seen |= words[j] == w;
			if (!seen)
				words[n++] = w;
		}
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
	static uint64_t words[32 * 6];
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
		cr_assert_eq(shmem_passes(c, &wi, scratch), ref_passes_any(c, &wi, words), "pattern %d", t);
	}
}

/* The conflict-free shortcut (every word within `banks` consecutive words) against the
 * reference, with patterns made to sit on its edge: spans of banks +- 1 words, unit and odd
 * strides, broadcasts, half-warp rows, misaligned and wide accesses, odd bank counts, warps of
 * 1..130 lanes (masks of several words, all-ones or not), addresses next to 2^64. */
Test(shmem, window_shortcut_matches_a_brute_force_count)
{
	static uint64_t big_addr[130];
	static uint64_t big_scratch[130 * 66]; /* shmem_scratch_words(130, 64, 1) */
	static uint64_t words[130 * 66];
	static const struct shmem_cfg cfgs[] = {
		{.banks = 32, .bank_bytes = 4}, {.banks = 17, .bank_bytes = 8}, {.banks = 1, .bank_bytes = 4},
		{.banks = 16, .bank_bytes = 1}, {.banks = 128, .bank_bytes = 64}, {.banks = 3, .bank_bytes = 2},
	};
	static const uint32_t sizes[] = {1, 2, 3, 4, 8, 12, 16, 32, 64};
	static const uint32_t lanes[] = {32, 32, 32, 1, 7, 63, 64, 65, 100, 128, 130};
	uint64_t x = 0x9e3779b97f4a7c15ull;
#define RND() (x ^= x << 13, x ^= x >> 7, x ^= x << 17, x)
	for (int t = 0; t < 20000; t++) {
		const struct shmem_cfg *c = &cfgs[RND() % SIM_ARRAY_LEN(cfgs)];
		struct warp_inst wi;
		memset(&wi, 0, sizeof wi);
		wi.n_lanes = lanes[RND() % SIM_ARRAY_LEN(lanes)];
		wi.addr = big_addr;
		wi.access_bytes = RND() % 8 == 0 ? 0 : sizes[RND() % SIM_ARRAY_LEN(sizes)];
		uint64_t ab = wi.access_bytes ? wi.access_bytes : 1;
		uint64_t span = (uint64_t)c->banks * c->bank_bytes; /* bytes of one window */
		/* (near 2^64 only with words of 2 B or more: the count's word loop cannot end at a
		 * last word of 2^64 - 1) */
		uint64_t base = RND() % 4 == 0 && c->bank_bytes > 1 ? UINT64_MAX - RND() % (2 * span + 64) : RND() % 100000;
		uint32_t kind = (uint32_t)(RND() % 5);
		int64_t stride = (int64_t)(RND() % 9) - 2;
		for (uint32_t l = 0; l < wi.n_lanes; l++) {
			uint64_t a;
			switch (kind) {
			case 0: /* stride in bank words, or a broadcast */
				a = base + (uint64_t)((int64_t)l * stride) * c->bank_bytes;
				break;
			case 1: /* rows of 16 lanes, one word per row or consecutive words */
				a = base + (l / 16) * (uint64_t)(RND() % 3 * 16) * c->bank_bytes +
				    (stride & 1 ? (l % 16) * (uint64_t)c->bank_bytes : 0);
				break;
			case 2: /* anywhere within a window, plus or minus an access */
				a = base + RND() % (span + 2 * ab) - ab;
				break;
			default: /* small ranges: conflicts and broadcasts */
				a = base + RND() % (span / 2 + 8);
				break;
			}
			big_addr[l] = RND() % 3 == 0 ? a & ~(ab - 1) : a;
		}
		/* The window's edge exactly: the last active lane at the far end or one past it. */
		if (RND() % 4 == 0)
			big_addr[wi.n_lanes - 1] = big_addr[0] + span - ab + RND() % 3 * c->bank_bytes;
		for (uint32_t w = 0; w < WI_MASK_WORDS; w++) {
			uint32_t m = (uint32_t)(RND() % 4);
			/* Two draws for a sparse mask, in two statements: RND() & RND() in one
			 * expression modifies x twice unsequenced (undefined; clang warns). */
			uint64_t r = m == 2 ? RND() : UINT64_MAX;
			wi.mask[w] = m == 0 ? UINT64_MAX : m == 1 ? RND() : m == 2 ? r & RND() : 0;
		}
		cr_assert_eq(shmem_passes(c, &wi, big_scratch), ref_passes_any(c, &wi, words),
			     "pattern %d (%u lanes, %u banks x %u B, %u B accesses)", t, wi.n_lanes, c->banks,
			     c->bank_bytes, wi.access_bytes);
	}
#undef RND
}
