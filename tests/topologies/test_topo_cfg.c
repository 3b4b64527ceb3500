/* SPDX-License-Identifier: MIT */
/* Tests for topologies/topo_cfg.c through `warpsim validate`: gpu.noc.platform resolves from
 * the config file that sets it (a second -c file in another directory), and from the working
 * directory when given with -s. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

static int sh(const char *cmd)
{
	int st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

Test(topo_cfg, a_platform_resolves_from_the_file_that_sets_it, .timeout = 60)
{
	const char *bin = getenv("WARPSIM_BIN");
	cr_assert_not_null(bin);
	char dir[] = "/tmp/ws_topocfg_XXXXXX", cmd[2048];
	cr_assert_not_null(mkdtemp(dir));
	snprintf(cmd, sizeof cmd, "mkdir -p %s/plat && cp topologies/platforms/torus-6x6.xml %s/plat/t.xml && "
		 "printf 'gpu = { noc = { topology = \"simgrid\"; platform = \"plat/t.xml\"; }; };\\n' > %s/sg.cfg",
		 dir, dir, dir);
	cr_assert_eq(sh(cmd), 0);
	/* owl-28's 28 cores and 8 channels on the 6x6 torus; the first -c file is in configs/,
	 * where plat/t.xml is not */
	snprintf(cmd, sizeof cmd, "%s validate -c configs/owl-28.cfg -c %s/sg.cfg >/dev/null", bin, dir);
	cr_expect_eq(sh(cmd), 0, "platform not found beside sg.cfg");
	snprintf(cmd, sizeof cmd, "%s validate -c configs/owl-28.cfg -s gpu.noc.topology=simgrid "
		 "-s gpu.noc.platform=topologies/platforms/torus-6x6.xml >/dev/null", bin);
	cr_expect_eq(sh(cmd), 0, "an -s platform is relative to the working directory");
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	cr_assert_eq(sh(cmd), 0);
}
