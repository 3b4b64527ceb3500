/* SPDX-License-Identifier: MIT */
/* Private to link.c and link_cfg.c: the linked kernel's control-flow graph and the analyses
 * over it, which link_kernel runs in this order: fe_link_cfg_build, fe_link_post_dominators,
 * fe_link_phases, fe_link_regs_estimate. */
#ifndef WARPSIM_FE_LINK_INT_H
#define WARPSIM_FE_LINK_INT_H

#include <stdlib.h>

#include "fe_int.h"

static inline void *fe_link_calloc(size_t n, size_t s)
{
	void *p = calloc(n ? n : 1, s);
	if (!p)
		abort(); /* load-time allocation; the host is out of memory */
	return p;
}

struct fe_link_cfg {
	uint32_t nb;           /* blocks; node nb is the virtual exit */
	uint32_t *start;       /* [nb] first pc */
	uint32_t *block_of;    /* [n_insts] */
	uint32_t (*succ)[2];   /* [nb] successors (UINT32_MAX none; nb = exit) */
	uint32_t *ipdom;       /* [nb] */
};

void fe_link_cfg_free(struct fe_link_cfg *g);
/* The basic blocks of k (a block also starts where func_start_mark[pc] is set) and their
 * successors. */
void fe_link_cfg_build(const struct fe_kernel *k, const uint8_t *func_start_mark, struct fe_link_cfg *g);
/* g->ipdom: each block's immediate post-dominator (g->nb: the virtual exit). */
void fe_link_post_dominators(struct fe_link_cfg *g);
/* k's phases (wi_static.phase_id, k->n_phases, k->phase_len). */
void fe_link_phases(struct fe_kernel *k, const struct fe_link_cfg *g);
/* k's register estimate (returned) and k->entry_regs. */
uint32_t fe_link_regs_estimate(struct fe_kernel *k, const struct fe_link_cfg *g, const uint8_t *reg_bytes);

#endif
