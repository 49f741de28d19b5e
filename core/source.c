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

/* ---- directives, as the preprocessor sees them ---- */

typedef struct {
	rung_include *v;
	int n, cap;
	char *buf; /* the logical line being read: comments as spaces, literals as "" */
	size_t len, bcap;
	bool oom;
} inc_scan;

static void put(inc_scan *s, char c)
{
	if (s->len + 2 > s->bcap) {
		size_t nc = s->bcap ? s->bcap * 2 : 256;
		char *nb = realloc(s->buf, nc);
		if (!nb) {
			s->oom = true;
			return;
		}
		s->buf = nb;
		s->bcap = nc;
	}
	s->buf[s->len++] = c;
}

static bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r'; }
static bool is_idc(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }

/* src[i] == 'R' starts a raw string: nothing of an identifier before it but an
 * encoding prefix (u8R, uR, UR, LR). */
static bool raw_prefix(const char *src, size_t i)
{
	size_t b = i;
	if (b >= 2 && src[b - 2] == 'u' && src[b - 1] == '8')
		b -= 2;
	else if (b >= 1 && (src[b - 1] == 'u' || src[b - 1] == 'U' || src[b - 1] == 'L'))
		b -= 1;
	return b == 0 || !is_idc(src[b - 1]);
}

/* The logical line in s->buf is complete: records it when it is an #include. */
static void end_line(inc_scan *s, int line)
{
	if (s->oom || !s->len)
		return;
	s->buf[s->len] = 0;
	const char *p = s->buf;
	s->len = 0;
	while (is_ws(*p))
		p++;
	if (*p == '#')
		p++;
	else if (p[0] == '%' && p[1] == ':')
		p += 2;
	else
		return;
	while (is_ws(*p))
		p++;
	const char *id = p;
	while (is_idc(*p))
		p++;
	size_t idl = (size_t)(p - id);
	if (!((idl == 7 && !strncmp(id, "include", 7)) || (idl == 12 && !strncmp(id, "include_next", 12))))
		return;
	while (is_ws(*p))
		p++;
	if (!*p)
		return; /* "#include" alone: the compiler's error */
	rung_include inc = {.line = line};
	char close = *p == '"' ? '"' : *p == '<' ? '>' : 0;
	if (close) {
		const char *b = ++p;
		while (*p && *p != close)
			p++;
		if (*p != close)
			return; /* unterminated: the compiler's error */
		inc.angle = close == '>';
		if (!(inc.name = strndup(b, (size_t)(p - b)))) {
			s->oom = true;
			return;
		}
	}
	if (s->n == s->cap) {
		int nc = s->cap ? s->cap * 2 : 8;
		rung_include *nv = realloc(s->v, (size_t)nc * sizeof(*nv));
		if (!nv) {
			free(inc.name);
			s->oom = true;
			return;
		}
		s->v = nv;
		s->cap = nc;
	}
	s->v[s->n++] = inc;
}

int rung_include_scan(rung_include **out, int *n, const char *src, size_t len)
{
	*out = NULL;
	*n = 0;
	inc_scan s = {0};
	int line = 1, start = 1; /* the physical line, and the one the logical line began on */
	bool block = false;      /* inside a block comment */
	size_t i = 0;
	while (src && i < len && !s.oom) {
		char c = src[i];
		if (c == '\\' && i + 1 < len && (src[i + 1] == '\n' || (src[i + 1] == '\r' && i + 2 < len && src[i + 2] == '\n'))) {
			i += src[i + 1] == '\n' ? 2 : 3; /* a splice: the line goes on */
			line++;
			continue;
		}
		if (c == '\n') {
			line++;
			i++;
			if (!block) {
				end_line(&s, start);
				start = line;
			}
			continue;
		}
		if (block) {
			if (c == '*' && i + 1 < len && src[i + 1] == '/') {
				block = false;
				i += 2;
				put(&s, ' ');
			} else {
				i++;
			}
			continue;
		}
		if (c == '/' && i + 1 < len && src[i + 1] == '*') {
			block = true;
			i += 2;
			continue;
		}
		if (c == '/' && i + 1 < len && src[i + 1] == '/') { /* to the end of the line (splices continue it) */
			while (i < len && src[i] != '\n') {
				if (src[i] == '\\' && i + 1 < len && src[i + 1] == '\n') {
					line++;
					i++;
				}
				i++;
			}
			continue;
		}
		if (c == 'R' && i + 1 < len && src[i + 1] == '"' && raw_prefix(src, i)) {
			/* R"delim( ... )delim": nothing inside is a directive */
			size_t d = i + 2, dl = 0;
			while (d + dl < len && dl < 16 && src[d + dl] != '(' && src[d + dl] != '\n')
				dl++;
			if (d + dl < len && src[d + dl] == '(') {
				size_t j = d + dl + 1;
				for (; j < len; j++) {
					if (src[j] == '\n')
						line++;
					if (src[j] == ')' && j + dl + 1 < len && !memcmp(src + j + 1, src + d, dl) && src[j + 1 + dl] == '"')
						break;
				}
				i = j < len ? j + dl + 2 : len;
				put(&s, '"');
				put(&s, '"');
				continue;
			}
		}
		/* a literal is copied whole: a comment opener inside it is none, and an
		 * #include keeps its "operand" */
		if (c == '"' || c == '\'') {
			size_t j = i + 1;
			while (j < len && src[j] != c && src[j] != '\n') {
				if (src[j] == '\\' && j + 1 < len) {
					line += src[j + 1] == '\n';
					j++;
				}
				j++;
			}
			for (size_t k = i; k < len && k <= j && !s.oom; k++)
				if (src[k] != '\n')
					put(&s, src[k]);
			i = j < len && src[j] == c ? j + 1 : j;
			continue;
		}
		put(&s, c);
		i++;
	}
	end_line(&s, start);
	free(s.buf);
	if (s.oom) {
		rung_includes_free(s.v, s.n);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	*out = s.v;
	*n = s.n;
	return 0;
}

void rung_includes_free(rung_include *v, int n)
{
	for (int i = 0; v && i < n; i++)
		free(v[i].name);
	free(v);
}
