/* SPDX-License-Identifier: MIT */
/* Workload file loader, its buffers and symbols stage: each buffer's type, count and initial
 * data (zeros, value(s), sequence, random, file), generated at load. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "wl_load.h"

/* ---- buffers and symbols ---------------------------------------------------------------- */

void wl_store(enum wl_type t, unsigned char *base, uint64_t i, struct wl_val v)
{
	unsigned char *p = base + i * wl_type_bytes(t);
	int64_t x = v.is_float ? wl_f2i(v.f) : v.i;
	switch (t) {
	case WL_U8:
	case WL_S8: {
		uint8_t y = (uint8_t)x;
		memcpy(p, &y, 1);
		break;
	}
	case WL_U16:
	case WL_S16: {
		uint16_t y = (uint16_t)x;
		memcpy(p, &y, 2);
		break;
	}
	case WL_U32:
	case WL_S32: {
		uint32_t y = (uint32_t)x;
		memcpy(p, &y, 4);
		break;
	}
	case WL_F32: {
		float y = (float)v.f;
		memcpy(p, &y, 4);
		break;
	}
	case WL_F64:
		memcpy(p, &v.f, 8);
		break;
	default: {
		uint64_t y = (uint64_t)x;
		memcpy(p, &y, 8);
		break;
	}
	}
}

static void wl_type_range(enum wl_type t, int64_t *lo, int64_t *hi)
{
	switch (t) {
	case WL_U8: *lo = 0; *hi = UINT8_MAX; break;
	case WL_S8: *lo = INT8_MIN; *hi = INT8_MAX; break;
	case WL_U16: *lo = 0; *hi = UINT16_MAX; break;
	case WL_S16: *lo = INT16_MIN; *hi = INT16_MAX; break;
	case WL_U32: *lo = 0; *hi = UINT32_MAX; break;
	case WL_S32: *lo = INT32_MIN; *hi = INT32_MAX; break;
	case WL_U64: *lo = 0; *hi = INT64_MAX; break;
	default: *lo = INT64_MIN; *hi = INT64_MAX; break;
	}
}

/* The first elements of an f32 or 32-bit integer "random" buffer, four at a time on a CPU
 * with AVX2, as the scalar loops in wl_buffer_init make them: element i's draw is
 * wl_rng_next's from the state *st + (i + 1) * its step, so the draws need not wait on each
 * other. The same bits: the 64-bit multiplies are exact (as 32-bit ones); f32: the 53 bits
 * convert to double exactly, and u * (hi - lo), + lo and the float conversion round once each
 * as the scalar ones do (no FMA in these functions' target, so nothing is contracted);
 * integers: wl_umod's steps with its multiply-high as four 32-bit products. Each returns how
 * many it made (count rounded down to 4; 0 without AVX2) and moves *st past them. The scalar
 * loops were 12% of a functional vecadd large's instructions and 5% of reduce large's. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* a * c mod 2^64 per lane: a_lo c_lo + (a_hi c_lo + a_lo c_hi) 2^32 */
static __attribute__((target("avx2"))) inline __m256i wl_mul64(__m256i a, uint64_t c)
{
	const __m256i cl = _mm256_set1_epi64x((int64_t)(c & 0xffffffffu)), ch = _mm256_set1_epi64x((int64_t)(c >> 32));
	__m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), cl), _mm256_mul_epu32(a, ch));
	return _mm256_add_epi64(_mm256_mul_epu32(a, cl), _mm256_slli_epi64(cross, 32));
}

/* the high 64 bits of a * b per lane: the four 32-bit products and their carries */
static __attribute__((target("avx2"))) inline __m256i wl_mulhi64(__m256i a, uint64_t b)
{
	const __m256i bl = _mm256_set1_epi64x((int64_t)(b & 0xffffffffu)), bh = _mm256_set1_epi64x((int64_t)(b >> 32));
	const __m256i low32 = _mm256_set1_epi64x(0xffffffff);
	__m256i ah = _mm256_srli_epi64(a, 32);
	__m256i ll = _mm256_mul_epu32(a, bl), lh = _mm256_mul_epu32(a, bh), hl = _mm256_mul_epu32(ah, bl),
		hh = _mm256_mul_epu32(ah, bh);
	__m256i mid = _mm256_add_epi64(_mm256_srli_epi64(ll, 32),
				       _mm256_add_epi64(_mm256_and_si256(lh, low32), _mm256_and_si256(hl, low32)));
	return _mm256_add_epi64(_mm256_add_epi64(hh, _mm256_srli_epi64(mid, 32)),
				_mm256_add_epi64(_mm256_srli_epi64(lh, 32), _mm256_srli_epi64(hl, 32)));
}

/* wl_rng_next's states for the next four draws after *st */
static __attribute__((target("avx2"))) inline __m256i wl_rng_states4(uint64_t st)
{
	const uint64_t step = WL_RNG_STEP;
	return _mm256_set_epi64x((int64_t)(st + 4 * step), (int64_t)(st + 3 * step), (int64_t)(st + 2 * step),
				 (int64_t)(st + step));
}

/* wl_rng_next of each lane's state */
static __attribute__((target("avx2"))) inline __m256i wl_rng_mix4(__m256i z)
{
	z = wl_mul64(_mm256_xor_si256(z, _mm256_srli_epi64(z, 30)), 0xbf58476d1ce4e5b9ull);
	z = wl_mul64(_mm256_xor_si256(z, _mm256_srli_epi64(z, 27)), 0x94d049bb133111ebull);
	return _mm256_xor_si256(z, _mm256_srli_epi64(z, 31));
}

static __attribute__((target("avx2"))) uint64_t wl_random_i32_avx2(unsigned char *out, uint64_t count,
								    uint64_t *st, int64_t lo, const struct wl_umod *um)
{
	const uint64_t step = WL_RNG_STEP;
	__m256i s = wl_rng_states4(*st);
	const __m256i step4 = _mm256_set1_epi64x((int64_t)(4 * step)), vlo = _mm256_set1_epi64x(lo);
	const __m128i s1 = _mm_cvtsi32_si128((int)um->s1), s2 = _mm_cvtsi32_si128((int)um->s2);
	const __m256i low_words = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
	uint64_t n = count & ~(uint64_t)3;
	for (uint64_t i = 0; i < n; i += 4) {
		__m256i r = wl_rng_mix4(s);
		__m256i t = wl_mulhi64(r, um->m);
		__m256i q = _mm256_srl_epi64(_mm256_add_epi64(t, _mm256_srl_epi64(_mm256_sub_epi64(r, t), s1)), s2);
		__m256i y = _mm256_add_epi64(vlo, _mm256_sub_epi64(r, wl_mul64(q, um->d)));
		_mm_storeu_si128((__m128i *)(void *)(out + 4 * i),
				 _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(y, low_words)));
		s = _mm256_add_epi64(s, step4);
	}
	*st += n * step;
	return n;
}

static __attribute__((target("avx2"))) uint64_t wl_random_f32_avx2(unsigned char *out, uint64_t count,
								    uint64_t *st, double lo, double hi)
{
	const uint64_t step = WL_RNG_STEP;
	__m256i s = wl_rng_states4(*st);
	const __m256i step4 = _mm256_set1_epi64x((int64_t)(4 * step));
	/* v < 2^53 as double: (2^84 + hi 2^32 - (2^84 + 2^52)) + (2^52 + lo), each step exact */
	const __m256i lo_bits = _mm256_set1_epi64x(0x4330000000000000), hi_bits = _mm256_set1_epi64x(0x4530000000000000);
	const __m256d magic = _mm256_set1_pd(0x1p84 + 0x1p52), scale = _mm256_set1_pd(0x1p-53);
	const __m256d vlo = _mm256_set1_pd(lo), span = _mm256_set1_pd(hi - lo);
	uint64_t n = count & ~(uint64_t)3;
	for (uint64_t i = 0; i < n; i += 4) {
		__m256i z = _mm256_srli_epi64(wl_rng_mix4(s), 11);
		__m256d dh = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(z, 32), hi_bits)), magic);
		__m256d dl = _mm256_castsi256_pd(_mm256_blend_epi32(z, lo_bits, 0xaa));
		__m256d u = _mm256_mul_pd(_mm256_add_pd(dh, dl), scale);
		_mm_storeu_ps((float *)(void *)(out + 4 * i), _mm256_cvtpd_ps(_mm256_add_pd(vlo, _mm256_mul_pd(u, span))));
		s = _mm256_add_epi64(s, step4);
	}
	*st += n * step;
	return n;
}
#endif

static uint64_t wl_random_i32_wide(unsigned char *out, uint64_t count, uint64_t *st, int64_t lo,
				   const struct wl_umod *um)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (__builtin_cpu_supports("avx2"))
		return wl_random_i32_avx2(out, count, st, lo, um);
#endif
	(void)out, (void)count, (void)st, (void)lo, (void)um;
	return 0;
}

static uint64_t wl_random_f32_wide(unsigned char *out, uint64_t count, uint64_t *st, double lo, double hi)
{
#if defined(__x86_64__) && defined(__GNUC__)
	if (__builtin_cpu_supports("avx2"))
		return wl_random_f32_avx2(out, count, st, lo, hi);
#endif
	(void)out, (void)count, (void)st, (void)lo, (void)hi;
	return 0;
}

static const char *const wl_buffer_keys[] = {"name", "type", "count", "init", "seed", "min",
					     "max", "start", "step", "value", "values", "file",
					     NULL};

/* Fill b->init per the init kind. b->count may be 0 (derived from file or values). */
static int wl_buffer_init(struct wl_ld *ld, const config_setting_t *g, const char *where,
			  struct wl_buffer *b, uint64_t max_count)
{
	const char *init = "zeros", *file = NULL;
	int rc = wl_get_string(ld, g, "init", where, false, &init);
	if (rc)
		return rc;
	if (!init)
		init = "zeros";
	uint32_t esz = wl_type_bytes(b->type);
	const config_setting_t *values = config_setting_get_member(g, "values");
	unsigned char *filedata = NULL;
	uint64_t filebytes = 0;
	if (!strcmp(init, "file")) {
		rc = wl_get_string(ld, g, "file", where, true, &file);
		if (rc)
			return rc;
		char *p = wl_rel_path(ld->w, file);
		filedata = p ? wl_read_file(p, &filebytes) : NULL;
		free(p);
		if (!filedata)
			return wl_fail(ld, config_setting_get_member(g, "file"), "file",
				       "%s: cannot read data file '%s'", where, file);
		if (filebytes % esz) {
			free(filedata);
			return wl_fail(ld, config_setting_get_member(g, "file"), "file",
				       "%s: file '%s' has %llu bytes, not a multiple of %s", where,
				       file, (unsigned long long)filebytes,
				       wl_type_names[b->type]);
		}
		if (!b->count)
			b->count = filebytes / esz;
		if (b->count * esz != filebytes) {
			free(filedata);
			return wl_fail(ld, g, "count", "%s: count %llu does not match file '%s' (%llu "
				       "elements)", where, (unsigned long long)b->count, file,
				       (unsigned long long)(filebytes / esz));
		}
	} else if (!strcmp(init, "values")) {
		if (!values || !config_setting_is_aggregate(values))
			return wl_fail(ld, g, "values", "%s: init \"values\" needs values = [ ... ]",
				       where);
		uint64_t nv = (uint64_t)config_setting_length(values);
		if (!b->count)
			b->count = nv;
		if (b->count != nv || nv == 0)
			return wl_fail(ld, values, "values", "%s: %llu values given for count %llu",
				       where, (unsigned long long)nv, (unsigned long long)b->count);
	} else if (strcmp(init, "zeros") && strcmp(init, "sequence") && strcmp(init, "random") &&
		   strcmp(init, "value")) {
		return wl_fail(ld, config_setting_get_member(g, "init"), "init",
			       "%s: init must be zeros, value, values, sequence, random or file, got "
			       "\"%s\"", where, init);
	}
	if (!b->count)
		return wl_fail(ld, g, "count", "%s: missing count", where);
	if (max_count && b->count > max_count) {
		free(filedata);
		return wl_fail(ld, g, "count", "%s: %llu elements exceed the symbol (%llu)", where,
			       (unsigned long long)b->count, (unsigned long long)max_count);
	}
	/* A simulated workload's buffer beyond 1 GiB is a mistake in the file (the suite's largest is
	 * 64 MiB), and b->count * esz must not overflow either. */
	if (b->count > WL_MAX_BUFFER_BYTES / esz) {
		free(filedata);
		return wl_fail(ld, g, "count", "%s: %llu elements of %u bytes exceed the %llu-byte buffer limit",
			       where, (unsigned long long)b->count, (unsigned)esz,
			       (unsigned long long)WL_MAX_BUFFER_BYTES);
	}
	b->bytes = b->count * esz;
	b->zeros = !filedata && !strcmp(init, "zeros");
	b->init = calloc(1, b->bytes);
	if (!b->init) {
		free(filedata);
		return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, where,
				     "out of memory for %llu bytes", (unsigned long long)b->bytes);
	}
	if (filedata) {
		memcpy(b->init, filedata, b->bytes);
		free(filedata);
		return 0;
	}
	char setting[160];
	if (!strcmp(init, "values")) {
		for (uint64_t i = 0; i < b->count; i++) {
			struct wl_val v;
			snprintf(setting, sizeof setting, "%s.values[%llu]", where,
				 (unsigned long long)i);
			rc = wl_eval(ld, config_setting_get_elem(values, (unsigned)i), setting, &v);
			if (rc)
				return rc;
			wl_store(b->type, b->init, i, v);
		}
	} else if (!strcmp(init, "value")) {
		struct wl_val v = {0};
		const config_setting_t *s = config_setting_get_member(g, "value");
		if (!s)
			return wl_fail(ld, g, "value", "%s: init \"value\" needs value", where);
		snprintf(setting, sizeof setting, "%s.value", where);
		rc = wl_eval(ld, s, setting, &v);
		if (rc)
			return rc;
		for (uint64_t i = 0; i < b->count; i++)
			wl_store(b->type, b->init, i, v);
	} else if (!strcmp(init, "sequence")) {
		double start = 0, step = 1;
		rc = wl_opt_float(ld, g, "start", where, &start);
		rc = rc ? rc : wl_opt_float(ld, g, "step", where, &step);
		if (rc)
			return rc;
		for (uint64_t i = 0; i < b->count; i++) {
			struct wl_val v = {.is_float = true, .f = start + step * (double)i};
			if (!wl_type_is_float(b->type)) {
				v.is_float = false;
				v.i = (int64_t)llround(v.f);
			}
			wl_store(b->type, b->init, i, v);
		}
	} else if (!strcmp(init, "random")) {
		int64_t seed = 1;
		rc = wl_opt_int(ld, g, "seed", where, 0, INT64_MAX, &seed);
		if (rc)
			return rc;
		uint64_t st = (uint64_t)seed;
		if (wl_type_is_float(b->type)) {
			double lo = 0.0, hi = 1.0;
			rc = wl_opt_float(ld, g, "min", where, &lo);
			rc = rc ? rc : wl_opt_float(ld, g, "max", where, &hi);
			if (rc)
				return rc;
			if (!(hi >= lo))
				return wl_fail(ld, g, "max", "%s: max < min", where);
			/* 53 random bits: uniform in [lo, hi). f32, the common case, stored directly as
			 * wl_store would (a call and a type switch per element were ~7% of a
			 * functional vecadd) */
			if (b->type == WL_F32)
				for (uint64_t i = wl_random_f32_wide(b->init, b->count, &st, lo, hi);
				     i < b->count; i++) {
					double u = (double)(wl_rng_next(&st) >> 11) * 0x1p-53;
					float y = (float)(lo + u * (hi - lo));
					memcpy(b->init + 4 * i, &y, 4);
				}
			else
				for (uint64_t i = 0; i < b->count; i++) {
					double u = (double)(wl_rng_next(&st) >> 11) * 0x1p-53;
					struct wl_val v = {.is_float = true, .f = lo + u * (hi - lo)};
					wl_store(b->type, b->init, i, v);
				}
		} else {
			int64_t tlo, thi;
			wl_type_range(b->type, &tlo, &thi);
			int64_t lo = tlo < 0 ? 0 : tlo, hi = thi > INT32_MAX ? INT32_MAX : thi;
			rc = wl_opt_int(ld, g, "min", where, tlo, thi, &lo);
			rc = rc ? rc : wl_opt_int(ld, g, "max", where, tlo, thi, &hi);
			if (rc)
				return rc;
			if (hi < lo)
				return wl_fail(ld, g, "max", "%s: max < min", where);
			uint64_t span = (uint64_t)(hi - lo) + 1; /* 0 means the full 2^64 range */
			const struct wl_umod um = wl_umod_make(span ? span : 1);
			if ((b->type == WL_S32 || b->type == WL_U32) && span) /* as wl_store, directly */
				for (uint64_t i = wl_random_i32_wide(b->init, b->count, &st, lo, &um);
				     i < b->count; i++) {
					uint32_t y = (uint32_t)(lo + (int64_t)wl_umod(&um, wl_rng_next(&st)));
					memcpy(b->init + 4 * i, &y, 4);
				}
			else
				for (uint64_t i = 0; i < b->count; i++) {
					uint64_t r = wl_rng_next(&st);
					struct wl_val v = {.i = lo + (int64_t)(span ? wl_umod(&um, r) : r)};
					wl_store(b->type, b->init, i, v);
				}
		}
	}
	return 0;
}

int wl_buffers_load(struct wl_ld *ld, const config_setting_t *list, bool symbols,
		    struct fe_memory *probe)
{
	struct workload *w = ld->w;
	const char *what = symbols ? "symbols" : "buffers";
	if (!config_setting_is_list(list) && !config_setting_is_array(list))
		return wl_fail(ld, list, what, "%s must be a list ( {...}, ... )", what);
	int n = config_setting_length(list);
	struct wl_buffer *nb = realloc(w->bufs, sizeof *nb * (w->n_bufs + (uint32_t)n + 1));
	if (!nb)
		return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	w->bufs = nb;
	for (int i = 0; i < n; i++) {
		const config_setting_t *g = config_setting_get_elem(list, (unsigned)i);
		char where[96];
		snprintf(where, sizeof where, "%s[%d]", what, i);
		if (!config_setting_is_group(g))
			return wl_fail(ld, g, where, "%s must be a group { name = ...; }", where);
		int rc = wl_keys_check(ld, g, where, wl_buffer_keys);
		const char *name, *type;
		rc = rc ? rc : wl_get_string(ld, g, "name", where, true, &name);
		rc = rc ? rc : wl_get_string(ld, g, "type", where, true, &type);
		if (rc)
			return rc;
		if (wl_buffer_find(w, name) >= 0)
			return wl_fail(ld, g, where, "%s: name '%s' is used twice", where, name);
		struct wl_buffer *b = &w->bufs[w->n_bufs];
		memset(b, 0, sizeof *b);
		b->type = WL_N_TYPES;
		for (int t = 0; t < WL_N_TYPES; t++)
			if (!strcmp(type, wl_type_names[t]))
				b->type = (enum wl_type)t;
		if (b->type == WL_N_TYPES)
			return wl_fail(ld, config_setting_get_member(g, "type"), "type",
				       "%s: type must be u8 s8 u16 s16 u32 s32 u64 s64 f32 f64, got "
				       "\"%s\"", where, type);
		b->name = wl_strdup(name);
		b->is_symbol = symbols;
		w->n_bufs++; /* owned from here, so workload_destroy frees it on error */
		if (!b->name)
			return sim_error_set(ld->err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
		uint64_t max_count = 0;
		if (symbols) {
			uint64_t addr, size;
			struct sim_error e2 = {0};
			if (fe_symbol(probe, w->mod, name, &addr, &size, &e2))
				return wl_fail(ld, g, where, "%s: '%s' is not a .global/.const symbol "
					       "of the PTX", where, name);
			max_count = size / wl_type_bytes(b->type);
			b->count = max_count;
		}
		int64_t count = (int64_t)b->count;
		rc = wl_opt_int(ld, g, "count", where, 1, INT64_C(1) << 34, &count);
		if (rc)
			return rc;
		b->count = (uint64_t)count;
		rc = wl_buffer_init(ld, g, where, b, max_count);
		if (rc)
			return rc;
	}
	return 0;
}
