/* Shared by the fuzz harnesses (tests/fuzz/fuzz_*.c). Each harness defines
 * LLVMFuzzerTestOneInput; with clang and -DRUNG_FUZZ=ON it links with libFuzzer
 * (-fsanitize=fuzzer,address,undefined), and in every build it also links with
 * tests/fuzz/driver.c, a plain main() that feeds it the seed corpus and the
 * regression inputs (ctest fuzz_regress_*). A harness aborts on a broken
 * invariant, so that the fuzzer reports it as a crash. */
#ifndef RUNG_TESTS_FUZZ_H
#define RUNG_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a C string of exactly size + 1 bytes (a read past its NUL is
 * caught by ASan). Parsers that take C strings stop at an embedded NUL. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *t = malloc(size + 1);
	if (!t)
		abort();
	if (size)
		memcpy(t, data, size);
	t[size] = 0;
	return t;
}

#define FUZZ_ASSERT(cond)                                                                       \
	do {                                                                                    \
		if (!(cond)) {                                                                  \
			fprintf(stderr, "%s:%d: invariant failed: %s\n", __FILE__, __LINE__, #cond); \
			abort();                                                                \
		}                                                                               \
	} while (0)

#endif
