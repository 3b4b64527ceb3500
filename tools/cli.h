/* SPDX-License-Identifier: MIT */
/* Shared command-line handling: -c CONFIG (repeatable), -s key=value, -w WORKLOAD, -o OUTDIR,
 * --json; and building the configuration every subcommand uses. */
#ifndef WARPSIM_CLI_H
#define WARPSIM_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "../engine/config.h"
#include "../engine/sim_error.h"

#define CLI_MAX_CONFIGS 16
#define CLI_MAX_OVERRIDES 128
#define CLI_MAX_POSITIONAL 16

struct cli_opts {
	const char *configs[CLI_MAX_CONFIGS];   /* -c, in order: later files override earlier */
	int n_configs;
	const char *overrides[CLI_MAX_OVERRIDES];/* -s key=value */
	int n_overrides;
	const char *workload;                   /* -w */
	const char *outdir;                     /* -o */
	bool json;                              /* --json */
	bool help;                              /* --help */
	const char *positional[CLI_MAX_POSITIONAL];
	int n_positional;
	/* long options with a value that a command accepts (e.g. "--pattern"): name -> value */
	const char *long_names[16];
	const char *long_values[16];
	int n_long;
};

/* Parse argv[1..]. allowed: letters of the short options the command accepts ("cswo");
 * long_with_value: NULL-terminated names ("--pattern") the command accepts with a value;
 * long_flags: NULL-terminated boolean flags besides --json/--help. Unknown flags and
 * missing values are SIM_ERR_USAGE naming the flag. */
int cli_parse(int argc, char **argv, const char *allowed, const char *const *long_with_value,
	      const char *const *long_flags, struct cli_opts *o, struct sim_error *err);
/* cli_parse for a command that takes no positional argument: --help prints usage() and leaves
 * o->help set (the command then returns 0); a positional argument is SIM_ERR_USAGE naming it.
 * Callers: if ((rc = cli_parse_command(...)) || o.help) return rc; */
int cli_parse_command(int argc, char **argv, const char *allowed, const char *const *long_with_value,
		      const char *const *long_flags, void (*usage)(void), struct cli_opts *o,
		      struct sim_error *err);
/* Value of a long option, or NULL. Flags given without value read as "1". */
const char *cli_long(const struct cli_opts *o, const char *name);

/* An option's decimal value in [min, max] into *out; otherwise SIM_ERR_USAGE naming flag (a
 * missing value, s NULL, included). */
int cli_parse_u64(const char *flag, const char *s, uint64_t min, uint64_t max, uint64_t *out, struct sim_error *err);

/* The budget and launch-selection flags `warpsim run` and `warpsim cuda` share (issue 33),
 * for their lists of options with a value and of flags. */
#define CLI_BUDGET_WITH_VALUE "--max-insts", "--max-warp-insts", "--max-cycles", "--max-launches", \
	"--on-budget", "--launches"
#define CLI_BUDGET_FLAGS "--sample-launches"
/* Launches of each group --sample-launches simulates (sim.sample_launches): two, so that each
 * group's spread bounds its estimate (one sample gives no bound). */
#define CLI_SAMPLE_LAUNCHES 2
struct cli_budget_buf {
	char s[8][512];
};
/* Append each budget flag given as its -s setting (after the -s ones: the flag wins), the text
 * in buf (which must outlive o); --sample-launches also sets sim.functional_launches_cache=warm
 * before them (a -s says otherwise). SIM_ERR_USAGE naming the flag for a bad number or mode. */
int cli_budget_overrides(struct cli_opts *o, struct cli_budget_buf *buf, struct sim_error *err);
/* Their lines of a usage text. */
void cli_budget_usage(FILE *out);

/* Build the configuration: every module's schema, each -c file in order, then every -s. */
int cli_build_cfg(const struct cli_opts *o, struct cfg **out, struct sim_error *err);

/* The progress line's options (--progress, --no-progress, --progress-interval S) as `run` and
 * `cuda` take them: shown on a terminal unless refused or quiet, elsewhere only when asked;
 * *interval_s 1 unless given (0..86400). SIM_ERR_USAGE naming the option. */
int cli_progress_opts(const struct cli_opts *o, bool quiet, bool *show, double *interval_s,
		      struct sim_error *err);

/* Monotonic wall-clock seconds (for speed figures). */
double cli_now_s(void);

/* Create dir (and parents). */
int cli_mkdirs(const char *dir, struct sim_error *err);

/* printf into a path buffer of n bytes; a path that does not fit is an error naming its start
 * (never walked truncated, which would be another file). */
int cli_path(char *buf, size_t n, struct sim_error *err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Write a file atomically (tmp then rename) with the content produced by fn. */
int cli_write_atomic(const char *path, int (*fn)(FILE *f, const void *ctx, struct sim_error *err),
		     const void *ctx, struct sim_error *err);

#endif
