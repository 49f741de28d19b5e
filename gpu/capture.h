/* The kernel's output, captured by the parent (docs/ARCHITECTURE.md, "Kernel
 * output"). The worker's stdout (device printf) and stderr (device assert
 * messages, driver and library chatter, rung's own diagnostics) are pipes that
 * the parent drains while it waits for protocol messages (rung_chan side
 * streams), so the worker never blocks on a slow terminal. During a job,
 * stdout and every stderr line that is not rung's own ("rung ...") belong to
 * the job: the first RUNG_OUTPUT_KEEP bytes are kept, the rest counted. rung's
 * own lines, and anything printed outside a job, go to the parent's stderr
 * made inert (core/inert.h). Nothing of it is written raw to a terminal.
 * Internal to gpu/ (worker.c). */
#ifndef RUNG_GPU_CAPTURE_H
#define RUNG_GPU_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "gpu/protocol.h"

/* Output counts as activity for the inactivity deadline, but never further
 * than this many deadlines after the last protocol message: a worker that
 * prints forever and never answers is still killed. 30: on the H200 one launch
 * of a kernel printing a line from each of 1M threads takes about 50 s in any
 * CUDA program (the driver's printf), 5 deadlines (docs/BENCHMARKS.md). */
#define RUNG_OUTPUT_DEADLINE_FACTOR 30
/* ... and never further than this after the last protocol message, unless the
 * deadline itself is longer (RUNG_DEADLINE): a kernel that prints from every
 * thread (4096 x 256 lines a launch, about 50 s each in the driver) gets a
 * verdict in 20 s, with what it printed kept and shown inert (issue 25). */
#define RUNG_OUTPUT_FLOOD_MS 20000
/* Bytes of stderr lines passed to the parent's stderr per job (or between
 * jobs); beyond it they are counted and said so in one line. */
#define RUNG_FORWARD_MAX (64 * 1024)

typedef struct {
	int fd[2];     /* the parent's read ends: [0] the worker's stdout, [1] its stderr; -1 closed */
	bool active;   /* a job is in flight: what arrives belongs to it */
	char *keep;    /* the job's first RUNG_OUTPUT_KEEP bytes (raw) */
	size_t kept;
	int64_t bytes; /* every byte the job printed */
	struct {
		char buf[4096];
		size_t len;
	} line[2];     /* the line being assembled, per stream */
	int64_t forwarded, unforwarded; /* bytes passed to our stderr since the last begin, and held back */
	/* inactivity deadline: output moves it to now + window_ms, at most to
	 * since_ms + RUNG_OUTPUT_DEADLINE_FACTOR * window_ms */
	int64_t since_ms, window_ms;
	int64_t printed_since; /* bytes of output after the last message */
	int forward_fd; /* where forwarded lines go (STDERR_FILENO) */
	rung_chan *chan; /* attached to (its side_fd mirror fd) */
} rung_capture;

void rung__capture_init(rung_capture *c);
/* The latest time output can move the deadline to: since_ms + the window times
 * RUNG_OUTPUT_DEADLINE_FACTOR, and at most since_ms + max(window, RUNG_OUTPUT_FLOOD_MS). */
int64_t rung__capture_cap(const rung_capture *c);
/* Makes the two pipes: child_out/child_err are the worker's ends (blocking,
 * close-on-exec: the child dup2s them), the parent keeps non-blocking read ends. */
int rung__capture_open(rung_capture *c, int *child_out, int *child_err);
/* Hooks the read ends to ch as side streams. */
void rung__capture_attach(rung_capture *c, rung_chan *ch);
/* A job starts: what arrives from now on is its output. */
void rung__capture_begin(rung_capture *c);
/* A protocol message arrived at now_ms; the inactivity window is window_ms. */
void rung__capture_arm(rung_capture *c, int64_t now_ms, int64_t window_ms);
/* Reads what is in the pipes now, without waiting (bounded). */
void rung__capture_drain(rung_capture *c);
/* The job is over: finishes partial lines and moves its output to *text (NULL
 * when it printed nothing; rung_inert_utf8 form), *bytes and *dropped. */
void rung__capture_end(rung_capture *c, char **text, int64_t *bytes, int64_t *dropped);
/* The worker is gone: drains what is left, closes the read ends. */
void rung__capture_close(rung_capture *c);
void rung__capture_clear(rung_capture *c);

#endif
