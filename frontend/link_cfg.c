/* SPDX-License-Identifier: MIT */
/* Load-time analyses of a linked kernel (link.c): its CFG and post-dominator tree
 * (reconvergence pcs), the PAWS phase analysis and the register estimate with the registers
 * live at the entry. */
#include <stdlib.h>
#include <string.h>

#include "link_int.h"

/* Latencies (cycles) the phase analysis sums per instruction, by wi_lat_class. PAWS Sec III-A
 * sums "instruction latencies" without listing them; these follow GPGPU-Sim's Fermi figures
 * (-ptx_opcode_latency_int/fp/dp: add 4, mul 4, fp div 39, dp 8) with 20 for the SFU, 24 for a
 * shared-memory load and 4 (the issue cost) for global/local accesses, whose memory latency is
 * what phases hide rather than part of a phase. */
const uint32_t fe_phase_latency_cycles[WI_LAT_COUNT] = {
	[WI_LAT_INT] = 4, [WI_LAT_FP32] = 4, [WI_LAT_FP64] = 8, [WI_LAT_MUL] = 4,
	[WI_LAT_DIV] = 39, [WI_LAT_SFU] = 20, [WI_LAT_SHARED] = 24, [WI_LAT_CONST] = 8,
	[WI_LAT_MEM] = 4, [WI_LAT_CTRL] = 4, [WI_LAT_LOGIC] = 4, [WI_LAT_TENSOR] = 64,
};

/* ---- post-dominators ----------------------------------------------------------------- */

void fe_link_cfg_free(struct fe_link_cfg *g)
{
	free(g->start);
	free(g->block_of);
	free(g->succ);
	free(g->ipdom);
}

void fe_link_cfg_build(const struct fe_kernel *k, const uint8_t *func_start_mark, struct fe_link_cfg *g)
{
	uint32_t n = k->n_insts;
	uint8_t *leader = fe_link_calloc(n + 1, 1);
	for (uint32_t pc = 0; pc < n; pc++) {
		const struct fe_inst *in = &k->prog[pc];
		if (func_start_mark[pc])
			leader[pc] = 1;
		if (in->op == FE_OP_BRA) {
			leader[in->o[0].sym] = 1;
			leader[pc + 1] = 1;
		} else if (in->op == FE_OP_RET || in->op == FE_OP_EXIT) {
			leader[pc + 1] = 1;
		}
	}
	leader[0] = 1;
	g->nb = 0;
	for (uint32_t pc = 0; pc < n; pc++)
		g->nb += leader[pc];
	g->start = fe_link_calloc(g->nb, sizeof *g->start);
	g->block_of = fe_link_calloc(n, sizeof *g->block_of);
	g->succ = fe_link_calloc(g->nb, sizeof *g->succ);
	g->ipdom = fe_link_calloc(g->nb, sizeof *g->ipdom);
	uint32_t b = UINT32_MAX;
	for (uint32_t pc = 0; pc < n; pc++) {
		if (leader[pc])
			g->start[++b] = pc;
		g->block_of[pc] = b;
	}
	for (b = 0; b < g->nb; b++) {
		uint32_t end = (b + 1 < g->nb ? g->start[b + 1] : n) - 1;
		const struct fe_inst *in = &k->prog[end];
		uint32_t fall = (end + 1 < n && !func_start_mark[end + 1]) ? g->block_of[end + 1] : g->nb;
		g->succ[b][0] = g->succ[b][1] = UINT32_MAX;
		if (in->op == FE_OP_BRA) {
			g->succ[b][0] = g->block_of[in->o[0].sym];
			if (in->guard != FE_NO_REG)
				g->succ[b][1] = fall;
		} else if (in->op == FE_OP_RET || in->op == FE_OP_EXIT) {
			g->succ[b][0] = g->nb;
			if (in->guard != FE_NO_REG)
				g->succ[b][1] = fall;
		} else {
			g->succ[b][0] = fall;
		}
	}
	free(leader);
}

/* Iterative data-flow over bit sets: pdom(b) = {b} U intersection of pdom(successors).
 * O(blocks^2/64) per sweep; kernels have at most a few thousand blocks. */
void fe_link_post_dominators(struct fe_link_cfg *g)
{
	uint32_t N = g->nb + 1, W = (N + 63) / 64;
	uint64_t *set = fe_link_calloc((size_t)N * W, sizeof *set);
	uint64_t *tmp = fe_link_calloc(W, sizeof *tmp);
	for (uint32_t b = 0; b < g->nb; b++)
		memset(set + (size_t)b * W, 0xff, W * sizeof *set);
	set[(size_t)g->nb * W + g->nb / 64] = 1ull << (g->nb % 64);
	bool changed = true;
	while (changed) {
		changed = false;
		for (uint32_t b = g->nb; b-- > 0;) {
			memset(tmp, 0xff, W * sizeof *tmp);
			for (int s = 0; s < 2; s++) {
				uint32_t t = g->succ[b][s];
				if (t == UINT32_MAX)
					continue;
				for (uint32_t w = 0; w < W; w++)
					tmp[w] &= set[(size_t)t * W + w];
			}
			tmp[b / 64] |= 1ull << (b % 64);
			if (memcmp(tmp, set + (size_t)b * W, W * sizeof *tmp)) {
				memcpy(set + (size_t)b * W, tmp, W * sizeof *tmp);
				changed = true;
			}
		}
	}
	/* Blocks that cannot reach the exit (infinite loops) keep the initial full set: give them
	 * no reconvergence point (lanes that split there never meet again). */
	uint8_t *reach = fe_link_calloc(N, 1);
	reach[g->nb] = 1;
	for (changed = true; changed;) {
		changed = false;
		for (uint32_t b = g->nb; b-- > 0;)
			for (int s = 0; s < 2 && !reach[b]; s++)
				if (g->succ[b][s] != UINT32_MAX && reach[g->succ[b][s]])
					reach[b] = 1, changed = true;
	}
	uint32_t *cnt = fe_link_calloc(N, sizeof *cnt);
	for (uint32_t b = 0; b < N; b++)
		for (uint32_t w = 0; w < W; w++)
			cnt[b] += (uint32_t)__builtin_popcountll(set[(size_t)b * W + w]);
	/* ipdom(b): the strict post-dominator whose own set is exactly one smaller */
	for (uint32_t b = 0; b < g->nb; b++) {
		g->ipdom[b] = g->nb;
		if (!reach[b])
			continue;
		for (uint32_t d = 0; d < N; d++) {
			if (d == b || !reach[d] || !((set[(size_t)b * W + d / 64] >> (d % 64)) & 1))
				continue;
			if (cnt[d] + 1 == cnt[b]) {
				g->ipdom[b] = d;
				break;
			}
		}
	}
	free(reach);
	free(cnt);
	free(set);
	free(tmp);
}

/* ---- phases (PAWS Sec IV-B1) --------------------------------------------------------- */

/* Where phases start, by the paper's rule applied to the order ptxas would schedule: PAWS
 * analysed PTX-Plus (scheduled SASS) because in PTX "the memory load and store instructions are
 * scheduled very close to their dependent instructions, resulting in the instruction sequence
 * being fragmented into several phases" (Sec IV-B1). Within each basic block every instruction
 * is placed as soon as its operands allow (list scheduling as soon as possible, by dependence
 * level): after the instructions defining what it reads, after those reading or writing what
 * it writes, a memory access after the last store or atomic of a space that may alias it
 * (shared apart from global, local and texture), everything after a barrier, fence or call.
 * Over that order (level, then pc) the rule runs as written: the long-op set is cleared at each
 * block start and each phase start, and the first instruction reading a register in the set
 * starts a phase; loads issued together count as one set, as the paper's "long latency
 * instructions issued close to each other would complete around the same time". A block start
 * clears the set but starts no phase: the paper also makes "each basic block" a phase, yet its
 * Table II counts (KM 2, FWT 2, HIST 2, DWT 2, with loops in each) cannot include the blocks of
 * loops; and PTX keeps short if-blocks that SASS predicates (srad_cuda_1: 45 phases with block
 * starts, 8 without; experiments/README.md, PAWS phases). Phases stay ranges of PTX pcs (what
 * warps execute): a phase starts at the consumer's own pc. */
#define PHASE_MAX_PRED (WI_MAX_SRC + 2 * WI_MAX_DST + 2)

static bool mem_shared(const struct wi_static *ws)
{
	return ws->space == WI_SPACE_SHARED;
}

static void phase_starts(const struct fe_kernel *k, const struct fe_link_cfg *g, uint8_t *start)
{
	uint32_t n = k->n_insts, R = k->n_regs + 1;
	uint32_t *def_blk = fe_link_calloc(R, sizeof *def_blk), *def_lv = fe_link_calloc(R, sizeof *def_lv);
	uint32_t *use_blk = fe_link_calloc(R, sizeof *use_blk), *use_lv = fe_link_calloc(R, sizeof *use_lv);
	uint64_t *key = fe_link_calloc(n, sizeof *key);
	uint32_t *ord = fe_link_calloc(n, sizeof *ord);
	/* per register: pc of its last definition / use in the block; per instruction: up to
	 * PHASE_MAX_PRED earlier instructions it must follow */
	uint32_t *def_pc = fe_link_calloc(R, sizeof *def_pc), *use_pc = fe_link_calloc(R, sizeof *use_pc);
	uint32_t (*pred)[PHASE_MAX_PRED] = fe_link_calloc(n, sizeof *pred);
	uint8_t *n_pred = fe_link_calloc(n, 1), *feeds = fe_link_calloc(n, 1);
	uint8_t *longop = fe_link_calloc(R, 1);
	for (uint32_t b = 0; b < g->nb; b++) {
		uint32_t s = g->start[b], e = b + 1 < g->nb ? g->start[b + 1] : n;
		/* levels: floor for everything (barriers), for shared and for other memory accesses */
		uint32_t all_lv = 0, st_sh_lv = 0, st_gl_lv = 0, max_lv = 0;
		uint32_t fence_pc = UINT32_MAX, st_sh_pc = UINT32_MAX, st_gl_pc = UINT32_MAX;
		for (uint32_t pc = s; pc < e; pc++) {
			const struct wi_static *ws = &k->wi[pc];
			bool fence = ws->flags & (WI_F_BARRIER | WI_F_MEMBAR | WI_F_BRANCH | WI_F_EXIT);
			uint32_t lv = fence ? max_lv + 1 : all_lv;
			for (int i = 0; i < ws->n_src; i++)
				if (def_blk[ws->src[i]] == b + 1 && def_lv[ws->src[i]] + 1 > lv)
					lv = def_lv[ws->src[i]] + 1;
			for (int i = 0; i < ws->n_dst; i++) {
				uint16_t r = ws->dst[i];
				if (def_blk[r] == b + 1 && def_lv[r] + 1 > lv)
					lv = def_lv[r] + 1;
				if (use_blk[r] == b + 1 && use_lv[r] + 1 > lv)
					lv = use_lv[r] + 1;
			}
			if (ws->mem_kind != WI_MEM_NONE) {
				uint32_t f = mem_shared(ws) ? st_sh_lv : st_gl_lv;
				lv = f > lv ? f : lv;
			}
			if (ws->mem_kind == WI_MEM_STORE || ws->mem_kind == WI_MEM_ATOMIC) {
				/* later accesses of a space it may alias come after it; itself after earlier ones */
				if (mem_shared(ws))
					st_sh_lv = lv + 1;
				else
					st_gl_lv = lv + 1;
			}
			if (fence)
				all_lv = lv + 1;
			max_lv = lv > max_lv ? lv : max_lv;
			key[pc] = (uint64_t)lv << 32 | pc;
			/* the same edges as instructions, for what feeds a load (below) */
			uint8_t np = 0;
#define PHASE_PRED(q) do { if ((q) != UINT32_MAX) pred[pc][np++] = (q); } while (0)
			for (int i = 0; i < ws->n_src; i++)
				if (def_blk[ws->src[i]] == b + 1)
					PHASE_PRED(def_pc[ws->src[i]]);
			for (int i = 0; i < ws->n_dst; i++) {
				if (def_blk[ws->dst[i]] == b + 1)
					PHASE_PRED(def_pc[ws->dst[i]]);
				if (use_blk[ws->dst[i]] == b + 1)
					PHASE_PRED(use_pc[ws->dst[i]]);
			}
			PHASE_PRED(fence_pc);
			if (ws->mem_kind != WI_MEM_NONE)
				PHASE_PRED(mem_shared(ws) ? st_sh_pc : st_gl_pc);
#undef PHASE_PRED
			n_pred[pc] = np;
			feeds[pc] = (ws->flags & WI_F_LONG_LAT) && ws->mem_kind == WI_MEM_LOAD;
			if (fence)
				fence_pc = pc;
			if (ws->mem_kind == WI_MEM_STORE || ws->mem_kind == WI_MEM_ATOMIC)
				*(mem_shared(ws) ? &st_sh_pc : &st_gl_pc) = pc;
			for (int i = 0; i < ws->n_src; i++) {
				if (use_blk[ws->src[i]] != b + 1 || use_lv[ws->src[i]] < lv)
					use_blk[ws->src[i]] = b + 1, use_lv[ws->src[i]] = lv;
				use_pc[ws->src[i]] = pc;
			}
			for (int i = 0; i < ws->n_dst; i++)
				def_blk[ws->dst[i]] = b + 1, def_lv[ws->dst[i]] = lv, def_pc[ws->dst[i]] = pc;
		}
		/* A scheduler issues loads and what their addresses need first (the critical path):
		 * what feeds a long-latency load goes before the rest, each part by level. A fence
		 * that feeds one takes everything before it along. */
		bool all_before = false;
		for (uint32_t pc = e; pc-- > s;) {
			feeds[pc] |= all_before;
			if (!feeds[pc])
				continue;
			if (k->wi[pc].flags & (WI_F_BARRIER | WI_F_MEMBAR | WI_F_BRANCH | WI_F_EXIT))
				all_before = true;
			for (uint8_t i = 0; i < n_pred[pc]; i++)
				feeds[pred[pc][i]] = 1;
		}
		for (uint32_t pc = s; pc < e; pc++)
			key[pc] |= (uint64_t)!feeds[pc] << 63;
		/* the block in that order (insertion sort: blocks are short, keys mostly sorted) */
		uint32_t m = 0;
		for (uint32_t pc = s; pc < e; pc++) {
			uint32_t j = m++;
			while (j > 0 && key[ord[j - 1]] > key[pc]) {
				ord[j] = ord[j - 1];
				j--;
			}
			ord[j] = pc;
		}
		memset(longop, 0, R);
		start[s] = b == 0;
		for (uint32_t i = 0; i < m; i++) {
			const struct wi_static *ws = &k->wi[ord[i]];
			bool consumes = false;
			for (int j = 0; j < ws->n_src && !consumes; j++)
				consumes = longop[ws->src[j]];
			if (consumes) {
				start[ord[i]] = 1;
				memset(longop, 0, R);
			}
			if (ws->flags & WI_F_LONG_LAT)
				for (int j = 0; j < ws->n_dst; j++)
					longop[ws->dst[j]] = 1;
		}
	}
	free(def_blk);
	free(def_lv);
	free(use_blk);
	free(use_lv);
	free(key);
	free(ord);
	free(def_pc);
	free(use_pc);
	free(pred);
	free(n_pred);
	free(feeds);
	free(longop);
}

void fe_link_phases(struct fe_kernel *k, const struct fe_link_cfg *g)
{
	uint32_t n = k->n_insts;
	uint8_t *start = fe_link_calloc(n + 1, 1);
	phase_starts(k, g, start);
	uint32_t phase = 0;
	for (uint32_t pc = 0; pc < n; pc++) {
		if (pc > 0 && start[pc])
			phase++;
		k->wi[pc].phase_id = phase;
	}
	free(start);
	k->n_phases = n ? phase + 1 : 0;
	k->phase_len = fe_link_calloc(k->n_phases, sizeof *k->phase_len);
	/* backwards: distance = latencies from this instruction to the end of its phase */
	uint32_t acc = 0;
	for (uint32_t pc = n; pc-- > 0;) {
		struct wi_static *ws = &k->wi[pc];
		if (pc + 1 == n || k->wi[pc + 1].phase_id != ws->phase_id)
			acc = 0;
		acc += fe_phase_latency_cycles[ws->lat_class];
		ws->phase_distance_cycles = acc;
		k->phase_len[ws->phase_id] = acc; /* the first instruction of the phase writes last */
	}
	for (uint32_t pc = 0; pc < n; pc++) {
		struct wi_static *ws = &k->wi[pc];
		ws->phase_len_cycles = k->phase_len[ws->phase_id];
		ws->next_phase_len_cycles = ws->phase_id + 1 < k->n_phases ? k->phase_len[ws->phase_id + 1] : 0;
	}
}

/* ---- register estimate -------------------------------------------------------------- */

/* nvcc's PTX names a fresh virtual register for almost every value, so the declared count
 * says little about what ptxas allocates. Estimate it as the largest number of 32-bit register
 * units simultaneously live (64-bit values count two, predicates none: they have their own
 * file), from a backward liveness data-flow over the CFG, plus 2 for ptxas's own temporaries,
 * capped at 255. Calls are not nested into the estimate. */
uint32_t fe_link_regs_estimate(struct fe_kernel *k, const struct fe_link_cfg *g, const uint8_t *reg_bytes)
{
	uint32_t W = (k->n_regs + 63) / 64 + 1, nb = g->nb;
	uint64_t *in = fe_link_calloc((size_t)nb * W + 1, sizeof *in), *out = fe_link_calloc((size_t)nb * W + 1, sizeof *out);
	uint64_t *live = fe_link_calloc(W, sizeof *live);
	bool changed = true;
	uint32_t best = 0;
	for (int final = 0; final < 2; final++) {
		while (changed || final) {
			changed = false;
			for (uint32_t b = nb; b-- > 0;) {
				uint64_t *bo = out + (size_t)b * W;
				memset(bo, 0, W * sizeof *bo);
				for (int s = 0; s < 2; s++) {
					uint32_t t = g->succ[b][s];
					if (t != UINT32_MAX && t < nb)
						for (uint32_t w = 0; w < W; w++)
							bo[w] |= in[(size_t)t * W + w];
				}
				memcpy(live, bo, W * sizeof *live);
				uint32_t units = 0;
				if (final)
					for (uint32_t r = 0; r < k->n_regs; r++)
						if ((live[r / 64] >> (r % 64)) & 1)
							units += (reg_bytes[r] + 3) / 4;
				uint32_t end = (b + 1 < nb ? g->start[b + 1] : k->n_insts);
				for (uint32_t pc = end; pc-- > g->start[b];) {
					const struct wi_static *ws = &k->wi[pc];
					bool guarded = k->prog[pc].guard != FE_NO_REG;
					for (int i = 0; i < ws->n_dst && !guarded; i++) {
						uint16_t r = ws->dst[i];
						if ((live[r / 64] >> (r % 64)) & 1) {
							live[r / 64] &= ~(1ull << (r % 64));
							units -= final ? (reg_bytes[r] + 3) / 4 : 0;
						}
					}
					for (int i = 0; i <= ws->n_src; i++) {
						/* the sources, then the guard (a predicate: no units) */
						uint16_t r = i < ws->n_src ? ws->src[i] : k->prog[pc].guard;
						if (r != FE_NO_REG && !((live[r / 64] >> (r % 64)) & 1)) {
							live[r / 64] |= 1ull << (r % 64);
							units += final ? (reg_bytes[r] + 3) / 4 : 0;
						}
					}
					if (units > best)
						best = units;
				}
				if (memcmp(live, in + (size_t)b * W, W * sizeof *live)) {
					memcpy(in + (size_t)b * W, live, W * sizeof *live);
					changed = true;
				}
			}
			if (final)
				break;
		}
	}
	/* live at the entry (block 0 starts at pc 0); a callee's blocks are not reached from it */
	bool calls = false;
	for (uint32_t pc = 0; pc < k->n_insts; pc++)
		calls |= k->prog[pc].op == FE_OP_CALL;
	k->entry_regs = fe_link_calloc(k->n_regs + 1, sizeof *k->entry_regs);
	k->n_entry_regs = 0;
	for (uint32_t r = 0; r < k->n_regs; r++)
		if (calls || (nb && ((in[r / 64] >> (r % 64)) & 1)))
			k->entry_regs[k->n_entry_regs++] = (uint16_t)r;
	free(in);
	free(out);
	free(live);
	best += 2;
	return best > 255 ? 255 : best;
}

