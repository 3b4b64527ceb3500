/* SPDX-License-Identifier: MIT */
/* workloads/warpsim.h (host.c): where a launch's registers per thread come from: the count
 * given, ptxas's (run once, then its cache), or the estimate with one warning per kernel. */
#include <criterion/criterion.h>
#include <string.h>

#include "tests/frontend/fake_ptxas.h"
#include "workloads/warpsim.h"

static const char *ptx =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry ka(.param .u64 p)\n{\n\tret;\n}\n"
	".visible .entry kb()\n{\n\tret;\n}\n";

static const char *report_ab =
	"ptxas info    : Compiling entry function 'ka' for 'sm_75'\n"
	"ptxas info    : Used 40 registers, used 0 barriers, 360 bytes cmem[0]\n"
	"ptxas info    : Compiling entry function 'kb' for 'sm_75'\n"
	"ptxas info    : Used 6 registers, used 0 barriers, 352 bytes cmem[0]\n";

/* A device that only records what each launch carries. */
struct seen {
	uint32_t n, regs[8];
	uint8_t src[8];
};

static int record(void *ctx, struct fe_launch *l, struct sim_error *err)
{
	(void)err;
	struct seen *s = ctx;
	struct fe_launch_info info;
	fe_launch_get_info(l, &info);
	cr_assert_lt(s->n, 8);
	s->regs[s->n] = info.regs_per_thread;
	s->src[s->n++] = info.regs_source;
	return 0;
}

struct rig {
	struct fe_module *m;
	struct seen seen;
	struct fe_device dev;
	struct ws_host *h;
	FILE *warn;
	char *warn_text;
	size_t warn_len;
};

static void rig_init(struct rig *r, bool timing, const struct fe_ptxas_opts *o)
{
	memset(r, 0, sizeof *r);
	struct sim_error err = {0};
	cr_assert_eq(fe_module_parse_string("two.ptx", ptx, &r->m, &err), 0, "%s", err.msg);
	r->dev = (struct fe_device){.launch = record, .ctx = &r->seen, .timing = timing};
	r->h = ws_host_create(r->m, &r->dev, &err);
	cr_assert_not_null(r->h, "%s", err.msg);
	r->warn = open_memstream(&r->warn_text, &r->warn_len);
	ws_host_set_ptxas(r->h, o, r->warn);
}

static void launch(struct rig *r, const char *kernel)
{
	struct sim_error err = {0};
	int rc = !strcmp(kernel, "ka") ?
		ws_launch(r->h, "ka", WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, WS_ARGS(WS_U64(0)), &err) :
		ws_launch(r->h, kernel, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, NULL, 0, &err);
	cr_assert_eq(rc, 0, "%s", err.msg);
}

/* Destroys the host; the warnings printed are left in r->warn_text. */
static void rig_fini(struct rig *r)
{
	ws_host_destroy(r->h);
	fe_module_destroy(r->m);
	fclose(r->warn);
}

static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static uint32_t estimate(struct fe_module *m, const char *kernel)
{
	struct fe_launch_info info;
	cr_assert_eq(fe_kernel_info(m, kernel, &info, NULL), 0);
	return info.regs_per_thread;
}

Test(warpsim_host_regs, without_ptxas_the_estimate_is_used_with_one_warning_per_kernel)
{
	struct fe_ptxas_opts o = {.ptxas = "none", .cache_dir = "none"};
	struct rig r;
	rig_init(&r, true, &o);
	launch(&r, "ka");
	launch(&r, "ka");
	launch(&r, "kb");
	cr_assert_eq(r.seen.n, 3);
	for (int i = 0; i < 3; i++)
		cr_expect_eq(r.seen.src[i], FE_REGS_ESTIMATE);
	cr_expect_eq(r.seen.regs[0], estimate(r.m, "ka"));
	cr_expect_eq(r.seen.regs[2], estimate(r.m, "kb"));
	rig_fini(&r);
	cr_expect_eq(count(r.warn_text, "warpsim: warning:"), 2, "%s", r.warn_text);
	cr_expect_eq(count(r.warn_text, "kernel ka has no regs_per_thread given"), 1, "%s", r.warn_text);
	cr_expect_eq(count(r.warn_text, "kernel kb has no regs_per_thread given"), 1, "%s", r.warn_text);
	cr_expect(strstr(r.warn_text, "ptxas is disabled"), "%s", r.warn_text);
	free(r.warn_text);
}

Test(warpsim_host_regs, ptxas_runs_once_and_a_second_host_reads_its_cache)
{
	struct fake_ptxas k;
	fake_ptxas_init(&k, report_ab, 0);
	struct rig r;
	rig_init(&r, true, &k.o);
	launch(&r, "ka");
	launch(&r, "kb");
	launch(&r, "ka");
	cr_expect_eq(r.seen.src[0], FE_REGS_PTXAS);
	cr_expect_eq(r.seen.regs[0], 40);
	cr_expect_eq(r.seen.src[1], FE_REGS_PTXAS);
	cr_expect_eq(r.seen.regs[1], 6);
	cr_expect_eq(r.seen.regs[2], 40);
	rig_fini(&r);
	cr_expect_str_eq(r.warn_text, "");
	free(r.warn_text);
	cr_expect_eq(fake_ptxas_calls(&k), 1);

	rig_init(&r, true, &k.o);
	launch(&r, "ka");
	cr_expect_eq(r.seen.src[0], FE_REGS_PTXAS_CACHE);
	cr_expect_eq(r.seen.regs[0], 40);
	rig_fini(&r);
	free(r.warn_text);
	cr_expect_eq(fake_ptxas_calls(&k), 1, "the cache hit ran ptxas");
	fake_ptxas_fini(&k);
}

Test(warpsim_host_regs, a_given_count_wins_and_ptxas_is_not_run_for_it)
{
	struct fake_ptxas k;
	fake_ptxas_init(&k, report_ab, 0);
	struct rig r;
	rig_init(&r, true, &k.o);
	struct sim_error err = {0};
	cr_assert_eq(ws_set_regs_per_thread(r.h, "ka", 30, &err), 0);
	launch(&r, "ka");
	cr_expect_eq(r.seen.src[0], FE_REGS_GIVEN);
	cr_expect_eq(r.seen.regs[0], 30);
	cr_expect_eq(fake_ptxas_calls(&k), 0);
	rig_fini(&r);
	free(r.warn_text);
	fake_ptxas_fini(&k);
}

Test(warpsim_host_regs, a_functional_device_never_runs_ptxas)
{
	struct fake_ptxas k;
	fake_ptxas_init(&k, report_ab, 0);
	struct rig r;
	rig_init(&r, false, &k.o);
	launch(&r, "ka");
	cr_expect_eq(r.seen.src[0], FE_REGS_ESTIMATE);
	cr_expect_eq(fake_ptxas_calls(&k), 0);
	rig_fini(&r);
	cr_expect_str_eq(r.warn_text, "");
	free(r.warn_text);
	fake_ptxas_fini(&k);
}

Test(warpsim_host_regs, a_refusing_ptxas_warns_naming_the_kernel)
{
	struct fake_ptxas k;
	fake_ptxas_init(&k, "ptxas x.ptx, line 5; error   : Unknown symbol 'q'\n", 255);
	struct rig r;
	rig_init(&r, true, &k.o);
	launch(&r, "ka");
	cr_expect_eq(r.seen.src[0], FE_REGS_ESTIMATE);
	cr_expect_eq(r.seen.regs[0], estimate(r.m, "ka"));
	rig_fini(&r);
	cr_expect(strstr(r.warn_text, "two.ptx: kernel ka has no regs_per_thread given and ptxas"),
		  "%s", r.warn_text);
	cr_expect(strstr(r.warn_text, "refused the PTX (exit 255: ptxas x.ptx, line 5; error"), "%s",
		  r.warn_text);
	cr_expect(strstr(r.warn_text, "not an error"), "%s", r.warn_text);
	free(r.warn_text);
	fake_ptxas_fini(&k);
}

Test(warpsim_host_regs, a_kernel_ptxas_did_not_report_gets_the_estimate_and_a_warning)
{
	struct fake_ptxas k;
	fake_ptxas_init(&k,
			"ptxas info    : Compiling entry function 'ka' for 'sm_75'\n"
			"ptxas info    : Used 40 registers, 360 bytes cmem[0]\n", 0);
	struct rig r;
	rig_init(&r, true, &k.o);
	launch(&r, "ka");
	launch(&r, "kb");
	cr_expect_eq(r.seen.src[0], FE_REGS_PTXAS);
	cr_expect_eq(r.seen.src[1], FE_REGS_ESTIMATE);
	cr_expect_eq(r.seen.regs[1], estimate(r.m, "kb"));
	rig_fini(&r);
	cr_expect_eq(count(r.warn_text, "warpsim: warning:"), 1, "%s", r.warn_text);
	cr_expect(strstr(r.warn_text, "kernel kb has no regs_per_thread given and ptxas printed no "
				      "count for it"), "%s", r.warn_text);
	free(r.warn_text);
	fake_ptxas_fini(&k);
}
