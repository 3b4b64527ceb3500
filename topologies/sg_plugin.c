/* SPDX-License-Identifier: MIT */
/* SimGrid's side of warpsim (the platform loader, the simgrid-flow NoC) is a plugin,
 * libwarpsim-simgrid.so, opened here the first time a configuration needs it. Debian's
 * libsimgrid pulls in ns-3, Boost and GSL at load (about 0.04 CPU s per process, a third of a
 * functional vecadd run), so a process that never uses SimGrid must not link it. */
#ifdef WARPSIM_HAVE_SIMGRID
#define _GNU_SOURCE /* dladdr */
#include "topology.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SG_PLUGIN_FILE "libwarpsim-simgrid.so"

void *topo_sg_plugin_symbol_at(const char *path, const char *name, struct sim_error *err)
{
	/* Never closed: the simgrid-flow NoC's operations point into it, and SimGrid cannot be
	 * unloaded. dlopen of an open file only counts a reference, so no handle is kept here. */
	void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		const char *why = dlerror();
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
			      "SimGrid is needed here, but its plugin cannot be loaded: %s", why ? why : path);
		return NULL;
	}
	void *f = dlsym(h, name);
	if (!f)
		sim_error_set(err, SIM_ERR_CONFIG, NULL, 0, 0, NULL,
			      "SimGrid's plugin %s has no %s (built from another warpsim?)", path, name);
	return f;
}

void *topo_sg_plugin_symbol(const char *name, struct sim_error *err)
{
	/* Next to the object holding this code (libwarpsim.so, build/lib/ or installed), else the
	 * build tree's lib/ (a test or fuzz harness links the modules statically). */
	char path[4096];
	Dl_info info;
	if (dladdr((void *)topo_sg_plugin_symbol, &info) && info.dli_fname) {
		const char *slash = strrchr(info.dli_fname, '/');
		int dir_len = slash ? (int)(slash - info.dli_fname) : 1;
		const char *dir = slash ? info.dli_fname : ".";
		if (snprintf(path, sizeof path, "%.*s/%s", dir_len, dir, SG_PLUGIN_FILE) < (int)sizeof path &&
		    access(path, F_OK) == 0)
			return topo_sg_plugin_symbol_at(path, name, err);
	}
	return topo_sg_plugin_symbol_at(WARPSIM_PLUGIN_DIR "/" SG_PLUGIN_FILE, name, err);
}

struct topo *topo_simgrid_load(const char *platform_xml, uint32_t channel_bytes, struct sim_error *err)
{
	struct topo *(*load)(const char *, uint32_t, struct sim_error *) =
		(struct topo * (*)(const char *, uint32_t, struct sim_error *))topo_sg_plugin_symbol("topo_sg_plugin_load", err);
	return load ? load(platform_xml, channel_bytes, err) : NULL;
}
#endif
