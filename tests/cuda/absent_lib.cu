// SPDX-License-Identifier: MIT
// A program that needs a library nobody has (libwarpsim_absent.so.1, built by the Makefile for
// the link only and not kept): the dynamic loader refuses it before main (test_cmd_cuda.c).
#include <cstdio>

extern "C" int warpsim_absent(void);

__global__ void nothing() {}

int main()
{
	nothing<<<1, 1>>>();
	printf("%d\n", warpsim_absent());
	return 0;
}
