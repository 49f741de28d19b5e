/* Messages to the parent, step verdicts and the text of reasons: the bottom of
 * the worker's files (gpu/worker/report.h), which every other one uses. */
#include "gpu/worker/report.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/timing.h"

void rung__sfmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

void rung__reason_at(char *reason, size_t rlen, const char *what, const char *where)
{
	size_t wl = strlen(where), al = strlen(what);
	if (al + wl < rlen || wl + 4 >= rlen) {
		rung__sfmt(reason, rlen, "%s%s", what, where);
		return;
	}
	size_t keep = rlen - wl - 4;
	while (keep > 0 && ((unsigned char)what[keep] & 0xc0) == 0x80)
		keep--;
	rung__sfmt(reason, rlen, "%.*s...%s", (int)keep, what, where);
}

void rung__fmt_bytes(char *buf, size_t len, double b)
{
	if (b >= 1024.0 * 1024 * 1024)
		rung__sfmt(buf, len, "%.1f GiB", b / (1024.0 * 1024 * 1024));
	else if (b >= 1024.0 * 1024)
		rung__sfmt(buf, len, "%.1f MiB", b / (1024.0 * 1024));
	else
		rung__sfmt(buf, len, "%.0f bytes", b);
}

void rung__describe_fault(char *buf, size_t len, CUresult r, const char *what)
{
	char d[256];
	rung_cu_describe(d, sizeof(d), r);
	rung__sfmt(buf, len, "%s in %s", d, what);
}

int rung__cu_fail(rung_wjob *j, CUresult r, char *reason, size_t rlen, const char *what, const char *name)
{
	char d[160];
	rung_cu_describe(d, sizeof(d), r);
	rung__sfmt(reason, rlen, "%s %s failed: %s", what, name, d);
	j->fatal = j->fatal || rung_cu_is_sticky(r);
	return 1;
}

int rung__wsend(rung_wctx *c, json_t *hdr, const rung_blob *blobs, int nblobs)
{
	/* What the kernel printed so far goes out before the message that follows
	 * it, so that the parent has all of a job's output when its result arrives
	 * (the driver writes device printf through stdio at synchronization). */
	fflush(stdout);
	fflush(stderr);
	return rung_msg_write(c->out_fd, hdr, blobs, nblobs);
}

void rung__wprogress(rung_wctx *c, rung_step_id step, double frac, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	json_t *j = json_pack("{s:s,s:s,s:f,s:s}", "type", "progress", "step", rung_step_name(step), "frac",
			      isfinite(frac) ? frac : 0.0, "msg", msg);
	rung__wsend(c, j, NULL, 0);
	json_decref(j);
}

static rung_step_id beat_step = RUNG_STEP_RUN;
static bool beat_on; /* only inside a case: the bench and compare have their own progress */
static double last_beat;

void rung__beat_begin(rung_step_id step)
{
	beat_step = step;
	beat_on = true;
	last_beat = rung_now_s();
}

void rung__beat(rung_wjob *j, const char *what)
{
	double t = rung_now_s();
	if (beat_on && t - last_beat >= 0.5) {
		last_beat = t;
		rung__wprogress(j->c, beat_step, 0, "%s", what);
	}
}

void rung__beat_end(void)
{
	beat_on = false;
}

void rung__wstep(rung_result *r, rung_step_id s, rung_status st, const char *fmt, ...)
{
	r->steps[s].status = st;
	r->steps[s].reason[0] = 0;
	r->steps[s].cause = RUNG_CAUSE_NONE;
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(r->steps[s].reason, sizeof(r->steps[s].reason), fmt, ap);
		va_end(ap);
	}
}

void rung__step_fault(rung_wjob *j, rung_step_id s, CUresult r, const char *what)
{
	char why[512];
	rung__describe_fault(why, sizeof(why), r, what);
	rung__wstep(j->res, s, RUNG_S_FAILED, "%s", why);
	if (rung_cu_is_sticky(r))
		j->fatal = true;
}
