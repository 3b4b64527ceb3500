/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: the configuration loader (every module's schema) on arbitrary text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "components/gpu.h"
#include "engine/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	struct cfg *c = cfg_create();
	struct sim_error err;
	if (c && !gpu_cfg_define_all(c, &err) && !cfg_load_string(c, "fuzz.cfg", text, &err))
		(void)gpu_cfg_validate(c, &err);
	cfg_destroy(c);
	free(text);
	return 0;
}
