/* Code compiled for both the host (C11) and rung's own device kernels (NVRTC,
 * gpu/kernels/check.cu): the qualifier RUNG_HD, the fixed-width types and bit
 * casts. A header that includes this one defines only `static` RUNG_HD
 * functions and plain-old-data types, and uses only operations that round the
 * same on both sides: integer arithmetic, and + - * / sqrt and conversions in
 * IEEE double/float (correctly rounded everywhere) with no contraction into
 * FMA (the host compiles with -ffp-contract=off, NVRTC with --fmad=false:
 * CMakeLists.txt). No libm function besides sqrt, fabs, floor, ceil and rint
 * (all exact or correctly rounded on both sides). */
#ifndef RUNG_CORE_HD_H
#define RUNG_CORE_HD_H

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define RUNG_HD_DEVICE 1
#define RUNG_HD static __device__ __forceinline__
#ifdef __CUDACC_RTC__
/* NVRTC without the CUDA headers: the fixed-width types by hand (LP64 widths) */
typedef unsigned long long uint64_t;
typedef long long int64_t;
typedef unsigned int uint32_t;
typedef int int32_t;
typedef unsigned short uint16_t;
typedef unsigned char uint8_t;
#define UINT64_C(x) x##ULL
#define INT64_C(x) x##LL
#endif
static __device__ __forceinline__ uint64_t rung_hd_dbits(double x) { return (uint64_t)__double_as_longlong(x); }
static __device__ __forceinline__ double rung_hd_bitsd(uint64_t u) { return __longlong_as_double((long long)u); }
static __device__ __forceinline__ uint32_t rung_hd_fbits(float x) { return (uint32_t)__float_as_int(x); }
static __device__ __forceinline__ float rung_hd_bitsf(uint32_t u) { return __int_as_float((int)u); }
#else
#include <math.h>
#include <stdint.h>
#include <string.h>
#define RUNG_HD_DEVICE 0
#define RUNG_HD static inline
static inline uint64_t rung_hd_dbits(double x) { uint64_t u; memcpy(&u, &x, 8); return u; }
static inline double rung_hd_bitsd(uint64_t u) { double x; memcpy(&x, &u, 8); return x; }
static inline uint32_t rung_hd_fbits(float x) { uint32_t u; memcpy(&u, &x, 4); return u; }
static inline float rung_hd_bitsf(uint32_t u) { float x; memcpy(&x, &u, 4); return x; }
#endif

/* rung_dtype's codes (core/spec.h; checked there by a static assertion in core/rng.c) */
enum { RUNG_HD_F64, RUNG_HD_F32, RUNG_HD_F16, RUNG_HD_BF16, RUNG_HD_I64, RUNG_HD_I32, RUNG_HD_U8 };

RUNG_HD int rung_hd_dt_size(int dt)
{
	return dt == RUNG_HD_F64 || dt == RUNG_HD_I64 ? 8 : dt == RUNG_HD_F32 || dt == RUNG_HD_I32 ? 4 : dt == RUNG_HD_U8 ? 1 : 2;
}

RUNG_HD int rung_hd_is_float(int dt)
{
	return dt == RUNG_HD_F64 || dt == RUNG_HD_F32 || dt == RUNG_HD_F16 || dt == RUNG_HD_BF16;
}

RUNG_HD double rung_hd_inf(void) { return rung_hd_bitsd(UINT64_C(0x7ff0000000000000)); }
RUNG_HD int rung_hd_isnan(double x) { return x != x; }
RUNG_HD int rung_hd_isinf(double x) { return (rung_hd_dbits(x) & ~(UINT64_C(1) << 63)) == UINT64_C(0x7ff0000000000000); }
RUNG_HD double rung_hd_fabs(double x) { return rung_hd_bitsd(rung_hd_dbits(x) & ~(UINT64_C(1) << 63)); }

/* Element i of a buffer as raw bits (es bytes, little-endian, zero-extended)
 * and back; buffers are aligned to their element size. */
RUNG_HD uint64_t rung_hd_load_bits(const void *p, int es, int64_t i)
{
	switch (es) {
	case 8: return ((const uint64_t *)p)[i];
	case 4: return ((const uint32_t *)p)[i];
	case 2: return ((const uint16_t *)p)[i];
	default: return ((const uint8_t *)p)[i];
	}
}

RUNG_HD void rung_hd_store_bits(void *p, int es, int64_t i, uint64_t v)
{
	switch (es) {
	case 8: ((uint64_t *)p)[i] = v; return;
	case 4: ((uint32_t *)p)[i] = (uint32_t)v; return;
	case 2: ((uint16_t *)p)[i] = (uint16_t)v; return;
	default: ((uint8_t *)p)[i] = (uint8_t)v; return;
	}
}

#endif
