/* Theoretical occupancy: how many blocks of a kernel fit on one SM at once,
 * and what bounds them, from the launch geometry and the compiled kernel's
 * resources. The rules follow the CUDA occupancy calculator
 * (cuda_occupancy.h): warps are allocated per block as ceil(threads / 32);
 * registers per warp as regs * 32 rounded up to 256, packed per SM
 * sub-partition (4 per SM); shared memory per block as static + dynamic +
 * the per-block reservation (1 KiB on sm_80+) rounded up to 128 B, against
 * the whole per-SM capacity (the default carveout prefers shared memory once
 * a kernel uses it). Dynamic shared memory beyond 48 KiB is assumed opted in
 * (the worker sets CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES). */
#ifndef RUNG_CORE_OCCUPANCY_H
#define RUNG_CORE_OCCUPANCY_H

#include <stdint.h>

/* Per-architecture limits (one SM). */
typedef struct {
	const char *name;          /* "sm_90" */
	int sm;                    /* 90 */
	int max_warps;             /* resident warps per SM (threads / 32) */
	int max_blocks;            /* resident blocks per SM */
	int regs_per_sm;           /* 32-bit registers per SM */
	int regs_per_block;        /* 32-bit registers per block */
	int max_regs_thread;       /* per thread */
	int reg_unit;              /* register allocation unit per warp */
	int subpartitions;         /* register file partitions per SM */
	int64_t smem_per_sm;       /* bytes of shared memory per SM (max carveout) */
	int64_t smem_per_block;    /* bytes per block, opted in (static + dynamic) */
	int64_t smem_reserved;     /* bytes the system reserves per block */
	int smem_unit;             /* shared memory allocation unit, bytes */
	int barriers_per_block;    /* hardware barriers per resident block slot (0: no limit modelled) */
} rung_occ_arch;

/* "sm_90", "sm_90a", "compute_90" -> the table entry; NULL when unknown. */
const rung_occ_arch *rung_occ_arch_find(const char *arch);

/* What bounds the blocks per SM. */
typedef enum {
	RUNG_OCC_THREADS,  /* resident warps per SM */
	RUNG_OCC_REGS,     /* registers */
	RUNG_OCC_SMEM,     /* shared memory */
	RUNG_OCC_BLOCKS,   /* resident blocks per SM */
	RUNG_OCC_BARRIERS, /* hardware barriers (sm_90) */
} rung_occ_limit;

const char *rung_occ_limit_name(rung_occ_limit l); /* "threads", "registers", "smem", "blocks", "barriers" */

typedef struct {
	int threads;          /* threads per block (block.x * block.y * block.z) */
	int regs;             /* registers per thread (ptxas) */
	int64_t static_smem;  /* bytes (ptxas) */
	int64_t dynamic_smem; /* bytes (launch) */
	int barriers;         /* named barriers used (ptxas); 0 = none or unknown */
} rung_occ_input;

typedef struct {
	int blocks;           /* resident blocks per SM (0: the block cannot launch) */
	int warps;            /* active warps per SM = blocks * warps_per_block */
	int warps_per_block;
	int max_warps;        /* the architecture's resident warps per SM */
	double pct;           /* 100 * warps / max_warps */
	rung_occ_limit limit; /* what bounds `blocks` (ties: earliest in the enum) */
	/* blocks each resource alone allows (INT32_MAX: no bound) */
	int by_threads, by_regs, by_smem, by_blocks, by_barriers;
	int regs_per_block;     /* allocated */
	int64_t smem_per_block; /* allocated, reservation included */
} rung_occupancy;

/* Computes the theoretical occupancy of in on arch. RUNG_ENOTFOUND for an
 * unknown arch, RUNG_EINVAL for impossible input (threads outside 1..1024,
 * negative sizes). A kernel whose block cannot be resident at all (too many
 * registers or too much shared memory per block) is not an error: blocks 0,
 * with the limit that prevents it. */
int rung_occupancy_calc(rung_occupancy *out, const char *arch, const rung_occ_input *in);

#endif
