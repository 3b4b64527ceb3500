/* SPDX-License-Identifier: MIT */
/* libFuzzer harness: the PTX lexer, parser and decoder on arbitrary text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frontend/fe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	struct fe_module *m = NULL;
	struct sim_error err;
	if (!fe_module_parse_string("fuzz.ptx", text, &m, &err))
		fe_module_destroy(m);
	free(text);
	return 0;
}
