/* SPDX-License-Identifier: MIT */
/* api/launch_ctl.c through include/warpsim.h: budgets that end a run cleanly, launches run
 * functionally (selection, sim.on_budget = functional) with bit-identical results, sampling,
 * and the sim.timing_launches syntax. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "api/launch_ctl.h"
#include "include/warpsim.h"

/* scale(float *p, int n, float f): p[i] = p[i] * f + 1 for i < n. */
static const char *scale_ptx =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry _Z5scalePfif(.param .u64 p, .param .u32 n, .param .f32 f)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [n];\n\tld.param.f32 %f1, [f];\n"
	"\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n\tmov.u32 %r4, %tid.x;\n"
	"\tmad.lo.s32 %r5, %r2, %r3, %r4;\n\tsetp.ge.s32 %p1, %r5, %r1;\n\t@%p1 bra DONE;\n"
	"\tmul.wide.s32 %rd2, %r5, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tld.global.f32 %f2, [%rd3];\n\tfma.rn.f32 %f3, %f2, %f1, 0f3F800000;\n"
	"\tst.global.f32 [%rd3], %f3;\n"
	"DONE:\n\tret;\n}\n"
	/* spin(): 64 rounds of a register loop, no memory: every launch alike */
	".visible .entry _Z4spinv()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n"
	"\tmov.u32 %r1, 0;\nLOOP:\n\tadd.u32 %r1, %r1, 1;\n\tsetp.lt.u32 %p1, %r1, 64;\n"
	"\t@%p1 bra LOOP;\n\tret;\n}\n";

#define N_ELEMS 4096

static struct warpsim *machine_on(const char *cfg, const char *const *ovs, int n)
{
	const char *cfgs[] = {cfg};
	struct warpsim_options o = {.configs = cfgs, .n_configs = 1, .overrides = ovs, .n_overrides = n};
	struct warpsim_error err;
	struct warpsim *ws = warpsim_create(&o, &err);
	cr_assert_not_null(ws, "%s", err.message);
	return ws;
}

static struct warpsim *machine(const char *const *ovs, int n)
{
	return machine_on("configs/gtx480.cfg", ovs, n);
}

struct prog {
	struct warpsim *ws;
	struct warpsim_module *m;
	uint64_t buf;
};

static struct prog setup(const char *const *ovs, int n)
{
	struct prog p = {.ws = machine(ovs, n)};
	struct warpsim_error err;
	cr_assert_eq(warpsim_module_load_ptx(p.ws, "t.ptx", scale_ptx, &p.m, &err), 0, "%s", err.message);
	float init[N_ELEMS];
	for (int i = 0; i < N_ELEMS; i++)
		init[i] = (float)i * 0.37f - 100.0f;
	cr_assert_eq(warpsim_malloc(p.ws, sizeof init, &p.buf, &err), 0);
	cr_assert_eq(warpsim_write(p.ws, p.buf, init, sizeof init, &err), 0);
	return p;
}

/* Launch i of the sequence: scale by 1 + i/8 over all elements. */
static int scale(struct prog *p, int i, struct warpsim_error *err)
{
	struct {
		uint64_t p;
		uint32_t n;
		float f;
	} args = {p->buf, N_ELEMS, 1.0f + (float)i / 8};
	struct warpsim_launch l = {.grid = {N_ELEMS / 128, 1, 1}, .block = {128, 1, 1}, .params = &args,
				   .params_bytes = sizeof args};
	return warpsim_launch(p->m, 0, &l, NULL, err);
}

static json_t *stats(struct warpsim *ws)
{
	char *s = warpsim_stats_json(ws);
	cr_assert_not_null(s);
	json_t *doc = json_loads(s, 0, NULL);
	free(s);
	cr_assert_not_null(doc);
	return doc;
}

static json_int_t total(json_t *doc, const char *name)
{
	json_t *v = json_object_get(json_object_get(doc, "total"), name);
	cr_assert(json_is_integer(v), "total %s", name);
	return json_integer_value(v);
}

/* Sum of a counter over the launch records (a record leaves out counters that did not move). */
static json_int_t per_launch_sum(json_t *doc, const char *name)
{
	json_int_t sum = 0;
	size_t i;
	json_t *k;
	json_array_foreach(json_object_get(doc, "kernels"), i, k)
		sum += json_integer_value(json_object_get(json_object_get(k, "stats"), name));
	return sum;
}

static json_int_t record_stat(json_t *doc, size_t launch, const char *name)
{
	json_t *k = json_array_get(json_object_get(doc, "kernels"), launch);
	return json_integer_value(json_object_get(json_object_get(k, "stats"), name));
}

static void assert_adds_up(json_t *doc)
{
	static const char *const names[] = {"gpu.cycles", "gpu.warp_insts", "gpu.thread_insts", "gpu.ctas",
					    "gpu.grid_ctas", "gpu.functional.launches", "gpu.functional.warp_insts"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		cr_assert_eq(per_launch_sum(doc, names[i]), total(doc, names[i]), "%s", names[i]);
}

static const char *mode(json_t *doc, size_t launch)
{
	return json_string_value(json_object_get(json_array_get(json_object_get(doc, "kernels"), launch), "mode"));
}

static void read_all(struct prog *p, float *out)
{
	struct warpsim_error err;
	cr_assert_eq(warpsim_read(p->ws, out, p->buf, N_ELEMS * sizeof *out, &err), 0, "%s", err.message);
}

/* The reference: every launch in timing mode. */
static void reference(int launches, float *out, json_int_t *cycles)
{
	struct prog p = setup(NULL, 0);
	struct warpsim_error err;
	for (int i = 0; i < launches; i++)
		cr_assert_eq(scale(&p, i, &err), 0, "%s", err.message);
	read_all(&p, out);
	json_t *doc = stats(p.ws);
	*cycles = total(doc, "gpu.cycles");
	json_decref(doc);
	warpsim_destroy(p.ws);
}

Test(launch_ctl, a_thread_instruction_cap_stops_inside_a_launch_and_the_stats_add_up)
{
	/* a launch of scale is 4096 threads x 15 instructions = 61440 thread instructions; the
	 * cap falls inside the third launch */
	const char *ovs[] = {"sim.max_thread_insts=150000"};
	struct prog p = setup(ovs, 1);
	struct warpsim_error err;
	cr_assert_eq(scale(&p, 0, &err), 0, "%s", err.message);
	cr_assert_eq(scale(&p, 1, &err), 0, "%s", err.message);
	cr_assert_eq(scale(&p, 2, &err), WARPSIM_ERR_BUDGET, "%s", err.message);
	cr_assert(strstr(err.message, "sim.max_thread_insts: budget of 150000 reached in kernel _Z5scalePfif"),
		  "%s", err.message);
	cr_assert_eq(scale(&p, 3, &err), WARPSIM_ERR_BUDGET, "later launches are refused");
	json_t *doc = stats(p.ws);
	json_t *b = json_object_get(doc, "budget");
	cr_assert(json_is_true(json_object_get(b, "capped")));
	cr_assert_str_eq(json_string_value(json_object_get(b, "limit")), "sim.max_thread_insts");
	cr_assert_eq(json_integer_value(json_object_get(b, "launch")), 2);
	json_int_t v = json_integer_value(json_object_get(b, "value"));
	/* passed by less than a cycle's issue: 15 cores x 2 schedulers x 32 threads */
	cr_assert(v >= 150000 && v < 150000 + 15 * 2 * 32, "value %lld", (long long)v);
	cr_assert_eq(v, total(doc, "gpu.thread_insts"));
	cr_assert_eq(json_integer_value(json_object_get(b, "cycle")), total(doc, "gpu.cycles"));
	cr_assert_eq(json_array_size(json_object_get(doc, "kernels")), 3, "the cut launch has its record");
	cr_assert_str_eq(mode(doc, 2), "timing");
	/* the cut launch's record counts its whole grid (4096 / 128 CTAs), completed or not */
	cr_assert_eq(record_stat(doc, 2, "gpu.grid_ctas"), 32);
	cr_assert_eq(total(doc, "gpu.grid_ctas"), 3 * 32);
	assert_adds_up(doc);
	json_decref(doc);
	warpsim_destroy(p.ws);
}

Test(launch_ctl, a_cycle_cap_is_met_exactly)
{
	const char *ovs[] = {"sim.max_cycles=2500"};
	struct prog p = setup(ovs, 1);
	struct warpsim_error err;
	int rc = 0;
	for (int i = 0; i < 10 && !rc; i++)
		rc = scale(&p, i, &err);
	cr_assert_eq(rc, WARPSIM_ERR_BUDGET, "%s", err.message);
	json_t *doc = stats(p.ws);
	cr_assert_eq(total(doc, "gpu.cycles"), 2500);
	json_t *b = json_object_get(doc, "budget");
	cr_assert_str_eq(json_string_value(json_object_get(b, "limit")), "sim.max_cycles");
	cr_assert_eq(json_integer_value(json_object_get(b, "value")), 2500);
	assert_adds_up(doc);
	json_decref(doc);
	warpsim_destroy(p.ws);
}

Test(launch_ctl, a_launch_cap_refuses_the_next_launch)
{
	const char *ovs[] = {"sim.max_launches=2"};
	struct prog p = setup(ovs, 1);
	struct warpsim_error err;
	cr_assert_eq(scale(&p, 0, &err), 0);
	cr_assert_eq(scale(&p, 1, &err), 0);
	cr_assert_eq(scale(&p, 2, &err), WARPSIM_ERR_BUDGET);
	json_t *doc = stats(p.ws);
	json_t *b = json_object_get(doc, "budget");
	cr_assert_str_eq(json_string_value(json_object_get(b, "limit")), "sim.max_launches");
	cr_assert_eq(json_integer_value(json_object_get(b, "value")), 2);
	cr_assert_eq(json_integer_value(json_object_get(b, "launch")), 2);
	cr_assert_eq(json_array_size(json_object_get(doc, "kernels")), 2);
	json_decref(doc);
	warpsim_destroy(p.ws);
}

Test(launch_ctl, functional_launches_give_bit_identical_results)
{
	float want[N_ELEMS], got[N_ELEMS];
	json_int_t full_cycles;
	reference(6, want, &full_cycles);
	/* after the budget (on_budget functional), and by selection */
	const char *a[] = {"sim.max_launches=2", "sim.on_budget=functional"};
	const char *b[] = {"sim.timing_launches=1,every:4"};
	const char *const *ovs[] = {a, b};
	int n[] = {2, 1};
	static const char *const modes[2][6] = {
		{"timing", "timing", "functional", "functional", "functional", "functional"},
		{"timing", "timing", "functional", "functional", "timing", "functional"}};
	for (int c = 0; c < 2; c++) {
		struct prog p = setup(ovs[c], n[c]);
		struct warpsim_error err;
		for (int i = 0; i < 6; i++)
			cr_assert_eq(scale(&p, i, &err), 0, "%s", err.message);
		read_all(&p, got);
		cr_assert_eq(memcmp(got, want, sizeof got), 0, "case %d: results differ", c);
		json_t *doc = stats(p.ws);
		for (size_t i = 0; i < 6; i++)
			cr_assert_str_eq(mode(doc, i), modes[c][i], "case %d launch %zu", c, i);
		cr_assert_eq(total(doc, "gpu.functional.launches"), c ? 3 : 4);
		cr_assert_eq(total(doc, "gpu.functional.warp_insts"), (c ? 3 : 4) * 128 * 15);
		json_t *bud = json_object_get(doc, "budget");
		cr_assert(json_is_true(json_object_get(bud, "capped")) == !c, "case %d", c);
		assert_adds_up(doc);
		json_decref(doc);
		warpsim_destroy(p.ws);
	}
}

Test(launch_ctl, sampling_alike_launches_picks_one_and_estimates_the_total_exactly)
{
	/* spin touches no memory: its launches are alike but for the first, whose I-cache misses go
	 * to DRAM (1930 cycles; later ones 1261): the default warm-up launch, simulated and not taken
	 * as a sample, keeps that one out of the estimate */
	const char *ovs[] = {"sim.sample_launches=1"};
	json_int_t cycles[2] = {0, 0}, first = 0;
	for (int c = 0; c < 2; c++) {
		struct warpsim *ws = machine(ovs, c);
		struct warpsim_module *m;
		struct warpsim_error err;
		cr_assert_eq(warpsim_module_load_ptx(ws, "t.ptx", scale_ptx, &m, &err), 0, "%s", err.message);
		struct warpsim_launch l = {.grid = {30, 1, 1}, .block = {64, 1, 1}};
		for (int i = 0; i < 20; i++)
			cr_assert_eq(warpsim_launch(m, 1, &l, NULL, &err), 0, "%s", err.message);
		json_t *doc = stats(ws);
		json_t *s = json_object_get(doc, "sampling"), *k = json_object_get(doc, "kernels");
		if (!c) {
			cr_assert_null(s);
			cycles[0] = total(doc, "gpu.cycles");
			first = json_integer_value(json_object_get(json_object_get(json_array_get(k, 0), "stats"),
								   "gpu.cycles"));
			cr_assert_eq((cycles[0] - first) % 19, 0, "launches 1..19 alike: %lld cycles after %lld",
				     (long long)cycles[0], (long long)first);
		} else {
			cr_assert_eq(json_integer_value(json_object_get(s, "timing_launches")), 2, "warm-up + one");
			cr_assert_eq(json_integer_value(json_object_get(s, "functional_launches")), 18);
			cr_assert_eq(json_integer_value(json_object_get(s, "groups")), 1);
			cycles[1] = json_integer_value(json_object_get(s, "total_cycles"));
			cr_assert_eq(json_real_value(json_object_get(s, "warp_inst_reduction")), 10.0);
			/* one sample of one group: no measure of spread, and it says so */
			cr_assert_eq(json_integer_value(json_object_get(s, "unbounded_launches")), 18);
			cr_assert_str_eq(mode(doc, 1), "timing");
			cr_assert_str_eq(mode(doc, 2), "functional");
			cr_assert_eq(json_integer_value(json_object_get(json_array_get(k, 7), "estimated_cycles")),
				     (cycles[0] - first) / 19);
		}
		json_decref(doc);
		warpsim_destroy(ws);
	}
	cr_assert_eq(cycles[1], cycles[0], "estimated %lld, simulated %lld", (long long)cycles[1],
		     (long long)cycles[0]);
}

Test(launch_ctl, the_timing_launches_syntax)
{
	struct cfg *c = cfg_create();
	struct sim_error err;
	sim_error_clear(&err);
	cr_assert_eq(gpu_cfg_define_all(c, &err), 0);
	cr_assert_eq(cfg_set_override(c, "sim.timing_launches=3-5,every:10,kernel:spin,7", &err), 0, "%s", err.msg);
	struct api_sel sel;
	cr_assert_eq(api_sel_parse(c, &sel, &err), 0, "%s", err.msg);
	struct fe_launch_info a = {.kernel_name = "_Z5scalePfif", .cxx_name = "scale(float*, int, float)"};
	struct fe_launch_info b = {.kernel_name = "_Z4spinv", .cxx_name = "spin()"};
	static const bool want_a[] = {1, 0, 0, 1, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
	for (uint64_t i = 0; i < sizeof want_a; i++) {
		cr_assert_eq(api_sel_match(&sel, i, &a), want_a[i], "launch %llu", (unsigned long long)i);
		cr_assert(api_sel_match(&sel, i, &b), "kernel:spin names spin() at %llu", (unsigned long long)i);
	}
	api_sel_free(&sel);
	static const char *const bad[][2] = {
		{"5-3", "item '5-3': the range is empty (N > M)"},
		{"1,,2", "item '': empty (two commas, or one at an end)"},
		{"every:0", "item 'every:0': every:K needs a whole number K >= 1"},
		{"x1", "item 'x1': not a launch index"},
		{"1-", "item '1-': a range is N-M"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char ov[64];
		snprintf(ov, sizeof ov, "sim.timing_launches=%s", bad[i][0]);
		cr_assert_eq(cfg_set_override(c, ov, &err), 0);
		cr_assert_eq(api_sel_parse(c, &sel, &err), SIM_ERR_CONFIG, "%s", bad[i][0]);
		cr_assert(strstr(err.msg, bad[i][1]), "'%s': %s", bad[i][0], err.msg);
		cr_assert_str_eq(err.setting, "sim.timing_launches");
		api_sel_free(&sel);
	}
	cfg_destroy(c);
}

/* Sum of a per-slice counter in the totals. */
static json_int_t slices_sum(json_t *doc, const char *suffix)
{
	json_int_t sum = 0;
	const char *k;
	json_t *v;
	json_object_foreach(json_object_get(doc, "total"), k, v) {
		size_t n = strlen(k), m = strlen(suffix);
		if (!strncmp(k, "l2.", 3) && n > m && !strcmp(k + n - m, suffix))
			sum += json_integer_value(v);
	}
	return sum;
}

Test(launch_ctl, a_warm_functional_launch_fills_the_caches_with_its_lines)
{
	/* scale's 32 CTAs of 4 warps each load one 128-byte line and store it back, the load and the
	 * store of a warp one after the other (its 15 instructions run in one turn). warm-l2: the
	 * line goes to the L2 once per warp (the store finds it the last line filled): 128 fills a
	 * launch. warm: through the L1D of core cta mod 15 (gtx480): the load misses and fills the
	 * L1 (core 0 holds CTAs 0, 15 and 30: 12 lines a launch; core 14 CTAs 14 and 29: 8), the
	 * write-evict store drops it and writes through; the L2 gets both, the second a repeat of
	 * the line it filled last: 128 fills. cold: none (no host copy fills the L2 here). */
	static const char *const modes[] = {"cold", "warm-l2", "warm"};
	json_int_t accesses = 0;
	for (int c = 0; c < 3; c++) {
		char ov[64];
		snprintf(ov, sizeof ov, "sim.functional_launches_cache=%s", modes[c]);
		const char *ovs[] = {"sim.timing_launches=0", ov};
		struct prog p = setup(ovs, 2);
		struct warpsim_error err;
		for (int i = 0; i < 6; i++)
			cr_assert_eq(scale(&p, i, &err), 0, "%s", err.message);
		json_t *doc = stats(p.ws);
		cr_assert_eq(slices_sum(doc, ".copy_fills"), c ? 5 * 128 : 0, "%s", modes[c]);
		cr_assert_eq(total(doc, "sm.0.l1d.warm_fills"), c == 2 ? 5 * 12 : 0, "%s", modes[c]);
		cr_assert_eq(total(doc, "sm.14.l1d.warm_fills"), c == 2 ? 5 * 8 : 0, "%s", modes[c]);
		/* the demand counters count the timing launch alone: the same in each mode */
		if (!c)
			accesses = total(doc, "sm.0.l1d.accesses");
		cr_assert_eq(total(doc, "sm.0.l1d.accesses"), accesses, "%s", modes[c]);
		cr_assert_str_eq(json_string_value(json_object_get(json_object_get(doc, "budget"),
								   "functional_launches_cache")), modes[c]);
		json_decref(doc);
		warpsim_destroy(p.ws);
	}
}

/* rev(float *p): 4 rounds of s[tid] = x; barrier; y = s[ntid - 1 - tid]; barrier; x += y / 2 over
 * shared memory, then p[i] = x. Warps wait at barriers for each other: a launch cut at any point
 * has some of them held there. */
static const char *rev_ptx =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry _Z3revPf(.param .u64 p)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<12>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<8>;\n"
	"\t.shared .align 4 .b8 sh[1024];\n"
	"\tld.param.u64 %rd1, [p];\n"
	"\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r3, %tid.x;\n"
	"\tmad.lo.s32 %r4, %r1, %r2, %r3;\n\tmul.wide.s32 %rd2, %r4, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tmov.u64 %rd4, sh;\n\tmul.wide.u32 %rd5, %r3, 4;\n\tadd.s64 %rd6, %rd4, %rd5;\n"
	"\tsub.s32 %r5, %r2, %r3;\n\tsub.s32 %r5, %r5, 1;\n\tmul.wide.u32 %rd5, %r5, 4;\n"
	"\tadd.s64 %rd7, %rd4, %rd5;\n\tmov.u32 %r10, 0;\n\tld.global.f32 %f1, [%rd3];\n"
	"LOOP:\n\tst.shared.f32 [%rd6], %f1;\n\tbar.sync 0;\n\tld.shared.f32 %f2, [%rd7];\n"
	"\tbar.sync 0;\n\tfma.rn.f32 %f1, %f2, 0f3F000000, %f1;\n\tadd.u32 %r10, %r10, 1;\n"
	"\tsetp.lt.u32 %p1, %r10, 4;\n\t@%p1 bra LOOP;\n\tst.global.f32 [%rd3], %f1;\n\tret;\n}\n";

#define REV_ELEMS (256 * 256)

/* Three launches of rev over REV_ELEMS elements (256 CTAs of 256 threads: more than gtx480's 15
 * cores hold at once) on a machine with settings ovs; the memory after them into out. */
static json_t *run_rev_on(const char *cfg, const char *const *ovs, int n, float *out)
{
	struct warpsim *ws = machine_on(cfg, ovs, n);
	struct warpsim_module *m;
	struct warpsim_error err;
	cr_assert_eq(warpsim_module_load_ptx(ws, "rev.ptx", rev_ptx, &m, &err), 0, "%s", err.message);
	uint64_t buf;
	cr_assert_eq(warpsim_malloc(ws, REV_ELEMS * sizeof *out, &buf, &err), 0);
	for (int i = 0; i < REV_ELEMS; i++)
		out[i] = (float)(i % 1000) * 0.25f - 7.0f;
	cr_assert_eq(warpsim_write(ws, buf, out, REV_ELEMS * sizeof *out, &err), 0);
	struct warpsim_launch l = {.grid = {REV_ELEMS / 256, 1, 1}, .block = {256, 1, 1}, .params = &buf,
				   .params_bytes = sizeof buf};
	for (int i = 0; i < 3; i++)
		cr_assert_eq(warpsim_launch(m, 0, &l, NULL, &err), 0, "launch %d: %s", i, err.message);
	cr_assert_eq(warpsim_read(ws, out, buf, REV_ELEMS * sizeof *out, &err), 0, "%s", err.message);
	json_t *doc = stats(ws);
	warpsim_destroy(ws);
	return doc;
}

static json_t *run_rev(const char *const *ovs, int n, float *out)
{
	return run_rev_on("configs/gtx480.cfg", ovs, n, out);
}

/* A launch cut inside itself on cfg with settings ovs: bit-identical memory to the uncut run on
 * the same machine, and every warp instruction of launch 1 ran once, timed or functionally. */
static void check_cut_on(const char *cfg, const char *const *settings, int n)
{
	static float want[REV_ELEMS], got[REV_ELEMS];
	json_t *ref = run_rev_on(cfg, NULL, 0, want);
	json_int_t launch_warp_insts = record_stat(ref, 1, "gpu.warp_insts");
	/* the cap halfway through the second launch, as this machine counts warp instructions */
	char cap[64];
	snprintf(cap, sizeof cap, "sim.max_warp_insts=%lld",
		 (long long)(record_stat(ref, 0, "gpu.warp_insts") + launch_warp_insts / 2));
	const char *ovs[8] = {cap, "sim.on_budget=functional"};
	cr_assert(n <= 6);
	for (int i = 0; i < n; i++)
		ovs[2 + i] = settings[i];
	json_t *doc = run_rev_on(cfg, ovs, 2 + n, got);
	cr_assert_eq(memcmp(got, want, sizeof got), 0, "%s: results differ", cfg);
	cr_assert_str_eq(mode(doc, 1), "timing+functional", "%s", cfg);
	json_t *f = json_object_get(json_array_get(json_object_get(doc, "kernels"), 1), "functional");
	json_int_t fw = json_integer_value(json_object_get(f, "warp_insts"));
	json_int_t tw = record_stat(doc, 1, "gpu.warp_insts");
	cr_assert(tw > 0 && fw > 0, "%s: %lld timed, %lld functional", cfg, (long long)tw, (long long)fw);
	cr_assert_eq(tw + fw, launch_warp_insts, "%s: %lld + %lld", cfg, (long long)tw, (long long)fw);
	assert_adds_up(doc);
	json_decref(doc);
	json_decref(ref);
}

Test(launch_ctl, a_cut_launch_on_large_warps_finishes_with_exact_results)
{
	/* lwm-1: large warps (sub-warp splitting) hold their own state the functional executor
	 * resumes from */
	check_cut_on("configs/lwm-1.cfg", NULL, 0);
}

Test(launch_ctl, a_warm_cut_launch_without_an_l2_finishes_with_exact_results)
{
	/* warm mode with no L2: the warmed accesses go through the L1 only */
	const char *ovs[] = {"sim.functional_launches_cache=warm", "gpu.l2.model=none"};
	check_cut_on("configs/gtx480.cfg", ovs, 2);
}

Test(launch_ctl, a_launch_cut_by_the_budget_is_finished_functionally_with_exact_results)
{
	static float want[REV_ELEMS], got[REV_ELEMS];
	json_t *ref = run_rev(NULL, 0, want);
	json_int_t launch_warp_insts = record_stat(ref, 1, "gpu.warp_insts");
	/* rev: 256 CTAs x 8 warps x (16 + 4 x 8 + 2) instructions */
	cr_assert_eq(launch_warp_insts, 256 * 8 * 50, "%lld", (long long)launch_warp_insts);
	/* caps inside the second launch, at different points (instructions and cycles) */
	const char *caps[] = {"sim.max_warp_insts=150000", "sim.max_thread_insts=5000000", "sim.max_cycles=6000"};
	for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
		/* the last with warm caches: the resumed CTAs' accesses go to the L1 of their SM */
		const char *ovs[] = {caps[c], "sim.on_budget=functional", "sim.functional_launches_cache=warm"};
		json_t *doc = run_rev(ovs, c == 2 ? 3 : 2, got);
		cr_assert_eq(memcmp(got, want, sizeof got), 0, "%s: results differ", caps[c]);
		cr_assert_str_eq(mode(doc, 0), "timing");
		cr_assert_str_eq(mode(doc, 1), "timing+functional", "%s", caps[c]);
		cr_assert_str_eq(mode(doc, 2), "functional");
		/* every warp instruction of the cut launch ran once: timed or functionally */
		json_t *f = json_object_get(json_array_get(json_object_get(doc, "kernels"), 1), "functional");
		json_int_t fw = json_integer_value(json_object_get(f, "warp_insts"));
		json_int_t tw = record_stat(doc, 1, "gpu.warp_insts");
		cr_assert(tw > 0 && fw > 0, "%s: %lld timed, %lld functional", caps[c], (long long)tw, (long long)fw);
		cr_assert_eq(tw + fw, launch_warp_insts, "%s: %lld + %lld", caps[c], (long long)tw, (long long)fw);
		/* the CTAs the SMs held went on from where they were, the rest started afresh */
		json_int_t resumed = json_integer_value(json_object_get(f, "ctas_resumed"));
		json_int_t fresh = json_integer_value(json_object_get(f, "ctas_new"));
		cr_assert(resumed > 0 && fresh > 0, "%s: %lld resumed, %lld new", caps[c], (long long)resumed,
			  (long long)fresh);
		cr_assert_eq(record_stat(doc, 1, "gpu.ctas") + resumed + fresh, 256, "%s", caps[c]);
		cr_assert_eq(record_stat(doc, 1, "gpu.grid_ctas"), 256, "%s", caps[c]);
		cr_assert_eq(total(doc, "gpu.functional.warp_insts"), fw + launch_warp_insts);
		json_t *b = json_object_get(doc, "budget");
		cr_assert(json_is_true(json_object_get(b, "capped")));
		cr_assert_eq(json_integer_value(json_object_get(b, "launch")), 1);
		assert_adds_up(doc);
		json_decref(doc);
	}
	json_decref(ref);
}

/* clk(out): each thread runs 34 rounds of a register loop, reads %clock64, runs 20 more, reads
 * it again and stores 1 when the second read is not below the first. */
static const char *clk_ptx =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry clk(.param .u64 out)\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n"
	"\t.reg .b64 %rd<8>;\n"
	"\tmov.u32 %r1, 0;\nPRE:\n\tadd.u32 %r1, %r1, 1;\n\tsetp.lt.u32 %p1, %r1, 34;\n\t@%p1 bra PRE;\n"
	"\tmov.u64 %rd1, %clock64;\n\tmov.u32 %r1, 0;\nLOOP:\n\tadd.u32 %r1, %r1, 1;\n"
	"\tsetp.lt.u32 %p1, %r1, 20;\n\t@%p1 bra LOOP;\n\tmov.u64 %rd2, %clock64;\n"
	"\tsetp.ge.u64 %p1, %rd2, %rd1;\n\tselp.u32 %r2, 1, 0, %p1;\n"
	"\tld.param.u64 %rd3, [out];\n\tmov.u32 %r3, %ctaid.x;\n\tmov.u32 %r4, %ntid.x;\n"
	"\tmov.u32 %r5, %tid.x;\n\tmad.lo.s32 %r6, %r3, %r4, %r5;\n\tmul.wide.s32 %rd4, %r6, 4;\n"
	"\tadd.s64 %rd5, %rd3, %rd4;\n\tst.global.u32 [%rd5], %r2;\n\tret;\n}\n";

/* A cycle cap at 3,000 cuts clk's 64 CTAs of 256 threads: on gtx480 (6 such CTAs an SM, 48
 * warps on 2 schedulers) a warp issues about every 24 cycles, so the first wave reads its first
 * clock near cycle 2,500, after about 100 instructions a warp, and its second after the cut.
 * Resumed functionally, a CTA's clock now goes on from the SM's cycle at the cut, so every
 * thread's second read is at least its first; the old functional clock, the CTA's warp
 * instructions (about 1,000 at the cut), read below it (checked by hand: this test failed on
 * the commit before). */
Test(launch_ctl, the_clock_after_a_budget_cut_does_not_go_back)
{
	const char *ovs[] = {"sim.max_cycles=3000", "sim.on_budget=functional"};
	struct warpsim *ws = machine(ovs, 2);
	struct warpsim_module *m;
	struct warpsim_error err;
	cr_assert_eq(warpsim_module_load_ptx(ws, "clk.ptx", clk_ptx, &m, &err), 0, "%s", err.message);
	enum { N = 64 * 256 };
	static uint32_t out[N];
	uint64_t buf;
	cr_assert_eq(warpsim_malloc(ws, sizeof out, &buf, &err), 0);
	struct warpsim_launch l = {.grid = {64, 1, 1}, .block = {256, 1, 1}, .params = &buf, .params_bytes = sizeof buf};
	cr_assert_eq(warpsim_launch(m, 0, &l, NULL, &err), 0, "%s", err.message);
	cr_assert_eq(warpsim_read(ws, out, buf, sizeof out, &err), 0, "%s", err.message);
	json_t *doc = stats(ws);
	cr_assert_str_eq(mode(doc, 0), "timing+functional");
	json_t *f = json_object_get(json_array_get(json_object_get(doc, "kernels"), 0), "functional");
	cr_assert(json_integer_value(json_object_get(f, "ctas_resumed")) > 0);
	for (int i = 0; i < N; i++)
		cr_assert_eq(out[i], 1, "thread %d: its clock went back", i);
	json_decref(doc);
	warpsim_destroy(ws);
}

Test(launch_ctl, the_cta_timeline_numbers_launches_as_the_stats_do)
{
	/* launches 1 and 3 timed, 0 and 2 functional: the timeline's kernel column is the launch's
	 * index in stats.json's "kernels" (32 CTAs each), not a count of timed launches */
	const char *ovs[] = {"sim.timing_launches=1,3"};
	struct prog p = setup(ovs, 1);
	struct warpsim_error err;
	for (int i = 0; i < 4; i++)
		cr_assert_eq(scale(&p, i, &err), 0, "%s", err.message);
	char dir[] = "/tmp/ws_timeline_XXXXXX", path[64];
	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(warpsim_write_outputs(p.ws, dir, &err), 0, "%s", err.message);
	snprintf(path, sizeof path, "%s/cta_timeline.csv", dir);
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f);
	char line[256];
	cr_assert_not_null(fgets(line, sizeof line, f));
	cr_assert_str_eq(line, "kernel,cta,core,launch_seq,start_cycle,end_cycle\n");
	unsigned rows[4] = {0};
	unsigned k;
	while (fgets(line, sizeof line, f)) {
		cr_assert_eq(sscanf(line, "%u,", &k), 1, "%s", line);
		cr_assert_lt(k, 4, "%s", line);
		rows[k]++;
	}
	fclose(f);
	cr_assert(rows[0] == 0 && rows[1] == 32 && rows[2] == 0 && rows[3] == 32, "rows %u %u %u %u", rows[0],
		  rows[1], rows[2], rows[3]);
	static const char *const files[] = {"config.cfg", "cta_timeline.csv", "stats.json"};
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
	warpsim_destroy(p.ws);
}

Test(launch_ctl, a_host_write_fills_the_l2_with_fill_on_copy)
{
	/* setup writes N_ELEMS floats (16 KB, a 128 B-aligned allocation) with warpsim_write, the
	 * path of libcudart's cudaMemcpy: 128 lines of 128 B installed in the L2 with
	 * gpu.l2.fill_on_copy, none without it (before this, only `warpsim run`'s host filled) */
	for (int on = 0; on < 2; on++) {
		const char *ovs[] = {on ? "gpu.l2.fill_on_copy=true" : "gpu.l2.fill_on_copy=false"};
		struct prog p = setup(ovs, 1);
		json_t *doc = stats(p.ws);
		cr_assert_eq(slices_sum(doc, ".copy_fills"), on ? N_ELEMS * 4 / 128 : 0, "fill_on_copy %d", on);
		json_decref(doc);
		warpsim_destroy(p.ws);
	}
}
