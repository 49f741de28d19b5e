/* NumPy .npy files (format versions 1.0, 2.0 and 3.0), little-endian, C order.
 * Supported descr: '<f8' f64, '<f4' f32, '<f2' f16, '<i8' i64, '<i4' i32,
 * '|u1' (or '<u1') u8. NumPy has no bfloat16: rung writes bf16 as '<u2' (the raw
 * bits) and reads '<u2' or '<V2' as raw 16-bit data that only matches a bf16
 * argument (rung_npy_expect). Big-endian data and fortran_order True are errors. */
#ifndef RUNG_CORE_NPY_H
#define RUNG_CORE_NPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/spec.h"

typedef struct {
	rung_dtype dtype;  /* for '<u2'/'<V2': RUNG_DT_BF16 with raw16 set */
	bool raw16;        /* data are raw 16-bit words ('<u2' or '<V2') */
	char descr[16];    /* as written in the header */
	int version;       /* 1, 2 or 3 */
	int rank;
	int64_t shape[RUNG_MAX_RANK];
	int64_t n;         /* elements (1 for rank 0) */
	size_t nbytes;
	void *data;        /* owned, n elements */
} rung_npy;

/* Loads a file. Errors name the file: "x.npy: unsupported dtype '>f4' (big-endian)". */
int rung_npy_load(rung_npy *out, const char *path);
/* Parses an in-memory image; `name` is used in messages. */
int rung_npy_parse(rung_npy *out, const void *buf, size_t len, const char *name);
/* Writes a version 1.0 file (2.0 if the header would not fit). */
int rung_npy_save(const char *path, rung_dtype dt, int rank, const int64_t *shape, const void *data);
void rung_npy_clear(rung_npy *a);

/* Checks an array against an argument's dtype and dims:
 * "w.npy: arg W expects f32 (64,32), file has f16 (64,32)". */
int rung_npy_expect(const rung_npy *a, const char *path, const char *argname, rung_dtype dt, int rank,
		    const int64_t *dims);

/* The descr for a dtype ("<f4"), bf16 -> "<u2". */
const char *rung_npy_descr(rung_dtype dt);

#endif
