/* SPDX-License-Identifier: MIT */
/* Tests memory/cache.h: set-associative lookup/fill, LRU vs FIFO victims, write policies, sectors. */
#include <criterion/criterion.h>

#include "memory/cache.h"

/* 4 sets x 2 ways x 64 B lines = 512 B. Set = (addr / 64) % 4, so addresses 0, 256, 512,
 * 768 (line numbers 0, 4, 8, 12) all fall in set 0. */
static struct cache_cfg small(enum cache_repl repl, enum cache_write_policy wp)
{
	struct cache_cfg c = {.size_bytes = 512, .assoc = 2, .line_bytes = 64, .repl = repl,
			      .write_policy = wp, .hit_latency_cycles = 3};
	return c;
}

Test(cache, geometry_from_config)
{
	struct cache c;
	struct cache_cfg cfg = {.size_bytes = 32 * 1024, .assoc = 8, .line_bytes = 64};
	cr_assert_eq(cache_init(&c, &cfg, NULL), 0);
	cr_expect_eq(c.n_sets, 64); /* 32768 / (8 * 64) */
	cache_fini(&c);
}

Test(cache, bad_geometry_is_a_config_error)
{
	struct cache c;
	struct sim_error err = {0};
	struct cache_cfg cfg = {.size_bytes = 3000, .assoc = 8, .line_bytes = 64};
	cr_expect_eq(cache_init(&c, &cfg, &err), SIM_ERR_CONFIG);
	cr_expect_str_eq(err.setting, "size_bytes");
	cache_fini(&c);
}

Test(cache, miss_then_fill_then_hit)
{
	struct cache c;
	struct cache_cfg cfg = small(CACHE_REPL_LRU, CACHE_WRITE_BACK);
	cache_init(&c, &cfg, NULL);
	cr_expect_not(cache_lookup(&c, 0x1234, false, 0).hit);
	cache_fill(&c, 0x1234, 0, false, false, NULL);
	cr_expect(cache_lookup(&c, 0x1200, false, 0).hit); /* same 64 B line 0x1200..0x123f */
	cr_expect_not(cache_probe(&c, 0x1240, 0));
	cr_expect_eq(c.hits, 1);
	cr_expect_eq(c.misses, 1);
	cache_fini(&c);
}

Test(cache, lru_evicts_least_recently_used_way)
{
	struct cache c;
	struct cache_cfg cfg = small(CACHE_REPL_LRU, CACHE_WRITE_BACK);
	cache_init(&c, &cfg, NULL);
	struct cache_victim v;
	cache_fill(&c, 0, 0, false, false, &v);
	cr_expect_not(v.valid);
	cache_fill(&c, 256, 0, false, false, &v); /* set 0 now {0, 256} */
	cr_expect_not(v.valid);
	cache_lookup(&c, 0, false, 0);            /* 0 used after 256: 256 is LRU */
	cache_fill(&c, 512, 0, false, false, &v);
	cr_expect(v.valid);
	cr_expect_eq(v.addr, 256);
	cr_expect(cache_probe(&c, 0, 0));
	cr_expect(cache_probe(&c, 512, 0));
	cache_fini(&c);
}

Test(cache, fifo_evicts_first_filled_despite_reuse)
{
	struct cache c;
	struct cache_cfg cfg = small(CACHE_REPL_FIFO, CACHE_WRITE_BACK);
	cache_init(&c, &cfg, NULL);
	struct cache_victim v;
	cache_fill(&c, 0, 0, false, false, &v);
	cache_fill(&c, 256, 0, false, false, &v);
	cache_lookup(&c, 0, false, 0);            /* the reuse LRU would honour */
	cache_fill(&c, 512, 0, false, false, &v);
	cr_expect(v.valid);
	cr_expect_eq(v.addr, 0);                  /* FIFO: 0 was filled first */
	cache_fini(&c);
}

Test(cache, write_back_marks_dirty_and_victim_is_written_back)
{
	struct cache c;
	struct cache_cfg cfg = small(CACHE_REPL_LRU, CACHE_WRITE_BACK);
	cache_init(&c, &cfg, NULL);
	struct cache_victim v;
	cache_fill(&c, 0, 0, false, false, &v);
	cr_expect(cache_lookup(&c, 8, true, 0).hit); /* write hit: line 0 dirty */
	cache_fill(&c, 256, 0, false, false, &v);
	cache_lookup(&c, 256, false, 0);             /* line 0 is now LRU */
	cache_fill(&c, 512, 0, false, false, &v);
	cr_expect(v.valid && v.dirty);
	cr_expect_eq(v.addr, 0);
	cr_expect_eq(c.dirty_evictions, 1);
	cr_expect(cache_write_allocates(&c));
	cache_fini(&c);
}

Test(cache, write_evict_invalidates_on_write_hit)
{
	struct cache c;
	struct cache_cfg cfg = small(CACHE_REPL_LRU, CACHE_WRITE_EVICT);
	cache_init(&c, &cfg, NULL);
	cache_fill(&c, 64, 0, false, false, NULL);
	cr_expect(cache_lookup(&c, 64, true, 0).hit);
	cr_expect_not(cache_probe(&c, 64, 0));
	cr_expect_eq(c.invalidations, 1);
	cr_expect_not(cache_write_allocates(&c));
	cache_fini(&c);
}

Test(cache, write_through_keeps_line_clean)
{
	struct cache c;
	struct cache_cfg cfg = small(CACHE_REPL_LRU, CACHE_WRITE_THROUGH);
	cache_init(&c, &cfg, NULL);
	struct cache_victim v;
	cache_fill(&c, 0, 0, false, false, NULL);
	cr_expect(cache_lookup(&c, 0, true, 0).hit);
	cr_expect(cache_probe(&c, 0, 0));
	cache_fill(&c, 256, 0, false, false, NULL);
	cache_fill(&c, 512, 0, false, false, &v); /* evicts line 0 (LRU), clean */
	cr_expect(v.valid);
	cr_expect_eq(v.addr, 0);
	cr_expect_not(v.dirty);
	cache_fini(&c);
}

Test(cache, sectors_miss_until_filled)
{
	/* 128 B line, 32 B sectors: 4 sectors. Bytes 32..63 are sector 1 (mask 0x2). */
	struct cache c;
	struct cache_cfg cfg = {.size_bytes = 1024, .assoc = 2, .line_bytes = 128, .sector_bytes = 32};
	cache_init(&c, &cfg, NULL);
	cr_expect_eq(cache_sector_mask(&c, 40, 4), 0x2);
	cr_expect_eq(cache_sector_mask(&c, 0, 0), 0xf);
	cache_fill(&c, 0, 0x2, false, false, NULL);
	cr_expect(cache_lookup(&c, 40, false, 0x2).hit);
	struct cache_outcome o = cache_lookup(&c, 0, false, 0x1);
	cr_expect_not(o.hit);
	cr_expect(o.line_present);
	cr_expect_eq(c.sector_misses, 1);
	cache_fill(&c, 0, 0x1, false, false, NULL);
	cr_expect(cache_probe(&c, 0, 0x3));
	cr_expect_eq(c.evictions, 0);
	cache_fini(&c);
}

Test(cache, user_bit_reported_and_cleared)
{
	struct cache c;
	struct cache_cfg cfg = small(CACHE_REPL_LRU, CACHE_WRITE_BACK);
	cache_init(&c, &cfg, NULL);
	cache_fill(&c, 128, 0, false, true, NULL); /* e.g. a prefetched line */
	struct cache_outcome o = cache_lookup(&c, 128, false, 0);
	cr_expect(o.hit && o.user);
	cr_expect(cache_set_user(&c, 128, false));
	cr_expect_not(cache_lookup(&c, 128, false, 0).user);
	cache_fini(&c);
}

Test(cache, policy_names_parse)
{
	cr_expect_eq(cache_repl_parse("fifo"), CACHE_REPL_FIFO);
	cr_expect_eq(cache_write_policy_parse("write-evict"), CACHE_WRITE_EVICT);
	cr_expect_eq(cache_write_policy_parse("nope"), -1);
}

Test(cache, line_zero_is_absent_until_filled_and_after_invalidation)
{
	/* Invalid ways hold no address (CACHE_NO_LINE): line 0 must not match a fresh, an
	 * invalidated or a write-evicted way. */
	struct cache c;
	struct cache_cfg cfg = small(CACHE_REPL_LRU, CACHE_WRITE_EVICT);
	cache_init(&c, &cfg, NULL);
	cr_expect_not(cache_probe(&c, 0, 0));
	cr_expect_not(cache_lookup(&c, 0, false, 0).line_present);
	cache_fill(&c, 0, 0, false, false, NULL);
	cr_expect(cache_probe(&c, 0, 0));
	cr_expect(cache_invalidate(&c, 0));
	cr_expect_not(cache_probe(&c, 0, 0));
	cr_expect_not(cache_invalidate(&c, 0));
	cache_fill(&c, 0, 0, false, false, NULL);
	cr_expect(cache_lookup(&c, 0, true, 0).hit); /* write-evict: the hit drops the line */
	cr_expect_not(cache_probe(&c, 0, 0));
	cr_expect_not(cache_mark_dirty(&c, 0));
	/* the freed way is reused without an eviction */
	struct cache_victim v;
	cache_fill(&c, 256, 0, false, false, &v);
	cache_fill(&c, 512, 0, false, false, &v);
	cr_expect_not(v.valid);
	cache_fini(&c);
}

/* The lookup's bucket filter (struct cache: present) against the tag array itself: after random
 * fills, reads, writes under each policy and invalidations, every bucket counts exactly the
 * valid lines hashing to it, and a probe answers what a scan of every way answers. Addresses
 * mix low lines (filter buckets taken by neighbours) with high bits (the hash's fold). */
/* xorshift64: a function, so two draws in one expression are sequenced calls. */
static uint64_t xorshift(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

Test(cache, bucket_filter_matches_the_tag_array)
{
	static const struct cache_cfg cfgs[] = {
		{.size_bytes = 512, .assoc = 2, .line_bytes = 64, .repl = CACHE_REPL_LRU, .write_policy = CACHE_WRITE_BACK},
		{.size_bytes = 1024, .assoc = 4, .line_bytes = 32, .sector_bytes = 8, .repl = CACHE_REPL_FIFO,
		 .write_policy = CACHE_WRITE_EVICT},
		{.size_bytes = 256, .assoc = 1, .line_bytes = 16, .repl = CACHE_REPL_LRU, .write_policy = CACHE_WRITE_THROUGH},
		{.size_bytes = 4096, .assoc = 8, .line_bytes = 128, .repl = CACHE_REPL_LRU, .write_policy = CACHE_WRITE_BACK},
	};
	uint64_t x = 12345;
	for (size_t k = 0; k < SIM_ARRAY_LEN(cfgs); k++) {
		struct cache c;
		cr_assert_eq(cache_init(&c, &cfgs[k], NULL), 0);
		uint32_t n_lines = c.n_sets * c.cfg.assoc;
		for (int op = 0; op < 20000; op++) {
			uint64_t addr = (xorshift(&x) % (4 * n_lines)) * c.cfg.line_bytes + xorshift(&x) % c.cfg.line_bytes;
			if (xorshift(&x) % 4 == 0)
				addr += (xorshift(&x) % 8) << (20 + xorshift(&x) % 40);
			uint32_t sec = xorshift(&x) % 3 == 0 ? 0 : 1u << (xorshift(&x) % c.n_sectors);
			switch (xorshift(&x) % 5) {
			case 0:
			case 1:
				cache_fill(&c, addr, sec, xorshift(&x) % 2, false, NULL);
				break;
			case 2:
				cache_lookup(&c, addr, xorshift(&x) % 2, sec);
				break;
			case 3:
				cache_invalidate(&c, addr);
				break;
			default:
				break;
			}
			bool want = false;
			uint32_t all = sec ? sec : (c.n_sectors >= 32 ? UINT32_MAX : (1u << c.n_sectors) - 1);
			for (uint32_t i = 0; i < n_lines; i++)
				want |= c.lines[i].line_addr == addr >> c.set_shift && (c.lines[i].sectors & all) == all;
			cr_assert_eq(cache_probe(&c, addr, sec), want, "config %zu op %d", k, op);
		}
		for (uint32_t b = 0; b <= c.bucket_mask; b++) {
			uint32_t n = 0;
			for (uint32_t i = 0; i < n_lines; i++)
				n += c.lines[i].line_addr != CACHE_NO_LINE && cache_bucket_(&c, c.lines[i].line_addr) == b;
			cr_assert_eq(c.present[b], n, "config %zu bucket %u", k, b);
		}
		cache_fini(&c);
	}
}

/* 64 sets x 4 ways x 128 B. 64 lines 64 lines apart (a column walk over rows of 8 KB): a
 * linear index puts all of them in set 0, which keeps 4; the XOR index takes set = (la ^ la/64
 * ^ la/4096) % 64 = k for line la = 64k (k < 64), one line per set, so all 64 stay. */
static uint32_t strided_lines_kept(enum cache_index ix)
{
	struct cache c;
	struct cache_cfg cfg = {.size_bytes = 64 * 4 * 128, .assoc = 4, .line_bytes = 128, .index = ix};
	cr_assert_eq(cache_init(&c, &cfg, NULL), 0);
	for (uint64_t k = 0; k < 64; k++)
		cache_fill(&c, k * 64 * 128, 0, false, false, NULL);
	uint32_t kept = 0;
	for (uint64_t k = 0; k < 64; k++)
		kept += cache_probe(&c, k * 64 * 128, 0);
	cache_fini(&c);
	return kept;
}

Test(cache, xor_index_spreads_a_power_of_two_stride_over_the_sets)
{
	cr_assert_eq(strided_lines_kept(CACHE_INDEX_LINEAR), 4);
	cr_assert_eq(strided_lines_kept(CACHE_INDEX_XOR), 64);
}

Test(cache, xor_index_keeps_consecutive_lines_in_distinct_sets)
{
	/* Within one aligned 64-line block the upper fields are equal, so the XOR permutes the
	 * sets: 256 consecutive lines from a block boundary (four blocks, exactly the capacity)
	 * put 4 lines in every set and all fit, as with the linear index. */
	struct cache c;
	struct cache_cfg cfg = {.size_bytes = 64 * 4 * 128, .assoc = 4, .line_bytes = 128,
				.index = CACHE_INDEX_XOR};
	cr_assert_eq(cache_init(&c, &cfg, NULL), 0);
	for (uint64_t k = 0; k < 256; k++)
		cache_fill(&c, (1024 + k) * 128, 0, false, false, NULL);
	for (uint64_t k = 0; k < 256; k++)
		cr_assert(cache_probe(&c, (1024 + k) * 128, 0), "line %lu", (unsigned long)k);
	cr_assert_eq(c.evictions, 0);
	cache_fini(&c);
}

/* GPGPU-Sim's 'H' index on its GTX480 L1D geometry, 32 sets x 4 ways x 128 B: set = byte
 * address bits 7-11 XOR (bits 13,14,15 -> 0,1,2; bit 17 -> 3; bit 19 -> 4). Each value below is
 * worked from that rule; bits 12, 16 and 18 do not enter with 32 sets. */
Test(cache, fermi_hash_index_matches_gpgpusim_by_hand)
{
	struct cache c;
	struct cache_cfg cfg = {.size_bytes = 32 * 4 * 128, .assoc = 4, .line_bytes = 128,
				.index = CACHE_INDEX_FERMI_HASH};
	cr_assert_eq(cache_init(&c, &cfg, NULL), 0);
	const struct { uint64_t addr; uint32_t set; } want[] = {
		{0x0, 0},      {0x80, 1},      {0xf80, 31},    /* low bits 7-11 alone: linear */
		{0x2000, 1},   {0x2080, 0},    {0xe000, 7},    /* bits 13-15 -> set bits 0-2 */
		{0x20000, 8},  {0x80000, 16},  {0xa0f80, 7},   /* 17 -> 3, 19 -> 4; 31 ^ 24 = 7 */
		{0x1000, 0},   {0x10000, 0},   {0x40000, 0},   /* bits 12, 16, 18 ignored */
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		cr_expect_eq(cache_set_(&c, want[i].addr >> 7), want[i].set, "addr %#llx: set %u, want %u",
			     (unsigned long long)want[i].addr, cache_set_(&c, want[i].addr >> 7), want[i].set);
	cache_fini(&c);
	/* 64 sets (48 KB): bit 12 becomes set bit 5. */
	cfg.size_bytes = 64 * 4 * 128;
	cr_assert_eq(cache_init(&c, &cfg, NULL), 0);
	cr_expect_eq(cache_set_(&c, 0x1000 >> 7), 32);
	cr_expect_eq(cache_set_(&c, 0x3080 >> 7), 32); /* 1 ^ 1 = 0, plus bit 12 */
	cache_fini(&c);
}

/* bicg's column walk: 32 rows 4 KB apart. Linear: every line in set 0, 4 kept. Fermi hash:
 * row k goes to set ((k >> 1) & 7) | ((k >> 5) & 1) << 3 = (k >> 1) & 7 for k < 32, 4 rows a
 * set over 8 sets, so all 32 stay. */
Test(cache, fermi_hash_spreads_a_4kb_stride)
{
	for (int ix = 0; ix < 2; ix++) {
		struct cache c;
		struct cache_cfg cfg = {.size_bytes = 32 * 4 * 128, .assoc = 4, .line_bytes = 128,
					.index = ix ? CACHE_INDEX_FERMI_HASH : CACHE_INDEX_LINEAR};
		cr_assert_eq(cache_init(&c, &cfg, NULL), 0);
		for (uint64_t k = 0; k < 32; k++)
			cache_fill(&c, k * 4096, 0, false, false, NULL);
		uint32_t kept = 0;
		for (uint64_t k = 0; k < 32; k++)
			kept += cache_probe(&c, k * 4096, 0);
		cr_expect_eq(kept, ix ? 32 : 4, "index %d kept %u", ix, kept);
		cache_fini(&c);
	}
}

Test(cache, fermi_hash_needs_32_or_64_sets)
{
	struct cache c;
	struct sim_error err = {0};
	struct cache_cfg cfg = {.size_bytes = 16 * 4 * 128, .assoc = 4, .line_bytes = 128,
				.index = CACHE_INDEX_FERMI_HASH};
	cr_expect_eq(cache_init(&c, &cfg, &err), SIM_ERR_CONFIG);
	cr_expect_str_eq(err.setting, "set_index");
	cache_fini(&c);
}

Test(cache, index_names_parse)
{
	cr_assert_eq(cache_index_parse("linear"), CACHE_INDEX_LINEAR);
	cr_assert_eq(cache_index_parse("xor"), CACHE_INDEX_XOR);
	cr_assert_eq(cache_index_parse("fermi-hash"), CACHE_INDEX_FERMI_HASH);
	cr_assert_eq(cache_index_parse("hash"), -1);
}

/* Allocate on miss (cache_reserve): in a 2-way set, A and B reserved leave no way for C
 * (GPGPU-Sim's LINE_ALLOC_FAIL); a reserved line misses reads and writes and is no fill's
 * victim; its fill clears the reservation; C then takes the LRU non-reserved way at once. */
Test(cache, reserved_ways_miss_and_are_never_victims)
{
	struct cache c;
	struct cache_cfg cfg = small(CACHE_REPL_LRU, CACHE_WRITE_THROUGH);
	cfg.size_bytes = 2 * 64; /* one set of 2 ways */
	cr_assert_eq(cache_init(&c, &cfg, NULL), 0);
	const uint64_t A = 0x000, B = 0x040, C = 0x080, D = 0x0C0;
	struct cache_victim v;
	cr_assert(cache_can_reserve(&c, A));
	cache_reserve(&c, A, &v);
	cr_assert_not(v.valid);
	cr_assert_not(cache_can_reserve(&c, A)); /* already reserved */
	cache_reserve(&c, B, &v);
	cr_assert_not(cache_can_reserve(&c, C));
	cr_assert_not(cache_probe(&c, A, 0));
	cr_assert_not(cache_lookup(&c, A, false, 0).hit);
	cr_assert_not(cache_lookup(&c, A, true, 0).hit); /* a write to it changes nothing */
	cr_assert_not(cache_probe(&c, A, 0));
	cr_assert_eq(c.sector_misses, 0);
	cache_fill(&c, A, 0, false, false, &v); /* A's data arrives */
	cr_assert_not(v.valid);
	cr_assert(cache_probe(&c, A, 0));
	cr_assert(cache_can_reserve(&c, C));
	cache_reserve(&c, C, &v); /* B reserved: A, the only non-reserved way, goes now */
	cr_assert(v.valid);
	cr_assert_eq(v.addr, A);
	cr_assert_not(cache_probe(&c, A, 0));
	cr_assert_not(cache_can_reserve(&c, D));
	cache_fill(&c, B, 0, false, false, NULL);
	cache_fill(&c, C, 0, false, false, NULL);
	cr_assert(cache_probe(&c, B, 0));
	cr_assert(cache_probe(&c, C, 0));
	cr_assert_eq(c.evictions, 1);
	cache_fini(&c);
}
