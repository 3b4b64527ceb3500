/* SPDX-License-Identifier: MIT */
/* Stats registry: named counters, averages, histograms and derived values that point at the
 * components' own fields (an increment is a plain add), with per-kernel and total scopes. */
#ifndef WARPSIM_STATS_H
#define WARPSIM_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim_error.h"

/* Running average: the owner adds samples with stat_avg_add (hot path: two adds). */
struct stat_avg {
	double sum;
	uint64_t n;
};
static inline void stat_avg_add(struct stat_avg *a, double v) { a->sum += v; a->n++; }

/* Fixed-width histogram; samples >= n_bins*bin_width land in overflow. bins owned by the
 * stat (allocated by stats_hist). */
struct stat_hist {
	uint64_t *bins;
	uint32_t n_bins;
	uint64_t bin_width;
	uint64_t overflow, n, sum;
};
static inline void stat_hist_add(struct stat_hist *h, uint64_t v)
{
	uint64_t b = v / h->bin_width;
	if (b < h->n_bins)
		h->bins[b]++;
	else
		h->overflow++;
	h->n++;
	h->sum += v;
}

struct stats;

struct stats *stats_create(void);
void stats_destroy(struct stats *s);

/* Registration (build time only; names formatted printf-style, unique, dotted
 * component paths without prefix: "sm.3.l1d.misses"). The registry keeps pointers:
 * the field must outlive it or be unregistered by destroying the registry first. */
void stats_counter(struct stats *s, uint64_t *field, const char *unit, const char *desc,
		   const char *name_fmt, ...) __attribute__((format(printf, 5, 6)));
void stats_avg(struct stats *s, struct stat_avg *field, const char *unit, const char *desc,
	       const char *name_fmt, ...) __attribute__((format(printf, 5, 6)));
/* Allocates h->bins, owned and freed by the registry (the component may be destroyed first). */
int stats_hist(struct stats *s, struct stat_hist *h, uint32_t n_bins, uint64_t bin_width,
	       const char *unit, const char *desc, const char *name_fmt, ...)
	__attribute__((format(printf, 7, 8)));
/* num / den * scale of two registered counters (or averages' sample counts are not allowed:
 * counters only), evaluated per scope, so per-kernel IPC and hit rates are right. 0 when den
 * is 0. num and den must be registered before the ratio. */
void stats_ratio(struct stats *s, const char *num, const char *den, double scale,
		 const char *unit, const char *desc, const char *name_fmt, ...)
	__attribute__((format(printf, 7, 8)));
/* A value computed at dump time from live state (totals only; per-kernel scopes record the
 * value at kernel end). Prefer stats_ratio where it fits. */
void stats_derived(struct stats *s, double (*fn)(const void *ctx), const void *ctx,
		   const char *unit, const char *desc, const char *name_fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* The same, computed per scope: fn gets the registry and whether it is asked for the current
 * kernel's record (stats_get_u64_scope then gives counters over the kernel alone) or for the
 * totals. For values that are no single ratio, e.g. a mean of per-channel ratios. */
void stats_derived_scoped(struct stats *s, double (*fn)(const void *ctx, const struct stats *st, bool kernel_scope),
			  const void *ctx, const char *unit, const char *desc, const char *name_fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* Scopes: kernel_begin records a baseline; kernel_end stores the difference for every
 * counter/avg/hist that changed during the kernel (unchanged ones are left out of the kernel's
 * record, so many launches do not grow memory by the whole registry each) (derived values re-evaluated over the difference is not possible, so
 * derived stats are evaluated at kernel_end) under "kernels[i]". Totals are the live values. */
void stats_kernel_begin(struct stats *s, const char *kernel_name);
/* Keep only stats whose name starts with prefix in per-kernel records (NULL: all). Totals
 * always hold every stat. */
void stats_set_kernel_prefix(struct stats *s, const char *prefix);
/* The current kernel's PTX (mangled) name, recorded as "ptx_name" when it differs from the
 * name given to kernel_begin. Each record also has "launch": its index in "kernels". */
void stats_kernel_set_ptx_name(struct stats *s, const char *ptx_name);
void stats_kernel_end(struct stats *s);
/* Concurrent kernels share one scope: its differences so far (what kernel_end would record;
 * a new reference), and a record appended with the stats given (reference stolen) for each of
 * the kernels, with "ptx_name" when it differs from name. */
struct json_t;
struct json_t *stats_kernel_scope_json(const struct stats *s);
void stats_kernel_append(struct stats *s, const char *name, const char *ptx_name,
			 struct json_t *stats);

/* Look up a live value by name (tests, reports). false if no such stat. */
bool stats_get_u64(const struct stats *s, const char *name, uint64_t *out);
/* A counter over the current kernel alone (kernel_scope) or in total. */
bool stats_get_u64_scope(const struct stats *s, const char *name, bool kernel_scope, uint64_t *out);
bool stats_get_double(const struct stats *s, const char *name, double *out);

/* Pointers to a registered counter's or average's field (samplers read them every N cycles
 * without a lookup by name); NULL when no such stat of that kind. */
const uint64_t *stats_counter_field(const struct stats *s, const char *name);
const struct stat_avg *stats_avg_field(const struct stats *s, const char *name);
/* Whether a stat of any kind is registered under name (sweep specs naming extra columns). */
bool stats_exists(const struct stats *s, const char *name);

/* Provenance (version, command line, host, date...): a JSON object (jansson's json_t, reference
 * stolen; NULL clears) written as the document's first member "provenance", on lines of its
 * own, so that byte comparisons of runs drop it with
 *   sed '/^ "provenance": {$/,/^ },$/d'
 * and the rest is the document without it. */
struct json_t;
void stats_set_provenance(struct stats *s, struct json_t *obj);

/* A named top-level member of the document (jansson object, reference stolen; NULL removes
 * it), written after "total": a run's "budget" and "sampling" records. Set again, it replaces. */
void stats_set_section(struct stats *s, const char *name, struct json_t *obj);
/* The record of launch i in "kernels" (borrowed; NULL past the last) for its owner to annotate
 * ("mode", estimated cycles). */
struct json_t *stats_kernel_record(struct stats *s, uint64_t i);
/* Number of records in "kernels". */
uint64_t stats_kernel_count(const struct stats *s);

/* JSON document {"total": {name: {"value":..,"unit":..,"desc":..}}, "kernels": [...]}.
 * Written to tmp name then renamed into place. */
int stats_write_json(const struct stats *s, const char *path, struct sim_error *err);
/* Same document as a string (caller frees). */
char *stats_to_json_string(const struct stats *s);
/* Human table of the stats whose names match any of the glob patterns (NULL = all). */
void stats_print_summary(const struct stats *s, FILE *out, const char *const *patterns);

#endif
