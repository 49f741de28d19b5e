/* Integer expression evaluator for shapes, launch geometry and roofline
 * counts. Recursive descent over:
 *   expr    := term (('+' | '-') term)*
 *   term    := unary (('*' | '/' | '%') unary)*
 *   unary   := ('-' | '+') unary | primary
 *   primary := INT | NAME | NAME '(' expr (',' expr)* ')' | '(' expr ')'
 * Every operation is checked: overflow and division by zero are errors. */
#include "core/expr.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#include "core/err.h"

#define EXPR_MAX_DEPTH 64
#define EXPR_MAX_ARGS 16

typedef struct {
	const char *s;
	size_t pos;
	const rung_dimset *dims;
	int depth;
	bool failed;
} parser;

static int fail(parser *p, const char *fmt, const char *a)
{
	if (!p->failed)
		rung_error_set(RUNG_EINVAL, fmt, a);
	p->failed = true;
	return RUNG_EINVAL;
}

static int fail_at(parser *p, const char *what)
{
	if (p->failed)
		return RUNG_EINVAL;
	p->failed = true;
	char c = p->s[p->pos];
	if (!c)
		return rung_error_set(RUNG_EINVAL, "%s at end of expression", what);
	if (isprint((unsigned char)c))
		return rung_error_set(RUNG_EINVAL, "%s at column %zu, found '%c'", what, p->pos + 1, c);
	return rung_error_set(RUNG_EINVAL, "%s at column %zu", what, p->pos + 1);
}

static int overflow(parser *p)
{
	/* The whole expression, trimmed, so the user sees what overflowed. */
	const char *a = p->s;
	while (isspace((unsigned char)*a))
		a++;
	size_t n = strlen(a);
	while (n && isspace((unsigned char)a[n - 1]))
		n--;
	if (!p->failed)
		rung_error_set(RUNG_EINVAL, "overflow in '%.*s'", (int)n, a);
	p->failed = true;
	return RUNG_EINVAL;
}

static void skip_ws(parser *p)
{
	while (isspace((unsigned char)p->s[p->pos]))
		p->pos++;
}

static bool is_name_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static bool is_name_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static int parse_expr(parser *p, int64_t *out);

/* Integer division rounding toward +infinity. */
static int cdiv(parser *p, int64_t *out, int64_t a, int64_t b)
{
	if (b == 0)
		return fail(p, "division by zero%s", "");
	if (a == INT64_MIN && b == -1)
		return overflow(p);
	int64_t q = a / b;
	if (a % b != 0 && ((a < 0) == (b < 0)))
		q++;
	*out = q;
	return 0;
}

static int call(parser *p, int64_t *out, const char *fn, size_t fn_col)
{
	int64_t v[EXPR_MAX_ARGS];
	int n = 0;
	p->pos++; /* '(' */
	skip_ws(p);
	if (p->s[p->pos] == ')')
		return fail_at(p, "expected an argument");
	for (;;) {
		if (n == EXPR_MAX_ARGS)
			return fail_at(p, "too many arguments");
		int rc = parse_expr(p, &v[n++]);
		if (rc)
			return rc;
		skip_ws(p);
		if (p->s[p->pos] == ',') {
			p->pos++;
			continue;
		}
		if (p->s[p->pos] != ')')
			return fail_at(p, "expected ',' or ')'");
		p->pos++;
		break;
	}
	if (strcmp(fn, "cdiv") == 0) {
		if (n != 2) {
			p->failed = true;
			return rung_error_set(RUNG_EINVAL, "cdiv takes 2 arguments, got %d (column %zu)", n, fn_col);
		}
		return cdiv(p, out, v[0], v[1]);
	}
	bool is_min = strcmp(fn, "min") == 0;
	if (!is_min && strcmp(fn, "max") != 0) {
		p->failed = true;
		return rung_error_set(RUNG_EINVAL, "unknown function '%s' at column %zu", fn, fn_col);
	}
	if (n < 2) {
		p->failed = true;
		return rung_error_set(RUNG_EINVAL, "%s takes at least 2 arguments, got %d (column %zu)", fn, n, fn_col);
	}
	int64_t r = v[0];
	for (int i = 1; i < n; i++)
		if (is_min ? v[i] < r : v[i] > r)
			r = v[i];
	*out = r;
	return 0;
}

static int parse_primary(parser *p, int64_t *out)
{
	skip_ws(p);
	char c = p->s[p->pos];
	if (isdigit((unsigned char)c)) {
		int64_t v = 0;
		while (isdigit((unsigned char)p->s[p->pos])) {
			int d = p->s[p->pos] - '0';
			if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, d, &v))
				return overflow(p);
			p->pos++;
		}
		if (is_name_char(p->s[p->pos]) || p->s[p->pos] == '.')
			return fail_at(p, "bad number");
		*out = v;
		return 0;
	}
	if (is_name_start(c)) {
		size_t start = p->pos;
		while (is_name_char(p->s[p->pos]))
			p->pos++;
		size_t len = p->pos - start;
		if (len >= RUNG_NAME_MAX) {
			p->failed = true;
			return rung_error_set(RUNG_EINVAL, "name too long at column %zu", start + 1);
		}
		char name[RUNG_NAME_MAX];
		memcpy(name, p->s + start, len);
		name[len] = 0;
		skip_ws(p);
		if (p->s[p->pos] == '(')
			return call(p, out, name, start + 1);
		if (!p->dims || rung_dimset_get(out, p->dims, name) != 0)
			return fail(p, "unknown dim '%s'", name);
		return 0;
	}
	if (c == '(') {
		p->pos++;
		int rc = parse_expr(p, out);
		if (rc)
			return rc;
		skip_ws(p);
		if (p->s[p->pos] != ')')
			return fail_at(p, "expected ')'");
		p->pos++;
		return 0;
	}
	return fail_at(p, "expected a number, name or '('");
}

static int parse_unary(parser *p, int64_t *out)
{
	skip_ws(p);
	char c = p->s[p->pos];
	if (c != '-' && c != '+')
		return parse_primary(p, out);
	if (++p->depth > EXPR_MAX_DEPTH)
		return fail(p, "expression nested too deeply%s", "");
	p->pos++;
	int64_t v;
	int rc = parse_unary(p, &v);
	p->depth--;
	if (rc)
		return rc;
	if (c == '-') {
		if (v == INT64_MIN)
			return overflow(p);
		v = -v;
	}
	*out = v;
	return 0;
}

static int parse_term(parser *p, int64_t *out)
{
	int64_t a;
	int rc = parse_unary(p, &a);
	if (rc)
		return rc;
	for (;;) {
		skip_ws(p);
		char op = p->s[p->pos];
		if (op != '*' && op != '/' && op != '%')
			break;
		p->pos++;
		int64_t b;
		if ((rc = parse_unary(p, &b)))
			return rc;
		if (op == '*') {
			if (__builtin_mul_overflow(a, b, &a))
				return overflow(p);
			continue;
		}
		if (b == 0)
			return fail(p, "division by zero%s", "");
		if (a == INT64_MIN && b == -1)
			return overflow(p);
		a = op == '/' ? a / b : a % b;
	}
	*out = a;
	return 0;
}

static int parse_expr(parser *p, int64_t *out)
{
	if (++p->depth > EXPR_MAX_DEPTH)
		return fail(p, "expression nested too deeply%s", "");
	int64_t a;
	int rc = parse_term(p, &a);
	while (!rc) {
		skip_ws(p);
		char op = p->s[p->pos];
		if (op != '+' && op != '-')
			break;
		p->pos++;
		int64_t b;
		if ((rc = parse_term(p, &b)))
			break;
		if (op == '+' ? __builtin_add_overflow(a, b, &a) : __builtin_sub_overflow(a, b, &a))
			rc = overflow(p);
	}
	p->depth--;
	if (!rc)
		*out = a;
	return rc;
}

int rung_expr_eval(int64_t *out, const char *text, const rung_dimset *dims)
{
	if (!out || !text)
		return rung_error_set(RUNG_EINVAL, "no expression");
	parser p = { .s = text, .dims = dims };
	skip_ws(&p);
	if (!text[p.pos])
		return rung_error_set(RUNG_EINVAL, "empty expression");
	int64_t v;
	int rc = parse_expr(&p, &v);
	if (rc)
		return rc;
	skip_ws(&p);
	if (text[p.pos]) {
		if (text[p.pos] == ')')
			return fail_at(&p, "unmatched ')'");
		return fail_at(&p, "expected an operator");
	}
	*out = v;
	return 0;
}

int rung_expr_names(char names[][RUNG_NAME_MAX], int max, const char *text)
{
	if (!text)
		return rung_error_set(RUNG_EINVAL, "no expression");
	int n = 0;
	size_t i = 0;
	while (text[i]) {
		char c = text[i];
		if (isdigit((unsigned char)c)) {
			while (is_name_char(text[i]))
				i++;
			continue;
		}
		if (!is_name_start(c)) {
			if (!strchr("+-*/%(), \t\r\n", c))
				return rung_error_set(RUNG_EINVAL, "unexpected character at column %zu, found '%c'", i + 1, c);
			i++;
			continue;
		}
		size_t start = i;
		while (is_name_char(text[i]))
			i++;
		size_t len = i - start;
		if (len >= RUNG_NAME_MAX)
			return rung_error_set(RUNG_EINVAL, "name too long at column %zu", start + 1);
		size_t j = i;
		while (isspace((unsigned char)text[j]))
			j++;
		if (text[j] == '(')
			continue; /* a function name */
		char name[RUNG_NAME_MAX];
		memcpy(name, text + start, len);
		name[len] = 0;
		bool dup = false;
		for (int k = 0; k < n && !dup; k++)
			dup = strcmp(names[k], name) == 0;
		if (dup)
			continue;
		if (n == max)
			return rung_error_set(RUNG_EINVAL, "more than %d names", max);
		memcpy(names[n++], name, len + 1);
	}
	return n;
}
