/* SPDX-License-Identifier: MIT */
/* The C/C++ boundary of the SimGrid platform loader: SimGrid reports a bad platform by throwing
 * (a parse error with file and line, std::invalid_argument for a bad value or a missing link),
 * and an exception must not unwind through C frames; here each is caught and turned into text. */
#ifdef WARPSIM_HAVE_SIMGRID
#include <simgrid/Exception.hpp>
#include <simgrid/engine.h>
#include <simgrid/host.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "simgrid_guard.h"

namespace {

/* "Parse error at FILE:LINE: rest" -> line and rest; other texts are kept whole. Newlines
 * become spaces: the error is one line. */
void keep(const char *what, char *msg, size_t n, int *line)
{
	const char *p = std::strstr(what, "Parse error at ");
	*line = 0;
	if (p) {
		const char *colon = std::strstr(p, ": ");
		const char *num = colon;
		while (num && num > p && num[-1] >= '0' && num[-1] <= '9')
			num--;
		if (colon && num < colon && num > p && num[-1] == ':') {
			*line = std::atoi(num);
			what = colon + 2;
		}
	}
	std::snprintf(msg, n, "%s", what);
	for (char *q = msg; *q; q++)
		if (*q == '\n' || *q == '\r')
			*q = ' ';
}

} // namespace

extern "C" int topo_sg_guard_load(int *argc, char **argv, const char *platform, char *msg, size_t n,
				  int *line)
{
	try {
		simgrid_init(argc, argv);
		simgrid_load_platform(platform);
		simgrid_run_until(0); /* seals the platform: routing errors surface here */
		return 0;
	} catch (const simgrid::ParseError &e) {
		keep(e.what(), msg, n, line);
	} catch (const simgrid::Exception &e) {
		keep(e.what(), msg, n, line);
	} catch (const std::exception &e) {
		keep(e.what(), msg, n, line);
	} catch (...) {
		keep("SimGrid failed with an unknown exception", msg, n, line);
	}
	return -1;
}

extern "C" int topo_sg_guard_route(sg_host_t src, sg_host_t dst, xbt_dynar_t links, char *msg, size_t n)
{
	int line;
	try {
		sg_host_get_route(src, dst, links);
		return 0;
	} catch (const simgrid::Exception &e) {
		keep(e.what(), msg, n, &line);
	} catch (const std::exception &e) {
		keep(e.what(), msg, n, &line);
	} catch (...) {
		keep("SimGrid failed with an unknown exception", msg, n, &line);
	}
	return -1;
}
#endif
