/* SPDX-License-Identifier: MIT */
/* Device printf (the vprintf call nvcc emits): the format string and the argument buffer are
 * read from simulated memory and printed with the host's printf. Host path (a kernel's printf
 * is output, not timing), so it may format; kernels without printf never come here. */
#include <stdio.h>
#include <string.h>

#include "exec_int.h"

#define FMT_MAX_BYTES 4096  /* longer formats are cut: the device's buffer is smaller */

/* Copy a NUL-terminated string at generic address a into buf (cut at n-1 bytes). false when
 * the first byte cannot be read. */
static bool read_str(struct fe_warp *w, uint32_t lane, uint64_t a, char *buf, size_t n)
{
	size_t i = 0;
	for (; i + 1 < n; i++) {
		const uint8_t *p = fe_exec_generic_ptr(w, lane, a + i, 1);
		if (!p) {
			if (!i)
				return false;
			break;
		}
		if (!(buf[i] = (char)*p))
			return true;
	}
	buf[i] = '\0';
	return true;
}

/* Next argument of size bytes (4 or 8), aligned to its size as nvcc packs them. */
static uint64_t next_arg(struct fe_warp *w, uint32_t lane, uint64_t args, uint32_t *off,
			 uint32_t size)
{
	*off = (*off + size - 1) & ~(size - 1);
	uint64_t v = 0;
	const uint8_t *p = args ? fe_exec_generic_ptr(w, lane, args + *off, size) : NULL;
	if (p)
		memcpy(&v, p, size);
	*off += size;
	return v;
}

int fe_exec_printf(struct fe_warp *w, uint32_t lane, uint64_t fmt, uint64_t args, FILE *out)
{
	char f[FMT_MAX_BYTES], spec[64], str[FMT_MAX_BYTES];
	if (!fmt || !read_str(w, lane, fmt, f, sizeof f))
		return -1;
	uint32_t off = 0;
	int n_args = 0;
	for (const char *s = f; *s; s++) {
		if (*s != '%') {
			if (out)
				fputc(*s, out);
			continue;
		}
		if (s[1] == '%') {
			if (out)
				fputc('%', out);
			s++;
			continue;
		}
		/* %[flags][width][.precision][length]conversion; '*' takes an int argument */
		const char *start = s++;
		int stars[2], n_stars = 0;
		while (*s && strchr("-+ #0", *s))
			s++;
		for (int part = 0; part < 2; part++) {
			if (part == 1) {
				if (*s != '.')
					break;
				s++;
			}
			if (*s == '*') {
				stars[n_stars++] = (int)(int32_t)next_arg(w, lane, args, &off, 4);
				n_args++;
				s++;
			}
			while (*s >= '0' && *s <= '9')
				s++;
		}
		int longs = 0;
		while (*s && strchr("hlLqjzt", *s)) {
			longs += *s == 'l' || *s == 'L' || *s == 'q' || *s == 'j' || *s == 'z' || *s == 't';
			s++;
		}
		char conv = *s;
		if (!conv)
			break;
		size_t len = (size_t)(s - start) + 1;
		if (len >= sizeof spec)
			len = sizeof spec - 1;
		/* the host format without length modifiers: the value is passed at full width */
		size_t k = 0;
		for (size_t i = 0; i < len; i++)
			if (!strchr("hlLqjzt", start[i]) || i == len - 1)
				spec[k++] = start[i];
		spec[k] = '\0';
		n_args++;
		uint64_t v;
		switch (conv) {
		case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c': {
			v = next_arg(w, lane, args, &off, longs ? 8 : 4);
			/* re-insert "ll" before the conversion so the host reads 64 bits */
			char wide[72];
			snprintf(wide, sizeof wide, "%.*sll%c", (int)(k - 1), spec, conv);
			long long sv = longs ? (long long)(int64_t)v :
				       (conv == 'd' || conv == 'i') ? (long long)(int32_t)v : (long long)(uint32_t)v;
			if (!out)
				break;
			if (conv == 'c') {
				if (n_stars == 2) fprintf(out, spec, stars[0], stars[1], (int)sv);
				else if (n_stars == 1) fprintf(out, spec, stars[0], (int)sv);
				else fprintf(out, spec, (int)sv);
			} else if (n_stars == 2) {
				fprintf(out, wide, stars[0], stars[1], sv);
			} else if (n_stars == 1) {
				fprintf(out, wide, stars[0], sv);
			} else {
				fprintf(out, wide, sv);
			}
			break;
		}
		case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
			v = next_arg(w, lane, args, &off, 8); /* floats arrive promoted to double */
			double d;
			memcpy(&d, &v, sizeof d);
			if (!out)
				break;
			if (n_stars == 2) fprintf(out, spec, stars[0], stars[1], d);
			else if (n_stars == 1) fprintf(out, spec, stars[0], d);
			else fprintf(out, spec, d);
			break;
		}
		case 's': {
			v = next_arg(w, lane, args, &off, 8);
			const char *p = v && read_str(w, lane, v, str, sizeof str) ? str : "(null)";
			if (!out)
				break;
			if (n_stars == 2) fprintf(out, spec, stars[0], stars[1], p);
			else if (n_stars == 1) fprintf(out, spec, stars[0], p);
			else fprintf(out, spec, p);
			break;
		}
		case 'p':
			v = next_arg(w, lane, args, &off, 8);
			if (out)
				fprintf(out, "0x%llx", (unsigned long long)v);
			break;
		default: /* unknown conversion: printed as written, no argument taken */
			n_args--;
			if (out)
				fwrite(start, 1, len, out);
			break;
		}
	}
	return n_args;
}
