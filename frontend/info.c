/* SPDX-License-Identifier: MIT */
/* `warpsim ptx-info`: per kernel, parameters, registers, shared/local memory, instruction
 * count, basic blocks and the PAWS phases (count, lengths), as text or JSON (jansson). */
#include <jansson.h>
#include <string.h>

#include "fe_int.h"
#include "fe_ptxas.h"

static void phase_stats(const struct fe_kernel *k, uint32_t *mn, uint32_t *mx, double *avg)
{
	uint64_t sum = 0;
	*mn = UINT32_MAX;
	*mx = 0;
	for (uint32_t p = 0; p < k->n_phases; p++) {
		uint32_t v = k->phase_len[p];
		sum += v;
		if (v < *mn)
			*mn = v;
		if (v > *mx)
			*mx = v;
	}
	if (!k->n_phases)
		*mn = 0;
	*avg = k->n_phases ? (double)sum / k->n_phases : 0.0;
}

/* ptxas's count for kernel i, FE_PTXAS_NO_COUNT if there is none. */
static uint32_t ptxas_count(const struct fe_ptxas_regs *px, uint32_t i)
{
	return px && px->source != FE_REGS_ESTIMATE && i < px->n_kernels ? px->regs[i] :
		FE_PTXAS_NO_COUNT;
}

static json_t *kernel_json(const struct fe_module *m, const struct fe_kernel *k, uint32_t ptxas)
{
	const struct fe_func *f = &m->funcs[k->func];
	uint32_t mn, mx;
	double avg;
	phase_stats(k, &mn, &mx, &avg);
	json_t *o = json_object();
	json_object_set_new(o, "name", json_string(f->name));
	json_object_set_new(o, "params", json_integer(f->n_params));
	json_object_set_new(o, "param_bytes", json_integer(f->param_bytes));
	json_object_set_new(o, "regs_per_thread_estimate", json_integer(k->regs_estimate));
	json_object_set_new(o, "regs_per_thread_ptxas",
			    ptxas == FE_PTXAS_NO_COUNT ? json_null() : json_integer(ptxas));
	json_object_set_new(o, "virtual_regs", json_integer(k->n_regs));
	json_object_set_new(o, "shared_static_bytes", json_integer(k->shared_static_bytes));
	json_object_set_new(o, "dynamic_shared", json_boolean(k->dyn_shared));
	json_object_set_new(o, "local_bytes_per_thread", json_integer(k->local_bytes));
	json_object_set_new(o, "instructions", json_integer(k->n_insts));
	json_object_set_new(o, "basic_blocks", json_integer(k->n_blocks));
	json_t *ph = json_object();
	json_object_set_new(ph, "count", json_integer(k->n_phases));
	json_object_set_new(ph, "min_cycles", json_integer(mn));
	json_object_set_new(ph, "max_cycles", json_integer(mx));
	json_object_set_new(ph, "avg_cycles", json_real(avg));
	json_t *lens = json_array();
	for (uint32_t p = 0; p < k->n_phases; p++)
		json_array_append_new(lens, json_integer(k->phase_len[p]));
	json_object_set_new(ph, "lengths_cycles", lens);
	json_object_set_new(o, "phases", ph);
	if (f->maxntid[0]) {
		json_t *a = json_array();
		for (int i = 0; i < 3; i++)
			json_array_append_new(a, json_integer(f->maxntid[i]));
		json_object_set_new(o, "maxntid", a);
	}
	return o;
}

void fe_module_print_info(const struct fe_module *m, FILE *out, bool json,
			  const struct fe_ptxas_regs *px)
{
	const char *arch = FE_PTXAS_ARCH;
	if (json) {
		json_t *root = json_object();
		json_object_set_new(root, "file", json_string(m->path));
		json_t *ks = json_array();
		for (uint32_t i = 0; i < m->n_kernels; i++)
		{
			json_t *kj = kernel_json(m, &m->kernels[i], ptxas_count(px, i));
			json_object_set_new(kj, "cxx_name", json_string(m->cxx_names[i]));
			json_array_append_new(ks, kj);
		}
		json_object_set_new(root, "kernels", ks);
		if (px) {
			bool ok = px->source != FE_REGS_ESTIMATE;
			json_object_set_new(root, "ptxas", json_pack("{s:s, s:s, s:s, s:s}", "arch", arch,
				"path", px->ptxas, "source", ok ? fe_regs_source_name(px->source) : "none",
				"why", ok ? "" : px->why));
		}
		json_t *lat = json_object();
		static const char *const names[WI_LAT_COUNT] = {"int", "fp32", "fp64", "mul", "div",
			"sfu", "shared", "const", "mem", "ctrl", "logic", "tensor"};
		for (int i = 0; i < WI_LAT_COUNT; i++)
			json_object_set_new(lat, names[i], json_integer(fe_phase_latency_cycles[i]));
		json_object_set_new(root, "phase_latency_cycles", lat);
		json_dumpf(root, out, JSON_INDENT(2));
		fputc('\n', out);
		json_decref(root);
		return;
	}
	fprintf(out, "%s: %u kernel(s)\n", m->path, m->n_kernels);
	if (px && px->source != FE_REGS_ESTIMATE)
		fprintf(out, "registers from ptxas -arch=%s -v: %s%s\n", arch, px->ptxas,
			px->source == FE_REGS_PTXAS_CACHE ? " (from the cache)" : "");
	else if (px)
		fprintf(out, "registers: no ptxas figures: %s\n", px->why);
	for (uint32_t i = 0; i < m->n_kernels; i++) {
		const struct fe_kernel *k = &m->kernels[i];
		const struct fe_func *f = &m->funcs[k->func];
		uint32_t mn, mx;
		double avg;
		phase_stats(k, &mn, &mx, &avg);
		fprintf(out, "\nkernel %s\n", f->name);
		if (strcmp(m->cxx_names[i], f->name))
			fprintf(out, "  C++ name          %s\n", m->cxx_names[i]);
		fprintf(out, "  params            %u (%u bytes)\n", f->n_params, f->param_bytes);
		uint32_t pr = ptxas_count(px, i);
		if (pr != FE_PTXAS_NO_COUNT)
			fprintf(out, "  registers/thread  %u from ptxas; estimate %u (liveness over %u virtual)\n",
				pr, k->regs_estimate, k->n_regs);
		else
			fprintf(out, "  registers/thread  ptxas -; estimate %u (liveness over %u virtual)\n",
				k->regs_estimate, k->n_regs);
		fprintf(out, "  shared memory     %u bytes static%s\n", k->shared_static_bytes,
			k->dyn_shared ? " + dynamic (.extern .shared)" : "");
		fprintf(out, "  local memory      %u bytes/thread\n", k->local_bytes);
		fprintf(out, "  instructions      %u in %u basic blocks\n", k->n_insts, k->n_blocks);
		fprintf(out, "  phases            %u, length min %u / avg %.1f / max %u cycles\n",
			k->n_phases, mn, avg, mx);
		fprintf(out, "  phase lengths    ");
		for (uint32_t p = 0; p < k->n_phases; p++)
			fprintf(out, " %u", k->phase_len[p]);
		fprintf(out, "\n");
	}
}

void fe_module_print_phases(const struct fe_module *m, FILE *out)
{
	for (uint32_t i = 0; i < m->n_kernels; i++) {
		const struct fe_kernel *k = &m->kernels[i];
		fprintf(out, "kernel %s: %u phases\n", m->funcs[k->func].name, k->n_phases);
		fprintf(out, "  phase  first_pc  line  insts  cycles  first instruction\n");
		uint32_t pc = 0;
		while (pc < k->n_insts) {
			uint32_t p = k->wi[pc].phase_id, first = pc;
			while (pc < k->n_insts && k->wi[pc].phase_id == p)
				pc++;
			fprintf(out, "  %5u  %8u  %4u  %5u  %6u  %s\n", p, first, k->wi[first].src_line,
				pc - first, k->phase_len[p], k->wi[first].text);
		}
	}
}
