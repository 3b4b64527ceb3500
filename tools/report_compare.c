/* SPDX-License-Identifier: MIT */
/* Each paper's reported comparisons (report_compare.h): the lists, with the published figures
 * as the papers (and experiments/README.md) give them, and the section that computes ours. */
#include <math.h>
#include <string.h>

#include "report_compare.h"

#define SEL REP_CMP_SELECTED
#define TA REP_CMP_TYPE_A
#define TB REP_CMP_TYPE_B

/* 004: Fig 7's scheme ladder, Fig 9's group sizes, Sec 5.1's perfect L2. */
static const struct rep_cmp owl_list[] = {
	{"CTA-aware over LRR (Fig 7)", "owl-cta", "lrr", "rising", SEL},
	{"+locality over LRR (Fig 7)", "owl-locality", "lrr", "rising", SEL},
	{"+BLP over LRR (Fig 7)", "owl-blp", "lrr", "rising", SEL},
	{"+prefetch, the full OWL, over LRR (Fig 7)", "owl", "lrr", "+33%", SEL},
	{"+prefetch stopping on demand (Sec 4.4's first scheme) over LRR", "owl-pf-on-demand", "lrr", "not given", SEL},
	{"groups of 4 warps over 8 (Fig 9)", "owl-blp-g4", "owl-blp", "below (8 best)", SEL},
	{"groups of 16 warps over 8 (Fig 9)", "owl-blp-g16", "owl-blp", "below (8 best)", SEL},
	{"perfect L2 over LRR (Sec 5.1)", "perfect-l2", "lrr", "about +48%", SEL},
};

/* 000 Sec V, Fig 6: PRO against GPGPU-Sim's TL, LRR and GTO. */
static const struct rep_cmp pro_list[] = {
	{"PRO over TL", "pro", "tl", "+13%", SEL},
	{"PRO over LRR", "pro", "lrr", "+12%", SEL},
	{"PRO over GTO", "pro", "gto", "+2%", SEL},
	{"TL over LRR", "tl", "lrr", "-0.9%", SEL},
};

/* 001 Sec 6: the headline, Fig 8's policies (TLS = tl), Fig 9's fetch policies with MWF(LRR). */
static const struct rep_cmp baws_list[] = {
	{"BAWS over LRR", "baws", "lrr", "+17%", SEL},
	{"BAWS over GTO", "baws", "gto", "+9%", SEL},
	{"BAWS over SAWS", "baws", "saws", "+7%", SEL},
	{"Fig 8: GTO over LRR", "gto", "lrr", "+8.4%", SEL},
	{"Fig 8: TLS over LRR", "tl", "lrr", "0%", SEL},
	{"Fig 8: MWF(LRR) over LRR", "mwf-lrr", "lrr", "+9.5%", SEL},
	{"Fig 8: MWF(GTO) over LRR", "mwf-gto", "lrr", "+9.8%", SEL},
	{"Fig 8: MWF(GTO) over GTO", "mwf-gto", "gto", "+1.3%", SEL},
	{"Fig 8: CFF added to GTO", "gto-cff", "gto", "+1.7%", SEL},
	{"Fig 8: CFF added to TLS", "tl-cff", "tl", "+1.7%", SEL},
	{"Fig 8: CFF added to MWF(LRR)", "mwf-lrr-cff", "mwf-lrr", "+6.7%", SEL},
	{"Fig 9: MWF(LRR), RR fetch, over LRR", "mwf-lrr", "lrr", "about +9.5%", SEL},
	{"Fig 9: MWF(LRR), FEF fetch, over LRR", "mwf-lrr-fef", "lrr", "about +11%", SEL},
	{"Fig 9: MWF(LRR), CFF fetch, over LRR", "mwf-lrr-cff", "lrr", "about +17%", SEL},
	{"Fig 9, every policy into a free slot: RR fetch over LRR", "mwf-lrr-fs", "lrr", "about +9.5%", SEL},
	{"Fig 9, every policy into a free slot: CFF fetch over LRR", "mwf-lrr-cff-fs", "lrr", "about +17%", SEL},
	{"Fig 9, every policy into a free slot: CFF over FEF", "mwf-lrr-cff-fs", "mwf-lrr-fef", "CFF above", SEL},
};

/* experiments/baws-fetch.cfg: Fig 9's matrix with one eligibility, and with fetch made ample. */
static const struct rep_cmp baws_fetch_list[] = {
	{"Fig 8: GTO over LRR", "gto", "lrr", "+8.4%", SEL},
	{"Fig 9: MWF(LRR), RR fetch, over LRR", "mwf-rr", "lrr", "about +9.5%", SEL},
	{"Fig 9: MWF(LRR), FEF fetch, over LRR", "mwf-fef", "lrr", "about +11%", SEL},
	{"Fig 9: MWF(LRR), CFF fetch, over LRR", "mwf-cff", "lrr", "about +17%", SEL},
	{"Fig 9: CFF over RR fetch", "mwf-cff", "mwf-rr", "CFF above", SEL},
	{"Fig 9: CFF over FEF fetch", "mwf-cff", "mwf-fef", "CFF above", SEL},
	{"8 I-buffer slots: CFF over RR fetch", "ib8-cff", "ib8-rr", "not given", SEL},
	{"8 I-buffer slots: CFF over FEF fetch", "ib8-cff", "ib8-fef", "not given", SEL},
	{"64 KB I-cache: CFF over RR fetch", "ic64k-cff", "ic64k-rr", "not given", SEL},
	{"64 KB I-cache: CFF over FEF fetch", "ic64k-cff", "ic64k-fef", "not given", SEL},
	{"free I-cache misses: CFF over RR fetch", "icfree-cff", "icfree-rr", "not given", SEL},
	{"free I-cache misses: CFF over FEF fetch", "icfree-cff", "icfree-fef", "not given", SEL},
	{"free I-cache misses, RR fetch: over the machine's", "icfree-rr", "mwf-rr", "not given", SEL},
};

/* 003 Sec V, Fig 8-9: Type A (GTO better) and Type B (RR better), single and two level. */
static const struct rep_cmp paws_list[] = {
	{"PAWS over RR", "paws", "lrr", "+3..9%", SEL},
	{"PAWS over GTO", "paws", "gto", "within 1%", SEL},
	{"Type A, single level: GTO over RR", "gto", "lrr", "+10%", TA},
	{"Type A, single level: PAWS over RR", "paws", "lrr", "+9%", TA},
	{"Type B, single level: RR over GTO", "lrr", "gto", "+9.2%", TB},
	{"Type B, single level: PAWS over GTO", "paws", "gto", "+9%", TB},
	{"Type A, two level: TL-GTO over TL-RR", "tl-gto", "tl-rr", "+4%", TA},
	{"Type A, two level: PAWS-TL over TL-RR", "paws-tl", "tl-rr", "+3%", TA},
	{"Type B, two level: TL-RR over TL-GTO", "tl-rr", "tl-gto", "+7%", TB},
	{"Type B, two level: PAWS-TL over TL-GTO", "paws-tl", "tl-gto", "+4%", TB},
	{"two level beside single level: PAWS-TL over PAWS", "paws-tl", "paws", "not given", SEL},
};

/* 002 Sec 6.4: fetch group sizes (8 best). */
static const struct rep_cmp twolevel_list[] = {
	{"groups of 8 over LRR", "tl-8", "lrr", "+10.1%", SEL},
	{"groups of 1 over LRR", "tl-1", "lrr", "below groups of 8", SEL},
	{"groups of 2 over LRR", "tl-2", "lrr", "below groups of 8", SEL},
	{"groups of 4 over LRR", "tl-4", "lrr", "below groups of 8", SEL},
	{"groups of 16 over LRR", "tl-16", "lrr", "below groups of 8", SEL},
	{"groups of 32 over LRR", "tl-32", "lrr", "below groups of 8", SEL},
};

/* 002 Sec 6.1, Fig 9-10: large warps, two-level scheduling, both. */
static const struct rep_cmp lwm_list[] = {
	{"LWM over the baseline", "lwm", "baseline", "+7.6%", SEL},
	{"two-level over the baseline", "2lev", "baseline", "+10.1%", SEL},
	{"LWM and two-level over the baseline", "lwm-2lev", "baseline", "+17%", SEL},
};

#define LIST(name, l) {name, l, (int)(sizeof l / sizeof l[0])}
static const struct {
	const char *sweep;
	const struct rep_cmp *list;
	int n;
} lists[] = {
	LIST("owl", owl_list), LIST("pro", pro_list), LIST("baws", baws_list), LIST("baws-fetch", baws_fetch_list),
	LIST("paws", paws_list), LIST("twolevel", twolevel_list), LIST("lwm", lwm_list),
};

const struct rep_cmp *rep_compare_list(const char *sweep, int *n)
{
	size_t k = sizeof lists / sizeof lists[0];
	for (size_t i = 0; i < k; i++)
		if (!strcmp(lists[i].sweep, sweep)) {
			*n = lists[i].n;
			return lists[i].list;
		}
	/* a paper's side study (paws-fwt-kernel) takes the paper's list, as it takes its rule; the longest
	 * name wins, since one list's name prefixes another's (baws-fetch-x is baws-fetch's, not baws's) */
	size_t best = k, best_len = 0;
	for (size_t i = 0; i < k; i++)
		if (rep_sweep_side_of(sweep, lists[i].sweep) && strlen(lists[i].sweep) > best_len) {
			best = i;
			best_len = strlen(lists[i].sweep);
		}
	*n = best < k ? lists[best].n : 0;
	return best < k ? lists[best].list : NULL;
}

static double ipc_of(const struct csv_table *t, const char *cfg, const char *wl, const char *var)
{
	int r = csv_find_run(t, cfg, wl, var);
	double x = r >= 0 ? csv_num(t, r, csv_col(t, "gpu.ipc")) : NAN;
	return isfinite(x) && x > 0 ? x : NAN;
}

static bool in_set(const struct csv_table *t, const char *cfg, const char *wl, enum rep_rule r, enum rep_cmp_set set)
{
	struct rep_verdict v;
	rep_select_judge(t, cfg, wl, r, &v);
	if (!v.known || !v.pass)
		return false;
	if (set == REP_CMP_SELECTED)
		return true;
	double gto = ipc_of(t, cfg, wl, "gto"), lrr = ipc_of(t, cfg, wl, "lrr");
	return set == REP_CMP_TYPE_A ? gto > lrr : lrr > gto; /* NaN: in neither */
}

double rep_compare_geomean(const struct csv_table *t, const char *cfg, const char *const *wl, int n_wl,
			   enum rep_rule r, const struct rep_cmp *c, int *n_used)
{
	double sum = 0;
	*n_used = 0;
	for (int w = 0; w < n_wl; w++) {
		double s = ipc_of(t, cfg, wl[w], c->num) / ipc_of(t, cfg, wl[w], c->den);
		if (!isfinite(s) || !in_set(t, cfg, wl[w], r, c->set))
			continue;
		sum += log(s);
		(*n_used)++;
	}
	return *n_used ? exp(sum / *n_used) : NAN;
}

static const char *const set_name[] = {"selected", "Type A", "Type B"};

/* "+4.5%" or "-" into buf. */
static const char *pct(char *buf, size_t n, double g)
{
	if (isfinite(g))
		snprintf(buf, n, "%+.1f%%", 100 * (g - 1));
	else
		snprintf(buf, n, "-");
	return buf;
}

int rep_compare_section(FILE *md, FILE *out, const struct csv_table *t, const char *cfg, const char *const *wl,
			int n_wl, const char *sweep, enum rep_rule r)
{
	int n_list;
	const struct rep_cmp *list = rep_compare_list(sweep, &n_list);
	if (!list)
		return 0;
	if (out && r == REP_RULE_NONE)
		fprintf(out, "%s on %s: no selection rule (%d workloads)\n", sweep, cfg, n_wl);
	else if (out) {
		int n_pass = 0;
		fprintf(out, "%s on %s: %s's rule selects", sweep, cfg, rep_rule_name(r));
		for (int w = 0; w < n_wl; w++) {
			struct rep_verdict v;
			rep_select_judge(t, cfg, wl[w], r, &v);
			if (v.known && v.pass) {
				fprintf(out, " %s", wl[w]);
				n_pass++;
			}
		}
		fprintf(out, " (%d of %d)\n", n_pass, n_wl);
	}
	fprintf(md, "## The paper's comparisons\n\nIPC of the first variant over the second, geometric mean over the "
		    "workloads that have both runs: over all of them and over the set the paper reports it for (the "
		    "workloads its rule selects; PAWS's Type A / B: those selected with GTO's / RR's IPC the higher), "
		    "beside the published figure.\n\n| comparison | variants | published | all | set |\n"
		    "|---|---|---:|---:|---:|\n");
	int written = 0;
	for (int i = 0; i < n_list; i++) {
		const struct rep_cmp *c = &list[i];
		struct rep_cmp all = *c;
		int n_all, n_set;
		all.set = REP_CMP_SELECTED;
		double g_all = rep_compare_geomean(t, cfg, wl, n_wl, REP_RULE_NONE, &all, &n_all);
		if (!n_all)
			continue; /* the sweep has not both variants */
		double g_set = rep_compare_geomean(t, cfg, wl, n_wl, r, c, &n_set);
		char a[32], s[32];
		const char *set = r == REP_RULE_NONE && c->set == REP_CMP_SELECTED ? "all, no rule" : set_name[c->set];
		fprintf(md, "| %s | %s / %s | %s | %s (%d) | %s (%s: %d) |\n", c->what, c->num, c->den, c->published,
			pct(a, sizeof a, g_all), n_all, pct(s, sizeof s, g_set), set, n_set);
		if (out)
			fprintf(out, "  %s (%s / %s): published %s; here %s over all %d, %s over %s (%d)\n", c->what,
				c->num, c->den, c->published, a, n_all, s, set, n_set);
		written++;
	}
	fprintf(md, "\n");
	return written;
}
