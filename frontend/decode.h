/* SPDX-License-Identifier: MIT */
/* Private to frontend/: opcode/modifier decoding and static classification of instructions. */
#ifndef WARPSIM_FE_DECODE_H
#define WARPSIM_FE_DECODE_H

#include <stddef.h>

#include "fe_int.h"

/* Decode "ld.global.v4.f32" into in (zeroed first). On an unknown opcode or modifier returns -1
 * and writes the offending text to bad. */
int fe_decode_opcode(const char *s, size_t n, struct fe_inst *in, char *bad, size_t bad_n);
/* enum fe_type of "u32" etc., -1 if not a type name. */
int fe_type_from_name(const char *s, size_t n);
/* enum fe_sreg of "%tid.x" etc., -1 if unknown. */
int fe_sreg_from_name(const char *s, size_t n);
extern const char *const fe_sreg_names[FE_SR_COUNT];
/* unit, lat_class, space, mem_kind, access_bytes, vec, flags of ws from in. */
void fe_inst_classify(const struct fe_inst *in, struct wi_static *ws);

#endif
