/* SPDX-License-Identifier: MIT */
/* Launch sampling (sim.sample_launches): launches grouped by kernel, grid, block and shared
 * memory, and within that by warp-instruction count (buckets 2^(1/8) wide, about 9%); the
 * first k launches of each group run in timing mode, the rest functionally, and their cycles
 * are estimated from their group's cycles per warp instruction, interpolated between the
 * group's samples before and after each launch. docs/sampling.md. */
#ifndef WARPSIM_API_LAUNCH_SAMPLE_H
#define WARPSIM_API_LAUNCH_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/stats.h"
#include "../frontend/warp_inst.h"

struct api_sampler;

/* k launches of each group in timing mode (k >= 1), after the first `warmup` launches of each
 * kernel shape, simulated too but not taken as samples: a shape's first launch finds the
 * caches cold, its later ones warm (hotspot small on gtx480: 3633 then 1659 cycles); and one
 * more whenever a shape has gone `refresh` launches without a sample (0: never). NULL when out
 * of memory. */
struct api_sampler *api_sampler_create(uint32_t k, uint32_t warmup, uint64_t refresh);
void api_sampler_destroy(struct api_sampler *s);
/* Before a launch: whether to simulate it. Its warp-instruction count is not known yet, so the
 * group is predicted from the kernel's previous launch of that shape (a new shape is timed). */
bool api_sampler_wants_timing(struct api_sampler *s, const struct fe_launch_info *info);
/* After it: stats record index, mode, warp instructions, and (timing) its core cycles. */
int api_sampler_record(struct api_sampler *s, const struct fe_launch_info *info, uint64_t record,
		       bool timing, uint64_t warp_insts, uint64_t cycles, struct sim_error *err);
/* Estimates as of now: each functional launch's record gets "estimated_cycles" and "group"; the
 * returned object (stats.json "sampling") holds the estimated total, its bound and the
 * reduction. simulated_cycles: gpu.cycles. */
struct json_t *api_sampler_publish(struct api_sampler *s, struct stats *st, uint64_t simulated_cycles);

#endif
