/* SPDX-License-Identifier: MIT */
/* scheduler/sched_cfg.c: gpu.core.scheduler.* settings, name errors at file:line, presets. */
#include "sched_test_util.h"

#include "engine/config.h"

static struct cfg *mk_cfg(void)
{
	struct sim_error err = { 0 };
	struct cfg *c = cfg_create();
	cr_assert_not_null(c);
	cr_assert_eq(sched_cfg_define(c, &err), 0, "%s", err.msg);
	/* The presets also set gpu.dram.prefetch, which memory/ declares; a stand-in here. */
	static const struct cfg_key_def dram[] = { CFG_KEY_STR("gpu.dram.prefetch", "none", "stand-in") };
	cr_assert_eq(cfg_define(c, dram, 1, &err), 0);
	return c;
}

Test(sched_cfg, defaults)
{
	struct cfg *c = mk_cfg();
	struct sched_params p;
	struct sim_error err = { 0 };
	cr_assert_eq(sched_params_from_cfg(&p, c, &err), 0, "%s", err.msg);
	cr_expect_str_eq(p.policy, "lrr");
	cr_expect_str_eq(p.fetch, "rr");
	cr_expect_eq(p.group_size_warps, 8);
	cr_expect_eq(p.ready_queue_warps, 6);
	cr_expect_eq(p.pro_threshold_cycles, 1000);
	cr_expect(p.strict_groups);
	cr_expect(p.strict_free_units);
	cr_expect_eq(p.tl_switch, SCHED_TL_SWITCH_ANY_STALL, "Narasiman Sec 3.2.2: any stall switches groups");
	cr_expect_eq(p.owl_blocked, SCHED_OWL_BLOCKED_MISS, "OWL Algorithm 1: unavailability of data");
	cfg_destroy(c);
}

Test(sched_cfg, unknown_policy_names_file_and_line)
{
	struct cfg *c = mk_cfg();
	struct sim_error err = { 0 };
	const char *text = "gpu: {\n core: {\n  scheduler: {\n   policy = \"fifo\";\n  };\n };\n};\n";
	cr_assert_eq(cfg_load_string(c, "bad.cfg", text, &err), 0, "%s", err.msg);
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 8, 8);
	cr_assert_null(sched_issue_create(c, &t.core, &err));
	char buf[1024];
	sim_error_format(&err, buf, sizeof buf);
	cr_expect_eq(err.code, SIM_ERR_CONFIG);
	cr_expect(strstr(buf, "bad.cfg:4:") && strstr(buf, "gpu.core.scheduler.policy") && strstr(buf, "fifo"),
		  "%s", buf);
	cfg_destroy(c);
}

Test(sched_cfg, unknown_fetch_name)
{
	struct cfg *c = mk_cfg();
	struct sim_error err = { 0 };
	cr_assert_eq(cfg_set_override(c, "gpu.core.scheduler.fetch=lifo", &err), 0, "%s", err.msg);
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 8, 8);
	/* Both names are checked when the first policy of a core is built. */
	cr_assert_null(sched_issue_create(c, &t.core, &err));
	cr_expect_str_eq(err.setting, "gpu.core.scheduler.fetch");
	cr_expect(strstr(err.msg, "lifo") != NULL, "%s", err.msg);
	cfg_destroy(c);
}

Test(sched_cfg, presets_select_published_combinations)
{
	struct sim_error err = { 0 };
	struct cfg *c = mk_cfg();
	cr_assert_eq(cfg_load_file(c, "configs/presets/owl.cfg", &err), 0, "%s", err.msg);
	cr_expect_str_eq(cfg_str(c, "gpu.core.scheduler.policy"), "owl-blp");
	cr_expect_str_eq(cfg_str(c, "gpu.dram.prefetch"), "opportunistic");
	cfg_destroy(c);
	c = mk_cfg();
	cr_assert_eq(cfg_load_file(c, "configs/presets/baws.cfg", &err), 0, "%s", err.msg);
	struct tcore t;
	tcore_init(&t, 0, 1, 2, 8, 4);
	struct sched *is = sched_issue_create(c, &t.core, &err);
	cr_assert_not_null(is, "%s", err.msg);
	struct sched *f = sched_fetch_create(c, &t.core, is, &err);
	cr_assert_not_null(f, "%s", err.msg);
	cr_expect_str_eq(is->ops->name, "mwf-gto");
	cr_expect_str_eq(f->ops->name, "cff");
	sched_destroy(f);
	sched_destroy(is);
	cfg_destroy(c);
}

Test(sched_cfg, options_reach_the_params)
{
	struct sim_error err = { 0 };
	struct cfg *c = mk_cfg();
	const char *ov[] = {
		"gpu.core.scheduler.policy=paws-tl", "gpu.core.scheduler.group_size_warps=4",
		"gpu.core.scheduler.ready_queue_warps=3", "gpu.core.scheduler.pro.threshold_cycles=500",
		"gpu.core.scheduler.strict_groups=false", "gpu.core.scheduler.strict_free_units=false",
		"gpu.core.scheduler.tl.switch_on=long-latency", "gpu.core.scheduler.owl.blocked_on=long-latency-or-barrier",
		"gpu.core.scheduler.mwf.no_barrier_order=base", "gpu.core.scheduler.paws.sort_key=following-phase",
	};
	for (size_t i = 0; i < SIM_ARRAY_LEN(ov); i++)
		cr_assert_eq(cfg_set_override(c, ov[i], &err), 0, "%s: %s", ov[i], err.msg);
	struct sched_params p;
	cr_assert_eq(sched_params_from_cfg(&p, c, &err), 0, "%s", err.msg);
	cr_expect_str_eq(p.policy, "paws-tl");
	cr_expect_eq(p.group_size_warps, 4);
	cr_expect_eq(p.ready_queue_warps, 3);
	cr_expect_eq(p.pro_threshold_cycles, 500);
	cr_expect(!p.strict_groups);
	cr_expect(!p.strict_free_units);
	cr_expect_eq(p.tl_switch, SCHED_TL_SWITCH_LONG_LAT);
	cr_expect_eq(p.owl_blocked, SCHED_OWL_BLOCKED_LONG_LAT);
	cr_expect_eq(p.mwf_idle, SCHED_MWF_IDLE_BASE);
	cr_expect_eq(p.paws_key, SCHED_PAWS_KEY_FOLLOWING);
	cr_expect_eq(cfg_set_override(c, "gpu.core.scheduler.group_size_warps=0", &err), SIM_ERR_CONFIG,
		     "range 1..64");
	cfg_destroy(c);
}

/* fetch_eligible: each policy's own rule (BAWS Sec 2.2 empty I-buffer for rr and cff, Sec 6.2
 * "fewest entries" for fef), or one rule for every fetch policy. */
static bool partial_of(const char *fetch, const char *eligible)
{
	struct cfg *c = mk_cfg();
	struct sim_error err = { 0 };
	char kv[96];
	snprintf(kv, sizeof kv, "gpu.core.scheduler.fetch=%s", fetch);
	cr_assert_eq(cfg_set_override(c, kv, &err), 0, "%s", err.msg);
	snprintf(kv, sizeof kv, "gpu.core.scheduler.fetch_eligible=%s", eligible);
	cr_assert_eq(cfg_set_override(c, kv, &err), 0, "%s", err.msg);
	struct tcore t;
	tcore_init(&t, 0, 1, 1, 8, 8);
	struct sched *is = sched_issue_create(c, &t.core, &err);
	cr_assert_not_null(is, "%s", err.msg);
	struct sched *f = sched_fetch_create(c, &t.core, is, &err);
	cr_assert_not_null(f, "%s", err.msg);
	bool r = f->fetch_partial;
	sched_destroy(f);
	sched_destroy(is);
	cfg_destroy(c);
	return r;
}

Test(sched_cfg, fetch_eligible_same_rule_for_every_policy)
{
	cr_expect(!partial_of("rr", "policy"));
	cr_expect(!partial_of("cff", "policy"));
	cr_expect(partial_of("fef", "policy"));
	cr_expect(partial_of("rr", "free-slot"));
	cr_expect(partial_of("cff", "free-slot"));
	cr_expect(partial_of("fef", "free-slot"));
	cr_expect(!partial_of("cff", "empty"));
	cr_expect(!partial_of("fef", "empty"));
}
