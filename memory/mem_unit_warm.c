/* SPDX-License-Identifier: MIT */
/* Warming the L1D without timing (sim.functional_launches_cache = warm): a memory instruction
 * the functional executor ran, applied to the tags as the L1 stage (mem_unit.c stage_access)
 * applies it, what would go below handed on to the caller. */
#include "mem_unit_int.h"

/* A line that leaves or passes the L1 goes below as one access. */
static void below_victim(const struct cache *c, const struct cache_victim *v, mem_unit_below_fn below, void *ctx)
{
	if (v->valid && v->dirty)
		below(ctx, v->addr, c->cfg.line_bytes);
}

void mem_unit_warm(struct mem_unit *m, const struct warp_inst *wi, mem_unit_below_fn below, void *ctx)
{
	const struct wi_static *si = wi->si;
	uint8_t cid = mu_space_cache(si->space);
	if (cid != MU_L1D || (si->space != WI_SPACE_GLOBAL && si->space != WI_SPACE_LOCAL) ||
	    si->mem_kind == WI_MEM_NONE || m->model == MU_PERFECT_L1 || m->model == MU_FIXED)
		return;
	struct cache *c = &m->cache[MU_L1D];
	const struct coal_cfg *cc =
		si->mem_kind == WI_MEM_ATOMIC && m->coal_atomic.line_bytes ? &m->coal_atomic : &m->coal[MU_L1D];
	uint32_t n = coal_run(cc, wi, m->warm_reqs);
	for (uint32_t i = 0; i < n; i++) {
		const struct coal_req *cr = &m->warm_reqs[i];
		uint64_t line = cache_line_base(c, cr->line_addr);
		struct cache_victim v;
		switch (si->mem_kind) {
		case WI_MEM_ATOMIC:
			/* performed at L2; the L1's copy is dropped */
			cache_invalidate(c, line);
			below(ctx, cr->line_addr, cr->bytes);
			break;
		case WI_MEM_STORE:
			if (c->cfg.write_policy == CACHE_WRITE_BACK) {
				/* write-allocate without fetch: the written sectors valid and dirty */
				if (!cache_touch(c, line, true, cr->sectors).hit) {
					cache_fill(c, line, cr->sectors, true, false, &v);
					m->warm_fills++;
					below_victim(c, &v, below, ctx);
				}
				break;
			}
			if (mu_local_store_kept(m, si->space == WI_SPACE_LOCAL, line, cr->sectors, false))
				break;
			/* write-through updates a present line, write-evict drops it; the data goes
			 * below either way */
			cache_touch(c, line, true, cr->sectors);
			below(ctx, line, cr->bytes);
			break;
		default: /* a load: a hit stays in the L1, a miss is filled from below */
			if (cache_touch(c, line, false, cr->sectors).hit)
				break;
			below(ctx, line, cr->bytes);
			cache_fill(c, line, cr->sectors, false, false, &v);
			m->warm_fills++;
			below_victim(c, &v, below, ctx);
			break;
		}
	}
}
