/* SPDX-License-Identifier: MIT */
/* include/warpsim.h under misuse (issue 35): NULL in each pointer argument of every entry point,
 * destroyed handles, and bad sizes, counts, names and shapes, each refused with its status and
 * a message (in err and in warpsim_last_error), never a crash, a hang or a silent success. */
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "include/warpsim.h"

/* k(p, n): one kernel with a 12-byte parameter buffer, and a .global variable g. */
static const char *ptx =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".global .align 4 .u32 g = 1;\n"
	".visible .entry k(.param .u64 p, .param .u32 n)\n{\n\t.reg .b32 %r<2>;\n"
	"\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [n];\n"
	"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";

/* What every case may use: a live machine and module, one of each destroyed, an allocation. */
static struct warpsim *ws, *dead_ws;
static struct warpsim_module *m, *dead_m;
static uint64_t d;

static void setup(void)
{
	struct warpsim_options o = {.functional = true};
	struct warpsim_error e;
	ws = warpsim_create(&o, &e);
	dead_ws = warpsim_create(&o, &e);
	cr_assert(ws && dead_ws, "%s", e.message);
	cr_assert_eq(warpsim_module_load_ptx(ws, "k.ptx", ptx, &m, &e), 0, "%s", e.message);
	cr_assert_eq(warpsim_module_load_ptx(dead_ws, "k.ptx", ptx, &dead_m, &e), 0, "%s", e.message);
	cr_assert_eq(warpsim_malloc(ws, 64, &d, &e), 0, "%s", e.message);
	warpsim_destroy(dead_ws);
	warpsim_last_error(NULL);
}

static void teardown(void)
{
	warpsim_destroy(ws);
}

/* A call without a status (bool, count, pointer, void) that gave its failure value. */
#define FAILED 1
#define B(x) ((x) ? 0 : FAILED)          /* bool: false is the failure */
#define P(x) ((x) ? 0 : FAILED)          /* pointer: NULL is */
#define Z(x) ((x) ? 0 : FAILED)          /* count or time: 0 is */
#define V(x) ((x), FAILED)               /* void: only the last error tells */

#define OK WARPSIM_OK
#define USAGE WARPSIM_ERR_USAGE
#define INPUT WARPSIM_ERR_INPUT
#define CONFIG WARPSIM_ERR_CONFIG
#define IO WARPSIM_ERR_IO
#define NOMEM WARPSIM_ERR_NOMEM

/* X(what, status wanted, takes err, call): the call runs with err = &e and again with NULL. */
#define NULL_CASES(X)                                                                            \
	X("create: o", USAGE, 1, P(warpsim_create(NULL, err)))                                   \
	X("create: o->configs", USAGE, 1, P(warpsim_create(&(struct warpsim_options){           \
		.n_configs = 1}, err)))                                                          \
	X("create: o->configs[0]", USAGE, 1, P(warpsim_create(&(struct warpsim_options){        \
		.configs = none, .n_configs = 1}, err)))                                         \
	X("create: o->overrides", USAGE, 1, P(warpsim_create(&(struct warpsim_options){         \
		.n_overrides = 1, .functional = true}, err)))                                    \
	X("create: o->overrides[0]", USAGE, 1, P(warpsim_create(&(struct warpsim_options){      \
		.overrides = none, .n_overrides = 1, .functional = true}, err)))                 \
	X("destroy: ws", OK, 0, (warpsim_destroy(NULL), 0))                                     \
	X("config_int: ws", USAGE, 0, B(warpsim_config_int(NULL, "gpu.core.count", &i64)))      \
	X("config_int: key", USAGE, 0, B(warpsim_config_int(ws, NULL, &i64)))                   \
	X("config_int: out", USAGE, 0, B(warpsim_config_int(ws, "gpu.core.count", NULL)))       \
	X("config_float: ws", USAGE, 0, B(warpsim_config_float(NULL, "gpu.core.count", &dbl)))  \
	X("config_float: key", USAGE, 0, B(warpsim_config_float(ws, NULL, &dbl)))               \
	X("config_float: out", USAGE, 0, B(warpsim_config_float(ws, "gpu.core.count", NULL)))   \
	X("config_str: ws", USAGE, 0, P(warpsim_config_str(NULL, "sim.mode")))                  \
	X("config_str: key", USAGE, 0, P(warpsim_config_str(ws, NULL)))                         \
	X("module_load_ptx: ws", USAGE, 1, warpsim_module_load_ptx(NULL, "n", ptx, &mod, err))         \
	X("module_load_ptx: name (may be NULL)", OK, 1, warpsim_module_load_ptx(ws, NULL, ptx, &mod, err)) \
	X("module_load_ptx: ptx", USAGE, 1, warpsim_module_load_ptx(ws, "n", NULL, &mod, err))         \
	X("module_load_ptx: out", USAGE, 1, warpsim_module_load_ptx(ws, "n", ptx, NULL, err))          \
	X("module_load_file: ws", USAGE, 1, warpsim_module_load_file(NULL, "x.ptx", &mod, err))        \
	X("module_load_file: path", USAGE, 1, warpsim_module_load_file(ws, NULL, &mod, err))           \
	X("module_load_file: out", USAGE, 1, warpsim_module_load_file(ws, "x.ptx", NULL, err))         \
	X("kernel_count: m", USAGE, 0, Z(warpsim_kernel_count(NULL)))                           \
	X("kernel_ptx_name: m", USAGE, 0, P(warpsim_kernel_ptx_name(NULL, 0)))                  \
	X("kernel_name: m", USAGE, 0, P(warpsim_kernel_name(NULL, 0)))                          \
	X("kernel_find: m", USAGE, 1, (warpsim_kernel_find(NULL, "k", err) == -1 ? FAILED : 0)) \
	X("kernel_find: name", USAGE, 1, (warpsim_kernel_find(m, NULL, err) == -1 ? FAILED : 0)) \
	X("kernel_attrs: m", USAGE, 1, warpsim_kernel_attrs(NULL, 0, &attrs, err))              \
	X("kernel_attrs: out", USAGE, 1, warpsim_kernel_attrs(m, 0, NULL, err))                 \
	X("kernel_param: m", USAGE, 1, warpsim_kernel_param(NULL, 0, 0, &u32a, &u32b, err))     \
	X("kernel_param: offset", USAGE, 1, warpsim_kernel_param(m, 0, 0, NULL, &u32b, err))    \
	X("kernel_param: size_bytes", USAGE, 1, warpsim_kernel_param(m, 0, 0, &u32a, NULL, err)) \
	X("kernel_set_regs: m", USAGE, 1, warpsim_kernel_set_regs(NULL, 0, 32, err))            \
	X("malloc: ws", USAGE, 1, warpsim_malloc(NULL, 8, &u64a, err))                          \
	X("malloc: addr", USAGE, 1, warpsim_malloc(ws, 8, NULL, err))                           \
	X("free: ws", USAGE, 1, warpsim_free(NULL, d, err))                                     \
	X("allocation: ws", USAGE, 0, B(warpsim_allocation(NULL, d, &u64a, &u64b)))             \
	X("allocation: base (may be NULL)", OK, 0, B(warpsim_allocation(ws, d, NULL, &u64b)))   \
	X("allocation: bytes (may be NULL)", OK, 0, B(warpsim_allocation(ws, d, &u64a, NULL)))  \
	X("allocated_bytes: ws", USAGE, 0, Z(warpsim_allocated_bytes(NULL)))                    \
	X("write: ws", USAGE, 1, warpsim_write(NULL, d, buf, 8, err))                           \
	X("write: src", USAGE, 1, warpsim_write(ws, d, NULL, 8, err))                           \
	X("write: src, 0 bytes", OK, 1, warpsim_write(ws, d, NULL, 0, err))                     \
	X("read: ws", USAGE, 1, warpsim_read(NULL, buf, d, 8, err))                             \
	X("read: dst", USAGE, 1, warpsim_read(ws, NULL, d, 8, err))                             \
	X("memset: ws", USAGE, 1, warpsim_memset(NULL, d, 0, 8, err))                           \
	X("copy: ws", USAGE, 1, warpsim_copy(NULL, d, d + 8, 8, err))                           \
	X("symbol: m", USAGE, 1, warpsim_symbol(NULL, "g", &u64a, &u64b, err))                  \
	X("symbol: name", USAGE, 1, warpsim_symbol(m, NULL, &u64a, &u64b, err))                 \
	X("symbol: addr", USAGE, 1, warpsim_symbol(m, "g", NULL, &u64b, err))                  \
	X("symbol: bytes (may be NULL)", OK, 1, warpsim_symbol(m, "g", &u64a, NULL, err))       \
	X("texture_create: ws", USAGE, 1, warpsim_texture_create(NULL, &tex, &u64a, err))       \
	X("texture_create: t", USAGE, 1, warpsim_texture_create(ws, NULL, &u64a, err))          \
	X("texture_create: handle", USAGE, 1, warpsim_texture_create(ws, &tex, NULL, err))      \
	X("texture_destroy: ws", USAGE, 1, warpsim_texture_destroy(NULL, 1, err))               \
	X("launch: m", USAGE, 1, warpsim_launch(NULL, 0, &launch, &res, err))                   \
	X("launch: l", USAGE, 1, warpsim_launch(m, 0, NULL, &res, err))                         \
	X("launch: l->params", USAGE, 1, warpsim_launch(m, 0, &no_params, &res, err))           \
	X("launch: r (may be NULL)", OK, 1, warpsim_launch(m, 0, &launch, NULL, err))           \
	X("now_ps: ws", USAGE, 0, V(warpsim_now_ps(NULL)))                                      \
	X("set_printf: ws", USAGE, 0, V(warpsim_set_printf(NULL, stderr)))                      \
	X("set_printf: out (may be NULL)", OK, 0, (warpsim_set_printf(ws, NULL), 0))            \
	X("stat: ws", USAGE, 0, B(warpsim_stat(NULL, "gpu.cycles", &dbl)))                      \
	X("stat: name", USAGE, 0, B(warpsim_stat(ws, NULL, &dbl)))                              \
	X("stat: out", USAGE, 0, B(warpsim_stat(ws, "gpu.cycles", NULL)))                       \
	X("stats_json: ws", USAGE, 0, P(warpsim_stats_json(NULL)))                              \
	X("write_outputs: ws", USAGE, 1, warpsim_write_outputs(NULL, "/tmp", err))              \
	X("write_outputs: dir", USAGE, 1, warpsim_write_outputs(ws, NULL, err))                 \
	X("print_summary: ws", USAGE, 0, V(warpsim_print_summary(NULL, stderr)))                \
	X("print_summary: out", USAGE, 0, V(warpsim_print_summary(ws, NULL)))                   \
	X("run_workload: ws", USAGE, 1, warpsim_run_workload(NULL, vecadd, NULL, NULL, err))    \
	X("run_workload: path", USAGE, 1, warpsim_run_workload(ws, NULL, NULL, NULL, err))      \
	X("run_workload: size, log (may be NULL)", OK, 1,                                       \
	  warpsim_run_workload(ws, vecadd, NULL, NULL, err))                                    \
	X("last_error: out (may be NULL)", OK, 0, warpsim_last_error(NULL))

/* Handles that were destroyed: refused as USAGE, nothing read through them. */
#define DEAD_CASES(X)                                                                            \
	X("destroy: destroyed ws", USAGE, 0, V(warpsim_destroy(dead_ws)))                       \
	X("config_int: destroyed ws", USAGE, 0, B(warpsim_config_int(dead_ws, "sim.seed", &i64))) \
	X("malloc: destroyed ws", USAGE, 1, warpsim_malloc(dead_ws, 8, &u64a, err))             \
	X("write: destroyed ws", USAGE, 1, warpsim_write(dead_ws, d, buf, 8, err))              \
	X("write_outputs: destroyed ws", USAGE, 1, warpsim_write_outputs(dead_ws, "/tmp/x", err)) \
	X("kernel_count: destroyed m", USAGE, 0, Z(warpsim_kernel_count(dead_m)))               \
	X("kernel_find: destroyed m", USAGE, 1, (warpsim_kernel_find(dead_m, "k", err) == -1 ? FAILED : 0)) \
	X("launch: destroyed m", USAGE, 1, warpsim_launch(dead_m, 0, &launch, NULL, err))        \
	X("symbol: destroyed m", USAGE, 1, warpsim_symbol(dead_m, "g", &u64a, NULL, err))       \
	X("launch: ws passed as m", USAGE, 1, warpsim_launch((struct warpsim_module *)ws, 0, &launch, NULL, err)) \
	X("malloc: m passed as ws", USAGE, 1, warpsim_malloc((struct warpsim *)m, 8, &u64a, err)) \
	X("malloc: made-up ws", USAGE, 1, warpsim_malloc((struct warpsim *)buf, 8, &u64a, err))

/* Bad values rather than pointers. */
#define BAD_CASES(X)                                                                             \
	X("create: n_configs -1", USAGE, 1, P(warpsim_create(&(struct warpsim_options){         \
		.n_configs = -1, .functional = true}, err)))                                     \
	X("create: n_overrides -5", USAGE, 1, P(warpsim_create(&(struct warpsim_options){       \
		.n_overrides = -5, .functional = true}, err)))                                   \
	X("create: 1 MB override", CONFIG, 1, P(warpsim_create(&(struct warpsim_options){       \
		.overrides = huge_ov, .n_overrides = 1, .functional = true}, err)))              \
	X("create: 1 MB config path", CONFIG, 1, P(warpsim_create(&(struct warpsim_options){    \
		.configs = huge_name, .n_configs = 1}, err)))                                    \
	X("create: override '='", CONFIG, 1, P(warpsim_create(&(struct warpsim_options){        \
		.overrides = eq_only, .n_overrides = 1, .functional = true}, err)))              \
	X("config_int: 1 MB key", INPUT, 0, B(warpsim_config_int(ws, huge, &i64)))              \
	X("module_load_ptx: 1 MB name, bad PTX", INPUT, 1, warpsim_module_load_ptx(ws, huge, ".entry", &mod, err)) \
	X("module_load_ptx: empty text", INPUT, 1, warpsim_module_load_ptx(ws, "e", "", &mod, err))    \
	X("module_load_file: 1 MB path", IO, 1, warpsim_module_load_file(ws, huge, &mod, err))         \
	X("module_load_file: a directory", IO, 1, warpsim_module_load_file(ws, "configs", &mod, err))  \
	X("kernel_find: 1 MB name", INPUT, 1, (warpsim_kernel_find(m, huge, err) == -1 ? FAILED : 0)) \
	X("kernel_find: empty name", INPUT, 1, (warpsim_kernel_find(m, "", err) == -1 ? FAILED : 0)) \
	X("kernel_name: k = UINT32_MAX", INPUT, 0, P(warpsim_kernel_name(m, UINT32_MAX)))       \
	X("kernel_param: i = UINT32_MAX", INPUT, 1, warpsim_kernel_param(m, 0, UINT32_MAX, &u32a, &u32b, err)) \
	X("kernel_set_regs: 100000", INPUT, 1, warpsim_kernel_set_regs(m, 0, 100000, err))      \
	X("malloc: UINT64_MAX bytes", NOMEM, 1, warpsim_malloc(ws, UINT64_MAX, &u64a, err))     \
	X("free: twice", INPUT, 1, (warpsim_free(ws, tmp_alloc(), NULL), warpsim_free(ws, last_alloc, err))) \
	X("free: 0", INPUT, 1, warpsim_free(ws, 0, err))                                        \
	X("write: wraps past 2^64", INPUT, 1, warpsim_write(ws, d + 8, buf, UINT64_MAX - 4, err)) \
	X("read: UINT64_MAX bytes", INPUT, 1, warpsim_read(ws, buf, d, UINT64_MAX, err))        \
	X("memset: one byte past", INPUT, 1, warpsim_memset(ws, d, 0, 65, err))                 \
	X("copy: src range wraps", INPUT, 1, warpsim_copy(ws, d, UINT64_MAX - 7, 16, err))      \
	X("write: freed memory", INPUT, 1, (warpsim_free(ws, tmp_alloc(), NULL), warpsim_write(ws, last_alloc, buf, 4, err))) \
	X("stat: 1 MB name", INPUT, 0, B(warpsim_stat(ws, huge, &dbl)))                         \
	X("texture: 0 x 0", INPUT, 1, warpsim_texture_create(ws, &(struct warpsim_texture){.addr = d, .channels = 1}, &u64a, err)) \
	X("texture: 4G x 4G", INPUT, 1, warpsim_texture_create(ws, &(struct warpsim_texture){.addr = d, .width = UINT32_MAX, .height = UINT32_MAX, .channels = 1}, &u64a, err)) \
	X("texture_destroy: made-up handle", INPUT, 1, warpsim_texture_destroy(ws, UINT64_MAX, err)) \
	X("launch: grid 0", INPUT, 1, warpsim_launch(m, 0, &(struct warpsim_launch){.grid = {0, 1, 1}, .block = {1, 1, 1}, .params = pbuf, .params_bytes = 12}, NULL, err)) \
	X("launch: grid.x 2^32-1", INPUT, 1, warpsim_launch(m, 0, &(struct warpsim_launch){.grid = {UINT32_MAX, 1, 1}, .block = {1, 1, 1}, .params = pbuf, .params_bytes = 12}, NULL, err)) \
	X("launch: grid.z 65536", INPUT, 1, warpsim_launch(m, 0, &(struct warpsim_launch){.grid = {1, 1, 65536}, .block = {1, 1, 1}, .params = pbuf, .params_bytes = 12}, NULL, err)) \
	X("launch: block 0", INPUT, 1, warpsim_launch(m, 0, &(struct warpsim_launch){.grid = {1, 1, 1}, .block = {0, 1, 1}, .params = pbuf, .params_bytes = 12}, NULL, err)) \
	X("launch: block.z 65", INPUT, 1, warpsim_launch(m, 0, &(struct warpsim_launch){.grid = {1, 1, 1}, .block = {1, 1, 65}, .params = pbuf, .params_bytes = 12}, NULL, err)) \
	X("launch: block 2^32-1 cubed", INPUT, 1, warpsim_launch(m, 0, &(struct warpsim_launch){.grid = {1, 1, 1}, .block = {UINT32_MAX, UINT32_MAX, UINT32_MAX}, .params = pbuf, .params_bytes = 12}, NULL, err)) \
	X("launch: 64 KB + 1 dynamic shared", INPUT, 1, warpsim_launch(m, 0, &(struct warpsim_launch){.grid = {1, 1, 1}, .block = {1, 1, 1}, .dynamic_shared_bytes = 65537, .params = pbuf, .params_bytes = 12}, NULL, err)) \
	X("launch: params 0 of 12 bytes", INPUT, 1, warpsim_launch(m, 0, &(struct warpsim_launch){.grid = {1, 1, 1}, .block = {1, 1, 1}}, NULL, err)) \
	X("launch: params 11 of 12 bytes", INPUT, 1, warpsim_launch(m, 0, &(struct warpsim_launch){.grid = {1, 1, 1}, .block = {1, 1, 1}, .params = pbuf, .params_bytes = 11}, NULL, err)) \
	X("launch: params 16 of 12 bytes", INPUT, 1, warpsim_launch(m, 0, &(struct warpsim_launch){.grid = {1, 1, 1}, .block = {1, 1, 1}, .params = pbuf, .params_bytes = 16}, NULL, err)) \
	X("launch: params SIZE_MAX bytes", INPUT, 1, warpsim_launch(m, 0, &(struct warpsim_launch){.grid = {1, 1, 1}, .block = {1, 1, 1}, .params = pbuf, .params_bytes = SIZE_MAX}, NULL, err)) \
	X("launch: k = 1 of 1", INPUT, 1, warpsim_launch(m, 1, &launch, NULL, err))             \
	X("write_outputs: empty dir", USAGE, 1, warpsim_write_outputs(ws, "", err))             \
	X("write_outputs: 1 MB dir", IO, 1, warpsim_write_outputs(ws, huge, err))               \
	X("write_outputs: under a file", IO, 1, warpsim_write_outputs(ws, "configs/gtx480.cfg/x", err)) \
	X("run_workload: 1 MB path", IO, 1, warpsim_run_workload(ws, huge, NULL, NULL, err))    \
	X("run_workload: unknown size", INPUT, 1, warpsim_run_workload(ws, vecadd, "nope", NULL, err)) \
	X("run_workload: 1 MB size", INPUT, 1, warpsim_run_workload(ws, vecadd, huge, NULL, err))

struct mis_case {
	const char *what;
	int want;
	bool takes_err;
};

/* The values the cases use (file scope, so the case table can name them). */
static const char *none[1];
static const char *vecadd = "workloads/vecadd/vecadd.cfg";
static char *huge;
static const char *huge_name[1], *huge_ov[1], *eq_only[1] = {"="};
static int64_t i64;
static double dbl;
static uint32_t u32a, u32b;
static uint64_t u64a, u64b, last_alloc;
static unsigned char buf[64], pbuf[16];
static struct warpsim_module *mod;
static struct warpsim_kernel_attrs attrs;
static struct warpsim_texture tex;
static struct warpsim_launch launch, no_params;
static struct warpsim_launch_result res;

static uint64_t tmp_alloc(void)
{
	cr_assert_eq(warpsim_malloc(ws, 16, &last_alloc, NULL), 0);
	return last_alloc;
}

static void values(void)
{
	huge = malloc(1 << 20);
	cr_assert_not_null(huge);
	memset(huge, 'x', (1 << 20) - 1);
	huge[(1 << 20) - 1] = '\0';
	huge_name[0] = huge;
	huge_ov[0] = huge;
	memcpy(pbuf, &d, 8);
	tex = (struct warpsim_texture){.addr = d, .width = 4, .height = 1, .channels = 1};
	launch = (struct warpsim_launch){.grid = {1, 1, 1}, .block = {1, 1, 1}, .params = pbuf,
					 .params_bytes = 12};
	no_params = launch;
	no_params.params = NULL;
}

#define CASE_ROW(what, want, takes_err, call) {what, want, takes_err},
#define CASE_CALL(what, want, takes_err, call)                                                  \
	if (i == k++)                                                                           \
		return (call);

static int run_null(int i, struct warpsim_error *err)
{
	int k = 0;
	NULL_CASES(CASE_CALL)
	cr_assert_fail("no case %d", i);
	return 0;
}

static int run_dead(int i, struct warpsim_error *err)
{
	int k = 0;
	DEAD_CASES(CASE_CALL)
	cr_assert_fail("no case %d", i);
	return 0;
}

static int run_bad(int i, struct warpsim_error *err)
{
	int k = 0;
	BAD_CASES(CASE_CALL)
	cr_assert_fail("no case %d", i);
	return 0;
}

/* Each case twice (err given, err NULL): refused with its status in what it returns, in err
 * and in the last error, whose message names the function; or, for OK cases, no error. */
static int check_cases(const struct mis_case *cases, int n, int (*run)(int, struct warpsim_error *))
{
	int refused = 0;
	for (int i = 0; i < n; i++) {
		const struct mis_case *c = &cases[i];
		for (int with_err = 1; with_err >= 0; with_err--) {
			struct warpsim_error e = {.code = 12345};
			warpsim_last_error(NULL);
			int rc = run(i, with_err ? &e : NULL);
			struct warpsim_error last;
			int lc = warpsim_last_error(&last);
			if (c->want == OK) {
				cr_expect_eq(rc, 0, "%s: gave %d (%s)", c->what, rc, last.message);
				cr_expect_eq(lc, 0, "%s: left error %d (%s)", c->what, lc, last.message);
				continue;
			}
			cr_expect(rc == c->want || rc == FAILED, "%s: gave %d, want %d", c->what, rc,
				  c->want);
			cr_expect_eq(lc, c->want, "%s: last error %d, want %d (%s)", c->what, lc,
				     c->want, last.message);
			cr_expect_neq(last.message[0], '\0', "%s: no message", c->what);
			if (c->takes_err && with_err) {
				cr_expect_eq(e.code, c->want, "%s: err.code %d", c->what, e.code);
				cr_expect_str_eq(e.message, last.message, "%s", c->what);
			} else if (with_err) {
				cr_expect_eq(e.code, 12345, "%s: err touched", c->what);
			}
			if (c->want == USAGE) {
				char fn[64];
				snprintf(fn, sizeof fn, "warpsim_%.*s", (int)strcspn(c->what, ":"), c->what);
				cr_expect(strstr(last.message, fn), "%s: message '%s' lacks '%s'", c->what,
					  last.message, fn);
			}
			if (with_err && lc == c->want && (rc == c->want || rc == FAILED))
				refused++;
		}
	}
	return refused;
}

TestSuite(api_misuse, .init = setup, .fini = teardown);

Test(api_misuse, null_in_each_pointer_argument_of_every_entry_point)
{
	static const struct mis_case cases[] = {NULL_CASES(CASE_ROW)};
	const int n = (int)(sizeof cases / sizeof cases[0]);
	values();
	int ok_cases = 0;
	for (int i = 0; i < n; i++)
		ok_cases += cases[i].want == OK;
	int refused = check_cases(cases, n, run_null);
	cr_log_info("NULL arguments: %d cases, %d refused cleanly, %d allowed as documented", n,
		    refused, ok_cases);
	cr_expect_eq(refused + ok_cases, n);
	free(huge);
}

Test(api_misuse, destroyed_and_foreign_handles_are_refused)
{
	static const struct mis_case cases[] = {DEAD_CASES(CASE_ROW)};
	const int n = (int)(sizeof cases / sizeof cases[0]);
	values();
	int refused = check_cases(cases, n, run_dead);
	cr_log_info("dead handles: %d cases, %d refused cleanly", n, refused);
	cr_expect_eq(refused, n);
	free(huge);
}

Test(api_misuse, bad_sizes_counts_names_and_shapes_are_refused)
{
	static const struct mis_case cases[] = {BAD_CASES(CASE_ROW)};
	const int n = (int)(sizeof cases / sizeof cases[0]);
	values();
	int refused = check_cases(cases, n, run_bad);
	cr_log_info("bad values: %d cases, %d refused cleanly", n, refused);
	cr_expect_eq(refused, n);
	/* none of it harmed the machine: a proper launch still runs and stores n at p */
	uint32_t n7 = 7, got = 0;
	memcpy(pbuf + 8, &n7, 4);
	struct warpsim_error e;
	cr_assert_eq(warpsim_launch(m, 0, &launch, NULL, &e), 0, "%s", e.message);
	cr_assert_eq(warpsim_read(ws, &got, d, 4, &e), 0, "%s", e.message);
	cr_assert_eq(got, 7);
	free(huge);
}
