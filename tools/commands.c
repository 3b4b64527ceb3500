/* SPDX-License-Identifier: MIT */
/* The table of subcommands. Add one line per command; the implementation lives in cmd_<name>.c. */
#include "commands.h"

int cmd_run(int argc, char **argv, struct sim_error *err);
int cmd_validate(int argc, char **argv, struct sim_error *err);
int cmd_config(int argc, char **argv, struct sim_error *err);
int cmd_bench(int argc, char **argv, struct sim_error *err);
int cmd_ptx_info(int argc, char **argv, struct sim_error *err);
int cmd_noc(int argc, char **argv, struct sim_error *err);
int cmd_sweep(int argc, char **argv, struct sim_error *err);
int cmd_compare(int argc, char **argv, struct sim_error *err);
int cmd_report(int argc, char **argv, struct sim_error *err);
int cmd_memtest(int argc, char **argv, struct sim_error *err);
int cmd_cuda(int argc, char **argv, struct sim_error *err);
int cmd_rowshare(int argc, char **argv, struct sim_error *err);

const struct ws_command ws_commands[] = {
	{"run", "simulate a workload on a machine configuration", cmd_run},
	{"validate", "check a configuration and print errors", cmd_validate},
	{"config", "list every setting with its default and help (--list)", cmd_config},
	{"compare", "the main job: owl-28 policy comparison table (IPC vs lrr, L1 hit, BLP, RBL)", cmd_compare},
	{"cuda", "run an unmodified CUDA program (nvcc -cudart shared) on a machine configuration", cmd_cuda},
	{"sweep", "run configs x workloads x variants here, or emit a Slurm array / GNU parallel jobs", cmd_sweep},
	{"report", "markdown report with tables and gnuplot figures from a sweep directory", cmd_report},
	{"noc", "drive the interconnect alone with synthetic traffic (latency vs offered load)", cmd_noc},
	{"ptx-info", "print a PTX file's kernels, registers, shared/local memory and phases", cmd_ptx_info},
	{"rowshare", "CTAs per DRAM row of a workload on a machine's address map (OWL Table 4)", cmd_rowshare},
	{"memtest", "drive one memory channel with synthetic reads (bandwidth, latency, row hits)", cmd_memtest},
	{"bench", "measure simulation speed (bench engine | bench [--json])", cmd_bench},
};
const unsigned ws_n_commands = sizeof ws_commands / sizeof ws_commands[0];
