/* SPDX-License-Identifier: MIT */
/* Tests for engine/stats.h: registration, per-kernel scopes, ratios, JSON round trip. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine/stats.h"

Test(stats, json_round_trip_of_every_kind)
{
	struct stats *s = stats_create();
	uint64_t hits = 0, accesses = 0;
	struct stat_avg lat = {0};
	struct stat_hist h;
	stats_counter(s, &hits, "count", "hits", "sm.%d.l1d.hits", 3);
	stats_counter(s, &accesses, "count", "accesses", "sm.%d.l1d.accesses", 3);
	stats_avg(s, &lat, "cycles", "latency", "sm.3.lat");
	cr_assert_eq(stats_hist(s, &h, 4, 10, "cycles", "hist", "sm.3.hist"), 0);
	stats_ratio(s, "sm.3.l1d.hits", "sm.3.l1d.accesses", 1.0, "", "hit rate", "sm.3.l1d.hit_rate");
	hits = 3;
	accesses = 4;
	stat_avg_add(&lat, 10);
	stat_avg_add(&lat, 20);
	stat_hist_add(&h, 5);
	stat_hist_add(&h, 15);
	stat_hist_add(&h, 95);
	char path[] = "/tmp/ws_stats_XXXXXX";
	int fd = mkstemp(path);
	close(fd);
	struct sim_error err;
	cr_assert_eq(stats_write_json(s, path, &err), 0);
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je);
	cr_assert_not_null(doc, "%s", je.text);
	json_t *t = json_object_get(doc, "total");
	cr_assert_eq(json_integer_value(json_object_get(t, "sm.3.l1d.hits")), 3);
	cr_assert_float_eq(json_real_value(json_object_get(t, "sm.3.lat")), 15.0, 1e-12);
	cr_assert_float_eq(json_real_value(json_object_get(t, "sm.3.l1d.hit_rate")), 0.75, 1e-12);
	json_t *hj = json_object_get(t, "sm.3.hist");
	cr_assert_eq(json_integer_value(json_array_get(json_object_get(hj, "bins"), 1)), 1);
	cr_assert_eq(json_integer_value(json_object_get(hj, "overflow")), 1);
	json_t *m = json_object_get(json_object_get(doc, "meta"), "sm.3.lat");
	cr_assert_str_eq(json_string_value(json_object_get(m, "unit")), "cycles");
	json_decref(doc);
	unlink(path);
	stats_destroy(s);
}

Test(stats, kernel_scope_holds_the_difference)
{
	struct stats *s = stats_create();
	uint64_t insts = 0, cycles = 0;
	stats_counter(s, &insts, "", "", "insts");
	stats_counter(s, &cycles, "", "", "cycles");
	stats_ratio(s, "insts", "cycles", 1.0, "", "ipc", "ipc");
	insts = 100;
	cycles = 100;
	stats_kernel_begin(s, "k2");
	insts += 300;
	cycles += 100;
	stats_kernel_end(s);
	char *txt = stats_to_json_string(s);
	json_t *doc = json_loads(txt, 0, NULL);
	json_t *k = json_array_get(json_object_get(doc, "kernels"), 0);
	cr_assert_str_eq(json_string_value(json_object_get(k, "name")), "k2");
	json_t *ks = json_object_get(k, "stats");
	cr_assert_eq(json_integer_value(json_object_get(ks, "insts")), 300);
	cr_assert_float_eq(json_real_value(json_object_get(ks, "ipc")), 3.0, 1e-12);
	cr_assert_float_eq(json_real_value(json_object_get(json_object_get(doc, "total"), "ipc")), 2.0, 1e-12);
	double v;
	cr_assert(stats_get_double(s, "ipc", &v));
	cr_assert_float_eq(v, 2.0, 1e-12);
	json_decref(doc);
	free(txt);
	stats_destroy(s);
}

/* A mean of two channels' ratios, as gpu.dram.blp: in a kernel's record over that kernel's
 * counters alone (channel 0: 30/10, channel 1 idle in the kernel -> left out: 3.0), in the
 * totals over everything ((40/20 + 10/10) / 2 = 1.5). Before, a derived value in a kernel record
 * was the running total at the kernel's end. */
static double mean_of_ratios(const void *ctx, const struct stats *st, bool kernel_scope)
{
	(void)ctx;
	static const char *const num[] = {"a.n", "b.n"}, *const den[] = {"a.d", "b.d"};
	double sum = 0;
	int n = 0;
	for (int i = 0; i < 2; i++) {
		uint64_t x, y;
		if (stats_get_u64_scope(st, num[i], kernel_scope, &x) &&
		    stats_get_u64_scope(st, den[i], kernel_scope, &y) && y) {
			sum += (double)x / (double)y;
			n++;
		}
	}
	return n ? sum / n : 0.0;
}

Test(stats, scoped_derived_values_are_per_kernel)
{
	struct stats *s = stats_create();
	uint64_t an = 10, ad = 10, bn = 10, bd = 10;
	stats_counter(s, &an, "", "", "a.n");
	stats_counter(s, &ad, "", "", "a.d");
	stats_counter(s, &bn, "", "", "b.n");
	stats_counter(s, &bd, "", "", "b.d");
	stats_derived_scoped(s, mean_of_ratios, NULL, "", "mean", "mean");
	stats_kernel_begin(s, "k");
	an += 30;
	ad += 10;
	stats_kernel_end(s);
	char *txt = stats_to_json_string(s);
	json_t *doc = json_loads(txt, 0, NULL);
	json_t *ks = json_object_get(json_array_get(json_object_get(doc, "kernels"), 0), "stats");
	cr_assert_float_eq(json_real_value(json_object_get(ks, "mean")), 3.0, 1e-12);
	cr_assert_float_eq(json_real_value(json_object_get(json_object_get(doc, "total"), "mean")), 1.5, 1e-12);
	json_decref(doc);
	free(txt);
	stats_destroy(s);
}

Test(stats, duplicate_name_is_an_internal_error, .signal = SIGABRT)
{
	struct stats *s = stats_create();
	uint64_t a = 0, b = 0;
	stats_counter(s, &a, "", "", "x");
	stats_counter(s, &b, "", "", "x");
}
