// SPDX-License-Identifier: MIT
// Correlation host for workloads/blackjack/blackjack.cfg: args n games.
#include "wl_host.h"
#include "../../../workloads/blackjack/blackjack.cu"

int main(int argc, char **argv)
{
	long n = wlh_arg(argc, argv, 1, 8192), games = wlh_arg(argc, argv, 2, 4);
	unsigned *seeds = wlh_dev(wlh_random_int<unsigned>(n, 23, 0, 4294967295LL), n);
	int *net = wlh_dev<int>(NULL, n);
	blackjack<<<(n + 127) / 128, 128>>>(seeds, net, (int)n, (int)games);
	wlh_done("blackjack");
	return 0;
}
