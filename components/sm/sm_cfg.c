/* SPDX-License-Identifier: MIT */
/* The SM's settings (gpu.core.*), apart from sm.c so config-only users (dispatcher, tools)
 * link without the front end. */
#include "sm_internal.h"

/* Defaults follow a Fermi GTX480 SM as GPGPU-Sim models it (BAWS Table 1): 2 schedulers with a
 * 16-lane SP group each, 4 SFU lanes, 16 LD/ST lanes, 2 KB 4-way I-cache with 128 B lines. */
static const char *const sm_ic_paths[] = {"fixed", "memory", NULL};
static const char *const sm_sched_orders[] = {"fixed", "rotating", NULL};

static const char *const sm_phase_latencies[] = {"machine", "fixed", NULL};

static const struct cfg_key_def sm_keys[] = {
	CFG_KEY_STR("gpu.name", "", "the machine's name, as a CUDA program reads it (cudaDeviceProp.name: "
		    "NAME (warpsim); empty: warpsim simulated GPU)"),
	CFG_KEY_INT("gpu.core.count", "cores", 15, 1, 1024, "number of SMs"),
	CFG_KEY_INT("gpu.core.clock_mhz", "MHz", 700, 1, 100000, "core clock"),
	CFG_KEY_INT("gpu.core.warp_size", "threads", 32, 1, WI_MAX_LANES,
		    "threads per warp; a power of two (lane masks, vote/shuffle and warp-to-lane "
		    "arithmetic assume it)"),
	CFG_KEY_INT("gpu.core.simt_width", "lanes", 16, 1, WI_MAX_LANES,
		    "lanes of one SP unit: a warp instruction occupies it warp_size/simt_width cycles; "
		    "must divide warp_size (a width that does not leaves lanes idle every pass)"),
	CFG_KEY_INT("gpu.core.max_warps", "warps", 48, 1, SCHED_MAX_WARPS, "warp slots per SM"),
	CFG_KEY_INT("gpu.core.max_threads", "threads", 1536, 1, 65536, "resident threads per SM"),
	CFG_KEY_INT("gpu.core.max_ctas", "CTAs", 8, 1, SCHED_MAX_CTAS, "resident CTAs per SM"),
	CFG_KEY_INT("gpu.core.registers", "registers", 32768, 1, 1 << 24, "32-bit registers per SM"),
	CFG_KEY_ENUM("gpu.core.phase_latency", "machine", sm_phase_latencies,
		      "PAWS phase lengths and distances (003 Sec III-A: the sum of the instruction "
		      "latencies): machine, this core's result latencies (latency.*, alu_pipeline; a shared "
		      "or constant access its hit latency and mem_pipeline, a global one its issue); fixed, the "
		      "frontend's table (4-cycle ALU operations, frontend/link_cfg.c)"),
	CFG_KEY_INT("gpu.core.max_regs_per_thread", "registers", 0, 0, 255,
		    "compile limit (nvcc -maxrregcount): a launch whose kernel needs more registers per "
		    "thread is given this many (0: none). Only occupancy follows it: the spill loads and "
		    "stores such a compile adds are not simulated (the PTX runs as written)"),
	CFG_KEY_INT("gpu.core.shared_kb", "KB", 48, 0, 1024, "shared memory per SM"),
	CFG_KEY_INT("gpu.core.n_schedulers", "schedulers", 2, 1, SM_MAX_SCHED,
		    "issue schedulers; warp w belongs to scheduler w mod n"),
	CFG_KEY_ENUM("gpu.core.scheduler_order", "fixed", sm_sched_orders,
		     "which scheduler picks first each cycle, and so wins a unit two of them want (the "
		     "LD/ST unit, the SFU): fixed, scheduler 0 then 1...; rotating, scheduler (cycle mod "
		     "n) first, as GPGPU-Sim 4.2 (shader.cc issue(), Issue_Prio; its 3.x ran them in "
		     "fixed order)"),
	CFG_KEY_INT("gpu.core.ibuf_entries", "instructions", 2, 1, SM_MAX_IBUF, "I-buffer slots per warp"),
	CFG_KEY_INT("gpu.core.icache.size_bytes", "bytes", 2048, 64, 1 << 20, "instruction cache size"),
	CFG_KEY_INT("gpu.core.icache.assoc", "ways", 4, 1, 64, "instruction cache associativity"),
	CFG_KEY_INT("gpu.core.icache.line_bytes", "bytes", 128, 8, 4096, "instruction cache line"),
	CFG_KEY_INT("gpu.core.icache.inst_bytes", "bytes", 8, 1, 64,
		    "bytes per instruction (PTX pc * this is the fetch address)"),
	CFG_KEY_INT("gpu.core.icache.miss_latency_cycles", "cycles", 20, 0, 100000,
		    "cycles from an I-cache miss to the line's arrival (miss_path fixed, or a memory model "
		    "without the NoC)"),
	CFG_KEY_ENUM("gpu.core.icache.miss_path", "fixed", sm_ic_paths,
		     "fixed: a miss takes miss_latency_cycles; memory: it reads the line through the NoC "
		     "from the L2 (and DRAM on an L2 miss) like a data miss, as GPGPU-Sim's L1I does; code "
		     "lies at 1 TiB, each kernel after the previous ones of its module"),
	CFG_KEY_INT("gpu.core.fetch_decode_cycles", "cycles", 2, 1, 100,
		    "cycles from fetching an instruction (I-cache hit) to its earliest issue"),
	CFG_KEY_BOOL("gpu.core.fetch_fallthrough", false,
		     "after a control transfer (taken branch, reconvergence switch) that leaves the warp's "
		     "I-buffer empty, its next fetch reads the fall-through path, which is dropped when it "
		     "reaches issue (fetch_decode_cycles later) before the target is fetched: GPGPU-Sim 4.2 "
		     "sets a warp's next fetch PC at issue to the issued instruction's PC + size and only its "
		     "scheduler finds the SIMT stack's PC differs (shader.cc issue_warp, scheduler_unit::cycle); "
		     "false: the target is fetched at once"),
	CFG_KEY_INT("gpu.core.latency.int", "cycles", 4, 1, 10000,
		    "integer add/sub/min/max, and the other integer ops while latency.logic is 0"),
	CFG_KEY_INT("gpu.core.latency.logic", "cycles", 0, 0, 10000,
		    "integer logic, shift, compare, select, move and convert (0: latency.int); GPGPU-Sim 4.2 "
		    "gives the opcodes its -ptx_opcode_latency_* options do not name latency 1"),
	CFG_KEY_INT("gpu.core.latency.fp32", "cycles", 4, 1, 10000, "single-precision add/mul/fma"),
	CFG_KEY_INT("gpu.core.latency.fp64", "cycles", 8, 1, 10000, "double precision"),
	CFG_KEY_INT("gpu.core.latency.mul", "cycles", 5, 1, 10000, "integer multiply / mad"),
	CFG_KEY_INT("gpu.core.latency.div", "cycles", 39, 1, 10000, "division, remainder"),
	CFG_KEY_INT("gpu.core.latency.sfu", "cycles", 8, 1, 10000, "transcendentals (SFU)"),
	CFG_KEY_INT("gpu.core.latency.tensor", "cycles", 64, 1, 10000,
		    "wmma.mma, a warp's whole matrix product (GPGPU-Sim 4.x's -ptx_opcode_latency_tesnor default)"),
	CFG_KEY_INT("gpu.core.initiation.tensor", "issue slots", 64, 1, 1000,
		    "SP issue slots one wmma.mma takes: no tensor unit is modelled, the SP unit does the "
		    "product (GPGPU-Sim 4.x's -ptx_opcode_initiation_tensor default, for its tensor unit)"),
	CFG_KEY_INT("gpu.core.latency.alu_pipeline", "cycles", 0, 0, 10000,
		    "added to every SP/SFU result latency above: operand collection, dispatch and write-back around the unit "
		    "(GPGPU-Sim 4.2 GTX480: a chain of dependent adds (ADD latency 4) runs at one per 10 cycles, so 6)"),
	CFG_KEY_INT("gpu.core.latency.mem_pipeline", "cycles", 0, 0, 10000,
		    "added to every load's result after the memory system's latency: operand collection, address generation and write-back "
		    "in the LD/ST unit (GPGPU-Sim 4.2 GTX480: a shared-memory load chain takes 49 cycles a load against smem_latency 26 + ALU, so 15)"),
	CFG_KEY_INT("gpu.core.latency.ctrl", "cycles", 1, 1, 10000,
		    "branch/barrier/exit: cycles before a register they write is visible"),
	CFG_KEY_INT_LIST("gpu.core.latency.ops.int", "cycles", "0,0,0,0,0", 0, 10000,
			 "integer add/sub, min/max, mul, mad, div/rem: result latency per opcode group, "
			 "GPGPU-Sim's -ptx_opcode_latency_int (GTX480: 4,13,4,5,145); a non-zero value replaces "
			 "the class latency above for that group (alu_pipeline still added), 0 keeps it"),
	CFG_KEY_INT_LIST("gpu.core.latency.ops.fp", "cycles", "0,0,0,0,0", 0, 10000,
			 "the same for f32 (GPGPU-Sim -ptx_opcode_latency_fp, GTX480: 4,13,4,5,39)"),
	CFG_KEY_INT_LIST("gpu.core.latency.ops.dp", "cycles", "0,0,0,0,0", 0, 10000,
			 "the same for f64 (GPGPU-Sim -ptx_opcode_latency_dp, GTX480: 8,19,8,8,330)"),
	CFG_KEY_INT_LIST("gpu.core.initiation.int", "issue slots", "1,1,1,1,1", 1, 1000,
			 "integer add/sub, min/max, mul, mad, div/rem: how many of an SP unit's issue slots "
			 "(warp / simt_width cycles each) one warp instruction takes, GPGPU-Sim's "
			 "-ptx_opcode_initiation_int (GTX480: 1,2,2,1,8); large warps' sub-warps take one"),
	CFG_KEY_INT_LIST("gpu.core.initiation.fp", "issue slots", "1,1,1,1,1", 1, 1000,
			 "the same for f32 (GPGPU-Sim -ptx_opcode_initiation_fp, GTX480: 1,2,1,1,4)"),
	CFG_KEY_INT_LIST("gpu.core.initiation.dp", "issue slots", "1,1,1,1,1", 1, 1000,
			 "the same for f64 (GPGPU-Sim -ptx_opcode_initiation_dp, GTX480: 8,16,8,8,130)"),
	CFG_KEY_INT("gpu.core.units.sp", "units", 2, 1, SM_MAX_UNITS, "SP units"),
	CFG_KEY_INT("gpu.core.units.sfu", "units", 1, 1, SM_MAX_UNITS, "SFU units"),
	CFG_KEY_INT("gpu.core.units.ldst", "units", 1, 1, SM_MAX_UNITS, "LD/ST units"),
	CFG_KEY_INT("gpu.core.units.sfu_width", "lanes", 4, 0, WI_MAX_LANES,
		    "lanes of an SFU unit (0: simt_width); must divide warp_size"),
	CFG_KEY_INT("gpu.core.units.ldst_width", "lanes", 16, 0, WI_MAX_LANES,
		    "lanes of an LD/ST unit (0: simt_width); must divide warp_size"),
	CFG_KEY_BOOL("gpu.core.units.writeback_slots", false,
		     "an SP or SFU unit takes an instruction only if no earlier one on it delivers its result "
		     "in the same slot (issue cycle + latency; a slot lasts the SP unit's initiation interval, "
		     "1 cycle at simt_width = warp_size, 4 on OWL's 8-wide pipeline): GPGPU-Sim 4.2's per-unit "
		     "`occupied` check (shader.h simd_function_unit::can_issue), which makes instructions of "
		     "different latencies collide; false: a unit takes one every initiation interval"),
	CFG_KEY_BOOL("gpu.core.units.shared_pipeline", false,
		     "the SP, SFU and LD/ST units of one index form a single pipeline: a warp instruction "
		     "occupies all of them for its initiation interval, so an SM issues one warp instruction "
		     "per interval whatever its unit (OWL Sec 2: every 4 cycles one ready warp enters the 8-wide "
		     "SIMT pipeline); needs equal unit counts; false: each unit class takes its own"),
	CFG_KEY_BOOL("gpu.core.barrel", false,
		     "barrel processing (Narasiman Sec 2.1, 3.1.1): a warp issues its next instruction only "
		     "after the previous one completed (ALU result written, memory data back, every sub-warp "
		     "of a large warp) and was fetched and decoded again (fetch_decode_cycles after that); "
		     "false: a warp keeps several independent instructions in flight (scoreboard)"),
	CFG_KEY_BOOL("gpu.core.inorder_backend", false,
		     "one in-order back end (Narasiman Table 1: \"in order, 5 stages\"): while an earlier memory "
		     "instruction still holds the memory stage (a divergent access's further line passes, a "
		     "miss waiting for an MSHR or the miss queue, shared-memory bank conflicts), no "
		     "instruction of any unit issues, as everything behind it in the pipeline waits; false: "
		     "the SP, SFU and LD/ST units issue independently, so ALU work overlaps those passes"),
	CFG_KEY_INT("gpu.core.large_warp_size", "threads", 0, 0, WI_MAX_LANES,
		    "large warp microarchitecture (Narasiman Sec 3.1): threads per large warp; 0 = off, else a "
		    "multiple of warp_size (then the SIMD width of a sub-warp) up to max_threads. Large warps "
		    "never span a CTA: a kernel whose CTA has fewer threads gets warps of the largest whole "
		    "number of rows dividing its CTA (128-thread CTAs: 128-thread warps)"),
	CFG_KEY_BOOL("gpu.core.lwm.mem_rows", true,
		     "LWM Sec 3.1.2: global memory instructions form one sub-warp per row of the active mask"),
	CFG_KEY_BOOL("gpu.core.lwm.uncond_single", true,
		     "LWM Sec 3.1.2: an unconditional jump issues as a single sub-warp"),
};

int sm_cfg_define(struct cfg *c, struct sim_error *err)
{
	return cfg_define(c, sm_keys, SIM_ARRAY_LEN(sm_keys), err);
}
