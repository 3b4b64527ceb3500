/* SPDX-License-Identifier: MIT */
/* Private to frontend/: run-time state of launches, CTAs and warps (registers, SIMT stack),
 * shared by the control-flow side (launch.c, simt.c) and the instruction semantics (exec.c). */
#ifndef WARPSIM_FE_RT_H
#define WARPSIM_FE_RT_H

#include "fe_int.h"

struct fe_launch {
	const struct fe_module *m;
	const struct fe_kernel *k;
	struct fe_memory *mem;
	uint32_t grid[3], block[3];
	uint32_t dyn_shared_bytes;
	uint8_t *params;               /* [param_bytes] kernel parameter buffer */
	uint32_t param_bytes;
	uint64_t *gsym_addr;           /* [m->n_syms] bound address of .global/.const symbols */
	uint32_t regs_per_thread;
	uint8_t regs_source;           /* enum fe_regs_source */
	uint32_t n_ctas, threads_per_cta;
	FILE *printf_out;              /* device printf goes here; NULL: not printed */
	uint64_t stack_bytes;          /* per thread for recursive calls (cudaLimitStackSize) */
	/* Forward progress for the livelock rules (fe_launch_progress): a hash of the memory the
	 * launch wrote, sum of value * fe_state_key(address) mod 2^64, kept by every store and
	 * atomic as (new - old) * key, so it is a function of the memory's contents, not of how
	 * often they were rewritten; and the atomics that changed memory. */
	uint64_t mem_state;
	uint64_t atomic_changes;       /* atomic instructions with a lane that changed memory */
	fe_poll_fn poll;               /* fe_launch_set_poll; NULL: none */
	void *poll_ctx;
};

/* The weight of one location in mem_state: odd, so that any change of one location moves
 * the hash; the xor-shift keeps neighbouring addresses from cancelling. Per store lane. */
static inline uint64_t fe_state_key(uint64_t addr)
{
	return ((addr ^ (addr >> 29)) * UINT64_C(0xbf58476d1ce4e5b9)) | 1u;
}

enum fe_simt_kind { FE_SIMT_NORMAL, FE_SIMT_CALL };

/* One SIMT reconvergence stack entry: lanes in mask run from pc until they reach rpc
 * (immediate post-dominator of the branch that created the entry). A CALL entry is the
 * frame of a .func call: it pops when its lanes have returned (pc == FE_PC_NONE). */
struct fe_simt_entry {
	uint32_t pc, rpc;
	uint32_t call_pc;              /* CALL: pc of the call instruction */
	uint8_t kind;                  /* enum fe_simt_kind */
	uint8_t saved;                 /* CALL of a recursive function: a record on the save stack */
	uint64_t mask[WI_MASK_WORDS];
};

/* SIMT stack entries kept inside struct fe_warp; deeper stacks move to the heap. */
#define FE_SIMT_INLINE 4

/* Allocated 64-byte aligned (fe_cta_create): the first cache line holds what every executed
 * instruction reads, the SM's fe_warp_pc included, and the bottom of the SIMT stack follows
 * it, so a warp that has not diverged finds its top entry in the next line instead of in a
 * separate allocation (that load was the executor's most frequent cache miss). A CTA's restart
 * does not zero the struct: launch.c warp_start sets every field a CTA's run changes, and a new
 * field is set there or joins the kinds its comment lists. */
struct fe_warp {
	_Alignas(64) uint32_t pc;      /* top-of-stack pc (FE_PC_NONE once exited), kept by
	                                  fe_warp_execute */
	uint32_t sp;                   /* stack depth */
	struct fe_simt_entry *stack;   /* stack_inline until deeper than FE_SIMT_INLINE */
	const struct fe_kernel *k;     /* cta->l->k */
	uint64_t *regs;                /* [n_regs][n_lanes], register-major */
	uint32_t n_lanes;              /* warp size */
	uint32_t mask_words;           /* (n_lanes + 63) / 64 */
	uint64_t n_insts;              /* warp instructions executed (the functional clock's sum) */
	struct fe_cta *cta;
	/* bar.red: the result is written when the warp next executes, i.e. after the barrier
	 * released it, when every warp of the CTA has contributed */
	bool red_pending;
	struct fe_simt_entry stack_inline[FE_SIMT_INLINE];
	uint32_t id;                   /* warp index within the CTA */
	uint32_t cap;                  /* stack capacity (grows by doubling, rarely) */
	uint8_t *carry;                /* [n_lanes] CC.CF of add.cc/addc */
	uint32_t red_pc;               /* the bar.red instruction */
	uint32_t red_gen;              /* bar.red instructions executed so far */
	uint64_t red_mask[WI_MASK_WORDS];
	/* Calls of recursive functions: the callee's registers, .local and call scratch of every
	 * lane as they were before the call, a record per active call (simt.c frame_save);
	 * grows by doubling, like the SIMT stack */
	uint8_t *save;
	size_t save_len, save_cap;     /* bytes */
	uint32_t save_depth;           /* records */
	uint64_t stack_used;           /* their frames' bytes per thread (FE_FRAME_LINK_BYTES) */
};

/* Whether w has exited: its SIMT stack is empty. Inline for the functional turn loop, which
 * asks it of every warp at every turn; fe_warp_done is the same for the timing model. */
static inline bool fe_warp_exited(const struct fe_warp *w)
{
	return w->sp == 0;
}

/* A recursive call's stack frame as hardware would lay it out, in bytes per thread: the callee's
 * .local and call .param bytes and 16 for the return address and saved registers. ptxas -v
 * reports 24 bytes for fib(n) (estimate 24) and 56 for tri(n) of tests/cuda/ptx_more.cu
 * (estimate 48): an estimate a little low, so that a program that fits its stack on hardware
 * never overflows here. The frames of a warp's calls add up against the launch's stack_bytes. */
#define FE_FRAME_LINK_BYTES 16u

struct fe_cta {
	struct fe_launch *l;
	uint32_t id, ctaid[3], sm_id, warp_size, n_warps;
	const struct fe_clock *clock;  /* fe_cta_set_clock; NULL: the functional clock */
	/* Where the functional clock starts: the SM's cycle and time when a launch cut by the
	 * budget took the CTA off its SM (functional.c), and the CTA's warp instructions then;
	 * 0 for a CTA that never ran on an SM. The clock reads base + instructions since. */
	uint64_t clock_base_cycle, clock_base_ns, clock_base_insts;
	uint8_t *shared;               /* [shared_bytes] */
	uint32_t shared_bytes;
	uint8_t *local;                /* [threads][local_bytes] */
	uint8_t *fparam;               /* [threads][fparam_bytes] call scratch */
	struct fe_warp *warps;
	/* bar.red accumulators, double-buffered by generation: when a warp reaches reduction
	 * g+1, every warp has already read g-1 (it had to pass barrier g) */
	uint32_t red_gen[2];
	uint32_t red_true[2], red_n[2];
};

/* The warp instructions a CTA's warps have executed so far (the functional clock's count). */
static inline uint64_t fe_cta_warp_insts(const struct fe_cta *c)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < c->n_warps; i++)
		n += c->warps[i].n_insts;
	return n;
}

/* Instructions that act on the SIMT stack or the CTA (bra, call, ret, exit, trap, bar): simt.c
 * executes them; the rest are the executor's (fe_exec_inst). */
static inline bool fe_op_is_control(uint16_t op)
{
	return op == FE_OP_BRA || op == FE_OP_CALL || op == FE_OP_RET || op == FE_OP_EXIT ||
	       op == FE_OP_TRAP || op == FE_OP_BAR;
}

/* launch.c: make c (of launch c->l) CTA cta_id at its start, as fe_cta_create would make it:
 * the carry flags, shared and local memory, the call scratch and every register some path reads
 * before writing start zeroed; the other registers keep the previous CTA's values, which no
 * path reads. The functional executor runs a launch's CTAs one after another in one fe_cta,
 * and an SM reuses its finished CTAs (fe_cta_recycle), instead of allocating each. */
void fe_cta_restart(struct fe_cta *c, uint32_t cta_id);

/* A bra at pc whose active lanes (the guard applied; n_active of them) all go one way: none
 * active falls through, all of the top entry's lanes take it; the top entry's pc moves there.
 * FE_BRA_DIVERGES (nothing moved) when the lanes split: warp_control pushes the two paths.
 * The one rule for a branch that does not diverge, in timing mode (warp_control) and in a
 * functional turn (functional.c). */
enum fe_bra_way { FE_BRA_DIVERGES, FE_BRA_FALLS_THROUGH, FE_BRA_TAKEN };
static inline enum fe_bra_way fe_bra_uniform(const struct fe_warp *w, struct fe_simt_entry *top, uint32_t pc,
					     uint32_t target, const uint64_t *active, uint32_t n_active)
{
	if (n_active == 0) {
		top->pc = pc + 1;
		return FE_BRA_FALLS_THROUGH;
	}
	/* the words past the warp's lanes are zero in every mask (active and every entry) */
	for (uint32_t i = 0; i < w->mask_words; i++)
		if (top->mask[i] & ~active[i])
			return FE_BRA_DIVERGES;
	top->pc = target;
	return FE_BRA_TAKEN;
}

/* simt.c: after a non-control instruction moved the top entry's pc onto its reconvergence
 * point or past the code: pop what finished, end lanes that ran off the code, w->pc. */
void fe_warp_settle(struct fe_warp *w);

/* exec.c: execute the non-control instruction at pc for the lanes in mask (guard already
 * applied), recording per-lane addresses in out. */
int fe_exec_inst(struct fe_warp *w, uint32_t pc, const uint64_t *mask, struct warp_inst *out,
		 struct sim_error *err);
/* exec.c: the same through the per-lane semantics only, ignoring the decoded fast form (the
 * reference tests/frontend/test_fastpath.c compares the fast loops against). */
int fe_exec_inst_generic(struct fe_warp *w, uint32_t pc, const uint64_t *mask,
			 struct warp_inst *out, struct sim_error *err);
/* exec.c: operand value as a predicate (0/1, negation applied) / register write by type. */
bool fe_exec_read_pred(const struct fe_warp *w, const struct fe_opnd *o, uint32_t lane);
void fe_exec_write(struct fe_warp *w, uint16_t reg, uint32_t lane, uint64_t v, enum fe_type t);
/* exec.c: lanes of mask whose guard predicate holds. */
void fe_exec_guard(const struct fe_warp *w, uint16_t guard, bool guard_neg, const uint64_t *mask,
		   uint64_t *out);
/* exec_opnd.c: bit l of bits[l / 64]: predicate register reg of lane l is nonzero, for every lane
 * of w (words past its lanes untouched; bits past its lanes in the last word zero). What
 * fe_exec_guard applies to its mask. */
void fe_exec_pred_bits(const struct fe_warp *w, uint16_t reg, uint64_t *bits);

/* Word i of the guard's lanes: those of mask word m whose predicate bit (nz, as
 * fe_exec_pred_bits gives it) differs from the negation; bits past the warp's lanes pass. */
static inline uint64_t fe_guard_word(const struct fe_warp *w, uint32_t i, uint64_t m, uint64_t nz, bool neg)
{
	uint32_t n = w->n_lanes - i * 64 < 64 ? w->n_lanes - i * 64 : 64;
	uint64_t lanes = n == 64 ? ~0ull : (1ull << n) - 1;
	return m & ~((neg ? nz : ~nz) & lanes);
}
/* exec.c: SIM_ERR_PROGRAM naming the thread of lane, the pc and line. */
int fe_exec_fault(const struct fe_warp *w, uint32_t lane, uint32_t pc, struct sim_error *err,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Clear a whole lane mask: eight 16-byte stores, where a loop or memset becomes rep stos (a
 * start-up cost on the CPU, and 16 instructions) for every executed instruction. */
static inline void fe_mask_zero(uint64_t m[WI_MASK_WORDS])
{
#pragma GCC unroll 16
	for (uint32_t i = 0; i < WI_MASK_WORDS; i++)
		m[i] = 0;
}

static inline bool fe_mask_test(const uint64_t *m, uint32_t lane)
{
	return (m[lane >> 6] >> (lane & 63)) & 1u;
}

/* Bit count without __builtin_popcountll, which is a libgcc call unless the build targets a
 * CPU with POPCNT; this runs for every executed instruction. */
static inline uint32_t fe_popcount64(uint64_t x)
{
	x = x - ((x >> 1) & 0x5555555555555555ull);
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (uint32_t)((x * 0x0101010101010101ull) >> 56);
}

/* The lanes of a mask of w (the words past its lanes are zero in every mask). */
static inline __attribute__((always_inline)) uint32_t fe_mask_count(const struct fe_warp *w,
								     const uint64_t *m)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < w->mask_words; i++)
		n += fe_popcount64(m[i]);
	return n;
}

/* Run the statements after the lane name for every lane of warp w set in mask, in lane order
 * (the order the per-lane semantics rely on for atomics and faults). A word whose lanes are
 * all active runs as a counted loop; any other visits only its set bits, so a sparse mask
 * costs per active lane, not per lane. Bits at or above the warp size are ignored. */
#define FE_FOR_LANES(w, mask, lane, ...)                                                      \
	do {                                                                                  \
		for (uint32_t fe_wd_ = 0; fe_wd_ < (w)->mask_words; fe_wd_++) {               \
			uint32_t fe_b_ = fe_wd_ * 64, fe_n_ = (w)->n_lanes - fe_b_;            \
			if (fe_n_ > 64)                                                       \
				fe_n_ = 64;                                                   \
			uint64_t fe_all_ = fe_n_ == 64 ? ~0ull : (1ull << fe_n_) - 1;          \
			uint64_t fe_m_ = (mask)[fe_wd_] & fe_all_;                            \
			if (fe_m_ == fe_all_) {                                               \
				_Pragma("GCC unroll 4")                                       \
				for (uint32_t lane = fe_b_; lane < fe_b_ + fe_n_; lane++) {    \
					__VA_ARGS__                                            \
				}                                                             \
			} else {                                                              \
				for (; fe_m_; fe_m_ &= fe_m_ - 1) {                            \
					uint32_t lane = fe_b_ + (uint32_t)__builtin_ctzll(fe_m_); \
					__VA_ARGS__                                            \
				}                                                             \
			}                                                                     \
		}                                                                             \
	} while (0)

#endif
