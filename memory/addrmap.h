/* SPDX-License-Identifier: MIT */
/* Physical address -> (channel, bank, row, column) of the DRAM, as configured under
 * gpu.dram.* and gpu.dram.addrmap.*; shared by the SM side (to pick a channel) and the MCs. */
#ifndef WARPSIM_ADDRMAP_H
#define WARPSIM_ADDRMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/config.h"
#include "../engine/sim_error.h"

#define MEM_ADDRMAP_MAX_BITS 40 /* longest local_map string */

/* Where an address lives. */
struct mem_dram_addr {
	uint32_t channel; /* 0 .. n_channels-1 */
	uint32_t bank;    /* 0 .. banks-1 within the channel */
	uint32_t row;     /* row number within the bank */
	uint32_t col;     /* byte offset within the row, 0 .. row_bytes-1 */
};

/* Two steps (why: channel counts such as gtx480's 6 are not powers of two):
 *  1. channel = (addr / chan_interleave_bytes) % n_channels; the channel-local address
 *     packs the remaining chunks contiguously:
 *     local = (addr / interleave / n_channels) * interleave + addr % interleave.
 *  2. the low bits of local are split by local_map, a string with one letter per bit,
 *     most significant first, least significant last: 'C' column, 'B' bank, 'R' row.
 *     Bits above the string are row bits. It must hold log2(row_bytes) C's and
 *     log2(banks) B's; "auto" means log2(banks) B's then the C's (banks right above the
 *     columns), so changing gpu.dram.banks alone keeps a valid map. With xor_bank, bank ^= row mod banks (permutation-based
 *     interleaving, spreads row conflicts of power-of-two strides over banks).
 * The owl-28 default (interleave 2048 B = one row, map auto = "BB" + 11 C's) keeps each 2 KB
 * run of addresses in one DRAM row and puts the next run in another channel, and the
 * channel's next local row in the next bank: consecutive rows of a matrix fall in
 * different banks, as OWL Sec 2.1 / Fig 1 (C) lays data out. */
struct mem_addrmap {
	uint32_t n_channels;
	uint32_t chan_interleave_bytes; /* power of two */
	uint32_t banks;                 /* per channel, power of two */
	uint32_t row_bytes;             /* power of two */
	bool xor_bank;
	uint32_t n_map_bits;            /* length of the local map */
	uint8_t map[MEM_ADDRMAP_MAX_BITS]; /* map[i] = field of local bit i (LSB first): 'C','B','R' */
	/* The map as runs of consecutive bits of one field (encode/decode move a run at once). */
	uint32_t n_runs, row_bits_in_map;
	/* L2 sub-partitions (gpu.l2.sub_partitions): slices per channel, a power of two; the
	 * local-address bits of the lowest log2 of them bank bits, lowest first. */
	uint32_t sub_partitions, n_sub_bits;
	uint8_t sub_bit[MEM_ADDRMAP_MAX_BITS];
	struct mem_addrmap_run {
		uint8_t field;          /* 0 column, 1 bank, 2 row */
		uint8_t src_lo, dst_lo, width; /* bits [src_lo, +width) of the field at local bit dst_lo */
	} runs[MEM_ADDRMAP_MAX_BITS];
};

/* Fill m from the values given (tests, tools). Fails with SIM_ERR_CONFIG if a size is
 * not a power of two or the map does not fit the sizes; err->setting names local_map. */
int mem_addrmap_setup(struct mem_addrmap *m, uint32_t n_channels, uint32_t chan_interleave_bytes,
		      uint32_t banks, uint32_t row_bytes, const char *local_map, bool xor_bank,
		      struct sim_error *err);
/* Split each channel's L2 into n (a power of two, at most banks) sub-partitions, each its own
 * slice and NoC node, as GPGPU-Sim's -gpgpu_n_sub_partition_per_mchannel (addrdec.cc): a line's
 * sub-partition is the lowest log2(n) bits of its bank number as the map reads them (before
 * xor_bank), and the slice indexes its sets by the local address without those bits (its
 * partition_address). mem_addrmap_setup sets 1. Fails with SIM_ERR_CONFIG naming
 * gpu.l2.sub_partitions. */
int mem_addrmap_set_sub_partitions(struct mem_addrmap *m, uint32_t n, struct sim_error *err);
/* Fill m from gpu.dram.channels, gpu.dram.banks, gpu.dram.row_bytes,
 * gpu.dram.addrmap.{chan_interleave_bytes,local_map,xor_bank} and gpu.l2.sub_partitions; errors
 * name the setting. */
int mem_addrmap_init(struct mem_addrmap *m, const struct cfg *cfg, struct sim_error *err);

void mem_addr_decode(const struct mem_addrmap *m, uint64_t addr, struct mem_dram_addr *out);
/* The inverse: the address of byte col of (channel, bank, row). */
uint64_t mem_addr_encode(const struct mem_addrmap *m, const struct mem_dram_addr *a);
uint32_t mem_addr_channel(const struct mem_addrmap *m, uint64_t addr);
/* Step 1 alone: the channel-local address of addr (its chunks of the channel packed together),
 * and back from (channel, local). A channel's L2 slice indexes its sets by the local address:
 * every address reaching one slice has the same channel digits, so indexing by the global
 * address would leave all sets but those digits' unused (GPGPU-Sim indexes by the partition
 * address for the same reason). */
uint64_t mem_addr_local(const struct mem_addrmap *m, uint64_t addr);
uint64_t mem_addr_global(const struct mem_addrmap *m, uint32_t channel, uint64_t local);
/* The L2 slice of addr: channel x sub_partitions + its sub-partition (= the channel when
 * sub_partitions is 1); the address the slice indexes by (the local address without the
 * sub-partition bits), and back from (slice, slice-local). */
uint32_t mem_addr_slice(const struct mem_addrmap *m, uint64_t addr);
uint64_t mem_addr_slice_local(const struct mem_addrmap *m, uint64_t addr);
uint64_t mem_addr_slice_global(const struct mem_addrmap *m, uint32_t slice, uint64_t slice_local);

#endif
