#include "core/err.h"

#include <stdio.h>
#include <string.h>

static _Thread_local char err_msg[1024];
static _Thread_local int err_code;

int rung_error_setv(int code, const char *fmt, va_list ap)
{
	/* Formatted aside first: callers may pass rung_error_last() as an argument
	 * ("%s:%d: %s", path, line, rung_error_last()) to prefix a location. */
	char msg[sizeof(err_msg)];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	memcpy(err_msg, msg, sizeof(err_msg));
	err_code = code;
	return code;
}

int rung_error_set(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	rung_error_setv(code, fmt, ap);
	va_end(ap);
	return code;
}

const char *rung_error_last(void) { return err_msg; }
int rung_error_last_code(void) { return err_code; }
void rung_error_clear(void) { err_msg[0] = 0; err_code = 0; }
int rung_error_recode(int code)
{
	err_code = code;
	return code;
}

_Static_assert(sizeof(((rung_error_state *)0)->msg) == sizeof(err_msg), "rung_error_state holds a whole message");

void rung_error_save(rung_error_state *st)
{
	memcpy(st->msg, err_msg, sizeof(err_msg));
	st->code = err_code;
}

int rung_error_restore(const rung_error_state *st)
{
	memcpy(err_msg, st->msg, sizeof(err_msg));
	err_msg[sizeof(err_msg) - 1] = 0;
	err_code = st->code;
	return err_code;
}
