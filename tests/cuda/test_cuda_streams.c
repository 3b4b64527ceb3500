/* SPDX-License-Identifier: MIT */
/* Concurrent streams (cudart/cuda_streams.c, gpu.cta_dispatcher.concurrent_kernels): the
 * program tests/cuda/bin/streams (streams.cu) launches one-CTA kernels that spin on clock64 for
 * C = 20000 cycles in several streams, under each setting. Figures computed by hand:
 * - four kernels in four streams between two events of the legacy stream: off runs them one
 *   after another, so the events are at least 4C apart (each kernel spins C) and at most
 *   4 x 1000 cycles of start, store and drain more; on-gpu puts them on SMs 0..3 at once, so
 *   the events are C to C + 1000 apart, and the spins (all beginning the same cycle, ending
 *   within one loop iteration of C) span C to C + 100;
 * - a stream query with a kernel queued says cudaErrorNotReady (600) on-gpu; off, the kernel
 *   ran in its launch call and the stream is done (0);
 * - independent streams and a cudaStreamNonBlocking stream beside the legacy one overlap
 *   on-gpu, never off. Stream order, event waits and the legacy stream's rule are checked by
 *   the program in both. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "cuda_test.h"

#define C 20000LL

static long long value(const char *out, const char *name)
{
	char key[96];
	snprintf(key, sizeof key, "value %s ", name);
	const char *p = strstr(out, key);
	cr_assert_not_null(p, "no %s in:\n%s", name, out);
	return atoll(p + strlen(key));
}

static void run_streams(const char *mode, const char *dir, char *out)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "%s cuda -c configs/gtx480.cfg -s gpu.cta_dispatcher.concurrent_kernels=%s "
		 "-o %s -- tests/cuda/bin/streams", bin(), mode, dir);
	cr_assert_eq(run_cuda(cmd, out), 0, "%s", out);
	cr_assert(strstr(out, "\nPASS\n"), "%s", out);
}

Test(cuda_streams, off_runs_one_kernel_at_a_time, .timeout = 120)
{
	char *out = buf();
	struct tmp t;
	tmp_init(&t);
	run_streams("off", t.path, out);
	long long el = value(out, "elapsed_cycles"), span = value(out, "spin_span_cycles");
	cr_assert(el >= 4 * C && el < 4 * C + 4000, "elapsed %lld\n%s", el, out);
	cr_assert(span >= 4 * C && span < 4 * C + 4000, "span %lld\n%s", span, out);
	cr_assert_eq(value(out, "stream_query_while_queued"), 0);
	cr_assert(strstr(out, "order streams_overlap no\n") && strstr(out, "order independent_overlap no\n") &&
		  strstr(out, "order nonblocking_beside_legacy no\n"), "%s", out);
	/* nothing of the concurrent mode in the statistics */
	char p[512];
	json_t *doc = json_load_file(tmp_sub(&t, "stats.json", p, sizeof p), 0, NULL);
	cr_assert_not_null(doc);
	cr_assert_null(json_object_get(doc, "concurrent"));
	cr_assert_null(json_object_get(doc, "streams"));
	cr_assert_eq(json_array_size(json_object_get(doc, "kernels")), 13);
	json_decref(doc);
	tmp_fini(&t);
	free(out);
}

Test(cuda_streams, on_gpu_runs_streams_side_by_side, .timeout = 120)
{
	char *out = buf();
	struct tmp t;
	tmp_init(&t);
	run_streams("on-gpu", t.path, out);
	long long el = value(out, "elapsed_cycles"), span = value(out, "spin_span_cycles");
	cr_assert(el >= C && el < C + 1000, "elapsed %lld\n%s", el, out);
	cr_assert(span >= C && span < C + 100, "span %lld\n%s", span, out);
	cr_assert_eq(value(out, "stream_query_while_queued"), 600);
	cr_assert(strstr(out, "order streams_overlap yes\n") && strstr(out, "order independent_overlap yes\n") &&
		  strstr(out, "order nonblocking_beside_legacy yes\n"), "%s", out);
	/* the closing line counts the streams and the launches that ran side by side */
	cr_assert(strstr(out, "warpsim cuda: 13 kernel launches (6 streams, 13 side by side in 3 batches)"),
		  "%s", out);
	char p[512];
	json_t *doc = json_load_file(tmp_sub(&t, "stats.json", p, sizeof p), 0, NULL);
	cr_assert_not_null(doc);
	json_t *ks = json_object_get(doc, "kernels");
	cr_assert_eq(json_array_size(ks), 13);
	/* batch 1: the four kernels start at cycle 0, one CTA on one SM each */
	for (size_t i = 0; i < 4; i++) {
		json_t *st = json_object_get(json_array_get(ks, i), "stats");
		cr_assert_eq(json_integer_value(json_object_get(st, "gpu.start_cycle")), 0);
		cr_assert_eq(json_integer_value(json_object_get(st, "gpu.sms_used")), 1);
		cr_assert_eq(json_integer_value(json_object_get(st, "gpu.ctas")), 1);
		cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ks, i), "mode")), "timing");
	}
	/* batch 2: kernel 5 (record 5) starts the cycle after kernel 4 (record 4) ends, in the
	 * same stream; kernel 7 the cycle after kernel 6's event */
	json_t *k4 = json_object_get(json_array_get(ks, 4), "stats"), *k5 = json_object_get(json_array_get(ks, 5), "stats");
	cr_assert_eq(json_integer_value(json_object_get(k5, "gpu.start_cycle")),
		     json_integer_value(json_object_get(k4, "gpu.end_cycle")));
	json_t *k6 = json_object_get(json_array_get(ks, 6), "stats"), *k7 = json_object_get(json_array_get(ks, 7), "stats");
	cr_assert_eq(json_integer_value(json_object_get(k7, "gpu.start_cycle")),
		     json_integer_value(json_object_get(k6, "gpu.end_cycle")));
	/* three batches of 4, 5 and 4 launches; gpu.cycles counts their spans once */
	json_t *cc = json_object_get(doc, "concurrent");
	cr_assert_eq(json_array_size(cc), 3);
	long long spans = 0;
	for (size_t b = 0; b < 3; b++) {
		json_t *e = json_array_get(cc, b);
		cr_assert_eq(json_integer_value(json_object_get(e, "launches")), b == 1 ? 5 : 4);
		spans += json_integer_value(json_object_get(e, "end_cycle")) -
			 json_integer_value(json_object_get(e, "start_cycle"));
	}
	json_t *tot = json_object_get(doc, "total");
	cr_assert_eq(json_integer_value(json_object_get(tot, "gpu.cycles")), spans);
	cr_assert_eq(json_integer_value(json_object_get(tot, "gpu.kernels")), 13);
	cr_assert_eq(json_integer_value(json_object_get(tot, "gpu.ctas")), 13);
	/* per stream: the legacy stream (0) ran one launch, the non-blocking stream one */
	json_t *streams = json_object_get(doc, "streams");
	cr_assert_eq(json_object_size(streams), 6);
	cr_assert_eq(json_integer_value(json_object_get(json_object_get(streams, "0"), "launches")), 1);
	json_decref(doc);
	tmp_fini(&t);
	free(out);
}

Test(cuda_streams, same_input_same_statistics, .timeout = 120)
{
	char *out = buf(), a[300], b[300], cmd[2400];
	struct tmp t;
	tmp_init(&t);
	run_streams("on-gpu", tmp_sub(&t, "a", a, sizeof a), out);
	run_streams("on-gpu", tmp_sub(&t, "b", b, sizeof b), out);
	snprintf(cmd, sizeof cmd, "for d in %s %s; do sed '/^ \"provenance\": {$/,/^ },$/d' $d/stats.json "
		 "> $d/s; done; cmp %s/s %s/s && cmp %s/cta_timeline.csv %s/cta_timeline.csv", a, b, a, b, a, b);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	tmp_fini(&t);
	free(out);
}
