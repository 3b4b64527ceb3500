/* SPDX-License-Identifier: MIT */
/* A machine and a module as api/libwarpsim.c and api/api_memory.c see them, and the checks
 * every entry point starts with (each returns 0, or the status it failed with after recording it
 * as api_fail does). Private to api/. */
#ifndef WARPSIM_API_MACHINE_H
#define WARPSIM_API_MACHINE_H

#include <stdio.h>

#include "../workloads/warpsim.h"
#include "api_int.h"
#include "launch_ctl.h"

struct warpsim_module {
	struct warpsim *ws;
	struct fe_module *m;
	struct ws_host *h;
};

struct warpsim {
	struct cfg *cfg;
	struct stats *st;
	struct gpu *g;                  /* NULL: functional executor */
	struct ws_func_stats fstats;
	struct fe_device inner;         /* the timing model's or the functional executor's */
	struct fe_device dev;           /* inner behind guarded_launch: what every host launches on */
	struct api_ctl ctl;             /* timing machine: budgets, launch selection, sampling */
	struct fe_memory *mem;
	struct warpsim_module **mods;
	uint32_t n_mods, cap_mods;
	FILE *printf_out;
	uint64_t stack_bytes;        /* warpsim_set_stack_bytes; 0: the front end's default */
	FILE *timeline;                 /* memstream of the CTA timeline */
	char *timeline_buf;
	size_t timeline_len;
	uint64_t launches;
	double cpu_s;                   /* host CPU seconds spent in launches */
	void (*cfg_trailer)(FILE *f, const void *ctx); /* warpsim_set_provenance */
	const void *cfg_trailer_ctx;
	struct json_t *concurrent;      /* stats.json "concurrent": the batches run side by side */
	struct json_t *streams;         /* stats.json "streams": launches and cycles per stream */
	int fault_code;                 /* 0, or the PROGRAM/FAULT that stopped the machine */
	char fault_msg[1024];           /* its message, as the faulting launch reported it */
};

/* p non-NULL; else USAGE "fn: arg is NULL". */
int api_need(const void *p, const char *fn, const char *arg, struct warpsim_error *err);
/* ws a live machine; else USAGE naming fn. */
int api_need_machine(const struct warpsim *ws, const char *fn, struct warpsim_error *err);
/* m a live module; else USAGE naming fn. */
int api_need_module(const struct warpsim_module *m, const char *fn, struct warpsim_error *err);

/* warpsim_launch's checks of a launch of kernel k (fn names the entry point). */
int api_check_launch(struct warpsim_module *m, uint32_t k, const struct warpsim_launch *l,
		     const char *fn, struct warpsim_error *err);
/* A PROGRAM or FAULT status stops the machine (later launches refused); returns rc. */
int api_note_fault(struct warpsim *ws, int rc, const struct sim_error *e);
double api_cpu_seconds(void);

#endif
