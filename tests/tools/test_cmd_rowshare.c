/* SPDX-License-Identifier: MIT */
/* Tests for `warpsim rowshare` (tools/cmd_rowshare.c): a workload whose figures follow by hand
 * from its layout and the machine's address map. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* vecadd small on owl-28: 16 CTAs of 256 threads, 4-byte elements, so a CTA's part of each
 * array is 1 KB and a 2 KB row (owl-28: rows of 2 KB, channels interleaved every 2 KB) holds CTAs
 * 2k and 2k + 1. The arrays (16,000 bytes) start on 4 KB pages, so no row holds two arrays:
 * 8 rows each, 24 in all, 2 CTAs per row, every CTA next to the other. 4000 threads load a and b
 * and store c: 12,000 lane accesses. */
Test(cmd_rowshare, vecadd_rows_hold_two_consecutive_ctas, .timeout = 60)
{
	const char *bin = getenv("WARPSIM_BIN");
	cr_assert_not_null(bin);
	char cmd[1024], out[1024] = "";
	snprintf(cmd, sizeof cmd, "%s rowshare -c configs/owl-28.cfg -w workloads/vecadd/vecadd.cfg --size small --json",
		 bin);
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p);
	size_t n = fread(out, 1, sizeof out - 1, p);
	out[n] = '\0';
	cr_assert_eq(pclose(p), 0, "%s", out);
	cr_expect(strstr(out, "\"launches\": 1,") != NULL, "%s", out);
	cr_expect(strstr(out, "\"accesses\": 12000,") != NULL, "%s", out);
	cr_expect(strstr(out, "\"rows\": 24,") != NULL, "%s", out);
	cr_expect(strstr(out, "\"ctas_per_row\": 2.0000,") != NULL, "%s", out);
	cr_expect(strstr(out, "\"consecutive_cta_row_sharing\": 1.0000}") != NULL, "%s", out);
}
