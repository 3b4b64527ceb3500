/* SPDX-License-Identifier: MIT */
/* The live-handle registry and the per-thread last error behind include/warpsim.h's checks. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_guard.h"

/* Every machine and module handed out and not yet destroyed. A program holds a handful, so a
 * linear scan under one lock is enough (O(n) a call; fine below ~1000 handles), and the lock
 * lets threads that each own a machine create and destroy them at once. Limit: memory a later
 * machine or module reuses makes a stale pointer to that address look live again. */
struct api_handle {
	const void *p;
	enum api_handle_kind kind;
};
static pthread_mutex_t handles_lock = PTHREAD_MUTEX_INITIALIZER;
static struct api_handle *handles;
static size_t n_handles, cap_handles;

bool api_handle_add(const void *p, enum api_handle_kind kind)
{
	bool ok = true;
	pthread_mutex_lock(&handles_lock);
	if (n_handles == cap_handles) {
		size_t nc = cap_handles ? 2 * cap_handles : 16;
		struct api_handle *nh = realloc(handles, nc * sizeof *nh);
		if (nh) {
			handles = nh;
			cap_handles = nc;
		}
	}
	if (n_handles < cap_handles)
		handles[n_handles++] = (struct api_handle){p, kind};
	else
		ok = false;
	pthread_mutex_unlock(&handles_lock);
	return ok;
}

void api_handle_remove(const void *p)
{
	pthread_mutex_lock(&handles_lock);
	for (size_t i = 0; i < n_handles; i++) {
		if (handles[i].p == p) {
			handles[i] = handles[--n_handles];
			break;
		}
	}
	pthread_mutex_unlock(&handles_lock);
}

bool api_handle_live(const void *p, enum api_handle_kind kind)
{
	bool live = false;
	pthread_mutex_lock(&handles_lock);
	for (size_t i = 0; i < n_handles && !live; i++)
		live = handles[i].p == p && handles[i].kind == kind;
	pthread_mutex_unlock(&handles_lock);
	return live;
}

/* Read and cleared by warpsim_last_error; per thread, so machines used by different threads
 * never see each other's errors. */
static _Thread_local struct warpsim_error last_error;

int warpsim_last_error(struct warpsim_error *out)
{
	int code = last_error.code;
	if (out)
		*out = last_error;
	last_error.code = WARPSIM_OK;
	last_error.message[0] = '\0';
	return code;
}

int api_fail(struct warpsim_error *err, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	last_error.code = code;
	vsnprintf(last_error.message, sizeof last_error.message, fmt, ap);
	va_end(ap);
	if (err)
		*err = last_error;
	return code;
}

int api_fail_sim(struct warpsim_error *err, const struct sim_error *e)
{
	last_error.code = e->code;
	sim_error_format(e, last_error.message, sizeof last_error.message);
	if (err)
		*err = last_error;
	return e->code;
}
