#include "core/inert.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s (1..4) with its code point, or 0:
 * overlong forms, surrogates, code points above U+10FFFF and cut sequences are
 * invalid. */
static int utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned c = s[0];
	int len;
	uint32_t v, min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if (c >= 0xc2 && c <= 0xdf) {
		len = 2, v = c & 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3, v = c & 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4, v = c & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n < (size_t)len)
		return 0;
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

/* Code points shown by number: C1 controls, bidi controls, line separators. */
static bool cp_hostile(uint32_t cp)
{
	return (cp >= 0x80 && cp < 0xa0) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029;
}

static size_t inert(char *dst, size_t dstlen, const char *src, size_t srclen, bool lines)
{
	if (!dstlen)
		return 0;
	const unsigned char *s = (const unsigned char *)src;
	size_t o = 0, i = 0;
	while (i < srclen) {
		char tmp[16];
		size_t tl, take = 1;
		unsigned c = s[i];
		uint32_t cp = 0;
		int n;
		if (lines && (c == '\t' || c == '\n')) {
			tmp[0] = (char)c;
			tl = 1;
		} else if (c == '\t' || c == '\n' || c == '\r') {
			tmp[0] = '\\';
			tmp[1] = c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
			tl = 2;
		} else if (c < 0x20 || c == 0x7f) {
			tl = (size_t)snprintf(tmp, sizeof(tmp), "\\x%02x", c);
		} else if (c < 0x80) {
			tmp[0] = (char)c;
			tl = 1;
		} else if (!(n = utf8_next(s + i, srclen - i, &cp))) {
			tl = (size_t)snprintf(tmp, sizeof(tmp), "\\x%02x", c);
		} else if (cp_hostile(cp)) {
			tl = (size_t)snprintf(tmp, sizeof(tmp), "\\u{%04X}", (unsigned)cp);
			take = (size_t)n;
		} else {
			memcpy(tmp, s + i, (size_t)n);
			tl = take = (size_t)n;
		}
		if (o + tl >= dstlen)
			break;
		memcpy(dst + o, tmp, tl);
		o += tl;
		i += take;
	}
	dst[o] = 0;
	return i;
}

size_t rung_inert(char *dst, size_t dstlen, const char *src, size_t srclen)
{
	return inert(dst, dstlen, src, srclen, false);
}

size_t rung_inert_lines(char *dst, size_t dstlen, const char *src, size_t srclen)
{
	return inert(dst, dstlen, src, srclen, true);
}

size_t rung_utf8_whole(const char *src, size_t n)
{
	const unsigned char *s = (const unsigned char *)src;
	/* a lead byte within the last 3 whose sequence runs past the end */
	for (size_t back = 1; back <= 3 && back <= n; back++) {
		unsigned c = s[n - back];
		if ((c & 0xc0) == 0x80)
			continue; /* a continuation byte: look further back */
		size_t need = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xc2 && c <= 0xdf ? 2 : 1;
		return need > back ? n - back : n;
	}
	return n;
}

char *rung_inert_utf8(const char *src, size_t srclen)
{
	const unsigned char *s = (const unsigned char *)src;
	/* at most 8 bytes out for each byte in (DEL, one byte, becomes \u{007F}) */
	char *out = malloc(srclen * 8 + 1);
	if (!out)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < srclen;) {
		uint32_t cp;
		int n = s[i] ? utf8_next(s + i, srclen - i, &cp) : 0;
		if (n && (cp_hostile(cp) || cp == 0x7f)) {
			o += (size_t)snprintf(out + o, 9, "\\u{%04X}", (unsigned)cp);
			i += (size_t)n;
		} else if (n) {
			memcpy(out + o, s + i, (size_t)n);
			o += (size_t)n;
			i += (size_t)n;
		} else {
			o += (size_t)snprintf(out + o, 5, "\\x%02x", s[i]);
			i++;
		}
	}
	out[o] = 0;
	char *shrunk = realloc(out, o + 1);
	return shrunk ? shrunk : out;
}

void rung_fmt_bytes(char *buf, size_t len, int64_t bytes)
{
	double b = (double)bytes;
	if (bytes < 1024)
		snprintf(buf, len, "%lld B", (long long)bytes);
	else if (b < 1024.0 * 1024)
		snprintf(buf, len, "%.1f KiB", b / 1024);
	else if (b < 1024.0 * 1024 * 1024)
		snprintf(buf, len, "%.1f MiB", b / (1024.0 * 1024));
	else
		snprintf(buf, len, "%.1f GiB", b / (1024.0 * 1024 * 1024));
}
