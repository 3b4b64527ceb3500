/* SPDX-License-Identifier: MIT */
/* The simgrid-flow NoC's entry points in libwarpsim: they open SimGrid's plugin (its code is
 * noc_sgflow.cc) only when a configuration asks for this model (topologies/sg_plugin.c). */
#ifdef WARPSIM_HAVE_SIMGRID
#include "noc_impl.h"

#include <stdio.h>

struct noc_base *noc_sgflow_new(const struct noc_params *p, const struct topo *t, struct sim_error *err)
{
	struct noc_base *(*f)(const struct noc_params *, const struct topo *, struct sim_error *) =
		(struct noc_base * (*)(const struct noc_params *, const struct topo *, struct sim_error *))
			topo_sg_plugin_symbol("noc_sgflow_plugin_new", err);
	if (!f) {
		if (err && !err->setting[0])
			snprintf(err->setting, sizeof err->setting, "gpu.noc.model");
		return NULL;
	}
	return f(p, t, err);
}

int noc_sgflow_stats(struct noc_base *b, struct stats *st)
{
	/* the plugin is open: noc_sgflow_new succeeded */
	int (*f)(struct noc_base *, struct stats *) =
		(int (*)(struct noc_base *, struct stats *))topo_sg_plugin_symbol("noc_sgflow_plugin_stats", NULL);
	SIM_ASSERT(f);
	return f(b, st);
}
#endif
