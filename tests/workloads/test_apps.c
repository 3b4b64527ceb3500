/* SPDX-License-Identifier: MIT */
/* workloads/apps/ (the public-program collection): warpsim-appgen's generators (exact output,
 * determinism, refusals), scripts/apps.sh's reading of the manifest (the real one and broken
 * ones), and a fixture suite of our own end to end, offline: fetch from a local git repository
 * at its pinned commit, inputs, a run under `warpsim cuda` with the program's own check, the
 * status table and sweep entries. The fixture's program is tests/cuda/bin/host_loop. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "../cuda/cuda_test.h"

#include <sys/stat.h>

/* build/warpsim-appgen, beside the warpsim that ctest names */
static void appgen_path(char *buf, size_t n)
{
	const char *ws = getenv("WARPSIM_BIN");
	cr_assert(ws && *ws, "WARPSIM_BIN not set (run under ctest)");
	const char *slash = strrchr(ws, '/');
	int len = slash ? (int)(slash - ws) : 1;
	snprintf(buf, n, "%.*s/warpsim-appgen", len, slash ? ws : ".");
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	char *buf = malloc(1 << 20);
	cr_assert_not_null(buf);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* appgen KIND into dir/name with the given seed and arguments; returns the exit status. */
static int gen(const struct tmp *t, const char *name, const char *kind, const char *seed_args, char *out)
{
	char g[512], cmd[2048];
	appgen_path(g, sizeof g);
	snprintf(cmd, sizeof cmd, "'%s' %s '%s/%s' %s", g, kind, t->path, name, seed_args);
	return run(cmd, out);
}

Test(appgen, exact_output_where_the_values_are_fixed)
{
	struct tmp t;
	tmp_init(&t);
	char out[OUT_BYTES], path[512];
	size_t n;
	/* lo = hi: every value is 5,000,000 millionths */
	cr_assert_eq(gen(&t, "g", "grid-floats", "7 1 2 5000000 5000000", out), 0, "%s", out);
	snprintf(path, sizeof path, "%s/g", t.path);
	char *s = slurp(path, &n);
	cr_assert_str_eq(s, "5\n5\n");
	free(s);
	/* 2 nodes of degree 1 (uniform in [1, 2*1-1]): the offsets and counts are fixed, the two
	 * edges follow (destination < 2, cost 1..10) */
	cr_assert_eq(gen(&t, "b", "bfs-graph", "3 2 1", out), 0, "%s", out);
	snprintf(path, sizeof path, "%s/b", t.path);
	s = slurp(path, &n);
	cr_assert_eq(strncmp(s, "2\n0 1\n1 1\n\n0\n\n2\n", 16), 0, "%s", s);
	int d0, c0, d1, c1;
	cr_assert_eq(sscanf(s + 16, "%d %d\n%d %d\n", &d0, &c0, &d1, &c1), 4, "%s", s);
	cr_assert(d0 >= 0 && d0 < 2 && d1 >= 0 && d1 < 2 && c0 >= 1 && c0 <= 10 && c1 >= 1 && c1 <= 10);
	free(s);
	/* the IDX3 header: magic 2051, count, 28 x 28, big-endian; then 784 bytes an image */
	cr_assert_eq(gen(&t, "i", "idx3-images", "1 3", out), 0, "%s", out);
	snprintf(path, sizeof path, "%s/i", t.path);
	s = slurp(path, &n);
	static const unsigned char hdr[16] = {0, 0, 8, 3, 0, 0, 0, 3, 0, 0, 0, 28, 0, 0, 0, 28};
	cr_assert_eq(n, 16 + 3 * 784);
	cr_assert_eq(memcmp(s, hdr, 16), 0);
	free(s);
	tmp_fini(&t);
}

Test(appgen, same_seed_same_bytes_other_seed_other_bytes)
{
	static const char *const kinds[][2] = {
		{"kmeans-points", "64 34"}, {"cfd-domain", "300"}, {"weblog-count", "100"},
		{"sad-image", "32 16 3"},   {"pqr-atoms", "50 20"}, {"mtx-matrix", "40 5"},
	};
	struct tmp t;
	tmp_init(&t);
	char out[OUT_BYTES], a[512], b[512], c[512], args[64];
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		snprintf(args, sizeof args, "11 %s", kinds[k][1]);
		cr_assert_eq(gen(&t, "a", kinds[k][0], args, out), 0, "%s: %s", kinds[k][0], out);
		cr_assert_eq(gen(&t, "b", kinds[k][0], args, out), 0, "%s", out);
		snprintf(args, sizeof args, "12 %s", kinds[k][1]);
		cr_assert_eq(gen(&t, "c", kinds[k][0], args, out), 0, "%s", out);
		snprintf(a, sizeof a, "%s/a", t.path);
		snprintf(b, sizeof b, "%s/b", t.path);
		snprintf(c, sizeof c, "%s/c", t.path);
		size_t na, nb, nc;
		char *sa = slurp(a, &na), *sb = slurp(b, &nb), *sc = slurp(c, &nc);
		cr_assert(na > 0 && na == nb && memcmp(sa, sb, na) == 0, "%s: seed 11 twice differs", kinds[k][0]);
		cr_assert(na != nc || memcmp(sa, sc, na) != 0, "%s: seeds 11 and 12 give the same bytes", kinds[k][0]);
		free(sa), free(sb), free(sc);
	}
	tmp_fini(&t);
}

Test(appgen, refuses_bad_arguments_with_status_2)
{
	struct tmp t;
	tmp_init(&t);
	char out[OUT_BYTES];
	cr_assert_eq(gen(&t, "x", "no-such-kind", "1 2", out), 2);
	cr_assert(strstr(out, "unknown kind 'no-such-kind'"), "%s", out);
	cr_assert_eq(gen(&t, "x", "bfs-graph", "1 10", out), 2); /* DEGREE missing */
	cr_assert(strstr(out, "bfs-graph takes OUTPUT SEED NODES DEGREE"), "%s", out);
	cr_assert_eq(gen(&t, "x", "bfs-graph", "1 10 4x", out), 2);
	cr_assert(strstr(out, "argument 2 '4x'"), "%s", out);
	cr_assert_eq(gen(&t, "x", "bfs-graph", "-1 10 4", out), 2);
	cr_assert(strstr(out, "SEED '-1'"), "%s", out);
	cr_assert_eq(gen(&t, "x", "bfs-graph", "1 10 0", out), 2); /* degree 0 */
	cr_assert(strstr(out, "argument 2 is 0, outside [1, 1048576]"), "%s", out);
	cr_assert_eq(gen(&t, "x", "kmeans-points", "1 10 65", out), 2);
	cr_assert(strstr(out, "argument 2 is 65, outside [1, 64]"), "%s", out);
	cr_assert_eq(gen(&t, "x", "grid-floats", "1 2 2 5 4", out), 2);
	cr_assert(strstr(out, "HI_MICRO 4 is below LO_MICRO 5"), "%s", out);
	tmp_fini(&t);
}

/* the committed manifest: every row well formed, and `list` shows each once */
Test(apps_manifest, the_committed_manifest_lists_every_program)
{
	struct tmp t;
	tmp_init(&t);
	char out[OUT_BYTES], cmd[1024];
	snprintf(cmd, sizeof cmd, "WARPSIM_APPS_DIR='%s' scripts/apps.sh list", t.path);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	size_t len;
	char *m = slurp("workloads/apps/apps.tsv", &len);
	int rows = 0, listed = 0;
	for (char *line = strtok(m, "\n"); line; line = strtok(NULL, "\n"))
		if (line[0] != '#') {
			char id[128];
			cr_assert_eq(sscanf(line, "%127[^\t]", id), 1);
			char want[160];
			snprintf(want, sizeof want, "\n%s ", id);
			cr_assert(strstr(out, want), "%s not listed", id);
			rows++;
		}
	for (const char *p = out; (p = strstr(p, "\n")) != NULL; p++)
		if (p[1] && p[1] != ' ')
			listed++;
	cr_assert_eq(listed, rows, "%d lines listed, %d rows", listed, rows);
	cr_assert_geq(rows, 50);
	free(m);
	tmp_fini(&t);
}

/* a broken manifest is refused with its file and line, exit status 2 */
static void refused(const char *row, const char *why)
{
	struct tmp t;
	tmp_init(&t);
	char path[512], out[OUT_BYTES], cmd[1024];
	snprintf(path, sizeof path, "%s/apps.tsv", t.path);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "# header\na/ok\tP:X\t-\t-\t-\t-\t.\tnone\t-\n%s\n", row);
	fclose(f);
	snprintf(cmd, sizeof cmd, "APPS_MANIFEST='%s' WARPSIM_APPS_DIR='%s' scripts/apps.sh list", path, t.path);
	cr_assert_eq(run(cmd, out), 2, "%s", out);
	char want[640];
	snprintf(want, sizeof want, "%s:3: %s", path, why);
	cr_assert(strstr(out, want), "wanted '%s' in: %s", want, out);
	tmp_fini(&t);
}

Test(apps_manifest, refuses_broken_rows)
{
	refused("a/b\tP:X\t-\t-\t-\t-\t.\tnone", "8 fields, expected 9");
	refused("a/ok\tP:X\t-\t-\t-\t-\t.\tnone\t-", "id \"a/ok\" appears twice");
	refused("ab\tP:X\t-\t-\t-\t-\t.\tnone\t-", "id \"ab\" is not suite/program");
	refused("a/c\tP:X\t-\t-\t-\t-\t.\tmaybe\t-", "check \"maybe\" is not exit, none or grep:REGEX");
	refused("a/c\tP:X\t\t-\t-\t-\t.\tnone\t-", "field 3 is empty");
}

/* scripts/apps-owl-table2.sh --set: a KEY=VALUE that could not name a run folder is refused with
 * exit status 2 before anything runs (the value becomes part of the folder's name). */
Test(apps_owl_table2, set_refuses_what_is_not_key_equals_value)
{
	static const char *const bad[] = {"gpu.l2.write_ack", "=true", "gpu.l2.write_ack=a/b", "Gpu.x=1", "gpu.x=a b"};
	char out[OUT_BYTES], cmd[512];
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(cmd, sizeof cmd, "WARPSIM_APPS_DIR=/nonexistent scripts/apps-owl-table2.sh --set '%s' --no-run", bad[i]);
		cr_expect_eq(run(cmd, out), 2, "%s: %s", bad[i], out);
		cr_expect(strstr(out, "--set takes KEY=VALUE"), "%s: %s", bad[i], out);
	}
}

/* scripts/apps-owl-table2.sh --cap-for: what is not suite/program=count is refused with exit
 * status 2 before anything runs (the count names the folder its runs are kept in). */
Test(apps_owl_table2, cap_for_refuses_what_is_not_id_equals_count)
{
	static const char *const bad[] = {"mars/SimilarityScore", "SSC=1000", "mars/SimilarityScore=1e9",
					  "mars/SimilarityScore=", "=1000", "a/b/c=10"};
	char out[OUT_BYTES], cmd[512];
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(cmd, sizeof cmd, "WARPSIM_APPS_DIR=/nonexistent scripts/apps-owl-table2.sh --cap-for '%s' --no-run", bad[i]);
		cr_expect_eq(run(cmd, out), 2, "%s: %s", bad[i], out);
		cr_expect(strstr(out, "--cap-for takes ID=N"), "%s: %s", bad[i], out);
	}
}

/* scripts/apps-owl-table2.sh --bounds-of: what bounds a run, from a hand-made run folder. Reads
 * 45 hits of 50: 90%. Reply flits: (8 B header + 64 B line) / 32 B = 3 a read, 50 reads and
 * atomics sent = 150, plus 10 writes sent less 5 unacked = 5 acks: 155 over 200 core cycles = 100
 * NoC cycles x 4 MCs = 38.75 -> 39%. Pipeline: 32 / 8 = 4 cycles x 70 issues / 400 core cycles =
 * 70%. MSHRs full: 40 of 400 cycles = 10%. The decoys (icache and L2 line_bytes, ifetch_cycles)
 * must not be read. The mesh's ends (100 NoC and L2 cycles): slices held 24 of 4 x 100 = 6%;
 * replies refused 80 of 400 = 20%; cores' misses refused 60 of 400 core cycles = 15%; each core's
 * ejection, 3 flits x its reads and atomics (no acks: write_ack false) over 100 NoC cycles,
 * sm.0 3 x 32 = 96%, sm.1 3 x 18 = 54%, mean 75%; the MCs' request ejection, 250 flits ejected
 * less 150 reply flits over 4 x 100 = 25%. */
Test(apps_owl_table2, bounds_of_a_hand_made_run)
{
	struct tmp t;
	tmp_init(&t);
	char out[OUT_BYTES], cmd[4096];
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && printf '%%s\\n' '# resolved' 'gpu = {' '  core = {' '    clock_mhz = 1300;  # c:1'"
		 " '    icache = {' '      line_bytes = 128;' '    };' '    simt_width = 8;' '    warp_size = 32;' '  };'"
		 " '  dram = {' '    channels = 4;' '    clock_mhz = 800;' '  };' '  l2 = {' '    clock_mhz = 650;'"
		 " '    line_bytes = 128;' '    reply_header_bytes = 8;' '    write_ack = false;' '  };' '  memory = {' '    l1d = {'"
		 " '      line_bytes = 64;' '    };' '  };' '  noc = {' '    channel_bytes = 32;' '    clock_mhz = 650;'"
		 " '  };' '};' > config.cfg && printf '%%s' '{\"total\": {\"l2.0.read_hits\": 30, \"l2.1.read_hits\": 15,"
		 " \"l2.0.read_misses\": 3, \"l2.1.read_misses\": 2, \"gpu.dram.utilisation\": 0.254,"
		 " \"sm.0.mem.reads_sent\": 30, \"sm.1.mem.reads_sent\": 18, \"sm.0.mem.atomics_sent\": 2,"
		 " \"sm.0.mem.writes_sent\": 6, \"sm.1.mem.writebacks_sent\": 4, \"l2.0.unacked_writes\": 3,"
		 " \"l2.1.unacked_writes\": 2, \"gpu.cycles\": 200, \"gpu.issue_core_cycles\": 70, \"gpu.core_cycles\": 400,"
		 " \"sm.0.mem.mshr_stall_cycles\": 30, \"sm.1.mem.mshr_stall_cycles\": 10, \"sm.0.cycles\": 200,"
		 " \"sm.1.cycles\": 200, \"sm.0.mem.ifetch_cycles\": 77, \"l2.0.stall_cycles\": 20, \"l2.1.stall_cycles\": 4,"
		 " \"l2.0.noc_refused\": 50, \"l2.1.noc_refused\": 30, \"sm.0.mem.inject_retry_cycles\": 40,"
		 " \"sm.1.mem.inject_retry_cycles\": 20, \"noc.flits_ejected\": 250}}' > stats.json",
		 t.path);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	snprintf(cmd, sizeof cmd, "scripts/apps-owl-table2.sh --bounds-of '%s'", t.path);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	cr_expect_str_eq(out, "l2_read_hits% dram_busy% reply_port_busy% simt_pipeline_busy% l1_mshrs_full%\n90 25 39 70 10\n"
			      "l2_slice_held% slice_reply_refused% core_injection_refused% core_ejection_mean% core_ejection_max%"
			      " mc_request_ejection%\n6 20 15 75 96 25\n");
	snprintf(cmd, sizeof cmd, "scripts/apps-owl-table2.sh --bounds-of '%s/none'", t.path);
	cr_expect_eq(run(cmd, out), 2, "%s", out);
	tmp_fini(&t);
}

/* The fixture suite's upstream: t/repo, a git repository with data/readme.txt, its commit fixed
 * by its dates and names. */
static void make_fixture_repo(const struct tmp *t)
{
	char out[OUT_BYTES], cmd[2048];
	snprintf(cmd, sizeof cmd,
		 "cd '%s' && git init -q repo && mkdir repo/data && printf 'fixture data\\n' > repo/data/readme.txt"
		 " && cd repo && git add . && GIT_AUTHOR_NAME=f GIT_AUTHOR_EMAIL=f@f GIT_COMMITTER_NAME=f"
		 " GIT_COMMITTER_EMAIL=f@f GIT_AUTHOR_DATE=2020-01-01T00:00:00Z GIT_COMMITTER_DATE=2020-01-01T00:00:00Z"
		 " git -c init.defaultBranch=main -c commit.gpgsign=false commit -q -m fixture && git rev-parse HEAD",
		 t->path);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	cr_assert_str_eq(out, "6b4b6eda3ef14cceab3e6a4b1b9e13cf1877f5d7\n");
}

/* The fixture suite end to end: fetched from a git repository made here (its commit is fixed by
 * its dates and names), inputs made, the program run on gtx480 and its own check read. */
Test(apps_fixture, fetch_prepare_run_status_sweep, .timeout = 240)
{
	struct tmp t;
	tmp_init(&t);
	char out[OUT_BYTES], cmd[4096], env[1024];
	make_fixture_repo(&t);
	snprintf(env, sizeof env,
		 "APPS_MANIFEST=tests/workloads/data/apps/apps.tsv APPS_SUITES=tests/workloads/data/apps/suites.tsv"
		 " WARPSIM_APPS_DIR='%s/apps' APPS_SRC_fixture='%s/repo/.git'",
		 t.path, t.path);
	snprintf(cmd, sizeof cmd, "%s scripts/apps.sh fetch fixture", env);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	cr_assert(strstr(out, "fixture: ") && strstr(out, "at 6b4b6eda3ef14cceab3e6a4b1b9e13cf1877f5d7"), "%s", out);

	/* not built yet: listed as such, and the run says so */
	snprintf(cmd, sizeof cmd, "%s scripts/apps.sh list", env);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	cr_assert(strstr(out, "fixture/hostloop                   unbuilt  OWL:HL PRO:hostloop"), "%s", out);
	cr_assert(strstr(out, "fixture/absent                     missing  OWL:ABS"), "%s", out);
	cr_assert(strstr(out, "not public: the test says so"), "%s", out);

	snprintf(cmd, sizeof cmd, "mkdir -p '%s/apps/bin/fixture' && cp tests/cuda/bin/host_loop '%s/apps/bin/fixture/hostloop'",
		 t.path, t.path);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	snprintf(cmd, sizeof cmd, "%s WARPSIM=\"$WARPSIM_BIN\" scripts/apps.sh run fixture/hostloop -c configs/gtx480.cfg -o '%s/o'",
		 env, t.path);
	cr_assert_eq(run_cuda_list(cmd, out), 0, "%s", out);
	cr_assert_str_eq(out, "fixture/hostloop\tyes\tpass\t\n");
	char path[512];
	size_t n;
	snprintf(path, sizeof path, "%s/apps/run/fixture/hostloop/small/w/x/in.txt", t.path);
	char *s = slurp(path, &n);
	cr_assert_str_eq(s, "5\n5\n"); /* grid-floats, 1 x 2, lo = hi */
	free(s);
	snprintf(path, sizeof path, "%s/apps/run/fixture/hostloop/small/w/x/sub/readme.txt", t.path);
	s = slurp(path, &n);
	cr_assert_str_eq(s, "fixture data\n");
	free(s);
	snprintf(path, sizeof path, "%s/apps/run/fixture/hostloop/small/w/x/sub/cmd.txt", t.path);
	s = slurp(path, &n);
	cr_assert_str_eq(s, "k 10\nj 6 3\n");
	free(s);
	snprintf(path, sizeof path, "%s/apps/run/fixture/hostloop/small/w/x/twice.txt", t.path);
	s = slurp(path, &n);
	cr_assert_str_eq(s, "fixture data\nfixture data\n");
	free(s);
	snprintf(path, sizeof path, "%s/o/stats.json", t.path);
	cr_assert_eq(access(path, R_OK), 0);

	/* the status table (from the run it keeps) and the sweep entries */
	snprintf(cmd, sizeof cmd, "%s WARPSIM=\"$WARPSIM_BIN\" scripts/apps.sh status -c configs/gtx480.cfg", env);
	cr_assert_eq(run_cuda_list(cmd, out), 0, "%s", out);
	cr_assert(strstr(out, "| hostloop | fixture | OWL:HL PRO:hostloop | yes | yes | pass | - |"), "%s", out);
	cr_assert(strstr(out, "| absent | fixture | OWL:ABS | no | - | - | not public: the test says so |"), "%s", out);
	cr_assert(strstr(out, "\n2 programs: 1 built, 1 ran under warpsim, 1 passed their own check, 0 have none, 0 failed it\n"), "%s", out);
	snprintf(cmd, sizeof cmd, "%s scripts/apps.sh sweep --papers PRO", env);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	char want[512];
	snprintf(want, sizeof want, "{ app = \"%s/apps/run/fixture/hostloop/small/run.sh\"; name = \"hostloop\"; }", t.path);
	cr_assert(strstr(out, want), "%s", out);
	snprintf(cmd, sizeof cmd, "%s scripts/apps.sh sweep --papers OWL", env);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	cr_assert(strstr(out, "name = \"hl\";"), "%s", out);

	/* the entries in a sweep, with relative config and output paths: the run folder's run.sh
	 * makes them absolute before it enters the program's folder */
	snprintf(cmd, sizeof cmd,
		 "{ echo 'sweep = { name = \"fx\"; configs = [\"configs/gtx480.cfg\"];'; %s scripts/apps.sh sweep; echo 'variants = ( { name = \"base\"; } ); };'; }"
		 " > '%s/fx.cfg' && \"$WARPSIM_BIN\" sweep '%s/fx.cfg' --jobs 1 --out fx-out-$$ && cat fx-out-$$/fx/results.csv;"
		 " rc=$?; rm -rf fx-out-$$; exit $rc",
		 env, t.path, t.path);
	cr_assert_eq(run_cuda_list(cmd, out), 0, "%s", out);
	cr_assert(strstr(out, "collected 1 runs (0 without results)"), "%s", out);
	cr_assert(strstr(out, "\ngtx480,hostloop,base,"), "%s", out);
	tmp_fini(&t);
}

/* scripts/apps.sh run around a run (tests/workloads/data/apps/fake_warpsim.sh stands in for
 * warpsim): the time limit it gives (1800 s; N / 100000 s for a cap of N > 180 M thread
 * instructions; APPS_TIMEOUT), a run stopped by SIGTERM to apps.sh that leaves neither a process
 * nor a file behind (its late stats.failed.json goes into its own folder, which is dropped), and
 * a restarted run that does not see the stale stats.failed.json of an earlier one and whose log
 * names the output folder, not the one it ran in. */
Test(apps_fixture, run_limits_and_a_stopped_run_leaves_nothing, .timeout = 120)
{
	struct tmp t;
	tmp_init(&t);
	char out[OUT_BYTES], cmd[4096], env[1024];
	make_fixture_repo(&t);
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/apps/bin/fixture' && cp tests/cuda/bin/host_loop '%s/apps/bin/fixture/hostloop'",
		 t.path, t.path);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	snprintf(env, sizeof env,
		 "APPS_MANIFEST=tests/workloads/data/apps/apps.tsv APPS_SUITES=tests/workloads/data/apps/suites.tsv"
		 " WARPSIM_APPS_DIR='%s/apps' APPS_SRC_fixture='%s/repo/.git' FAKE_DIR='%s'"
		 " WARPSIM=\"$PWD/tests/workloads/data/apps/fake_warpsim.sh\"",
		 t.path, t.path, t.path);
	snprintf(cmd, sizeof cmd, "%s scripts/apps.sh fetch fixture", env);
	cr_assert_eq(run(cmd, out), 0, "%s", out);

	/* the limits: the default, OWL's 1 B budget, a cap under 180 M, APPS_TIMEOUT */
	static const struct { const char *pre, *opt, *want; } lim[] = {
		{"", "", "limit 1800\n"},
		{"", "-s sim.max_thread_insts=1000000000", "limit 10000\n"},
		{"", "-s sim.max_thread_insts=30000000", "limit 1800\n"},
		{"APPS_TIMEOUT=0", "-s sim.max_thread_insts=1000000000", "limit 0\n"},
	};
	for (size_t i = 0; i < sizeof lim / sizeof lim[0]; i++) {
		snprintf(cmd, sizeof cmd, "%s %s FAKE=ok scripts/apps.sh run fixture/hostloop -c configs/gtx480.cfg %s -o '%s/o'"
			 " && head -1 '%s/o/run.log'", env, lim[i].pre, lim[i].opt, t.path, t.path);
		cr_assert_eq(run(cmd, out), 0, "%s", out);
		char want[256];
		snprintf(want, sizeof want, "fixture/hostloop\tyes\tpass\t\n%s", lim[i].want);
		cr_expect_str_eq(out, want, "%s", lim[i].opt);
	}

	/* a stale failure in the output folder; a run stopped by SIGTERM to apps.sh: apps.sh exits
	 * 143 once the program has ended, and no run folder is left */
	snprintf(cmd, sizeof cmd,
		 "export %s FAKE=hang; cd '%s' && rm -f fake.pid && echo '{}' > o/stats.failed.json && rm o/stats.json"
		 " && (cd \"$OLDPWD\" && exec scripts/apps.sh run fixture/hostloop -c configs/gtx480.cfg -o '%s/o') & a=$!;"
		 " for i in $(seq 200); do [ -s '%s/fake.pid' ] && break; sleep 0.1; done; sleep 0.3;"
		 " kill -TERM $a; wait $a; echo \"rc $?\"; kill -0 $(cat '%s/fake.pid') 2>/dev/null && echo still running;"
		 " ls -A '%s'",
		 env, t.path, t.path, t.path, t.path, t.path);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	cr_expect_str_eq(out, "rc 143\napps\nfake.pid\no\nrepo\n");
	/* the restarted run: its own results only, and its log names the folder they are in */
	snprintf(cmd, sizeof cmd, "%s FAKE=ok scripts/apps.sh run fixture/hostloop -c configs/gtx480.cfg -o '%s/o' && ls '%s/o'"
		 " && tail -1 '%s/o/run.log'", env, t.path, t.path, t.path);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	char want[1024];
	snprintf(want, sizeof want, "fixture/hostloop\tyes\tpass\t\nrun.log\nstats.json\nstats in %s/o/stats.json\n", t.path);
	cr_expect_str_eq(out, want);
	/* stopped at its limit: the stopped run's own stats.failed.json, and the note */
	snprintf(cmd, sizeof cmd, "%s APPS_TIMEOUT=1 FAKE=hang scripts/apps.sh run fixture/hostloop -c configs/gtx480.cfg -o '%s/o' && ls '%s/o'",
		 env, t.path, t.path);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	cr_expect_str_eq(out, "fixture/hostloop\tno\t-\tstopped after 1 s\nrun.log\nstats.failed.json\n");

	/* `status` stopped the same way: its loop once ran in a pipeline's subshell, which a
	 * SIGTERM to apps.sh left running with its run; now apps.sh exits 143 after the run, which
	 * leaves no folder and an empty result (so the next status reruns the program) */
	snprintf(cmd, sizeof cmd,
		 "export %s FAKE=hang; rm -f '%s/fake.pid';"
		 " scripts/apps.sh status -c configs/gtx480.cfg > /dev/null & a=$!;"
		 " for i in $(seq 200); do [ -s '%s/fake.pid' ] && break; sleep 0.1; done; sleep 0.3;"
		 " kill -TERM $a; wait $a; echo \"rc $?\"; kill -0 $(cat '%s/fake.pid') 2>/dev/null && echo still running;"
		 " cd '%s/apps/status/gtx480/small/fixture' && ls -A && wc -c < hostloop.tsv",
		 env, t.path, t.path, t.path, t.path);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	cr_expect_str_eq(out, "rc 143\nhostloop.tsv\n0\n");
	snprintf(cmd, sizeof cmd, "%s FAKE=ok scripts/apps.sh status -c configs/gtx480.cfg | grep -e hostloop -e programs", env);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	cr_expect_str_eq(out, "| hostloop | fixture | OWL:HL PRO:hostloop | yes | yes | pass | - |\n"
			      "2 programs: 1 built, 1 ran under warpsim, 1 passed their own check, 0 have none, 0 failed it\n");
	tmp_fini(&t);
}
