/* SPDX-License-Identifier: MIT */
/* Configuration: a declared schema (type, default, range, help per setting), values merged
 * from libconfig files (@include works) and -s overrides, each value remembering its source. */
#ifndef WARPSIM_CONFIG_H
#define WARPSIM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim_error.h"

enum cfg_type {
	CFG_INT,       /* int64, range [min_i, max_i] */
	CFG_FLOAT,     /* double, range [min_f, max_f] */
	CFG_BOOL,
	CFG_STRING,    /* any string (paths, names) */
	CFG_ENUM,      /* one of choices[] */
	CFG_INT_LIST,  /* list or array of int64, each in [min_i, max_i]; default def_s parsed as "1,2,3" */
};

/* One setting. Modules declare static arrays of these and register them with
 * cfg_define() before any file is loaded. Strings are not copied: use literals. */
struct cfg_key_def {
	const char *path;             /* "gpu.core.count" */
	enum cfg_type type;
	const char *unit;             /* "cycles", "MHz", "bytes", "" */
	int64_t def_i;                /* default for INT and BOOL */
	double def_f;                 /* default for FLOAT */
	const char *def_s;            /* default for STRING, ENUM and INT_LIST */
	int64_t min_i, max_i;
	double min_f, max_f;
	const char *const *choices;   /* ENUM: NULL-terminated */
	const char *help;             /* one line */
};

#define CFG_KEY_INT(p, u, d, lo, hi, h) {.path = (p), .type = CFG_INT, .unit = (u), .def_i = (d), .min_i = (lo), .max_i = (hi), .help = (h)}
#define CFG_KEY_FLOAT(p, u, d, lo, hi, h) {.path = (p), .type = CFG_FLOAT, .unit = (u), .def_f = (d), .min_f = (lo), .max_f = (hi), .help = (h)}
#define CFG_KEY_BOOL(p, d, h) {.path = (p), .type = CFG_BOOL, .unit = "", .def_i = (d), .help = (h)}
#define CFG_KEY_STR(p, d, h) {.path = (p), .type = CFG_STRING, .unit = "", .def_s = (d), .help = (h)}
#define CFG_KEY_ENUM(p, d, ch, h) {.path = (p), .type = CFG_ENUM, .unit = "", .def_s = (d), .choices = (ch), .help = (h)}
#define CFG_KEY_INT_LIST(p, u, d, lo, hi, h) {.path = (p), .type = CFG_INT_LIST, .unit = (u), .def_s = (d), .min_i = (lo), .max_i = (hi), .help = (h)}

struct cfg;

struct cfg *cfg_create(void);
void cfg_destroy(struct cfg *c);
/* Register settings. A path defined twice is an internal error (SIM_ASSERT). */
int cfg_define(struct cfg *c, const struct cfg_key_def *defs, size_t n, struct sim_error *err);
/* Merge a libconfig file: every leaf must be a defined setting of the right type
 * and range, else SIM_ERR_CONFIG naming file:line and the setting. Later files
 * and overrides replace earlier values. */
int cfg_load_file(struct cfg *c, const char *path, struct sim_error *err);
/* Same from a string (tests); name is used as the file name in errors. */
int cfg_load_string(struct cfg *c, const char *name, const char *text, struct sim_error *err);
/* "-s gpu.core.count=16": value parsed per the setting's type. */
int cfg_set_override(struct cfg *c, const char *assignment, struct sim_error *err);

/* Getters: path must be defined (SIM_ASSERT); value is the file's, the override's or the default. */
int64_t cfg_int(const struct cfg *c, const char *path);
double cfg_float(const struct cfg *c, const char *path);
bool cfg_bool(const struct cfg *c, const char *path);
const char *cfg_str(const struct cfg *c, const char *path);   /* STRING and ENUM; owned by cfg */
const int64_t *cfg_int_list(const struct cfg *c, const char *path, size_t *n);
bool cfg_is_defined(const struct cfg *c, const char *path);
/* enum cfg_type of a setting, -1 when there is none (callers that take names from users). */
int cfg_key_type(const struct cfg *c, const char *path);
/* Where the value came from: file and line (line 0 and file "<default>" or "<command line>"). */
void cfg_source(const struct cfg *c, const char *path, const char **file, int *line);
/* Of several settings, the one set last (a later -c file or override beats an earlier one, any
 * beats a default): the one to blame when together they do not fit, as the overlay that
 * changed one of them is where the user looks. */
const char *cfg_latest(const struct cfg *c, const char *const *paths, size_t n);
/* For cross-setting validation done by modules: fills err with SIM_ERR_CONFIG at the
 * setting's source, e.g. "owl-28/memory.cfg:12: gpu.l1d.size_kb: 64 exceeds ...". */
int cfg_error(struct sim_error *err, const struct cfg *c, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A file-path setting's value, ready to open: absolute as given; a relative one set in a file
 * resolves from that file's directory (an @included file's own), one set with -s from the
 * working directory. -1 when it does not fit in n bytes. */
int cfg_path(const struct cfg *c, const char *path, char *out, size_t n);

/* Write every setting with its resolved value (libconfig syntax, sources as comments). */
int cfg_write_resolved(const struct cfg *c, FILE *out, struct sim_error *err);
/* `warpsim config --list`: every setting, type, default, range and help; JSON when json. */
void cfg_print_list(const struct cfg *c, FILE *out, bool json);

/* The run settings under sim.* (seed, limits, check, watchdog). Every module has such a
 * <mod>_cfg_define(); components/gpu.h's gpu_cfg_define_all() calls them all. */
int engine_cfg_define(struct cfg *c, struct sim_error *err);

#endif
