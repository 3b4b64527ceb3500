/* SPDX-License-Identifier: MIT */
/* The workload file loader's stages (workload.c: the file, params and the helpers below;
 * wl_buffers.c: buffers and symbols; wl_launch_load.c: launches and checks) and what they share. */
#ifndef WARPSIM_WL_LOAD_H
#define WARPSIM_WL_LOAD_H

#include <libconfig.h>

#include "wl_int.h"

#ifndef WL_MAX_BUFFER_BYTES /* the fuzz build sets a smaller one (CMakeLists.txt) */
#define WL_MAX_BUFFER_BYTES (1ull << 30)
#endif

/* Loader state: the open file and the workload being filled. */
struct wl_ld {
	struct workload *w;
	const char *path;
	struct sim_error *err;
};

/* Where a setting comes from (an included file's name) and its line. */
const char *wl_src_file(const struct wl_ld *ld, const config_setting_t *s);
int wl_src_line(const config_setting_t *s);
/* SIM_ERR_INPUT at s's file:line; the message names the setting's path itself. */
int wl_fail(struct wl_ld *ld, const config_setting_t *s, const char *setting, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
char *wl_strdup(const char *s);
/* Reject any member of group g not in allowed (NULL-terminated). */
int wl_keys_check(struct wl_ld *ld, const config_setting_t *g, const char *where,
		  const char *const *allowed);
int wl_get_string(struct wl_ld *ld, const config_setting_t *g, const char *key, const char *where,
		  bool required, const char **out);
/* A number or an expression string. */
int wl_eval(struct wl_ld *ld, const config_setting_t *s, const char *setting, struct wl_val *v);
int wl_eval_int(struct wl_ld *ld, const config_setting_t *s, const char *setting, int64_t lo,
		int64_t hi, int64_t *out);
/* Optional member: *out keeps its default when absent. */
int wl_opt_int(struct wl_ld *ld, const config_setting_t *g, const char *key, const char *where,
	       int64_t lo, int64_t hi, int64_t *out);
int wl_opt_float(struct wl_ld *ld, const config_setting_t *g, const char *key, const char *where,
		 double *out);
/* A whole regular file (NULL: none or unreadable), its size in *bytes. */
unsigned char *wl_read_file(const char *path, uint64_t *bytes);
/* p relative to the workload file's directory (malloc'ed). */
char *wl_rel_path(const struct workload *w, const char *p);

/* wl_buffers.c: element i of a buffer of type t at base as v converts to it. */
void wl_store(enum wl_type t, unsigned char *base, uint64_t i, struct wl_val v);
/* wl_buffers.c: the buffers (symbols: the PTX's .global/.const symbols, sized by probe) of list. */
int wl_buffers_load(struct wl_ld *ld, const config_setting_t *list, bool symbols,
		    struct fe_memory *probe);
/* wl_launch_load.c: launch g (at where) into l. */
int wl_launch_load(struct wl_ld *ld, const config_setting_t *g, const char *where,
		   struct wl_launch *l);
/* wl_launch_load.c: check g into c. */
int wl_check_load(struct wl_ld *ld, const config_setting_t *g, const char *where,
		  struct wl_check *c);

#endif
