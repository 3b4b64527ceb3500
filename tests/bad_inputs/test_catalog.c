/* SPDX-License-Identifier: MIT */
/* The bad-input catalogue (tests/bad_inputs/catalog.txt): every malformed config, workload, PTX
 * file and command line makes the warpsim binary exit 2 with a message naming file, line and
 * setting, without crashing and without leaving output files behind. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

struct outcome {
	int status;      /* exit status, or 128+signal */
	char err[8192];  /* stderr */
};

static void run(char *const argv[], struct outcome *o)
{
	char path[] = "/tmp/ws_bad_XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, 2);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	cr_assert_eq(posix_spawn(&pid, argv[0], &fa, NULL, argv, environ), 0, "spawn %s", argv[0]);
	int st;
	waitpid(pid, &st, 0);
	posix_spawn_file_actions_destroy(&fa);
	o->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	lseek(fd, 0, SEEK_SET);
	ssize_t n = read(fd, o->err, sizeof o->err - 1);
	o->err[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(path);
}

Test(bad_inputs, every_catalogue_entry_exits_2_with_its_message, .timeout = 280)
{
	const char *bin = getenv("WARPSIM_BIN");
	cr_assert_not_null(bin, "WARPSIM_BIN is set by CMake to the warpsim binary");
	FILE *f = fopen("tests/bad_inputs/catalog.txt", "r");
	cr_assert_not_null(f);
	char line[2048];
	int n = 0, lineno = 0;
	char outdir[] = "/tmp/ws_bad_out_XXXXXX";
	cr_assert_not_null(mkdtemp(outdir));
	while (fgets(line, sizeof line, f)) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		/* expected-exit TAB expected-substring TAB args (space separated; OUT = the output dir) */
		char *save = NULL;
		char *code = strtok_r(line, "\t", &save);
		char *expect = strtok_r(NULL, "\t", &save);
		char *args = strtok_r(NULL, "\t", &save);
		cr_assert(code && expect && args, "catalog.txt:%d: malformed entry", lineno);
		char *argv[64];
		int argc = 0;
		argv[argc++] = (char *)bin;
		char *s2 = NULL;
		for (char *a = strtok_r(args, " ", &s2); a && argc < 63; a = strtok_r(NULL, " ", &s2))
			argv[argc++] = strcmp(a, "OUT") ? a : outdir;
		argv[argc] = NULL;
		struct outcome o;
		run(argv, &o);
		cr_expect_eq(o.status, atoi(code), "catalog.txt:%d (%s): exit %d, expected %s; stderr: %s",
			     lineno, args, o.status, code, o.err);
		cr_expect(strstr(o.err, expect) != NULL, "catalog.txt:%d (%s): stderr lacks '%s': %s", lineno,
			  args, expect, o.err);
		cr_expect(strchr(o.err, '\n') == strrchr(o.err, '\n'),
			  "catalog.txt:%d: expected a one-line error, got: %s", lineno, o.err);
		char stats[PATH_MAX];
		snprintf(stats, sizeof stats, "%s/stats.json", outdir);
		cr_expect(access(stats, F_OK) != 0, "catalog.txt:%d: partial output left in %s", lineno, outdir);
		n++;
	}
	fclose(f);
	rmdir(outdir);
	cr_log_info("%d bad inputs checked", n);
	cr_assert_geq(n, 60, "the catalogue holds %d entries; at least 60 are required", n);
}
