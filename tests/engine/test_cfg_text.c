/* SPDX-License-Identifier: MIT */
/* Tests for engine/cfg_text.h: unsuffixed integer literals beyond 32 bits, which libconfig 1.5
 * wraps, are refused with file, line and the setting's path; everything else passes. */
#include <criterion/criterion.h>
#include <libconfig.h>
#include <stdio.h>
#include <string.h>

#include "engine/cfg_text.h"
#include "engine/config.h"

/* Parse text with libconfig and run the check; the formatted error into msg ("" if none). */
static int check(const char *text, char *msg)
{
	config_t lc;
	config_init(&lc);
	cr_assert_eq(config_read_string(&lc, text), CONFIG_TRUE, "libconfig parses: %s", text);
	struct sim_error err = {0};
	int rc = cfg_lc_check_wrapped_ints(&lc, text, "t.cfg", SIM_ERR_INPUT, &err);
	msg[0] = '\0';
	if (rc)
		sim_error_format(&err, msg, 1024);
	config_destroy(&lc);
	return rc;
}

Test(cfg_ints, decimal_beyond_2_32_names_setting_line_and_wrapped_value)
{
	char msg[1024];
	/* 4294967300 = 2^32 + 4: libconfig keeps the low 32 bits, 4. */
	cr_assert_eq(check("a = 1;\nb = { c = 4294967300; };\n", msg), SIM_ERR_INPUT);
	cr_assert_str_eq(msg, "t.cfg:2: b.c: 4294967300 does not fit in 32 bits and would be read as "
			      "4; write 4294967300L for a 64-bit integer");
}

Test(cfg_ints, just_past_int_max_and_below_int_min)
{
	char msg[1024];
	cr_assert_neq(check("x = 2147483648;\n", msg), 0);
	cr_assert(strstr(msg, "would be read as -2147483648"), "%s", msg);
	cr_assert_neq(check("x = -2147483649;\n", msg), 0);
	cr_assert(strstr(msg, "x: -2147483649"), "%s", msg);
	/* The bounds themselves fit. */
	cr_assert_eq(check("x = 2147483647; y = -2147483648;\n", msg), 0, "%s", msg);
}

Test(cfg_ints, hex_beyond_31_bits)
{
	char msg[1024];
	cr_assert_neq(check("m = 0xFFFFFFFF;\n", msg), 0);
	cr_assert(strstr(msg, "m: 0xFFFFFFFF does not fit in 32 bits and would be read as -1"), "%s", msg);
	cr_assert_eq(check("m = 0x7FFFFFFF;\n", msg), 0, "%s", msg);
}

Test(cfg_ints, the_right_literal_on_a_crowded_line)
{
	char msg[1024];
	/* The third number on the line wraps to 4, the same as the first: the path is args[2]. */
	cr_assert_neq(check("l = { b = 4; args = (1.5, \"x\", 0x100000004); };\n", msg), 0);
	cr_assert(strstr(msg, "t.cfg:1: l.args[2]: 0x100000004"), "%s", msg);
	cr_assert_neq(check("g = [2, 4294967297];\n", msg), 0);
	cr_assert(strstr(msg, "g[1]: 4294967297"), "%s", msg);
}

Test(cfg_ints, suffixed_floats_strings_comments_and_names_pass)
{
	char msg[1024];
	cr_assert_eq(check("a = 4294967300L;\n"
			   "b = 1e20; c = -3.5e+12; d = .5;\n"
			   "e = \"4294967300\"; # 4294967300\n"
			   "f = 1; // 99999999999\n"
			   "/* 4294967296\n 8589934592 */ g = 2;\n"
			   "h4294967296x = 3;\n",
			   msg),
		     0, "%s", msg);
}

Test(cfg_ints, a_value_on_the_line_after_its_name)
{
	char msg[1024];
	cr_assert_neq(check("a = 1;\nbig =\n  8589934593;\n", msg), 0);
	cr_assert(strstr(msg, "8589934593 does not fit"), "%s", msg);
}

Test(cfg_ints, config_files_and_strings_are_checked)
{
	struct cfg *c = cfg_create();
	struct sim_error err = {0};
	cr_assert_eq(engine_cfg_define(c, &err), 0);
	cr_assert_neq(cfg_load_string(c, "w.cfg", "sim = { max_cycles = 4294967300; };", &err), 0);
	char msg[1024];
	sim_error_format(&err, msg, sizeof msg);
	cr_assert(strstr(msg, "w.cfg:1: sim.max_cycles: 4294967300 does not fit"), "%s", msg);
	/* With L it is read whole. */
	cr_assert_eq(cfg_load_string(c, "w.cfg", "sim = { max_cycles = 4294967300L; };", &err), 0);
	cr_assert_eq(cfg_int(c, "sim.max_cycles"), 4294967300LL);
	cfg_destroy(c);
}
