// SPDX-License-Identifier: MIT
// Correlation host for workloads/hotspot/hotspot.cfg: args nx ny steps.
#include "wl_host.h"
#include "../../../workloads/hotspot/hotspot.cu"

int main(int argc, char **argv)
{
	long nx = wlh_arg(argc, argv, 1, 128), ny = wlh_arg(argc, argv, 2, 128), steps = wlh_arg(argc, argv, 3, 2);
	float *ta = wlh_dev(wlh_random_float<float>(nx * ny, 18, 20.0, 80.0), nx * ny);
	float *tb = wlh_dev<float>(NULL, nx * ny);
	float *pw = wlh_dev(wlh_random_float<float>(nx * ny, 19, 0.0, 0.5), nx * ny);
	for (long s = 0; s < steps; s++) {
		hotspot_step<<<dim3((nx + 15) / 16, (ny + 15) / 16), dim3(16, 16)>>>(ta, pw, tb, (int)nx, (int)ny, 0.6f, 0.1f);
		float *t = ta; ta = tb; tb = t;   /* swap = ["temp_a", "temp_b"] */
	}
	wlh_done("hotspot");
	return 0;
}
