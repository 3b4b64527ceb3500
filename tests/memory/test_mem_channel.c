/* SPDX-License-Identifier: MIT */
/* Tests memory/mem_channel.h (L2 slice + MC as engine components) behind a fake zero-latency NoC. */
#include "mem_channel_harness.h"

TestSuite(mem_channel, .fini = teardown);
TestSuite(mem_channel_cfg);

Test(mem_channel, read_miss_goes_to_dram_and_replies_with_data)
{
	build(NULL);
	struct mem_req *r = send(1, MEM_REQ_READ, 0x0);
	run();
	/* L2 cycle 0 misses; after the 20-cycle tag lookup (gpu.l2.miss_latency_cycles) it goes
	 * to the MC at L2 cycle 20 = 30769 ps, i.e. from MC cycle ceil(30769 / 1250) = 25:
	 * ACT@25, RD@37 (tRCD 12), data done at 37 + 10 + 4 = 51 = 63750 ps; the slice's next
	 * edge is L2 cycle ceil(63750 x 650 / 10^6) = ceil(41.44) = 42, at 42 x 10^6 / 650 =
	 * 64615 ps. Reply = 8 B header + 64 B line. */
	cr_assert_eq(NOC.n[0][NOC_CLASS_REPLY], 1);
	cr_assert_eq(reply(0)->payload, r);
	cr_assert_eq(reply(0)->size, 72);
	cr_assert(r->is_reply);
	cr_assert_eq(r->t_ps[MEM_T_MC_ENQUEUE], sim_clock_edge_ps(&L2CLK, 20));
	cr_assert_eq(r->t_ps[MEM_T_DRAM_DONE], 63750);
	cr_assert_eq(r->t_ps[MEM_T_DRAM_ISSUE], 37 * 1250);
	cr_assert_eq(r->t_ps[MEM_T_L2_REPLY], sim_clock_edge_ps(&L2CLK, 42));
	cr_assert_eq(r->t_ps[MEM_T_L2_REPLY], 64615);
	cr_assert_eq(stat("mc.0.reads"), 1);
	cr_assert_eq(stat("l2.0.misses"), 1);
	cr_assert_eq(mem_channel_outstanding(CH), 0);
}

/* gpu.l2.model = none (the large-warp paper's machine has no L2): two reads of one line both go
 * to the DRAM (nothing merges, nothing is cached). The first as in the test above: MC at L2
 * cycle 20, ACT@25, RD@37, done 51. The second leaves the slice a cycle later (one request per
 * L2 cycle): L2 cycle 21 = 32307 ps, MC cycle 26; the row is open, RD at 37 + max(tCCD 2,
 * burst 4) = 41, done 41 + 10 + 4 = 55. A write goes on too, its ack after the DRAM: ACT@25,
 * WR@37, data done 37 + tWL 7 + 4 = 48 = 60000 ps. With the L2 the second read merges (one
 * DRAM read) and the write is acked by the slice (no DRAM write). */
Test(mem_channel, without_an_l2_every_request_goes_to_the_dram)
{
	const char *const none[] = {"gpu.l2.model=none", NULL};
	build(none);
	struct mem_req *a = send(1, MEM_REQ_READ, 0x0), *b = send(2, MEM_REQ_READ, 0x0);
	run();
	cr_assert_eq(NOC.n[0][NOC_CLASS_REPLY], 2);
	cr_assert_eq(a->t_ps[MEM_T_DRAM_DONE], 51 * 1250);
	cr_assert_eq(b->t_ps[MEM_T_MC_ENQUEUE], sim_clock_edge_ps(&L2CLK, 21));
	cr_assert_eq(b->t_ps[MEM_T_DRAM_DONE], 55 * 1250);
	cr_assert_eq(reply(1)->size, 72);
	cr_assert_eq(stat("mc.0.reads"), 2);
	cr_assert_eq(stat("l2.0.hits") + stat("l2.0.misses"), 0);
	cr_assert_eq(mem_channel_outstanding(CH), 0);
	teardown();
	build(none);
	struct mem_req *w = send(1, MEM_REQ_WRITE, 0x0);
	run();
	cr_assert_eq(NOC.n[0][NOC_CLASS_REPLY], 1);
	cr_assert_eq(reply(0)->size, 8);
	cr_assert_eq(w->t_ps[MEM_T_DRAM_DONE], 48 * 1250);
	cr_assert_geq(w->t_ps[MEM_T_L2_REPLY], 48 * 1250);
	cr_assert_eq(stat("mc.0.writes"), 1);
	teardown();
	build(NULL);
	send(1, MEM_REQ_READ, 0x0);
	send(2, MEM_REQ_READ, 0x0);
	send(3, MEM_REQ_WRITE, 0x1000);
	run();
	cr_assert_eq(NOC.n[0][NOC_CLASS_REPLY], 3);
	cr_assert_eq(stat("mc.0.reads"), 1);
	cr_assert_eq(stat("mc.0.writes"), 0);
}

Test(mem_channel_cfg, no_l2_cannot_be_a_perfect_l2)
{
	struct sim_error err = {0};
	struct cfg *c = cfg_create();
	cr_assert_eq(mem_channel_cfg_define(c, &err), 0);
	cr_assert_eq(cfg_define(c, model_key, 1, &err), 0);
	cr_assert_eq(cfg_set_override(c, "gpu.l2.model=none", &err), 0, "%s", err.msg);
	cr_assert_eq(cfg_set_override(c, "gpu.memory.model=perfect-l2", &err), 0, "%s", err.msg);
	struct sim_config sc = {.seed = 1};
	struct sim *sim = sim_create(&sc, &err);
	cr_assert_null(mem_channel_create(c, sim, NULL, 0, NULL, &err));
	cr_assert_eq(err.code, SIM_ERR_CONFIG);
	cr_assert_str_eq(err.setting, "gpu.l2.model", "%s", err.msg);
	sim_destroy(sim);
	cfg_destroy(c);
}

/* gpu.l2.fill_request_bytes: the line goes to the DRAM in pieces of whole bursts. owl-28's
 * burst is 8 B x 4 = 32 B in 2 cycles, a 64 B line 2 bursts (4 cycles, the test above). With
 * 16 B requests (GPGPU-Sim's sectors, scaled down) each of the 4 pieces still takes a burst:
 * 8 cycles, data done at 37 + 10 + 8 = 55 = 68750 ps. 32 B requests cost as a whole line. */
Test(mem_channel, dram_requests_smaller_than_a_burst_hold_the_bus_a_burst)
{
	const char *const sixteen[] = {"gpu.l2.fill_request_bytes=16", NULL};
	build(sixteen);
	struct mem_req *r = send(1, MEM_REQ_READ, 0x0);
	run();
	cr_assert_eq(r->t_ps[MEM_T_DRAM_ISSUE], 37 * 1250);
	cr_assert_eq(r->t_ps[MEM_T_DRAM_DONE], 55 * 1250);
	cr_assert_eq(stat("mc.0.reads"), 1);
	cr_assert_eq(stat("mc.0.bus_busy_cycles"), 8);
	teardown();
	const char *const thirty_two[] = {"gpu.l2.fill_request_bytes=32", NULL};
	build(thirty_two);
	r = send(1, MEM_REQ_READ, 0x0);
	run();
	cr_assert_eq(r->t_ps[MEM_T_DRAM_DONE], 51 * 1250);
}

Test(mem_channel_cfg, fill_request_bytes_must_divide_the_line)
{
	const char *const bad[][2] = {{"gpu.l2.fill_request_bytes=48", NULL}, {"gpu.l2.fill_request_bytes=128", NULL}};
	for (int k = 0; k < 2; k++) {
		struct sim_error err = {0};
		struct cfg *c = cfg_create();
		cr_assert_eq(mem_channel_cfg_define(c, &err), 0);
		cr_assert_eq(cfg_set_override(c, bad[k][0], &err), 0, "%s", err.msg);
		struct sim_config sc = {.seed = 1};
		struct sim *sim = sim_create(&sc, &err);
		cr_assert_null(mem_channel_create(c, sim, NULL, 0, NULL, &err));
		cr_assert_eq(err.code, SIM_ERR_CONFIG);
		cr_assert_str_eq(err.setting, "gpu.l2.fill_request_bytes", "%s", err.msg);
		sim_destroy(sim);
		cfg_destroy(c);
	}
}

/* gpu.l2.fill_on_copy (GPGPU-Sim's perf_sim_memcpy): a copied line is in the L2, clean: a
 * read of it hits and never reaches the DRAM; a copy over a set full of dirty lines drops the
 * LRU one without a write-back. */
Test(mem_channel, a_copied_line_hits_and_displaces_dirty_lines_without_write_back)
{
	build(NULL);
	mem_channel_copy_fill(CH, 0x40);
	struct mem_req *r = send(1, MEM_REQ_READ, 0x40);
	run();
	cr_assert(r->is_reply);
	cr_assert_eq(stat("l2.0.hits"), 1);
	cr_assert_eq(stat("mc.0.reads"), 0);
	cr_assert_eq(stat("l2.0.copy_fills"), 1);
	teardown();
	/* owl-28's slice: 512 KB, 16 ways, 64 B lines = 512 sets; lines 512 x 64 B apart share
	 * a set under the linear index. Write 16 of them (dirty), then copy a 17th. */
	const char *const lin[] = {"gpu.l2.set_index=linear", NULL};
	build(lin);
	for (int i = 0; i < 16; i++)
		send(i + 1, MEM_REQ_WRITE, (uint64_t)i * 512 * 64);
	run();
	mem_channel_copy_fill(CH, 16ull * 512 * 64);
	cr_assert_eq(stat("l2.0.copy_dirty_drops"), 1);
	cr_assert_eq(stat("mc.0.writes"), 0);
}

/* gpu.l2.sub_partitions (GPGPU-Sim's -gpgpu_n_sub_partition_per_mchannel): the channel's two
 * slices each take one request per L2 cycle at their own node. Eight hits, four per
 * sub-partition (owl-28's map "BB" + 11 C: the sub-partition is bank bit 0 = local bit 11, so
 * 0x0.. and 0x800..), all arriving at time 0: each slice takes its four at L2 cycles 0..3 and
 * replies 20 cycles later (gpu.l2.hit_latency_cycles), the last at cycle 23; one slice takes the
 * eight at cycles 0..7, the last reply at cycle 27. */
static uint64_t eight_hits_last_reply_cycle(const char *const *overrides, uint32_t n_sub)
{
	build(overrides);
	static const uint64_t addr[8] = {0x0, 0x800, 0x40, 0x840, 0x80, 0x880, 0xC0, 0x8C0};
	struct mem_addrmap m;
	struct sim_error err = {0};
	cr_assert_eq(mem_addrmap_init(&m, CFG, &err), 0, "%s", err.msg);
	for (int i = 0; i < 8; i++)
		mem_channel_copy_fill(CH, addr[i]);
	for (int i = 0; i < 8; i++) {
		struct mem_req *r = &REQ[i];
		memset(r, 0, sizeof *r);
		r->id = (uint64_t)i;
		r->addr = addr[i];
		r->size_bytes = 64;
		r->kind = MEM_REQ_READ;
		cr_assert_eq(mem_addr_slice(&m, addr[i]), n_sub == 2 ? (uint32_t)i % 2 : 0);
		cr_assert(noc_try_inject(&NOC.base, 0, NOC.mc_node[mem_addr_slice(&m, addr[i])], NOC_CLASS_REQ, 8, r));
	}
	run();
	uint64_t last = 0;
	for (int i = 0; i < 8; i++) {
		/* request i is the (i / n_sub)-th of its slice */
		uint64_t want = 20 + (uint64_t)(n_sub == 2 ? i / 2 : i);
		cr_assert_eq(REQ[i].t_ps[MEM_T_L2_REPLY], sim_clock_edge_ps(&L2CLK, want), "request %d", i);
		last = want > last ? want : last;
	}
	cr_assert_eq(stat("mc.0.reads"), 0);
	return last;
}

Test(mem_channel, two_sub_partitions_serve_a_channel_in_parallel)
{
	const char *const two[] = {"gpu.l2.sub_partitions=2", NULL};
	cr_assert_eq(eight_hits_last_reply_cycle(two, 2), 23);
	cr_assert_eq(stat("l2.0.hits"), 4);
	cr_assert_eq(stat("l2.1.hits"), 4);
	teardown();
	cr_assert_eq(eight_hits_last_reply_cycle(NULL, 1), 27);
	cr_assert_eq(stat("l2.0.hits"), 8);
}

Test(mem_channel, read_hit_replies_after_hit_latency)
{
	build(NULL);
	send(1, MEM_REQ_READ, 0x40);
	run();
	uint64_t t0 = sim_now_ps(SIM);
	/* The run ended on the slice's reply at an L2 edge; the slice did that cycle's work, so
	 * the new request is taken at the next L2 cycle. */
	uint64_t c0 = sim_clock_cycle_at_or_after(&L2CLK, t0);
	cr_assert_eq(sim_clock_edge_ps(&L2CLK, c0), t0);
	c0++;
	struct mem_req *r = send(2, MEM_REQ_READ, 0x40);
	run();
	/* hit at L2 cycle c0, reply 20 L2 cycles (gpu.l2.hit_latency_cycles) later */
	cr_assert_eq(r->t_ps[MEM_T_L2_REPLY], sim_clock_edge_ps(&L2CLK, c0 + 20));
	cr_assert_eq(stat("l2.0.hits"), 1);
	cr_assert_eq(stat("mc.0.reads"), 1);
}

Test(mem_channel, second_miss_to_a_line_merges)
{
	build(NULL);
	send(1, MEM_REQ_READ, 0x80);
	send(2, MEM_REQ_READ, 0x80);
	run();
	cr_assert_eq(NOC.n[0][NOC_CLASS_REPLY], 2);
	cr_assert_eq(stat("mc.0.reads"), 1);
	cr_assert_eq(stat("l2.0.mshr_merges"), 1);
}

Test(mem_channel, write_is_acked_with_header_only)
{
	build(NULL);
	struct mem_req *w = send(1, MEM_REQ_WRITE, 0x100);
	run();
	/* write-allocate without fetch: no DRAM traffic, 8-byte ack */
	cr_assert_eq(reply(0)->payload, w);
	cr_assert_eq(reply(0)->size, 8);
	cr_assert_eq(stat("mc.0.reads"), 0);
}

/* gpu.l2.reply_header_bytes = 0 (GPGPU-Sim 2.x, owl-28): a read's reply is its 64 B of data
 * alone, an atomic's its 4 B; a write's ack keeps its 8-byte header. */
Test(mem_channel, reply_header_bytes_sizes_data_replies_only)
{
	static const char *const ov[] = {"gpu.l2.reply_header_bytes=0", NULL};
	build(ov);
	struct mem_req *r = send(1, MEM_REQ_READ, 0x0);
	struct mem_req *w = send(2, MEM_REQ_WRITE, 0x100);
	struct mem_req *a = send(3, MEM_REQ_ATOMIC, 0x200);
	a->size_bytes = 4;
	run();
	cr_assert_eq(NOC.n[0][NOC_CLASS_REPLY], 3);
	for (int i = 0; i < 3; i++) {
		struct fake_pkt *p = reply(i);
		uint32_t want = p->payload == r ? 64 : p->payload == w ? 8 : 4;
		cr_assert(p->payload == r || p->payload == w || p->payload == a);
		cr_assert_eq(p->size, want, "reply %d: %u bytes, want %u", i, p->size, want);
	}
}

Test(mem_channel, dirty_victim_is_written_back_to_dram)
{
	const char *ov[] = {"gpu.l2.size_kb=1", "gpu.l2.assoc=1", NULL};
	build(ov);
	/* 1 KB direct-mapped, 64 B lines: 16 sets; 0x0 and 0x400 share set 0 */
	send(1, MEM_REQ_WRITE, 0x0);
	run();
	send(2, MEM_REQ_READ, 0x400);
	run();
	cr_assert_eq(stat("l2.0.writebacks"), 1);
	cr_assert_eq(stat("mc.0.writes"), 1);
	cr_assert_eq(stat("mc.0.reads"), 1);
	cr_assert_eq(NOC.n[0][NOC_CLASS_REPLY], 2); /* the write-back itself sends no reply */
	cr_assert_eq(mem_channel_outstanding(CH), 0);
}

Test(mem_channel, atomic_is_done_at_l2_and_dirties_the_line)
{
	const char *ov[] = {"gpu.l2.size_kb=1", "gpu.l2.assoc=1", NULL};
	build(ov);
	struct mem_req *a = send(1, MEM_REQ_ATOMIC, 0x0);
	run();
	cr_assert_eq(reply(0)->payload, a);
	cr_assert_eq(reply(0)->size, 72);
	cr_assert_eq(stat("l2.0.atomics"), 1);
	send(2, MEM_REQ_READ, 0x400); /* evicts the atomically updated line */
	run();
	cr_assert_eq(stat("mc.0.writes"), 1);
}

Test(mem_channel, perfect_l2_never_touches_dram)
{
	const char *ov[] = {"gpu.memory.model=perfect-l2", NULL};
	build(ov);
	for (int i = 0; i < 8; i++)
		send(i, MEM_REQ_READ, (uint64_t)i * 4096);
	run();
	cr_assert_eq(NOC.n[0][NOC_CLASS_REPLY], 8);
	cr_assert_eq(stat("mc.0.reads"), 0);
	cr_assert_eq(stat("l2.0.requests"), 8);
}

Test(mem_channel, prefetched_line_used_later_counts_as_useful)
{
	const char *ov[] = {"gpu.dram.prefetch=opportunistic", NULL};
	build(ov);
	send(1, MEM_REQ_READ, 0x0);
	run();
	/* one channel, 2 KB rows: line 0's row holds lines 0..31; the other 31 are prefetched */
	cr_assert_eq(stat("mc.0.prefetch.issued"), 31);
	cr_assert_eq(stat("l2.0.prefetch.fills"), 31);
	send(2, MEM_REQ_READ, 0x40);
	send(3, MEM_REQ_READ, 0x80);
	run();
	cr_assert_eq(stat("l2.0.prefetch.useful"), 2);
	cr_assert_eq(stat("l2.0.hits"), 2);
	cr_assert_eq(stat("mc.0.reads"), 1);
	send(4, MEM_REQ_READ, 0x40); /* a second use is an ordinary hit */
	run();
	cr_assert_eq(stat("l2.0.prefetch.useful"), 2);
}

Test(mem_channel, full_mc_queue_back_pressures_the_slice)
{
	const char *ov[] = {"gpu.dram.queue_size=2", "gpu.l2.mshr_entries=4", NULL};
	build(ov);
	/* 12 misses to distinct lines in different rows of bank 0 (row = addr / 8 KB with one
	 * channel and 4 banks): the MC holds 2 at a time, the slice's 4 MSHRs hold the other
	 * misses on their way, and the rest wait in the NoC while the slice stalls; none lost.
	 * Then a 13th request, for line 0 again: by the time the slice reaches it the line is in,
	 * so it is a hit and never waits itself. */
	for (int i = 0; i < 12; i++)
		send(i, MEM_REQ_READ, (uint64_t)i * 8192);
	send(12, MEM_REQ_READ, 0x0);
	run();
	cr_assert_eq(NOC.n[0][NOC_CLASS_REPLY], 13);
	cr_assert_eq(stat("mc.0.reads"), 12);
	cr_assert_eq(stat("mc.0.row_conflicts"), 11);
	cr_assert_eq(stat("l2.0.hits"), 1);
	/* The slice takes one request a cycle from the NoC, where all 13 wait from the start, unless
	 * its head waits: so the stall cycles are exactly the cycles between the first and the last
	 * request's arrival beyond the 12 that taking them one a cycle needs. (How many that is, is
	 * the DRAM's service of 11 back-to-back row conflicts seen through two clock domains; the
	 * DRAM's own order and cycles are in test_dram.c.) */
	for (int i = 1; i < 13; i++)
		cr_assert_gt(REQ[i].t_ps[MEM_T_L2_ARRIVE], REQ[i - 1].t_ps[MEM_T_L2_ARRIVE], "in order");
	uint64_t first = sim_clock_cycle_at(&L2CLK, REQ[0].t_ps[MEM_T_L2_ARRIVE]);
	uint64_t last = sim_clock_cycle_at(&L2CLK, REQ[12].t_ps[MEM_T_L2_ARRIVE]);
	cr_assert_eq(stat("l2.0.stall_cycles"), last - first - 12, "arrivals %llu..%llu",
		     (unsigned long long)first, (unsigned long long)last);
	/* 12 misses cannot fit 4 MSHRs and 2 MC entries: the slice did wait */
	cr_assert_gt(last - first, 12);
	cr_assert_eq(mem_channel_outstanding(CH), 0);
}

/* ---- the machine files --------------------------------------------------------------------- */
#include <unistd.h>

/* Load configs/<machine>/memory.cfg as a top-level file would include it (includes resolve
 * from the top file's directory, so the machine folder is linked into a temporary one). */
static struct cfg *load_machine(const char *machine)
{
	struct sim_error err = {0};
	char dir[] = "/tmp/ws-memcfg-XXXXXX";
	cr_assert(mkdtemp(dir));
	char cwd[1024], src[1200], dst[1200], top[1200];
	cr_assert(getcwd(cwd, sizeof cwd));
	snprintf(src, sizeof src, "%s/configs/%s", cwd, machine);
	snprintf(dst, sizeof dst, "%s/%s", dir, machine);
	cr_assert_eq(symlink(src, dst), 0);
	snprintf(top, sizeof top, "%s/top.cfg", dir);
	FILE *f = fopen(top, "w");
	fprintf(f, "gpu: {\n@include \"%s/memory.cfg\"\n};\n", machine);
	fclose(f);
	struct cfg *c = cfg_create();
	cr_assert_eq(mem_unit_cfg_define(c, &err), 0);
	cr_assert_eq(mem_channel_cfg_define(c, &err), 0);
	int rc = cfg_load_file(c, top, &err);
	unlink(top);
	unlink(dst);
	rmdir(dir);
	cr_assert_eq(rc, 0, "%s:%d: %s", err.file, err.line, err.msg);
	return c;
}

static void check_machine(const char *machine, int64_t channels, double peak)
{
	struct sim_error err = {0};
	struct cfg *c = load_machine(machine);
	cr_assert_eq(cfg_int(c, "gpu.dram.channels"), channels);
	struct sim_config sc = {.seed = 1};
	struct sim *sim = sim_create(&sc, &err);
	struct mem_channel *ch = mem_channel_create(c, sim, NULL, (uint32_t)channels - 1, NULL, &err);
	cr_assert(ch, "%s", err.msg);
	struct mem_channel_summary s;
	mem_channel_summary(ch, &s);
	cr_assert_float_eq(s.peak_bytes_per_s, peak, 1e3);
	mem_channel_destroy(ch);
	sim_destroy(sim);
	cfg_destroy(c);
}

Test(mem_channel_cfg, owl28_file_loads_with_table1_values)
{
	/* 8 B bus x 2 (DDR) x 800 MHz = 12.8 GB/s per channel */
	check_machine("owl-28", 8, 12.8e9);
	struct cfg *c = load_machine("owl-28");
	cr_assert_eq(cfg_int(c, "gpu.dram.timing.rc_cycles"), 35);
	cr_assert_eq(cfg_int(c, "gpu.dram.queue_size"), 128);
	cr_assert_eq(cfg_int(c, "gpu.l2.size_kb"), 512);
	cfg_destroy(c);
}

Test(mem_channel_cfg, gtx480_file_loads)
{
	/* 8 B x 4 (QDR) x 924 MHz = 29.568 GB/s per channel */
	check_machine("gtx480", 6, 29.568e9);
}

Test(mem_channel_cfg, m2090_file_loads)
{
	/* 8 B x 4 x 925 MHz = 29.6 GB/s per channel, x 6 = 177.6 GB/s (PAWS Table I: 177) */
	check_machine("m2090", 6, 29.6e9);
}

Test(mem_channel_cfg, bad_local_map_names_file_and_line)
{
	struct sim_error err = {0};
	struct cfg *c = cfg_create();
	cr_assert_eq(mem_channel_cfg_define(c, &err), 0);
	cr_assert_eq(cfg_load_string(c, "bad.cfg", "gpu: {\n dram: {\n  addrmap: { local_map = \"BCC\"; };\n };\n};\n", &err), 0, "%s", err.msg);
	struct sim_config sc = {.seed = 1};
	struct sim *sim = sim_create(&sc, &err);
	cr_assert_null(mem_channel_create(c, sim, NULL, 0, NULL, &err));
	cr_assert_eq(err.code, SIM_ERR_CONFIG);
	char line[1024];
	sim_error_format(&err, line, sizeof line);
	cr_assert(strstr(line, "bad.cfg:3"), "%s", line);
	cr_assert(strstr(line, "gpu.dram.addrmap.local_map"), "%s", line);
	sim_destroy(sim);
	cfg_destroy(c);
}

/* ---- memtest ----------------------------------------------------------------------------- */
#include "memory/memtest.h"

static void memtest_owl(enum memtest_pattern p, struct memtest_result *r)
{
	struct sim_error err = {0};
	struct cfg *c = cfg_create();
	cr_assert_eq(mem_channel_cfg_define(c, &err), 0);
	struct memtest_opts o = {.pattern = p, .requests = 20000, .outstanding = 128, .seed = 1};
	cr_assert_eq(memtest_run(c, &o, r, &err), 0, "%s", err.msg);
	cfg_destroy(c);
	cr_assert_eq(r->requests, 20000);
	if (p != MEMTEST_RANDOM)
		cr_assert_eq(r->l2_misses, 20000); /* distinct lines: nothing hits */
	/* 12.8 GB/s peak: 8 B x 2 x 800 MHz */
	cr_assert_float_eq(r->peak_gbs, 12.8, 1e-9);
	cr_assert_leq(r->bandwidth_gbs, r->peak_gbs);
}

Test(memtest, stream_hits_every_row_31_times_in_32)
{
	struct memtest_result r;
	memtest_owl(MEMTEST_STREAM, &r);
	/* 20000 lines / 32 lines per 2 KB row = 625 rows opened once each: 4 first opens are
	 * misses (banks start closed), 621 close another row; the other 19375 reads hit. */
	cr_assert_eq(r.row_hits, 19375);
	cr_assert_eq(r.row_misses, 4);
	cr_assert_eq(r.row_conflicts, 621);
}

Test(memtest, rows_pattern_is_bound_by_trc)
{
	struct memtest_result r;
	memtest_owl(MEMTEST_ROWS, &r);
	/* every read opens a row; each bank can activate once per tRC = 35 cycles, so at best
	 * 4 banks x 64 B per 35 DRAM cycles at 800 MHz = 5.851 GB/s */
	cr_assert_eq(r.row_hits, 0);
	cr_assert_leq(r.bandwidth_gbs, 4 * 64 / 35.0 * 0.8 + 1e-9);
	cr_assert_gt(r.blp, 3.0);
}

Test(memtest, same_seed_same_result)
{
	struct memtest_result a, b;
	memtest_owl(MEMTEST_RANDOM, &a);
	memtest_owl(MEMTEST_RANDOM, &b);
	cr_assert_eq(a.row_hits, b.row_hits);
	cr_assert_eq(a.row_conflicts, b.row_conflicts);
	cr_assert_float_eq(a.avg_latency_ns, b.avg_latency_ns, 0.0);
	cr_assert_float_eq(a.sim_seconds, b.sim_seconds, 0.0);
}

Test(mem_channel_cfg, eight_banks_need_only_the_bank_count)
{
	/* OWL's sensitivity study: 8 banks per MC; the auto map gains a bank bit */
	const char *ov[] = {"gpu.dram.banks=8", NULL};
	build(ov);
	/* bank = local bits 11..13: 0x0, 0x800, ..., 0x3800 are banks 0..7 of row 0 */
	for (int i = 0; i < 8; i++)
		send(i, MEM_REQ_READ, (uint64_t)i * 0x800);
	run();
	for (int b = 0; b < 8; b++) {
		char name[64];
		snprintf(name, sizeof name, "mc.0.bank.%d.reads", b);
		cr_assert_eq(stat(name), 1, "%s", name);
	}
	teardown();
}

static char *scripted_run_json(void)
{
	const char *ov[] = {"gpu.dram.prefetch=opportunistic", "gpu.l2.size_kb=4", NULL};
	build(ov);
	uint64_t x = 7;
	for (int i = 0; i < 60; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		enum mem_req_kind k = (x >> 60) < 10 ? MEM_REQ_READ : (x >> 60) < 14 ? MEM_REQ_WRITE : MEM_REQ_ATOMIC;
		send(i, k, ((x >> 20) % 4096) * 64);
	}
	run();
	cr_assert_eq(NOC.n[0][NOC_CLASS_REPLY], 60);
	char *s = stats_to_json_string(ST);
	teardown();
	return s;
}

Test(mem_channel_cfg, same_input_same_stats_dump)
{
	char *a = scripted_run_json();
	char *b = scripted_run_json();
	cr_assert_str_eq(a, b);
	cr_assert(strstr(a, "\"mc.0.blp\""));
	free(a);
	free(b);
}

Test(mem_channel, request_ejectable_after_a_queued_tick_is_not_lost)
{
	build(NULL);
	NOC.delay_ps = 5000;
	send(1, MEM_REQ_WRITE, 0x0);
	/* ejectable at 5000 ps: L2 cycle ceil(5000 x 650 / 10^6) = 4; the ack waits 20 cycles,
	 * so the slice's next tick is queued at cycle 24 (36923 ps) */
	struct sim_error err = {0};
	cr_assert_eq(sim_run(SIM, 30000, stderr, &err), SIM_STOP_TIME_LIMIT);
	NOC.delay_ps = 10000;
	struct mem_req *r = send(2, MEM_REQ_WRITE, 0x40);
	/* ejectable at 40000 ps = L2 cycle 26, later than the tick queued at 24: the engine keeps
	 * only the earlier tick, so the slice must look again by itself */
	run();
	cr_assert_eq(NOC.n[0][NOC_CLASS_REPLY], 2);
	cr_assert_eq(r->t_ps[MEM_T_L2_ARRIVE], 40000);
}

Test(mem_channel, demand_behind_its_own_prefetch_counts_as_late)
{
	const char *ov[] = {"gpu.dram.prefetch=opportunistic", NULL};
	build(ov);
	send(1, MEM_REQ_READ, 0x0);
	/* line 0 reaches the MC at cycle 25 (see read_miss_goes_to_dram...): ACT@25, RD@37; no
	 * demand waits, so line 1 is prefetched at 41 (bus free at 51 - tCL) and fills the slice
	 * at 55 = 68750 ps. A read of line 1 sent at 52000 ps is taken at L2 cycle
	 * ceil(52000 x 650 / 10^6) = 34 (52308 ps), after the prefetch left the MC and before it
	 * arrived: it misses, so the prefetch is late and the line is not marked. */
	struct sim_error err = {0};
	cr_assert_eq(sim_run(SIM, 52000, stderr, &err), SIM_STOP_TIME_LIMIT);
	struct mem_req *r = send(2, MEM_REQ_READ, 0x40);
	run();
	cr_assert_eq(r->t_ps[MEM_T_L2_ARRIVE], 52307);
	cr_assert_eq(stat("l2.0.prefetch.late"), 1);
	cr_assert_eq(stat("l2.0.prefetch.useful"), 0);
	cr_assert_eq(stat("mc.0.reads"), 2);
	cr_assert_eq(NOC.n[0][NOC_CLASS_REPLY], 2);
}

/* ---- the L2 slice reaches all its sets (issue: the global address indexed them) ------------ */

/* Reads of the first `lines` lines that belong to channel ch, in address order, fed to the
 * slice through the fake NoC in batches it can hold; returns the MC reads they caused. */
static uint64_t read_footprint(struct mem_channel *ch_obj, struct stats *st, const struct mem_addrmap *m,
			       uint32_t ch, uint32_t line_bytes, uint32_t lines, struct mem_req *reqs)
{
	char name[64];
	snprintf(name, sizeof name, "mc.%u.reads", ch);
	uint64_t before = 0, after = 0;
	cr_assert(stats_get_u64(st, name, &before));
	uint64_t a = 0;
	for (uint32_t i = 0; i < lines;) {
		/* 64 a batch: a sectored slice (gtx480) answers a line with 4 packets, and the fake
		 * NoC holds FQ = 256 at the core */
		for (uint32_t b = 0; b < 64 && i < lines; a += line_bytes) {
			if (mem_addr_channel(m, a) != ch)
				continue;
			struct mem_req *r = &reqs[i];
			memset(r, 0, sizeof *r);
			r->id = i;
			r->addr = a;
			r->size_bytes = line_bytes;
			r->kind = MEM_REQ_READ;
			cr_assert(noc_try_inject(&NOC.base, 0, NOC.mc_node[mem_addr_slice(m, a)], NOC_CLASS_REQ, 8, r));
			i++;
			b++;
		}
		run();
		NOC.n[0][NOC_CLASS_REPLY] = 0; /* the core took the replies */
	}
	cr_assert_eq(mem_channel_outstanding(ch_obj), 0);
	cr_assert(stats_get_u64(st, name, &after));
	return after - before;
}

/* A footprint of 90% of a slice read twice: the second pass must come from the L2 (under 5% of
 * its lines from DRAM). With the global address as index, gtx480's 6 channels left 64 of 128
 * sets reachable (79% refetched), owl-28's 8 channels 64 of 512. The last channel is used, so
 * its channel digits are not zero. */
static void check_footprint_hits(const char *machine)
{
	struct sim_error err = {0};
	memset(&NOC, 0, sizeof NOC);
	NOC.base.ops = &fk_ops;
	NOC.base.n_nodes = 2;
	NOC.base.n_cores = 1;
	NOC.base.n_mcs = 1;
	NOC.base.core_node = NOC.core_node;
	NOC.base.mc_node = NOC.mc_node;
	NOC.mc_node[0] = 1;
	NOC.kind[0] = NOC_NODE_CORE;
	NOC.kind[1] = NOC_NODE_MC;
	NOC.base.node_kind = NOC.kind;
	NOC.base.sink = NOC.sinks;
	NOC.cap = FQ;
	CFG = load_machine(machine);
	fake_noc_place(&NOC, CFG);
	struct sim_config sc = {.seed = 1};
	SIM = sim_create(&sc, &err);
	NOC.sim = SIM;
	ST = stats_create();
	uint32_t ch = (uint32_t)cfg_int(CFG, "gpu.dram.channels") - 1;
	CH = mem_channel_create(CFG, SIM, ST, ch, &NOC.base, &err);
	cr_assert(CH, "%s", err.msg);
	struct mem_addrmap m;
	cr_assert_eq(mem_addrmap_init(&m, CFG, &err), 0, "%s", err.msg);
	uint32_t line = (uint32_t)cfg_int(CFG, "gpu.l2.line_bytes");
	uint32_t lines = (uint32_t)(cfg_int(CFG, "gpu.l2.size_kb") * 1024 / line *
				    cfg_int(CFG, "gpu.l2.sub_partitions") * 9 / 10); /* the channel's slices */
	struct mem_req *reqs = calloc(lines, sizeof *reqs);
	cr_assert(reqs);
	uint64_t first = read_footprint(CH, ST, &m, ch, line, lines, reqs);
	uint64_t second = read_footprint(CH, ST, &m, ch, line, lines, reqs);
	cr_assert_eq(first, lines, "%s: first pass misses every line", machine);
	cr_assert_lt(second * 20, lines, "%s: %lu of %u lines read from DRAM again", machine,
		     (unsigned long)second, lines);
	free(reqs);
}

Test(mem_channel, owl28_slice_holds_90_percent_of_its_capacity, .fini = teardown)
{
	check_footprint_hits("owl-28");
}

Test(mem_channel, gtx480_slice_holds_90_percent_of_its_capacity, .fini = teardown)
{
	check_footprint_hits("gtx480");
}

Test(mem_channel, m2090_slice_holds_90_percent_of_its_capacity, .fini = teardown)
{
	check_footprint_hits("m2090");
}

Test(mem_channel, write_back_of_a_victim_goes_to_its_global_address)
{
	/* 6 channels, 256 B interleave, a 1 KB direct-mapped slice of 128 B lines (8 sets) on
	 * channel 5, which owns chunks 6j + 5. Global 0x1D80 = chunk 29 (j = 4) + 0x80 is local
	 * 4 x 256 + 0x80 = 0x480, set (0x480 / 128) % 8 = 1; global 0x3580 = chunk 53 (j = 8) +
	 * 0x80 is local 0x880, set 1 too. Writing the first then reading the second evicts the
	 * first, dirty: its write-back must carry the global address again (a local one decodes
	 * to another channel, which the MC refuses), at the victim's own bank. */
	const char *ov[] = {"gpu.dram.channels=6", "gpu.dram.addrmap.chan_interleave_bytes=256",
			    "gpu.l2.size_kb=1", "gpu.l2.assoc=1", "gpu.l2.line_bytes=128", NULL};
	build_ch(ov, 5);
	struct mem_addrmap m;
	struct sim_error err = {0};
	cr_assert_eq(mem_addrmap_init(&m, CFG, &err), 0, "%s", err.msg);
	struct mem_dram_addr victim;
	mem_addr_decode(&m, 0x1D80, &victim);
	cr_assert_eq(victim.channel, 5);
	cr_assert_eq(mem_addr_channel(&m, 0x3580), 5);
	send(1, MEM_REQ_WRITE, 0x1D80);
	run();
	send(2, MEM_REQ_READ, 0x3580);
	run();
	char name[64];
	snprintf(name, sizeof name, "mc.5.bank.%u.writes", victim.bank);
	cr_assert_eq(stat("l2.5.writebacks"), 1);
	cr_assert_eq(stat("mc.5.writes"), 1);
	cr_assert_eq(stat(name), 1);
	cr_assert_eq(mem_channel_outstanding(CH), 0);
}
