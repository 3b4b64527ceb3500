/* SPDX-License-Identifier: MIT */
/* Tests for sm_cfg_define / sm_create settings: the machines' core.cfg fragments and config
 * errors that name the setting's file and line. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "components/cta_dispatcher.h"
#include "components/sm/sm.h"

static struct cfg *load(const char *text, struct sim_error *err)
{
	struct cfg *c = cfg_create();
	cr_assert_eq(sm_cfg_define(c, err), 0);
	cr_assert_eq(cta_dispatcher_cfg_define(c, err), 0);
	cr_assert_eq(sched_cfg_define(c, err), 0);
	if (cfg_load_string(c, "t.cfg", text, err)) {
		cfg_destroy(c);
		return NULL;
	}
	return c;
}

static struct cfg *machine(const char *name)
{
	char text[256];
	struct sim_error err = {0};
	snprintf(text, sizeof text, "gpu: {\n@include \"configs/%s/core.cfg\"\n};\n", name);
	struct cfg *c = load(text, &err);
	cr_assert_not_null(c, "%s: %s:%d: %s", name, err.file, err.line, err.msg);
	return c;
}

Test(sm_cfg, owl28_is_owl_table_1)
{
	struct cfg *c = machine("owl-28");
	cr_assert_eq(cfg_int(c, "gpu.core.count"), 28);
	cr_assert_eq(cfg_int(c, "gpu.core.clock_mhz"), 1300);
	cr_assert_eq(cfg_int(c, "gpu.core.simt_width"), 8);
	cr_assert_eq(cfg_int(c, "gpu.core.max_threads"), 1024);
	cr_assert_eq(cfg_int(c, "gpu.core.shared_kb"), 32);
	cr_assert_eq(cfg_int(c, "gpu.core.registers"), 32684);
	cr_assert_eq(cfg_int(c, "gpu.core.n_schedulers"), 1);
	cfg_destroy(c);
}

Test(sm_cfg, gtx480_is_baws_table_1)
{
	struct cfg *c = machine("gtx480");
	cr_assert_eq(cfg_int(c, "gpu.core.count"), 15);
	cr_assert_eq(cfg_int(c, "gpu.core.n_schedulers"), 2);
	cr_assert_eq(cfg_int(c, "gpu.core.max_warps"), 48);
	cr_assert_eq(cfg_int(c, "gpu.core.max_threads"), 1536);
	cr_assert_eq(cfg_int(c, "gpu.core.max_ctas"), 8);
	cr_assert_eq(cfg_int(c, "gpu.core.registers"), 32768);
	cr_assert_eq(cfg_int(c, "gpu.core.shared_kb"), 48);
	cr_assert_eq(cfg_int(c, "gpu.core.icache.size_bytes"), 2048);
	cfg_destroy(c);
}

Test(sm_cfg, m2090_is_paws_table_1)
{
	struct cfg *c = machine("m2090");
	cr_assert_eq(cfg_int(c, "gpu.core.count"), 16);
	cr_assert_eq(cfg_int(c, "gpu.core.n_schedulers"), 2);
	cr_assert_eq(cfg_int(c, "gpu.core.max_warps"), 48);
	cr_assert_eq(cfg_int(c, "gpu.core.max_ctas"), 8);
	/* 1 instruction every 2 cycles per scheduler at 1300 MHz: GPGPU-Sim's Fermi halves the
	 * clock (650 MHz) and each 16-lane group takes a whole 32-thread warp per cycle. */
	cr_assert_eq(cfg_int(c, "gpu.core.clock_mhz"), 1300 / 2);
	cr_assert_eq(cfg_int(c, "gpu.core.warp_size") / cfg_int(c, "gpu.core.simt_width"), 1);
	cfg_destroy(c);
}

/* GPGPU-Sim's TeslaC2050 file (m2090's source) and SM2_GTX480 share their pipeline options, and
 * the microbenchmarks measured the same chains on both (scripts/correlation/micro/README.md):
 * the two Fermi machines must time an ALU or memory result alike. */
Test(sm_cfg, m2090_and_gtx480_share_the_fermi_pipeline)
{
	struct cfg *m = machine("m2090"), *g = machine("gtx480");
	const char *const keys[] = {"gpu.core.latency.int", "gpu.core.latency.logic", "gpu.core.latency.alu_pipeline",
				    "gpu.core.latency.mem_pipeline"};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		cr_assert_eq(cfg_int(m, keys[i]), cfg_int(g, keys[i]), "%s", keys[i]);
	/* a dependent add every 10 cycles, as GPGPU-Sim's 10.1 on both */
	cr_assert_eq(cfg_int(m, "gpu.core.latency.int") + cfg_int(m, "gpu.core.latency.alu_pipeline"), 10);
	cr_assert_eq(cfg_bool(m, "gpu.core.fetch_fallthrough"), cfg_bool(g, "gpu.core.fetch_fallthrough"));
	cr_assert_eq(cfg_bool(m, "gpu.core.units.writeback_slots"), cfg_bool(g, "gpu.core.units.writeback_slots"));
	cr_assert_str_eq(cfg_str(m, "gpu.core.scheduler_order"), "rotating"); /* 4.2's Issue_Prio */
	cr_assert_str_eq(cfg_str(g, "gpu.core.scheduler_order"), "rotating");
	/* and their initiation intervals and per-group latencies (-ptx_opcode_initiation_int/fp,
	 * -ptx_opcode_latency_int/fp/dp of both files; dp initiation differs: m2090_dp_peak) */
	const char *const lists[] = {"gpu.core.initiation.int", "gpu.core.initiation.fp",
				     "gpu.core.latency.ops.int", "gpu.core.latency.ops.fp", "gpu.core.latency.ops.dp"};
	const int64_t want[5][5] = {{1, 2, 2, 1, 8}, {1, 2, 1, 1, 4},
				    {4, 13, 4, 5, 145}, {4, 13, 4, 5, 39}, {8, 19, 8, 8, 330}};
	for (int i = 0; i < 5; i++) {
		size_t nm = 0, ng = 0;
		const int64_t *vm = cfg_int_list(m, lists[i], &nm), *vg = cfg_int_list(g, lists[i], &ng);
		cr_assert_eq(nm, 5, "%s", lists[i]);
		cr_assert_eq(ng, 5, "%s", lists[i]);
		for (int k = 0; k < 5; k++) {
			cr_assert_eq(vm[k], want[i][k], "m2090 %s[%d]", lists[i], k);
			cr_assert_eq(vg[k], want[i][k], "gtx480 %s[%d]", lists[i], k);
		}
	}
	cfg_destroy(m);
	cfg_destroy(g);
}

/* Peak flop rate of a machine: cores x SP units x simt_width lanes / initiation interval of a mad
 * x 2 flops x clock, in GFLOP/s. */
static double peak_gflops(struct cfg *c, const char *list)
{
	size_t n = 0;
	const int64_t *ii = cfg_int_list(c, list, &n);
	cr_assert_eq(n, 5);
	return (double)cfg_int(c, "gpu.core.count") * (double)cfg_int(c, "gpu.core.units.sp") *
	       (double)cfg_int(c, "gpu.core.simt_width") / (double)ii[3] * 2.0 * (double)cfg_int(c, "gpu.core.clock_mhz") /
	       1000.0;
}

Test(sm_cfg, m2090_dp_peak_is_paws_table_1)
{
	/* PAWS Table I: peak SP / DP 1330 / 650 GFLOP/s (the Tesla's DP at half the SP rate);
	 * GTX480, a GeForce, keeps GPGPU-Sim's 1/8 (dp initiation 8). */
	struct cfg *m = machine("m2090"), *g = machine("gtx480");
	double sp = peak_gflops(m, "gpu.core.initiation.fp"), dp = peak_gflops(m, "gpu.core.initiation.dp");
	cr_expect(fabs(sp - 1330) / 1330 < 0.01, "SP %.0f", sp);
	cr_expect(fabs(dp - 650) / 650 < 0.03, "DP %.0f", dp);
	cr_expect_eq(sp, 2 * dp);
	cr_expect_eq(peak_gflops(g, "gpu.core.initiation.fp"), 8 * peak_gflops(g, "gpu.core.initiation.dp"));
	cfg_destroy(m);
	cfg_destroy(g);
}

Test(sm_cfg, out_of_range_setting_names_file_and_line)
{
	struct sim_error err = {0};
	cr_assert_null(load("gpu: {\n core: {\n  ibuf_entries = 9;\n };\n};\n", &err));
	cr_assert_eq(err.code, SIM_ERR_CONFIG);
	cr_assert_eq(err.line, 3, "line %d: %s", err.line, err.msg);
}


/* The config text loads, but creating an SM from it fails naming setting and line; the message
 * contains msg_part (NULL: not checked). */
static void assert_sm_refuses(const char *text, const char *setting, int line, const char *msg_part)
{
	struct sim_error err = {0};
	struct cfg *c = load(text, &err);
	cr_assert_not_null(c, "%s", err.msg);
	struct sim_config sc = {.seed = 1};
	struct sim *sim = sim_create(&sc, &err);
	struct sim_clock clk = {.name = "core", .freq_mhz = 1000};
	cr_assert_eq(sim_clock_add(sim, &clk, &err), 0);
	struct sm_hooks hk = {0};
	cr_assert_null(sm_create_hooked(c, sim, NULL, 0, 1, &clk, NULL, 0, NULL, &hk, &err));
	cr_assert_eq(err.code, SIM_ERR_CONFIG);
	cr_assert_str_eq(err.setting, setting);
	cr_assert_eq(err.line, line, "line %d: %s", err.line, err.msg);
	cr_assert(strstr(err.file, "t.cfg") != NULL, "%s", err.file);
	if (msg_part)
		cr_assert(strstr(err.msg, msg_part) != NULL, "%s", err.msg);
	sim_destroy(sim);
	cfg_destroy(c);
}

Test(sm_cfg, icache_geometry_that_does_not_divide_is_refused_at_its_line)
{
	/* 2000 bytes is not a whole number of 4-way x 128 B sets (512 B). */
	assert_sm_refuses("gpu: {\n core: {\n  icache: {\n   size_bytes = 2000;\n  };\n };\n};\n",
			  "gpu.core.icache.size_bytes", 4, NULL);
}

Test(sm_cfg, a_shared_pipeline_with_unequal_unit_counts_is_refused_at_its_line)
{
	/* Pipeline k holds SP k, SFU k and LD/ST k: 2 SP units and 1 of the others have no pairing. */
	assert_sm_refuses("gpu: {\n core: {\n  units: {\n   sp = 2; sfu = 1; ldst = 1;\n"
			  "   shared_pipeline = true;\n  };\n };\n};\n",
			  "gpu.core.units.shared_pipeline", 5, "sp 2, sfu 1, ldst 1");
}

Test(sm_cfg, a_latency_ops_list_of_the_wrong_length_is_refused_at_its_line)
{
	/* one value per opcode group: add/sub, min/max, mul, mad, div */
	assert_sm_refuses("gpu: {\n core: {\n  latency: {\n   ops: {\n    fp = [4, 13, 4];\n   };\n"
			  "  };\n };\n};\n",
			  "gpu.core.latency.ops.fp", 5, "give 5");
}
