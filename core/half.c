/* Software f16/bf16 conversions: the code is core/half_hd.h, shared with
 * rung's device kernels. One rounding routine narrows a double to a small
 * binary format with `ebits` exponent and `mbits` fraction bits. */
#include "core/half.h"

#include "core/half_hd.h"

static uint16_t narrow(double x, int ebits, int mbits)
{
	return rung_hd_narrow(x, ebits, mbits);
}

uint16_t rung_f64_to_f16(double x)
{
	return narrow(x, 5, 10);
}

uint16_t rung_f32_to_f16(float x)
{
	return narrow((double)x, 5, 10);
}

uint16_t rung_f64_to_bf16(double x)
{
	return narrow(x, 8, 7);
}

uint16_t rung_f32_to_bf16(float x)
{
	return narrow((double)x, 8, 7);
}

float rung_f16_to_f32(uint16_t h)
{
	return rung_hd_f16_to_f32(h);
}

double rung_f16_to_f64(uint16_t h)
{
	return (double)rung_f16_to_f32(h);
}

float rung_bf16_to_f32(uint16_t h)
{
	return rung_hd_bf16_to_f32(h);
}

double rung_bf16_to_f64(uint16_t h)
{
	return (double)rung_bf16_to_f32(h);
}
