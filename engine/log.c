/* SPDX-License-Identifier: MIT */
/* Diagnostic logging: name tables for levels and categories, and the one formatting path. */
#include "log.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

static const char *const level_names[] = {"trace", "debug", "info", "warn", "error", "off"};

static const struct {
	const char *name;
	uint32_t bit;
} cat_names[] = {
	{"engine", SIM_LOG_CAT_ENGINE}, {"sm", SIM_LOG_CAT_SM},   {"sched", SIM_LOG_CAT_SCHED},
	{"mem", SIM_LOG_CAT_MEM},       {"dram", SIM_LOG_CAT_DRAM}, {"noc", SIM_LOG_CAT_NOC},
	{"cta", SIM_LOG_CAT_CTA},       {"frontend", SIM_LOG_CAT_FRONTEND},
	{"config", SIM_LOG_CAT_CONFIG},
};

void sim_log_init(struct sim_log *log)
{
	log->level = SIM_LOG_WARN;
	log->cats = SIM_LOG_CAT_ALL;
	log->out = NULL;
	log->now_ps = NULL;
}

int sim_log_parse_level(const char *name, enum sim_log_level *level, struct sim_error *err)
{
	for (int i = 0; i < (int)SIM_ARRAY_LEN(level_names); i++) {
		if (!strcmp(name, level_names[i])) {
			*level = (enum sim_log_level)i;
			return 0;
		}
	}
	return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, name,
			     "unknown log level (trace, debug, info, warn, error, off)");
}

int sim_log_parse_cats(const char *list, uint32_t *mask, struct sim_error *err)
{
	uint32_t m = 0;
	const char *p = list;
	while (*p) {
		size_t len = strcspn(p, ",");
		bool found = false;
		if (len == 3 && !strncmp(p, "all", 3)) {
			m |= SIM_LOG_CAT_ALL;
			found = true;
		}
		for (size_t i = 0; !found && i < SIM_ARRAY_LEN(cat_names); i++) {
			if (strlen(cat_names[i].name) == len && !strncmp(p, cat_names[i].name, len)) {
				m |= cat_names[i].bit;
				found = true;
			}
		}
		if (!found && len > 0)
			return sim_error_set(err, SIM_ERR_USAGE, NULL, 0, 0, NULL,
					     "unknown log category '%.*s' (engine, sm, sched, mem, dram, noc, cta, frontend, config, all)",
					     (int)len, p);
		p += len;
		if (*p == ',')
			p++;
	}
	*mask = m;
	return 0;
}

static const char *cat_name(uint32_t cat)
{
	for (size_t i = 0; i < SIM_ARRAY_LEN(cat_names); i++)
		if (cat & cat_names[i].bit)
			return cat_names[i].name;
	return "?";
}

void sim_log_write(const struct sim_log *log, enum sim_log_level level, uint32_t cat, const char *fmt, ...)
{
	FILE *out = log->out ? log->out : stderr;
	if (log->now_ps)
		fprintf(out, "[%" PRIu64 " ps] ", *log->now_ps);
	fprintf(out, "%s %s: ", level_names[level <= SIM_LOG_OFF ? level : SIM_LOG_OFF], cat_name(cat));
	va_list ap;
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}
