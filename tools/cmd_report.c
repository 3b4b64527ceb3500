/* SPDX-License-Identifier: MIT */
/* `warpsim report DIR`: turn a sweep's results.csv into report.md with tables and gnuplot
 * figures (SVG and PNG): speedup over the baseline per workload and policy with geometric mean,
 * stall breakdowns, BLP/RBL per policy, and CTA timelines per core from one run. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "csv.h"

#define REP_MAX 128

struct axes {
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

/* Row of (workload, variant) for the first config in the table; -1 if missing. */
static int find_row(const struct csv_table *t, const char *wl, const char *var)
{
	for (int r = 0; r < t->n_rows; r++)
		if (!strcmp(t->cell[r][1], wl) && !strcmp(t->cell[r][2], var))
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
		int r = find_row(t, a->wl[w], var);
		double x = r >= 0 ? csv_num(t, r, col) : NAN;
		if (isfinite(x)) {
			sum += x;
			n++;
		}
	}
	return n ? sum / n : NAN;
}

static int run_gnuplot(const char *dir, const char *name, struct sim_error *err)
{
	char cmd[PATH_MAX * 2];
	snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot '%s.gp' 2>'%s.gnuplot.log'", dir, name, name);
	int rc = system(cmd);
	if (rc != 0)
		return sim_error_set(err, SIM_ERR_IO, dir, 0, 0, name,
				     "gnuplot failed (is gnuplot-nox installed? see %s/%s.gnuplot.log)", dir, name);
	return 0;
}

/* A clustered bar chart of data file name.dat (first column labels, then one column per series). */
static int bar_chart(const char *dir, const char *name, const char *title, const char *ylabel,
		     int n_series, bool stacked, struct sim_error *err)
{
	char p[PATH_MAX + 64];
	snprintf(p, sizeof p, "%s/%s.gp", dir, name);
	FILE *f = fopen(p, "w");
	if (!f)
		return sim_error_set(err, SIM_ERR_IO, p, 0, 0, NULL, "cannot write: %s", strerror(errno));
	for (int k = 0; k < 2; k++) {
		if (k == 0)
			fprintf(f, "set terminal svg size 900,420 dynamic\nset output '%s.svg'\n", name);
		else
			fprintf(f, "set terminal png size 900,420\nset output '%s.png'\n", name);
		fprintf(f, "set title '%s'\nset ylabel '%s'\nset style data histograms\n", title, ylabel);
		fprintf(f, "set style histogram %s\nset style fill solid 0.8 border -1\n",
			stacked ? "rowstacked" : "clustered gap 1");
		fprintf(f, "set key outside right\nset xtics rotate by -30\nset grid ytics\nset yrange [0:*]\n");
		fprintf(f, "plot '%s.dat' using 2:xtic(1) title columnheader(2)", name);
		for (int s = 1; s < n_series; s++)
			fprintf(f, ", '' using %d title columnheader(%d)", s + 2, s + 2);
		fprintf(f, "\n");
	}
	fclose(f);
	return run_gnuplot(dir, name, err);
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
	if ((rc = run_gnuplot(plots, gp, err)))
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
	if ((rc = run_gnuplot(plots, gp, err)))
		return rc;
	fprintf(md, "### %s\n\n![IPC per SM](%s%s_ipc.svg)\n\n![DRAM bandwidth and BLP](%s%s_dram.svg)\n\n", title,
		md_prefix, name, md_prefix, name);
	return 0;
}

static const char *const stall_classes[] = {"issued", "structural", "data", "control", "fetch",
					     "barrier", "exit", "no_warp", NULL};

/* missing: filled with the runs the speedup table lacks ("vecadd/lrr, ..."), "" if none. */
static int write_report(const char *dir, const struct csv_table *t, const char *base, FILE *md,
			char *missing, size_t missing_n, struct sim_error *err)
{
	size_t miss_off = 0;
	int n_missing = 0;
	missing[0] = '\0';
	struct axes a = {0};
	for (int r = 0; r < t->n_rows; r++) {
		index_of(a.wl, &a.n_wl, t->cell[r][1], true);
		index_of(a.var, &a.n_var, t->cell[r][2], true);
	}
	if (index_of(a.var, &a.n_var, base, false) < 0)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--baseline",
				     "baseline variant '%s' is not in the results", base);
	int ipc = csv_col(t, "gpu.ipc");
	char plots[PATH_MAX + 16];
	snprintf(plots, sizeof plots, "%s/plots", dir);
	int rc = cli_mkdirs(plots, err);
	if (rc)
		return rc;

	/* 1. speedup over the baseline, per workload and variant, with the geometric mean */
	fprintf(md, "## IPC speedup over %s\n\n| workload |", base);
	for (int v = 0; v < a.n_var; v++)
		fprintf(md, " %s |", a.var[v]);
	fprintf(md, "\n|---|");
	for (int v = 0; v < a.n_var; v++)
		fprintf(md, "---:|");
	fprintf(md, "\n");
	char p[PATH_MAX + 64];
	snprintf(p, sizeof p, "%s/speedup.dat", plots);
	FILE *dat = fopen(p, "w");
	if (!dat)
		return sim_error_set(err, SIM_ERR_IO, p, 0, 0, NULL, "cannot write: %s", strerror(errno));
	fprintf(dat, "workload");
	for (int v = 0; v < a.n_var; v++)
		fprintf(dat, " %s", a.var[v]);
	fprintf(dat, "\n");
	double logsum[REP_MAX] = {0};
	int cnt[REP_MAX] = {0};
	for (int w = 0; w < a.n_wl; w++) {
		int rb = find_row(t, a.wl[w], base);
		double b = rb >= 0 ? csv_num(t, rb, ipc) : NAN;
		fprintf(md, "| %s |", a.wl[w]);
		fprintf(dat, "%s", a.wl[w]);
		for (int v = 0; v < a.n_var; v++) {
			int r = find_row(t, a.wl[w], a.var[v]);
			double s = r >= 0 ? csv_num(t, r, ipc) / b : NAN;
			/* a run without a result (or without the baseline's) is said to be missing,
			 * never printed as nan nor averaged over silently */
			int gone = r < 0 || !isfinite(csv_num(t, r, ipc)) ? r : rb < 0 || !isfinite(b) ? rb : 0;
			if (r < 0 || rb < 0 || !isfinite(s)) {
				const char *who = gone == r ? a.var[v] : base;
				char item[160];
				snprintf(item, sizeof item, "%s/%s", a.wl[w], who);
				if (!strstr(missing, item) && miss_off < missing_n) {
					miss_off += (size_t)snprintf(missing + miss_off, missing_n - miss_off, "%s%s",
								     n_missing ? ", " : "", item);
					n_missing++;
				}
				fprintf(md, " missing (%s) |", item);
				fprintf(dat, " 0.0000");
				continue;
			}
			fprintf(md, " %.3f |", s);
			fprintf(dat, " %.4f", isfinite(s) ? s : 0.0);
			if (isfinite(s) && s > 0) {
				logsum[v] += log(s);
				cnt[v]++;
			}
		}
		fprintf(md, "\n");
		fprintf(dat, "\n");
	}
	fprintf(md, "| **geomean** |");
	fprintf(dat, "geomean");
	for (int v = 0; v < a.n_var; v++) {
		double g = cnt[v] ? exp(logsum[v] / cnt[v]) : NAN;
		fprintf(md, " **%.3f** |", g);
		fprintf(dat, " %.4f", isfinite(g) ? g : 0.0);
	}
	fprintf(md, "\n\n");
	if (n_missing)
		fprintf(md, "**Incomplete**: %d run%s missing (%s); each geomean is over the workloads "
			    "that have both the run and the baseline.\n\n",
			n_missing, n_missing == 1 ? " is" : "s are", missing);
	fprintf(md, "![speedup](plots/speedup.svg)\n\n");
	fclose(dat);
	if ((rc = bar_chart(plots, "speedup", "IPC speedup over baseline", "speedup", a.n_var, false, err)))
		return rc;

	/* 2. memory-system metrics per variant (mean over workloads) */
	static const char *const mem_cols[] = {"gpu.l1d.hit_rate", "gpu.dram.blp", "gpu.dram.rbl",
					       "gpu.cinv", "gpu.memory_block_cycles", "gpu.rtru", NULL};
	fprintf(md, "## Memory system and core activity (mean over workloads)\n\n| policy |");
	for (int k = 0; mem_cols[k]; k++)
		fprintf(md, " %s |", mem_cols[k] + 4);
	fprintf(md, "\n|---|");
	for (int k = 0; mem_cols[k]; k++)
		fprintf(md, "---:|");
	fprintf(md, "\n");
	snprintf(p, sizeof p, "%s/blp_rbl.dat", plots);
	dat = fopen(p, "w");
	if (!dat)
		return sim_error_set(err, SIM_ERR_IO, p, 0, 0, NULL, "cannot write: %s", strerror(errno));
	fprintf(dat, "policy BLP RBL L1-hit-rate\n");
	for (int v = 0; v < a.n_var; v++) {
		fprintf(md, "| %s |", a.var[v]);
		double m[8] = {0};
		for (int k = 0; mem_cols[k]; k++) {
			m[k] = mean_over_workloads(t, &a, a.var[v], csv_col(t, mem_cols[k]));
			fprintf(md, " %.3f |", m[k]);
		}
		fprintf(md, "\n");
		fprintf(dat, "%s %.4f %.4f %.4f\n", a.var[v], isfinite(m[1]) ? m[1] : 0.0,
			isfinite(m[2]) ? m[2] : 0.0, isfinite(m[0]) ? m[0] : 0.0);
	}
	fclose(dat);
	fprintf(md, "\n![BLP and RBL](plots/blp_rbl.svg)\n\n");
	if ((rc = bar_chart(plots, "blp_rbl", "DRAM BLP, row-buffer locality, L1 hit rate", "", 3, false, err)))
		return rc;

	/* 3. stall breakdown per variant (share of scheduler cycles, mean over workloads) */
	fprintf(md, "## Scheduler cycle breakdown (share of scheduler cycles, mean over workloads)\n\n| policy |");
	for (int k = 0; stall_classes[k]; k++)
		fprintf(md, " %s |", stall_classes[k]);
	fprintf(md, "\n|---|");
	for (int k = 0; stall_classes[k]; k++)
		fprintf(md, "---:|");
	fprintf(md, "\n");
	snprintf(p, sizeof p, "%s/stalls.dat", plots);
	dat = fopen(p, "w");
	if (!dat)
		return sim_error_set(err, SIM_ERR_IO, p, 0, 0, NULL, "cannot write: %s", strerror(errno));
	fprintf(dat, "policy");
	for (int k = 0; stall_classes[k]; k++)
		fprintf(dat, " %s", stall_classes[k]);
	fprintf(dat, "\n");
	int n_cls = 0;
	for (int v = 0; v < a.n_var; v++) {
		fprintf(md, "| %s |", a.var[v]);
		fprintf(dat, "%s", a.var[v]);
		n_cls = 0;
		for (int k = 0; stall_classes[k]; k++, n_cls++) {
			char col[96];
			snprintf(col, sizeof col, "gpu.stall.%s_frac", stall_classes[k]);
			double mean = mean_over_workloads(t, &a, a.var[v], csv_col(t, col));
			if (!isfinite(mean))
				mean = 0.0;
			fprintf(md, " %.3f |", mean);
			fprintf(dat, " %.4f", mean);
		}
		fprintf(md, "\n");
		fprintf(dat, "\n");
	}
	fclose(dat);
	fprintf(md, "\n![stalls](plots/stalls.svg)\n\n");
	if ((rc = bar_chart(plots, "stalls", "Scheduler cycle breakdown", "share", n_cls, true, err)))
		return rc;

	/* 4. CTA timeline per core of the first run that wrote one (PRO Fig 2) */
	for (int r = 0; r < t->n_rows; r++) {
		char tl[PATH_MAX];
		char rel[PATH_MAX * 2];
		snprintf(rel, sizeof rel, "%s/%s/%s/%s/cta_timeline.csv", dir, t->cell[r][0], t->cell[r][1],
			 t->cell[r][2]);
		/* gnuplot runs inside plots/: give it an absolute path */
		if (access(rel, R_OK) || !realpath(rel, tl))
			continue;
		snprintf(p, sizeof p, "%s/cta_timeline.gp", plots);
		FILE *f = fopen(p, "w");
		if (!f)
			break;
		for (int k = 0; k < 2; k++) {
			fprintf(f, k ? "set terminal png size 900,500\nset output 'cta_timeline.png'\n"
				     : "set terminal svg size 900,500 dynamic\nset output 'cta_timeline.svg'\n");
			fprintf(f, "set title 'CTA timeline per core: %s / %s'\nset xlabel 'core cycle'\n"
				   "set ylabel 'core'\nset datafile separator ','\nunset key\n",
				t->cell[r][1], t->cell[r][2]);
			fprintf(f, "plot '%s' skip 1 using 5:3:($6-$5):(0) with vectors nohead lw 6\n", tl);
		}
		fclose(f);
		if ((rc = run_gnuplot(plots, "cta_timeline", err)))
			return rc;
		fprintf(md, "## CTA timeline (%s, %s)\n\n![timeline](plots/cta_timeline.svg)\n\n", t->cell[r][1],
			t->cell[r][2]);
		break;
	}

	/* 5. time series of every run made with --sample (a spec's overrides cannot ask for it:
	 * rerun a row with --sample N into its own directory) */
	bool ts_head = false;
	for (int r = 0; r < t->n_rows; r++) {
		char run[PATH_MAX], name[400], title[400], sp[PATH_MAX + 16];
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
			return rc;
	}
	return 0;
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
		char missing[512];
		rc = write_report(dir, t, base, md, missing, sizeof missing, err);
		fclose(md);
		if (!rc && rename(tmp, md_path))
			rc = sim_error_set(err, SIM_ERR_IO, md_path, 0, 0, NULL, "cannot write: %s", strerror(errno));
		if (rc)
			unlink(tmp);
		else
			printf("report written to %s\n", md_path);
		/* The report is kept (it says what is missing) but the command fails: a sweep with
		 * holes is not a result. */
		if (!rc && missing[0])
			rc = sim_error_set(err, SIM_ERR_INPUT, csv, 0, 0, NULL,
					   "runs missing from the results: %s (report.md marks them; the "
					   "geomeans leave them out)", missing);
	}
	csv_free(t);
	free(t);
	return rc;
}
