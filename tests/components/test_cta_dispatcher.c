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
	const struct fe_launch *lh[MAX_LOG];  /* the launch of each CTA (concurrent kernels) */
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
	(void)now, (void)err;
	struct fake_core *f = c;
	cr_assert_lt(f->n_launched, MAX_LOG);
	f->lh[f->n_launched] = l;
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

/* Runs three launches on 4 cores holding one CTA each and checks, per launch, the core of each
 * CTA in CTA order against want[launch][cta]. Launch 1: 3 CTAs, all finish. Launch 2: 6 CTAs;
 * CTA 1's core finishes first and takes CTA 4, then CTA 3's core takes CTA 5; all finish.
 * Launch 3: 2 CTAs. */
static void three_launches(const char *first_core, const uint32_t want[3][6])
{
	uint32_t cores[3][6];
	char key[64];
	snprintf(key, sizeof key, "gpu.cta_dispatcher.first_core=%s", first_core);
	const char *const ov[] = {"gpu.core.max_ctas=1", key, NULL};
	struct cfg *c = mkcfg(ov);
	struct sim_error err;
	struct cta_dispatcher *d = cta_dispatcher_create(c, NULL, 4, &err);
	struct fake_core f[4] = {{0}};
	for (uint32_t i = 0; i < 4; i++)
		cta_dispatcher_attach_core(d, i, &fk_ops, &f[i]);
	const uint32_t n_ctas[3] = {3, 6, 2};
	uint64_t now = 0;
	for (uint32_t l = 0; l < 3; l++) {
		struct fe_launch_info in = info(n_ctas[l], 64, 8, 0);
		cr_assert_eq(cta_dispatcher_launch_kernel_info(d, LAUNCH, &in, now, &err), 0, "%s", err.msg);
		if (l == 1) {
			uint32_t core;
			cr_assert(cta_dispatcher_cta_core(d, 1, &core));
			cr_assert_eq(cta_dispatcher_cta_finished(d, core, 1, ++now, &err), 0);
			cr_assert(cta_dispatcher_cta_core(d, 3, &core));
			cr_assert_eq(cta_dispatcher_cta_finished(d, core, 3, ++now, &err), 0);
		}
		for (uint32_t i = 0; i < n_ctas[l]; i++) {
			cr_assert(cta_dispatcher_cta_core(d, i, &cores[l][i]));
			cr_assert_eq(cores[l][i], want[l][i], "%s: launch %u CTA %u on core %u",
				     first_core, l, i, cores[l][i]);
		}
		for (uint32_t i = 0; i < n_ctas[l]; i++)
			if (!(l == 1 && (i == 1 || i == 3)))
				cr_assert_eq(cta_dispatcher_cta_finished(d, cores[l][i], i, ++now, &err), 0);
		cr_assert(cta_dispatcher_kernel_done(d));
	}
	cta_dispatcher_destroy(d);
	cfg_destroy(c);
}

Test(cta_dispatcher, first_core_zero_starts_every_launch_at_core_0)
{
	/* OWL Sec 2.1 / GPGPU-Sim 2.x: launch 2 places CTAs 0..3 on cores 0..3, CTA 4 on CTA 1's core
	 * (1), CTA 5 on CTA 3's (3); launch 3 on cores 0, 1. */
	const uint32_t want[3][6] = {{0, 1, 2}, {0, 1, 2, 3, 1, 3}, {0, 1}};
	three_launches("zero", want);
}

Test(cta_dispatcher, first_core_after_last_continues_from_the_last_cta_placed)
{
	/* GPGPU-Sim 3.x/4.x (m_last_cluster_issue starts at n - 1, never reset): launch 1 starts at
	 * core 0 and ends with CTA 2 on core 2; launch 2 starts at core 3: CTAs 0..3 on cores 3, 0,
	 * 1, 2; CTA 4 on CTA 1's core (0), CTA 5 on CTA 3's (2), the last placed; launch 3 starts
	 * at core 3: cores 3, 0. */
	const uint32_t want[3][6] = {{0, 1, 2}, {3, 0, 1, 2, 0, 2}, {3, 0}};
	three_launches("after-last", want);
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

/* ---- concurrent kernels (on-gpu) ------------------------------------------------------ */

static struct fe_launch *const LAUNCH_B = (struct fe_launch *)(uintptr_t)0x2000;

/* What the owner's hooks saw: kernels done (tag, end cycle) and core switches. */
struct hook_log {
	uint32_t done_tag[8];
	uint64_t done_cycle[8];
	int n_done;
	char switches[256];   /* "b0:1@5 e0:1@9 ..." begin/end core:tag@cycle */
};
static void hk_core(void *ctx, uint32_t core, uint32_t tag, bool begin, uint64_t now)
{
	struct hook_log *h = ctx;
	size_t n = strlen(h->switches);
	snprintf(h->switches + n, sizeof h->switches - n, "%s%c%u:%u@%llu", n ? " " : "",
		 begin ? 'b' : 'e', core, tag, (unsigned long long)now);
}
static void hk_done(void *ctx, uint32_t tag, uint64_t end)
{
	struct hook_log *h = ctx;
	h->done_tag[h->n_done] = tag;
	h->done_cycle[h->n_done++] = end;
}
static const struct cta_dispatcher_kernel_hooks hk = {hk_core, hk_done};

static struct cta_dispatcher *concurrent(struct cfg **c, struct fake_core *f, uint32_t n,
					 struct hook_log *h)
{
	const char *const ov[] = {"gpu.core.max_ctas=1", "gpu.cta_dispatcher.concurrent_kernels=on-gpu", NULL};
	*c = mkcfg(ov);
	struct sim_error err;
	struct cta_dispatcher *d = cta_dispatcher_create(*c, NULL, n, &err);
	cr_assert_not_null(d);
	for (uint32_t i = 0; i < n; i++)
		cta_dispatcher_attach_core(d, i, &fk_ops, &f[i]);
	cta_dispatcher_set_kernel_hooks(d, &hk, h);
	cr_assert(cta_dispatcher_concurrent(d));
	return d;
}

Test(cta_dispatcher, concurrent_kernel_takes_the_idle_cores_then_the_ones_that_empty)
{
	/* 4 cores, one CTA each. A (tag 0, 2 CTAs) at cycle 10 takes cores 0, 1; B (tag 1, 3 CTAs)
	 * at cycle 12 takes the idle cores 2, 3 and its CTA 2 waits. Core 0 finishes A's CTA 0 at
	 * 20: A has nothing left to place, so core 0 ends A and begins B (at 21) with B's CTA 2.
	 * Core 1 finishes A's CTA 1 at 25: A is done (end 26); core 1 has nothing to take. */
	struct cfg *c;
	struct fake_core f[4] = {{0}};
	struct hook_log h = {0};
	struct cta_dispatcher *d = concurrent(&c, f, 4, &h);
	struct sim_error err;
	struct fe_launch_info a = info(2, 64, 8, 0), b = info(3, 64, 8, 0);
	cr_assert_eq(cta_dispatcher_add_kernel(d, LAUNCH, &a, 0, 0, 10, &err), 0, "%s", err.msg);
	cr_assert_eq(cta_dispatcher_add_kernel(d, LAUNCH_B, &b, 1, 1, 12, &err), 0, "%s", err.msg);
	cr_assert_eq(cta_dispatcher_running_kernels(d), 2);
	cr_assert(cta_dispatcher_ctas_waiting(d));
	cr_assert(f[0].lh[0] == LAUNCH && f[1].lh[0] == LAUNCH && f[0].launched[0] == 0 && f[1].launched[0] == 1);
	cr_assert(f[2].lh[0] == LAUNCH_B && f[3].lh[0] == LAUNCH_B && f[2].launched[0] == 0 && f[3].launched[0] == 1);
	cr_assert_eq(f[2].begin_cycle, 12);
	cr_assert_eq(cta_dispatcher_cta_finished(d, 0, 0, 20, &err), 0);
	cr_assert_eq(f[0].ends, 1);
	cr_assert_eq(f[0].end_cycle, 20);
	cr_assert_eq(f[0].begins, 2);
	cr_assert_eq(f[0].begin_cycle, 21);
	cr_assert(f[0].n_launched == 2 && f[0].lh[1] == LAUNCH_B && f[0].launched[1] == 2);
	cr_assert_not(cta_dispatcher_ctas_waiting(d));
	cr_assert_eq(cta_dispatcher_cta_finished(d, 1, 1, 25, &err), 0);
	cr_assert_eq(h.n_done, 1);
	cr_assert(h.done_tag[0] == 0 && h.done_cycle[0] == 26);
	cr_assert_eq(f[1].n_launched, 1);
	cr_assert_eq(cta_dispatcher_running_kernels(d), 1);
	/* B's CTAs end on cores 2, 3, 0; the last (core 0 at 40) ends B at 41 */
	cr_assert_eq(cta_dispatcher_cta_finished(d, 2, 0, 30, &err), 0);
	cr_assert_eq(cta_dispatcher_cta_finished(d, 3, 1, 35, &err), 0);
	cr_assert_eq(cta_dispatcher_cta_finished(d, 0, 2, 40, &err), 0);
	cr_assert(h.n_done == 2 && h.done_tag[1] == 1 && h.done_cycle[1] == 41);
	cr_assert(cta_dispatcher_kernel_done(d));
	cr_assert_str_eq(h.switches, "b0:0@10 b1:0@10 b2:1@12 b3:1@12 e0:0@20 b0:1@21 e1:0@25 e2:1@30 "
			 "e3:1@35 e0:1@40");
	/* the timeline holds both kernels' CTAs, each kernel's rows together */
	uint64_t n;
	const struct cta_dispatcher_record *r = cta_dispatcher_timeline(d, &n);
	cr_assert_eq(n, 5);
	cr_assert(r[2].kernel_idx == 1 && r[2].cta_id == 0 && r[2].core == 2 && r[2].end_cycle == 30);
	cr_assert(r[4].kernel_idx == 1 && r[4].cta_id == 2 && r[4].core == 0 && r[4].start_cycle == 20);
	cta_dispatcher_destroy(d);
	cfg_destroy(c);
}

Test(cta_dispatcher, concurrent_kernel_waits_for_a_core_and_takes_the_oldest_first)
{
	/* 2 cores busy with A (tag 0, 4 CTAs: 2 wait). B (tag 1) and C (tag 2) are added and wait:
	 * no core is idle and A still has CTAs to place, so cores keep to A. When A has placed all,
	 * each core that empties takes the kernel added first with CTAs left: B, then C. */
	struct cfg *c;
	struct fake_core f[2] = {{0}};
	struct hook_log h = {0};
	struct cta_dispatcher *d = concurrent(&c, f, 2, &h);
	struct sim_error err;
	struct fe_launch_info a = info(4, 64, 8, 0), b = info(1, 64, 8, 0), cc = info(1, 64, 8, 0);
	static struct fe_launch *const LAUNCH_C = (struct fe_launch *)(uintptr_t)0x3000;
	cr_assert_eq(cta_dispatcher_add_kernel(d, LAUNCH, &a, 0, 0, 0, &err), 0);
	cr_assert_eq(cta_dispatcher_add_kernel(d, LAUNCH_B, &b, 1, 1, 1, &err), 0);
	cr_assert_eq(cta_dispatcher_add_kernel(d, LAUNCH_C, &cc, 2, 2, 2, &err), 0);
	cr_assert(f[0].n_launched == 1 && f[1].n_launched == 1);
	cr_assert_eq(cta_dispatcher_cta_finished(d, 1, 1, 10, &err), 0); /* core 1: A's CTA 2 */
	cr_assert_eq(cta_dispatcher_cta_finished(d, 0, 0, 11, &err), 0); /* core 0: A's CTA 3 */
	cr_assert(f[1].lh[1] == LAUNCH && f[1].launched[1] == 2 && f[0].lh[1] == LAUNCH && f[0].launched[1] == 3);
	cr_assert_eq(cta_dispatcher_cta_finished(d, 0, 3, 20, &err), 0); /* core 0 empties: B */
	cr_assert(f[0].n_launched == 3 && f[0].lh[2] == LAUNCH_B);
	cr_assert_eq(cta_dispatcher_cta_finished(d, 1, 2, 21, &err), 0); /* A done; core 1: C */
	cr_assert(f[1].n_launched == 3 && f[1].lh[2] == LAUNCH_C);
	cr_assert(h.n_done == 1 && h.done_tag[0] == 0 && h.done_cycle[0] == 22);
	cta_dispatcher_destroy(d);
	cfg_destroy(c);
}

Test(cta_dispatcher, concurrent_kernels_only_apart_from_a_kernel_alone)
{
	/* a kernel of no CTA is done at once; a kernel launched alone refuses concurrent ones and
	 * the other way round (SIM_ERR_FAULT); the setting off says so */
	struct cfg *c;
	struct fake_core f[2] = {{0}};
	struct hook_log h = {0};
	struct cta_dispatcher *d = concurrent(&c, f, 2, &h);
	struct sim_error err;
	struct fe_launch_info none = info(0, 64, 8, 0), a = info(1, 64, 8, 0);
	cr_assert_eq(cta_dispatcher_add_kernel(d, LAUNCH, &none, 7, 7, 5, &err), 0);
	cr_assert(h.n_done == 1 && h.done_tag[0] == 7 && h.done_cycle[0] == 6);
	cr_assert_eq(cta_dispatcher_add_kernel(d, LAUNCH, &a, 0, 0, 5, &err), 0);
	cr_assert_eq(cta_dispatcher_launch_kernel_info(d, LAUNCH_B, &a, 6, &err), SIM_ERR_FAULT);
	cr_assert_eq(cta_dispatcher_cta_finished(d, 0, 0, 9, &err), 0);
	cr_assert_eq(cta_dispatcher_launch_kernel_info(d, LAUNCH_B, &a, 10, &err), 0);
	cr_assert_eq(cta_dispatcher_add_kernel(d, LAUNCH, &a, 1, 1, 10, &err), SIM_ERR_FAULT);
	cta_dispatcher_destroy(d);
	cfg_destroy(c);
	struct cfg *off = mkcfg(NULL);
	d = cta_dispatcher_create(off, NULL, 1, &err);
	cr_assert_not(cta_dispatcher_concurrent(d));
	cta_dispatcher_destroy(d);
	cfg_destroy(off);
}
