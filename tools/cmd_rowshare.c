/* SPDX-License-Identifier: MIT */
/* `warpsim rowshare`: OWL's Table 4 for a workload on a machine's address map: how many CTAs
 * of a kernel launch touch each DRAM row, and how many of them are consecutive (row_share.h).
 * The workload runs functionally; its global, local and texture accesses are mapped to rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../frontend/fe.h"
#include "../memory/row_share.h"
#include "../workloads/warpsim.h"
#include "../workloads/workload.h"
#include "cli.h"

struct rs_run {
	struct row_share *rs;
	uint64_t accesses;            /* lane accesses mapped */
	struct ws_func_stats fs;      /* the functional device's: the livelock limit, the observer */
	struct fe_device dev;         /* ws_functional_device(&fs) */
};

static void usage(void)
{
	printf("usage: warpsim rowshare -c CONFIG [-c PRESET]... [-s key=value]... -w WORKLOAD [--size SIZE] [--json]\n"
	       "runs the workload functionally and maps its global, local and texture accesses to DRAM\n"
	       "rows with the machine's address map (gpu.dram.*); prints OWL's Table 4 figures over every\n"
	       "(kernel launch, row) touched: CTAs per row, and consecutive CTA row sharing (the mean\n"
	       "fraction of a row's CTAs whose id is next to another's there)\n");
}

static int observe(void *ctx, uint32_t cta, const struct warp_inst *wi, struct sim_error *err)
{
	struct rs_run *r = ctx;
	uint8_t sp = wi->si->space;
	if (sp != WI_SPACE_GLOBAL && sp != WI_SPACE_LOCAL && sp != WI_SPACE_TEX)
		return 0; /* shared memory, kernel parameters and constants are not the kernel's data */
	for (uint32_t lane = 0; lane < wi->n_lanes; lane++) {
		if (!wi_lane_active(wi, lane))
			continue;
		if (row_share_access(r->rs, cta, wi->addr[lane]))
			return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		r->accesses++;
	}
	return 0;
}

/* A launch on the functional device, then its rows into the result. */
static int launch(void *ctx, struct fe_launch *l, struct sim_error *err)
{
	struct rs_run *r = ctx;
	int rc = r->dev.launch(r->dev.ctx, l, err);
	if (!rc && row_share_end_launch(r->rs))
		rc = sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	return rc;
}

int cmd_rowshare(int argc, char **argv, struct sim_error *err)
{
	static const char *const with_value[] = {"--size", NULL};
	struct cli_opts o;
	int rc = cli_parse_command(argc, argv, "csw", with_value, NULL, usage, &o, err);
	if (rc || o.help)
		return rc;
	if (!o.n_configs)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "-c", "rowshare needs -c CONFIG (its address map)");
	if (!o.workload)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "-w", "rowshare needs -w WORKLOAD");
	struct cfg *c = NULL;
	struct workload *w = NULL;
	struct rs_run r = {0};
	struct mem_addrmap map;
	if ((rc = cli_build_cfg(&o, &c, err)) || (rc = mem_addrmap_init(&map, c, err)))
		goto out;
	/* as warpsim run --functional: 0 in the setting means no limit */
	int64_t ll = cfg_int(c, "sim.functional_livelock_warp_insts");
	r.fs = (struct ws_func_stats){.livelock_warp_insts = ll ? (uint64_t)ll : UINT64_MAX, .observe = observe,
				      .observe_ctx = &r};
	r.dev = ws_functional_device(&r.fs);
	if (!(r.rs = row_share_create(&map))) {
		rc = sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		goto out;
	}
	if (!(w = workload_load_size(o.workload, cli_long(&o, "--size"), err))) {
		rc = err->code ? (int)err->code : SIM_ERR_INPUT;
		goto out;
	}
	struct fe_device dev = {.launch = launch, .ctx = &r};
	if ((rc = workload_run(w, &dev, NULL, err)))
		goto out;
	struct row_share_result res;
	row_share_result(r.rs, &res);
	if (o.json) {
		/* the path as a JSON string (quotes and backslashes escaped), the figures to 4 places */
		json_t *js = json_string(o.workload);
		char *path = js ? json_dumps(js, JSON_ENCODE_ANY) : NULL;
		json_decref(js);
		if (!path) {
			rc = sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
			goto out;
		}
		printf("{\"workload\": %s, \"launches\": %llu, \"accesses\": %llu, \"rows\": %llu, "
		       "\"ctas_per_row\": %.4f, \"consecutive_cta_row_sharing\": %.4f}\n",
		       path, (unsigned long long)res.launches, (unsigned long long)r.accesses,
		       (unsigned long long)res.rows, res.ctas_per_row, res.consecutive);
		free(path);
	} else
		printf("%s: %llu launches, %llu lane accesses, %llu (launch, DRAM row) pairs\n"
		       "CTAs per row %.2f, consecutive CTA row sharing %.1f%%\n",
		       o.workload, (unsigned long long)res.launches, (unsigned long long)r.accesses,
		       (unsigned long long)res.rows, res.ctas_per_row, 100.0 * res.consecutive);
out:
	workload_destroy(w);
	row_share_destroy(r.rs);
	cfg_destroy(c);
	return rc;
}
