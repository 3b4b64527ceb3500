/* SPDX-License-Identifier: MIT */
/* Load-time linking: each .entry with the .funcs it calls into one program (registers and pcs
 * renumbered), its shared/local/param memory laid out, wi_static filled and the executor's
 * form decoded; the analyses over the linked program (CFG, post-dominators, phases, register
 * estimate) are in link_cfg.c. */
#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "link_int.h"

int fe_kernel_find(const struct fe_module *m, const char *name, struct sim_error *err)
{
	for (uint32_t k = 0; k < m->n_kernels; k++)
		if (!strcmp(m->funcs[m->kernels[k].func].name, name))
			return (int)k;
	for (uint32_t k = 0; m->cxx_names && k < m->n_kernels; k++)
		if (!strcmp(m->cxx_names[k], name))
			return (int)k;
	int found = -1, n = 0;
	for (uint32_t k = 0; m->cxx_names && k < m->n_kernels; k++)
		if (fe_name_matches_base(m->cxx_names[k], name)) {
			found = (int)k;
			n++;
		}
	if (n == 1)
		return found;
	if (n > 1)
		return sim_error_set(err, SIM_ERR_INPUT, m->path, 0, 0, name,
				     "%d kernels have that name (overloads or template instances): "
				     "name one with its parameters, e.g. %s", n, m->cxx_names[found]);
	return sim_error_set(err, SIM_ERR_INPUT, m->path, 0, 0, name, "no kernel of that name in the PTX module");
}

static int resolve_calls(struct fe_module *m, struct sim_error *err)
{
	for (uint32_t f = 0; f < m->n_funcs; f++) {
		const struct fe_func *fn = &m->funcs[f];
		for (uint32_t i = 0; i < fn->n_insts; i++) {
			const struct fe_inst *in = &fn->insts[i];
			if (in->op != FE_OP_CALL)
				continue;
			struct fe_call *c = &m->calls[in->call];
			uint32_t g;
			for (g = 0; g < m->n_funcs; g++)
				if (!strcmp(m->funcs[g].name, c->func_name))
					break;
			if (g < m->n_funcs && !m->funcs[g].defined && !strcmp(c->func_name, "vprintf"))
				c->builtin = FE_BUILTIN_VPRINTF;
			else if (g < m->n_funcs && !m->funcs[g].defined && !strcmp(c->func_name, "__assertfail"))
				c->builtin = FE_BUILTIN_ASSERTFAIL;
			else if (g == m->n_funcs || !m->funcs[g].defined || m->funcs[g].is_entry)
				return sim_error_set(err, SIM_ERR_INPUT, m->path, (int)in->line, (int)in->col,
						     c->func_name, "call of an undefined function");
			if (c->n_args != m->funcs[g].n_params || c->n_rets != m->funcs[g].n_rets)
				return sim_error_set(err, SIM_ERR_INPUT, m->path, (int)in->line, (int)in->col,
						     c->func_name, "call passes %u args/%u results, function takes %u/%u",
						     c->n_args, c->n_rets, m->funcs[g].n_params, m->funcs[g].n_rets);
			c->func = g;
		}
	}
	return 0;
}

/* Functions reachable from entry e, in discovery order (entry first). A call back into a
 * function on the stack is recursion: such functions are marked by mark_recursive. */
static void reachable(const struct fe_module *m, uint32_t e, uint32_t *order, uint32_t *n)
{
	uint8_t *state = fe_link_calloc(m->n_funcs, 1); /* 0 new, 1 on stack, 2 done */
	uint32_t *stack = fe_link_calloc(m->n_funcs, sizeof *stack), *pos = fe_link_calloc(m->n_funcs, sizeof *pos);
	uint32_t sp = 0;
	*n = 0;
	stack[sp++] = e;
	state[e] = 1;
	order[(*n)++] = e;
	while (sp) {
		uint32_t f = stack[sp - 1];
		const struct fe_func *fn = &m->funcs[f];
		if (pos[f] >= fn->n_insts) {
			state[f] = 2;
			sp--;
			continue;
		}
		const struct fe_inst *in = &fn->insts[pos[f]++];
		if (in->op != FE_OP_CALL || m->calls[in->call].builtin)
			continue;
		uint32_t g = m->calls[in->call].func;
		if (state[g] == 0) {
			state[g] = 1;
			stack[sp++] = g;
			order[(*n)++] = g;
		}
	}
	free(state);
	free(stack);
	free(pos);
}

/* frames[f].recursive for each of the n reached functions that a chain of calls leads back to
 * (a search from each: O(functions x calls), a few dozen of each in real programs). */
static void mark_recursive(const struct fe_module *m, const uint32_t *order, uint32_t n,
			   struct fe_frame *frames)
{
	uint8_t *seen = fe_link_calloc(m->n_funcs, 1);
	uint32_t *todo = fe_link_calloc(m->n_funcs, sizeof *todo);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t f = order[i], nt = 0;
		memset(seen, 0, m->n_funcs);
		todo[nt++] = f;
		bool again = false;
		while (nt && !again) {
			const struct fe_func *fn = &m->funcs[todo[--nt]];
			for (uint32_t j = 0; j < fn->n_insts && !again; j++) {
				const struct fe_inst *in = &fn->insts[j];
				if (in->op != FE_OP_CALL || m->calls[in->call].builtin)
					continue;
				uint32_t g = m->calls[in->call].func;
				again = g == f;
				if (!seen[g]) {
					seen[g] = 1;
					todo[nt++] = g;
				}
			}
		}
		frames[f].recursive = again;
	}
	free(seen);
	free(todo);
}

static void add_src(struct wi_static *ws, uint16_t r)
{
	if (r == FE_NO_REG)
		return;
	for (int i = 0; i < ws->n_src; i++)
		if (ws->src[i] == r)
			return;
	if (ws->n_src < WI_MAX_SRC) /* cannot overflow for PTX operand shapes; see op_arity */
		ws->src[ws->n_src++] = r;
}

static void add_dst(struct wi_static *ws, uint16_t r)
{
	if (r != FE_NO_REG && ws->n_dst < WI_MAX_DST)
		ws->dst[ws->n_dst++] = r;
}

static bool has_dst(const struct fe_inst *in)
{
	switch (in->op) {
	case FE_OP_BAR:
		return in->part != FE_BAR_SYNC; /* bar.red writes its reduction */
	case FE_OP_ST: case FE_OP_RED: case FE_OP_BAR_WARP: case FE_OP_MEMBAR:
	case FE_OP_BRA: case FE_OP_CALL: case FE_OP_RET: case FE_OP_EXIT: case FE_OP_PREFETCH:
	case FE_OP_NANOSLEEP:
		return false;
	default:
		return true;
	}
}

static void opnd_regs(struct wi_static *ws, const struct fe_opnd *o, bool dst)
{
	switch (o->kind) {
	case FE_OK_REG:
		if (dst) {
			add_dst(ws, o->reg);
			add_dst(ws, o->reg2);
		} else {
			add_src(ws, o->reg);
		}
		break;
	case FE_OK_VEC:
		for (int k = 0; k < o->n; k++)
			dst ? add_dst(ws, o->vec[k]) : add_src(ws, o->vec[k]);
		break;
	case FE_OK_ADDR:
		add_src(ws, o->reg);
		for (int k = 0; k < o->n; k++) /* texture coordinates */
			add_src(ws, o->vec[k]);
		break;
	default:
		break;
	}
}

static void fill_static(const struct fe_module *m, const struct fe_inst *in, uint32_t pc,
			struct wi_static *ws)
{
	memset(ws, 0, sizeof *ws);
	ws->pc = pc;
	ws->opcode = in->op;
	fe_inst_classify(in, ws);
	add_src(ws, in->guard);
	for (int i = 0; i < in->n_opnd; i++)
		opnd_regs(ws, &in->o[i], i == 0 && has_dst(in));
	ws->phase_id = WI_NO_PHASE;
	ws->src_line = in->line;
	ws->text = (in->line >= 1 && in->line <= m->n_lines) ? m->lines[in->line - 1] : "";
}

/* ---- linking ------------------------------------------------------------------------ */

static uint32_t align_up(uint32_t v, uint32_t a)
{
	return (v + a - 1) / a * a;
}

/* Each recursive function's .local and call-scratch bytes as one range each: the symbols it
 * uses (its parameters, results and what its instructions name; a prototype's copies are
 * laid out but never used) are declared together, so they are adjacent. A range holding a
 * symbol another function uses cannot be saved alone: refused. */
static int frame_ranges(const struct fe_module *m, const uint32_t *order, uint32_t n_order,
			struct fe_kernel *k, const uint32_t *sym_off, struct sim_error *err)
{
	int32_t *owner = fe_link_calloc(m->n_syms, sizeof *owner);
	for (uint32_t s = 0; s < m->n_syms; s++)
		owner[s] = -1;
	for (uint32_t i = 0; i < n_order; i++) {
		const struct fe_func *fn = &m->funcs[order[i]];
		for (uint32_t p = 0; p < fn->n_params; p++)
			owner[fn->params[p]] = (int32_t)order[i];
		for (uint32_t r = 0; r < fn->n_rets; r++)
			owner[fn->rets[r]] = (int32_t)order[i];
		for (uint32_t j = 0; j < fn->n_insts; j++)
			for (int o = 0; o < fn->insts[j].n_opnd; o++)
				if (fn->insts[j].o[o].kind == FE_OK_ADDR &&
				    fn->insts[j].o[o].abase == FE_AB_SYM_UNLINKED)
					owner[fn->insts[j].o[o].sym] = (int32_t)order[i];
	}
	int rc = 0;
	for (uint32_t i = 0; i < n_order && !rc; i++) {
		uint32_t f = order[i];
		struct fe_frame *fr = &k->frames[f];
		if (!fr->recursive)
			continue;
		uint32_t lo[2] = {UINT32_MAX, UINT32_MAX}, hi[2] = {0, 0};
		for (uint32_t s = 0; s < m->n_syms; s++) {
			const struct fe_sym *y = &m->syms[s];
			int r = y->kind == FE_SYM_LOCAL ? 0 : y->kind == FE_SYM_FPARAM ? 1 : -1;
			if (r < 0 || owner[s] != (int32_t)f)
				continue;
			if (sym_off[s] < lo[r])
				lo[r] = sym_off[s];
			if (sym_off[s] + y->size_bytes > hi[r])
				hi[r] = sym_off[s] + y->size_bytes;
		}
		for (uint32_t s = 0; s < m->n_syms && !rc; s++) {
			const struct fe_sym *y = &m->syms[s];
			int r = y->kind == FE_SYM_LOCAL ? 0 : y->kind == FE_SYM_FPARAM ? 1 : -1;
			if (r >= 0 && owner[s] >= 0 && owner[s] != (int32_t)f && sym_off[s] < hi[r] &&
			    sym_off[s] + y->size_bytes > lo[r])
				rc = sim_error_set(err, SIM_ERR_INPUT, m->path, (int)y->line, 0,
						   m->funcs[f].name, "recursive function's frame is not "
						   "contiguous (%s of %s lies inside it)", y->name,
						   m->funcs[owner[s]].name);
		}
		fr->local_off = lo[0] == UINT32_MAX ? 0 : lo[0];
		fr->local_bytes = lo[0] == UINT32_MAX ? 0 : hi[0] - lo[0];
		fr->fparam_off = lo[1] == UINT32_MAX ? 0 : lo[1];
		fr->fparam_bytes = lo[1] == UINT32_MAX ? 0 : hi[1] - lo[1];
	}
	free(owner);
	return rc;
}

static int link_kernel(struct fe_module *m, uint32_t e, struct fe_kernel *k, struct sim_error *err)
{
	uint32_t *order = fe_link_calloc(m->n_funcs, sizeof *order), n_order;
	reachable(m, e, order, &n_order);
	k->frames = fe_link_calloc(m->n_funcs, sizeof *k->frames);
	mark_recursive(m, order, n_order, k->frames);
	k->func = e;
	k->func_start = fe_link_calloc(m->n_funcs, sizeof *k->func_start);
	for (uint32_t f = 0; f < m->n_funcs; f++)
		k->func_start[f] = FE_PC_NONE;
	uint32_t *reg_off = fe_link_calloc(m->n_funcs, sizeof *reg_off);
	uint32_t n = 0, regs = 0;
	for (uint32_t i = 0; i < n_order; i++) {
		const struct fe_func *fn = &m->funcs[order[i]];
		k->func_start[order[i]] = n;
		reg_off[order[i]] = regs;
		k->frames[order[i]].reg_off = regs;
		k->frames[order[i]].n_regs = fn->n_regs;
		n += fn->n_insts;
		regs += fn->n_regs;
	}
	if (regs >= FE_NO_REG) {
		free(order);
		free(reg_off);
		return sim_error_set(err, SIM_ERR_INPUT, m->path, (int)m->funcs[e].line, 0,
				     m->funcs[e].name, "kernel uses more than 65534 registers");
	}
	k->n_insts = n;
	k->n_regs = regs;
	uint8_t *reg_bytes = fe_link_calloc(regs + 1, 1);
	for (uint32_t i = 0; i < n_order; i++) {
		const struct fe_func *fn = &m->funcs[order[i]];
		if (fn->n_regs)
			memcpy(reg_bytes + reg_off[order[i]], fn->reg_bytes, fn->n_regs);
	}
	k->prog = fe_link_calloc(n, sizeof *k->prog);
	k->wi = fe_link_calloc(n, sizeof *k->wi);
	k->xop = fe_link_calloc(n, sizeof *k->xop);
	k->rpc = fe_link_calloc(n, sizeof *k->rpc);

	/* memory layout: every shared/local/call-param symbol of the reached functions, plus the
	 * module-scope shared variables the program names */
	uint32_t *sym_off = fe_link_calloc(m->n_syms, sizeof *sym_off);
	uint8_t *in_k = fe_link_calloc(m->n_funcs, 1);
	for (uint32_t i = 0; i < n_order; i++)
		in_k[order[i]] = 1;
	uint8_t *used = fe_link_calloc(m->n_syms, 1);
	for (uint32_t i = 0; i < n_order; i++) {
		const struct fe_func *fn = &m->funcs[order[i]];
		for (uint32_t j = 0; j < fn->n_insts; j++)
			for (int o = 0; o < fn->insts[j].n_opnd; o++)
				if (fn->insts[j].o[o].kind == FE_OK_ADDR &&
				    fn->insts[j].o[o].abase == FE_AB_SYM_UNLINKED)
					used[fn->insts[j].o[o].sym] = 1;
	}
	uint32_t sh = 0, lo = 0, fp = 0, dyn_align = 16;
	for (uint32_t s = 0; s < m->n_syms; s++) {
		const struct fe_sym *y = &m->syms[s];
		bool mine = (y->func >= 0 && in_k[y->func]) || (y->func == -1 && used[s]);
		if (!mine)
			continue;
		switch (y->kind) {
		case FE_SYM_SHARED:
			sh = align_up(sh, y->align);
			sym_off[s] = sh;
			sh += y->size_bytes;
			break;
		case FE_SYM_SHARED_DYN:
			k->dyn_shared = true;
			if (y->align > dyn_align)
				dyn_align = y->align;
			break;
		case FE_SYM_LOCAL:
			lo = align_up(lo, y->align);
			sym_off[s] = lo;
			lo += y->size_bytes;
			break;
		case FE_SYM_FPARAM:
			fp = align_up(fp, y->align);
			sym_off[s] = fp;
			fp += y->size_bytes;
			break;
		default:
			break;
		}
	}
	int rc = frame_ranges(m, order, n_order, k, sym_off, err);
	if (rc)
		goto out;
	uint32_t dyn_off = align_up(sh, dyn_align);
	k->shared_static_bytes = sh;
	k->local_bytes = align_up(lo, 8);
	k->fparam_bytes = align_up(fp, 8);

	uint8_t *fstart = fe_link_calloc(n + 1, 1);
	for (uint32_t i = 0; i < n_order; i++) {
		const struct fe_func *fn = &m->funcs[order[i]];
		uint32_t base = k->func_start[order[i]], ro = reg_off[order[i]];
		fstart[base] = 1;
		for (uint32_t j = 0; j < fn->n_insts; j++) {
			struct fe_inst *in = &k->prog[base + j];
			*in = fn->insts[j];
			if (in->guard != FE_NO_REG)
				in->guard = (uint16_t)(in->guard + ro);
			for (int o = 0; o < in->n_opnd; o++) {
				struct fe_opnd *op = &in->o[o];
				if (op->reg != FE_NO_REG && op->kind != FE_OK_VEC)
					op->reg = (uint16_t)(op->reg + ro);
				if (op->reg2 != FE_NO_REG)
					op->reg2 = (uint16_t)(op->reg2 + ro);
				if (op->kind == FE_OK_VEC || op->kind == FE_OK_ADDR)
					for (int v = 0; v < op->n; v++)
						if (op->vec[v] != FE_NO_REG)
							op->vec[v] = (uint16_t)(op->vec[v] + ro);
				if (op->kind == FE_OK_LABEL)
					op->sym += base;
				if (op->kind == FE_OK_ADDR && op->abase == FE_AB_SYM_UNLINKED) {
					const struct fe_sym *y = &m->syms[op->sym];
					switch (y->kind) {
					case FE_SYM_GLOBAL: case FE_SYM_CONST:
						op->abase = FE_AB_GSYM;
						break;
					case FE_SYM_SHARED_DYN:
						op->abase = FE_AB_NONE;
						op->imm += dyn_off;
						break;
					case FE_SYM_KPARAM:
						op->abase = FE_AB_NONE;
						op->kparam = 1;
						op->imm += y->off;
						break;
					default:
						op->abase = FE_AB_NONE;
						op->imm += sym_off[op->sym];
						break;
					}
				}
				/* a register-based ld.param in a kernel reads the kernel's param buffer */
				if (op->kind == FE_OK_ADDR && op->reg != FE_NO_REG && in->space == WI_SPACE_PARAM)
					op->kparam = m->funcs[order[i]].is_entry;
			}
			fill_static(m, in, base + j, &k->wi[base + j]);
		}
	}
	fe_exec_decode_kernel(k);
	struct fe_link_cfg g;
	memset(&g, 0, sizeof g);
	fe_link_cfg_build(k, fstart, &g);
	fe_link_post_dominators(&g);
	for (uint32_t pc = 0; pc < n; pc++) {
		uint32_t d = g.ipdom[g.block_of[pc]];
		k->rpc[pc] = d == g.nb ? FE_PC_NONE : g.start[d];
	}
	k->n_blocks = g.nb;
	fe_link_phases(k, &g);
	k->regs_estimate = fe_link_regs_estimate(k, &g, reg_bytes);
	free(reg_bytes);
	fe_link_cfg_free(&g);
	/* param-scratch offsets of call arguments: kept on the kernel for the executor */
	k->sym_off = sym_off;
	sym_off = NULL;
	free(fstart);
out:
	free(sym_off);
	free(used);
	free(in_k);
	free(reg_off);
	free(order);
	return rc;
}

int fe_module_link(struct fe_module *m, struct sim_error *err)
{
	int rc = resolve_calls(m, err);
	if (rc)
		return rc;
	uint32_t n = 0;
	for (uint32_t f = 0; f < m->n_funcs; f++)
		n += m->funcs[f].is_entry && m->funcs[f].defined;
	m->kernels = fe_link_calloc(n, sizeof *m->kernels);
	for (uint32_t f = 0; f < m->n_funcs; f++) {
		if (!m->funcs[f].is_entry || !m->funcs[f].defined)
			continue;
		rc = link_kernel(m, f, &m->kernels[m->n_kernels++], err);
		if (rc)
			return rc;
	}
	if (!m->n_kernels)
		return sim_error_set(err, SIM_ERR_INPUT, m->path, 0, 0, NULL, "no .entry in PTX module");
	m->cxx_names = fe_link_calloc(m->n_kernels, sizeof *m->cxx_names);
	for (uint32_t k = 0; k < m->n_kernels; k++)
		if (!(m->cxx_names[k] = fe_demangle(m->funcs[m->kernels[k].func].name)))
			return sim_error_set(err, SIM_ERR_NOMEM, m->path, 0, 0, NULL, "out of memory");
	return 0;
}

void fe_module_free(struct fe_module *m)
{
	if (!m)
		return;
	for (uint32_t k = 0; k < m->n_kernels; k++) {
		struct fe_kernel *kk = &m->kernels[k];
		free(kk->prog);
		free(kk->wi);
		free(kk->xop);
		free(kk->imm_cols);
		free(kk->rpc);
		free(kk->func_start);
		free(kk->phase_len);
		free(kk->sym_off);
		free(kk->entry_regs);
		free(kk->frames);
	}
	for (uint32_t k = 0; m->cxx_names && k < m->n_kernels; k++)
		free(m->cxx_names[k]);
	free(m->cxx_names);
	free(m->kernels);
	for (uint32_t f = 0; f < m->n_funcs; f++) {
		struct fe_func *fn = &m->funcs[f];
		free(fn->name);
		free(fn->insts);
		for (uint32_t i = 0; i < fn->n_labels; i++)
			free(fn->labels[i].name);
		free(fn->labels);
		free(fn->params);
		free(fn->rets);
		free(fn->reg_bytes);
	}
	free(m->funcs);
	for (uint32_t s = 0; s < m->n_syms; s++) {
		free(m->syms[s].name);
		free(m->syms[s].init);
	}
	free(m->syms);
	for (uint32_t c = 0; c < m->n_calls; c++) {
		free(m->calls[c].func_name);
		free(m->calls[c].args);
		free(m->calls[c].rets);
	}
	free(m->calls);
	for (uint32_t i = 0; i < m->n_lines; i++)
		free(m->lines[i]);
	free(m->lines);
	free(m->text);
	free(m->path);
	free(m);
}

void fe_module_destroy(struct fe_module *m)
{
	fe_module_free(m);
}
