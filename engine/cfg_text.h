/* SPDX-License-Identifier: MIT */
/* Checks on libconfig input that libconfig itself does not make: only regular files are opened
 * (a FIFO would block, a directory gives flex's "input in flex scanner failed"), and integer
 * literals beyond 32 bits written without L, which libconfig 1.5 wraps (4294967300 -> 4). */
#ifndef WARPSIM_CFG_TEXT_H
#define WARPSIM_CFG_TEXT_H

#include <libconfig.h>

#include "sim_error.h"

/* After a successful config_read_*: scans the text of every file that contributed a setting to
 * lc (the @include'd ones too) for unsuffixed integer literals outside -2^31..2^31-1 that
 * libconfig stored as a wrapped 32-bit int. Returns 0, or fills err (code, file:line, the
 * setting's path such as "launches[0].grid" or "gpu.core.count") and returns -code.
 * text/name: the text of an in-memory config (config_read_string) and the name to report;
 * NULL when lc was read from files. */
int cfg_lc_check_wrapped_ints(const config_t *lc, const char *text, const char *name,
			      enum sim_err code, struct sim_error *err);

/* Before opening path: it must be a regular file. what names it in the message ("configuration
 * file", "PTX file"); the error is at file:line when file is non-NULL (an @include), else at
 * path. Returns 0 or -code. */
int cfg_check_regular_file(const char *path, const char *what, const char *file, int line,
			   enum sim_err code, struct sim_error *err);

/* Before config_read_file(path) with include_dir: path and every file it @includes, at any
 * depth, must be regular files; an @include naming something else is reported at its line. */
int cfg_check_includes(const char *path, const char *include_dir, enum sim_err code,
		       struct sim_error *err);
/* The same for configuration text given as a string (named name in messages); its @include
 * names are relative to the working directory, as libconfig reads them. */
int cfg_check_includes_in(const char *text, const char *name, enum sim_err code, struct sim_error *err);

#endif
