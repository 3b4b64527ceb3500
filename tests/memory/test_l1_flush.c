/* SPDX-License-Identifier: MIT */
/* Tests memory/mem_req.h's mem_unit_kernel_begin (gpu.memory.l1d.flush_at_launch): two
 * "launches" reading the same lines against mem_unit_harness.h's fake NoC + L2, which answers
 * every request 40 cycles after its injection (10 each way, 20 in the L2). Core clock 1000 MHz:
 * 1 cycle = 1000 ps. */
#include <criterion/criterion.h>

#include "mem_unit_harness.h"

/* Launch 1 at cycle 10 and launch 2 at cycle 200, each one load of 32 lanes over lines 0x1000
 * and 0x1040 (sets 0 and 1): launch 1 misses both. Returns launch 2's completion cycle. */
static uint64_t two_launches(void)
{
	run_to(10);
	mem_unit_kernel_begin(H.mu, 10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x1000, 4), 1, 10));
	run_all();
	cr_assert_eq(H.n_done, 1);
	run_to(200);
	mem_unit_kernel_begin(H.mu, 200);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x1000, 4), 2, 200));
	run_all();
	cr_assert_eq(H.n_done, 2);
	return H.last_done_ps / 1000;
}

TestSuite(l1_flush, .fini = teardown);

/* Off (the default): launch 2 hits both lines, the second access a cycle after the first:
 * done at 201 + 5. L1D: 4 accesses, 2 misses (launch 1), 2 hits (launch 2); 2 reads sent. */
Test(l1_flush, off_the_second_launch_hits_the_lines_the_first_left)
{
	setup_text("gpu.memory.l1d.write_policy=write-evict", true, NULL);
	cr_expect_eq(two_launches(), 206);
	cr_expect_eq(stat("sm.0.l1d.accesses"), 4);
	cr_expect_eq(stat("sm.0.l1d.hits"), 2);
	cr_expect_eq(stat("sm.0.l1d.misses"), 2);
	cr_expect_eq(stat("sm.0.mem.reads_sent"), 2);
	cr_expect_eq(stat("sm.0.l1d.flushes"), 0);
	cr_expect_eq(stat("sm.0.l1d.flushed_lines"), 0);
}

/* On: launch 2 misses both again, as launch 1 did. Its misses are queued at 200 and 201,
 * injected at 201 and 202, replies ejectable at 241 and 242: done at 242. 4 accesses, 4
 * misses, 4 reads; 2 flushes (the first of an empty L1D), 2 lines dropped by the second.
 * A write-evict L1D holds no dirty line: no write-back. */
Test(l1_flush, on_the_second_launch_misses_as_the_first)
{
	setup_text("gpu.memory.l1d.write_policy=write-evict", true,
		   "gpu: { memory: { l1d: { flush_at_launch = true; }; }; };");
	cr_expect_eq(two_launches(), 242);
	cr_expect_eq(stat("sm.0.l1d.accesses"), 4);
	cr_expect_eq(stat("sm.0.l1d.hits"), 0);
	cr_expect_eq(stat("sm.0.l1d.misses"), 4);
	cr_expect_eq(stat("sm.0.mem.reads_sent"), 4);
	cr_expect_eq(stat("sm.0.l1d.flushes"), 2);
	cr_expect_eq(stat("sm.0.l1d.flushed_lines"), 2);
	cr_expect_eq(stat("sm.0.mem.writebacks_sent"), 0);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_WRITEBACK], 0);
}

/* Write-back L1D, flush on. Launch 1 at 10: a store of 32 lanes at 0x2000 allocates lines
 * 0x2000 and 0x2040 dirty (sets 0 and 1, no traffic); a load at 0x1000 misses lines 0x1000
 * and 0x1040 (the sets' other ways: no eviction). Launch 2 at 200 drops the 4 lines and
 * queues the 2 dirty ones as write-backs (72-byte packets: 8 + 64) ahead of its own load of
 * 0x1000, whose 2 misses are queued at 200 and 201: injections at 201, 202 (write-backs),
 * 203, 204 (reads), replies at 243 and 244: done at 244 (with the flush off: hits, done at
 * 206, and no write-back). */
Test(l1_flush, a_write_back_l1d_writes_its_dirty_lines_back_first)
{
	setup_text(NULL, true, "gpu: { memory: { l1d: { flush_at_launch = true; }; }; };");
	run_to(10);
	mem_unit_kernel_begin(H.mu, 10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_STORE, WI_SPACE_GLOBAL, 32, 0x2000, 4), 1, 10));
	run_to(12);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x1000, 4), 2, 12));
	run_all();
	cr_assert_eq(H.n_done, 2);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_WRITEBACK], 0);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_WRITE], 0);
	run_to(200);
	mem_unit_kernel_begin(H.mu, 200);
	cr_expect_eq(mem_unit_outstanding(H.mu), 2); /* the two write-backs, queued */
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x1000, 4), 3, 200));
	run_all();
	cr_assert_eq(H.n_done, 3);
	cr_expect_eq(H.last_done_ps, 244 * 1000);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_WRITEBACK], 2);
	cr_expect_eq(H.fn.req_bytes[MEM_REQ_WRITEBACK], 2 * 72);
	cr_expect_eq(H.fn.first_inject_cycle[MEM_REQ_WRITEBACK], 201);
	cr_expect_eq(stat("sm.0.mem.writebacks_sent"), 2);
	cr_expect_eq(stat("sm.0.l1d.flushed_lines"), 4);
	cr_expect_eq(stat("sm.0.mem.reads_sent"), 4);
	cr_expect_eq(stat("sm.0.l1d.read_hits"), 0);
}

/* The same two launches with the flush off: launch 2 hits (done at 206), nothing is written. */
Test(l1_flush, a_write_back_l1d_keeps_its_dirty_lines_without_the_flush)
{
	setup_text(NULL, true, NULL);
	run_to(10);
	mem_unit_kernel_begin(H.mu, 10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_STORE, WI_SPACE_GLOBAL, 32, 0x2000, 4), 1, 10));
	run_to(12);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x1000, 4), 2, 12));
	run_all();
	run_to(200);
	mem_unit_kernel_begin(H.mu, 200);
	cr_expect_eq(mem_unit_outstanding(H.mu), 0);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x1000, 4), 3, 200));
	run_all();
	cr_expect_eq(H.last_done_ps, 206 * 1000);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_WRITEBACK], 0);
	cr_expect_eq(stat("sm.0.l1d.read_hits"), 2);
}

/* GPGPU-Sim flushes only the L1D (ldst_unit::invalidate): a constant line read in launch 1
 * (one lane: one 4-byte word, one 64 B line) still hits in launch 2 (done at 200 + 3). */
Test(l1_flush, the_constant_cache_keeps_its_lines)
{
	setup_text(NULL, true, "gpu: { memory: { l1d: { flush_at_launch = true; }; }; };");
	run_to(10);
	mem_unit_kernel_begin(H.mu, 10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_CONST, 1, 0x3000, 4), 1, 10));
	run_all();
	run_to(200);
	mem_unit_kernel_begin(H.mu, 200);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_CONST, 1, 0x3000, 4), 2, 200));
	run_all();
	cr_expect_eq(H.last_done_ps, 203 * 1000);
	cr_expect_eq(stat("sm.0.l1c.hits"), 1);
	cr_expect_eq(stat("sm.0.l1d.flushed_lines"), 0);
}

/* The machines' settings (configs/README.md): gtx480 flushes as GPGPU-Sim 4.2's SM2_GTX480
 * (-gpgpu_flush_l1_cache 1); m2090 (3.2.2's TeslaC2050) and owl-28 (2.x's -gpgpu_flush_cache
 * default) do not. */
static bool machine_flushes(const char *name)
{
	setup_machine(name);
	bool on = cfg_bool(H.cfg, "gpu.memory.l1d.flush_at_launch");
	teardown();
	return on;
}

Test(l1_flush, machine_settings_follow_their_gpgpusim)
{
	cr_expect(machine_flushes("gtx480"));
	cr_expect(!machine_flushes("m2090"));
	cr_expect(!machine_flushes("owl-28"));
}

/* local-wb-global-evict with the flush (gtx480's pair): a dirty local line is dropped at the
 * next launch without a write-back, as GPGPU-Sim's L1D invalidation drops it. */
Test(l1_flush, local_wb_dirty_line_is_dropped_unwritten)
{
	setup_text("gpu.memory.l1d.write_policy=local-wb-global-evict", true,
		   "gpu: { memory: { l1d: { flush_at_launch = true; }; }; };");
	run_to(10);
	mem_unit_kernel_begin(H.mu, 10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_LOCAL, 8, 0x300, 4), 1, 10));
	issue_at(60, inst(WI_MEM_STORE, WI_SPACE_LOCAL, 8, 0x300, 4), 2);
	run_all();
	run_to(200);
	mem_unit_kernel_begin(H.mu, 200);
	run_all();
	cr_expect_eq(stat("sm.0.l1d.flushed_lines"), 1);
	cr_expect_eq(stat("sm.0.mem.writebacks_sent"), 0);
	cr_expect_eq(stat("sm.0.l1d.dirty_evictions"), 0);
}
