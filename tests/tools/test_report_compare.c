/* SPDX-License-Identifier: MIT */
/* tools/report_compare.c: each paper's comparisons on a hand-made PAWS table: geomeans over all
 * workloads, over those PAWS's rule selects and over its Type A / B (GTO / RR the faster), a
 * comparison whose variant the sweep lacks left out, and which list a sweep's name takes. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tools/csv_fixture.h"
#include "tools/report_compare.h"

/* 16 cores (core cycles over cycles), 32 CTAs a launch everywhere. a: GTO 10% over LRR (Type A),
 * PAWS 1.05. b: GTO 4% over LRR (Type A), PAWS 1.04. c: LRR 10% over GTO (Type B), PAWS 105 of
 * LRR's 110. e: GTO 0.5% over LRR, not selected (<= 1%), PAWS 1.20. No TL variants. */
static const char table[] =
	"config,workload,variant,gpu.ipc,gpu.grid_ctas,gpu.kernels,gpu.core_cycles,gpu.cycles\n"
	"m,a,lrr,100,32,1,16000,1000\n"
	"m,a,gto,110,32,1,16000,1000\n"
	"m,a,paws,105,32,1,16000,1000\n"
	"m,b,lrr,100,32,1,16000,1000\n"
	"m,b,gto,104,32,1,16000,1000\n"
	"m,b,paws,104,32,1,16000,1000\n"
	"m,c,lrr,110,32,1,16000,1000\n"
	"m,c,gto,100,32,1,16000,1000\n"
	"m,c,paws,105,32,1,16000,1000\n"
	"m,e,lrr,100,32,1,16000,1000\n"
	"m,e,gto,100.5,32,1,16000,1000\n"
	"m,e,paws,120,32,1,16000,1000\n";

static const char *const wl[] = {"a", "b", "c", "e"};

static const struct rep_cmp *find(const struct rep_cmp *list, int n, const char *num, const char *den,
				  enum rep_cmp_set set)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(list[i].num, num) && !strcmp(list[i].den, den) && list[i].set == set)
			return &list[i];
	cr_assert_fail("no comparison %s / %s", num, den);
	return NULL;
}

Test(report_compare, paws_types_and_the_selected_set_by_hand)
{
	char path[] = "/tmp/ws_cmp_XXXXXX";
	struct csv_table *t = csv_fixture_load(path, table);
	int n, used;
	const struct rep_cmp *list = rep_compare_list("paws", &n);
	cr_assert(list && n == 11);
	/* PAWS over RR on the selected a, b, c: cbrt(1.05 * 1.04 * 105/110) */
	double g = rep_compare_geomean(t, "m", wl, 4, REP_RULE_PAWS, find(list, n, "paws", "lrr", REP_CMP_SELECTED), &used);
	cr_expect_eq(used, 3);
	cr_expect(fabs(g - 1.0139263681) < 1e-9, "%.10f", g);
	/* Type A GTO over RR: a and b, sqrt(1.10 * 1.04); PAWS over RR there sqrt(1.05 * 1.04) */
	g = rep_compare_geomean(t, "m", wl, 4, REP_RULE_PAWS, find(list, n, "gto", "lrr", REP_CMP_TYPE_A), &used);
	cr_expect(used == 2 && fabs(g - 1.0695793566) < 1e-9, "%d %.10f", used, g);
	g = rep_compare_geomean(t, "m", wl, 4, REP_RULE_PAWS, find(list, n, "paws", "lrr", REP_CMP_TYPE_A), &used);
	cr_expect(used == 2 && fabs(g - 1.0449880382) < 1e-9, "%d %.10f", used, g);
	/* Type B RR over GTO: c alone, 110 / 100 */
	g = rep_compare_geomean(t, "m", wl, 4, REP_RULE_PAWS, find(list, n, "lrr", "gto", REP_CMP_TYPE_B), &used);
	cr_expect(used == 1 && fabs(g - 1.1) < 1e-12, "%d %.10f", used, g);
	/* no TL variants: nothing to average */
	g = rep_compare_geomean(t, "m", wl, 4, REP_RULE_PAWS, find(list, n, "tl-gto", "tl-rr", REP_CMP_TYPE_A), &used);
	cr_expect(used == 0 && isnan(g));

	char *md = NULL, *out = NULL;
	size_t md_len = 0, out_len = 0;
	FILE *fm = open_memstream(&md, &md_len), *fo = open_memstream(&out, &out_len);
	int written = rep_compare_section(fm, fo, t, "m", wl, 4, "paws", REP_RULE_PAWS);
	fclose(fm);
	fclose(fo);
	/* 6 of the 11 read only lrr, gto and paws; the 5 with a TL variant are left out */
	cr_expect_eq(written, 6);
	cr_expect(strstr(out, "paws on m: paws's rule selects a b c (3 of 4)"), "%s", out);
	/* GTO over RR over all 4: (1.1 * 1.04 * 100/110 * 1.005)^(1/4) = 1.0111 */
	cr_expect(strstr(out, "Type A, single level: GTO over RR (gto / lrr): published +10%; here +1.1% over all 4, "
			      "+7.0% over Type A (2)"), "%s", out);
	cr_expect(strstr(md, "| Type B, single level: RR over GTO | lrr / gto | +9.2% | -1.1% (4) | +10.0% (Type B: 1) |"),
		  "%s", md);
	cr_expect(!strstr(md, "tl-rr"), "%s", md);
	free(md);
	free(out);
	csv_fixture_unload(t, path);
}

Test(report_compare, a_side_study_takes_its_papers_list)
{
	int n, n_paws;
	const struct rep_cmp *paws = rep_compare_list("paws", &n_paws);
	cr_expect_eq(rep_compare_list("paws-fwt-kernel", &n), paws);
	cr_expect_eq(n, n_paws);
	const struct rep_cmp *bf = rep_compare_list("baws-fetch", &n);
	cr_expect(bf && bf != rep_compare_list("baws", &n_paws) && !strcmp(bf[1].num, "mwf-rr"));
	/* the longest paper name that prefixes the sweep wins: baws-fetch-x is baws-fetch's side study, not baws's */
	int n_bf;
	rep_compare_list("baws-fetch", &n_bf);
	cr_expect_eq(rep_compare_list("baws-fetch-x", &n), bf);
	cr_expect_eq(n, n_bf);
	cr_expect_neq(rep_compare_list("baws-x", &n), bf);
	cr_expect_null(rep_compare_list("twolevelx", &n));
	cr_expect_eq(n, 0);
	cr_expect_null(rep_compare_list("ba-ws", &n));
	cr_expect(rep_compare_list("lwm", &n) && n == 3);
}
