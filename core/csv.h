/* A CSV reader for the pages Nsight Compute prints (`ncu --import R --csv`):
 * RFC 4180 fields, quoted or not, with "" for a quote and commas and newlines
 * inside quotes; CRLF or LF line ends; rows of any width (ncu ends its metric
 * rows early with a trailing comma). Pure C.
 *
 * Errors name the line: "details.csv:12: unterminated quoted field (opened
 * here)", "details.csv:3: text after a closing quote". */
#ifndef RUNG_CORE_CSV_H
#define RUNG_CORE_CSV_H

#include <stddef.h>

typedef struct {
	int line;      /* physical line the row starts on (1-based) */
	int nfields;
	char **fields; /* each a NUL-terminated copy, unquoted */
} rung_csv_row;

typedef struct {
	int nrows;
	rung_csv_row *rows;
} rung_csv;

/* Parses len bytes of text (a NUL inside is an error). Blank lines yield no
 * row. name is used in messages ("<name>:<line>: ..."). Returns 0, RUNG_EINVAL
 * (malformed, message set) or RUNG_ENOMEM. *out is always safe to clear. */
int rung_csv_parse(rung_csv *out, const char *text, size_t len, const char *name);
void rung_csv_clear(rung_csv *c);

/* Field i of row r, "" past its end. */
const char *rung_csv_field(const rung_csv_row *r, int i);

/* A number as ncu prints it: "13,364,163", "12,937,957.01", "-3.5", "1e+06"
 * (thousands separators dropped, surrounding blanks allowed). Returns 0 and
 * *out, or RUNG_EINVAL for "", "-", "n/a" or text that is not a number (no
 * message: callers treat it as absent). */
int rung_csv_number(double *out, const char *s);

#endif
