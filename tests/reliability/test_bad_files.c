/* SPDX-License-Identifier: MIT */
/* Tests warpsim end to end (WARPSIM_BIN) on inputs that are not regular files -- a FIFO must be
 * refused before it is opened (open would block), a directory with a message that says so --
 * as config, included file, workload, PTX and sweep spec; and -o checked before the run. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static char out[1 << 16];

/* Run warpsim with argv (NULL-terminated, argv[0] ignored); kill it after limit_s. Returns the
 * exit status, or 128 + signal; stderr in out. */
static int run(const char *const *args, int limit_s)
{
	const char *bin = getenv("WARPSIM_BIN");
	cr_assert(bin, "set WARPSIM_BIN to the warpsim executable");
	char *argv[32];
	int n = 0;
	argv[n++] = (char *)bin;
	for (int i = 0; args[i] && n < 31; i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
	char path[] = "/tmp/ws_bf_XXXXXX";
	int fd = mkstemp(path);
	cr_assert(fd >= 0);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, 2);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	pid_t pid;
	cr_assert_eq(posix_spawn(&pid, bin, &fa, NULL, argv, environ), 0);
	posix_spawn_file_actions_destroy(&fa);
	int st = 0;
	for (int t = 0; t < limit_s * 100; t++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			goto done;
		nanosleep(&(struct timespec){0, 10000000}, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
done:
	lseek(fd, 0, SEEK_SET);
	ssize_t r = read(fd, out, sizeof out - 1);
	out[r > 0 ? r : 0] = '\0';
	close(fd);
	unlink(path);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static char dir[64];

static void mkdir_tmp(void)
{
	snprintf(dir, sizeof dir, "/tmp/ws_bf_dir_XXXXXX");
	cr_assert(mkdtemp(dir));
}

static void rm_tmp(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	cr_assert_eq(system(cmd), 0);
}

static void write_file(const char *name, const char *text)
{
	char p[256];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	cr_assert(f);
	fputs(text, f);
	fclose(f);
}

Test(bad_files, a_fifo_is_refused_before_it_is_opened_as_any_input, .init = mkdir_tmp, .fini = rm_tmp,
     .timeout = 60)
{
	char fifo[128], inc[128], wl[128], msg[256];
	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	snprintf(inc, sizeof inc, "%s/inc.cfg", dir);
	write_file("inc.cfg", "sim = { seed = 2; };\n@include \"fifo\"\n");
	snprintf(wl, sizeof wl, "%s/wl.cfg", dir);
	write_file("wl.cfg", "name = \"x\";\nptx = \"fifo\";\nlaunches = ({ kernel = \"k\"; grid = 1; block = 1; });\n");
	snprintf(msg, sizeof msg, "%s is a FIFO, not a regular file", fifo);
	const char *const cases[][8] = {
		{"validate", "-c", fifo, NULL},
		{"run", "-c", "configs/owl-28.cfg", "-c", fifo, "-w", "workloads/vecadd/vecadd.cfg", NULL},
		{"run", "--functional", "-w", fifo, NULL},
		{"run", "--functional", "-w", wl, NULL},
		{"ptx-info", fifo, NULL},
		{"sweep", fifo, NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int rc = run(cases[i], 10);
		cr_expect_eq(rc, 2, "case %zu (%s): exit %d: %s", i, cases[i][0], rc, out);
		cr_expect(strstr(out, "is a FIFO, not a regular file"), "case %zu: %s", i, out);
	}
	/* The @include of a FIFO: named at the including file's line 2. */
	int rc = run((const char *const[]){"validate", "-c", inc, NULL}, 10);
	cr_expect_eq(rc, 2, "%s", out);
	cr_expect(strstr(out, "inc.cfg:2: included file "), "%s", out);
	cr_expect(strstr(out, "fifo is a FIFO"), "%s", out);
}

Test(bad_files, a_directory_says_it_is_a_directory, .init = mkdir_tmp, .fini = rm_tmp, .timeout = 60)
{
	char inc[128];
	snprintf(inc, sizeof inc, "%s/inc.cfg", dir);
	write_file("inc.cfg", "# includes a directory\nsim = { seed = 2; };\n@include \"/tmp\"\n");
	int rc = run((const char *const[]){"validate", "-c", dir, NULL}, 10);
	cr_expect_eq(rc, 2, "%s", out);
	cr_expect(strstr(out, "is a directory, not a regular file"), "%s", out);
	cr_expect(!strstr(out, "Success"), "%s", out);
	rc = run((const char *const[]){"validate", "-c", inc, NULL}, 10);
	cr_expect_eq(rc, 2, "%s", out);
	cr_expect(strstr(out, "inc.cfg:3: included file /tmp is a directory"), "%s", out);
	cr_expect(!strstr(out, "flex"), "%s", out);
}

/* -o into a directory where nothing can be created fails at once, not after the simulation:
 * the workload spins forever (tests/bad_inputs/programs/forever.cfg), so only a check made
 * before running can end within the limit. */
Test(bad_files, an_unwritable_outdir_fails_before_the_simulation, .timeout = 60)
{
	int rc = run((const char *const[]){"run", "-c", "configs/owl-28.cfg", "-w",
					   "tests/bad_inputs/programs/forever.cfg", "-o", "/proc", "--quiet", NULL},
		     20);
	cr_assert_eq(rc, 2, "exit %d: %s", rc, out);
	cr_assert(strstr(out, "/proc: -o: cannot write into the output directory"), "%s", out);
}

Test(bad_files, an_empty_config_is_refused, .init = mkdir_tmp, .fini = rm_tmp, .timeout = 60)
{
	char p[128];
	write_file("empty.cfg", "# nothing but a comment\ngpu = { core = { }; };\n");
	snprintf(p, sizeof p, "%s/empty.cfg", dir);
	int rc = run((const char *const[]){"validate", "-c", p, NULL}, 10);
	cr_assert_eq(rc, 2, "%s", out);
	cr_assert(strstr(out, "empty.cfg: the configuration file sets no setting"), "%s", out);
}

/* An integer written for a float parameter is the number, converted as C converts it: saxpy
 * with alpha = 2 (not 2.0) passes its check. Before, the bits of the integer 2 went into the
 * .f32 parameter (a denormal) and every element of y differed. */
Test(bad_files, an_integer_for_a_float_parameter_is_converted, .timeout = 60)
{
	int rc = run((const char *const[]){"run", "--functional", "--quiet", "-w",
					   "tests/reliability/saxpy_int_alpha.cfg", NULL},
		     30);
	cr_assert_eq(rc, 0, "exit %d: %s", rc, out);
}
