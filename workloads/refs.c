/* SPDX-License-Identifier: MIT */
/* Built-in reference functions: the expected result of each workload computed in C from the
 * initial data. Float kernels use explicit __f*_rn/__fmaf_rn intrinsics and these mirror their
 * operation order with fmaf and single-precision arithmetic, so most checks are exact. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wl_refs.h"

static int ref_vecadd(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	IN(a, "vecadd", "a", WL_F32, float, count, NULL);
	IN(b, "vecadd", "b", WL_F32, float, count, NULL);
	float *c = out;
	for (uint64_t i = 0; i < count; i++)
		c[i] = a[i] + b[i];
	return 0;
}

static int ref_saxpy(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	IN(x, "saxpy", "x", WL_F32, float, count, NULL);
	IN(y0, "saxpy", "y", WL_F32, float, count, NULL);
	PFLT(alpha, "saxpy", "alpha");
	float *y = out;
	for (uint64_t i = 0; i < count; i++)
		y[i] = fmaf((float)alpha, x[i], y0[i]);
	return 0;
}

/* Shared-memory tree of dot_block_sum (dot.cu): s[t] += s[t + st] for st = T/2 .. 1. */
static float ref_tree(float *s, int64_t threads)
{
	for (int64_t st = threads / 2; st > 0; st >>= 1)
		for (int64_t t = 0; t < st; t++)
			s[t] = s[t] + s[t + st];
	return s[0];
}

static int ref_dot(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	PINT(n, "dot", "n");
	PINT(blocks, "dot", "blocks");
	IN(a, "dot", "a", WL_F32, float, (uint64_t)n, NULL);
	IN(b, "dot", "b", WL_F32, float, (uint64_t)n, NULL);
	const int64_t T = 256; /* DOT_THREADS */
	float s[256], *partial = calloc((size_t)blocks, sizeof *partial);
	if (!partial || count < 1) {
		free(partial);
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, "dot", "out of memory");
	}
	for (int64_t bl = 0; bl < blocks; bl++) {
		for (int64_t t = 0; t < T; t++) {
			float sum = 0.0f;
			for (int64_t i = bl * T + t; i < n; i += T * blocks)
				sum = fmaf(a[i], b[i], sum);
			s[t] = sum;
		}
		partial[bl] = ref_tree(s, T);
	}
	for (int64_t t = 0; t < T; t++) {
		float sum = 0.0f;
		for (int64_t i = t; i < blocks; i += T)
			sum = sum + partial[i];
		s[t] = sum;
	}
	((float *)out)[0] = ref_tree(s, T);
	free(partial);
	return 0;
}

static int ref_spmv(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	uint64_t nnz, nx;
	IN(rp, "spmv", "row_ptr", WL_S32, int32_t, count + 1, NULL);
	IN(cols, "spmv", "cols", WL_S32, int32_t, 1, &nnz);
	IN(vals, "spmv", "vals", WL_F32, float, nnz, NULL);
	IN(x, "spmv", "x", WL_F32, float, 1, &nx);
	float *y = out;
	for (uint64_t r = 0; r < count; r++) {
		float s = 0.0f;
		for (int32_t e = rp[r]; e < rp[r + 1]; e++) {
			if (e < 0 || (uint64_t)e >= nnz || cols[e] < 0 || (uint64_t)cols[e] >= nx)
				return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, "spmv",
						     "CSR index out of range at row %llu",
						     (unsigned long long)r);
			s = fmaf(vals[e], x[cols[e]], s);
		}
		y[r] = s;
	}
	return 0;
}

static int ref_kmeans(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	PINT(n, "kmeans", "n");
	PINT(k, "kmeans", "k");
	PINT(d, "kmeans", "d");
	IN(pts, "kmeans", "points", WL_F32, float, (uint64_t)(n * d), NULL);
	IN(cen, "kmeans", "centroids", WL_F32, float, (uint64_t)(k * d), NULL);
	int32_t *m = out;
	for (int64_t i = 0; i < n && (uint64_t)i < count; i++) {
		float best = 3.0e38f;
		int32_t bc = 0;
		for (int64_t c = 0; c < k; c++) {
			float dist = 0.0f;
			for (int64_t f = 0; f < d; f++) {
				float df = pts[f * n + i] - cen[c * d + f];
				dist = fmaf(df, df, dist);
			}
			if (dist < best) {
				best = dist;
				bc = (int32_t)c;
			}
		}
		m[i] = bc;
	}
	return 0;
}

static int ref_pagecount(const struct workload *w, void *out, uint64_t count,
			 struct sim_error *err)
{
	PINT(n, "pagecount", "n");
	PINT(pages, "pagecount", "pages");
	PINT(tb, "pagecount", "t_begin");
	PINT(te, "pagecount", "t_end");
	IN(rec, "pagecount", "records", WL_U32, uint32_t, 4 * (uint64_t)n, NULL);
	uint32_t *c = out;
	if ((uint64_t)pages > count)
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, "pagecount",
				     "counts buffer smaller than pages");
	for (int64_t i = 0; i < n; i++) {
		const uint32_t *r = rec + 4 * i;
		uint32_t st = r[3] & 7u;
		if (st != 0 && st != 5 && r[2] >= (uint32_t)tb && r[2] < (uint32_t)te)
			c[r[0] % (uint32_t)pages]++;
	}
	return 0;
}

/* c = a b, each element s = fmaf(a[r][k], b[k][col], s) for k ascending from 0: the correctly
 * rounded fused multiply-add whether libm's call or, on a CPU with FMA instructions, one
 * instruction (as the executor's ffma_fma3). A row's elements are summed side by side (k
 * outer, col inner: each element's terms in the same order), so they are independent chains
 * rather than one; the libm call per term was a quarter of a functional matmul large. */
#define MATMUL_TERMS(a, b, c, n)                                                                   \
	for (int64_t r = 0; r < (n); r++) {                                                        \
		float *cr = (c) + r * (n);                                                         \
		for (int64_t col = 0; col < (n); col++)                                            \
			cr[col] = 0.0f;                                                            \
		for (int64_t k = 0; k < (n); k++)                                                  \
			for (int64_t col = 0; col < (n); col++)                                    \
				cr[col] = fmaf((a)[r * (n) + k], (b)[k * (n) + col], cr[col]);     \
	}
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define REF_FMA_CLONE 1
/* MATMUL_TERMS with eight columns a step: each lane of vfmadd is the correctly rounded fmaf
 * of its own element, the same terms in the same order, so the same bits. The scalar loop
 * (8 instructions a term) was 11% of a functional matmul large's instructions. */
static __attribute__((target("avx,fma"))) void matmul_fma3(const float *a, const float *b, float *c, int64_t n)
{
	for (int64_t r = 0; r < n; r++) {
		float *cr = c + r * n;
		for (int64_t col = 0; col < n; col++)
			cr[col] = 0.0f;
		for (int64_t k = 0; k < n; k++) {
			const float ark = a[r * n + k], *bk = b + k * n;
			const __m256 av = _mm256_set1_ps(ark);
			int64_t col = 0;
			for (; col + 8 <= n; col += 8)
				_mm256_storeu_ps(cr + col, _mm256_fmadd_ps(av, _mm256_loadu_ps(bk + col),
									   _mm256_loadu_ps(cr + col)));
			for (; col < n; col++)
				cr[col] = fmaf(ark, bk[col], cr[col]);
		}
	}
}
#endif

static int ref_matmul(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	PINT(n, "matmul", "n");
	IN(a, "matmul", "a", WL_F32, float, (uint64_t)(n * n), NULL);
	IN(b, "matmul", "b", WL_F32, float, (uint64_t)(n * n), NULL);
	float *c = out;
	if ((uint64_t)(n * n) > count)
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, "matmul", "c too small");
#ifdef REF_FMA_CLONE
	if (__builtin_cpu_supports("avx") && __builtin_cpu_supports("fma")) {
		matmul_fma3(a, b, c, n);
		return 0;
	}
#endif
	MATMUL_TERMS(a, b, c, n)
	return 0;
}

static int ref_transpose(const struct workload *w, void *out, uint64_t count,
			 struct sim_error *err)
{
	PINT(wd, "transpose", "w");
	PINT(h, "transpose", "h");
	IN(in, "transpose", "in", WL_F32, float, (uint64_t)(wd * h), NULL);
	float *o = out;
	if ((uint64_t)(wd * h) > count)
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, "transpose", "out too small");
	for (int64_t y = 0; y < h; y++)
		for (int64_t x = 0; x < wd; x++)
			o[x * h + y] = in[y * wd + x];
	return 0;
}

static int ref_reduce(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	PINT(n, "reduce_block", "n");
	PINT(threads, "reduce_block", "threads");
	IN(in, "reduce_block", "in", WL_S32, int32_t, (uint64_t)n, NULL);
	int32_t *o = out;
	for (uint64_t bl = 0; bl < count; bl++) {
		uint32_t s = 0; /* wraps like the 32-bit adds on the device */
		for (int64_t i = (int64_t)bl * 2 * threads; i < (int64_t)(bl + 1) * 2 * threads; i++)
			if (i < n)
				s += (uint32_t)in[i];
		o[bl] = (int32_t)s;
	}
	return 0;
}

static int ref_fwt(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	IN(in, "fwt", "data", WL_F32, float, count, NULL);
	float *d = out;
	memcpy(d, in, count * sizeof *d);
	for (uint64_t c = 0; c + 1024 <= count; c += 1024)
		for (int h = 1; h < 1024; h <<= 1)
			for (int t = 0; t < 512; t++) {
				int i = (t / h) * 2 * h + t % h;
				float x = d[c + i], y = d[c + i + h];
				d[c + i] = x + y;
				d[c + i + h] = x - y;
			}
	return 0;
}

static int ref_histogram(const struct workload *w, void *out, uint64_t count,
			 struct sim_error *err)
{
	uint64_t n;
	IN(data, "histogram256", "data", WL_U8, uint8_t, 1, &n);
	uint32_t *h = out;
	if (count < 256)
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, "histogram256", "hist < 256");
	for (uint64_t i = 0; i < n; i++)
		h[data[i]]++;
	return 0;
}

static int ref_hotspot(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	PINT(nx, "hotspot", "nx");
	PINT(ny, "hotspot", "ny");
	PINT(steps, "hotspot", "steps");
	PFLT(c0d, "hotspot", "c0");
	PFLT(c1d, "hotspot", "c1");
	uint64_t cells = (uint64_t)(nx * ny);
	IN(t0, "hotspot", "temp_a", WL_F32, float, cells, NULL);
	IN(pw, "hotspot", "power", WL_F32, float, cells, NULL);
	float c0 = (float)c0d, c1 = (float)c1d, *cur = out, *nxt = malloc(cells * sizeof *nxt);
	if (!nxt || count < cells) {
		free(nxt);
		return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, "hotspot", "out of memory");
	}
	memcpy(cur, t0, cells * sizeof *cur);
	for (int64_t s = 0; s < steps; s++) {
		for (int64_t y = 0; y < ny; y++)
			for (int64_t x = 0; x < nx; x++) {
				float nn = cur[(y > 0 ? y - 1 : 0) * nx + x];
				float ss = cur[(y < ny - 1 ? y + 1 : y) * nx + x];
				float ee = cur[y * nx + (x < nx - 1 ? x + 1 : x)];
				float ww = cur[y * nx + (x > 0 ? x - 1 : 0)];
				float v = fmaf(c1, (nn + ss) + (ee + ww), c0 * cur[y * nx + x]);
				nxt[y * nx + x] = v + pw[y * nx + x];
			}
		memcpy(cur, nxt, cells * sizeof *cur);
	}
	free(nxt);
	return 0;
}

static int ref_cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return (x > y) - (x < y);
}

static int ref_bitonic(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	IN(keys, "bitonic_chunks", "keys", WL_U32, uint32_t, count, NULL);
	memcpy(out, keys, count * 4);
	for (uint64_t c = 0; c + 1024 <= count; c += 1024)
		qsort((uint32_t *)out + c, 1024, 4, ref_cmp_u32);
	return 0;
}

static int ref_long_compute(const struct workload *w, void *out, uint64_t count, bool hash,
			    struct sim_error *err)
{
	PINT(iters, "long_compute", "iters");
	PFLT(rd, "long_compute", "r");
	IN(in, "long_compute", "in", WL_F32, float, count, NULL);
	float r = (float)rd;
	for (uint64_t i = 0; i < count; i++) {
		float x = in[i], acc = 0.0f;
		uint32_t h = (uint32_t)i * 2654435761u;
		for (int64_t k = 0; k < iters; k++) {
			x = (r * x) * (1.0f - x);
			acc = acc + x;
			h = (h ^ (h >> 15)) * 2246822519u + (uint32_t)k;
		}
		if (hash)
			((uint32_t *)out)[i] = h;
		else
			((float *)out)[i] = acc;
	}
	return 0;
}

static int ref_long_out(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	return ref_long_compute(w, out, count, false, err);
}

static int ref_long_hash(const struct workload *w, void *out, uint64_t count,
			 struct sim_error *err)
{
	return ref_long_compute(w, out, count, true, err);
}

static int ref_short_phases(const struct workload *w, void *out, uint64_t count,
			    struct sim_error *err)
{
	PINT(n, "short_phases", "n");
	PINT(steps, "short_phases", "steps");
	IN(data, "short_phases", "data", WL_S32, int32_t, (uint64_t)n, NULL);
	if (n & (n - 1))
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, "short_phases",
				     "n must be a power of two");
	int32_t *o = out;
	for (int64_t i = 0; i < n && (uint64_t)i < count; i++) {
		uint32_t idx = (uint32_t)i, acc = 0;
		for (int64_t s = 0; s < steps; s++) {
			uint32_t v = (uint32_t)data[idx];
			acc += v ^ (uint32_t)s;
			idx = (idx + v + 1) & (uint32_t)(n - 1);
		}
		o[i] = (int32_t)acc;
	}
	return 0;
}

/* blackjack.cu, line for line. */
static int bj_card(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	int c = (int)((*s >> 8) % 13u) + 1;
	return c > 10 ? 10 : c;
}

static int bj_value(int sum, int aces) { return (aces > 0 && sum + 10 <= 21) ? sum + 10 : sum; }

static int ref_blackjack(const struct workload *w, void *out, uint64_t count,
			 struct sim_error *err)
{
	PINT(games, "blackjack", "games");
	IN(seeds, "blackjack", "seeds", WL_U32, uint32_t, count, NULL);
	int32_t *net = out;
	for (uint64_t i = 0; i < count; i++) {
		uint32_t s = seeds[i];
		int stand_at = 12 + (int)(i % 7), total = 0;
		for (int64_t g = 0; g < games; g++) {
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
	return 0;
}

static int ref_bucket(const struct workload *w, void *out, uint64_t count, bool counts_only,
		      struct sim_error *err)
{
	PINT(n, "bucket", "n");
	PINT(nb, "bucket", "nb");
	PINT(cap, "bucket", "cap");
	IN(keys, "bucket", "keys", WL_U32, uint32_t, (uint64_t)n, NULL);
	IN(spl, "bucket", "splitters", WL_U32, uint32_t, (uint64_t)nb, NULL);
	uint32_t *cnt = calloc((size_t)nb, 4);
	uint32_t *bk = calloc((size_t)(nb * cap), 4);
	int rc = 0;
	if (!cnt || !bk) {
		rc = sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, "bucket", "out of memory");
		goto out;
	}
	for (int64_t i = 0; i < n; i++) {
		int64_t lo = 0, hi = nb - 1;
		while (lo < hi) {
			int64_t mid = (lo + hi) / 2;
			if (keys[i] < spl[mid])
				hi = mid;
			else
				lo = mid + 1;
		}
		if (cnt[lo] >= (uint32_t)cap) {
			/* Which keys fit would depend on atomic order: refuse the data set. */
			rc = sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, "bucket",
					   "bucket %lld overflows cap %lld", (long long)lo,
					   (long long)cap);
			goto out;
		}
		bk[lo * cap + cnt[lo]++] = keys[i];
	}
	for (int64_t b = 0; b < nb; b++)
		qsort(bk + b * cap, cnt[b], 4, ref_cmp_u32);
	if (counts_only)
		memcpy(out, cnt, (size_t)(count < (uint64_t)nb ? count : (uint64_t)nb) * 4);
	else
		memcpy(out, bk, (size_t)(count < (uint64_t)(nb * cap) ? count : (uint64_t)(nb * cap)) * 4);
out:
	free(cnt);
	free(bk);
	return rc;
}

static int ref_bucket_buckets(const struct workload *w, void *out, uint64_t count,
			      struct sim_error *err)
{
	return ref_bucket(w, out, count, false, err);
}

static int ref_bucket_counts(const struct workload *w, void *out, uint64_t count,
			     struct sim_error *err)
{
	return ref_bucket(w, out, count, true, err);
}

/* viterbi.cu (8 states, 16 symbols, T <= 64): the kernel pushes from surviving states in
 * ascending order with a strict compare, which picks the same smallest best predecessor as
 * this pull form. Sequence i has length T - (obs[i*T] & 7), at least 1. */
static int ref_viterbi(const struct workload *w, void *out, uint64_t count, bool want_path,
		       struct sim_error *err)
{
	enum { S = 8, M = 16, TMAX = 64 };
	PINT(n, "viterbi", "n");
	PINT(T, "viterbi", "T");
	PINT(beam, "viterbi", "beam");
	IN(obs, "viterbi", "obs", WL_U8, uint8_t, (uint64_t)(n * T), NULL);
	IN(trans, "viterbi", "trans", WL_S32, int32_t, S * S, NULL);
	IN(emit, "viterbi", "emit", WL_S32, int32_t, S * M, NULL);
	if (T < 1 || T > TMAX)
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, "viterbi", "T must be 1..64");
	for (int64_t i = 0; i < n; i++) {
		const uint8_t *o = obs + i * T;
		int64_t len = T - (o[0] & 7) > 1 ? T - (o[0] & 7) : 1;
		int prev[S], cur[S];
		uint8_t bp[TMAX][S];
		for (int s = 0; s < S; s++)
			prev[s] = emit[s * M + o[0]];
		for (int64_t t = 1; t < len; t++) {
			int top = prev[0];
			for (int s = 1; s < S; s++)
				top = prev[s] > top ? prev[s] : top;
			for (int s = 0; s < S; s++) {
				int best = -1000000000, arg = 0;
				for (int p = 0; p < S; p++) {
					if (prev[p] < top - beam)
						continue;
					int v = prev[p] + trans[p * S + s];
					if (v > best) {
						best = v;
						arg = p;
					}
				}
				cur[s] = best + emit[s * M + o[t]];
				bp[t][s] = (uint8_t)arg;
			}
			memcpy(prev, cur, sizeof prev);
		}
		int best = prev[0], st = 0;
		for (int s = 1; s < S; s++)
			if (prev[s] > best) {
				best = prev[s];
				st = s;
			}
		if (!want_path) {
			if ((uint64_t)i < count)
				((int32_t *)out)[i] = best;
			continue;
		}
		uint8_t *path = out;
		for (int64_t t = len - 1; t > 0; t--) {
			if ((uint64_t)(i * T + t) < count)
				path[i * T + t] = (uint8_t)st;
			st = bp[t][st];
		}
		if ((uint64_t)(i * T) < count)
			path[i * T] = (uint8_t)st;
	}
	return 0;
}

static int ref_viterbi_path(const struct workload *w, void *out, uint64_t count,
			    struct sim_error *err)
{
	return ref_viterbi(w, out, count, true, err);
}

static int ref_viterbi_score(const struct workload *w, void *out, uint64_t count,
			     struct sim_error *err)
{
	return ref_viterbi(w, out, count, false, err);
}

static const struct wl_ref wl_refs[] = {
	{"vecadd", WL_F32, ref_vecadd},
	{"saxpy", WL_F32, ref_saxpy},
	{"dot", WL_F32, ref_dot},
	{"spmv", WL_F32, ref_spmv},
	{"kmeans", WL_S32, ref_kmeans},
	{"pagecount", WL_U32, ref_pagecount},
	{"matmul", WL_F32, ref_matmul},
	{"transpose", WL_F32, ref_transpose},
	{"reduce_block", WL_S32, ref_reduce},
	{"fwt", WL_F32, ref_fwt},
	{"histogram256", WL_U32, ref_histogram},
	{"hotspot", WL_F32, ref_hotspot},
	{"bitonic_chunks", WL_U32, ref_bitonic},
	{"long_compute_out", WL_F32, ref_long_out},
	{"long_compute_hash", WL_U32, ref_long_hash},
	{"short_phases", WL_S32, ref_short_phases},
	{"blackjack", WL_S32, ref_blackjack},
	{"bucket_buckets", WL_U32, ref_bucket_buckets},
	{"bucket_counts", WL_U32, ref_bucket_counts},
	{"viterbi_path", WL_U8, ref_viterbi_path},
	{"viterbi_score", WL_S32, ref_viterbi_score},
};

const struct wl_ref *wl_ref_find(const char *name)
{
	for (size_t i = 0; i < SIM_ARRAY_LEN(wl_refs); i++)
		if (!strcmp(wl_refs[i].name, name))
			return &wl_refs[i];
	for (size_t i = 0; i < wl_refs_papers_count; i++)
		if (!strcmp(wl_refs_papers[i].name, name))
			return &wl_refs_papers[i];
	return NULL;
}
