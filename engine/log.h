/* SPDX-License-Identifier: MIT */
/* Diagnostic logging: SIM_LOG(log, level, cat, fmt, ...) with a compile-time floor and a
 * runtime level/category filter held in a struct the caller passes (no global state). */
#ifndef WARPSIM_LOG_H
#define WARPSIM_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim_error.h"

enum sim_log_level {
	SIM_LOG_TRACE = 0, /* per-event detail: only in builds with SIM_LOG_MIN_LEVEL 0 */
	SIM_LOG_DEBUG = 1,
	SIM_LOG_INFO = 2,
	SIM_LOG_WARN = 3,
	SIM_LOG_ERROR = 4,
	SIM_LOG_OFF = 5,   /* as a runtime level: print nothing */
};

/* Categories are bits so one run can pick several (--trace=noc,mem). */
enum sim_log_cat {
	SIM_LOG_CAT_ENGINE = 1u << 0,
	SIM_LOG_CAT_SM = 1u << 1,
	SIM_LOG_CAT_SCHED = 1u << 2,
	SIM_LOG_CAT_MEM = 1u << 3,
	SIM_LOG_CAT_DRAM = 1u << 4,
	SIM_LOG_CAT_NOC = 1u << 5,
	SIM_LOG_CAT_CTA = 1u << 6,
	SIM_LOG_CAT_FRONTEND = 1u << 7,
	SIM_LOG_CAT_CONFIG = 1u << 8,
	SIM_LOG_CAT_ALL = 0x1ffu,
};

/* Calls below this level compile to nothing. Define it (0..5) before including this header
 * or on the command line; the default keeps DEBUG and drops TRACE. */
#ifndef SIM_LOG_MIN_LEVEL
#define SIM_LOG_MIN_LEVEL 1
#endif

/* The runtime filter: owned by whoever runs the simulation (one per simulation, so threads
 * running separate simulations log independently). out is not owned; NULL means stderr. */
struct sim_log {
	enum sim_log_level level; /* print messages at this level and above */
	uint32_t cats;            /* mask of enum sim_log_cat */
	FILE *out;
	const uint64_t *now_ps;   /* if non-NULL, each line is stamped with *now_ps */
};

/* level WARN, all categories, stderr, no time stamp. */
void sim_log_init(struct sim_log *log);
/* "noc,mem" / "all" / "" -> mask; SIM_ERR_USAGE naming the unknown category. */
int sim_log_parse_cats(const char *list, uint32_t *mask, struct sim_error *err);
/* "trace".."error", "off" -> level; SIM_ERR_USAGE if unknown. */
int sim_log_parse_level(const char *name, enum sim_log_level *level, struct sim_error *err);

static inline bool sim_log_enabled(const struct sim_log *log, enum sim_log_level level, uint32_t cat)
{
	return log && level >= log->level && (log->cats & cat);
}

/* Formats and writes one line; call through SIM_LOG so disabled messages cost a compare. */
void sim_log_write(const struct sim_log *log, enum sim_log_level level, uint32_t cat,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The arguments are evaluated only when the message is printed. */
#define SIM_LOG(log, level, cat, ...)                                                     \
	do {                                                                              \
		if ((level) >= SIM_LOG_MIN_LEVEL && sim_log_enabled((log), (level), (cat))) \
			sim_log_write((log), (level), (cat), __VA_ARGS__);               \
	} while (0)

#endif
