/* SPDX-License-Identifier: MIT */
/* Finds integer literals that libconfig 1.5 wrapped to 32 bits, by re-reading the files' text
 * (libconfig keeps no literal text) and matching each suspect to the setting stored on its line. */
#include "cfg_text.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

/* What libconfig 1.5's scanner stores for an unsuffixed literal: decimal through atoi (glibc:
 * (int)strtol), hex through (int)strtoul. */
static int lc_wrapped(const char *lit, bool hex)
{
	if (hex)
		return (int)strtoul(lit, NULL, 16);
	return (int)strtol(lit, NULL, 10);
}

/* The literal's value at full width; false when it fits in an int (nothing wrapped). */
static bool lc_beyond_int(const char *lit, bool hex)
{
	errno = 0;
	if (hex) {
		unsigned long long v = strtoull(lit, NULL, 16);
		return errno == ERANGE || v > INT_MAX;
	}
	long long v = strtoll(lit, NULL, 10);
	return errno == ERANGE || v > INT_MAX || v < INT_MIN;
}

/* The k-th numeric leaf (int, int64 or float) stored at file:line, in document order, which
 * is the order libconfig keeps: each number literal in the text is one such leaf. Its path into
 * buf. by_value: instead the int leaf holding `wrapped` nearest above the literal's line, for a
 * value written on a later line than its name (libconfig dates a setting by its name). */
struct lc_want {
	const char *file;
	int line, k, wrapped;
	bool by_value;
	const config_setting_t *found;
	int found_line;
	char best[256];   /* by_value: the path of the nearest match so far */
};

static bool lc_find(const config_setting_t *s, struct lc_want *w, char *buf, size_t n, size_t off)
{
	if (config_setting_is_aggregate(s)) {
		int len = config_setting_length(s);
		bool group = config_setting_is_group(s);
		for (int i = 0; i < len; i++) {
			const config_setting_t *m = config_setting_get_elem(s, (unsigned)i);
			size_t o = off;
			if (group && config_setting_name(m))
				o += (size_t)snprintf(buf + off, off < n ? n - off : 0, "%s%s",
						      off ? "." : "", config_setting_name(m));
			else
				o += (size_t)snprintf(buf + off, off < n ? n - off : 0, "[%d]", i);
			if (o < n && lc_find(m, w, buf, n, o))
				return true;
		}
		return false;
	}
	const char *sf = config_setting_source_file(s);
	int line = (int)config_setting_source_line(s);
	int t = config_setting_type(s);
	if (!(w->file ? sf && !strcmp(sf, w->file) : !sf))
		return false;
	if (w->by_value) {
		if (t == CONFIG_TYPE_INT && config_setting_get_int(s) == w->wrapped && line <= w->line &&
		    (!w->found || line >= w->found_line)) {
			w->found = s;
			w->found_line = line;
			snprintf(w->best, sizeof w->best, "%s", buf);
		}
		return false; /* keep looking for a nearer one */
	}
	if (line != w->line || (t != CONFIG_TYPE_INT && t != CONFIG_TYPE_INT64 && t != CONFIG_TYPE_FLOAT))
		return false;
	if (w->k-- > 0)
		return false;
	w->found = s;
	return true;
}

static bool is_name_start(int c) { return isalpha(c) || c == '*'; }
static bool is_name_char(int c) { return isalnum(c) || c == '_' || c == '-' || c == '*'; }

/* Scan one file's text; on the first wrapped literal that libconfig stored, fill err. */
static int scan_text(const config_t *lc, const char *text, const char *file, const char *shown,
		     enum sim_err code, struct sim_error *err)
{
	int line = 1, k_line = 0, k_on_line = 0; /* number literals met so far on line k_line */
	const char *p = text;
	while (*p) {
		char c = *p;
		if (c == '\n') {
			line++;
			p++;
		} else if (c == '#' || (c == '/' && p[1] == '/')) {
			while (*p && *p != '\n')
				p++;
		} else if (c == '/' && p[1] == '*') {
			p += 2;
			while (*p && !(p[0] == '*' && p[1] == '/'))
				line += *p++ == '\n';
			if (*p)
				p += 2;
		} else if (c == '"') {
			p++;
			while (*p && *p != '"') {
				if (*p == '\\' && p[1])
					p++;
				line += *p++ == '\n';
			}
			if (*p)
				p++;
		} else if (is_name_start((unsigned char)c) || c == '@') {
			p++;
			while (is_name_char((unsigned char)*p))
				p++;
		} else if (isdigit((unsigned char)c) ||
			   ((c == '-' || c == '+') && (isdigit((unsigned char)p[1]) || p[1] == '.')) ||
			   (c == '.' && isdigit((unsigned char)p[1]))) {
			/* A number token: digits, letters (hex digits, x, e, L), '.', and a sign after
			 * an exponent's e. */
			const char *s = p++;
			bool hex = c == '0' && (*p == 'x' || *p == 'X');
			while (isalnum((unsigned char)*p) || *p == '.' || *p == '_' ||
			       ((*p == '-' || *p == '+') && !hex && (p[-1] == 'e' || p[-1] == 'E')))
				p++;
			size_t n = (size_t)(p - s);
			char lit[64];
			if (n >= sizeof lit)
				n = sizeof lit - 1;
			memcpy(lit, s, n);
			lit[n] = '\0';
			if (k_line != line) {
				k_line = line;
				k_on_line = 0;
			}
			int k = k_on_line++;
			bool is_int = true;
			for (size_t i = (lit[0] == '-' || lit[0] == '+') ? 1 : 0; i < n; i++)
				if (hex ? (i > 1 && !isxdigit((unsigned char)lit[i]))
					: !isdigit((unsigned char)lit[i]))
					is_int = false;
			if (!is_int || !lc_beyond_int(lit, hex))
				continue; /* floats, L-suffixed 64-bit literals, small ints */
			int wrapped = lc_wrapped(lit, hex);
			char path[256] = "";
			struct lc_want w = {.file = file, .line = line, .k = k, .wrapped = wrapped};
			if (lc_find(config_root_setting(lc), &w, path, sizeof path, 0) &&
			    config_setting_type(w.found) != CONFIG_TYPE_INT)
				continue; /* stored whole (a newer libconfig reads it as int64) */
			if (!w.found) {
				w.by_value = true;
				lc_find(config_root_setting(lc), &w, path, sizeof path, 0);
				if (!w.found)
					continue;
				snprintf(path, sizeof path, "%s", w.best);
			}
			return sim_error_set(err, code, shown, line, 0, path,
					     "%s does not fit in 32 bits and would be read as %d; "
					     "write %sL for a 64-bit integer",
					     lit, wrapped, lit);
		} else {
			p++;
		}
	}
	return 0;
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
		if (n + 1 == cap) {
			char *nb = realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

/* Every distinct source file of the tree's settings, in order of first appearance. */
static void collect_files(const config_setting_t *s, const char **files, int *n, int max)
{
	const char *f = config_setting_source_file(s);
	if (f) {
		bool seen = false;
		for (int i = 0; i < *n && !seen; i++)
			seen = !strcmp(files[i], f);
		if (!seen && *n < max)
			files[(*n)++] = f;
	}
	if (config_setting_is_aggregate(s))
		for (int i = 0; i < config_setting_length(s); i++)
			collect_files(config_setting_get_elem(s, (unsigned)i), files, n, max);
}

int cfg_lc_check_wrapped_ints(const config_t *lc, const char *text, const char *name,
			      enum sim_err code, struct sim_error *err)
{
	if (text)
		return scan_text(lc, text, NULL, name, code, err) ? err->code : 0;
	const char *files[64];
	int n = 0;
	collect_files(config_root_setting(lc), files, &n, (int)SIM_ARRAY_LEN(files));
	for (int i = 0; i < n; i++) {
		char *t = read_all(files[i]);
		if (!t)
			continue; /* libconfig just read it; a vanished file is not ours to report */
		int rc = scan_text(lc, t, files[i], files[i], code, err);
		free(t);
		if (rc)
			return rc;
	}
	return 0;
}

int cfg_check_regular_file(const char *path, const char *what, const char *file, int line,
			   enum sim_err code, struct sim_error *err)
{
	struct stat st;
	const char *at = file ? file : path;
	if (stat(path, &st))
		return sim_error_set(err, code, at, file ? line : 0, 0, NULL, "cannot open %s %s: %s",
				     what, path, strerror(errno));
	if (S_ISREG(st.st_mode))
		return 0;
	const char *kind = S_ISDIR(st.st_mode)    ? "a directory"
			   : S_ISFIFO(st.st_mode) ? "a FIFO"
			   : S_ISCHR(st.st_mode)  ? "a character device"
			   : S_ISBLK(st.st_mode)  ? "a block device"
			   : S_ISSOCK(st.st_mode) ? "a socket"
						  : "not a regular file";
	return sim_error_set(err, code, at, file ? line : 0, 0, NULL, "%s %s is %s, not a regular file",
			     what, path, kind);
}

/* libconfig 1.5 nests includes at most 10 deep; past that it reports the error itself. */
#define CFG_MAX_INCLUDE_DEPTH 10

static int check_includes(const char *path, const char *include_dir, int depth, enum sim_err code,
			  struct sim_error *err);

/* The @include lines of text (read from where): each named file that exists must be a regular
 * file, and so must what it includes. */
static int check_includes_text(const char *text, const char *path, const char *include_dir, int depth,
			       enum sim_err code, struct sim_error *err)
{
	int line = 1, rc = 0;
	for (const char *p = text; *p && !rc; line++) {
		const char *eol = strchr(p, '\n');
		const char *q = p;
		while (*q == ' ' || *q == '\t')
			q++;
		if (!strncmp(q, "@include", 8)) {
			q += 8;
			while (*q == ' ' || *q == '\t')
				q++;
			const char *end = *q == '"' ? strchr(q + 1, '"') : NULL;
			if (end && (!eol || end < eol)) {
				char name[1024], full[2048];
				snprintf(name, sizeof name, "%.*s", (int)(end - q - 1), q + 1);
				if (name[0] != '/' && include_dir)
					snprintf(full, sizeof full, "%s/%s", include_dir, name);
				else
					snprintf(full, sizeof full, "%s", name);
				struct stat st;
				/* A missing file is libconfig's to report (with its own message). */
				if (!stat(full, &st))
					rc = cfg_check_regular_file(full, "included file", path, line,
								    code, err);
				if (!rc && !stat(full, &st))
					rc = check_includes(full, include_dir, depth + 1, code, err);
			}
		}
		if (!eol)
			break;
		p = eol + 1;
	}
	return rc;
}

static int check_includes(const char *path, const char *include_dir, int depth, enum sim_err code,
			  struct sim_error *err)
{
	char *text = read_all(path);
	if (!text || depth >= CFG_MAX_INCLUDE_DEPTH) {
		free(text);
		return 0; /* unreadable: libconfig reports it when it opens the file */
	}
	int rc = check_includes_text(text, path, include_dir, depth, code, err);
	free(text);
	return rc;
}

int cfg_check_includes_in(const char *text, const char *name, enum sim_err code, struct sim_error *err)
{
	return check_includes_text(text, name, NULL, 0, code, err);
}

int cfg_check_includes(const char *path, const char *include_dir, enum sim_err code,
		       struct sim_error *err)
{
	return check_includes(path, include_dir, 0, code, err);
}
