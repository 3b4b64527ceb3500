/* SPDX-License-Identifier: MIT */
/* Tests for components/cta_dispatcher.h: initial round-robin placement (OWL Sec 2.1), one limit
 * per test (threads, warps, CTAs, registers, shared memory), refill on finish, kernel end. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "components/cta_dispatcher.h"
#include "components/sm/sm.h"

#define MAX_LOG 256

/* A core double that records what the dispatcher asks of it. */
struct fake_core {
	uint32_t id;
	uint32_t launched[MAX_LOG];
	uint64_t seq[MAX_LOG];
	uint32_t n_launched;
	uint64_t begin_cycle, end_cycle;
	int begins, ends;
};

static void fk_begin(void *c, const struct fe_launch_info *in, uint64_t now)
{
	(void)in;
	struct fake_core *f = c;
	f->begins++;
	f->begin_cycle = now;
}
static int fk_launch(void *c, struct fe_launch *l, uint32_t cta, uint64_t seq, uint64_t now,
		     struct sim_error *err)
{
	(void)l, (void)now, (void)err;
	struct fake_core *f = c;
	cr_assert_lt(f->n_launched, MAX_LOG);
	f->seq[f->n_launched] = seq;
	f->launched[f->n_launched++] = cta;
	return 0;
}
static void fk_end(void *c, uint64_t now)
{
	struct fake_core *f = c;
	f->ends++;
	f->end_cycle = now;
}
static const struct cta_dispatcher_core_ops fk_ops = {fk_begin, fk_launch, fk_end};

static struct cfg *mkcfg(const char *const *overrides)
{
	struct cfg *c = cfg_create();
	struct sim_error err;
	cr_assert_eq(sm_cfg_define(c, &err), 0);
	cr_assert_eq(cta_dispatcher_cfg_define(c, &err), 0);
	for (; overrides && *overrides; overrides++)
		cr_assert_eq(cfg_set_override(c, *overrides, &err), 0, "%s: %s", *overrides, err.msg);
	return c;
}

static struct fe_launch_info info(uint32_t n_ctas, uint32_t threads, uint32_t regs, uint32_t shared)
{
	struct fe_launch_info in;
	memset(&in, 0, sizeof in);
	in.kernel_name = "k";
	in.n_ctas = n_ctas;
	in.grid[0] = n_ctas, in.grid[1] = in.grid[2] = 1;
	in.block[0] = threads, in.block[1] = in.block[2] = 1;
	in.threads_per_cta = threads;
	in.regs_per_thread = regs;
	in.shared_bytes_per_cta = shared;
	return in;
}

/* A dummy launch handle: the dispatcher only passes it through to the cores. */
static struct fe_launch *const LAUNCH = (struct fe_launch *)(uintptr_t)0x1000;

/* One core, many CTAs: how many does the dispatcher put there before any finishes? */
static uint32_t resident_on_one_core(const char *const *ov, struct fe_launch_info in)
{
	struct cfg *c = mkcfg(ov);
	struct sim_error err;
	struct cta_dispatcher *d = cta_dispatcher_create(c, NULL, 1, &err);
	cr_assert_not_null(d);
	struct fake_core f = {0};
	cta_dispatcher_attach_core(d, 0, &fk_ops, &f);
	cr_assert_eq(cta_dispatcher_launch_kernel_info(d, LAUNCH, &in, 0, &err), 0, "%s", err.msg);
	uint32_t n = f.n_launched;
	cr_assert_eq(cta_dispatcher_ctas_per_core(d), n);
	cr_assert_eq(cta_dispatcher_core_ctas(d, 0), n);
	cr_assert(cta_dispatcher_ctas_waiting(d));
	/* Exactly one more once one finishes: the limit, not a slow start. */
	cr_assert_eq(cta_dispatcher_cta_finished(d, 0, f.launched[0], 10, &err), 0);
	cr_assert_eq(f.n_launched, n + 1);
	cr_assert_eq(f.launched[n], n);
	cta_dispatcher_destroy(d);
	cfg_destroy(c);
	return n;
}

Test(cta_dispatcher, cta_i_goes_to_core_i_mod_n_first)
{
	/* 4 cores, 10 CTAs of 256 threads; 1536 threads/core -> 6 fit, max_ctas 8: resources allow
	 * 6 per core, so all 10 are placed: round 0 gives CTAs 0..3 to cores 0..3, round 1 CTAs
	 * 4..7, round 2 CTAs 8,9 to cores 0,1. */
	struct cfg *c = mkcfg(NULL);
	struct sim_error err;
	struct cta_dispatcher *d = cta_dispatcher_create(c, NULL, 4, &err);
	struct fake_core f[4] = {{0}};
	for (uint32_t i = 0; i < 4; i++)
		cta_dispatcher_attach_core(d, i, &fk_ops, &f[i]);
	struct fe_launch_info in = info(10, 256, 8, 0);
	cr_assert_eq(cta_dispatcher_launch_kernel_info(d, LAUNCH, &in, 100, &err), 0, "%s", err.msg);
	for (uint32_t i = 0; i < 4; i++) {
		cr_assert_eq(f[i].begins, 1);
		cr_assert_eq(f[i].begin_cycle, 100);
		cr_assert_geq(f[i].n_launched, 2);
		cr_assert_eq(f[i].launched[0], i, "core %u first CTA %u", i, f[i].launched[0]);
		cr_assert_eq(f[i].seq[0], i);
		cr_assert_eq(f[i].launched[1], 4 + i);
	}
	cr_assert_eq(f[0].n_launched, 3);
	cr_assert_eq(f[0].launched[2], 8);
	cr_assert_eq(f[1].launched[2], 9);
	cr_assert_eq(f[2].n_launched, 2);
	cr_assert_not(cta_dispatcher_ctas_waiting(d));
	cta_dispatcher_destroy(d);
	cfg_destroy(c);
}

Test(cta_dispatcher, refills_the_core_whose_cta_finished_and_ends_the_kernel)
{
	/* 2 cores, max_ctas 1: CTAs 0,1 placed; 2 and 3 wait. Core 1 finishes first, so CTA 2 goes
	 * to core 1, then core 1 again gets CTA 3. */
	const char *const ov[] = {"gpu.core.max_ctas=1", NULL};
	struct cfg *c = mkcfg(ov);
	struct sim_error err;
	struct cta_dispatcher *d = cta_dispatcher_create(c, NULL, 2, &err);
	struct fake_core f[2] = {{0}};
	for (uint32_t i = 0; i < 2; i++)
		cta_dispatcher_attach_core(d, i, &fk_ops, &f[i]);
	struct fe_launch_info in = info(4, 64, 8, 0);
	cr_assert_eq(cta_dispatcher_launch_kernel_info(d, LAUNCH, &in, 0, &err), 0);
	cr_assert(cta_dispatcher_ctas_waiting(d));
	cr_assert_eq(cta_dispatcher_cta_finished(d, 1, 1, 50, &err), 0);
	cr_assert_eq(f[1].n_launched, 2);
	cr_assert_eq(f[1].launched[1], 2);
	cr_assert_eq(cta_dispatcher_cta_finished(d, 1, 2, 80, &err), 0);
	cr_assert_eq(f[1].launched[2], 3);
	cr_assert_not(cta_dispatcher_ctas_waiting(d));
	cr_assert_not(cta_dispatcher_kernel_done(d));
	cr_assert_eq(cta_dispatcher_cta_finished(d, 0, 0, 90, &err), 0);
	cr_assert_eq(f[0].ends, 0);
	cr_assert_eq(cta_dispatcher_cta_finished(d, 1, 3, 120, &err), 0);
	cr_assert(cta_dispatcher_kernel_done(d));
	cr_assert_eq(f[0].ends, 1);
	cr_assert_eq(f[1].end_cycle, 120);
	cr_assert_eq(cta_dispatcher_kernel_end_cycle(d), 121); /* one past the last CTA's cycle */
	uint64_t n;
	const struct cta_dispatcher_record *r = cta_dispatcher_timeline(d, &n);
	cr_assert_eq(n, 4);
	cr_assert_eq(r[2].core, 1);
	cr_assert_eq(r[2].start_cycle, 50);
	cr_assert_eq(r[2].end_cycle, 80);
	char buf[512] = {0};
	FILE *m = fmemopen(buf, sizeof buf, "w");
	cr_assert_eq(cta_dispatcher_write_timeline_csv(d, m, &err), 0);
	fclose(m);
	cr_assert(strstr(buf, "kernel,cta,core,launch_seq,start_cycle,end_cycle\n0,0,0,0,0,90\n") == buf, "%s", buf);
	cr_assert(strstr(buf, "0,2,1,2,50,80\n") != NULL, "%s", buf);
	cta_dispatcher_destroy(d);
	cfg_destroy(c);
}

Test(cta_dispatcher, thread_limit)
{
	/* 1536 threads / 512 per CTA = 3 (max_ctas 8, 48 warps / 16 = 3 too, so raise warps). */
	const char *const ov[] = {"gpu.core.max_warps=64", NULL};
	cr_assert_eq(resident_on_one_core(ov, info(100, 512, 1, 0)), 3);
}

Test(cta_dispatcher, thread_limit_counts_whole_warps)
{
	/* 1536 threads; 33-thread CTAs occupy 2 warps = 64 thread slots: 1536 / 64 = 24, but
	 * max_ctas 8 -> raise it (32) and warps (64 slots / 2 = 32): threads bind at 24. */
	const char *const ov[] = {"gpu.core.max_warps=64", "gpu.core.max_ctas=32", NULL};
	cr_assert_eq(resident_on_one_core(ov, info(100, 33, 1, 0)), 24);
}

Test(cta_dispatcher, warp_limit)
{
	/* max_threads 4096 out of the way; 40 warp slots / 8 warps per 256-thread CTA = 5. */
	const char *const ov[] = {"gpu.core.max_threads=4096", "gpu.core.max_warps=40", NULL};
	cr_assert_eq(resident_on_one_core(ov, info(100, 256, 1, 0)), 5);
}

Test(cta_dispatcher, cta_limit)
{
	/* 32-thread CTAs: threads allow 48, warps 48, so max_ctas (8) binds; then the dispatcher's
	 * own cap of 3 binds. */
	cr_assert_eq(resident_on_one_core(NULL, info(100, 32, 1, 0)), 8);
	const char *const ov[] = {"gpu.cta_dispatcher.max_ctas_per_core=3", NULL};
	cr_assert_eq(resident_on_one_core(ov, info(100, 32, 1, 0)), 3);
}

Test(cta_dispatcher, register_limit)
{
	/* 32768 registers / (256 threads * 20 registers = 5120) = 6.4 -> 6 (threads would allow 6
	 * too, so give threads and warps room). */
	const char *const ov[] = {"gpu.core.max_threads=4096", "gpu.core.max_warps=64", NULL};
	cr_assert_eq(resident_on_one_core(ov, info(100, 256, 20, 0)), 6);
	/* 32 regs: 32768 / 8192 = 4. */
	cr_assert_eq(resident_on_one_core(ov, info(100, 256, 32, 0)), 4);
}

Test(cta_dispatcher, shared_memory_limit)
{
	/* 48 KB = 49152 bytes / 10000 per CTA = 4.9 -> 4. */
	cr_assert_eq(resident_on_one_core(NULL, info(100, 64, 1, 10000)), 4);
	/* OWL Sec 2.1's example: 16 KB CTAs on a 32 KB core -> 2. */
	const char *const ov[] = {"gpu.core.shared_kb=32", NULL};
	cr_assert_eq(resident_on_one_core(ov, info(100, 64, 1, 16384)), 2);
}

Test(cta_dispatcher, cta_that_fits_nowhere_is_an_input_error_naming_the_limit)
{
	struct cfg *c = mkcfg(NULL);
	struct sim_error err;
	struct cta_dispatcher *d = cta_dispatcher_create(c, NULL, 1, &err);
	struct fake_core f = {0};
	cta_dispatcher_attach_core(d, 0, &fk_ops, &f);
	struct fe_launch_info in = info(4, 128, 1, 64 * 1024);
	cr_assert_eq(cta_dispatcher_launch_kernel_info(d, LAUNCH, &in, 0, &err), SIM_ERR_INPUT);
	cr_assert_str_eq(err.setting, "gpu.core.shared_kb");
	cr_assert_eq(f.n_launched, 0);
	cta_dispatcher_destroy(d);
	cfg_destroy(c);
}
