/* SPDX-License-Identifier: MIT */
/* frontend/fe_ptxas.h: parsing `ptxas -v` (committed samples of CUDA 13 and the older layout),
 * running a ptxas (a fake script that counts its calls), the cache, and the fallbacks. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake_ptxas.h"
#include "fe_test.h"
#include "frontend/fe_ptxas.h"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *s = malloc((size_t)n + 1);
	cr_assert_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	s[n] = 0;
	fclose(f);
	return s;
}

static bool named(const struct fe_ptxas_func *f, const char *name)
{
	return f->name_len == strlen(name) && !memcmp(f->name, name, f->name_len);
}

Test(ptxas, sha256_matches_the_fips_180_examples)
{
	char hex[65];
	fe_sha256_hex("abc", 3, hex);
	cr_expect_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	fe_sha256_hex("", 0, hex);
	cr_expect_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"; /* 56 bytes: two blocks */
	fe_sha256_hex(two, strlen(two), hex);
	cr_expect_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	char *mil = malloc(1000000);
	memset(mil, 'a', 1000000);
	fe_sha256_hex(mil, 1000000, hex);
	cr_expect_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(mil);
}

/* ---- the parser on committed samples (tests/frontend/data/ptxas/README.md) ------------------ */

Test(ptxas, parse_cuda13_two_entries_with_callees_between)
{
	char *t = slurp("tests/frontend/data/ptxas/cuda13_mathlib.txt");
	struct fe_ptxas_func f[8];
	cr_assert_eq(fe_ptxas_parse(t, f, 8), 4);
	cr_expect(named(&f[0], "mathd") && f[0].entry && f[0].has_regs && f[0].regs == 34);
	cr_expect_eq(f[0].stack_bytes, 40);
	/* the callees' properties come after mathd's count and get none of their own */
	cr_expect(named(&f[1], "__internal_accurate_pow") && !f[1].entry && !f[1].has_regs);
	cr_expect(named(&f[2], "__internal_trig_reduction_slowpathd") && !f[2].has_regs);
	cr_expect(named(&f[3], "mathf") && f[3].entry && f[3].has_regs && f[3].regs == 20);
	cr_expect_eq(f[3].stack_bytes, 32);
	free(t);
}

Test(ptxas, parse_cuda13_spills_under_a_register_limit)
{
	char *t = slurp("tests/frontend/data/ptxas/cuda13_spills.txt");
	struct fe_ptxas_func f[4];
	cr_assert_eq(fe_ptxas_parse(t, f, 4), 1);
	cr_expect(named(&f[0], "viterbi") && f[0].has_regs);
	/* "adjusting ... register count of 16 to lower bound of 24" is a warning, not the count */
	cr_expect_eq(f[0].regs, 24);
	cr_expect_eq(f[0].stack_bytes, 576);
	cr_expect_eq(f[0].spill_store_bytes, 52);
	cr_expect_eq(f[0].spill_load_bytes, 52);
	free(t);
}

Test(ptxas, parse_cuda13_relocatable_callees_before_the_entry)
{
	char *t = slurp("tests/frontend/data/ptxas/cuda13_relocatable.txt");
	struct fe_ptxas_func f[4];
	cr_assert_eq(fe_ptxas_parse(t, f, 4), 3);
	cr_expect(named(&f[0], "_Z5scaleff") && !f[0].has_regs);
	cr_expect(named(&f[1], "_Z3mixii") && !f[1].has_regs);
	cr_expect(named(&f[2], "_Z5callsPiPf") && f[2].entry && f[2].has_regs && f[2].regs == 24);
	free(t);
}

Test(ptxas, parse_older_layout_with_prefix_and_crlf)
{
	char *t = slurp("tests/frontend/data/ptxas/cuda12_layout.txt");
	struct fe_ptxas_func f[4];
	cr_assert_eq(fe_ptxas_parse(t, f, 4), 3);
	cr_expect(named(&f[0], "_Z7stencilPKfPfi") && f[0].entry && f[0].regs == 37);
	cr_expect(named(&f[1], "_Z6helperi") && !f[1].has_regs && f[1].stack_bytes == 16);
	cr_expect(named(&f[2], "_Z5heavyPdS_") && f[2].has_regs && f[2].regs == 255);
	cr_expect_eq(f[2].spill_store_bytes, 188);
	cr_expect_eq(f[2].spill_load_bytes, 220);
	free(t);
}

Test(ptxas, parse_refusal_finds_no_function)
{
	char *t = slurp("tests/frontend/data/ptxas/cuda13_refused.txt");
	struct fe_ptxas_func f[4];
	cr_expect_eq(fe_ptxas_parse(t, f, 4), 0);
	cr_expect_eq(fe_ptxas_parse("", f, 4), 0);
	free(t);
}

Test(ptxas, parse_counts_functions_beyond_max_without_storing_them)
{
	char *t = slurp("tests/frontend/data/ptxas/cuda13_mathlib.txt");
	struct fe_ptxas_func f[1];
	cr_expect_eq(fe_ptxas_parse(t, f, 1), 2);
	cr_expect(named(&f[0], "mathd") && f[0].regs == 34);
	free(t);
}

/* ---- running a ptxas: a fake one that logs its arguments and prints a fixed report ----------- */

static const char *two_kernels =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry ka(.param .u64 p)\n{\n\tret;\n}\n"
	".visible .entry kb()\n{\n\tret;\n}\n";

static const char *report_ab =
	"ptxas info    : 0 bytes gmem\n"
	"ptxas info    : Compiling entry function 'ka' for 'sm_75'\n"
	"ptxas info    : Function properties for ka\n"
	"    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
	"ptxas info    : Used 40 registers, used 0 barriers, 360 bytes cmem[0]\n"
	"ptxas info    : Compiling entry function 'kb' for 'sm_75'\n"
	"ptxas info    : Used 6 registers, used 0 barriers, 352 bytes cmem[0]\n";

Test(ptxas, runs_ptxas_once_then_reads_the_cache)
{
	struct fake_ptxas k;
	fake_ptxas_init(&k, report_ab, 0);
	struct fe_module *m = fe_t_load_str(two_kernels);
	struct fe_ptxas_regs r;
	fe_ptxas_module_regs(m, &k.o, &r);
	cr_expect_eq(r.source, FE_REGS_PTXAS, "%s", r.why);
	cr_assert_eq(r.n_kernels, 2);
	cr_expect_eq(r.regs[0], 40);
	cr_expect_eq(r.regs[1], 6);
	cr_expect_str_eq(r.cache_warning, "");
	cr_expect_eq(fake_ptxas_calls(&k), 1);
	/* it ran as the committed counts were taken, on the module's own text */
	char path[160];
	snprintf(path, sizeof path, "%s/calls", k.dir);
	char *calls = slurp(path);
	cr_expect(!strncmp(calls, "-arch=sm_75 -v -o /dev/null ", 28), "%s", calls);
	free(calls);
	snprintf(path, sizeof path, "%s/input.ptx", k.dir);
	char *input = slurp(path);
	cr_expect_str_eq(input, two_kernels);
	free(input);
	fe_ptxas_regs_fini(&r);

	fe_ptxas_module_regs(m, &k.o, &r);
	cr_expect_eq(r.source, FE_REGS_PTXAS_CACHE);
	cr_expect_eq(r.regs[0], 40);
	cr_expect_eq(r.regs[1], 6);
	cr_expect_eq(fake_ptxas_calls(&k), 1, "the cache hit ran ptxas");
	fe_ptxas_regs_fini(&r);

	/* another arch is another key */
	k.o.arch = "sm_80";
	fe_ptxas_module_regs(m, &k.o, &r);
	cr_expect_eq(r.source, FE_REGS_PTXAS);
	cr_expect_eq(fake_ptxas_calls(&k), 2);
	fe_ptxas_regs_fini(&r);
	fe_module_destroy(m);
	fake_ptxas_fini(&k);
}

Test(ptxas, the_cache_key_is_the_ptx_text)
{
	struct fake_ptxas k;
	fake_ptxas_init(&k, report_ab, 0);
	struct fe_module *a = fe_t_load_str(two_kernels);
	char other[512];
	snprintf(other, sizeof other, "// one comment more\n%s", two_kernels);
	struct fe_module *b = fe_t_load_str(other);
	struct fe_ptxas_regs r;
	fe_ptxas_module_regs(a, &k.o, &r);
	fe_ptxas_regs_fini(&r);
	fe_ptxas_module_regs(b, &k.o, &r);
	cr_expect_eq(r.source, FE_REGS_PTXAS);
	cr_expect_eq(fake_ptxas_calls(&k), 2);
	fe_ptxas_regs_fini(&r);
	fe_ptxas_module_regs(a, &k.o, &r);
	cr_expect_eq(r.source, FE_REGS_PTXAS_CACHE);
	cr_expect_eq(fake_ptxas_calls(&k), 2);
	fe_ptxas_regs_fini(&r);
	fe_module_destroy(a);
	fe_module_destroy(b);
	fake_ptxas_fini(&k);
}

Test(ptxas, a_kernel_missing_from_the_report_has_no_count)
{
	struct fake_ptxas k;
	fake_ptxas_init(&k,
		  "ptxas info    : Compiling entry function 'kb' for 'sm_75'\n"
		  "ptxas info    : Used 6 registers, 352 bytes cmem[0]\n", 0);
	struct fe_module *m = fe_t_load_str(two_kernels);
	struct fe_ptxas_regs r;
	fe_ptxas_module_regs(m, &k.o, &r);
	cr_expect_eq(r.source, FE_REGS_PTXAS);
	cr_expect_eq(r.regs[0], FE_PTXAS_NO_COUNT);
	cr_expect_eq(r.regs[1], 6);
	fe_ptxas_regs_fini(&r);
	/* and so it stays when read back from the cache */
	fe_ptxas_module_regs(m, &k.o, &r);
	cr_expect_eq(r.source, FE_REGS_PTXAS_CACHE);
	cr_expect_eq(r.regs[0], FE_PTXAS_NO_COUNT);
	cr_expect_eq(r.regs[1], 6);
	fe_ptxas_regs_fini(&r);
	fe_module_destroy(m);
	fake_ptxas_fini(&k);
}

Test(ptxas, no_ptxas_gives_the_estimate_and_says_why)
{
	struct fe_module *m = fe_t_load_str(two_kernels);
	struct fe_ptxas_regs r;
	struct fe_ptxas_opts o = {.ptxas = "none", .cache_dir = "none"};
	fe_ptxas_module_regs(m, &o, &r);
	cr_expect_eq(r.source, FE_REGS_ESTIMATE);
	cr_expect_eq(r.regs[0], FE_PTXAS_NO_COUNT);
	cr_expect(strstr(r.why, "disabled"), "%s", r.why);
	fe_ptxas_regs_fini(&r);
	o.ptxas = "/nonexistent/bin/ptxas";
	fe_ptxas_module_regs(m, &o, &r);
	cr_expect_eq(r.source, FE_REGS_ESTIMATE);
	cr_expect(strstr(r.why, "'/nonexistent/bin/ptxas' (WARPSIM_PTXAS) is not an executable"),
		  "%s", r.why);
	cr_expect_str_eq(r.ptxas, "");
	fe_ptxas_regs_fini(&r);
	fe_module_destroy(m);
}

Test(ptxas, a_refusing_ptxas_is_not_an_error_and_is_not_cached)
{
	struct fake_ptxas k;
	fake_ptxas_init(&k,
		  "ptxas input.ptx, line 8; error   : Not a name of any known instruction: 'frob'\n"
		  "ptxas fatal   : Ptx assembly aborted due to errors\n", 255);
	struct fe_module *m = fe_t_load_str(two_kernels);
	struct fe_ptxas_regs r;
	fe_ptxas_module_regs(m, &k.o, &r);
	cr_expect_eq(r.source, FE_REGS_ESTIMATE);
	cr_expect_eq(r.regs[1], FE_PTXAS_NO_COUNT);
	cr_expect(strstr(r.why, "refused the PTX (exit 255: ptxas input.ptx, line 8; error"), "%s",
		  r.why);
	cr_expect(strstr(r.why, "not an error"), "%s", r.why);
	fe_ptxas_regs_fini(&r);
	fe_ptxas_module_regs(m, &k.o, &r);
	cr_expect_eq(r.source, FE_REGS_ESTIMATE);
	cr_expect_eq(fake_ptxas_calls(&k), 2, "a refusal must not be cached");
	fe_ptxas_regs_fini(&r);
	fe_module_destroy(m);
	fake_ptxas_fini(&k);
}

Test(ptxas, a_ptxas_printing_nothing_parsable_gives_the_estimate)
{
	struct fake_ptxas k;
	fake_ptxas_init(&k, "Segmentation fault in the optimizer\n", 0);
	struct fe_module *m = fe_t_load_str(two_kernels);
	struct fe_ptxas_regs r;
	fe_ptxas_module_regs(m, &k.o, &r);
	cr_expect_eq(r.source, FE_REGS_ESTIMATE);
	cr_expect(strstr(r.why, "exited 0 but printed no register count"), "%s", r.why);
	fe_ptxas_regs_fini(&r);
	fe_module_destroy(m);
	fake_ptxas_fini(&k);
}

Test(ptxas, an_unwritable_cache_is_a_warning)
{
	struct fake_ptxas k;
	fake_ptxas_init(&k, report_ab, 0);
	char blocked[200];
	snprintf(blocked, sizeof blocked, "%s/report/cache", k.dir); /* under a regular file */
	k.o.cache_dir = blocked;
	struct fe_module *m = fe_t_load_str(two_kernels);
	struct fe_ptxas_regs r;
	fe_ptxas_module_regs(m, &k.o, &r);
	cr_expect_eq(r.source, FE_REGS_PTXAS);
	cr_expect_eq(r.regs[0], 40);
	cr_expect(strstr(r.cache_warning, "cannot write the ptxas cache"), "%s", r.cache_warning);
	fe_ptxas_regs_fini(&r);
	fe_module_destroy(m);
	fake_ptxas_fini(&k);
}

Test(ptxas, the_default_cache_is_under_xdg_cache_home)
{
	struct fake_ptxas k;
	fake_ptxas_init(&k, report_ab, 0);
	char xdg[160], entry[400];
	snprintf(xdg, sizeof xdg, "%s/xdg", k.dir);
	setenv("XDG_CACHE_HOME", xdg, 1); /* this test's own process (Criterion forks per test) */
	k.o.cache_dir = NULL;
	struct fe_module *m = fe_t_load_str(two_kernels);
	struct fe_ptxas_regs r;
	fe_ptxas_module_regs(m, &k.o, &r);
	cr_expect_eq(r.source, FE_REGS_PTXAS);
	fe_ptxas_regs_fini(&r);
	snprintf(entry, sizeof entry, "%s/warpsim", xdg);
	struct stat st;
	cr_expect_eq(stat(entry, &st), 0, "no %s", entry);
	fe_ptxas_module_regs(m, &k.o, &r);
	cr_expect_eq(r.source, FE_REGS_PTXAS_CACHE);
	fe_ptxas_regs_fini(&r);
	fe_module_destroy(m);
	fake_ptxas_fini(&k);
}

/* The machine's own ptxas, where there is one, gives workloads/vecadd's committed count. */
Test(ptxas, real_ptxas_agrees_with_the_committed_count)
{
	struct fe_ptxas_opts o = {.cache_dir = "none"};
	char path[512], why[512];
	if (!fe_ptxas_find(&o, path, sizeof path, why, sizeof why))
		cr_skip_test("%s", why);
	struct fe_module *m = fe_t_load_file("workloads/vecadd/vecadd.ptx");
	struct fe_ptxas_regs r;
	fe_ptxas_module_regs(m, &o, &r);
	cr_expect_eq(r.source, FE_REGS_PTXAS, "%s", r.why);
	cr_expect_eq(r.regs[0], 12, "%s: vecadd.cfg has regs_per_thread 12, ptxas says %u", path,
		     r.regs[0]);
	fe_ptxas_regs_fini(&r);
	fe_module_destroy(m);
}
