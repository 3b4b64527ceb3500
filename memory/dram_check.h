/* SPDX-License-Identifier: MIT */
/* Independent DRAM protocol checker (sim.check): dram.c records each command it issues; the
 * trace is replayed against the configured timings with state of its own, as DRAM simulators'
 * protocol checkers do, so a scheduler bug cannot hide behind the scheduler's own bookkeeping. */
#ifndef WARPSIM_DRAM_CHECK_H
#define WARPSIM_DRAM_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/sim_error.h"

#define DRAM_CHECK_TRACE 4096  /* commands buffered before a replay (bounded memory) */
#define DRAM_CHECK_BANKS 64

enum dram_check_cmd { DRAM_CHK_ACT, DRAM_CHK_PRE, DRAM_CHK_PREA, DRAM_CHK_RD, DRAM_CHK_WR,
		      DRAM_CHK_REF };

/* Timings in DRAM command cycles, copied from the controller's configuration. */
struct dram_check_timing {
	uint32_t banks;
	uint32_t tRCD, tRP, tRAS, tRC, tRRD, tCL, tWL, tWR, tWTR, tRTW, tCCD, tRTP, tFAW, tRFC;
	uint32_t burst_cycles;     /* data-bus cycles of one column command (a write) */
	uint32_t rd_burst_cycles;  /* of a read; 0 = burst_cycles */
};

struct dram_check_rec {
	uint64_t cycle;
	uint32_t row;
	uint16_t bank;
	uint8_t cmd;               /* enum dram_check_cmd */
	uint8_t burst;             /* RD: its data-bus cycles when not rd_burst_cycles (a sectored
	                              L2's read of fewer sectors: dram_check_record_burst), else 0 */
};

/* Replay state: only what the trace itself says (never the controller's ready times). */
struct dram_check_bank {
	bool open;
	uint32_t row;
	uint64_t act, pre, rd, wr_end; /* last ACT, PRE, RD, end of the last WR's data (+1; 0 = never) */
};

struct dram_check {
	struct dram_check_timing t;
	uint32_t channel;
	struct dram_check_rec trace[DRAM_CHECK_TRACE];
	uint32_t n;                /* records buffered */
	uint64_t replayed;         /* commands checked so far */
	/* replay state; times stored +1 so that 0 means "never" */
	struct dram_check_bank bank[DRAM_CHECK_BANKS];
	uint64_t last_cmd, last_act, last_rd, last_wr, last_ref, bus_end;
	uint64_t faw[4];
	uint32_t faw_head;
	struct sim_error err;      /* first violation (code SIM_ERR_FAULT), SIM_OK while none */
};

/* Allocate a checker for channel (NULL on out of memory); free with dram_check_destroy. */
struct dram_check *dram_check_create(const struct dram_check_timing *t, uint32_t channel);
void dram_check_destroy(struct dram_check *k); /* NULL is fine */

/* Record one command issued at cycle (row: the row of ACT/RD/WR, ignored otherwise; bank
 * ignored for PREA/REF). Replays the buffer when it is full; no allocation. */
void dram_check_record(struct dram_check *k, enum dram_check_cmd cmd, uint32_t bank,
		       uint32_t row, uint64_t cycle);
/* The same for a RD whose data takes burst_cycles bus cycles (1..255). */
void dram_check_record_burst(struct dram_check *k, uint32_t bank, uint32_t row, uint64_t cycle,
			     uint32_t burst_cycles);

/* Replay what is buffered. 0, or SIM_ERR_FAULT with err naming the first violated rule, the
 * channel, bank and cycles (the first violation sticks: later calls return it again). */
int dram_check_flush(struct dram_check *k, struct sim_error *err);

#endif
