/* ptxas -v log parsing. The log NVRTC returns with --ptxas-options=-v holds one
 * block per entry function:
 *
 *   ptxas info    : Compiling entry function '_Z5sgemmiiiPKfS0_Pf' for 'sm_90'
 *   ptxas info    : Function properties for _Z5sgemmiiiPKfS0_Pf
 *   ptxas         .     256 bytes stack frame, 4 bytes spill stores, 8 bytes spill loads
 *   ptxas info    : Used 32 registers, used 1 barriers, 256 bytes cumulative stack size, 8192 bytes smem
 *   ptxas info    : Compile time = 6.157 ms
 *
 * Non-inlined device functions get a "Function properties" block of their own
 * (without "Compiling entry function"). Older ptxas versions also print
 * "N bytes cmem[0]" and "N bytes lmem" items on the "Used" line. */
#include "core/ptxas.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "core/err.h"

/* Returns the text after "ptxas", "info"/"warning" and ':' (spaces skipped), or NULL. */
static const char *after_tag(const char *line, const char *end, const char *tag)
{
	size_t n = strlen(tag);
	const char *p = line;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(end - p) < 5 || strncmp(p, "ptxas", 5) != 0)
		return NULL;
	p += 5;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if ((size_t)(end - p) < n || strncmp(p, tag, n) != 0)
		return NULL;
	p += n;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (tag[0] != '.') {
		if (p >= end || *p != ':')
			return NULL;
		p++;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
	}
	return p;
}

static bool starts(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);
	return (size_t)(end - p) >= n && strncmp(p, s, n) == 0;
}

/* Copies a name quoted as 'name' (or up to the end of line) into a bounded slice. */
static void name_slice(const char *p, const char *end, const char **s, size_t *n)
{
	if (p < end && *p == '\'') {
		p++;
		const char *q = memchr(p, '\'', (size_t)(end - p));
		*s = p;
		*n = q ? (size_t)(q - p) : (size_t)(end - p);
		return;
	}
	const char *q = p;
	while (q < end && *q != ' ' && *q != '\t' && *q != '\r')
		q++;
	*s = p;
	*n = (size_t)(q - p);
}

static bool name_eq(const char *s, size_t n, const char *want)
{
	return want && strlen(want) == n && strncmp(s, want, n) == 0;
}

/* Reads the decimal number at [p, end) into *v, saturating at INT64_MAX; sets
 * *q after its digits. Unlike strtoll it never skips a newline (or anything
 * else), so it stays within the line. Returns false when p holds no digit. */
static bool number(long long *v, const char **q, const char *p, const char *end)
{
	if (p >= end || *p < '0' || *p > '9')
		return false;
	long long n = 0;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		int d = *p - '0';
		n = n > (LLONG_MAX - d) / 10 ? LLONG_MAX : n * 10 + d;
	}
	*v = n;
	*q = p;
	return true;
}

static int clamp_int(long long v)
{
	return v > INT_MAX ? INT_MAX : (int)v;
}

/* Parses "N bytes stack frame, N bytes spill stores, N bytes spill loads". */
static void parse_frame(rung_kinfo *k, const char *p, const char *end)
{
	while (p < end) {
		const char *q;
		long long v;
		if (!number(&v, &q, p, end)) {
			p++;
			continue;
		}
		p = q;
		while (p < end && *p == ' ')
			p++;
		if (starts(p, end, "bytes stack frame"))
			k->stack_frame = v;
		else if (starts(p, end, "bytes spill stores"))
			k->spill_stores = v;
		else if (starts(p, end, "bytes spill loads"))
			k->spill_loads = v;
		const char *c = memchr(p, ',', (size_t)(end - p));
		p = c ? c + 1 : end;
	}
}

/* Parses "Used 32 registers, used 1 barriers, 256 bytes cumulative stack size, 8192 bytes smem, 380 bytes cmem[0]". */
static void parse_used(rung_kinfo *k, const char *p, const char *end)
{
	while (p < end) {
		const char *c = memchr(p, ',', (size_t)(end - p));
		const char *e = c ? c : end;
		while (p < e && *p == ' ')
			p++;
		long long v;
		const char *q;
		if (starts(p, e, "Used ") || starts(p, e, "used ")) {
			const char *d = p + 5;
			while (d < e && (*d == ' ' || *d == '\t'))
				d++;
			if (number(&v, &q, d, e)) {
				while (q < e && *q == ' ')
					q++;
				if (starts(q, e, "registers"))
					k->regs = clamp_int(v);
				else if (starts(q, e, "barriers"))
					k->barriers = clamp_int(v);
			}
		} else if (number(&v, &q, p, e)) {
			while (q < e && *q == ' ')
				q++;
			if (starts(q, e, "bytes cumulative stack size"))
				k->stack = v;
			else if (starts(q, e, "bytes smem"))
				k->smem = v;
			else if (starts(q, e, "bytes cmem[0]"))
				k->cmem = v;
			else if (starts(q, e, "bytes lmem") && k->stack == 0)
				k->stack = v;
		}
		p = c ? c + 1 : end;
	}
}

int rung_ptxas_parse(rung_kinfo *out, const char *log, const char *mangled)
{
	memset(out, 0, sizeof(*out));
	if (!log)
		return rung_error_set(RUNG_ENOTFOUND, "no ptxas log");

	/* The entry being compiled (matched or not) and the function of the last
	 * "Function properties" line, as slices of the log. */
	bool in_entry = false, matched = false, props_match = false;
	rung_kinfo k;
	memset(&k, 0, sizeof(k));

	const char *line = log;
	while (*line) {
		const char *end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		const char *p;
		if ((p = after_tag(line, end, "info")) != NULL) {
			if (starts(p, end, "Compiling entry function ")) {
				if (matched)
					break; /* the wanted block is complete */
				const char *s;
				size_t n;
				name_slice(p + strlen("Compiling entry function "), end, &s, &n);
				in_entry = true;
				matched = mangled ? name_eq(s, n, mangled) : true;
				props_match = false;
				memset(&k, 0, sizeof(k));
				if (matched) {
					size_t m = n < sizeof(k.name) - 1 ? n : sizeof(k.name) - 1;
					memcpy(k.name, s, m);
					k.name[m] = 0;
				}
			} else if (starts(p, end, "Function properties for ")) {
				const char *s;
				size_t n;
				name_slice(p + strlen("Function properties for "), end, &s, &n);
				/* A device function's block ends the entry's block. */
				props_match =
				    matched && (mangled ? name_eq(s, n, mangled) : strncmp(s, k.name, n) == 0);
				if (!props_match && matched && k.valid)
					break;
			} else if (starts(p, end, "Used ") && in_entry && matched) {
				parse_used(&k, p, end);
				k.valid = true;
			}
		} else if ((p = after_tag(line, end, ".")) != NULL) {
			if (props_match)
				parse_frame(&k, p, end);
		} else if (props_match) {
			/* nvcc's ptxas prints the frame line without the "ptxas ." prefix */
			p = line;
			while (p < end && (*p == ' ' || *p == '\t'))
				p++;
			if (p < end && *p >= '0' && *p <= '9')
				parse_frame(&k, p, end);
		}
		line = *end ? end + 1 : end;
	}
	if (!matched || !k.valid) {
		if (mangled)
			return rung_error_set(RUNG_ENOTFOUND, "no ptxas resource line for '%s'", mangled);
		return rung_error_set(RUNG_ENOTFOUND, "no kernel in ptxas log");
	}
	*out = k;
	return 0;
}
