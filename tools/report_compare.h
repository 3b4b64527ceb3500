/* SPDX-License-Identifier: MIT */
/* The comparisons each paper's figures report (one variant over another), computed by `warpsim
 * report` from a sweep's table over all workloads and over those the paper's rule selects, beside
 * the published figure. */
#ifndef WARPSIM_REPORT_COMPARE_H
#define WARPSIM_REPORT_COMPARE_H

#include <stdio.h>

#include "csv.h"
#include "report_select.h"

/* Which workloads a comparison's geomean runs over, beside all of them. */
enum rep_cmp_set {
	REP_CMP_SELECTED, /* those the paper's rule selects */
	REP_CMP_TYPE_A,   /* PAWS (003 Sec III): selected, GTO's IPC above RR's (lrr) */
	REP_CMP_TYPE_B,   /* PAWS: selected, RR's IPC above GTO's */
};

/* One comparison: IPC of variant num over variant den, geomean over workloads. */
struct rep_cmp {
	const char *what;      /* the paper's name for it, with its figure ("Fig 9 CFF fetch") */
	const char *num, *den; /* variant names of the sweep spec */
	const char *published; /* the paper's figure as the paper gives it */
	enum rep_cmp_set set;
};

/* The comparisons of the sweep named sweep (owl, pro, baws, baws-fetch, paws, twolevel, lwm; a
 * side study named paper-* takes the list of the longest such paper name); *n their count, 0
 * (and NULL) for a sweep with none. */
const struct rep_cmp *rep_compare_list(const char *sweep, int *n);

/* The geomean of num's IPC over den's on the workloads of wl that are in set (under rule r) and
 * have both runs; *n_used their count (0: NaN returned). */
double rep_compare_geomean(const struct csv_table *t, const char *cfg, const char *const *wl, int n_wl,
			   enum rep_rule r, const struct rep_cmp *c, int *n_used);

/* Writes the section "The paper's comparisons" for config cfg to md, and the same as plain lines
 * to out when out is not NULL: first the workloads the rule selects, then each comparison whose
 * two variants the sweep has, published figure beside ours over all workloads and over the set.
 * Returns the number of comparisons written. */
int rep_compare_section(FILE *md, FILE *out, const struct csv_table *t, const char *cfg, const char *const *wl,
			int n_wl, const char *sweep, enum rep_rule r);

#endif
