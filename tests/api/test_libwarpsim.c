/* SPDX-License-Identifier: MIT */
/* include/warpsim.h (api/libwarpsim.c): one call builds a machine from files and overrides;
 * modules, memory, C++ kernel names, launches, per-launch stats records, errors. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* ---- Every documented status of every entry point (include/warpsim.h), one test each. ---- */

/* bad(p): *p = 5, a fault when p is in no allocation; spin(): loops for ever. */
static const char *fault_ptx =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry bad(.param .u64 p)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, 5;\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n"
	".visible .entry spin()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 0;\n"
	"LOOP:\n\tadd.u32 %r1, %r1, 1;\n\tsetp.ne.u32 %p1, %r1, 0xffffffff;\n\t@%p1 bra LOOP;\n"
	"\tret;\n}\n";

static struct warpsim *functional(const char *override)
{
	const char *ovs[] = {override};
	struct warpsim_options o = {.overrides = ovs, .n_overrides = override ? 1 : 0,
				    .functional = true};
	struct warpsim_error err;
	struct warpsim *ws = warpsim_create(&o, &err);
	cr_assert_not_null(ws, "%s", err.message);
	return ws;
}

static struct warpsim_module *load(struct warpsim *ws, const char *text)
{
	struct warpsim_module *m;
	struct warpsim_error err;
	cr_assert_eq(warpsim_module_load_ptx(ws, "t.ptx", text, &m, &err), 0, "%s", err.message);
	return m;
}

/* warpsim_create's status and message for one configuration file and one override. */
static int create_fails(const char *cfg, const char *override, struct warpsim_error *err)
{
	const char *cfgs[] = {cfg}, *ovs[] = {override};
	struct warpsim_options o = {.configs = cfgs, .n_configs = cfg ? 1 : 0, .overrides = ovs,
				    .n_overrides = override ? 1 : 0};
	cr_assert_null(warpsim_create(&o, err));
	return err->code;
}

#define ASSERT_FAILS(call, status, text)                                                        \
	do {                                                                                    \
		struct warpsim_error e_ = {0};                                                  \
		int rc_ = (call);                                                               \
		cr_assert_eq(rc_, (status), "%s gave %d: %s", #call, rc_, e_.message);          \
		cr_assert_eq(e_.code, (status), "%s", #call);                                   \
		cr_assert(strstr(e_.message, (text)), "%s: message '%s' lacks '%s'", #call,     \
			  e_.message, (text));                                                  \
	} while (0)
/* inside ASSERT_FAILS, the error the call fills */
#define E (&e_)

Test(libwarpsim_status, create_config_for_a_missing_configuration_file)
{
	struct warpsim_error err;
	cr_assert_eq(create_fails("configs/no_such.cfg", NULL, &err), WARPSIM_ERR_CONFIG);
	cr_assert(strstr(err.message, "no_such.cfg"), "%s", err.message);
}

Test(libwarpsim_status, create_config_for_an_override_without_equals)
{
	struct warpsim_error err;
	cr_assert_eq(create_fails("configs/gtx480.cfg", "gpu.core.count", &err), WARPSIM_ERR_CONFIG);
	cr_assert(strstr(err.message, "gpu.core.count"), "%s", err.message);
	cr_assert(strstr(err.message, "key=value"), "%s", err.message);
	cr_assert_eq(create_fails("configs/gtx480.cfg", "=3", &err), WARPSIM_ERR_CONFIG);
}

Test(libwarpsim_status, create_config_for_an_unknown_setting_or_an_overlong_key)
{
	struct warpsim_error err;
	cr_assert_eq(create_fails("configs/gtx480.cfg", "gpu.no.such=1", &err), WARPSIM_ERR_CONFIG);
	cr_assert(strstr(err.message, "gpu.no.such"), "%s", err.message);
	char big[2000];
	memset(big, 'k', sizeof big);
	strcpy(big + sizeof big - 3, "=1");
	cr_assert_eq(create_fails("configs/gtx480.cfg", big, &err), WARPSIM_ERR_CONFIG, "%s",
		     err.message);
}

Test(libwarpsim_status, create_usage_without_a_configuration_for_a_timing_machine)
{
	struct warpsim_error err;
	cr_assert_eq(create_fails(NULL, NULL, &err), WARPSIM_ERR_USAGE);
	cr_assert(strstr(err.message, "configuration"), "%s", err.message);
}

Test(libwarpsim_status, create_usage_for_a_null_entry_or_negative_count)
{
	const char *cfgs[] = {"configs/gtx480.cfg", NULL};
	struct warpsim_options o = {.configs = cfgs, .n_configs = 2};
	struct warpsim_error err;
	cr_assert_null(warpsim_create(&o, &err));
	cr_assert_eq(err.code, WARPSIM_ERR_USAGE);
	cr_assert(strstr(err.message, "configs[1]"), "%s", err.message);
	o.n_configs = -1;
	cr_assert_null(warpsim_create(&o, &err));
	cr_assert_eq(err.code, WARPSIM_ERR_USAGE);
}

Test(libwarpsim_status, destroy_of_null_or_twice_does_nothing)
{
	warpsim_destroy(NULL);
	struct warpsim *ws = functional(NULL);
	warpsim_destroy(ws);
	warpsim_destroy(ws);
	struct warpsim_error e;
	cr_assert_eq(warpsim_last_error(&e), WARPSIM_ERR_USAGE);
	cr_assert(strstr(e.message, "not a live machine"), "%s", e.message);
}

Test(libwarpsim_status, config_queries_false_with_input_for_no_such_key)
{
	struct warpsim *ws = functional(NULL);
	int64_t i;
	double f;
	struct warpsim_error e;
	cr_assert_not(warpsim_config_int(ws, "no.such.key", &i));
	cr_assert_eq(warpsim_last_error(&e), WARPSIM_ERR_INPUT);
	cr_assert(strstr(e.message, "no.such.key"), "%s", e.message);
	cr_assert_not(warpsim_config_float(ws, "no.such.key", &f));
	cr_assert_eq(warpsim_last_error(NULL), WARPSIM_ERR_INPUT);
	cr_assert_null(warpsim_config_str(ws, "gpu.core.count"));
	cr_assert_eq(warpsim_last_error(NULL), WARPSIM_ERR_INPUT);
	cr_assert(warpsim_config_int(ws, "gpu.core.count", &i));
	cr_assert_eq(warpsim_last_error(NULL), WARPSIM_OK, "reading clears it");
	warpsim_destroy(ws);
}

Test(libwarpsim_status, load_ptx_input_for_bad_ptx)
{
	struct warpsim *ws = functional(NULL);
	struct warpsim_module *m = (void *)1;
	ASSERT_FAILS(warpsim_module_load_ptx(ws, "broken.ptx", ".version 7.0\n.entry (", &m, E),
		     WARPSIM_ERR_INPUT, "broken.ptx");
	cr_assert_null(m);
	warpsim_destroy(ws);
}

Test(libwarpsim_status, load_file_io_for_a_missing_file)
{
	struct warpsim *ws = functional(NULL);
	struct warpsim_module *m;
	ASSERT_FAILS(warpsim_module_load_file(ws, "no/such.ptx", &m, E), WARPSIM_ERR_IO, "no/such.ptx");
	warpsim_destroy(ws);
}

Test(libwarpsim_status, kernel_names_null_with_input_past_the_last_kernel)
{
	struct warpsim *ws = functional(NULL);
	struct warpsim_module *m = load(ws, ptx);
	cr_assert_null(warpsim_kernel_name(m, 2));
	cr_assert_eq(warpsim_last_error(NULL), WARPSIM_ERR_INPUT);
	cr_assert_null(warpsim_kernel_ptx_name(m, UINT32_MAX));
	cr_assert_eq(warpsim_last_error(NULL), WARPSIM_ERR_INPUT);
	warpsim_destroy(ws);
}

Test(libwarpsim_status, kernel_attrs_param_set_regs_input)
{
	struct warpsim *ws = functional(NULL);
	struct warpsim_module *m = load(ws, ptx);
	struct warpsim_kernel_attrs a;
	uint32_t off, size;
	ASSERT_FAILS(warpsim_kernel_attrs(m, 2, &a, E), WARPSIM_ERR_INPUT, "no kernel 2");
	ASSERT_FAILS(warpsim_kernel_param(m, 0, 3, &off, &size, E), WARPSIM_ERR_INPUT, "parameter 3");
	ASSERT_FAILS(warpsim_kernel_param(m, 5, 0, &off, &size, E), WARPSIM_ERR_INPUT, "no kernel 5");
	ASSERT_FAILS(warpsim_kernel_set_regs(m, 0, 256, E), WARPSIM_ERR_INPUT, "at most 255");
	ASSERT_FAILS(warpsim_kernel_set_regs(m, 9, 32, E), WARPSIM_ERR_INPUT, "no kernel 9");
	cr_assert_eq(warpsim_kernel_set_regs(m, 0, 255, NULL), 0);
	warpsim_destroy(ws);
}

Test(libwarpsim_status, malloc_nomem_past_2_to_the_40)
{
	struct warpsim *ws = functional(NULL);
	uint64_t d = 1;
	ASSERT_FAILS(warpsim_malloc(ws, (1ull << 40) + 1, &d, E), WARPSIM_ERR_NOMEM, "failed");
	cr_assert_eq(d, 0);
	ASSERT_FAILS(warpsim_malloc(ws, UINT64_MAX, &d, E), WARPSIM_ERR_NOMEM, "failed");
	cr_assert_eq(warpsim_malloc(ws, 0, &d, NULL), 0, "0 bytes is a minimal block");
	cr_assert_neq(d, 0);
	warpsim_destroy(ws);
}

Test(libwarpsim_status, memory_calls_input_outside_an_allocation)
{
	struct warpsim *ws = functional(NULL);
	uint64_t d, e2;
	char buf[64];
	cr_assert_eq(warpsim_malloc(ws, 32, &d, NULL), 0);
	cr_assert_eq(warpsim_malloc(ws, 32, &e2, NULL), 0);
	ASSERT_FAILS(warpsim_free(ws, 0, E), WARPSIM_ERR_INPUT, "not the start");
	ASSERT_FAILS(warpsim_write(ws, d, buf, 33, E), WARPSIM_ERR_INPUT, "destination");
	ASSERT_FAILS(warpsim_read(ws, buf, d + 1, 32, E), WARPSIM_ERR_INPUT, "source");
	ASSERT_FAILS(warpsim_memset(ws, d, 0, UINT64_MAX, E), WARPSIM_ERR_INPUT, "destination");
	ASSERT_FAILS(warpsim_copy(ws, e2, d, 64, E), WARPSIM_ERR_INPUT, "source");
	ASSERT_FAILS(warpsim_copy(ws, UINT64_MAX - 3, d, 8, E), WARPSIM_ERR_INPUT, "destination");
	ASSERT_FAILS(warpsim_read(ws, buf, UINT64_MAX - 3, 8, E), WARPSIM_ERR_INPUT, "source");
	cr_assert_not(warpsim_allocation(ws, 16, NULL, NULL));
	cr_assert_eq(warpsim_last_error(NULL), WARPSIM_ERR_INPUT);
	warpsim_destroy(ws);
}

Test(libwarpsim_status, symbol_input_for_no_such_variable)
{
	struct warpsim *ws = functional(NULL);
	struct warpsim_module *m = load(ws, ptx);
	uint64_t a;
	ASSERT_FAILS(warpsim_symbol(m, "nothing", &a, NULL, E), WARPSIM_ERR_INPUT, "nothing");
	cr_assert_eq(warpsim_symbol(m, "counter", &a, NULL, NULL), 0, "bytes may be NULL");
	warpsim_destroy(ws);
}

Test(libwarpsim_status, texture_input_for_bad_shapes_and_dead_handles)
{
	struct warpsim *ws = functional(NULL);
	uint64_t d, h;
	cr_assert_eq(warpsim_malloc(ws, 4096, &d, NULL), 0);
	struct warpsim_texture t = {.addr = d, .width = 16, .height = 16, .channels = 3};
	ASSERT_FAILS(warpsim_texture_create(ws, &t, &h, E), WARPSIM_ERR_INPUT, "channels");
	t.channels = 4;
	t.width = 300;
	t.height = 1;
	ASSERT_FAILS(warpsim_texture_create(ws, &t, &h, E), WARPSIM_ERR_INPUT, "one allocation");
	t.width = UINT32_MAX;
	t.height = UINT32_MAX;
	t.pitch_bytes = UINT32_MAX;
	ASSERT_FAILS(warpsim_texture_create(ws, &t, &h, E), WARPSIM_ERR_INPUT, "larger than");
	t = (struct warpsim_texture){.addr = d, .width = 16, .height = 16, .channels = 4};
	cr_assert_eq(warpsim_texture_create(ws, &t, &h, NULL), 0);
	cr_assert_eq(warpsim_texture_destroy(ws, h, NULL), 0);
	ASSERT_FAILS(warpsim_texture_destroy(ws, h, E), WARPSIM_ERR_INPUT, "not a texture");
	ASSERT_FAILS(warpsim_texture_destroy(ws, 12345, E), WARPSIM_ERR_INPUT, "not a texture");
	warpsim_destroy(ws);
}

Test(libwarpsim_status, launch_input_for_kernel_buffer_and_shape)
{
	struct warpsim *ws = functional(NULL);
	struct warpsim_module *m = load(ws, ptx);
	unsigned char params[16] = {0};
	struct warpsim_launch l = {.grid = {1, 1, 1}, .block = {32, 1, 1}, .params = params,
				   .params_bytes = sizeof params};
	ASSERT_FAILS(warpsim_launch(m, 2, &l, NULL, E), WARPSIM_ERR_INPUT, "no kernel 2");
	l.params_bytes = 12;
	ASSERT_FAILS(warpsim_launch(m, 0, &l, NULL, E), WARPSIM_ERR_INPUT, "16 bytes of parameters");
	l.params_bytes = 4097;
	ASSERT_FAILS(warpsim_launch(m, 0, &l, NULL, E), WARPSIM_ERR_INPUT, "16 bytes of parameters");
	l.params_bytes = 16;
	l.grid[1] = 0;
	ASSERT_FAILS(warpsim_launch(m, 0, &l, NULL, E), WARPSIM_ERR_INPUT, "grid");
	l.grid[1] = 65536;
	ASSERT_FAILS(warpsim_launch(m, 0, &l, NULL, E), WARPSIM_ERR_INPUT, "grid");
	l.grid[1] = 1;
	l.block[0] = 1025;
	ASSERT_FAILS(warpsim_launch(m, 0, &l, NULL, E), WARPSIM_ERR_INPUT, "block");
	l.block[0] = 512;
	l.block[1] = 4;
	ASSERT_FAILS(warpsim_launch(m, 0, &l, NULL, E), WARPSIM_ERR_INPUT, "block");
	l.block[1] = 1;
	l.block[2] = 0;
	ASSERT_FAILS(warpsim_launch(m, 0, &l, NULL, E), WARPSIM_ERR_INPUT, "block");
	l.block[2] = 1;
	l.dynamic_shared_bytes = UINT32_MAX;
	ASSERT_FAILS(warpsim_launch(m, 0, &l, NULL, E), WARPSIM_ERR_INPUT, "shared");
	warpsim_destroy(ws);
}

Test(libwarpsim_status, launch_program_fault_sticks_with_its_message)
{
	struct warpsim *ws = functional(NULL);
	struct warpsim_module *m = load(ws, fault_ptx);
	uint64_t p = 0x10; /* in no allocation */
	struct warpsim_launch l = {.grid = {1, 1, 1}, .block = {1, 1, 1}, .params = &p,
				   .params_bytes = 8};
	struct warpsim_error first, again;
	cr_assert_eq(warpsim_launch(m, 0, &l, NULL, &first), WARPSIM_ERR_PROGRAM);
	cr_assert_neq(first.message[0], '\0');
	cr_assert_eq(warpsim_malloc(ws, 8, &p, NULL), 0, "memory still works");
	cr_assert_eq(warpsim_launch(m, 0, &l, NULL, &again), WARPSIM_ERR_PROGRAM);
	cr_assert(strstr(again.message, first.message), "'%s' lacks '%s'", again.message,
		  first.message);
	cr_assert(strstr(again.message, "earlier launch faulted"), "%s", again.message);
	cr_assert_eq(warpsim_run_workload(ws, "workloads/vecadd/vecadd.cfg", NULL, NULL, &again),
		     WARPSIM_ERR_PROGRAM);
	cr_assert(strstr(again.message, first.message), "%s", again.message);
	warpsim_destroy(ws);
}

Test(libwarpsim_status, launch_simulator_fault_sticks_on_the_timing_model)
{
	/* a livelock (sim.max_cycles is a budget now, a clean end: test_launch_ctl.c) */
	struct warpsim *ws = machine("sim.livelock_cycles=1000");
	struct warpsim_module *m = load(ws, fault_ptx);
	struct warpsim_launch l = {.grid = {1, 1, 1}, .block = {32, 1, 1}};
	struct warpsim_error first, again;
	cr_assert_eq(warpsim_launch(m, 1, &l, NULL, &first), WARPSIM_ERR_FAULT, "%s", first.message);
	cr_assert(strstr(first.message, "sim.livelock_cycles"), "%s", first.message);
	cr_assert_eq(warpsim_launch(m, 1, &l, NULL, &again), WARPSIM_ERR_FAULT);
	cr_assert(strstr(again.message, first.message), "%s", again.message);
	char dir[] = "/tmp/ws_api_XXXXXX", path[64];
	cr_assert_not_null(mkdtemp(dir));
	cr_assert_eq(warpsim_write_outputs(ws, dir, &again), 0, "outputs still work: %s",
		     again.message);
	static const char *const files[] = {"config.cfg", "cta_timeline.csv", "stats.json"};
	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[i]);
		cr_assert_eq(unlink(path), 0, "%s", path);
	}
	rmdir(dir);
	warpsim_destroy(ws);
}

/* The functional executor calls a spinning kernel the kernel's fault (frontend/fe.h). */
Test(libwarpsim_status, launch_livelock_on_the_functional_executor_is_a_program_fault)
{
	struct warpsim *ws = functional("sim.functional_livelock_warp_insts=1000");
	struct warpsim_module *m = load(ws, fault_ptx);
	struct warpsim_launch l = {.grid = {1, 1, 1}, .block = {32, 1, 1}};
	struct warpsim_error first;
	cr_assert_eq(warpsim_launch(m, 1, &l, NULL, &first), WARPSIM_ERR_PROGRAM, "%s", first.message);
	cr_assert(strstr(first.message, "livelock"), "%s", first.message);
	ASSERT_FAILS(warpsim_launch(m, 1, &l, NULL, E), WARPSIM_ERR_PROGRAM, first.message);
	warpsim_destroy(ws);
}

Test(libwarpsim_status, write_outputs_usage_and_io)
{
	struct warpsim *ws = functional(NULL);
	ASSERT_FAILS(warpsim_write_outputs(ws, NULL, E), WARPSIM_ERR_USAGE, "dir is NULL");
	ASSERT_FAILS(warpsim_write_outputs(ws, "", E), WARPSIM_ERR_USAGE, "dir is empty");
	ASSERT_FAILS(warpsim_write_outputs(ws, "configs/gtx480.cfg/out", E), WARPSIM_ERR_IO,
		     "cannot create directory");
	char big[5000];
	memset(big, 'd', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	ASSERT_FAILS(warpsim_write_outputs(ws, big, E), WARPSIM_ERR_IO, "too long");
	warpsim_destroy(ws);
}

Test(libwarpsim_status, run_workload_io_input_and_its_check)
{
	struct warpsim *ws = functional(NULL);
	ASSERT_FAILS(warpsim_run_workload(ws, "workloads/no_such.cfg", NULL, NULL, E), WARPSIM_ERR_IO,
		     "no_such.cfg");
	ASSERT_FAILS(warpsim_run_workload(ws, "workloads", NULL, NULL, E), WARPSIM_ERR_IO,
		     "directory");
	ASSERT_FAILS(warpsim_run_workload(ws, "workloads/vecadd/vecadd.cfg", "huge", NULL, E),
		     WARPSIM_ERR_INPUT, "huge");
	ASSERT_FAILS(warpsim_run_workload(ws, "configs/gtx480.cfg", NULL, NULL, E), WARPSIM_ERR_INPUT,
		     "gtx480.cfg");
	/* vecadd with b = a: c = 2a, which its check against a + b refuses */
	char dir[] = "/tmp/ws_api_XXXXXX", path[64];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/vecadd.ptx", dir);
	FILE *in = fopen("workloads/vecadd/vecadd.ptx", "r"), *out = fopen(path, "w");
	cr_assert(in && out);
	for (int c; (c = fgetc(in)) != EOF;)
		fputc(c, out);
	fclose(in);
	fclose(out);
	snprintf(path, sizeof path, "%s/wrong.cfg", dir);
	out = fopen(path, "w");
	cr_assert_not_null(out);
	fputs("name = \"wrong\";\nptx = \"vecadd.ptx\";\nsize = \"s\";\nsizes = { s = { n = 256; }; };\n"
	      "buffers = ({ name = \"a\"; type = \"f32\"; count = \"n\"; init = \"random\"; seed = 1;"
	      " min = 1.0; max = 2.0; },\n { name = \"b\"; type = \"f32\"; count = \"n\"; init = "
	      "\"random\"; seed = 2; min = 1.0; max = 2.0; },\n { name = \"c\"; type = \"f32\"; "
	      "count = \"n\"; });\nlaunches = ({ kernel = \"vecadd\"; grid = 1; block = 256; args = "
	      "(\"a\", \"a\", \"c\", \"n\"); });\ncheck = { buffer = \"c\"; reference = \"vecadd\"; };\n",
	      out);
	fclose(out);
	ASSERT_FAILS(warpsim_run_workload(ws, path, NULL, NULL, E), WARPSIM_ERR_PROGRAM, "check");
	cr_assert_eq(warpsim_run_workload(ws, "workloads/vecadd/vecadd.cfg", NULL, NULL, NULL), 0,
		     "a failed check is no fault of the machine");
	unlink(path);
	snprintf(path, sizeof path, "%s/vecadd.ptx", dir);
	unlink(path);
	rmdir(dir);
	warpsim_destroy(ws);
}

Test(libwarpsim_status, last_error_holds_a_failure_when_err_is_null_and_clears_on_read)
{
	struct warpsim *ws = functional(NULL);
	uint64_t d;
	cr_assert_eq(warpsim_last_error(NULL), WARPSIM_OK);
	cr_assert_eq(warpsim_malloc(ws, UINT64_MAX, &d, NULL), WARPSIM_ERR_NOMEM);
	struct warpsim_error e;
	cr_assert_eq(warpsim_last_error(&e), WARPSIM_ERR_NOMEM);
	cr_assert(strstr(e.message, "device allocation"), "%s", e.message);
	cr_assert_eq(warpsim_last_error(&e), WARPSIM_OK);
	cr_assert_str_eq(e.message, "");
	warpsim_destroy(ws);
}
