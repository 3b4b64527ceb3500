/* SPDX-License-Identifier: MIT */
/* `warpsim noc`: drive the interconnect alone with synthetic Bernoulli traffic (BookSim-style
 * warm-up, measurement window, drain) and print latency and accepted throughput. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "../noc/noc_drive.h"
#include "cli.h"

enum traffic { TR_UNIFORM, TR_HOTSPOT, TR_TRANSPOSE, TR_CORES_TO_MCS };

struct tr_pkt {
	uint64_t gen_cycle, inj_cycle;
	int32_t src, dst;
	uint8_t measured;
};

/* A growable FIFO of packet ids per source: the source queue is unbounded (as BookSim's), so
 * offered load beyond saturation shows up as latency, not as lost packets. */
struct tr_fifo {
	uint32_t *v;
	size_t head, n, cap;
};

struct tr_run {
	struct noc *noc;
	enum traffic kind;
	double rate;                  /* flits per source node per cycle */
	int flits;                    /* packet size */
	uint32_t bytes;
	int n_src, *src_nodes;        /* injecting nodes */
	int n_dst, *dst_nodes;        /* destinations to draw from (uniform among them) */
	int hotspot_node;
	double hotspot_fraction;
	int side;                     /* transpose: side of the square 2-D mesh/torus */
	uint64_t rng;
	struct tr_pkt *pkt;
	size_t n_pkt, cap_pkt;
	struct tr_fifo *q;            /* [n_nodes] */
	/* results */
	uint64_t warmup, window, drain_cap;
	uint64_t measured, measured_done, flits_in_window;
	double lat_sum, net_sum;
	uint64_t max_lat;
	bool saturated;
	double seconds;
	uint64_t packets_total;
};

static double unit(uint64_t *s)
{
	/* splitmix64: fine for traffic generation, independent of the engine's streams. */
	uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	z ^= z >> 31;
	return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static int fifo_push(struct tr_fifo *f, uint32_t id)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? f->cap * 2 : 64;
		uint32_t *v = malloc(cap * sizeof *v);
		if (!v)
			return -1;
		for (size_t i = 0; i < f->n; i++)
			v[i] = f->v[(f->head + i) % f->cap];
		free(f->v);
		f->v = v;
		f->head = 0;
		f->cap = cap;
	}
	f->v[(f->head + f->n) % f->cap] = id;
	f->n++;
	return 0;
}

static int pick_dst(struct tr_run *r, int src)
{
	switch (r->kind) {
	case TR_TRANSPOSE:
		return (src % r->side) * r->side + src / r->side;
	case TR_HOTSPOT:
		if (unit(&r->rng) < r->hotspot_fraction)
			return r->hotspot_node;
		/* fall through */
	default:
		return r->dst_nodes[(int)(unit(&r->rng) * r->n_dst) % r->n_dst];
	}
}

static int run_one(struct tr_run *r, struct sim_error *err)
{
	struct noc *n = r->noc;
	int N = n->n_nodes;
	double p_gen = r->rate / r->flits;
	uint64_t end_window = r->warmup + r->window;
	clock_t t0 = clock();
	for (;;) {
		uint64_t c = noc_now_cycle(n);
		if (c >= end_window && r->measured_done == r->measured)
			break;
		if (c >= end_window + r->drain_cap) {
			r->saturated = true;
			break;
		}
		/* Keep generating during the drain so the measured packets see steady load. */
		for (int i = 0; i < r->n_src; i++) {
			int s = r->src_nodes[i];
			if (unit(&r->rng) >= p_gen)
				continue;
			if (r->n_pkt == r->cap_pkt) {
				size_t cap = r->cap_pkt ? r->cap_pkt * 2 : 4096;
				struct tr_pkt *np = realloc(r->pkt, cap * sizeof *np);
				if (!np)
					return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
				r->pkt = np;
				r->cap_pkt = cap;
			}
			struct tr_pkt *p = &r->pkt[r->n_pkt];
			p->gen_cycle = c;
			p->src = s;
			p->dst = pick_dst(r, s);
			p->measured = c >= r->warmup && c < end_window;
			r->measured += p->measured;
			if (fifo_push(&r->q[s], (uint32_t)r->n_pkt))
				return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
			r->n_pkt++;
		}
		for (int s = 0; s < N; s++) {
			struct tr_fifo *f = &r->q[s];
			while (f->n) {
				uint32_t id = f->v[f->head];
				struct tr_pkt *p = &r->pkt[id];
				if (!noc_try_inject(n, s, p->dst, NOC_CLASS_REQ, r->bytes, (void *)(uintptr_t)(id + 1)))
					break;
				p->inj_cycle = c;
				f->head = (f->head + 1) % f->cap;
				f->n--;
			}
		}
		noc_step(n);
		uint64_t now = noc_now_cycle(n);
		for (int d = 0; d < N; d++) {
			void *pl;
			while ((pl = noc_try_eject(n, d, NOC_CLASS_REQ))) {
				struct tr_pkt *p = &r->pkt[(uintptr_t)pl - 1];
				r->packets_total++;
				if (now > r->warmup && now <= end_window)
					r->flits_in_window += (uint64_t)r->flits;
				if (!p->measured)
					continue;
				uint64_t lat = now - p->gen_cycle;
				r->lat_sum += (double)lat;
				r->net_sum += (double)(now - p->inj_cycle);
				if (lat > r->max_lat)
					r->max_lat = lat;
				r->measured_done++;
			}
		}
	}
	r->seconds = (double)(clock() - t0) / CLOCKS_PER_SEC;
	return 0;
}

struct noc_args {
	enum traffic kind;
	long flits, warmup, window, seed;
	double hot;
	int n_cores, n_mcs;
};

/* One offered load on a fresh NoC: a row of the table (printed, or returned as JSON in *row). */
static int one_rate(const struct cfg *cfg, const struct noc_args *a, double rate, json_t **row, struct sim_error *err)
{
	struct noc *n = noc_create(cfg, NULL, NULL, a->n_cores, a->n_mcs, err);
	if (!n)
		return err->code;
	int rc = 0;
	int N = n->n_nodes;
	struct tr_run r;
	memset(&r, 0, sizeof r);
	r.noc = n;
	r.kind = a->kind;
	r.rate = rate;
	r.flits = (int)a->flits;
	const struct topo *t = noc_topology(n);
	uint32_t cb = (uint32_t)cfg_int(cfg, "gpu.noc.channel_bytes");
	r.bytes = (uint32_t)a->flits * cb;
	r.rng = (uint64_t)a->seed * 0x9E3779B97F4A7C15ULL + (uint64_t)(rate * 1e6);
	r.warmup = (uint64_t)a->warmup;
	r.window = (uint64_t)a->window;
	r.drain_cap = (uint64_t)a->window * 5;
	r.hotspot_fraction = a->hot;
	r.hotspot_node = n->n_mcs ? n->mc_node[0] : 0;
	r.src_nodes = calloc((size_t)N, sizeof(int));
	r.dst_nodes = calloc((size_t)N, sizeof(int));
	r.q = calloc((size_t)N, sizeof *r.q);
	if (!r.src_nodes || !r.dst_nodes || !r.q) {
		rc = sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory");
	} else if (a->kind == TR_CORES_TO_MCS) {
		if (!n->n_cores || !n->n_mcs)
			rc = sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--traffic",
					   "cores-to-mcs needs cores and memory channels in the placement");
		r.n_src = n->n_cores;
		memcpy(r.src_nodes, n->core_node, (size_t)n->n_cores * sizeof(int));
		r.n_dst = n->n_mcs;
		memcpy(r.dst_nodes, n->mc_node, (size_t)n->n_mcs * sizeof(int));
	} else {
		r.n_src = r.n_dst = N;
		for (int i = 0; i < N; i++)
			r.src_nodes[i] = r.dst_nodes[i] = i;
		if (a->kind == TR_TRANSPOSE) {
			r.side = (int)lround(sqrt((double)N));
			if (r.side * r.side != N || t->n_routers != N)
				rc = sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--traffic",
						   "transpose needs a square 2-D grid of nodes (%d nodes)", N);
		}
	}
	if (!rc)
		rc = run_one(&r, err);
	if (!rc) {
		double lat = r.measured_done ? r.lat_sum / (double)r.measured_done : 0;
		double net = r.measured_done ? r.net_sum / (double)r.measured_done : 0;
		double acc = (double)r.flits_in_window / ((double)r.n_src * (double)r.window);
		double pps = r.seconds > 0 ? (double)r.packets_total / r.seconds : 0;
		*row = json_pack("{s:f, s:f, s:f, s:I, s:f, s:b, s:I, s:f}", "offered", r.rate, "latency_cycles", lat,
				 "network_latency_cycles", net, "max_latency_cycles", (json_int_t)r.max_lat,
				 "accepted_flits_node_cycle", acc, "saturated", r.saturated, "packets_measured",
				 (json_int_t)r.measured_done, "packets_per_second", pps);
	}
	for (int i = 0; i < N && r.q; i++)
		free(r.q[i].v);
	free(r.q);
	free(r.src_nodes);
	free(r.dst_nodes);
	free(r.pkt);
	noc_destroy(n);
	return rc;
}

/* simgrid-flow or a SimGrid topology: SimGrid holds one platform per process, so each rate
 * runs in a child that sends its row (JSON text) back through a pipe. */
static int one_rate_forked(const struct cfg *cfg, const struct noc_args *a, double rate, json_t **row,
			   struct sim_error *err)
{
	int fd[2];
	if (pipe(fd))
		return sim_error_set(err, SIM_ERR_IO, NULL, 0, 0, NULL, "pipe: %s", strerror(errno));
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0)
		return sim_error_set(err, SIM_ERR_IO, NULL, 0, 0, NULL, "fork: %s", strerror(errno));
	if (pid == 0) {
		close(fd[0]);
		json_t *r = NULL;
		int rc = one_rate(cfg, a, rate, &r, err);
		char line[1024] = "";
		if (rc)
			sim_error_format(err, line, sizeof line);
		json_t *doc = json_pack("{s:i, s:s, s:o?}", "rc", rc, "error", line, "row", r);
		char *txt = json_dumps(doc, 0);
		FILE *f = fdopen(fd[1], "w");
		if (f && txt)
			fputs(txt, f);
		if (f)
			fclose(f);
		_exit(0);
	}
	close(fd[1]);
	FILE *f = fdopen(fd[0], "r");
	json_error_t je;
	json_t *doc = f ? json_loadf(f, 0, &je) : NULL;
	if (f)
		fclose(f);
	int status;
	waitpid(pid, &status, 0);
	if (!doc)
		return sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, NULL, "simgrid-flow child for rate %g failed", rate);
	int rc = (int)json_integer_value(json_object_get(doc, "rc"));
	if (rc)
		sim_error_set(err, (enum sim_err)rc, NULL, 0, 0, NULL, "%s", json_string_value(json_object_get(doc, "error")));
	else
		*row = json_incref(json_object_get(doc, "row"));
	json_decref(doc);
	return rc;
}

static void print_row(const json_t *r)
{
	printf("%-8.3f %12.2f %12.2f %12lld %12.4f %10.0f%s\n", json_real_value(json_object_get(r, "offered")),
	       json_real_value(json_object_get(r, "latency_cycles")), json_real_value(json_object_get(r, "network_latency_cycles")),
	       (long long)json_integer_value(json_object_get(r, "max_latency_cycles")),
	       json_real_value(json_object_get(r, "accepted_flits_node_cycle")),
	       json_real_value(json_object_get(r, "packets_per_second")),
	       json_is_true(json_object_get(r, "saturated")) ? "  saturated (did not drain)" : "");
	fflush(stdout);
}

static const char *const noc_vals[] = {"--traffic", "--rate", "--packet-flits", "--sweep", "--warmup", "--cycles",
				       "--seed", "--hotspot-fraction", NULL};

static void usage(void)
{
	printf("usage: warpsim noc [-c CONFIG]... [-s key=value]... --traffic uniform|hotspot|transpose|cores-to-mcs\n"
	       "                  [--rate FLITS_PER_NODE_CYCLE | --sweep auto|R1,R2,...] [--packet-flits L]\n"
	       "                  [--warmup CYCLES] [--cycles CYCLES] [--seed N] [--hotspot-fraction F] [--json]\n"
	       "Bernoulli injection into unbounded source queues; latency is generation to tail arrival,\n"
	       "network latency is acceptance by the NoC to tail arrival, throughput is accepted flits per\n"
	       "source node per cycle over the measurement window.\n");
}

static int parse_rates(const char *s, double *rates, int max)
{
	static const double autos[] = {0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45,
				       0.5, 0.55, 0.6, 0.7, 0.8, 1.0};
	if (!strcmp(s, "auto")) {
		int k = (int)(sizeof autos / sizeof autos[0]);
		memcpy(rates, autos, sizeof autos);
		return k;
	}
	int k = 0;
	while (*s && k < max) {
		char *end;
		double v = strtod(s, &end);
		if (end == s || v <= 0 || v > 1)
			return -1;
		rates[k++] = v;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return k;
}

int cmd_noc(int argc, char **argv, struct sim_error *err)
{
	struct cli_opts o;
	int rc = cli_parse_command(argc, argv, "cs", noc_vals, NULL, usage, &o, err);
	if (rc || o.help)
		return rc;
	const char *tr = cli_long(&o, "--traffic");
	enum traffic kind;
	if (!tr || !strcmp(tr, "uniform"))
		kind = TR_UNIFORM;
	else if (!strcmp(tr, "hotspot"))
		kind = TR_HOTSPOT;
	else if (!strcmp(tr, "transpose"))
		kind = TR_TRANSPOSE;
	else if (!strcmp(tr, "cores-to-mcs"))
		kind = TR_CORES_TO_MCS;
	else
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--traffic",
				     "must be uniform, hotspot, transpose or cores-to-mcs, got \"%s\"", tr);
	double rates[64];
	int n_rates = 1;
	rates[0] = 0.02;
	if (cli_long(&o, "--sweep")) {
		n_rates = parse_rates(cli_long(&o, "--sweep"), rates, 64);
		if (n_rates <= 0)
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--sweep", "needs auto or rates in (0,1] separated by commas");
	} else if (cli_long(&o, "--rate")) {
		if (parse_rates(cli_long(&o, "--rate"), rates, 1) != 1)
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--rate", "needs a rate in (0,1] flits/node/cycle");
	}
	long flits = cli_long(&o, "--packet-flits") ? strtol(cli_long(&o, "--packet-flits"), NULL, 10) : 1;
	long warmup = cli_long(&o, "--warmup") ? strtol(cli_long(&o, "--warmup"), NULL, 10) : 10000;
	long window = cli_long(&o, "--cycles") ? strtol(cli_long(&o, "--cycles"), NULL, 10) : 20000;
	long seed = cli_long(&o, "--seed") ? strtol(cli_long(&o, "--seed"), NULL, 10) : 1;
	double hot = cli_long(&o, "--hotspot-fraction") ? strtod(cli_long(&o, "--hotspot-fraction"), NULL) : 0.2;
	if (flits < 1 || flits > 1024)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--packet-flits", "must be 1..1024");
	if (warmup < 0 || window < 1)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--cycles", "needs --warmup >= 0 and --cycles >= 1");
	if (hot < 0 || hot > 1)
		return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, "--hotspot-fraction", "must be in [0,1]");

	struct cfg *cfg;
	rc = cli_build_cfg(&o, &cfg, err);
	if (rc)
		return rc;
	size_t nm;
	(void)cfg_int_list(cfg, "gpu.noc.placement.mc_nodes", &nm);
	/* one node per L2 slice: channels x sub-partitions */
	int n_mcs = cfg_is_defined(cfg, "gpu.dram.channels")
			    ? (int)(cfg_int(cfg, "gpu.dram.channels") *
				    (cfg_is_defined(cfg, "gpu.l2.sub_partitions") ? cfg_int(cfg, "gpu.l2.sub_partitions") : 1))
			    : (int)nm;
	int n_cores = cfg_is_defined(cfg, "gpu.core.count") ? (int)cfg_int(cfg, "gpu.core.count") : 0;

	json_t *rows = json_array();
	struct noc_args a = {kind, flits, warmup, window, seed, hot, n_cores, n_mcs};
	bool fork_each = n_rates > 1 && (!strcmp(cfg_str(cfg, "gpu.noc.model"), "simgrid-flow") ||
					 !strcmp(cfg_str(cfg, "gpu.noc.topology"), "simgrid"));
	if (!o.json)
		printf("%-8s %12s %12s %12s %12s %10s\n", "offered", "latency", "network", "max_latency", "accepted",
		       "pkts/s");
	for (int ri = 0; ri < n_rates && !rc; ri++) {
		json_t *row = NULL;
		rc = fork_each ? one_rate_forked(cfg, &a, rates[ri], &row, err) : one_rate(cfg, &a, rates[ri], &row, err);
		if (rc)
			break;
		if (!o.json)
			print_row(row);
		json_array_append_new(rows, row);
	}
	if (!rc && !o.json && n_rates > 1) {
		/* Saturation throughput: the most the network accepted at any offered load. */
		double best = 0, at = 0;
		size_t i;
		json_t *r;
		json_array_foreach(rows, i, r) {
			double acc = json_real_value(json_object_get(r, "accepted_flits_node_cycle"));
			if (acc > best) {
				best = acc;
				at = json_real_value(json_object_get(r, "offered"));
			}
		}
		printf("saturation throughput: %.4f flits/node/cycle (highest accepted, at offered %.3f)\n", best, at);
	}
	if (!rc && o.json) {
		json_t *doc = json_pack("{s:s, s:s, s:s, s:i, s:o}", "model", cfg_str(cfg, "gpu.noc.model"), "topology",
					cfg_str(cfg, "gpu.noc.topology"), "traffic", tr ? tr : "uniform", "packet_flits",
					(int)flits, "rows", rows);
		char *s = json_dumps(doc, JSON_INDENT(1));
		printf("%s\n", s);
		free(s);
		json_decref(doc);
	} else {
		json_decref(rows);
	}
	cfg_destroy(cfg);
	return rc;
}
