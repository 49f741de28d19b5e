/* The bottom of the worker (gpu/worker/report.c): messages to the parent,
 * step verdicts and the text of reasons. Calls no other worker file. Inside
 * the worker only. */
#ifndef RUNG_GPU_WORKER_REPORT_H
#define RUNG_GPU_WORKER_REPORT_H

#include <stddef.h>

#include <jansson.h>

#include "gpu/worker/child.h"

/* Writes a message to the parent, after flushing stdout and stderr (the
 * kernel's output comes before the message that follows it). Every message
 * the worker sends goes through here. */
int rung__wsend(rung_wctx *c, json_t *hdr, const rung_blob *blobs, int nblobs);

/* Sends {"type":"progress","step":...,"frac":...,"msg":...}. */
void rung__wprogress(rung_wctx *c, rung_step_id step, double frac, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The heartbeat inside a case: between rung__beat_begin and rung__beat_end,
 * rung__beat sends a progress message (`what`, on `step`) at most every 0.5 s
 * during long host work, so the parent's inactivity deadline never fires on a
 * large but healthy case. Outside (the bench and compare have their own
 * progress) it sends nothing. */
void rung__beat_begin(rung_step_id step);
void rung__beat(rung_wjob *j, const char *what);
void rung__beat_end(void);

/* Sets a step's status and reason. */
void rung__wstep(rung_result *r, rung_step_id s, rung_status st, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Step s FAILED with r described in `what`; a sticky error makes the job fatal. */
void rung__step_fault(rung_wjob *j, rung_step_id s, CUresult r, const char *what);

/* snprintf without the truncation warnings: messages are cut, by design. */
void rung__sfmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* reason = what + where, where (" at M=128,N=256,K=16 seed 1/2") always whole:
 * a long `what` is cut (at a UTF-8 boundary, "...") to leave room for it, so
 * that a failing case names every dimension of its size set. */
void rung__reason_at(char *reason, size_t rlen, const char *what, const char *where);
/* "1.5 GiB", "3.0 MiB", "512 bytes". */
void rung__fmt_bytes(char *buf, size_t len, double b);
/* Describes a launch/sync failure: "illegal memory access (CUDA_ERROR_ILLEGAL_ADDRESS) in sgemm". */
void rung__describe_fault(char *buf, size_t len, CUresult r, const char *what);
/* "<what> <name> failed: <r described>" into reason; a sticky error makes the
 * job fatal. Returns 1. */
int rung__cu_fail(rung_wjob *j, CUresult r, char *reason, size_t rlen, const char *what, const char *name);

#endif
