/* SPDX-License-Identifier: MIT */
/* CTAs per DRAM row (OWL Sec 4.3, Table 4): which CTAs of each kernel launch touch each DRAM
 * row, from their memory addresses and the machine's address map, and the two figures OWL
 * tabulates. A workload property, gathered outside the timing model (warpsim rowshare), so it
 * allocates as it goes. */
#ifndef WARPSIM_ROW_SHARE_H
#define WARPSIM_ROW_SHARE_H

#include <stdint.h>

#include "addrmap.h"

/* Over every (launch, row) that some CTA touched:
 * ctas_per_row: the mean number of distinct CTAs touching the row (Table 4 "CTAs/Row");
 * consecutive: the mean fraction of those CTAs whose id is next to another's in the row's set
 * (Table 4 "Cons. CTA row sharing": a row touched by CTAs 1, 2, 3 and 7 counts 3/4; a row of
 * one CTA counts 0). */
struct row_share_result {
	uint64_t launches;
	uint64_t rows;                /* (launch, row) pairs */
	double ctas_per_row;
	double consecutive;
};

struct row_share;
/* NULL when out of memory. map is copied. */
struct row_share *row_share_create(const struct mem_addrmap *map);
void row_share_destroy(struct row_share *rs);
/* CTA cta of the current launch touched the byte at addr. -1: out of memory. */
int row_share_access(struct row_share *rs, uint32_t cta, uint64_t addr);
/* The current launch is over: its rows go into the result. -1: out of memory. */
int row_share_end_launch(struct row_share *rs);
void row_share_result(const struct row_share *rs, struct row_share_result *out);

#endif
