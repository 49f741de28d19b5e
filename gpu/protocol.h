/* Worker protocol framing (docs/ARCHITECTURE.md, "Worker protocol").
 * A message is one line of compact JSON (an object with a "type") ended by
 * '\n'. When the object has "blobs": [n0, n1, ...], exactly n0 + n1 + ...
 * raw bytes follow the newline, blob after blob (cubins, result JSON).
 * Reads are buffered per channel and can carry a deadline. */
#ifndef RUNG_GPU_PROTOCOL_H
#define RUNG_GPU_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/timing.h"

#define RUNG_PROTO_VERSION 1
#define RUNG_PROTO_MAX_BLOBS 8
#define RUNG_PROTO_MAX_LINE (64u << 20)  /* a header line larger than this is a protocol error */
#define RUNG_PROTO_MAX_BLOB (1ull << 32) /* one blob larger than this is a protocol error */

typedef struct {
	void *data;
	size_t len;
} rung_blob;

typedef struct {
	json_t *json;   /* the header object (owned) */
	const char *type; /* json "type", borrowed from json */
	int nblobs;
	rung_blob blobs[RUNG_PROTO_MAX_BLOBS]; /* owned; data NUL-terminated for convenience */
} rung_msg;

/* One end of a byte stream: fd plus a read buffer. */
typedef struct rung_chan rung_chan;
struct rung_chan {
	int fd;
	char *buf;
	size_t len, cap, off;
	/* Side streams drained while a read waits (the worker's captured stdout
	 * and stderr, gpu/capture.h): side_fd[k] >= 0 is polled with fd, and when
	 * it is readable side_fn(c, k, &deadline_ms) drains it; it may move the
	 * read's deadline later, and sets side_fd[k] to -1 at end of stream. */
	int side_fd[2];
	void (*side_fn)(rung_chan *c, int k, int64_t *deadline_ms);
	void *side_ud;
	/* Set by any thread to give up the read (NULL: never): a read that waits
	 * looks at it every RUNG_CHAN_CANCEL_MS and returns RUNG_ETIMEOUT,
	 * "cancelled" (the caller kills the peer: what was half read is lost). */
	const volatile int *cancel;
};
#define RUNG_CHAN_CANCEL_MS 100

void rung_chan_init(rung_chan *c, int fd);
void rung_chan_clear(rung_chan *c); /* frees the buffer; does not close fd */

/* Writes hdr (adds "blobs" when nblobs > 0) then the blobs. Retries on EINTR;
 * never raises SIGPIPE on sockets (MSG_NOSIGNAL). RUNG_EIO when the peer is gone. */
int rung_msg_write(int fd, json_t *hdr, const rung_blob *blobs, int nblobs);

/* Reads the next message. deadline_ms: absolute time on rung_now_ms()'s
 * clock (core/timing.h), or a negative value to wait forever (a side stream's drain may move a
 * deadline later, never set one). RUNG_ETIMEOUT at the deadline or once
 * c->cancel is set (message "cancelled"),
 * RUNG_EIO at end of stream ("worker exited") or on a malformed frame
 * (message says what was wrong). */
int rung_msg_read(rung_msg *out, rung_chan *c, int64_t deadline_ms);
void rung_msg_clear(rung_msg *m);

#endif
