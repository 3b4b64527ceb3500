/* SPDX-License-Identifier: MIT */
/* Subcommands of the warpsim binary: each lives in its own tools/cmd_*.c and is listed in commands.c. */
#ifndef WARPSIM_COMMANDS_H
#define WARPSIM_COMMANDS_H

#include "../engine/sim_error.h"

/* A subcommand gets argv after its name (argv[0] is the subcommand itself) and returns
 * 0 or a negative enum sim_err with err filled; main prints err and picks the exit status.
 * A command that already printed its own outcome (e.g. a simulation fault report) may
 * return a positive exit status directly. */
struct ws_command {
	const char *name;
	const char *summary;   /* one line for --help */
	int (*run)(int argc, char **argv, struct sim_error *err);
};

extern const struct ws_command ws_commands[];
extern const unsigned ws_n_commands;

#endif
