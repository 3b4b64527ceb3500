/* SPDX-License-Identifier: MIT */
/* Tests the sectored L2 slice (gpu.l2.sector_bytes, memory/l2.c process_sectored) behind the
 * fake NoC of mem_channel_harness.h: owl-28's defaults (64 B lines, L2 650 MHz, hit and miss
 * latency 20, DRAM 800 MHz with a 32 B burst in 2 cycles) with 16 B sectors, each its own
 * DRAM request (fill_request_bytes 16: a burst, 2 cycles, per sector). */
#include "mem_channel_harness.h"

TestSuite(l2_sector, .fini = teardown);

static const char *const SECT[] = {"gpu.l2.sector_bytes=16", "gpu.l2.fill_request_bytes=16", NULL};

/* A write of `sectors` (those in full written whole) to the line at addr. */
static struct mem_req *send_write(int id, uint64_t addr, uint32_t sectors, uint32_t full)
{
	struct mem_req *r = &REQ[id];
	memset(r, 0, sizeof *r);
	r->id = (uint64_t)id;
	r->addr = addr;
	r->size_bytes = 16 * (uint32_t)__builtin_popcount(sectors);
	r->kind = MEM_REQ_WRITE;
	r->sectors = sectors;
	r->full_sectors = full;
	cr_assert(noc_try_inject(&NOC.base, 0, 1, NOC_CLASS_REQ, 8 + r->size_bytes, r));
	return r;
}

/* One sector a cycle: a whole-line write (4 sectors) holds the tag stage for L2 cycles 0..3,
 * its ack ready at 3 + 20 = 23; the read behind it starts at cycle 4 and hits at 4 + 3 + 20 =
 * 27. Unsectored, both take one cycle: 20 and 21. */
Test(l2_sector, each_sector_takes_a_tag_cycle)
{
	build(SECT);
	struct mem_req *w = send(1, MEM_REQ_WRITE, 0x0);
	struct mem_req *r = send(2, MEM_REQ_READ, 0x0);
	run();
	cr_assert_eq(w->t_ps[MEM_T_L2_REPLY], sim_clock_edge_ps(&L2CLK, 23));
	cr_assert_eq(r->t_ps[MEM_T_L2_REPLY], sim_clock_edge_ps(&L2CLK, 27));
	cr_assert_eq(stat("l2.0.accesses"), 8);
	cr_assert_eq(stat("l2.0.hits"), 4);
	cr_assert_eq(stat("l2.0.misses"), 4); /* the write's, to an absent line */
	cr_assert_eq(stat("mc.0.reads"), 0);
	teardown();
	build(NULL);
	w = send(1, MEM_REQ_WRITE, 0x0);
	r = send(2, MEM_REQ_READ, 0x0);
	run();
	cr_assert_eq(w->t_ps[MEM_T_L2_REPLY], sim_clock_edge_ps(&L2CLK, 20));
	cr_assert_eq(r->t_ps[MEM_T_L2_REPLY], sim_clock_edge_ps(&L2CLK, 21));
	cr_assert_eq(stat("l2.0.accesses"), 2);
}

/* A read finding sectors 0 and 1 valid (written whole) fetches only 2 and 3: two bursts, 4
 * bus cycles instead of the line's 8. The write takes L2 cycles 0..1, the read 2..5; its miss
 * reaches the MC at 5 + 20 = 25 (38461 ps = MC cycle 31): ACT@31, RD@43, data at 43 + 10 + 4
 * = 57. */
Test(l2_sector, a_sector_miss_fetches_only_the_missing_sectors)
{
	build(SECT);
	send_write(1, 0x0, 0x3, 0x3);
	struct mem_req *r = send(2, MEM_REQ_READ, 0x0);
	run();
	cr_assert_eq(r->t_ps[MEM_T_MC_ENQUEUE], sim_clock_edge_ps(&L2CLK, 25));
	cr_assert_eq(r->t_ps[MEM_T_DRAM_ISSUE], 43 * 1250);
	cr_assert_eq(r->t_ps[MEM_T_DRAM_DONE], 57 * 1250);
	cr_assert_eq(r->dram_bytes, 32);
	cr_assert_eq(stat("mc.0.bus_busy_cycles"), 4);
	cr_assert_eq(stat("l2.0.accesses"), 6);
	cr_assert_eq(stat("l2.0.read_hits"), 2);
	cr_assert_eq(stat("l2.0.read_misses"), 2);
	cr_assert_eq(stat("l2.0.sector_misses"), 2);
	cr_assert_eq(stat("l2.0.write_misses"), 2);
}

/* A sector written in part is not readable (GPGPU-Sim's lazy fetch on read): the read fetches
 * it with the three never written; a sector written whole is not fetched. */
Test(l2_sector, a_partly_written_sector_is_fetched_by_the_next_read)
{
	build(SECT);
	send_write(1, 0x0, 0x1, 0x0);
	struct mem_req *r = send(2, MEM_REQ_READ, 0x0);
	run();
	cr_assert_eq(r->dram_bytes, 64);
	cr_assert_eq(stat("mc.0.bus_busy_cycles"), 8);
	cr_assert_eq(stat("l2.0.sector_misses"), 4); /* the line is present (dirty) */
	teardown();
	build(SECT);
	send_write(1, 0x0, 0x1, 0x1);
	r = send(2, MEM_REQ_READ, 0x0);
	run();
	cr_assert_eq(r->dram_bytes, 48);
	cr_assert_eq(stat("mc.0.bus_busy_cycles"), 6);
}

/* The second read of a line being fetched finds its sectors on their way: 4 pending hits
 * (accesses, not misses), one DRAM read for both. */
Test(l2_sector, sectors_being_fetched_are_pending_hits)
{
	build(SECT);
	send(1, MEM_REQ_READ, 0x80);
	send(2, MEM_REQ_READ, 0x80);
	run();
	/* each read answered by 4 sector packets of 8 + 16 bytes, all carrying the request */
	cr_assert_eq(NOC.n[0][NOC_CLASS_REPLY], 8);
	for (int i = 0; i < 8; i++) {
		cr_assert_eq(reply(i)->payload, &REQ[1 + i / 4]);
		cr_assert_eq(reply(i)->size, 24);
	}
	cr_assert_eq(REQ[1].reply_parts, 4);
	cr_assert_eq(stat("mc.0.reads"), 1);
	cr_assert_eq(stat("l2.0.accesses"), 8);
	cr_assert_eq(stat("l2.0.misses"), 4);
	cr_assert_eq(stat("l2.0.pending_hits"), 4);
	cr_assert_eq(stat("l2.0.mshr_merges"), 1);
}

/* An atomic of one 16 B segment is one sector access and fetches one sector (2 bus cycles);
 * a whole-line read behind it fetches the other three in a second MSHR entry. */
Test(l2_sector, an_atomic_segment_is_one_sector)
{
	build(SECT);
	struct mem_req *a = &REQ[1];
	memset(a, 0, sizeof *a);
	a->addr = 0x110;
	a->size_bytes = 16;
	a->kind = MEM_REQ_ATOMIC;
	cr_assert(noc_try_inject(&NOC.base, 0, 1, NOC_CLASS_REQ, 24, a));
	struct mem_req *r = send(2, MEM_REQ_READ, 0x100);
	run();
	cr_assert_eq(a->dram_bytes, 16);
	cr_assert_eq(r->dram_bytes, 48);
	cr_assert_eq(stat("mc.0.reads"), 2);
	cr_assert_eq(stat("mc.0.bus_busy_cycles"), 8);
	cr_assert_eq(stat("l2.0.accesses"), 5);
	cr_assert_eq(stat("l2.0.misses"), 4);
}

Test(l2_sector, sector_size_must_divide_the_line)
{
	const char *const bad[][2] = {{"gpu.l2.sector_bytes=24", NULL}, {"gpu.l2.sector_bytes=64", NULL}};
	for (int i = 0; i < 2; i++) {
		struct sim_error err = {0};
		struct cfg *c = cfg_create();
		cr_assert_eq(mem_channel_cfg_define(c, &err), 0);
		cr_assert_eq(cfg_define(c, model_key, 1, &err), 0);
		cr_assert_eq(cfg_set_override(c, bad[i][0], &err), 0, "%s", err.msg);
		struct sim_config sc = {.seed = 1};
		struct sim *s = sim_create(&sc, &err);
		struct stats *st = stats_create();
		cr_assert_null(mem_channel_create(c, s, st, 0, NULL, &err));
		cr_assert_str_eq(err.setting, "gpu.l2.sector_bytes", "%s", err.msg);
		stats_destroy(st);
		sim_destroy(s);
		cfg_destroy(c);
	}
}

/* A sector written in part, written again, is a write hit (GPGPU-Sim: a MODIFIED sector hits a
 * write, readable or not); the line was a write miss once. */
Test(l2_sector, a_partly_written_sector_hits_the_next_write)
{
	build(SECT);
	send_write(1, 0x0, 0x1, 0x0);
	send_write(2, 0x0, 0x1, 0x0);
	run();
	cr_assert_eq(stat("l2.0.write_misses"), 1);
	cr_assert_eq(stat("l2.0.write_hits"), 1);
	cr_assert_eq(stat("mc.0.reads"), 0);
}

/* A request waiting for the tag stage is taken the cycle the stage frees, not when the miss
 * queue's head is ready (l2_slice_tick's next cycle is the earliest of the two; it once took
 * the miss queue's). By hand, from the defaults above (hit and miss latency 20 L2 cycles): the
 * read of line 0x0 (4 sectors, a miss) is taken at L2 cycle 0 and holds the tag stage for
 * cycles 0..3 (free at 4); its miss is ready for the MC at 3 + 20 = 23. The whole-line write
 * to line 0x40 is ejected at cycle 1 (the slice polls the next cycle while requests wait) and
 * waits for the stage: taken at 4, its sectors at 4..7, its ack ready at 7 + 20 = 27. The MC
 * is idle until 23, so nothing else wakes the slice meanwhile: slept until the miss queue's
 * head, the write would be taken at 23 and acked at 23 + 3 + 20 = 46. */
Test(l2_sector, a_request_waiting_for_the_tag_stage_is_taken_when_it_frees)
{
	build(SECT);
	struct mem_req *r = send(1, MEM_REQ_READ, 0x0);
	struct mem_req *w = send(2, MEM_REQ_WRITE, 0x40);
	run();
	cr_assert_eq(w->t_ps[MEM_T_L2_ARRIVE], sim_clock_edge_ps(&L2CLK, 1));
	cr_assert_eq(w->t_ps[MEM_T_L2_REPLY], sim_clock_edge_ps(&L2CLK, 27));
	cr_assert_eq(r->t_ps[MEM_T_MC_ENQUEUE], sim_clock_edge_ps(&L2CLK, 23));
	cr_assert_eq(stat("l2.0.accesses"), 8);
	cr_assert_eq(stat("l2.0.read_misses"), 4);
	cr_assert_eq(stat("l2.0.write_misses"), 4);
	cr_assert_eq(stat("mc.0.reads"), 1);
}
