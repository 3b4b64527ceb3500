/* SPDX-License-Identifier: MIT */
/* warpsim entry point: dispatch to a subcommand, print its error once, choose the exit status. */
#include <stdio.h>
#include <string.h>

#include "commands.h"

static void usage(FILE *out)
{
	fprintf(out, "usage: warpsim COMMAND [options]   (warpsim COMMAND --help for its options)\n\ncommands:\n");
	for (unsigned i = 0; i < ws_n_commands; i++)
		fprintf(out, "  %-10s %s\n", ws_commands[i].name, ws_commands[i].summary);
	fprintf(out, "\n  --help     this text\n  --version  print the version\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "warpsim: missing command (try warpsim --help)\n");
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("warpsim %s\n", WARPSIM_VERSION);
		return 0;
	}
	for (unsigned i = 0; i < ws_n_commands; i++) {
		if (strcmp(argv[1], ws_commands[i].name))
			continue;
		struct sim_error err;
		sim_error_clear(&err);
		int rc = ws_commands[i].run(argc - 1, argv + 1, &err);
		if (rc > 0)
			return rc;
		if (rc < 0) {
			char line[1024];
			if (err.code == SIM_OK)
				err.code = (enum sim_err)rc;
			sim_error_format(&err, line, sizeof line);
			fprintf(stderr, "warpsim %s: %s\n", argv[1], line);
			return sim_error_exit_status(&err);
		}
		return 0;
	}
	fprintf(stderr, "warpsim: unknown command '%s' (try warpsim --help)\n", argv[1]);
	return 2;
}
