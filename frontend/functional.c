/* SPDX-License-Identifier: MIT */
/* The functional run of a launch (no timing): CTAs one after another, each CTA's warps in
 * turn, a warp running straight through up to FE_FUNC_SLICE_INSTS instructions without the
 * timing model's per-instruction record; barriers, livelock rules, and the memory observer. */
#include <stdlib.h>
#include <string.h>

#include "exec_int.h"

void fe_launch_progress(const struct fe_launch *l, uint64_t *mem_state, uint64_t *atomic_changes)
{
	*mem_state = l->mem_state;
	*atomic_changes = l->atomic_changes;
}

bool fe_state_ring_new(struct fe_state_ring *r, uint64_t h)
{
	for (uint32_t i = 0; i < r->n; i++)
		if (r->h[i] == h)
			return false;
	r->h[r->next] = h;
	r->next = (r->next + 1) % FE_STATE_RING;
	if (r->n < FE_STATE_RING)
		r->n++;
	return true;
}

void fe_launch_set_poll(struct fe_launch *l, fe_poll_fn poll, void *ctx)
{
	l->poll = poll;
	l->poll_ctx = ctx;
}

int fe_launch_run_functional(struct fe_launch *l, uint64_t *warp_insts, uint64_t *thread_insts,
			     struct sim_error *err)
{
	return fe_launch_run_functional_limit(l, FE_LIVELOCK_WARP_INSTS, warp_insts, thread_insts, err);
}

int fe_launch_run_functional_limit(struct fe_launch *l, uint64_t livelock_warp_insts,
				   uint64_t *warp_insts, uint64_t *thread_insts, struct sim_error *err)
{
	return fe_launch_run_functional_observe(l, livelock_warp_insts, NULL, NULL, warp_insts, thread_insts, err);
}

/* A warp's turn: at most this many instructions before the next warp of its CTA runs. Long
 * enough that the turn's bookkeeping is negligible, short enough that warps waiting on each
 * other without a barrier (a flag in shared memory) take turns often. A divisor of
 * FE_STATE_SAMPLE_INSTS, so that turns end where the livelock rule samples memory. */
#define FE_FUNC_SLICE_INSTS 64u
_Static_assert(FE_STATE_SAMPLE_INSTS % FE_FUNC_SLICE_INSTS == 0, "turns end at the samples");

/* What one turn of a warp did. */
struct turn {
	uint64_t warp_insts, thread_insts;
	uint32_t last_pc;       /* the last instruction executed */
	bool barrier;           /* it ended at a barrier arrival: the warp waits */
};

/* A turn's guard cache: for every lane in known, bit lane of bits says whether predicate
 * register reg is nonzero (fe_exec_pred_bits' reading); reg FE_NO_REG: empty. A guard whose
 * lanes are all known reads it instead of gathering the register's lanes.
 * Invariant, kept by warp_turn alone: while a turn runs, only its own instructions write w's
 * registers, and each write either goes through pcache_wrote (a one-result setp's loop hands
 * in its lanes' results; any other fast or ld instruction that writes reg, by d or d2, and
 * every generic instruction empty it) or through fe_warp_execute, after which the cache is
 * emptied. A turn starts with it empty: between turns, other code (timing mode, a CTA's
 * restart, a recursive call's frame restore) writes registers. */
struct pcache {
	uint16_t reg;
	uint64_t known[WI_MASK_WORDS], bits[WI_MASK_WORDS];
};

/* The lanes of mask (the top entry's) whose guard g (negated: neg) holds, into out; fills the
 * cache from the register when it does not know all of mask's lanes of g. */
static inline void pcache_guard(struct pcache *pc, const struct fe_warp *w, uint16_t g, bool neg,
				const uint64_t *mask, uint64_t *out)
{
	bool hit = pc->reg == g;
	for (uint32_t i = 0; i < w->mask_words && hit; i++)
		hit = !(mask[i] & ~pc->known[i]);
	if (!hit) {
		fe_exec_pred_bits(w, g, pc->bits);
		pc->reg = g;
		for (uint32_t i = 0; i < w->mask_words; i++)
			pc->known[i] = ~0ull; /* every lane, and bits past them are zero */
	}
	/* out's words past the warp's stay zero (warp_turn clears them once) */
	for (uint32_t i = 0; i < w->mask_words; i++)
		out[i] = fe_guard_word(w, i, mask[i], pc->bits[i], neg);
}

/* After x ran for the lanes of mask: setp (has_bits) gave pbits for x->d's lanes there. */
static inline void pcache_wrote(struct pcache *pc, const struct fe_warp *w, const struct fe_xop *x,
				const uint64_t *mask, bool has_bits, const uint64_t *pbits)
{
	if (has_bits && pc->reg != x->d) {
		pc->reg = x->d;
		for (uint32_t i = 0; i < w->mask_words; i++) {
			pc->bits[i] = pbits[i];
			pc->known[i] = mask[i];
		}
	} else if (has_bits) {
		for (uint32_t i = 0; i < w->mask_words; i++) {
			pc->bits[i] = (pc->bits[i] & ~mask[i]) | pbits[i];
			pc->known[i] |= mask[i];
		}
	} else if (x->kind == FE_X_GENERIC || x->d == pc->reg || x->d2 == pc->reg) {
		pc->reg = FE_NO_REG;
	}
}

/* What a CTA's run needs besides the CTA. */
struct cta_run {
	struct fe_launch *l;
	uint64_t livelock_warp_insts;
	fe_mem_observe_fn observe;
	void *ctx;
	struct warp_inst wi;           /* the record fe_warp_execute fills (addr: the lanes') */
	uint64_t wn, tn;               /* warp and thread instructions so far */
	uint64_t next_poll_wn;         /* l->poll is called once wn reaches this */
	/* run_end[pc], pc <= n_insts: the first pc at or after pc that a turn's straight-line
	 * run stops before: a control instruction, with observe a memory instruction, or
	 * n_insts (the code's end). A run then needs no test of each next instruction. */
	uint32_t *run_end;
	/* a guarded instruction's lanes: pcache_guard writes the warp's words only, the words
	 * past them stay zero (cleared once, here: every warp of a launch has as many words) */
	uint64_t guarded[WI_MASK_WORDS];
};

/* Run w for at most max instructions, until it arrives at a barrier or exits. Control
 * instructions, a pending bar.red result and (with observe) memory instructions go through
 * fe_warp_execute, which fills wi for the observer; the rest run here as fe_warp_execute
 * would run them (guard, the executor, pc + 1, settle at a reconvergence point or past the
 * code), without filling wi's record for the timing model, and so do a branch whose lanes
 * all go one way and a bar.sync arrival (both only move the top entry's pc, as warp_control
 * moves it). Between two of those, the top SIMT entry stays the same: its pc lives in a
 * local, its lane count is counted once a stack change, the run's last instruction is known before it
 * starts (r->run_end), and the decoded form picks the executor's loop directly
 * (fe_exec_inst's dispatch, inlined). */
static int warp_turn(struct cta_run *r, struct fe_warp *w, uint64_t max, uint32_t cta, struct turn *t,
		     struct sim_error *err)
{
	const struct fe_kernel *k = w->k;
	const struct fe_xop *const xop = k->xop;
	const uint32_t n_insts = k->n_insts;
	uint64_t n = 0, tn = 0;
	uint64_t *const guarded = r->guarded;
	uint64_t pbits[WI_MASK_WORDS];
	struct pcache pcache; /* empty: its words are read only once reg is set */
	pcache.reg = FE_NO_REG;
	int rc = 0;
	t->barrier = false;
	t->last_pc = w->pc;
	/* the top entry and its lanes, kept until the stack changes (fe_warp_execute,
	 * fe_warp_settle): a uniform branch or a run only moves its pc */
	struct fe_simt_entry *top = NULL;
	uint32_t top_lanes = 0;
	while (n < max && w->sp) {
		if (!top) {
			top = &w->stack[w->sp - 1];
			top_lanes = fe_mask_count(w, top->mask);
		}
		uint32_t pc = top->pc;
		const struct fe_xop *x = &xop[pc];
		t->last_pc = pc;
		const bool bar_sync = x->op == FE_OP_BAR && k->prog[pc].part == FE_BAR_SYNC;
		if ((x->op == FE_OP_BRA || bar_sync) && !w->red_pending) {
			/* a branch whose lanes all go one way moves the top entry's pc (the rule
			 * warp_control applies, without its record); one that diverges goes there.
			 * A bar.sync moves it to pc + 1 and ends the turn at the barrier. */
			const uint64_t *mask = top->mask;
			uint32_t lanes = top_lanes;
			if (x->guard != FE_NO_REG) {
				pcache_guard(&pcache, w, x->guard, x->guard_neg, mask, guarded);
				mask = guarded;
				lanes = fe_mask_count(w, mask);
			}
			if (bar_sync || fe_bra_uniform(w, top, pc, x->target, mask, lanes) != FE_BRA_DIVERGES) {
				if (bar_sync)
					top->pc = pc + 1;
				w->n_insts++;
				n++;
				tn += lanes;
				const uint32_t npc = top->pc;
				if (npc == top->rpc || npc == FE_PC_NONE || npc >= n_insts) {
					fe_warp_settle(w);
					top = NULL;
				}
				if (bar_sync) {
					t->barrier = true;
					break;
				}
				continue;
			}
		}
		if (fe_op_is_control(x->op) || w->red_pending ||
		    (r->observe && k->wi[pc].mem_kind != WI_MEM_NONE)) {
			struct warp_inst *wi = &r->wi;
			rc = fe_warp_execute(w, wi, err);
			pcache.reg = FE_NO_REG;
			top = NULL;
			n++;
			tn += wi->n_active;
			if (!rc && r->observe && wi->si->mem_kind != WI_MEM_NONE)
				rc = r->observe(r->ctx, cta, wi, err);
			if (rc)
				break;
			if (wi->si->flags & WI_F_BARRIER) {
				t->barrier = true;
				break;
			}
			continue;
		}
		/* a straight-line run in this entry, pc .. end - 1: up to a control (or observed
		 * memory) instruction, the entry's reconvergence point (a pc past this one), the
		 * end of the code or max; x (not one of those) runs at least */
		const uint32_t rpc = top->rpc;
		uint32_t end = r->run_end[pc];
		if (rpc > pc && rpc < end)
			end = rpc;
		if (max - n < end - pc)
			end = pc + (uint32_t)(max - n);
		const uint64_t *const top_mask = top->mask;
		const uint32_t first = pc;
		for (;;) {
			const uint64_t *mask = top_mask;
			uint32_t lanes = top_lanes;
			if (x->guard != FE_NO_REG) {
				pcache_guard(&pcache, w, x->guard, x->guard_neg, mask, guarded);
				mask = guarded;
				lanes = fe_mask_count(w, mask);
			}
			w->n_insts++; /* before it runs: the functional clock counts it */
			tn += lanes;
			bool has_bits = false;
			if (x->kind == FE_X_LD || x->kind == FE_X_ST)
				rc = fe_exec_ldst_fast(w, pc, x, mask, NULL, err); /* no addresses */
			else if (x->kind != FE_X_GENERIC)
				has_bits = fe_exec_fast(w, x, mask, pbits);
			else
				rc = fe_exec_inst_generic(w, pc, mask, &r->wi, err);
			pcache_wrote(&pcache, w, x, mask, has_bits, pbits);
			if (rc || ++pc == end)
				break;
			x++;
		}
		if (rc) { /* the failed instruction counts, and the warp stays at it */
			n += pc - first + 1;
			t->last_pc = pc;
			top->pc = pc;
			w->pc = pc;
			break;
		}
		n += pc - first;
		t->last_pc = pc - 1;
		top->pc = pc;
		if (pc == rpc || pc >= n_insts) {
			fe_warp_settle(w);
			top = NULL;
		}
	}
	/* fe_warp_execute keeps w->pc; the loop above only moved the top entry's */
	w->pc = w->sp ? w->stack[w->sp - 1].pc : FE_PC_NONE;
	t->warp_insts = n;
	t->thread_insts = tn;
	return rc;
}

/* Run CTA c to its end: its warps round-robin, one turn each per round; a warp whose waiting
 * byte is set has arrived at a barrier and waits until every live warp of the CTA has (exited
 * warps count). waiting[c->n_warps] comes in as the warps stand (all zero for a new CTA). */
static int run_cta(struct cta_run *r, struct fe_cta *c, uint8_t *waiting, struct sim_error *err)
{
	struct fe_launch *l = r->l;
	const uint64_t livelock_warp_insts = r->livelock_warp_insts;
	uint64_t idle = 0; /* warp instructions since the CTA's last forward progress */
	uint64_t atomics_seen = l->atomic_changes;
	struct fe_state_ring ring;
	/* each CTA starts with the memory as it finds it as its only sample */
	memset(&ring, 0, sizeof ring);
	fe_state_ring_new(&ring, l->mem_state);
	int rc = 0;
	for (;;) {
		bool live = false, progress = false;
		for (uint32_t i = 0; i < c->n_warps && !rc; i++) {
			struct fe_warp *w = &c->warps[i];
			if (fe_warp_exited(w))
				continue;
			live = true;
			if (waiting[i])
				continue;
			/* the turn ends where the livelock rule looks next: the next memory sample
			 * (idle stays a multiple of the turn) or the limit */
			uint64_t max = FE_FUNC_SLICE_INSTS - idle % FE_FUNC_SLICE_INSTS;
			if (livelock_warp_insts && livelock_warp_insts - idle < max)
				max = livelock_warp_insts - idle;
			struct turn t;
			rc = warp_turn(r, w, max, c->id, &t, err);
			r->wn += t.warp_insts;
			r->tn += t.thread_insts;
			progress = true;
			if (!rc && l->poll && r->wn >= r->next_poll_wn) {
				r->next_poll_wn = r->wn + FE_POLL_WARP_INSTS;
				rc = l->poll(l->poll_ctx, err);
			}
			if (rc)
				break;
			if (t.barrier)
				waiting[i] = 1;
			/* progress as in the timing model (components/gpu.c forward_progress); the
			 * memory state is looked at every FE_STATE_SAMPLE_INSTS idle instructions and
			 * before giving up, not per store */
			if (t.barrier || fe_warp_exited(w) || l->atomic_changes != atomics_seen) {
				idle = 0;
				atomics_seen = l->atomic_changes;
				continue;
			}
			idle += t.warp_insts;
			bool at_limit = livelock_warp_insts && idle >= livelock_warp_insts;
			if ((idle % FE_STATE_SAMPLE_INSTS == 0 || at_limit) &&
			    fe_state_ring_new(&ring, l->mem_state)) {
				idle = 0;
			} else if (at_limit) {
				const struct wi_static *si = &l->k->wi[t.last_pc];
				rc = sim_error_set(err, SIM_ERR_PROGRAM, l->m->path, (int)si->src_line, 0, NULL,
						   "livelock: block (%u,%u,%u) executed %llu warp instructions "
						   "without changing memory, a barrier arrival or warp exit; "
						   "spinning: warp %u at pc %u '%s'", c->ctaid[0], c->ctaid[1],
						   c->ctaid[2], (unsigned long long)idle, i, t.last_pc,
						   si->text ? si->text : "?");
			}
		}
		if (rc || !live)
			return rc;
		if (!progress)
			memset(waiting, 0, c->n_warps);
	}
}

/* CTAs first .. l->n_ctas - 1 of l from their start, one after another, in one fe_cta and
 * its buffers (fe_cta_restart), not an allocation per CTA. */
static int run_new_ctas(struct cta_run *r, uint32_t first, struct sim_error *err)
{
	if (first >= r->l->n_ctas)
		return 0;
	struct fe_cta *c = fe_cta_create(r->l, first, 32, 0, err);
	if (!c)
		return err ? err->code : SIM_ERR_NOMEM;
	uint8_t *waiting = calloc(c->n_warps, 1);
	int rc = waiting ? 0 : sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	for (uint32_t id = first; id < r->l->n_ctas && !rc; id++) {
		if (id != first) {
			fe_cta_restart(c, id);
			memset(waiting, 0, c->n_warps);
		}
		rc = run_cta(r, c, waiting, err);
	}
	free(waiting);
	fe_cta_destroy(c);
	return rc;
}

static int cta_run_init(struct cta_run *r, struct fe_launch *l, uint64_t livelock_warp_insts,
			fe_mem_observe_fn observe, void *ctx, uint64_t *addr, struct sim_error *err)
{
	memset(r, 0, sizeof *r);
	r->l = l;
	r->livelock_warp_insts = livelock_warp_insts;
	r->observe = observe;
	r->ctx = ctx;
	r->wi.addr = addr;
	r->next_poll_wn = FE_POLL_WARP_INSTS;
	const struct fe_kernel *k = l->k;
	r->run_end = malloc(((size_t)k->n_insts + 1) * sizeof *r->run_end);
	if (!r->run_end)
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	r->run_end[k->n_insts] = k->n_insts;
	for (uint32_t pc = k->n_insts; pc-- > 0;) {
		bool stop = fe_op_is_control(k->xop[pc].op) || (observe && k->wi[pc].mem_kind != WI_MEM_NONE);
		r->run_end[pc] = stop ? pc : r->run_end[pc + 1];
	}
	return 0;
}

int fe_launch_run_functional_observe(struct fe_launch *l, uint64_t livelock_warp_insts, fe_mem_observe_fn observe,
				     void *ctx, uint64_t *warp_insts, uint64_t *thread_insts,
				     struct sim_error *err)
{
	uint64_t addr[WI_MAX_LANES];
	struct cta_run r;
	int rc = cta_run_init(&r, l, livelock_warp_insts, observe, ctx, addr, err);
	if (!rc)
		rc = run_new_ctas(&r, 0, err);
	free(r.run_end);
	if (warp_insts)
		*warp_insts = r.wn;
	if (thread_insts)
		*thread_insts = r.tn;
	return rc;
}

int fe_launch_finish_functional(struct fe_launch *l, const struct fe_resume_cta *ctas, uint32_t n,
				uint32_t first_new, uint64_t livelock_warp_insts, fe_mem_observe_fn observe,
				void *ctx, uint64_t *warp_insts, uint64_t *thread_insts, struct sim_error *err)
{
	uint64_t addr[WI_MAX_LANES];
	struct cta_run r;
	int rc = cta_run_init(&r, l, livelock_warp_insts, observe, ctx, addr, err);
	for (uint32_t i = 0; i < n && !rc; i++) {
		struct fe_cta *c = ctas[i].cta;
		SIM_ASSERT(c->l == l);
		uint8_t *waiting = malloc(c->n_warps);
		if (!waiting) {
			rc = sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
			break;
		}
		memcpy(waiting, ctas[i].at_barrier, c->n_warps);
		/* no SM cycle runs on: the functional clock takes over from the SM's reading now,
		 * so a clock read after the cut is never below one before it */
		if (c->clock) {
			c->clock_base_cycle = c->clock->cycle(c->clock->ctx);
			c->clock_base_ns = c->clock->time_ns(c->clock->ctx);
			c->clock_base_insts = fe_cta_warp_insts(c);
		}
		c->clock = NULL;
		rc = run_cta(&r, c, waiting, err);
		free(waiting);
	}
	if (!rc)
		rc = run_new_ctas(&r, first_new, err);
	free(r.run_end);
	if (warp_insts)
		*warp_insts = r.wn;
	if (thread_insts)
		*thread_insts = r.tn;
	return rc;
}
