/* SPDX-License-Identifier: MIT */
/* Private to frontend/: the decoded PTX program (module, functions, kernels, instructions)
 * shared by the parser, the linker/analyses and the functional executor. */
#ifndef WARPSIM_FE_INT_H
#define WARPSIM_FE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "fe.h"
#include "warp_inst.h"

#define FE_NO_REG 0xffffu
#define FE_PC_NONE UINT32_MAX       /* "no pc": virtual exit of the CFG, no reconvergence */
#define FE_MAX_OPNDS 5
#define FE_MAX_VEC 8     /* vector operand elements: wmma fragments hold 8 registers */

/* Generic address windows (PTX generic addressing, ISA 6.4.1): a generic address in one of
 * these windows names shared/local/param space; anything else is global. The global heap
 * starts at FE_GLOBAL_BASE so that small integers (NULL+offset) are never valid addresses. */
#define FE_GLOBAL_BASE 0x10000000ull
#define FE_SHARED_WIN 0x7e0000000000ull
#define FE_LOCAL_WIN 0x7f0000000000ull
#define FE_PARAM_WIN 0x7d0000000000ull
#define FE_WIN_BYTES 0x100000000ull

enum fe_type {
	FE_T_NONE, FE_T_PRED,
	FE_T_B8, FE_T_B16, FE_T_B32, FE_T_B64,
	FE_T_U8, FE_T_U16, FE_T_U32, FE_T_U64,
	FE_T_S8, FE_T_S16, FE_T_S32, FE_T_S64,
	FE_T_F16, FE_T_F32, FE_T_F64,
	FE_T_F16X2,           /* two halves packed in 32 bits (add/sub/mul/fma/neg/abs/min/max) */
	FE_T_COUNT
};

enum fe_op {
	FE_OP_ADD, FE_OP_SUB, FE_OP_MUL, FE_OP_MAD, FE_OP_FMA, FE_OP_DIV, FE_OP_REM, FE_OP_NEG,
	FE_OP_ABS, FE_OP_MIN, FE_OP_MAX, FE_OP_ADDC, FE_OP_SUBC, FE_OP_MADC, FE_OP_MUL24,
	FE_OP_MAD24, FE_OP_SAD, FE_OP_AND, FE_OP_OR, FE_OP_XOR, FE_OP_NOT, FE_OP_CNOT,
	FE_OP_SHL, FE_OP_SHR, FE_OP_BFI, FE_OP_BFE, FE_OP_CLZ, FE_OP_POPC, FE_OP_BREV,
	FE_OP_PRMT, FE_OP_LOP3, FE_OP_SHF, FE_OP_COPYSIGN, FE_OP_TESTP,
	FE_OP_SETP, FE_OP_SET, FE_OP_SELP, FE_OP_SLCT, FE_OP_MOV, FE_OP_CVT, FE_OP_CVTA,
	FE_OP_LD, FE_OP_LDU, FE_OP_ST, FE_OP_PREFETCH,
	FE_OP_SQRT, FE_OP_RCP, FE_OP_RSQRT, FE_OP_SIN, FE_OP_COS, FE_OP_EX2, FE_OP_LG2,
	FE_OP_TANH,
	FE_OP_ATOM, FE_OP_RED, FE_OP_BAR, FE_OP_BAR_WARP, FE_OP_MEMBAR, FE_OP_BRA, FE_OP_CALL,
	FE_OP_RET, FE_OP_EXIT, FE_OP_SHFL, FE_OP_VOTE, FE_OP_ACTIVEMASK, FE_OP_NANOSLEEP,
	FE_OP_TEX, FE_OP_TRAP, FE_OP_BFIND, FE_OP_DP4A, FE_OP_BMSK, FE_OP_MATCH,
	FE_OP_WMMA_LOAD, FE_OP_WMMA_STORE, FE_OP_WMMA_MMA, FE_OP_COUNT
};
extern const char *const fe_op_names[FE_OP_COUNT];

/* mul/mad/mul24/mad24 result part */
enum fe_part { FE_PART_NONE, FE_PART_LO, FE_PART_HI, FE_PART_WIDE };
enum fe_rnd { FE_RND_NONE, FE_RND_RN, FE_RND_RZ, FE_RND_RM, FE_RND_RP,
	      FE_RND_RNI, FE_RND_RZI, FE_RND_RMI, FE_RND_RPI };
enum fe_cmp { FE_CMP_EQ, FE_CMP_NE, FE_CMP_LT, FE_CMP_LE, FE_CMP_GT, FE_CMP_GE,
	      FE_CMP_LO, FE_CMP_LS, FE_CMP_HI, FE_CMP_HS,
	      FE_CMP_EQU, FE_CMP_NEU, FE_CMP_LTU, FE_CMP_LEU, FE_CMP_GTU, FE_CMP_GEU,
	      FE_CMP_NUM, FE_CMP_NAN };
enum fe_boolop { FE_BOOL_NONE, FE_BOOL_AND, FE_BOOL_OR, FE_BOOL_XOR };
enum fe_atom { FE_ATOM_ADD, FE_ATOM_MIN, FE_ATOM_MAX, FE_ATOM_EXCH, FE_ATOM_CAS,
	       FE_ATOM_AND, FE_ATOM_OR, FE_ATOM_XOR, FE_ATOM_INC, FE_ATOM_DEC };
enum fe_shfl { FE_SHFL_UP, FE_SHFL_DOWN, FE_SHFL_BFLY, FE_SHFL_IDX };
enum fe_vote { FE_VOTE_ALL, FE_VOTE_ANY, FE_VOTE_UNI, FE_VOTE_BALLOT };
/* bmsk's mode and match.sync's (0: not given, refused at decode) */
enum fe_bmsk { FE_BMSK_NONE, FE_BMSK_CLAMP, FE_BMSK_WRAP };
enum fe_match { FE_MATCH_NONE, FE_MATCH_ANY, FE_MATCH_ALL };
enum fe_cvta { FE_CVTA_TO_GENERIC, FE_CVTA_FROM_GENERIC };
/* wmma (exec_wmma.c): the fragment in fe_inst.part (load: a, b or c; store: d, kept as c), the
 * shape in fe_inst.cmp, the layout in fe_inst.boolop (load/store: FE_WMMA_COL set for .col;
 * mma: FE_WMMA_COL for a's .col, FE_WMMA_B_COL for b's); mma: type d's, type2 c's and type3
 * a's and b's element type. */
enum fe_wmma_frag { FE_WMMA_NONE, FE_WMMA_A, FE_WMMA_B, FE_WMMA_C };
enum fe_wmma_shape { FE_WMMA_M16N16K16 = 1, FE_WMMA_M32N8K16, FE_WMMA_M8N32K16 };
enum { FE_WMMA_ROW = 1u, FE_WMMA_COL = 2u, FE_WMMA_B_COL = 4u };
/* bar: plain barrier or bar.red with its reduction */
enum fe_bar { FE_BAR_SYNC, FE_BAR_RED_POPC, FE_BAR_RED_AND, FE_BAR_RED_OR };
enum fe_testp { FE_TESTP_FINITE, FE_TESTP_INFINITE, FE_TESTP_NUMBER, FE_TESTP_NOTANUMBER,
		FE_TESTP_NORMAL, FE_TESTP_SUBNORMAL };

enum fe_iflag {
	FE_IF_FTZ = 1u << 0, FE_IF_SAT = 1u << 1, FE_IF_APPROX = 1u << 2, FE_IF_CC = 1u << 3,
	FE_IF_UNI = 1u << 4, FE_IF_FULL = 1u << 5, FE_IF_SHF_L = 1u << 6, FE_IF_SHF_WRAP = 1u << 7,
	FE_IF_SHIFTAMT = 1u << 8,     /* bfind.shiftamt */
};

enum fe_sreg {
	FE_SR_TID_X, FE_SR_TID_Y, FE_SR_TID_Z, FE_SR_NTID_X, FE_SR_NTID_Y, FE_SR_NTID_Z,
	FE_SR_CTAID_X, FE_SR_CTAID_Y, FE_SR_CTAID_Z, FE_SR_NCTAID_X, FE_SR_NCTAID_Y,
	FE_SR_NCTAID_Z, FE_SR_LANEID, FE_SR_WARPID, FE_SR_NWARPID, FE_SR_SMID, FE_SR_NSMID,
	FE_SR_CLOCK, FE_SR_CLOCK64, FE_SR_GRIDID, FE_SR_LANEMASK_EQ, FE_SR_LANEMASK_LT,
	FE_SR_LANEMASK_LE, FE_SR_LANEMASK_GT, FE_SR_LANEMASK_GE, FE_SR_GLOBALTIMER,
	FE_SR_WARPSZ, FE_SR_COUNT
};

/* Where a symbol lives, and so how its address is formed. */
enum fe_sym_kind {
	FE_SYM_GLOBAL, FE_SYM_CONST,   /* address assigned when bound into an fe_memory */
	FE_SYM_SHARED, FE_SYM_SHARED_DYN, /* offset in the CTA's shared memory (per kernel) */
	FE_SYM_LOCAL,                  /* offset in the thread's local memory (per kernel) */
	FE_SYM_KPARAM,                 /* kernel parameter: offset in the launch's param buffer */
	FE_SYM_FPARAM,                 /* .func param/retval or call-site .param: per-thread scratch */
};

/* CUDA's limit on a kernel's parameter bytes (since 12.1; 4 KB before). */
#define FE_MAX_PARAM_BYTES 32764

struct fe_sym {
	char *name;
	uint8_t kind;        /* enum fe_sym_kind */
	uint32_t size_bytes, align;
	int32_t func;        /* declaring function, -1 at module scope */
	uint32_t off;        /* KPARAM: offset in the param buffer */
	uint8_t ptype;       /* KPARAM/FPARAM: enum fe_type of the elements */
	uint32_t elems;      /* KPARAM/FPARAM: element count (1 for a scalar) */
	uint8_t *init;       /* GLOBAL/CONST initialiser (size_bytes bytes) or NULL */
	uint32_t line;
};

enum fe_okind {
	FE_OK_NONE, FE_OK_REG, FE_OK_IMM, FE_OK_SREG, FE_OK_ADDR /* [..] or a bare symbol */,
	FE_OK_VEC, FE_OK_LABEL, FE_OK_SINK,
};
/* How FE_OK_ADDR adds a symbol's address. After linking, shared/local/param symbols are
 * folded into imm (FE_AB_NONE); global/const symbols are looked up in the launch. */
enum fe_abase { FE_AB_NONE, FE_AB_GSYM, FE_AB_SYM_UNLINKED };

struct fe_opnd {
	uint8_t kind;        /* enum fe_okind */
	uint8_t neg;         /* !%p */
	uint8_t n;           /* FE_OK_VEC: element count */
	uint8_t sreg;        /* FE_OK_SREG */
	uint8_t abase;       /* FE_OK_ADDR: enum fe_abase */
	uint8_t kparam;      /* FE_OK_ADDR on a kernel parameter (param space = launch buffer) */
	uint8_t imm_is_f;    /* FE_OK_IMM written as a float literal (fval holds it) */
	uint16_t reg, reg2;  /* reg2: second destination of "a|b" */
	uint16_t vec[FE_MAX_VEC]; /* FE_OK_VEC: register ids (FE_NO_REG for '_' or immediates in
	                        vimm, which only the first 4 may be); FE_OK_ADDR of tex: the n
	                        coordinate registers */
	uint32_t sym;        /* FE_OK_ADDR symbol index; FE_OK_LABEL target (pc after linking) */
	int64_t imm;         /* FE_OK_IMM value bits; FE_OK_ADDR byte offset */
	double fval;
	int64_t vimm[4];     /* FE_OK_VEC immediates (st.v4 with constants) */
};

struct fe_inst {
	uint16_t op;         /* enum fe_op */
	uint8_t type, type2; /* main type; cvt source, setp/set compare, slct selector type */
	uint8_t part;        /* enum fe_part, or atom op / shfl mode / vote mode / cvta dir / testp /
	                        wmma fragment */
	uint8_t type3;       /* wmma.mma: a's and b's element type */
	uint8_t cmp;         /* enum fe_cmp */
	uint8_t boolop;      /* enum fe_boolop */
	uint8_t rnd;         /* enum fe_rnd */
	uint8_t space;       /* enum wi_space for ld/st/atom/cvta */
	uint8_t vec;         /* 1, 2, 4 */
	uint16_t flags;      /* enum fe_iflag */
	uint8_t n_opnd;
	uint8_t guard_neg;
	uint16_t guard;      /* predicate register or FE_NO_REG */
	uint32_t call;       /* FE_OP_CALL: index into the module's call table */
	uint32_t line, col;
	struct fe_opnd o[FE_MAX_OPNDS];
};

/* The executor's compact form of an instruction, decoded once at link (fe_exec_decode): the
 * common ALU shapes (integer add/sub/logic/shift/mul/mad, setp, selp, mov, cvt between
 * integers, integer -> f32, f32/f64 -> integer and f32 <-> f64, f32/f64 add/sub/mul/fma in round-to-nearest, predicate logic) with register or immediate
 * operands run as one loop over the active lanes with every per-instruction decision taken
 * here; anything else has kind FE_X_GENERIC and runs lane by lane through the full
 * semantics. Both give the same bits (tests/frontend/test_fastpath.c compares them). */
enum fe_xkind {
	FE_X_GENERIC,
	FE_X_ADD, FE_X_SUB, FE_X_AND, FE_X_OR, FE_X_XOR, FE_X_NOT,  /* integer */
	FE_X_SHL, FE_X_SHR,
	FE_X_MUL_LO, FE_X_MUL_WIDE, FE_X_MAD_LO, FE_X_MAD_WIDE,
	FE_X_SETP_INT, FE_X_SETP_F32, FE_X_SETP_F64,
	FE_X_SELP, FE_X_MOV, FE_X_MOV_SREG, FE_X_CVT_INT,
	FE_X_MIN, FE_X_MAX, FE_X_DIV, FE_X_REM,                      /* integer */
	FE_X_CVT_I2F,                                                /* integer -> f32, .rn */
	FE_X_CVT_F2I,                       /* f32/f64 -> integer, any rounding, no .ftz */
	FE_X_CVT_F2F,                       /* f32 -> f64, f64 -> f32 .rn; no .ftz/.sat */
	FE_X_CVTA_TO, FE_X_CVTA_FROM,                                /* imm[2]: the window */
	FE_X_FADD, FE_X_FSUB, FE_X_FMUL, FE_X_FFMA,                  /* f32, .rn, no .ftz/.sat */
	FE_X_DADD, FE_X_DSUB, FE_X_DMUL, FE_X_DFMA,                  /* f64, .rn */
	FE_X_PAND, FE_X_POR, FE_X_PXOR, FE_X_PNOT,                   /* .pred */
	/* ld/ldu/st of one register (not .pred, not a vector) in shared memory, the kernel's
	 * parameters, global or const memory: r[0] + imm[0] (+ gsym) addresses, d is the value
	 * register, bits the access width, ssigned the load's sign extension */
	FE_X_LD, FE_X_ST,
	FE_X_COUNT
};

struct fe_warp;
struct fe_xop;
/* A fast kind's loop for the lanes of mask (exec_fast.c; fe_exec_fast says what pbits gets). */
typedef bool (*fe_fast_fn)(struct fe_warp *w, const struct fe_xop *x, const uint64_t *mask,
			   uint64_t *pbits);
/* An FE_X_LD/FE_X_ST's loop for the lanes of mask (exec_mem.c; fe_exec_ldst_fast). */
typedef int (*fe_ldst_fn)(struct fe_warp *w, uint32_t pc, const struct fe_xop *x, const uint64_t *mask,
			  uint64_t *addr, struct sim_error *err);

struct fe_xop {
	/* what fe_warp_execute needs of every instruction, so that the common path never reads
	 * the much larger struct fe_inst (a kernel's fe_insts do not stay in the L1 cache) */
	uint16_t op;         /* enum fe_op */
	uint16_t guard;      /* predicate register or FE_NO_REG */
	uint8_t guard_neg;
	uint32_t target;     /* bra: the target pc */
	uint8_t kind;        /* enum fe_xkind */
	uint8_t rsh;         /* 64 - 8 * result bytes: the write's norm() as a shift pair */
	uint8_t rsigned;     /* result type signed: norm() sign-extends */
	uint8_t ssh;         /* 64 - 8 * source bytes (cvt, shr, mul.wide, setp keys) */
	uint8_t ssigned;     /* source type signed (cvt, shr, mul.wide); setp: signed order */
	uint8_t bits;        /* shl/shr: operand width in bits; ld/st: access width in bits */
	uint8_t tbl;         /* setp: result for less (bit 0), equal (1), greater (2), unordered (3) */
	uint8_t boolop;      /* setp: enum fe_boolop with the third operand */
	uint8_t sreg;        /* FE_X_MOV_SREG */
	uint8_t rnd;         /* FE_X_CVT_F2I: enum fe_rnd */
	uint8_t neg[3];      /* predicate operands: !%p */
	uint16_t d, d2;      /* destinations (d2: setp's second, or FE_NO_REG) */
	uint16_t r[3];       /* source registers, FE_NO_REG where imm[i] holds the value */
	uint64_t imm[3];     /* immediates as the instruction reads them */
	uint8_t space;       /* FE_X_LD/ST: enum wi_space (WI_SPACE_PARAM: kernel parameters) */
	uint8_t f16;         /* FE_X_LD: .f16 keeps the loaded 16 bits */
	uint32_t gsym;       /* FE_X_LD/ST: global symbol whose address adds in, or UINT32_MAX */
	/* Decided at link, so that a fast instruction's call sets nothing up: its loop (chosen
	 * by kind and by the result's norm(); ld/st: by space, direction and width), the
	 * instruction (a NaN's payload, fe_convert) and for each source without a register the
	 * column of WI_MAX_LANES copies of imm[i] it reads (fe_zero_column for 0, else the
	 * kernel's imm_cols: fe_exec_decode_kernel) */
	fe_fast_fn fast;
	fe_ldst_fn ldst;
	const struct fe_inst *in;
	const uint64_t *icol[3];
};

/* A register column of zeros (read only, exec_fast.c): what an operand without a register, or
 * an immediate 0, reads in the fast loops, which index every operand by lane alike. */
extern const uint64_t fe_zero_column[WI_MAX_LANES];

/* Library functions nvcc calls but never defines: printf and assert. */
enum fe_builtin { FE_BUILTIN_NONE, FE_BUILTIN_VPRINTF, FE_BUILTIN_ASSERTFAIL };

struct fe_call {
	uint32_t func;       /* callee (after linking) */
	uint8_t builtin;     /* enum fe_builtin: the callee is only declared (.extern) */
	char *func_name;
	uint16_t n_args, n_rets;
	uint32_t *args;      /* caller-side param symbols */
	uint32_t *rets;
};

struct fe_label { char *name; uint32_t pc; uint32_t line, col; };

struct fe_func {
	char *name;
	bool is_entry, defined;
	struct fe_inst *insts;
	uint32_t n_insts, cap_insts;
	uint32_t n_regs;     /* registers declared (predicates included) */
	uint8_t *reg_bytes;        /* [n_regs] declared width: 0 predicate, 2, 4 or 8 */
	struct fe_label *labels;
	uint32_t n_labels, cap_labels;
	uint32_t *params, *rets;   /* symbol indices, in order */
	uint32_t n_params, n_rets;
	uint32_t param_bytes;      /* kernel: size of the param buffer */
	uint32_t maxntid[3], reqntid[3], minnctapersm;
	uint32_t line;
	/* used while parsing: register names */
	char **reg_names;
	uint32_t cap_regs;
};

/* What one activation of a .func holds that another activation would overwrite: its
 * registers (renumbered), its .local bytes and its call-scratch .param bytes (per thread, each
 * contiguous). A call of a recursive function (one that can reach itself) saves them first
 * and restores them when the call returns: the call stack a compiler would keep in local
 * memory (frontend/NOTES.md). */
struct fe_frame {
	uint32_t reg_off, n_regs;
	uint32_t local_off, local_bytes;
	uint32_t fparam_off, fparam_bytes;
	bool recursive;
};

/* A kernel as executed: its entry body followed by every .func it reaches, with registers
 * and pcs renumbered into one space, per-kernel shared/local/param-scratch layouts folded in. */
struct fe_kernel {
	uint32_t func;               /* the entry */
	struct fe_inst *prog;        /* [n_insts] */
	struct wi_static *wi;        /* [n_insts] */
	struct fe_xop *xop;          /* [n_insts] executor form (fe_exec_decode_kernel) */
	uint64_t *imm_cols;          /* [n_imm_cols][WI_MAX_LANES]: each nonzero immediate a fast
	                                kind reads, once, WI_MAX_LANES times (fe_xop.icol) */
	uint32_t n_imm_cols;
	uint32_t n_insts;
	uint32_t n_regs;
	uint32_t *func_start;        /* [module n_funcs]: pc of each linked function or FE_PC_NONE */
	uint32_t *sym_off;           /* [module n_syms]: offset of shared/local/call-param symbols */
	uint32_t *rpc;               /* [n_insts]: reconvergence pc of a branch (ipdom), FE_PC_NONE = exit */
	uint32_t shared_static_bytes;
	bool dyn_shared;             /* uses .extern .shared */
	uint32_t local_bytes;        /* per thread, all functions' .local */
	uint32_t fparam_bytes;       /* per thread call scratch */
	struct fe_frame *frames;     /* [module n_funcs]: what a call of each function may reuse */
	uint32_t regs_estimate;
	/* registers that some path from the entry reads before writing (backward liveness at pc 0,
	 * guards included; all of them if the kernel calls a function): all a CTA's start must
	 * zero of its registers for a kernel to compute what it does on fresh, zeroed ones */
	uint16_t *entry_regs;        /* [n_entry_regs] */
	uint32_t n_entry_regs;
	uint32_t n_blocks;
	uint32_t n_phases;
	uint32_t *phase_len;         /* [n_phases] cycles */
};

struct fe_module {
	char *path;
	char *text;                  /* the PTX as loaded (ptxas and its cache key read it) */
	size_t text_bytes;
	char **lines;                /* source lines (for wi_static.text) */
	uint32_t n_lines;
	struct fe_sym *syms;
	uint32_t n_syms, cap_syms;
	struct fe_func *funcs;
	uint32_t n_funcs, cap_funcs;
	struct fe_call *calls;
	uint32_t n_calls, cap_calls;
	struct fe_kernel *kernels;   /* one per entry function */
	uint32_t n_kernels;
	char **cxx_names;            /* [n_kernels] demangled, without return type
	                                ("f<32>(float*, int)"); the PTX name if not mangled */
};

/* Fixed latencies used by the phase analysis (cycles per wi_lat_class), documented in
 * link_cfg.c; the timing model has its own configured latencies. */
extern const uint32_t fe_phase_latency_cycles[WI_LAT_COUNT];

/* Type properties; inline because the executor asks per lane. */
static inline uint32_t fe_type_bytes(enum fe_type t)
{
	static const uint8_t bytes[FE_T_COUNT] = {
		[FE_T_PRED] = 1, [FE_T_B8] = 1, [FE_T_U8] = 1, [FE_T_S8] = 1,
		[FE_T_B16] = 2, [FE_T_U16] = 2, [FE_T_S16] = 2, [FE_T_F16] = 2,
		[FE_T_B32] = 4, [FE_T_U32] = 4, [FE_T_S32] = 4, [FE_T_F32] = 4, [FE_T_F16X2] = 4,
		[FE_T_B64] = 8, [FE_T_U64] = 8, [FE_T_S64] = 8, [FE_T_F64] = 8,
	};
	return (unsigned)t < FE_T_COUNT ? bytes[t] : 0;
}

static inline bool fe_type_is_float(enum fe_type t)
{
	return t == FE_T_F16 || t == FE_T_F32 || t == FE_T_F64;
}

static inline bool fe_type_is_signed(enum fe_type t)
{
	return t == FE_T_S8 || t == FE_T_S16 || t == FE_T_S32 || t == FE_T_S64;
}

/* link.c: build kernels (wi_static, the executor's form; link_cfg.c: CFG, post-dominators, phases). */
int fe_module_link(struct fe_module *m, struct sim_error *err);
/* Kernel index by PTX name, C++ name ("f<32>(float*, int)") or C++ name without the parameter
 * list ("f<32>", when one kernel has it); SIM_ERR_INPUT (negative) naming the candidates when
 * there is none or several. */
int fe_kernel_find(const struct fe_module *m, const char *name, struct sim_error *err);
/* demangle.c: the C++ name of a PTX (mangled) name without return type, malloc'ed; a copy of
 * mangled when it is not a C++ name. */
char *fe_demangle(const char *mangled);
/* demangle.c: name is display up to its parameter list ("f<32>" of "f<32>(float*)"). */
bool fe_name_matches_base(const char *display, const char *name);
void fe_module_free(struct fe_module *m);

/* exec.c: k->xop[pc], the executor's compact form of every k->prog[pc] (FE_X_GENERIC where no
 * fast loop applies), and k->imm_cols, one column per distinct nonzero immediate the fast
 * loops read, where those xops' icol point. Once k->prog is final. */
void fe_exec_decode_kernel(struct fe_kernel *k);

/* memory.c: host pointer to n bytes at a global address, NULL if any byte is unallocated. */
uint8_t *fe_mem_ptr(const struct fe_memory *mem, uint64_t addr, uint32_t n);
/* memory.c: host pointer to the first byte of page pno (address >> FE_PAGE_BITS), NULL if
 * unallocated. */
#define FE_PAGE_BITS 12
/* Mapped slack on each side of every allocation (memory.c): a GPU maps device memory in pages
 * of 64 KiB to 2 MiB and packs small allocations side by side in them, so a read a little
 * before or past a buffer (a stencil's row -1, spmv's padded last row) reads a neighbour or
 * unused mapped memory, not a fault; only an access further than this from every allocation
 * faults here (frontend/NOTES.md). The smallest of those page sizes. */
#define FE_SLACK_BYTES (64u * 1024u)
/* Pages mapped after each allocation's own (memory.c): a GPU's allocator hands out small
 * allocations side by side in larger mapped pages, so a read a little past the end of a buffer
 * reads the next one or unused mapped memory, not a fault (frontend/NOTES.md). */
#define FE_SLACK_PAGES 1
uint8_t *fe_mem_page(const struct fe_memory *mem, uint64_t pno);
/* memory.c: texture object of a handle, NULL if unknown. */
const struct fe_tex_desc *fe_mem_texture(const struct fe_memory *mem, uint64_t handle);
int fe_memory_sym_addr(const struct fe_memory *mem, const struct fe_module *m, uint32_t sym,
		       uint64_t *addr);

#endif
