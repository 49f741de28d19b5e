/* IEEE binary16 (f16) and bfloat16 (bf16) conversions, bit-exact.
 * Narrowing rounds to nearest, ties to even, with subnormals, signed zeros,
 * overflow to infinity and NaN kept NaN (sign kept, payload truncated to its
 * top bits, quiet bit forced).
 * f64 -> f16/bf16 rounds ONCE, directly from the double (no double rounding
 * through float). f32 -> f16/bf16 goes through the same code: float -> double
 * is exact, so it is also a single rounding. Widening is always exact. */
#ifndef RUNG_CORE_HALF_H
#define RUNG_CORE_HALF_H

#include <stdint.h>

uint16_t rung_f64_to_f16(double x);
uint16_t rung_f32_to_f16(float x);
float rung_f16_to_f32(uint16_t h);
double rung_f16_to_f64(uint16_t h);

uint16_t rung_f64_to_bf16(double x);
uint16_t rung_f32_to_bf16(float x);
float rung_bf16_to_f32(uint16_t h);
double rung_bf16_to_f64(uint16_t h);

#endif
