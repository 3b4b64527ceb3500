/* SPDX-License-Identifier: MIT */
/* Contract between the PTX front end and the timing model: static (decoded) instructions,
 * dynamic warp instructions, and the functional-execution calls the SM and dispatcher make. */
#ifndef WARPSIM_WARP_INST_H
#define WARPSIM_WARP_INST_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/sim_error.h"

#define WI_MAX_LANES 1024             /* large warps (LWM) up to 1024 threads */
#define WI_MASK_WORDS (WI_MAX_LANES / 64)
#define WI_MAX_SRC 25   /* wmma.mma: three fragments of 8 registers and the guard */
#define WI_MAX_DST 8    /* wmma.load/mma: a fragment of 8 registers */
#define WI_NO_PHASE UINT32_MAX

/* Which functional unit executes it. */
enum wi_unit { WI_UNIT_SP, WI_UNIT_SFU, WI_UNIT_LDST, WI_UNIT_NONE /* bra, bar, exit: no unit */ };

/* Latency classes, each with a configured latency (gpu.core.latency.*). */
enum wi_lat_class {
	WI_LAT_INT, WI_LAT_FP32, WI_LAT_FP64, WI_LAT_MUL, WI_LAT_DIV, WI_LAT_SFU,
	WI_LAT_SHARED, WI_LAT_CONST, WI_LAT_MEM /* global/local/tex: latency comes from memory/ */,
	WI_LAT_CTRL,
	WI_LAT_LOGIC /* integer logic, shift, compare, select, move, convert: int unless set apart */,
	WI_LAT_TENSOR /* wmma.mma: the whole warp's matrix product */,
	WI_LAT_COUNT
};

/* Opcode groups of SP instructions, GPGPU-Sim's (-ptx_opcode_initiation_* and
 * -ptx_opcode_latency_* int/fp/dp: ADD, MAX, MUL, MAD, DIV, each for int, fp32 and fp64): the
 * SM times each group's initiation interval and, where set, its latency apart. WI_II_ONE is
 * everything else (one issue slot, the latency class's latency). */
enum wi_ii_op { WI_II_ADD, WI_II_MAX, WI_II_MUL, WI_II_MAD, WI_II_DIV, WI_II_OPS };
enum wi_ii_type { WI_II_INT, WI_II_FP, WI_II_DP, WI_II_TYPES };
#define WI_II_ONE 0
#define WI_II_CLASS(type, op) (1 + (type) * WI_II_OPS + (op))
#define WI_II_TENSOR (1 + WI_II_TYPES * WI_II_OPS) /* wmma.mma (gpu.core.initiation.tensor) */
#define WI_II_COUNT (WI_II_TENSOR + 1)

enum wi_space {
	WI_SPACE_NONE, WI_SPACE_GLOBAL, WI_SPACE_SHARED, WI_SPACE_LOCAL, WI_SPACE_CONST,
	WI_SPACE_PARAM, WI_SPACE_TEX
};

enum wi_mem_kind { WI_MEM_NONE, WI_MEM_LOAD, WI_MEM_STORE, WI_MEM_ATOMIC };

enum wi_flags {
	WI_F_BRANCH = 1u << 0,      /* bra/call/ret: may change the PC */
	WI_F_BARRIER = 1u << 1,     /* bar.sync / barrier.sync (CTA-wide) */
	WI_F_EXIT = 1u << 2,        /* exit / ret from the entry */
	WI_F_LONG_LAT = 1u << 3,    /* its destinations are long-op registers (PAWS/OWL: global/local/tex loads, atomics) */
	WI_F_UNCOND = 1u << 4,      /* unconditional branch (LWM optimisation) */
	WI_F_MEMBAR = 1u << 5,
	WI_F_WARP_SYNC = 1u << 6,   /* shfl/vote/bar.warp.sync: needs all lanes together */
};

/* Decoded once at load; one per PTX instruction of a kernel, indexed by pc. */
struct wi_static {
	uint32_t pc;               /* instruction index within the kernel */
	uint16_t opcode;           /* front end's own opcode number (for names/stats) */
	uint8_t unit;              /* enum wi_unit */
	uint8_t lat_class;         /* enum wi_lat_class */
	uint8_t ii_class;          /* WI_II_ONE or WI_II_CLASS(type, op) */
	uint8_t space;             /* enum wi_space */
	uint8_t mem_kind;          /* enum wi_mem_kind */
	uint8_t access_bytes;      /* per thread per vector element: 1,2,4,8,16 */
	uint8_t vec;               /* 1, 2 or 4 */
	uint16_t flags;            /* enum wi_flags */
	uint8_t n_src, n_dst;
	/* (dst before src: the first few of each, all most instructions have, in the first cache
	 * line of the struct) */
	uint16_t dst[WI_MAX_DST];  /* register ids written */
	uint16_t src[WI_MAX_SRC];  /* register ids read (incl. predicate guard), kernel-local numbering */
	/* PAWS phase data (frontend phase analysis): phase index, cycles left in the phase
	 * from this instruction (phase distance), and the phase's length. */
	uint32_t phase_id;
	uint32_t phase_distance_cycles;
	uint32_t phase_len_cycles;
	uint32_t next_phase_len_cycles; /* length of the phase that follows this one, 0 if none */
	const char *text;          /* the PTX line (owned by the kernel), for reports */
	uint32_t src_line;         /* line in the PTX file */
};

/* One executed warp instruction, filled by fe_warp_execute. The SM owns a pool of these;
 * its addr array is sized to the warp size by the SM when it builds the pool. */
struct warp_inst {
	const struct wi_static *si;
	uint32_t pc, next_pc;
	uint32_t n_lanes;                 /* warp size (32, or the large-warp size) */
	uint32_t n_active;                /* popcount of mask */
	uint64_t mask[WI_MASK_WORDS];     /* active lanes that executed (guard predicate applied) */
	bool diverged;                    /* a branch split the warp (SIMT stack pushed) */
	bool taken;                       /* a branch changed the PC of at least one lane */
	uint64_t *addr;                   /* [n_lanes] per-lane byte address, active lanes of memory ops */
	uint32_t access_bytes;            /* bytes per lane access (vec * access_bytes) */
};

static inline bool wi_lane_active(const struct warp_inst *wi, uint32_t lane)
{
	return (wi->mask[lane >> 6] >> (lane & 63)) & 1u;
}

/* ---- functional execution (implemented by frontend/) -------------------------------
 * A kernel launch is executed functionally by CTAs; the timing model drives it. */
struct fe_launch;  /* one kernel launch: kernel, grid, block, params, memory image */
struct fe_cta;     /* functional state of one CTA: shared memory, its warps */
struct fe_warp;    /* one warp's registers, SIMT stack */

/* Where a launch's registers per thread came from (the gpu.regs_source stat's codes). */
enum fe_regs_source {
	FE_REGS_NONE = 0,        /* no launch yet */
	FE_REGS_GIVEN = 1,       /* workload file regs_per_thread, or ws_set_regs_per_thread */
	FE_REGS_PTXAS = 2,       /* ptxas -v, run for this module now */
	FE_REGS_PTXAS_CACHE = 3, /* ptxas -v, from the user cache (same PTX, arch and ptxas) */
	FE_REGS_ESTIMATE = 4,    /* the front end's liveness estimate (no ptxas figure) */
};

struct fe_launch_info {
	const char *kernel_name;      /* as in the PTX (mangled) */
	const char *cxx_name;         /* C++ name without return type (fe_module_kernel_cxx_name) */
	uint32_t grid[3], block[3];
	uint32_t n_ctas;              /* grid[0]*grid[1]*grid[2] */
	uint32_t threads_per_cta;
	uint32_t regs_per_thread;     /* from the workload file, ptxas -v, or the estimate */
	uint8_t regs_source;          /* enum fe_regs_source */
	uint32_t shared_bytes_per_cta;/* static + dynamic */
	uint32_t local_bytes_per_thread;
	uint32_t n_insts;             /* static instructions of the kernel */
	const struct wi_static *insts;/* [n_insts] */
	/* Where the kernel's code lies, for instruction caches that keep lines across launches:
	 * its first instruction's index in its module's code (the kernels one after another, as a
	 * loader places them), and the module (an identity, only compared: code of different
	 * modules must not be taken for each other). */
	uint64_t code_first_inst;
	const void *code_module;
};
void fe_launch_get_info(const struct fe_launch *l, struct fe_launch_info *out);

/* Create CTA cta_id (linear) of l with warps of warp_size lanes (32, or larger for LWM).
 * Returns NULL with err on failure. */
struct fe_cta *fe_cta_create(struct fe_launch *l, uint32_t cta_id, uint32_t warp_size,
			     uint32_t sm_id, struct sim_error *err);
void fe_cta_destroy(struct fe_cta *cta);
/* CTA cta_id of l, made from spare (a finished CTA, or NULL) when spare is of the same launch,
 * warp size and SM: its buffers are kept and what a CTA may read at its start is zeroed
 * (fe_cta_restart), which gives the same execution as fe_cta_create's fresh CTA without an
 * allocation and a clearing of every register. Otherwise spare is destroyed and a CTA
 * created. Takes ownership of spare in every case; NULL with err on failure. */
struct fe_cta *fe_cta_recycle(struct fe_cta *spare, struct fe_launch *l, uint32_t cta_id,
			      uint32_t warp_size, uint32_t sm_id, struct sim_error *err);
/* What %clock/%clock64 (cycle: the SM's core cycle now) and %globaltimer (time_ns: the
 * simulated time now, in ns) read for the warps of a CTA; the caller keeps clk alive as long
 * as the CTA. Without one (the functional executor) they read the functional clock, the
 * CTA's warp instructions so far (frontend/NOTES.md). */
struct fe_clock {
	uint64_t (*cycle)(void *ctx);
	uint64_t (*time_ns)(void *ctx);
	void *ctx;
};
void fe_cta_set_clock(struct fe_cta *cta, const struct fe_clock *clk);
uint32_t fe_cta_warp_count(const struct fe_cta *cta);
struct fe_warp *fe_cta_warp(struct fe_cta *cta, uint32_t i);

/* PC the warp will execute next (top of its SIMT stack), and whether it has exited. */
uint32_t fe_warp_pc(const struct fe_warp *w);
bool fe_warp_done(const struct fe_warp *w);
/* Active mask of the next instruction (before its guard predicate). */
void fe_warp_next_mask(const struct fe_warp *w, uint64_t mask[WI_MASK_WORDS]);
/* Number of lanes in that mask (0 once the warp exited), without copying it. */
uint32_t fe_warp_next_active(const struct fe_warp *w);

/* Execute the instruction at fe_warp_pc(w) for the warp's active lanes and fill out.
 * Barriers: execution marks the warp arrived; the timing model holds it until release.
 * Returns 0, or SIM_ERR_PROGRAM (out-of-bounds access, misaligned address: err names
 * thread, pc and address). out->addr must have room for the warp's lanes. */
int fe_warp_execute(struct fe_warp *w, struct warp_inst *out, struct sim_error *err);

#endif
