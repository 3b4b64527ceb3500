/* SPDX-License-Identifier: MIT */
/* Shared command-line parsing and configuration building for every subcommand. */
#include "cli.h"

#include "../api/launch_ctl.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../components/gpu.h"

static bool in_list(const char *const *l, const char *s)
{
	for (; l && *l; l++)
		if (!strcmp(*l, s))
			return true;
	return false;
}

int cli_parse(int argc, char **argv, const char *allowed, const char *const *long_with_value,
	      const char *const *long_flags, struct cli_opts *o, struct sim_error *err)
{
	memset(o, 0, sizeof *o);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--json")) {
			o->json = true;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			o->help = true;
			continue;
		}
		if (a[0] == '-' && a[1] == '-') {
			const char *eq = strchr(a, '=');
			char name[64];
			size_t n = eq ? (size_t)(eq - a) : strlen(a);
			if (n >= sizeof name)
				return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, a, "unknown option");
			memcpy(name, a, n);
			name[n] = '\0';
			bool takes_value = in_list(long_with_value, name);
			if (!takes_value && !in_list(long_flags, name))
				return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, name, "unknown option");
			if (o->n_long == 16)
				return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, name, "too many options");
			const char *val = "1";
			if (takes_value) {
				if (eq)
					val = eq + 1;
				else if (i + 1 < argc)
					val = argv[++i];
				else
					return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, name, "missing value");
				if (!*val)
					return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, name, "needs a value, got ''");
			} else if (eq) {
				return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, name, "takes no value");
			}
			o->long_names[o->n_long] = argv[i - (takes_value && !eq ? 1 : 0)];
			/* store the bare name: point into a static table is not possible; keep argv text */
			o->long_values[o->n_long] = val;
			o->n_long++;
			continue;
		}
		if (a[0] == '-' && a[1] && !a[2]) {
			if (!strchr(allowed, a[1]))
				return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, a, "unknown option");
			if (i + 1 >= argc)
				return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, a, "missing value");
			const char *v = argv[++i];
			if (!*v)
				return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, a, "needs a value, got ''");
			switch (a[1]) {
			case 'c':
				if (o->n_configs == CLI_MAX_CONFIGS)
					return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, a, "too many -c");
				o->configs[o->n_configs++] = v;
				break;
			case 's':
				if (o->n_overrides == CLI_MAX_OVERRIDES)
					return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, a, "too many -s");
				o->overrides[o->n_overrides++] = v;
				break;
			case 'w':
				o->workload = v;
				break;
			case 'o':
				o->outdir = v;
				break;
			default:
				return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, a, "unknown option");
			}
			continue;
		}
		if (a[0] == '-' && a[1])
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, a, "unknown option");
		if (o->n_positional == CLI_MAX_POSITIONAL)
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, a, "too many arguments");
		o->positional[o->n_positional++] = a;
	}
	return 0;
}

int cli_parse_command(int argc, char **argv, const char *allowed, const char *const *long_with_value,
		      const char *const *long_flags, void (*usage)(void), struct cli_opts *o,
		      struct sim_error *err)
{
	int rc = cli_parse(argc, argv, allowed, long_with_value, long_flags, o, err);
	if (rc)
		return rc;
	if (o->help) {
		usage();
		return 0;
	}
	if (o->n_positional)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, o->positional[0], "unexpected argument");
	return 0;
}

const char *cli_long(const struct cli_opts *o, const char *name)
{
	size_t n = strlen(name);
	for (int i = 0; i < o->n_long; i++)
		if (!strncmp(o->long_names[i], name, n) &&
		    (o->long_names[i][n] == '\0' || o->long_names[i][n] == '='))
			return o->long_values[i];
	return NULL;
}

int cli_parse_u64(const char *flag, const char *s, uint64_t min, uint64_t max, uint64_t *out, struct sim_error *err)
{
	char *end = NULL;
	errno = 0;
	unsigned long long v = s ? strtoull(s, &end, 10) : 0;
	/* strtoull takes "-1" as 2^64 - 1 and skips leading blanks: both refused */
	if (!s || !*s || errno || *end || s[0] == '-' || s[0] == '+' || s[0] == ' ' || v < min || v > max)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, flag,
				     "expects an integer in %" PRIu64 "..%" PRIu64 ", got '%s'", min, max, s ? s : "");
	*out = v;
	return 0;
}

int cli_build_cfg(const struct cli_opts *o, struct cfg **out, struct sim_error *err)
{
	struct cfg *c = cfg_create();
	if (!c)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	int rc = gpu_cfg_define_all(c, err);
	for (int i = 0; !rc && i < o->n_configs; i++)
		rc = cfg_load_file(c, o->configs[i], err);
	for (int i = 0; !rc && i < o->n_overrides; i++)
		rc = cfg_set_override(c, o->overrides[i], err);
	if (!rc)
		rc = gpu_cfg_validate(c, err);
	if (!rc)
		rc = api_ctl_check_cfg(c, err);
	if (rc) {
		cfg_destroy(c);
		return rc;
	}
	*out = c;
	return 0;
}

int cli_path(char *buf, size_t n, struct sim_error *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int k = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	if (k < 0)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, NULL, "cannot format a path from '%s'", fmt);
	if ((size_t)k >= n)
		/* buf holds the start of the path: enough to tell which one it is */
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, NULL, "path too long (%d bytes, at most %zu): %.160s...",
				     k, n - 1, buf);
	return 0;
}

int cli_mkdirs(const char *dir, struct sim_error *err)
{
	char buf[4096];
	int rc = cli_path(buf, sizeof buf, err, "%s", dir);
	if (rc)
		return rc;
	if (!*buf)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, NULL, "an empty directory name");
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) && errno != EEXIST)
			return sim_error_set(err, SIM_ERR_IO, buf, 0, 0, NULL, "cannot create directory: %s",
					     strerror(errno));
		*p = '/';
	}
	if (mkdir(buf, 0777) && errno != EEXIST)
		return sim_error_set(err, SIM_ERR_IO, buf, 0, 0, NULL, "cannot create directory: %s",
				     strerror(errno));
	return 0;
}

int cli_write_atomic(const char *path, int (*fn)(FILE *f, const void *ctx, struct sim_error *err),
		     const void *ctx, struct sim_error *err)
{
	char tmp[4096];
	int rc0 = cli_path(tmp, sizeof tmp, err, "%s.tmp.%ld", path, (long)getpid());
	if (rc0)
		return rc0;
	FILE *f = fopen(tmp, "w");
	if (!f)
		return sim_error_set(err, SIM_ERR_IO, tmp, 0, 0, NULL, "cannot write: %s", strerror(errno));
	int rc = fn(f, ctx, err);
	if (fclose(f) && !rc)
		rc = sim_error_set(err, SIM_ERR_IO, tmp, 0, 0, NULL, "cannot write: %s", strerror(errno));
	if (!rc && rename(tmp, path))
		rc = sim_error_set(err, SIM_ERR_IO, path, 0, 0, NULL, "cannot rename: %s", strerror(errno));
	if (rc)
		unlink(tmp);
	return rc;
}

int cli_progress_opts(const struct cli_opts *o, bool quiet, bool *show, double *interval_s,
		      struct sim_error *err)
{
	if (cli_long(o, "--progress") && cli_long(o, "--no-progress"))
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--progress", "and --no-progress together");
	*interval_s = 1.0;
	const char *iv = cli_long(o, "--progress-interval");
	if (iv) {
		char *end;
		*interval_s = strtod(iv, &end);
		if (*end || end == iv || !(*interval_s >= 0 && *interval_s <= 86400))
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--progress-interval",
					     "expected seconds, 0..86400");
	}
	/* On a terminal unless refused; elsewhere (a sweep's run.log, a pipe) only when asked. */
	*show = cli_long(o, "--progress") || (!cli_long(o, "--no-progress") && !quiet && isatty(STDERR_FILENO));
	return 0;
}

double cli_now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Each budget flag and the setting it stands for; numbers are 1..2^63-1 (0, no limit, is the
 * default: a flag that says "no limit" would be a mistake). */
static const struct {
	const char *flag, *key;
	bool number;
} budget_flags[] = {
	{"--max-insts", "sim.max_thread_insts", true},
	{"--max-warp-insts", "sim.max_warp_insts", true},
	{"--max-cycles", "sim.max_cycles", true},
	{"--max-launches", "sim.max_launches", true},
	{"--on-budget", "sim.on_budget", false},
	{"--launches", "sim.timing_launches", false},
};

int cli_budget_overrides(struct cli_opts *o, struct cli_budget_buf *buf, struct sim_error *err)
{
	int n = 0;
	for (size_t i = 0; i < sizeof budget_flags / sizeof budget_flags[0]; i++) {
		const char *v = cli_long(o, budget_flags[i].flag);
		if (!v)
			continue;
		if (budget_flags[i].number) {
			uint64_t x;
			int rc = cli_parse_u64(budget_flags[i].flag, v, 1, INT64_MAX, &x, err);
			if (rc)
				return rc;
		} else if (!strcmp(budget_flags[i].flag, "--on-budget") && strcmp(v, "stop") &&
			   strcmp(v, "functional")) {
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--on-budget",
					     "expected stop or functional, got '%.100s'", v);
		}
		for (const char *p = v; *p; p++)
			if ((unsigned char)*p < 0x20)
				return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, budget_flags[i].flag,
						     "the value has a control character");
		if (strlen(v) + strlen(budget_flags[i].key) + 2 > sizeof buf->s[0])
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, budget_flags[i].flag,
					     "the value is longer than %zu characters",
					     sizeof buf->s[0] - strlen(budget_flags[i].key) - 2);
		size_t kl = strlen(budget_flags[i].key);
		memcpy(buf->s[n], budget_flags[i].key, kl);
		buf->s[n][kl] = '=';
		memcpy(buf->s[n] + kl + 1, v, strlen(v) + 1);
		n++;
	}
	if (cli_long(o, "--sample-launches"))
		snprintf(buf->s[n++], sizeof buf->s[0], "sim.sample_launches=%d", CLI_SAMPLE_LAUNCHES);
	/* what --sample-launches implies comes first, so that a -s of the user's still decides */
	bool warm = cli_long(o, "--sample-launches") != NULL;
	if (o->n_overrides + n + warm > CLI_MAX_OVERRIDES)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "-s", "more than %d settings",
				     CLI_MAX_OVERRIDES);
	if (warm) {
		memmove(o->overrides + 1, o->overrides, (size_t)o->n_overrides * sizeof *o->overrides);
		o->overrides[0] = "sim.functional_launches_cache=warm";
		o->n_overrides++;
	}
	for (int i = 0; i < n; i++)
		o->overrides[o->n_overrides++] = buf->s[i];
	return 0;
}

void cli_budget_usage(FILE *out)
{
	fprintf(out,
		"  budgets and launch selection (each a short form of a sim.* setting; docs/sampling.md):\n"
		"  --max-insts N      stop after N thread instructions in timing mode (sim.max_thread_insts)\n"
		"  --max-warp-insts N, --max-cycles N, --max-launches N   the same in warp instructions,\n"
		"                     core cycles, timing launches\n"
		"  --on-budget MODE   stop (default: the program ends at the cap, statistics complete) or\n"
		"                     functional (later launches run functionally, results exact)\n"
		"  --launches SPEC    simulate only these launches, run the others functionally: N, N-M,\n"
		"                     every:K, kernel:NAME, comma-separated (sim.timing_launches)\n"
		"  --sample-launches  sample: simulate %d launches of each group, estimate the others'\n"
		"                     cycles with a bound (sim.sample_launches; functional launches\n"
		"                     warm the L2: sim.functional_launches_cache = warm)\n", CLI_SAMPLE_LAUNCHES);
}
