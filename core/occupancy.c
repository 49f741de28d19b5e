/* Theoretical occupancy (see core/occupancy.h for the rules). */
#include "core/occupancy.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

/* From the CUDA C++ Programming Guide's table of per-compute-capability limits
 * and cuda_occupancy.h (CUDA 13): sm_80 A100, sm_86 GA10x, sm_89 Ada,
 * sm_90 H100/H200. */
static const rung_occ_arch arches[] = {
	{"sm_80", 80, 64, 32, 65536, 65536, 255, 256, 4, 167936, 166912, 1024, 128, 0},
	{"sm_86", 86, 48, 16, 65536, 65536, 255, 256, 4, 102400, 101376, 1024, 128, 0},
	{"sm_89", 89, 48, 24, 65536, 65536, 255, 256, 4, 102400, 101376, 1024, 128, 0},
	{"sm_90", 90, 64, 32, 65536, 65536, 255, 256, 4, 233472, 232448, 1024, 128, 2},
};

const rung_occ_arch *rung_occ_arch_find(const char *arch)
{
	if (!arch)
		return NULL;
	const char *p = NULL;
	if (!strncmp(arch, "sm_", 3))
		p = arch + 3;
	else if (!strncmp(arch, "compute_", 8))
		p = arch + 8;
	if (!p || !isdigit((unsigned char)p[0]))
		return NULL;
	char *end;
	long sm = strtol(p, &end, 10);
	/* "sm_90a" and "sm_90f" are sm_90 with extra features */
	if (*end && !(isalpha((unsigned char)end[0]) && !end[1]))
		return NULL;
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (arches[i].sm == sm)
			return &arches[i];
	return NULL;
}

const char *rung_occ_limit_name(rung_occ_limit l)
{
	switch (l) {
	case RUNG_OCC_THREADS:
		return "threads";
	case RUNG_OCC_REGS:
		return "registers";
	case RUNG_OCC_SMEM:
		return "smem";
	case RUNG_OCC_BLOCKS:
		return "blocks";
	case RUNG_OCC_BARRIERS:
		return "barriers";
	}
	return "?";
}

static int64_t round_up(int64_t x, int64_t unit)
{
	return (x + unit - 1) / unit * unit;
}

int rung_occupancy_calc(rung_occupancy *out, const char *arch, const rung_occ_input *in)
{
	memset(out, 0, sizeof(*out));
	const rung_occ_arch *a = rung_occ_arch_find(arch);
	if (!a)
		return rung_error_set(RUNG_ENOTFOUND, "occupancy: unknown architecture '%s' (known: sm_80, sm_86, sm_89, sm_90)",
				      arch ? arch : "");
	if (in->threads < 1 || in->threads > 1024)
		return rung_error_set(RUNG_EINVAL, "occupancy: %d threads per block, must be 1..1024", in->threads);
	if (in->regs < 0 || in->static_smem < 0 || in->dynamic_smem < 0 || in->barriers < 0)
		return rung_error_set(RUNG_EINVAL, "occupancy: negative registers, shared memory or barriers");

	int wpb = (in->threads + 31) / 32;
	out->warps_per_block = wpb;
	out->max_warps = a->max_warps;

	/* resident warps */
	out->by_threads = a->max_warps / wpb;
	out->by_blocks = a->max_blocks;

	/* registers: per warp, rounded to the allocation unit, packed per sub-partition */
	/* in 64 bits: a count from a damaged CUBIN or an imported result may be near INT32_MAX */
	int64_t reg_warp = round_up((int64_t)in->regs * 32, a->reg_unit);
	int64_t per_block = reg_warp * wpb;
	out->regs_per_block = per_block > INT32_MAX ? INT32_MAX : (int)per_block;
	/* the hardware checks the block as if its warps were spread over every sub-partition */
	int64_t assumed = reg_warp * round_up(wpb, a->subpartitions);
	if (in->regs > a->max_regs_thread || assumed > a->regs_per_block || per_block > a->regs_per_block)
		out->by_regs = 0;
	else if (reg_warp == 0)
		out->by_regs = INT32_MAX;
	else
		out->by_regs = (int)((a->regs_per_sm / a->subpartitions / reg_warp) * a->subpartitions / wpb);

	/* shared memory: static + dynamic must fit a block; each block also holds the reservation */
	int64_t used = in->static_smem + in->dynamic_smem;
	out->smem_per_block = round_up(used + a->smem_reserved, a->smem_unit);
	if (used > a->smem_per_block)
		out->by_smem = 0;
	else if (out->smem_per_block == 0)
		out->by_smem = INT32_MAX;
	else
		out->by_smem = (int)(a->smem_per_sm / out->smem_per_block);

	out->by_barriers = INT32_MAX;
	if (a->barriers_per_block && in->barriers > 0)
		out->by_barriers = a->max_blocks * a->barriers_per_block / in->barriers;

	const int by[] = {out->by_threads, out->by_regs, out->by_smem, out->by_blocks, out->by_barriers};
	out->blocks = by[0];
	out->limit = RUNG_OCC_THREADS;
	for (int i = 1; i < 5; i++)
		if (by[i] < out->blocks) {
			out->blocks = by[i];
			out->limit = (rung_occ_limit)i;
		}
	out->warps = out->blocks * wpb;
	out->pct = 100.0 * out->warps / a->max_warps;
	return 0;
}
