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
/* A wmma fragment's shape: the rows x cols matrix it holds, its registers per lane, elements
 * per register and element bytes. false: no such fragment (sm_75's f16, s8/u8 and s32/f32
 * fragments of the three shapes; the sub-byte and bf16/tf32 ones are not supported). */
struct fe_wmma_geom {
	uint32_t rows, cols, regs, epr, esize;
};
bool fe_wmma_geom(uint8_t frag, uint8_t shape, uint8_t type, struct fe_wmma_geom *g);
/* Bytes per lane of a wmma.load/store's memory access (exec_wmma.c lays the fragment's rows
 * or columns out over the lanes), 0 for other instructions. */
uint32_t fe_wmma_lane_bytes(const struct fe_inst *in);
/* unit, lat_class, space, mem_kind, access_bytes, vec, flags of ws from in. */
void fe_inst_classify(const struct fe_inst *in, struct wi_static *ws);

#endif
