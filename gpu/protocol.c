#include "gpu/protocol.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>

#include "gpu/worker_internal.h"

#include "core/err.h"

void rung_chan_init(rung_chan *c, int fd)
{
	memset(c, 0, sizeof(*c));
	c->fd = fd;
	c->side_fd[0] = c->side_fd[1] = -1;
}

void rung_chan_clear(rung_chan *c)
{
	free(c->buf);
	c->buf = NULL;
	c->len = c->cap = c->off = 0;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
		if (n < 0 && errno == ENOTSOCK)
			n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return rung_error_set(RUNG_EIO, "worker pipe: write failed: %s", strerror(errno));
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int rung_msg_write(int fd, json_t *hdr, const rung_blob *blobs, int nblobs)
{
	if (nblobs < 0 || nblobs > RUNG_PROTO_MAX_BLOBS)
		return rung_error_set(RUNG_EINVAL, "worker protocol: %d blobs (max %d)", nblobs, RUNG_PROTO_MAX_BLOBS);
	if (nblobs > 0) {
		json_t *arr = json_array();
		for (int i = 0; i < nblobs; i++)
			json_array_append_new(arr, json_integer((json_int_t)blobs[i].len));
		json_object_set_new(hdr, "blobs", arr);
	} else {
		json_object_del(hdr, "blobs");
	}
	char *line = json_dumps(hdr, JSON_COMPACT | JSON_ENSURE_ASCII);
	if (!line)
		return rung_error_set(RUNG_ENOMEM, "worker protocol: cannot encode message");
	size_t n = strlen(line);
	int err = write_all(fd, line, n);
	free(line);
	if (!err)
		err = write_all(fd, "\n", 1);
	for (int i = 0; !err && i < nblobs; i++)
		if (blobs[i].len)
			err = write_all(fd, blobs[i].data, blobs[i].len);
	return err;
}

/* Waits until fd is readable (or hung up), draining the side streams
 * meanwhile. Returns at once when there is neither a deadline nor a side stream
 * (the read then blocks). */
static int wait_readable(rung_chan *c, int64_t *deadline_ms)
{
	for (;;) {
		struct pollfd pfd[3] = {{.fd = c->fd, .events = POLLIN}};
		int n = 1, at[2] = {-1, -1};
		for (int k = 0; k < 2; k++)
			if (c->side_fn && c->side_fd[k] >= 0) {
				at[k] = n;
				pfd[n++] = (struct pollfd){.fd = c->side_fd[k], .events = POLLIN};
			}
		if (c->cancel && *c->cancel)
			return rung_error_set(RUNG_ETIMEOUT, "cancelled");
		if (*deadline_ms < 0 && n == 1 && !c->cancel)
			return 0;
		int timeout = -1;
		if (*deadline_ms >= 0) {
			int64_t left = *deadline_ms - rung_now_ms();
			if (left <= 0)
				return rung_error_set(RUNG_ETIMEOUT, "deadline");
			timeout = left > 1000000 ? 1000000 : (int)left;
		}
		if (c->cancel && (timeout < 0 || timeout > RUNG_CHAN_CANCEL_MS))
			timeout = RUNG_CHAN_CANCEL_MS; /* looked at again below */
		int pr = poll(pfd, (nfds_t)n, timeout);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			return rung_error_set(RUNG_EIO, "worker pipe: poll failed: %s", strerror(errno));
		for (int k = 0; k < 2; k++)
			if (at[k] >= 0 && pfd[at[k]].revents)
				c->side_fn(c, k, deadline_ms);
		if (pfd[0].revents)
			return 0;
	}
}

/* Makes sure at least `need` unread bytes are buffered. */
static int fill(rung_chan *c, size_t need, int64_t *deadline_ms)
{
	while (c->len - c->off < need) {
		if (c->off > 0 && c->off == c->len) {
			c->off = c->len = 0;
		} else if (c->off > 0 && c->cap - c->len < 65536) {
			memmove(c->buf, c->buf + c->off, c->len - c->off);
			c->len -= c->off;
			c->off = 0;
		}
		size_t want = c->off + need > c->len + 65536 ? c->off + need : c->len + 65536;
		if (want > c->cap) {
			size_t cap = c->cap ? c->cap : 65536;
			while (cap < want)
				cap *= 2;
			char *nb = realloc(c->buf, cap);
			if (!nb)
				return rung_error_set(RUNG_ENOMEM, "worker protocol: out of memory");
			c->buf = nb;
			c->cap = cap;
		}
		int err = wait_readable(c, deadline_ms);
		if (err)
			return err;
		ssize_t n = read(c->fd, c->buf + c->len, c->cap - c->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return rung_error_set(RUNG_EIO, "worker pipe: read failed: %s", strerror(errno));
		if (n == 0)
			return rung_error_set(RUNG_EIO, "end of stream");
		c->len += (size_t)n;
	}
	return 0;
}

void rung_msg_clear(rung_msg *m)
{
	if (!m)
		return;
	json_decref(m->json);
	for (int i = 0; i < m->nblobs; i++)
		free(m->blobs[i].data);
	memset(m, 0, sizeof(*m));
}

/* The first allocation for a blob; it grows as the bytes arrive. */
#define BLOB_FIRST ((size_t)1 << 20)

int rung_msg_read(rung_msg *out, rung_chan *c, int64_t deadline)
{
	int64_t deadline_ms = deadline; /* the side streams' drain may move it */
	memset(out, 0, sizeof(*out));
	/* find the newline */
	size_t scanned = 0;
	char *nl = NULL;
	for (;;) {
		size_t avail = c->len - c->off;
		if (avail > scanned) {
			nl = memchr(c->buf + c->off + scanned, '\n', avail - scanned);
			if (nl)
				break;
			scanned = avail;
		}
		if (scanned > RUNG_PROTO_MAX_LINE)
			return rung_error_set(RUNG_EIO, "worker protocol: header line longer than %u bytes", RUNG_PROTO_MAX_LINE);
		int err = fill(c, scanned + 1, &deadline_ms);
		if (err)
			return err;
	}
	size_t linelen = (size_t)(nl - (c->buf + c->off));
	json_error_t jerr;
	json_t *j = json_loadb(c->buf + c->off, linelen, 0, &jerr);
	c->off += linelen + 1;
	if (!j || !json_is_object(j)) {
		json_decref(j);
		return rung_error_set(RUNG_EIO, "worker protocol: malformed header (%s)", j ? "not an object" : jerr.text);
	}
	json_t *type = json_object_get(j, "type");
	if (!json_is_string(type)) {
		json_decref(j);
		return rung_error_set(RUNG_EIO, "worker protocol: message without a type");
	}
	out->json = j;
	out->type = json_string_value(type);
	json_t *blobs = json_object_get(j, "blobs");
	if (!blobs)
		return 0;
	if (!json_is_array(blobs) || json_array_size(blobs) > RUNG_PROTO_MAX_BLOBS) {
		rung_msg_clear(out);
		return rung_error_set(RUNG_EIO, "worker protocol: bad \"blobs\" list");
	}
	size_t nb = json_array_size(blobs);
	for (size_t i = 0; i < nb; i++) {
		json_t *v = json_array_get(blobs, i);
		if (!json_is_integer(v) || json_integer_value(v) < 0 || (unsigned long long)json_integer_value(v) > RUNG_PROTO_MAX_BLOB) {
			rung_msg_clear(out);
			return rung_error_set(RUNG_EIO, "worker protocol: bad blob size");
		}
		/* The announced size is only a claim: the buffer grows as the bytes
		 * arrive (doubling from 1 MiB), so a peer that announces 4 GiB and
		 * sends nothing costs 1 MiB, and one that sends them costs at most
		 * twice what it sent. */
		size_t len = (size_t)json_integer_value(v);
		size_t cap = len < BLOB_FIRST ? len : BLOB_FIRST;
		char *data = malloc(cap + 1);
		if (!data) {
			rung_msg_clear(out);
			return rung_error_set(RUNG_ENOMEM, "worker protocol: out of memory for a %zu-byte blob", len);
		}
		out->blobs[i].data = data;
		out->blobs[i].len = len;
		out->nblobs = (int)i + 1;
		size_t got = 0;
		while (got < len) {
			size_t have = c->len - c->off;
			if (have == 0) {
				int err = fill(c, 1, &deadline_ms);
				if (err) {
					rung_msg_clear(out);
					return err;
				}
				have = c->len - c->off;
			}
			size_t take = have < len - got ? have : len - got;
			if (got + take > cap) {
				size_t ncap = cap;
				while (ncap < got + take)
					ncap = ncap > len / 2 ? len : ncap * 2;
				char *nd = realloc(data, ncap + 1);
				if (!nd) {
					rung_msg_clear(out);
					return rung_error_set(RUNG_ENOMEM, "worker protocol: out of memory for a %zu-byte blob", len);
				}
				out->blobs[i].data = data = nd;
				cap = ncap;
			}
			memcpy(data + got, c->buf + c->off, take);
			c->off += take;
			got += take;
		}
		data[len] = 0;
	}
	return 0;
}

/* --- rung_env as JSON (hello) ---------------------------------------------- */

#include "core/result.h"

json_t *rung_env_to_json(const rung_env *e)
{
	return json_pack("{s:b,s:s,s:s,s:s,s:s,s:s,s:i,s:i,s:i,s:i,s:I,s:I,s:f,s:s}", "valid", e->valid, "gpu", e->gpu,
			 "uuid", e->uuid, "driver", e->driver, "cuda", e->cuda, "arch", e->arch, "sms", e->sms,
			 "sm_clock_mhz", e->sm_clock_mhz, "mem_clock_mhz", e->mem_clock_mhz, "bus_width", e->bus_width,
			 "l2_bytes", (json_int_t)e->l2_bytes, "persisting_l2_limit", (json_int_t)e->persisting_l2_limit,
			 "power_limit_w", isfinite(e->power_limit_w) ? e->power_limit_w : -1.0, "host", e->host);
}

static void env_str(char *dst, size_t len, const json_t *j, const char *key)
{
	const char *s = json_string_value(json_object_get(j, key));
	snprintf(dst, len, "%s", s ? s : "");
}

static int64_t env_int(const json_t *j, const char *key)
{
	const json_t *v = json_object_get(j, key);
	return json_is_integer(v) ? (int64_t)json_integer_value(v) : 0;
}

void rung_env_from_json(rung_env *e, const json_t *j)
{
	memset(e, 0, sizeof(*e));
	e->power_limit_w = NAN;
	if (!json_is_object(j))
		return;
	e->valid = json_is_true(json_object_get(j, "valid"));
	env_str(e->gpu, sizeof(e->gpu), j, "gpu");
	env_str(e->uuid, sizeof(e->uuid), j, "uuid");
	env_str(e->driver, sizeof(e->driver), j, "driver");
	env_str(e->cuda, sizeof(e->cuda), j, "cuda");
	env_str(e->arch, sizeof(e->arch), j, "arch");
	env_str(e->host, sizeof(e->host), j, "host");
	e->sms = (int)env_int(j, "sms");
	e->sm_clock_mhz = (int)env_int(j, "sm_clock_mhz");
	e->mem_clock_mhz = (int)env_int(j, "mem_clock_mhz");
	e->bus_width = (int)env_int(j, "bus_width");
	e->l2_bytes = env_int(j, "l2_bytes");
	e->persisting_l2_limit = env_int(j, "persisting_l2_limit");
	double p = json_number_value(json_object_get(j, "power_limit_w"));
	e->power_limit_w = p > 0 ? p : NAN;
}
