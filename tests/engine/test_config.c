/* SPDX-License-Identifier: MIT */
/* Tests for engine/config.h: schema, files, includes, overrides, errors naming file and line. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/config.h"

static const char *const modes[] = {"fast", "slow", NULL};
static const struct cfg_key_def keys[] = {
	CFG_KEY_INT("t.count", "cores", 28, 1, 64, "count"),
	CFG_KEY_FLOAT("t.ratio", "", 0.25, 0.0, 1.0, "ratio"),
	CFG_KEY_BOOL("t.on", 0, "switch"),
	CFG_KEY_STR("t.name", "abc", "name"),
	CFG_KEY_ENUM("t.mode", "fast", modes, "mode"),
	CFG_KEY_INT_LIST("t.nodes", "", "3,7,10", 0, 35, "nodes"),
};

static struct cfg *mk(void)
{
	struct cfg *c = cfg_create();
	struct sim_error err;
	cr_assert_not_null(c);
	cr_assert_eq(cfg_define(c, keys, SIM_ARRAY_LEN(keys), &err), 0);
	cr_assert_eq(engine_cfg_define(c, &err), 0);
	return c;
}

static void fmt(const struct sim_error *e, char *buf) { sim_error_format(e, buf, 1024); }

Test(config, defaults_apply_without_files)
{
	struct cfg *c = mk();
	cr_assert_eq(cfg_int(c, "t.count"), 28);
	cr_assert_float_eq(cfg_float(c, "t.ratio"), 0.25, 1e-12);
	cr_assert_str_eq(cfg_str(c, "t.mode"), "fast");
	size_t n;
	const int64_t *l = cfg_int_list(c, "t.nodes", &n);
	cr_assert_eq(n, 3);
	cr_assert_eq(l[2], 10);
	cfg_destroy(c);
}

Test(config, include_is_relative_to_top_file)
{
	struct cfg *c = mk();
	struct sim_error err;
	cr_assert_eq(cfg_load_file(c, "tests/engine/data/base.cfg", &err), 0, "%s", err.msg);
	cr_assert_eq(cfg_int(c, "t.count"), 16);
	cr_assert_eq(cfg_int(c, "sim.seed"), 7);
	const char *file;
	int line;
	cfg_source(c, "t.count", &file, &line);
	cr_assert(strstr(file, "part.cfg") != NULL, "source %s", file);
	cr_assert_eq(line, 2);
	cfg_destroy(c);
}

Test(config, unknown_key_names_file_and_line)
{
	struct cfg *c = mk();
	struct sim_error err;
	char buf[1024];
	cr_assert_eq(cfg_load_file(c, "tests/engine/data/unknown.cfg", &err), SIM_ERR_CONFIG);
	fmt(&err, buf);
	cr_assert(strstr(buf, "unknown.cfg:3:") && strstr(buf, "t.cuont") && strstr(buf, "unknown setting"), "%s", buf);
	cr_assert_eq(sim_error_exit_status(&err), 2);
	cfg_destroy(c);
}

Test(config, wrong_type_and_range_and_choice)
{
	struct cfg *c = mk();
	struct sim_error err;
	char buf[1024];
	cr_assert_eq(cfg_load_string(c, "s.cfg", "t = {\n count = \"x\"; };", &err), SIM_ERR_CONFIG);
	fmt(&err, buf);
	cr_assert(strstr(buf, "s.cfg:2: t.count: expected an integer"), "%s", buf);
	cr_assert_eq(cfg_load_string(c, "s.cfg", "t = { count = 65; };", &err), SIM_ERR_CONFIG);
	fmt(&err, buf);
	cr_assert(strstr(buf, "s.cfg:1:") && strstr(buf, "out of range 1..64"), "%s", buf);
	cr_assert_eq(cfg_load_string(c, "s.cfg", "t = { mode = \"medium\"; };", &err), SIM_ERR_CONFIG);
	fmt(&err, buf);
	cr_assert(strstr(buf, "not one of: fast, slow"), "%s", buf);
	cr_assert_eq(cfg_load_string(c, "s.cfg", "t = { nodes = [1, 99]; };", &err), SIM_ERR_CONFIG);
	cr_assert_eq(cfg_load_string(c, "s.cfg", "t = { count = = 3; };", &err), SIM_ERR_CONFIG); /* syntax */
	cr_assert_eq(err.line, 1);
	cr_assert_eq(cfg_int(c, "t.count"), 28, "a failed load leaves the value alone");
	cfg_destroy(c);
}

Test(config, overrides_replace_file_values)
{
	struct cfg *c = mk();
	struct sim_error err;
	cr_assert_eq(cfg_load_file(c, "tests/engine/data/base.cfg", &err), 0);
	cr_assert_eq(cfg_set_override(c, "t.count=32", &err), 0);
	cr_assert_eq(cfg_set_override(c, "t.mode=slow", &err), 0);
	cr_assert_eq(cfg_set_override(c, "t.on=true", &err), 0);
	cr_assert_eq(cfg_set_override(c, "t.nodes=1,2,3,4", &err), 0);
	cr_assert_eq(cfg_int(c, "t.count"), 32);
	cr_assert_str_eq(cfg_str(c, "t.mode"), "slow");
	cr_assert(cfg_bool(c, "t.on"));
	size_t n;
	cfg_int_list(c, "t.nodes", &n);
	cr_assert_eq(n, 4);
	cr_assert_eq(cfg_set_override(c, "t.count=abc", &err), SIM_ERR_CONFIG);
	cr_assert_eq(cfg_set_override(c, "t.nope=1", &err), SIM_ERR_CONFIG);
	cr_assert(strstr(err.msg, "unknown setting"));
	cr_assert_eq(cfg_set_override(c, "novalue", &err), SIM_ERR_USAGE);
	cfg_destroy(c);
}

Test(config, cfg_error_points_at_setting_source)
{
	struct cfg *c = mk();
	struct sim_error err;
	char buf[1024];
	cr_assert_eq(cfg_load_file(c, "tests/engine/data/base.cfg", &err), 0);
	cfg_error(&err, c, "t.count", "too many for %d nodes", 8);
	fmt(&err, buf);
	cr_assert(strstr(buf, "part.cfg:2:") && strstr(buf, "t.count: too many for 8 nodes"), "%s", buf);
	cfg_destroy(c);
}

Test(config, resolved_config_reloads_to_same_values)
{
	struct cfg *c = mk();
	struct sim_error err;
	cr_assert_eq(cfg_load_file(c, "tests/engine/data/base.cfg", &err), 0);
	cr_assert_eq(cfg_set_override(c, "t.name=x\"y", &err), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert_eq(cfg_write_resolved(c, f, &err), 0);
	fclose(f);
	struct cfg *d = mk();
	cr_assert_eq(cfg_load_string(d, "resolved", buf, &err), 0, "%s\n%s", err.msg, buf);
	cr_assert_eq(cfg_int(d, "t.count"), 16);
	cr_assert_eq(cfg_int(d, "sim.seed"), 7);
	cr_assert_str_eq(cfg_str(d, "t.name"), "x\"y");
	cr_assert_float_eq(cfg_float(d, "t.ratio"), 0.5, 1e-15);
	free(buf);
	cfg_destroy(c);
	cfg_destroy(d);
}

Test(config, list_prints_every_setting)
{
	struct cfg *c = mk();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cfg_print_list(c, f, false);
	fclose(f);
	cr_assert(strstr(buf, "t.count") && strstr(buf, "sim.watchdog_cycles") && strstr(buf, "fast, slow"));
	free(buf);
	cfg_destroy(c);
}

/* Issue 19: of several settings, the one set last is blamed (the overlay that changed it). */
Test(config, latest_names_the_setting_set_last)
{
	struct cfg *c = mk();
	struct sim_error err;
	static const char *const keys[] = {"t.count", "t.ratio", "t.name"};
	/* all defaults: the first */
	cr_assert_str_eq(cfg_latest(c, keys, 3), "t.count");
	cr_assert_eq(cfg_load_string(c, "a.cfg", "t = { name = \"x\"; count = 3; };", &err), 0);
	cr_assert_str_eq(cfg_latest(c, keys, 3), "t.count"); /* later in the same file */
	cr_assert_eq(cfg_load_string(c, "b.cfg", "t = { ratio = 0.5; };", &err), 0);
	cr_assert_str_eq(cfg_latest(c, keys, 3), "t.ratio");
	cr_assert_eq(cfg_set_override(c, "t.name=y", &err), 0);
	cr_assert_str_eq(cfg_latest(c, keys, 3), "t.name");
	cfg_destroy(c);
}

static void put(const char *dir, const char *rel, const char *text)
{
	char p[512];
	snprintf(p, sizeof p, "%s/%s", dir, rel);
	FILE *f = fopen(p, "w");
	cr_assert_not_null(f, "%s", p);
	fputs(text, f);
	fclose(f);
}

/* Issue 20: a path setting resolves from the file that sets it (gpu.noc.platform), not from the
 * first -c file's directory; an -s value from the working directory. */
Test(config, a_path_resolves_from_the_file_that_sets_it)
{
	char dir[] = "/tmp/ws_cfgpath_XXXXXX", p[512], want[512], got[512];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(p, sizeof p, "mkdir -p %s/a %s/b/sub", dir, dir);
	cr_assert_eq(system(p), 0);
	put(dir, "a/first.cfg", "t = { name = \"a.xml\"; };\n");
	put(dir, "b/second.cfg", "@include \"sub/part.cfg\"\nsim = { seed = 3; };\n");
	put(dir, "b/sub/part.cfg", "t = { name = \"p.xml\"; };\n");
	struct cfg *c = mk();
	struct sim_error err;
	snprintf(p, sizeof p, "%s/a/first.cfg", dir);
	cr_assert_eq(cfg_load_file(c, p, &err), 0, "%s", err.msg);
	cr_assert_eq(cfg_path(c, "t.name", got, sizeof got), 0);
	snprintf(want, sizeof want, "%s/a/a.xml", dir);
	cr_expect_str_eq(got, want);
	/* a second file's @include sets it: from that included file's directory */
	snprintf(p, sizeof p, "%s/b/second.cfg", dir);
	cr_assert_eq(cfg_load_file(c, p, &err), 0, "%s", err.msg);
	cr_assert_eq(cfg_path(c, "t.name", got, sizeof got), 0);
	snprintf(want, sizeof want, "%s/b/sub/p.xml", dir);
	cr_expect_str_eq(got, want);
	cr_assert_eq(cfg_set_override(c, "t.name=q.xml", &err), 0);
	cr_assert_eq(cfg_path(c, "t.name", got, sizeof got), 0);
	cr_expect_str_eq(got, "q.xml");
	cr_assert_eq(cfg_set_override(c, "t.name=/abs/x.xml", &err), 0);
	cr_assert_eq(cfg_path(c, "t.name", got, sizeof got), 0);
	cr_expect_str_eq(got, "/abs/x.xml");
	char small[8];
	cr_expect_eq(cfg_path(c, "t.name", small, sizeof small), -1);
	cfg_destroy(c);
	snprintf(p, sizeof p, "rm -rf '%s'", dir);
	cr_assert_eq(system(p), 0);
}

/* libconfig's scanner exits the process when a string's @include names a directory (the fuzz
 * harness found it through a catalogue entry): refused first, at the @include's line. */
Test(config, a_string_including_a_directory_is_refused_at_its_line)
{
	struct cfg *c = cfg_create();
	struct sim_error err = {0};
	cr_assert_eq(cfg_load_string(c, "text.cfg", "# a comment\n@include \".\"\n", &err), SIM_ERR_CONFIG);
	cr_assert_eq(err.code, SIM_ERR_CONFIG);
	cr_assert_str_eq(err.file, "text.cfg");
	cr_assert_eq(err.line, 2);
	cr_assert(strstr(err.msg, "is a directory"), "%s", err.msg);
	cfg_destroy(c);
}
