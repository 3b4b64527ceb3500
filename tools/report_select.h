/* SPDX-License-Identifier: MIT */
/* Each paper's rule for choosing its programs, applied by `warpsim report` to a sweep's measured
 * statistics: which workloads pass and why, and the headline over them beside the full set. */
#ifndef WARPSIM_REPORT_SELECT_H
#define WARPSIM_REPORT_SELECT_H

#include <stdbool.h>
#include <stdio.h>

#include "csv.h"

enum rep_rule {
	REP_RULE_NONE,
	REP_RULE_OWL,  /* 004 Table 2: Type-1, IPC with perfect memory (variant pmem) >= 1.4x lrr's */
	REP_RULE_PRO,  /* 000 Sec IV: >= 3% between the best and worst IPC of tl, lrr and gto */
	REP_RULE_BAWS, /* 001 Sec 5: warps stalled at barriers > 15% of their time (lrr's RTRU) */
	REP_RULE_PAWS, /* 003 Sec V: gto and lrr differ by more than 1%, and each launch has at least
	                  one CTA per core (mean CTAs per launch >= cores) */
};

/* The rule named name ("none", "owl", "pro", "baws", "paws"), or -1 when there is none. */
int rep_rule_parse(const char *name);
/* The rule of a sweep named name: the rule of that name, else the one its first '-'-separated
 * part names (a paper's side study, baws-fetch or paws-fwt-kernel, keeps the paper's rule), else
 * REP_RULE_NONE. */
enum rep_rule rep_rule_of_sweep(const char *name);
/* Whether the sweep named sweep is a side study of paper: its name is paper, '-', more
 * (baws-fetch of baws). */
bool rep_sweep_side_of(const char *sweep, const char *paper);
const char *rep_rule_name(enum rep_rule r);

/* One workload under a rule. known is false when a run or statistic the rule reads is missing
 * (why names it); value is the measure the rule compares (a ratio or a fraction). */
struct rep_verdict {
	bool known, pass;
	double value;
	char why[192];
};
void rep_select_judge(const struct csv_table *t, const char *cfg, const char *wl, enum rep_rule r,
		      struct rep_verdict *v);

/* Writes the "Selection" section for config cfg: each workload's verdict and measure, then each
 * variant's geometric-mean IPC speedup over base on the passing workloads beside all of them.
 * Returns the number of workloads that pass. */
int rep_select_section(FILE *md, const struct csv_table *t, const char *cfg, const char *const *wl, int n_wl,
		       const char *const *var, int n_var, const char *base, enum rep_rule r);

#endif
