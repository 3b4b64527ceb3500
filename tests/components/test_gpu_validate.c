/* SPDX-License-Identifier: MIT */
/* components/gpu.h gpu_cfg_validate: cross-module constraints, checked before anything is built
 * (issue 19: an ejection queue of 1 or 2 flits tripped noc_cycle.c's invariant). */
#include <criterion/criterion.h>
#include <string.h>

#include "components/gpu.h"

static int validate(const char *const *ov, char *msg)
{
	struct cfg *c = cfg_create();
	struct sim_error err = {0};
	cr_assert_eq(gpu_cfg_define_all(c, &err), 0);
	for (int i = 0; ov[i]; i++)
		cr_assert_eq(cfg_set_override(c, ov[i], &err), 0, "%s: %s", ov[i], err.msg);
	int rc = gpu_cfg_validate(c, &err);
	msg[0] = '\0';
	if (rc)
		sim_error_format(&err, msg, 1024);
	cfg_destroy(c);
	return rc;
}

Test(gpu_validate, ejection_queue_must_hold_the_largest_packet)
{
	char msg[1024];
	/* 128-byte line + 8-byte header = 136 bytes = 5 flits of 32 bytes */
	const char *const ov[] = {"gpu.memory.l1d.line_bytes=128", "gpu.memory.l1c.line_bytes=64",
				  "gpu.memory.l1t.line_bytes=64", "gpu.noc.channel_bytes=32", "gpu.noc.vcs=1",
				  "gpu.noc.eject_queue_flits=4", NULL};
	cr_assert_eq(validate(ov, msg), SIM_ERR_CONFIG);
	cr_assert(strstr(msg, "gpu.noc.eject_queue_flits: 4 flits cannot hold the largest packet: 136 bytes"),
		  "%s", msg);
	const char *const ok[] = {"gpu.memory.l1d.line_bytes=128", "gpu.memory.l1c.line_bytes=64",
				  "gpu.memory.l1t.line_bytes=64", "gpu.noc.channel_bytes=32", "gpu.noc.vcs=1",
				  "gpu.noc.eject_queue_flits=5", NULL};
	cr_assert_eq(validate(ok, msg), 0, "%s", msg);
}

Test(gpu_validate, every_ejection_vc_of_a_class_needs_room_for_a_packet)
{
	char msg[1024];
	/* one network per class: 4 VCs x 3 flits (64 + 8 bytes) = 12 */
	const char *const net11[] = {"gpu.memory.l1d.line_bytes=64", "gpu.memory.l1c.line_bytes=64",
				     "gpu.memory.l1t.line_bytes=64", "gpu.noc.vcs=4",
				     "gpu.noc.class_separation=networks", "gpu.noc.eject_queue_flits=11", NULL};
	cr_assert_eq(validate(net11, msg), SIM_ERR_CONFIG);
	cr_assert(strstr(msg, "3-flit packet on each of the 4 ejection VCs"), "%s", msg);
	cr_assert(strstr(msg, "deadlock below 12"), "%s", msg);
	/* classes sharing one network split the VCs: 2 per class, so 6 flits do */
	const char *const vcs6[] = {"gpu.memory.l1d.line_bytes=64", "gpu.memory.l1c.line_bytes=64",
				    "gpu.memory.l1t.line_bytes=64", "gpu.noc.vcs=4",
				    "gpu.noc.class_separation=vcs", "gpu.noc.eject_queue_flits=6", NULL};
	cr_assert_eq(validate(vcs6, msg), 0, "%s", msg);
	/* the flow models have no ejection queue */
	const char *const flow[] = {"gpu.noc.model=flow", "gpu.noc.eject_queue_flits=1", NULL};
	cr_assert_eq(validate(flow, msg), 0, "%s", msg);
}
