/* SPDX-License-Identifier: MIT */
/* Sampler: differences of counters between interval ends, written as CSV rows. Runs every N
 * cycles from a background event (components/gpu.c), never per cycle; counters are read
 * through pointers resolved at build time. */
#include "sampler.h"

#include <stdlib.h>
#include <string.h>

#include "sm/sm.h"

/* Counters read at each interval end; prev holds the values at the previous end. */
enum { S_L1H, S_L1A, S_L2H, S_L2A, S_DRAM_RW, S_NOC_FLITS, S_FIXED };

struct sampler {
	FILE *csv;
	struct sm *const *sms;
	uint32_t n_cores, n_chans;
	double core_mhz, noc_mhz, line_bytes;
	uint32_t n_links;
	/* summed groups of counters (NULL entries skipped) */
	const uint64_t **grp[S_FIXED];
	uint32_t n_grp[S_FIXED];
	uint64_t prev_grp[S_FIXED];
	/* per channel: blp_bank_cycles, blp_busy_cycles, row hits, row accesses (hits+misses+conflicts) */
	const uint64_t **ch_blp_sum, **ch_blp_cyc, **ch_hits, **ch_miss, **ch_conf;
	uint64_t *prev_ch;               /* [n_chans * 4] */
	const struct stat_avg *noc_lat;
	struct stat_avg prev_lat;
	uint64_t *prev_sm;               /* [n_cores * (1 + SM_CYC_COUNT)]: warp_insts, classes */
	uint64_t *now_sm;
	uint64_t kernel, last_cycle;
};

static const uint64_t *ctr(struct stats *st, const char *fmt, uint32_t i)
{
	char name[128];
	snprintf(name, sizeof name, fmt, i);
	return stats_counter_field(st, name);
}

/* Every instance i = 0.. of fmt that exists (stops at the first gap). */
static int group(struct sampler *s, int k, struct stats *st, const char *const *fmts, uint32_t max)
{
	uint32_t n = 0;
	for (const char *const *f = fmts; *f; f++)
		for (uint32_t i = 0; i < max && ctr(st, *f, i); i++)
			n++;
	s->grp[k] = calloc(n ? n : 1, sizeof *s->grp[k]);
	if (!s->grp[k])
		return -1;
	for (const char *const *f = fmts; *f; f++)
		for (uint32_t i = 0; i < max && ctr(st, *f, i); i++)
			s->grp[k][s->n_grp[k]++] = ctr(st, *f, i);
	return 0;
}

static uint64_t group_sum(const struct sampler *s, int k)
{
	uint64_t v = 0;
	for (uint32_t i = 0; i < s->n_grp[k]; i++)
		v += *s->grp[k][i];
	return v;
}

static uint64_t val(const uint64_t *p) { return p ? *p : 0; }

static void snapshot_sm(struct sampler *s, uint64_t *out)
{
	for (uint32_t i = 0; i < s->n_cores; i++) {
		struct sm_counters c;
		sm_get_counters(s->sms[i], &c);
		uint64_t *o = out + (size_t)i * (1 + SM_CYC_COUNT);
		o[0] = c.warp_insts;
		memcpy(o + 1, c.sched_cycles, sizeof c.sched_cycles);
	}
}

struct sampler *sampler_create(const struct cfg *c, struct stats *st, struct sm *const *sms,
			       uint32_t n_cores, uint32_t n_chans, FILE *csv, struct sim_error *err)
{
	struct sampler *s = calloc(1, sizeof *s);
	if (!s)
		goto nomem;
	s->csv = csv;
	s->sms = sms;
	s->n_cores = n_cores;
	s->n_chans = n_chans;
	s->core_mhz = (double)cfg_int(c, "gpu.core.clock_mhz");
	s->noc_mhz = (double)cfg_int(c, "gpu.noc.clock_mhz");
	s->line_bytes = (double)cfg_int(c, "gpu.l2.line_bytes");
	static const char *const l1h[] = {"sm.%u.l1d.hits", NULL}, *const l1a[] = {"sm.%u.l1d.accesses", NULL},
		*const l2h[] = {"l2.%u.hits", NULL}, *const l2a[] = {"l2.%u.accesses", NULL},
		*const rw[] = {"mc.%u.reads", "mc.%u.writes", NULL},
		*const links[] = {"noc.req.link.%u.flits", "noc.reply.link.%u.flits", "noc.link.%u.flits", NULL};
	uint32_t n_slices = n_chans * (uint32_t)cfg_int(c, "gpu.l2.sub_partitions"); /* l2.<slice> */
	if (group(s, S_L1H, st, l1h, n_cores) || group(s, S_L1A, st, l1a, n_cores) ||
	    group(s, S_L2H, st, l2h, n_slices) || group(s, S_L2A, st, l2a, n_slices) ||
	    group(s, S_DRAM_RW, st, rw, n_chans) || group(s, S_NOC_FLITS, st, links, 1u << 20))
		goto nomem;
	s->n_links = s->n_grp[S_NOC_FLITS];
	size_t nc = n_chans ? n_chans : 1;
	s->ch_blp_sum = calloc(nc, sizeof *s->ch_blp_sum);
	s->ch_blp_cyc = calloc(nc, sizeof *s->ch_blp_cyc);
	s->ch_hits = calloc(nc, sizeof *s->ch_hits);
	s->ch_miss = calloc(nc, sizeof *s->ch_miss);
	s->ch_conf = calloc(nc, sizeof *s->ch_conf);
	s->prev_ch = calloc(nc * 4, sizeof *s->prev_ch);
	s->prev_sm = calloc((size_t)n_cores * (1 + SM_CYC_COUNT), sizeof *s->prev_sm);
	s->now_sm = calloc((size_t)n_cores * (1 + SM_CYC_COUNT), sizeof *s->now_sm);
	if (!s->ch_blp_sum || !s->ch_blp_cyc || !s->ch_hits || !s->ch_miss || !s->ch_conf || !s->prev_ch ||
	    !s->prev_sm || !s->now_sm)
		goto nomem;
	for (uint32_t i = 0; i < n_chans; i++) {
		s->ch_blp_sum[i] = ctr(st, "mc.%u.blp_bank_cycles", i);
		s->ch_blp_cyc[i] = ctr(st, "mc.%u.blp_busy_cycles", i);
		s->ch_hits[i] = ctr(st, "mc.%u.row_hits", i);
		s->ch_miss[i] = ctr(st, "mc.%u.row_misses", i);
		s->ch_conf[i] = ctr(st, "mc.%u.row_conflicts", i);
	}
	s->noc_lat = stats_avg_field(st, "noc.latency.total");
	if (!s->noc_lat)
		s->noc_lat = stats_avg_field(st, "noc.latency.network");
	fprintf(csv, "kernel,cycle_start,cycle_end,cycles,warp_insts,ipc");
	for (uint32_t i = 0; i < n_cores; i++)
		fprintf(csv, ",ipc.sm%u", i);
	for (int k = 0; k < SM_CYC_COUNT; k++)
		fprintf(csv, ",sched.%s", sm_cycle_class_name((enum sm_cycle_class)k));
	fprintf(csv, ",l1d.accesses,l1d.hit_rate,l2.accesses,l2.hit_rate,dram.accesses,dram.bandwidth_gbs");
	for (uint32_t i = 0; i < n_chans; i++)
		fprintf(csv, ",blp.ch%u,rbl.ch%u", i, i);
	fprintf(csv, ",noc.latency,noc.link_utilisation\n");
	return s;
nomem:
	sampler_destroy(s);
	sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	return NULL;
}

void sampler_destroy(struct sampler *s)
{
	if (!s)
		return;
	for (int k = 0; k < S_FIXED; k++)
		free(s->grp[k]);
	free(s->ch_blp_sum);
	free(s->ch_blp_cyc);
	free(s->ch_hits);
	free(s->ch_miss);
	free(s->ch_conf);
	free(s->prev_ch);
	free(s->prev_sm);
	free(s->now_sm);
	free(s);
}

/* Take every counter's current value as the start of the next interval. */
static void rebase(struct sampler *s)
{
	for (int k = 0; k < S_FIXED; k++)
		s->prev_grp[k] = group_sum(s, k);
	for (uint32_t i = 0; i < s->n_chans; i++) {
		uint64_t *p = s->prev_ch + (size_t)i * 4;
		p[0] = val(s->ch_blp_sum[i]);
		p[1] = val(s->ch_blp_cyc[i]);
		p[2] = val(s->ch_hits[i]);
		p[3] = val(s->ch_hits[i]) + val(s->ch_miss[i]) + val(s->ch_conf[i]);
	}
	if (s->noc_lat)
		s->prev_lat = *s->noc_lat;
	snapshot_sm(s, s->prev_sm);
}

void sampler_begin(struct sampler *s, uint64_t kernel, uint64_t start_cycle)
{
	s->kernel = kernel;
	s->last_cycle = start_cycle;
	rebase(s);
}

static double ratio(uint64_t num, uint64_t den) { return den ? (double)num / (double)den : 0.0; }

void sampler_take(struct sampler *s, uint64_t end_cycle)
{
	/* Taken after every tick of its instant (SIM_PRIO_STATS): the SMs that ticked at
	 * end_cycle counted it; those asleep count it too, with the cycles they slept through
	 * (sm_sync_counters), so a row does not depend on how long an SM sleeps. */
	for (uint32_t i = 0; i < s->n_cores; i++)
		sm_sync_counters(s->sms[i], end_cycle + 1);
	if (end_cycle < s->last_cycle)
		end_cycle = s->last_cycle;
	uint64_t cyc = end_cycle - s->last_cycle;
	snapshot_sm(s, s->now_sm);
	const size_t w = 1 + SM_CYC_COUNT;
	uint64_t wi = 0, cls[SM_CYC_COUNT] = {0};
	for (uint32_t i = 0; i < s->n_cores; i++)
		for (size_t k = 0; k < w; k++) {
			uint64_t d = s->now_sm[i * w + k] - s->prev_sm[i * w + k];
			if (k == 0)
				wi += d;
			else
				cls[k - 1] += d;
		}
	uint64_t any = wi;
	for (int k = 0; k < SM_CYC_COUNT; k++)
		any |= cls[k];
	if (!cyc && !any)
		return; /* nothing happened: no row */
	FILE *f = s->csv;
	fprintf(f, "%llu,%llu,%llu,%llu,%llu,%.6g", (unsigned long long)s->kernel,
		(unsigned long long)s->last_cycle, (unsigned long long)end_cycle, (unsigned long long)cyc,
		(unsigned long long)wi, ratio(wi, cyc));
	for (uint32_t i = 0; i < s->n_cores; i++)
		fprintf(f, ",%.6g", ratio(s->now_sm[i * w] - s->prev_sm[i * w], cyc));
	for (int k = 0; k < SM_CYC_COUNT; k++)
		fprintf(f, ",%llu", (unsigned long long)cls[k]);
	uint64_t d[S_FIXED];
	for (int k = 0; k < S_FIXED; k++)
		d[k] = group_sum(s, k) - s->prev_grp[k];
	/* bytes per core cycle x MHz / 1000 = GB/s */
	fprintf(f, ",%llu,%.6g,%llu,%.6g,%llu,%.6g", (unsigned long long)d[S_L1A], ratio(d[S_L1H], d[S_L1A]),
		(unsigned long long)d[S_L2A], ratio(d[S_L2H], d[S_L2A]), (unsigned long long)d[S_DRAM_RW],
		cyc ? (double)d[S_DRAM_RW] * s->line_bytes / (double)cyc * s->core_mhz / 1000.0 : 0.0);
	for (uint32_t i = 0; i < s->n_chans; i++) {
		const uint64_t *p = s->prev_ch + (size_t)i * 4;
		uint64_t acc = val(s->ch_hits[i]) + val(s->ch_miss[i]) + val(s->ch_conf[i]);
		fprintf(f, ",%.6g,%.6g", ratio(val(s->ch_blp_sum[i]) - p[0], val(s->ch_blp_cyc[i]) - p[1]),
			ratio(val(s->ch_hits[i]) - p[2], acc - p[3]));
	}
	double lat = 0.0;
	if (s->noc_lat && s->noc_lat->n > s->prev_lat.n)
		lat = (s->noc_lat->sum - s->prev_lat.sum) / (double)(s->noc_lat->n - s->prev_lat.n);
	/* flits per link per NoC cycle over the interval */
	double noc_cyc = (double)cyc * s->noc_mhz / s->core_mhz;
	fprintf(f, ",%.6g,%.6g\n", lat,
		s->n_links && noc_cyc > 0 ? (double)d[S_NOC_FLITS] / (s->n_links * noc_cyc) : 0.0);
	s->last_cycle = end_cycle;
	rebase(s);
}
