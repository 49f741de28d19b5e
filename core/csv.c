#include "core/csv.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/inert.h"

void rung_csv_clear(rung_csv *c)
{
	for (int i = 0; i < c->nrows; i++) {
		for (int k = 0; k < c->rows[i].nfields; k++)
			free(c->rows[i].fields[k]);
		free(c->rows[i].fields);
	}
	free(c->rows);
	c->rows = NULL;
	c->nrows = 0;
}

const char *rung_csv_field(const rung_csv_row *r, int i)
{
	return r && i >= 0 && i < r->nfields ? r->fields[i] : "";
}

/* A growing byte buffer for one field. */
typedef struct {
	char *p;
	size_t n, cap;
} buf;

static int buf_put(buf *b, char c)
{
	if (b->n + 1 >= b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		char *p = realloc(b->p, cap);
		if (!p)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	b->p[b->n++] = c;
	return 0;
}

static int row_add(rung_csv_row *r, int *cap, buf *b)
{
	if (r->nfields == *cap) {
		int nc = *cap ? *cap * 2 : 8;
		char **f = realloc(r->fields, sizeof(*f) * (size_t)nc);
		if (!f)
			return -1;
		r->fields = f;
		*cap = nc;
	}
	/* every field valid UTF-8 (bytes that are not written \xNN, as stored
	 * output is): ncu prints kernel names and SASS from the repository, and
	 * a field goes into JSON (which takes UTF-8 only) and onto the screen */
	char *s = rung_inert_utf8(b->p ? b->p : "", b->n);
	if (!s)
		return -1;
	r->fields[r->nfields++] = s;
	b->n = 0;
	return 0;
}

int rung_csv_parse(rung_csv *out, const char *text, size_t len, const char *name)
{
	memset(out, 0, sizeof(*out));
	if (!name)
		name = "csv";
	int rows_cap = 0, fcap = 0, line = 1, rc = 0;
	size_t i = 0;
	buf b = {0};
	rung_csv_row row = {0};
	if (!text)
		len = 0;
	while (i < len) {
		/* a blank line is no row */
		if (row.nfields == 0 && (text[i] == '\n' || (text[i] == '\r' && i + 1 < len && text[i + 1] == '\n'))) {
			i += text[i] == '\r' ? 2 : 1;
			line++;
			continue;
		}
		if (row.nfields == 0)
			row.line = line;
		/* one field */
		if (text[i] == '"') {
			int open = line;
			i++;
			for (;;) {
				if (i >= len) {
					rc = rung_error_set(RUNG_EINVAL, "%s:%d: unterminated quoted field (the quote opens on line %d)",
							    name, line, open);
					goto fail;
				}
				char c = text[i];
				if (c == 0) {
					rc = rung_error_set(RUNG_EINVAL, "%s:%d: NUL byte in the text", name, line);
					goto fail;
				}
				if (c == '"') {
					if (i + 1 < len && text[i + 1] == '"') {
						if (buf_put(&b, '"'))
							goto nomem;
						i += 2;
						continue;
					}
					i++;
					break;
				}
				if (c == '\n')
					line++;
				if (buf_put(&b, c))
					goto nomem;
				i++;
			}
			if (i < len && text[i] != ',' && text[i] != '\n' && !(text[i] == '\r' && i + 1 < len && text[i + 1] == '\n')) {
				rc = rung_error_set(RUNG_EINVAL, "%s:%d: text after a closing quote (a field is quoted whole or not at all)",
						    name, line);
				goto fail;
			}
		} else {
			while (i < len && text[i] != ',' && text[i] != '\n' &&
			       !(text[i] == '\r' && i + 1 < len && text[i + 1] == '\n')) {
				if (text[i] == 0) {
					rc = rung_error_set(RUNG_EINVAL, "%s:%d: NUL byte in the text", name, line);
					goto fail;
				}
				if (text[i] == '"') {
					rc = rung_error_set(RUNG_EINVAL, "%s:%d: quote inside an unquoted field", name, line);
					goto fail;
				}
				if (buf_put(&b, text[i]))
					goto nomem;
				i++;
			}
		}
		if (row_add(&row, &fcap, &b))
			goto nomem;
		/* after the field: a comma (another field, maybe empty at the end), a line end, or the end */
		bool more = i < len && text[i] == ',';
		if (more) {
			i++;
			if (i >= len || text[i] == '\n' || (text[i] == '\r' && i + 1 < len && text[i + 1] == '\n')) {
				if (row_add(&row, &fcap, &b)) /* the empty last field */
					goto nomem;
				more = false;
			}
		}
		if (more)
			continue;
		if (i < len)
			i += text[i] == '\r' ? 2 : 1;
		line++;
		if (out->nrows == rows_cap) {
			int nc = rows_cap ? rows_cap * 2 : 64;
			rung_csv_row *r = realloc(out->rows, sizeof(*r) * (size_t)nc);
			if (!r)
				goto nomem;
			out->rows = r;
			rows_cap = nc;
		}
		out->rows[out->nrows++] = row;
		memset(&row, 0, sizeof(row));
		fcap = 0;
	}
	free(b.p);
	return 0;
nomem:
	rc = rung_error_set(RUNG_ENOMEM, "%s: out of memory", name);
fail:
	for (int k = 0; k < row.nfields; k++)
		free(row.fields[k]);
	free(row.fields);
	free(b.p);
	rung_csv_clear(out);
	return rc;
}

int rung_csv_number(double *out, const char *s)
{
	*out = NAN;
	if (!s)
		return RUNG_EINVAL;
	while (*s == ' ' || *s == '\t')
		s++;
	char tmp[128];
	size_t n = 0;
	const char *p = s;
	if (*p == '-' || *p == '+')
		tmp[n++] = *p++;
	/* the integer part: digits, with commas between groups of three */
	int digits = 0, group = -1;
	while (*p && (isdigit((unsigned char)*p) || *p == ',')) {
		if (*p == ',') {
			if (digits == 0 || (group >= 0 && group != 3) || (group < 0 && digits > 3))
				return RUNG_EINVAL;
			group = 0;
			p++;
			continue;
		}
		if (n + 1 >= sizeof(tmp))
			return RUNG_EINVAL;
		tmp[n++] = *p++;
		digits++;
		if (group >= 0)
			group++;
	}
	if (group >= 0 && group != 3)
		return RUNG_EINVAL;
	/* the rest (fraction, exponent) as strtod reads it */
	while (*p && *p != ' ' && *p != '\t') {
		if (n + 1 >= sizeof(tmp) || !strchr("0123456789.eE+-", *p))
			return RUNG_EINVAL;
		tmp[n++] = *p++;
	}
	while (*p == ' ' || *p == '\t')
		p++;
	tmp[n] = 0;
	if (*p || n == 0)
		return RUNG_EINVAL;
	char *end;
	errno = 0;
	double v = strtod(tmp, &end);
	if (*end || end == tmp || !isfinite(v))
		return RUNG_EINVAL;
	*out = v;
	return 0;
}
