// SPDX-License-Identifier: MIT
// Monte Carlo blackjack: each thread plays `games` hands with its own LCG stream and a
// thread-specific standing threshold; card draws make every loop and branch data dependent.
__device__ static unsigned bj_rand(unsigned *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

__device__ static int bj_card(unsigned *s)
{
	int c = (int)(bj_rand(s) % 13u) + 1;
	return c > 10 ? 10 : c; /* ace counts 1 here, maybe 11 in bj_value */
}

__device__ static int bj_value(int sum, int aces)
{
	return (aces > 0 && sum + 10 <= 21) ? sum + 10 : sum;
}

extern "C" __global__ void blackjack(const unsigned *seeds, int *net, int n, int games)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i >= n)
		return;
	unsigned s = seeds[i];
	int stand_at = 12 + i % 7, total = 0;
	for (int g = 0; g < games; g++) {
		int ps = 0, pa = 0, ds = 0, da = 0, c;
		for (int k = 0; k < 2; k++) {
			c = bj_card(&s);
			ps += c;
			pa += c == 1;
		}
		while (bj_value(ps, pa) < stand_at) {
			c = bj_card(&s);
			ps += c;
			pa += c == 1;
		}
		int pv = bj_value(ps, pa);
		if (pv > 21) {
			total--;
			continue;
		}
		for (int k = 0; k < 2; k++) {
			c = bj_card(&s);
			ds += c;
			da += c == 1;
		}
		while (bj_value(ds, da) < 17) {
			c = bj_card(&s);
			ds += c;
			da += c == 1;
		}
		int dv = bj_value(ds, da);
		if (dv > 21 || pv > dv)
			total++;
		else if (pv < dv)
			total--;
	}
	net[i] = total;
}
