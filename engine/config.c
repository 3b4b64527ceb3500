/* SPDX-License-Identifier: MIT */
/* Schema-checked configuration store: libconfig files and -s overrides merged into typed values,
 * each remembering the file and line it came from. Build-time only: lookups are linear. */
#include "config.h"

#include "cfg_text.h"

#include <errno.h>
#include <fnmatch.h>
#include <libconfig.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

struct cfg_entry {
	const struct cfg_key_def *def;
	int64_t i;
	double f;
	char *s;          /* STRING / ENUM value (owned) */
	int64_t *list;    /* INT_LIST value (owned) */
	size_t n_list;
	char *src_file;   /* owned; "<default>" or "<command line>" or a path */
	char *src_dir;    /* owned; where a relative path value resolves from; NULL: the cwd */
	int src_line;
	uint64_t set_seq; /* when it was last set (cfg.n_sets then); 0 = default */
};

struct cfg {
	struct cfg_entry *e;
	size_t n, cap;
	uint64_t n_sets;  /* values set from files and overrides so far */
	const char *loading;     /* while a file loads: its path, and the directory its */
	const char *include_dir; /* @include names are relative to */
};

static const char SRC_DEFAULT[] = "<default>";
static const char SRC_CMDLINE[] = "<command line>";

static char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

static struct cfg_entry *find(const struct cfg *c, const char *path)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->e[i].def->path, path))
			return &c->e[i];
	return NULL;
}

static struct cfg_entry *must_find(const struct cfg *c, const char *path, enum cfg_type t1,
				   enum cfg_type t2)
{
	struct cfg_entry *e = find(c, path);
	if (!e) {
		fprintf(stderr, "internal: setting '%s' read but never defined\n", path);
		SIM_ASSERT(e != NULL);
	}
	SIM_ASSERT(e->def->type == t1 || e->def->type == t2);
	return e;
}

static void set_source(struct cfg_entry *e, const char *file, int line)
{
	char *d = xstrdup(file ? file : "?");
	SIM_ASSERT(d != NULL);
	free(e->src_file);
	e->src_file = d;
	e->src_line = line;
}

struct cfg *cfg_create(void)
{
	return calloc(1, sizeof(struct cfg));
}

void cfg_destroy(struct cfg *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->e[i].s);
		free(c->e[i].list);
		free(c->e[i].src_file);
		free(c->e[i].src_dir);
	}
	free(c->e);
	free(c);
}

/* Parse "1,2,3" or "[1, 2, 3]" into a list; returns -1 on a malformed element. */
static int parse_int_list(const char *text, int64_t **out, size_t *n_out)
{
	size_t cap = 8, n = 0;
	int64_t *v = malloc(cap * sizeof *v);
	if (!v)
		return -1;
	const char *p = text;
	while (*p == ' ' || *p == '[' || *p == '(')
		p++;
	while (*p && *p != ']' && *p != ')') {
		char *end;
		errno = 0;
		long long x = strtoll(p, &end, 0);
		if (end == p || errno) {
			free(v);
			return -1;
		}
		if (n == cap) {
			cap *= 2;
			int64_t *nv = realloc(v, cap * sizeof *v);
			if (!nv) {
				free(v);
				return -1;
			}
			v = nv;
		}
		v[n++] = x;
		p = end;
		while (*p == ' ')
			p++;
		if (*p == ',')
			p++;
		else if (*p && *p != ']' && *p != ')') {
			free(v);
			return -1;
		}
		while (*p == ' ')
			p++;
	}
	*out = v;
	*n_out = n;
	return 0;
}

static int set_default(struct cfg_entry *e, struct sim_error *err)
{
	const struct cfg_key_def *d = e->def;
	switch (d->type) {
	case CFG_INT:
	case CFG_BOOL:
		e->i = d->def_i;
		break;
	case CFG_FLOAT:
		e->f = d->def_f;
		break;
	case CFG_STRING:
	case CFG_ENUM:
		e->s = xstrdup(d->def_s ? d->def_s : "");
		if (!e->s)
			return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, d->path, "out of memory");
		break;
	case CFG_INT_LIST:
		if (parse_int_list(d->def_s ? d->def_s : "", &e->list, &e->n_list))
			return sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, d->path,
					     "internal: malformed default list '%s'", d->def_s);
		break;
	}
	set_source(e, SRC_DEFAULT, 0);
	return 0;
}

int cfg_define(struct cfg *c, const struct cfg_key_def *defs, size_t n, struct sim_error *err)
{
	for (size_t k = 0; k < n; k++) {
		const struct cfg_key_def *d = &defs[k];
		if (find(c, d->path)) {
			fprintf(stderr, "internal: setting '%s' defined twice\n", d->path);
			SIM_ASSERT(!"setting defined twice");
		}
		SIM_ASSERT(d->type != CFG_ENUM || d->choices != NULL);
		if (c->n == c->cap) {
			size_t cap = c->cap ? c->cap * 2 : 64;
			struct cfg_entry *ne = realloc(c->e, cap * sizeof *ne);
			if (!ne)
				return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, d->path, "out of memory");
			c->e = ne;
			c->cap = cap;
		}
		struct cfg_entry *e = &c->e[c->n++];
		memset(e, 0, sizeof *e);
		e->def = d;
		int rc = set_default(e, err);
		if (rc)
			return rc;
	}
	return 0;
}

static const char *type_name(enum cfg_type t)
{
	switch (t) {
	case CFG_INT: return "an integer";
	case CFG_FLOAT: return "a number";
	case CFG_BOOL: return "a boolean";
	case CFG_STRING: return "a string";
	case CFG_ENUM: return "a string";
	case CFG_INT_LIST: return "a list of integers";
	}
	return "?";
}

static int choices_text(const struct cfg_key_def *d, char *buf, size_t n)
{
	size_t off = 0;
	buf[0] = '\0';
	for (const char *const *ch = d->choices; ch && *ch && off < n; ch++)
		off += (size_t)snprintf(buf + off, n - off, "%s%s", ch == d->choices ? "" : ", ", *ch);
	return 0;
}

/* Range/choice check of a candidate value, then store. Values arrive typed. */
static int check_int(const struct cfg_key_def *d, int64_t v, const char *file, int line,
		     struct sim_error *err)
{
	if (v < d->min_i || v > d->max_i)
		return sim_error_set(err, SIM_ERR_CONFIG, file, line, 0, d->path,
				     "value %lld out of range %lld..%lld%s%s", (long long)v,
				     (long long)d->min_i, (long long)d->max_i,
				     d->unit && d->unit[0] ? " " : "", d->unit ? d->unit : "");
	return 0;
}

static int store_string(struct cfg_entry *e, const char *v, const char *file, int line,
			struct sim_error *err)
{
	const struct cfg_key_def *d = e->def;
	if (d->type == CFG_ENUM) {
		bool ok = false;
		for (const char *const *ch = d->choices; *ch; ch++)
			if (!strcmp(*ch, v))
				ok = true;
		if (!ok) {
			char buf[512];
			choices_text(d, buf, sizeof buf);
			return sim_error_set(err, SIM_ERR_CONFIG, file, line, 0, d->path,
					     "'%s' is not one of: %s", v, buf);
		}
	}
	char *s = xstrdup(v);
	if (!s)
		return sim_error_set(err, SIM_ERR_NOMEM, file, line, 0, d->path, "out of memory");
	free(e->s);
	e->s = s;
	return 0;
}

static int store_list(struct cfg_entry *e, int64_t *v, size_t n, const char *file, int line,
		      struct sim_error *err)
{
	for (size_t i = 0; i < n; i++) {
		int rc = check_int(e->def, v[i], file, line, err);
		if (rc) {
			free(v);
			return rc;
		}
	}
	free(e->list);
	e->list = v;
	e->n_list = n;
	return 0;
}

static int wrong_type(const struct cfg_key_def *d, const char *file, int line, struct sim_error *err)
{
	return sim_error_set(err, SIM_ERR_CONFIG, file, line, 0, d->path, "expected %s",
			     type_name(d->type));
}

/* A libconfig leaf into its entry. */
static int store_setting(struct cfg_entry *e, const config_setting_t *st, struct sim_error *err)
{
	const struct cfg_key_def *d = e->def;
	const char *file = config_setting_source_file(st);
	int line = (int)config_setting_source_line(st);
	int t = config_setting_type(st);
	int rc = 0;
	switch (d->type) {
	case CFG_INT:
		if (t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64)
			return wrong_type(d, file, line, err);
		rc = check_int(d, config_setting_get_int64(st), file, line, err);
		if (!rc)
			e->i = config_setting_get_int64(st);
		break;
	case CFG_FLOAT: {
		double v;
		if (t == CONFIG_TYPE_FLOAT)
			v = config_setting_get_float(st);
		else if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
			v = (double)config_setting_get_int64(st);
		else
			return wrong_type(d, file, line, err);
		if (!(v >= d->min_f && v <= d->max_f))
			return sim_error_set(err, SIM_ERR_CONFIG, file, line, 0, d->path,
					     "value %g out of range %g..%g", v, d->min_f, d->max_f);
		e->f = v;
		break;
	}
	case CFG_BOOL:
		if (t != CONFIG_TYPE_BOOL)
			return wrong_type(d, file, line, err);
		e->i = config_setting_get_bool(st);
		break;
	case CFG_STRING:
	case CFG_ENUM:
		if (t != CONFIG_TYPE_STRING)
			return wrong_type(d, file, line, err);
		rc = store_string(e, config_setting_get_string(st), file, line, err);
		break;
	case CFG_INT_LIST: {
		if (t != CONFIG_TYPE_ARRAY && t != CONFIG_TYPE_LIST)
			return wrong_type(d, file, line, err);
		int n = config_setting_length(st);
		int64_t *v = malloc(((size_t)n + 1) * sizeof *v);
		if (!v)
			return sim_error_set(err, SIM_ERR_NOMEM, file, line, 0, d->path, "out of memory");
		for (int i = 0; i < n; i++) {
			config_setting_t *el = config_setting_get_elem(st, (unsigned)i);
			int et = config_setting_type(el);
			if (et != CONFIG_TYPE_INT && et != CONFIG_TYPE_INT64) {
				free(v);
				return sim_error_set(err, SIM_ERR_CONFIG, file, line, 0, d->path,
						     "element %d: expected an integer", i);
			}
			v[i] = config_setting_get_int64(el);
		}
		rc = store_list(e, v, (size_t)n, file, line, err);
		break;
	}
	}
	if (!rc)
		set_source(e, file, line);
	return rc;
}

static char *dir_of(const char *path);

/* The directory a relative path set in file resolves from: the file's own. libconfig names an
 * @included file as the @include wrote it, relative to include_dir (the top file's directory). */
static char *dir_for(const char *file, const char *top, const char *include_dir)
{
	char *d = dir_of(file ? file : top);
	if (!d || !file || file[0] == '/' || !strcmp(file, top))
		return d;
	size_t n = strlen(include_dir) + strlen(d) + 2;
	char *j = malloc(n);
	if (j)
		snprintf(j, n, "%s/%s", include_dir, d);
	free(d);
	return j;
}

static uint64_t next_seq(const struct cfg *c)
{
	return ++((struct cfg *)c)->n_sets;
}

static int walk(struct cfg *c, const config_setting_t *grp, const char *prefix, struct sim_error *err)
{
	int n = config_setting_length(grp);
	for (int i = 0; i < n; i++) {
		config_setting_t *st = config_setting_get_elem(grp, (unsigned)i);
		const char *name = config_setting_name(st);
		char path[512];
		snprintf(path, sizeof path, "%s%s%s", prefix, prefix[0] ? "." : "", name ? name : "?");
		struct cfg_entry *e = find(c, path);
		if (config_setting_type(st) == CONFIG_TYPE_GROUP && !e) {
			int rc = walk(c, st, path, err);
			if (rc)
				return rc;
			continue;
		}
		if (!e)
			return sim_error_set(err, SIM_ERR_CONFIG, config_setting_source_file(st),
					     (int)config_setting_source_line(st), 0, path,
					     "unknown setting (warpsim config --list shows every setting)");
		int rc = store_setting(e, st, err);
		if (rc)
			return rc;
		free(e->src_dir);
		e->src_dir = NULL;
		if (c->loading && !(e->src_dir = dir_for(config_setting_source_file(st), c->loading, c->include_dir)))
			return sim_error_set(err, SIM_ERR_NOMEM, c->loading, 0, 0, path, "out of memory");
		e->set_seq = next_seq(c);
	}
	return 0;
}

static int count_leaves(const config_setting_t *s)
{
	if (!config_setting_is_group(s))
		return 1;
	int n = 0;
	for (int i = 0; i < config_setting_length(s); i++)
		n += count_leaves(config_setting_get_elem(s, (unsigned)i));
	return n;
}

static int load(struct cfg *c, config_t *lc, const char *name, bool ok, struct sim_error *err)
{
	if (!ok) {
		const char *f = config_error_file(lc);
		int rc;
		if (config_error_type(lc) == CONFIG_ERR_FILE_IO && !f)
			rc = sim_error_set(err, SIM_ERR_CONFIG, name, 0, 0, NULL,
					   "cannot read configuration file: %s", strerror(errno));
		else
			rc = sim_error_set(err, SIM_ERR_CONFIG, f ? f : name, config_error_line(lc), 0,
					   NULL, "%s", config_error_text(lc));
		config_destroy(lc);
		return rc;
	}
	int rc = cfg_lc_check_wrapped_ints(lc, NULL, NULL, SIM_ERR_CONFIG, err);
	if (!rc)
		rc = walk(c, config_root_setting(lc), "", err);
	/* A file that sets nothing is the wrong file (or an empty one by mistake): running the
	 * built-in defaults without a word would pass for a result of the machine meant. */
	if (!rc && count_leaves(config_root_setting(lc)) == 0)
		rc = sim_error_set(err, SIM_ERR_CONFIG, name, 0, 0, NULL,
				   "the configuration file sets no setting (give a machine such as "
				   "configs/owl-28.cfg, or a preset that changes something)");
	config_destroy(lc);
	return rc;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	size_t n = (size_t)(slash - path);
	char *d = malloc(n + 2);
	if (!d)
		return NULL;
	if (n == 0) {
		strcpy(d, "/");
		return d;
	}
	memcpy(d, path, n);
	d[n] = '\0';
	return d;
}

int cfg_load_file(struct cfg *c, const char *path, struct sim_error *err)
{
	/* stat, never open, before knowing it is a regular file: a FIFO would block in open. */
	struct stat st;
	if (stat(path, &st))
		return sim_error_set(err, SIM_ERR_CONFIG, path, 0, 0, NULL,
				     "cannot open configuration file: %s", strerror(errno));
	int rc = cfg_check_regular_file(path, "configuration file", NULL, 0, SIM_ERR_CONFIG, err);
	if (rc)
		return rc;
	char *dir = dir_of(path);
	if (!dir)
		return sim_error_set(err, SIM_ERR_NOMEM, path, 0, 0, NULL, "out of memory");
	if ((rc = cfg_check_includes(path, dir, SIM_ERR_CONFIG, err))) {
		free(dir);
		return rc;
	}
	config_t lc;
	config_init(&lc);
	/* @include paths are relative to the directory of the file named on the command
	 * line: configs/owl-28.cfg includes "owl-28/core.cfg". */
	config_set_include_dir(&lc, dir);
	bool ok = config_read_file(&lc, path) == CONFIG_TRUE;
	c->loading = path;
	c->include_dir = dir;
	rc = load(c, &lc, path, ok, err);
	c->loading = c->include_dir = NULL;
	free(dir);
	return rc;
}

int cfg_load_string(struct cfg *c, const char *name, const char *text, struct sim_error *err)
{
	/* libconfig's scanner exits the process on an @include of a directory or a FIFO. */
	int rc0 = cfg_check_includes_in(text, name, SIM_ERR_CONFIG, err);
	if (rc0)
		return rc0;
	config_t lc;
	config_init(&lc);
	bool ok = config_read_string(&lc, text) == CONFIG_TRUE;
	if (!ok && !config_error_file(&lc)) {
		int rc = sim_error_set(err, SIM_ERR_CONFIG, name, config_error_line(&lc), 0, NULL,
				       "%s", config_error_text(&lc));
		config_destroy(&lc);
		return rc;
	}
	/* Settings read from a string carry no file name: report the given name. */
	if (ok) {
		int rc = cfg_lc_check_wrapped_ints(&lc, text, name, SIM_ERR_CONFIG, err);
		if (!rc)
			rc = walk(c, config_root_setting(&lc), "", err);
		if (rc && !err->file[0])
			snprintf(err->file, sizeof err->file, "%s", name);
		config_destroy(&lc);
		if (!rc) {
			for (size_t i = 0; i < c->n; i++)
				if (!strcmp(c->e[i].src_file, "?"))
					set_source(&c->e[i], name, c->e[i].src_line);
		}
		return rc;
	}
	return load(c, &lc, name, ok, err);
}

int cfg_set_override(struct cfg *c, const char *assignment, struct sim_error *err)
{
	const char *eq = strchr(assignment, '=');
	if (!eq || eq == assignment)
		return sim_error_set(err, SIM_ERR_USAGE, SRC_CMDLINE, 0, 0, assignment,
				     "override must be key=value");
	char key[256];
	size_t kn = (size_t)(eq - assignment);
	while (kn > 0 && assignment[kn - 1] == ' ')
		kn--;
	if (kn >= sizeof key)
		return sim_error_set(err, SIM_ERR_USAGE, SRC_CMDLINE, 0, 0, NULL, "override key too long");
	memcpy(key, assignment, kn);
	key[kn] = '\0';
	const char *val = eq + 1;
	while (*val == ' ')
		val++;
	struct cfg_entry *e = find(c, key);
	if (!e)
		return sim_error_set(err, SIM_ERR_CONFIG, SRC_CMDLINE, 0, 0, key,
				     "unknown setting (warpsim config --list shows every setting)");
	const struct cfg_key_def *d = e->def;
	int rc = 0;
	char *end;
	switch (d->type) {
	case CFG_INT: {
		errno = 0;
		long long v = strtoll(val, &end, 0);
		if (end == val || *end || errno)
			return sim_error_set(err, SIM_ERR_CONFIG, SRC_CMDLINE, 0, 0, key,
					     "expected an integer, got '%s'", val);
		rc = check_int(d, v, SRC_CMDLINE, 0, err);
		if (!rc)
			e->i = v;
		break;
	}
	case CFG_FLOAT: {
		errno = 0;
		double v = strtod(val, &end);
		if (end == val || *end || errno)
			return sim_error_set(err, SIM_ERR_CONFIG, SRC_CMDLINE, 0, 0, key,
					     "expected a number, got '%s'", val);
		if (!(v >= d->min_f && v <= d->max_f))
			return sim_error_set(err, SIM_ERR_CONFIG, SRC_CMDLINE, 0, 0, key,
					     "value %g out of range %g..%g", v, d->min_f, d->max_f);
		e->f = v;
		break;
	}
	case CFG_BOOL:
		if (!strcmp(val, "true") || !strcmp(val, "1"))
			e->i = 1;
		else if (!strcmp(val, "false") || !strcmp(val, "0"))
			e->i = 0;
		else
			return sim_error_set(err, SIM_ERR_CONFIG, SRC_CMDLINE, 0, 0, key,
					     "expected true or false, got '%s'", val);
		break;
	case CFG_STRING:
	case CFG_ENUM: {
		char buf[1024];
		size_t n = strlen(val);
		if (n >= 2 && val[0] == '"' && val[n - 1] == '"') {
			val++;
			n -= 2;
		}
		if (n >= sizeof buf)
			return sim_error_set(err, SIM_ERR_CONFIG, SRC_CMDLINE, 0, 0, key, "value too long");
		memcpy(buf, val, n);
		buf[n] = '\0';
		rc = store_string(e, buf, SRC_CMDLINE, 0, err);
		break;
	}
	case CFG_INT_LIST: {
		int64_t *v;
		size_t n;
		if (parse_int_list(val, &v, &n))
			return sim_error_set(err, SIM_ERR_CONFIG, SRC_CMDLINE, 0, 0, key,
					     "expected a list of integers like 1,2,3, got '%s'", val);
		rc = store_list(e, v, n, SRC_CMDLINE, 0, err);
		break;
	}
	}
	if (!rc) {
		set_source(e, SRC_CMDLINE, 0);
		free(e->src_dir);
		e->src_dir = NULL;
		e->set_seq = next_seq(c);
	}
	return rc;
}

int64_t cfg_int(const struct cfg *c, const char *path)
{
	return must_find(c, path, CFG_INT, CFG_INT)->i;
}

double cfg_float(const struct cfg *c, const char *path)
{
	return must_find(c, path, CFG_FLOAT, CFG_FLOAT)->f;
}

bool cfg_bool(const struct cfg *c, const char *path)
{
	return must_find(c, path, CFG_BOOL, CFG_BOOL)->i != 0;
}

const char *cfg_str(const struct cfg *c, const char *path)
{
	return must_find(c, path, CFG_STRING, CFG_ENUM)->s;
}

const int64_t *cfg_int_list(const struct cfg *c, const char *path, size_t *n)
{
	struct cfg_entry *e = must_find(c, path, CFG_INT_LIST, CFG_INT_LIST);
	*n = e->n_list;
	return e->list;
}

bool cfg_is_defined(const struct cfg *c, const char *path)
{
	return find(c, path) != NULL;
}

int cfg_key_type(const struct cfg *c, const char *path)
{
	const struct cfg_entry *e = find(c, path);
	return e ? (int)e->def->type : -1;
}

void cfg_source(const struct cfg *c, const char *path, const char **file, int *line)
{
	struct cfg_entry *e = find(c, path);
	SIM_ASSERT(e != NULL);
	*file = e->src_file;
	*line = e->src_line;
}

const char *cfg_latest(const struct cfg *c, const char *const *paths, size_t n)
{
	const char *best = n ? paths[0] : NULL;
	uint64_t seq = 0;
	for (size_t i = 0; i < n; i++) {
		const struct cfg_entry *e = find(c, paths[i]);
		if (e && e->set_seq > seq) {
			seq = e->set_seq;
			best = paths[i];
		}
	}
	return best;
}

int cfg_error(struct sim_error *err, const struct cfg *c, const char *path, const char *fmt, ...)
{
	const char *file = SRC_DEFAULT;
	int line = 0;
	if (find(c, path))
		cfg_source(c, path, &file, &line);
	va_list ap;
	va_start(ap, fmt);
	int rc = sim_error_vset(err, SIM_ERR_CONFIG, file, line, 0, path, fmt, ap);
	va_end(ap);
	return rc;
}

int cfg_path(const struct cfg *c, const char *path, char *out, size_t n)
{
	const struct cfg_entry *e = must_find(c, path, CFG_STRING, CFG_STRING);
	const char *v = e->s ? e->s : "";
	int k;
	if (v[0] == '/' || !v[0] || !e->src_dir || !strcmp(e->src_dir, "."))
		k = snprintf(out, n, "%s", v);
	else
		k = snprintf(out, n, "%s/%s", e->src_dir, v);
	return k < 0 || (size_t)k >= n ? -1 : 0;
}

static void write_value(const struct cfg_entry *e, FILE *out)
{
	switch (e->def->type) {
	case CFG_INT:
		fprintf(out, "%lld", (long long)e->i);
		if (e->i > INT32_MAX || e->i < INT32_MIN)
			fputc('L', out);
		break;
	case CFG_FLOAT: {
		/* %.17g round-trips; make sure libconfig reads it back as a float. */
		char buf[64];
		snprintf(buf, sizeof buf, "%.17g", e->f);
		if (!strpbrk(buf, ".eEn"))
			strcat(buf, ".0");
		fputs(buf, out);
		break;
	}
	case CFG_BOOL:
		fputs(e->i ? "true" : "false", out);
		break;
	case CFG_STRING:
	case CFG_ENUM:
		fputc('"', out);
		for (const char *p = e->s; *p; p++) {
			if (*p == '"' || *p == '\\')
				fputc('\\', out);
			fputc(*p, out);
		}
		fputc('"', out);
		break;
	case CFG_INT_LIST:
		fputc('[', out);
		for (size_t i = 0; i < e->n_list; i++)
			fprintf(out, "%s%lld", i ? ", " : "", (long long)e->list[i]);
		fputc(']', out);
		break;
	}
}

static int cmp_path(const void *a, const void *b)
{
	const struct cfg_entry *const *x = a, *const *y = b;
	return strcmp((*x)->def->path, (*y)->def->path);
}

/* Number of leading dotted components a and b share. */
static int common_groups(const char *a, const char *b)
{
	int n = 0;
	for (;;) {
		const char *da = strchr(a, '.'), *db = strchr(b, '.');
		if (!da || !db || da - a != db - b || strncmp(a, b, (size_t)(da - a)))
			return n;
		n++;
		a = da + 1;
		b = db + 1;
	}
}

int cfg_write_resolved(const struct cfg *c, FILE *out, struct sim_error *err)
{
	const struct cfg_entry **v = malloc((c->n ? c->n : 1) * sizeof *v);
	if (!v)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	for (size_t i = 0; i < c->n; i++)
		v[i] = &c->e[i];
	qsort(v, c->n, sizeof *v, cmp_path);
	fprintf(out, "# warpsim resolved configuration: every setting, with where its value came from\n");
	int depth = 0;
	const char *prev = "";
	for (size_t i = 0; i < c->n; i++) {
		const char *p = v[i]->def->path;
		int keep = common_groups(prev, p);
		for (; depth > keep; depth--)
			fprintf(out, "%*s};\n", (depth - 1) * 2, "");
		/* open the groups of p beyond the shared ones */
		const char *q = p;
		for (int k = 0; k < depth; k++)
			q = strchr(q, '.') + 1;
		for (const char *dot; (dot = strchr(q, '.')); q = dot + 1, depth++)
			fprintf(out, "%*s%.*s = {\n", depth * 2, "", (int)(dot - q), q);
		fprintf(out, "%*s%s = ", depth * 2, "", q);
		write_value(v[i], out);
		fprintf(out, ";  # %s", v[i]->src_file);
		if (v[i]->src_line)
			fprintf(out, ":%d", v[i]->src_line);
		fputc('\n', out);
		prev = p;
	}
	for (; depth > 0; depth--)
		fprintf(out, "%*s};\n", (depth - 1) * 2, "");
	free(v);
	if (ferror(out))
		return sim_error_set(err, SIM_ERR_IO, NULL, 0, 0, NULL, "write failed");
	return 0;
}

static void range_text(const struct cfg_key_def *d, char *buf, size_t n)
{
	switch (d->type) {
	case CFG_INT:
	case CFG_INT_LIST:
		snprintf(buf, n, "%lld..%lld", (long long)d->min_i, (long long)d->max_i);
		break;
	case CFG_FLOAT:
		snprintf(buf, n, "%g..%g", d->min_f, d->max_f);
		break;
	case CFG_ENUM:
		choices_text(d, buf, n);
		break;
	default:
		buf[0] = '\0';
	}
}

static void default_text(const struct cfg_key_def *d, char *buf, size_t n)
{
	switch (d->type) {
	case CFG_INT: snprintf(buf, n, "%lld", (long long)d->def_i); break;
	case CFG_BOOL: snprintf(buf, n, "%s", d->def_i ? "true" : "false"); break;
	case CFG_FLOAT: snprintf(buf, n, "%g", d->def_f); break;
	default: snprintf(buf, n, "%s", d->def_s ? d->def_s : ""); break;
	}
}

void cfg_print_list(const struct cfg *c, FILE *out, bool json)
{
	const struct cfg_entry **v = malloc((c->n ? c->n : 1) * sizeof *v);
	if (!v)
		return;
	for (size_t i = 0; i < c->n; i++)
		v[i] = &c->e[i];
	qsort(v, c->n, sizeof *v, cmp_path);
	json_t *arr = json ? json_array() : NULL;
	for (size_t i = 0; i < c->n; i++) {
		const struct cfg_key_def *d = v[i]->def;
		char def[256], range[512];
		default_text(d, def, sizeof def);
		range_text(d, range, sizeof range);
		if (json) {
			json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}",
				"name", d->path, "type", d->type == CFG_ENUM ? "enum" : type_name(d->type) + 2,
				"unit", d->unit ? d->unit : "", "default", def, "range", range,
				"help", d->help ? d->help : ""));
		} else {
			fprintf(out, "%-48s %-8s default %-14s", d->path,
				d->type == CFG_ENUM ? "enum" : d->type == CFG_INT_LIST ? "list" : strchr(type_name(d->type), ' ') + 1,
				def);
			if (d->unit && d->unit[0])
				fprintf(out, " [%s]", d->unit);
			if (range[0])
				fprintf(out, " (%s)", range);
			fprintf(out, "\n    %s\n", d->help ? d->help : "");
		}
	}
	if (json) {
		char *s = json_dumps(arr, JSON_INDENT(1));
		if (s) {
			fprintf(out, "%s\n", s);
			free(s);
		}
		json_decref(arr);
	}
	free(v);
}

static const char *const kernel_stats_modes[] = {"summary", "all", NULL};
static const char *const on_budget_modes[] = {"stop", "functional", NULL};
static const char *const functional_cache_modes[] = {"cold", "warm", "warm-l2", NULL};

static const struct cfg_key_def engine_keys[] = {
	CFG_KEY_INT("sim.seed", "", 1, 0, INT64_MAX, "seed of every component's random stream"),
	/* Budgets (issue 33): what the timing model simulates, over all its launches. A capped run
	 * is a clean end (exit 0, stats.json "budget" says where), never a fault. */
	CFG_KEY_INT("sim.max_cycles", "core cycles", 0, 0, INT64_MAX,
		    "budget: timing-mode core cycles over all launches (gpu.cycles); the run is capped "
		    "there, inside the launch (0 = no limit)"),
	CFG_KEY_INT("sim.max_warp_insts", "warp instructions", 0, 0, INT64_MAX,
		    "budget: timing-mode warp instructions over all launches (gpu.warp_insts); capped "
		    "within one cycle's issue of it (0 = no limit)"),
	CFG_KEY_INT("sim.max_thread_insts", "thread instructions", 0, 0, INT64_MAX,
		    "budget: timing-mode thread instructions over all launches (gpu.thread_insts, "
		    "GPGPU-Sim's -gpgpu_max_insn unit); capped within one cycle's issue (0 = no limit)"),
	CFG_KEY_INT("sim.max_launches", "launches", 0, 0, INT64_MAX,
		    "budget: launches simulated in timing mode; the next one is capped (0 = no limit)"),
	CFG_KEY_ENUM("sim.on_budget", "stop", on_budget_modes,
		     "when a budget is spent: stop (the program ends there, inside the launch; its "
		     "statistics are complete up to the cap) or functional (the functional executor "
		     "finishes the launch from where timing stopped, later launches run functionally, "
		     "with exact results)"),
	CFG_KEY_STR("sim.timing_launches", "",
		    "launches simulated in timing mode, the others run functionally: comma-separated "
		    "N (launch index from 0), N-M, every:K (index multiple of K), kernel:NAME (C++ name, "
		    "with or without parameters, or PTX name); empty = every launch"),
	CFG_KEY_ENUM("sim.functional_launches_cache", "cold", functional_cache_modes,
		     "caches after a functional launch on a timing machine: cold (left as they were), "
		     "warm (its global and local accesses replayed through the L1D tags of the CTA's "
		     "core, by the L1's allocation and write policy, and what passes the L1 into the "
		     "L2 tags; no timing) or warm-l2 (every access into the L2 tags, the L1s left)"),
	CFG_KEY_INT("sim.sample_launches", "launches", 0, 0, 1000000,
		    "launch sampling: simulate this many launches of each group (kernel, grid, block, "
		    "shared memory, warp-instruction bucket) in timing mode, run the rest functionally "
		    "and estimate their cycles (stats.json \"sampling\"); 0 = off"),
	CFG_KEY_INT("sim.sample_refresh_launches", "launches", 100, 0, INT64_MAX,
		    "launch sampling: a kernel shape that has gone this many launches without a sample "
		    "is sampled again (its cycles per warp instruction drift as its data change; 0 = never)"),
	CFG_KEY_INT("sim.sample_warmup_launches", "launches", 1, 0, 1000000,
		    "launch sampling: launches of each kernel shape simulated first and not taken as "
		    "samples (the first finds the caches cold)"),
	CFG_KEY_ENUM("sim.kernel_stats", "summary", kernel_stats_modes,
		     "per-kernel records in stats.json: summary (gpu.* only) or all (every stat that changed; grows with each launch)"),
	CFG_KEY_BOOL("sim.check", 0, "check invariants (request/reply, conservation, DRAM timing) at run time"),
	CFG_KEY_INT("sim.watchdog_cycles", "core cycles", 100000, 0, INT64_MAX,
		    "stop with a deadlock report when nothing issued or completed for this long (0 = off)"),
	/* The suite's longest gap between such events is 434,000 core cycles (spmv large on
	 * owl-28; medium sizes at most 90,000, gtx480 164,000): 2e7 is 46 times that, and a
	 * kernel spinning on every core of owl-28 is caught in about 3 minutes here. */
	CFG_KEY_INT("sim.livelock_cycles", "core cycles", 20000000, 0, INT64_MAX,
		    "stop with a livelock report when warps keep issuing but memory does not change "
		    "(stores rewriting the values there, or cycling through the last 8 contents sampled "
		    "once per sim.watchdog_cycles, are not progress; an atomic that changes memory is), "
		    "and no barrier arrival, warp exit or CTA completion happens, for this long (0 = off; "
		    "checked every sim.watchdog_cycles, so off with the watchdog; default 46x the longest "
		    "gap measured in the workload suite)"),
	/* The suite's longest run of one CTA between such events is 8,728 warp instructions
	 * (longcompute large); 2^27 is 15,000 times that, about 4 s of a spinning CTA here. */
	CFG_KEY_INT("sim.functional_livelock_warp_insts", "warp instructions", 1 << 27, 0, INT64_MAX,
		    "--functional: stop with a livelock report when one CTA executes this many warp "
		    "instructions without changing memory (sampled every 4096 of them, as "
		    "sim.livelock_cycles), a barrier arrival or warp exit (0 = off)"),
};

int engine_cfg_define(struct cfg *c, struct sim_error *err)
{
	return cfg_define(c, engine_keys, SIM_ARRAY_LEN(engine_keys), err);
}
