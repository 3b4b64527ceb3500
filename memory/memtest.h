/* SPDX-License-Identifier: MIT */
/* Stand-alone memory benchmark: one channel (L2 slice + MC + DRAM) fed with synthetic line reads
 * through a zero-latency port; measures bandwidth, latency and OWL's DRAM metrics. */
#ifndef WARPSIM_MEMTEST_H
#define WARPSIM_MEMTEST_H

#include <stdint.h>

#include "../engine/config.h"
#include "../engine/sim_error.h"

enum memtest_pattern {
	MEMTEST_STREAM, /* consecutive lines of the channel's address space: row hits */
	MEMTEST_RANDOM, /* uniformly random lines over 1 GiB of the channel: misses and conflicts */
	MEMTEST_ROWS,   /* line 0 of a new row each time, banks in turn: every access opens a row */
};
/* "stream", "random", "rows"; -1 if unknown. */
int memtest_pattern_parse(const char *s);
const char *memtest_pattern_name(enum memtest_pattern p);

struct memtest_opts {
	enum memtest_pattern pattern;
	uint64_t requests;     /* line reads issued in all (distinct lines: L2 misses) */
	uint32_t outstanding;  /* reads in flight at most (the generator's window) */
	uint64_t seed;         /* random pattern and the read/write draw */
	uint32_t write_percent; /* share of line writes (write-allocate in L2; DRAM sees write-backs) */
};

struct memtest_result {
	uint64_t requests, bytes;
	double sim_seconds;              /* first issue to last reply */
	double bandwidth_gbs;            /* bytes / sim_seconds / 1e9 */
	double peak_gbs;                 /* bus_bytes x data_rate x DRAM clock */
	double avg_latency_ns;           /* issue to reply, per request */
	double avg_latency_dram_cycles;
	double row_hit_rate, blp, bus_util, avg_queue_len;
	double queue_latency_dram_cycles, service_latency_dram_cycles;
	uint64_t row_hits, row_misses, row_conflicts;
	uint64_t dram_reads, dram_writes;
	uint64_t l2_hits, l2_misses;
	uint32_t dram_clock_mhz;
};

/* Build a simulation with channel 0 of the configuration (gpu.l2.*, gpu.dram.*) and run the
 * pattern to completion. Config errors name the setting; SIM_ERR_FAULT if it deadlocks. */
int memtest_run(const struct cfg *cfg, const struct memtest_opts *o, struct memtest_result *out,
		struct sim_error *err);

#endif
