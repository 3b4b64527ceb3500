/* SPDX-License-Identifier: MIT */
/* scripts/public-programs.sh (issue 32's public-program table): the committed manifest reads
 * clean, a broken row is refused naming its line, and a fixture of small shell programs run under
 * `warpsim cuda` gets each verdict the way its check says (grep, exit status, a reference file
 * within or beyond its tolerance, none, a reason outside warpsim) and the figures the table
 * prints, counted by hand below. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "../cuda/cuda_test.h"

#include <sys/stat.h>

/* Under the sanitizers the fixture's programs (bash here) load our instrumented libcudart:
 * run_cuda_list preloads ASan's runtime for them. */
static struct tmp dir;

static void setup(void)
{
	tmp_init(&dir);
}

static void teardown(void)
{
	tmp_fini(&dir);
}

/* text into the test's folder at rel, with mode */
static void put(const char *rel, const char *text, mode_t mode)
{
	char path[512];
	tmp_sub(&dir, rel, path, sizeof path);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
	cr_assert_eq(chmod(path, mode), 0);
}

TestSuite(public_programs, .init = setup, .fini = teardown);

Test(public_programs, the_committed_manifest_reads_clean)
{
	char *out = buf(), cmd[1024];
	put("results.tsv", "", 0644);
	snprintf(cmd, sizeof cmd, "scripts/public-programs.sh table --out '%s'", dir.path);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	cr_assert_not_null(strstr(out, "All 0 programs"), "%s", out);
	free(out);
}

Test(public_programs, a_broken_row_is_refused_with_its_line)
{
	char *out = buf(), cmd[1024];
	put("m.tsv", "# comment\nf/a\tbin\ta\t-\targs\tgrep:x\t-\nf/b\tbin\tb\t-\tsized\tnone\t-\n", 0644);
	put("results.tsv", "", 0644);
	snprintf(cmd, sizeof cmd, "PUBLIC_MANIFEST='%s/m.tsv' scripts/public-programs.sh table --out '%s'", dir.path, dir.path);
	cr_assert_eq(run(cmd, out), 2, "%s", out);
	cr_assert_not_null(strstr(out, "m.tsv:3: sized \"sized\" is not args, input, define or fixed"), "%s", out);
	free(out);
}

Test(public_programs, verdicts_and_figures, .timeout = 120)
{
	char *out = buf(), cmd[2048];
	snprintf(cmd, sizeof cmd, "mkdir -p '%s/apps/bin' '%s/bin' '%s/refs/f_refok' '%s/refs/f_refbad'", dir.path, dir.path, dir.path, dir.path);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	put("bin/pass.sh", "#!/bin/sh\necho 'Test passed'\n", 0755);
	put("bin/fail.sh", "#!/bin/sh\necho 'Test failed'\n", 0755);
	put("bin/exit3.sh", "#!/bin/sh\necho 'Test passed'\nexit 3\n", 0755);
	put("bin/out.sh", "#!/bin/sh\necho \"1 $1\" > out.txt\n", 0755);
	put("refs/f_refok/out.txt", "1 2.0\n", 0644);
	put("refs/f_refbad/out.txt", "1 2.0\n", 0644);
	put("m.tsv",
	    "f/pass\tbin\tpass.sh\t-\targs\tgrep:Test passed\t-\n"
	    "f/fail\tbin\tfail.sh\t-\tinput\tgrep:Test passed\t-\n"
	    "f/exit3\tbin\texit3.sh\t-\tdefine\texit\t-\n"
	    "f/refok\tbin\tout.sh\t2.0001\targs\tref:out.txt:1e-3\t-\n"
	    "f/refbad\tbin\tout.sh\t2.1\targs\tref:out.txt:1e-3\t-\n"
	    "f/nocheck\tbin\tpass.sh\t-\tfixed\tnone\t-\n"
	    "f/outside\tbin\tfail.sh\t-\targs\tgrep:Test passed\tits input is not public\n",
	    0644);
	snprintf(cmd, sizeof cmd,
		 "PUBLIC_MANIFEST='%s/m.tsv' WARPSIM=\"$WARPSIM_BIN\" scripts/public-programs.sh run --apps '%s/apps' "
		 "--bin '%s/bin' --refs '%s/refs' --out '%s/o' --timeout 60 && "
		 "cut -f1,2,4 '%s/o/results.tsv'",
		 dir.path, dir.path, dir.path, dir.path, dir.path, dir.path);
	cr_assert_eq(run_cuda_list(cmd, out), 0, "%s", out);
	const char *verdicts[] = {"f/pass\t0\tpass", "f/fail\t0\tfail", "f/exit3\t3\tfail", "f/refok\t0\tpass",
				  "f/refbad\t0\tfail", "f/nocheck\t0\tnone", "f/outside\t0\tfail"};
	for (size_t i = 0; i < sizeof verdicts / sizeof *verdicts; i++)
		cr_assert_not_null(strstr(out, verdicts[i]), "no '%s' in:\n%s", verdicts[i], out);
	snprintf(cmd, sizeof cmd, "PUBLIC_MANIFEST='%s/m.tsv' scripts/public-programs.sh table --out '%s/o'", dir.path, dir.path);
	cr_assert_eq(run(cmd, out), 0, "%s", out);
	/* by hand: 6 of 7 end with status 0; pass and refok pass; fail, refbad and outside fail
	 * their check; nocheck has none. Six are sized (all but nocheck): 2 of 6 pass, 33%; without
	 * outside 2 of 5, 40%. The one fixed-size program has no check: 0 of 1. */
	cr_assert_not_null(strstr(out, "All 7 programs: 6 ran to their end, 2 passed their own check, 3 failed it, 1 ran with no check."), "%s", out);
	cr_assert_not_null(strstr(out, "2 of 6 pass (33%); without the 1 that cannot pass for a reason outside warpsim: 2 of 5 (40%)."), "%s", out);
	cr_assert_not_null(strstr(out, "Fixed-size programs: 0 of 1 pass (0%). Outside warpsim (listed with the reason): 1."), "%s", out);
	cr_assert_not_null(strstr(out, "| exit3 | f | define | exit 3 | - |"), "%s", out);
	cr_assert_not_null(strstr(out, "outside warpsim: its input is not public"), "%s", out);
	free(out);
}
