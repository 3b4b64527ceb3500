/* SPDX-License-Identifier: MIT */
/* Warp-synchronous instructions of the functional executor, where lanes read each other's
 * values: shfl.sync, vote.sync, activemask and match.sync. */
#include "exec_int.h"

/* shfl.sync (PTX ISA 9.7.8.6): lanes exchange within groups of 32, whatever the warp size. */
void fe_exec_shfl(struct fe_warp *w, const struct fe_inst *in, const uint64_t *mask)
{
	uint32_t n = w->n_lanes;
	uint64_t vals[64];
	for (uint32_t g = 0; g < n; g += 32) {
		uint32_t gl = n - g < 32 ? n - g : 32;
		for (uint32_t i = 0; i < gl; i++)
			vals[i] = fe_opnd_value(w, &in->o[1], g + i, FE_T_B32);
		uint64_t res[32];
		bool pv[32];
		for (uint32_t i = 0; i < gl; i++) {
			uint32_t lane = g + i;
			if (!fe_mask_test(mask, lane))
				continue;
			uint32_t b = (uint32_t)fe_opnd_value(w, &in->o[2], lane, FE_T_B32) & 31;
			uint32_t c = (uint32_t)fe_opnd_value(w, &in->o[3], lane, FE_T_B32);
			uint32_t seg = (c >> 8) & 31, cl = c & 31;
			int32_t maxl = (int32_t)((i & seg) | (cl & ~seg)), minl = (int32_t)(i & seg), j;
			bool p;
			switch (in->part) {
			case FE_SHFL_UP: j = (int32_t)i - (int32_t)b; p = j >= maxl; break;
			case FE_SHFL_DOWN: j = (int32_t)i + (int32_t)b; p = j <= maxl; break;
			case FE_SHFL_BFLY: j = (int32_t)(i ^ b); p = j <= maxl; break;
			default: j = minl | (int32_t)(b & ~seg); p = j <= maxl; break;
			}
			if (!p || j < 0 || (uint32_t)j >= gl)
				j = (int32_t)i;
			/* a source lane that does not execute the shfl gives 0 (PTX leaves it
			 * undefined; hardware reads 0, frontend/NOTES.md), never its stale register */
			res[i] = fe_mask_test(mask, g + (uint32_t)j) ? vals[j] : 0;
			pv[i] = p;
		}
		for (uint32_t i = 0; i < gl; i++) {
			if (!fe_mask_test(mask, g + i))
				continue;
			dst(w, in->o[0].reg, g + i, res[i], FE_T_B32);
			dst(w, in->o[0].reg2, g + i, pv[i], FE_T_PRED);
		}
	}
}

void fe_exec_vote(struct fe_warp *w, const struct fe_inst *in, const uint64_t *mask)
{
	for (uint32_t g = 0; g < w->n_lanes; g += 32) {
		uint32_t ballot = 0, act = 0;
		for (uint32_t i = 0; i < 32 && g + i < w->n_lanes; i++) {
			if (!fe_mask_test(mask, g + i))
				continue;
			act |= 1u << i;
			if (in->op == FE_OP_VOTE && fe_opnd_value(w, &in->o[1], g + i, FE_T_PRED))
				ballot |= 1u << i;
		}
		uint64_t v;
		if (in->op == FE_OP_ACTIVEMASK)
			v = act;
		else if (in->part == FE_VOTE_BALLOT)
			v = ballot;
		else if (in->part == FE_VOTE_ALL)
			v = ballot == act;
		else if (in->part == FE_VOTE_ANY)
			v = ballot != 0;
		else
			v = ballot == 0 || ballot == act;
		enum fe_type t = (in->op == FE_OP_VOTE && in->part != FE_VOTE_BALLOT) ? FE_T_PRED : FE_T_B32;
		for (uint32_t i = 0; i < 32 && g + i < w->n_lanes; i++)
			if (fe_mask_test(mask, g + i))
				dst(w, in->o[0].reg, g + i, v, t);
	}
}

/* match.{any,all}.sync.{b32,b64} d[|p], a, membermask (PTX ISA 9.7.12.8): the lanes taking
 * part are those executing it within the member mask (as for vote, the executing lanes stand
 * for the non-exited ones); any: d the lanes whose a equals this lane's; all: d the lanes
 * taking part if every a is equal (p true), else 0 (p false). Per group of 32 lanes. */
void fe_exec_match(struct fe_warp *w, const struct fe_inst *in, const uint64_t *mask)
{
	enum fe_type t = (enum fe_type)in->type;
	for (uint32_t g = 0; g < w->n_lanes; g += 32) {
		uint32_t gl = w->n_lanes - g < 32 ? w->n_lanes - g : 32, part = 0;
		uint64_t v[32];
		for (uint32_t i = 0; i < gl; i++) {
			if (!fe_mask_test(mask, g + i))
				continue;
			v[i] = fe_opnd_value(w, &in->o[1], g + i, t);
			if ((uint32_t)fe_opnd_value(w, &in->o[2], g + i, FE_T_B32) >> i & 1)
				part |= 1u << i;
		}
		bool all = true;
		for (uint32_t i = 0; i < gl; i++)
			if ((part >> i & 1) && v[i] != v[__builtin_ctz(part)])
				all = false;
		for (uint32_t i = 0; i < gl; i++) {
			if (!fe_mask_test(mask, g + i))
				continue;
			uint32_t d = 0;
			if (in->part == FE_MATCH_ALL)
				d = all ? part : 0;
			else
				for (uint32_t j = 0; j < gl; j++)
					if ((part >> j & 1) && v[j] == v[i])
						d |= 1u << j;
			dst(w, in->o[0].reg, g + i, d, FE_T_B32);
			dst(w, in->o[0].reg2, g + i, all, FE_T_PRED);
		}
	}
}
