/* SPDX-License-Identifier: MIT */
/* workloads/workload.c: a workload names C++ kernels by their C++ names, in launches and in
 * regs_per_thread's list form (libconfig names cannot hold "_Z..." keys or "<>()"). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "workloads/workload.h"

static const char *ptx =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry _Z5scalePfif(.param .u64 p, .param .u32 n, .param .f32 f)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [n];\n\tld.param.f32 %f1, [f];\n"
	"\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n\tmov.u32 %r4, %tid.x;\n"
	"\tmad.lo.s32 %r5, %r2, %r3, %r4;\n\tsetp.ge.s32 %p1, %r5, %r1;\n\t@%p1 bra DONE;\n"
	"\tmul.wide.s32 %rd2, %r5, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tld.global.f32 %f2, [%rd3];\n\tmul.f32 %f3, %f2, %f1;\n\tst.global.f32 [%rd3], %f3;\n"
	"DONE:\n\tret;\n}\n"
	".visible .entry _Z5twiceIiEvPT_(.param .u64 q)\n{\n\tret;\n}\n";

struct seen {
	uint32_t n, regs[4];
	char names[4][64];
};

static int record(void *ctx, struct fe_launch *l, struct sim_error *err)
{
	struct seen *s = ctx;
	struct fe_launch_info info;
	fe_launch_get_info(l, &info);
	cr_assert_lt(s->n, 4);
	snprintf(s->names[s->n], sizeof s->names[0], "%s", info.cxx_name);
	s->regs[s->n++] = info.regs_per_thread;
	uint64_t wi, ti;
	return fe_launch_run_functional(l, &wi, &ti, err);
}

/* Each test writes into a directory of its own (mkdtemp), so that runs in parallel or by
 * other users never share files; fini removes it even when an assertion ended the test. */
static char dir[] = "/tmp/warpsim-test-cxx-XXXXXX";
static const char *const files[] = {"k.ptx", "w.cfg", "bad.cfg"};

static void make_dir(void)
{
	/* the template again: with --no-fork the tests share this process's dir */
	memcpy(dir + sizeof dir - 7, "XXXXXX", 6);
	cr_assert_not_null(mkdtemp(dir), "mkdtemp failed");
}

static void remove_dir(void)
{
	char p[sizeof dir + 16];
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, files[i]);
		unlink(p); /* absent when the test stopped before writing it */
	}
	rmdir(dir);
}

static const char *path(const char *name)
{
	static char p[sizeof dir + 16];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return p;
}

static void put_file(const char *name, const char *text)
{
	FILE *f = fopen(path(name), "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
}

TestSuite(workload_cxx, .init = make_dir, .fini = remove_dir);

Test(workload_cxx, kernels_and_registers_by_cxx_name)
{
	put_file("k.ptx", ptx);
	put_file("w.cfg",
	      "name = \"cxx\"; ptx = \"k.ptx\";\n"
	      "regs_per_thread = ( { kernel = \"scale(float*, int, float)\"; regs = 40; },\n"
	      "                    { kernel = \"twice<int>\"; regs = \"2*9\"; } );\n"
	      "buffers = ( { name = \"a\"; type = \"f32\"; count = 64; init = \"zeros\"; } );\n"
	      "launches = ( { kernel = \"scale\"; grid = 1; block = 64; args = (\"a\", 64, 2.0); },\n"
	      "             { kernel = \"twice<int>\"; grid = 1; block = 32; args = (\"a\"); } );\n");
	struct sim_error err = {0};
	struct workload *w = workload_load(path("w.cfg"), &err);
	char msg[1024];
	sim_error_format(&err, msg, sizeof msg);
	cr_assert_not_null(w, "%s", msg);
	struct seen s = {0};
	struct fe_device dev = {.launch = record, .ctx = &s, .timing = true};
	cr_assert_eq(workload_run(w, &dev, NULL, &err), 0);
	cr_assert_eq(s.n, 2);
	cr_assert_str_eq(s.names[0], "scale(float*, int, float)");
	cr_assert_eq(s.regs[0], 40);
	cr_assert_str_eq(s.names[1], "twice<int>(int*)");
	cr_assert_eq(s.regs[1], 18);
	workload_destroy(w);
}

Test(workload_cxx, an_unknown_cxx_name_is_refused_at_its_line)
{
	put_file("k.ptx", ptx);
	put_file("bad.cfg",
	      "name = \"cxx\"; ptx = \"k.ptx\";\n"
	      "regs_per_thread = ( { kernel = \"twice<float>\"; regs = 40; } );\n"
	      "launches = ( { kernel = \"scale\"; grid = 1; block = 64; args = (0, 64, 2.0); } );\n");
	struct sim_error err = {0};
	cr_assert_null(workload_load(path("bad.cfg"), &err));
	char msg[1024];
	sim_error_format(&err, msg, sizeof msg);
	cr_assert(strstr(msg, "bad.cfg:2") && strstr(msg, "twice<float>"), "%s", msg);
}
