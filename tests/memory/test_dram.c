/* SPDX-License-Identifier: MIT */
/* Tests memory/dram.h: DRAM timing, FR-FCFS vs FCFS, back-pressure, BLP/RBL, opportunistic prefetch. */
#include <criterion/criterion.h>
#include <string.h>

#include "memory/dram.h"

/* owl-28 (OWL Table 1, GDDR3 800 MHz) plus GPGPU-Sim's GT200 values for what OWL omits:
 * tWL=7, tCCD=2, tRTP=2, tRTW = CL + 4 + 2 - WL = 9; a 64 B line over an 8-byte DDR bus
 * with burst length 4 is 2 bursts of 4/2 = 2 cycles, so burst_cycles = 4. */
static struct dram_cfg owl_cfg(void)
{
	struct dram_cfg c = {
		.banks = 4, .row_bytes = 2048, .line_bytes = 64, .queue_size = 128,
		.sched = DRAM_SCHED_FRFCFS,
		.tRCD = 12, .tRP = 10, .tRAS = 25, .tRC = 35, .tRRD = 8, .tCL = 10, .tWL = 7,
		.tWR = 11, .tWTR = 6, .tRTW = 9, .tCCD = 2, .tRTP = 2, .tFAW = 0, .burst_cycles = 4,
		.pf_lower = 8, .pf_higher = 16, .pf_threshold = -1,
	};
	return c;
}

#define MAXR 2048
struct rec {
	struct mem_req reqs[MAXR];
	uint64_t done_cycle[MAXR]; /* by req id */
	uint64_t order[MAXR];      /* ids in completion order */
	int n_done;
	int n_pf;
	uint64_t pf_addr[MAXR];
	uint64_t pf_cycle[MAXR];   /* completion cycle of each prefetch */
};

static void on_done(void *ctx, struct mem_req *r, uint64_t now)
{
	struct rec *rc = ctx;
	if (r->kind == MEM_REQ_PREFETCH) {
		rc->pf_cycle[rc->n_pf] = now;
		rc->pf_addr[rc->n_pf++] = r->addr;
		return;
	}
	rc->done_cycle[r->id] = now;
	rc->order[rc->n_done++] = r->id;
}

static struct mem_req *mk(struct rec *rc, uint64_t id, uint32_t bank, uint32_t row, uint32_t line,
			  enum mem_req_kind kind)
{
	struct mem_req *r = &rc->reqs[id];
	memset(r, 0, sizeof *r);
	r->id = id;
	r->bank = (uint16_t)bank;
	r->row = row;
	r->col = line * 64;
	r->kind = (uint8_t)kind;
	r->size_bytes = 64;
	return r;
}

/* Tick from `from` until nothing more happens (or until `until`). */
static uint64_t run(struct dram_mc *mc, uint64_t from, uint64_t until)
{
	uint64_t c = from, last = from;
	while (c != SIM_NEVER && c <= until) {
		last = c;
		c = dram_mc_tick(mc, c);
	}
	return last;
}

static struct rec R;
static struct dram_mc MC;

static void setup_mc(struct dram_cfg c)
{
	memset(&R, 0, sizeof R);
	struct sim_error err = {0};
	cr_assert_eq(dram_mc_init(&MC, &c, NULL, 0, on_done, NULL, &R, &err), 0, "%s", err.msg);
}

static void teardown_mc(void) { dram_mc_fini(&MC); }

TestSuite(dram, .fini = teardown_mc);

Test(dram, closed_bank_read_takes_trcd_tcl_burst)
{
	setup_mc(owl_cfg());
	cr_assert(dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 5, 0, MEM_REQ_READ), 0));
	run(&MC, 0, 1000);
	/* ACT@0, RD@tRCD=12, data done 12 + tCL 10 + burst 4 = 26 */
	cr_assert_eq(R.done_cycle[1], 26);
	cr_assert_eq(MC.row_misses, 1);
	cr_assert_eq(MC.activates, 1);
}

Test(dram, closed_bank_write_takes_trcd_twl_burst)
{
	setup_mc(owl_cfg());
	cr_assert(dram_mc_try_enqueue(&MC, mk(&R, 1, 2, 5, 0, MEM_REQ_WRITEBACK), 0));
	run(&MC, 0, 1000);
	/* ACT@0, WR@12, done 12 + tWL 7 + burst 4 = 23 */
	cr_assert_eq(R.done_cycle[1], 23);
	cr_assert_eq(MC.writes, 1);
}

/* A fill in requests smaller than a burst (rd_burst_cycles 8, e.g. 4 sectors of one burst
 * each) holds the bus 8 cycles; a write-back of the same line still 4. Read then write-back
 * to the open row: RD@12, data 12 + 10 + 8 = 30; the WR waits tRTW 9 after the RD (21) and
 * for the bus: its data (WL 7) must start at 30, so WR@23, done 23 + 7 + 4 = 34. */
Test(dram, fill_burst_cycles_apply_to_reads_only)
{
	struct dram_cfg c = owl_cfg();
	c.rd_burst_cycles = 8;
	setup_mc(c);
	cr_assert(dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 5, 0, MEM_REQ_READ), 0));
	cr_assert(dram_mc_try_enqueue(&MC, mk(&R, 2, 0, 5, 1, MEM_REQ_WRITEBACK), 0));
	run(&MC, 0, 1000);
	cr_assert_eq(R.done_cycle[1], 30);
	cr_assert_eq(R.done_cycle[2], 34);
	cr_assert_eq(MC.bus_busy_cycles, 12);
}

Test(dram, row_hit_takes_tcl_burst)
{
	setup_mc(owl_cfg());
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 5, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 1000);
	cr_assert(dram_mc_try_enqueue(&MC, mk(&R, 2, 0, 5, 3, MEM_REQ_READ), 100));
	run(&MC, 100, 1000);
	/* row 5 still open: RD@100, done 100 + tCL 10 + burst 4 = 114 */
	cr_assert_eq(R.done_cycle[2], 114);
	cr_assert_eq(MC.row_hits, 1);
}

Test(dram, row_conflict_takes_trp_trcd_tcl_burst)
{
	setup_mc(owl_cfg());
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 5, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 1000);
	dram_mc_try_enqueue(&MC, mk(&R, 2, 0, 6, 0, MEM_REQ_READ), 100);
	run(&MC, 100, 1000);
	/* PRE@100 (tRAS long past), ACT@110 (tRP 10), RD@122 (tRCD 12), done 122+10+4 = 136:
	 * 36 = tRP + tRCD + tCL + burst */
	cr_assert_eq(R.done_cycle[2], 136);
	cr_assert_eq(MC.row_conflicts, 1);
	cr_assert_eq(MC.precharges, 1);
}

Test(dram, activates_to_different_banks_respect_trrd)
{
	setup_mc(owl_cfg());
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 5, 0, MEM_REQ_READ), 0);
	dram_mc_try_enqueue(&MC, mk(&R, 2, 1, 5, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 1000);
	/* ACT b0@0, ACT b1@8 (tRRD), RD b0@12 -> 26, RD b1@20 (tRCD after 8) -> 34 */
	cr_assert_eq(R.done_cycle[1], 26);
	cr_assert_eq(R.done_cycle[2], 34);
}

Test(dram, activates_to_same_bank_respect_trc)
{
	struct dram_cfg c = owl_cfg();
	c.tRC = 40; /* above tRAS + tRP = 35 so tRC is the binding constraint */
	setup_mc(c);
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 5, 0, MEM_REQ_READ), 0);
	dram_mc_try_enqueue(&MC, mk(&R, 2, 0, 6, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 1000);
	/* ACT r5@0, RD@12 -> 26; PRE@25 (tRAS); ACT r6@max(25+tRP=35, tRC=40) = 40;
	 * RD@52; done 52 + 10 + 4 = 66 */
	cr_assert_eq(R.done_cycle[1], 26);
	cr_assert_eq(R.done_cycle[2], 66);
}

Test(dram, four_activate_window)
{
	struct dram_cfg c = owl_cfg();
	c.banks = 8;
	c.tFAW = 40;
	setup_mc(c);
	for (int i = 0; i < 5; i++)
		dram_mc_try_enqueue(&MC, mk(&R, 1 + i, i, 1, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 1000);
	/* ACTs at 0, 8, 16, 24 (tRRD); the fifth waits for 0 + tFAW = 40; RD@52, done 66 */
	cr_assert_eq(R.done_cycle[5], 66);
}

/* Bank 0 has row 5 open; an older request to row 6 then a younger one to row 5 arrive. */
static void reorder_scenario(enum dram_sched s)
{
	struct dram_cfg c = owl_cfg();
	c.sched = s;
	setup_mc(c);
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 5, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 1000);
	dram_mc_try_enqueue(&MC, mk(&R, 2, 0, 6, 0, MEM_REQ_READ), 100); /* older, row miss */
	dram_mc_try_enqueue(&MC, mk(&R, 3, 0, 5, 1, MEM_REQ_READ), 100); /* younger, row hit */
	run(&MC, 100, 1000);
}

Test(dram, frfcfs_serves_younger_row_hit_first)
{
	reorder_scenario(DRAM_SCHED_FRFCFS);
	/* RD(3)@100 -> 114; PRE@102 (tRTP 2 after the RD), ACT@112, RD(2)@124 -> 138 */
	cr_assert_eq(R.done_cycle[3], 114);
	cr_assert_eq(R.done_cycle[2], 138);
	cr_assert_eq(R.order[1], 3);
}

Test(dram, fcfs_serves_older_row_miss_first)
{
	reorder_scenario(DRAM_SCHED_FCFS);
	/* PRE@100, ACT r6@110, RD(2)@122 -> 136; PRE@135 (tRAS after 110), ACT r5@145
	 * (tRP; tRC also 110+35), RD(3)@157 -> 171 */
	cr_assert_eq(R.done_cycle[2], 136);
	cr_assert_eq(R.done_cycle[3], 171);
	cr_assert_eq(R.order[1], 2);
}

Test(dram, full_queue_back_pressures_and_drops_nothing)
{
	struct dram_cfg c = owl_cfg();
	c.queue_size = 4;
	setup_mc(c);
	for (int i = 0; i < 4; i++)
		cr_assert(dram_mc_try_enqueue(&MC, mk(&R, 1 + i, i % 4, 1, i, MEM_REQ_READ), 0));
	cr_assert_not(dram_mc_try_enqueue(&MC, mk(&R, 5, 0, 1, 9, MEM_REQ_READ), 0));
	cr_assert_eq(MC.rejected, 1);
	/* Retry every cycle until accepted; then everything completes. */
	uint64_t c0 = 0;
	int next_id = 5;
	while (next_id <= 10) {
		if (dram_mc_try_enqueue(&MC, mk(&R, (uint64_t)next_id, (uint32_t)next_id % 4, 1,
						(uint32_t)next_id, MEM_REQ_READ), c0))
			next_id++;
		dram_mc_tick(&MC, c0);
		c0++;
	}
	run(&MC, c0, 100000);
	cr_assert_eq(R.n_done, 10);
	for (int i = 1; i <= 10; i++)
		cr_assert_neq(R.done_cycle[i], 0, "request %d lost", i);
	cr_assert_eq(dram_mc_outstanding(&MC), 0);
}

Test(dram, blp_and_rbl_match_hand_computation)
{
	setup_mc(owl_cfg());
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 1, 0, MEM_REQ_READ), 0); /* A */
	dram_mc_try_enqueue(&MC, mk(&R, 2, 1, 1, 0, MEM_REQ_READ), 0); /* B */
	dram_mc_try_enqueue(&MC, mk(&R, 3, 0, 1, 1, MEM_REQ_READ), 0); /* C: same row as A */
	uint64_t end = run(&MC, 0, 1000);
	/* ACT b0@0 (A), ACT b1@8 (B), RD A@12 -> 26 (rd_ready 16, bus free 26);
	 * RD C@16 (bus: 26 - tCL) -> 30; RD B@20 (tRCD after 8; bus 30 - 10) -> 34.
	 * Bank 0 busy [0,30), bank 1 busy [0,34): BLP = (2*30 + 1*4) / 34.
	 * A and B activated (misses), C found row 1 open (hit): RBL = 1/3. */
	cr_assert_eq(R.done_cycle[1], 26);
	cr_assert_eq(R.done_cycle[3], 30);
	cr_assert_eq(R.done_cycle[2], 34);
	dram_mc_sync(&MC, end);
	cr_assert_float_eq(dram_mc_blp(&MC), 64.0 / 34.0, 1e-9);
	cr_assert_float_eq(dram_mc_row_hit_rate(&MC), 1.0 / 3.0, 1e-9);
	cr_assert_eq(MC.row_hits, 1);
	cr_assert_eq(MC.row_misses, 2);
	/* 3 lines x 4 bus cycles */
	cr_assert_eq(MC.bus_busy_cycles, 12);
	/* queueing (enqueue -> first command): A 0, B 8, C 16 (its own first command is its RD) */
	cr_assert_float_eq(MC.queue_lat.sum, 24.0, 1e-9);
}

/* ---- prefetcher ---------------------------------------------------------------------- */

static struct mem_addrmap MAP;

static void setup_pf(double threshold)
{
	struct sim_error err = {0};
	cr_assert_eq(mem_addrmap_setup(&MAP, 8, 2048, 4, 2048, "BBCCCCCCCCCCC", false, &err), 0);
	struct dram_cfg c = owl_cfg();
	c.prefetch = true;
	c.pf_threshold = threshold;
	memset(&R, 0, sizeof R);
	cr_assert_eq(dram_mc_init(&MC, &c, &MAP, 0, on_done, NULL, &R, &err), 0, "%s", err.msg);
}

static uint64_t line_addr(uint32_t bank, uint32_t row, uint32_t line)
{
	struct mem_dram_addr a = {0, bank, row, line * 64};
	return mem_addr_encode(&MAP, &a);
}

Test(dram, prefetcher_fetches_exactly_the_unfetched_lines_of_the_open_row)
{
	setup_pf(-1);
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 3, 5, MEM_REQ_READ), 0);
	dram_mc_try_enqueue(&MC, mk(&R, 2, 0, 3, 9, MEM_REQ_READ), 0);
	run(&MC, 0, 10000);
	/* 2048 B / 64 B = 32 lines; demands took 5 and 9; no demand waits, so the other 30
	 * are prefetched in order 0,1,2,3,4,6,7,8,10,... */
	cr_assert_eq(R.n_done, 2);
	cr_assert_eq(R.n_pf, 30);
	int k = 0;
	for (uint32_t l = 0; l < 32; l++) {
		if (l == 5 || l == 9)
			continue;
		cr_assert_eq(R.pf_addr[k], line_addr(0, 3, l), "prefetch %d", k);
		k++;
	}
	cr_assert_eq(MC.pf_issued, 30);
	cr_assert_eq(MC.activates, 1); /* all from the one open row */
}

Test(dram, prefetcher_stops_at_lower_when_demands_wait)
{
	setup_pf(1.0); /* one waiting demand is not below 1: C = lower = 8 */
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 3, 0, MEM_REQ_READ), 0);
	dram_mc_try_enqueue(&MC, mk(&R, 2, 0, 4, 0, MEM_REQ_READ), 0); /* other row, same bank */
	run(&MC, 0, 10000);
	/* row 3: demand line 0, then 8 prefetches (lines 1..8), then PRE for row 4; row 4:
	 * demand line 0, nothing waits: its 31 other lines */
	cr_assert_eq(R.n_done, 2);
	cr_assert_eq(R.n_pf, 8 + 31);
	for (uint32_t l = 1; l <= 8; l++)
		cr_assert_eq(R.pf_addr[l - 1], line_addr(0, 3, l));
	cr_assert_eq(R.pf_addr[8], line_addr(0, 4, 1));
	cr_assert_eq(MC.bank[0].prefetches, 39);
}

Test(dram, prefetcher_goes_on_to_higher_when_few_demands_wait)
{
	setup_pf(5.0); /* one waiting demand is below 5: C = higher = 16 */
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 3, 0, MEM_REQ_READ), 0);
	dram_mc_try_enqueue(&MC, mk(&R, 2, 0, 4, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 10000);
	cr_assert_eq(R.n_pf, 16 + 31);
	cr_assert_eq(R.pf_addr[15], line_addr(0, 3, 16));
	cr_assert_eq(R.pf_addr[16], line_addr(0, 4, 1));
	/* the row-4 demand waited behind 16 prefetches: RD row 3 @12, prefetches every 4
	 * cycles from 16 (bus) to 76, PRE@78 (tRTP 2 after the last), ACT@88, RD@100 -> 114 */
	cr_assert_eq(R.done_cycle[2], 114);
}

Test(dram, prefetcher_ignores_a_row_a_write_back_opened)
{
	setup_pf(-1);
	/* OWL 4.4 prefetches from "a row that was already opened by a demand request": a write-back
	 * (the L2's own eviction) opening row 3 leaves the rest of the row alone. */
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 3, 5, MEM_REQ_WRITEBACK), 0);
	run(&MC, 0, 10000);
	cr_assert_eq(R.n_done, 1);
	cr_assert_eq(R.n_pf, 0);
	cr_assert_eq(MC.pf_issued, 0);
	/* A demand read that opens the next row of the bank does start it: 31 other lines. */
	dram_mc_try_enqueue(&MC, mk(&R, 2, 0, 4, 0, MEM_REQ_READ), 10001);
	run(&MC, 10001, 20000);
	cr_assert_eq(R.n_pf, 31);
	cr_assert_eq(R.pf_addr[0], line_addr(0, 4, 1));
}

Test(dram, prefetcher_row_opened_by_a_read_keeps_prefetching_past_a_write_hit)
{
	setup_pf(-1);
	/* The row was opened by a read; a write-back to the same open row is a row hit and does
	 * not change who opened it, so after both the other 30 lines are prefetched. */
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 3, 5, MEM_REQ_READ), 0);
	dram_mc_try_enqueue(&MC, mk(&R, 2, 0, 3, 9, MEM_REQ_WRITEBACK), 0);
	run(&MC, 0, 10000);
	cr_assert_eq(R.n_done, 2);
	cr_assert_eq(R.n_pf, 30);
}

Test(dram, prefetcher_is_stopped_only_by_a_demand_to_its_own_bank)
{
	setup_pf(1.0); /* C = lower = 8 whenever a demand waits */
	/* Bank 0 row 3 is opened by a read. Then 10 row conflicts wait at each of banks 1..3
	 * (each bank needs tRC = 35 cycles a row, so they wait ~350 cycles). None waits for bank
	 * 0's row to close, so bank 0 goes on through its 31 other lines while they wait, instead
	 * of stopping at C = 8 until the queue drains. */
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 3, 0, MEM_REQ_READ), 0);
	for (uint32_t k = 0; k < 30; k++)
		dram_mc_try_enqueue(&MC, mk(&R, 2 + k, 1 + k % 3, 7 + k, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 20000);
	cr_assert_eq(R.n_done, 31);
	uint64_t last_demand = 0;
	for (int i = 2; i < 32; i++)
		last_demand = R.done_cycle[i] > last_demand ? R.done_cycle[i] : last_demand;
	uint32_t bank0 = 0;
	for (int i = 0; i < R.n_pf; i++)
		if (R.pf_addr[i] >= line_addr(0, 3, 1) && R.pf_addr[i] <= line_addr(0, 3, 31)) {
			bank0++;
			cr_assert_lt(R.pf_cycle[i], last_demand, "bank-0 prefetch %u waited for the queue", bank0);
		}
	cr_assert_eq(bank0, 31);
}

Test(dram, prefetcher_stops_at_lower_for_a_demand_to_another_row_of_its_bank)
{
	setup_pf(1.0);
	/* The same, but one of the waiting demands is for bank 0 (row 4): C = 8 lines, then the
	 * row closes for it while the other banks' demands still wait. */
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 3, 0, MEM_REQ_READ), 0);
	for (uint32_t k = 0; k < 29; k++)
		dram_mc_try_enqueue(&MC, mk(&R, 2 + k, 1 + k % 3, 7 + k, 0, MEM_REQ_READ), 0);
	dram_mc_try_enqueue(&MC, mk(&R, 31, 0, 4, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 20000);
	uint32_t row3 = 0;
	for (int i = 0; i < R.n_pf; i++)
		row3 += R.pf_addr[i] >= line_addr(0, 3, 1) && R.pf_addr[i] <= line_addr(0, 3, 31);
	cr_assert_eq(row3, 8);
}

/* OWL Sec 4.4's first scheme (gpu.dram.prefetcher.stop = on-demand): the same queue as above,
 * but the demand for bank 0's row 4 stops the prefetch of row 3 at once: it is queued from the
 * start, so not a line of row 3 is prefetched. */
Test(dram, prefetcher_on_demand_scheme_stops_at_once)
{
	struct sim_error err = {0};
	cr_assert_eq(mem_addrmap_setup(&MAP, 8, 2048, 4, 2048, "BBCCCCCCCCCCC", false, &err), 0);
	struct dram_cfg c = owl_cfg();
	c.prefetch = true;
	c.pf_threshold = 1.0;
	c.pf_stop_on_demand = true;
	memset(&R, 0, sizeof R);
	cr_assert_eq(dram_mc_init(&MC, &c, &MAP, 0, on_done, NULL, &R, &err), 0, "%s", err.msg);
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 3, 0, MEM_REQ_READ), 0);
	for (uint32_t k = 0; k < 29; k++)
		dram_mc_try_enqueue(&MC, mk(&R, 2 + k, 1 + k % 3, 7 + k, 0, MEM_REQ_READ), 0);
	dram_mc_try_enqueue(&MC, mk(&R, 31, 0, 4, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 20000);
	uint32_t row3 = 0;
	for (int i = 0; i < R.n_pf; i++)
		row3 += R.pf_addr[i] >= line_addr(0, 3, 1) && R.pf_addr[i] <= line_addr(0, 3, 31);
	cr_assert_eq(row3, 0);
}

Test(dram, prefetcher_off_issues_nothing)
{
	setup_mc(owl_cfg());
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 3, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 10000);
	cr_assert_eq(R.n_pf, 0);
}

static bool filter_even(void *ctx, uint64_t addr)
{
	(void)ctx;
	return (addr / 64) % 2 == 0;
}

Test(dram, prefetcher_skips_lines_the_l2_holds)
{
	struct sim_error err = {0};
	mem_addrmap_setup(&MAP, 8, 2048, 4, 2048, "BBCCCCCCCCCCC", false, &err);
	struct dram_cfg c = owl_cfg();
	c.prefetch = true;
	memset(&R, 0, sizeof R);
	cr_assert_eq(dram_mc_init(&MC, &c, &MAP, 0, on_done, filter_even, &R, &err), 0);
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 3, 1, MEM_REQ_READ), 0);
	run(&MC, 0, 10000);
	/* odd lines 3,5,...,31 (15) fetched; the 16 even lines are skipped */
	cr_assert_eq(R.n_pf, 15);
	cr_assert_eq(MC.pf_filtered, 16);
}

Test(dram, same_input_same_result)
{
	uint64_t sig[2];
	for (int t = 0; t < 2; t++) {
		setup_mc(owl_cfg());
		uint64_t x = 12345;
		for (int i = 1; i < 100; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			dram_mc_try_enqueue(&MC, mk(&R, (uint64_t)i, (uint32_t)(x >> 33) % 4,
						    (uint32_t)(x >> 40) % 8, (uint32_t)(x >> 50) % 32,
						    (x >> 20) & 1 ? MEM_REQ_READ : MEM_REQ_WRITE),
					   0);
		}
		run(&MC, 0, 1000000);
		sig[t] = 0;
		for (int i = 1; i < 100; i++)
			sig[t] = sig[t] * 31 + R.done_cycle[i];
		cr_assert_eq(R.n_done, 99);
		dram_mc_fini(&MC);
	}
	cr_assert_eq(sig[0], sig[1]);
	memset(&MC, 0, sizeof MC);
}

Test(dram, refresh_closes_rows_and_blocks_for_trfc)
{
	struct dram_cfg c = owl_cfg();
	c.tREFI = 100;
	c.tRFC = 20;
	setup_mc(c);
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 5, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 94);
	dram_mc_try_enqueue(&MC, mk(&R, 2, 0, 5, 1, MEM_REQ_READ), 95);
	run(&MC, 95, 119);
	/* (1) ACT@0 RD@12 -> 26. (2) arrives at 95, a row hit: RD@95 -> 109. The refresh falls
	 * due at 100 while (2) is on the bus: PRE@100, REF@110 (tRP), banks blocked to 130. */
	cr_assert_eq(R.done_cycle[2], 109);
	dram_mc_try_enqueue(&MC, mk(&R, 3, 0, 5, 2, MEM_REQ_READ), 120);
	run(&MC, 120, 1000);
	/* row 5 was closed by the refresh: ACT@130 (tRFC after 110), RD@142 -> 156 */
	cr_assert_eq(R.done_cycle[3], 156);
	cr_assert_eq(MC.refreshes, 1);
	cr_assert_eq(MC.row_misses, 2);
}

Test(dram, refreshes_due_while_idle_happen_on_time)
{
	struct dram_cfg c = owl_cfg();
	c.tREFI = 100;
	c.tRFC = 20;
	setup_mc(c);
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 5, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 1000);
	dram_mc_try_enqueue(&MC, mk(&R, 2, 0, 5, 1, MEM_REQ_READ), 1050);
	run(&MC, 1050, 5000);
	/* refreshes at 100, 200, ..., 1000 (10) while idle; the last one's bank block ends at
	 * 1000 + tRP 10 + tRFC 20 = 1030 < 1050: ACT@1050, RD@1062 -> 1076 (a row miss) */
	cr_assert_eq(MC.refreshes, 10);
	cr_assert_eq(R.done_cycle[2], 1076);
}

Test(dram, read_after_write_waits_twtr)
{
	setup_mc(owl_cfg());
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 5, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 1000);
	dram_mc_try_enqueue(&MC, mk(&R, 2, 0, 5, 1, MEM_REQ_WRITEBACK), 100);
	dram_mc_try_enqueue(&MC, mk(&R, 3, 0, 5, 2, MEM_REQ_READ), 100);
	run(&MC, 100, 1000);
	/* WR@100: data 107..111 (tWL 7, burst 4); RD waits tWTR 6 after the write data: RD@117,
	 * done 117 + 10 + 4 = 131 */
	cr_assert_eq(R.done_cycle[2], 111);
	cr_assert_eq(R.done_cycle[3], 131);
}

Test(dram, write_after_read_waits_trtw)
{
	setup_mc(owl_cfg());
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 5, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 1000);
	dram_mc_try_enqueue(&MC, mk(&R, 2, 0, 5, 1, MEM_REQ_READ), 100);
	dram_mc_try_enqueue(&MC, mk(&R, 3, 0, 5, 2, MEM_REQ_WRITEBACK), 100);
	run(&MC, 100, 1000);
	/* RD@100 -> 114; WR no earlier than 100 + tRTW 9 = 109 (its data at 116 clears the read's
	 * bus use ending 114): done 109 + 7 + 4 = 120 */
	cr_assert_eq(R.done_cycle[2], 114);
	cr_assert_eq(R.done_cycle[3], 120, "got %llu", (unsigned long long)R.done_cycle[3]);
}

/* ---- FR-FCFS across banks ------------------------------------------------------------- */
/* Rixner's FR-FCFS as OWL Sec 2.1 describes it: a ready column command to an open row (a row
 * hit) goes before any ACT or PRE whatever their age, ready hits go oldest first, and a row is
 * not closed while queued hits to it remain (dram.c documents no cap on that). The scenarios
 * read the command trace that sim.check records (cycle and bank of every command), so the order
 * is checked command by command, not only through completion times. */

struct want {
	enum dram_check_cmd cmd;
	uint32_t bank;
	uint64_t cycle;
};

static const char *const cmd_name[] = {"ACT", "PRE", "PREA", "RD", "WR", "REF"};

static void setup_checked(void)
{
	struct dram_cfg c = owl_cfg();
	c.check = true;
	setup_mc(c);
}

/* The recorded trace is exactly want[0..n); then it must also obey the timings. */
static void assert_trace(const struct want *want, uint32_t n)
{
	const struct dram_check *k = MC.chk;
	for (uint32_t i = 0; i < n && i < k->n; i++) {
		const struct dram_check_rec *r = &k->trace[i];
		cr_assert(r->cmd == want[i].cmd && r->bank == want[i].bank && r->cycle == want[i].cycle,
			  "command %u: got %s b%u @%llu, expected %s b%u @%llu", i, cmd_name[r->cmd],
			  (unsigned)r->bank, (unsigned long long)r->cycle, cmd_name[want[i].cmd],
			  want[i].bank, (unsigned long long)want[i].cycle);
	}
	cr_assert_eq(k->n, n, "%u commands recorded, expected %u", k->n, n);
	struct sim_error err = {0};
	cr_assert_eq(dram_mc_check(&MC, &err), 0, "%s", err.msg);
}

#define N_WANT(w) ((uint32_t)(sizeof(w) / sizeof((w)[0])))

/* Bank 0 has row 5 open (ACT@0, RD@12 -> 26). At 100 an older read to closed bank 1 and a
 * younger hit to bank 0 arrive; both commands could issue at 100 (bank 1's ACT waits only for
 * tRRD 8 after the ACT at 0). The hit goes first: RD b0@100 -> 100 + tCL 10 + burst 4 = 114;
 * ACT b1@101; RD b1 at 101 + tRCD 12 = 113 (the bus is free from 114 - tCL = 104) -> 127. */
Test(dram, frfcfs_ready_hit_goes_before_an_older_ready_activate_in_another_bank)
{
	setup_checked();
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 5, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 1000);
	dram_mc_try_enqueue(&MC, mk(&R, 2, 1, 7, 0, MEM_REQ_READ), 100); /* older, bank closed */
	dram_mc_try_enqueue(&MC, mk(&R, 3, 0, 5, 1, MEM_REQ_READ), 100); /* younger, row hit */
	run(&MC, 100, 1000);
	static const struct want w[] = {
		{DRAM_CHK_ACT, 0, 0}, {DRAM_CHK_RD, 0, 12},
		{DRAM_CHK_RD, 0, 100}, {DRAM_CHK_ACT, 1, 101}, {DRAM_CHK_RD, 1, 113},
	};
	assert_trace(w, N_WANT(w));
	cr_assert_eq(R.done_cycle[3], 114);
	cr_assert_eq(R.done_cycle[2], 127);
	cr_assert_eq(R.order[1], 3);
}

/* Banks 0 and 1 have rows 5 and 6 open: ACT b0@0, ACT b1@8 (tRRD), RD b0@12 -> 26, RD b1@20
 * (tRCD after 8) -> 34. At 100 an older read to row 7 of bank 1 (a conflict: its PRE is ready,
 * bank 1's tRAS ended at 8 + 25 = 33) and a younger hit to bank 0 arrive. The hit first: RD
 * b0@100 -> 114; PRE b1@101; ACT b1@111 (tRP 10; tRC ended at 8 + 35 = 43); RD b1@123 -> 137. */
Test(dram, frfcfs_ready_hit_goes_before_an_older_ready_precharge_in_another_bank)
{
	setup_checked();
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 5, 0, MEM_REQ_READ), 0);
	dram_mc_try_enqueue(&MC, mk(&R, 2, 1, 6, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 1000);
	dram_mc_try_enqueue(&MC, mk(&R, 3, 1, 7, 0, MEM_REQ_READ), 100); /* older, conflict */
	dram_mc_try_enqueue(&MC, mk(&R, 4, 0, 5, 1, MEM_REQ_READ), 100); /* younger, row hit */
	run(&MC, 100, 1000);
	static const struct want w[] = {
		{DRAM_CHK_ACT, 0, 0}, {DRAM_CHK_ACT, 1, 8}, {DRAM_CHK_RD, 0, 12}, {DRAM_CHK_RD, 1, 20},
		{DRAM_CHK_RD, 0, 100}, {DRAM_CHK_PRE, 1, 101}, {DRAM_CHK_ACT, 1, 111},
		{DRAM_CHK_RD, 1, 123},
	};
	assert_trace(w, N_WANT(w));
	cr_assert_eq(R.done_cycle[4], 114);
	cr_assert_eq(R.done_cycle[3], 137);
	cr_assert_eq(MC.row_conflicts, 1);
}

/* Banks 0 and 1 open as above (rows 5 and 8). At 100, in age order: X, a hit to bank 1; A, a
 * read to row 6 of bank 0 (a conflict); B and C, hits to bank 0's row 5. X issues at 100 and
 * holds the data bus to 114, so B and C are not ready until 104 and 108 (bus free - tCL, and
 * tCCD/burst: 4 apart), while A's PRE has been ready since 25 (tRAS). A must still wait: B and
 * C need row 5. RD b1@100 -> 114; RD b0 (B)@104 -> 118; RD b0 (C)@108 -> 122; PRE b0@110
 * (tRTP 2 after C's RD); ACT b0@120 (tRP 10); RD b0 (A)@132 (tRCD 12) -> 146. */
Test(dram, frfcfs_keeps_a_row_open_for_queued_hits_that_are_not_yet_ready)
{
	setup_checked();
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 5, 0, MEM_REQ_READ), 0);
	dram_mc_try_enqueue(&MC, mk(&R, 2, 1, 8, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 1000);
	dram_mc_try_enqueue(&MC, mk(&R, 3, 1, 8, 1, MEM_REQ_READ), 100); /* X */
	dram_mc_try_enqueue(&MC, mk(&R, 4, 0, 6, 0, MEM_REQ_READ), 100); /* A */
	dram_mc_try_enqueue(&MC, mk(&R, 5, 0, 5, 1, MEM_REQ_READ), 100); /* B */
	dram_mc_try_enqueue(&MC, mk(&R, 6, 0, 5, 2, MEM_REQ_READ), 100); /* C */
	run(&MC, 100, 1000);
	static const struct want w[] = {
		{DRAM_CHK_ACT, 0, 0}, {DRAM_CHK_ACT, 1, 8}, {DRAM_CHK_RD, 0, 12}, {DRAM_CHK_RD, 1, 20},
		{DRAM_CHK_RD, 1, 100}, {DRAM_CHK_RD, 0, 104}, {DRAM_CHK_RD, 0, 108},
		{DRAM_CHK_PRE, 0, 110}, {DRAM_CHK_ACT, 0, 120}, {DRAM_CHK_RD, 0, 132},
	};
	assert_trace(w, N_WANT(w));
	cr_assert_eq(R.done_cycle[3], 114);
	cr_assert_eq(R.done_cycle[5], 118);
	cr_assert_eq(R.done_cycle[6], 122);
	cr_assert_eq(R.done_cycle[4], 146);
	cr_assert_eq(MC.row_hits, 3);
	cr_assert_eq(MC.row_conflicts, 1);
}

/* Ready hits in two banks go oldest first, whichever the bank: rows 5 (bank 0) and 6 (bank 1)
 * open as above; at 100 hits to bank 1, bank 0, bank 1 in that age order. RD b1@100 -> 114,
 * RD b0@104 -> 118, RD b1@108 -> 122 (4 apart: the bus). */
Test(dram, frfcfs_ready_hits_in_different_banks_go_oldest_first)
{
	setup_checked();
	dram_mc_try_enqueue(&MC, mk(&R, 1, 0, 5, 0, MEM_REQ_READ), 0);
	dram_mc_try_enqueue(&MC, mk(&R, 2, 1, 6, 0, MEM_REQ_READ), 0);
	run(&MC, 0, 1000);
	dram_mc_try_enqueue(&MC, mk(&R, 3, 1, 6, 1, MEM_REQ_READ), 100);
	dram_mc_try_enqueue(&MC, mk(&R, 4, 0, 5, 1, MEM_REQ_READ), 100);
	dram_mc_try_enqueue(&MC, mk(&R, 5, 1, 6, 2, MEM_REQ_READ), 100);
	run(&MC, 100, 1000);
	static const struct want w[] = {
		{DRAM_CHK_ACT, 0, 0}, {DRAM_CHK_ACT, 1, 8}, {DRAM_CHK_RD, 0, 12}, {DRAM_CHK_RD, 1, 20},
		{DRAM_CHK_RD, 1, 100}, {DRAM_CHK_RD, 0, 104}, {DRAM_CHK_RD, 1, 108},
	};
	assert_trace(w, N_WANT(w));
	cr_assert_eq(R.done_cycle[3], 114);
	cr_assert_eq(R.done_cycle[4], 118);
	cr_assert_eq(R.done_cycle[5], 122);
}

/* The same rules over random traffic, checked against the trace by an independent replay
 * rather than against numbers: 4 banks x 4 rows, reads and write-backs arriving over time into
 * a 16-entry queue. For every ACT or PRE at cycle t, no queued hit could have issued at t
 * instead (tried by replaying the trace before t plus that column command at t in a fresh
 * protocol checker); no PRE closes a row a queued request still needs; and no column command
 * passes an older queued hit that could have issued in its place. */
struct rq {
	uint64_t enq, col; /* cycle accepted; cycle of its column command */
	uint32_t bank, row;
	bool wr;
};

static bool could_issue(const struct dram_check_timing *t, const struct dram_check_rec *trace,
			uint32_t upto, const struct rq *q, uint64_t at)
{
	struct dram_check *k = dram_check_create(t, 0);
	cr_assert_not_null(k);
	for (uint32_t i = 0; i < upto; i++)
		dram_check_record(k, trace[i].cmd, trace[i].bank, trace[i].row, trace[i].cycle);
	dram_check_record(k, q->wr ? DRAM_CHK_WR : DRAM_CHK_RD, q->bank, q->row, at);
	struct sim_error err = {0};
	bool ok = dram_check_flush(k, &err) == 0;
	dram_check_destroy(k);
	return ok;
}

Test(dram, frfcfs_rules_hold_over_random_multi_bank_traffic)
{
	enum { N = 300 };
	static struct rq q[N + 1];
	struct dram_cfg c = owl_cfg();
	c.check = true;
	c.queue_size = 16;
	setup_mc(c);
	uint64_t x = 0x2545f4914f6cdd1dull;
#define RND() (x ^= x >> 12, x ^= x << 25, x ^= x >> 27, x * 0x2545f4914f6cdd1dull)
	int next = 1;
	uint64_t arrive = 0;
	for (uint64_t now = 0; R.n_done < N; now++) {
		cr_assert_lt(now, 200000, "%d of %d requests done", R.n_done, N);
		while (next <= N && arrive <= now) {
			uint64_t r = RND();
			struct rq *e = &q[next];
			e->bank = (uint32_t)(r % 4);
			e->row = (uint32_t)(r >> 8) % 4;
			e->wr = (r >> 16) % 4 == 0;
			if (!dram_mc_try_enqueue(&MC, mk(&R, (uint64_t)next, e->bank, e->row,
							  (uint32_t)(r >> 20) % 32,
							  e->wr ? MEM_REQ_WRITEBACK : MEM_REQ_READ), now))
				break;
			e->enq = now;
			next++;
			arrive = now + (r >> 32) % 12; /* bursts and gaps: 0..11 cycles apart */
		}
		dram_mc_tick(&MC, now);
	}
#undef RND
	const struct dram_check *k = MC.chk;
	cr_assert_lt(k->n, DRAM_CHECK_TRACE, "the trace must fit the buffer unreplayed");
	static struct dram_check_rec trace[DRAM_CHECK_TRACE];
	uint32_t n = k->n;
	memcpy(trace, k->trace, n * sizeof *trace);
	struct sim_error err = {0};
	cr_assert_eq(dram_mc_check(&MC, &err), 0, "%s", err.msg);
	for (int i = 1; i <= N; i++)
		q[i].col = R.done_cycle[i] - (q[i].wr ? c.tWL : c.tCL) - c.burst_cycles;
	struct dram_check_timing t = {
		.banks = c.banks, .tRCD = c.tRCD, .tRP = c.tRP, .tRAS = c.tRAS, .tRC = c.tRC,
		.tRRD = c.tRRD, .tCL = c.tCL, .tWL = c.tWL, .tWR = c.tWR, .tWTR = c.tWTR,
		.tRTW = c.tRTW, .tCCD = c.tCCD, .tRTP = c.tRTP, .burst_cycles = c.burst_cycles,
	};
	bool open[4] = {false};
	uint32_t row[4] = {0};
	uint32_t n_pre = 0, n_passed = 0;
	for (uint32_t i = 0; i < n; i++) {
		const struct dram_check_rec *r = &trace[i];
		uint64_t now = r->cycle;
		/* the requests queued at now: accepted by now, column command later (or now, for
		 * the one this command serves) */
		for (int j = 1; j <= N; j++) {
			const struct rq *e = &q[j];
			if (e->enq > now || e->col < now || (e->col == now && (r->cmd == DRAM_CHK_RD ||
									     r->cmd == DRAM_CHK_WR)))
				continue;
			bool hit = open[e->bank] && row[e->bank] == e->row;
			if (r->cmd == DRAM_CHK_PRE && e->bank == r->bank)
				cr_assert_not(hit, "PRE b%u@%llu closes row %u, which request %d (queued "
					       "at %llu) still needs", r->bank, (unsigned long long)now,
					       e->row, j, (unsigned long long)e->enq);
			if (r->cmd == DRAM_CHK_ACT || r->cmd == DRAM_CHK_PRE)
				cr_assert_not(hit && could_issue(&t, trace, i, e, now),
					      "%s b%u@%llu went before request %d, a hit that could "
					      "issue then", cmd_name[r->cmd], r->bank,
					      (unsigned long long)now, j);
		}
		if (r->cmd == DRAM_CHK_RD || r->cmd == DRAM_CHK_WR) {
			/* the request served: the oldest (lowest id) column command at now there */
			int served = 0;
			for (int j = 1; j <= N && !served; j++)
				if (q[j].col == now && q[j].bank == r->bank)
					served = j;
			cr_assert_neq(served, 0);
			for (int j = 1; j < served; j++) {
				const struct rq *e = &q[j];
				bool queued_hit = e->enq <= now && e->col > now && open[e->bank] &&
						  row[e->bank] == e->row;
				if (queued_hit && could_issue(&t, trace, i, e, now))
					cr_assert_fail("RD/WR@%llu served request %d before the older "
						       "ready hit %d", (unsigned long long)now, served, j);
			}
			n_passed++;
		}
		if (r->cmd == DRAM_CHK_ACT) {
			open[r->bank] = true;
			row[r->bank] = r->row;
		} else if (r->cmd == DRAM_CHK_PRE) {
			open[r->bank] = false;
			n_pre++;
		}
	}
	/* the traffic exercised what is checked: conflicts and plenty of column commands */
	cr_assert_gt(n_pre, 20);
	cr_assert_eq(n_passed, N);
}
