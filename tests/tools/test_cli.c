/* SPDX-License-Identifier: MIT */
/* Tests for tools/cli.c: an option given an empty value is refused naming the option (`-o ''`
 * once reached mkdir as "cannot create directory" naming nothing); cli_path refuses a path that
 * does not fit instead of walking a truncated one. */
#include <criterion/criterion.h>
#include <string.h>

#include "tools/cli.h"

Test(cli, an_empty_value_names_its_option)
{
	static const char *const with_value[] = {"--baseline", NULL};
	static const struct {
		const char *opt, *val;
	} cases[] = {{"-o", ""}, {"-c", ""}, {"-w", ""}, {"-s", ""}, {"--baseline", ""}, {"--baseline=", NULL}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *argv[4] = {"warpsim", (char *)cases[i].opt, (char *)cases[i].val, NULL};
		int argc = cases[i].val ? 3 : 2;
		struct cli_opts o;
		struct sim_error err = {0};
		cr_expect_eq(cli_parse(argc, argv, "cswo", with_value, NULL, &o, &err), SIM_ERR_USAGE, "case %zu", i);
		char want[32];
		snprintf(want, sizeof want, "%.*s", (int)strcspn(cases[i].opt, "="), cases[i].opt);
		cr_expect_str_eq(err.setting, want, "case %zu", i);
		cr_expect(strstr(err.msg, "needs a value, got ''"), "case %zu: %s", i, err.msg);
	}
}

Test(cli, a_path_that_does_not_fit_is_an_error)
{
	char buf[16];
	struct sim_error err = {0};
	cr_expect_eq(cli_path(buf, sizeof buf, &err, "%s/%s", "abcdef", "ghijklm"), 0);
	cr_expect_str_eq(buf, "abcdef/ghijklm");
	cr_expect_eq(cli_path(buf, sizeof buf, &err, "%s/%s", "abcdef", "ghijklmno"), SIM_ERR_USAGE);
	cr_expect(strstr(err.msg, "path too long (16 bytes, at most 15)"), "%s", err.msg);
	cr_expect_eq(cli_mkdirs("", &err), SIM_ERR_USAGE);
}
