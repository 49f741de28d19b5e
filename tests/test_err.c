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

/* Cleanup between save and restore sets errors of its own; the first one comes back. */
static void test_save_restore(void)
{
	rung_error_set(RUNG_ENOTFOUND, "%s: not in revision %s", "k.cu", "abc1234");
	rung_error_state st;
	rung_error_save(&st);
	CHECK_INT(st.code, RUNG_ENOTFOUND);
	CHECK_STR(st.msg, "k.cu: not in revision abc1234");
	rung_error_set(RUNG_EIO, "close: broken pipe");
	CHECK_INT(rung_error_last_code(), RUNG_EIO);
	CHECK_INT(rung_error_restore(&st), RUNG_ENOTFOUND);
	CHECK_STR(rung_error_last(), "k.cu: not in revision abc1234");
	CHECK_INT(rung_error_last_code(), RUNG_ENOTFOUND);
	/* a cleared state restores "no error" */
	rung_error_clear();
	rung_error_save(&st);
	rung_error_set(RUNG_EINVAL, "later");
	CHECK_INT(rung_error_restore(&st), 0);
	CHECK_STR(rung_error_last(), "");
	/* the longest message survives whole */
	char big[1100];
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	rung_error_set(RUNG_EINVAL, "%s", big);
	size_t n = strlen(rung_error_last());
	CHECK_INT(n, sizeof(st.msg) - 1);
	rung_error_save(&st);
	rung_error_clear();
	rung_error_restore(&st);
	CHECK_INT(strlen(rung_error_last()), n);
}

int main(void)
{
	T_RUN(test_set_and_read);
	T_RUN(test_prefix_previous_message);
	T_RUN(test_save_restore);
	return t_done();
}
