/* SPDX-License-Identifier: MIT */
/* The one error type of warpsim: filled deep in the code, returned up to main, printed once. */
#ifndef WARPSIM_SIM_ERROR_H
#define WARPSIM_SIM_ERROR_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Return codes: 0 is success, failures are negative. The exit status main uses
 * is sim_error_exit_status(): 2 for bad input of any kind, 1 for a simulation
 * fault (deadlock, broken invariant, a bug in the simulated program). */
enum sim_err {
	SIM_OK = 0,
	SIM_ERR_CONFIG = -1,   /* bad configuration file or override */
	SIM_ERR_INPUT = -2,    /* bad workload file, PTX, data file */
	SIM_ERR_USAGE = -3,    /* bad command line */
	SIM_ERR_IO = -4,       /* a file could not be read or written */
	SIM_ERR_NOMEM = -5,    /* allocation failed while building */
	SIM_ERR_FAULT = -6,    /* simulator fault: deadlock, invariant violated */
	SIM_ERR_PROGRAM = -7,  /* the simulated kernel is at fault (OOB access, stuck barrier) */
	SIM_ERR_BUDGET = -8,   /* not a failure: the run's budget (sim.max_*) is spent and
				* sim.on_budget is stop; the caller ends the program cleanly, its
				* statistics (complete up to the cap) written. Exit status 0 */
};

struct sim_error {
	enum sim_err code;
	char file[256];    /* input file the error is about, "" if none */
	int line, column;  /* 1-based; 0 when unknown */
	char setting[128]; /* config path / flag / opcode the error is about, "" if none */
	char msg[512];
};

/* Fill err (if non-NULL) and return code, so callers can write
 * `return sim_error_set(err, SIM_ERR_INPUT, f, l, c, NULL, "...")`.
 * file and setting may be NULL. */
int sim_error_set(struct sim_error *err, enum sim_err code, const char *file, int line,
		  int column, const char *setting, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
int sim_error_vset(struct sim_error *err, enum sim_err code, const char *file, int line,
		   int column, const char *setting, const char *fmt, va_list ap);

/* Clear to SIM_OK. */
void sim_error_clear(struct sim_error *err);

/* One line: "file:line:col: setting: msg" (parts omitted when empty). */
void sim_error_format(const struct sim_error *err, char *buf, size_t n);

/* 2 for CONFIG/INPUT/USAGE/IO, 1 for FAULT/PROGRAM/NOMEM, 0 for OK and BUDGET. */
int sim_error_exit_status(const struct sim_error *err);

/* Internal invariant; on in every build. Never for user input. */
#define SIM_ASSERT(cond)                                                              \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "%s:%d: internal invariant failed: %s\n",     \
				__FILE__, __LINE__, #cond);                           \
			abort();                                                      \
		}                                                                     \
	} while (0)

#define SIM_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define SIM_CONTAINER_OF(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))

#endif
