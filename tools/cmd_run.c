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
#include "../workloads/workload.h"
#include "cli.h"

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

static void usage(void)
{
	printf("usage: warpsim run -c CONFIG [-c PRESET]... -w WORKLOAD [-s key=value]... [-o OUTDIR]\n"
	       "                  [--size small|large] [--functional] [--json] [--quiet]\n"
	       "  -c FILE        machine configuration (later files override earlier: presets)\n"
	       "  -w FILE        workload description (workloads/*/NAME.cfg)\n"
	       "  -s key=value   override any setting (warpsim config --list)\n"
	       "  -o DIR         write stats.json, config.cfg and cta_timeline.csv there\n"
	       "  --size S       workload size (default: the workload file's)\n"
	       "  --functional   execute functionally only (no timing model)\n"
	       "  --json         print the stats document on stdout instead of the summary\n"
	       "  --quiet        no summary\n");
}

int cmd_run(int argc, char **argv, struct sim_error *err)
{
	static const char *const with_value[] = {"--size", NULL};
	static const char *const flags[] = {"--functional", "--quiet", NULL};
	struct cli_opts o;
	int rc = cli_parse(argc, argv, "cswo", with_value, flags, &o, err);
	if (rc)
		return rc;
	if (o.help) {
		usage();
		return 0;
	}
	if (o.n_positional)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, o.positional[0], "unexpected argument");
	if (!o.workload)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "-w", "run needs -w WORKLOAD");
	bool functional = cli_long(&o, "--functional") != NULL;
	if (!o.n_configs && !functional)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "-c", "run needs -c CONFIG");
	bool quiet = cli_long(&o, "--quiet") != NULL;

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
	double t0 = cli_now_s();
	struct fe_device dev = warpsim_device(ws);
	rc = workload_run(w, &dev, quiet ? NULL : stderr, err);
	double secs = cli_now_s() - t0;
	if (rc)
		goto out;
	struct warpsim_error we;
	if (o.outdir && (rc = warpsim_write_outputs(ws, o.outdir, &we))) {
		sim_error_set(err, rc, NULL, 0, 0, NULL, "%s", we.message);
		goto out;
	}
	struct gpu *g = warpsim_gpu(ws);
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
		} else {
			uint64_t wi, ti;
			warpsim_functional_totals(ws, &wi, &ti);
			printf("functional run: %llu warp instructions, %llu thread instructions in %.2f s; check passed\n",
			       (unsigned long long)wi, (unsigned long long)ti, secs);
		}
	}
out:
	workload_destroy(w);
	warpsim_destroy(ws);
	return rc;
}
