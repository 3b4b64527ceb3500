/* SPDX-License-Identifier: MIT */
/* Opcode decoding: "ld.global.nc.v4.f32" -> op, types, modifiers as enums (once, at load), and
 * per-op operand checks. Unsupported opcodes and modifiers are refused here. */
#include <stdio.h>
#include <string.h>

#include "decode.h"

const char *const fe_op_names[FE_OP_COUNT] = {
	[FE_OP_ADD] = "add", [FE_OP_SUB] = "sub", [FE_OP_MUL] = "mul", [FE_OP_MAD] = "mad",
	[FE_OP_FMA] = "fma", [FE_OP_DIV] = "div", [FE_OP_REM] = "rem", [FE_OP_NEG] = "neg",
	[FE_OP_ABS] = "abs", [FE_OP_MIN] = "min", [FE_OP_MAX] = "max", [FE_OP_ADDC] = "addc",
	[FE_OP_SUBC] = "subc", [FE_OP_MADC] = "madc", [FE_OP_MUL24] = "mul24",
	[FE_OP_MAD24] = "mad24", [FE_OP_SAD] = "sad", [FE_OP_AND] = "and", [FE_OP_OR] = "or",
	[FE_OP_XOR] = "xor", [FE_OP_NOT] = "not", [FE_OP_CNOT] = "cnot", [FE_OP_SHL] = "shl",
	[FE_OP_SHR] = "shr", [FE_OP_BFI] = "bfi", [FE_OP_BFE] = "bfe", [FE_OP_CLZ] = "clz",
	[FE_OP_POPC] = "popc", [FE_OP_BREV] = "brev", [FE_OP_PRMT] = "prmt", [FE_OP_LOP3] = "lop3",
	[FE_OP_SHF] = "shf", [FE_OP_COPYSIGN] = "copysign", [FE_OP_TESTP] = "testp",
	[FE_OP_SETP] = "setp", [FE_OP_SET] = "set", [FE_OP_SELP] = "selp", [FE_OP_SLCT] = "slct",
	[FE_OP_MOV] = "mov", [FE_OP_CVT] = "cvt", [FE_OP_CVTA] = "cvta", [FE_OP_LD] = "ld",
	[FE_OP_LDU] = "ldu", [FE_OP_ST] = "st", [FE_OP_PREFETCH] = "prefetch",
	[FE_OP_SQRT] = "sqrt", [FE_OP_RCP] = "rcp", [FE_OP_RSQRT] = "rsqrt", [FE_OP_SIN] = "sin",
	[FE_OP_COS] = "cos", [FE_OP_EX2] = "ex2", [FE_OP_LG2] = "lg2", [FE_OP_TANH] = "tanh",
	[FE_OP_ATOM] = "atom", [FE_OP_RED] = "red", [FE_OP_BAR] = "bar",
	[FE_OP_BAR_WARP] = "bar.warp", [FE_OP_MEMBAR] = "membar", [FE_OP_BRA] = "bra",
	[FE_OP_CALL] = "call", [FE_OP_RET] = "ret", [FE_OP_EXIT] = "exit", [FE_OP_SHFL] = "shfl",
	[FE_OP_VOTE] = "vote", [FE_OP_ACTIVEMASK] = "activemask", [FE_OP_NANOSLEEP] = "nanosleep",
	[FE_OP_TEX] = "tex", [FE_OP_TRAP] = "trap", [FE_OP_BFIND] = "bfind", [FE_OP_DP4A] = "dp4a",
	[FE_OP_BMSK] = "bmsk", [FE_OP_MATCH] = "match", [FE_OP_WMMA_LOAD] = "wmma.load",
	[FE_OP_WMMA_STORE] = "wmma.store", [FE_OP_WMMA_MMA] = "wmma.mma",
};

static const struct { const char *s; uint8_t t; } type_names[] = {
	{"pred", FE_T_PRED}, {"b8", FE_T_B8}, {"b16", FE_T_B16}, {"b32", FE_T_B32},
	{"b64", FE_T_B64}, {"u8", FE_T_U8}, {"u16", FE_T_U16}, {"u32", FE_T_U32},
	{"u64", FE_T_U64}, {"s8", FE_T_S8}, {"s16", FE_T_S16}, {"s32", FE_T_S32},
	{"s64", FE_T_S64}, {"f16", FE_T_F16}, {"f32", FE_T_F32}, {"f64", FE_T_F64},
	{"f16x2", FE_T_F16X2},
};

int fe_type_from_name(const char *s, size_t n)
{
	for (size_t i = 0; i < SIM_ARRAY_LEN(type_names); i++)
		if (strlen(type_names[i].s) == n && !memcmp(type_names[i].s, s, n))
			return type_names[i].t;
	return -1;
}

static const char *const op_base[] = {
	"add", "sub", "mul", "mad", "fma", "div", "rem", "neg", "abs", "min", "max", "addc", "subc",
	"madc", "mul24", "mad24", "sad", "and", "or", "xor", "not", "cnot", "shl", "shr", "bfi",
	"bfe", "clz", "popc", "brev", "prmt", "lop3", "shf", "copysign", "testp", "setp", "set",
	"selp", "slct", "mov", "cvt", "cvta", "ld", "ldu", "st", "prefetch", "sqrt", "rcp",
	"rsqrt", "sin", "cos", "ex2", "lg2", "tanh", "atom", "red", "bar", "bar.warp", "membar",
	"bra", "call", "ret", "exit", "shfl", "vote", "activemask", "nanosleep", "tex", "trap", "bfind", "dp4a",
	"bmsk", "match", "wmma.load", "wmma.store", "wmma.mma",
};

static bool eq(const char *s, size_t n, const char *lit)
{
	return strlen(lit) == n && !memcmp(s, lit, n);
}

static int find(const char *s, size_t n, const char *const *tab, size_t nt)
{
	for (size_t i = 0; i < nt; i++)
		if (eq(s, n, tab[i]))
			return (int)i;
	return -1;
}

static const char *const cmp_names[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi",
	"hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
static const char *const rnd_names[] = {"", "rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi"};
static const char *const atom_names[] = {"add", "min", "max", "exch", "cas", "and", "or", "xor",
	"inc", "dec"};
static const char *const space_names[] = {"", "global", "shared", "local", "const", "param"};
static const char *const testp_names[] = {"finite", "infinite", "number", "notanumber", "normal",
	"subnormal"};
/* Accepted and ignored: memory-ordering, scope, cache and alignment qualifiers, which do not
 * change a functional result in a simulator that executes warps one instruction at a time. */
static const char *const ignored[] = {"volatile", "relaxed", "acquire", "release", "acq_rel",
	"weak", "sys", "gpu", "cta", "cluster", "ca", "cg", "cs", "lu", "cv", "wb", "wt",
	"aligned", "sync", "L1::no_allocate", "L1::evict_last", "L1::evict_first",
	"L1::evict_normal", "L2::64B", "L2::128B", "L2::256B", "L1::evict_unchanged",
	"shared::cta", "noftz", "clamp", "L2", "L1", "mmio", "gl", "sc"};

static int modifier(struct fe_inst *in, const char *s, size_t n, int *n_types)
{
	int i;
	enum fe_op op = in->op;
	if ((i = fe_type_from_name(s, n)) >= 0) {
		if (*n_types == 0)
			in->type = (uint8_t)i;
		else if (*n_types == 1)
			in->type2 = (uint8_t)i;
		else
			return -1;
		(*n_types)++;
		return 0;
	}
	if (op == FE_OP_SETP || op == FE_OP_SET) {
		if ((i = find(s, n, cmp_names, SIM_ARRAY_LEN(cmp_names))) >= 0) {
			in->cmp = (uint8_t)i;
			return 0;
		}
		if (eq(s, n, "and") || eq(s, n, "or") || eq(s, n, "xor")) {
			in->boolop = eq(s, n, "and") ? FE_BOOL_AND : eq(s, n, "or") ? FE_BOOL_OR : FE_BOOL_XOR;
			return 0;
		}
	}
	if (op == FE_OP_ATOM || op == FE_OP_RED) {
		if ((i = find(s, n, atom_names, SIM_ARRAY_LEN(atom_names))) >= 0) {
			in->part = (uint8_t)i;
			return 0;
		}
	}
	if (op == FE_OP_SHFL) {
		static const char *const m[] = {"up", "down", "bfly", "idx"};
		if ((i = find(s, n, m, 4)) >= 0) {
			in->part = (uint8_t)i;
			return 0;
		}
	}
	if (op == FE_OP_VOTE) {
		static const char *const m[] = {"all", "any", "uni", "ballot"};
		if ((i = find(s, n, m, 4)) >= 0) {
			in->part = (uint8_t)i;
			return 0;
		}
	}
	if (op == FE_OP_BMSK && (eq(s, n, "clamp") || eq(s, n, "wrap"))) {
		in->part = eq(s, n, "clamp") ? FE_BMSK_CLAMP : FE_BMSK_WRAP;
		return 0;
	}
	if (op == FE_OP_MATCH && (eq(s, n, "any") || eq(s, n, "all"))) {
		in->part = eq(s, n, "any") ? FE_MATCH_ANY : FE_MATCH_ALL;
		return 0;
	}
	if (op == FE_OP_TESTP && (i = find(s, n, testp_names, SIM_ARRAY_LEN(testp_names))) >= 0) {
		in->part = (uint8_t)i;
		return 0;
	}
	if (op == FE_OP_BFIND && eq(s, n, "shiftamt")) {
		in->flags |= FE_IF_SHIFTAMT;
		return 0;
	}
	if (op == FE_OP_TEX && (eq(s, n, "1d") || eq(s, n, "2d"))) {
		in->part = (uint8_t)(s[0] - '0'); /* dimensions */
		return 0;
	}
	if (op == FE_OP_SHF) {
		if (eq(s, n, "l")) { in->flags |= FE_IF_SHF_L; return 0; }
		if (eq(s, n, "r")) return 0;
		if (eq(s, n, "wrap")) { in->flags |= FE_IF_SHF_WRAP; return 0; }
	}
	if (op == FE_OP_PRMT && (eq(s, n, "f4e") || eq(s, n, "b4e") || eq(s, n, "rc8") ||
				 eq(s, n, "ecl") || eq(s, n, "ecr") || eq(s, n, "rc16")))
		return -1; /* only the default mode is implemented */
	if (eq(s, n, "lo")) { in->part = FE_PART_LO; return 0; }
	if (eq(s, n, "hi")) { in->part = FE_PART_HI; return 0; }
	if (eq(s, n, "wide")) { in->part = FE_PART_WIDE; return 0; }
	if ((i = find(s, n, rnd_names, SIM_ARRAY_LEN(rnd_names))) > 0) {
		in->rnd = (uint8_t)i;
		return 0;
	}
	if ((i = find(s, n, space_names, SIM_ARRAY_LEN(space_names))) > 0) {
		static const uint8_t sp[] = {WI_SPACE_NONE, WI_SPACE_GLOBAL, WI_SPACE_SHARED,
			WI_SPACE_LOCAL, WI_SPACE_CONST, WI_SPACE_PARAM};
		in->space = sp[i];
		return 0;
	}
	if (eq(s, n, "nc")) { in->space = WI_SPACE_GLOBAL; return 0; }
	if (eq(s, n, "v2")) { in->vec = 2; return 0; }
	if (eq(s, n, "v4")) { in->vec = 4; return 0; }
	if (eq(s, n, "ftz")) { in->flags |= FE_IF_FTZ; return 0; }
	if (eq(s, n, "sat")) { in->flags |= FE_IF_SAT; return 0; }
	if (eq(s, n, "approx")) { in->flags |= FE_IF_APPROX; return 0; }
	if (eq(s, n, "full")) { in->flags |= FE_IF_FULL; return 0; }
	if (eq(s, n, "cc")) { in->flags |= FE_IF_CC; return 0; }
	if (eq(s, n, "uni")) { in->flags |= FE_IF_UNI; return 0; }
	if (eq(s, n, "to") && op == FE_OP_CVTA) { in->part = FE_CVTA_FROM_GENERIC; return 0; }
	if (n > 8 && !memcmp(s, "shared::", 8)) { in->space = WI_SPACE_SHARED; return 0; }
	if (find(s, n, ignored, SIM_ARRAY_LEN(ignored)) >= 0)
		return 0;
	return -1;
}

bool fe_wmma_geom(uint8_t frag, uint8_t shape, uint8_t type, struct fe_wmma_geom *g)
{
	static const uint32_t mnk[4][3] = {{0, 0, 0}, {16, 16, 16}, {32, 8, 16}, {8, 32, 16}};
	if (shape < FE_WMMA_M16N16K16 || shape > FE_WMMA_M8N32K16)
		return false;
	const uint32_t *d = mnk[shape];
	g->rows = frag == FE_WMMA_B ? d[2] : d[0];
	g->cols = frag == FE_WMMA_A ? d[2] : d[1];
	bool ab = frag == FE_WMMA_A || frag == FE_WMMA_B;
	if (type == FE_T_F16) { /* f16x2 registers: a and b 8 of them, c and d 4 */
		g->esize = 2, g->epr = 2, g->regs = ab ? 8 : 4;
	} else if (!ab && (type == FE_T_F32 || type == FE_T_S32)) {
		g->esize = 4, g->epr = 1, g->regs = 8;
	} else if (ab && (type == FE_T_S8 || type == FE_T_U8)) { /* 4 bytes a register, no copies */
		g->esize = 1, g->epr = 4, g->regs = g->rows * g->cols / 128;
	} else {
		return false;
	}
	return frag != FE_WMMA_NONE;
}

uint32_t fe_wmma_lane_bytes(const struct fe_inst *in)
{
	struct fe_wmma_geom g;
	if ((in->op != FE_OP_WMMA_LOAD && in->op != FE_OP_WMMA_STORE) ||
	    !fe_wmma_geom(in->part, in->cmp, in->type, &g))
		return 0;
	/* the memory's lines (rows, or columns for .col) spread evenly over the 32 lanes */
	uint32_t lines = in->boolop & FE_WMMA_COL ? g.cols : g.rows;
	uint32_t line_bytes = (in->boolop & FE_WMMA_COL ? g.rows : g.cols) * g.esize;
	return lines >= 32 ? line_bytes : line_bytes * lines / 32;
}

/* wmma.load.{a,b,c}.sync.aligned.{row,col}.shape[.space].type,
 * wmma.store.d.sync.aligned.{row,col}.shape[.space].type,
 * wmma.mma.sync.aligned.{row,col}.{row,col}.shape.dtype.ctype (f16) or
 * .s32.{s8,u8}.{s8,u8}.s32[.satfinite]. 0, or -1 for anything else. */
static int decode_wmma(const char *s, size_t n, size_t p, struct fe_inst *in)
{
	uint8_t types[4];
	int nt = 0, layouts = 0;
	bool mma = in->op == FE_OP_WMMA_MMA;
	while (p < n) {
		p++;
		size_t q = p;
		while (q < n && s[q] != '.')
			q++;
		const char *m = s + p;
		size_t ml = q - p;
		int t;
		if (eq(m, ml, "sync") || eq(m, ml, "aligned")) {
		} else if (!mma && ml == 1 && (m[0] == 'a' || m[0] == 'b' || m[0] == 'c' || m[0] == 'd') &&
			   !in->part) {
			bool st = in->op == FE_OP_WMMA_STORE;
			if (st != (m[0] == 'd'))
				return -1;
			in->part = m[0] == 'a' ? FE_WMMA_A : m[0] == 'b' ? FE_WMMA_B : FE_WMMA_C;
		} else if ((eq(m, ml, "row") || eq(m, ml, "col")) && layouts < (mma ? 2 : 1)) {
			if (m[0] == 'c')
				in->boolop |= (uint8_t)(layouts ? FE_WMMA_B_COL : FE_WMMA_COL);
			layouts++;
		} else if (eq(m, ml, "m16n16k16") || eq(m, ml, "m32n8k16") || eq(m, ml, "m8n32k16")) {
			if (in->cmp)
				return -1;
			in->cmp = eq(m, ml, "m16n16k16") ? FE_WMMA_M16N16K16 :
				eq(m, ml, "m32n8k16") ? FE_WMMA_M32N8K16 : FE_WMMA_M8N32K16;
		} else if (!mma && (eq(m, ml, "global") || eq(m, ml, "shared")) && !in->space) {
			in->space = m[0] == 'g' ? WI_SPACE_GLOBAL : WI_SPACE_SHARED;
		} else if (mma && eq(m, ml, "satfinite")) {
			in->flags |= FE_IF_SAT;
		} else if ((t = fe_type_from_name(m, ml)) >= 0 && nt < 4) {
			types[nt++] = (uint8_t)t;
		} else {
			return -1;
		}
		p = q;
	}
	if (!in->cmp || layouts != (mma ? 2 : 1))
		return -1;
	if (!mma) {
		struct fe_wmma_geom g;
		in->type = nt == 1 ? types[0] : FE_T_NONE;
		return nt == 1 && fe_wmma_geom(in->part, in->cmp, in->type, &g) ? 0 : -1;
	}
	if (nt == 2 && (types[0] == FE_T_F16 || types[0] == FE_T_F32) &&
	    (types[1] == FE_T_F16 || types[1] == FE_T_F32) && !(in->flags & FE_IF_SAT)) {
		in->type = types[0], in->type2 = types[1], in->type3 = FE_T_F16;
		return 0;
	}
	if (nt == 4 && types[0] == FE_T_S32 && types[3] == FE_T_S32 && types[1] == types[2] &&
	    (types[1] == FE_T_S8 || types[1] == FE_T_U8)) {
		in->type = in->type2 = FE_T_S32, in->type3 = types[1];
		return 0;
	}
	return -1;
}

int fe_decode_opcode(const char *s, size_t n, struct fe_inst *in, char *bad, size_t bad_n)
{
	/* base name: the longest op_base that is a dot-separated prefix */
	int best = -1;
	size_t best_len = 0;
	for (size_t i = 0; i < SIM_ARRAY_LEN(op_base); i++) {
		size_t l = strlen(op_base[i]);
		if (l <= n && !memcmp(s, op_base[i], l) && (l == n || s[l] == '.') && l > best_len) {
			best = (int)i;
			best_len = l;
		}
	}
	/* aliases */
	if (best < 0 && n >= 7 && !memcmp(s, "barrier", 7) && (n == 7 || s[7] == '.')) {
		best = FE_OP_BAR;
		best_len = 7;
	}
	if (best < 0 && n >= 5 && !memcmp(s, "fence", 5) && (n == 5 || s[5] == '.')) {
		best = FE_OP_MEMBAR;
		best_len = 5;
	}
	if (best < 0) {
		size_t l = 0;
		while (l < n && s[l] != '.')
			l++;
		snprintf(bad, bad_n, "%.*s", (int)l, s);
		return -1;
	}
	memset(in, 0, sizeof *in);
	in->op = (uint16_t)best;
	in->vec = 1;
	in->guard = FE_NO_REG;
	int n_types = 0;
	size_t p = best_len;
	if (in->op >= FE_OP_WMMA_LOAD && in->op <= FE_OP_WMMA_MMA) {
		if (decode_wmma(s, n, p, in)) {
			snprintf(bad, bad_n, "%.*s", (int)n, s);
			return -1;
		}
		return 0;
	}
	while (p < n) {
		p++; /* the dot */
		size_t q = p;
		while (q < n && s[q] != '.')
			q++;
		/* bar.sync / barrier.sync [.aligned] and bar.red.{popc,and,or}; bar.arrive is not modelled */
		if (in->op == FE_OP_BAR) {
			const char *mod = s + p;
			size_t ml = q - p;
			if (eq(mod, ml, "red") && in->part == FE_BAR_SYNC) {
				in->part = FE_BAR_RED_POPC; /* the reduction follows */
				in->cmp = 1;
			} else if (in->cmp == 1 && (eq(mod, ml, "popc") || eq(mod, ml, "and") || eq(mod, ml, "or"))) {
				in->part = eq(mod, ml, "popc") ? FE_BAR_RED_POPC : eq(mod, ml, "and") ? FE_BAR_RED_AND : FE_BAR_RED_OR;
				in->cmp = 2;
			} else if (!(eq(mod, ml, "sync") || eq(mod, ml, "aligned") ||
				     (in->cmp == 2 && (eq(mod, ml, "u32") || eq(mod, ml, "pred"))))) {
				snprintf(bad, bad_n, "%.*s", (int)n, s);
				return -1;
			}
			p = q;
			continue;
		}
		if (modifier(in, s + p, q - p, &n_types)) {
			snprintf(bad, bad_n, "%.*s", (int)n, s);
			return -1;
		}
		p = q;
	}
	if (in->op == FE_OP_ATOM || in->op == FE_OP_RED) {
		if (in->type == FE_T_F16) {
			snprintf(bad, bad_n, "%.*s", (int)n, s);
			return -1;
		}
	}
	if (in->op == FE_OP_BAR && in->cmp == 1) { /* "bar.red" without its reduction */
		snprintf(bad, bad_n, "%.*s", (int)n, s);
		return -1;
	}
	if (in->op == FE_OP_BAR) {
		in->type = in->part == FE_BAR_RED_POPC ? FE_T_U32 : FE_T_PRED;
		in->cmp = 0;
	}
	/* bmsk.{clamp,wrap}.b32; match.{any,all}.sync.{b32,b64} */
	if ((in->op == FE_OP_BMSK && (!in->part || in->type != FE_T_B32)) ||
	    (in->op == FE_OP_MATCH && (!in->part || (in->type != FE_T_B32 && in->type != FE_T_B64)))) {
		snprintf(bad, bad_n, "%.*s", (int)n, s);
		return -1;
	}
	if (in->op == FE_OP_TEX && (in->part == 0 || in->vec != 4)) {
		snprintf(bad, bad_n, "%.*s", (int)n, s); /* only tex.1d/.2d.v4 */
		return -1;
	}
	bool half_arith = in->op == FE_OP_ADD || in->op == FE_OP_SUB || in->op == FE_OP_MUL ||
		in->op == FE_OP_FMA || in->op == FE_OP_NEG || in->op == FE_OP_ABS ||
		in->op == FE_OP_MIN || in->op == FE_OP_MAX;
	bool half_move = in->op == FE_OP_CVT || in->op == FE_OP_LD || in->op == FE_OP_ST ||
		in->op == FE_OP_MOV;
	if ((in->type == FE_T_F16 && !half_arith && !half_move && in->op != FE_OP_SETP) ||
	    (in->type == FE_T_F16X2 && !half_arith && !half_move) ||
	    (in->type == FE_T_F16X2 && in->op == FE_OP_CVT) || in->type2 == FE_T_F16X2 ||
	    ((in->type == FE_T_F16 || in->type == FE_T_F16X2) && in->rnd > FE_RND_RN)) {
		snprintf(bad, bad_n, "%.*s", (int)n, s);
		return -1;
	}
	return 0;
}

const char *const fe_sreg_names[FE_SR_COUNT] = {
	"%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z", "%ctaid.x", "%ctaid.y",
	"%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z", "%laneid", "%warpid", "%nwarpid",
	"%smid", "%nsmid", "%clock", "%clock64", "%gridid", "%lanemask_eq", "%lanemask_lt",
	"%lanemask_le", "%lanemask_gt", "%lanemask_ge", "%globaltimer", "WARP_SZ",
};

int fe_sreg_from_name(const char *s, size_t n)
{
	for (int i = 0; i < FE_SR_COUNT; i++)
		if (eq(s, n, fe_sreg_names[i]))
			return i;
	/* %tid without component means .x in old PTX? No: it is a v4 register; refuse */
	return -1;
}

/* GPGPU-Sim's initiation-interval group of an SP opcode (cuda-sim.cc set_opcode_and_latency:
 * add/sub, min/max, mul (and mul24), mad/fma (and mad24), div/rem), by operand type. */
static uint8_t fe_ii_class(enum fe_op op, bool f64, bool flt)
{
	int t = f64 ? WI_II_DP : flt ? WI_II_FP : WI_II_INT, o;
	switch (op) {
	case FE_OP_ADD: case FE_OP_SUB: case FE_OP_ADDC: case FE_OP_SUBC: o = WI_II_ADD; break;
	case FE_OP_MIN: case FE_OP_MAX: o = WI_II_MAX; break;
	case FE_OP_MUL: case FE_OP_MUL24: o = WI_II_MUL; break;
	case FE_OP_MAD: case FE_OP_MAD24: case FE_OP_MADC: case FE_OP_FMA: o = WI_II_MAD; break;
	case FE_OP_DIV: case FE_OP_REM: o = WI_II_DIV; break;
	default: return WI_II_ONE;
	}
	return (uint8_t)WI_II_CLASS(t, o);
}

/* Fill the static description the timing model sees (unit, latency class, memory kind). */
void fe_inst_classify(const struct fe_inst *in, struct wi_static *ws)
{
	enum fe_op op = in->op;
	bool f64 = in->type == FE_T_F64 || (op == FE_OP_CVT && in->type2 == FE_T_F64);
	bool flt = fe_type_is_float(in->type);
	ws->unit = WI_UNIT_SP;
	ws->lat_class = WI_LAT_INT;
	ws->space = WI_SPACE_NONE;
	ws->mem_kind = WI_MEM_NONE;
	ws->access_bytes = 0;
	ws->vec = 1;
	ws->flags = 0;
	ws->ii_class = fe_ii_class(op, f64, flt || in->type == FE_T_F16X2);
	switch (op) {
	case FE_OP_MUL: case FE_OP_MAD: case FE_OP_MUL24: case FE_OP_MAD24: case FE_OP_MADC:
	case FE_OP_FMA: case FE_OP_SAD: case FE_OP_DP4A:
		ws->lat_class = f64 ? WI_LAT_FP64 : flt ? WI_LAT_FP32 : WI_LAT_MUL;
		break;
	case FE_OP_DIV: case FE_OP_REM:
		ws->lat_class = f64 ? WI_LAT_FP64 : WI_LAT_DIV;
		if (flt && !f64 && (in->flags & FE_IF_APPROX))
			ws->lat_class = WI_LAT_SFU, ws->unit = WI_UNIT_SFU;
		break;
	case FE_OP_SQRT: case FE_OP_RCP: case FE_OP_RSQRT: case FE_OP_SIN: case FE_OP_COS:
	case FE_OP_EX2: case FE_OP_LG2: case FE_OP_TANH:
		ws->unit = f64 ? WI_UNIT_SP : WI_UNIT_SFU;
		ws->lat_class = f64 ? WI_LAT_FP64 : WI_LAT_SFU;
		break;
	case FE_OP_LD: case FE_OP_LDU: case FE_OP_ST: case FE_OP_ATOM: case FE_OP_RED:
	case FE_OP_PREFETCH: {
		ws->unit = WI_UNIT_LDST;
		uint8_t sp = in->space ? in->space : WI_SPACE_GLOBAL; /* generic: assume global */
		ws->space = sp;
		ws->mem_kind = (op == FE_OP_ST) ? WI_MEM_STORE :
			(op == FE_OP_ATOM || op == FE_OP_RED) ? WI_MEM_ATOMIC :
			(op == FE_OP_PREFETCH) ? WI_MEM_NONE : WI_MEM_LOAD;
		ws->access_bytes = (uint8_t)fe_type_bytes(in->type);
		ws->vec = in->vec;
		ws->lat_class = sp == WI_SPACE_SHARED ? WI_LAT_SHARED :
			(sp == WI_SPACE_CONST || sp == WI_SPACE_PARAM) ? WI_LAT_CONST : WI_LAT_MEM;
		if ((op == FE_OP_LD || op == FE_OP_LDU) &&
		    (sp == WI_SPACE_GLOBAL || sp == WI_SPACE_LOCAL || sp == WI_SPACE_TEX))
			ws->flags |= WI_F_LONG_LAT;
		if (op == FE_OP_ATOM)
			ws->flags |= WI_F_LONG_LAT;
		break;
	}
	case FE_OP_WMMA_LOAD: case FE_OP_WMMA_STORE: {
		/* a memory instruction of the whole fragment: each lane an equal share of its
		 * rows (fe_wmma_lane_bytes) */
		ws->unit = WI_UNIT_LDST;
		uint8_t sp = in->space ? in->space : WI_SPACE_GLOBAL; /* generic: assume global */
		ws->space = sp;
		ws->mem_kind = op == FE_OP_WMMA_STORE ? WI_MEM_STORE : WI_MEM_LOAD;
		ws->access_bytes = (uint8_t)fe_wmma_lane_bytes(in);
		ws->lat_class = sp == WI_SPACE_SHARED ? WI_LAT_SHARED : WI_LAT_MEM;
		if (op == FE_OP_WMMA_LOAD && sp == WI_SPACE_GLOBAL)
			ws->flags |= WI_F_LONG_LAT;
		break;
	}
	case FE_OP_WMMA_MMA:
		/* no tensor unit: the SP unit for gpu.core.initiation.tensor issue slots */
		ws->lat_class = WI_LAT_TENSOR;
		ws->ii_class = WI_II_TENSOR;
		ws->flags |= WI_F_WARP_SYNC;
		break;
	case FE_OP_TEX:
		ws->unit = WI_UNIT_LDST;
		ws->space = WI_SPACE_TEX;
		ws->mem_kind = WI_MEM_LOAD;
		ws->access_bytes = 4;
		ws->vec = 4;
		ws->lat_class = WI_LAT_MEM;
		ws->flags |= WI_F_LONG_LAT;
		break;
	case FE_OP_BRA:
		ws->unit = WI_UNIT_NONE;
		ws->lat_class = WI_LAT_CTRL;
		ws->flags |= WI_F_BRANCH;
		if (in->guard == FE_NO_REG)
			ws->flags |= WI_F_UNCOND;
		break;
	case FE_OP_CALL: case FE_OP_RET:
		ws->unit = WI_UNIT_NONE;
		ws->lat_class = WI_LAT_CTRL;
		ws->flags |= WI_F_BRANCH;
		break;
	case FE_OP_EXIT:
		ws->unit = WI_UNIT_NONE;
		ws->lat_class = WI_LAT_CTRL;
		ws->flags |= WI_F_EXIT;
		break;
	case FE_OP_BAR:
		ws->unit = WI_UNIT_NONE;
		ws->lat_class = WI_LAT_CTRL;
		ws->flags |= WI_F_BARRIER;
		break;
	case FE_OP_BAR_WARP:
		ws->unit = WI_UNIT_NONE;
		ws->lat_class = WI_LAT_CTRL;
		ws->flags |= WI_F_WARP_SYNC;
		break;
	case FE_OP_MEMBAR:
		ws->unit = WI_UNIT_NONE;
		ws->lat_class = WI_LAT_CTRL;
		ws->flags |= WI_F_MEMBAR;
		break;
	case FE_OP_SHFL: case FE_OP_VOTE: case FE_OP_ACTIVEMASK: case FE_OP_MATCH:
		ws->flags |= WI_F_WARP_SYNC;
		break;
	case FE_OP_NANOSLEEP: case FE_OP_TRAP:
		ws->unit = WI_UNIT_NONE;
		ws->lat_class = WI_LAT_CTRL;
		break;
	case FE_OP_CVT:
		if (f64)
			ws->lat_class = WI_LAT_FP64;
		else if (flt || fe_type_is_float(in->type2))
			ws->lat_class = WI_LAT_FP32;
		else
			ws->lat_class = WI_LAT_LOGIC;
		break;
	case FE_OP_ADD: case FE_OP_SUB: case FE_OP_ADDC: case FE_OP_SUBC: case FE_OP_MIN: case FE_OP_MAX:
		if (f64)
			ws->lat_class = WI_LAT_FP64;
		else if (flt || in->type == FE_T_F16X2)
			ws->lat_class = WI_LAT_FP32;
		break;
	default:
		/* The rest of the integer ops: GPGPU-Sim times them apart from add (its default
		 * latency, cuda-sim.cc set_opcode_and_latency), so they have their own class. */
		if (f64)
			ws->lat_class = WI_LAT_FP64;
		else if (flt || in->type == FE_T_F16X2)
			ws->lat_class = WI_LAT_FP32;
		else
			ws->lat_class = WI_LAT_LOGIC;
		break;
	}
}
