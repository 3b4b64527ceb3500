/* SPDX-License-Identifier: MIT */
/* Tests memory/dram_check.h: each timing rule caught on a hand-made trace, a correct controller
 * passes, and a deliberately broken controller (a test hook clears a ready time) is caught. */
#include <criterion/criterion.h>
#include <string.h>

#include "memory/dram.h"
#include "memory/dram_check.h"

/* owl-28 timings (OWL Table 1 + GPGPU-Sim GT200, as tests/memory/test_dram.c): tRCD 12, tRP 10,
 * tRAS 25, tRC 35, tRRD 8, CL 10, WL 7, tWR 11, tWTR 6, tRTW 9, tCCD 2, tRTP 2, burst 4. */
static const struct dram_check_timing T = {
	.banks = 4, .tRCD = 12, .tRP = 10, .tRAS = 25, .tRC = 35, .tRRD = 8, .tCL = 10, .tWL = 7,
	.tWR = 11, .tWTR = 6, .tRTW = 9, .tCCD = 2, .tRTP = 2, .tFAW = 0, .tRFC = 30,
	.burst_cycles = 4,
};

struct cmd { enum dram_check_cmd c; uint32_t bank, row; uint64_t cycle; };

/* Replay cmds; 0 or the error code, with the message in err. */
static int replay(const struct dram_check_timing *t, const struct cmd *cmds, int n,
		  struct sim_error *err)
{
	struct dram_check *k = dram_check_create(t, 3);
	cr_assert(k);
	for (int i = 0; i < n; i++)
		dram_check_record(k, cmds[i].c, cmds[i].bank, cmds[i].row, cmds[i].cycle);
	memset(err, 0, sizeof *err);
	int rc = dram_check_flush(k, err);
	dram_check_destroy(k);
	return rc;
}

static void expect_violation(const struct cmd *cmds, int n, const char *rule)
{
	struct sim_error err;
	cr_assert_eq(replay(&T, cmds, n, &err), SIM_ERR_FAULT, "expected %s to be caught", rule);
	cr_assert(strstr(err.msg, rule), "message '%s' should name %s", err.msg, rule);
	cr_assert(strstr(err.msg, "channel 3"), "%s", err.msg);
}

/* ACT b0@0; ACT b1@8 (tRRD 8); RD b0@12 (tRCD 12; data 22..26); RD b1@20 (tRCD from 8; data
 * 30..34); WR b0@29 (tRTW 9 after RD@20; data 36..40); PRE b1@33 (tRAS: 8 + 25); PRE b0@51
 * (end of write data 40 + tWR 11); ACT b0@61 (tRP: 51 + 10; tRC: 0 + 35). */
static const struct cmd good[] = {
	{DRAM_CHK_ACT, 0, 5, 0},  {DRAM_CHK_ACT, 1, 7, 8},  {DRAM_CHK_RD, 0, 5, 12},
	{DRAM_CHK_RD, 1, 7, 20},  {DRAM_CHK_WR, 0, 5, 29},  {DRAM_CHK_PRE, 1, 0, 33},
	{DRAM_CHK_PRE, 0, 0, 51}, {DRAM_CHK_ACT, 0, 9, 61},
};

Test(dram_check, legal_trace_passes)
{
	struct sim_error err;
	cr_assert_eq(replay(&T, good, (int)SIM_ARRAY_LEN(good), &err), 0, "%s", err.msg);
}

Test(dram_check, each_rule_one_cycle_early_is_caught)
{
	struct cmd c[8];
	/* tRCD: RD at 11, one before ACT@0 + 12. */
	memcpy(c, good, sizeof good);
	c[2].cycle = 11;
	expect_violation(c, 3, "tRCD");
	/* tRRD: second ACT at 7 < 0 + 8. */
	memcpy(c, good, sizeof good);
	c[1].cycle = 7;
	expect_violation(c, 2, "tRRD");
	/* tRTW: WR at 28 < RD@20 + 9. */
	memcpy(c, good, sizeof good);
	c[4].cycle = 28;
	expect_violation(c, 5, "tRTW");
	/* tRAS: PRE b1 at 32 < ACT@8 + 25. */
	memcpy(c, good, sizeof good);
	c[5].cycle = 32;
	expect_violation(c, 6, "tRAS");
	/* tWR: PRE b0 at 50 < end of write data (29 + 7 + 4 = 40) + 11. */
	memcpy(c, good, sizeof good);
	c[6].cycle = 50;
	expect_violation(c, 7, "tWR");
	/* tRP: ACT at 60 < PRE@51 + 10. */
	memcpy(c, good, sizeof good);
	c[7].cycle = 60;
	expect_violation(c, 8, "tRP");
}

Test(dram_check, bus_ccd_wtr_rc_faw_and_state_rules)
{
	/* Data bus: RD b0@12 has data 22..26; RD b1@20 would fit, but at 14 (tCCD 2 met) its data
	 * 24..28 overlaps. */
	struct cmd bus[] = {{DRAM_CHK_ACT, 0, 1, 0}, {DRAM_CHK_ACT, 1, 1, 8},
			    {DRAM_CHK_RD, 0, 1, 12}, {DRAM_CHK_RD, 1, 1, 20}};
	bus[3].cycle = 14;
	bus[1].cycle = 2; /* tRCD for bank 1 then needs 14: met */
	struct dram_check_timing t = T;
	t.tRRD = 1;
	struct sim_error err;
	cr_assert_eq(replay(&t, bus, 4, &err), SIM_ERR_FAULT);
	cr_assert(strstr(err.msg, "data bus"), "%s", err.msg);
	/* tCCD: two reads one cycle apart (burst 1 so the bus is no excuse). */
	t = T;
	t.burst_cycles = 1;
	struct cmd ccd[] = {{DRAM_CHK_ACT, 0, 1, 0}, {DRAM_CHK_RD, 0, 1, 12}, {DRAM_CHK_RD, 0, 1, 13}};
	cr_assert_eq(replay(&t, ccd, 3, &err), SIM_ERR_FAULT);
	cr_assert(strstr(err.msg, "tCCD"), "%s", err.msg);
	/* tWTR: WR@12 data 19..23, RD at 28 < 23 + 6 (tCCD, tRTW irrelevant). */
	struct cmd wtr[] = {{DRAM_CHK_ACT, 0, 1, 0}, {DRAM_CHK_WR, 0, 1, 12}, {DRAM_CHK_RD, 0, 1, 28}};
	expect_violation(wtr, 3, "tWTR");
	wtr[2].cycle = 29;
	cr_assert_eq(replay(&T, wtr, 3, &err), 0, "%s", err.msg);
	/* tRC: with tRP 5, ACT@0, PRE@25 (tRAS), ACT@34 meets tRP (30) but not tRC (0 + 35). */
	t = T;
	t.tRP = 5;
	struct cmd rc[] = {{DRAM_CHK_ACT, 0, 1, 0}, {DRAM_CHK_PRE, 0, 0, 25}, {DRAM_CHK_ACT, 0, 2, 34}};
	cr_assert_eq(replay(&t, rc, 3, &err), SIM_ERR_FAULT);
	cr_assert(strstr(err.msg, "tRC "), "%s", err.msg);
	/* tFAW 40 with tRRD 8: ACTs at 0, 8, 16, 24 to banks 0..3, the fifth (bank 0 again after
	 * PRE) at 39 < 0 + 40. */
	t = T;
	t.tFAW = 40;
	struct cmd faw[] = {{DRAM_CHK_ACT, 0, 1, 0},  {DRAM_CHK_ACT, 1, 1, 8},
			    {DRAM_CHK_ACT, 2, 1, 16}, {DRAM_CHK_ACT, 3, 1, 24},
			    {DRAM_CHK_PRE, 0, 0, 25}, {DRAM_CHK_ACT, 0, 2, 39}};
	cr_assert_eq(replay(&t, faw, 6, &err), SIM_ERR_FAULT);
	cr_assert(strstr(err.msg, "tFAW"), "%s", err.msg);
	/* A read to a row that is not open, and a refresh with a row open. */
	struct cmd row[] = {{DRAM_CHK_ACT, 0, 1, 0}, {DRAM_CHK_RD, 0, 2, 12}};
	expect_violation(row, 2, "not the open one");
	struct cmd ref[] = {{DRAM_CHK_ACT, 0, 1, 0}, {DRAM_CHK_REF, 0, 0, 50}};
	expect_violation(ref, 2, "refresh while a row is open");
	/* Two commands in one cycle. */
	struct cmd two[] = {{DRAM_CHK_ACT, 0, 1, 0}, {DRAM_CHK_ACT, 1, 1, 0}};
	expect_violation(two, 2, "one command per cycle");
}

/* ---- the controller under the checker ---------------------------------------------------- */

static struct dram_cfg owl_cfg(void)
{
	struct dram_cfg c = {
		.banks = 4, .row_bytes = 2048, .line_bytes = 64, .queue_size = 128,
		.sched = DRAM_SCHED_FRFCFS,
		.tRCD = 12, .tRP = 10, .tRAS = 25, .tRC = 35, .tRRD = 8, .tCL = 10, .tWL = 7,
		.tWR = 11, .tWTR = 6, .tRTW = 9, .tCCD = 2, .tRTP = 2, .tFAW = 0, .burst_cycles = 4,
		.pf_lower = 8, .pf_higher = 16, .pf_threshold = -1, .check = true,
	};
	return c;
}

#define NREQ 400
static struct mem_req reqs[NREQ];
static int n_done;

static void on_done(void *ctx, struct mem_req *r, uint64_t now)
{
	(void)ctx;
	(void)now;
	if (r->kind != MEM_REQ_PREFETCH)
		n_done++;
}

/* NREQ requests, a pseudo-random mix of banks, rows (few, so hits and conflicts both occur) and
 * reads/writes, enqueued as the queue allows; returns the last cycle. */
static uint64_t drive(struct dram_mc *mc, uint32_t seed)
{
	n_done = 0;
	uint32_t x = seed;
	int next = 0;
	uint64_t c = 0;
	while (n_done < NREQ && c < 10000000) {
		while (next < NREQ && !dram_mc_full(mc)) {
			x = x * 1103515245u + 12345u;
			struct mem_req *r = &reqs[next];
			memset(r, 0, sizeof *r);
			r->id = (uint64_t)next;
			r->bank = (uint16_t)((x >> 8) % 4);
			r->row = (x >> 12) % 3;
			r->col = ((x >> 16) % 32) * 64;
			r->kind = ((x >> 24) % 4 == 0) ? MEM_REQ_WRITE : MEM_REQ_READ;
			r->size_bytes = 64;
			cr_assert(dram_mc_try_enqueue(mc, r, c));
			next++;
			if ((x >> 28) % 4 == 0)
				break; /* let some time pass between arrivals */
		}
		uint64_t n = dram_mc_tick(mc, c);
		c = (next < NREQ && n > c + 3) ? c + 3 : n;
		if (c == SIM_NEVER)
			break;
	}
	cr_assert_eq(n_done, NREQ);
	return c;
}

Test(dram_check, correct_controller_passes_with_refresh_and_faw)
{
	struct dram_cfg cfg = owl_cfg();
	cfg.tFAW = 40;
	cfg.tREFI = 700;
	cfg.tRFC = 50;
	for (int pol = 0; pol < 3; pol++) {
		cfg.sched = pol == 1 ? DRAM_SCHED_FCFS : DRAM_SCHED_FRFCFS;
		cfg.close_row = pol == 2;
		struct dram_mc mc;
		struct sim_error err = {0};
		cr_assert_eq(dram_mc_init(&mc, &cfg, NULL, 0, on_done, NULL, NULL, &err), 0, "%s", err.msg);
		cr_assert(mc.chk);
		uint64_t c = drive(&mc, 7u + (uint32_t)pol), last = 0;
		for (; c != SIM_NEVER; c = dram_mc_tick(&mc, c))
			last = c; /* to quiescence: a refresh that fell due while busy is done */
		/* One more read long after, to an idle MC: the refreshes that fell due while it was
		 * idle are counted then. Every tREFI interval up to that cycle holds exactly one
		 * refresh, busy or idle: z / tREFI of them. */
		uint64_t z = last + 5u * cfg.tREFI + 123;
		struct mem_req late = {.id = NREQ, .bank = 1, .row = 2, .kind = MEM_REQ_READ, .size_bytes = 64};
		cr_assert(dram_mc_try_enqueue(&mc, &late, z));
		for (c = z; c != SIM_NEVER; c = dram_mc_tick(&mc, c))
			;
		cr_assert_eq(n_done, NREQ + 1);
		cr_assert_eq(dram_mc_check(&mc, &err), 0, "policy %d: %s", pol, err.msg);
		/* Every request took one column command, and some ACT/PRE/REF: the trace was really
		 * recorded and replayed (NREQ column commands at least). */
		cr_assert_geq(mc.chk->replayed, NREQ + 1 + mc.activates + mc.precharges);
		cr_assert_eq(mc.refreshes, z / cfg.tREFI, "policy %d: %llu refreshes by cycle %llu", pol,
			     (unsigned long long)mc.refreshes, (unsigned long long)z);
		dram_mc_fini(&mc);
	}
}

Test(dram_check, off_by_default_records_nothing)
{
	struct dram_cfg cfg = owl_cfg();
	cfg.check = false;
	struct dram_mc mc;
	struct sim_error err = {0};
	cr_assert_eq(dram_mc_init(&mc, &cfg, NULL, 0, on_done, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_null(mc.chk);
	cr_assert_eq(dram_mc_check(&mc, &err), 0);
	dram_mc_fini(&mc);
}

/* The deliberately broken model: after the controller's ACT, a test hook forgets tRCD (clears
 * the bank's column-ready time), so the read goes out at cycle 1 instead of 12. */
Test(dram_check, broken_controller_missing_trcd_is_caught)
{
	struct dram_cfg cfg = owl_cfg();
	struct dram_mc mc;
	struct sim_error err = {0};
	cr_assert_eq(dram_mc_init(&mc, &cfg, NULL, 2, on_done, NULL, NULL, &err), 0, "%s", err.msg);
	struct mem_req *r = &reqs[0];
	memset(r, 0, sizeof *r);
	r->kind = MEM_REQ_READ;
	r->size_bytes = 64;
	r->row = 4;
	n_done = 0;
	cr_assert(dram_mc_try_enqueue(&mc, r, 0));
	dram_mc_tick(&mc, 0);               /* ACT bank 0 row 4 at 0 */
	cr_assert_eq(mc.activates, 1);
	mc.bank[0].col_ready = 0;           /* the injected bug */
	for (uint64_t c = 1; c != SIM_NEVER;)
		c = dram_mc_tick(&mc, c);
	cr_assert_eq(n_done, 1);
	cr_assert_eq(dram_mc_check(&mc, &err), SIM_ERR_FAULT);
	cr_assert(strstr(err.msg, "channel 2: RD to bank 0 at DRAM cycle 1 breaks tRCD"), "%s", err.msg);
	cr_assert(strstr(err.msg, "needs 12 cycles after cycle 0"), "%s", err.msg);
	dram_mc_fini(&mc);
}

/* Same with a precharge that ignores tWR: the write's data ends at WL 7 + 4 = cycle 23 after a
 * WR at 12, so no PRE before 34; the hook lets the controller close the row right away. */
Test(dram_check, broken_controller_missing_twr_is_caught)
{
	struct dram_cfg cfg = owl_cfg();
	struct dram_mc mc;
	struct sim_error err = {0};
	cr_assert_eq(dram_mc_init(&mc, &cfg, NULL, 0, on_done, NULL, NULL, &err), 0, "%s", err.msg);
	n_done = 0;
	for (int i = 0; i < 2; i++) {
		memset(&reqs[i], 0, sizeof reqs[i]);
		reqs[i].id = (uint64_t)i;
		reqs[i].kind = i ? MEM_REQ_READ : MEM_REQ_WRITE;
		reqs[i].size_bytes = 64;
		reqs[i].row = (uint32_t)i; /* the read conflicts: it needs PRE after the write */
		cr_assert(dram_mc_try_enqueue(&mc, &reqs[i], 0));
	}
	uint64_t c = 0;
	while (mc.writes == 0)
		c = dram_mc_tick(&mc, c);
	mc.bank[0].pre_ready = 0;           /* the injected bug: forget tRAS/tWR */
	while (c != SIM_NEVER)
		c = dram_mc_tick(&mc, c);
	cr_assert_eq(n_done, 2);
	cr_assert_eq(dram_mc_check(&mc, &err), SIM_ERR_FAULT);
	cr_assert(strstr(err.msg, "PRE to bank 0"), "%s", err.msg);
	cr_assert(strstr(err.msg, "tRAS") || strstr(err.msg, "tWR"), "%s", err.msg);
	dram_mc_fini(&mc);
}
