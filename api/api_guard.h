/* SPDX-License-Identifier: MIT */
/* What every entry point of include/warpsim.h checks before it acts: that its handles are live
 * (a NULL, destroyed or made-up handle is refused, never dereferenced) and how a refusal is
 * reported (into the caller's warpsim_error and this thread's last error). */
#ifndef WARPSIM_API_GUARD_H
#define WARPSIM_API_GUARD_H

#include <stdbool.h>

#include "../engine/sim_error.h"
#include "../include/warpsim.h"

enum api_handle_kind { API_MACHINE = 1, API_MODULE = 2 };

/* Record p as a live handle of kind; false when out of memory. */
bool api_handle_add(const void *p, enum api_handle_kind kind);
/* Forget p (nothing if it is not live). */
void api_handle_remove(const void *p);
bool api_handle_live(const void *p, enum api_handle_kind kind);

/* Fail with code and a message: into *err when err is non-NULL and into this thread's last
 * error (warpsim_last_error) always. Returns code. */
int api_fail(struct warpsim_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same with a module's error (file:line: setting: message). */
int api_fail_sim(struct warpsim_error *err, const struct sim_error *e);

#endif
