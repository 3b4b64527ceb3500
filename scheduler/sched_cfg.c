/* SPDX-License-Identifier: MIT */
/* The config layer of scheduler/: declares gpu.core.scheduler.* and reads them into a
 * struct sched_params; sched_issue_create / sched_fetch_create are thin wrappers. */
#include <stdio.h>
#include <string.h>

#include "sched_internal.h"

static const char *const tl_switch_choices[] = { "long-latency", "any-stall", NULL };
static const char *const mwf_idle_choices[] = { "tb-order", "base", NULL };
static const char *const owl_blocked_choices[] = { "l1-miss", "long-latency-or-barrier", NULL };
static const char *const paws_key_choices[] = { "entering-phase", "following-phase", NULL };
static const char *const fetch_eligible_choices[] = { "policy", "empty", "free-slot", NULL };

static const struct cfg_key_def sched_keys[] = {
	CFG_KEY_STR("gpu.core.scheduler.policy", "lrr",
		    "issue policy: lrr gto oldest tl tl-active tl-rr tl-gto owl-cta owl-locality owl-blp pro "
		    "mwf-lrr mwf-gto saws paws paws-tl"),
	CFG_KEY_STR("gpu.core.scheduler.fetch", "rr", "fetch policy: rr cff fef (BAWS Sec 4.2, 6.2)"),
	CFG_KEY_ENUM("gpu.core.scheduler.fetch_eligible", "policy", fetch_eligible_choices,
		     "which warps may fetch: policy (rr, cff: an empty I-buffer, BAWS Sec 2.2; fef: one with a "
		     "free slot, Sec 6.2 \"fewest entries\"), or the same rule for every fetch policy (empty, "
		     "free-slot), so that fetch policies differ in their order alone"),
	CFG_KEY_INT("gpu.core.scheduler.group_size_warps", "warps", 8, 1, SCHED_MAX_WARPS,
		    "tl: fetch-group size in warps of one issue scheduler (Narasiman Sec 3.2: its core has one "
		    "scheduler, and Sec 3.2.1 sizes a group to fill the pipeline that scheduler feeds, so with "
		    "n_schedulers = 2 a group of 8 is 8 of a scheduler's warps, 16 of the SM's at once); "
		    "owl-*: minimum warps per CTA group over the SM (g_size, OWL Sec 5.2)"),
	CFG_KEY_INT("gpu.core.scheduler.ready_queue_warps", "warps", 6, 1, SCHED_MAX_WARPS,
		    "ready-queue size of tl-rr, tl-gto and paws-tl (PAWS Sec II-B2); active warps of tl-active "
		    "(GPGPU-Sim 3.x two_level_active:6:0:1 on its GTX480)"),
	CFG_KEY_INT("gpu.core.scheduler.pro.threshold_cycles", "cycles", 1000, 1, 1000000000,
		    "PRO: re-sort noWait TBs and their warps after this many cycles (PRO Sec III-C)"),
	CFG_KEY_BOOL("gpu.core.scheduler.strict_groups", 1,
		     "two-level policies issue only from the chosen group / ready queue (off: lower groups fill idle slots)"),
	CFG_KEY_BOOL("gpu.core.scheduler.strict_free_units", 1,
		     "tl/owl-* with strict_groups: when no warp of the chosen group is ready and one waits for a busy unit, other groups may use the free units"),
	CFG_KEY_ENUM("gpu.core.scheduler.tl.switch_on", "any-stall", tl_switch_choices,
		     "tl: switch fetch group when every warp of it is stalled for any reason (any-stall, "
		     "Narasiman Sec 3.2, 3.2.2), or only when all wait on long-latency loads or a barrier"),
	CFG_KEY_ENUM("gpu.core.scheduler.mwf.no_barrier_order", "tb-order", mwf_idle_choices,
		     "mwf-*: with no warp at a barrier, order TBs by id (tb-order) or use plain LRR/GTO (base)"),
	CFG_KEY_ENUM("gpu.core.scheduler.owl.blocked_on", "l1-miss", owl_blocked_choices,
		     "owl-*: a warp is blocked (Algorithm 1: \"because of unavailability of data\") while it waits "
		     "on data from L2/DRAM (l1-miss: OWL Sec 2, an L1 hit or a barrier wait does not switch "
		     "groups), or on any long-latency opcode's result or at a barrier"),
	CFG_KEY_ENUM("gpu.core.scheduler.paws.sort_key", "entering-phase", paws_key_choices,
		     "paws-tl: sort the active queue by the length of the phase a warp enters, or the one after"),
};

int sched_cfg_define(struct cfg *c, struct sim_error *err)
{
	return cfg_define(c, sched_keys, SIM_ARRAY_LEN(sched_keys), err);
}

static bool in_list(const char *const *names, const char *v)
{
	for (; *names; names++)
		if (strcmp(*names, v) == 0)
			return true;
	return false;
}

static int pick(const char *const *choices, const char *v)
{
	for (int i = 0; choices[i]; i++)
		if (strcmp(choices[i], v) == 0)
			return i;
	return 0;
}

static int read_name(const struct cfg *cfg, const char *path, const char *const *names, char *dst,
		     struct sim_error *err)
{
	const char *v = cfg_str(cfg, path);
	if (!in_list(names, v) || strlen(v) >= SCHED_NAME_MAX) {
		char list[256] = "";
		for (const char *const *n = names; *n; n++) {
			strncat(list, " ", sizeof list - strlen(list) - 1);
			strncat(list, *n, sizeof list - strlen(list) - 1);
		}
		return cfg_error(err, cfg, path, "unknown policy \"%s\"; one of:%s", v, list);
	}
	snprintf(dst, SCHED_NAME_MAX, "%s", v);
	return 0;
}

int sched_params_from_cfg(struct sched_params *p, const struct cfg *cfg, struct sim_error *err)
{
	sched_params_default(p);
	int rc = read_name(cfg, "gpu.core.scheduler.policy", sched_issue_names(), p->policy, err);
	if (rc)
		return rc;
	rc = read_name(cfg, "gpu.core.scheduler.fetch", sched_fetch_names(), p->fetch, err);
	if (rc)
		return rc;
	p->group_size_warps = (uint32_t)cfg_int(cfg, "gpu.core.scheduler.group_size_warps");
	p->ready_queue_warps = (uint32_t)cfg_int(cfg, "gpu.core.scheduler.ready_queue_warps");
	p->pro_threshold_cycles = (uint64_t)cfg_int(cfg, "gpu.core.scheduler.pro.threshold_cycles");
	p->strict_groups = cfg_bool(cfg, "gpu.core.scheduler.strict_groups");
	p->strict_free_units = cfg_bool(cfg, "gpu.core.scheduler.strict_free_units");
	p->tl_switch = (enum sched_tl_switch)pick(tl_switch_choices, cfg_str(cfg, "gpu.core.scheduler.tl.switch_on"));
	p->mwf_idle = (enum sched_mwf_idle)pick(mwf_idle_choices, cfg_str(cfg, "gpu.core.scheduler.mwf.no_barrier_order"));
	p->owl_blocked = (enum sched_owl_blocked)pick(owl_blocked_choices, cfg_str(cfg, "gpu.core.scheduler.owl.blocked_on"));
	p->paws_key = (enum sched_paws_key)pick(paws_key_choices, cfg_str(cfg, "gpu.core.scheduler.paws.sort_key"));
	p->fetch_eligible = (enum sched_fetch_eligible)pick(fetch_eligible_choices,
							     cfg_str(cfg, "gpu.core.scheduler.fetch_eligible"));
	return 0;
}

static struct sched *create(const struct cfg *cfg, bool fetch, const struct sched_core_view *core,
			    struct sched *issue, struct sim_error *err)
{
	struct sched_params p;
	if (sched_params_from_cfg(&p, cfg, err) != 0)
		return NULL;
	struct sched *s = sched_create_params(&p, fetch, core, issue, err);
	if (!s && err && err->code == SIM_ERR_CONFIG && err->line == 0) {
		/* Re-anchor the error at the setting's file:line. */
		const char *path = fetch ? "gpu.core.scheduler.fetch" : "gpu.core.scheduler.policy";
		char msg[sizeof err->msg];
		snprintf(msg, sizeof msg, "%s", err->msg);
		cfg_error(err, cfg, path, "%s", msg);
	}
	return s;
}

struct sched *sched_issue_create(const struct cfg *cfg, const struct sched_core_view *core,
				 struct sim_error *err)
{
	return create(cfg, false, core, NULL, err);
}

struct sched *sched_fetch_create(const struct cfg *cfg, const struct sched_core_view *core,
				 struct sched *issue, struct sim_error *err)
{
	return create(cfg, true, core, issue, err);
}
