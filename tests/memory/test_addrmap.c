/* SPDX-License-Identifier: MIT */
/* Tests memory/addrmap.h: OWL's default layout, bit maps, XOR banks, non-power-of-two channels. */
#include <criterion/criterion.h>
#include <string.h>

#include "memory/addrmap.h"

static struct mem_addrmap owl(void)
{
	struct mem_addrmap m;
	struct sim_error err = {0};
	/* owl-28: 8 channels, 2 KB interleave, 4 banks, 2 KB rows, map "BB" + 11 C */
	cr_assert_eq(mem_addrmap_setup(&m, 8, 2048, 4, 2048, "BBCCCCCCCCCCC", false, &err), 0, "%s", err.msg);
	return m;
}

Test(addrmap, owl_default_keeps_a_2kb_run_in_one_row)
{
	struct mem_addrmap m = owl();
	struct mem_dram_addr a, b;
	mem_addr_decode(&m, 0x1000 * 8 * 3 + 64, &a);
	mem_addr_decode(&m, 0x1000 * 8 * 3 + 2047, &b);
	cr_assert_eq(a.channel, b.channel);
	cr_assert_eq(a.bank, b.bank);
	cr_assert_eq(a.row, b.row);
	cr_assert_eq(a.col, 64);
	cr_assert_eq(b.col, 2047);
}

Test(addrmap, owl_default_puts_consecutive_matrix_rows_in_different_banks)
{
	struct mem_addrmap m = owl();
	/* A 2 KB matrix row per DRAM row: rows 0..7 go to channels 0..7 (bank 0); rows 8..15
	 * come back to channels 0..7 in bank 1; every 32 consecutive matrix rows use all 8 x 4
	 * (channel, bank) pairs once. */
	int seen[8][4] = {{0}};
	for (uint64_t r = 0; r < 32; r++) {
		struct mem_dram_addr a;
		mem_addr_decode(&m, r * 2048, &a);
		cr_assert_eq(a.channel, r % 8);
		cr_assert_eq(a.bank, (r / 8) % 4);
		cr_assert_eq(a.row, 0);
		seen[a.channel][a.bank]++;
	}
	for (int c = 0; c < 8; c++)
		for (int b = 0; b < 4; b++)
			cr_assert_eq(seen[c][b], 1);
	struct mem_dram_addr a;
	mem_addr_decode(&m, 32 * 2048, &a); /* 33rd matrix row: next DRAM row of channel 0 bank 0 */
	cr_assert_eq(a.channel, 0);
	cr_assert_eq(a.bank, 0);
	cr_assert_eq(a.row, 1);
}

Test(addrmap, encode_inverts_decode)
{
	struct sim_error err = {0};
	struct mem_addrmap maps[3];
	cr_assert_eq(mem_addrmap_setup(&maps[0], 8, 2048, 4, 2048, "BBCCCCCCCCCCC", false, &err), 0);
	cr_assert_eq(mem_addrmap_setup(&maps[1], 6, 256, 16, 4096, "BBBBCCCCCCCCCCCC", true, &err), 0);
	cr_assert_eq(mem_addrmap_setup(&maps[2], 3, 512, 8, 1024, "CCRBBRBCCCCCCCC", true, &err), 0);
	for (int k = 0; k < 3; k++) {
		uint64_t x = 99;
		for (int i = 0; i < 2000; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			uint64_t addr = (x >> 20) & ((1ull << 36) - 1);
			struct mem_dram_addr a;
			mem_addr_decode(&maps[k], addr, &a);
			cr_assert_lt(a.channel, maps[k].n_channels);
			cr_assert_lt(a.bank, maps[k].banks);
			cr_assert_lt(a.col, maps[k].row_bytes);
			cr_assert_eq(mem_addr_encode(&maps[k], &a), addr, "map %d addr %llx", k,
				     (unsigned long long)addr);
			cr_assert_eq(mem_addr_channel(&maps[k], addr), a.channel);
		}
	}
}

Test(addrmap, six_channels_interleave_by_chunks)
{
	struct mem_addrmap m;
	struct sim_error err = {0};
	cr_assert_eq(mem_addrmap_setup(&m, 6, 256, 16, 4096, "BBBBCCCCCCCCCCCC", false, &err), 0);
	/* chunk k of 256 B goes to channel k mod 6; chunks 0 and 6 are adjacent in channel 0 */
	for (uint64_t k = 0; k < 12; k++)
		cr_assert_eq(mem_addr_channel(&m, k * 256 + 5), k % 6);
	struct mem_dram_addr a, b;
	mem_addr_decode(&m, 0 * 256 + 8, &a);
	mem_addr_decode(&m, 6 * 256 + 8, &b);
	cr_assert_eq(a.channel, 0);
	cr_assert_eq(b.channel, 0);
	cr_assert_eq(b.col, a.col + 256);
	cr_assert_eq(a.row, b.row);
}

Test(addrmap, xor_bank_spreads_a_row_stride)
{
	struct sim_error err = {0};
	struct mem_addrmap plain, x;
	cr_assert_eq(mem_addrmap_setup(&plain, 1, 2048, 4, 2048, "BBCCCCCCCCCCC", false, &err), 0);
	cr_assert_eq(mem_addrmap_setup(&x, 1, 2048, 4, 2048, "BBCCCCCCCCCCC", true, &err), 0);
	/* stride of 8 KB = one full bank sweep: plain stays in bank 0, XOR visits 0,1,2,3 */
	for (uint32_t i = 0; i < 4; i++) {
		struct mem_dram_addr a, b;
		mem_addr_decode(&plain, i * 8192ull, &a);
		mem_addr_decode(&x, i * 8192ull, &b);
		cr_assert_eq(a.bank, 0);
		cr_assert_eq(a.row, i);
		cr_assert_eq(b.bank, i); /* row i ^ bank 0 */
		cr_assert_eq(b.row, i);
	}
}

Test(addrmap, bad_maps_are_config_errors)
{
	struct mem_addrmap m;
	struct sim_error err = {0};
	cr_assert_eq(mem_addrmap_setup(&m, 8, 2048, 4, 2048, "BCCCCCCCCCCC", false, &err), SIM_ERR_CONFIG);
	cr_assert_str_eq(err.setting, "gpu.dram.addrmap.local_map");
	cr_assert(strstr(err.msg, "need 11 and 2"), "%s", err.msg);
	cr_assert_eq(mem_addrmap_setup(&m, 8, 2048, 4, 2048, "BBCCCCCCCCCCX", false, &err), SIM_ERR_CONFIG);
	cr_assert_eq(mem_addrmap_setup(&m, 8, 3000, 4, 2048, "BBCCCCCCCCCCC", false, &err), SIM_ERR_CONFIG);
	cr_assert_str_eq(err.setting, "gpu.dram.addrmap.chan_interleave_bytes");
	cr_assert_eq(mem_addrmap_setup(&m, 8, 2048, 3, 2048, "BBCCCCCCCCCCC", false, &err), SIM_ERR_CONFIG);
}

Test(addrmap, auto_map_puts_banks_above_columns)
{
	struct mem_addrmap a, b;
	struct sim_error err = {0};
	cr_assert_eq(mem_addrmap_setup(&a, 8, 2048, 8, 2048, "auto", false, &err), 0, "%s", err.msg);
	cr_assert_eq(mem_addrmap_setup(&b, 8, 2048, 8, 2048, "BBBCCCCCCCCCCC", false, &err), 0);
	cr_assert_eq(a.n_map_bits, 14);
	cr_assert_eq(memcmp(a.map, b.map, 14), 0);
}

/* Bit by bit, as the map reads (the reference for the run-based decode). */
static void ref_decode(const struct mem_addrmap *m, uint64_t addr, struct mem_dram_addr *out)
{
	uint64_t il = m->chan_interleave_bytes, chunk = addr / il;
	uint64_t local = (chunk / m->n_channels) * il + addr % il, col = 0, bank = 0, row = 0;
	uint32_t ci = 0, bi = 0, ri = 0;
	for (uint32_t i = 0; i < m->n_map_bits; i++) {
		uint64_t bit = (local >> i) & 1;
		if (m->map[i] == 'C')
			col |= bit << ci++;
		else if (m->map[i] == 'B')
			bank |= bit << bi++;
		else
			row |= bit << ri++;
	}
	row |= (local >> m->n_map_bits) << ri;
	if (m->xor_bank)
		bank ^= row & (m->banks - 1);
	*out = (struct mem_dram_addr){(uint32_t)(chunk % m->n_channels), (uint32_t)bank, (uint32_t)row, (uint32_t)col};
}

Test(addrmap, interleaved_maps_decode_bit_by_bit_and_encode_back)
{
	static const char *const maps[] = {"RBRCBCCRCCBRCCCCCC", "CBBRCCCCCCRRRRCCCCC", "BBBCCCCCCCCCCC"};
	uint64_t x = 0x9e3779b97f4a7c15ull;
	for (int k = 0; k < 3; k++) {
		struct mem_addrmap m;
		struct sim_error err;
		uint32_t banks = k == 1 ? 4 : 8, row = k == 0 ? 1u << 11 : 1u << (k == 1 ? 12 : 11);
		cr_assert_eq(mem_addrmap_setup(&m, 6, 256, banks, row, maps[k], k != 2, &err), 0, "%s", err.msg);
		for (int t = 0; t < 5000; t++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			uint64_t addr = x & ((1ull << 40) - 1);
			struct mem_dram_addr a, r;
			mem_addr_decode(&m, addr, &a);
			ref_decode(&m, addr, &r);
			cr_assert(a.channel == r.channel && a.bank == r.bank && a.row == r.row && a.col == r.col,
				  "map %s addr 0x%llx", maps[k], (unsigned long long)addr);
			cr_assert_eq(mem_addr_encode(&m, &a), addr);
		}
	}
}

Test(addrmap, local_address_packs_a_channels_chunks_together)
{
	/* gtx480: 6 channels, 256 B interleave. Channel 4 owns chunks 4, 10, 16, ... (bytes
	 * 1024.., 2560.., 4096..); its local addresses are 0.., 256.., 512..: dense, so an L2 slice
	 * indexed by them reaches every set. */
	struct mem_addrmap m;
	struct sim_error err = {0};
	cr_assert_eq(mem_addrmap_setup(&m, 6, 256, 16, 4096, "auto", false, &err), 0, "%s", err.msg);
	cr_assert_eq(mem_addr_local(&m, 1024), 0);
	cr_assert_eq(mem_addr_local(&m, 1024 + 200), 200);
	cr_assert_eq(mem_addr_local(&m, 2560), 256);
	cr_assert_eq(mem_addr_local(&m, 4096 + 128), 512 + 128);
	for (uint64_t a = 0; a < 1 << 20; a += 97) {
		uint32_t ch = mem_addr_channel(&m, a);
		cr_assert_eq(mem_addr_global(&m, ch, mem_addr_local(&m, a)), a);
	}
}

/* GPGPU-Sim's GTX480 (addrdec.cc, -gpgpu_n_sub_partition_per_mchannel 2, "dramid@8;...BBBCCCCB.
 * CCSSSSSS"): chip = (addr >> 8) % 6, sub-partition = chip x 2 + (bank & 1), the lowest bank bit
 * being bit 8 of the channel-local address; the slice indexes by the local address without it. */
Test(addrmap, gtx480_sub_partition_is_the_lowest_bank_bit)
{
	struct mem_addrmap m;
	struct sim_error err = {0};
	cr_assert_eq(mem_addrmap_setup(&m, 6, 256, 16, 4096, "BBBCCCCBCCCCCCCC", false, &err), 0, "%s", err.msg);
	cr_assert_eq(mem_addr_slice(&m, 0x100), 1, "sub_partitions defaults to 1: the slice is the channel");
	cr_assert_eq(mem_addrmap_set_sub_partitions(&m, 2, &err), 0, "%s", err.msg);
	/* 0x600 = 6 x 256: channel 0 again, local 0x100 (bank bit 0 set) -> slice 1 */
	cr_assert_eq(mem_addr_slice(&m, 0x0), 0);
	cr_assert_eq(mem_addr_slice(&m, 0x100), 2);    /* channel 1, local 0 */
	cr_assert_eq(mem_addr_slice(&m, 0x600), 1);
	cr_assert_eq(mem_addr_slice(&m, 0xC00), 0);    /* local 0x200 */
	cr_assert_eq(mem_addr_slice(&m, 0x700 + 0x80), 3); /* channel 1, local 0x180 */
	cr_assert_eq(mem_addr_slice(&m, 0x500), 10);   /* channel 5, local 0 */
	cr_assert_eq(mem_addr_slice(&m, 0xB00), 11);   /* channel 5, local 0x100 */
	struct mem_dram_addr d;
	mem_addr_decode(&m, 0x600, &d);
	cr_assert_eq(d.bank, 1);
	/* slice-local: local 0x1380 (bits 12, 9, 8, 7) loses bit 8 -> 0x980 */
	uint64_t a = mem_addr_global(&m, 4, 0x1380);
	cr_assert_eq(mem_addr_slice(&m, a), 9);
	cr_assert_eq(mem_addr_slice_local(&m, a), 0x980);
	cr_assert_eq(mem_addr_slice_global(&m, 9, 0x980), a);
	for (uint64_t x = 0; x < (1u << 20); x += 0x80)
		cr_assert_eq(mem_addr_slice_global(&m, mem_addr_slice(&m, x), mem_addr_slice_local(&m, x)), x);
}

Test(addrmap, sub_partitions_must_be_a_power_of_two_within_the_banks)
{
	struct mem_addrmap m;
	struct sim_error err = {0};
	cr_assert_eq(mem_addrmap_setup(&m, 6, 256, 4, 2048, "auto", false, &err), 0, "%s", err.msg);
	cr_assert_neq(mem_addrmap_set_sub_partitions(&m, 3, &err), 0);
	cr_assert_str_eq(err.setting, "gpu.l2.sub_partitions");
	cr_assert_neq(mem_addrmap_set_sub_partitions(&m, 8, &err), 0);
	cr_assert_eq(mem_addrmap_set_sub_partitions(&m, 4, &err), 0, "%s", err.msg);
	/* auto map "BB" + 11 C: bank bits are local bits 11 and 12 */
	cr_assert_eq(mem_addr_slice(&m, mem_addr_global(&m, 2, 0x1800)), 2 * 4 + 3);
	cr_assert_eq(mem_addr_slice_local(&m, mem_addr_global(&m, 2, 0x2000 + 0x1800 + 0x40)), 0x840);
}
