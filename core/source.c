/* Source text as the compiler will read it (core/source.h). */
#include "core/source.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

/* Length of the well-formed UTF-8 sequence at p (at most n bytes), 0 if ill-formed
 * (Unicode Table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF). */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	unsigned char c = p[0];
	size_t k;
	unsigned char lo = 0x80, hi = 0xBF;
	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF)
		k = 2;
	else if (c >= 0xE0 && c <= 0xEF) {
		k = 3;
		if (c == 0xE0)
			lo = 0xA0;
		else if (c == 0xED)
			hi = 0x9F;
	} else if (c >= 0xF0 && c <= 0xF4) {
		k = 4;
		if (c == 0xF0)
			lo = 0x90;
		else if (c == 0xF4)
			hi = 0x8F;
	} else {
		return 0;
	}
	if (n < k || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < k; i++)
		if (p[i] < 0x80 || p[i] > 0xBF)
			return 0;
	return k;
}

int rung_source_check(size_t *skip, const char *text, size_t len, const char *file)
{
	*skip = 0;
	if (!file)
		file = "(source)";
	if (!text)
		return rung_error_set(RUNG_EINVAL, "%s: no text", file);
	const unsigned char *p = (const unsigned char *)text;
	if (len >= 4 && ((p[0] == 0xFF && p[1] == 0xFE && p[2] == 0 && p[3] == 0) ||
	                 (p[0] == 0 && p[1] == 0 && p[2] == 0xFE && p[3] == 0xFF)))
		return rung_error_set(RUNG_EINVAL, "%s: UTF-32 text (BOM %02X %02X %02X %02X): save it as UTF-8", file, p[0],
		                      p[1], p[2], p[3]);
	if (len >= 2 && ((p[0] == 0xFF && p[1] == 0xFE) || (p[0] == 0xFE && p[1] == 0xFF)))
		return rung_error_set(RUNG_EINVAL, "%s: UTF-16 text (BOM %02X %02X): save it as UTF-8", file, p[0], p[1]);
	size_t i = 0;
	if (len >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
		i = *skip = 3;
	int line = 1;
	while (i < len) {
		unsigned char c = p[i];
		if (c == '\n') {
			line++;
			i++;
			continue;
		}
		if (c == 0) {
			/* ASCII saved as UTF-16 without a BOM: every other byte is NUL */
			if (i < 2 && len >= 2 && (p[0] == 0) != (p[1] == 0))
				return rung_error_set(RUNG_EINVAL, "%s: UTF-16 text (%s-endian, no BOM): save it as UTF-8", file,
				                      p[1] == 0 ? "little" : "big");
			*skip = 0;
			return rung_error_set(RUNG_EINVAL, "%s:%d: NUL byte (the file must be UTF-8 or ASCII text)", file, line);
		}
		size_t k = utf8_seq(p + i, len - i);
		if (!k) {
			*skip = 0;
			return rung_error_set(RUNG_EINVAL, "%s:%d: byte 0x%02X is not UTF-8 (the file must be UTF-8 or ASCII)",
			                      file, line, c);
		}
		i += k;
	}
	return 0;
}

static void free_names(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

int rung_scan_includes(char ***out, int *n, const char *src)
{
	char **v = NULL;
	int cnt = 0, cap = 0;
	const char *p = src;
	*out = NULL;
	*n = 0;
	while (p && *p) {
		const char *eol = strchr(p, '\n');
		const char *end = eol ? eol : p + strlen(p);
		const char *q = p;
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q < end && *q == '#') {
			q++;
			while (q < end && (*q == ' ' || *q == '\t'))
				q++;
			if (end - q > 7 && !strncmp(q, "include", 7)) {
				q += 7;
				while (q < end && (*q == ' ' || *q == '\t'))
					q++;
				if (q < end && *q == '"') {
					const char *s = ++q;
					while (q < end && *q != '"')
						q++;
					if (q < end && q > s) {
						char *name = strndup(s, (size_t)(q - s));
						bool dup = false;
						for (int i = 0; i < cnt && name; i++)
							dup |= !strcmp(v[i], name);
						if (name && !dup && cnt == cap) {
							int nc = cap ? cap * 2 : 8;
							char **nv = realloc(v, (size_t)nc * sizeof(*v));
							if (nv)
								v = nv, cap = nc;
						}
						if (!name || (!dup && cnt == cap)) {
							free(name);
							free_names(v, cnt);
							return rung_error_set(RUNG_ENOMEM, "out of memory");
						}
						if (dup)
							free(name);
						else
							v[cnt++] = name;
					}
				}
			}
		}
		p = eol ? eol + 1 : end;
	}
	*out = v;
	*n = cnt;
	return 0;
}
