/* core/err.c: the last-error message, including a message that prefixes the previous one. */
#include "core/err.h"
#include "harness.h"

static void test_set_and_read(void)
{
	rung_error_clear();
	CHECK_STR(rung_error_last(), "");
	CHECK_INT(rung_error_set(RUNG_EINVAL, "bad %s at %d", "dim", 3), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "bad dim at 3");
	CHECK_INT(rung_error_last_code(), RUNG_EINVAL);
}

static void test_prefix_previous_message(void)
{
	rung_error_set(RUNG_ENOTFOUND, "No such file or directory");
	rung_error_set(RUNG_EINVAL, "%s:%d: %s", "keys.txt", 2, rung_error_last());
	CHECK_STR(rung_error_last(), "keys.txt:2: No such file or directory");
}

int main(void)
{
	T_RUN(test_set_and_read);
	T_RUN(test_prefix_previous_message);
	return t_done();
}
