/* SPDX-License-Identifier: MIT */
/* Free-list object pools: objects are carved from chunks allocated while the pool warms up;
 * once the live set stops growing, alloc and free are a pointer swap and a memset. */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

int sim_pool_init(struct sim_pool *p, size_t obj_bytes, uint32_t chunk_objs, struct sim_error *err)
{
	memset(p, 0, sizeof *p);
	if (obj_bytes == 0 || chunk_objs == 0)
		return sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, NULL,
				     "sim_pool_init: object size (%zu) and chunk size (%u) must be > 0",
				     obj_bytes, chunk_objs);
	p->obj_bytes = obj_bytes;
	/* 16-byte stride keeps every object aligned for any scalar type it holds. */
	size_t stride = obj_bytes < sizeof(void *) ? sizeof(void *) : obj_bytes;
	p->stride_bytes = (stride + 15) & ~(size_t)15;
	p->chunk_objs = chunk_objs;
	return 0;
}

void sim_pool_fini(struct sim_pool *p)
{
	for (uint32_t i = 0; i < p->n_chunks; i++)
		free(p->chunks[i]);
	free(p->chunks);
	p->chunks = NULL;
	p->n_chunks = p->cap_chunks = 0;
	p->free_list = NULL;
}

/* Cold: runs only while the live set is larger than ever before. */
static __attribute__((noinline)) int pool_grow(struct sim_pool *p)
{
	if (p->n_chunks == p->cap_chunks) {
		uint32_t cap = p->cap_chunks ? p->cap_chunks * 2 : 8;
		void **chunks = realloc(p->chunks, cap * sizeof *chunks);
		if (!chunks)
			return -1;
		p->chunks = chunks;
		p->cap_chunks = cap;
	}
	char *mem = malloc(p->stride_bytes * p->chunk_objs);
	if (!mem)
		return -1;
	p->chunks[p->n_chunks++] = mem;
	/* Thread the new objects in address order so the first alloc takes the lowest. */
	for (uint32_t i = p->chunk_objs; i-- > 0;) {
		void *obj = mem + i * p->stride_bytes;
		*(void **)obj = p->free_list;
		p->free_list = obj;
	}
	p->capacity += p->chunk_objs;
	return 0;
}

void *sim_pool_alloc(struct sim_pool *p)
{
	if (!p->free_list && pool_grow(p) != 0)
		return NULL;
	void *obj = p->free_list;
	p->free_list = *(void **)obj;
	memset(obj, 0, p->obj_bytes);
	p->allocated++;
	return obj;
}

void sim_pool_free(struct sim_pool *p, void *obj)
{
	SIM_ASSERT(p->freed < p->allocated); /* more frees than allocs: a double free */
	*(void **)obj = p->free_list;
	p->free_list = obj;
	p->freed++;
}
