/* SPDX-License-Identifier: MIT */
/* `warpsim config --list [--json]` and `warpsim validate -c CONFIG [-s k=v]... [--json]`. */
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "../components/gpu.h"
#include "cli.h"

static const char *const config_flags[] = {"--list", "--resolved", NULL};

int cmd_config(int argc, char **argv, struct sim_error *err)
{
	struct cli_opts o;
	int rc = cli_parse(argc, argv, "cs", NULL, config_flags, &o, err);
	if (rc)
		return rc;
	if (o.help || (!cli_long(&o, "--list") && !cli_long(&o, "--resolved"))) {
		printf("usage: warpsim config --list [--json]            every setting, default, range, help\n"
		       "       warpsim config --resolved -c CONFIG [-s key=value]...   the merged configuration\n");
		return o.help ? 0 : sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, NULL,
						  "config needs --list or --resolved");
	}
	if (o.n_positional)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, o.positional[0], "unexpected argument");
	struct cfg *c;
	rc = cli_build_cfg(&o, &c, err);
	if (rc)
		return rc;
	if (cli_long(&o, "--list"))
		cfg_print_list(c, stdout, o.json);
	else
		rc = cfg_write_resolved(c, stdout, err);
	cfg_destroy(c);
	return rc;
}

int cmd_validate(int argc, char **argv, struct sim_error *err)
{
	struct cli_opts o;
	int rc = cli_parse(argc, argv, "cs", NULL, NULL, &o, err);
	if (rc)
		return rc;
	if (o.help) {
		printf("usage: warpsim validate -c CONFIG [-c MORE]... [-s key=value]... [--json]\n"
		       "checks every setting (types, ranges, cross-setting limits); exit 0 if valid, 2 if not\n");
		return 0;
	}
	if (o.n_positional)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, o.positional[0], "unexpected argument");
	if (!o.n_configs)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "-c", "validate needs -c CONFIG");
	struct cfg *c;
	rc = cli_build_cfg(&o, &c, err);
	if (!rc) {
		/* Build the whole machine once: every module checks its own settings when it is
		 * built (policy names, placement, deadlock-free routing, cache geometry...). */
		struct stats *st = stats_create();
		struct gpu *g = st ? gpu_create(c, st, err) : NULL;
		if (!g)
			rc = st ? (err->code ? (int)err->code : SIM_ERR_CONFIG)
				: sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		gpu_destroy(g);
		stats_destroy(st);
		if (rc)
			cfg_destroy(c);
	}
	if (o.json) {
		char line[1024] = "";
		if (rc)
			sim_error_format(err, line, sizeof line);
		json_t *doc = json_pack("{s:b, s:s}", "valid", rc == 0, "error", line);
		char *s = json_dumps(doc, 0);
		printf("%s\n", s);
		free(s);
		json_decref(doc);
	} else if (!rc) {
		printf("%s: valid\n", o.configs[o.n_configs - 1]);
	}
	if (!rc)
		cfg_destroy(c);
	return rc;
}
