/* SPDX-License-Identifier: MIT */
/* SimGrid calls that may throw, wrapped for C (simgrid_guard.cc): 0, or -1 with SimGrid's
 * message (one line) in msg and, for a parse error, the platform file's line in *line. */
#ifndef WARPSIM_SIMGRID_GUARD_H
#define WARPSIM_SIMGRID_GUARD_H

#include <stddef.h>

#include <simgrid/host.h>
#include <xbt/dynar.h>

#ifdef __cplusplus
extern "C" {
#endif
/* simgrid_init, simgrid_load_platform, simgrid_run_until(0). */
int topo_sg_guard_load(int *argc, char **argv, const char *platform, char *msg, size_t n, int *line);
/* sg_host_get_route(src, dst, links). */
int topo_sg_guard_route(sg_host_t src, sg_host_t dst, xbt_dynar_t links, char *msg, size_t n);
#ifdef __cplusplus
}
#endif

#endif
