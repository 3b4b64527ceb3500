/* SPDX-License-Identifier: MIT */
/* Shorthands for reference functions (refs.c, refs_papers.c): fetch an input image or a param,
 * returning the error from the enclosing reference function. */
#ifndef WARPSIM_WL_REFS_H
#define WARPSIM_WL_REFS_H

#include "wl_int.h"

#define IN(var, ref, buf, type, ctype, minc, cnt)                                               \
	const ctype *var = wl_ref_input(w, ref, buf, type, minc, cnt, err);                    \
	if (!var)                                                                               \
		return err ? err->code : SIM_ERR_INPUT
#define PINT(var, ref, name)                                                                    \
	int64_t var;                                                                            \
	do {                                                                                    \
		int rc_ = wl_ref_int(w, ref, name, &var, err);                                  \
		if (rc_)                                                                        \
			return rc_;                                                             \
	} while (0)
#define PFLT(var, ref, name)                                                                    \
	double var;                                                                             \
	do {                                                                                    \
		int rc_ = wl_ref_float(w, ref, name, &var, err);                                \
		if (rc_)                                                                        \
			return rc_;                                                             \
	} while (0)

/* The references of refs_papers.c (the papers' kinds of workload), searched after refs.c's. */
extern const struct wl_ref wl_refs_papers[];
extern const size_t wl_refs_papers_count;

#endif
