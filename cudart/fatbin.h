/* SPDX-License-Identifier: MIT */
/* Reading the device code nvcc embeds in a program: the fat binary wrapper handed to
 * __cudaRegisterFatBinary, its container of PTX and cubin entries (each possibly compressed:
 * nvcc 13 compresses with zstd by default, --compress-mode=speed with LZ4), the PTX text, and
 * the register count of each kernel from a cubin. */
#ifndef WARPSIM_FATBIN_H
#define WARPSIM_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#define FATBIN_WRAPPER_MAGIC 0x466243b1u
#define FATBIN_MAGIC 0xba55ed50u

/* What one fat binary holds that warpsim uses. */
struct fatbin_code {
	char *ptx;              /* NUL-terminated PTX of the newest virtual arch, or NULL */
	uint32_t ptx_arch;      /* e.g. 75 */
	uint32_t n_regs;
	struct {
		char *kernel;   /* mangled name */
		uint32_t regs;  /* registers per thread the cubin's code uses */
	} *regs;
	uint32_t cubin_arch;    /* the cubin the counts come from (sm_75 preferred), 0 if none */
};

/* Read the wrapper at p (or a bare container starting with FATBIN_MAGIC). 0, or -1 with a
 * message in why: bad magic, truncated entry, failed decompression. A container with no PTX
 * is not an error (ptx stays NULL). */
int fatbin_read(const void *p, struct fatbin_code *out, char *why, size_t why_len);
void fatbin_code_fini(struct fatbin_code *c);

/* LZ4 block format (no frame): 0 and *out_len, or -1 if src is malformed or dst too small. */
int fatbin_lz4_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_cap,
		      size_t *out_len);
/* Register counts from a cubin (ELF): the top byte of each .text.<kernel> section's sh_info.
 * Appends to c->regs; -1 if the ELF is malformed. */
int fatbin_cubin_regs(const uint8_t *elf, size_t len, struct fatbin_code *c);

#endif
