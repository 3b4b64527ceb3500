/* SPDX-License-Identifier: MIT */
/* `warpsim ptx-info FILE [--json | --phases]`: load a PTX file and print its kernels, resources and phases. */
#include <stdio.h>
#include <string.h>

#include "../frontend/fe.h"
#include "../frontend/fe_ptxas.h"

int cmd_ptx_info(int argc, char **argv, struct sim_error *err);

int cmd_ptx_info(int argc, char **argv, struct sim_error *err)
{
	const char *path = NULL;
	bool json = false, phases = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--phases")) {
			phases = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			printf("usage: warpsim ptx-info FILE.ptx [--json | --phases]\n"
			       "  kernels, parameters, registers, shared/local memory and PAWS phases;\n"
			       "  --phases lists every phase (first pc and line, instructions, cycles);\n"
			       "  registers per thread are ptxas's (-arch=" FE_PTXAS_ARCH " -v, cached) when ptxas\n"
			       "  is found (WARPSIM_PTXAS, PATH, $CUDA_HOME/bin, /usr/local/cuda/bin) and the\n"
			       "  estimate; WARPSIM_PTXAS=none skips ptxas, WARPSIM_CACHE_DIR moves the cache\n");
			return 0;
		} else if (argv[i][0] == '-' || path) {
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, argv[i],
					     "unexpected argument (usage: warpsim ptx-info FILE [--json])");
		} else {
			path = argv[i];
		}
	}
	if (!path)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, NULL,
				     "missing PTX file (usage: warpsim ptx-info FILE [--json])");
	struct fe_module *m;
	int rc = fe_module_load(path, &m, err);
	if (rc)
		return rc;
	if (phases) {
		fe_module_print_phases(m, stdout);
	} else {
		struct fe_ptxas_opts o;
		struct fe_ptxas_regs px;
		fe_ptxas_opts_from_env(&o);
		fe_ptxas_module_regs(m, &o, &px);
		if (px.cache_warning[0])
			fprintf(stderr, "warpsim: warning: %s\n", px.cache_warning);
		fe_module_print_info(m, stdout, json, &px);
		fe_ptxas_regs_fini(&px);
	}
	fe_module_destroy(m);
	return 0;
}
