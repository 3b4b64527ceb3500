/* SPDX-License-Identifier: MIT */
/* Memory channel assembly: settings, the L2-slice and MC components, their clocks and stats. */
#include "mem_channel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrmap.h"
#include "dram.h"
#include "l2.h"

struct mem_channel {
	struct sim *sim;
	uint32_t channel;
	struct sim_clock l2_clk, dram_clk;
	char mc_name[24];
	char (*l2_name)[24];            /* [n_sub] */
	struct mem_addrmap map;
	struct dram_mc mc;
	struct sim_component mc_comp;
	uint32_t n_sub;                 /* gpu.l2.sub_partitions: slices sharing the MC */
	struct l2_slice *l2;            /* [n_sub]: slice s is mem_addr_slice number channel x n_sub + s */
	double peak_bytes_per_s;
};

/* ---- settings ------------------------------------------------------------------------
 * Defaults are owl-28: OWL Table 1 gives L2 (16-way, 512 KB per channel, 64 B lines), the
 * MC (FR-FCFS, 128 requests, 8 MCs, 4 banks, 2 KB rows) and GDDR3 at 800 MHz with tCL=10
 * tRP=10 tRC=35 tRAS=25 tRCD=12 tRRD=8 tCDLR(=tWTR)=6 tWR=11. What OWL leaves out comes from
 * GPGPU-Sim's published GT200 configuration (configs/QuadroFX5800/gpgpusim.config, "GDDR3
 * timing from Samsung K4J52324QH-HC12 @ 800MHz": tCCD=2, WL=7; bus 4 B x 2 chips per
 * channel; burst length 4; DDR) and its dram.cc turnaround tRTW = CL + burst + 2 - WL (with
 * our 4-cycle line transfer: 10 + 4 + 2 - 7 = 9) and tRTP = BL/2 = 2. L2 clock 650 MHz
 * (GT200 config's L2 domain = OWL's interconnect clock); L2 hit latency and MSHR sizes are
 * assumptions (GPGPU-Sim dl2 "A:32:4": 32 entries, 4 merges). */
static const char *const ch_sched[] = {"fr-fcfs", "fcfs", NULL};
static const char *const ch_page[] = {"open", "close", NULL};
static const char *const ch_pf[] = {"none", "opportunistic", NULL};
static const char *const ch_pf_stop[] = {"after-lower", "on-demand", NULL};
static const char *const ch_repl[] = {"lru", "fifo", NULL};
static const char *const ch_index[] = {"linear", "xor", NULL};
static const char *const ch_l2_models[] = {"cache", "none", NULL};

static const struct cfg_key_def ch_keys[] = {
	CFG_KEY_ENUM("gpu.l2.model", "cache", ch_l2_models,
		     "cache: the L2 slices cache lines (the settings below); none: a machine without an L2 (the large-warp paper's): "
		     "each request goes on to the MC by itself after gpu.l2.miss_latency_cycles, nothing is cached or merged, "
		     "at most gpu.l2.mshr_entries per slice on their way, and its reply (a write's ack too) leaves when the DRAM is done"),
	CFG_KEY_INT("gpu.l2.clock_mhz", "MHz", 650, 1, 100000, "L2 slice clock"),
	CFG_KEY_INT("gpu.l2.sub_partitions", "slices", 1, 1, 64,
		    "L2 slices per memory channel, each its own NoC node (gpu.noc.placement.mc_nodes lists channels x this), "
		    "sharing the channel's MC; a line's slice is the low bits of its bank number (GPGPU-Sim's "
		    "-gpgpu_n_sub_partition_per_mchannel; power of two, at most gpu.dram.banks). Sizes under gpu.l2 are per slice"),
	CFG_KEY_INT("gpu.l2.size_kb", "KiB", 512, 1, 1 << 20, "L2 capacity per slice (OWL: 512 per channel)"),
	CFG_KEY_INT("gpu.l2.assoc", "ways", 16, 1, 1024, "L2 associativity (OWL: 16)"),
	CFG_KEY_INT("gpu.l2.line_bytes", "bytes", 64, 16, 4096, "L2 line (OWL: 64) = DRAM request size (see gpu.l2.fill_request_bytes)"),
	CFG_KEY_ENUM("gpu.l2.replacement", "lru", ch_repl, "L2 replacement: lru | fifo"),
	CFG_KEY_ENUM("gpu.l2.set_index", "linear", ch_index,
		     "L2 set index over the channel-local line address: linear (low bits) | xor (low bits XOR the two fields above them: power-of-two strides spread over the sets)"),
	CFG_KEY_INT("gpu.l2.hit_latency_cycles", "cycles", 20, 1, 100000, "L2 tag+data latency (L2 cycles; assumed)"),
	CFG_KEY_INT("gpu.l2.miss_latency_cycles", "cycles", 20, 0, 100000, "L2 cycles from arrival to the MC queue on a miss (tag lookup; assumed)"),
	CFG_KEY_INT("gpu.l2.fill_request_bytes", "bytes", 0, 0, 4096,
		    "an L2 miss reads its line from the DRAM as gpu.l2.line_bytes / this requests, each whole bursts (GPGPU-Sim's "
		    "sectored L2: a request per 32 B sector, each a 64 B burst on GTX480); write-backs move the line whole. 0 = one request per line"),
	CFG_KEY_INT("gpu.l2.sector_bytes", "bytes", 0, 0, 4096,
		    "0 = tags per line; else a sectored L2 as GPGPU-Sim 4's (dl2 type S): a valid bit per sector of this size, a "
		    "request is one tag access per sector it covers (a cycle each), a miss fetches only the missing sectors, stores "
		    "carry the sectors they write and validate those written whole (power of two below gpu.l2.line_bytes, at most 32 sectors)"),
	CFG_KEY_BOOL("gpu.l2.fill_on_copy", 0,
		      "host copies to and from the device (and workload buffer initialisation) install the copied lines in the L2, clean, in copy "
		      "order, displacing dirty lines without write-back: GPGPU-Sim 4's -gpgpu_perf_sim_memcpy (on in its configs; scripts/correlate.sh sets it)"),
	CFG_KEY_INT("gpu.l2.mshr_entries", "entries", 32, 1, 4096, "L2 lines missing at once per slice"),
	CFG_KEY_INT("gpu.l2.mshr_merges", "requests", 4, 1, 1024, "requests per missing line, the first included"),
	CFG_KEY_INT("gpu.l2.reply_queue", "replies", 16, 1, 4096, "replies waiting for the NoC before the slice stalls (per slice)"),
	CFG_KEY_INT("gpu.l2.reply_header_bytes", "bytes", 8, 0, 64,
		    "bytes a data reply (read, atomic) carries beside its data: GPGPU-Sim 3.x/4.x's 8-byte control part; 2.x sends the data "
		    "alone (gpu-sim.cc pushes mf->nbytes_L1). Write acks are 8 bytes either way"),
	CFG_KEY_BOOL("gpu.l2.write_ack", 1,
		     "the L2 answers each write from a core (a store below L1, an L1 write-back) with an 8-byte ack packet, on which "
		     "a write-through store completes (GPGPU-Sim 3.x/4.x). false: GPGPU-Sim 2.x, which sends none (gpu-sim.cc pops "
		     "the write off the partition's output queue in its interconnect turn): the store completes once the NoC takes it"),
	CFG_KEY_INT("gpu.dram.clock_mhz", "MHz", 800, 1, 100000, "DRAM command clock (OWL: GDDR3 800 MHz)"),
	CFG_KEY_INT("gpu.dram.channels", "channels", 8, 1, 64, "memory channels = memory controllers (each gpu.l2.sub_partitions L2 slices)"),
	CFG_KEY_INT("gpu.dram.banks", "banks", 4, 1, DRAM_MAX_BANKS, "banks per channel (OWL: 4; power of two)"),
	CFG_KEY_INT("gpu.dram.row_bytes", "bytes", 2048, 64, 1 << 20, "row (page) size of a bank across the channel (OWL: 2 KB)"),
	CFG_KEY_INT("gpu.dram.queue_size", "requests", 128, 1, 4096, "MC request queue (OWL: 128 per MC)"),
	CFG_KEY_ENUM("gpu.dram.scheduler", "fr-fcfs", ch_sched, "fr-fcfs (ready row hits first, then oldest) | fcfs"),
	CFG_KEY_ENUM("gpu.dram.page_policy", "open", ch_page, "open: rows stay open; close: precharge when no queued request hits"),
	CFG_KEY_INT("gpu.dram.bus_bytes", "bytes", 8, 1, 1024, "data bus width per channel (GT200: 2 chips x 4 B)"),
	CFG_KEY_INT("gpu.dram.data_rate", "transfers/cycle", 2, 1, 16, "data transfers per command cycle (GDDR3 2, GDDR5 4)"),
	CFG_KEY_INT("gpu.dram.burst_length", "transfers", 4, 1, 64, "transfers per column command (GT200 GDDR3: 4)"),
	CFG_KEY_INT("gpu.dram.timing.rcd_cycles", "cycles", 12, 0, 1000, "tRCD: ACT to RD/WR"),
	CFG_KEY_INT("gpu.dram.timing.rp_cycles", "cycles", 10, 0, 1000, "tRP: PRE to ACT"),
	CFG_KEY_INT("gpu.dram.timing.ras_cycles", "cycles", 25, 0, 1000, "tRAS: ACT to PRE"),
	CFG_KEY_INT("gpu.dram.timing.rc_cycles", "cycles", 35, 0, 1000, "tRC: ACT to ACT, same bank"),
	CFG_KEY_INT("gpu.dram.timing.rrd_cycles", "cycles", 8, 0, 1000, "tRRD: ACT to ACT, different banks"),
	CFG_KEY_INT("gpu.dram.timing.cl_cycles", "cycles", 10, 0, 1000, "tCL: RD to data"),
	CFG_KEY_INT("gpu.dram.timing.wl_cycles", "cycles", 7, 0, 1000, "tWL: WR to data (GT200 GDDR3: 7)"),
	CFG_KEY_INT("gpu.dram.timing.wr_cycles", "cycles", 11, 0, 1000, "tWR: end of write data to PRE"),
	CFG_KEY_INT("gpu.dram.timing.wtr_cycles", "cycles", 6, 0, 1000, "tWTR (OWL's tCDLR): end of write data to RD"),
	CFG_KEY_INT("gpu.dram.timing.rtw_cycles", "cycles", 9, 0, 1000, "tRTW: RD to WR turnaround"),
	CFG_KEY_INT("gpu.dram.timing.ccd_cycles", "cycles", 2, 0, 1000, "tCCD: column to column"),
	CFG_KEY_INT("gpu.dram.timing.rtp_cycles", "cycles", 2, 0, 1000, "tRTP: RD to PRE"),
	CFG_KEY_INT("gpu.dram.timing.faw_cycles", "cycles", 0, 0, 10000, "tFAW: four-activate window (0 = none)"),
	CFG_KEY_INT("gpu.dram.timing.refi_cycles", "cycles", 0, 0, 1000000, "tREFI: refresh interval (0 = refresh not modelled)"),
	CFG_KEY_INT("gpu.dram.timing.rfc_cycles", "cycles", 0, 0, 100000, "tRFC: all-bank refresh time"),
	CFG_KEY_INT("gpu.dram.addrmap.chan_interleave_bytes", "bytes", 2048, 64, 1 << 24,
		    "consecutive bytes per channel before the next channel (power of two)"),
	CFG_KEY_STR("gpu.dram.addrmap.local_map", "auto",
		    "low bits of the channel-local address, MSB first: C column, B bank, R row; higher bits are row; auto = bank bits right above the column bits"),
	CFG_KEY_BOOL("gpu.dram.addrmap.xor_bank", 0, "bank ^= row mod banks (permutation interleaving)"),
	CFG_KEY_ENUM("gpu.dram.prefetch", "none", ch_pf, "none | opportunistic (OWL Sec 4.4)"),
	CFG_KEY_INT("gpu.dram.prefetcher.lower_lines", "lines", 8, 0, 4096, "C when demands are many (OWL: lower = 8)"),
	CFG_KEY_INT("gpu.dram.prefetcher.higher_lines", "lines", 16, 0, 4096, "C when demands are few (OWL: higher = 16)"),
	CFG_KEY_ENUM("gpu.dram.prefetcher.stop", "after-lower", ch_pf_stop,
		     "OWL Sec 4.4's two stopping schemes, once a demand to another row of the bank waits: after-lower (the paper's "
		     "baseline: at least C lines, lower or higher by the queue) | on-demand (the first scheme: stop at once)"),
	CFG_KEY_FLOAT("gpu.dram.prefetcher.threshold_requests", "requests", -1.0, -1.0, 1e6,
		      "fewer pending demands than this means few; -1 = running average MC queue length (OWL)"),
};

int mem_channel_cfg_define(struct cfg *c, struct sim_error *err)
{
	return cfg_define(c, ch_keys, SIM_ARRAY_LEN(ch_keys), err);
}

/* ---- components -------------------------------------------------------------------------- */

static uint64_t ch_l2_tick(struct sim_component *c, uint64_t cycle)
{
	struct l2_slice *l2 = SIM_CONTAINER_OF(c, struct l2_slice, comp);
	return l2_slice_tick(l2, cycle);
}

static uint64_t ch_l2_outstanding(const struct sim_component *c)
{
	const struct l2_slice *l2 = SIM_CONTAINER_OF(c, struct l2_slice, comp);
	return l2_slice_outstanding(l2);
}

/* One request and the stages it has passed (mem_req.t_ps), for the watchdog report. */
static void dump_req_path(FILE *out, const char *what, const struct mem_req *r)
{
	static const char *const kind[] = {"read", "write", "atomic", "prefetch", "write-back"};
	static const char *const stage[MEM_T_COUNT] = {"issue", "noc-inject", "l2-arrive", "mc-enqueue",
						       "dram-issue", "dram-done", "l2-reply", "done"};
	fprintf(out, "  %s: id %llu %s 0x%llx from sm %u, bank %u row %u; path (ps):", what,
		(unsigned long long)r->id, r->kind < 5 ? kind[r->kind] : "?", (unsigned long long)r->addr,
		(unsigned)r->src_sm, (unsigned)r->bank, r->row);
	for (int s = 0; s < MEM_T_COUNT; s++)
		if (r->t_ps[s])
			fprintf(out, " %s %llu", stage[s], (unsigned long long)r->t_ps[s]);
	fputc('\n', out);
}

static void ch_l2_dump(const struct sim_component *c, FILE *out)
{
	const struct l2_slice *l2 = SIM_CONTAINER_OF(c, struct l2_slice, comp);
	fprintf(out, "%s: mshr %u/%u, replies %u, write-backs waiting %u, head request %s (id %llu)\n",
		c->name, l2->mshr_used, l2->cfg.mshr_entries, l2->rq_n, l2->wbq_n,
		l2->pending ? "blocked" : "none",
		l2->pending ? (unsigned long long)l2->pending->id : 0ull);
	if (l2->pending)
		dump_req_path(out, "blocked head request", l2->pending);
}

static uint64_t ch_mc_tick(struct sim_component *c, uint64_t cycle)
{
	struct mem_channel *ch = SIM_CONTAINER_OF(c, struct mem_channel, mc_comp);
	uint64_t next = dram_mc_tick(&ch->mc, cycle);
	/* The slices wait without polling for room in the queue. */
	for (uint32_t s = 0; s < ch->n_sub; s++) {
		struct l2_slice *l2 = &ch->l2[s];
		if ((l2->pending || l2->wbq_n || l2->mq_n) && !dram_mc_full(&ch->mc))
			sim_component_wake(&l2->comp);
	}
	return next;
}

/* The channel's slice holding addr. */
static struct l2_slice *ch_slice(struct mem_channel *ch, uint64_t addr)
{
	uint32_t s = mem_addr_slice(&ch->map, addr) - ch->channel * ch->n_sub;
	SIM_ASSERT(s < ch->n_sub);
	return &ch->l2[s];
}

static uint64_t ch_mc_outstanding(const struct sim_component *c)
{
	const struct mem_channel *ch = SIM_CONTAINER_OF(c, struct mem_channel, mc_comp);
	return dram_mc_outstanding(&ch->mc);
}

static void ch_mc_dump(const struct sim_component *c, FILE *out)
{
	const struct mem_channel *ch = SIM_CONTAINER_OF(c, struct mem_channel, mc_comp);
	fprintf(out, "%s: queue %u/%u, on the bus %u\n", c->name, ch->mc.q_len,
		ch->mc.cfg.queue_size, ch->mc.fly_len);
	if (ch->mc.q_len && ch->mc.q[0].req) /* arrival order: q[0] is the oldest */
		dump_req_path(out, "oldest queued request", ch->mc.q[0].req);
	for (uint32_t b = 0; b < ch->mc.cfg.banks; b++)
		fprintf(out, "  bank %u: %s row %u, queued %u\n", b, ch->mc.bank[b].open ? "open" : "closed",
			ch->mc.bank[b].row, ch->mc.bank[b].queued);
}

static const struct sim_component_ops ch_l2_ops = {ch_l2_tick, ch_l2_outstanding, ch_l2_dump};
static const struct sim_component_ops ch_mc_ops = {ch_mc_tick, ch_mc_outstanding, ch_mc_dump};

static void ch_dram_done(void *ctx, struct mem_req *r, uint64_t done_cycle)
{
	struct mem_channel *ch = ctx;
	if (r->kind == MEM_REQ_READ || r->kind == MEM_REQ_ATOMIC) {
		uint64_t lat = ch->mc.cfg.tCL + dram_read_burst_cycles(&ch->mc.cfg, r);
		r->t_ps[MEM_T_DRAM_ISSUE] = sim_clock_edge_ps(&ch->dram_clk, done_cycle - lat);
	}
	l2_slice_dram_done(ch_slice(ch, r->addr), r, sim_now_ps(ch->sim));
}

static bool ch_pf_filter(void *ctx, uint64_t addr)
{
	struct mem_channel *ch = ctx;
	return l2_slice_pf_filter(ch_slice(ch, addr), addr);
}

static uint64_t ch_pf_version(const void *ctx)
{
	const struct mem_channel *ch = ctx;
	uint64_t v = 0; /* each only grows */
	for (uint32_t s = 0; s < ch->n_sub; s++)
		v += l2_slice_pf_version(&ch->l2[s]);
	return v;
}

static double st_bus_util(const void *p)
{
	const struct mem_channel *ch = p;
	return dram_mc_bus_util(&ch->mc, sim_component_cycle(&ch->mc_comp));
}

/* ---- build ------------------------------------------------------------------------------- */

struct mem_channel *mem_channel_create(const struct cfg *cfg, struct sim *sim, struct stats *st,
				       uint32_t channel, struct noc *noc, struct sim_error *err)
{
	struct mem_channel *ch = calloc(1, sizeof *ch);
	if (!ch) {
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "memory channel");
		return NULL;
	}
	ch->sim = sim;
	ch->channel = channel;
	int rc = mem_addrmap_init(&ch->map, cfg, err);
	if (rc)
		goto fail;
	if (channel >= ch->map.n_channels) {
		cfg_error(err, cfg, "gpu.dram.channels", "channel %u does not exist (%u channels)",
			  channel, ch->map.n_channels);
		goto fail;
	}
	struct dram_cfg dc;
	if (dram_cfg_read(&dc, cfg, err))
		goto fail;
	ch->n_sub = ch->map.sub_partitions;
	ch->l2 = calloc(ch->n_sub, sizeof *ch->l2);
	ch->l2_name = calloc(ch->n_sub, sizeof *ch->l2_name);
	if (!ch->l2 || !ch->l2_name) {
		sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "memory channel");
		goto fail;
	}
	if (noc && (int)((channel + 1) * ch->n_sub) > noc->n_mcs) {
		cfg_error(err, cfg, "gpu.noc.placement.mc_nodes", "places %d L2 slices, channel %u needs %u",
			  noc->n_mcs, channel, (channel + 1) * ch->n_sub);
		goto fail;
	}
	for (uint32_t s = 0; s < ch->n_sub; s++)
		snprintf(ch->l2_name[s], sizeof ch->l2_name[s], "l2.%u", channel * ch->n_sub + s);
	snprintf(ch->mc_name, sizeof ch->mc_name, "mc.%u", channel);
	ch->l2_clk.name = ch->l2_name[0];
	ch->l2_clk.freq_mhz = (uint32_t)cfg_int(cfg, "gpu.l2.clock_mhz");
	ch->dram_clk.name = ch->mc_name;
	ch->dram_clk.freq_mhz = (uint32_t)cfg_int(cfg, "gpu.dram.clock_mhz");
	if (sim_clock_add(sim, &ch->l2_clk, err) || sim_clock_add(sim, &ch->dram_clk, err))
		goto fail;
	ch->peak_bytes_per_s = (double)cfg_int(cfg, "gpu.dram.bus_bytes") *
			       (double)cfg_int(cfg, "gpu.dram.data_rate") * ch->dram_clk.freq_mhz * 1e6;

	struct l2_cfg lc = {0};
	lc.cache.size_bytes = (uint32_t)cfg_int(cfg, "gpu.l2.size_kb") * 1024u;
	lc.cache.assoc = (uint32_t)cfg_int(cfg, "gpu.l2.assoc");
	lc.cache.line_bytes = (uint32_t)cfg_int(cfg, "gpu.l2.line_bytes");
	lc.cache.repl = strcmp(cfg_str(cfg, "gpu.l2.replacement"), "fifo") ? CACHE_REPL_LRU : CACHE_REPL_FIFO;
	lc.cache.write_policy = CACHE_WRITE_BACK; /* OWL Sec 2.1: write-back L2 */
	lc.cache.index = (enum cache_index)cache_index_parse(cfg_str(cfg, "gpu.l2.set_index"));
	lc.cache.hit_latency_cycles = (uint32_t)cfg_int(cfg, "gpu.l2.hit_latency_cycles");
	lc.cache.sector_bytes = (uint32_t)cfg_int(cfg, "gpu.l2.sector_bytes");
	if (lc.cache.sector_bytes && ((lc.cache.sector_bytes & (lc.cache.sector_bytes - 1)) ||
				      lc.cache.sector_bytes >= lc.cache.line_bytes ||
				      lc.cache.line_bytes / lc.cache.sector_bytes > 32)) {
		cfg_error(err, cfg, "gpu.l2.sector_bytes",
			  "%u bytes: must be a power of two below the %u-byte line, at most 32 sectors a line",
			  lc.cache.sector_bytes, lc.cache.line_bytes);
		goto fail;
	}
	lc.mshr_entries = (uint32_t)cfg_int(cfg, "gpu.l2.mshr_entries");
	lc.mshr_merges = (uint32_t)cfg_int(cfg, "gpu.l2.mshr_merges");
	lc.reply_queue = (uint32_t)cfg_int(cfg, "gpu.l2.reply_queue");
	lc.reply_header_bytes = (uint32_t)cfg_int(cfg, "gpu.l2.reply_header_bytes");
	lc.miss_latency_cycles = (uint32_t)cfg_int(cfg, "gpu.l2.miss_latency_cycles");
	lc.perfect = cfg_is_defined(cfg, "gpu.memory.model") &&
		     strcmp(cfg_str(cfg, "gpu.memory.model"), "perfect-l2") == 0;
	lc.none = strcmp(cfg_str(cfg, "gpu.l2.model"), "none") == 0;
	if (lc.none && lc.perfect) {
		cfg_error(err, cfg, "gpu.l2.model", "none leaves no L2 for gpu.memory.model = perfect-l2 to make perfect");
		goto fail;
	}

	for (uint32_t s = 0; s < ch->n_sub; s++) {
		uint32_t slice = channel * ch->n_sub + s;
		struct l2_slice *l2 = &ch->l2[s];
		l2->comp.ops = &ch_l2_ops;
		l2->comp.name = ch->l2_name[s];
		l2->comp.clk = &ch->l2_clk;
		rc = l2_slice_init(l2, &lc, slice, &ch->map, &ch->mc, &ch->mc_comp, noc,
				   noc ? noc->mc_node[slice] : -1, err);
		if (rc) {
			if (err && err->code == SIM_ERR_CONFIG && !err->file[0]) {
				char msg[sizeof err->msg]; /* err->msg is overwritten while formatting */
				snprintf(msg, sizeof msg, "%s", err->msg);
				cfg_error(err, cfg, "gpu.l2.size_kb", "%s", msg);
			}
			goto fail;
		}
	}
	rc = dram_mc_init(&ch->mc, &dc, &ch->map, channel, ch_dram_done,
			  dc.prefetch ? ch_pf_filter : NULL, ch, err);
	if (rc)
		goto fail;
	if (dc.prefetch)
		ch->mc.pf_version = ch_pf_version;
	ch->mc_comp.ops = &ch_mc_ops;
	ch->mc_comp.name = ch->mc_name;
	ch->mc_comp.clk = &ch->dram_clk;
	for (uint32_t s = 0; s < ch->n_sub; s++) {
		if (sim_component_add(sim, &ch->l2[s].comp, err))
			goto fail;
		if (noc) {
			/* What noc_set_sink() does; set directly so memory/ links without noc/. */
			int node = ch->l2[s].node;
			SIM_ASSERT(node >= 0 && node < noc->n_nodes);
			noc->sink[node] = &ch->l2[s].comp;
		}
	}
	if (sim_component_add(sim, &ch->mc_comp, err))
		goto fail;
	if (st) {
		for (uint32_t s = 0; s < ch->n_sub; s++)
			l2_slice_stats_register(&ch->l2[s], st);
		dram_mc_stats_register(&ch->mc, st);
		stats_derived(st, st_bus_util, ch, "ratio",
			      "DRAM data-bus utilisation: busy cycles / elapsed DRAM cycles",
			      "mc.%u.bus_util", channel);
	}
	return ch;
fail:
	mem_channel_destroy(ch);
	return NULL;
}

void mem_channel_destroy(struct mem_channel *ch)
{
	if (!ch)
		return;
	for (uint32_t s = 0; ch->l2 && s < ch->n_sub; s++)
		l2_slice_fini(&ch->l2[s]);
	dram_mc_fini(&ch->mc);
	free(ch->l2);
	free(ch->l2_name);
	free(ch);
}

void mem_channel_copy_fill(struct mem_channel *ch, uint64_t addr)
{
	l2_slice_copy_fill(ch_slice(ch, addr), addr);
}

uint64_t mem_channel_outstanding(const struct mem_channel *ch)
{
	uint64_t n = dram_mc_outstanding(&ch->mc);
	for (uint32_t s = 0; s < ch->n_sub; s++)
		n += l2_slice_outstanding(&ch->l2[s]);
	return n;
}

int mem_channel_check(struct mem_channel *ch, struct sim_error *err)
{
	uint64_t l2_held = 0, mc_held = dram_mc_outstanding(&ch->mc);
	for (uint32_t s = 0; s < ch->n_sub; s++)
		l2_held += l2_slice_outstanding(&ch->l2[s]);
	if (l2_held || mc_held)
		return sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, "sim.check",
				     "channel %u holds requests with the simulation quiet (L2 slice %llu, "
				     "MC %llu): a reply was lost",
				     ch->channel, (unsigned long long)l2_held, (unsigned long long)mc_held);
	return dram_mc_check(&ch->mc, err);
}

void mem_channel_summary(struct mem_channel *ch, struct mem_channel_summary *o)
{
	memset(o, 0, sizeof *o);
	uint64_t now = sim_component_cycle(&ch->mc_comp);
	dram_mc_sync(&ch->mc, now);
	const struct dram_mc *mc = &ch->mc;
	o->reads = mc->reads;
	o->writes = mc->writes;
	o->row_hits = mc->row_hits;
	o->row_misses = mc->row_misses;
	o->row_conflicts = mc->row_conflicts;
	o->dram_cycles = now;
	o->blp = dram_mc_blp(mc);
	o->row_hit_rate = dram_mc_row_hit_rate(mc);
	o->bus_util = dram_mc_bus_util(mc, now);
	o->avg_queue_len = dram_mc_avg_queue_len(mc);
	o->queue_latency_cycles = mc->queue_lat.n ? mc->queue_lat.sum / (double)mc->queue_lat.n : 0;
	o->service_latency_cycles = mc->service_lat.n ? mc->service_lat.sum / (double)mc->service_lat.n : 0;
	o->pf_issued = mc->pf_issued;
	for (uint32_t s = 0; s < ch->n_sub; s++) {
		o->l2_hits += ch->l2[s].cache.hits;
		o->l2_misses += ch->l2[s].cache.misses;
		o->pf_useful += ch->l2[s].pf_useful;
		o->pf_late += ch->l2[s].pf_late;
	}
	o->dram_clock_mhz = ch->dram_clk.freq_mhz;
	o->peak_bytes_per_s = ch->peak_bytes_per_s;
}
