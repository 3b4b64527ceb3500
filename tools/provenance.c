/* SPDX-License-Identifier: MIT */
/* Provenance of a run: collected once after the run (never on the simulation's path). */
#include "provenance.h"

#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "ws_git_commit.h"

/* Shell-quote a into buf at *off (single quotes unless a is plain). */
static void shq_append(char *buf, size_t n, size_t *off, const char *a)
{
	bool plain = *a != '\0';
	for (const char *p = a; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:+,@%", *p))
			plain = false;
	size_t o = *off;
	if (o && o < n)
		buf[o++] = ' ';
	if (plain) {
		for (const char *p = a; *p && o < n; p++)
			buf[o++] = *p;
	} else {
		if (o < n)
			buf[o++] = '\'';
		for (const char *p = a; *p && o < n; p++) {
			if (*p == '\'') {
				for (const char *q = "'\\''"; *q && o < n; q++)
					buf[o++] = *q;
			} else {
				buf[o++] = *p;
			}
		}
		if (o < n)
			buf[o++] = '\'';
	}
	*off = o;
	if (n)
		buf[o < n ? o : n - 1] = '\0';
}

static json_t *str_array(const char *const *v, int n)
{
	json_t *a = json_array();
	for (int i = 0; a && i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

json_t *prov_create(int argc, char **argv, const struct cli_opts *o, const struct cfg *c,
		    const struct workload *w, time_t start, double wall_s)
{
	char self[PATH_MAX] = "warpsim", cwd[PATH_MAX] = "", host[256] = "", date[64] = "";
	ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
	if (sl > 0)
		self[sl] = '\0';
	if (!getcwd(cwd, sizeof cwd))
		cwd[0] = '\0';
	if (gethostname(host, sizeof host - 1))
		host[0] = '\0';
	struct tm tm;
	if (gmtime_r(&start, &tm))
		strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
	char cmd[16384];
	size_t off = 0;
	cmd[0] = '\0';
	shq_append(cmd, sizeof cmd, &off, self);
	for (int i = 0; i < argc; i++)
		shq_append(cmd, sizeof cmd, &off, argv[i]);
	char params[1024] = "";
	if (w)
		workload_params_describe(w, params, sizeof params);
	json_t *p = json_object();
	if (!p)
		return NULL;
	json_object_set_new(p, "version", json_string(WARPSIM_VERSION));
	json_object_set_new(p, "git_commit", json_string(WARPSIM_GIT_COMMIT));
	json_object_set_new(p, "command", json_string(cmd));
	json_object_set_new(p, "cwd", json_string(cwd));
	json_object_set_new(p, "configs", str_array(o->configs, o->n_configs));
	json_object_set_new(p, "overrides", str_array(o->overrides, o->n_overrides));
	json_object_set_new(p, "workload", json_string(o->workload ? o->workload : ""));
	json_object_set_new(p, "workload_name", json_string(w ? workload_name(w) : ""));
	json_object_set_new(p, "size", json_string(w ? workload_size(w) : ""));
	json_object_set_new(p, "params", json_string(params));
	json_object_set_new(p, "seed", json_integer(c && cfg_is_defined(c, "sim.seed")
							      ? (json_int_t)cfg_int(c, "sim.seed") : 0));
	json_object_set_new(p, "host", json_string(host));
	json_object_set_new(p, "date_utc", json_string(date));
	json_object_set_new(p, "wall_s", json_real(wall_s));
	return p;
}

void prov_value_text(const json_t *v, char *buf, size_t n)
{
	if (!n)
		return;
	buf[0] = '\0';
	if (json_is_string(v)) {
		snprintf(buf, n, "%s", json_string_value(v));
	} else if (json_is_integer(v)) {
		snprintf(buf, n, "%lld", (long long)json_integer_value(v));
	} else if (json_is_real(v)) {
		snprintf(buf, n, "%.3f", json_real_value(v));
	} else if (json_is_array(v)) {
		size_t off = 0, i;
		json_t *e;
		json_array_foreach(v, i, e) {
			if (json_is_string(e))
				shq_append(buf, n, &off, json_string_value(e));
		}
	}
}

void prov_write_comments(FILE *f, const json_t *prov)
{
	const char *k;
	json_t *v;
	fprintf(f, "# provenance (comments only: not settings; stats.json has the same object)\n");
	json_object_foreach((json_t *)prov, k, v) {
		char text[16384];
		prov_value_text(v, text, sizeof text);
		for (char *q = text; *q; q++)
			if (*q == '\n' || *q == '\r')
				*q = ' ';
		fprintf(f, "#   %s: %s\n", k, text);
	}
}
