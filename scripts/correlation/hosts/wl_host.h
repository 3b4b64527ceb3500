// SPDX-License-Identifier: MIT
// Shared helpers of the correlation host programs: the workload loader's buffer initialisers
// (splitmix64 "random", "sequence", "value"), so GPGPU-Sim sees the same data warpsim does.
#ifndef WL_HOST_H
#define WL_HOST_H
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define WLH_CHECK(x)                                                                           \
	do {                                                                                   \
		cudaError_t e_ = (x);                                                          \
		if (e_ != cudaSuccess) {                                                       \
			fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,              \
				cudaGetErrorString(e_));                                       \
			exit(1);                                                               \
		}                                                                              \
	} while (0)

// splitmix64, as workloads/wl_int.h's wl_rng_next.
static inline uint64_t wlh_rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

// init = "random" for float buffers: uniform in [lo, hi) from 53 random bits.
template <typename T> static T *wlh_random_float(size_t n, uint64_t seed, double lo = 0.0, double hi = 1.0)
{
	T *p = (T *)calloc(n, sizeof(T));
	uint64_t st = seed;
	for (size_t i = 0; i < n; i++) {
		double u = (double)(wlh_rng_next(&st) >> 11) * 0x1p-53;
		p[i] = (T)(lo + u * (hi - lo));
	}
	return p;
}

// init = "random" for integer buffers: lo + r % (hi - lo + 1), stored truncated to T.
template <typename T> static T *wlh_random_int(size_t n, uint64_t seed, int64_t lo, int64_t hi)
{
	T *p = (T *)calloc(n, sizeof(T));
	uint64_t st = seed, span = (uint64_t)(hi - lo) + 1;
	for (size_t i = 0; i < n; i++) {
		uint64_t r = wlh_rng_next(&st);
		p[i] = (T)(lo + (int64_t)(span ? r % span : r));
	}
	return p;
}

// init = "sequence": start + step * i (rounded to nearest for integer buffers).
template <typename T> static T *wlh_sequence(size_t n, double start, double step)
{
	T *p = (T *)calloc(n, sizeof(T));
	for (size_t i = 0; i < n; i++) {
		double v = start + step * (double)i;
		p[i] = (T)(((T)0.5 == 0) ? (double)llround(v) : v);
	}
	return p;
}

// init = "value" (and "zeros" with v = 0).
template <typename T> static T *wlh_value(size_t n, T v)
{
	T *p = (T *)calloc(n, sizeof(T));
	for (size_t i = 0; i < n; i++)
		p[i] = v;
	return p;
}

// A device copy of n elements of h (zeros when h is NULL).
template <typename T> static T *wlh_dev(const T *h, size_t n)
{
	T *d;
	WLH_CHECK(cudaMalloc((void **)&d, n * sizeof(T)));
	if (h)
		WLH_CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
	else
		WLH_CHECK(cudaMemset(d, 0, n * sizeof(T)));
	return d;
}

// Integer argument i of argv, or def when absent (sizes are the harness's to choose).
static inline long wlh_arg(int argc, char **argv, int i, long def)
{
	return argc > i ? strtol(argv[i], NULL, 0) : def;
}

static inline void wlh_done(const char *name)
{
	WLH_CHECK(cudaDeviceSynchronize());
	printf("%s done\n", name);
}
#endif
