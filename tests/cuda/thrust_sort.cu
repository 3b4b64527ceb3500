// SPDX-License-Identifier: MIT
// Thrust's sort of 32-bit keys (CUB's radix sort underneath: its PTX has bmsk, which the front
// end once refused, and the program died loading it), checked against std::sort.
// usage: thrust_sort [N]   (N keys, default 2000: one block-level sort; 100000: six launches
// of the onesweep radix sort)
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2000;
	thrust::host_vector<unsigned> h(n);
	unsigned x = 12345;
	for (int i = 0; i < n; i++) {
		x = x * 1103515245u + 12345u;
		h[i] = x;
	}
	thrust::device_vector<unsigned> d = h;
	thrust::sort(d.begin(), d.end());
	thrust::host_vector<unsigned> r = d;
	std::sort(h.begin(), h.end());
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad += r[i] != h[i];
	printf("%d keys sorted, %d out of place\n%s\n", n, bad, bad ? "FAIL" : "PASS");
	return bad ? 1 : 0;
}
