/* .npy reader and writer: magic, version, header length, a Python dict literal
 * {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), } padded with spaces
 * and a newline so the data start 64-byte aligned. */
#include "core/npy.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/fs.h"
#include "core/rng.h"

static const char *dt_name(rung_dtype dt)
{
	static const char *names[] = { "f64", "f32", "f16", "bf16", "i64", "i32", "u8" };
	return (unsigned)dt < RUNG_DT_COUNT ? names[dt] : "?";
}

const char *rung_npy_descr(rung_dtype dt)
{
	switch (dt) {
	case RUNG_DT_F64: return "<f8";
	case RUNG_DT_F32: return "<f4";
	case RUNG_DT_F16: return "<f2";
	case RUNG_DT_BF16: return "<u2";
	case RUNG_DT_I64: return "<i8";
	case RUNG_DT_I32: return "<i4";
	case RUNG_DT_U8: return "|u1";
	default: return NULL;
	}
}

void rung_npy_clear(rung_npy *a)
{
	if (!a)
		return;
	free(a->data);
	memset(a, 0, sizeof *a);
}

static int descr_dtype(rung_npy *o, const char *d, const char *name)
{
	static const struct { const char *d; rung_dtype dt; bool raw; } tab[] = {
		{ "<f8", RUNG_DT_F64, false }, { "<f4", RUNG_DT_F32, false }, { "<f2", RUNG_DT_F16, false },
		{ "<i8", RUNG_DT_I64, false }, { "<i4", RUNG_DT_I32, false }, { "|u1", RUNG_DT_U8, false },
		{ "<u1", RUNG_DT_U8, false }, { "<u2", RUNG_DT_BF16, true },
		{ "<V2", RUNG_DT_BF16, true }, { "|V2", RUNG_DT_BF16, true },
	};
	for (size_t k = 0; k < sizeof tab / sizeof tab[0]; k++) {
		if (strcmp(d, tab[k].d) == 0) {
			o->dtype = tab[k].dt;
			o->raw16 = tab[k].raw;
			return 0;
		}
	}
	if (d[0] == '>')
		return rung_error_set(RUNG_EINVAL, "%s: unsupported dtype '%s' (big-endian; save with '<' byte order)", name, d);
	return rung_error_set(RUNG_EINVAL, "%s: unsupported dtype '%s' (supported: <f8 <f4 <f2 <i8 <i4 |u1, and <u2 as raw bf16)", name, d);
}

typedef struct {
	const char *p, *end;
} cur;

/* Up to max bytes of the header from c->p, quoted in an error message. The
 * header is not NUL-terminated, so the quote stops at its end; bytes that are
 * not printable ASCII are shown as \xNN (a file's bytes never reach the
 * terminal raw). Returns buf. */
static const char *excerpt(char *buf, size_t len, const cur *c, size_t max)
{
	size_t k = 0;
	for (const char *q = c->p; q < c->end && max > 0 && k + 5 < len; q++, max--) {
		unsigned char ch = (unsigned char)*q;
		if (ch >= 0x20 && ch < 0x7f)
			buf[k++] = (char)ch;
		else
			k += (size_t)snprintf(buf + k, len - k, "\\x%02x", ch);
	}
	buf[k] = 0;
	return buf;
}

static void ws(cur *c)
{
	while (c->p < c->end && isspace((unsigned char)*c->p))
		c->p++;
}

static int lit(cur *c, char ch)
{
	ws(c);
	if (c->p < c->end && *c->p == ch) {
		c->p++;
		return 1;
	}
	return 0;
}

/* 'text' or "text" into buf */
static int pystr(cur *c, char *buf, size_t len)
{
	ws(c);
	if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
		return -1;
	char q = *c->p++;
	size_t k = 0;
	while (c->p < c->end && *c->p != q) {
		if (k + 1 < len)
			buf[k++] = *c->p;
		else
			return -1;
		c->p++;
	}
	if (c->p >= c->end)
		return -1;
	c->p++;
	buf[k] = 0;
	return 0;
}

static int parse_header(rung_npy *o, const char *h, size_t hlen, const char *name)
{
	cur c = { h, h + hlen };
	bool has_descr = false, has_fo = false, has_shape = false;
	char key[32], descr[32], q[4 * 40 + 8];

	if (!lit(&c, '{')) {
		cur all = { h, h + hlen };
		return rung_error_set(RUNG_EINVAL, "%s: header is not a dict: '%s'", name, excerpt(q, sizeof q, &all, 40));
	}
	for (;;) {
		if (lit(&c, '}'))
			break;
		if (pystr(&c, key, sizeof key) < 0)
			return rung_error_set(RUNG_EINVAL, "%s: header: expected a quoted key at '%s'", name, excerpt(q, sizeof q, &c, 20));
		if (!lit(&c, ':'))
			return rung_error_set(RUNG_EINVAL, "%s: header: expected ':' after '%s'", name, key);
		if (strcmp(key, "descr") == 0) {
			if (pystr(&c, descr, sizeof descr) < 0)
				return rung_error_set(RUNG_EINVAL, "%s: header: 'descr' is not a simple type string (structured dtypes are not supported)", name);
			int rc = descr_dtype(o, descr, name);
			if (rc < 0)
				return rc;
			snprintf(o->descr, sizeof o->descr, "%.15s", descr);
			has_descr = true;
		} else if (strcmp(key, "fortran_order") == 0) {
			ws(&c);
			if (c.end - c.p >= 5 && strncmp(c.p, "False", 5) == 0) {
				c.p += 5;
			} else if (c.end - c.p >= 4 && strncmp(c.p, "True", 4) == 0) {
				return rung_error_set(RUNG_EINVAL, "%s: fortran_order is True; save a C-order array (np.ascontiguousarray)", name);
			} else {
				return rung_error_set(RUNG_EINVAL, "%s: header: fortran_order is not True/False", name);
			}
			has_fo = true;
		} else if (strcmp(key, "shape") == 0) {
			if (!lit(&c, '('))
				return rung_error_set(RUNG_EINVAL, "%s: header: shape is not a tuple", name);
			o->rank = 0;
			for (;;) {
				if (lit(&c, ')'))
					break;
				ws(&c);
				if (c.p >= c.end || !isdigit((unsigned char)*c.p))
					return rung_error_set(RUNG_EINVAL, "%s: header: bad shape entry at '%s'", name, excerpt(q, sizeof q, &c, 20));
				int64_t v = 0;
				while (c.p < c.end && isdigit((unsigned char)*c.p)) {
					if (v > (INT64_MAX - 9) / 10)
						return rung_error_set(RUNG_EINVAL, "%s: header: shape entry too large", name);
					v = v * 10 + (*c.p++ - '0');
				}
				while (c.p < c.end && (*c.p == 'L' || *c.p == 'l')) /* Python 2 longs */
					c.p++;
				if (o->rank >= RUNG_MAX_RANK)
					return rung_error_set(RUNG_EINVAL, "%s: rank above %d is not supported", name, RUNG_MAX_RANK);
				o->shape[o->rank++] = v;
				if (lit(&c, ','))
					continue;
				if (lit(&c, ')'))
					break;
				return rung_error_set(RUNG_EINVAL, "%s: header: bad shape tuple at '%s'", name, excerpt(q, sizeof q, &c, 20));
			}
			has_shape = true;
		} else {
			return rung_error_set(RUNG_EINVAL, "%s: header: unexpected key '%s'", name, key);
		}
		if (lit(&c, ','))
			continue;
		if (lit(&c, '}'))
			break;
		return rung_error_set(RUNG_EINVAL, "%s: header: expected ',' or '}' at '%s'", name, excerpt(q, sizeof q, &c, 20));
	}
	if (!has_descr || !has_fo || !has_shape)
		return rung_error_set(RUNG_EINVAL, "%s: header lacks %s", name,
				      !has_descr ? "'descr'" : !has_fo ? "'fortran_order'" : "'shape'");
	return 0;
}

int rung_npy_parse(rung_npy *out, const void *buf, size_t len, const char *name)
{
	const uint8_t *b = buf;
	rung_npy o;
	memset(&o, 0, sizeof o);
	memset(out, 0, sizeof *out);
	if (!name)
		name = "npy";

	if (len < 10 || memcmp(b, "\x93NUMPY", 6) != 0)
		return rung_error_set(RUNG_EINVAL, "%s: not a .npy file (no \\x93NUMPY magic)", name);
	int major = b[6];
	size_t hlen, hstart;
	if (major == 1) {
		hlen = (size_t)b[8] | (size_t)b[9] << 8;
		hstart = 10;
	} else if (major == 2 || major == 3) {
		if (len < 12)
			return rung_error_set(RUNG_EINVAL, "%s: truncated header", name);
		hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
		hstart = 12;
	} else {
		return rung_error_set(RUNG_EINVAL, "%s: unsupported .npy format version %d.%d", name, major, b[7]);
	}
	if (hstart + hlen > len)
		return rung_error_set(RUNG_EINVAL, "%s: truncated header (%zu header bytes, file has %zu)", name, hlen, len - hstart);
	o.version = major;
	int rc = parse_header(&o, (const char *)b + hstart, hlen, name);
	if (rc < 0)
		return rc;

	int64_t n = 1;
	for (int k = 0; k < o.rank; k++) {
		if (o.shape[k] != 0 && n > INT64_MAX / o.shape[k])
			return rung_error_set(RUNG_EINVAL, "%s: shape overflows", name);
		n *= o.shape[k];
	}
	size_t es = rung_dt_size(o.dtype);
	if ((uint64_t)n > SIZE_MAX / es)
		return rung_error_set(RUNG_EINVAL, "%s: shape overflows", name);
	size_t nbytes = (size_t)n * es;
	size_t have = len - hstart - hlen;
	if (have < nbytes)
		return rung_error_set(RUNG_EINVAL, "%s: truncated data: shape needs %zu bytes, file has %zu", name, nbytes, have);
	if (have > nbytes)
		return rung_error_set(RUNG_EINVAL, "%s: %zu trailing bytes after the data", name, have - nbytes);
	o.n = n;
	o.nbytes = nbytes;
	o.data = malloc(nbytes ? nbytes : 1);
	if (!o.data)
		return rung_error_set(RUNG_ENOMEM, "%s: out of memory for %zu bytes", name, nbytes);
	memcpy(o.data, b + hstart + hlen, nbytes);
	*out = o;
	return 0;
}

int rung_npy_load(rung_npy *out, const char *path)
{
	memset(out, 0, sizeof *out);
	char *buf = NULL;
	size_t sz = 0;
	int rc = rung_fs_read_file(&buf, &sz, path, 0); /* as large as the array it holds */
	if (rc < 0)
		return rc;
	rc = rung_npy_parse(out, buf, sz, path);
	free(buf);
	return rc;
}

int rung_npy_save(const char *path, rung_dtype dt, int rank, const int64_t *shape, const void *data)
{
	const char *descr = rung_npy_descr(dt);
	if (!descr)
		return rung_error_set(RUNG_EINVAL, "%s: cannot save dtype %d", path, (int)dt);
	if (rank < 0 || rank > RUNG_MAX_RANK)
		return rung_error_set(RUNG_EINVAL, "%s: bad rank %d", path, rank);
	char dict[512];
	size_t k = (size_t)snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
	int64_t n = 1;
	for (int d = 0; d < rank; d++) {
		k += (size_t)snprintf(dict + k, sizeof dict - k, "%" PRId64 ",%s", shape[d], (rank > 1 && d < rank - 1) ? " " : "");
		n *= shape[d];
	}
	/* (3,) keeps its comma; (3, 4,) is fine Python but numpy writes (3, 4) */
	if (rank > 1)
		k--;
	k += (size_t)snprintf(dict + k, sizeof dict - k, "), }");
	size_t pre = 10;
	size_t total = pre + k + 1;
	size_t pad = (64 - total % 64) % 64;
	size_t hlen = k + pad + 1;

	FILE *f = fopen(path, "wb");
	if (!f)
		return rung_error_set(RUNG_EIO, "%s: %s", path, strerror(errno));
	uint8_t magic[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, (uint8_t)(hlen & 0xff), (uint8_t)(hlen >> 8) };
	int ok = fwrite(magic, 1, 10, f) == 10 && fwrite(dict, 1, k, f) == k;
	for (size_t p = 0; ok && p < pad; p++)
		ok = fputc(' ', f) != EOF;
	ok = ok && fputc('\n', f) != EOF;
	size_t nbytes = (size_t)n * rung_dt_size(dt);
	ok = ok && (nbytes == 0 || fwrite(data, 1, nbytes, f) == nbytes);
	if (fclose(f) != 0)
		ok = 0;
	if (!ok)
		return rung_error_set(RUNG_EIO, "%s: write failed: %s", path, strerror(errno));
	return 0;
}

static void fmt_shape(char *buf, size_t len, int rank, const int64_t *s)
{
	size_t k = (size_t)snprintf(buf, len, "(");
	for (int d = 0; d < rank && k < len; d++)
		k += (size_t)snprintf(buf + k, len - k, "%s%" PRId64, d ? "," : "", s[d]);
	if (k < len)
		snprintf(buf + k, len - k, ")");
}

int rung_npy_expect(const rung_npy *a, const char *path, const char *argname, rung_dtype dt, int rank,
		    const int64_t *dims)
{
	char want[160], have[160];
	bool same_dt = a->raw16 ? dt == RUNG_DT_BF16 : a->dtype == dt;
	bool same_shape = a->rank == rank;
	for (int d = 0; same_shape && d < rank; d++)
		same_shape = a->shape[d] == dims[d];
	if (same_dt && same_shape)
		return 0;
	fmt_shape(want, sizeof want, rank, dims);
	fmt_shape(have, sizeof have, a->rank, a->shape);
	return rung_error_set(RUNG_EINVAL, "%s: arg %s expects %s %s, file has %s %s (descr '%s')%s", path,
			      argname ? argname : "?", dt_name(dt), want, a->raw16 ? "raw16" : dt_name(a->dtype), have,
			      a->descr, (!same_dt && dt == RUNG_DT_BF16) ? "; store bf16 as the raw bits with dtype '<u2'" : "");
}
