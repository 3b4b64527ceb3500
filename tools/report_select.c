/* SPDX-License-Identifier: MIT */
/* The papers' program-selection rules over a sweep's results table (report_select.h), and the
 * report section that shows them and the headline over the passing programs. */
#include <math.h>
#include <string.h>

#include "report_select.h"

/* Thresholds compare with this slack: a ratio of IPCs that is exactly a threshold in decimal (101 / 100
 * against 1%) is not one in binary. */
#define REP_EPS 1e-9

static const char *const rule_names[] = {"none", "owl", "pro", "baws", "paws", NULL};

int rep_rule_parse(const char *name)
{
	for (int i = 0; rule_names[i]; i++)
		if (!strcmp(rule_names[i], name))
			return i;
	return -1;
}

enum rep_rule rep_rule_of_sweep(const char *name)
{
	int r = rep_rule_parse(name);
	if (r >= 0)
		return (enum rep_rule)r;
	for (int i = 0; rule_names[i]; i++)
		if (rep_sweep_side_of(name, rule_names[i]))
			return (enum rep_rule)i;
	return REP_RULE_NONE;
}

bool rep_sweep_side_of(const char *sweep, const char *paper)
{
	size_t n = strlen(paper);
	return !strncmp(sweep, paper, n) && sweep[n] == '-';
}

const char *rep_rule_name(enum rep_rule r)
{
	return rule_names[r];
}

/* Statistic col of run (cfg, wl, var); NaN when the run or the statistic is missing. */
static double stat_of(const struct csv_table *t, const char *cfg, const char *wl, const char *var, const char *col)
{
	int r = csv_find_run(t, cfg, wl, var);
	return r >= 0 ? csv_num(t, r, csv_col(t, col)) : NAN;
}

static bool missing(struct rep_verdict *v, const char *var, const char *col, double x)
{
	if (isfinite(x) && x > 0)
		return false;
	v->known = false;
	snprintf(v->why, sizeof v->why, "no %s of variant %s", col, var);
	return true;
}

/* IPC of each of the n variants; false (and v says which) when one lacks it. */
static bool ipcs(const struct csv_table *t, const char *cfg, const char *wl, const char *const *var, int n,
		 double *ipc, struct rep_verdict *v)
{
	for (int i = 0; i < n; i++) {
		ipc[i] = stat_of(t, cfg, wl, var[i], "gpu.ipc");
		if (missing(v, var[i], "gpu.ipc", ipc[i]))
			return false;
	}
	return true;
}

void rep_select_judge(const struct csv_table *t, const char *cfg, const char *wl, enum rep_rule r,
		      struct rep_verdict *v)
{
	memset(v, 0, sizeof *v);
	v->known = true;
	v->value = NAN;
	switch (r) {
	case REP_RULE_NONE:
		v->pass = true;
		snprintf(v->why, sizeof v->why, "no rule");
		return;
	case REP_RULE_OWL: {
		static const char *const var[] = {"pmem", "lrr"};
		double ipc[2];
		if (!ipcs(t, cfg, wl, var, 2, ipc, v))
			return;
		v->value = ipc[0] / ipc[1];
		v->pass = v->value >= 1.4 - REP_EPS;
		snprintf(v->why, sizeof v->why, "PMEM %.2fx %s 1.4x: Type-%d", v->value, v->pass ? ">=" : "<",
			 v->pass ? 1 : 2);
		return;
	}
	case REP_RULE_PRO: {
		static const char *const var[] = {"tl", "lrr", "gto"};
		double ipc[3];
		if (!ipcs(t, cfg, wl, var, 3, ipc, v))
			return;
		int hi = 0, lo = 0;
		for (int i = 1; i < 3; i++) {
			hi = ipc[i] > ipc[hi] ? i : hi;
			lo = ipc[i] < ipc[lo] ? i : lo;
		}
		v->value = ipc[hi] / ipc[lo] - 1;
		v->pass = v->value >= 0.03 - REP_EPS;
		snprintf(v->why, sizeof v->why, "best %s %.1f%% over worst %s %s 3%%", var[hi], 100 * v->value, var[lo],
			 v->pass ? ">=" : "<");
		return;
	}
	case REP_RULE_BAWS: {
		v->value = stat_of(t, cfg, wl, "lrr", "gpu.rtru");
		if (!isfinite(v->value)) {
			v->known = false;
			snprintf(v->why, sizeof v->why, "no gpu.rtru of variant lrr");
			return;
		}
		v->pass = v->value > 0.15 + REP_EPS;
		snprintf(v->why, sizeof v->why, "lrr: warps wait at barriers %.1f%% of their time (RTRU) %s 15%%",
			 100 * v->value, v->pass ? ">" : "<=");
		return;
	}
	case REP_RULE_PAWS: {
		static const char *const var[] = {"gto", "lrr"};
		double ipc[2];
		if (!ipcs(t, cfg, wl, var, 2, ipc, v))
			return;
		/* the grid's CTAs, counted at launch: a launch cut by a budget may have completed none
		 * (gpu.ctas); a record from before gpu.grid_ctas has only the completed ones */
		const char *ctas_col = "gpu.grid_ctas";
		double ctas = stat_of(t, cfg, wl, "lrr", ctas_col), kernels = stat_of(t, cfg, wl, "lrr", "gpu.kernels");
		if (isnan(ctas))
			ctas = stat_of(t, cfg, wl, "lrr", ctas_col = "gpu.ctas");
		double core_cycles = stat_of(t, cfg, wl, "lrr", "gpu.core_cycles");
		double cycles = stat_of(t, cfg, wl, "lrr", "gpu.cycles");
		if (missing(v, "lrr", ctas_col, ctas) || missing(v, "lrr", "gpu.kernels", kernels) ||
		    missing(v, "lrr", "gpu.core_cycles", core_cycles) || missing(v, "lrr", "gpu.cycles", cycles))
			return;
		/* every core is clocked every cycle: core cycles over cycles is the core count */
		double cores = round(core_cycles / cycles), per_launch = ctas / kernels;
		double hi = fmax(ipc[0], ipc[1]), lo = fmin(ipc[0], ipc[1]);
		v->value = hi / lo - 1;
		bool differ = v->value > 0.01 + REP_EPS, fill = per_launch >= cores;
		v->pass = differ && fill;
		snprintf(v->why, sizeof v->why, "%s %.1f%% over %s (%s 1%%); %.0f CTAs per launch %s %.0f cores",
			 ipc[0] >= ipc[1] ? "gto" : "lrr", 100 * v->value, ipc[0] >= ipc[1] ? "lrr" : "gto",
			 differ ? ">" : "<=", per_launch, fill ? ">=" : "<", cores);
		return;
	}
	}
}

static const char *const rule_text[] = {
	"",
	"OWL (004 Table 2): Type-1 programs, whose IPC with a perfect memory (variant pmem) is at least "
	"1.4x lrr's",
	"PRO (000 Sec IV): at least 3% between the best and the worst IPC of TL (variant tl), LRR and GTO",
	"BAWS (001 Sec 5): barrier-intensive programs, whose warps wait at barriers more than 15% of the "
	"time (lrr's RTRU: warp time lost at barriers, the exit included, over the warp time of the "
	"barrier-delimited phases)",
	"PAWS (003 Sec V): kernels for which RR (lrr) and GTO differ by more than 1%, with a grid that "
	"fills every core (at least one CTA per core in each launch: mean grid CTAs per launch, gpu.grid_ctas "
	"over gpu.kernels, >= cores)",
};

int rep_select_section(FILE *md, const struct csv_table *t, const char *cfg, const char *const *wl, int n_wl,
		       const char *const *var, int n_var, const char *base, enum rep_rule r)
{
	if (r == REP_RULE_NONE)
		return n_wl;
	fprintf(md, "## Selection by %s's rule\n\n%s.\n\n| workload | measure | selected | why |\n|---|---:|---|---|\n",
		rep_rule_name(r), rule_text[r]);
	int n_pass = 0;
	for (int w = 0; w < n_wl; w++) {
		struct rep_verdict v;
		rep_select_judge(t, cfg, wl[w], r, &v);
		n_pass += v.known && v.pass;
		if (isfinite(v.value))
			fprintf(md, "| %s | %.3f |", wl[w], v.value);
		else
			fprintf(md, "| %s | - |", wl[w]);
		fprintf(md, " %s | %s |\n", !v.known ? "unknown" : v.pass ? "yes" : "no", v.why);
	}
	fprintf(md, "\n%d of %d workloads pass.\n\n| variant | geomean over %s, all %d | geomean over %s, the %d selected |\n"
		    "|---|---:|---:|\n", n_pass, n_wl, base, n_wl, base, n_pass);
	for (int k = 0; k < n_var; k++) {
		double sum_all = 0, sum_sel = 0;
		int n_all = 0, n_sel = 0;
		for (int w = 0; w < n_wl; w++) {
			double s = stat_of(t, cfg, wl[w], var[k], "gpu.ipc") / stat_of(t, cfg, wl[w], base, "gpu.ipc");
			if (!isfinite(s) || s <= 0)
				continue;
			sum_all += log(s);
			n_all++;
			struct rep_verdict v; /* judged again: cheap, and no per-workload array */
			rep_select_judge(t, cfg, wl[w], r, &v);
			if (v.known && v.pass) {
				sum_sel += log(s);
				n_sel++;
			}
		}
		fprintf(md, "| %s | %.3f | ", var[k], n_all ? exp(sum_all / n_all) : NAN);
		if (n_sel)
			fprintf(md, "%.3f |\n", exp(sum_sel / n_sel));
		else
			fprintf(md, "none selected |\n");
	}
	fprintf(md, "\n");
	return n_pass;
}
