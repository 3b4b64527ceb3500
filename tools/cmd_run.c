/* SPDX-License-Identifier: MIT */
/* `warpsim run`: build the GPU from configuration, run a workload on it, print a summary and
 * write stats.json, the resolved configuration and the CTA timeline to OUTDIR atomically. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "../api/api_int.h"
#include "../api/launch_ctl.h"
#include "../workloads/workload.h"
#include "cli.h"
#include "progress.h"
#include "provenance.h"

/* config.cfg's trailer: the provenance as comments (warpsim_set_provenance). */
static void prov_comments(FILE *f, const void *prov)
{
	prov_write_comments(f, prov);
}

static const char *const summary_patterns[] = {"gpu.*", NULL};

/* The files a run writes into -o DIR. */
static const char *const out_names[] = {"config.cfg", "cta_timeline.csv", "stats.json", NULL};

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return a && b && !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* Before anything is simulated: DIR exists or is created, a file can be created in it, and
 * none of the files the run writes there is one of its inputs (a -c file, the workload) or a
 * config.cfg that warpsim did not write (an @include'd part, a PTX so named). */
static int outdir_check(const struct cli_opts *o, struct sim_error *err)
{
	int rc = cli_mkdirs(o->outdir, err);
	if (rc)
		return rc;
	char p[PATH_MAX];
	snprintf(p, sizeof p, "%s/.warpsim-probe-XXXXXX", o->outdir);
	int fd = mkstemp(p);
	if (fd < 0)
		return sim_error_set(err, SIM_ERR_IO, o->outdir, 0, 0, "-o",
				     "cannot write into the output directory: %s", strerror(errno));
	close(fd);
	unlink(p);
	for (const char *const *n = out_names; *n; n++) {
		snprintf(p, sizeof p, "%s/%s", o->outdir, *n);
		const char *input = same_file(p, o->workload) ? o->workload : NULL;
		for (int i = 0; !input && i < o->n_configs; i++)
			if (same_file(p, o->configs[i]))
				input = o->configs[i];
		if (input)
			return sim_error_set(err, SIM_ERR_USAGE, p, 0, 0, "-o",
					     "the run would overwrite its input %s: choose another "
					     "output directory", input);
	}
	snprintf(p, sizeof p, "%s/config.cfg", o->outdir);
	FILE *f = fopen(p, "r");
	if (f) {
		char head[64] = "";
		bool ours = fgets(head, sizeof head, f) &&
			    !strncmp(head, "# warpsim resolved configuration", 32);
		fclose(f);
		if (!ours)
			return sim_error_set(err, SIM_ERR_USAGE, p, 0, 0, "-o",
					     "exists and is not a resolved configuration written by "
					     "warpsim (an input?): choose another output directory");
	}
	return 0;
}

/* The gpu's device with the progress line cleared after each launch, so that the workload's
 * own lines (launch, check) start at column 0 on a terminal. */
struct progress_dev {
	struct fe_device inner;
	struct progress *pr;
};

static int progress_launch(void *ctx, struct fe_launch *l, struct sim_error *err)
{
	struct progress_dev *d = ctx;
	int rc = d->inner.launch(d->inner.ctx, l, err);
	progress_finish(d->pr);
	return rc;
}

static void usage(void)
{
	printf("usage: warpsim run -c CONFIG [-c PRESET]... -w WORKLOAD [-s key=value]... [-o OUTDIR]\n"
	       "                  [--size SIZE] [--functional] [--json] [--quiet]\n"
	       "                  [--progress | --no-progress] [--progress-interval S] [--sample N]\n"
	       "  -c FILE        machine configuration (later files override earlier: presets)\n"
	       "  -w FILE        workload description (workloads/*/NAME.cfg)\n"
	       "  -s key=value   override any setting (warpsim config --list)\n"
	       "  -o DIR         write stats.json, config.cfg and cta_timeline.csv there\n"
	       "  --size S       workload size: small, medium or large (the groups of the workload's `sizes`;\n"
	       "                 workloads/gpgpusim_ref/: ref); default: the workload file's `size`\n"
	       "  --functional   execute functionally only (no timing model)\n"
	       "  --json         print the stats document on stdout instead of the summary\n"
	       "  --quiet        no summary\n"
	       "  --progress     a progress line (cycles, kernels, IPC, speed, ETA) on stderr even when it\n"
	       "                 is not a terminal (one line per report); default: on a terminal only\n"
	       "  --no-progress  no progress line\n"
	       "  --progress-interval S  seconds of wall time between progress reports (default 1)\n"
	       "  --sample N     time series: OUTDIR/samples.csv, a row per N core cycles (IPC per SM,\n"
	       "                 scheduler cycles by class, L1/L2 hit rates, DRAM bandwidth, BLP and RBL\n"
	       "                 per channel, NoC latency and link utilisation); needs -o\n");
	cli_budget_usage(stdout);
}

int cmd_run(int argc, char **argv, struct sim_error *err)
{
	static const char *const with_value[] = {"--size", "--progress-interval", "--sample",
						 CLI_BUDGET_WITH_VALUE, NULL};
	static const char *const flags[] = {"--functional", "--quiet", "--progress", "--no-progress",
					    CLI_BUDGET_FLAGS, NULL};
	struct cli_opts o;
	struct cli_budget_buf bb;
	int rc = cli_parse_command(argc, argv, "cswo", with_value, flags, usage, &o, err);
	if (rc || o.help)
		return rc;
	if ((rc = cli_budget_overrides(&o, &bb, err)))
		return rc;
	if (!o.workload)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "-w", "run needs -w WORKLOAD");
	bool functional = cli_long(&o, "--functional") != NULL;
	if (!o.n_configs && !functional)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "-c", "run needs -c CONFIG");
	bool quiet = cli_long(&o, "--quiet") != NULL;
	bool show_progress;
	double interval_s;
	if ((rc = cli_progress_opts(&o, quiet, &show_progress, &interval_s, err)))
		return rc;
	struct progress pr;
	struct progress_dev pdev;
	uint64_t sample_cycles = 0;
	if (cli_long(&o, "--sample")) {
		/* core cycles per sample */
		int prc = cli_parse_u64("--sample", cli_long(&o, "--sample"), 1, 1ull << 40, &sample_cycles, err);
		if (prc)
			return prc;
		if (!o.outdir)
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--sample",
					     "writes OUTDIR/samples.csv: give -o OUTDIR");
		if (functional)
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--sample",
					     "needs the timing model (not --functional)");
	}
	FILE *samples = NULL;
	char samples_tmp[PATH_MAX] = "";

	struct warpsim *ws = NULL;
	struct workload *w = NULL;
	struct warpsim_options wo = {.configs = o.configs, .n_configs = o.n_configs,
				     .overrides = o.overrides, .n_overrides = o.n_overrides,
				     .functional = functional};
	if (!(ws = warpsim_create_sim(&wo, err))) {
		rc = err->code ? (int)err->code : SIM_ERR_CONFIG;
		goto out;
	}
	w = workload_load_size(o.workload, cli_long(&o, "--size"), err);
	if (!w) {
		rc = err->code ? (int)err->code : SIM_ERR_INPUT;
		goto out;
	}
	if (o.outdir && (rc = outdir_check(&o, err)))
		goto out;
	struct gpu *g = warpsim_gpu(ws);
	double t0 = cli_now_s();
	time_t start = time(NULL);
	struct fe_device dev = warpsim_device(ws);
	if (g && sample_cycles) {
		snprintf(samples_tmp, sizeof samples_tmp, "%s/samples.csv.tmp.%ld", o.outdir, (long)getpid());
		samples = fopen(samples_tmp, "w");
		if (!samples) {
			rc = sim_error_set(err, SIM_ERR_IO, samples_tmp, 0, 0, "--sample", "cannot write: %s",
					   strerror(errno));
			goto out;
		}
		if ((rc = gpu_set_sampler(g, sample_cycles, samples, err)))
			goto out;
	}
	if (g && show_progress) {
		progress_init(&pr, stderr, isatty(STDERR_FILENO), interval_s, workload_launch_count(w));
		progress_set_budget(&pr, warpsim_cfg(ws));
		gpu_set_progress(g, progress_report, &pr);
		pdev.inner = dev;
		pdev.pr = &pr;
		dev.launch = progress_launch;
		dev.ctx = &pdev;
	}
	rc = workload_run(w, &dev, quiet ? NULL : stderr, err);
	double secs = cli_now_s() - t0;
	/* a budget that stops the run is a clean end: outputs written, exit 0, stats.json "budget"
	 * says where; the workload's check is not made (its results are not all computed) */
	bool capped = rc == SIM_ERR_BUDGET;
	if (capped) {
		char line[1024];
		sim_error_format(err, line, sizeof line);
		fprintf(stderr, "warpsim run: %s; the run ends there (no check)\n", line);
		sim_error_clear(err);
		rc = 0;
	}
	if (rc)
		goto out;
	/* Outside the simulated stats: the byte comparisons of runs leave it out (stats.h). */
	json_t *prov = prov_create(argc, argv, &o, warpsim_cfg(ws), w, start, secs);
	warpsim_set_provenance(ws, prov, prov_comments, prov);
	if (o.outdir) {
		char p[PATH_MAX];
		if (samples) {
			bool ok = fclose(samples) == 0;
			samples = NULL;
			snprintf(p, sizeof p, "%s/samples.csv", o.outdir);
			if (!ok || rename(samples_tmp, p)) {
				rc = sim_error_set(err, SIM_ERR_IO, p, 0, 0, "--sample", "cannot write: %s", strerror(errno));
				goto out;
			}
			samples_tmp[0] = '\0';
		}
		/* config.cfg (provenance as comments), cta_timeline.csv, then stats.json. */
		struct warpsim_error we;
		if ((rc = warpsim_write_outputs(ws, o.outdir, &we))) {
			sim_error_set(err, rc, NULL, 0, 0, NULL, "%s", we.message);
			goto out;
		}
	}
	if (o.json) {
		char *s = warpsim_stats_json(ws);
		if (s) {
			printf("%s\n", s);
			free(s);
		}
	} else if (!quiet) {
		printf("workload %s (%s) on %s\n", workload_name(w), workload_size(w),
		       o.n_configs ? o.configs[0] : "functional executor");
		if (g) {
			stats_print_summary(warpsim_stats(ws), stdout, summary_patterns);
			double cyc = (double)gpu_core_cycles(g), wi = (double)gpu_warp_insts(g);
			printf("simulated %.0f warp instructions, %.0f core cycles in %.2f s "
			       "(%.0f warp inst/s, %.0f cycles/s)\n", wi, cyc, secs,
			       secs > 0 ? wi / secs : 0.0, secs > 0 ? cyc / secs : 0.0);
			api_ctl_print(warpsim_ctl(ws), stdout);
		} else {
			uint64_t wi, ti;
			warpsim_functional_totals(ws, &wi, &ti);
			printf("functional run: %llu warp instructions, %llu thread instructions in %.2f s; %s\n",
			       (unsigned long long)wi, (unsigned long long)ti, secs,
			       capped ? "capped, no check" : "check passed");
		}
	}
out:
	if (samples)
		fclose(samples);
	if (samples_tmp[0])
		unlink(samples_tmp);
	workload_destroy(w);
	warpsim_destroy(ws);
	return rc;
}
