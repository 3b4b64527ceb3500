/* SPDX-License-Identifier: MIT */
/* SimGrid platform files read with expat before SimGrid sees them (internal to topologies/):
 * what SimGrid 3.32 aborts on (xbt_assert, xbt_die) is refused here, at the element's line. */
#ifndef WARPSIM_PLATFORM_XML_H
#define WARPSIM_PLATFORM_XML_H

#include <stdbool.h>
#include <stddef.h>

#include "../engine/sim_error.h"
#include "topology.h"

#define TOPO_SIMGRID_MAX_HOSTS 4096

struct topo_plat_name; /* a name (host, router, zone, link) with its line */

/* What the reader learnt; owned, freed by topo_plat_fini (safe on a zeroed struct). */
struct topo_plat {
	int torus_dims[TOPO_MAX_DIMS], torus_nd; /* the first TORUS cluster's shape; nd 0: none */
	char lone_cluster;           /* 'F' (FLAT) or 'T' (TORUS): the platform is that one top-level
	                              * <cluster>, its radicals ascending (hosts in name order are its
	                              * ranks); 0 otherwise */
	bool well_formed;            /* false: expat stopped at xml_line (SimGrid is asked for its own
	                              * message; xml_msg is ours if SimGrid loads the file anyway) */
	int xml_line;
	char xml_msg[160];
	struct topo_plat_name *names;/* open-addressed table, cap a power of two */
	size_t n_names, cap_names;
};

/* Read path. 0: nothing SimGrid aborts on was found (check p->well_formed); else SIM_ERR_CONFIG
 * (file, line and element in err) or SIM_ERR_NOMEM. */
int topo_plat_read(const char *path, struct topo_plat *p, struct sim_error *err);
/* The line of link name (a SPLITDUPLEX link's "_UP"/"_DOWN" half maps to its <link>; a cluster's
 * links to the <cluster> whose id starts the name); 0 if unknown. */
int topo_plat_link_line(const struct topo_plat *p, const char *name);
/* The line of host name's <host> or <cluster>; 0 if unknown. */
int topo_plat_host_line(const struct topo_plat *p, const char *name);
void topo_plat_fini(struct topo_plat *p);

#endif
