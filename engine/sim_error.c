/* SPDX-License-Identifier: MIT */
/* struct sim_error helpers: fill, format, map to an exit status. */
#include "sim_error.h"

#include <string.h>

int sim_error_vset(struct sim_error *err, enum sim_err code, const char *file, int line,
		   int column, const char *setting, const char *fmt, va_list ap)
{
	if (!err)
		return code;
	err->code = code;
	snprintf(err->file, sizeof err->file, "%s", file ? file : "");
	err->line = line;
	err->column = column;
	snprintf(err->setting, sizeof err->setting, "%s", setting ? setting : "");
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	return code;
}

int sim_error_set(struct sim_error *err, enum sim_err code, const char *file, int line,
		  int column, const char *setting, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = sim_error_vset(err, code, file, line, column, setting, fmt, ap);
	va_end(ap);
	return rc;
}

void sim_error_clear(struct sim_error *err)
{
	memset(err, 0, sizeof *err);
}

void sim_error_format(const struct sim_error *err, char *buf, size_t n)
{
	size_t off = 0;
	buf[0] = '\0';
	if (err->file[0]) {
		off += (size_t)snprintf(buf + off, n - off, "%s:", err->file);
		if (off < n && err->line > 0)
			off += (size_t)snprintf(buf + off, n - off, "%d:", err->line);
		if (off < n && err->line > 0 && err->column > 0)
			off += (size_t)snprintf(buf + off, n - off, "%d:", err->column);
		if (off < n)
			off += (size_t)snprintf(buf + off, n - off, " ");
	}
	if (off < n && err->setting[0])
		off += (size_t)snprintf(buf + off, n - off, "%s: ", err->setting);
	if (off < n)
		snprintf(buf + off, n - off, "%s", err->msg);
}

int sim_error_exit_status(const struct sim_error *err)
{
	switch (err->code) {
	case SIM_OK:
	case SIM_ERR_BUDGET:
		return 0;
	case SIM_ERR_CONFIG:
	case SIM_ERR_INPUT:
	case SIM_ERR_USAGE:
	case SIM_ERR_IO:
		return 2;
	case SIM_ERR_NOMEM:
	case SIM_ERR_FAULT:
	case SIM_ERR_PROGRAM:
		return 1;
	}
	return 1;
}
