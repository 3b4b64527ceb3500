/* SPDX-License-Identifier: MIT */
/* Benchmarks behind `warpsim bench`: the engine alone, and the full GPU. */
#ifndef WARPSIM_BENCH_H
#define WARPSIM_BENCH_H

#include "../engine/sim_error.h"

/* `warpsim bench [--json] [--size S]`: argv[0] is "bench". */
int bench_gpu(int argc, char **argv, struct sim_error *err);

#endif
