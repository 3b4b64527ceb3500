/* SPDX-License-Identifier: MIT */
/* cudart/ (libcudart.so.13) and `warpsim cuda`: our CUDA programs in tests/cuda/bin, built by
 * nvcc 13 (Makefile) and committed, run unchanged on the simulated GPU; their output, exit
 * status, error codes and stats.json are checked. Under the sanitizers WARPSIM_CUDA_PRELOAD
 * names their runtime (CMakeLists.txt): the programs are not instrumented, so it must be
 * preloaded for the instrumented libcudart to load. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "cuda_test.h"

Test(cuda, runtime_calls_of_every_kind)
{
	char *out = buf();
	cr_assert_eq(run_prog("api_calls", NULL, out), 0, "%s", out);
	cr_assert(strstr(out, "\nPASS\n"), "%s", out);
	cr_assert(strstr(out, "ok cudaMemGetInfo sees the allocations"), "%s", out);
	cr_assert(strstr(out, "ok the kernel took simulated time"), "%s", out);
	/* the configured machine (configs/gtx480*: gpu.name, 15 cores, 700 MHz, 6 channels of 8 B
	 * at 924 MHz x 4 transfers = 1848 MHz as CUDA counts, 6 x 2 x 64 KB L2, 1536 threads, 8 CTAs,
	 * 32768 registers, 48 KB shared per core), compute capability 7.5 whatever the machine */
	cr_assert(strstr(out, "device GeForce GTX 480 (warpsim): 15 SMs, 49152 bytes shared per block\n"), "%s", out);
	cr_assert(strstr(out, "identity: cc 7.5, clock 700000 kHz, memory 1848000 kHz, bus 384 bits, L2 "
			 "786432 B, 1536 threads 8 blocks 32768 registers 49152 B shared per SM\n"), "%s", out);
	/* device printf: two threads of each of two blocks, on the program's stdout */
	cr_assert(strstr(out, "device says 42 from thread 1 of block 1, pi 3.142\n"), "%s", out);
	/* the register count comes from the program's cubin (ptxas -arch=sm_75 says 12) */
	cr_assert(strstr(out, "stage uses 12 registers"), "%s", out);
	free(out);
}

Test(cuda, warp_level_operations)
{
	char *out = buf(), p[512];
	struct tmp t;
	tmp_init(&t);
	cr_assert_eq(run_prog("warp_ops", t.path, out), 0, "%s", out);
	cr_assert(strstr(out, "\nPASS\n"), "%s", out);
	json_t *doc = json_load_file(tmp_sub(&t, "stats.json", p, sizeof p), 0, NULL);
	cr_assert_not_null(doc);
	json_t *ks = json_object_get(doc, "kernels");
	cr_assert_eq(json_array_size(ks), 5);
	json_t *k3 = json_array_get(ks, 3);
	cr_assert_str_eq(json_string_value(json_object_get(k3, "name")),
			 "block_sum<float>(float const*, int, float*)");
	cr_assert_str_eq(json_string_value(json_object_get(k3, "ptx_name")), "_Z9block_sumIfEvPKT_iPS0_");
	cr_assert_eq(json_integer_value(json_object_get(k3, "launch")), 3);
	/* totals as sweeps read them: the sum of the launches */
	uint64_t sum = 0;
	for (size_t i = 0; i < 5; i++)
		sum += (uint64_t)json_integer_value(json_object_get(
			json_object_get(json_array_get(ks, i), "stats"), "gpu.cycles"));
	cr_assert_eq((uint64_t)json_integer_value(json_object_get(json_object_get(doc, "total"),
								  "gpu.cycles")), sum);
	json_decref(doc);
	tmp_fini(&t);
	free(out);
}

/* The reduction pattern of the samples' kernel 7 gives exact sums (inactive source lanes read
 * 0, frontend/NOTES.md; nvcc's registers here happen to hold 0 there anyway, so the check that
 * fails without the rule is tests/api's shfl_from_an_inactive_lane_gives_zero). Also the
 * three fat binary encodings: zstd (default), LZ4, none. */
Test(cuda, shuffle_from_inactive_lanes_reads_zero)
{
	char *out = buf();
	static const char *const progs[] = {"shfl_inactive", "shfl_inactive_lz4", "shfl_inactive_plain"};
	for (int i = 0; i < 3; i++) {
		cr_assert_eq(run_prog(progs[i], NULL, out), 0, "%s: %s", progs[i], out);
		cr_assert(strstr(out, "block 0 sum 257518 want 257518\n"), "%s", out);
	}
	free(out);
}

Test(cuda, texture_objects)
{
	char *out = buf();
	cr_assert_eq(run_prog("textures", NULL, out), 0, "%s", out);
	cr_assert(strstr(out, "1D: 0 mismatches\n") && strstr(out, "2D: 0 mismatches\n"), "%s", out);
	free(out);
}

Test(cuda, host_loop_of_several_kernels)
{
	char *out = buf();
	cr_assert_eq(run_prog("host_loop", NULL, out), 0, "%s", out);
	cr_assert(strstr(out, "rounds 4072 (host 4072), 0 points differ"), "%s", out);
	free(out);
}

Test(cuda, error_paths_return_cuda_codes)
{
	char *out = buf();
	/* it checks every code and exits 0, but warpsim cuda says 1: launches were refused (2048
	 * threads, grid.y, shared memory, after the fault) and one faulted */
	cr_assert_eq(run_prog("errors", NULL, out), 1, "%s", out);
	cr_assert(strstr(out, "warpsim cuda: 0 kernel launches (4 refused by the runtime, 1 faulted), "), "%s", out);
	cr_assert(strstr(out, "tests/cuda/bin/errors exited 0, but 4 launches were refused by the runtime "
			 "and 1 faulted: exit status 1\n"), "%s", out);
	static const char *const want[] = {
		"memcpy to a host pointer as device: 1 cudaErrorInvalidValue",
		"memcpy past the allocation: 1 cudaErrorInvalidValue",
		"bad copy kind: 21 cudaErrorInvalidMemcpyDirection",
		"free of a pointer inside an allocation: 1 cudaErrorInvalidValue",
		"launch with 2048 threads: 9 cudaErrorInvalidConfiguration",
		"launch with grid.y 70000: 9 cudaErrorInvalidConfiguration",
		"launch of an empty grid: 9 cudaErrorInvalidConfiguration",
		"launch with 32 KB static + 20000 B dynamic shared: 1 cudaErrorInvalidValue",
		"launch of a host function: 98 cudaErrorInvalidDeviceFunction",
		"symbol that is no device variable: 13 cudaErrorInvalidSymbol",
		"texture object over host memory: 1 cudaErrorInvalidValue",
		"unsupported call: 801 cudaErrorNotSupported",
		"state is clean before the fault: 0 cudaSuccess",
		"launch of the faulting kernel: 0 cudaSuccess",
		"synchronise after the fault: 700 cudaErrorIllegalAddress",
		"memcpy after the fault: 700 cudaErrorIllegalAddress",
		"warpsim cudart: cudaMallocManaged: not supported by warpsim",
		"warpsim cudart: kernel launch: touch(int*, int): block (2048,1,1) has 2048 threads",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		cr_assert(strstr(out, want[i]), "missing '%s' in:\n%s", want[i], out);
	free(out);
}

Test(cuda, missing_ptx_and_the_ptx_fallback)
{
	char *out = buf();
	cr_assert_eq(run_prog("sass_only", NULL, out), 1, "%s", out);
	cr_assert(strstr(out, "launch: 209 cudaErrorNoKernelImageForDevice"), "%s", out);
	cr_assert(strstr(out, "carries no PTX"), "%s", out);
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "WARPSIM_PTX=tests/cuda/bin/sass_only.ptx %s cuda -c "
		 "configs/gtx480.cfg -- tests/cuda/bin/sass_only", bin());
	cr_assert_eq(run_cuda(cmd, out), 0, "%s", out);
	cr_assert(strstr(out, "h[31] = 31"), "%s", out);
	free(out);
}

/* Without `warpsim cuda`: the library path and the configuration in the environment. */
Test(cuda, plain_environment_and_overrides)
{
	char *out = buf(), dir[1024], cmd[2048], p[512];
	struct tmp t;
	tmp_init(&t);
	snprintf(dir, sizeof dir, "%s", bin());
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof dir, ".");
	snprintf(cmd, sizeof cmd, "LD_LIBRARY_PATH=%s/lib WARPSIM_CONFIG=configs/gtx480.cfg "
		 "WARPSIM_OVERRIDES=gpu.core.count=2 WARPSIM_OUTDIR=%s "
		 "tests/cuda/bin/shfl_inactive", dir, t.path);
	cr_assert_eq(run_cuda(cmd, out), 0, "%s", out);
	cr_assert(strstr(out, "PASS"), "%s", out);
	FILE *f = fopen(tmp_sub(&t, "config.cfg", p, sizeof p), "r");
	cr_assert_not_null(f);
	size_t n = fread(out, 1, OUT_BYTES - 1, f);
	out[n] = '\0';
	fclose(f);
	cr_assert(strstr(out, "count = 2"), "%s", out);
	snprintf(cmd, sizeof cmd, "LD_LIBRARY_PATH=%s/lib tests/cuda/bin/shfl_inactive", dir);
	cr_assert_eq(run_cuda(cmd, out), 1, "%s", out);
	cr_assert(strstr(out, "set WARPSIM_CONFIG"), "%s", out);
	tmp_fini(&t);
	free(out);
}

Test(cuda, a_bad_configuration_fails_before_the_program)
{
	char *out = buf(), cmd[1024];
	snprintf(cmd, sizeof cmd, "%s cuda -c configs/gtx480.cfg -s gpu.core.count=0 -- "
		 "tests/cuda/bin/shfl_inactive", bin());
	cr_assert_eq(run_cuda(cmd, out), 2, "%s", out);
	cr_assert(strstr(out, "gpu.core.count") && !strstr(out, "block 0 sum"), "%s", out);
	free(out);
}

/* The whole of a text file into out (NUL-terminated). */
static void slurp(const char *path, char *out)
{
	FILE *f = fopen(path, "r");
	cr_assert_not_null(f, "%s", path);
	size_t n = fread(out, 1, OUT_BYTES - 1, f);
	out[n] = '\0';
	fclose(f);
}

/* results.csv's cell in column col of the row starting with row_start (-1: absent). */
static double csv_cell(const char *csv, const char *row_start, const char *col)
{
	const char *row = strstr(csv, row_start);
	if (!row)
		return -1;
	int idx = 0;
	const char *h = csv, *hit = NULL;
	size_t len = strlen(col);
	for (const char *p = h; *p && *p != '\n'; idx += *p == ',', p++)
		if ((p == h || p[-1] == ',') && !strncmp(p, col, len) && (p[len] == ',' || p[len] == '\n')) {
			hit = p;
			break;
		}
	if (!hit)
		return -1;
	const char *c = row;
	for (int i = 0; i < idx; i++)
		c = strchr(c, ',') + 1;
	return strtod(c, NULL);
}

static double total_of(const char *stats_json, const char *key)
{
	json_t *doc = json_load_file(stats_json, 0, NULL);
	cr_assert_not_null(doc, "%s", stats_json);
	double v = json_number_value(json_object_get(json_object_get(doc, "total"), key));
	json_decref(doc);
	return v;
}

/* tests/tools/sweep_app.cfg: { app = "tests/cuda/bin/host_loop"; name = "rod"; } beside a
 * workload file, one variant (gto); the application runs through `warpsim cuda` with the
 * variant's override, and results.csv has its totals as `warpsim cuda` itself gives them. */
Test(cuda, an_application_is_a_workload_of_a_sweep, .timeout = 120)
{
	char *out = buf(), cmd[2048], sw[512], direct[512], rd[1024], p[2048];
	struct tmp t;
	tmp_init(&t);
	tmp_sub(&t, "sweep", sw, sizeof sw);
	tmp_sub(&t, "direct", direct, sizeof direct);
	snprintf(rd, sizeof rd, "%s/app/gtx480/rod/gto", sw);
	snprintf(cmd, sizeof cmd, "%s sweep tests/tools/sweep_app.cfg --jobs 1 --out %s", bin(), sw);
	cr_assert_eq(run_cuda(cmd, out), 0, "%s", out);
	cr_assert(strstr(out, "2/2 runs done (0 already complete, 0 failed)"), "%s", out);
	snprintf(p, sizeof p, "%s/run.log", rd);
	slurp(p, out);
	cr_assert(strstr(out, "rounds 4072 (host 4072), 0 points differ") && strstr(out, "\nPASS\n"), "%s", out);
	snprintf(p, sizeof p, "%s/config.cfg", rd);
	slurp(p, out);
	cr_assert(strstr(out, "policy = \"gto\";  # <command line>"), "the variant's override: %s", out);
	/* the same program and machine by hand */
	snprintf(cmd, sizeof cmd, "%s cuda -c configs/gtx480.cfg -s gpu.core.scheduler.policy=gto "
		 "-o %s -- tests/cuda/bin/host_loop", bin(), direct);
	cr_assert_eq(run_cuda(cmd, out), 0, "%s", out);
	snprintf(p, sizeof p, "%s/stats.json", direct);
	double cyc = total_of(p, "gpu.cycles");
	double wi = total_of(p, "gpu.warp_insts");
	cr_assert_gt(cyc, 0);
	snprintf(p, sizeof p, "%s/app/results.csv", sw);
	slurp(p, out);
	cr_assert_eq(csv_cell(out, "\ngtx480,rod,gto,", "gpu.cycles"), cyc, "%s", out);
	cr_assert_eq(csv_cell(out, "\ngtx480,rod,gto,", "gpu.warp_insts"), wi, "%s", out);
	cr_assert_gt(csv_cell(out, "\ngtx480,vecadd,gto,", "gpu.cycles"), 0, "%s", out);
	/* both complete: a second sweep redoes neither */
	snprintf(cmd, sizeof cmd, "%s sweep tests/tools/sweep_app.cfg --jobs 1 --out %s", bin(), sw);
	cr_assert_eq(run_cuda(cmd, out), 0, "%s", out);
	cr_assert(strstr(out, "2/2 runs done (2 already complete, 0 failed)"), "%s", out);
	tmp_fini(&t);
	free(out);
}

/* A program that fails (here: no PTX, exit 1) leaves stats.failed.json, not stats.json, whose
 * presence marks a complete run for sweeps; nothing is left staged. */
Test(cuda, a_failed_program_leaves_no_stats_json)
{
	char *out = buf(), cmd[1024], p[512];
	struct tmp t;
	tmp_init(&t);
	const char *d = t.path;
	snprintf(cmd, sizeof cmd, "%s cuda -c configs/gtx480.cfg -o %s -- tests/cuda/bin/sass_only",
		 bin(), d);
	cr_assert_eq(run_cuda(cmd, out), 1, "%s", out);
	cr_assert(access(tmp_sub(&t, "stats.json", p, sizeof p), F_OK) != 0);
	cr_assert_eq(total_of(tmp_sub(&t, "stats.failed.json", p, sizeof p), "gpu.warp_insts"), 0);
	snprintf(cmd, sizeof cmd, "ls -A %s", d);
	cr_assert_eq(run(cmd, out), 0);
	cr_assert_str_eq(out, "config.cfg\ncta_timeline.csv\nstats.failed.json\n");
	/* the same directory, a program that passes: stats.json, and the old failure is gone */
	snprintf(cmd, sizeof cmd, "%s cuda -c configs/gtx480.cfg -o %s -- tests/cuda/bin/shfl_inactive",
		 bin(), d);
	cr_assert_eq(run_cuda(cmd, out), 0, "%s", out);
	snprintf(cmd, sizeof cmd, "ls -A %s", d);
	cr_assert_eq(run(cmd, out), 0);
	cr_assert_str_eq(out, "config.cfg\ncta_timeline.csv\nstats.json\n");
	tmp_fini(&t);
	free(out);
}

/* The kernel records of DIR/stats.json (a new reference; the caller decrefs the document). */
static json_t *kernels_of(const char *dir, json_t **doc)
{
	char p[512];
	snprintf(p, sizeof p, "%s/stats.json", dir);
	*doc = json_load_file(p, 0, NULL);
	cr_assert_not_null(*doc, "%s", p);
	return json_object_get(*doc, "kernels");
}

static double kstat(json_t *ks, size_t i, const char *key)
{
	return json_number_value(json_object_get(json_object_get(json_array_get(ks, i), "stats"), key));
}

/* radix_sort: 10000 keys in 79 blocks of 128 (the last holds 16), 8 passes of 3 kernels;
 * the program compares with the host's stable sort. */
Test(cuda, radix_sort_program, .timeout = 120)
{
	char *out = buf();
	struct tmp t;
	tmp_init(&t);
	cr_assert_eq(run_prog("radix_sort 10000", t.path, out), 0, "%s", out);
	cr_assert(strstr(out, "sorted 10000 keys (") && strstr(out, "in 8 passes, 24 launches, 79 blocks\n"), "%s",
		  out);
	cr_assert(strstr(out, ", 0 out of place, simulated time > 0\nPASS\n"), "%s", out);
	json_t *doc, *ks = kernels_of(t.path, &doc);
	cr_assert_eq(json_array_size(ks), 24);
	static const char *const names[] = {"digit_counts(unsigned int const*, int, int, unsigned int*)",
					    "scan_counts(unsigned int*, int)",
					    /* one name: -Wstring-concatenation (clang) suspects a
					     * missing comma between two literals in an array */
					    ("scatter(unsigned int const*, unsigned int const*, int, int, "
					     "unsigned int const*, unsigned int*, unsigned int*)")};
	for (size_t i = 0; i < 24; i++) {
		json_t *k = json_array_get(ks, i);
		cr_assert_str_eq(json_string_value(json_object_get(k, "name")), names[i % 3]);
		cr_assert_eq(json_integer_value(json_object_get(k, "launch")), (json_int_t)i);
		cr_assert_eq(kstat(ks, i, "gpu.ctas"), i % 3 == 1 ? 1 : 79, "launch %zu", i);
	}
	json_decref(doc);
	tmp_fini(&t);
	free(out);
}

/* kmeans: labels and centroids equal to the host's bit for bit; three launches a round. */
Test(cuda, kmeans_program, .timeout = 120)
{
	char *out = buf();
	struct tmp t;
	tmp_init(&t);
	cr_assert_eq(run_prog("kmeans", t.path, out), 0, "%s", out);
	int rounds = 0, hrounds = -1, launches = 0;
	const char *l = strstr(out, "4096 points, 8 clusters: ");
	cr_assert(l, "%s", out);
	cr_assert_eq(sscanf(l, "4096 points, 8 clusters: %d rounds (host %d), %d launches", &rounds, &hrounds,
			    &launches), 3, "%s", out);
	cr_assert(rounds > 1 && rounds == hrounds && launches == 3 * rounds, "%s", out);
	cr_assert(strstr(out, "\n0 labels and 0 centroids differ from the host's;") && strstr(out, "\nPASS\n"), "%s",
		  out);
	json_t *doc, *ks = kernels_of(t.path, &doc);
	cr_assert_eq(json_array_size(ks), (size_t)launches);
	/* assign and accumulate: 16 blocks of 256; divide: one block */
	for (size_t i = 0; i < (size_t)launches; i++)
		cr_assert_eq(kstat(ks, i, "gpu.ctas"), i % 3 == 2 ? 1 : 16, "launch %zu", i);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ks, 2), "name")),
			 "divide(float const*, float const*, int const*, int, float2*)");
	json_decref(doc);
	tmp_fini(&t);
	free(out);
}

/* cg_poisson: 7 launches an iteration after 2 (the first dot product), residual checked in
 * double precision on the host, solution compared with the host's own CG. */
Test(cuda, cg_poisson_program, .timeout = 120)
{
	char *out = buf();
	struct tmp t;
	tmp_init(&t);
	cr_assert_eq(run_prog("cg_poisson", t.path, out), 0, "%s", out);
	int it = 0, launches = 0;
	const char *l = strstr(out, "32x32 grid: ");
	cr_assert(l, "%s", out);
	cr_assert_eq(sscanf(l, "32x32 grid: %d iterations, %d launches", &it, &launches), 2, "%s", out);
	cr_assert(it > 10 && launches == 2 + 7 * it, "%s", out);
	cr_assert(strstr(out, "\nPASS\n"), "%s", out);
	json_t *doc, *ks = kernels_of(t.path, &doc);
	cr_assert_eq(json_array_size(ks), (size_t)launches);
	/* iteration 0: stencil on a 2x4 grid of 16x8 blocks, the templated dot product (16 blocks,
	 * through cudaLaunchKernel), finish, update_xr over 8 blocks of 128 */
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ks, 2), "name")),
			 "stencil(float const*, float*, int)");
	cr_assert_eq(kstat(ks, 2, "gpu.ctas"), 8);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ks, 3), "name")),
			 "dot_partial<float>(float const*, float const*, int, float*)");
	cr_assert_eq(kstat(ks, 3, "gpu.ctas"), 16);
	cr_assert_eq(kstat(ks, 4, "gpu.ctas"), 1);
	cr_assert_eq(kstat(ks, 5, "gpu.ctas"), 8);
	json_decref(doc);
	tmp_fini(&t);
	free(out);
}

/* The same kernel through the runtime and through a workload file gives the same simulation:
 * matmul_app 48 and `warpsim run -w workloads/matmul/matmul.cfg` (size small: n = 48) agree on
 * every total the sweeps read (the cubin's register count equals the workload's 38). */
Test(cuda, a_program_and_the_workload_of_its_kernel_simulate_alike, .timeout = 120)
{
	char *out = buf(), cmd[1024], pa[512], pb[512];
	struct tmp t;
	tmp_init(&t);
	cr_assert_eq(run_prog("matmul_app 48", tmp_sub(&t, "app", pa, sizeof pa), out), 0, "%s", out);
	cr_assert(strstr(out, "48x48 product, 0 elements differ from the host's\nPASS\n"), "%s", out);
	snprintf(cmd, sizeof cmd, "%s run -c configs/gtx480.cfg -w workloads/matmul/matmul.cfg --size small "
		 "--quiet --no-progress -o %s", bin(), tmp_sub(&t, "workload", pb, sizeof pb));
	cr_assert_eq(run_cuda(cmd, out), 0, "%s", out);
	json_t *a = json_load_file(tmp_sub(&t, "app/stats.json", pa, sizeof pa), 0, NULL);
	json_t *b = json_load_file(tmp_sub(&t, "workload/stats.json", pb, sizeof pb), 0, NULL);
	cr_assert(a && b);
	json_t *ta = json_object_get(a, "total"), *tb = json_object_get(b, "total");
	cr_assert_eq(json_integer_value(json_object_get(ta, "gpu.ctas")), 9);
	const char *key;
	json_t *v;
	int n = 0;
	json_object_foreach(tb, key, v) {
		if (strncmp(key, "gpu.", 4))
			continue;
		cr_assert(json_equal(v, json_object_get(ta, key)), "%s differs", key);
		n++;
	}
	cr_assert_gt(n, 10);
	json_decref(a);
	json_decref(b);
	tmp_fini(&t);
	free(out);
}

/* tests/cuda/misuse.cu: handles that are destroyed, made up or of the wrong kind, faults and
 * cudaDeviceReset after them; every case gives CUDA's code, none crashes or is accepted. Under
 * the sanitizers (WARPSIM_CUDA_PRELOAD) no path reads freed memory. */
Test(cuda, misuse_of_handles_and_reset_after_faults, .timeout = 120)
{
	char *out = buf(), p[512];
	struct tmp t;
	tmp_init(&t);
	cr_assert_eq(run_prog("misuse", t.path, out), 1, "%s", out);
	static const char *const want[] = {
		/* events */
		"record on a destroyed event: 400 cudaErrorInvalidResourceHandle invalid resource handle",
		"destroy of a destroyed event: 400 cudaErrorInvalidResourceHandle",
		"synchronise on a destroyed event: 400 cudaErrorInvalidResourceHandle",
		"query of a destroyed event: 400 cudaErrorInvalidResourceHandle",
		"record on a new event: 0 cudaSuccess",
		"record on the old event again: 400 cudaErrorInvalidResourceHandle",
		"elapsed time from a destroyed event: 400 cudaErrorInvalidResourceHandle",
		"record on a made-up event: 400 cudaErrorInvalidResourceHandle",
		"record on a host pointer as event: 400 cudaErrorInvalidResourceHandle",
		"record on a NULL event: 400 cudaErrorInvalidResourceHandle",
		"event with flags 0x80: 1 cudaErrorInvalidValue",
		"elapsed time to an event never recorded: 400 cudaErrorInvalidResourceHandle",
		"elapsed time of a timing-disabled event: 400 cudaErrorInvalidResourceHandle",
		"elapsed time of two live events: 0 cudaSuccess",
		/* streams */
		"synchronise on a destroyed stream: 400 cudaErrorInvalidResourceHandle",
		"query of a destroyed stream: 400 cudaErrorInvalidResourceHandle",
		"destroy of a destroyed stream: 400 cudaErrorInvalidResourceHandle",
		"copy on a destroyed stream: 400 cudaErrorInvalidResourceHandle",
		"launch on a destroyed stream: 400 cudaErrorInvalidResourceHandle",
		"record on a destroyed stream: 400 cudaErrorInvalidResourceHandle",
		"launch on a made-up stream: 400 cudaErrorInvalidResourceHandle",
		"memset on a made-up stream: 400 cudaErrorInvalidResourceHandle",
		"copy on a host pointer as stream: 400 cudaErrorInvalidResourceHandle",
		"destroy of the default stream: 400 cudaErrorInvalidResourceHandle",
		"an event as a stream: 400 cudaErrorInvalidResourceHandle",
		"a stream as an event: 400 cudaErrorInvalidResourceHandle",
		"wait on a destroyed event: 400 cudaErrorInvalidResourceHandle",
		"stream with flags 0x10: 1 cudaErrorInvalidValue",
		"copy on cudaStreamPerThread: 0 cudaSuccess",
		"memset on cudaStreamLegacy: 0 cudaSuccess",
		"launch on a live stream: 0 cudaSuccess",
		/* host buffers, texture objects */
		"free of a host buffer: 0 cudaSuccess",
		"free of a host buffer again: 1 cudaErrorInvalidValue",
		"host free of a device pointer: 1 cudaErrorInvalidValue",
		"host free of a stack pointer: 1 cudaErrorInvalidValue",
		"destroy of the texture object: 0 cudaSuccess",
		"destroy of the texture object again: 400 cudaErrorInvalidResourceHandle",
		"destroy of a made-up texture object: 400 cudaErrorInvalidResourceHandle",
		/* names */
		"name of 709: cudaErrorContextIsDestroyed / context is destroyed",
		"name of 715: cudaErrorIllegalInstruction / an illegal instruction was encountered",
		"name of 716: cudaErrorMisalignedAddress / misaligned address",
		"name of 718: cudaErrorInvalidPc / invalid program counter",
		"name of 999: cudaErrorUnknown / unknown error",
		"name of 12345: unrecognized error code / unrecognized error code",
		"name of -1: unrecognized error code / unrecognized error code",
		/* faults: the code, and a device that works after the reset */
		"misaligned: synchronise: 716 cudaErrorMisalignedAddress misaligned address",
		"trap: synchronise: 719 cudaErrorLaunchFailure",
		"assert: synchronise: 710 cudaErrorAssert",
		"out of bounds in a kernel named assert: synchronise: 700 cudaErrorIllegalAddress",
		"copy from an allocation made before the reset: 1 cudaErrorInvalidValue",
		"free of an allocation made before the reset: 1 cudaErrorInvalidValue",
		"record on an event made before the reset: 400 cudaErrorInvalidResourceHandle",
		"synchronise on a stream made before the reset: 400 cudaErrorInvalidResourceHandle",
		"destroy of a texture object made before the reset: 400 cudaErrorInvalidResourceHandle",
		"reset of a clean device: 0 cudaSuccess",
		"copy after the last reset: 0 cudaSuccess",
		"counter 5 6, after a reset 5\n",
		"reset at the end: 0 cudaSuccess",
		"\nPASS\n",
		/* messages name the call and the handle */
		"warpsim cudart: cudaEventRecord: event 0x1234 is no live event of this runtime",
		"warpsim cudart: kernel launch: stream 0x1234 is no live stream of this runtime",
		"warpsim cudart: cudaFreeHost: ",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		cr_assert(strstr(out, want[i]), "missing '%s' in:\n%s", want[i], out);
	static const char *const kinds[] = {"misaligned", "trap", "assert",
					    "out of bounds in a kernel named assert"};
	for (size_t i = 0; i < 4; i++) {
		static const char *const after[] = {"reset: 0 cudaSuccess",
						    "synchronise after the reset: 0 cudaSuccess",
						    "launch after the reset: 0 cudaSuccess",
						    "result after the reset (h[63] = 1): 0 cudaSuccess"};
		for (size_t j = 0; j < 4; j++) {
			snprintf(p, sizeof p, "\n%s: %s no error\n", kinds[i], after[j]);
			cr_assert(strstr(out, p), "missing '%s' in:\n%s", p, out);
		}
	}
	/* nothing else: every other report line is a refusal listed above */
	cr_assert(!strstr(out, "cudaErrorLaunchTimeout") && !strstr(out, "cudaErrorUnknown unknown"),
		  "%s", out);
	/* the program resets at its end: stats.json is the machine's that ran the last launch,
	 * and the launches before the reset are named, not silently gone */
	cr_assert(strstr(out, "the 11 launches before it are not in them"), "%s", out);
	/* stats.failed.json: warpsim cuda exits 1, launches having been refused and faulted */
	json_t *doc = json_load_file(tmp_sub(&t, "stats.failed.json", p, sizeof p), 0, NULL);
	cr_assert_not_null(doc);
	json_t *ks = json_object_get(doc, "kernels");
	cr_assert_eq(json_array_size(ks), 1);
	cr_assert_str_eq(json_string_value(json_object_get(json_array_get(ks, 0), "name")), "bump(int*)");
	/* the launches on a destroyed and on a made-up stream; the four faulting kernels */
	json_t *prov = json_object_get(doc, "provenance");
	cr_assert_eq(json_integer_value(json_object_get(prov, "launches_refused")), 2);
	cr_assert_eq(json_integer_value(json_object_get(prov, "launches_faulted")), 4);
	cr_assert_eq(json_integer_value(json_object_get(prov, "launches_before_reset_left_out")), 11);
	json_t *r1 = json_array_get(json_object_get(prov, "refused"), 1);
	cr_assert_str_eq(json_string_value(json_object_get(r1, "error")), "cudaErrorInvalidResourceHandle");
	cr_assert(strstr(json_string_value(json_object_get(r1, "message")), "stream 0x1234 is no live stream"));
	static const char *const faults[][2] = {
		{"misaligned(int*)", "cudaErrorMisalignedAddress"}, {"traps()", "cudaErrorLaunchFailure"},
		{"fails_assert(int)", "cudaErrorAssert"}, {"assert_trap_named(int*)", "cudaErrorIllegalAddress"}};
	for (size_t i = 0; i < 4; i++) {
		json_t *f = json_array_get(json_object_get(prov, "faulted"), i);
		cr_assert_str_eq(json_string_value(json_object_get(f, "kernel")), faults[i][0]);
		cr_assert_str_eq(json_string_value(json_object_get(f, "error")), faults[i][1]);
	}
	cr_assert_null(json_object_get(prov, "incomplete"));
	json_decref(doc);
	tmp_fini(&t);
	free(out);
}

/* WARPSIM_CONFIG and WARPSIM_OVERRIDES have no limit on their count: the 17th file and the
 * 200th line (each the last, which wins) reach the machine. */
Test(cuda, every_config_file_and_override_reaches_the_machine, .timeout = 60)
{
	char *out = buf(), dir[1024], p[512];
	struct tmp t;
	tmp_init(&t);
	snprintf(dir, sizeof dir, "%s", bin());
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof dir, ".");
	FILE *f = fopen(tmp_sub(&t, "last.cfg", p, sizeof p), "w");
	cr_assert_not_null(f);
	fprintf(f, "gpu: { core: { count = 3; }; };\n");
	fclose(f);
	size_t cap = 64 * 1024;
	char *cfgs = malloc(cap), *ovs = malloc(cap), *cmd = malloc(2 * cap);
	cr_assert(cfgs && ovs && cmd);
	cfgs[0] = ovs[0] = '\0';
	for (int i = 0; i < 16; i++)
		strcat(cfgs, "configs/gtx480.cfg:");
	strcat(cfgs, p);
	snprintf(cmd, 2 * cap, "LD_LIBRARY_PATH=%s/lib WARPSIM_CONFIG=%s WARPSIM_OUTDIR=%s "
		 "tests/cuda/bin/shfl_inactive", dir, cfgs, t.path);
	cr_assert_eq(run_cuda(cmd, out), 0, "%s", out);
	slurp(tmp_sub(&t, "config.cfg", p, sizeof p), out);
	cr_assert(strstr(out, "count = 3;"), "the 17th file: %s", out);
	/* 199 lines of one value, then the 200th of another; an empty line is no entry */
	for (int i = 0; i < 199; i++)
		strcat(ovs, i == 100 ? "gpu.core.count=2\n\n" : "gpu.core.count=2\n");
	strcat(ovs, "gpu.core.count=5");
	snprintf(cmd, 2 * cap, "LD_LIBRARY_PATH=%s/lib WARPSIM_CONFIG=configs/gtx480.cfg "
		 "WARPSIM_OVERRIDES='%s' WARPSIM_OUTDIR=%s tests/cuda/bin/shfl_inactive", dir, ovs,
		 t.path);
	cr_assert_eq(run_cuda(cmd, out), 0, "%s", out);
	slurp(tmp_sub(&t, "config.cfg", p, sizeof p), out);
	cr_assert(strstr(out, "count = 5;"), "the 200th override: %s", out);
	free(cfgs), free(ovs), free(cmd);
	tmp_fini(&t);
	free(out);
}

/* runtime_more (and the same source built with --default-stream per-thread, which calls the
 * _ptsz/_ptds entry points): the occupancy figures against hand-computed ones on
 * configs/gtx480.cfg (warp 32, 1536 threads, 48 warps, 8 CTAs, 32768 registers, 48 KB shared
 * per core, 15 cores; registers are allocated per whole warp, as the CTA dispatcher does). The
 * register counts are the program's sm_75 cubin's (ptxas -v: many_regs 54, shared_8k 10). */
static void check_runtime_more(const char *prog)
{
	char *out = buf();
	cr_assert_eq(run_prog(prog, NULL, out), 0, "%s", out);
	cr_assert(strstr(out, "\nPASS\n"), "%s", out);
	static const char *const want[] = {
		/* shared_8k, 8192 B static: 49152 / 8192 = 6 blocks bind before threads 1536/128 =
		 * 12, warps 48/4 = 12, registers 32768/(128*10) = 25 and the 8 CTAs */
		"value shared_8k.128.0 6\n",
		/* + 8192 dynamic: 49152 / 16384 = 3 */
		"value shared_8k.128.8192 3\n",
		/* 1536 / 1024 threads = 1 */
		"value shared_8k.1024.0 1\n",
		/* 33 threads take 2 warps: 48/2 = 24 by warps, 6 by shared memory */
		"value shared_8k.33.0 6\n",
		/* many_regs, 54 registers: one warp takes 1728, 32768/1728 = 18 blocks > 8 CTAs */
		"value many_regs.32.0 8\n",
		/* 256 threads take 13824 registers: 32768/13824 = 2 */
		"value many_regs.256.0 2\n",
		/* over its maxThreadsPerBlock (576): cannot launch, 0 blocks */
		"value many_regs.1024.0 0\n",
		/* the header's search from 576 down by 32: 18 warps x 1 block = 576 threads is the
		 * most any size reaches (9 warps x 2, 6 x 3, 3 x 6 equal it, 2 x 8 = 512 does not);
		 * the first, 576, wins; min grid 1 x 15 cores */
		"value many_regs.potential 15 576\n",
		/* from 1024 down: 768 threads (24 warps) x 2 blocks = 1536, the core's whole thread
		 * count, the first size to reach it; min grid 2 x 15 */
		"value shared_8k.potential 30 768\n",
		/* 4 blocks of 128 fit by threads, warps, registers and CTAs; 49152 / 4 - 8192 static */
		"value shared_8k.avail.4.128 4096\n",
		/* registers: 32768 / (54 x 32) = 18 warps = 576 threads */
		"value many_regs.regs 54 max_threads 576\n",
		/* 32768 / (10 x 32) = 102 warps; 48 warps per core, then the device's 1024 */
		"value shared_8k.regs 10 max_threads 1024 shared 8192\n",
		"value max_blocks_per_sm 8\n",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		cr_assert(strstr(out, want[i]), "%s: no '%s' in\n%s", prog, want[i], out);
	/* an unimplemented call fails every time but names itself once */
	const char *msg = "warpsim cudart: cudaDeviceCanAccessPeer: not supported by warpsim\n";
	const char *first = strstr(out, msg);
	cr_assert(first && !strstr(first + 1, msg), "%s", out);
	free(out);
}

Test(cuda, calls_of_libraries_occupancy_callbacks_pools, .timeout = 60)
{
	check_runtime_more("runtime_more");
}

Test(cuda, calls_of_the_per_thread_default_stream, .timeout = 60)
{
	check_runtime_more("runtime_more_ptds");
}

/* The library's dynamic symbols, "name@@version" a line, sorted, in out; 0 if nm ran. */
static int exports_of(const char *lib, char *out)
{
	char cmd[2048];
	snprintf(cmd, sizeof cmd, "nm -D --defined-only --with-symbol-versions '%s' | "
		 "awk '$2 == \"T\" { print $3 }' | LC_ALL=C sort", lib);
	return run(cmd, out);
}

/* cudart/exports.txt as exports_of prints a library exporting it at version libcudart.so.13. */
static void exports_listed(char *out)
{
	cr_assert_eq(run("grep -v '^#' cudart/exports.txt | sed 's/$/@@libcudart.so.13/' | "
			 "LC_ALL=C sort", out), 0, "%s", out);
}

static void our_lib(char *path, size_t n)
{
	/* the library is built beside the warpsim binary, in lib/ */
	const char *b = bin(), *slash = strrchr(b, '/');
	int dir = slash ? (int)(slash - b) : 1;
	cr_assert_lt((size_t)snprintf(path, n, "%.*s/lib/libcudart.so.13", dir, slash ? b : "."), n);
}

Test(cuda, graphs_by_stream_capture, .timeout = 60)
{
	char *out = buf();
	cr_assert_eq(run_prog("graphs", NULL, out), 0, "%s", out);
	cr_assert(strstr(out, "\nPASS\n"), "%s", out);
	/* one launch before the capture, then 3 graph launches of 3 kernels each */
	cr_assert(strstr(out, "warpsim cuda: 10 kernel launches"), "%s", out);
	free(out);
}

Test(cuda, exports_every_function_of_the_list)
{
	char *ours = buf(), *listed = buf(), lib[1024];
	if (run("command -v nm", ours))
		cr_skip_test("no nm (binutils) to list the library's exports with");
	our_lib(lib, sizeof lib);
	cr_assert_eq(exports_of(lib, ours), 0, "%s", ours);
	exports_listed(listed);
	cr_assert_str_eq(ours, listed, "our libcudart.so.13's functions differ from cudart/exports.txt");
	free(ours);
	free(listed);
}

Test(cuda, the_list_is_the_toolkits_exports)
{
	const char *home = getenv("CUDA_HOME");
	char lib[1024];
	snprintf(lib, sizeof lib, "%s/lib64/libcudart.so.13", home && *home ? home : "/usr/local/cuda");
	if (access(lib, R_OK))
		cr_skip_test("no CUDA toolkit's %s to compare cudart/exports.txt with (set CUDA_HOME)",
			     lib);
	char *real = buf(), *listed = buf();
	if (run("command -v nm", real))
		cr_skip_test("no nm (binutils) to list %s's exports with", lib);
	cr_assert_eq(exports_of(lib, real), 0, "%s", real);
	exports_listed(listed);
	cr_assert_str_eq(real, listed, "%s exports other functions than cudart/exports.txt lists: "
			 "rerun its nm line and cudart/gen_unsupported.sh", lib);
	free(real);
	free(listed);
}
