/* core/expr.c: values computed by hand, and the exact error for each mistake. */
#include <stdint.h>

#include "core/err.h"
#include "core/expr.h"
#include "harness.h"

static rung_dimset dims;

static int64_t ev(const char *text)
{
	int64_t v = -777777;
	int rc = rung_expr_eval(&v, text, &dims);
	if (rc) {
		fprintf(stderr, "  '%s' failed: %s\n", text, rung_error_last());
		return -999999;
	}
	return v;
}

/* Evaluates text expecting failure; returns the message. */
static const char *err(const char *text)
{
	int64_t v = 12345;
	rung_error_clear();
	int rc = rung_expr_eval(&v, text, &dims);
	if (rc != RUNG_EINVAL) {
		fprintf(stderr, "  '%s' did not fail (rc %d, value %lld)\n", text, rc, (long long)v);
		return "(no error)";
	}
	if (v != 12345)
		return "(output written on error)";
	return rung_error_last();
}

static void setup(void)
{
	dims.n = 0;
	rung_dimset_set(&dims, "M", 127);
	rung_dimset_set(&dims, "N", 255);
	rung_dimset_set(&dims, "K", 63);
	rung_dimset_set(&dims, "BIG", 3000000);
}

static void test_literals_and_precedence(void)
{
	CHECK_INT(ev("42"), 42);
	CHECK_INT(ev("  7  "), 7);
	CHECK_INT(ev("1+2*3"), 7);
	CHECK_INT(ev("(1+2)*3"), 9);
	CHECK_INT(ev("10-4-3"), 3);       /* left associative */
	CHECK_INT(ev("100/10/5"), 2);     /* left associative */
	CHECK_INT(ev("2*3%4"), 2);        /* (2*3)%4 */
	CHECK_INT(ev("7/2"), 3);
	CHECK_INT(ev("-7/2"), -3);        /* C truncation */
	CHECK_INT(ev("17%5"), 2);
	CHECK_INT(ev("((((5))))"), 5);
	CHECK_INT(ev("9223372036854775807"), INT64_MAX);
}

static void test_unary(void)
{
	CHECK_INT(ev("-5"), -5);
	CHECK_INT(ev("--5"), 5);
	CHECK_INT(ev("+5"), 5);
	CHECK_INT(ev("-(2+3)*2"), -10);
	CHECK_INT(ev("3 - -2"), 5);
	CHECK_INT(ev("-M"), -127);
}

static void test_dims(void)
{
	CHECK_INT(ev("M"), 127);
	CHECK_INT(ev("M*N"), 127 * 255);
	CHECK_INT(ev("2*M*N*K"), 2LL * 127 * 255 * 63);
	CHECK_INT(ev("4*(M*K+K*N+M*N)"), 4LL * (127 * 63 + 63 * 255 + 127 * 255));
	int64_t v = 0;
	CHECK_INT(rung_expr_eval(&v, "12*12", NULL), 0);
	CHECK_INT(v, 144);
}

static void test_functions(void)
{
	CHECK_INT(ev("cdiv(N,128)"), 2);   /* 255/128 rounded up */
	CHECK_INT(ev("cdiv(256,128)"), 2);
	CHECK_INT(ev("cdiv(257,128)"), 3);
	CHECK_INT(ev("cdiv(1,128)"), 1);
	CHECK_INT(ev("cdiv(0,128)"), 0);
	CHECK_INT(ev("cdiv(-7,2)"), -3);   /* ceil(-3.5) */
	CHECK_INT(ev("cdiv(7,-2)"), -3);
	CHECK_INT(ev("cdiv(-7,-2)"), 4);
	CHECK_INT(ev("cdiv( M , 16 ) * cdiv(N,16)"), 8 * 16);
	CHECK_INT(ev("min(M,N)"), 127);
	CHECK_INT(ev("max(M,N,K)"), 255);
	CHECK_INT(ev("min(4, 2, 9, 3)"), 2);
	CHECK_INT(ev("max(-1, -5)"), -1);
	CHECK_INT(ev("min(max(M,200), cdiv(N,2))"), 128);
	CHECK_INT(ev("max(min(1,2)+3, 2)*2"), 8);
}

static void test_overflow(void)
{
	rung_dimset big = { 0 };
	rung_dimset_set(&big, "M", 1 << 20);
	rung_dimset_set(&big, "N", 1 << 20);
	rung_dimset_set(&big, "K", 1 << 20);
	int64_t v = 0;
	/* 2^60 fits, 2^80 does not. */
	CHECK_INT(rung_expr_eval(&v, "M*N*K", &big), 0);
	CHECK_INT(v, 1LL << 60);
	CHECK_INT(rung_expr_eval(&v, "M*N*K*K", &big), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "overflow in 'M*N*K*K'");
	CHECK_STR(err("9223372036854775807+1"), "overflow in '9223372036854775807+1'");
	CHECK_STR(err("9223372036854775808"), "overflow in '9223372036854775808'");
	CHECK_STR(err(" -9223372036854775807-2 "), "overflow in '-9223372036854775807-2'");
	CHECK_STR(err("BIG*BIG*BIG*BIG"), "overflow in 'BIG*BIG*BIG*BIG'");
	CHECK_STR(err("(-9223372036854775807-1)/-1"), "overflow in '(-9223372036854775807-1)/-1'");
	CHECK_STR(err("-(-9223372036854775807-1)"), "overflow in '-(-9223372036854775807-1)'");
}

static void test_division_by_zero(void)
{
	CHECK_STR(err("M/0"), "division by zero");
	CHECK_STR(err("M%(K-63)"), "division by zero");
	CHECK_STR(err("cdiv(M, 0)"), "division by zero");
}

static void test_syntax_errors(void)
{
	CHECK_STR(err("(M+1"), "expected ')' at end of expression");
	CHECK_STR(err("(M+1 K"), "expected ')' at column 6, found 'K'");
	CHECK_STR(err("M+"), "expected a number, name or '(' at end of expression");
	CHECK_STR(err("M N"), "expected an operator at column 3, found 'N'");
	CHECK_STR(err("M+1)"), "unmatched ')' at column 4, found ')'");
	CHECK_STR(err("2**3"), "expected a number, name or '(' at column 3, found '*'");
	CHECK_STR(err("M & 1"), "expected an operator at column 3, found '&'");
	CHECK_STR(err("12abc"), "bad number at column 3, found 'a'");
	CHECK_STR(err("1.5*M"), "bad number at column 2, found '.'");
	CHECK_STR(err(""), "empty expression");
	CHECK_STR(err("   "), "empty expression");
	CHECK_STR(err("min(M,)"), "expected a number, name or '(' at column 7, found ')'");
	CHECK_STR(err("max()"), "expected an argument at column 5, found ')'");
	CHECK_STR(err("cdiv(M,N,K)"), "cdiv takes 2 arguments, got 3 (column 1)");
	CHECK_STR(err("1 + min(M)"), "min takes at least 2 arguments, got 1 (column 5)");
	CHECK_STR(err("cdiv(M 2)"), "expected ',' or ')' at column 8, found '2'");
}

static void test_unknown_names(void)
{
	CHECK_STR(err("M*Q"), "unknown dim 'Q'");
	CHECK_STR(err("m"), "unknown dim 'm'"); /* names are case sensitive */
	CHECK_STR(err("ceil(M,2)"), "unknown function 'ceil' at column 1");
	CHECK_STR(err("2 + M(3)"), "unknown function 'M' at column 5");
	int64_t v;
	CHECK_INT(rung_expr_eval(&v, "M", NULL), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "unknown dim 'M'");
	char longname[100];
	memset(longname, 'x', 80);
	longname[80] = 0;
	CHECK_STR(err(longname), "name too long at column 1");
}

static void test_deep_nesting_is_an_error_not_a_crash(void)
{
	char buf[4096];
	size_t n = 0;
	for (int i = 0; i < 1000; i++)
		buf[n++] = '(';
	buf[n++] = '1';
	for (int i = 0; i < 1000; i++)
		buf[n++] = ')';
	buf[n] = 0;
	CHECK_STR(err(buf), "expression nested too deeply");
	memset(buf, '-', 2000);
	buf[2000] = '1';
	buf[2001] = 0;
	CHECK_STR(err(buf), "expression nested too deeply");
}

static void test_names(void)
{
	char names[8][RUNG_NAME_MAX];
	int n = rung_expr_names(names, 8, "cdiv(N, BN) * M + min(M, K) - 4");
	CHECK_INT(n, 4);
	if (n == 4) {
		CHECK_STR(names[0], "N");
		CHECK_STR(names[1], "BN");
		CHECK_STR(names[2], "M");
		CHECK_STR(names[3], "K");
	}
	CHECK_INT(rung_expr_names(names, 8, "128"), 0);
	CHECK_INT(rung_expr_names(names, 1, "M+N"), RUNG_EINVAL);
	CHECK_INT(rung_expr_names(names, 8, "M$N"), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "unexpected character at column 2, found '$'");
}

int main(void)
{
	setup();
	T_RUN(test_literals_and_precedence);
	T_RUN(test_unary);
	T_RUN(test_dims);
	T_RUN(test_functions);
	T_RUN(test_overflow);
	T_RUN(test_division_by_zero);
	T_RUN(test_syntax_errors);
	T_RUN(test_unknown_names);
	T_RUN(test_deep_nesting_is_an_error_not_a_crash);
	T_RUN(test_names);
	return t_done();
}
