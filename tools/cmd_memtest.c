/* SPDX-License-Identifier: MIT */
/* `warpsim memtest -c CONFIG --pattern stream|random|rows [--json]`: drive one memory channel
 * with synthetic line reads and print bandwidth, latency, row-hit rate against the peak. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../memory/memtest.h"
#include "cli.h"

static void usage(void)
{
	printf("usage: warpsim memtest -c CONFIG [-s key=value]... --pattern stream|random|rows\n"
	       "                      [--requests N] [--outstanding N] [--seed N] [--write-percent P] [--json]\n"
	       "  one channel (L2 slice + memory controller + DRAM) of CONFIG, fed line reads\n"
	       "  through a zero-latency port, at most --outstanding (default 128) in flight;\n"
	       "  --requests (default 20000) distinct lines, so every read misses in L2.\n"
	       "  stream: consecutive lines (row hits); random: random lines over 1 GiB;\n"
	       "  rows: line 0 of a new row each time, banks in turn (every access opens a row)\n"
	       "  --write-percent: that share are line writes (L2 write-allocate; DRAM sees write-backs)\n");
}

int cmd_memtest(int argc, char **argv, struct sim_error *err)
{
	static const char *const with_value[] = {"--pattern", "--requests", "--outstanding", "--seed", "--write-percent", NULL};
	static const char *const flags[] = {NULL};
	struct cli_opts o;
	int rc = cli_parse_command(argc, argv, "cs", with_value, flags, usage, &o, err);
	if (rc || o.help)
		return rc;
	if (!o.n_configs)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "-c", "memtest needs -c CONFIG");
	const char *pat = cli_long(&o, "--pattern");
	if (!pat)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--pattern",
				     "memtest needs --pattern stream|random|rows");
	int p = memtest_pattern_parse(pat);
	if (p < 0)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--pattern",
				     "expects stream, random or rows, got \"%s\"", pat);
	struct memtest_opts mo = {.pattern = (enum memtest_pattern)p, .requests = 20000,
				  .outstanding = 128, .seed = 1};
	const char *v;
	uint64_t x;
	if ((v = cli_long(&o, "--requests"))) {
		if ((rc = cli_parse_u64("--requests", v, 1, UINT64_MAX, &mo.requests, err)))
			return rc;
	}
	if ((v = cli_long(&o, "--outstanding"))) {
		if ((rc = cli_parse_u64("--outstanding", v, 1, 1u << 20, &x, err)))
			return rc;
		mo.outstanding = (uint32_t)x;
	}
	if ((v = cli_long(&o, "--seed")) && (rc = cli_parse_u64("--seed", v, 0, UINT64_MAX, &mo.seed, err)))
		return rc;
	if ((v = cli_long(&o, "--write-percent"))) {
		if ((rc = cli_parse_u64("--write-percent", v, 0, 100, &x, err)))
			return rc;
		mo.write_percent = (uint32_t)x;
	}

	struct cfg *c = NULL;
	if ((rc = cli_build_cfg(&o, &c, err)))
		return rc;
	struct memtest_result r;
	rc = memtest_run(c, &mo, &r, err);
	cfg_destroy(c);
	if (rc)
		return rc;
	if (o.json) {
		json_t *j = json_pack("{s:s, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
				      "pattern", memtest_pattern_name(mo.pattern),
				      "requests", (json_int_t)r.requests, "bytes", (json_int_t)r.bytes,
				      "bandwidth_gbs", r.bandwidth_gbs, "peak_gbs", r.peak_gbs,
				      "efficiency", r.peak_gbs > 0 ? r.bandwidth_gbs / r.peak_gbs : 0.0,
				      "avg_latency_ns", r.avg_latency_ns,
				      "avg_latency_dram_cycles", r.avg_latency_dram_cycles,
				      "row_hit_rate", r.row_hit_rate, "blp", r.blp, "bus_util", r.bus_util,
				      "queue_latency_dram_cycles", r.queue_latency_dram_cycles,
				      "service_latency_dram_cycles", r.service_latency_dram_cycles,
				      "row_hits", (json_int_t)r.row_hits, "row_misses", (json_int_t)r.row_misses,
				      "row_conflicts", (json_int_t)r.row_conflicts,
				      "dram_reads", (json_int_t)r.dram_reads, "dram_writes", (json_int_t)r.dram_writes,
				      "l2_hits", (json_int_t)r.l2_hits, "l2_misses", (json_int_t)r.l2_misses);
		char *s = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		printf("%s\n", s);
		free(s);
		json_decref(j);
		return 0;
	}
	printf("memtest %s: %llu line reads on one channel (DRAM %u MHz)\n", memtest_pattern_name(mo.pattern),
	       (unsigned long long)r.requests, r.dram_clock_mhz);
	printf("  bandwidth        %8.2f GB/s of %.2f GB/s peak per channel (%.1f%%)\n", r.bandwidth_gbs,
	       r.peak_gbs, r.peak_gbs > 0 ? 100.0 * r.bandwidth_gbs / r.peak_gbs : 0.0);
	printf("  avg latency      %8.1f ns (%.1f DRAM cycles) issue to reply, at most %u in flight\n",
	       r.avg_latency_ns, r.avg_latency_dram_cycles, mo.outstanding);
	printf("  MC queue / DRAM  %8.1f / %.1f DRAM cycles per request\n", r.queue_latency_dram_cycles,
	       r.service_latency_dram_cycles);
	printf("  row-hit rate     %8.3f (hits %llu, misses %llu, conflicts %llu)\n", r.row_hit_rate,
	       (unsigned long long)r.row_hits, (unsigned long long)r.row_misses,
	       (unsigned long long)r.row_conflicts);
	printf("  BLP              %8.2f banks; data bus busy %.1f%%; DRAM reads %llu, writes %llu\n", r.blp,
	       100.0 * r.bus_util, (unsigned long long)r.dram_reads, (unsigned long long)r.dram_writes);
	return 0;
}
