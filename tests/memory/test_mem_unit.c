/* SPDX-License-Identifier: MIT */
/* Tests memory/mem_req.h's mem_unit against mem_unit_harness.h's fake NoC (10 cycles each way)
 * whose memory nodes act as an always-hitting L2 (20 cycles). Core clock 1000 MHz: 1 cycle = 1000 ps. */
#include <criterion/criterion.h>
#include <string.h>

#include "mem_unit_harness.h"

static void setup_with(const char *overrides, bool with_noc) { setup_text(overrides, with_noc, NULL); }
static void setup(void) { setup_with(NULL, true); }

/* Miss queue of 4 (16 MSHRs): with the NoC refusing, four misses at cycles 10..13 fill it;
 * returns at cycle 14 with the queue full. */
static void fill_miss_queue(void)
{
	teardown();
	setup_with("gpu.memory.mshr.entries=16", true);
	H.fn.refuse = true;
	for (uint64_t i = 0; i < 4; i++) {
		run_to(10 + i);
		cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x10000 + i * 64, 4), i, 10 + i));
	}
	run_to(14);
}

TestSuite(mem_unit, .init = setup, .fini = teardown);

/* Miss issued at cycle 10: queued, injected at 11 (+1), at the L2 at 21 (+10), reply leaves
 * at 41 (+20), ejected at 51 (+10): done at 51. A later hit at 60 is done at 60 + 5. */
Test(mem_unit, miss_round_trip_then_hit_after_hit_latency_exactly)
{
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 16, 0x1000, 4), 1, 10));
	run_to(60);
	cr_assert_eq(H.n_done, 1);
	cr_expect_eq(H.done_ps[0], 51 * 1000);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 16, 0x1000, 4), 2, 60));
	run_all();
	cr_assert_eq(H.n_done, 2);
	cr_expect_eq(H.done_token[1], 2);
	cr_expect_eq(H.done_ps[1], 65 * 1000);
	cr_expect_eq(stat("sm.0.l1d.hits"), 1);
	cr_expect_eq(stat("sm.0.l1d.misses"), 1);
	cr_expect_float_eq(statd("sm.0.l1d.hit_rate"), 0.5, 1e-9);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_READ], 1);
	cr_expect_eq(H.fn.req_bytes[MEM_REQ_READ], 8); /* a read request is a header only */
	/* breakdown: total 41 = miss queue 1 + NoC 10 + 10 + L2 20 */
	cr_expect_float_eq(statd("sm.0.mem.lat.total"), 41.0, 1e-9);
	cr_expect_float_eq(statd("sm.0.mem.lat.sm_queue"), 1.0, 1e-9);
	cr_expect_float_eq(statd("sm.0.mem.lat.noc"), 20.0, 1e-9);
	cr_expect_float_eq(statd("sm.0.mem.lat.l2"), 20.0, 1e-9);
	cr_expect_eq(stat("sm.0.mem.lat.hist.lt64"), 1); /* 41 cycles: the [32, 64) bucket */
	cr_expect_eq(stat("sm.0.mem.lat.hist.lt32"), 0);
}

/* An instruction line read (gpu.core.icache.miss_path memory) takes a data miss's round trip
 * (requested at 10: injected at 11, at the L2 at 21, reply at 41, ejected at 51), as a READ of
 * its size to the channel of its address (the second channel for 2048), and changes no L1
 * state: the same line read as data afterwards misses. */
Test(mem_unit, an_instruction_line_read_is_a_read_below_l1_that_fills_nothing)
{
	cr_assert(mem_unit_has_ifetch(H.mu));
	run_to(10);
	cr_assert(mem_unit_ifetch(H.mu, 2048, 128, 10));
	run_to(60);
	cr_assert_eq(n_ifetched, 1);
	cr_expect_eq(ifetch_addr[0], 2048);
	cr_expect_eq(ifetch_ps[0], 51 * 1000);
	cr_expect_eq(H.n_done, 0);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_READ], 1);
	cr_expect_eq(H.fn.req_bytes[MEM_REQ_READ], 8);
	cr_expect_eq(H.fn.pk[0].dst, H.fn.core_node[0]); /* the reply came back to the core */
	cr_expect_eq(stat("sm.0.mem.ifetch_sent"), 1);
	cr_expect_eq(stat("sm.0.mem.ifetch_cycles"), 41);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 2048, 4), 1, 60));
	run_all();
	cr_expect_eq(stat("sm.0.l1d.misses"), 1);
	cr_expect_eq(stat("sm.0.l1d.hits"), 0);
}

/* Without the NoC (fixed-latency and perfect-l1 models) there is no path for them. */
Test(mem_unit, no_instruction_line_path_without_the_noc)
{
	teardown();
	setup_with("gpu.memory.model=fixed-latency", false);
	cr_expect_not(mem_unit_has_ifetch(H.mu));
}

/* A full miss queue refuses an instruction line read as it refuses a data miss. */
Test(mem_unit, an_instruction_line_read_waits_for_room_in_the_miss_queue)
{
	fill_miss_queue();
	cr_expect_not(mem_unit_ifetch(H.mu, 4096, 128, 14));
	H.fn.refuse = false;
	run_all();
	cr_expect_eq(n_ifetched, 0);
	cr_expect_eq(stat("sm.0.mem.ifetch_sent"), 0);
}

/* mem_missed_fn: a load that misses (token 1, reported in its issue cycle, once although both
 * of its 2 lines miss), one that merges into the pending miss (2), a later hit (3: not
 * reported), an atomic (4: performed at L2), a store (5: not reported, no data comes back). */
Test(mem_unit, loads_whose_data_comes_from_below_l1_are_reported_once)
{
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x9000, 4), 1, 10));
	cr_expect_eq(n_missed, 1, "reported inside try_issue (first access)");
	run_to(12);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 4, 0x9000, 4), 2, 12));
	run_to(100);
	cr_assert_eq(H.n_done, 2);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 4, 0x9040, 4), 3, 100));
	run_to(110);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_ATOMIC, WI_SPACE_GLOBAL, 1, 0xa000, 4), 4, 110));
	run_to(111);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_STORE, WI_SPACE_GLOBAL, 1, 0xb000, 4), 5, 111));
	run_all();
	cr_assert_eq(H.n_done, 5);
	cr_assert_eq(n_missed, 3);
	cr_expect_eq(missed_token[0], 1);
	cr_expect_eq(missed_token[1], 2);
	cr_expect_eq(missed_token[2], 4);
}

/* 32 lanes x 4 B with 64 B lines = 2 line accesses through one port: the first at 10, the
 * second at 11; both hit (after a warm-up), so done at 11 + 5 = 16. */
Test(mem_unit, multi_line_hits_serialise_one_per_cycle)
{
	run_to(1);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x2000, 4), 1, 1));
	run_to(10);
	cr_assert_eq(H.n_done, 0);
	run_to(100);
	cr_assert_eq(H.n_done, 1);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x2000, 4), 2, 100));
	cr_expect_not(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x2000, 4), 3, 100));
	run_all();
	cr_expect_eq(H.done_ps[1], 106 * 1000);
	cr_expect_eq(stat("sm.0.mem.stage_busy_stalls"), 1);
	cr_expect_float_eq(statd("sm.0.mem.requests_per_inst"), 2.0, 1e-9);
}

/* Two warps miss on the same line at 10 and 11: one read goes below, the second merges,
 * and both complete with the fill at 51. */
Test(mem_unit, mshr_merging_sends_one_miss_for_two_requests)
{
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 4, 0x3000, 4), 1, 10));
	run_to(11);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 4, 0x3010, 4), 2, 11));
	run_all();
	cr_assert_eq(H.n_done, 2);
	cr_expect_eq(H.done_ps[0], 51 * 1000);
	cr_expect_eq(H.done_ps[1], 51 * 1000);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_READ], 1);
	cr_expect_eq(stat("sm.0.mshr.merges"), 1);
	cr_expect_eq(stat("sm.0.mem.reads_sent"), 1);
	/* both are misses; the second is GPGPU-Sim's pending hit (HIT_RESERVED) */
	cr_expect_eq(stat("sm.0.l1d.misses"), 2);
	cr_expect_eq(stat("sm.0.l1d.pending_hits"), 1);
}

/* 4 MSHR entries: four single-line misses at 10..13 fill them; a fifth new line is refused
 * and counted; a miss to a pending line still merges (2 targets per entry); a third to the
 * same line is refused too. After the fills everything is accepted again. */
Test(mem_unit, mshr_full_refuses_and_counts)
{
	for (uint64_t i = 0; i < 4; i++) {
		run_to(10 + i);
		cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x10000 + i * 64, 4), i, 10 + i));
	}
	run_to(14);
	cr_expect_not(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x20000, 4), 9, 14));
	cr_expect_eq(stat("sm.0.mem.mshr_full_stalls"), 1);
	cr_expect(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x10000, 4), 4, 14));
	run_to(15);
	cr_expect_not(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x10000, 4), 9, 15));
	cr_expect_eq(stat("sm.0.mem.mshr_full_stalls"), 2);
	run_to(60); /* fills at 51..54 */
	cr_expect(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x20000, 4), 5, 60));
	run_all();
	cr_expect_eq(H.n_done, 6);
}

/* Miss queue of 4 (16 MSHRs here): with the NoC refusing, four misses fill it; the fifth
 * instruction is refused and counted as a miss-queue stall. */
Test(mem_unit, miss_queue_full_refuses_and_counts)
{
	fill_miss_queue();
	cr_expect_not(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x20000, 4), 9, 14));
	cr_expect_eq(stat("sm.0.mem.missq_full_stalls"), 1);
	cr_expect_eq(stat("sm.0.mem.mshr_full_stalls"), 0);
	H.fn.refuse = false;
	run_all();
	cr_expect_eq(H.n_done, 4);
}

/* Many warps hammering one SM with loads and write-back stores over a few conflicting sets
 * (dirty victims, merges, full MSHRs and queues), retrying every refusal: every accepted
 * instruction completes exactly once and nothing is left in flight. */
Test(mem_unit, stress_every_accepted_instruction_completes_once)
{
	uint64_t accepted = 0, refused = 0, i = 0;
	for (uint64_t cyc = 1; cyc <= 3000; cyc++) {
		run_to(cyc);
		uint64_t base = ((i * 7919) % 23) * 512 + (i % 3) * 64;
		enum wi_mem_kind k = (i % 4 == 1) ? WI_MEM_STORE : (i % 17 == 5) ? WI_MEM_ATOMIC : WI_MEM_LOAD;
		if (mem_unit_try_issue(H.mu, inst(k, WI_SPACE_GLOBAL, 8 + i % 24, base, 4 + (i % 5) * 64), i, cyc)) {
			accepted++;
			i++;
		} else {
			refused++;
		}
	}
	run_all();
	cr_expect_eq(H.n_done, accepted);
	/* Every refusal is counted once, under one reason. */
	cr_expect_eq(stat("sm.0.mem.mshr_full_stalls") + stat("sm.0.mem.missq_full_stalls") +
			     stat("sm.0.mem.stage_busy_stalls") + stat("sm.0.shmem.busy_stalls") +
			     stat("sm.0.mem.slot_full_stalls"),
		     refused);
	/* Every write-back counted was sent: the NoC saw as many write-back packets. */
	cr_expect_eq(stat("sm.0.mem.writebacks_sent"), H.fn.req_pkts[MEM_REQ_WRITEBACK]);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_READ], stat("sm.0.mshr.allocs"));
	/* How many refusals and write-backs there are depends on the timing of every fill (not
	 * derivable by hand); these only say that the stress reached both, which the invariants
	 * above need to mean anything. */
	cr_expect_gt(refused, 0);
	cr_expect_gt(H.fn.req_pkts[MEM_REQ_WRITEBACK], 0);
}

/* Eight warps retrying refused instructions every cycle, in order, with divergent loads (the
 * stage busy for several passes), 4 MSHRs with 2 merges each, write-back stores, atomics, 6
 * slots and a NoC refusing injections now and then (a full miss queue). noted: a warp keeps
 * the note of its refusal and asks mem_unit_refuse_again first (the SM's shortcut); else
 * every retry goes through mem_unit_try_issue. *again counts the refusals decided by notes.
 * Returns the stats document with the completions' hash (the caller frees it). */
static char *retry_run(bool noted, uint64_t *again, uint64_t *refused)
{
	setup_with("gpu.memory.max_inflight_insts=6", true);
	enum { W = 8 };
	uint64_t next[W], done_insts = 0;
	struct mem_refusal_note note[W];
	bool has_note[W] = {false};
	for (uint64_t w = 0; w < W; w++)
		next[w] = w;
	*again = 0;
	*refused = 0;
	for (uint64_t cyc = 1; cyc <= 4000; cyc++) {
		run_to(cyc);
		H.fn.refuse = cyc % 400 >= 300 && cyc % 400 < 340;
		for (uint64_t w = 0; w < W; w++) {
			uint64_t i = next[w];
			if (noted && has_note[w] && mem_unit_refuse_again(H.mu, &note[w], cyc)) {
				++*again;
				continue;
			}
			uint64_t base = ((i * 7919) % 29) * 512 + (i % 3) * 64;
			enum wi_mem_kind k = (i % 5 == 1) ? WI_MEM_STORE : (i % 19 == 7) ? WI_MEM_ATOMIC : WI_MEM_LOAD;
			const struct warp_inst *wi = inst(k, WI_SPACE_GLOBAL, 4 + i % 28, base, 4 + (i % 4) * 64);
			if (mem_unit_try_issue(H.mu, wi, w << 32 | (i & 0xffffffffu), cyc)) {
				next[w] += W;
				has_note[w] = false;
				done_insts++;
			} else {
				++*refused;
				has_note[w] = mem_unit_note_refusal(H.mu, wi, &note[w]);
				cr_assert(has_note[w]);
			}
		}
	}
	H.fn.refuse = false;
	run_all();
	cr_assert_eq(H.n_done, done_insts);
	char *js = stats_to_json_string(H.st);
	size_t n = strlen(js) + 64;
	char *out = malloc(n);
	cr_assert_not_null(out);
	snprintf(out, n, "%s\ncompletions %u hash %llx", js, H.n_done, (unsigned long long)H.done_hash);
	free(js);
	teardown();
	return out;
}

/* mem_req.h's contract for notes: retries refused from their notes give exactly the stats
 * and completions of retries in full, and notes decide most refusals. Each reason occurs. */
Test(mem_unit, refusals_repeated_from_notes_match_retries_in_full)
{
	teardown();
	uint64_t again = 0, none = 0, refused_full = 0, refused_noted = 0;
	char *full = retry_run(false, &none, &refused_full);
	char *noted = retry_run(true, &again, &refused_noted);
	cr_assert_eq(none, 0);
	cr_expect_str_eq(noted, full);
	cr_expect_gt(again, 4000, "only %llu refusals from notes", (unsigned long long)again);
	/* Every refusal is counted once under one reason, whether decided by a note or in full:
	 * the reasons add up to the refusals of the run in full, and to those of the noted run
	 * (its retries in full plus its notes' answers). */
	static const char *const reasons[] = {"mshr_full_stalls", "missq_full_stalls", "stage_busy_stalls",
					      "slot_full_stalls"};
	uint64_t sum = 0;
	for (size_t r = 0; r < SIM_ARRAY_LEN(reasons); r++) {
		const char *at = strstr(full, reasons[r]);
		cr_assert_not_null(at, "%s", reasons[r]);
		uint64_t v = strtoull(strchr(at, ':') + 1, NULL, 10);
		/* how often each reason occurs depends on the timing of every fill (not derivable by
		 * hand): that each occurs is what makes this test cover all four */
		cr_expect_gt(v, 0, "no %s", reasons[r]);
		sum += v;
	}
	cr_expect_eq(sum, refused_full);
	cr_expect_eq(refused_noted + again, refused_full);
	free(full);
	free(noted);
}

/* A note of a refusal for full MSHRs holds until something can lift it: here a write-back store
 * allocating the refused load's line at 15 (the load now hits), then nothing until the fills
 * at 51..54 release entries. */
Test(mem_unit, a_note_of_full_mshrs_ends_when_a_store_allocates_the_line)
{
	for (uint64_t i = 0; i < 4; i++) {
		run_to(10 + i);
		cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x10000 + i * 64, 4), i, 10 + i));
	}
	run_to(14);
	struct mem_refusal_note a, b;
	const struct warp_inst *wi = inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x20000, 4);
	cr_assert_not(mem_unit_try_issue(H.mu, wi, 8, 14));
	cr_assert(mem_unit_note_refusal(H.mu, wi, &a));
	cr_expect(a.full);
	cr_expect_eq(a.why, MEM_REFUSE_MSHR);
	wi = inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x20040, 4);
	cr_assert_not(mem_unit_try_issue(H.mu, wi, 9, 14));
	cr_assert(mem_unit_note_refusal(H.mu, wi, &b));
	cr_expect(mem_unit_refuse_again(H.mu, &a, 14)); /* the same epoch */
	cr_expect_eq(stat("sm.0.mem.mshr_full_stalls"), 3);
	run_to(15);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_STORE, WI_SPACE_GLOBAL, 1, 0x20000, 4), 5, 15));
	run_to(16);
	cr_expect_not(mem_unit_refuse_again(H.mu, &a, 16), "the line was allocated by the store");
	cr_expect_eq(stat("sm.0.mem.mshr_full_stalls"), 3);
	cr_expect(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x20000, 4), 8, 16));
	/* 0x20040's note was taken before the store: it is decided in full now, and again noted */
	cr_expect_not(mem_unit_refuse_again(H.mu, &b, 17));
	wi = inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x20040, 4);
	cr_assert_not(mem_unit_try_issue(H.mu, wi, 9, 17));
	cr_assert(mem_unit_note_refusal(H.mu, wi, &b));
	run_to(50);
	cr_expect(mem_unit_refuse_again(H.mu, &b, 50));
	cr_expect_eq(stat("sm.0.mem.mshr_full_stalls"), 5);
	run_to(52); /* a fill at 51 released an entry */
	cr_expect_not(mem_unit_refuse_again(H.mu, &b, 52));
	cr_expect(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x20040, 4), 9, 52));
	run_all();
	cr_expect_eq(H.n_done, 7);
}

/* A NoC that wakes the unit in advance for a reply's arrival (like the cycle NoC): the miss
 * of 0xb000 at 50 is injected at 51, reaches the L2 at 61, which wakes the unit for 91. A hit
 * issued at 70 then queues an earlier tick (75); the engine keeps the later wake as a deferred
 * wake event, so the unit still sees the reply at 91. */
Test(mem_unit, reply_is_seen_when_the_nocs_early_wake_is_dropped)
{
	H.fn.early_wake = true;
	run_to(5);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0xa000, 4), 1, 5));
	run_to(50);
	cr_assert_eq(H.n_done, 1);
	cr_expect_eq(H.done_ps[0], 46 * 1000);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0xb000, 4), 2, 50));
	run_to(70);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0xa000, 4), 3, 70));
	run_all();
	cr_assert_eq(H.n_done, 3);
	cr_expect_eq(H.done_token[1], 3);
	cr_expect_eq(H.done_ps[1], 75 * 1000);
	cr_expect_eq(H.done_token[2], 2);
	cr_expect_eq(H.done_ps[2], 91 * 1000);
}

/* Back-pressure: the NoC refuses for a while, the miss waits in the queue and goes when it
 * accepts: injected at 30 instead of 11, so done at 30 + 40 = 70. */
Test(mem_unit, noc_back_pressure_delays_injection)
{
	H.fn.refuse = true;
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x4000, 4), 1, 10));
	run_to(29);
	H.fn.refuse = false;
	run_all();
	cr_expect_eq(H.done_ps[0], 70 * 1000);
	cr_expect_eq(stat("sm.0.mem.inject_retry_cycles"), 19); /* cycles 11..29 */
}

/* Write-evict (Fermi): a store to a cached line invalidates it and writes through; 32 lanes
 * x 4 B = 2 lines of 64 B, 64 data bytes each (72-byte packets), injected at 101 and 102,
 * acked 40 later: done at 142. */
Test(mem_unit, write_evict_store_invalidates_and_completes_on_ack)
{
	teardown();
	setup_with("gpu.memory.l1d.write_policy=write-evict", true);
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x5000, 4), 1, 10));
	run_to(100);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_STORE, WI_SPACE_GLOBAL, 32, 0x5000, 4), 2, 100));
	run_all();
	cr_assert_eq(H.n_done, 2);
	cr_expect_eq(H.done_ps[1], 142 * 1000);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_WRITE], 2);
	cr_expect_eq(H.fn.req_bytes[MEM_REQ_WRITE], 2 * (8 + 64));
	cr_expect_eq(stat("sm.0.l1d.invalidations"), 2);
	cr_expect_eq(stat("sm.0.l1d.write_hits"), 2);
}

/* Write-back: stores to lines 0 and 512 allocate dirty lines in set 0 (no traffic, done after
 * the hit latency); a load of line 1024 (same set) fills and evicts LRU line 0, which is
 * written back: one 8 + 64 byte WRITEBACK packet. */
Test(mem_unit, write_back_writes_dirty_victim)
{
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_STORE, WI_SPACE_GLOBAL, 1, 0, 4), 1, 10));
	run_to(11);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_STORE, WI_SPACE_GLOBAL, 1, 512, 4), 2, 11));
	run_to(20);
	cr_expect_eq(H.n_done, 2);
	cr_expect_eq(H.done_ps[0], 15 * 1000);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 1024, 4), 3, 20));
	run_all();
	cr_expect_eq(H.n_done, 3);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_WRITEBACK], 1);
	cr_expect_eq(H.fn.req_bytes[MEM_REQ_WRITEBACK], 72);
	cr_expect_eq(stat("sm.0.l1d.dirty_evictions"), 1);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_WRITE], 0);
}

/* Atomics go to L2, one request per line, one completion: 2 lines, injected 11 and 12, the
 * last acked at 52. */
Test(mem_unit, atomic_completes_once_after_l2)
{
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_ATOMIC, WI_SPACE_GLOBAL, 32, 0x6000, 4), 7, 10));
	run_all();
	cr_assert_eq(H.n_done, 1);
	cr_expect_eq(H.done_token[0], 7);
	cr_expect_eq(H.done_ps[0], 52 * 1000);
	cr_expect_eq(stat("sm.0.mem.atomics_sent"), 2);
}

/* gpu.memory.atomic_segment_bytes = 32: the same 128 B of lanes (two 64 B lines) go as four
 * 32 B segments, one per stage cycle (10..13): injected 11..14, at the L2 21..24, replies
 * leave 41..44 and are ejected 51..54, so done at 54; each request carries 8 + 32 bytes. */
Test(mem_unit, atomic_segments_send_one_request_per_32_bytes)
{
	teardown();
	setup_with("gpu.memory.atomic_segment_bytes=32", true);
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_ATOMIC, WI_SPACE_GLOBAL, 32, 0x6000, 4), 7, 10));
	run_all();
	cr_assert_eq(H.n_done, 1);
	cr_expect_eq(H.done_ps[0], 54 * 1000);
	cr_expect_eq(stat("sm.0.mem.atomics_sent"), 4);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_ATOMIC], 4);
	cr_expect_eq(H.fn.req_bytes[MEM_REQ_ATOMIC], 4 * (8 + 32));
}

/* What an atomic request carries: 3 lanes of 4 B in one 32 B segment. By lines, the active
 * lanes' 12 bytes (8 + 12); by segments, the whole segment as GPGPU-Sim's mem_fetch (its data
 * size is the segment's whatever the mask, both ways): 8 + 32. */
static void three_lane_atomic_sends_one_request_of(uint64_t bytes)
{
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_ATOMIC, WI_SPACE_GLOBAL, 3, 0x6000, 4), 7, 10));
	run_all();
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_ATOMIC], 1);
	cr_expect_eq(H.fn.req_bytes[MEM_REQ_ATOMIC], bytes);
}

Test(mem_unit, an_atomic_segment_request_carries_the_whole_segment)
{
	three_lane_atomic_sends_one_request_of(8 + 12);
	teardown();
	setup_with("gpu.memory.atomic_segment_bytes=32", true);
	three_lane_atomic_sends_one_request_of(8 + 32);
}

/* base_cfg with the override (and the fixed-latency model) does not build a unit: the error
 * names setting. Outside the fixture (call between teardown and setup). */
static void expect_unit_refused(const char *override, const char *setting)
{
	struct sim_error err = {0};
	struct cfg *c = cfg_create();
	cr_assert_eq(mem_unit_cfg_define(c, &err), 0);
	cr_assert_eq(cfg_define(c, dram_keys, SIM_ARRAY_LEN(dram_keys), &err), 0);
	cr_assert_eq(cfg_load_string(c, "test.cfg", base_cfg, &err), 0, "%s", err.msg);
	cr_assert_eq(cfg_set_override(c, override, &err), 0, "%s", err.msg);
	cr_assert_eq(cfg_set_override(c, "gpu.memory.model=fixed-latency", &err), 0, "%s", err.msg);
	struct sim_clock clk = {.name = "core", .freq_mhz = 1000};
	struct sim_config sc = {.seed = 1};
	struct sim *sim = sim_create(&sc, &err);
	cr_assert_eq(sim_clock_add(sim, &clk, &err), 0);
	struct mem_unit_ports ports = {.done = on_done, .sm_ctx = &H};
	cr_expect_null(mem_unit_create(c, sim, NULL, 0, &clk, &ports, &err), "%s accepted", override);
	cr_expect_str_eq(err.setting, setting, "%s: %s", err.setting, err.msg);
	sim_destroy(sim);
	cfg_destroy(c);
}

Test(mem_unit, atomic_segment_size_must_divide_the_line)
{
	teardown();
	expect_unit_refused("gpu.memory.atomic_segment_bytes=48", "gpu.memory.atomic_segment_bytes");
	expect_unit_refused("gpu.memory.atomic_segment_bytes=128", "gpu.memory.atomic_segment_bytes");
	setup(); /* for the suite's fini */
}

/* .param/.const go through the constant cache (hit latency 3): miss at 10 -> 51, hit at 60 -> 63. */
Test(mem_unit, param_loads_use_constant_cache)
{
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_PARAM, 1, 0x100, 4), 1, 10));
	run_to(60);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_CONST, 1, 0x104, 4), 2, 60));
	run_all();
	cr_expect_eq(H.done_ps[0], 51 * 1000);
	cr_expect_eq(H.done_ps[1], 63 * 1000);
	cr_expect_eq(stat("sm.0.l1c.hits"), 1);
	cr_expect_eq(stat("sm.0.l1d.misses"), 0);
}

/* .local behaves like global: cached in L1D (miss at 10 -> 51, hit at 60 -> 65). */
Test(mem_unit, local_accesses_are_cached_in_l1d)
{
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_LOCAL, 8, 0x300, 4), 1, 10));
	run_to(60);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_LOCAL, 8, 0x300, 4), 2, 60));
	run_all();
	cr_expect_eq(H.done_ps[0], 51 * 1000);
	cr_expect_eq(H.done_ps[1], 65 * 1000);
	cr_expect_eq(stat("sm.0.l1d.hits"), 1);
	cr_expect_eq(stat("sm.0.l1d.misses"), 1);
}

/* The constant cache serves one word per cycle (Fermi): 32 lanes reading words 0..3 of one
 * line = 4 accesses. Cold at 10: word 0 misses (MSHR alloc, injected 11, filled 51), word 1
 * merges at 11, word 2 finds the entry full (2 targets) and waits; at 51 the fill comes first,
 * then word 2 hits at 51 (done 54) and word 3 at 52 (done 55): complete at 55. Warm at 60:
 * words at 60..63, the last done at 63 + 3 = 66. */
Test(mem_unit, constant_cache_serialises_distinct_words)
{
	teardown();
	setup_with(NULL, true);
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_CONST, 4, 0x200, 4), 1, 10));
	run_to(60);
	cr_assert_eq(H.n_done, 1);
	cr_expect_eq(H.done_ps[0], 55 * 1000);
	/* The unit sleeps while the stage waits on the MSHR: ticks at 11 and 12, then 51..55
	 * (fill, word 2, word 3, completions at 54 and 55) - not once per cycle of the wait. */
	cr_expect_leq(mem_unit_component(H.mu)->ticks, 8);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_CONST, 4, 0x200, 4), 2, 60));
	run_all();
	cr_expect_eq(H.done_ps[1], 66 * 1000);
	cr_expect_eq(stat("sm.0.mem.reads_sent"), 1);
	cr_expect_eq(H.fn.req_bytes[MEM_REQ_READ], 8);
	cr_expect_eq(stat("sm.0.mem.mshr_stall_cycles"), 51 - 12); /* word 2 waited 12..50 */
}

/* A warp's constant load over 3 lines and 17 distinct words: lanes 0-15 read words 0-7 of the
 * line at 0x4000 (each twice), lanes 16-27 words 0-5 of 0x4040 (each twice), lanes 28-31 words
 * 0, 1, 2, 0 of 0x4080. */
static const struct warp_inst *const_3_lines_17_words(void)
{
	const struct warp_inst *wi = inst(WI_MEM_LOAD, WI_SPACE_CONST, 32, 0, 0);
	for (uint32_t l = 0; l < 32; l++)
		H.addr[l] = l < 16 ? 0x4000 + 4 * (l % 8) : l < 28 ? 0x4040 + 4 * ((l - 16) % 6) : 0x4080 + 4 * ((l - 28) % 3);
	return wi;
}

/* l1c.access_granularity = line (GPGPU-Sim's): one L1C access per distinct line, one a cycle.
 * Cold at 10: the three lines miss at 10, 11, 12 (three MSHR entries), are injected at 11, 12,
 * 13 and filled at 51, 52, 53: done at 53. Warm at 60: hits at 60, 61, 62, the last done at
 * 62 + 3 = 65. Word granularity (the default) would take 17 accesses: warm, done at 60 + 16 + 3. */
Test(mem_unit, constant_cache_by_line_takes_one_access_per_distinct_line)
{
	teardown();
	setup_with("gpu.memory.l1c.access_granularity=line", true);
	issue_at(10, const_3_lines_17_words(), 1);
	run_to(60);
	cr_assert_eq(H.n_done, 1);
	cr_expect_eq(H.done_ps[0], 53 * 1000);
	cr_expect_eq(stat("sm.0.l1c.accesses"), 3);
	cr_expect_eq(stat("sm.0.l1c.misses"), 3);
	cr_expect_eq(stat("sm.0.mem.reads_sent"), 3);
	cr_expect_eq(H.fn.req_bytes[MEM_REQ_READ], 3 * 8);
	issue_at(60, const_3_lines_17_words(), 2);
	run_all();
	cr_assert_eq(H.n_done, 2);
	cr_expect_eq(H.done_ps[1], 65 * 1000);
	cr_expect_eq(stat("sm.0.l1c.accesses"), 6);
	cr_expect_eq(stat("sm.0.l1c.hits"), 3);
	cr_expect_eq(stat("sm.0.mem.line_accesses"), 6);
}

/* The same warm load with word granularity: 17 accesses, one a cycle from 200, the last hit
 * done at 216 + 3 = 219. */
Test(mem_unit, constant_cache_by_word_takes_one_access_per_distinct_word)
{
	issue_at(10, const_3_lines_17_words(), 1);
	run_to(200);
	cr_assert_eq(H.n_done, 1);
	uint64_t before = stat("sm.0.l1c.accesses");
	issue_at(200, const_3_lines_17_words(), 2);
	run_all();
	cr_assert_eq(H.n_done, 2);
	cr_expect_eq(H.done_ps[1], 219 * 1000);
	cr_expect_eq(stat("sm.0.l1c.accesses") - before, 17);
}

/* l1c.mshr_entries = 2: the same cold load's lines A and B miss at 10 and 11 and take the two
 * entries the L1C may hold; C waits in the stage until A's fill frees one at 51 (the fill comes
 * first in the tick), misses then and is injected in the same tick: at the L2 at 61, back at
 * 91. Without the cap it was done at 53. */
Test(mem_unit, constant_misses_wait_for_the_l1c_mshr_entries)
{
	teardown();
	static const char *const ov[] = {"gpu.memory.l1c.mshr_entries=2", NULL};
	extra_overrides = ov;
	setup_with("gpu.memory.l1c.access_granularity=line", true);
	extra_overrides = NULL;
	issue_at(10, const_3_lines_17_words(), 1);
	run_all();
	cr_assert_eq(H.n_done, 1);
	cr_expect_eq(H.done_ps[0], 91 * 1000);
	cr_expect_eq(stat("sm.0.l1c.misses"), 3);
	cr_expect_eq(stat("sm.0.mem.mshr_stall_cycles"), 51 - 12); /* C waited 12..50 */
}

/* The cap is the L1C's alone: with one entry for it, held by a constant miss from 10, a global
 * load at 11 misses into another entry (injected at 12, done at 52). A cap above the unit's 4
 * entries is an error. */
Test(mem_unit, the_l1c_mshr_cap_leaves_the_l1d_its_entries)
{
	teardown();
	static const char *const ov[] = {"gpu.memory.l1c.mshr_entries=1", NULL};
	extra_overrides = ov;
	setup_with(NULL, true);
	extra_overrides = NULL;
	issue_at(10, inst(WI_MEM_LOAD, WI_SPACE_CONST, 1, 0x4000, 4), 1);
	issue_at(11, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x8000, 4), 2);
	run_all();
	cr_assert_eq(H.n_done, 2);
	cr_expect_eq(H.done_ps[0], 51 * 1000);
	cr_expect_eq(H.done_ps[1], 52 * 1000);
	teardown();
	expect_unit_refused("gpu.memory.l1c.mshr_entries=5", "gpu.memory.l1c.mshr_entries");
	setup(); /* for the suite's fini */
}

/* gtx480 and m2090 access the L1C by line with two MSHR entries for it (their l1.cfg; L1C hit
 * latency 1): the cold load is done at 91 as above, the warm one at 100 hits at 100, 101, 102
 * and is done at 103 (by word: 117). */
static void machine_constant_by_line(const char *name)
{
	teardown();
	setup_machine(name);
	issue_at(10, const_3_lines_17_words(), 1);
	run_to(100);
	cr_assert_eq(H.n_done, 1, "%s", name);
	cr_expect_eq(H.done_ps[0], 91 * 1000, "%s", name);
	issue_at(100, const_3_lines_17_words(), 2);
	run_all();
	cr_expect_eq(H.done_ps[1], 103 * 1000, "%s", name);
	cr_expect_eq(stat("sm.0.l1c.accesses"), 6, "%s", name);
}

Test(mem_unit, gtx480_and_m2090_access_the_constant_cache_by_line)
{
	machine_constant_by_line("gtx480");
	machine_constant_by_line("m2090");
}

/* 16-byte constant loads at distinct addresses: 4 words each, 128 requests for 32 lanes, more
 * than the refusal memo's entry holds (it stores 2 per lane). Refused while the MSHRs are full
 * (the token indexes the memo's last entry, so an overflow would run off its array: ASan),
 * retried, then accepted once fills free them; every word is counted. */
Test(mem_unit, wide_constant_load_refused_and_retried_beyond_the_memo)
{
	for (uint64_t i = 0; i < 4; i++) {
		run_to(10 + i);
		cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x10000 + i * 64, 4), i, 10 + i));
	}
	uint64_t token = 63u << 8;
	uint64_t c = 14;
	for (; c < 200; c++) {
		run_to(c);
		const struct warp_inst *wi = inst(WI_MEM_LOAD, WI_SPACE_CONST, 32, 0x4000, 16);
		H.wi.access_bytes = 16;
		if (mem_unit_try_issue(H.mu, wi, token, c))
			break;
	}
	cr_assert_lt(c, 200, "never accepted");
	cr_expect_gt(c, 14);
	cr_expect_gt(stat("sm.0.mem.mshr_full_stalls"), 1);
	run_all();
	cr_expect_eq(H.n_done, 5);
	cr_expect_eq(stat("sm.0.mem.line_accesses"), 4 + 128);
}

/* A cache geometry that does not fit is reported at the setting's file and line. */
Test(mem_unit, bad_l1_geometry_names_setting_and_line)
{
	teardown();
	struct sim_error err = {0};
	struct sim_clock clk = {.name = "core", .freq_mhz = 1000};
	struct sim_config sc = {.seed = 1};
	struct sim *sim = sim_create(&sc, &err);
	sim_clock_add(sim, &clk, &err);
	struct cfg *cfg = cfg_create();
	mem_unit_cfg_define(cfg, &err);
	cr_assert_eq(cfg_load_string(cfg, "bad.cfg", "gpu: { memory: {\n model = \"perfect-l1\";\n l1d: { size_kb = 3; }; }; };", &err), 0);
	struct mem_unit_ports ports = {.done = on_done, .sm_ctx = &H};
	cr_expect_null(mem_unit_create(cfg, sim, NULL, 0, &clk, &ports, &err));
	cr_expect_eq(err.code, SIM_ERR_CONFIG);
	cr_expect_str_eq(err.setting, "gpu.memory.l1d.size_kb");
	cr_expect_str_eq(err.file, "bad.cfg");
	cr_expect_eq(err.line, 3);
	cfg_destroy(cfg);
	sim_destroy(sim);
}

/* Shared memory, 32 banks x 4 B, latency 7: stride 8 B is a 2-way conflict: 2 passes, done at
 * 10 + 1 + 7 = 18, banks busy through cycle 11 (a shared access at 11 is refused, at 12 taken);
 * conflict-free at 12: done at 19. */
Test(mem_unit, shared_two_way_conflict_costs_two_passes)
{
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_SHARED, 32, 0, 8), 1, 10));
	run_to(11);
	cr_expect_not(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_SHARED, 32, 0, 4), 2, 11));
	run_to(12);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_SHARED, 32, 0, 4), 2, 12));
	run_all();
	cr_expect_eq(H.done_ps[0], 18 * 1000);
	cr_expect_eq(H.done_ps[1], 19 * 1000);
	cr_expect_eq(stat("sm.0.shmem.bank_conflict_cycles"), 1);
	cr_expect_eq(stat("sm.0.shmem.busy_stalls"), 1);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_READ], 0);
}

/* perfect-l1: the first-touch load hits: done at 10 + 5; nothing crosses the NoC. */
Test(mem_unit, perfect_l1_every_access_hits)
{
	teardown();
	setup_with("gpu.memory.model=perfect-l1", false);
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x7000, 4), 1, 10));
	run_to(11);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_STORE, WI_SPACE_GLOBAL, 1, 0x8000, 4), 2, 11));
	run_all();
	cr_expect_eq(H.done_ps[0], 15 * 1000);
	cr_expect_eq(H.done_ps[1], 16 * 1000);
	cr_expect_eq(stat("sm.0.mem.reads_sent"), 0);
	cr_expect_eq(n_missed, 0, "every access hits: no miss reported");
}

/* fixed-latency 100: even a 32-line access completes at exactly 10 + 100, without the NoC. */
Test(mem_unit, fixed_latency_completes_after_fixed_cycles)
{
	teardown();
	setup_with("gpu.memory.model=fixed-latency", false);
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0, 64), 1, 10));
	run_all();
	cr_expect_eq(H.done_ps[0], 110 * 1000);
	cr_expect_eq(stat("sm.0.mem.reads_sent"), 0);
	cr_expect_eq(n_missed, 1, "the fixed latency stands for L2/DRAM: reported");
}

/* perfect-l2: the SM side is unchanged (the L2 hits): the miss still crosses the NoC, 41 cycles. */
Test(mem_unit, perfect_l2_sends_misses_as_usual)
{
	teardown();
	setup_with("gpu.memory.model=perfect-l2", true);
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x9000, 4), 1, 10));
	run_all();
	cr_expect_eq(H.done_ps[0], 51 * 1000);
	cr_expect_eq(stat("sm.0.mem.reads_sent"), 1);
}

/* Channel choice follows the address map: 2 KB interleave over 2 channels, so 0x800 is
 * channel 1. */
Test(mem_unit, misses_go_to_the_mapped_channel)
{
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x800, 4), 1, 10));
	run_to(11);
	int dst = -1;
	for (size_t i = 0; i < SIM_ARRAY_LEN(H.fn.pk); i++)
		if (H.fn.pk[i].used)
			dst = H.fn.pk[i].dst;
	cr_expect_eq(dst, 2); /* mc_node[1] */
	run_all();
}

Test(mem_unit, full_model_without_noc_is_a_config_error)
{
	teardown();
	struct sim_error err = {0};
	struct sim_clock clk = {.name = "core", .freq_mhz = 1000};
	struct sim_config sc = {.seed = 1};
	struct sim *sim = sim_create(&sc, &err);
	sim_clock_add(sim, &clk, &err);
	struct cfg *cfg = cfg_create();
	mem_unit_cfg_define(cfg, &err);
	if (!cfg_is_defined(cfg, "gpu.dram.channels"))
		cfg_define(cfg, dram_keys, SIM_ARRAY_LEN(dram_keys), &err);
	cfg_load_string(cfg, "m.cfg", "gpu: { memory: { model = \"full\"; }; };", &err);
	struct mem_unit_ports ports = {.done = on_done, .sm_ctx = &H};
	cr_expect_null(mem_unit_create(cfg, sim, NULL, 0, &clk, &ports, &err));
	cr_expect_eq(err.code, SIM_ERR_CONFIG);
	cr_expect_str_eq(err.setting, "gpu.memory.model");
	cr_expect_eq(err.line, 1);
	cfg_destroy(cfg);
	sim_destroy(sim);
}

/* Same inputs, same stats document. */
static char *scripted_run(void)
{
	setup();
	for (uint64_t i = 0; i < 12; i++) {
		run_to(10 + 3 * i);
		mem_unit_try_issue(H.mu, inst(i % 3 ? WI_MEM_LOAD : WI_MEM_STORE, WI_SPACE_GLOBAL, 32, (i % 5) * 512, 8 + i), i,
				   10 + 3 * i);
	}
	run_all();
	char *j = stats_to_json_string(H.st);
	teardown();
	return j;
}

Test(mem_unit, same_inputs_give_identical_stats)
{
	teardown();
	char *a = scripted_run();
	char *b = scripted_run();
	cr_expect_str_eq(a, b);
	free(a);
	free(b);
}

/* The machines' l1.cfg fragments load, build, and coalesce with their line size: 32 lanes x
 * 4 B = 128 B is 2 requests with owl-28's 64 B lines, 1 with gtx480's and m2090's 128 B. */
static void machine(const char *name, double want_reqs, int64_t want_l1d_kb)
{
	teardown();
	setup_machine(name);
	cr_expect_eq(cfg_int(H.cfg, "gpu.memory.l1d.size_kb"), want_l1d_kb);
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 32, 0x1000, 4), 1, 10));
	run_all();
	cr_expect_float_eq(statd("sm.0.mem.requests_per_inst"), want_reqs, 1e-9, "%s", name);
}

Test(mem_unit, machine_configs_load_and_coalesce_by_line_size)
{
	machine("owl-28", 2.0, 32);
	machine("gtx480", 1.0, 16);
	machine("m2090", 1.0, 16);
}

/* ---- with the real L2 slice / memory controller (memory/mem_channel.h) behind the fake NoC -- */

static void setup_channels(const char *const *ov)
{
	teardown();
	with_channels = true;
	extra_overrides = ov;
	setup_text(NULL, true, NULL);
	with_channels = false;
	extra_overrides = NULL;
}

/* perfect-l2, every clock at 1000 MHz, L2 hit latency 30: miss at 10, injected 11, at the slice
 * 21, which takes it in that cycle and replies 30 later at 51, ejected at 61. Nothing reaches
 * DRAM. */
Test(mem_unit, with_real_l2_perfect_l2_round_trip)
{
	static const char *const ov[] = {"gpu.memory.model=perfect-l2", "gpu.dram.channels=2",
					 "gpu.l2.clock_mhz=1000", "gpu.dram.clock_mhz=1000",
					 "gpu.l2.hit_latency_cycles=30", NULL};
	setup_channels(ov);
	run_to(10);
	cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, 0x800, 4), 1, 10));
	run_all();
	cr_assert_eq(H.n_done, 1);
	cr_expect_eq(H.done_ps[0], 61 * 1000);
	cr_expect_eq(stat("mc.1.reads"), 0);
}

/* gpu.l2.write_ack, worked by hand on perfect-l2 as above (clocks 1000 MHz, L2 hit latency 30,
 * write-evict L1D of 64 B lines): a 32-lane global store of 4 B words from 0x800 covers lines
 * 0x800 and 0x840 (both channel 1): two WRITE requests of 8 + 64 B, pushed by the L1 stage at
 * 10 and 11 and injected at 11 and 12. With acks (GPGPU-Sim 3.x/4.x) they reach slice 1 at 21
 * and 22, each is answered 30 later (51, 52) with an 8-byte ack packet (one flit of any NoC),
 * ejected 10 later (61, 62): the store is done at 62, each request 51 cycles from the L1 stage
 * to its ack, and 4 packets of 2 x 72 + 2 x 8 = 160 bytes crossed the NoC, 2 of them replies.
 * Without (GPGPU-Sim 2.x): the store is done when the NoC took its last request (12; each 1
 * cycle from the L1 stage), the slice takes both off its reply queue at 51 and 52 sending
 * nothing, and 2 packets of 144 bytes crossed, no reply; all is quiet at 52, not 62. */
static void store_two_lines(bool ack)
{
	static const char *const ov_ack[] = {"gpu.memory.model=perfect-l2", "gpu.dram.channels=2", "gpu.l2.clock_mhz=1000",
					     "gpu.dram.clock_mhz=1000", "gpu.l2.hit_latency_cycles=30",
					     "gpu.memory.l1d.write_policy=write-evict", "gpu.l2.write_ack=true", NULL};
	static const char *const ov_none[] = {"gpu.memory.model=perfect-l2", "gpu.dram.channels=2", "gpu.l2.clock_mhz=1000",
					      "gpu.dram.clock_mhz=1000", "gpu.l2.hit_latency_cycles=30",
					      "gpu.memory.l1d.write_policy=write-evict", "gpu.l2.write_ack=false", NULL};
	setup_channels(ack ? ov_ack : ov_none);
	issue_at(10, inst(WI_MEM_STORE, WI_SPACE_GLOBAL, 32, 0x800, 4), 1);
	run_all();
	cr_assert_eq(H.n_done, 1);
	cr_expect_eq(H.done_ps[0], (ack ? 62 : 12) * 1000, "ack %d: done at %llu ps", ack,
		     (unsigned long long)H.done_ps[0]);
	cr_expect_eq(stat("sm.0.mem.writes_sent"), 2);
	cr_expect_eq(stat("l2.1.requests"), 2);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_WRITE], ack ? 4 : 2);
	cr_expect_eq(H.fn.req_bytes[MEM_REQ_WRITE], ack ? 160 : 144);
	cr_expect_eq(stat("l2.1.unacked_writes"), ack ? 0 : 2);
	cr_expect_float_eq(statd("sm.0.mem.lat.store"), ack ? 51.0 : 1.0, 1e-9, "ack %d: %f", ack, statd("sm.0.mem.lat.store"));
	cr_expect_eq(sim_now_ps(H.sim), (ack ? 62 : 52) * 1000, "ack %d: quiet at %llu ps", ack,
		     (unsigned long long)sim_now_ps(H.sim));
}

Test(mem_unit, write_acks_on_and_off)
{
	store_two_lines(true);
	store_two_lines(false);
}

/* Full model on owl-28's memory side (L2 650 MHz, GDDR3 800 MHz): a cold load misses in L1
 * and L2 and goes to DRAM. Every accepted load completes, and the breakdown parts (SM queue,
 * NoC, L2, MC queue, DRAM) add up to the round trip. */
Test(mem_unit, with_real_dram_breakdown_adds_up)
{
	static const char *const ov[] = {"gpu.dram.channels=2", "gpu.memory.mshr.entries=16", NULL};
	setup_channels(ov);
	for (uint64_t i = 0; i < 8; i++) {
		run_to(10 + i);
		cr_assert(mem_unit_try_issue(H.mu, inst(WI_MEM_LOAD, WI_SPACE_GLOBAL, 1, i * 4096 + (i % 2) * 2048, 4), i, 10 + i));
	}
	run_all();
	cr_assert_eq(H.n_done, 8);
	double total = statd("sm.0.mem.lat.total");
	double parts = statd("sm.0.mem.lat.sm_queue") + statd("sm.0.mem.lat.noc") + statd("sm.0.mem.lat.l2") +
		       statd("sm.0.mem.lat.mc_queue") + statd("sm.0.mem.lat.dram");
	cr_expect_float_eq(parts, total, 1e-6, "parts %f total %f", parts, total);
	/* DRAM part runs from the column command (mem_req.h MEM_T_DRAM_ISSUE): at least tCL = 10
	 * DRAM cycles at 800 MHz = 12.5 core cycles at 1 GHz. Every load opens a row first, so the
	 * MC part holds at least tRCD = 12 DRAM cycles = 15 core cycles. */
	cr_expect_geq(statd("sm.0.mem.lat.dram"), 12.5);
	cr_expect_geq(statd("sm.0.mem.lat.mc_queue"), 15.0);
	fprintf(stderr, "owl-28 memory side, fake 10-cycle NoC: load miss round trip %.1f core cycles "
		"(SM queue %.1f, NoC %.1f, L2 %.1f, MC queue %.1f, DRAM %.1f)\n", total,
		statd("sm.0.mem.lat.sm_queue"), statd("sm.0.mem.lat.noc"), statd("sm.0.mem.lat.l2"),
		statd("sm.0.mem.lat.mc_queue"), statd("sm.0.mem.lat.dram"));
}

/* GPGPU-Sim's dl1 'L' (LOCAL_WB_GLOBAL_WT) with 'N' (no write allocate), worked by hand on the
 * harness's L1D (8 sets x 2 ways x 64 B: lines 0x300, 0x500, 0x700, 0x900 all in set 4):
 * a local load of 0x300 misses at 10 (done 51); a local store to it at 60 hits and stays in the
 * L1, dirty, done after the hit latency (65), nothing sent; a local store to 0x900 at 70 misses
 * and goes below without allocating (injected 71, acked 40 later: 111); local loads of 0x500 at
 * 120 and 0x700 at 170 fill set 4, the second evicting 0x300 (LRU, dirty): one 72-byte
 * write-back; a global store to 0x500 at 220 hits and evicts it (write-evict), going below. */
Test(mem_unit, local_wb_global_evict_keeps_local_store_hits_in_l1)
{
	teardown();
	setup_with("gpu.memory.l1d.write_policy=local-wb-global-evict", true);
	issue_at(10, inst(WI_MEM_LOAD, WI_SPACE_LOCAL, 8, 0x300, 4), 1);
	issue_at(60, inst(WI_MEM_STORE, WI_SPACE_LOCAL, 8, 0x300, 4), 2);
	issue_at(70, inst(WI_MEM_STORE, WI_SPACE_LOCAL, 1, 0x900, 4), 3);
	issue_at(120, inst(WI_MEM_LOAD, WI_SPACE_LOCAL, 1, 0x500, 4), 4);
	issue_at(170, inst(WI_MEM_LOAD, WI_SPACE_LOCAL, 1, 0x700, 4), 5);
	issue_at(220, inst(WI_MEM_STORE, WI_SPACE_GLOBAL, 1, 0x500, 4), 6);
	run_all();
	cr_assert_eq(H.n_done, 6);
	cr_expect_eq(H.done_ps[0], 51 * 1000);
	cr_expect_eq(H.done_ps[1], 65 * 1000);
	cr_expect_eq(H.done_ps[2], 111 * 1000);
	cr_expect_eq(H.done_ps[5], 261 * 1000);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_WRITE], 2);      /* 0x900 and the global 0x500 */
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_WRITEBACK], 1);  /* 0x300 */
	cr_expect_eq(H.fn.req_bytes[MEM_REQ_WRITEBACK], 72);
	cr_expect_eq(stat("sm.0.l1d.dirty_evictions"), 1);
	cr_expect_eq(stat("sm.0.l1d.write_hits"), 2);
	cr_expect_eq(stat("sm.0.l1d.write_misses"), 1);
	cr_expect_eq(stat("sm.0.l1d.invalidations"), 1);
}

/* The same local store hit under plain write-evict (the policy before): the line is dropped
 * and the store goes below (done 101 = injected 61 + 40), so the mechanism is what keeps it. */
Test(mem_unit, write_evict_sends_local_store_hits_below)
{
	teardown();
	setup_with("gpu.memory.l1d.write_policy=write-evict", true);
	issue_at(10, inst(WI_MEM_LOAD, WI_SPACE_LOCAL, 8, 0x300, 4), 1);
	issue_at(60, inst(WI_MEM_STORE, WI_SPACE_LOCAL, 8, 0x300, 4), 2);
	run_all();
	cr_expect_eq(H.done_ps[1], 101 * 1000);
	cr_expect_eq(H.fn.req_pkts[MEM_REQ_WRITE], 1);
	cr_expect_eq(stat("sm.0.l1d.invalidations"), 1);
}
