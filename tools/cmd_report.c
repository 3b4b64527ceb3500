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

#define REP_MAX 128

struct axes {
	const char *cfg[REP_MAX];
	int n_cfg;
	const char *at;             /* the config whose runs the tables read (one section per config) */
	const char *wl[REP_MAX];
	int n_wl;
	const char *var[REP_MAX];
	int n_var;
};

static int index_of(const char **v, int *n, const char *s, bool add)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(v[i], s))
			return i;
	if (!add || *n == REP_MAX)
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
	for (int r = 0; r < t->n_rows; r++)
		if (!strcmp(t->cell[r][0], a->at) && !strcmp(t->cell[r][1], wl) && !strcmp(t->cell[r][2], var))
			return r;
	return -1;
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

static int ts_header(const char *csv, struct ts_cols *c)
{
	memset(c, 0, sizeof *c);
	FILE *f = fopen(csv, "r");
	if (!f)
		return -1;
	char line[65536];
	bool ok = fgets(line, sizeof line, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	line[strcspn(line, "\r\n")] = '\0';
	int i = 1;
	for (char *save = NULL, *tok = strtok_r(line, ",", &save); tok; tok = strtok_r(NULL, ",", &save), i++) {
		if (!strncmp(tok, "ipc.sm", 6) && !c->n_sm++)
			c->sm0 = i;
		else if (!strncmp(tok, "blp.ch", 6) && !c->n_ch++)
			c->blp0 = i;
		else if (!strcmp(tok, "dram.bandwidth_gbs"))
			c->bw = i;
	}
	return c->n_sm && c->bw ? 0 : -1;
}

/* Figures of one run's samples.csv (warpsim run --sample N): IPC per SM over time as a heat map,
 * DRAM bandwidth and BLP over time, as plots/<name>_ipc.svg|png and plots/<name>_dram.svg|png. */
static int timeseries_plots(const char *run_dir, const char *plots, const char *name, const char *title,
			    FILE *md, const char *md_prefix, struct sim_error *err)
{
	char rel[PATH_MAX + 16], csv[PATH_MAX], p[PATH_MAX + 64];
	snprintf(rel, sizeof rel, "%s/samples.csv", run_dir);
	struct ts_cols c;
	if (access(rel, R_OK) || !realpath(rel, csv) || ts_header(csv, &c))
		return 0;
	snprintf(p, sizeof p, "%s/%s_ipc.gp", plots, name);
	FILE *f = fopen(p, "w");
	if (!f)
		return sim_error_set(err, SIM_ERR_IO, p, 0, 0, NULL, "cannot write: %s", strerror(errno));
	for (int k = 0; k < 2; k++) {
		if (k == 0)
			fprintf(f, "set terminal svg size 1000,520 dynamic noenhanced\nset output '%s_ipc.svg'\n", name);
		else
			fprintf(f, "set terminal pngcairo size 1000,520 noenhanced\nset output '%s_ipc.png'\n", name);
		fprintf(f, "set datafile separator ','\nset title 'IPC per SM over time: %s'\n", title);
		fprintf(f, "set xlabel 'time (core cycles)'\nset ylabel 'SM'\nset cblabel 'IPC (warp instructions per cycle)'\n"
			   "set yrange [-0.5:%d.5]\nset cbrange [0:*]\nset palette defined (0 '#ffffff', 1 '#fde725', 2 '#21918c', 3 '#3b0f70')\n"
			   "unset key\n", c.n_sm - 1);
		fprintf(f, "plot for [i=0:%d] '%s' skip 1 using (($2+$3)/2):(i):(($3-$2)/2):(0.5):(column(%d+i)) "
			   "with boxxyerror fs solid 1.0 noborder lc palette\n", c.n_sm - 1, csv, c.sm0);
	}
	fclose(f);
	char gp[PATH_MAX + 64];
	snprintf(gp, sizeof gp, "%s_ipc", name);
	int rc;
	if ((rc = rep_gnuplot(plots, gp, err)))
		return rc;
	snprintf(p, sizeof p, "%s/%s_dram.gp", plots, name);
	f = fopen(p, "w");
	if (!f)
		return sim_error_set(err, SIM_ERR_IO, p, 0, 0, NULL, "cannot write: %s", strerror(errno));
	for (int k = 0; k < 2; k++) {
		if (k == 0)
			fprintf(f, "set terminal svg size 1000,620 dynamic noenhanced\nset output '%s_dram.svg'\n", name);
		else
			fprintf(f, "set terminal pngcairo size 1000,620 noenhanced\nset output '%s_dram.png'\n", name);
		fprintf(f, "set datafile separator ','\nset multiplot layout 2,1 title 'DRAM over time: %s'\n"
			   "set grid\nset lmargin at screen 0.09\nset rmargin at screen 0.80\n"
			   "set ylabel 'DRAM bandwidth (GB/s)'\nunset xlabel\nunset key\n", title);
		fprintf(f, "plot '%s' skip 1 using (($2+$3)/2):%d with lines lw 2 lc rgb '#0072b2'\n", csv, c.bw);
		fprintf(f, "set ylabel 'BLP (banks busy, per channel)'\nset xlabel 'time (core cycles)'\n"
			   "set key outside right\n");
		if (c.n_ch)
			fprintf(f, "plot for [ch=0:%d] '%s' skip 1 using (($2+$3)/2):(column(%d+2*ch)) with lines "
				   "title sprintf('channel %%d', ch)\n", c.n_ch - 1, csv, c.blp0);
		fprintf(f, "unset multiplot\n");
	}
	fclose(f);
	snprintf(gp, sizeof gp, "%s_dram", name);
	if ((rc = rep_gnuplot(plots, gp, err)))
		return rc;
	fprintf(md, "### %s\n\n![IPC per SM](%s%s_ipc.svg)\n\n![DRAM bandwidth and BLP](%s%s_dram.svg)\n\n", title,
		md_prefix, name, md_prefix, name);
	return 0;
}

static const char *const stall_classes[] = {"issued", "structural", "data", "control", "fetch",
					     "barrier", "exit", "no_warp", NULL};

/* Row index of name in column col of t, so that the axes point into the table's own text. */
static const char *cell_named(const struct csv_table *t, int col, const char *name)
{
	for (int r = 0; r < t->n_rows; r++)
		if (!strcmp(t->cell[r][col], name))
			return t->cell[r][col];
	return NULL;
}

/* The axes of the report: configs, workloads and variants in the sweep spec's order (the sweep
 * writes it to DIR/sweep_order.txt; a name the file lacks comes after, in the table's order),
 * the baseline first among the variants. */
static void axes_load(const char *dir, const struct csv_table *t, const char *base, struct axes *a)
{
	memset(a, 0, sizeof *a);
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

/* The speedup, memory-system and scheduler-cycle sections and the CTA timeline of the runs on
 * config a->at (the whole report when the sweep has one config). The runs its speedup table
 * lacks are added to missing; val is scratch. */
static int config_sections(const char *dir, const struct csv_table *t, const char *base, const struct axes *a,
			   FILE *md, const char *plots, double *val, struct run_list *missing, struct sim_error *err)
{
	struct run_list here = {0};
	int rc = 0;
	int ipc = csv_col(t, "gpu.ipc");
	char where[512], title[768], ylabel[256], fname[256];
	where_of(t, a, where, sizeof where);
	if (a->n_cfg > 1)
		fprintf(md, "# %s\n\n", a->at);
	const char *rows[REP_MAX + 1];
	for (int w = 0; w < a->n_wl; w++)
		rows[w] = a->wl[w];
	bool drawn;

	/* 1. speedup over the baseline, per workload and variant, with the geometric mean */
	fprintf(md, "## IPC speedup over %s%s\n\n| workload |", base, where);
	for (int v = 0; v < a->n_var; v++)
		fprintf(md, " %s |", a->var[v]);
	fprintf(md, "\n|---|");
	for (int v = 0; v < a->n_var; v++)
		fprintf(md, "---:|");
	fprintf(md, "\n");
	double logsum[REP_MAX] = {0};
	int cnt[REP_MAX] = {0};
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
			fprintf(md, " %.3f |", s);
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
	snprintf(title, sizeof title, "IPC speedup over %s%s", base, where);
	snprintf(ylabel, sizeof ylabel, "speedup over %s (IPC / IPC of %s)", base, base);
	struct rep_bars bars = {.name = fig_name(fname, sizeof fname, "speedup", a), .title = title, .ylabel = ylabel, .rows = rows,
				.n_rows = a->n_wl + 1, .series = a->var, .n_series = a->n_var, .val = val, .ref_y = 1.0};
	if ((rc = rep_bars_plot(plots, &bars, &drawn, err)))
		goto out;
	if (drawn) {
		fprintf(md, "![speedup over %s](plots/%s.svg)\n\n", base, fname);
		cut_caption(md, &bars);
	}

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
		if ((rc = rep_bars_plot(plots, &mb, &drawn, err)))
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
	if ((rc = rep_stack_plot(plots, &st, &drawn, err)))
		goto out;
	if (drawn)
		fprintf(md, "![scheduler cycles by class, per workload](plots/%s.svg)\n\n", fname);

	/* 4. CTA timeline per SM (PRO Fig 2) of the baseline's run of the first workload, or else
	 * of the first run (in the report's order) that wrote one */
	for (int i = -1; i < a->n_wl * a->n_var; i++) {
		const char *wl = i < 0 ? a->wl[0] : a->wl[i / a->n_var], *var = i < 0 ? base : a->var[i % a->n_var];
		int r = -1;
		for (int k = 0; k < t->n_rows && r < 0; k++)
			if (!strcmp(t->cell[k][0], a->at) && !strcmp(t->cell[k][1], wl) &&
			    !strcmp(t->cell[k][2], var))
				r = k;
		char rel[PATH_MAX * 2];
		if (r < 0)
			continue;
		snprintf(rel, sizeof rel, "%s/%s/%s/%s/cta_timeline.csv", dir, t->cell[r][0], wl, var);
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
static int write_report(const char *dir, const struct csv_table *t, const char *base, FILE *md,
			struct run_list *missing, struct sim_error *err)
{
	struct axes a;
	axes_load(dir, t, base, &a);
	if (index_of(a.var, &a.n_var, base, false) < 0)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--baseline",
				     "baseline variant '%s' is not in the results", base);
	char plots[PATH_MAX + 16], title[768];
	snprintf(plots, sizeof plots, "%s/plots", dir);
	int rc = cli_mkdirs(plots, err);
	if (rc)
		return rc;
	double *val = malloc(sizeof(double) * (REP_MAX + 1) * REP_MAX * 8);
	if (!val)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	/* Each machine its own tables and figures: a speedup is over the baseline on the same one. */
	for (int c = 0; c < a.n_cfg && !rc; c++) {
		a.at = a.cfg[c];
		rc = config_sections(dir, t, base, &a, md, plots, val, missing, err);
	}
	if (rc)
		goto out;

	/* 5. time series of every run made with --sample (a spec's overrides cannot ask for it:
	 * rerun a row with --sample N into its own directory) */
	bool ts_head = false;
	for (int r = 0; r < t->n_rows; r++) {
		char run[PATH_MAX], name[400], sp[PATH_MAX + 16];
		snprintf(run, sizeof run, "%s/%s/%s/%s", dir, t->cell[r][0], t->cell[r][1], t->cell[r][2]);
		snprintf(sp, sizeof sp, "%s/samples.csv", run);
		if (access(sp, R_OK))
			continue;
		if (!ts_head)
			fprintf(md, "## Time series\n\n");
		ts_head = true;
		snprintf(name, sizeof name, "ts_%s_%s_%s", t->cell[r][0], t->cell[r][1], t->cell[r][2]);
		snprintf(title, sizeof title, "%s / %s / %s", t->cell[r][0], t->cell[r][1], t->cell[r][2]);
		if ((rc = timeseries_plots(run, plots, name, title, md, "plots/", err)))
			goto out;
	}
out:
	free(val);
	return rc;
}

/* `warpsim report RUN_DIR` of one run made with --sample: its time series only. */
static int run_report(const char *dir, struct sim_error *err)
{
	char plots[PATH_MAX + 16], md_path[PATH_MAX + 16], title[PATH_MAX + 16];
	snprintf(plots, sizeof plots, "%s/plots", dir);
	snprintf(md_path, sizeof md_path, "%s/report.md", dir);
	int rc = cli_mkdirs(plots, err);
	if (rc)
		return rc;
	FILE *md = fopen(md_path, "w");
	if (!md)
		return sim_error_set(err, SIM_ERR_IO, md_path, 0, 0, NULL, "cannot write: %s", strerror(errno));
	snprintf(title, sizeof title, "%s", dir);
	fprintf(md, "# warpsim report: %s\n\nTime series of one run (samples.csv).\n\n", dir);
	rc = timeseries_plots(dir, plots, "ts", title, md, "plots/", err);
	fclose(md);
	if (!rc)
		printf("report written to %s\n", md_path);
	return rc;
}

int cmd_report(int argc, char **argv, struct sim_error *err)
{
	static const char *const with_value[] = {"--baseline", NULL};
	struct cli_opts o;
	int rc = cli_parse(argc, argv, "", with_value, NULL, &o, err);
	if (rc)
		return rc;
	if (o.help || o.n_positional != 1) {
		printf("usage: warpsim report DIR [--baseline lrr]\n"
		       "DIR is a sweep directory with results.csv (warpsim sweep / sweep --collect), or one\n"
		       "run's directory with samples.csv (warpsim run --sample N -o DIR): its time series;\n"
		       "writes DIR/report.md and DIR/plots/*.svg|png\n");
		return o.help ? 0 : sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, NULL, "report needs DIR");
	}
	const char *dir = o.positional[0];
	const char *base = cli_long(&o, "--baseline") ? cli_long(&o, "--baseline") : "lrr";
	char csv[PATH_MAX + 16], md_path[PATH_MAX + 16], tmp[PATH_MAX + 32];
	snprintf(csv, sizeof csv, "%s/results.csv", dir);
	snprintf(tmp, sizeof tmp, "%s/samples.csv", dir);
	if (access(csv, F_OK) && !access(tmp, R_OK))
		return run_report(dir, err);
	snprintf(md_path, sizeof md_path, "%s/report.md", dir);
	snprintf(tmp, sizeof tmp, "%s.tmp.%ld", md_path, (long)getpid());
	struct csv_table *t = malloc(sizeof *t);
	if (!t)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	rc = csv_load(csv, t, err);
	FILE *md = rc ? NULL : fopen(tmp, "w");
	if (!rc && !md)
		rc = sim_error_set(err, SIM_ERR_IO, tmp, 0, 0, NULL, "cannot write: %s", strerror(errno));
	if (!rc) {
		fprintf(md, "# warpsim report: %s\n\n%d runs; baseline %s.\n\n", dir, t->n_rows, base);
		struct run_list missing = {0};
		rc = write_report(dir, t, base, md, &missing, err);
		fclose(md);
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
