/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: `warpsim report` on an arbitrary results.csv (or, when the input starts
 * "kernel,", a run's samples.csv), in a directory of its own. gnuplot is kept off PATH, so a
 * figure ends the report with an error after the tables: the reader, the run checks and the
 * table code are what is fuzzed, at one fork per input at most. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/sim_error.h"
#include "tools/commands.h"

static char dir[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	setenv("PATH", "/nonexistent", 1);
	snprintf(dir, sizeof dir, "/tmp/ws_fuzz_report_XXXXXX");
	if (!mkdtemp(dir))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool samples = size >= 7 && !memcmp(data, "kernel,", 7);
	char path[128];
	snprintf(path, sizeof path, "%s/results.csv", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/samples.csv", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/%s", dir, samples ? "samples.csv" : "results.csv");
	FILE *f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	char *argv[] = {"report", dir, NULL};
	struct sim_error err = {0};
	FILE *out = freopen("/dev/null", "w", stdout);
	(void)out;
	for (unsigned i = 0; i < ws_n_commands; i++)
		if (!strcmp(ws_commands[i].name, "report"))
			(void)ws_commands[i].run(2, argv, &err);
	return 0;
}
