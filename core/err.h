/* rung error convention (libgit2 style): functions return 0 on success or a
 * negative rung_err code; the message is kept per thread and read with
 * rung_error_last(). Out-parameters come first. No exit() in library code. */
#ifndef RUNG_CORE_ERR_H
#define RUNG_CORE_ERR_H

#include <stdarg.h>

typedef enum {
	RUNG_OK = 0,
	RUNG_EINVAL = -1,   /* bad input: spec, expression, arguments */
	RUNG_ENOMEM = -2,
	RUNG_EIO = -3,      /* file or pipe I/O */
	RUNG_ENOTFOUND = -4,
	RUNG_ECOMPILE = -5, /* NVRTC rejected the source */
	RUNG_ENODEV = -6,   /* no driver / no GPU */
	RUNG_ECUDA = -7,    /* a driver call failed */
	RUNG_ETIMEOUT = -8,
	RUNG_EVCS = -9,     /* git */
	RUNG_ESTORE = -10,  /* results store */
	RUNG_EUNSUPPORTED = -11,
	RUNG_EUSAGE = -12,  /* the request names nothing usable: an unknown target, several tasks and none named */
	RUNG_ESPEC = -13,   /* the task's own files are wrong: rung.ini, the reference, a launch line */
} rung_err;

/* Sets the thread's last error message and returns code (for `return rung_error_set(...)`). */
int rung_error_set(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int rung_error_setv(int code, const char *fmt, va_list ap);
/* The last message, never NULL ("" when none). */
const char *rung_error_last(void);
int rung_error_last_code(void);
void rung_error_clear(void);
/* Keeps the last message under another code and returns that code
 * (`return rung_error_recode(RUNG_ESPEC);`). */
int rung_error_recode(int code);

/* The last error, set aside while cleanup that may set errors of its own runs
 * (libgit2's git_error_save/restore). Caller-owned; nothing to free. */
typedef struct {
	int code;
	char msg[1024];
} rung_error_state;
/* Copies the thread's last message and code into st. */
void rung_error_save(rung_error_state *st);
/* Makes st the thread's last error again and returns its code (for
 * `return rung_error_restore(&st);`). */
int rung_error_restore(const rung_error_state *st);

#endif
