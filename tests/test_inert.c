/* core/inert.c: kernel output made inert for a terminal (every control and
 * every invalid byte visible, valid UTF-8 kept), its stored UTF-8 form, and
 * the byte sizes printed with it. */
#include <stdlib.h>
#include <string.h>

#include "core/inert.h"
#include "harness.h"

static const char *inert(const char *s, size_t n)
{
	static char buf[512];
	size_t used = rung_inert(buf, sizeof(buf), s, n);
	CHECK_INT(used, n);
	return buf;
}

#define INERT(lit) inert(lit, sizeof(lit) - 1)

static void test_controls_made_visible(void)
{
	CHECK_STR(INERT("\x1b[2Jclear"), "\\x1b[2Jclear");
	/* OSC 52 (set the clipboard), ended by BEL */
	CHECK_STR(INERT("\x1b]52;c;cHduZWQ=\x07"), "\\x1b]52;c;cHduZWQ=\\x07");
	CHECK_STR(INERT("a\x7f" "b"), "a\\x7fb");
	CHECK_STR(INERT("t\tn\nr\r"), "t\\tn\\nr\\r");
	/* NUL is data, not the end */
	CHECK_STR(INERT("a\0b"), "a\\x00b");
	/* a raw C1 CSI byte is not UTF-8; the same control encoded in UTF-8 is a C1 code point */
	CHECK_STR(INERT("\x9b" "31m"), "\\x9b31m");
	CHECK_STR(INERT("\xc2\x9b" "31m"), "\\u{009B}31m");
	/* bidi override and the line separator */
	CHECK_STR(INERT("abc\xe2\x80\xae" "def\xe2\x80\xa8"), "abc\\u{202E}def\\u{2028}");
}

static void test_invalid_utf8_and_valid_kept(void)
{
	/* invalid: stray continuation, 0xff, overlong '/', a surrogate, a cut sequence */
	CHECK_STR(INERT("\x80\xff"), "\\x80\\xff");
	CHECK_STR(INERT("\xc0\xaf"), "\\xc0\\xaf");
	CHECK_STR(INERT("\xed\xa0\x80"), "\\xed\\xa0\\x80");
	CHECK_STR(INERT("x\xe2\x9c"), "x\\xe2\\x9c");
	/* valid UTF-8 is kept as it is: a check mark, an e acute, an emoji */
	CHECK_STR(INERT("\xe2\x9c\x93 caf\xc3\xa9 \xf0\x9f\x99\x82"), "\xe2\x9c\x93 caf\xc3\xa9 \xf0\x9f\x99\x82");
	CHECK_STR(INERT("back\\slash"), "back\\slash");
}

static void test_truncation(void)
{
	char out[8];
	/* never half an escape: "ab" and one \x1b fit in 7 bytes, the second \x1b does not */
	size_t used = rung_inert(out, sizeof(out), "ab\x1b\x1b", 4);
	CHECK_STR(out, "ab\\x1b");
	CHECK_INT(used, 3);
	/* never half a character */
	used = rung_inert(out, 5, "abc\xe2\x9c\x93", 6);
	CHECK_STR(out, "abc");
	CHECK_INT(used, 3);
	used = rung_inert(out, 1, "abc", 3);
	CHECK_STR(out, "");
	CHECK_INT(used, 0);
}

static void test_stored_form(void)
{
	/* C0 controls and valid UTF-8 are kept, NUL and invalid bytes become \xNN */
	const char raw[] = "tid 7 \x1b[2J\xc3\xa9\0z\xff\n";
	char *t = rung_inert_utf8(raw, sizeof(raw) - 1);
	CHECK_STR(t, "tid 7 \x1b[2J\xc3\xa9\\x00z\\xff\n");
	free(t);
	/* what JSON does not escape is made text here: DEL, C1 CSI, a bidi override */
	t = rung_inert_utf8("a\x7f" "b\xc2\x9b" "1m\xe2\x80\xae" "c", 11);
	CHECK_STR(t, "a\\u{007F}b\\u{009B}1m\\u{202E}c");
	free(t);
	t = rung_inert_utf8("", 0);
	CHECK_STR(t, "");
	free(t);
}

static void test_fmt_bytes(void)
{
	char b[32];
	rung_fmt_bytes(b, sizeof(b), 812);
	CHECK_STR(b, "812 B");
	rung_fmt_bytes(b, sizeof(b), 3277);
	CHECK_STR(b, "3.2 KiB");
	rung_fmt_bytes(b, sizeof(b), 65536);
	CHECK_STR(b, "64.0 KiB");
	rung_fmt_bytes(b, sizeof(b), 40 * 1048576 + 1);
	CHECK_STR(b, "40.0 MiB");
}

/* The command line's form: newline and tab kept, CR and the rest made visible;
 * a UTF-8 sequence cut at the end of a buffer is held back whole. */
static void t_lines_and_whole(void)
{
	char out[256];
	const char in[] = "a\tb\nc\rd\x1b[2Je \xe2\x80\xae f\n";
	CHECK_INT(rung_inert_lines(out, sizeof out, in, sizeof in - 1), sizeof in - 1);
	CHECK_STR(out, "a\tb\nc\\rd\\x1b[2Je \\u{202E} f\n");
	CHECK_INT(rung_utf8_whole("ab", 2), 2);
	CHECK_INT(rung_utf8_whole("a\xe2\x80", 3), 1);     /* a 3-byte sequence cut after 2 */
	CHECK_INT(rung_utf8_whole("a\xe2\x80\xae", 4), 4); /* whole */
	CHECK_INT(rung_utf8_whole("a\xf0\x9f\x98", 4), 1); /* a 4-byte one cut after 3 */
	CHECK_INT(rung_utf8_whole("a\xc3", 2), 1);
	CHECK_INT(rung_utf8_whole("a\xff", 2), 2);          /* invalid: nothing to wait for */
}

int main(void)
{
	T_RUN(test_controls_made_visible);
	T_RUN(test_invalid_utf8_and_valid_kept);
	T_RUN(test_truncation);
	T_RUN(test_stored_form);
	T_RUN(test_fmt_bytes);
	T_RUN(t_lines_and_whole);
	return t_done();
}
