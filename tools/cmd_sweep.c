/* SPDX-License-Identifier: MIT */
/* `warpsim sweep SPEC`: configs x workloads x variants, run in parallel here (resumable, atomic
 * results), or emitted as a Slurm job array / GNU parallel job list; aggregated into one CSV. */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <fcntl.h>
#include <libconfig.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "../components/gpu.h"
#include "../engine/cfg_text.h"
#include "../workloads/workload.h"
#include "cli.h"
#include "csv.h"
#include "sweep.h"
#include "../api/launch_ctl.h"

#define SWEEP_MAX_ITEMS 256
#define SWEEP_MAX_STATS 64
#define SWEEP_MAX_APP_ARGS 64
/* The sweep's name and a run's names (config, workload, variant) are one directory each. */
#define RUN_NAME_MAX NAME_MAX

struct variant {
	const char *name;
	const char *configs[8];   /* preset files added after the machine config */
	int n_configs;
	const char *overrides[32];
	int n_overrides;
};

struct spec {
	config_t lc;
	const char *path;
	const char *name;
	const char *size;            /* workload size for every run ("small" when absent = the files' own) */
	const char *configs[SWEEP_MAX_ITEMS];
	int n_configs;
	const char *workloads[SWEEP_MAX_ITEMS]; /* workload file, or an application's command line */
	int n_workloads;
	/* Per workload: an application run through `warpsim cuda` ({ app = "./prog args"; }):
	 * its words (app_words[w] owns them; NULL for a workload file) and its run name. */
	char *app_words[SWEEP_MAX_ITEMS];
	char *app_argv[SWEEP_MAX_ITEMS][SWEEP_MAX_APP_ARGS + 1];
	int app_argc[SWEEP_MAX_ITEMS];
	const char *wl_name[SWEEP_MAX_ITEMS]; /* NULL: the workload file's stem */
	struct variant variants[SWEEP_MAX_ITEMS];
	int n_variants;
	const char *overrides[32];   /* applied to every run */
	int n_overrides;
	const char *stats[SWEEP_MAX_STATS]; /* extra stats for results.csv (beside every gpu.*) */
	int n_stats;
	struct sweep_slurm slurm;    /* the spec's `slurm` section, then the command line's */
	char base_dir[PATH_MAX];     /* directory of the spec: relative paths resolve from the cwd, as given */
};

/* An error in the spec at st's line (0 when st is NULL). */
__attribute__((format(printf, 5, 6)))
static int spec_err(struct sim_error *err, const struct spec *s, const config_setting_t *st,
		    const char *setting, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = sim_error_vset(err, SIM_ERR_INPUT, s->path, st ? (int)config_setting_source_line(st) : 0, 0,
				setting, fmt, ap);
	va_end(ap);
	return rc;
}

/* A setting's name for an error (sweep.configs[3], variant NAME: overrides[0]) into buf: one
 * longer than sim_error's field is cut there anyway, and marked so ("..."). Only a label:
 * nothing is opened or created by it. */
__attribute__((format(printf, 3, 4)))
static const char *label(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	if (len < 0 && n >= 2)
		memcpy(buf, "?", 2);
	else if ((size_t)len >= n && n > 4)
		memcpy(buf + n - 4, "...", 4);
	return buf;
}

static int read_strings(const struct spec *s, const config_setting_t *parent, const char *key,
			const char **out, int max, int *n, bool required, struct sim_error *err)
{
	*n = 0;
	config_setting_t *st = config_setting_get_member(parent, key);
	if (!st)
		return required ? spec_err(err, s, parent, key, "missing (a list of strings)") : 0;
	if (config_setting_type(st) != CONFIG_TYPE_ARRAY && config_setting_type(st) != CONFIG_TYPE_LIST)
		return spec_err(err, s, st, key, "expected a list of strings");
	int len = config_setting_length(st);
	if (len > max)
		return spec_err(err, s, st, key, "too many entries");
	for (int i = 0; i < len; i++) {
		const char *v = config_setting_get_string_elem(st, (unsigned)i);
		if (!v)
			return spec_err(err, s, st, key, "expected a list of strings");
		out[(*n)++] = v;
	}
	if (required && !*n)
		return spec_err(err, s, st, key, "must not be empty");
	return 0;
}

static int check_keys(const struct spec *s, const config_setting_t *grp, const char *const *allowed,
		      const char *where, struct sim_error *err)
{
	for (int i = 0; i < config_setting_length(grp); i++) {
		config_setting_t *m = config_setting_get_elem(grp, (unsigned)i);
		const char *nm = config_setting_name(m);
		bool ok = false;
		for (const char *const *a = allowed; *a; a++)
			if (nm && !strcmp(nm, *a))
				ok = true;
		if (!ok)
			return spec_err(err, s, m, nm ? nm : "?", "unknown setting in %s", where);
	}
	return 0;
}

static bool all_of(const char *v, const char *set)
{
	return *v && strspn(v, set) == strlen(v);
}

#define DIGITS "0123456789"
#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-"

/* Slurm's time forms: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S (minutes and seconds below 60 after
 * a larger unit, hours below 24 after days), not 0 (which Slurm reads as no limit). */
static bool slurm_time_ok(const char *v)
{
	long d = -1, f[3] = {0, 0, 0};
	int n = 0;
	const char *p = v, *dash = strchr(v, '-');
	if (dash) {
		size_t len = strspn(v, DIGITS);
		if (len == 0 || len > 6 || v + len != dash)
			return false;
		d = strtol(v, NULL, 10);
		p = dash + 1;
	}
	for (;;) { /* 1..3 colon-separated fields of 1..6 digits */
		size_t len = strspn(p, DIGITS);
		if (len == 0 || len > 6 || n == 3)
			return false;
		f[n++] = strtol(p, NULL, 10);
		p += len;
		if (!*p)
			break;
		if (*p++ != ':')
			return false;
	}
	if (d >= 0 ? f[0] > 23 || f[1] > 59 || f[2] > 59 : (n >= 2 && f[n - 1] > 59) || (n == 3 && f[1] > 59))
		return false;
	return (d > 0 ? d : 0) + f[0] + f[1] + f[2] > 0;
}

const char *sweep_slurm_check(const char *key, const char *v)
{
	if (!strcmp(key, "time"))
		return slurm_time_ok(v) ? NULL
					: "expected a time limit above 0 such as 90 (minutes), 2:00:00 or 1-12:00:00";
	if (!strcmp(key, "mem")) {
		size_t n = strlen(v);
		bool unit = n > 1 && strchr("KMGT", v[n - 1]);
		char num[32];
		int len = snprintf(num, sizeof num, "%.*s", (int)(unit ? n - 1 : n), v);
		/* longer than 31 digits: more than any memory, and num would be cut */
		bool ok = len >= 0 && (size_t)len < sizeof num && all_of(num, DIGITS) &&
			  strtoll(num, NULL, 10) > 0;
		return ok ? NULL : "expected memory per node such as 4000 (MB) or 4G (units K, M, G, T), above 0";
	}
	if (!strcmp(key, "partition")) {
		bool ok = all_of(v, NAME_CHARS ",") && v[0] != ',' && v[strlen(v) - 1] != ',' && !strstr(v, ",,");
		return ok ? NULL : "expected a partition name, or several separated by commas ([A-Za-z0-9._-])";
	}
	return all_of(v, NAME_CHARS) ? NULL : "expected an account name ([A-Za-z0-9._-])";
}

/* The spec's optional `slurm = { time = "2:00:00"; mem = "4G"; partition = "p"; account = "a"; };`. */
static int spec_load_slurm(struct spec *s, const config_setting_t *root, struct sim_error *err)
{
	config_setting_t *sl = config_setting_get_member(root, "slurm");
	if (!sl)
		return 0;
	if (config_setting_type(sl) != CONFIG_TYPE_GROUP)
		return spec_err(err, s, sl, "sweep.slurm", "expected a group { time = \"2:00:00\"; mem = \"4G\"; ... }");
	static const char *const keys[] = {"time", "mem", "partition", "account", NULL};
	static const char *const settings[] = {"sweep.slurm.time", "sweep.slurm.mem", "sweep.slurm.partition",
					       "sweep.slurm.account"};
	int rc = check_keys(s, sl, keys, "sweep.slurm (time, mem, partition, account)", err);
	if (rc)
		return rc;
	const char **dst[] = {&s->slurm.time, &s->slurm.mem, &s->slurm.partition, &s->slurm.account};
	for (int k = 0; keys[k]; k++) {
		config_setting_t *st = config_setting_get_member(sl, keys[k]);
		if (!st)
			continue;
		const char *v = config_setting_type(st) == CONFIG_TYPE_STRING ? config_setting_get_string(st) : NULL;
		const char *bad = v ? sweep_slurm_check(keys[k], v) : NULL;
		if (!v)
			return spec_err(err, s, st, settings[k], "expected a string in quotes (%s = \"%s\";)", keys[k],
					k == 0 ? "2:00:00" : k == 1 ? "4G" : "name");
		if (bad)
			return spec_err(err, s, st, settings[k], "%s, got '%s'", bad, v);
		*dst[k] = v;
	}
	return 0;
}

/* The words of an application's command line (split at blanks, no quoting) into s. */
static int split_app(struct spec *s, int w, const config_setting_t *st, struct sim_error *err)
{
	char *b = strdup(s->workloads[w]);
	if (!b)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	s->app_words[w] = b;
	int n = 0;
	for (char *save = NULL, *t = strtok_r(b, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
		if (n == SWEEP_MAX_APP_ARGS)
			return spec_err(err, s, st, "app", "too many words (at most 64)");
		s->app_argv[w][n++] = t;
	}
	if (!n)
		return spec_err(err, s, st, "app", "empty: expected \"./program args\"");
	s->app_argv[w][n] = NULL;
	s->app_argc[w] = n;
	return 0;
}

/* `workloads`: workload files, and applications as { app = "./prog args"; name = "n"; }
 * (a mixed list is written in parentheses). */
static int read_workloads(struct spec *s, const config_setting_t *root, struct sim_error *err)
{
	config_setting_t *st = config_setting_get_member(root, "workloads");
	if (!st)
		return spec_err(err, s, root, "workloads", "missing (a list of workload files)");
	int t = config_setting_type(st);
	if (t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST)
		return spec_err(err, s, st, "workloads", "expected a list of workload files");
	int len = config_setting_length(st);
	if (len > SWEEP_MAX_ITEMS)
		return spec_err(err, s, st, "workloads", "too many entries");
	if (!len)
		return spec_err(err, s, st, "workloads", "must not be empty");
	static const char *const app_keys[] = {"app", "name", NULL};
	for (int i = 0; i < len; i++) {
		config_setting_t *e = config_setting_get_elem(st, (unsigned)i);
		int w = s->n_workloads++;
		if (config_setting_type(e) == CONFIG_TYPE_STRING) {
			s->workloads[w] = config_setting_get_string(e);
			continue;
		}
		if (config_setting_type(e) != CONFIG_TYPE_GROUP)
			return spec_err(err, s, e, "workloads",
					"expected a workload file or { app = \"./program args\"; }");
		int rc = check_keys(s, e, app_keys, "an application (app, name)", err);
		if (rc)
			return rc;
		if (!config_setting_lookup_string(e, "app", &s->workloads[w]))
			return spec_err(err, s, e, "app", "missing: the program and its arguments, app = \"./program args\";");
		if ((rc = split_app(s, w, e, err)))
			return rc;
		config_setting_t *nm = config_setting_get_member(e, "name");
		if (nm && (config_setting_type(nm) != CONFIG_TYPE_STRING || !csv_sweep_name(config_setting_get_string(nm))))
			return spec_err(err, s, nm, "name", "expected a plain name ([A-Za-z0-9._-])");
		s->wl_name[w] = nm ? config_setting_get_string(nm) : NULL;
	}
	return 0;
}

static int spec_load(struct spec *s, const char *path, struct sim_error *err)
{
	memset(s, 0, sizeof *s);
	s->path = path;
	config_init(&s->lc);
	int rc0 = cfg_check_regular_file(path, "sweep spec", NULL, 0, SIM_ERR_INPUT, err);
	if (rc0)
		return rc0;
	if (config_read_file(&s->lc, path) != CONFIG_TRUE) {
		int rc = sim_error_set(err, SIM_ERR_INPUT, config_error_file(&s->lc) ? config_error_file(&s->lc) : path,
				       config_error_line(&s->lc), 0, NULL, "%s",
				       config_error_text(&s->lc) ? config_error_text(&s->lc) : "cannot read sweep spec");
		return rc;
	}
	config_setting_t *root = config_lookup(&s->lc, "sweep");
	if (!root || config_setting_type(root) != CONFIG_TYPE_GROUP)
		return spec_err(err, s, NULL, "sweep", "missing group 'sweep = { ... };'");
	static const char *const top_keys[] = {"name", "size", "configs", "workloads", "variants", "overrides", "stats",
					       "slurm", NULL};
	int rc = check_keys(s, root, top_keys, "sweep", err);
	if (rc)
		return rc;
	if (!config_setting_lookup_string(root, "name", &s->name) || !csv_sweep_name(s->name))
		return spec_err(err, s, root, "sweep.name", "missing, or not a plain name ([A-Za-z0-9._-])");
	if (strlen(s->name) > RUN_NAME_MAX)
		return spec_err(err, s, root, "sweep.name", "longer than %d characters (a directory name)",
				RUN_NAME_MAX);
	config_setting_t *sz = config_setting_get_member(root, "size");
	if (sz && (config_setting_type(sz) != CONFIG_TYPE_STRING || !csv_sweep_name(config_setting_get_string(sz))))
		return spec_err(err, s, sz, "sweep.size", "expected a size name such as \"medium\"");
	s->size = sz ? config_setting_get_string(sz) : NULL;
	if ((rc = read_strings(s, root, "configs", s->configs, SWEEP_MAX_ITEMS, &s->n_configs, true, err)) ||
	    (rc = read_workloads(s, root, err)) ||
	    (rc = read_strings(s, root, "overrides", s->overrides, 32, &s->n_overrides, false, err)) ||
	    (rc = read_strings(s, root, "stats", s->stats, SWEEP_MAX_STATS, &s->n_stats, false, err)))
		return rc;
	if ((rc = spec_load_slurm(s, root, err)))
		return rc;
	config_setting_t *vs = config_setting_get_member(root, "variants");
	if (!vs || config_setting_type(vs) != CONFIG_TYPE_LIST || !config_setting_length(vs))
		return spec_err(err, s, vs ? vs : root, "sweep.variants", "missing: a list of ( { name = ...; configs = [...]; overrides = [...]; }, ... )");
	static const char *const var_keys[] = {"name", "configs", "overrides", NULL};
	for (int i = 0; i < config_setting_length(vs); i++) {
		if (s->n_variants == SWEEP_MAX_ITEMS)
			return spec_err(err, s, vs, "sweep.variants", "too many variants");
		config_setting_t *v = config_setting_get_elem(vs, (unsigned)i);
		struct variant *var = &s->variants[s->n_variants++];
		if (config_setting_type(v) != CONFIG_TYPE_GROUP)
			return spec_err(err, s, v, "sweep.variants", "each variant is a group { name = ...; }");
		if ((rc = check_keys(s, v, var_keys, "a variant", err)))
			return rc;
		if (!config_setting_lookup_string(v, "name", &var->name) || !csv_sweep_name(var->name))
			return spec_err(err, s, v, "name", "variant needs a plain name ([A-Za-z0-9._-])");
		if (strlen(var->name) > RUN_NAME_MAX)
			return spec_err(err, s, v, "name", "variant name longer than %d characters (a directory name)",
					RUN_NAME_MAX);
		if ((rc = read_strings(s, v, "configs", var->configs, 8, &var->n_configs, false, err)) ||
		    (rc = read_strings(s, v, "overrides", var->overrides, 32, &var->n_overrides, false, err)))
			return rc;
		for (int j = 0; j < i; j++)
			if (!strcmp(s->variants[j].name, var->name))
				return spec_err(err, s, v, var->name, "variant name used twice");
	}
	return 0;
}

/* ---- validating the whole spec before the first run ------------------------------------ */

/* An error found while checking the spec's element `setting` (at st's line): the inner error
 * (which names its own file, line and setting) after the spec's file:line. */
static int spec_blame(struct sim_error *err, const struct spec *s, const config_setting_t *st,
		      const char *setting, const struct sim_error *inner)
{
	char msg[sizeof err->msg];
	sim_error_format(inner, msg, sizeof msg);
	return sim_error_set(err, SIM_ERR_INPUT, s->path, st ? (int)config_setting_source_line(st) : 0, 0,
			     setting, "%s", msg);
}

static const config_setting_t *elem_of(const struct spec *s, const char *list_path, int i)
{
	const config_setting_t *l = config_lookup(&s->lc, list_path);
	const config_setting_t *e = l ? config_setting_get_elem(l, (unsigned)i) : NULL;
	return e ? e : l;
}

/* One machine as a run would build it: -c config, the variant's -c files, the spec's and the
 * variant's -s overrides, the cross-module checks, and the machine itself (every module checks
 * its settings when built). A SimGrid platform can be loaded once per process, so such a
 * machine is built by its first run, not here. */
static int spec_check_machine(const struct spec *s, int c, int v, bool *stat_found,
			      bool *unchecked, struct sim_error *err)
{
	const struct variant *var = &s->variants[v];
	const config_setting_t *vs = config_setting_get_elem(config_lookup(&s->lc, "sweep.variants"),
							      (unsigned)v);
	char setting[sizeof err->setting];
	struct sim_error in = {0};
	struct cfg *cf = cfg_create();
	if (!cf)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	int rc = gpu_cfg_define_all(cf, &in);
	if (!rc && (rc = cfg_load_file(cf, s->configs[c], &in))) {
		rc = spec_blame(err, s, elem_of(s, "sweep.configs", c),
				label(setting, sizeof setting, "sweep.configs[%d]", c), &in);
		goto out;
	}
	for (int j = 0; !rc && j < var->n_configs; j++)
		if ((rc = cfg_load_file(cf, var->configs[j], &in))) {
			rc = spec_blame(err, s, vs, label(setting, sizeof setting, "variant %s: configs[%d]", var->name, j),
					&in);
			goto out;
		}
	for (int j = 0; !rc && j < s->n_overrides; j++)
		if ((rc = cfg_set_override(cf, s->overrides[j], &in))) {
			rc = spec_blame(err, s, elem_of(s, "sweep.overrides", j),
					label(setting, sizeof setting, "sweep.overrides[%d]", j), &in);
			goto out;
		}
	for (int j = 0; !rc && j < var->n_overrides; j++)
		if ((rc = cfg_set_override(cf, var->overrides[j], &in))) {
			rc = spec_blame(err, s, vs, label(setting, sizeof setting, "variant %s: overrides[%d]", var->name, j),
					&in);
			goto out;
		}
	if (rc) {
		rc = sim_error_set(err, in.code ? in.code : SIM_ERR_NOMEM, NULL, 0, 0, NULL, "%s", in.msg);
		goto out;
	}
	bool simgrid = !strcmp(cfg_str(cf, "gpu.noc.topology"), "simgrid");
	*unchecked = *unchecked || simgrid;
	if (!(rc = gpu_cfg_validate(cf, &in)) && !(rc = api_ctl_check_cfg(cf, &in)) && !simgrid) {
		struct stats *st = stats_create();
		struct gpu *g = st ? gpu_create(cf, st, &in) : NULL;
		for (int k = 0; g && k < s->n_stats; k++)
			stat_found[k] = stat_found[k] || stats_exists(st, s->stats[k]);
		if (!g)
			rc = st ? (in.code ? in.code : SIM_ERR_CONFIG)
				: sim_error_set(&in, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		gpu_destroy(g);
		stats_destroy(st);
	}
	if (rc) {
		rc = spec_blame(err, s, var->n_configs || var->n_overrides ? vs : elem_of(s, "sweep.configs", c),
				label(setting, sizeof setting, "sweep.configs[%d] with variant %s", c, var->name), &in);
	}
out:
	cfg_destroy(cf);
	return rc;
}

/* Why program (an application's first word) cannot be run by `warpsim cuda`, or NULL: it is
 * found as execvp finds it, and an ELF program must load libcudart.so.13 (nvcc -cudart shared;
 * one linked statically brings its own runtime and no simulated GPU). A script is let through. */
static const char *app_problem(const char *prog, char *found, size_t n)
{
	struct stat st;
	bool ok = false;
	/* a cut name would be another file (execvp gives up on such a name: ENAMETOOLONG) */
	static const char too_long[] = "path too long (PATH_MAX)";
	if (strchr(prog, '/')) {
		int len = snprintf(found, n, "%s", prog);
		if (len < 0 || (size_t)len >= n)
			return too_long;
		ok = !stat(found, &st);
	} else {
		const char *path = getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin";
		for (const char *p = path; !ok; p++) {
			size_t len = strcspn(p, ":");
			int flen = snprintf(found, n, "%.*s%s%s", (int)len, p, len ? "/" : "", prog);
			if (flen < 0 || (size_t)flen >= n)
				return too_long;
			ok = !stat(found, &st) && S_ISREG(st.st_mode) && !access(found, X_OK);
			p += len;
			if (!*p)
				break;
		}
	}
	if (!ok)
		return strchr(prog, '/') ? "no such program" : "no such program in PATH";
	if (!S_ISREG(st.st_mode) || access(found, X_OK))
		return "not an executable file";
	FILE *f = fopen(found, "rb");
	if (!f)
		return "cannot be read";
	/* libcudart.so.13 among the names in an ELF file's dynamic string table: a byte search
	 * over the first 16 MiB is enough for the programs nvcc builds */
	static const char want[] = "libcudart.so.13";
	char buf[65536 + sizeof want];
	size_t keep = 0, total = 0, got;
	bool elf = false, needs = false;
	while (!needs && total < (16u << 20) && (got = fread(buf + keep, 1, sizeof buf - keep, f)) > 0) {
		if (!total)
			elf = got >= 4 && !memcmp(buf, "\177ELF", 4);
		total += got;
		size_t have = keep + got;
		needs = memmem(buf, have, want, sizeof want - 1) != NULL;
		keep = have < sizeof want ? have : sizeof want - 1;
		memmove(buf, buf + have - keep, keep);
	}
	fclose(f);
	if (elf && !needs)
		return "does not load libcudart.so.13 (build it with nvcc -cudart shared)";
	return NULL;
}

static int run_config_name(const struct spec *s, int c, char *out, struct sim_error *err);
static int run_workload_name(const struct spec *s, int w, char *out, struct sim_error *err);

/* An application workload: its program exists and runs on warpsim's runtime, its name is free. */
static int spec_check_app(const struct spec *s, int w, struct sim_error *err)
{
	char found[PATH_MAX], setting[64];
	label(setting, sizeof setting, "sweep.workloads[%d]", w);
	const char *prog = s->app_argv[w][0];
	const char *why = app_problem(prog, found, sizeof found);
	if (why)
		return spec_err(err, s, elem_of(s, "sweep.workloads", w), setting, "app: %s: %s", prog, why);
	char me[RUN_NAME_MAX + 1], other[RUN_NAME_MAX + 1];
	int rc = run_workload_name(s, w, me, err);
	for (int j = 0; !rc && j < s->n_workloads; j++) {
		if (j == w)
			continue;
		if ((rc = run_workload_name(s, j, other, err)))
			break;
		if (!strcmp(me, other))
			return spec_err(err, s, elem_of(s, "sweep.workloads", w), setting,
					"run name '%s' is also sweep.workloads[%d]'s (give the "
					"application a name = \"...\";)", me, j);
	}
	return rc;
}

/* Every config x variant machine and every workload resolves and validates, and the output
 * directory can be made, before anything runs: an error is one line at the spec's file:line
 * (exit 2), not "N of N runs failed" with the reason in each run.log. */
static int spec_validate(const struct spec *s, const char *outroot, struct sim_error *err)
{
	/* An extra stat must exist in some machine of the sweep (a noc.* stat is absent from a
	 * perfect-l1 machine, and its cell is then empty); one none of them has is a typo. A
	 * SimGrid machine is not built here: its stats are not checked. */
	bool found[SWEEP_MAX_STATS] = {false}, unchecked = false;
	char name[RUN_NAME_MAX + 1];
	for (int c = 0; c < s->n_configs; c++) {
		int rc = run_config_name(s, c, name, err);
		if (rc)
			return rc;
	}
	for (int w = 0; w < s->n_workloads; w++) {
		int rc = run_workload_name(s, w, name, err);
		if (rc)
			return rc;
	}
	for (int c = 0; c < s->n_configs; c++)
		for (int v = 0; v < s->n_variants; v++) {
			int rc = spec_check_machine(s, c, v, found, &unchecked, err);
			if (rc)
				return rc;
		}
	for (int k = 0; k < s->n_stats && !unchecked; k++)
		if (!found[k]) {
			char setting[64];
			return sim_error_set(err, SIM_ERR_INPUT, s->path,
					     (int)config_setting_source_line(elem_of(s, "sweep.stats", k)), 0,
					     label(setting, sizeof setting, "sweep.stats[%d]", k),
					     "no machine of the sweep has a stat named '%s' (names as in stats.json "
					     "\"total\", e.g. sm.0.l1d.misses or noc.latency.total)", s->stats[k]);
		}
	for (int w = 0; w < s->n_workloads; w++) {
		if (s->app_words[w]) {
			int rc = spec_check_app(s, w, err);
			if (rc)
				return rc;
			continue;
		}
		struct sim_error in = {0};
		struct workload *wl = workload_load_size(s->workloads[w], s->size, &in);
		if (!wl) {
			char setting[64];
			return spec_blame(err, s, elem_of(s, "sweep.workloads", w),
					  label(setting, sizeof setting, "sweep.workloads[%d]", w), &in);
		}
		workload_destroy(wl);
	}
	char d[PATH_MAX];
	struct sim_error in = {0};
	if (cli_path(d, sizeof d, &in, "%s/%s", outroot, s->name) || cli_mkdirs(d, &in)) {
		char msg[sizeof in.msg];
		sim_error_format(&in, msg, sizeof msg);
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--out", "%s", msg);
	}
	return 0;
}

/* "configs/owl-28.cfg" -> "owl-28"; "workloads/vecadd/vecadd.cfg" -> "vecadd"; false when it
 * does not fit out (n bytes). */
static bool stem(const char *path, char *out, size_t n)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	const char *dot = strrchr(b, '.');
	size_t len = dot && dot != b ? (size_t)(dot - b) : strlen(b);
	if (len >= n)
		return false;
	memcpy(out, b, len);
	out[len] = '\0';
	return true;
}

/* A name longer than a directory's cannot be made, and a cut one could be another run's. */
static int name_too_long(const struct spec *s, const char *list, int i, const char *name,
			 struct sim_error *err)
{
	char setting[64];
	const char *base = strrchr(name, '/');
	return spec_err(err, s, elem_of(s, list, i), label(setting, sizeof setting, "%s[%d]", list, i),
			"run name '%.40s...' is longer than %d characters (a directory name)",
			base ? base + 1 : name, RUN_NAME_MAX);
}

/* Config c's run name (the file's stem) into out, RUN_NAME_MAX + 1 bytes. */
static int run_config_name(const struct spec *s, int c, char *out, struct sim_error *err)
{
	return stem(s->configs[c], out, RUN_NAME_MAX + 1) ? 0
							   : name_too_long(s, "sweep.configs", c, s->configs[c], err);
}

/* A workload's run name: its file's stem, or an application's name (default: the program's). */
static int run_workload_name(const struct spec *s, int w, char *out, struct sim_error *err)
{
	const char *src = s->wl_name[w] ? s->wl_name[w] : s->app_words[w] ? s->app_argv[w][0] : s->workloads[w];
	bool ok = s->wl_name[w] ? strlen(src) <= RUN_NAME_MAX : stem(src, out, RUN_NAME_MAX + 1);
	if (ok && s->wl_name[w])
		memcpy(out, src, strlen(src) + 1);
	return ok ? 0 : name_too_long(s, "sweep.workloads", w, src, err);
}

/* Room kept in PATH_MAX after a run's directory for "/" and the name of a file in it
 * (run.lock, cta_timeline.csv, stats.json.tmp.<pid> while it is written). */
#define RUN_FILE_ROOM 40

struct run {
	char dir[PATH_MAX - RUN_FILE_ROOM];
	char *argv[128 + SWEEP_MAX_APP_ARGS];
	int argc;
	int config_i, workload_i, variant_i;
};

static int build_runs(const struct spec *s, const char *outroot, const char *self, struct run **out,
		      int *n_out, struct sim_error *err)
{
	int n = s->n_configs * s->n_workloads * s->n_variants;
	struct run *r = calloc((size_t)n, sizeof *r);
	if (!r)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	int k = 0;
	for (int c = 0; c < s->n_configs; c++)
		for (int w = 0; w < s->n_workloads; w++)
			for (int v = 0; v < s->n_variants; v++, k++) {
				struct run *x = &r[k];
				char cn[RUN_NAME_MAX + 1], wn[RUN_NAME_MAX + 1];
				int rc = run_config_name(s, c, cn, err);
				if (!rc)
					rc = run_workload_name(s, w, wn, err);
				if (!rc)
					rc = cli_path(x->dir, sizeof x->dir, err, "%s/%s/%s/%s/%s", outroot, s->name, cn,
							wn, s->variants[v].name);
				if (rc) {
					free(r);
					return rc;
				}
				x->config_i = c;
				x->workload_i = w;
				x->variant_i = v;
				char **a = x->argv;
				int i = 0;
				bool app = s->app_words[w] != NULL;
				a[i++] = (char *)self;
				a[i++] = app ? "cuda" : "run";
				a[i++] = "-c";
				a[i++] = (char *)s->configs[c];
				for (int j = 0; j < s->variants[v].n_configs; j++) {
					a[i++] = "-c";
					a[i++] = (char *)s->variants[v].configs[j];
				}
				for (int j = 0; j < s->n_overrides; j++) {
					a[i++] = "-s";
					a[i++] = (char *)s->overrides[j];
				}
				for (int j = 0; j < s->variants[v].n_overrides; j++) {
					a[i++] = "-s";
					a[i++] = (char *)s->variants[v].overrides[j];
				}
				if (!app) {
					a[i++] = "-w";
					a[i++] = (char *)s->workloads[w];
				}
				if (s->size && !app) { /* an application's size is in its arguments */
					a[i++] = "--size";
					a[i++] = (char *)s->size;
				}
				a[i++] = "-o";
				a[i++] = x->dir;
				if (app) {
					a[i++] = "--";
					for (int j = 0; j < s->app_argc[w]; j++)
						a[i++] = s->app_argv[w][j];
				}
				/* not --quiet: run.log keeps the run's summary */
				a[i] = NULL;
				x->argc = i;
			}
	*out = r;
	*n_out = n;
	return 0;
}

/* DIR/name of run r into p: it fits, as build_runs left room for the run's files. */
static void run_file(const struct run *r, const char *name, char p[PATH_MAX])
{
	SIM_ASSERT(strlen(name) < RUN_FILE_ROOM);
	struct sim_error e;
	int rc = cli_path(p, PATH_MAX, &e, "%s/%s", r->dir, name);
	SIM_ASSERT(rc == 0);
}

static bool done(const struct run *r)
{
	char p[PATH_MAX];
	run_file(r, "stats.json", p);
	return access(p, F_OK) == 0;
}

/* Shell-quote one argument into f. */
static void shq(FILE *f, const char *a)
{
	fputc('\'', f);
	for (; *a; a++) {
		if (*a == '\'')
			fputs("'\\''", f);
		else
			fputc(*a, f);
	}
	fputc('\'', f);
}

/* The run's command line with its output to DIR/run.log (no newline). */
static void write_cmdline_to_log(FILE *f, const struct run *r)
{
	for (int i = 0; i < r->argc; i++) {
		if (i)
			fputc(' ', f);
		shq(f, r->argv[i]);
	}
	fputs(" >", f);
	shq(f, r->dir);
	fputs("/run.log 2>&1", f);
}

/* gpu.cycles and gpu.warp_insts of a finished run, for the progress line only: 0 where they
 * cannot be read (sweep_collect then refuses the damaged stats.json with its reason). */
static void run_figures(const struct run *r, double *cycles, double *warp_insts)
{
	char p[PATH_MAX];
	run_file(r, "stats.json", p);
	json_t *doc = json_load_file(p, 0, NULL);
	json_t *t = json_object_get(doc, "total");
	*cycles = json_number_value(json_object_get(t, "gpu.cycles"));
	*warp_insts = json_number_value(json_object_get(t, "gpu.warp_insts"));
	json_decref(doc);
}

/* A signal that stops the sweep: forwarded to the runs, which are then reaped (their partial
 * results were never renamed into place, so a later sweep redoes them), then the sweep dies of
 * it. A flag only: the loop below does the work. */
static volatile sig_atomic_t sweep_signal;

static void on_signal(int sig)
{
	sweep_signal = sig;
}

/* The run's lock: an flock on DIR/run.lock held (by this process, not inherited by the run's
 * exec) while the run is going, so a second sweep into the same directory does not do the run
 * twice. The kernel drops it if the sweep dies. -1: taken by someone else; -2: cannot lock
 * (the run then goes ahead unlocked). */
static int lock_run(const struct run *r, bool wait_for_it)
{
	char p[PATH_MAX];
	struct sim_error e2;
	if (cli_mkdirs(r->dir, &e2))
		return -2;
	run_file(r, "run.lock", p);
	int fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -2;
	while (flock(fd, LOCK_EX | (wait_for_it ? 0 : LOCK_NB))) {
		if (errno == EINTR && wait_for_it && !sweep_signal)
			continue;
		close(fd);
		return errno == EWOULDBLOCK ? -1 : -2;
	}
	return fd;
}

static void progress(int finished, int n, int skipped, int failed, double sim_cycles, double sim_insts,
		     double t0, int jobs)
{
	double el = cli_now_s() - t0;
	/* ETA from the runs done here so far (complete ones skipped took no time); runs differ in
	 * length, so it is a rough figure until most are done. */
	int ran = finished - skipped;
	fprintf(stderr, "\rsweep: %d/%d runs done (%d already complete, %d failed), %.3g core cycles simulated, %.3g warp inst/s per core",
		finished, n, skipped, failed, sim_cycles, el > 0 ? sim_insts / el / (jobs > 1 ? jobs : 1) : 0.0);
	if (ran > 0 && finished < n && el > 0) {
		double left = el / ran * (n - finished);
		fprintf(stderr, ", ETA %d:%02d", (int)(left / 60), (int)left % 60);
	}
	fputs("   ", stderr);
}

static int run_local(struct run *runs, int n, int jobs, struct sim_error *err)
{
	int running = 0, next = 0, finished = 0, failed = 0, skipped = 0, elsewhere = 0;
	double sim_cycles = 0, sim_insts = 0, t0 = cli_now_s();
	pid_t *pids = calloc((size_t)n, sizeof *pids);
	int *locks = malloc((size_t)n * sizeof *locks);
	/* runs another sweep held when we came to them: waited for at the end */
	int *later = malloc((size_t)n * sizeof *later);
	int n_later = 0, later_next = 0;
	if (!pids || !locks || !later) {
		free(pids);
		free(locks);
		free(later);
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	}
	for (int i = 0; i < n; i++)
		locks[i] = -2;
	struct sigaction sa = {.sa_handler = on_signal}, old_int, old_term;
	sigemptyset(&sa.sa_mask); /* no SA_RESTART: wait() returns EINTR */
	sweep_signal = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	while ((next < n || later_next < n_later || running) && !sweep_signal) {
		while ((next < n || (later_next < n_later && !running)) && running < jobs && !sweep_signal) {
			/* first every run nobody holds; then, with nothing of ours left, wait for
			 * each run another sweep held, and do it if that sweep did not finish it */
			bool deferred = next >= n;
			int i = deferred ? later[later_next++] : next++;
			struct run *r = &runs[i];
			if (done(r)) {
				skipped++;
				finished++;
				continue;
			}
			int fd = lock_run(r, deferred);
			if (sweep_signal) {
				if (fd >= 0)
					close(fd);
				break;
			}
			if (fd == -1) {
				later[n_later++] = i;
				elsewhere++;
				continue;
			}
			if (done(r)) { /* finished by another sweep while we took the lock */
				if (fd >= 0)
					close(fd);
				skipped++;
				finished++;
				continue;
			}
			locks[i] = fd;
			pid_t p = fork();
			if (p < 0) {
				free(pids);
				free(locks);
				free(later);
				return sim_error_set(err, SIM_ERR_IO, NULL, 0, 0, NULL, "fork: %s", strerror(errno));
			}
			if (p == 0) {
				char logp[PATH_MAX];
				struct sim_error e2;
				if (cli_mkdirs(r->dir, &e2))
					_exit(2);
				run_file(r, "run.log", logp);
				FILE *lf = freopen(logp, "w", stdout);
				if (!lf || dup2(fileno(stdout), 2) < 0)
					_exit(2);
				signal(SIGINT, SIG_DFL);
				signal(SIGTERM, SIG_DFL);
				execv(r->argv[0], r->argv);
				_exit(127);
			}
			pids[i] = p;
			running++;
		}
		if (!running)
			continue;
		int st;
		pid_t p = wait(&st);
		if (p < 0)
			continue; /* EINTR: a signal, handled at the loop's head and below */
		running--;
		finished++;
		for (int i = 0; i < n; i++)
			if (pids[i] == p) {
				pids[i] = 0;
				if (locks[i] >= 0)
					close(locks[i]);
				locks[i] = -2;
				if (!WIFEXITED(st) || WEXITSTATUS(st)) {
					failed++;
					fprintf(stderr, "sweep: run failed (exit %d): %s (see %s/run.log)\n",
						WIFEXITED(st) ? WEXITSTATUS(st) : -1, runs[i].dir, runs[i].dir);
				} else {
					double cyc = 0, wi = 0;
					run_figures(&runs[i], &cyc, &wi);
					sim_cycles += cyc;
					sim_insts += wi;
				}
				break;
			}
		progress(finished, n, skipped, failed, sim_cycles, sim_insts, t0, jobs);
	}
	progress(finished, n, skipped, failed, sim_cycles, sim_insts, t0, jobs); /* the final count */
	fprintf(stderr, "\n");
	if (sweep_signal) {
		int sig = sweep_signal;
		fprintf(stderr, "sweep: %s: stopping %d running run%s\n", strsignal(sig), running,
			running == 1 ? "" : "s");
		for (int i = 0; i < n; i++)
			if (pids[i] > 0)
				kill(pids[i], sig);
		while (running > 0) {
			int st;
			if (wait(&st) > 0)
				running--;
			else if (errno == ECHILD)
				break;
		}
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
		free(pids);
		free(locks);
		free(later);
		signal(sig, SIG_DFL);
		raise(sig); /* die of it, as the shell expects of an interrupted command */
		return sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, NULL, "interrupted");
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	free(pids);
	free(locks);
	free(later);
	if (elsewhere)
		fprintf(stderr, "sweep: %d run%s held by another sweep into the same directory (waited for)\n",
			elsewhere, elsewhere == 1 ? "" : "s");
	if (failed)
		return sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, NULL, "%d of %d runs failed", failed, n);
	return 0;
}

static int emit(const struct spec *s, struct run *runs, int n, const char *kind, const char *outroot,
		struct sim_error *err)
{
	char d[PATH_MAX], jobs[PATH_MAX], script[PATH_MAX];
	int rc = cli_path(d, sizeof d, err, "%s/%s", outroot, s->name);
	if (!rc)
		rc = cli_path(jobs, sizeof jobs, err, "%s/jobs.txt", d);
	if (!rc)
		rc = cli_path(script, sizeof script, err, "%s/sweep.sbatch", d);
	if (!rc)
		rc = cli_mkdirs(d, err);
	if (rc)
		return rc;
	/* Each job goes to the directory the spec's paths are relative to (so the list runs from
	 * anywhere), makes its own run directory first, so results land atomically inside it, and
	 * keeps its output in run.log as a local sweep does. */
	char cwd[PATH_MAX];
	if (!getcwd(cwd, sizeof cwd)) /* the jobs' paths are relative to it: no job would find them */
		return sim_error_set(err, SIM_ERR_IO, NULL, 0, 0, NULL, "cannot name the current directory: %s",
				     strerror(errno));
	/* The job list and the Slurm script are shell: every path is single-quoted there (shq), but
	 * a control character would still break a line (a newline ends a command, also out of a
	 * comment), and #SBATCH --output takes no quotes, so a blank there would cut it. */
	for (const char *const *p = (const char *const[]){cwd, d, NULL}; *p; p++)
		for (const unsigned char *c = (const unsigned char *)*p; *c; c++)
			if (*c < 0x20 || *c == 0x7f || (*p == d && !strcmp(kind, "slurm") && *c == ' '))
				return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, *p == d ? "--out" : NULL,
						     "%s '%s' has a %s, which a %s cannot hold", *p == d ? "output directory" : "current directory",
						     *p, *c == ' ' ? "blank" : "control character",
						     *c == ' ' ? "#SBATCH line" : "job line");
	FILE *f = fopen(jobs, "w");
	if (!f)
		return sim_error_set(err, SIM_ERR_IO, jobs, 0, 0, NULL, "cannot write: %s", strerror(errno));
	for (int i = 0; i < n; i++) {
		fprintf(f, "cd ");
		shq(f, cwd);
		fprintf(f, " && mkdir -p ");
		shq(f, runs[i].dir);
		fprintf(f, " && { test -e ");
		shq(f, runs[i].dir);
		fprintf(f, "/stats.json || ");
		write_cmdline_to_log(f, &runs[i]);
		fprintf(f, "; }\n");
	}
	if (ferror(f) | fclose(f))
		return sim_error_set(err, SIM_ERR_IO, jobs, 0, 0, NULL, "cannot write: %s", strerror(errno));
	if (!strcmp(kind, "parallel")) {
		printf("GNU parallel job file: %s (%d jobs)\nrun: parallel --jobs $(nproc) < %s\n", jobs, n, jobs);
		return 0;
	}
	f = fopen(script, "w");
	if (!f)
		return sim_error_set(err, SIM_ERR_IO, script, 0, 0, NULL, "cannot write: %s", strerror(errno));
	fprintf(f, "#!/bin/bash\n# warpsim sweep '%s': one array task per run; results under %s\n", s->name, d);
	fprintf(f, "#SBATCH --job-name=warpsim-%s\n#SBATCH --array=0-%d\n#SBATCH --cpus-per-task=1\n", s->name, n - 1);
	fprintf(f, "#SBATCH --output=%s/slurm-%%A_%%a.out\n", d);
	/* validated on reading (sweep_slurm_check): plain words, nothing the shell or sbatch reads */
	if (s->slurm.time)
		fprintf(f, "#SBATCH --time=%s\n", s->slurm.time);
	if (s->slurm.mem)
		fprintf(f, "#SBATCH --mem=%s\n", s->slurm.mem);
	if (s->slurm.partition)
		fprintf(f, "#SBATCH --partition=%s\n", s->slurm.partition);
	if (s->slurm.account)
		fprintf(f, "#SBATCH --account=%s\n", s->slurm.account);
	fprintf(f, "set -euo pipefail\ncd ");
	shq(f, cwd);
	fprintf(f, "\nline=$(sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" ");
	shq(f, jobs);
	fprintf(f, ")\nexec bash -c \"$line\"\n");
	if ((ferror(f) | fclose(f)) || chmod(script, 0755))
		return sim_error_set(err, SIM_ERR_IO, script, 0, 0, NULL, "cannot write: %s", strerror(errno));
	printf("Slurm job array: %s (%d tasks)\nsubmit: sbatch %s ; afterwards: warpsim sweep --collect %s\n",
	       script, n, script, d);
	return 0;
}

static int write_stat_list(FILE *f, const void *ctx, struct sim_error *err)
{
	const struct spec *s = ctx;
	(void)err;
	fprintf(f, "# extra results.csv columns named by the sweep spec's `stats` (sweep --collect reads this)\n");
	for (int k = 0; k < s->n_stats; k++)
		fprintf(f, "%s\n", s->stats[k]);
	return 0;
}

/* DIR/extra_stats.txt: the spec's extra stats, for every later `sweep --collect DIR` (also of
 * runs done by Slurm or GNU parallel). */
static int write_extra_stats(const struct spec *s, const char *outroot, struct sim_error *err)
{
	char p[PATH_MAX];
	int rc = cli_path(p, sizeof p, err, "%s/%s", outroot, s->name);
	if (!rc)
		rc = cli_mkdirs(p, err);
	if (!rc)
		rc = cli_path(p, sizeof p, err, "%s/%s/extra_stats.txt", outroot, s->name);
	return rc ? rc : cli_write_atomic(p, write_stat_list, s, err);
}

static int write_order_list(FILE *f, const void *ctx, struct sim_error *err)
{
	const struct spec *s = ctx;
	char n[RUN_NAME_MAX + 1];
	fprintf(f, "# the sweep spec's order of its axes (warpsim report draws them in it)\n");
	for (int c = 0; c < s->n_configs; c++) {
		int rc = run_config_name(s, c, n, err);
		if (rc)
			return rc;
		fprintf(f, "config %s\n", n);
	}
	for (int w = 0; w < s->n_workloads; w++) {
		int rc = run_workload_name(s, w, n, err);
		if (rc)
			return rc;
		fprintf(f, "workload %s\n", n);
	}
	for (int v = 0; v < s->n_variants; v++)
		fprintf(f, "variant %s\n", s->variants[v].name);
	return 0;
}

/* DIR/sweep_order.txt: results.csv is sorted by name; the report wants the spec's order. */
static int write_order(const struct spec *s, const char *outroot, struct sim_error *err)
{
	char p[PATH_MAX];
	int rc = cli_path(p, sizeof p, err, "%s/%s/sweep_order.txt", outroot, s->name);
	return rc ? rc : cli_write_atomic(p, write_order_list, s, err);
}

int sweep_run_spec(const char *spec_path, const char *outroot, int jobs, const char *emit_kind,
		   const struct sweep_slurm *slurm, char *results_dir, size_t results_dir_len,
		   struct sim_error *err)
{
	struct spec *s = malloc(sizeof *s);
	if (!s)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	int rc = spec_load(s, spec_path, err);
	if (!rc && slurm) {
		if (slurm->time)
			s->slurm.time = slurm->time;
		if (slurm->mem)
			s->slurm.mem = slurm->mem;
		if (slurm->partition)
			s->slurm.partition = slurm->partition;
		if (slurm->account)
			s->slurm.account = slurm->account;
	}
	char self[PATH_MAX];
	ssize_t sl = readlink("/proc/self/exe", self, sizeof self);
	if (!rc && sl <= 0)
		rc = sim_error_set(err, SIM_ERR_IO, NULL, 0, 0, NULL, "cannot find own executable");
	else if (!rc && (size_t)sl >= sizeof self) /* readlink cuts without saying so */
		rc = sim_error_set(err, SIM_ERR_IO, NULL, 0, 0, NULL, "own executable's path too long (PATH_MAX)");
	if (sl > 0 && (size_t)sl < sizeof self)
		self[sl] = '\0';
	struct run *runs = NULL;
	int n = 0;
	if (!rc)
		rc = spec_validate(s, outroot, err);
	if (!rc)
		rc = build_runs(s, outroot, self, &runs, &n, err);
	if (!rc && results_dir)
		rc = cli_path(results_dir, results_dir_len, err, "%s/%s", outroot, s->name);
	if (!rc)
		rc = write_extra_stats(s, outroot, err);
	if (!rc)
		rc = write_order(s, outroot, err);
	if (!rc && emit_kind)
		rc = emit(s, runs, n, emit_kind, outroot, err);
	else if (!rc) {
		rc = run_local(runs, n, jobs, err);
		char d[PATH_MAX];
		struct sim_error e2;
		/* (the path fitted in spec_validate) */
		int rc2 = cli_path(d, sizeof d, rc ? &e2 : err, "%s/%s", outroot, s->name);
		if (!rc2)
			rc2 = sweep_collect(d, stdout, rc ? &e2 : err);
		if (!rc)
			rc = rc2;
	}
	free(runs);
	for (int w = 0; w < s->n_workloads; w++)
		free(s->app_words[w]);
	config_destroy(&s->lc);
	free(s);
	return rc;
}

int cmd_sweep(int argc, char **argv, struct sim_error *err)
{
	static const char *const with_value[] = {"--emit", "--collect", "--jobs", "--out", "--time", "--mem",
						 "--partition", "--account", NULL};
	struct cli_opts o;
	int rc = cli_parse(argc, argv, "", with_value, NULL, &o, err);
	if (rc)
		return rc;
	const char *collect = cli_long(&o, "--collect");
	if (o.help || (!collect && o.n_positional != 1)) {
		printf("usage: warpsim sweep SPEC [--jobs N] [--out DIR]     run here, N at a time (default: cores)\n"
		       "       warpsim sweep SPEC --emit slurm|parallel [--out DIR]  write a job array / job list\n"
		       "       warpsim sweep --collect DIR                    aggregate DIR/**/stats.json into DIR/results.csv\n"
		       "with --emit slurm: [--time T] [--mem M] [--partition P] [--account A] set the job array's\n"
		       "#SBATCH lines (time as 90, 2:00:00 or 1-12:00:00; mem as 4000 or 4G), replacing the spec's\n"
		       "`slurm = { time = \"2:00:00\"; mem = \"4G\"; partition = \"p\"; account = \"a\"; };`\n");
		return o.help ? 0 : sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, NULL, "sweep needs a SPEC file or --collect DIR");
	}
	if (collect)
		return sweep_collect(collect, stdout, err);
	const char *outroot = cli_long(&o, "--out") ? cli_long(&o, "--out") : "results";
	int jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (cli_long(&o, "--jobs")) {
		char *end;
		long j = strtol(cli_long(&o, "--jobs"), &end, 10);
		if (*end || j < 1 || j > 1024)
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--jobs", "expected 1..1024");
		jobs = (int)j;
	}
	const char *emit_kind = cli_long(&o, "--emit");
	if (emit_kind && strcmp(emit_kind, "slurm") && strcmp(emit_kind, "parallel"))
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--emit", "expected slurm or parallel");
	struct sweep_slurm slurm = {cli_long(&o, "--time"), cli_long(&o, "--mem"), cli_long(&o, "--partition"),
				    cli_long(&o, "--account")};
	static const char *const keys[] = {"time", "mem", "partition", "account"};
	static const char *const flags[] = {"--time", "--mem", "--partition", "--account"};
	const char *vals[] = {slurm.time, slurm.mem, slurm.partition, slurm.account};
	for (int k = 0; k < 4; k++) {
		const char *flag = flags[k];
		if (!vals[k])
			continue;
		if (!emit_kind || strcmp(emit_kind, "slurm"))
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, flag, "only with --emit slurm");
		const char *bad = sweep_slurm_check(keys[k], vals[k]);
		if (bad)
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, flag, "%s, got '%s'", bad, vals[k]);
	}
	return sweep_run_spec(o.positional[0], outroot, jobs, emit_kind, &slurm, NULL, 0, err);
}
