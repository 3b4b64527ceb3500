/* SPDX-License-Identifier: MIT */
/* The figures of `warpsim report`, drawn by gnuplot as SVG and PNG: bars per workload and
 * variant, stacked scheduler-cycle shares per workload, and one run's CTA timeline. */
#ifndef WARPSIM_REPORT_FIG_H
#define WARPSIM_REPORT_FIG_H

#include <stdbool.h>
#include <stdio.h>

#include "../engine/sim_error.h"

/* Colour of the i-th variant in every figure (a fixed palette of distinct colours, the
 * baseline's first; past its end a variant reuses a colour with a hatched fill). */
const char *rep_colour(int i);

/* One quantity as bars: rows (workloads, then a summary row such as the geomean) x series
 * (variants, in the order drawn). val is n_rows x n_series, row-major; NaN draws no bar. */
struct rep_bars {
	const char *name;          /* file stem under the plots directory: name.dat, .gp, .svg, .png */
	const char *title;
	const char *ylabel;        /* the quantity and its unit */
	const char *const *rows;
	int n_rows;
	const char *const *series;
	int n_series;
	const double *val;
	double ref_y;              /* > 0: a dashed reference line there (1.0 for a speedup) */
	double ymax;               /* > 0: a fixed axis top (a fraction's 1.0), no clipping */
	double clip_y;             /* out: where bars were cut (their values printed on them); 0: none */
};

/* Where an axis would be cut so that outliers do not flatten the rest: when the largest
 * value exceeds 3x the median of the positive values, 3x the median rounded up to a round
 * number; 0 when nothing needs cutting. */
double rep_clip_at(const double *val, int n);

/* Write name.dat and name.gp under plots and run gnuplot there. *drawn is false (and nothing
 * is run) when no value is finite. */
int rep_bars_plot(const char *plots, struct rep_bars *b, bool *drawn, struct sim_error *err);

/* Stacked shares per variant in one panel per group (the workloads, then "mean"), a key
 * panel naming the classes. share is n_groups x n_series x n_classes. */
struct rep_stack {
	const char *name;
	const char *title;
	const char *ylabel;
	const char *const *groups;
	int n_groups;
	const char *const *series;
	int n_series;
	const char *const *classes;
	int n_classes;
	const double *share;
};
int rep_stack_plot(const char *plots, const struct rep_stack *s, bool *drawn, struct sim_error *err);

/* The CTA timeline of one run (cta_timeline.csv: kernel,cta,core,launch_seq,start_cycle,
 * end_cycle) as one row per CTA slot of each SM: a CTA takes the lowest slot of its SM free
 * at its start, so bars never overlap. Writes name.dat (core slot row start end kernel) and
 * the figures; *n_slots is the most CTAs an SM held at once. */
int rep_timeline_plot(const char *plots, const char *name, const char *csv, const char *title,
		      int *n_slots, bool *drawn, struct sim_error *err);

/* Run gnuplot on plots/name.gp (its log in name.gnuplot.log), without a shell: no name, path
 * or cell reaches one. An error names the log and gnuplot's first complaint, or says that
 * gnuplot could not be run. */
int rep_gnuplot(const char *plots, const char *name, struct sim_error *err);

/* Text as a gnuplot single-quoted string: '' for a quote, a control character (which would end
 * the command line) as a space. gnuplot expands nothing inside single quotes (no backquote
 * command, no @macro), so any text is inert there. Every name and path in a script goes
 * through it. */
void rep_gp_str(FILE *f, const char *s);

/* The terminal lines of a script: k = 0 SVG, 1 PNG (pngcairo), output stem.svg|png. */
void rep_gp_terminal(FILE *f, int k, const char *stem, int w, int h);

#endif
