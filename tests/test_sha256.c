/* SHA-256 against the FIPS 180-2 / NIST test vectors. */
#include "harness.h"

#include <stdlib.h>

#include "core/sha256.h"

static void test_vectors(void)
{
	char hex[65];
	rung_sha256_hex(hex, "", 0);
	CHECK_STR(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	rung_sha256_hex(hex, "abc", 3);
	CHECK_STR(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	rung_sha256_hex(hex, m448, strlen(m448));
	CHECK_STR(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	const char *m896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";
	rung_sha256_hex(hex, m896, strlen(m896));
	CHECK_STR(hex, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void test_million_a(void)
{
	/* one million 'a', fed in uneven pieces to exercise buffering */
	char *a = malloc(1000000);
	memset(a, 'a', 1000000);
	rung_sha256_ctx c;
	rung_sha256_init(&c);
	size_t off = 0, step = 1;
	while (off < 1000000) {
		size_t n = step < 1000000 - off ? step : 1000000 - off;
		rung_sha256_update(&c, a + off, n);
		off += n;
		step = step * 3 % 1021 + 1;
	}
	char hex[65];
	rung_sha256_final_hex(&c, hex);
	CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
}

static void test_boundaries(void)
{
	/* 55, 56, 63, 64 bytes: padding crosses into a second block at 56 */
	char buf[64];
	memset(buf, 'x', sizeof(buf));
	char one[65], split[65];
	for (size_t n = 54; n <= 64; n++) {
		rung_sha256_hex(one, buf, n);
		rung_sha256_ctx c;
		rung_sha256_init(&c);
		rung_sha256_update(&c, buf, n / 2);
		rung_sha256_update(&c, buf + n / 2, n - n / 2);
		rung_sha256_final_hex(&c, split);
		CHECK_STR(split, one);
	}
	/* values from coreutils sha256sum */
	rung_sha256_hex(one, buf, 64);
	CHECK_STR(one, "7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c");
	rung_sha256_hex(one, buf, 56);
	CHECK_STR(one, "04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e");
}

int main(void)
{
	T_RUN(test_vectors);
	T_RUN(test_million_a);
	T_RUN(test_boundaries);
	return t_done();
}
