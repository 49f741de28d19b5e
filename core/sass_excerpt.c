/* SASS excerpts (see sass_excerpt.h). */
#define _GNU_SOURCE /* memmem */
#include "core/sass_excerpt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_line_info(const char *s, size_t n)
{
	size_t k = 0;
	while (k < n && (s[k] == ' ' || s[k] == '\t'))
		k++;
	return n - k >= 4 && !memcmp(s + k, "//##", 4);
}

/* The path of the first `File "..."` of the listing (its main source), or NULL. */
static const char *main_file(const char *src, size_t n, size_t *len)
{
	const char *f = memmem(src, n, "//## File \"", 11);
	if (!f)
		return NULL;
	f += 11;
	const char *q = memchr(f, '"', n - (size_t)(f - src));
	if (!q)
		return NULL;
	*len = (size_t)(q - f);
	return f;
}

/* The listing with its line info made short: `File "<main>", line 79 inlined
 * at "<main>", line 116` becomes `line 79 inlined at line 116` (the main
 * file named once, at the top), and a line-info line that says what the last
 * one said is dropped. */
static char *dedup(const char *src, size_t n, size_t *out_len)
{
	size_t mlen = 0;
	const char *m = main_file(src, n, &mlen);
	char *out = malloc(n + mlen + 128);
	if (!out)
		return NULL;
	size_t o = 0;
	if (m)
		o += (size_t)sprintf(out, "//## line info below: line N is \"%.*s\", line N\n", (int)mlen, m);
	char last[2048] = "";
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(src + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (src + i)) : n - i;
		const char *s = src + i;
		i += len + (nl ? 1 : 0);
		if (!is_line_info(s, len)) {
			memcpy(out + o, s, len);
			o += len;
			if (nl)
				out[o++] = '\n';
			continue;
		}
		char buf[2048];
		size_t b = 0;
		for (size_t k = 0; k < len && b < sizeof(buf) - 1;) {
			if (m && k + 6 + mlen + 3 <= len && !memcmp(s + k, "File \"", 6) && !memcmp(s + k + 6, m, mlen) &&
			    !memcmp(s + k + 6 + mlen, "\", ", 3)) {
				k += 6 + mlen + 3;
			} else if (m && k + 1 + mlen + 3 <= len && s[k] == '"' && !memcmp(s + k + 1, m, mlen) &&
				   !memcmp(s + k + 1 + mlen, "\", ", 3)) {
				k += 1 + mlen + 3;
			} else {
				buf[b++] = s[k++];
			}
		}
		buf[b] = 0;
		if (!strcmp(buf, last))
			continue;
		memcpy(last, buf, b + 1);
		memcpy(out + o, buf, b);
		o += b;
		if (nl)
			out[o++] = '\n';
	}
	out[o] = 0;
	*out_len = o;
	return out;
}

/* Byte offset of the start of the line holding pos. */
static size_t line_start(const char *s, size_t pos)
{
	while (pos && s[pos - 1] != '\n')
		pos--;
	return pos;
}

/* The first line (its start) with a tensor-core or async-copy instruction, or (size_t)-1. */
static size_t first_tensor(const char *s, size_t n)
{
	static const char *const ops[] = {" HMMA", " IMMA", " DMMA", " HGMMA", " LDGSTS", " UTMALDG", " QGMMA"};
	size_t best = (size_t)-1;
	for (size_t k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		size_t m = strlen(ops[k]);
		for (size_t i = 0; i + m <= n && i < best; i++)
			if (!memcmp(s + i, ops[k], m) && (s[i + m] == '.' || s[i + m] == ' ')) {
				best = i;
				break;
			}
	}
	return best == (size_t)-1 ? best : line_start(s, best);
}

/* Appends s[from, to) cut back to whole lines. */
static size_t put_lines(char *out, size_t o, const char *s, size_t from, size_t to)
{
	size_t end = to;
	while (end > from && s[end - 1] != '\n')
		end--;
	if (end == from)
		end = to;
	memcpy(out + o, s + from, end - from);
	return o + (end - from);
}

char *rung_sass_excerpt(const char *listing, size_t n, size_t max, bool *cut)
{
	*cut = false;
	size_t len = 0;
	char *d = dedup(listing, n, &len);
	if (!d || len <= max)
		return d;
	*cut = true;
	char *out = malloc(max + 512);
	if (!out) {
		free(d);
		return NULL;
	}
	size_t o = 0, t = first_tensor(d, len);
	if (t != (size_t)-1 && t > max / 4) {
		size_t head = max / 4, before = max / 8;
		size_t from = line_start(d, t > before ? t - before : 0);
		if (from < head)
			from = head;
		o = put_lines(out, o, d, 0, head);
		o += (size_t)snprintf(out + o, 200, "\n[... %zu bytes left out: the first tensor-core instruction follows ...]\n",
				      from - o);
		size_t to = from + (max - o);
		o = put_lines(out, o, d, from, to < len ? to : len);
		if (to < len)
			o += (size_t)snprintf(out + o, 200, "\n[... cut: %zu bytes more of %zu ...]\n", len - to, len);
	} else {
		o = put_lines(out, o, d, 0, max);
		o += (size_t)snprintf(out + o, 200, "\n[... cut: %zu bytes more of %zu ...]\n", len - o, len);
	}
	out[o] = 0;
	free(d);
	return out;
}
