/* SPDX-License-Identifier: MIT */
/* Fat binary container: a 16-byte header (magic, version, header size, payload size), then
 * entries, each a header (kind 1 = PTX, 2 = cubin; header size; payload size; compressed size;
 * arch; flags: 0x2000 LZ4, 0x8000 zstd; uncompressed size) and its payload. Layout found by
 * reading binaries nvcc 13 builds (tests/cudart/test_fatbin.c holds such entries). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zstd.h>

#include "fatbin.h"

#define KIND_PTX 1
#define KIND_CUBIN 2
#define FLAG_LZ4 0x2000u
#define FLAG_ZSTD 0x8000u
#define MAX_PAYLOAD_BYTES (1ull << 31)

static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

int fatbin_lz4_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_cap,
		      size_t *out_len)
{
	size_t i = 0, o = 0;
	while (i < src_len) {
		uint8_t tok = src[i++];
		size_t lit = tok >> 4;
		if (lit == 15) {
			uint8_t b;
			do {
				if (i >= src_len)
					return -1;
				b = src[i++];
				lit += b;
			} while (b == 255);
		}
		if (lit > src_len - i || lit > dst_cap - o)
			return -1;
		memcpy(dst + o, src + i, lit);
		i += lit;
		o += lit;
		if (i == src_len)
			break; /* the last sequence has literals only */
		if (src_len - i < 2)
			return -1;
		size_t off = rd16(src + i);
		i += 2;
		size_t len = (tok & 15u) + 4;
		if ((tok & 15u) == 15) {
			uint8_t b;
			do {
				if (i >= src_len)
					return -1;
				b = src[i++];
				len += b;
			} while (b == 255);
		}
		if (!off || off > o || len > dst_cap - o)
			return -1;
		for (size_t k = 0; k < len; k++, o++) /* byte by byte: matches may overlap */
			dst[o] = dst[o - off];
	}
	*out_len = o;
	return 0;
}

static bool add_reg(struct fatbin_code *c, const char *name, size_t n, uint32_t regs)
{
	void *nr = realloc(c->regs, (c->n_regs + 1) * sizeof *c->regs);
	if (!nr)
		return false;
	c->regs = nr;
	char *k = malloc(n + 1);
	if (!k)
		return false;
	memcpy(k, name, n);
	k[n] = '\0';
	c->regs[c->n_regs].kernel = k;
	c->regs[c->n_regs++].regs = regs;
	return true;
}

int fatbin_cubin_regs(const uint8_t *elf, size_t len, struct fatbin_code *c)
{
	if (len < 64 || memcmp(elf, "\177ELF", 4) || elf[4] != 2)
		return -1;
	uint64_t shoff = rd64(elf + 0x28);
	uint16_t shentsize = rd16(elf + 0x3a), shnum = rd16(elf + 0x3c), shstrndx = rd16(elf + 0x3e);
	if (shentsize < 64 || shoff > len || (uint64_t)shnum * shentsize > len - shoff ||
	    shstrndx >= shnum)
		return -1;
	const uint8_t *strsh = elf + shoff + (uint64_t)shstrndx * shentsize;
	uint64_t stroff = rd64(strsh + 0x18), strsize = rd64(strsh + 0x20);
	if (stroff > len || strsize > len - stroff)
		return -1;
	for (uint16_t i = 0; i < shnum; i++) {
		const uint8_t *sh = elf + shoff + (uint64_t)i * shentsize;
		uint32_t name = rd32(sh);
		if (name >= strsize)
			return -1;
		const char *nm = (const char *)elf + stroff + name;
		size_t nmax = strsize - name, nlen = strnlen(nm, nmax);
		if (nlen == nmax)
			return -1;
		if (nlen <= 6 || strncmp(nm, ".text.", 6))
			continue;
		uint32_t info = rd32(sh + 0x2c);
		if (!add_reg(c, nm + 6, nlen - 6, info >> 24))
			return -1;
	}
	return 0;
}

/* Payload of an entry, decompressed if it is compressed; *owned set when malloc'ed. */
static const uint8_t *entry_payload(const uint8_t *e, uint32_t hsz, uint64_t psz, size_t *n,
				    bool *owned, char *why, size_t why_len)
{
	const uint8_t *pl = e + hsz;
	uint32_t flags = hsz >= 48 ? rd32(e + 40) : 0;
	*owned = false;
	if (!(flags & (FLAG_LZ4 | FLAG_ZSTD))) {
		*n = psz;
		return pl;
	}
	uint64_t csz = hsz >= 24 ? rd32(e + 16) : 0, usz = hsz >= 64 ? rd64(e + 56) : 0;
	if (!csz || csz > psz || !usz || usz > MAX_PAYLOAD_BYTES) {
		snprintf(why, why_len, "compressed entry with bad sizes (%llu in %llu bytes, %llu out)",
			 (unsigned long long)csz, (unsigned long long)psz, (unsigned long long)usz);
		return NULL;
	}
	uint8_t *out = malloc(usz + 1);
	if (!out) {
		snprintf(why, why_len, "out of memory");
		return NULL;
	}
	size_t got = 0;
	if (flags & FLAG_ZSTD) {
		size_t r = ZSTD_decompress(out, usz, pl, csz);
		if (ZSTD_isError(r)) {
			snprintf(why, why_len, "zstd: %s", ZSTD_getErrorName(r));
			free(out);
			return NULL;
		}
		got = r;
	} else if (fatbin_lz4_decode(pl, csz, out, usz, &got)) {
		snprintf(why, why_len, "malformed LZ4 data");
		free(out);
		return NULL;
	}
	if (got != usz) {
		snprintf(why, why_len, "decompressed %zu bytes, the entry says %llu", got,
			 (unsigned long long)usz);
		free(out);
		return NULL;
	}
	out[usz] = 0;
	*n = usz;
	*owned = true;
	return out;
}

int fatbin_read(const void *p, struct fatbin_code *out, char *why, size_t why_len)
{
	memset(out, 0, sizeof *out);
	const uint8_t *b = p;
	if (!b) {
		snprintf(why, why_len, "no fat binary");
		return -1;
	}
	if (rd32(b) == FATBIN_WRAPPER_MAGIC) {
		const void *data;
		memcpy(&data, b + 8, sizeof data);
		b = data;
		if (!b) {
			snprintf(why, why_len, "fat binary wrapper without data");
			return -1;
		}
	}
	if (rd32(b) != FATBIN_MAGIC) {
		snprintf(why, why_len, "not a fat binary (magic 0x%08x)", rd32(b));
		return -1;
	}
	uint16_t hsz = rd16(b + 6);
	uint64_t total = rd64(b + 8);
	if (hsz < 16 || total > MAX_PAYLOAD_BYTES) {
		snprintf(why, why_len, "bad fat binary header");
		return -1;
	}
	bool cubin75 = false;
	for (uint64_t off = hsz; off + 16 <= hsz + total;) {
		const uint8_t *e = b + off;
		uint16_t kind = rd16(e);
		uint32_t ehsz = rd32(e + 4);
		uint64_t psz = rd64(e + 8);
		if (ehsz < 16 || psz > total || off + ehsz + psz > hsz + total) {
			snprintf(why, why_len, "truncated fat binary entry at byte %llu",
				 (unsigned long long)off);
			fatbin_code_fini(out);
			return -1;
		}
		uint32_t arch = ehsz >= 32 ? rd32(e + 28) : 0;
		bool want_ptx = kind == KIND_PTX && (!out->ptx || arch > out->ptx_arch);
		bool want_cubin = kind == KIND_CUBIN && !cubin75 && (!out->cubin_arch || arch == 75);
		if (want_ptx || want_cubin) {
			size_t n;
			bool owned;
			const uint8_t *pl = entry_payload(e, ehsz, psz, &n, &owned, why, why_len);
			if (!pl) {
				fatbin_code_fini(out);
				return -1;
			}
			if (want_ptx) {
				char *t = malloc(n + 1);
				if (t) {
					memcpy(t, pl, n);
					t[n] = '\0';
					free(out->ptx);
					out->ptx = t;
					out->ptx_arch = arch;
				}
			} else {
				/* counts from one cubin only */
				for (uint32_t i = 0; i < out->n_regs; i++)
					free(out->regs[i].kernel);
				out->n_regs = 0;
				if (!fatbin_cubin_regs(pl, n, out)) {
					out->cubin_arch = arch;
					cubin75 = arch == 75;
				}
			}
			if (owned)
				free((void *)pl);
		}
		off += ehsz + psz;
	}
	return 0;
}

void fatbin_code_fini(struct fatbin_code *c)
{
	free(c->ptx);
	for (uint32_t i = 0; i < c->n_regs; i++)
		free(c->regs[i].kernel);
	free(c->regs);
	memset(c, 0, sizeof *c);
}
