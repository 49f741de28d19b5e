/* .npy reader/writer. numpy is not installed here, so the fixtures are the
 * exact bytes numpy writes, built by hand:
 *   np.save(p, np.arange(6, dtype='<f4').reshape(2, 3))
 * gives "\x93NUMPY" 01 00, header length 0x0076 (118) little-endian, then
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
 * padded with spaces and a final '\n' to 128 bytes in all (10 + 118), then
 * 6 little-endian float32 0..5. */
#include "harness.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/npy.h"

/* builds a file image: magic, version, header padded to a multiple of 64 */
static size_t build(uint8_t *out, int major, const char *dict, const void *data, size_t nbytes)
{
	size_t pre = major == 1 ? 10 : 12;
	size_t dl = strlen(dict);
	size_t total = pre + dl + 1;
	size_t pad = (64 - total % 64) % 64;
	size_t hlen = dl + pad + 1;
	memcpy(out, "\x93NUMPY", 6);
	out[6] = (uint8_t)major;
	out[7] = 0;
	out[8] = (uint8_t)(hlen & 0xff);
	out[9] = (uint8_t)(hlen >> 8);
	if (major != 1) {
		out[10] = (uint8_t)(hlen >> 16);
		out[11] = (uint8_t)(hlen >> 24);
	}
	memcpy(out + pre, dict, dl);
	memset(out + pre + dl, ' ', pad);
	out[pre + dl + pad] = '\n';
	if (nbytes)
		memcpy(out + pre + hlen, data, nbytes);
	return pre + hlen + nbytes;
}

static void t_numpy_fixture(void)
{
	float v[6] = { 0, 1, 2, 3, 4, 5 };
	uint8_t img[512];
	size_t len = build(img, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", v, sizeof v);
	CHECK_INT(len, 128 + 24);
	CHECK_INT(img[8], 118);
	const char *dir = t_tmpdir();
	char path[512];
	snprintf(path, sizeof path, "%s/a.npy", dir);
	FILE *f = fopen(path, "wb");
	fwrite(img, 1, len, f);
	fclose(f);

	rung_npy a;
	CHECK_INT(rung_npy_load(&a, path), 0);
	CHECK_INT(a.dtype, RUNG_DT_F32);
	CHECK_INT(a.version, 1);
	CHECK_INT(a.rank, 2);
	CHECK_INT(a.shape[0], 2);
	CHECK_INT(a.shape[1], 3);
	CHECK_INT(a.n, 6);
	CHECK(a.data && memcmp(a.data, v, sizeof v) == 0);
	int64_t want[2] = { 2, 3 }, wrong[2] = { 3, 2 };
	CHECK_INT(rung_npy_expect(&a, path, "W", RUNG_DT_F32, 2, want), 0);
	CHECK(rung_npy_expect(&a, path, "W", RUNG_DT_F32, 2, wrong) < 0);
	CHECK_CONTAINS(rung_error_last(), "a.npy: arg W expects f32 (3,2), file has f32 (2,3)");
	CHECK(rung_npy_expect(&a, path, "W", RUNG_DT_F16, 2, want) < 0);
	CHECK_CONTAINS(rung_error_last(), "expects f16 (2,3), file has f32 (2,3)");
	rung_npy_clear(&a);

	/* our writer produces the same bytes numpy does */
	char p2[512];
	snprintf(p2, sizeof p2, "%s/b.npy", dir);
	CHECK_INT(rung_npy_save(p2, RUNG_DT_F32, 2, want, v), 0);
	FILE *g = fopen(p2, "rb");
	uint8_t back[512];
	size_t bl = fread(back, 1, sizeof back, g);
	fclose(g);
	CHECK_INT(bl, len);
	CHECK(memcmp(back, img, len) == 0);
}

static void t_versions_and_variants(void)
{
	int64_t d8[3] = { 10, -2, 1LL << 40 };
	uint8_t img[512];
	rung_npy a;
	/* version 2 (4-byte length), double quotes, keys in another order, 1-tuple */
	size_t len = build(img, 2, "{\"shape\": (3,), \"fortran_order\": False, \"descr\": \"<i8\"}", d8, sizeof d8);
	CHECK_INT(rung_npy_parse(&a, img, len, "v2.npy"), 0);
	CHECK_INT(a.version, 2);
	CHECK_INT(a.dtype, RUNG_DT_I64);
	CHECK_INT(a.rank, 1);
	CHECK_INT(a.shape[0], 3);
	CHECK_INT(((int64_t *)a.data)[2], 1LL << 40);
	rung_npy_clear(&a);
	/* version 3 (utf-8 header), scalar shape () */
	double one = 2.5;
	len = build(img, 3, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }", &one, 8);
	CHECK_INT(rung_npy_parse(&a, img, len, "v3.npy"), 0);
	CHECK_INT(a.rank, 0);
	CHECK_INT(a.n, 1);
	CHECK_NEAR(((double *)a.data)[0], 2.5, 0);
	rung_npy_clear(&a);
	/* empty array */
	len = build(img, 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (0, 4), }", NULL, 0);
	CHECK_INT(rung_npy_parse(&a, img, len, "e.npy"), 0);
	CHECK_INT(a.n, 0);
	CHECK_INT(a.dtype, RUNG_DT_U8);
	rung_npy_clear(&a);
	/* f16 and bf16-as-raw */
	uint16_t h[2] = { 0x3c00, 0x4000 };
	len = build(img, 1, "{'descr': '<f2', 'fortran_order': False, 'shape': (2,), }", h, 4);
	CHECK_INT(rung_npy_parse(&a, img, len, "h.npy"), 0);
	CHECK_INT(a.dtype, RUNG_DT_F16);
	CHECK(!a.raw16);
	rung_npy_clear(&a);
	len = build(img, 1, "{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }", h, 4);
	CHECK_INT(rung_npy_parse(&a, img, len, "bf.npy"), 0);
	CHECK(a.raw16);
	int64_t two = 2;
	CHECK_INT(rung_npy_expect(&a, "bf.npy", "X", RUNG_DT_BF16, 1, &two), 0);
	CHECK(rung_npy_expect(&a, "bf.npy", "X", RUNG_DT_F16, 1, &two) < 0);
	rung_npy_clear(&a);
	/* writer round trip for every dtype and rank 3 */
	const char *dir = t_tmpdir();
	int64_t shape[3] = { 2, 1, 3 };
	uint8_t data[6 * 8];
	for (int k = 0; k < (int)sizeof data; k++)
		data[k] = (uint8_t)(k * 37 + 1);
	for (int dt = 0; dt < RUNG_DT_COUNT; dt++) {
		char p[512];
		snprintf(p, sizeof p, "%s/t%d.npy", dir, dt);
		CHECK_INT(rung_npy_save(p, (rung_dtype)dt, 3, shape, data), 0);
		CHECK_INT(rung_npy_load(&a, p), 0);
		CHECK_INT(a.dtype, dt);
		CHECK_INT(rung_npy_expect(&a, p, "T", (rung_dtype)dt, 3, shape), 0);
		CHECK(memcmp(a.data, data, a.nbytes) == 0);
		rung_npy_clear(&a);
	}
}

static void t_errors(void)
{
	uint8_t img[512];
	float v[4] = { 0 };
	rung_npy a;
	size_t len;

	CHECK(rung_npy_parse(&a, "hello world", 11, "x.npy") < 0);
	CHECK_CONTAINS(rung_error_last(), "x.npy: not a .npy file");

	len = build(img, 1, "{'descr': '>f4', 'fortran_order': False, 'shape': (4,), }", v, 16);
	CHECK(rung_npy_parse(&a, img, len, "be.npy") < 0);
	CHECK_CONTAINS(rung_error_last(), "be.npy: unsupported dtype '>f4' (big-endian");

	len = build(img, 1, "{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", v, 16);
	CHECK(rung_npy_parse(&a, img, len, "c.npy") < 0);
	CHECK_CONTAINS(rung_error_last(), "c.npy: unsupported dtype '<c8'");

	len = build(img, 1, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", v, 16);
	CHECK(rung_npy_parse(&a, img, len, "fo.npy") < 0);
	CHECK_CONTAINS(rung_error_last(), "fo.npy: fortran_order is True");

	len = build(img, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }", v, 16);
	CHECK(rung_npy_parse(&a, img, len, "short.npy") < 0);
	CHECK_CONTAINS(rung_error_last(), "short.npy: truncated data: shape needs 20 bytes, file has 16");

	len = build(img, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", v, 16);
	CHECK(rung_npy_parse(&a, img, len, "long.npy") < 0);
	CHECK_CONTAINS(rung_error_last(), "long.npy: 4 trailing bytes");

	len = build(img, 1, "{'descr': '<f4', 'shape': (4,), }", v, 16);
	CHECK(rung_npy_parse(&a, img, len, "nofo.npy") < 0);
	CHECK_CONTAINS(rung_error_last(), "nofo.npy: header lacks 'fortran_order'");

	len = build(img, 1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (4,), }", v, 16);
	CHECK(rung_npy_parse(&a, img, len, "rec.npy") < 0);
	CHECK_CONTAINS(rung_error_last(), "structured dtypes are not supported");

	len = build(img, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", v, 16);
	img[6] = 4;
	CHECK(rung_npy_parse(&a, img, len, "v4.npy") < 0);
	CHECK_CONTAINS(rung_error_last(), "v4.npy: unsupported .npy format version 4.0");
	img[6] = 1;
	img[8] = 0xff; /* header longer than the file */
	img[9] = 0x7f;
	CHECK(rung_npy_parse(&a, img, len, "th.npy") < 0);
	CHECK_CONTAINS(rung_error_last(), "th.npy: truncated header");

	CHECK(rung_npy_load(&a, "/nonexistent/dir/z.npy") < 0);
	CHECK_CONTAINS(rung_error_last(), "/nonexistent/dir/z.npy: No such file");
}

/* Error messages quote the header, which is not NUL-terminated: the quote must
 * stop at the header's end (the data after it is not header text), and an empty
 * header at the end of the file must not be read past (issue: heap over-read). */
static void t_header_quote_bounded(void)
{
	/* the whole file is the magic, version 1.0 and a zero header length */
	static const uint8_t empty[10] = { 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, 0, 0 };
	const char *dir = t_tmpdir();
	char path[512];
	snprintf(path, sizeof path, "%s/empty.npy", dir);
	FILE *f = fopen(path, "wb");
	CHECK(f != NULL);
	if (!f)
		return;
	CHECK_INT(fwrite(empty, 1, sizeof empty, f), sizeof empty);
	fclose(f);
	rung_npy a;
	CHECK(rung_npy_load(&a, path) < 0);
	CHECK_CONTAINS(rung_error_last(), "empty.npy: header is not a dict: ''");
	remove(path);
	rmdir(dir);

	/* the same bytes in a heap block of exactly their size */
	uint8_t *heap = malloc(sizeof empty);
	memcpy(heap, empty, sizeof empty);
	CHECK(rung_npy_parse(&a, heap, sizeof empty, "heap.npy") < 0);
	CHECK_CONTAINS(rung_error_last(), "heap.npy: header is not a dict: ''");
	free(heap);

	/* a 4-byte header followed by data: the quote holds the header only */
	uint8_t img[64];
	memcpy(img, empty, 10);
	img[8] = 4;
	memcpy(img + 10, "abcdEFGHIJKLMNOPQRSTUVWXYZ0123456789", 36);
	CHECK(rung_npy_parse(&a, img, 46, "d.npy") < 0);
	CHECK_STR(rung_error_last(), "d.npy: header is not a dict: 'abcd'");
	memcpy(img + 10, "{ x:EFGHIJKLMNOPQRSTUVWXYZ0123456789", 36);
	CHECK(rung_npy_parse(&a, img, 46, "k.npy") < 0);
	CHECK_STR(rung_error_last(), "k.npy: header: expected a quoted key at 'x:'");
	/* a header byte that is not printable is shown escaped */
	memcpy(img + 10, "\x1b[2JEFGH", 8);
	CHECK(rung_npy_parse(&a, img, 46, "e.npy") < 0);
	CHECK_STR(rung_error_last(), "e.npy: header is not a dict: '\\x1b[2J'");
}

int main(void)
{
	T_RUN(t_numpy_fixture);
	T_RUN(t_versions_and_variants);
	T_RUN(t_errors);
	T_RUN(t_header_quote_bounded);
	return t_done();
}
