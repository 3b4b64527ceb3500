/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: the workload-file loader (libconfig + validation) on arbitrary text,
 * written next to the vecadd PTX so that valid files can reach the launch checks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workloads/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	snprintf(path, sizeof path, "workloads/vecadd/.fuzz-%ld.cfg", (long)getpid());
	FILE *f = fopen(path, "wb");
	if (!f)
		return 0;
	fwrite(data, 1, size, f);
	fclose(f);
	struct sim_error err;
	struct workload *w = workload_load(path, &err);
	workload_destroy(w);
	unlink(path);
	return 0;
}
