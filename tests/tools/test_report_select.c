/* SPDX-License-Identifier: MIT */
/* tools/report_select.c: the papers' selection rules (OWL Type-1 PMEM >= 1.4x, PRO 3% between
 * the best and worst of TL/LRR/GTO, BAWS barrier waits > 15%, PAWS RR and GTO differ by more
 * than 1% with a grid that fills the cores) on a hand-made results table, and the headline over
 * the selected workloads. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/tools/csv_fixture.h"
#include "tools/report_select.h"

/* a: PMEM 1.5x, TL/LRR/GTO 1.00/1.00/1.05 (5%), RTRU 0.20, GTO 5% over LRR, 64 CTAs in 2
 * launches on 16 cores (32 per launch). b: PMEM 1.39x, 2.9% spread, RTRU 0.15 (not above),
 * GTO 1% over LRR (not above), 30 CTAs in 2 launches (15 per launch < 16 cores), a record from
 * before gpu.grid_ctas (empty: the completed CTAs count). d: one launch cut by a budget before
 * any of its 48 CTAs completed (gpu.ctas 0), GTO 10% over LRR. */
static const char table[] =
	"config,workload,variant,gpu.ipc,gpu.rtru,gpu.ctas,gpu.grid_ctas,gpu.kernels,gpu.core_cycles,gpu.cycles\n"
	"m,a,lrr,100,0.20,64,64,2,16000,1000\n"
	"m,a,gto,105,0.10,64,64,2,15232,952\n"
	"m,a,tl,100,0.20,64,64,2,16000,1000\n"
	"m,a,pmem,150,0.20,64,64,2,10672,667\n"
	"m,b,lrr,100,0.15,30,,2,16000,1000\n"
	"m,b,gto,101,0.15,30,,2,16000,990\n"
	"m,b,tl,102.9,0.15,30,,2,16000,972\n"
	"m,b,pmem,139,0.15,30,,2,16000,720\n"
	"m,d,lrr,100,0.20,0,48,1,16000,1000\n"
	"m,d,gto,110,0.20,0,48,1,16000,1000\n";

Test(report_select, each_rule_on_its_threshold)
{
	char path[] = "/tmp/ws_sel_XXXXXX";
	struct csv_table *t = csv_fixture_load(path, table);
	struct rep_verdict v;
	rep_select_judge(t, "m", "a", REP_RULE_OWL, &v);
	cr_expect(v.known && v.pass && fabs(v.value - 1.5) < 1e-12, "%s", v.why);
	rep_select_judge(t, "m", "b", REP_RULE_OWL, &v);
	cr_expect(v.known && !v.pass && fabs(v.value - 1.39) < 1e-12, "%s", v.why);
	rep_select_judge(t, "m", "a", REP_RULE_PRO, &v);
	cr_expect(v.pass && fabs(v.value - 0.05) < 1e-12 && strstr(v.why, "best gto"), "%s", v.why);
	rep_select_judge(t, "m", "b", REP_RULE_PRO, &v);
	cr_expect(!v.pass && fabs(v.value - 0.029) < 1e-9 && strstr(v.why, "best tl") && strstr(v.why, "worst lrr"),
		  "%s", v.why);
	rep_select_judge(t, "m", "a", REP_RULE_BAWS, &v);
	cr_expect(v.pass && fabs(v.value - 0.20) < 1e-12, "%s", v.why);
	rep_select_judge(t, "m", "b", REP_RULE_BAWS, &v);
	cr_expect(!v.pass, "15%% is not more than 15%%: %s", v.why);
	rep_select_judge(t, "m", "a", REP_RULE_PAWS, &v);
	cr_expect(v.pass && strstr(v.why, "32 CTAs per launch >= 16 cores"), "%s", v.why);
	rep_select_judge(t, "m", "b", REP_RULE_PAWS, &v);
	cr_expect(!v.pass && strstr(v.why, "(<= 1%)") && strstr(v.why, "15 CTAs per launch < 16 cores"), "%s", v.why);
	rep_select_judge(t, "m", "d", REP_RULE_PAWS, &v);
	cr_expect(v.known && v.pass && fabs(v.value - 0.10) < 1e-12 && strstr(v.why, "48 CTAs per launch >= 16 cores"),
		  "a capped launch is judged by its grid: %s", v.why);
	rep_select_judge(t, "m", "c", REP_RULE_PRO, &v);
	cr_expect(!v.known && strstr(v.why, "variant tl"), "a missing run is unknown, not a fail: %s", v.why);
	csv_fixture_unload(t, path);
}

Test(report_select, headline_over_the_selected_beside_all)
{
	/* PRO selects a only: gto over lrr is 1.05 there, sqrt(1.05 * 1.01) = 1.02981 over both. */
	char path[] = "/tmp/ws_sel_XXXXXX";
	struct csv_table *t = csv_fixture_load(path, table);
	char *buf = NULL;
	size_t len = 0;
	FILE *md = open_memstream(&buf, &len);
	static const char *const wl[] = {"a", "b"}, *const var[] = {"lrr", "gto"};
	int n = rep_select_section(md, t, "m", wl, 2, var, 2, "lrr", REP_RULE_PRO);
	fclose(md);
	cr_expect_eq(n, 1);
	cr_expect(strstr(buf, "1 of 2 workloads pass") && strstr(buf, "| gto | 1.030 | 1.050 |"), "%s", buf);
	cr_expect(strstr(buf, "| a | 0.050 | yes |") && strstr(buf, "| b | 0.029 | no |"), "%s", buf);
	free(buf);
	cr_expect_eq(rep_rule_parse("baws"), REP_RULE_BAWS);
	cr_expect_eq(rep_rule_parse("owl2"), -1);
	/* A paper's side study keeps its rule; a name that only starts like one does not. */
	cr_expect_eq(rep_rule_of_sweep("pro"), REP_RULE_PRO);
	cr_expect_eq(rep_rule_of_sweep("baws-fetch"), REP_RULE_BAWS);
	cr_expect_eq(rep_rule_of_sweep("paws-fwt-kernel"), REP_RULE_PAWS);
	cr_expect_eq(rep_rule_of_sweep("bawsfetch"), REP_RULE_NONE);
	cr_expect_eq(rep_rule_of_sweep("ba-ws"), REP_RULE_NONE);
	cr_expect_eq(rep_rule_of_sweep("twolevel"), REP_RULE_NONE);
	csv_fixture_unload(t, path);
}
