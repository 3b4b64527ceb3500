/* SPDX-License-Identifier: MIT */
/* Reference functions of the workloads written for the papers' kinds (OWL Type-1, BAWS, two-level
 * and large warps, PRO, PAWS): each mirrors its kernel's arithmetic (32-bit wrap-around for the
 * integer kernels, the same single-precision operations in the same order for fft). */
#include <stdlib.h>
#include <string.h>

#include "wl_refs.h"

static int ref_nomem(struct sim_error *err, const char *ref)
{
	return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, ref, "out of memory");
}

static int64_t ref_clamp(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* sad.cu: block (bx, by), candidate t = dy' * 16 + dx', vector (dx' - 8, dy' - 8). */
static int ref_sad(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	PINT(wd, "sad", "w");
	PINT(h, "sad", "h");
	IN(cur, "sad", "cur", WL_U8, uint8_t, (uint64_t)(wd * h), NULL);
	IN(rf, "sad", "ref", WL_U8, uint8_t, (uint64_t)(wd * h), NULL);
	uint32_t *sad = out;
	int64_t gx = wd / 4, gy = h / 4;
	for (int64_t by = 0; by < gy; by++)
		for (int64_t bx = 0; bx < gx; bx++)
			for (int64_t t = 0; t < 256; t++) {
				int64_t dx = (t & 15) - 8, dy = (t >> 4) - 8;
				uint32_t s = 0;
				for (int64_t i = 0; i < 4; i++) {
					int64_t cy = by * 4 + i, ry = ref_clamp(cy + dy, 0, h - 1);
					for (int64_t j = 0; j < 4; j++) {
						int64_t cx = bx * 4 + j, rx = ref_clamp(cx + dx, 0, wd - 1);
						s += (uint32_t)labs((long)cur[cy * wd + cx] - (long)rf[ry * wd + rx]);
					}
				}
				uint64_t o = (uint64_t)((by * gx + bx) * 256 + t);
				if (o < count)
					sad[o] = s;
			}
	return 0;
}

/* pvc.cu: records {time, client, page, bytes}, page modulo pages; window [t0, t1). */
static int ref_pvc(const struct workload *w, void *out, uint64_t count, bool views,
		   struct sim_error *err)
{
	PINT(n, "pvc", "n");
	PINT(pages, "pvc", "pages");
	PINT(t0, "pvc", "t0");
	PINT(t1, "pvc", "t1");
	IN(log, "pvc", "log", WL_U32, uint32_t, (uint64_t)(4 * n), NULL);
	uint64_t ncat;
	IN(cat, "pvc", "page_cat", WL_S32, int32_t, (uint64_t)pages, NULL);
	PINT(nc, "pvc", "ncat");
	ncat = (uint64_t)nc;
	uint32_t *o = out;
	memset(o, 0, count * 4);
	for (int64_t i = 0; i < n; i++) {
		uint32_t t = log[4 * i];
		if (t < (uint32_t)t0 || t >= (uint32_t)t1)
			continue;
		uint32_t page = log[4 * i + 2] % (uint32_t)pages;
		if (views) {
			if (page < count)
				o[page] += 1;
		} else if (cat[page] >= 0 && (uint64_t)cat[page] < ncat && (uint64_t)cat[page] < count) {
			o[cat[page]] += log[4 * i + 3];
		}
	}
	return 0;
}

static int ref_pvc_views(const struct workload *w, void *out, uint64_t count,
			 struct sim_error *err)
{
	return ref_pvc(w, out, count, true, err);
}

static int ref_pvc_cat_bytes(const struct workload *w, void *out, uint64_t count,
			     struct sim_error *err)
{
	return ref_pvc(w, out, count, false, err);
}

static int ref_ssc(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	PINT(n, "ssc", "n");
	PINT(d, "ssc", "d");
	IN(docs, "ssc", "docs", WL_S32, int32_t, (uint64_t)(n * d), NULL);
	uint32_t *score = out;
	for (int64_t i = 0; i < n; i++)
		for (int64_t j = 0; j < n; j++) {
			uint32_t s = 0;
			for (int64_t f = 0; f < d; f++)
				s += (uint32_t)docs[i * d + f] * (uint32_t)docs[j * d + f];
			if ((uint64_t)(i * n + j) < count)
				score[i * n + j] = s;
		}
	return 0;
}

/* cfd.cu: 4 faces, 5 variables; a neighbour outside [0, n) adds nothing. */
static int ref_cfd(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	PINT(n, "cfd", "n");
	IN(vars, "cfd", "vars", WL_S32, int32_t, (uint64_t)(5 * n), NULL);
	IN(off, "cfd", "nbr_off", WL_S32, int32_t, (uint64_t)(4 * n), NULL);
	IN(wgt, "cfd", "wgt", WL_S32, int32_t, (uint64_t)(4 * n), NULL);
	int32_t *flux = out;
	for (int64_t c = 0; c < n; c++) {
		uint32_t acc[5] = {0};
		for (int64_t k = 0; k < 4; k++) {
			int64_t m = c + off[k * n + c];
			if (m < 0 || m >= n)
				continue;
			for (int64_t v = 0; v < 5; v++)
				acc[v] += (uint32_t)wgt[k * n + c] *
					  ((uint32_t)vars[v * n + m] - (uint32_t)vars[v * n + c]);
		}
		for (int64_t v = 0; v < 5; v++)
			if ((uint64_t)(v * n + c) < count)
				flux[v * n + c] = (int32_t)acc[v];
	}
	return 0;
}

static int ref_kmn(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	PINT(n, "kmn", "n");
	PINT(k, "kmn", "k");
	PINT(d, "kmn", "d");
	IN(feat, "kmn", "feat", WL_S32, int32_t, (uint64_t)(d * n), NULL);
	IN(cl, "kmn", "clusters", WL_S32, int32_t, (uint64_t)(k * d), NULL);
	int32_t *member = out;
	for (int64_t i = 0; i < n && (uint64_t)i < count; i++) {
		uint32_t best_d = 0xffffffffu;
		int32_t best = 0;
		for (int64_t c = 0; c < k; c++) {
			uint32_t dist = 0;
			for (int64_t f = 0; f < d; f++) {
				uint32_t df = (uint32_t)feat[f * n + i] - (uint32_t)cl[c * d + f];
				dist += df * df;
			}
			if (dist < best_d) {
				best_d = dist;
				best = (int32_t)c;
			}
		}
		member[i] = best;
	}
	return 0;
}

static int ref_scp(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	PINT(v, "scp", "v");
	PINT(len, "scp", "len");
	IN(a, "scp", "a", WL_S32, int32_t, (uint64_t)(v * len), NULL);
	IN(b, "scp", "b", WL_S32, int32_t, (uint64_t)(v * len), NULL);
	uint32_t *o = out;
	/* Sums modulo 2^32 do not depend on the kernel's summation order. */
	for (int64_t p = 0; p < v && (uint64_t)p < count; p++) {
		uint32_t s = 0;
		for (int64_t e = 0; e < len; e++)
			s += (uint32_t)a[p * len + e] * (uint32_t)b[p * len + e];
		o[p] = s;
	}
	return 0;
}

/* fwtg.cu: the full Walsh-Hadamard transform (natural order) of each 4096-element signal; the
 * radix-2 stages commute, so the kernels' stage order gives the same result. */
static int ref_fwtg(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	PINT(b, "fwtg", "b");
	IN(in, "fwtg", "data", WL_S32, int32_t, (uint64_t)(b * 4096), NULL);
	uint32_t *d = out;
	if (count < (uint64_t)(b * 4096))
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, "fwtg", "data too short");
	for (int64_t i = 0; i < b * 4096; i++)
		d[i] = (uint32_t)in[i];
	for (int64_t s = 0; s < b; s++)
		for (int64_t st = 1; st < 4096; st <<= 1)
			for (int64_t i = 0; i < 4096; i++)
				if (!(i & st)) {
					uint32_t x = d[s * 4096 + i], y = d[s * 4096 + i + st];
					d[s * 4096 + i] = x + y;
					d[s * 4096 + i + st] = x - y;
				}
	return 0;
}

/* iix.cu: links start at a byte below 4 and take the next two bytes; the scan resumes after
 * them. */
static int ref_iix(const struct workload *w, void *out, uint64_t count, bool bits,
		   struct sim_error *err)
{
	PINT(ndocs, "iix", "ndocs");
	PINT(doclen, "iix", "doclen");
	PINT(targets, "iix", "targets");
	IN(docs, "iix", "docs", WL_U8, uint8_t, (uint64_t)(ndocs * doclen), NULL);
	uint32_t *o = out;
	int64_t words = ndocs / 32;
	memset(o, 0, count * 4);
	for (int64_t doc = 0; doc < ndocs; doc++) {
		const uint8_t *p = docs + doc * doclen;
		for (int64_t i = 0; i + 2 < doclen; i++) {
			if (p[i] >= 4)
				continue;
			uint32_t t = (((uint32_t)p[i + 1] << 8) | p[i + 2]) % (uint32_t)targets;
			uint64_t at = bits ? (uint64_t)(t * words + doc / 32) : t;
			if (at < count)
				o[at] = bits ? o[at] | 1u << (doc & 31) : o[at] + 1;
			i += 2;
		}
	}
	return 0;
}

static int ref_iix_count(const struct workload *w, void *out, uint64_t count,
			 struct sim_error *err)
{
	return ref_iix(w, out, count, false, err);
}

static int ref_iix_bits(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	return ref_iix(w, out, count, true, err);
}

static int ref_spmvell(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	PINT(n, "spmvell", "n");
	PINT(k, "spmvell", "k");
	IN(rowlen, "spmvell", "rowlen", WL_S32, int32_t, (uint64_t)n, NULL);
	IN(off, "spmvell", "off", WL_S32, int32_t, (uint64_t)(k * n), NULL);
	IN(val, "spmvell", "val", WL_S32, int32_t, (uint64_t)(k * n), NULL);
	IN(x, "spmvell", "x", WL_S32, int32_t, (uint64_t)n, NULL);
	if (n <= 0 || (n & (n - 1)))
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, "spmvell",
				     "n must be a power of two");
	int32_t *y = out;
	for (int64_t r = 0; r < n && (uint64_t)r < count; r++) {
		if (rowlen[r] > k)
			return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, "spmvell",
					     "row %lld longer than k", (long long)r);
		uint32_t s = 0;
		for (int64_t e = 0; e < rowlen[r]; e++) {
			int64_t c = (r + off[e * n + r]) & (n - 1);
			s += (uint32_t)val[e * n + r] * (uint32_t)x[c];
		}
		y[r] = (int32_t)s;
	}
	return 0;
}

/* fft.cu: the same stages and single-precision operations; ISO C11 (no FP contraction) keeps
 * each product rounded as the kernel's __fmul_rn does. */
static int ref_fft(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	PINT(b, "fft", "b");
	IN(in, "fft", "x", WL_F32, float, (uint64_t)(b * 2048), NULL);
	IN(tw, "fft", "tw", WL_F32, float, 1024, NULL);
	float *x = out;
	if (count < (uint64_t)(b * 2048))
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, "fft", "x too short");
	memcpy(x, in, (size_t)(b * 2048) * sizeof *x);
	for (int64_t half = 512; half >= 1; half >>= 1)
		for (int64_t sig = 0; sig < b; sig++)
			for (int64_t t = 0; t < 512; t++) {
				int64_t lo = t % half, i0 = sig * 1024 + (t / half) * 2 * half + lo;
				int64_t i1 = i0 + half, wi = lo * (512 / half);
				float ar = x[2 * i0], ai = x[2 * i0 + 1], br = x[2 * i1], bi = x[2 * i1 + 1];
				float wr = tw[2 * wi], wim = tw[2 * wi + 1];
				float dr = ar - br, di = ai - bi;
				x[2 * i0] = ar + br;
				x[2 * i0 + 1] = ai + bi;
				float p1 = dr * wr, p2 = di * wim, p3 = dr * wim, p4 = di * wr;
				x[2 * i1] = p1 - p2;
				x[2 * i1 + 1] = p3 + p4;
			}
	return 0;
}

/* srad2.cu: two iterations of grad (clamped borders) and in-place update. */
static int ref_srad2(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	PINT(wd, "srad2", "w");
	PINT(h, "srad2", "h");
	PINT(lambda, "srad2", "lambda");
	IN(j0, "srad2", "J", WL_S32, int32_t, (uint64_t)(wd * h), NULL);
	int64_t n = wd * h;
	int32_t *J = out;
	int32_t *dn = malloc((size_t)n * 5 * sizeof *dn);
	if (!dn)
		return ref_nomem(err, "srad2");
	int32_t *ds = dn + n, *dw = ds + n, *de = dw + n, *c = de + n;
	if (count < (uint64_t)n) {
		free(dn);
		return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, "srad2", "J too short");
	}
	memcpy(J, j0, (size_t)n * sizeof *J);
	for (int it = 0; it < 2; it++) {
		for (int64_t y = 0; y < h; y++)
			for (int64_t x = 0; x < wd; x++) {
				int64_t i = y * wd + x;
				int32_t jc = J[i];
				int32_t nn = J[ref_clamp(y - 1, 0, h - 1) * wd + x] - jc;
				int32_t ss = J[ref_clamp(y + 1, 0, h - 1) * wd + x] - jc;
				int32_t ww = J[y * wd + ref_clamp(x - 1, 0, wd - 1)] - jc;
				int32_t ee = J[y * wd + ref_clamp(x + 1, 0, wd - 1)] - jc;
				uint32_t sq = (uint32_t)nn * (uint32_t)nn + (uint32_t)ss * (uint32_t)ss +
					      (uint32_t)ww * (uint32_t)ww + (uint32_t)ee * (uint32_t)ee;
				int32_t g2 = (int32_t)sq >> 6;
				dn[i] = nn;
				ds[i] = ss;
				dw[i] = ww;
				de[i] = ee;
				c[i] = 4096 / (64 + g2);
			}
		for (int64_t y = 0; y < h; y++)
			for (int64_t x = 0; x < wd; x++) {
				int64_t i = y * wd + x;
				int32_t cc = c[i], cs = c[ref_clamp(y + 1, 0, h - 1) * wd + x];
				int32_t ce = c[y * wd + ref_clamp(x + 1, 0, wd - 1)];
				uint32_t div = (uint32_t)cc * (uint32_t)dn[i] + (uint32_t)cs * (uint32_t)ds[i] +
					       (uint32_t)cc * (uint32_t)dw[i] + (uint32_t)ce * (uint32_t)de[i];
				/* >> of a negative int: arithmetic in GCC and Clang, as PTX shr.s32. */
				J[i] = (int32_t)((uint32_t)J[i] +
						 (uint32_t)((int32_t)((uint32_t)lambda * div) >> 8));
			}
	}
	free(dn);
	return 0;
}

static int ref_stencil7(const struct workload *w, void *out, uint64_t count,
			struct sim_error *err)
{
	PINT(nx, "stencil7", "nx");
	PINT(ny, "stencil7", "ny");
	PINT(nz, "stencil7", "nz");
	PINT(c0, "stencil7", "c0");
	PINT(c1, "stencil7", "c1");
	IN(in, "stencil7", "in", WL_S32, int32_t, (uint64_t)(nx * ny * nz), NULL);
	int32_t *o = out;
	int64_t pl = nx * ny;
	for (int64_t z = 0; z < nz; z++)
		for (int64_t y = 0; y < ny; y++)
			for (int64_t x = 0; x < nx; x++) {
				int64_t i = z * pl + y * nx + x;
				uint32_t r = (uint32_t)in[i];
				if (z > 0 && z < nz - 1 && x > 0 && x < nx - 1 && y > 0 && y < ny - 1)
					r = (uint32_t)c0 * (uint32_t)in[i] +
					    (uint32_t)c1 * ((uint32_t)in[i - 1] + (uint32_t)in[i + 1] +
							    (uint32_t)in[i - nx] + (uint32_t)in[i + nx] +
							    (uint32_t)in[i - pl] + (uint32_t)in[i + pl]);
				if ((uint64_t)i < count)
					o[i] = (int32_t)r;
			}
	return 0;
}

static int ref_phase_loop(const struct workload *w, void *out, uint64_t count,
			  struct sim_error *err)
{
	PINT(ctas, "phase_loop", "ctas");
	PINT(rounds, "phase_loop", "rounds");
	PINT(work, "phase_loop", "work");
	int64_t stride = ctas * 256;
	IN(in, "phase_loop", "in", WL_U32, uint32_t, (uint64_t)(rounds * stride), NULL);
	uint32_t *o = out;
	for (int64_t i = 0; i < stride && (uint64_t)i < count; i++) {
		uint32_t acc = (uint32_t)i;
		for (int64_t r = 0; r < rounds; r++) {
			uint32_t v = in[r * stride + i];
			for (int64_t k = 0; k < work; k++)
				v = (v ^ (v >> 7)) * 0x9e3779b1u + (uint32_t)k;
			acc += v;
		}
		o[i] = acc;
	}
	return 0;
}

static int ref_div_walk(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	PINT(n, "div_walk", "n");
	PINT(mask, "div_walk", "mask");
	IN(seed, "div_walk", "seed", WL_U32, uint32_t, (uint64_t)n, NULL);
	IN(table, "div_walk", "table", WL_U32, uint32_t, (uint64_t)mask + 1, NULL);
	uint32_t *o = out;
	for (int64_t i = 0; i < n && (uint64_t)i < count; i++) {
		uint32_t acc = seed[i];
		int64_t steps = (int64_t)(acc & 31u) + 1;
		for (int64_t k = 0; k < steps; k++) {
			uint32_t t = table[(acc >> 4) & (uint32_t)mask];
			if (t & 1u) {
				acc = acc * 3u + t;
				acc ^= acc >> 11;
				acc += (uint32_t)k;
			} else {
				acc = (acc ^ t) * 0x2545f491u;
				acc = (acc >> 3) | (acc << 29);
			}
		}
		o[i] = acc;
	}
	return 0;
}

static int ref_cta_work(const struct workload *w, void *out, uint64_t count, struct sim_error *err)
{
	PINT(nb, "cta_work", "nb");
	PINT(wmax, "cta_work", "wmax");
	IN(work, "cta_work", "work", WL_S32, int32_t, (uint64_t)nb, NULL);
	IN(in, "cta_work", "in", WL_U32, uint32_t, (uint64_t)(nb * wmax * 64), NULL);
	uint32_t *o = out;
	for (int64_t b = 0; b < nb; b++) {
		if (work[b] > wmax)
			return sim_error_set(err, SIM_ERR_INPUT, NULL, 0, 0, "cta_work",
					     "work[%lld] exceeds wmax", (long long)b);
		for (int64_t t = 0; t < 64; t++) {
			uint32_t acc = 0;
			for (int64_t it = 0; it < work[b]; it++) {
				uint32_t v = in[(b * wmax + it) * 64 + t];
				acc = acc * 31u + (v ^ (v >> 5));
				acc ^= acc << 7;
			}
			if ((uint64_t)(b * 64 + t) < count)
				o[b * 64 + t] = acc;
		}
	}
	return 0;
}

const struct wl_ref wl_refs_papers[] = {
	{"sad", WL_U32, ref_sad},
	{"pvc_views", WL_U32, ref_pvc_views},
	{"pvc_cat_bytes", WL_U32, ref_pvc_cat_bytes},
	{"ssc", WL_U32, ref_ssc},
	{"cfd", WL_S32, ref_cfd},
	{"kmn", WL_S32, ref_kmn},
	{"scp", WL_U32, ref_scp},
	{"fwtg", WL_S32, ref_fwtg},
	{"iix_count", WL_U32, ref_iix_count},
	{"iix_bits", WL_U32, ref_iix_bits},
	{"spmvell", WL_S32, ref_spmvell},
	{"fft", WL_F32, ref_fft},
	{"srad2", WL_S32, ref_srad2},
	{"stencil7", WL_S32, ref_stencil7},
	{"phase_loop", WL_U32, ref_phase_loop},
	{"div_walk", WL_U32, ref_div_walk},
	{"cta_work", WL_U32, ref_cta_work},
};
const size_t wl_refs_papers_count = sizeof wl_refs_papers / sizeof wl_refs_papers[0];
