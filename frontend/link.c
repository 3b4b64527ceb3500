/* SPDX-License-Identifier: MIT */
/* Load-time analyses: link each .entry with the .funcs it calls into one program, lay out its
 * shared/local/param memory, fill wi_static, build the CFG and post-dominator tree
 * (reconvergence pcs) and the PAWS phase analysis. */
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "fe_int.h"

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

static void *xcalloc(size_t n, size_t s)
{
	void *p = calloc(n ? n : 1, s);
	if (!p)
		abort(); /* load-time allocation; the host is out of memory */
	return p;
}

int fe_kernel_find(const struct fe_module *m, const char *name, struct sim_error *err)
{
	for (uint32_t k = 0; k < m->n_kernels; k++)
		if (!strcmp(m->funcs[m->kernels[k].func].name, name))
			return (int)k;
	for (uint32_t k = 0; m->cxx_names && k < m->n_kernels; k++)
		if (!strcmp(m->cxx_names[k], name))
			return (int)k;
	int found = -1, n = 0;
	for (uint32_t k = 0; m->cxx_names && k < m->n_kernels; k++)
		if (fe_name_matches_base(m->cxx_names[k], name)) {
			found = (int)k;
			n++;
		}
	if (n == 1)
		return found;
	if (n > 1)
		return sim_error_set(err, SIM_ERR_INPUT, m->path, 0, 0, name,
				     "%d kernels have that name (overloads or template instances): "
				     "name one with its parameters, e.g. %s", n, m->cxx_names[found]);
	return sim_error_set(err, SIM_ERR_INPUT, m->path, 0, 0, name, "no kernel of that name in the PTX module");
}

static int resolve_calls(struct fe_module *m, struct sim_error *err)
{
	for (uint32_t f = 0; f < m->n_funcs; f++) {
		const struct fe_func *fn = &m->funcs[f];
		for (uint32_t i = 0; i < fn->n_insts; i++) {
			const struct fe_inst *in = &fn->insts[i];
			if (in->op != FE_OP_CALL)
				continue;
			struct fe_call *c = &m->calls[in->call];
			uint32_t g;
			for (g = 0; g < m->n_funcs; g++)
				if (!strcmp(m->funcs[g].name, c->func_name))
					break;
			if (g < m->n_funcs && !m->funcs[g].defined && !strcmp(c->func_name, "vprintf"))
				c->builtin = FE_BUILTIN_VPRINTF;
			else if (g < m->n_funcs && !m->funcs[g].defined && !strcmp(c->func_name, "__assertfail"))
				c->builtin = FE_BUILTIN_ASSERTFAIL;
			else if (g == m->n_funcs || !m->funcs[g].defined || m->funcs[g].is_entry)
				return sim_error_set(err, SIM_ERR_INPUT, m->path, (int)in->line, (int)in->col,
						     c->func_name, "call of an undefined function");
			if (c->n_args != m->funcs[g].n_params || c->n_rets != m->funcs[g].n_rets)
				return sim_error_set(err, SIM_ERR_INPUT, m->path, (int)in->line, (int)in->col,
						     c->func_name, "call passes %u args/%u results, function takes %u/%u",
						     c->n_args, c->n_rets, m->funcs[g].n_params, m->funcs[g].n_rets);
			c->func = g;
		}
	}
	return 0;
}

/* Functions reachable from entry e, in discovery order (entry first). A call back into a
 * function on the stack is recursion: such functions are marked by mark_recursive. */
static void reachable(const struct fe_module *m, uint32_t e, uint32_t *order, uint32_t *n)
{
	uint8_t *state = xcalloc(m->n_funcs, 1); /* 0 new, 1 on stack, 2 done */
	uint32_t *stack = xcalloc(m->n_funcs, sizeof *stack), *pos = xcalloc(m->n_funcs, sizeof *pos);
	uint32_t sp = 0;
	*n = 0;
	stack[sp++] = e;
	state[e] = 1;
	order[(*n)++] = e;
	while (sp) {
		uint32_t f = stack[sp - 1];
		const struct fe_func *fn = &m->funcs[f];
		if (pos[f] >= fn->n_insts) {
			state[f] = 2;
			sp--;
			continue;
		}
		const struct fe_inst *in = &fn->insts[pos[f]++];
		if (in->op != FE_OP_CALL || m->calls[in->call].builtin)
			continue;
		uint32_t g = m->calls[in->call].func;
		if (state[g] == 0) {
			state[g] = 1;
			stack[sp++] = g;
			order[(*n)++] = g;
		}
	}
	free(state);
	free(stack);
	free(pos);
}

/* frames[f].recursive for each of the n reached functions that a chain of calls leads back to
 * (a search from each: O(functions x calls), a few dozen of each in real programs). */
static void mark_recursive(const struct fe_module *m, const uint32_t *order, uint32_t n,
			   struct fe_frame *frames)
{
	uint8_t *seen = xcalloc(m->n_funcs, 1);
	uint32_t *todo = xcalloc(m->n_funcs, sizeof *todo);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t f = order[i], nt = 0;
		memset(seen, 0, m->n_funcs);
		todo[nt++] = f;
		bool again = false;
		while (nt && !again) {
			const struct fe_func *fn = &m->funcs[todo[--nt]];
			for (uint32_t j = 0; j < fn->n_insts && !again; j++) {
				const struct fe_inst *in = &fn->insts[j];
				if (in->op != FE_OP_CALL || m->calls[in->call].builtin)
					continue;
				uint32_t g = m->calls[in->call].func;
				again = g == f;
				if (!seen[g]) {
					seen[g] = 1;
					todo[nt++] = g;
				}
			}
		}
		frames[f].recursive = again;
	}
	free(seen);
	free(todo);
}

static void add_src(struct wi_static *ws, uint16_t r)
{
	if (r == FE_NO_REG)
		return;
	for (int i = 0; i < ws->n_src; i++)
		if (ws->src[i] == r)
			return;
	if (ws->n_src < WI_MAX_SRC) /* cannot overflow for PTX operand shapes; see op_arity */
		ws->src[ws->n_src++] = r;
}

static void add_dst(struct wi_static *ws, uint16_t r)
{
	if (r != FE_NO_REG && ws->n_dst < WI_MAX_DST)
		ws->dst[ws->n_dst++] = r;
}

static bool has_dst(const struct fe_inst *in)
{
	switch (in->op) {
	case FE_OP_BAR:
		return in->part != FE_BAR_SYNC; /* bar.red writes its reduction */
	case FE_OP_ST: case FE_OP_RED: case FE_OP_BAR_WARP: case FE_OP_MEMBAR:
	case FE_OP_BRA: case FE_OP_CALL: case FE_OP_RET: case FE_OP_EXIT: case FE_OP_PREFETCH:
	case FE_OP_NANOSLEEP:
		return false;
	default:
		return true;
	}
}

static void opnd_regs(struct wi_static *ws, const struct fe_opnd *o, bool dst)
{
	switch (o->kind) {
	case FE_OK_REG:
		if (dst) {
			add_dst(ws, o->reg);
			add_dst(ws, o->reg2);
		} else {
			add_src(ws, o->reg);
		}
		break;
	case FE_OK_VEC:
		for (int k = 0; k < o->n; k++)
			dst ? add_dst(ws, o->vec[k]) : add_src(ws, o->vec[k]);
		break;
	case FE_OK_ADDR:
		add_src(ws, o->reg);
		for (int k = 0; k < o->n; k++) /* texture coordinates */
			add_src(ws, o->vec[k]);
		break;
	default:
		break;
	}
}

static void fill_static(const struct fe_module *m, const struct fe_inst *in, uint32_t pc,
			struct wi_static *ws)
{
	memset(ws, 0, sizeof *ws);
	ws->pc = pc;
	ws->opcode = in->op;
	fe_inst_classify(in, ws);
	add_src(ws, in->guard);
	for (int i = 0; i < in->n_opnd; i++)
		opnd_regs(ws, &in->o[i], i == 0 && has_dst(in));
	ws->phase_id = WI_NO_PHASE;
	ws->src_line = in->line;
	ws->text = (in->line >= 1 && in->line <= m->n_lines) ? m->lines[in->line - 1] : "";
}

/* ---- post-dominators ----------------------------------------------------------------- */

struct cfg {
	uint32_t nb;           /* blocks; node nb is the virtual exit */
	uint32_t *start;       /* [nb] first pc */
	uint32_t *block_of;    /* [n_insts] */
	uint32_t (*succ)[2];   /* [nb] successors (UINT32_MAX none; nb = exit) */
	uint32_t *ipdom;       /* [nb] */
};

static void cfg_free(struct cfg *g)
{
	free(g->start);
	free(g->block_of);
	free(g->succ);
	free(g->ipdom);
}

static void build_cfg(const struct fe_kernel *k, const uint8_t *func_start_mark, struct cfg *g)
{
	uint32_t n = k->n_insts;
	uint8_t *leader = xcalloc(n + 1, 1);
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
	g->start = xcalloc(g->nb, sizeof *g->start);
	g->block_of = xcalloc(n, sizeof *g->block_of);
	g->succ = xcalloc(g->nb, sizeof *g->succ);
	g->ipdom = xcalloc(g->nb, sizeof *g->ipdom);
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
static void post_dominators(struct cfg *g)
{
	uint32_t N = g->nb + 1, W = (N + 63) / 64;
	uint64_t *set = xcalloc((size_t)N * W, sizeof *set);
	uint64_t *tmp = xcalloc(W, sizeof *tmp);
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
	uint8_t *reach = xcalloc(N, 1);
	reach[g->nb] = 1;
	for (changed = true; changed;) {
		changed = false;
		for (uint32_t b = g->nb; b-- > 0;)
			for (int s = 0; s < 2 && !reach[b]; s++)
				if (g->succ[b][s] != UINT32_MAX && reach[g->succ[b][s]])
					reach[b] = 1, changed = true;
	}
	uint32_t *cnt = xcalloc(N, sizeof *cnt);
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

static void phase_starts(const struct fe_kernel *k, const struct cfg *g, uint8_t *start)
{
	uint32_t n = k->n_insts, R = k->n_regs + 1;
	uint32_t *def_blk = xcalloc(R, sizeof *def_blk), *def_lv = xcalloc(R, sizeof *def_lv);
	uint32_t *use_blk = xcalloc(R, sizeof *use_blk), *use_lv = xcalloc(R, sizeof *use_lv);
	uint64_t *key = xcalloc(n, sizeof *key);
	uint32_t *ord = xcalloc(n, sizeof *ord);
	/* per register: pc of its last definition / use in the block; per instruction: up to
	 * PHASE_MAX_PRED earlier instructions it must follow */
	uint32_t *def_pc = xcalloc(R, sizeof *def_pc), *use_pc = xcalloc(R, sizeof *use_pc);
	uint32_t (*pred)[PHASE_MAX_PRED] = xcalloc(n, sizeof *pred);
	uint8_t *n_pred = xcalloc(n, 1), *feeds = xcalloc(n, 1);
	uint8_t *longop = xcalloc(R, 1);
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

static void phase_analysis(struct fe_kernel *k, const struct cfg *g)
{
	uint32_t n = k->n_insts;
	uint8_t *start = xcalloc(n + 1, 1);
	phase_starts(k, g, start);
	uint32_t phase = 0;
	for (uint32_t pc = 0; pc < n; pc++) {
		if (pc > 0 && start[pc])
			phase++;
		k->wi[pc].phase_id = phase;
	}
	free(start);
	k->n_phases = n ? phase + 1 : 0;
	k->phase_len = xcalloc(k->n_phases, sizeof *k->phase_len);
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
static uint32_t regs_estimate(struct fe_kernel *k, const struct cfg *g, const uint8_t *reg_bytes)
{
	uint32_t W = (k->n_regs + 63) / 64 + 1, nb = g->nb;
	uint64_t *in = xcalloc((size_t)nb * W + 1, sizeof *in), *out = xcalloc((size_t)nb * W + 1, sizeof *out);
	uint64_t *live = xcalloc(W, sizeof *live);
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
	k->entry_regs = xcalloc(k->n_regs + 1, sizeof *k->entry_regs);
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

/* ---- linking ------------------------------------------------------------------------ */

static uint32_t align_up(uint32_t v, uint32_t a)
{
	return (v + a - 1) / a * a;
}

/* Each recursive function's .local and call-scratch bytes as one range each: the symbols it
 * uses (its parameters, results and what its instructions name; a prototype's copies are
 * laid out but never used) are declared together, so they are adjacent. A range holding a
 * symbol another function uses cannot be saved alone: refused. */
static int frame_ranges(const struct fe_module *m, const uint32_t *order, uint32_t n_order,
			struct fe_kernel *k, const uint32_t *sym_off, struct sim_error *err)
{
	int32_t *owner = xcalloc(m->n_syms, sizeof *owner);
	for (uint32_t s = 0; s < m->n_syms; s++)
		owner[s] = -1;
	for (uint32_t i = 0; i < n_order; i++) {
		const struct fe_func *fn = &m->funcs[order[i]];
		for (uint32_t p = 0; p < fn->n_params; p++)
			owner[fn->params[p]] = (int32_t)order[i];
		for (uint32_t r = 0; r < fn->n_rets; r++)
			owner[fn->rets[r]] = (int32_t)order[i];
		for (uint32_t j = 0; j < fn->n_insts; j++)
			for (int o = 0; o < fn->insts[j].n_opnd; o++)
				if (fn->insts[j].o[o].kind == FE_OK_ADDR &&
				    fn->insts[j].o[o].abase == FE_AB_SYM_UNLINKED)
					owner[fn->insts[j].o[o].sym] = (int32_t)order[i];
	}
	int rc = 0;
	for (uint32_t i = 0; i < n_order && !rc; i++) {
		uint32_t f = order[i];
		struct fe_frame *fr = &k->frames[f];
		if (!fr->recursive)
			continue;
		uint32_t lo[2] = {UINT32_MAX, UINT32_MAX}, hi[2] = {0, 0};
		for (uint32_t s = 0; s < m->n_syms; s++) {
			const struct fe_sym *y = &m->syms[s];
			int r = y->kind == FE_SYM_LOCAL ? 0 : y->kind == FE_SYM_FPARAM ? 1 : -1;
			if (r < 0 || owner[s] != (int32_t)f)
				continue;
			if (sym_off[s] < lo[r])
				lo[r] = sym_off[s];
			if (sym_off[s] + y->size_bytes > hi[r])
				hi[r] = sym_off[s] + y->size_bytes;
		}
		for (uint32_t s = 0; s < m->n_syms && !rc; s++) {
			const struct fe_sym *y = &m->syms[s];
			int r = y->kind == FE_SYM_LOCAL ? 0 : y->kind == FE_SYM_FPARAM ? 1 : -1;
			if (r >= 0 && owner[s] >= 0 && owner[s] != (int32_t)f && sym_off[s] < hi[r] &&
			    sym_off[s] + y->size_bytes > lo[r])
				rc = sim_error_set(err, SIM_ERR_INPUT, m->path, (int)y->line, 0,
						   m->funcs[f].name, "recursive function's frame is not "
						   "contiguous (%s of %s lies inside it)", y->name,
						   m->funcs[owner[s]].name);
		}
		fr->local_off = lo[0] == UINT32_MAX ? 0 : lo[0];
		fr->local_bytes = lo[0] == UINT32_MAX ? 0 : hi[0] - lo[0];
		fr->fparam_off = lo[1] == UINT32_MAX ? 0 : lo[1];
		fr->fparam_bytes = lo[1] == UINT32_MAX ? 0 : hi[1] - lo[1];
	}
	free(owner);
	return rc;
}

static int link_kernel(struct fe_module *m, uint32_t e, struct fe_kernel *k, struct sim_error *err)
{
	uint32_t *order = xcalloc(m->n_funcs, sizeof *order), n_order;
	reachable(m, e, order, &n_order);
	k->frames = xcalloc(m->n_funcs, sizeof *k->frames);
	mark_recursive(m, order, n_order, k->frames);
	k->func = e;
	k->func_start = xcalloc(m->n_funcs, sizeof *k->func_start);
	for (uint32_t f = 0; f < m->n_funcs; f++)
		k->func_start[f] = FE_PC_NONE;
	uint32_t *reg_off = xcalloc(m->n_funcs, sizeof *reg_off);
	uint32_t n = 0, regs = 0;
	for (uint32_t i = 0; i < n_order; i++) {
		const struct fe_func *fn = &m->funcs[order[i]];
		k->func_start[order[i]] = n;
		reg_off[order[i]] = regs;
		k->frames[order[i]].reg_off = regs;
		k->frames[order[i]].n_regs = fn->n_regs;
		n += fn->n_insts;
		regs += fn->n_regs;
	}
	if (regs >= FE_NO_REG) {
		free(order);
		free(reg_off);
		return sim_error_set(err, SIM_ERR_INPUT, m->path, (int)m->funcs[e].line, 0,
				     m->funcs[e].name, "kernel uses more than 65534 registers");
	}
	k->n_insts = n;
	k->n_regs = regs;
	uint8_t *reg_bytes = xcalloc(regs + 1, 1);
	for (uint32_t i = 0; i < n_order; i++) {
		const struct fe_func *fn = &m->funcs[order[i]];
		if (fn->n_regs)
			memcpy(reg_bytes + reg_off[order[i]], fn->reg_bytes, fn->n_regs);
	}
	k->prog = xcalloc(n, sizeof *k->prog);
	k->wi = xcalloc(n, sizeof *k->wi);
	k->xop = xcalloc(n, sizeof *k->xop);
	k->rpc = xcalloc(n, sizeof *k->rpc);

	/* memory layout: every shared/local/call-param symbol of the reached functions, plus the
	 * module-scope shared variables the program names */
	uint32_t *sym_off = xcalloc(m->n_syms, sizeof *sym_off);
	uint8_t *in_k = xcalloc(m->n_funcs, 1);
	for (uint32_t i = 0; i < n_order; i++)
		in_k[order[i]] = 1;
	uint8_t *used = xcalloc(m->n_syms, 1);
	for (uint32_t i = 0; i < n_order; i++) {
		const struct fe_func *fn = &m->funcs[order[i]];
		for (uint32_t j = 0; j < fn->n_insts; j++)
			for (int o = 0; o < fn->insts[j].n_opnd; o++)
				if (fn->insts[j].o[o].kind == FE_OK_ADDR &&
				    fn->insts[j].o[o].abase == FE_AB_SYM_UNLINKED)
					used[fn->insts[j].o[o].sym] = 1;
	}
	uint32_t sh = 0, lo = 0, fp = 0, dyn_align = 16;
	for (uint32_t s = 0; s < m->n_syms; s++) {
		const struct fe_sym *y = &m->syms[s];
		bool mine = (y->func >= 0 && in_k[y->func]) || (y->func == -1 && used[s]);
		if (!mine)
			continue;
		switch (y->kind) {
		case FE_SYM_SHARED:
			sh = align_up(sh, y->align);
			sym_off[s] = sh;
			sh += y->size_bytes;
			break;
		case FE_SYM_SHARED_DYN:
			k->dyn_shared = true;
			if (y->align > dyn_align)
				dyn_align = y->align;
			break;
		case FE_SYM_LOCAL:
			lo = align_up(lo, y->align);
			sym_off[s] = lo;
			lo += y->size_bytes;
			break;
		case FE_SYM_FPARAM:
			fp = align_up(fp, y->align);
			sym_off[s] = fp;
			fp += y->size_bytes;
			break;
		default:
			break;
		}
	}
	int rc = frame_ranges(m, order, n_order, k, sym_off, err);
	if (rc)
		goto out;
	uint32_t dyn_off = align_up(sh, dyn_align);
	k->shared_static_bytes = sh;
	k->local_bytes = align_up(lo, 8);
	k->fparam_bytes = align_up(fp, 8);

	uint8_t *fstart = xcalloc(n + 1, 1);
	for (uint32_t i = 0; i < n_order; i++) {
		const struct fe_func *fn = &m->funcs[order[i]];
		uint32_t base = k->func_start[order[i]], ro = reg_off[order[i]];
		fstart[base] = 1;
		for (uint32_t j = 0; j < fn->n_insts; j++) {
			struct fe_inst *in = &k->prog[base + j];
			*in = fn->insts[j];
			if (in->guard != FE_NO_REG)
				in->guard = (uint16_t)(in->guard + ro);
			for (int o = 0; o < in->n_opnd; o++) {
				struct fe_opnd *op = &in->o[o];
				if (op->reg != FE_NO_REG && op->kind != FE_OK_VEC)
					op->reg = (uint16_t)(op->reg + ro);
				if (op->reg2 != FE_NO_REG)
					op->reg2 = (uint16_t)(op->reg2 + ro);
				if (op->kind == FE_OK_VEC || op->kind == FE_OK_ADDR)
					for (int v = 0; v < op->n; v++)
						if (op->vec[v] != FE_NO_REG)
							op->vec[v] = (uint16_t)(op->vec[v] + ro);
				if (op->kind == FE_OK_LABEL)
					op->sym += base;
				if (op->kind == FE_OK_ADDR && op->abase == FE_AB_SYM_UNLINKED) {
					const struct fe_sym *y = &m->syms[op->sym];
					switch (y->kind) {
					case FE_SYM_GLOBAL: case FE_SYM_CONST:
						op->abase = FE_AB_GSYM;
						break;
					case FE_SYM_SHARED_DYN:
						op->abase = FE_AB_NONE;
						op->imm += dyn_off;
						break;
					case FE_SYM_KPARAM:
						op->abase = FE_AB_NONE;
						op->kparam = 1;
						op->imm += y->off;
						break;
					default:
						op->abase = FE_AB_NONE;
						op->imm += sym_off[op->sym];
						break;
					}
				}
				/* a register-based ld.param in a kernel reads the kernel's param buffer */
				if (op->kind == FE_OK_ADDR && op->reg != FE_NO_REG && in->space == WI_SPACE_PARAM)
					op->kparam = m->funcs[order[i]].is_entry;
			}
			fill_static(m, in, base + j, &k->wi[base + j]);
			fe_exec_decode(in, &k->xop[base + j]);
		}
	}
	struct cfg g;
	memset(&g, 0, sizeof g);
	build_cfg(k, fstart, &g);
	post_dominators(&g);
	for (uint32_t pc = 0; pc < n; pc++) {
		uint32_t d = g.ipdom[g.block_of[pc]];
		k->rpc[pc] = d == g.nb ? FE_PC_NONE : g.start[d];
	}
	k->n_blocks = g.nb;
	phase_analysis(k, &g);
	k->regs_estimate = regs_estimate(k, &g, reg_bytes);
	free(reg_bytes);
	cfg_free(&g);
	/* param-scratch offsets of call arguments: kept on the kernel for the executor */
	k->sym_off = sym_off;
	sym_off = NULL;
	free(fstart);
out:
	free(sym_off);
	free(used);
	free(in_k);
	free(reg_off);
	free(order);
	return rc;
}

int fe_module_link(struct fe_module *m, struct sim_error *err)
{
	int rc = resolve_calls(m, err);
	if (rc)
		return rc;
	uint32_t n = 0;
	for (uint32_t f = 0; f < m->n_funcs; f++)
		n += m->funcs[f].is_entry && m->funcs[f].defined;
	m->kernels = xcalloc(n, sizeof *m->kernels);
	for (uint32_t f = 0; f < m->n_funcs; f++) {
		if (!m->funcs[f].is_entry || !m->funcs[f].defined)
			continue;
		rc = link_kernel(m, f, &m->kernels[m->n_kernels++], err);
		if (rc)
			return rc;
	}
	if (!m->n_kernels)
		return sim_error_set(err, SIM_ERR_INPUT, m->path, 0, 0, NULL, "no .entry in PTX module");
	m->cxx_names = xcalloc(m->n_kernels, sizeof *m->cxx_names);
	for (uint32_t k = 0; k < m->n_kernels; k++)
		if (!(m->cxx_names[k] = fe_demangle(m->funcs[m->kernels[k].func].name)))
			return sim_error_set(err, SIM_ERR_NOMEM, m->path, 0, 0, NULL, "out of memory");
	return 0;
}

void fe_module_free(struct fe_module *m)
{
	if (!m)
		return;
	for (uint32_t k = 0; k < m->n_kernels; k++) {
		struct fe_kernel *kk = &m->kernels[k];
		free(kk->prog);
		free(kk->wi);
		free(kk->xop);
		free(kk->rpc);
		free(kk->func_start);
		free(kk->phase_len);
		free(kk->sym_off);
		free(kk->entry_regs);
		free(kk->frames);
	}
	for (uint32_t k = 0; m->cxx_names && k < m->n_kernels; k++)
		free(m->cxx_names[k]);
	free(m->cxx_names);
	free(m->kernels);
	for (uint32_t f = 0; f < m->n_funcs; f++) {
		struct fe_func *fn = &m->funcs[f];
		free(fn->name);
		free(fn->insts);
		for (uint32_t i = 0; i < fn->n_labels; i++)
			free(fn->labels[i].name);
		free(fn->labels);
		free(fn->params);
		free(fn->rets);
		free(fn->reg_bytes);
	}
	free(m->funcs);
	for (uint32_t s = 0; s < m->n_syms; s++) {
		free(m->syms[s].name);
		free(m->syms[s].init);
	}
	free(m->syms);
	for (uint32_t c = 0; c < m->n_calls; c++) {
		free(m->calls[c].func_name);
		free(m->calls[c].args);
		free(m->calls[c].rets);
	}
	free(m->calls);
	for (uint32_t i = 0; i < m->n_lines; i++)
		free(m->lines[i]);
	free(m->lines);
	free(m->text);
	free(m->path);
	free(m);
}

void fe_module_destroy(struct fe_module *m)
{
	fe_module_free(m);
}
