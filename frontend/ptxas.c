/* SPDX-License-Identifier: MIT */
/* Registers per thread from ptxas (fe_ptxas.h): locating ptxas, running `ptxas -v` on a
 * module's text, parsing its report, and the user cache keyed by SHA-256 of PTX, arch and ptxas. */
#define _GNU_SOURCE /* mkstemps */
#include "fe_ptxas.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fe_int.h"

extern char **environ;

#define CACHE_MAGIC "warpsim ptxas regs 1"
#define OUTPUT_MAX_BYTES (4u << 20) /* ptxas -v prints a few lines per function */

const char *fe_regs_source_name(enum fe_regs_source s)
{
	switch (s) {
	case FE_REGS_GIVEN:
		return "given";
	case FE_REGS_PTXAS:
		return "ptxas";
	case FE_REGS_PTXAS_CACHE:
		return "ptxas cache";
	case FE_REGS_ESTIMATE:
		return "estimate";
	default:
		return "none";
	}
}

void fe_ptxas_opts_from_env(struct fe_ptxas_opts *o)
{
	memset(o, 0, sizeof *o);
	o->ptxas = getenv("WARPSIM_PTXAS");
	o->cache_dir = getenv("WARPSIM_CACHE_DIR");
}

/* snprintf for messages, where cutting a long path short is fine (and -Wformat-truncation,
 * which cannot see that, stays quiet). */
static void say(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static bool disabled(const char *s)
{
	return s && (!*s || !strcmp(s, "none"));
}

/* ---- SHA-256 (FIPS 180-4), for the cache key: a content hash, so a false hit would take a
 * collision, not just two PTX files of the same size ------------------------------------------ */

struct sha256 {
	uint32_t h[8];
	uint8_t buf[64];
	uint64_t n_bytes;
};

static const uint32_t sha256_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror32(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha256_block(struct sha256 *c, const uint8_t *p)
{
	uint32_t w[64];
	for (int i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (int i = 16; i < 64; i++) {
		uint32_t s0 = ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18) ^ (w[i - 15] >> 3);
		uint32_t s1 = ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19) ^ (w[i - 2] >> 10);
		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	uint32_t a = c->h[0], b = c->h[1], cc = c->h[2], d = c->h[3];
	uint32_t e = c->h[4], f = c->h[5], g = c->h[6], h = c->h[7];
	for (int i = 0; i < 64; i++) {
		uint32_t t1 = h + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) + ((e & f) ^ (~e & g)) +
			      sha256_k[i] + w[i];
		uint32_t t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) + ((a & b) ^ (a & cc) ^ (b & cc));
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = cc;
		cc = b;
		b = a;
		a = t1 + t2;
	}
	c->h[0] += a;
	c->h[1] += b;
	c->h[2] += cc;
	c->h[3] += d;
	c->h[4] += e;
	c->h[5] += f;
	c->h[6] += g;
	c->h[7] += h;
}

static void sha256_init(struct sha256 *c)
{
	static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
				       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	memcpy(c->h, h0, sizeof h0);
	c->n_bytes = 0;
}

static void sha256_update(struct sha256 *c, const void *data, size_t n)
{
	const uint8_t *p = data;
	while (n) {
		size_t used = c->n_bytes % 64, take = 64 - used < n ? 64 - used : n;
		memcpy(c->buf + used, p, take);
		c->n_bytes += take;
		p += take;
		n -= take;
		if (used + take == 64)
			sha256_block(c, c->buf);
	}
}

static void sha256_final_hex(struct sha256 *c, char hex[65])
{
	uint64_t bits = c->n_bytes * 8;
	uint8_t pad[72] = {0x80};
	size_t used = c->n_bytes % 64, np = used < 56 ? 56 - used : 120 - used;
	for (int i = 0; i < 8; i++)
		pad[np + i] = (uint8_t)(bits >> (56 - 8 * i));
	sha256_update(c, pad, np + 8);
	for (int i = 0; i < 8; i++)
		snprintf(hex + 8 * i, 9, "%08x", c->h[i]);
}

void fe_sha256_hex(const void *data, size_t n, char hex[65])
{
	struct sha256 c;
	sha256_init(&c);
	sha256_update(&c, data, n);
	sha256_final_hex(&c, hex);
}

/* ---- parsing ptxas -v ------------------------------------------------------------------------ */

static uint32_t func_at(struct fe_ptxas_func *out, uint32_t max, uint32_t *n, const char *name,
			uint32_t len)
{
	uint32_t stored = *n < max ? *n : max;
	for (uint32_t i = 0; i < stored; i++)
		if (out[i].name_len == len && !memcmp(out[i].name, name, len))
			return i;
	if (*n < max)
		out[*n] = (struct fe_ptxas_func){.name = name, .name_len = len};
	else
		*n = max; /* dropped: fe_ptxas_parse returns max + 1 */
	return (*n)++;
}

/* The quoted name after key on the line [s, e), or NULL. */
static const char *quoted_after(const char *s, const char *e, const char *key, uint32_t *len)
{
	const char *p = memmem(s, (size_t)(e - s), key, strlen(key));
	if (!p)
		return NULL;
	p += strlen(key);
	const char *q = memchr(p, '\'', (size_t)(e - p));
	if (!q || q == p)
		return NULL;
	*len = (uint32_t)(q - p);
	return p;
}

/* The number before " bytes <what>" on [s, e), 0 if absent. */
static uint32_t bytes_of(const char *s, const char *e, const char *what)
{
	char key[64];
	snprintf(key, sizeof key, " bytes %s", what);
	const char *p = memmem(s, (size_t)(e - s), key, strlen(key));
	if (!p)
		return 0;
	while (p > s && p[-1] >= '0' && p[-1] <= '9')
		p--;
	return (uint32_t)strtoul(p, NULL, 10);
}

uint32_t fe_ptxas_parse(const char *text, struct fe_ptxas_func *out, uint32_t max)
{
	uint32_t n = 0;
	uint32_t cur = UINT32_MAX;   /* function of the latest "Compiling ... function" */
	uint32_t props = UINT32_MAX; /* function of the latest "Function properties for" */
	for (const char *s = text; *s;) {
		const char *e = strchr(s, '\n');
		if (!e)
			e = s + strlen(s);
		const char *name;
		uint32_t len;
		const char *p;
		if ((name = quoted_after(s, e, "Compiling entry function '", &len))) {
			cur = func_at(out, max, &n, name, len);
			if (cur < max)
				out[cur].entry = true;
		} else if ((name = quoted_after(s, e, "Compiling function '", &len))) {
			cur = func_at(out, max, &n, name, len);
		} else if ((p = memmem(s, (size_t)(e - s), "Function properties for ", 24))) {
			p += 24;
			const char *q = p;
			while (q < e && *q != ' ' && *q != '\t' && *q != '\r' && *q != ':')
				q++;
			if (q > p)
				props = func_at(out, max, &n, p, (uint32_t)(q - p));
		} else if (memmem(s, (size_t)(e - s), " bytes stack frame", 18)) {
			if (props < max) {
				out[props].stack_bytes = bytes_of(s, e, "stack frame");
				out[props].spill_store_bytes = bytes_of(s, e, "spill stores");
				out[props].spill_load_bytes = bytes_of(s, e, "spill loads");
			}
		} else if ((p = memmem(s, (size_t)(e - s), "Used ", 5))) {
			char *end;
			unsigned long r = strtoul(p + 5, &end, 10);
			uint32_t owner = cur != UINT32_MAX ? cur : props;
			if (end > p + 5 && !strncmp(end, " register", 9) && r <= 0xffff && owner < max) {
				out[owner].has_regs = true;
				out[owner].regs = (uint32_t)r;
			}
		}
		s = *e ? e + 1 : e;
	}
	return n;
}

/* ---- finding ptxas ----------------------------------------------------------------------------- */

static bool executable(const char *path)
{
	struct stat st;
	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK);
}

static bool in_path(const char *name, char *path, size_t len)
{
	const char *dirs = getenv("PATH");
	while (dirs && *dirs) {
		const char *c = strchr(dirs, ':');
		size_t dl = c ? (size_t)(c - dirs) : strlen(dirs);
		if (dl && (size_t)snprintf(path, len, "%.*s/%s", (int)dl, dirs, name) < len &&
		    executable(path))
			return true;
		dirs = c ? c + 1 : NULL;
	}
	return false;
}

bool fe_ptxas_find(const struct fe_ptxas_opts *o, char *path, size_t len, char *why,
		   size_t why_len)
{
	path[0] = 0;
	if (disabled(o->ptxas)) {
		say(why, why_len, "ptxas is disabled (WARPSIM_PTXAS=%s)", o->ptxas);
		return false;
	}
	if (o->ptxas) {
		bool ok = strchr(o->ptxas, '/') ? executable(o->ptxas) &&
			  (size_t)snprintf(path, len, "%s", o->ptxas) < len : in_path(o->ptxas, path, len);
		if (!ok) {
			path[0] = 0;
			say(why, why_len, "ptxas '%s' (WARPSIM_PTXAS) is not an executable file",
			    o->ptxas);
		}
		return ok;
	}
	if (in_path("ptxas", path, len))
		return true;
	const char *cuda = getenv("CUDA_HOME");
	if (cuda && *cuda && (size_t)snprintf(path, len, "%s/bin/ptxas", cuda) < len && executable(path))
		return true;
	if ((size_t)snprintf(path, len, "/usr/local/cuda/bin/ptxas") < len && executable(path))
		return true;
	path[0] = 0;
	say(why, why_len, "no ptxas in PATH, $CUDA_HOME/bin or /usr/local/cuda/bin (WARPSIM_PTXAS "
	    "may name one)");
	return false;
}

/* ---- the cache --------------------------------------------------------------------------------- */

static bool cache_dir(const struct fe_ptxas_opts *o, char *dir, size_t len)
{
	if (disabled(o->cache_dir))
		return false;
	if (o->cache_dir)
		return (size_t)snprintf(dir, len, "%s", o->cache_dir) < len;
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	if (xdg && xdg[0] == '/') /* the XDG spec ignores relative paths */
		return (size_t)snprintf(dir, len, "%s/warpsim", xdg) < len;
	if (home && *home)
		return (size_t)snprintf(dir, len, "%s/.cache/warpsim", home) < len;
	return false;
}

/* mkdir -p; 0 or errno. */
static int make_dirs(const char *dir)
{
	char p[1024];
	if (snprintf(p, sizeof p, "%s", dir) >= (int)sizeof p)
		return ENAMETOOLONG;
	for (char *s = p + 1;; s++) {
		if (*s == '/' || !*s) {
			char c = *s;
			*s = 0;
			if (mkdir(p, 0777) && errno != EEXIST)
				return errno;
			if (!c)
				return 0;
			*s = c;
		}
	}
}

/* Fill r->regs from a cache file; false if it is missing or not a complete entry. */
static bool cache_read(const char *path, const struct fe_module *m, struct fe_ptxas_regs *r)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char line[4096];
	bool ok = fgets(line, sizeof line, f) && !strcmp(line, CACHE_MAGIC "\n"), end = false;
	for (uint32_t k = 0; k < r->n_kernels; k++)
		r->regs[k] = FE_PTXAS_NO_COUNT;
	while (ok && !end && fgets(line, sizeof line, f)) {
		unsigned r32;
		char name[sizeof line];
		if (!strcmp(line, "end\n")) {
			end = true;
		} else if (sscanf(line, "kernel %u %4095s", &r32, name) == 2) {
			for (uint32_t k = 0; k < r->n_kernels; k++)
				if (!strcmp(fe_module_kernel_name(m, k), name))
					r->regs[k] = r32;
		} else {
			ok = false;
		}
	}
	fclose(f);
	return ok && end;
}

/* Write atomically (temporary file, then rename), so concurrent runs never read half an entry. */
static void cache_write(const char *dir, const char *path, const struct fe_module *m,
			struct fe_ptxas_regs *r)
{
	int e = make_dirs(dir);
	char tmp[1100];
	snprintf(tmp, sizeof tmp, "%s/.ptxas-XXXXXX", dir);
	int fd = e ? -1 : mkstemp(tmp);
	if (fd < 0) {
		say(r->cache_warning, sizeof r->cache_warning,
		    "cannot write the ptxas cache in %s (%s); the count is not kept", dir,
		    strerror(e ? e : errno));
		return;
	}
	FILE *f = fdopen(fd, "w");
	bool ok = f && fprintf(f, "%s\n", CACHE_MAGIC) > 0;
	for (uint32_t k = 0; ok && k < r->n_kernels; k++)
		if (r->regs[k] != FE_PTXAS_NO_COUNT)
			ok = fprintf(f, "kernel %u %s\n", r->regs[k], fe_module_kernel_name(m, k)) > 0;
	ok = ok && fprintf(f, "end\n") > 0;
	ok = f ? !fclose(f) && ok : (close(fd), false);
	if (!ok || rename(tmp, path)) {
		say(r->cache_warning, sizeof r->cache_warning,
		    "cannot write the ptxas cache entry %s (%s); the count is not kept", path,
		    strerror(errno));
		unlink(tmp);
	}
}

/* ---- running ptxas ---------------------------------------------------------------------------- */

/* The first line of out that names an error, else its first line, into buf. */
static void first_error(const char *out, char *buf, size_t len)
{
	const char *p = strstr(out, "error");
	if (!p)
		p = strstr(out, "fatal");
	if (p)
		while (p > out && p[-1] != '\n')
			p--;
	else
		p = out;
	size_t n = strcspn(p, "\r\n");
	snprintf(buf, len, "%.*s", (int)(n < 200 ? n : 200), p);
}

/* Run ptxas on the module's text; its stdout and stderr into *out (malloc'd). Returns the exit
 * status, or -1 with why filled in if it could not be run. */
static int run_ptxas(const char *ptxas, const char *arch, const struct fe_module *m, char **out,
		     char *why, size_t why_len)
{
	*out = NULL;
	const char *td = getenv("TMPDIR");
	if (!td || !*td)
		td = "/tmp";
	char in_path[1024], out_path[1024], arch_arg[64];
	snprintf(in_path, sizeof in_path, "%s/warpsim-ptxas-XXXXXX.ptx", td);
	snprintf(out_path, sizeof out_path, "%s/warpsim-ptxas-XXXXXX.txt", td);
	snprintf(arch_arg, sizeof arch_arg, "-arch=%s", arch);
	int in_fd = mkstemps(in_path, 4);
	int out_fd = in_fd < 0 ? -1 : mkstemps(out_path, 4);
	int status = -1;
	if (in_fd < 0 || out_fd < 0) {
		say(why, why_len, "cannot create a temporary file in %s for ptxas (%s)", td,
		    strerror(errno));
		goto done;
	}
	for (size_t off = 0; off < m->text_bytes;) {
		ssize_t w = write(in_fd, m->text + off, m->text_bytes - off);
		if (w <= 0) {
			say(why, why_len, "cannot write %s for ptxas (%s)", in_path, strerror(errno));
			goto done;
		}
		off += (size_t)w;
	}
	char *argv[] = {(char *)ptxas, arch_arg, "-v", "-o", "/dev/null", in_path, NULL};
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	posix_spawn_file_actions_adddup2(&fa, out_fd, 2);
	pid_t pid;
	int e = posix_spawn(&pid, ptxas, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (e) {
		say(why, why_len, "cannot run ptxas %s (%s)", ptxas, strerror(e));
		goto done;
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	off_t sz = lseek(out_fd, 0, SEEK_END);
	size_t n = sz < 0 ? 0 : (size_t)sz < OUTPUT_MAX_BYTES ? (size_t)sz : OUTPUT_MAX_BYTES;
	*out = malloc(n + 1);
	ssize_t got = *out ? pread(out_fd, *out, n, 0) : -1;
	if (*out)
		(*out)[got > 0 ? got : 0] = 0;
	if (!*out) {
		status = -1;
		say(why, why_len, "out of memory reading ptxas's output");
	}
done:
	if (in_fd >= 0) {
		close(in_fd);
		unlink(in_path);
	}
	if (out_fd >= 0) {
		close(out_fd);
		unlink(out_path);
	}
	return status;
}

/* Counts from ptxas's output; false (why filled in) if it gave none for any kernel. */
static bool take_counts(const struct fe_module *m, const char *ptxas, const char *text,
			struct fe_ptxas_regs *r)
{
	uint32_t max = m->n_funcs + 64;
	struct fe_ptxas_func *f = calloc(max, sizeof *f);
	if (!f) {
		say(r->why, sizeof r->why, "out of memory parsing ptxas's output");
		return false;
	}
	uint32_t n = fe_ptxas_parse(text, f, max), found = 0;
	if (n > max)
		n = max;
	for (uint32_t k = 0; k < r->n_kernels; k++) {
		const char *name = fe_module_kernel_name(m, k);
		r->regs[k] = FE_PTXAS_NO_COUNT;
		for (uint32_t i = 0; i < n; i++)
			if (f[i].has_regs && f[i].name_len == strlen(name) &&
			    !memcmp(f[i].name, name, f[i].name_len)) {
				r->regs[k] = f[i].regs;
				found++;
			}
	}
	free(f);
	if (!found) {
		char first[256];
		first_error(text, first, sizeof first);
		say(r->why, sizeof r->why, "ptxas %s exited 0 but printed no register count%s%s%s",
		    ptxas, first[0] ? " (\"" : "", first, first[0] ? "\")" : "");
	}
	return found > 0;
}

void fe_ptxas_module_regs(const struct fe_module *m, const struct fe_ptxas_opts *o,
			  struct fe_ptxas_regs *r)
{
	memset(r, 0, sizeof *r);
	r->source = FE_REGS_ESTIMATE;
	r->n_kernels = m->n_kernels;
	r->regs = malloc((m->n_kernels ? m->n_kernels : 1) * sizeof *r->regs);
	if (!r->regs) {
		say(r->why, sizeof r->why, "out of memory");
		return;
	}
	for (uint32_t k = 0; k < r->n_kernels; k++)
		r->regs[k] = FE_PTXAS_NO_COUNT;
	if (!fe_ptxas_find(o, r->ptxas, sizeof r->ptxas, r->why, sizeof r->why))
		return;
	const char *arch = o->arch ? o->arch : FE_PTXAS_ARCH;
	/* the key: format version, arch, which ptxas (a new CUDA may allocate differently), PTX */
	struct stat st;
	char id[768], key[65], dir[1024], path[1200];
	if (stat(r->ptxas, &st))
		memset(&st, 0, sizeof st);
	int idn = snprintf(id, sizeof id, "%s\narch %s\nptxas %s %lld %lld.%09ld\n", CACHE_MAGIC, arch,
			   r->ptxas, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
			   (long)st.st_mtim.tv_nsec);
	struct sha256 c;
	sha256_init(&c);
	sha256_update(&c, id, (size_t)idn < sizeof id ? (size_t)idn : sizeof id - 1);
	sha256_update(&c, m->text, m->text_bytes);
	sha256_final_hex(&c, key);
	bool cached = cache_dir(o, dir, sizeof dir) &&
		      (size_t)snprintf(path, sizeof path, "%s/ptxas-%s.regs", dir, key) < sizeof path;
	if (cached && cache_read(path, m, r)) {
		r->source = FE_REGS_PTXAS_CACHE;
		return;
	}
	char *out;
	int status = run_ptxas(r->ptxas, arch, m, &out, r->why, sizeof r->why);
	if (status > 0) {
		char first[256];
		first_error(out ? out : "", first, sizeof first);
		say(r->why, sizeof r->why,
		    "ptxas %s refused the PTX (exit %d%s%s); warpsim's own parser accepted it, so "
		    "this is not an error", r->ptxas, status, first[0] ? ": " : "", first);
	} else if (status == 0 && take_counts(m, r->ptxas, out, r)) {
		r->source = FE_REGS_PTXAS;
		if (cached)
			cache_write(dir, path, m, r);
	}
	free(out);
	if (r->source == FE_REGS_ESTIMATE)
		for (uint32_t k = 0; k < r->n_kernels; k++)
			r->regs[k] = FE_PTXAS_NO_COUNT;
}

void fe_ptxas_regs_fini(struct fe_ptxas_regs *r)
{
	free(r->regs);
	r->regs = NULL;
}
