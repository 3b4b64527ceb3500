/* SPDX-License-Identifier: MIT */
/* CTAs per DRAM row (row_share.h): a launch's (row, CTA) pairs are kept in a buffer, sorted and
 * made unique when it fills and at the launch's end, then folded into the sums. */
#include "row_share.h"

#include <stdlib.h>
#include <string.h>

/* A (row, CTA) pair: the row as channel, bank and row number in one word (8, 8 and 48 bits:
 * mem_addrmap has at most 64 channels and banks, and row numbers are 32 bits). */
struct rs_pair {
	uint64_t row;
	uint32_t cta;
};

struct row_share {
	struct mem_addrmap map;
	struct rs_pair *pairs;
	size_t n, cap;
	size_t n_unique;              /* pairs[0 .. n_unique) are sorted and unique */
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
	free(rs->pairs);
	free(rs);
}

/* By row, then CTA: a row's CTAs end up together, in increasing order. */
static int cmp_pair(const void *a, const void *b)
{
	const struct rs_pair *x = a, *y = b;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	return x->cta < y->cta ? -1 : x->cta > y->cta;
}

static bool same(const struct rs_pair *a, const struct rs_pair *b)
{
	return a->row == b->row && a->cta == b->cta;
}

/* Sort and deduplicate the buffer. */
static void compact(struct row_share *rs)
{
	if (rs->n_unique == rs->n)
		return;
	qsort(rs->pairs, rs->n, sizeof *rs->pairs, cmp_pair);
	size_t m = 0;
	for (size_t i = 0; i < rs->n; i++)
		if (!m || !same(&rs->pairs[m - 1], &rs->pairs[i]))
			rs->pairs[m++] = rs->pairs[i];
	rs->n = rs->n_unique = m;
}

int row_share_access(struct row_share *rs, uint32_t cta, uint64_t addr)
{
	struct mem_dram_addr a;
	mem_addr_decode(&rs->map, addr, &a);
	struct rs_pair p = {((uint64_t)a.channel << 56) | ((uint64_t)a.bank << 48) | a.row, cta};
	if (rs->n && same(&rs->pairs[rs->n - 1], &p))
		return 0; /* the same row and CTA again: the common case */
	if (rs->n == rs->cap) {
		compact(rs);
		if (rs->n * 2 >= rs->cap) { /* less than half freed: grow */
			size_t cap = rs->cap ? rs->cap * 2 : 4096;
			struct rs_pair *q = realloc(rs->pairs, cap * sizeof *q);
			if (!q)
				return -1;
			rs->pairs = q;
			rs->cap = cap;
		}
	}
	rs->pairs[rs->n++] = p;
	return 0;
}

int row_share_end_launch(struct row_share *rs)
{
	compact(rs);
	const struct rs_pair *p = rs->pairs;
	for (size_t i = 0; i < rs->n;) {
		size_t j = i;
		uint64_t ctas = 0, cons = 0;
		for (; j < rs->n && p[j].row == p[i].row; j++) {
			bool prev = j > i && p[j - 1].cta + 1 == p[j].cta;
			bool next = j + 1 < rs->n && p[j + 1].row == p[i].row && p[j + 1].cta == p[j].cta + 1;
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
