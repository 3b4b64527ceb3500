/* SPDX-License-Identifier: MIT */
/* CTAs per DRAM row (row_share.h): a launch's (row, CTA) pairs are kept as packed keys, sorted
 * and made unique when the buffer fills and at the launch's end, then folded into the sums. */
#include "row_share.h"

#include <stdlib.h>
#include <string.h>

/* A pair as one key: row (channel, bank, row number) above, CTA in the low bits, so that
 * sorting groups a row's CTAs in increasing order. */
#define RS_CTA_BITS 24u
#define RS_CTA_MASK ((UINT64_C(1) << RS_CTA_BITS) - 1)

struct row_share {
	struct mem_addrmap map;
	uint64_t *keys;
	size_t n, cap;
	size_t n_unique;              /* keys[0 .. n_unique) are sorted and unique */
	uint64_t launches, rows;
	double sum_ctas, sum_consecutive;
};

struct row_share *row_share_create(const struct mem_addrmap *map)
{
	struct row_share *rs = calloc(1, sizeof *rs);
	if (!rs)
		return NULL;
	rs->map = *map;
	return rs;
}

void row_share_destroy(struct row_share *rs)
{
	if (!rs)
		return;
	free(rs->keys);
	free(rs);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Sort and deduplicate the buffer. */
static void compact(struct row_share *rs)
{
	if (rs->n_unique == rs->n)
		return;
	qsort(rs->keys, rs->n, sizeof *rs->keys, cmp_u64);
	size_t m = 0;
	for (size_t i = 0; i < rs->n; i++)
		if (!m || rs->keys[m - 1] != rs->keys[i])
			rs->keys[m++] = rs->keys[i];
	rs->n = rs->n_unique = m;
}

int row_share_access(struct row_share *rs, uint32_t cta, uint64_t addr)
{
	struct mem_dram_addr a;
	mem_addr_decode(&rs->map, addr, &a);
	/* 8 bits of channel and 8 of bank (mem_addrmap allows at most 64 of either), 24 of row */
	if (a.row >= UINT32_C(1) << 24 || cta > RS_CTA_MASK)
		return -2;
	uint64_t row = ((uint64_t)a.channel << 32) | ((uint64_t)a.bank << 24) | a.row;
	uint64_t key = (row << RS_CTA_BITS) | cta;
	if (rs->n && rs->keys[rs->n - 1] == key)
		return 0; /* the same line or row again: the common case */
	if (rs->n == rs->cap) {
		compact(rs);
		if (rs->n * 2 >= rs->cap) { /* less than half freed: grow */
			size_t cap = rs->cap ? rs->cap * 2 : 4096;
			uint64_t *k = realloc(rs->keys, cap * sizeof *k);
			if (!k)
				return -1;
			rs->keys = k;
			rs->cap = cap;
		}
	}
	rs->keys[rs->n++] = key;
	return 0;
}

int row_share_end_launch(struct row_share *rs)
{
	compact(rs);
	for (size_t i = 0; i < rs->n;) {
		uint64_t row = rs->keys[i] >> RS_CTA_BITS;
		size_t j = i;
		uint64_t ctas = 0, cons = 0;
		for (; j < rs->n && rs->keys[j] >> RS_CTA_BITS == row; j++) {
			uint64_t c = rs->keys[j] & RS_CTA_MASK;
			bool prev = j > i && (rs->keys[j - 1] & RS_CTA_MASK) + 1 == c;
			bool next = j + 1 < rs->n && rs->keys[j + 1] >> RS_CTA_BITS == row &&
				    (rs->keys[j + 1] & RS_CTA_MASK) == c + 1;
			ctas++;
			cons += prev || next;
		}
		rs->rows++;
		rs->sum_ctas += (double)ctas;
		rs->sum_consecutive += (double)cons / (double)ctas;
		i = j;
	}
	rs->n = rs->n_unique = 0;
	rs->launches++;
	return 0;
}

void row_share_result(const struct row_share *rs, struct row_share_result *out)
{
	memset(out, 0, sizeof *out);
	out->launches = rs->launches;
	out->rows = rs->rows;
	if (rs->rows) {
		out->ctas_per_row = rs->sum_ctas / (double)rs->rows;
		out->consecutive = rs->sum_consecutive / (double)rs->rows;
	}
}
