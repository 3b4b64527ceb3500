/* SPDX-License-Identifier: MIT */
/* warpsim_launch_batch (api/api_batch.c): launches of several streams with dependencies, side
 * by side with gpu.cta_dispatcher.concurrent_kernels = on-gpu, one at a time with off; results,
 * start times, and stats.json's "streams" and "concurrent". */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "include/warpsim.h"

/* add(float *p, float v): p[tid] += v over one CTA of 32 threads; dbl(int *q): *q *= 2. */
static const char *ptx =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry add(.param .u64 p, .param .f32 v)\n{\n"
	"\t.reg .b32 %r<2>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.f32 %f1, [v];\n\tmov.u32 %r1, %tid.x;\n"
	"\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tld.global.f32 %f2, [%rd3];\n\tadd.f32 %f3, %f2, %f1;\n\tst.global.f32 [%rd3], %f3;\n"
	"\tret;\n}\n"
	".visible .entry dbl(.param .u64 q)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [q];\n\tld.global.u32 %r1, [%rd1];\n\tadd.s32 %r2, %r1, %r1;\n"
	"\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n";

struct setup {
	struct warpsim *ws;
	struct warpsim_module *m;
	uint64_t p, q;
	unsigned char pa[2][12], qa[8];
};

static void setup(struct setup *s, const char *mode)
{
	const char *cfgs[] = {"configs/gtx480.cfg"};
	char ov[96];
	snprintf(ov, sizeof ov, "gpu.cta_dispatcher.concurrent_kernels=%s", mode);
	const char *ovs[] = {ov};
	struct warpsim_options o = {.configs = cfgs, .n_configs = 1, .overrides = ovs, .n_overrides = 1};
	struct warpsim_error err;
	s->ws = warpsim_create(&o, &err);
	cr_assert_not_null(s->ws, "%s", err.message);
	cr_assert_eq(warpsim_module_load_ptx(s->ws, "b.ptx", ptx, &s->m, &err), 0, "%s", err.message);
	float ones[32];
	for (int i = 0; i < 32; i++)
		ones[i] = 1.0f;
	int three = 3;
	cr_assert_eq(warpsim_malloc(s->ws, sizeof ones, &s->p, &err), 0);
	cr_assert_eq(warpsim_malloc(s->ws, sizeof three, &s->q, &err), 0);
	cr_assert_eq(warpsim_write(s->ws, s->p, ones, sizeof ones, &err), 0);
	cr_assert_eq(warpsim_write(s->ws, s->q, &three, sizeof three, &err), 0);
	/* parameter buffers: add's (p at 0, v at 8), dbl's (q at 0) */
	const float v[2] = {2.0f, 3.0f};
	for (int i = 0; i < 2; i++) {
		memcpy(s->pa[i], &s->p, 8);
		memcpy(s->pa[i] + 8, &v[i], 4);
	}
	memcpy(s->qa, &s->q, 8);
}

/* add(+2) in stream 1, dbl in stream 2, add(+3) in stream 1 after the first. */
static int run_batch(struct setup *s, const uint32_t *after0, struct warpsim_launch_result *r,
		     struct warpsim_error *err)
{
	static const uint32_t after2[] = {0};
	struct warpsim_batch_launch b[3];
	memset(b, 0, sizeof b);
	for (int i = 0; i < 3; i++) {
		b[i].m = s->m;
		b[i].launch.grid[0] = b[i].launch.grid[1] = b[i].launch.grid[2] = 1;
		b[i].launch.block[0] = i == 1 ? 1 : 32;
		b[i].launch.block[1] = b[i].launch.block[2] = 1;
	}
	b[0].kernel = 0, b[0].stream = 1, b[0].launch.params = s->pa[0], b[0].launch.params_bytes = 12;
	b[1].kernel = 1, b[1].stream = 2, b[1].launch.params = s->qa, b[1].launch.params_bytes = 8;
	b[2].kernel = 0, b[2].stream = 1, b[2].launch.params = s->pa[1], b[2].launch.params_bytes = 12;
	b[2].after = after2, b[2].n_after = 1;
	if (after0)
		b[0].after = after0, b[0].n_after = 1;
	return warpsim_launch_batch(s->ws, b, 3, r, err);
}

static void check_results(struct setup *s)
{
	float p[32];
	int q;
	struct warpsim_error err;
	cr_assert_eq(warpsim_read(s->ws, p, s->p, sizeof p, &err), 0);
	cr_assert_eq(warpsim_read(s->ws, &q, s->q, sizeof q, &err), 0);
	for (int i = 0; i < 32; i++)
		cr_assert_eq(p[i], 6.0f, "p[%d] %f", i, (double)p[i]);
	cr_assert_eq(q, 6);
}

static json_t *stats(struct setup *s)
{
	char *txt = warpsim_stats_json(s->ws);
	cr_assert_not_null(txt);
	json_t *doc = json_loads(txt, 0, NULL);
	free(txt);
	cr_assert_not_null(doc);
	return doc;
}

Test(api_batch, on_gpu_independent_launches_start_together_dependent_ones_after)
{
	struct setup s;
	setup(&s, "on-gpu");
	struct warpsim_launch_result r[3];
	struct warpsim_error err;
	cr_assert_eq(run_batch(&s, NULL, r, &err), 0, "%s", err.message);
	check_results(&s);
	cr_assert_eq(r[0].start_ps, r[1].start_ps);
	cr_assert_eq(r[2].start_ps, r[0].end_ps); /* the cycle after launch 0's last CTA */
	cr_assert_eq(r[2].launch, 2);
	json_t *doc = stats(&s);
	json_t *streams = json_object_get(doc, "streams");
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(streams, "1"), "launches")), 2);
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(streams, "2"), "launches")), 1);
	json_t *cc = json_object_get(doc, "concurrent");
	cr_assert_eq(json_array_size(cc), 1);
	cr_assert_eq(json_integer_value(json_object_get(json_array_get(cc, 0), "launches")), 3);
	json_t *k1 = json_array_get(json_object_get(doc, "kernels"), 1);
	cr_assert_eq(json_integer_value(json_object_get(k1, "stream")), 2);
	/* dbl is 4 warp instructions (ld.param, ld, add, st) and ret: 5, on one SM */
	json_t *st1 = json_object_get(k1, "stats");
	cr_assert_eq(json_integer_value(json_object_get(st1, "gpu.warp_insts")), 5);
	cr_assert_eq(json_integer_value(json_object_get(st1, "gpu.sms_used")), 1);
	json_decref(doc);
	warpsim_destroy(s.ws);
}

Test(api_batch, off_runs_the_batch_one_launch_at_a_time)
{
	struct setup s;
	setup(&s, "off");
	struct warpsim_launch_result r[3];
	struct warpsim_error err;
	cr_assert_eq(run_batch(&s, NULL, r, &err), 0, "%s", err.message);
	check_results(&s);
	cr_assert_geq(r[1].start_ps, r[0].end_ps);
	cr_assert_geq(r[2].start_ps, r[1].end_ps);
	json_t *doc = stats(&s);
	cr_assert_null(json_object_get(doc, "concurrent"));
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(json_object_get(doc, "streams"), "1"),
						      "launches")), 2);
	json_decref(doc);
	warpsim_destroy(s.ws);
}

Test(api_batch, a_dependency_on_no_earlier_launch_runs_nothing)
{
	struct setup s;
	setup(&s, "on-gpu");
	static const uint32_t self[] = {0};
	struct warpsim_error err;
	cr_assert_eq(run_batch(&s, self, NULL, &err), WARPSIM_ERR_INPUT);
	cr_assert(strstr(err.message, "entry 0 waits for entry 0"), "%s", err.message);
	int q;
	cr_assert_eq(warpsim_read(s.ws, &q, s.q, sizeof q, &err), 0);
	cr_assert_eq(q, 3);
	warpsim_destroy(s.ws);
}
