/* The job plan: everything the worker needs to run one version, fully evaluated
 * in the parent (shapes, scalar values, launch geometry per dim set), so the
 * worker never parses a spec. Travels as the JSON header of a "job" message
 * (docs/ARCHITECTURE.md, "Worker protocol"). */
#ifndef RUNG_GPU_PLAN_H
#define RUNG_GPU_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include "core/spec.h"

#define RUNG_PLAN_MAX_SHAPES (RUNG_MAX_CHECK_SETS + 2)
#define RUNG_PLAN_MAX_SEEDS 64

typedef struct {
	char name[RUNG_NAME_MAX];
	rung_arg_kind kind;
	rung_dtype dtype;
	rung_init_kind init;
	double a, b;
	char npy[1024];    /* init = npy */
	char golden[1024]; /* outputs: golden .npy standing in for the reference at the benchmark shape */
	/* kind = scratch (kept as a scalar i64): the worker passes a zero-filled
	 * buffer of the shape's scratch_bytes, or a null pointer for 0. The spec's
	 * own, or one the kernel's sidecar added after them (rung_launch.scratch). */
	bool scratch;
} rung_plan_arg;

typedef struct {
	rung_dimset dims;
	bool bench; /* the benchmark shape (the last one) */
	int rank[RUNG_MAX_ARGS];
	int64_t extent[RUNG_MAX_ARGS][RUNG_MAX_RANK];
	int64_t numel[RUNG_MAX_ARGS];
	int64_t ival[RUNG_MAX_ARGS]; /* scalars */
	double fval[RUNG_MAX_ARGS];
	int64_t scratch_bytes[RUNG_MAX_ARGS]; /* scratch arguments: bytes of their buffer, 0 = a null pointer */
	rung_geom geom, ref_geom;
} rung_plan_shape;

typedef struct {
	char name[256];    /* entry as written: "sgemm<128,8>" */
	char lowered[512]; /* mangled name to look up in the CUBIN */
	char file[256];
} rung_plan_kernel;

typedef struct {
	rung_plan_kernel kernel, ref;
	bool has_ref;
	int nargs;
	rung_plan_arg args[RUNG_MAX_ARGS];
	int nshapes;
	rung_plan_shape shapes[RUNG_PLAN_MAX_SHAPES];
	int nseeds;
	uint64_t base_seed;
	uint64_t seeds[RUNG_PLAN_MAX_SEEDS];
	int ndists;                    /* [check] inputs: 1 (normal only) unless the spec lists more */
	rung_dist dists[RUNG_NDISTS];  /* dists[0] is RUNG_DIST_NORMAL */
	uint32_t special;              /* the values the special distribution draws ([check] special) */
	bool inputs_default;           /* wide was added by default: judged with the lenient tolerance */
	bool has_atol, has_rtol, has_min_psnr, has_min_cossim;
	double atol, rtol, min_psnr, min_cossim;
	bool nondeterministic; /* [check] deterministic = false */
	double flops, bytes; /* [roofline] at the benchmark shape; NAN when absent */
	double budget_s;
	unsigned flags;      /* RUNG_JOB_* */
} rung_plan;

/* Fills *out (caller-allocated; it is large, so heap it) from a spec. kl / rl are
 * the launches of kernel and reference (rung_launch_from_source); the scratch
 * arguments kl's sidecar added (kl->scratch) follow the spec's [arg]s. Shapes: every
 * [check] set that differs from [dims], or with none one odd shape (every dim minus 1, at least 1), then
 * the benchmark shape last. Seeds: spec->seeds derived from base_seed. Errors
 * name file:line (they come from the spec evaluators). */
int rung_plan_build(rung_plan *out, const rung_spec *spec, const rung_launch *kl, const rung_launch *rl,
		    uint64_t base_seed);

json_t *rung_plan_to_json(const rung_plan *p);
/* RUNG_EIO with a message on a malformed plan. */
int rung_plan_from_json(rung_plan *out, const json_t *j);

/* One case of the run and check rungs: shape index, seed index, distribution. */
typedef struct {
	int shape, seed;
	rung_dist dist;
	bool run; /* the run case: the benchmark shape, the first seed, normal */
} rung_plan_case;

#define RUNG_PLAN_MAX_CASES (1 + RUNG_PLAN_MAX_SHAPES * (RUNG_PLAN_MAX_SEEDS + RUNG_NDISTS))

/* The cases the worker runs, in order (docs/CHECKS.md "Which cases run"):
 *   0. the run case: the benchmark shape (the last), seed 0, normal;
 *   then every other shape with every seed, normal (shape by shape);
 *   then for each further distribution in dists order, every other shape with
 *   seed 0 (the benchmark shape when there is no other).
 * Writes up to max cases into out (may be NULL to count) and returns how many
 * there are. */
int rung_plan_cases(const rung_plan *p, rung_plan_case *out, int max);
/* Cuts the plan to what the sanitize rung runs (sanitizers are 10-100x
 * slower): the shape with the fewest elements over all its arguments (the
 * first of equals, in plan order: check sets before the benchmark shape) as the
 * only one, and the first seed. Returns the index the shape had. */
int rung_plan_sanitize(rung_plan *p);
/* Cuts the plan to the sanitize rung's run at the benchmark shape: that
 * shape (the plan's last) as the only one, the first seed and the normal
 * inputs only (one case: the run case). Returns the index rung_plan_sanitize
 * would keep, so that a caller can tell whether the benchmark shape is the
 * smallest one already (then that index is nshapes - 1 before the cut). */
int rung_plan_sanitize_bench(rung_plan *p);
/* The shape rung_plan_sanitize keeps (-1: no shape), without cutting. */
int rung_plan_sanitize_shape(const rung_plan *p);

/* Index of the plan's first output (or inout) argument, -1 when none. */
int rung_plan_first_output(const rung_plan *p);

#endif
