/* SPDX-License-Identifier: MIT */
/* The CUDA tests' harness (tests/cuda, and tests/workloads' runs of scripts): run a command and
 * keep its output, a directory of the test's own, the warpsim binary. Static: each test file has
 * its own copy. Needs _XOPEN_SOURCE 700 (nftw) before the first include. */
#ifndef WARPSIM_TESTS_CUDA_TEST_H
#define WARPSIM_TESTS_CUDA_TEST_H

#include <criterion/criterion.h>
#include <ftw.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define OUT_BYTES (1 << 20)

/* Run a shell command; stdout and stderr into out, exit status returned. */
static inline int run(const char *cmd, char *out)
{
	char *full = malloc(strlen(cmd) + 8);
	cr_assert_not_null(full);
	sprintf(full, "%s 2>&1", cmd);
	FILE *p = popen(full, "r");
	free(full);
	cr_assert_not_null(p);
	size_t n = fread(out, 1, OUT_BYTES - 1, p);
	out[n] = '\0';
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

/* run() of cmd put in form ("...%s...%s...": the sanitizer runtime, then cmd) when there is a
 * sanitizer runtime to preload for the CUDA programs cmd starts; cmd as it is otherwise. */
static inline int run_preloaded(const char *form, const char *cmd, char *out)
{
	const char *pre = getenv("WARPSIM_CUDA_PRELOAD");
	if (!pre || !*pre)
		return run(cmd, out);
	char *full = malloc(strlen(form) + strlen(pre) + strlen(cmd) + 1);
	cr_assert_not_null(full);
	sprintf(full, form, pre, cmd);
	int rc = run(full, out);
	free(full);
	return rc;
}

/* run(), the runtime preloaded for the CUDA programs that cmd starts: the prefix is an
 * assignment, so it reaches cmd's first command and what that runs. */
static inline int run_cuda(const char *cmd, char *out)
{
	return run_preloaded("LD_PRELOAD=%s %s", cmd, out);
}

/* run(), for a command list (a script and what it starts): exported, so every process of the
 * list gets the runtime, bash and git included, whose own unfreed memory LSan would report;
 * leaks are left to the CUDA tests, which check libcudart's, memory errors are checked. */
static inline int run_cuda_list(const char *cmd, char *out)
{
	return run_preloaded("export LD_PRELOAD='%s' ASAN_OPTIONS=detect_leaks=0; %s", cmd, out);
}

/* A directory of the test's own (mkdtemp, never a fixed path that another run or user might
 * hold), removed with what is in it by tmp_fini; a failing test leaves it to be looked at. */
struct tmp {
	char path[256];
};

static inline void tmp_init(struct tmp *t)
{
	const char *base = getenv("TMPDIR");
	snprintf(t->path, sizeof t->path, "%s/warpsim-test-cuda-XXXXXX", base && *base ? base : "/tmp");
	cr_assert_not_null(mkdtemp(t->path), "mkdtemp %s", t->path);
}

/* t's path with /name appended, in buf. */
static inline const char *tmp_sub(const struct tmp *t, const char *name, char *buf, size_t n)
{
	cr_assert_lt((size_t)snprintf(buf, n, "%s/%s", t->path, name), n);
	return buf;
}

static inline int rm_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	return remove(path);
}

static inline void tmp_fini(struct tmp *t)
{
	/* FTW_PHYS: a link inside is removed, never followed */
	cr_assert_eq(nftw(t->path, rm_entry, 16, FTW_DEPTH | FTW_PHYS), 0, "removing %s", t->path);
}

static inline const char *bin(void)
{
	const char *b = getenv("WARPSIM_BIN");
	return b ? b : "build/warpsim";
}

/* `warpsim cuda -c gtx480 -o dir -- program`: its status, output in out. */
static inline int run_prog(const char *prog, const char *dir, char *out)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "%s cuda -c configs/gtx480.cfg%s%s -- tests/cuda/bin/%s", bin(),
		 dir ? " -o " : "", dir ? dir : "", prog);
	return run_cuda(cmd, out);
}

static inline char *buf(void)
{
	char *b = malloc(OUT_BYTES);
	cr_assert_not_null(b);
	return b;
}

#endif
