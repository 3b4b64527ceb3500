/* SPDX-License-Identifier: MIT */
/* include/warpsim.h (api/libwarpsim.c): one call builds a machine from files and overrides;
 * modules, memory, C++ kernel names, launches, per-launch stats records, errors. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "include/warpsim.h"

/* scale(float*, int, float): p[i] *= f for i < n; and a template instance twice<int>(int*). */
static const char *ptx =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".global .align 4 .u32 counter = 7;\n"
	".visible .entry _Z5scalePfif(.param .u64 p, .param .u32 n, .param .f32 f)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [n];\n\tld.param.f32 %f1, [f];\n"
	"\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n\tmov.u32 %r4, %tid.x;\n"
	"\tmad.lo.s32 %r5, %r2, %r3, %r4;\n\tsetp.ge.s32 %p1, %r5, %r1;\n\t@%p1 bra DONE;\n"
	"\tmul.wide.s32 %rd2, %r5, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tld.global.f32 %f2, [%rd3];\n\tmul.f32 %f3, %f2, %f1;\n\tst.global.f32 [%rd3], %f3;\n"
	"DONE:\n\tret;\n}\n"
	".visible .entry _Z5twiceIiEvPT_(.param .u64 q)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [q];\n\tld.global.u32 %r1, [%rd1];\n\tadd.s32 %r2, %r1, %r1;\n"
	"\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n";

static struct warpsim *machine(const char *override)
{
	const char *cfgs[] = {"configs/gtx480.cfg"};
	const char *ovs[] = {override};
	struct warpsim_options o = {.configs = cfgs, .n_configs = 1, .overrides = ovs,
				    .n_overrides = override ? 1 : 0};
	struct warpsim_error err;
	struct warpsim *ws = warpsim_create(&o, &err);
	cr_assert_not_null(ws, "%s", err.message);
	return ws;
}

Test(libwarpsim, one_call_builds_the_machine_with_overrides)
{
	struct warpsim *ws = machine("gpu.core.count=3");
	int64_t cores = 0;
	cr_assert(warpsim_config_int(ws, "gpu.core.count", &cores));
	cr_assert_eq(cores, 3);
	cr_assert_not(warpsim_config_int(ws, "gpu.no.such.key", &cores));
	warpsim_destroy(ws);
}

Test(libwarpsim, a_bad_override_names_the_setting)
{
	const char *cfgs[] = {"configs/gtx480.cfg"}, *ovs[] = {"gpu.core.count=0"};
	struct warpsim_options o = {.configs = cfgs, .n_configs = 1, .overrides = ovs, .n_overrides = 1};
	struct warpsim_error err;
	cr_assert_null(warpsim_create(&o, &err));
	cr_assert_eq(err.code, WARPSIM_ERR_CONFIG);
	cr_assert(strstr(err.message, "gpu.core.count"), "%s", err.message);
}

Test(libwarpsim, kernels_are_found_by_cxx_name)
{
	struct warpsim *ws = machine(NULL);
	struct warpsim_module *m;
	struct warpsim_error err;
	cr_assert_eq(warpsim_module_load_ptx(ws, "t.ptx", ptx, &m, &err), 0, "%s", err.message);
	cr_assert_eq(warpsim_kernel_count(m), 2);
	cr_assert_str_eq(warpsim_kernel_name(m, 0), "scale(float*, int, float)");
	cr_assert_str_eq(warpsim_kernel_name(m, 1), "twice<int>(int*)");
	cr_assert_eq(warpsim_kernel_find(m, "_Z5twiceIiEvPT_", &err), 1);
	cr_assert_eq(warpsim_kernel_find(m, "twice<int>", &err), 1);
	cr_assert_eq(warpsim_kernel_find(m, "scale", &err), 0);
	cr_assert_eq(warpsim_kernel_find(m, "scale(float*, int, float)", &err), 0);
	cr_assert_eq(warpsim_kernel_find(m, "twice", &err), -1);
	cr_assert_eq(err.code, WARPSIM_ERR_INPUT);
	warpsim_destroy(ws);
}

Test(libwarpsim, launch_computes_and_records_one_stats_scope_per_launch)
{
	struct warpsim *ws = machine(NULL);
	struct warpsim_module *m;
	struct warpsim_error err;
	cr_assert_eq(warpsim_module_load_ptx(ws, "t.ptx", ptx, &m, &err), 0, "%s", err.message);
	float h[100];
	for (int i = 0; i < 100; i++)
		h[i] = (float)i;
	uint64_t d;
	cr_assert_eq(warpsim_malloc(ws, sizeof h, &d, &err), 0);
	cr_assert_eq(warpsim_write(ws, d, h, sizeof h, &err), 0);
	struct warpsim_kernel_attrs a;
	cr_assert_eq(warpsim_kernel_attrs(m, 0, &a, &err), 0, "%s", err.message);
	cr_assert_eq(a.n_params, 3);
	cr_assert_eq(a.param_bytes, 16);
	unsigned char params[16];
	uint32_t off, size;
	int n = 90;
	float f = 0.5f;
	cr_assert_eq(warpsim_kernel_param(m, 0, 0, &off, &size, &err), 0);
	memcpy(params + off, &d, 8);
	cr_assert_eq(warpsim_kernel_param(m, 0, 1, &off, &size, &err), 0);
	memcpy(params + off, &n, 4);
	cr_assert_eq(warpsim_kernel_param(m, 0, 2, &off, &size, &err), 0);
	memcpy(params + off, &f, 4);
	struct warpsim_launch l = {.grid = {2, 1, 1}, .block = {64, 1, 1}, .params = params,
				   .params_bytes = sizeof params};
	struct warpsim_launch_result r[2];
	cr_assert_eq(warpsim_launch(m, 0, &l, &r[0], &err), 0, "%s", err.message);
	cr_assert_eq(warpsim_launch(m, 0, &l, &r[1], &err), 0, "%s", err.message);
	cr_assert_eq(warpsim_read(ws, h, d, sizeof h, &err), 0);
	for (int i = 0; i < 100; i++)
		cr_assert_float_eq(h[i], i < 90 ? i * 0.25f : (float)i, 0.0f, "element %d", i);
	cr_assert_eq(r[1].launch, 1);
	cr_assert_gt(r[0].core_cycles, 0);
	cr_assert_gt(r[1].start_ps, r[0].start_ps);
	cr_assert_eq(r[0].end_ps, r[1].start_ps);
	char *js = warpsim_stats_json(ws);
	json_t *doc = json_loads(js, 0, NULL);
	json_t *k1 = json_array_get(json_object_get(doc, "kernels"), 1);
	cr_assert_str_eq(json_string_value(json_object_get(k1, "name")), "scale(float*, int, float)");
	cr_assert_str_eq(json_string_value(json_object_get(k1, "ptx_name")), "_Z5scalePfif");
	cr_assert_eq(json_integer_value(json_object_get(k1, "launch")), 1);
	json_t *cyc = json_object_get(json_object_get(k1, "stats"), "gpu.cycles");
	cr_assert_eq((uint64_t)json_integer_value(cyc), r[1].core_cycles);
	json_decref(doc);
	free(js);
	warpsim_destroy(ws);
}

Test(libwarpsim, memory_errors_and_symbols)
{
	struct warpsim *ws = machine(NULL);
	struct warpsim_module *m;
	struct warpsim_error err;
	cr_assert_eq(warpsim_module_load_ptx(ws, "t.ptx", ptx, &m, &err), 0, "%s", err.message);
	uint64_t a, sz;
	cr_assert_eq(warpsim_symbol(m, "counter", &a, &sz, &err), 0);
	uint32_t v = 0;
	cr_assert_eq(warpsim_read(ws, &v, a, 4, &err), 0);
	cr_assert_eq(v, 7);
	cr_assert_eq(sz, 4);
	uint64_t d, base, bytes;
	uint64_t before = warpsim_allocated_bytes(ws);
	cr_assert_eq(warpsim_malloc(ws, 1000, &d, &err), 0);
	cr_assert_eq(warpsim_allocated_bytes(ws), before + 1000);
	cr_assert(warpsim_allocation(ws, d + 999, &base, &bytes));
	cr_assert_eq(base, d);
	cr_assert_eq(bytes, 1000);
	char buf[8] = {0};
	cr_assert_eq(warpsim_write(ws, d + 996, buf, 8, &err), WARPSIM_ERR_INPUT);
	cr_assert(strstr(err.message, "not inside one device allocation"), "%s", err.message);
	cr_assert_eq(warpsim_free(ws, d + 4, &err), WARPSIM_ERR_INPUT);
	cr_assert_eq(warpsim_free(ws, d, &err), 0);
	cr_assert_eq(warpsim_allocated_bytes(ws), before);
	cr_assert_not(warpsim_allocation(ws, d, NULL, NULL));
	cr_assert_eq(warpsim_read(ws, buf, d, 4, &err), WARPSIM_ERR_INPUT);
	cr_assert_eq(warpsim_free(ws, d, &err), WARPSIM_ERR_INPUT);
	warpsim_destroy(ws);
}

Test(libwarpsim, copy_within_an_allocation_moves_like_memmove)
{
	struct warpsim *ws = machine(NULL);
	struct warpsim_error err;
	uint64_t d;
	cr_assert_eq(warpsim_malloc(ws, 10000, &d, &err), 0);
	unsigned char h[10000], g[10000];
	for (int i = 0; i < 10000; i++)
		h[i] = (unsigned char)(i * 7);
	cr_assert_eq(warpsim_write(ws, d, h, sizeof h, &err), 0);
	cr_assert_eq(warpsim_copy(ws, d + 100, d, 9000, &err), 0);
	cr_assert_eq(warpsim_read(ws, g, d, sizeof g, &err), 0);
	memmove(h + 100, h, 9000);
	cr_assert_eq(memcmp(g, h, sizeof h), 0);
	warpsim_destroy(ws);
}

/* shfl.sync whose source lane does not execute it: every lane holds 1000 in %r1, lanes 0..7
 * shuffle down by 16 and by 4. Sources 16..23 (and 8..11 for lanes 4..7) are inactive and give
 * 0, as hardware does (frontend/NOTES.md); own-lane values of lanes 0..3 come from 4..7. */
Test(libwarpsim, shfl_from_an_inactive_lane_gives_zero)
{
	static const char *shfl_ptx =
		".version 7.0\n.target sm_75\n.address_size 64\n"
		".visible .entry k(.param .u64 out)\n{\n"
		"\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
		"\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, 1000;\n\tmov.u32 %r2, %tid.x;\n"
		"\tsetp.ge.u32 %p1, %r2, 8;\n\t@%p1 bra DONE;\n"
		"\tshfl.sync.down.b32 %r3, %r1, 16, 31, 255;\n"
		"\tshfl.sync.down.b32 %r4, %r1, 4, 31, 255;\n"
		"\tmul.wide.u32 %rd2, %r2, 8;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
		"\tst.global.v2.u32 [%rd3], {%r3, %r4};\n"
		"DONE:\n\tret;\n}\n";
	const char *none[] = {NULL};
	struct warpsim_options o = {.configs = none, .functional = true};
	struct warpsim_error err;
	struct warpsim *ws = warpsim_create(&o, &err);
	cr_assert_not_null(ws, "%s", err.message);
	struct warpsim_module *m;
	cr_assert_eq(warpsim_module_load_ptx(ws, "shfl.ptx", shfl_ptx, &m, &err), 0, "%s", err.message);
	uint64_t d;
	uint32_t h[16];
	cr_assert_eq(warpsim_malloc(ws, sizeof h, &d, &err), 0);
	struct warpsim_launch l = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .params = &d,
				   .params_bytes = 8};
	cr_assert_eq(warpsim_launch(m, 0, &l, NULL, &err), 0, "%s", err.message);
	cr_assert_eq(warpsim_read(ws, h, d, sizeof h, &err), 0);
	for (int lane = 0; lane < 8; lane++) {
		cr_assert_eq(h[2 * lane], 0, "lane %d down 16", lane);
		cr_assert_eq(h[2 * lane + 1], lane < 4 ? 1000 : 0, "lane %d down 4", lane);
	}
	warpsim_destroy(ws);
}
