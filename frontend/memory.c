/* SPDX-License-Identifier: MIT */
/* Functional device memory: a sparse, paged global address space (4 KiB pages in an
 * open-addressing table) with a bump allocator, mapped slack around allocations, and the
 * .global/.const variables of bound modules. */
#include <stdlib.h>
#include <string.h>

#include "fe_int.h"

#define PAGE_BITS FE_PAGE_BITS
#define PAGE_BYTES (1ull << PAGE_BITS)

/* A page is in the table while an allocation owns it or some allocation's slack covers it
 * (FE_SLACK_BYTES): data is what an access reaches, the owner's page or else the slack page;
 * slack is the page's slack backing (NULL while no slack covers it), refs the allocations
 * whose slack does. */
struct page_ent {
	uint64_t key;   /* page number + 1; 0 = empty slot */
	uint8_t *data;
	uint8_t *slack;
	uint64_t refs;
};

struct binding {
	const struct fe_module *m;
	uint32_t sym;
	uint64_t addr;
};

struct fe_memory {
	struct page_ent *tab;
	uint64_t cap, n;          /* cap is a power of two */
	uint8_t **blocks;            /* [n_blocks] host memory of each allocation, by address */
	uint64_t *block_addr;        /* [n_blocks] its device address (increasing) */
	uint64_t *block_bytes;       /* [n_blocks] bytes asked for */
	uint32_t n_blocks, cap_blocks;
	uint64_t live_bytes;         /* sum of block_bytes */
	uint64_t next_addr;
	struct binding *binds;
	uint32_t n_binds, cap_binds;
	struct fe_tex_desc *texs;
	uint32_t n_texs, cap_texs;
};

/* Texture handles carry a tag so that a stray integer is not taken for a texture. */
#define TEX_HANDLE_TAG 0x7e5700000000ull

struct fe_memory *fe_memory_create(void)
{
	struct fe_memory *mem = calloc(1, sizeof *mem);
	if (!mem)
		return NULL;
	mem->cap = 1024;
	mem->tab = calloc(mem->cap, sizeof *mem->tab);
	if (!mem->tab) {
		free(mem);
		return NULL;
	}
	mem->next_addr = FE_GLOBAL_BASE;
	return mem;
}

void fe_memory_destroy(struct fe_memory *mem)
{
	if (!mem)
		return;
	for (uint32_t i = 0; i < mem->n_blocks; i++)
		free(mem->blocks[i]);
	for (uint64_t i = 0; i < mem->cap; i++)
		free(mem->tab[i].slack);
	free(mem->blocks);
	free(mem->block_addr);
	free(mem->block_bytes);
	free(mem->tab);
	free(mem->binds);
	free(mem->texs);
	free(mem);
}

static uint64_t hash64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static uint8_t *page_find(const struct fe_memory *mem, uint64_t pno)
{
	uint64_t mask = mem->cap - 1, i = hash64(pno) & mask;
	for (;;) {
		const struct page_ent *e = &mem->tab[i];
		if (e->key == pno + 1)
			return e->data;
		if (!e->key)
			return NULL;
		i = (i + 1) & mask;
	}
}

/* The slot of e's page (a free one if absent). */
static struct page_ent *page_slot(struct page_ent *tab, uint64_t cap, uint64_t pno)
{
	uint64_t mask = cap - 1, i = hash64(pno) & mask;
	while (tab[i].key && tab[i].key != pno + 1)
		i = (i + 1) & mask;
	return &tab[i];
}

static bool table_reserve(struct fe_memory *mem, uint64_t extra)
{
	if ((mem->n + extra) * 2 <= mem->cap)
		return true;
	uint64_t nc = mem->cap;
	while ((mem->n + extra) * 2 > nc)
		nc *= 2;
	struct page_ent *nt = calloc(nc, sizeof *nt);
	if (!nt)
		return false;
	for (uint64_t i = 0; i < mem->cap; i++)
		if (mem->tab[i].key)
			*page_slot(nt, nc, mem->tab[i].key - 1) = mem->tab[i];
	free(mem->tab);
	mem->tab = nt;
	mem->cap = nc;
	return true;
}

/* The table entry of page pno, added (unmapped, no slack) if absent; room was reserved. */
static struct page_ent *page_entry(struct fe_memory *mem, uint64_t pno)
{
	struct page_ent *e = page_slot(mem->tab, mem->cap, pno);
	if (!e->key) {
		*e = (struct page_ent){.key = pno + 1};
		mem->n++;
	}
	return e;
}

/* One more allocation's slack covers pages first .. first+n-1: those no allocation owns are
 * mapped to their slack page (zeros at first; a host out of memory leaves one unmapped). */
static void slack_add(struct fe_memory *mem, uint64_t first, uint64_t n)
{
	for (uint64_t q = first; q < first + n; q++) {
		struct page_ent *e = page_entry(mem, q);
		e->refs++;
		if (!e->data) {
			if (!e->slack)
				e->slack = calloc(1, PAGE_BYTES);
			e->data = e->slack;
		}
	}
}

/* Remove page pno from the table: linear probing, so the entries after it in its cluster
 * move back into the hole when their home slot does not lie between hole and them. */
static void page_remove(struct fe_memory *mem, uint64_t pno);

/* One allocation's slack no longer covers pages first .. first+n-1. */
static void slack_drop(struct fe_memory *mem, uint64_t first, uint64_t n)
{
	for (uint64_t q = first; q < first + n; q++) {
		struct page_ent *e = page_slot(mem->tab, mem->cap, q);
		SIM_ASSERT(e->key && e->refs);
		if (--e->refs)
			continue;
		bool owned = e->data && e->data != e->slack;
		free(e->slack);
		e->slack = NULL;
		if (!owned)
			page_remove(mem, q);
	}
}

uint64_t fe_mem_alloc(struct fe_memory *mem, uint64_t bytes)
{
	if (!mem || bytes > (1ull << 40))
		return 0;
	uint64_t pages = (bytes + PAGE_BYTES - 1) >> PAGE_BITS;
	if (!pages)
		pages = 1;
	const uint64_t sp = FE_SLACK_BYTES >> PAGE_BITS;
	if (!table_reserve(mem, pages + 2 * sp))
		return 0;
	if (mem->n_blocks == mem->cap_blocks) {
		uint32_t nc = mem->cap_blocks ? mem->cap_blocks * 2 : 16;
		uint8_t **nb = realloc(mem->blocks, nc * sizeof *nb);
		if (nb)
			mem->blocks = nb;
		uint64_t *na = nb ? realloc(mem->block_addr, nc * sizeof *na) : NULL;
		if (na)
			mem->block_addr = na;
		uint64_t *nn = na ? realloc(mem->block_bytes, nc * sizeof *nn) : NULL;
		if (!nn)
			return 0;
		mem->block_bytes = nn;
		mem->cap_blocks = nc;
	}
	uint8_t *block = calloc(pages, PAGE_BYTES);
	if (!block)
		return 0;
	uint64_t addr = mem->next_addr;
	mem->block_addr[mem->n_blocks] = addr;
	mem->block_bytes[mem->n_blocks] = bytes;
	mem->blocks[mem->n_blocks++] = block;
	mem->live_bytes += bytes;
	uint64_t p0 = addr >> PAGE_BITS;
	for (uint64_t p = 0; p < pages; p++)
		page_entry(mem, p0 + p)->data = block + p * PAGE_BYTES;
	slack_add(mem, p0 - sp, sp);
	slack_add(mem, p0 + pages, sp);
	/* a page between allocations (its slack) keeps them apart in address */
	mem->next_addr = addr + (pages + 1) * PAGE_BYTES;
	return addr;
}

/* Index of the allocation whose pages hold addr (slack excluded), or -1. */
static long block_of(const struct fe_memory *mem, uint64_t addr)
{
	uint32_t lo = 0, hi = mem->n_blocks;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		if (mem->block_addr[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -1;
	uint64_t a = mem->block_addr[lo - 1], b = mem->block_bytes[lo - 1];
	uint64_t pages = b ? (b + PAGE_BYTES - 1) >> PAGE_BITS : 1;
	return addr < a + (pages << PAGE_BITS) ? (long)lo - 1 : -1;
}

bool fe_mem_allocation(const struct fe_memory *mem, uint64_t addr, uint64_t *base,
		       uint64_t *bytes)
{
	long i = block_of(mem, addr);
	if (i < 0)
		return false;
	if (base)
		*base = mem->block_addr[i];
	if (bytes)
		*bytes = mem->block_bytes[i];
	return true;
}

uint64_t fe_mem_live_bytes(const struct fe_memory *mem)
{
	return mem->live_bytes;
}

static void page_remove(struct fe_memory *mem, uint64_t pno)
{
	uint64_t mask = mem->cap - 1, i = hash64(pno) & mask;
	while (mem->tab[i].key != pno + 1) {
		if (!mem->tab[i].key)
			return;
		i = (i + 1) & mask;
	}
	mem->tab[i].key = 0;
	mem->n--;
	for (uint64_t j = (i + 1) & mask; mem->tab[j].key; j = (j + 1) & mask) {
		uint64_t home = hash64(mem->tab[j].key - 1) & mask;
		bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
		if (stays)
			continue;
		mem->tab[i] = mem->tab[j];
		mem->tab[j].key = 0;
		i = j;
	}
}

int fe_mem_free(struct fe_memory *mem, uint64_t addr, struct sim_error *err)
{
	long i = block_of(mem, addr);
	if (i < 0 || mem->block_addr[i] != addr)
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, NULL,
				     "0x%llx is not the start of a device allocation",
				     (unsigned long long)addr);
	for (uint32_t t = 0; t < mem->n_texs; t++)
		if (mem->texs[t].addr >= addr && mem->texs[t].addr - addr < mem->block_bytes[i] + PAGE_BYTES)
			mem->texs[t].width = 0; /* a texture over freed memory reads nothing */
	uint64_t b = mem->block_bytes[i];
	uint64_t pages = b ? (b + PAGE_BYTES - 1) >> PAGE_BITS : 1;
	const uint64_t p0 = addr >> PAGE_BITS, sp = FE_SLACK_BYTES >> PAGE_BITS;
	for (uint64_t p = 0; p < pages; p++) {
		/* a page another allocation's slack covers stays mapped, to its slack page */
		struct page_ent *e = page_slot(mem->tab, mem->cap, p0 + p);
		if (!e->refs) {
			page_remove(mem, p0 + p);
			continue;
		}
		if (!e->slack)
			e->slack = calloc(1, PAGE_BYTES);
		e->data = e->slack;
	}
	slack_drop(mem, p0 - sp, sp);
	slack_drop(mem, p0 + pages, sp);
	free(mem->blocks[i]);
	mem->live_bytes -= b;
	uint32_t rest = mem->n_blocks - (uint32_t)i - 1;
	memmove(&mem->blocks[i], &mem->blocks[i + 1], rest * sizeof *mem->blocks);
	memmove(&mem->block_addr[i], &mem->block_addr[i + 1], rest * sizeof *mem->block_addr);
	memmove(&mem->block_bytes[i], &mem->block_bytes[i + 1], rest * sizeof *mem->block_bytes);
	mem->n_blocks--;
	return 0;
}

uint8_t *fe_mem_page(const struct fe_memory *mem, uint64_t pno)
{
	return page_find(mem, pno);
}

uint8_t *fe_mem_ptr(const struct fe_memory *mem, uint64_t addr, uint32_t n)
{
	uint8_t *p = page_find(mem, addr >> PAGE_BITS);
	if (!p)
		return NULL;
	uint64_t off = addr & (PAGE_BYTES - 1);
	if (off + n > PAGE_BYTES) {
		/* pages of one allocation are contiguous in host memory */
		uint8_t *q = page_find(mem, (addr >> PAGE_BITS) + 1);
		if (q != p + PAGE_BYTES)
			return NULL;
	}
	return p + off;
}

static int copy(struct fe_memory *mem, uint64_t addr, uint8_t *host, uint64_t n, bool to_dev,
		struct sim_error *err)
{
	while (n) {
		uint64_t off = addr & (PAGE_BYTES - 1), chunk = PAGE_BYTES - off;
		if (chunk > n)
			chunk = n;
		uint8_t *p = page_find(mem, addr >> PAGE_BITS);
		if (!p)
			return sim_error_set(err, SIM_ERR_PROGRAM, NULL, 0, 0, NULL,
					     "device address 0x%llx is not allocated",
					     (unsigned long long)addr);
		if (to_dev)
			memcpy(p + off, host, chunk);
		else
			memcpy(host, p + off, chunk);
		addr += chunk;
		host += chunk;
		n -= chunk;
	}
	return 0;
}

int fe_mem_write(struct fe_memory *mem, uint64_t addr, const void *src, uint64_t n, struct sim_error *err)
{
	return copy(mem, addr, (uint8_t *)(uintptr_t)src, n, true, err);
}

int fe_mem_read(const struct fe_memory *mem, uint64_t addr, void *dst, uint64_t n, struct sim_error *err)
{
	return copy((struct fe_memory *)(uintptr_t)mem, addr, dst, n, false, err);
}

int fe_memory_sym_addr(const struct fe_memory *mem, const struct fe_module *m, uint32_t sym,
		       uint64_t *addr)
{
	for (uint32_t i = 0; i < mem->n_binds; i++)
		if (mem->binds[i].m == m && mem->binds[i].sym == sym) {
			*addr = mem->binds[i].addr;
			return 0;
		}
	return -1;
}

/* Where a module variable goes in its state space's block: its declared .align, at least 8
 * bytes (PTX aligns an unannotated variable to its type, at most 8). */
static uint64_t var_offset(const struct fe_sym *y, uint64_t end)
{
	uint64_t al = y->align > 8 ? y->align : 8;
	return (end + al - 1) / al * al;
}

/* A module's variables are bound all at once or not at all (fe_memory_bind_module undoes a
 * partial binding on failure), so one binding of the module says it is bound. */
static bool module_bound(const struct fe_memory *mem, const struct fe_module *m)
{
	for (uint32_t i = 0; i < mem->n_binds; i++)
		if (mem->binds[i].m == m)
			return true;
	return false;
}

/* A module's .const variables share one allocation, and its .global ones another, each variable
 * at its alignment in declaration order, as ptxas packs a module's constant bank and its globals
 * (and GPGPU-Sim lays them out): a program's __constant__ tables then fill the constant cache's
 * sets as on the hardware, where one allocation each put every table on a 4 KB boundary, all in
 * the same sets (AES's T-boxes, experiments/README.md). A read past one variable reads the next,
 * as there. */
int fe_memory_bind_module(struct fe_memory *mem, const struct fe_module *m, struct sim_error *err)
{
	static const uint8_t kinds[2] = {FE_SYM_CONST, FE_SYM_GLOBAL};
	if (module_bound(mem, m))
		return 0;
	uint32_t n_binds_before = mem->n_binds;
	int rc = 0;
	for (uint32_t k = 0; k < 2 && !rc; k++) {
		uint64_t end = 0;
		uint32_t n = 0, first = 0;
		for (uint32_t s = 0; s < m->n_syms; s++)
			if (m->syms[s].kind == kinds[k]) {
				if (!n++)
					first = s;
				end = var_offset(&m->syms[s], end) + (m->syms[s].size_bytes ? m->syms[s].size_bytes : 1);
			}
		if (!n)
			continue;
		uint64_t base = fe_mem_alloc(mem, end);
		if (!base) {
			rc = sim_error_set(err, SIM_ERR_NOMEM, m->path, (int)m->syms[first].line, 0,
					   m->syms[first].name, "cannot allocate device memory for the module's %s variables",
					   kinds[k] == FE_SYM_CONST ? ".const" : ".global");
			break;
		}
		if (mem->n_binds + n > mem->cap_binds) {
			uint32_t nc = mem->cap_binds ? mem->cap_binds : 16;
			while (nc < mem->n_binds + n)
				nc *= 2;
			struct binding *nb = realloc(mem->binds, nc * sizeof *nb);
			if (!nb) {
				rc = sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
				break;
			}
			mem->binds = nb;
			mem->cap_binds = nc;
		}
		end = 0;
		for (uint32_t s = first; s < m->n_syms && !rc; s++) {
			const struct fe_sym *y = &m->syms[s];
			if (y->kind != kinds[k])
				continue;
			uint64_t off = var_offset(y, end);
			end = off + (y->size_bytes ? y->size_bytes : 1);
			if (y->init && fe_mem_write(mem, base + off, y->init, y->size_bytes, err))
				rc = err ? err->code : SIM_ERR_PROGRAM;
			else
				mem->binds[mem->n_binds++] = (struct binding){m, s, base + off};
		}
	}
	if (rc)
		mem->n_binds = n_binds_before; /* all or nothing (module_bound) */
	return rc;
}

int fe_symbol(const struct fe_memory *mem, const struct fe_module *m, const char *name,
	      uint64_t *addr, uint64_t *size_bytes, struct sim_error *err)
{
	for (uint32_t s = 0; s < m->n_syms; s++) {
		const struct fe_sym *y = &m->syms[s];
		if ((y->kind != FE_SYM_GLOBAL && y->kind != FE_SYM_CONST) || strcmp(y->name, name))
			continue;
		if (fe_memory_sym_addr(mem, m, s, addr))
			return sim_error_set(err, SIM_ERR_INPUT, m->path, (int)y->line, 0, name,
					     "module not bound to this memory (fe_memory_bind_module)");
		if (size_bytes)
			*size_bytes = y->size_bytes;
		return 0;
	}
	return sim_error_set(err, SIM_ERR_INPUT, m->path, 0, 0, name, "no .global or .const variable of that name");
}

/* Every byte of [a, a+n) in one allocation's own pages (slack excluded). */
static bool range_in_one_block(const struct fe_memory *mem, uint64_t a, uint64_t n)
{
	long i = block_of(mem, a);
	if (i < 0)
		return false;
	uint64_t b = mem->block_bytes[i];
	uint64_t end = mem->block_addr[i] + ((b ? (b + PAGE_BYTES - 1) >> PAGE_BITS : 1) << PAGE_BITS);
	return n <= end - a;
}

int fe_texture_create(struct fe_memory *mem, const struct fe_tex_desc *d, uint64_t *handle,
		      struct sim_error *err)
{
	*handle = 0;
	if (!d->width || !d->height || (d->channels != 1 && d->channels != 2 && d->channels != 4)) {
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, NULL,
				     "texture needs width, height >= 1 and 1, 2 or 4 channels");
	}
	uint64_t texel = 4ull * d->channels;
	uint64_t pitch = d->pitch_bytes ? d->pitch_bytes : d->width * texel;
	/* width x texel < 2^36; the span may not fit 64 bits for a made-up shape, and the pitch is
	 * kept in 32 */
	uint64_t span;
	bool wraps = __builtin_mul_overflow(pitch, (uint64_t)d->height - 1, &span) ||
		     __builtin_add_overflow(span, d->width * texel, &span);
	if (pitch < d->width * texel || pitch > UINT32_MAX || wraps || !range_in_one_block(mem, d->addr, span)) {
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, NULL,
				     "texture of %ux%u texels at 0x%llx does not lie in one allocation",
				     d->width, d->height, (unsigned long long)d->addr);
	}
	if (mem->n_texs == mem->cap_texs) {
		uint32_t nc = mem->cap_texs ? mem->cap_texs * 2 : 8;
		struct fe_tex_desc *nt = realloc(mem->texs, nc * sizeof *nt);
		if (!nt)
			return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		mem->texs = nt;
		mem->cap_texs = nc;
	}
	mem->texs[mem->n_texs] = *d;
	mem->texs[mem->n_texs].pitch_bytes = (uint32_t)pitch;
	*handle = TEX_HANDLE_TAG | ++mem->n_texs;
	return 0;
}

const struct fe_tex_desc *fe_mem_texture(const struct fe_memory *mem, uint64_t handle)
{
	uint64_t i = handle & ~TEX_HANDLE_TAG;
	if ((handle & TEX_HANDLE_TAG) != TEX_HANDLE_TAG || i == 0 || i > mem->n_texs ||
	    !mem->texs[i - 1].width)
		return NULL;
	return &mem->texs[i - 1];
}

int fe_texture_destroy(struct fe_memory *mem, uint64_t handle, struct sim_error *err)
{
	if (!fe_mem_texture(mem, handle))
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, NULL,
				     "0x%llx is not a texture object", (unsigned long long)handle);
	mem->texs[(handle & ~TEX_HANDLE_TAG) - 1].width = 0;
	return 0;
}
