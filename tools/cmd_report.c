/* SPDX-License-Identifier: MIT */
/* `warpsim report DIR`: turn a sweep's results.csv into report.md with tables and figures (SVG
 * and PNG, tools/report_fig.c), variants in the spec's order with the baseline first. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "csv.h"
#include "report_fig.h"
#include "report_compare.h"
#include "report_select.h"

/* Sweeps over more configs than this get tables only unless --figures all (write_report). */
#define REP_FIGURE_CONFIGS 16

/* The names along each axis, in the report's order. Each array has room for one name per row of
 * the table (no axis can have more), so none is ever left out. */
struct axes {
	const char **cfg;
	int n_cfg;
	const char *at;             /* the config whose runs the tables read (one section per config) */
	int at_index;               /* its index in cfg */
	const char **wl;
	int n_wl;
	const char **var;
	int n_var;
	enum rep_rule rule;         /* the papers' selection rule the report applies */
	const char *sweep;          /* the sweep's name (DIR's last name): which paper's comparisons */
};

static int index_of(const char **v, int *n, const char *s, bool add)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(v[i], s))
			return i;
	if (!add)
		return -1;
	v[*n] = s;
	return (*n)++;
}

/* Runs a table lacks, as "vecadd/lrr, saxpy/gto" (each once; what does not fit is left out). */
struct run_list {
	char text[512];
	size_t len;
	int n;                      /* items added */
};

static void run_list_add(struct run_list *l, const char *item)
{
	if (!item[0] || strstr(l->text, item) || l->len >= sizeof l->text)
		return;
	l->len += (size_t)snprintf(l->text + l->len, sizeof l->text - l->len, "%s%s", l->len ? ", " : "", item);
	l->n++;
}

/* Row of (workload, variant) on config a->at; -1 if missing. */
static int find_row(const struct csv_table *t, const struct axes *a, const char *wl, const char *var)
{
	return csv_find_run(t, a->at, wl, var);
}

/* Mean of column col over the workloads for variant var (NaN when no run has it). */
static double mean_over_workloads(const struct csv_table *t, const struct axes *a, const char *var,
				  int col)
{
	double sum = 0;
	int n = 0;
	for (int w = 0; w < a->n_wl; w++) {
		int r = find_row(t, a, a->wl[w], var);
		double x = r >= 0 ? csv_num(t, r, col) : NAN;
		if (isfinite(x)) {
			sum += x;
			n++;
		}
	}
	return n ? sum / n : NAN;
}

/* Column numbers (1-based, gnuplot's) of a samples.csv header: IPC per SM, DRAM bandwidth, BLP
 * per channel. */
struct ts_cols {
	int sm0, n_sm, bw, blp0, n_ch;
};

static bool is_number(const char *s)
{
	char *end;
	if (!*s)
		return false;
	(void)strtod(s, &end);
	return !*end;
}

/* Read samples.csv's header and check every cell the figures plot is a number, so that a
 * damaged file is reported as such, with its line, and never handed to gnuplot. */
static int ts_check(const char *csv, struct ts_cols *c, struct sim_error *err)
{
	memset(c, 0, sizeof *c);
	struct csv_table t;
	int rc = csv_load(csv, &t, err);
	if (rc)
		goto out;
	if (t.n_cols < 3 || strcmp(t.hdr[1], "cycle_start") || strcmp(t.hdr[2], "cycle_end")) {
		rc = sim_error_set(err, SIM_ERR_INPUT, csv, 1, 0, NULL,
				   "not a samples table: columns 2 and 3 must be cycle_start,cycle_end");
		goto out;
	}
	for (int i = 0; i < t.n_cols; i++) {
		const char *h = t.hdr[i];
		if (!strncmp(h, "ipc.sm", 6) && !c->n_sm++)
			c->sm0 = i + 1;
		else if (!strncmp(h, "blp.ch", 6) && !c->n_ch++)
			c->blp0 = i + 1;
		else if (!strcmp(h, "dram.bandwidth_gbs"))
			c->bw = i + 1;
	}
	if (!c->n_sm || !c->bw) {
		rc = sim_error_set(err, SIM_ERR_INPUT, csv, 1, 0, NULL,
				   "not a samples table: no ipc.sm0 or dram.bandwidth_gbs column");
		goto out;
	}
	for (int r = 0; r < t.n_rows; r++)
		for (int i = 1; i < t.n_cols; i++)
			if (!is_number(t.cell[r][i])) {
				rc = sim_error_set(err, SIM_ERR_INPUT, csv, r + 2, 0, t.hdr[i], "'%s' is not a number",
						   t.cell[r][i]);
				goto out;
			}
out:
	csv_free(&t);
	return rc;
}

/* Figures of one run's samples.csv (warpsim run --sample N): IPC per SM over time as a heat map,
 * DRAM bandwidth and BLP over time, as plots/<name>_ipc.svg|png and plots/<name>_dram.svg|png.
 * The scripts name the table by csv_rel, its path from the plots directory made of sweep names
 * only, so that the directory the user chose (any characters) never appears in them; every
 * other name goes in as a gnuplot string (rep_gp_str). */
static int timeseries_plots(const char *run_dir, const char *csv_rel, const char *plots, const char *name,
			    const char *title, FILE *md, const char *md_prefix, struct sim_error *err)
{
	char csv[PATH_MAX], p[PATH_MAX], stem[PATH_MAX];
	int rc = cli_path(csv, sizeof csv, err, "%s/samples.csv", run_dir);
	if (rc)
		return rc;
	struct ts_cols c;
	if (access(csv, R_OK))
		return 0;
	if ((rc = ts_check(csv, &c, err)))
		return rc;
	for (int fig = 0; fig < 2; fig++) {
		const char *what = fig ? "dram" : "ipc";
		char head[PATH_MAX + 32];
		snprintf(head, sizeof head, "%s over time: %.*s", fig ? "DRAM" : "IPC per SM", PATH_MAX, title);
		if ((rc = cli_path(stem, sizeof stem, err, "%s_%s", name, what)) ||
		    (rc = cli_path(p, sizeof p, err, "%s/%s.gp", plots, stem)))
			return rc;
		FILE *f = fopen(p, "w");
		if (!f)
			return sim_error_set(err, SIM_ERR_IO, p, 0, 0, NULL, "cannot write: %s", strerror(errno));
		for (int k = 0; k < 2; k++) {
			rep_gp_terminal(f, k, stem, 1000, fig ? 620 : 520);
			fprintf(f, "set datafile separator ','\n");
			if (!fig) {
				fprintf(f, "set title ");
				rep_gp_str(f, head);
				fprintf(f, "\nset xlabel 'time (core cycles)'\nset ylabel 'SM'\n"
					   "set cblabel 'IPC (warp instructions per cycle)'\n"
					   "set yrange [-0.5:%d.5]\nset cbrange [0:*]\n"
					   "set palette defined (0 '#ffffff', 1 '#fde725', 2 '#21918c', 3 '#3b0f70')\n"
					   "unset key\n", c.n_sm - 1);
				fprintf(f, "plot for [i=0:%d] ", c.n_sm - 1);
				rep_gp_str(f, csv_rel);
				fprintf(f, " skip 1 using (($2+$3)/2):(i):(($3-$2)/2):(0.5):(column(%d+i)) "
					   "with boxxyerror fs solid 1.0 noborder lc palette\n", c.sm0);
				continue;
			}
			fprintf(f, "set multiplot layout 2,1 title ");
			rep_gp_str(f, head);
			fprintf(f, "\nset grid\nset lmargin at screen 0.09\nset rmargin at screen 0.80\n"
				   "set ylabel 'DRAM bandwidth (GB/s)'\nunset xlabel\nunset key\nplot ");
			rep_gp_str(f, csv_rel);
			fprintf(f, " skip 1 using (($2+$3)/2):%d with lines lw 2 lc rgb '#0072b2'\n", c.bw);
			fprintf(f, "set ylabel 'BLP (banks busy, per channel)'\nset xlabel 'time (core cycles)'\n"
				   "set key outside right\n");
			if (c.n_ch) {
				fprintf(f, "plot for [ch=0:%d] ", c.n_ch - 1);
				rep_gp_str(f, csv_rel);
				fprintf(f, " skip 1 using (($2+$3)/2):(column(%d+2*ch)) with lines "
					   "title sprintf('channel %%d', ch)\n", c.blp0);
			}
			fprintf(f, "unset multiplot\n");
		}
		if (fclose(f))
			return sim_error_set(err, SIM_ERR_IO, p, 0, 0, NULL, "cannot write: %s", strerror(errno));
		if ((rc = rep_gnuplot(plots, stem, err)))
			return rc;
	}
	fprintf(md, "### %s\n\n![IPC per SM](%s%s_ipc.svg)\n\n![DRAM bandwidth and BLP](%s%s_dram.svg)\n\n", title,
		md_prefix, name, md_prefix, name);
	return 0;
}

static const char *const stall_classes[] = {"issued", "structural", "data", "control", "fetch",
					     "barrier", "exit", "no_warp", NULL};
#define N_STALL_CLASSES 8 /* the names above */

/* Row index of name in column col of t, so that the axes point into the table's own text. */
static const char *cell_named(const struct csv_table *t, int col, const char *name)
{
	for (int r = 0; r < t->n_rows; r++)
		if (!strcmp(t->cell[r][col], name))
			return t->cell[r][col];
	return NULL;
}

static void axes_free(struct axes *a)
{
	free(a->cfg);
	free(a->wl);
	free(a->var);
}

/* The axes of the report: configs, workloads and variants in the sweep spec's order (the sweep
 * writes it to DIR/sweep_order.txt; a name the file lacks comes after, in the table's order),
 * the baseline first among the variants. */
static int axes_load(const char *dir, const struct csv_table *t, const char *base, struct axes *a,
		     struct sim_error *err)
{
	memset(a, 0, sizeof *a);
	size_t room = (size_t)t->n_rows + 1;
	a->cfg = malloc(room * sizeof *a->cfg);
	a->wl = malloc(room * sizeof *a->wl);
	a->var = malloc(room * sizeof *a->var);
	if (!a->cfg || !a->wl || !a->var) {
		axes_free(a);
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	}
	char p[PATH_MAX + 32], line[512];
	snprintf(p, sizeof p, "%s/sweep_order.txt", dir);
	FILE *f = fopen(p, "r");
	while (f && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		char *sp = strchr(line, ' ');
		if (line[0] == '#' || !sp)
			continue;
		*sp++ = '\0';
		int col = !strcmp(line, "config") ? 0 : !strcmp(line, "workload") ? 1 : !strcmp(line, "variant") ? 2 : -1;
		const char *name = col >= 0 ? cell_named(t, col, sp) : NULL;
		if (name && col == 0)
			index_of(a->cfg, &a->n_cfg, name, true);
		else if (name && col == 1)
			index_of(a->wl, &a->n_wl, name, true);
		else if (name)
			index_of(a->var, &a->n_var, name, true);
	}
	if (f)
		fclose(f);
	for (int r = 0; r < t->n_rows; r++) {
		index_of(a->cfg, &a->n_cfg, t->cell[r][0], true);
		index_of(a->wl, &a->n_wl, t->cell[r][1], true);
		index_of(a->var, &a->n_var, t->cell[r][2], true);
	}
	int b = index_of(a->var, &a->n_var, base, false);
	for (; b > 0; b--) {
		const char *x = a->var[b];
		a->var[b] = a->var[b - 1];
		a->var[b - 1] = x;
	}
	return 0;
}

/* " on owl-28 (size medium)": the machine and, when every run has the same, the size. */
static void where_of(const struct csv_table *t, const struct axes *a, char *out, size_t n)
{
	size_t off = (size_t)snprintf(out, n, " on %s", a->at);
	int sz = csv_col(t, "prov.size");
	const char *size = sz >= 0 && t->n_rows ? t->cell[0][sz] : NULL;
	for (int r = 1; size && r < t->n_rows; r++)
		if (strcmp(t->cell[r][sz], size))
			size = NULL;
	if (size && *size && off < n)
		snprintf(out + off, n - off, " (size %s)", size);
}

static void cut_caption(FILE *md, const struct rep_bars *b)
{
	if (b->clip_y > 0)
		fprintf(md, "Bars above %g are cut at %g (the axis stops there) with their value written above "
			    "them, so that they do not flatten the rest.\n\n", b->clip_y, b->clip_y);
}

/* The variants a figure has no bar for at all (no value or 0 in every run: no DRAM traffic under
 * a perfect memory, say), so that the gap is explained. */
static void no_data_caption(FILE *md, const double *val, int n_rows, const struct axes *a)
{
	bool any = false;
	for (int v = 0; v < a->n_var; v++) {
		bool none = true;
		for (int r = 0; r < n_rows && none; r++)
			none = !isfinite(val[r * a->n_var + v]) || val[r * a->n_var + v] == 0;
		if (none)
			fprintf(md, "%s%s", any ? ", " : "No bar (no value, or 0, in every run) for ", a->var[v]);
		any = any || none;
	}
	if (any)
		fprintf(md, ".\n\n");
}

/* Names of one config's figures: the quantity's stem, and with several configs in the sweep,
 * "_<config>" after it so that each machine keeps its own files. */
static const char *fig_name(char *buf, size_t n, const char *stem, const struct axes *a)
{
	if (a->n_cfg > 1)
		snprintf(buf, n, "%s_%s", stem, a->at);
	else
		snprintf(buf, n, "%s", stem);
	return buf;
}

/* Working arrays of config_sections, sized once for the report's axes. */
struct scratch {
	const char **rows;          /* n_wl + 1: the workloads and a summary row */
	double *logsum;             /* n_var */
	int *cnt;                   /* n_var */
	double *val;                /* (n_wl + 1) x n_var x the stall classes */
};

/* The speedup, memory-system and scheduler-cycle sections and the CTA timeline of the runs on
 * config a->at (the whole report when the sweep has one config). The runs its speedup table
 * lacks are added to missing. */
/* A run that is not a whole simulation says so in its cell, and is listed under the table:
 * capped by a budget (results.csv budget.capped), or sampled (sampling.* columns, with the
 * estimated total cycles and its bound). "" for a whole run. */
static const char *budget_mark(const struct csv_table *t, int r, const struct axes *a, const char *wl,
			       const char *var, struct run_list *capped, struct run_list *sampled)
{
	int cap = csv_col(t, "budget.capped"), tot = csv_col(t, "sampling.total_cycles"),
	    bound = csv_col(t, "sampling.error_bound_frac");
	char item[320];
	int n = a->n_cfg > 1 ? snprintf(item, sizeof item, "%s/%s/%s", a->at, wl, var)
			     : snprintf(item, sizeof item, "%s/%s", wl, var);
	if (cap >= 0 && csv_num(t, r, cap) == 1) {
		run_list_add(capped, item);
		return " (capped)";
	}
	if (tot >= 0 && bound >= 0 && isfinite(csv_num(t, r, tot))) {
		snprintf(item + n, sizeof item - (size_t)n, " %.0f cycles +-%.2f%%", csv_num(t, r, tot),
			 100 * csv_num(t, r, bound));
		run_list_add(sampled, item);
		return " (sampled)";
	}
	return "";
}

static int config_sections(const char *dir, const struct csv_table *t, const char *base, const struct axes *a,
			   FILE *md, const char *plots, bool draw, struct scratch *scratch, struct run_list *missing,
			   struct sim_error *err)
{
	double *val = scratch->val;
	struct run_list here = {0}, capped = {0}, sampled = {0};
	int rc = 0;
	int ipc = csv_col(t, "gpu.ipc");
	char where[512], title[768], ylabel[256], fname[256];
	where_of(t, a, where, sizeof where);
	if (a->n_cfg > 1)
		fprintf(md, "# %s\n\n", a->at);
	const char **rows = scratch->rows;
	for (int w = 0; w < a->n_wl; w++)
		rows[w] = a->wl[w];
	bool drawn = false;

	/* 1. speedup over the baseline, per workload and variant, with the geometric mean */
	fprintf(md, "## IPC speedup over %s%s\n\n| workload |", base, where);
	for (int v = 0; v < a->n_var; v++)
		fprintf(md, " %s |", a->var[v]);
	fprintf(md, "\n|---|");
	for (int v = 0; v < a->n_var; v++)
		fprintf(md, "---:|");
	fprintf(md, "\n");
	double *logsum = scratch->logsum;
	int *cnt = scratch->cnt;
	for (int v = 0; v < a->n_var; v++) {
		logsum[v] = 0;
		cnt[v] = 0;
	}
	for (int w = 0; w < a->n_wl; w++) {
		int rb = find_row(t, a, a->wl[w], base);
		double b = rb >= 0 ? csv_num(t, rb, ipc) : NAN;
		fprintf(md, "| %s |", a->wl[w]);
		for (int v = 0; v < a->n_var; v++) {
			int r = find_row(t, a, a->wl[w], a->var[v]);
			double s = r >= 0 ? csv_num(t, r, ipc) / b : NAN;
			val[w * a->n_var + v] = NAN;
			/* a run without a result (or without the baseline's) is said to be missing,
			 * never printed as nan nor averaged over silently */
			int gone = r < 0 || !isfinite(csv_num(t, r, ipc)) ? r : rb < 0 || !isfinite(b) ? rb : 0;
			if (r < 0 || rb < 0 || !isfinite(s)) {
				const char *who = gone == r ? a->var[v] : base;
				char item[256];
				if (a->n_cfg > 1)
					snprintf(item, sizeof item, "%s/%s/%s", a->at, a->wl[w], who);
				else
					snprintf(item, sizeof item, "%s/%s", a->wl[w], who);
				run_list_add(&here, item);
				fprintf(md, " missing (%s) |", item);
				continue;
			}
			fprintf(md, " %.3f%s |", s, budget_mark(t, r, a, a->wl[w], a->var[v], &capped, &sampled));
			val[w * a->n_var + v] = s;
			if (s > 0) {
				logsum[v] += log(s);
				cnt[v]++;
			}
		}
		fprintf(md, "\n");
	}
	fprintf(md, "| **geomean** |");
	rows[a->n_wl] = "geomean";
	for (int v = 0; v < a->n_var; v++) {
		double g = cnt[v] ? exp(logsum[v] / cnt[v]) : NAN;
		fprintf(md, " **%.3f** |", g);
		val[a->n_wl * a->n_var + v] = g;
	}
	fprintf(md, "\n\n");
	if (here.n) {
		fprintf(md, "**Incomplete**: %d run%s missing (%s); each geomean is over the workloads "
			    "that have both the run and the baseline.\n\n",
			here.n, here.n == 1 ? " is" : "s are", here.text);
	}
	if (capped.n)
		fprintf(md, "**Capped**: %d run%s stopped at a budget (stats.json \"budget\"): %s; their figures are "
			    "of the part simulated, not of the whole program.\n\n", capped.n,
			capped.n == 1 ? "" : "s", capped.text);
	if (sampled.n)
		fprintf(md, "**Sampled**: %d run%s simulated some launches and estimated the others' cycles "
			    "(stats.json \"sampling\"; total cycles and bound): %s; their IPC is of the simulated "
			    "launches.\n\n", sampled.n, sampled.n == 1 ? "" : "s", sampled.text);
	snprintf(title, sizeof title, "IPC speedup over %s%s", base, where);
	snprintf(ylabel, sizeof ylabel, "speedup over %s (IPC / IPC of %s)", base, base);
	struct rep_bars bars = {.name = fig_name(fname, sizeof fname, "speedup", a), .title = title, .ylabel = ylabel, .rows = rows,
				.n_rows = a->n_wl + 1, .series = a->var, .n_series = a->n_var, .val = val, .ref_y = 1.0};
	if (draw && (rc = rep_bars_plot(plots, &bars, &drawn, err)))
		goto out;
	if (drawn) {
		fprintf(md, "![speedup over %s](plots/%s.svg)\n\n", base, fname);
		cut_caption(md, &bars);
	}
	rep_select_section(md, t, a->at, a->wl, a->n_wl, a->var, a->n_var, base, a->rule);
	rep_compare_section(md, stdout, t, a->at, a->wl, a->n_wl, a->sweep, a->rule);

	/* 2. memory-system metrics: a table of means, one figure per quantity per workload */
	static const char *const mem_cols[] = {"gpu.l1d.hit_rate", "gpu.dram.blp", "gpu.dram.rbl",
					       "gpu.cinv", "gpu.memory_block_cycles", "gpu.rtru", NULL};
	fprintf(md, "## Memory system and core activity (mean over workloads)\n\n| policy |");
	for (int k = 0; mem_cols[k]; k++)
		fprintf(md, " %s |", mem_cols[k] + 4);
	fprintf(md, "\n|---|");
	for (int k = 0; mem_cols[k]; k++)
		fprintf(md, "---:|");
	fprintf(md, "\n");
	for (int v = 0; v < a->n_var; v++) {
		fprintf(md, "| %s |", a->var[v]);
		for (int k = 0; mem_cols[k]; k++)
			fprintf(md, " %.3f |", mean_over_workloads(t, a, a->var[v], csv_col(t, mem_cols[k])));
		fprintf(md, "\n");
	}
	fprintf(md, "\n");
	static const struct {
		const char *col, *name, *what, *ylabel;
		double ymax;
	} mem_figs[] = {
		{"gpu.dram.blp", "dram_blp", "DRAM bank-level parallelism",
		 "BLP (banks with a request, per busy channel)", 0},
		{"gpu.dram.rbl", "dram_rbl", "DRAM row-buffer locality",
		 "row-buffer hit rate (fraction of DRAM accesses)", 1},
		{"gpu.l1d.hit_rate", "l1d_hit_rate", "L1D hit rate", "L1D hit rate (fraction of accesses)", 1},
	};
	rows[a->n_wl] = "mean";
	for (size_t k = 0; k < sizeof mem_figs / sizeof mem_figs[0]; k++) {
		int col = csv_col(t, mem_figs[k].col);
		for (int w = 0; w < a->n_wl; w++)
			for (int v = 0; v < a->n_var; v++) {
				int r = find_row(t, a, a->wl[w], a->var[v]);
				val[w * a->n_var + v] = r >= 0 ? csv_num(t, r, col) : NAN;
			}
		for (int v = 0; v < a->n_var; v++)
			val[a->n_wl * a->n_var + v] = mean_over_workloads(t, a, a->var[v], col);
		snprintf(title, sizeof title, "%s%s", mem_figs[k].what, where);
		struct rep_bars mb = {.name = fig_name(fname, sizeof fname, mem_figs[k].name, a), .title = title, .ylabel = mem_figs[k].ylabel,
				      .rows = rows, .n_rows = a->n_wl + 1, .series = a->var, .n_series = a->n_var,
				      .val = val, .ymax = mem_figs[k].ymax};
		if (draw && (rc = rep_bars_plot(plots, &mb, &drawn, err)))
			goto out;
		if (drawn) {
			fprintf(md, "![%s](plots/%s.svg)\n\n", mem_figs[k].what, fname);
			cut_caption(md, &mb);
			no_data_caption(md, val, a->n_wl + 1, a);
		}
	}

	/* 3. scheduler-cycle breakdown: a table of means; a panel per workload, then the mean */
	fprintf(md, "## Scheduler cycle breakdown (share of scheduler cycles, mean over workloads)\n\n| policy |");
	for (int k = 0; stall_classes[k]; k++)
		fprintf(md, " %s |", stall_classes[k]);
	fprintf(md, "\n|---|");
	for (int k = 0; stall_classes[k]; k++)
		fprintf(md, "---:|");
	fprintf(md, "\n");
	int n_cls = 0;
	while (stall_classes[n_cls])
		n_cls++;
	for (int v = 0; v < a->n_var; v++) {
		fprintf(md, "| %s |", a->var[v]);
		for (int k = 0; k < n_cls; k++) {
			char col[96];
			snprintf(col, sizeof col, "gpu.stall.%s_frac", stall_classes[k]);
			int c = csv_col(t, col);
			for (int w = 0; w < a->n_wl; w++) {
				int r = find_row(t, a, a->wl[w], a->var[v]);
				val[(w * a->n_var + v) * n_cls + k] = r >= 0 ? csv_num(t, r, c) : NAN;
			}
			double mean = mean_over_workloads(t, a, a->var[v], c);
			val[(a->n_wl * a->n_var + v) * n_cls + k] = mean;
			fprintf(md, " %.3f |", isfinite(mean) ? mean : 0.0);
		}
		fprintf(md, "\n");
	}
	fprintf(md, "\n");
	rows[a->n_wl] = "mean over workloads";
	snprintf(title, sizeof title, "Scheduler cycles by class%s", where);
	struct rep_stack st = {.name = fig_name(fname, sizeof fname, "stalls", a), .title = title, .ylabel = "share of scheduler cycles",
			       .groups = rows, .n_groups = a->n_wl + 1, .series = a->var, .n_series = a->n_var,
			       .classes = stall_classes, .n_classes = n_cls, .share = val};
	if (draw && (rc = rep_stack_plot(plots, &st, &drawn, err)))
		goto out;
	if (drawn)
		fprintf(md, "![scheduler cycles by class, per workload](plots/%s.svg)\n\n", fname);

	/* 4. CTA timeline per SM (PRO Fig 2) of the baseline's run of the first workload, or else
	 * of the first run (in the report's order) that wrote one */
	for (int i = -1; draw && i < a->n_wl * a->n_var; i++) {
		const char *wl = i < 0 ? a->wl[0] : a->wl[i / a->n_var], *var = i < 0 ? base : a->var[i % a->n_var];
		int r = find_row(t, a, wl, var);
		char rel[PATH_MAX];
		if (r < 0)
			continue;
		if ((rc = cli_path(rel, sizeof rel, err, "%s/%s/%s/%s/cta_timeline.csv", dir, t->cell[r][0], wl, var)))
			goto out;
		int slots;
		snprintf(title, sizeof title, "CTA timeline: %s / %s on %s (one row per CTA slot; colour: kernel)",
			 wl, var, t->cell[r][0]);
		fig_name(fname, sizeof fname, "cta_timeline", a);
		if ((rc = rep_timeline_plot(plots, fname, rel, title, &slots, &drawn, err)))
			goto out;
		if (!drawn)
			continue;
		fprintf(md, "## CTA timeline (%s, %s on %s)\n\n![CTA timeline](plots/%s.svg)\n\n"
			    "Each SM has %d row%s, one per CTA slot (a CTA takes the lowest slot free when it "
			    "starts); colours alternate by kernel.\n\n",
			wl, var, t->cell[r][0], fname, slots, slots == 1 ? "" : "s");
		break;
	}
out:
	run_list_add(missing, here.text); /* the whole report's list: one config's items at a time */
	return rc;
}

/* missing: filled with the runs the speedup tables lack ("vecadd/lrr, ...", with the config
 * first when the sweep has several), empty if none. */
static int write_report(const char *dir, const struct csv_table *t, const char *base, bool all_figures,
			enum rep_rule rule, const char *sweep, FILE *md, struct run_list *missing, struct sim_error *err)
{
	struct axes a;
	int rc = axes_load(dir, t, base, &a, err);
	if (rc)
		return rc;
	a.rule = rule;
	a.sweep = sweep;
	struct scratch sc = {0};
	char plots[PATH_MAX], title[768];
	if (index_of(a.var, &a.n_var, base, false) < 0) {
		rc = sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--baseline",
				   "baseline variant '%s' is not in the results", base);
		goto out;
	}
	if ((rc = cli_path(plots, sizeof plots, err, "%s/plots", dir)) || (rc = cli_mkdirs(plots, err)))
		goto out;
	sc.rows = malloc(((size_t)a.n_wl + 1) * sizeof *sc.rows);
	sc.logsum = malloc((size_t)a.n_var * sizeof *sc.logsum);
	sc.cnt = malloc((size_t)a.n_var * sizeof *sc.cnt);
	sc.val = malloc(((size_t)a.n_wl + 1) * (size_t)a.n_var * N_STALL_CLASSES * sizeof *sc.val);
	if (!sc.rows || !sc.logsum || !sc.cnt || !sc.val) {
		rc = sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		goto out;
	}
	/* gnuplot takes about a second for one config's figures (SVG and PNG): a sweep over many
	 * machines gets its tables for each and figures only when asked, as the report says. */
	bool draw = all_figures || a.n_cfg <= REP_FIGURE_CONFIGS;
	if (!draw)
		fprintf(md, "Figures are drawn for sweeps of up to %d configs; this one has %d, so the report has "
			    "tables only (`warpsim report DIR --figures all` draws every config's, about a second "
			    "each).\n\n", REP_FIGURE_CONFIGS, a.n_cfg);
	/* Each machine its own tables and figures: a speedup is over the baseline on the same one. */
	for (int c = 0; c < a.n_cfg && !rc; c++) {
		a.at = a.cfg[c];
		a.at_index = c;
		rc = config_sections(dir, t, base, &a, md, plots, draw, &sc, missing, err);
	}
	if (rc)
		goto out;

	/* 5. time series of every run made with --sample (a spec's overrides cannot ask for it:
	 * rerun a row with --sample N into its own directory) */
	bool ts_head = false;
	for (int r = 0; r < t->n_rows; r++) {
		char run[PATH_MAX], name[PATH_MAX], sp[PATH_MAX], rel[PATH_MAX];
		if ((rc = cli_path(run, sizeof run, err, "%s/%s/%s/%s", dir, t->cell[r][0], t->cell[r][1], t->cell[r][2])) ||
		    (rc = cli_path(rel, sizeof rel, err, "../%s/%s/%s/samples.csv", t->cell[r][0], t->cell[r][1], t->cell[r][2])) ||
		    (rc = cli_path(sp, sizeof sp, err, "%s/samples.csv", run)) ||
		    (rc = cli_path(name, sizeof name, err, "ts_%s_%s_%s", t->cell[r][0], t->cell[r][1], t->cell[r][2])))
			goto out;
		if (access(sp, R_OK))
			continue;
		if (!ts_head)
			fprintf(md, "## Time series\n\n");
		ts_head = true;
		snprintf(title, sizeof title, "%s / %s / %s", t->cell[r][0], t->cell[r][1], t->cell[r][2]);
		if ((rc = timeseries_plots(run, rel, plots, name, title, md, "plots/", err)))
			goto out;
	}
out:
	free(sc.rows);
	free(sc.logsum);
	free(sc.cnt);
	free(sc.val);
	axes_free(&a);
	return rc;
}

/* `warpsim report RUN_DIR` of one run made with --sample: its time series only. */
static int run_report(const char *dir, struct sim_error *err)
{
	char plots[PATH_MAX + 16], md_path[PATH_MAX + 16], title[PATH_MAX + 16];
	int rc = cli_path(plots, sizeof plots, err, "%s/plots", dir);
	if (!rc)
		rc = cli_path(md_path, sizeof md_path, err, "%s/report.md", dir);
	if (!rc)
		rc = cli_mkdirs(plots, err);
	if (rc)
		return rc;
	FILE *md = fopen(md_path, "w");
	if (!md)
		return sim_error_set(err, SIM_ERR_IO, md_path, 0, 0, NULL, "cannot write: %s", strerror(errno));
	snprintf(title, sizeof title, "%s", dir);
	fprintf(md, "# warpsim report: %s\n\nTime series of one run (samples.csv).\n\n", dir);
	rc = timeseries_plots(dir, "../samples.csv", plots, "ts", title, md, "plots/", err);
	fclose(md);
	if (!rc)
		printf("report written to %s\n", md_path);
	return rc;
}

/* --select: a rule's name, or auto (also when absent): the rule named like the sweep, whose
 * directory `warpsim sweep` names after the spec's name (results/exp/pro, results/baws-fetch:
 * rep_rule_of_sweep), else none. */
static int select_rule(const char *sweep, const char *opt, int *rule, struct sim_error *err)
{
	if (opt && strcmp(opt, "auto")) {
		*rule = rep_rule_parse(opt);
		if (*rule < 0)
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--select",
					     "expects auto, none, owl, pro, baws or paws, got '%s'", opt);
		return 0;
	}
	*rule = (int)rep_rule_of_sweep(sweep);
	return 0;
}

/* The baseline when --baseline is not given: lrr, or where the sweep has no lrr (lwm.cfg's
 * "baseline") the spec's first variant (sweep_order.txt), else the table's first. */
static const char *default_baseline(const char *dir, const struct csv_table *t)
{
	const char *base = cell_named(t, 2, "lrr");
	char p[PATH_MAX + 32], line[512];
	snprintf(p, sizeof p, "%s/sweep_order.txt", dir);
	FILE *f = base ? NULL : fopen(p, "r");
	while (f && !base && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!strncmp(line, "variant ", 8))
			base = cell_named(t, 2, line + 8);
	}
	if (f)
		fclose(f);
	return base ? base : t->n_rows ? t->cell[0][2] : "lrr";
}

/* The sweep's name: DIR's last name, which `warpsim sweep` takes from the spec's name; empty when
 * it does not fit name. */
static void sweep_name_of(const char *dir, char *name, size_t size)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	size_t b = n;
	while (b > 0 && dir[b - 1] != '/')
		b--;
	snprintf(name, size, "%.*s", (int)(n - b < size - 1 ? n - b : 0), dir + b);
}

int cmd_report(int argc, char **argv, struct sim_error *err)
{
	static const char *const with_value[] = {"--baseline", "--figures", "--select", NULL};
	struct cli_opts o;
	int rc = cli_parse(argc, argv, "", with_value, NULL, &o, err);
	if (rc)
		return rc;
	if (o.help || o.n_positional != 1) {
		printf("usage: warpsim report DIR [--baseline VARIANT] [--figures auto|all] [--select RULE]\n"
		       "DIR is a sweep directory with results.csv (warpsim sweep / sweep --collect), or one\n"
		       "run's directory with samples.csv (warpsim run --sample N -o DIR): its time series;\n"
		       "writes DIR/report.md and DIR/plots/*.svg|png. --figures auto (the default) draws\n"
		       "figures for sweeps of up to %d configs, tables only beyond; all draws every config's.\n"
		       "--baseline: default lrr, or the spec's first variant where there is no lrr (lwm).\n"
		       "A sweep named after a paper (owl, pro, baws, baws-fetch, paws, twolevel, lwm) gets the\n"
		       "comparisons the paper reports, published figure beside ours, in report.md and here.\n"
		       "--select owl|pro|baws|paws|none applies that paper's rule for choosing its programs\n"
		       "and gives the headline over the programs that pass beside all of them; default auto:\n"
		       "the rule named like the sweep (DIR's last name, the spec's name) or by the part of the\n"
		       "name before its first '-' (baws-fetch: baws), else none\n",
		       REP_FIGURE_CONFIGS);
		return o.help ? 0 : sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, NULL, "report needs DIR");
	}
	const char *dir = o.positional[0];
	const char *base = cli_long(&o, "--baseline");
	const char *figures = cli_long(&o, "--figures") ? cli_long(&o, "--figures") : "auto";
	if (strcmp(figures, "auto") && strcmp(figures, "all"))
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--figures", "expects auto or all, got '%s'",
				     figures);
	int rule;
	char sweep[64];
	sweep_name_of(dir, sweep, sizeof sweep);
	if ((rc = select_rule(sweep, cli_long(&o, "--select"), &rule, err)))
		return rc;
	char csv[PATH_MAX], md_path[PATH_MAX], tmp[PATH_MAX];
	if ((rc = cli_path(csv, sizeof csv, err, "%s/results.csv", dir)) ||
	    (rc = cli_path(tmp, sizeof tmp, err, "%s/samples.csv", dir)))
		return rc;
	if (access(csv, F_OK) && !access(tmp, R_OK))
		return run_report(dir, err);
	if ((rc = cli_path(md_path, sizeof md_path, err, "%s/report.md", dir)) ||
	    (rc = cli_path(tmp, sizeof tmp, err, "%s.tmp.%ld", md_path, (long)getpid())))
		return rc;
	struct csv_table *t = malloc(sizeof *t);
	if (!t)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	rc = csv_load(csv, t, err);
	if (!rc)
		rc = csv_check_runs(t, csv, err);
	FILE *md = rc ? NULL : fopen(tmp, "w");
	if (!rc && !md)
		rc = sim_error_set(err, SIM_ERR_IO, tmp, 0, 0, NULL, "cannot write: %s", strerror(errno));
	if (!rc) {
		if (!base)
			base = default_baseline(dir, t);
		fprintf(md, "# warpsim report: %s\n\n%d runs; baseline %s", dir, t->n_rows, base);
		if (rule != REP_RULE_NONE)
			fprintf(md, "; programs selected by %s's rule (section Selection)", rep_rule_name(rule));
		fprintf(md, ".\n\n");
		struct run_list missing = {0};
		rc = write_report(dir, t, base, !strcmp(figures, "all"), (enum rep_rule)rule, sweep, md, &missing, err);
		if (fclose(md) && !rc)
			rc = sim_error_set(err, SIM_ERR_IO, tmp, 0, 0, NULL, "cannot write: %s", strerror(errno));
		if (!rc && rename(tmp, md_path))
			rc = sim_error_set(err, SIM_ERR_IO, md_path, 0, 0, NULL, "cannot write: %s", strerror(errno));
		if (rc)
			unlink(tmp);
		else
			printf("report written to %s\n", md_path);
		/* The report is kept (it says what is missing) but the command fails: a sweep with
		 * holes is not a result. */
		if (!rc && missing.len)
			rc = sim_error_set(err, SIM_ERR_INPUT, csv, 0, 0, NULL,
					   "runs missing from the results: %s (report.md marks them; the "
					   "geomeans leave them out)", missing.text);
	}
	csv_free(t);
	free(t);
	return rc;
}
