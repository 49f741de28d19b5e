/* .npy files (core/npy.c): parsed from memory, and loaded from a file (a
 * memfd, through /proc/self/fd) as `init = npy:` and golden outputs are. A
 * parsed array holds exactly its shape's bytes and checks against itself. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "core/err.h"
#include "core/npy.h"
#include "core/rng.h"
#include "fuzz.h"

static void check(const rung_npy *a, const char *path)
{
	FUZZ_ASSERT(a->rank >= 0 && a->rank <= RUNG_MAX_RANK);
	int64_t n = 1;
	for (int d = 0; d < a->rank; d++)
		n *= a->shape[d];
	FUZZ_ASSERT(n == a->n);
	FUZZ_ASSERT(a->nbytes == (size_t)a->n * rung_dt_size(a->dtype));
	rung_dtype dt = a->raw16 ? RUNG_DT_BF16 : a->dtype;
	FUZZ_ASSERT(rung_npy_expect(a, path, "X", dt, a->rank, a->shape) == 0);
	int64_t other[RUNG_MAX_RANK] = { 0 };
	FUZZ_ASSERT(rung_npy_expect(a, path, "X", dt, a->rank == RUNG_MAX_RANK ? 0 : a->rank + 1, other) < 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	rung_npy a;
	if (rung_npy_parse(&a, data, size, "fuzz.npy") == 0) {
		check(&a, "fuzz.npy");
		rung_npy_clear(&a);
	}
	rung_error_clear();

	static int fd = -1;
	static char path[64];
	if (fd < 0) {
		fd = memfd_create("fuzz.npy", 0);
		if (fd < 0)
			abort();
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();
	if (rung_npy_load(&a, path) == 0) {
		check(&a, path);
		rung_npy_clear(&a);
	}
	rung_error_clear();
	return 0;
}
