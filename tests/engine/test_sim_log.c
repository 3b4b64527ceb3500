/* SPDX-License-Identifier: MIT */
/* Tests engine/log.h: compile-time floor, runtime level/category filter before formatting. */
#define SIM_LOG_MIN_LEVEL 1 /* TRACE calls compile away in this file */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "engine/log.h"

static int side_effects;
static int count_me(void)
{
	return ++side_effects;
}

Test(log, filters_by_level_and_category_before_formatting)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	uint64_t now = 1234;
	struct sim_log lg;
	sim_log_init(&lg);
	lg.out = out;
	lg.level = SIM_LOG_INFO;
	lg.cats = SIM_LOG_CAT_NOC | SIM_LOG_CAT_MEM;
	lg.now_ps = &now;
	side_effects = 0;
	SIM_LOG(&lg, SIM_LOG_DEBUG, SIM_LOG_CAT_NOC, "below level %d", count_me()); /* level too low */
	SIM_LOG(&lg, SIM_LOG_WARN, SIM_LOG_CAT_SM, "wrong category %d", count_me());  /* not selected */
	SIM_LOG(&lg, SIM_LOG_TRACE, SIM_LOG_CAT_NOC, "compiled out %d", count_me());  /* under the floor */
	cr_assert_eq(side_effects, 0, "arguments of suppressed messages were evaluated");
	SIM_LOG(&lg, SIM_LOG_INFO, SIM_LOG_CAT_NOC, "flit %d ejected", count_me());
	SIM_LOG(&lg, SIM_LOG_ERROR, SIM_LOG_CAT_MEM, "mshr %s", "full");
	fclose(out);
	cr_assert_eq(side_effects, 1);
	cr_assert_str_eq(buf, "[1234 ps] info noc: flit 1 ejected\n[1234 ps] error mem: mshr full\n");
	free(buf);
	/* The floor applies even when the runtime filter lets everything through. */
	lg.level = SIM_LOG_TRACE;
	lg.cats = SIM_LOG_CAT_ALL;
	lg.out = fopen("/dev/null", "w");
	SIM_LOG(&lg, SIM_LOG_TRACE, SIM_LOG_CAT_NOC, "compiled out %d", count_me());
	cr_assert_eq(side_effects, 1);
	fclose(lg.out);
	SIM_LOG((struct sim_log *)NULL, SIM_LOG_ERROR, SIM_LOG_CAT_NOC, "no log %d", count_me());
	cr_assert_eq(side_effects, 1);
}

Test(log, parses_category_lists_and_levels)
{
	uint32_t m;
	struct sim_error err;
	cr_assert_eq(sim_log_parse_cats("noc,mem", &m, &err), 0);
	cr_assert_eq(m, SIM_LOG_CAT_NOC | SIM_LOG_CAT_MEM);
	cr_assert_eq(sim_log_parse_cats("all", &m, &err), 0);
	cr_assert_eq(m, SIM_LOG_CAT_ALL);
	cr_assert_eq(sim_log_parse_cats("", &m, &err), 0);
	cr_assert_eq(m, 0);
	cr_assert_eq(sim_log_parse_cats("noc,bogus", &m, &err), SIM_ERR_USAGE);
	cr_assert(strstr(err.msg, "'bogus'"), "%s", err.msg);
	enum sim_log_level lv;
	cr_assert_eq(sim_log_parse_level("debug", &lv, &err), 0);
	cr_assert_eq(lv, SIM_LOG_DEBUG);
	cr_assert_eq(sim_log_parse_level("loud", &lv, &err), SIM_ERR_USAGE);
	cr_assert_str_eq(err.setting, "loud");
}
