/* SPDX-License-Identifier: MIT */
/* Time series of a run (--sample N): one CSV row per interval of N core cycles (and one for the
 * tail of each launch) with IPC per SM and in total, scheduler cycles by class, L1/L2 hit rates,
 * DRAM bandwidth, BLP and RBL per channel, NoC latency and link utilisation. Reads counters
 * only: a run's stats are the same with and without it. */
#ifndef WARPSIM_SAMPLER_H
#define WARPSIM_SAMPLER_H

#include <stdint.h>
#include <stdio.h>

#include "../engine/config.h"
#include "../engine/sim_error.h"
#include "../engine/stats.h"

struct sm;
struct sampler;

/* Resolves every counter it reads in st (registered by then) to a pointer; writes the header
 * to csv (owned by the caller). NULL with err on out of memory. */
struct sampler *sampler_create(const struct cfg *c, struct stats *st, struct sm *const *sms,
			       uint32_t n_cores, uint32_t n_chans, FILE *csv, struct sim_error *err);
void sampler_destroy(struct sampler *s);
/* A launch (kernel index from 0) starts at start_cycle: intervals count from here. */
void sampler_begin(struct sampler *s, uint64_t kernel, uint64_t start_cycle);
/* Close the interval ending at core cycle end_cycle (a row, when it is not empty). */
void sampler_take(struct sampler *s, uint64_t end_cycle);

#endif
