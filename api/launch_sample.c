/* SPDX-License-Identifier: MIT */
/* Launch sampling: groups, the online choice of the launches to simulate, and the estimate of
 * the others' cycles with its bound. Per launch O(groups of its kernel shape); fine for the
 * tens of thousands of launches of Rodinia cfd. */
#include "launch_sample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

/* Buckets of warp-instruction count: 8 per doubling (each about 9% wide). */
#define SAMPLE_BUCKETS_PER_DOUBLING 8.0

struct sample_bucket {
	int32_t id;
	uint32_t n;                    /* timing launches in it */
	uint64_t cycles, warp_insts;   /* their sums */
	double min_cpi, max_cpi;       /* their cycles per warp instruction */
	double run_cpi;                /* publish's passes: the sample last met, and where */
	int64_t run_pos;
};

/* A kernel shape: what is known when the launch is made. */
struct sample_family {
	const void *module;
	char *kernel;
	uint32_t grid[3], block[3], shared_bytes;
	int32_t last_bucket;           /* the previous launch's: the prediction for the next */
	uint32_t n_warm;               /* warm-up launches simulated */
	uint64_t since_sample;         /* launches since its last sample */
	uint64_t warm_cycles, warm_insts; /* their sums: the estimate only while no group has a sample */
	struct sample_bucket *b;
	uint32_t n_b, cap_b;
};

struct sample_launch {
	uint64_t record;
	uint32_t family;
	int32_t bucket;
	bool timing, warmup;
	uint64_t warp_insts, cycles;
};

struct api_sampler {
	uint32_t k, warmup;
	uint64_t refresh;              /* a shape unsampled this many launches is sampled again */
	struct sample_family *f;
	uint32_t n_f, cap_f;
	struct sample_launch *l;
	uint64_t n_l, cap_l;
};

struct api_sampler *api_sampler_create(uint32_t k, uint32_t warmup, uint64_t refresh)
{
	struct api_sampler *s = calloc(1, sizeof *s);
	if (s) {
		s->k = k;
		s->warmup = warmup;
		s->refresh = refresh;
	}
	return s;
}

void api_sampler_destroy(struct api_sampler *s)
{
	if (!s)
		return;
	for (uint32_t i = 0; i < s->n_f; i++) {
		free(s->f[i].kernel);
		free(s->f[i].b);
	}
	free(s->f);
	free(s->l);
	free(s);
}

static int32_t bucket_of(uint64_t warp_insts)
{
	return warp_insts ? (int32_t)floor(log2((double)warp_insts) * SAMPLE_BUCKETS_PER_DOUBLING) : -1;
}

static bool same_shape(const struct sample_family *f, const struct fe_launch_info *info)
{
	return f->module == info->code_module && !strcmp(f->kernel, info->kernel_name) &&
	       !memcmp(f->grid, info->grid, sizeof f->grid) && !memcmp(f->block, info->block, sizeof f->block) &&
	       f->shared_bytes == info->shared_bytes_per_cta;
}

/* The family of info's shape, created when new (-1: out of memory). */
static int64_t family(struct api_sampler *s, const struct fe_launch_info *info, bool create)
{
	for (uint32_t i = 0; i < s->n_f; i++)
		if (same_shape(&s->f[i], info))
			return i;
	if (!create)
		return -2;
	if (s->n_f == s->cap_f) {
		uint32_t nc = s->cap_f ? 2 * s->cap_f : 16;
		struct sample_family *nf = realloc(s->f, nc * sizeof *nf);
		if (!nf)
			return -1;
		s->f = nf;
		s->cap_f = nc;
	}
	struct sample_family *f = &s->f[s->n_f];
	memset(f, 0, sizeof *f);
	if (!(f->kernel = strdup(info->kernel_name)))
		return -1;
	f->module = info->code_module;
	memcpy(f->grid, info->grid, sizeof f->grid);
	memcpy(f->block, info->block, sizeof f->block);
	f->shared_bytes = info->shared_bytes_per_cta;
	f->last_bucket = INT32_MIN;
	return s->n_f++;
}

static struct sample_bucket *bucket_find(struct sample_family *f, int32_t id)
{
	for (uint32_t i = 0; i < f->n_b; i++)
		if (f->b[i].id == id)
			return &f->b[i];
	return NULL;
}

bool api_sampler_wants_timing(struct api_sampler *s, const struct fe_launch_info *info)
{
	int64_t fi = family(s, info, false);
	if (fi < 0)
		return true; /* a new shape: its warm-up, or its first sample */
	struct sample_family *f = &s->f[fi];
	if (f->n_warm < s->warmup || (s->refresh && f->since_sample >= s->refresh))
		return true;
	const struct sample_bucket *b = bucket_find(f, f->last_bucket);
	return !b || b->n < s->k;
}

int api_sampler_record(struct api_sampler *s, const struct fe_launch_info *info, uint64_t record,
		       bool timing, uint64_t warp_insts, uint64_t cycles, struct sim_error *err)
{
	int64_t fi = family(s, info, true);
	if (fi < 0)
		goto nomem;
	if (s->n_l == s->cap_l) {
		uint64_t nc = s->cap_l ? 2 * s->cap_l : 64;
		struct sample_launch *nl = realloc(s->l, nc * sizeof *nl);
		if (!nl)
			goto nomem;
		s->l = nl;
		s->cap_l = nc;
	}
	struct sample_family *f = &s->f[fi];
	int32_t id = bucket_of(warp_insts);
	f->last_bucket = id;
	bool warmup = timing && f->n_warm < s->warmup;
	s->l[s->n_l++] = (struct sample_launch){.record = record, .family = (uint32_t)fi, .bucket = id,
						.timing = timing, .warmup = warmup,
						.warp_insts = warp_insts, .cycles = cycles};
	f->since_sample = timing && !warmup ? 0 : f->since_sample + 1;
	if (!timing)
		return 0;
	if (warmup) {
		f->n_warm++;
		f->warm_cycles += cycles;
		f->warm_insts += warp_insts;
		return 0;
	}
	struct sample_bucket *b = bucket_find(f, id);
	if (!b) {
		if (f->n_b == f->cap_b) {
			uint32_t nc = f->cap_b ? 2 * f->cap_b : 8;
			struct sample_bucket *nb = realloc(f->b, nc * sizeof *nb);
			if (!nb)
				goto nomem;
			f->b = nb;
			f->cap_b = nc;
		}
		b = &f->b[f->n_b++];
		*b = (struct sample_bucket){.id = id, .min_cpi = INFINITY, .max_cpi = -INFINITY};
	}
	double cpi = warp_insts ? (double)cycles / (double)warp_insts : 0.0;
	b->n++;
	b->cycles += cycles;
	b->warp_insts += warp_insts;
	b->min_cpi = fmin(b->min_cpi, cpi);
	b->max_cpi = fmax(b->max_cpi, cpi);
	return 0;
nomem:
	return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
}

static double bucket_cpi(const struct sample_bucket *b)
{
	return b->warp_insts ? (double)b->cycles / (double)b->warp_insts : 0.0;
}

/* The sampled bucket of f nearest to id (ties: the smaller count), other than skip; NULL if none. */
static const struct sample_bucket *nearest(const struct sample_family *f, int32_t id,
					   const struct sample_bucket *skip)
{
	const struct sample_bucket *best = NULL;
	int64_t best_d = 0;
	for (uint32_t i = 0; i < f->n_b; i++) {
		const struct sample_bucket *b = &f->b[i];
		int64_t d = llabs((int64_t)b->id - id);
		if (b != skip && (!best || d < best_d || (d == best_d && b->id < best->id))) {
			best = b;
			best_d = d;
		}
	}
	return best;
}

/* One functional launch's estimate: cycles per warp instruction of the nearest sampled group of
 * its shape, and how uncertain that is (cycles per warp instruction): the spread of the group's
 * samples when it has two or more, else the difference to the shape's next nearest group; NAN
 * when neither exists (one sample, one group: no measure of spread). */
static void estimate(const struct sample_family *f, int32_t id, double global_cpi, double *cpi,
		     double *u)
{
	const struct sample_bucket *b = nearest(f, id, NULL);
	if (!b) {
		*cpi = f->warm_insts ? (double)f->warm_cycles / (double)f->warm_insts : global_cpi;
		*u = NAN;
		return;
	}
	*cpi = bucket_cpi(b);
	if (b->n >= 2) {
		*u = (b->max_cpi - b->min_cpi) / 2;
		return;
	}
	const struct sample_bucket *o = nearest(f, id, b);
	*u = o ? fabs(bucket_cpi(o) - *cpi) : NAN;
}

json_t *api_sampler_publish(struct api_sampler *s, struct stats *st, uint64_t simulated_cycles)
{
	uint64_t t_wi = 0, t_cyc = 0, f_wi = 0, n_t = 0, n_f = 0, unbounded = 0, groups = 0;
	for (uint64_t i = 0; i < s->n_l; i++) {
		const struct sample_launch *l = &s->l[i];
		if (l->timing) {
			t_wi += l->warp_insts;
			t_cyc += l->cycles;
			n_t++;
		} else {
			f_wi += l->warp_insts;
			n_f++;
		}
	}
	for (uint32_t i = 0; i < s->n_f; i++)
		groups += s->f[i].n_b;
	double global_cpi = t_wi ? (double)t_cyc / (double)t_wi : 0.0;
	double est = 0, bound = 0;
	/* each launch's group samples before and after it (launch order): a group's cycles per
	 * warp instruction drift over a run as its data change (streamcluster: 0.83 early, 1.13
	 * late), so a launch takes the line between its neighbours, not the group's mean */
	double *nb_cpi = malloc((s->n_l ? s->n_l : 1) * 2 * sizeof *nb_cpi);
	int64_t *nb_pos = malloc((s->n_l ? s->n_l : 1) * 2 * sizeof *nb_pos);
	for (int pass = 0; nb_cpi && nb_pos && pass < 2; pass++) {
		for (uint32_t f = 0; f < s->n_f; f++)
			for (uint32_t j = 0; j < s->f[f].n_b; j++)
				s->f[f].b[j].run_pos = -1;
		for (uint64_t n = 0; n < s->n_l; n++) {
			uint64_t i = pass ? s->n_l - 1 - n : n;
			const struct sample_launch *l = &s->l[i];
			struct sample_bucket *b = bucket_find(&s->f[l->family], l->bucket);
			if (l->timing && !l->warmup && b) {
				b->run_cpi = l->warp_insts ? (double)l->cycles / (double)l->warp_insts : 0.0;
				b->run_pos = (int64_t)i;
			} else if (!l->timing) {
				nb_pos[2 * i + pass] = b ? b->run_pos : -1;
				nb_cpi[2 * i + pass] = b ? b->run_cpi : 0.0;
			}
		}
	}
	for (uint64_t i = 0; i < s->n_l; i++) {
		const struct sample_launch *l = &s->l[i];
		if (l->timing)
			continue;
		double cpi, u;
		estimate(&s->f[l->family], l->bucket, global_cpi, &cpi, &u);
		int64_t pp = nb_pos && nb_cpi ? nb_pos[2 * i] : -1, np = nb_pos && nb_cpi ? nb_pos[2 * i + 1] : -1;
		if (pp >= 0 && np >= 0) {
			double pc = nb_cpi[2 * i], nc = nb_cpi[2 * i + 1];
			cpi = pc + (nc - pc) * (double)((int64_t)i - pp) / (double)(np - pp);
			u = fabs(nc - pc) / 2;
		} else if (pp >= 0 || np >= 0) {
			cpi = nb_cpi[2 * i + (pp >= 0 ? 0 : 1)];
		}
		double e = cpi * (double)l->warp_insts;
		est += e;
		if (isnan(u))
			unbounded++;
		else
			bound += u * (double)l->warp_insts;
		json_t *r = stats_kernel_record(st, l->record);
		if (r)
			json_object_set_new(r, "estimated_cycles", json_integer((json_int_t)llround(e)));
	}
	free(nb_cpi);
	free(nb_pos);
	uint64_t total = simulated_cycles + (uint64_t)llround(est);
	json_t *o = json_object();
	json_object_set_new(o, "per_group", json_integer(s->k));
	json_object_set_new(o, "warmup_per_shape", json_integer(s->warmup));
	json_object_set_new(o, "refresh_launches", json_integer((json_int_t)s->refresh));
	json_object_set_new(o, "groups", json_integer((json_int_t)groups));
	json_object_set_new(o, "timing_launches", json_integer((json_int_t)n_t));
	json_object_set_new(o, "functional_launches", json_integer((json_int_t)n_f));
	json_object_set_new(o, "simulated_cycles", json_integer((json_int_t)simulated_cycles));
	json_object_set_new(o, "estimated_cycles", json_integer((json_int_t)llround(est)));
	json_object_set_new(o, "total_cycles", json_integer((json_int_t)total));
	json_object_set_new(o, "error_bound_cycles", json_integer((json_int_t)llround(bound)));
	json_object_set_new(o, "error_bound_frac", json_real(total ? bound / (double)total : 0.0));
	json_object_set_new(o, "unbounded_launches", json_integer((json_int_t)unbounded));
	json_object_set_new(o, "simulated_warp_insts", json_integer((json_int_t)t_wi));
	json_object_set_new(o, "functional_warp_insts", json_integer((json_int_t)f_wi));
	json_object_set_new(o, "warp_inst_reduction", json_real(t_wi ? (double)(t_wi + f_wi) / (double)t_wi : 0.0));
	return o;
}
