/* SPDX-License-Identifier: MIT */
/* C++ names of kernels: the Itanium ABI demangler of the C++ runtime (libstdc++'s
 * __cxa_demangle, callable from C), and the short forms a user may type for a kernel. */
#include <stdlib.h>
#include <string.h>

#include "fe_int.h"

/* Declared by <cxxabi.h> for C++; it has C linkage. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *n, int *status);

/* Index of the '(' opening the parameter list of a demangled function name: the last '(' at
 * template depth 0 whose matching ')' ends the name or is followed only by qualifiers
 * (" const"). -1 when there is none. */
static long params_open(const char *s)
{
	long n = (long)strlen(s), depth = 0;
	for (long i = n - 1; i >= 0; i--) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			return i;
	}
	return -1;
}

/* Start of the name after a return type ("void foo<int>(...)": "foo<int>(...)"): the last
 * space at angle/paren depth 0 before the parameter list. */
static const char *skip_return_type(const char *s, long open)
{
	long depth = 0, last = -1;
	for (long i = 0; i < open; i++) {
		if (s[i] == '<' || s[i] == '(')
			depth++;
		else if ((s[i] == '>' || s[i] == ')') && depth > 0)
			depth--;
		else if (s[i] == ' ' && depth == 0)
			last = i;
	}
	return s + last + 1;
}

char *fe_demangle(const char *mangled)
{
	int status = -1;
	char *d = strncmp(mangled, "_Z", 2) ? NULL : __cxa_demangle(mangled, NULL, NULL, &status);
	if (!d || status)
		return strdup(mangled);
	long open = params_open(d);
	if (open < 0)
		return d;
	char *r = strdup(skip_return_type(d, open));
	free(d);
	return r;
}

bool fe_name_matches_base(const char *display, const char *name)
{
	long open = params_open(display);
	size_t n = strlen(name);
	return open >= 0 && (size_t)open == n && !strncmp(display, name, n);
}
