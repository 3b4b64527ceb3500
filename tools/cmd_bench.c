/* SPDX-License-Identifier: MIT */
/* `warpsim bench engine [--json] [--events N] [--seed N]`: events and ticks per second of the
 * discrete-event engine on a synthetic ring of 64 components over 3 clock domains. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "../engine/sim.h"
#include "bench.h"
#include "cli.h"
#include "commands.h"

#define BENCH_COMPONENTS 64
#define BENCH_TOKENS_EACH 4
#define BENCH_TOKENS (BENCH_COMPONENTS * BENCH_TOKENS_EACH)
#define BENCH_QUEUE 256 /* a node can hold every token: no local overflow, only link back-pressure */
#define BENCH_LINK_CAP 4
#define BENCH_LINK_LATENCY_PS 2000

static const uint32_t bench_freqs_mhz[3] = {1300, 650, 800};

struct bench_token {
	uint64_t hops;
	uint32_t work_cycles; /* cycles of work left at the current node */
};

/* A node takes tokens from its input link, works on the oldest for a random 0..3 cycles
 * (sometimes a 40-cycle stall as a timer), then forwards it; it sleeps when it holds
 * nothing (woken by an arrival) or when its output is full (woken when a slot frees). */
struct bench_node {
	struct sim_component base;
	struct sim_link *in, *out;
	struct bench_token *queue[BENCH_QUEUE];
	uint32_t head, count;
	uint64_t forwarded;
	uint64_t stop_after_events;
	struct sim_pool *pool;
};

static uint32_t bench_draw_work(struct sim_rng *r)
{
	uint64_t x = sim_rng_next(r);
	return (x & 15) == 0 ? 40 : (uint32_t)((x >> 4) & 3);
}

static uint64_t bench_node_tick(struct sim_component *c, uint64_t cycle)
{
	struct bench_node *n = (struct bench_node *)c;
	struct sim *sim = c->sim;
	struct bench_token *t;
	while ((t = sim_link_recv(sim, n->in))) {
		t->work_cycles = bench_draw_work(&c->rng);
		uint32_t tail = (n->head + n->count) % BENCH_QUEUE;
		n->queue[tail] = t;
		n->count++;
	}
	if (sim_events_fired(sim) >= n->stop_after_events)
		sim_request_stop(sim);
	if (n->count == 0)
		return SIM_NEVER;
	t = n->queue[n->head];
	if (t->work_cycles > 0) {
		/* A long job is a timer: no ticks until it is done. */
		uint64_t wait = t->work_cycles;
		t->work_cycles = 0;
		return cycle + wait;
	}
	if (!sim_link_try_send(sim, n->out, t))
		return SIM_NEVER;
	t->hops++;
	n->head = (n->head + 1) % BENCH_QUEUE;
	n->count--;
	n->forwarded++;
	sim_progress(sim);
	return n->count ? cycle + 1 : SIM_NEVER;
}

static uint64_t bench_node_outstanding(const struct sim_component *c)
{
	return ((const struct bench_node *)c)->count;
}

static void bench_node_dump(const struct sim_component *c, FILE *out)
{
	const struct bench_node *n = (const struct bench_node *)c;
	fprintf(out, "  holds %u tokens, output link %u/%u\n", n->count, n->out->count, n->out->capacity);
}

static const struct sim_component_ops bench_node_ops = {bench_node_tick, bench_node_outstanding,
							 bench_node_dump};

struct bench_result {
	uint64_t events, ticks, sim_ps, forwarded, tokens_seen;
	double wall_s, cpu_s; /* cpu_s: this process's CPU time, steadier than wall on a busy host */
	enum sim_stop stop;
};

static double bench_clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int bench_engine_run(uint64_t n_events, uint64_t seed, struct bench_result *res,
			    struct sim_error *err)
{
	static const char *const clock_names[3] = {"core", "icnt", "dram"};
	struct sim_clock clocks[3];
	struct bench_node *nodes = calloc(BENCH_COMPONENTS, sizeof *nodes);
	struct sim_link *links = calloc(BENCH_COMPONENTS, sizeof *links);
	char (*names)[16] = calloc(BENCH_COMPONENTS, sizeof *names);
	struct sim_pool pool;
	int rc = sim_pool_init(&pool, sizeof(struct bench_token), BENCH_TOKENS, err);
	struct sim_config cfg = {.seed = seed, .watchdog_cycles = 100000, .watchdog_clk = &clocks[0]};
	struct sim *sim = NULL;
	if (rc)
		goto out;
	if (!nodes || !links || !names) {
		rc = sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory building the benchmark");
		goto out;
	}
	sim = sim_create(&cfg, err);
	if (!sim) {
		rc = err->code;
		goto out;
	}
	for (int k = 0; k < 3; k++) {
		clocks[k] = (struct sim_clock){.name = clock_names[k], .freq_mhz = bench_freqs_mhz[k]};
		if ((rc = sim_clock_add(sim, &clocks[k], err)))
			goto out;
	}
	for (int i = 0; i < BENCH_COMPONENTS; i++) {
		struct bench_node *n = &nodes[i];
		snprintf(names[i], sizeof names[i], "node.%d", i);
		n->base.ops = &bench_node_ops;
		n->base.name = names[i];
		n->base.clk = &clocks[i % 3];
		n->stop_after_events = n_events;
		n->pool = &pool;
		if ((rc = sim_component_add(sim, &n->base, err)))
			goto out;
	}
	for (int i = 0; i < BENCH_COMPONENTS; i++) {
		struct bench_node *from = &nodes[i], *to = &nodes[(i + 1) % BENCH_COMPONENTS];
		if ((rc = sim_link_init(&links[i], "ring", &from->base, &to->base, BENCH_LINK_LATENCY_PS,
					BENCH_LINK_CAP, err)))
			goto out;
		from->out = &links[i];
		to->in = &links[i];
	}
	for (int i = 0; i < BENCH_COMPONENTS; i++) {
		for (int k = 0; k < BENCH_TOKENS_EACH; k++) {
			struct bench_token *t = sim_pool_alloc(&pool);
			if (!t) {
				rc = sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "out of memory for tokens");
				goto out;
			}
			t->work_cycles = bench_draw_work(&nodes[i].base.rng);
			nodes[i].queue[nodes[i].count++] = t;
		}
		sim_component_wake(&nodes[i].base);
	}

	double t0 = bench_clock_s(CLOCK_MONOTONIC), c0 = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID);
	res->stop = sim_run(sim, SIM_NEVER, stderr, err);
	res->wall_s = bench_clock_s(CLOCK_MONOTONIC) - t0;
	res->cpu_s = bench_clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
	res->events = sim_events_fired(sim);
	res->sim_ps = sim_now_ps(sim);
	res->ticks = res->forwarded = res->tokens_seen = 0;
	for (int i = 0; i < BENCH_COMPONENTS; i++) {
		res->ticks += nodes[i].base.ticks;
		res->forwarded += nodes[i].forwarded;
		res->tokens_seen += nodes[i].count + links[i].count;
	}
	if (res->stop == SIM_STOP_DEADLOCK)
		rc = SIM_ERR_FAULT;
	else if (res->tokens_seen != BENCH_TOKENS)
		rc = sim_error_set(err, SIM_ERR_FAULT, NULL, 0, 0, NULL,
				   "benchmark lost tokens: %" PRIu64 " of %d", res->tokens_seen, BENCH_TOKENS);
out:
	if (links)
		for (int i = 0; i < BENCH_COMPONENTS; i++)
			sim_link_fini(&links[i]);
	sim_pool_fini(&pool);
	sim_destroy(sim);
	free(names);
	free(links);
	free(nodes);
	return rc;
}

static void bench_usage(FILE *out)
{
	fprintf(out, "usage: warpsim bench engine [--json] [--events N] [--seed N]\n"
		     "  engine   events/s and ticks/s of the event engine: 64 components on 3 clock domains\n"
		     "           (1300, 650, 800 MHz) passing %d messages round a ring of links\n"
		     "  --events N  events to run (default 20000000)\n"
		     "  (without `engine`: the full-GPU benchmark, see warpsim bench --help)\n",
		BENCH_TOKENS);
}

int cmd_bench(int argc, char **argv, struct sim_error *err)
{
	bool is_engine = false;
	for (int i = 1; i < argc; i++)
		is_engine |= !strcmp(argv[i], "engine");
	if (!is_engine)
		return bench_gpu(argc, argv, err);
	bool json = false, engine = false;
	uint64_t n_events = 20000000, seed = 1;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			bench_usage(stdout);
			return 0;
		} else if (!strcmp(a, "--json")) {
			json = true;
		} else if (!strcmp(a, "--events") || !strcmp(a, "--seed")) {
			int rc = cli_parse_u64(a, i + 1 < argc ? argv[i + 1] : NULL, a[2] == 'e' ? 1 : 0, UINT64_MAX,
					       a[2] == 'e' ? &n_events : &seed, err);
			if (rc)
				return rc;
			i++;
		} else if (!strcmp(a, "engine") && !engine) {
			engine = true;
		} else {
			bench_usage(stderr);
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, a, "unknown argument");
		}
	}
	if (!engine) {
		bench_usage(stderr);
		return 2; /* already explained by the usage text */
	}
	struct bench_result r = {0};
	int rc = bench_engine_run(n_events, seed, &r, err);
	if (rc)
		return rc;
	double ev_s = (double)r.events / r.wall_s, tk_s = (double)r.ticks / r.wall_s;
	double ev_cpu_s = (double)r.events / r.cpu_s;
	if (json) {
		json_t *doc = json_pack("{s:s, s:i, s:[i,i,i], s:i, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f}",
					"bench", "engine", "components", BENCH_COMPONENTS,
					"clocks_mhz", bench_freqs_mhz[0], bench_freqs_mhz[1], bench_freqs_mhz[2],
					"messages", BENCH_TOKENS, "seed", (json_int_t)seed,
					"events", (json_int_t)r.events, "ticks", (json_int_t)r.ticks,
					"messages_forwarded", (json_int_t)r.forwarded,
					"simulated_ps", (json_int_t)r.sim_ps, "wall_s", r.wall_s,
					"cpu_s", r.cpu_s, "events_per_s", ev_s, "ticks_per_s", tk_s,
					"events_per_cpu_s", ev_cpu_s);
		if (!doc)
			return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "could not build the JSON result");
		char *s = json_dumps(doc, JSON_REAL_PRECISION(6));
		json_decref(doc);
		if (!s)
			return sim_error_set(err, SIM_ERR_NOMEM, NULL, 0, 0, NULL, "could not format the JSON result");
		printf("%s\n", s);
		free(s);
		return 0;
	}
	printf("engine benchmark: %d components on 3 clock domains (%u, %u, %u MHz), %d links, %d messages, seed %" PRIu64 "\n",
	       BENCH_COMPONENTS, bench_freqs_mhz[0], bench_freqs_mhz[1], bench_freqs_mhz[2],
	       BENCH_COMPONENTS, BENCH_TOKENS, seed);
	printf("  %-20s %15" PRIu64 "\n", "events", r.events);
	printf("  %-20s %15" PRIu64 "\n", "ticks", r.ticks);
	printf("  %-20s %15" PRIu64 "\n", "messages forwarded", r.forwarded);
	printf("  %-20s %15.3f\n", "simulated us", (double)r.sim_ps * 1e-6);
	printf("  %-20s %15.3f\n", "wall s", r.wall_s);
	printf("  %-20s %15.3f\n", "cpu s", r.cpu_s);
	printf("  %-20s %15.2f M\n", "events/s", ev_s * 1e-6);
	printf("  %-20s %15.2f M\n", "ticks/s", tk_s * 1e-6);
	printf("  %-20s %15.2f M   (per second of this process's CPU time)\n", "events/cpu-s", ev_cpu_s * 1e-6);
	return 0;
}
