/* Modules, launch geometry and launches inside the worker (gpu/worker/launch.h):
 * what the job, the bench, compare and the profile rungs share to load a kernel
 * and launch it. */
#include "gpu/worker/launch.h"

#include <inttypes.h>
#include <string.h>

#include "core/half.h"
#include "gpu/worker/report.h"

int rung__load_fn(rung_wjob *j, const void *img, size_t len, const rung_plan_kernel *kn, CUmodule *mod,
		   CUfunction *fn, int *static_smem, char *reason, size_t rlen)
{
	(void)len;
	char d[256];
	CUresult r = rung_cu.cuModuleLoadData(mod, img);
	if (r != CUDA_SUCCESS) {
		rung_cu_describe(d, sizeof(d), r);
		rung__sfmt(reason, rlen, "cannot load the CUBIN of %s: %s", kn->file, d);
		j->fatal = rung_cu_is_sticky(r);
		return 1;
	}
	r = rung_cu.cuModuleGetFunction(fn, *mod, kn->lowered);
	if (r != CUDA_SUCCESS) {
		rung_cu_describe(d, sizeof(d), r);
		rung__sfmt(reason, rlen, "entry '%s' (%s) not found in the CUBIN of %s: %s", kn->name, kn->lowered, kn->file, d);
		return 1;
	}
	*static_smem = 0;
	rung_cu.cuFuncGetAttribute(static_smem, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, *fn);
	return 0;
}

/* Checks every shape's geometry against the device and the function, and opts in
 * to more than 48 KiB of dynamic shared memory when needed. */
int rung__check_geometry(rung_wjob *j, CUfunction fn, int static_smem, bool ref, const char *name, char *reason,
			  size_t rlen)
{
	const rung_plan *p = j->p;
	rung_wctx *c = j->c;
	int fn_threads = 0, regs = 0;
	rung_cu.cuFuncGetAttribute(&fn_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn);
	rung_cu.cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
	int64_t max_dyn = 0;
	for (int s = 0; s < p->nshapes; s++) {
		const rung_geom *g = ref ? &p->shapes[s].ref_geom : &p->shapes[s].geom;
		char dims[256] = "";
		if (!p->shapes[s].bench) {
			char ds[240];
			rung_dimset_format(ds, sizeof(ds), &p->shapes[s].dims);
			rung__sfmt(dims, sizeof(dims), " at %s", ds);
		}
		int64_t threads = g->block[0] * g->block[1] * g->block[2];
		if (c->max_block_threads > 0 && threads > c->max_block_threads) {
			rung__sfmt(reason, rlen, "bad launch geometry for %s: block (%" PRId64 ",%" PRId64 ",%" PRId64 ") is %" PRId64
				 " threads, the device allows %d%s",
				 name, g->block[0], g->block[1], g->block[2], threads, c->max_block_threads, dims);
			return 1;
		}
		if (fn_threads > 0 && threads > fn_threads) {
			rung__sfmt(reason, rlen, "bad launch geometry for %s: block of %" PRId64 " threads, but the kernel can launch at most %d (__launch_bounds__, or %d registers per thread)%s",
				 name, threads, fn_threads, regs, dims);
			return 1;
		}
		if (c->smem_optin > 0 && g->smem + static_smem > c->smem_optin) {
			rung__sfmt(reason, rlen, "bad launch geometry for %s: smem %" PRId64 " bytes dynamic + %d static exceeds the device's %d bytes per block%s",
				 name, g->smem, static_smem, c->smem_optin, dims);
			return 1;
		}
		if (g->smem > max_dyn)
			max_dyn = g->smem;
	}
	if (max_dyn + static_smem > 48 * 1024) {
		CUresult r = rung_cu.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)max_dyn);
		if (r != CUDA_SUCCESS) {
			char d[200];
			rung_cu_describe(d, sizeof(d), r);
			rung__sfmt(reason, rlen, "bad launch geometry for %s: cannot allow %" PRId64 " bytes of dynamic shared memory: %s",
				 name, max_dyn, d);
			return 1;
		}
	}
	return 0;
}

/* --- launches ------------------------------------------------------------------ */

CUresult rung__launch(rung_wctx *c, CUfunction f, const rung_geom *g, void **params)
{
	return rung_cu.cuLaunchKernel(f, (unsigned)g->grid[0], (unsigned)g->grid[1], (unsigned)g->grid[2],
				      (unsigned)g->block[0], (unsigned)g->block[1], (unsigned)g->block[2],
				      (unsigned)g->smem, c->stream, params, NULL);
}

/* --- scratch arguments ---------------------------------------------------------- */

static CUdeviceptr scratch_buf[RUNG_MAX_ARGS];
static size_t scratch_size[RUNG_MAX_ARGS];

int rung__scratch_ready(rung_wjob *j, const rung_plan *p, char *reason, size_t rlen)
{
	for (int i = 0; i < p->nargs && i < RUNG_MAX_ARGS; i++) {
		if (!p->args[i].scratch)
			continue;
		int64_t need = 0;
		for (int s = 0; s < p->nshapes; s++)
			if (p->shapes[s].scratch_bytes[i] > need)
				need = p->shapes[s].scratch_bytes[i];
		if (need <= (int64_t)scratch_size[i])
			continue;
		if (scratch_buf[i])
			rung_cu.cuMemFree(scratch_buf[i]);
		scratch_buf[i] = 0;
		scratch_size[i] = 0;
		CUresult r = rung_cu.cuMemAlloc(&scratch_buf[i], (size_t)need);
		if (r != CUDA_SUCCESS) {
			char d[200], b[32];
			scratch_buf[i] = 0;
			rung_cu_describe(d, sizeof(d), r);
			rung__fmt_bytes(b, sizeof(b), (double)need);
			rung__sfmt(reason, rlen, "no device memory for scratch argument %s (%s): %s", p->args[i].name, b, d);
			j->fatal = rung_cu_is_sticky(r);
			return 1;
		}
		scratch_size[i] = (size_t)need;
	}
	return 0;
}

CUresult rung__scratch_zero(CUstream st)
{
	CUresult r = CUDA_SUCCESS;
	for (int i = 0; i < RUNG_MAX_ARGS && r == CUDA_SUCCESS; i++)
		if (scratch_buf[i])
			r = rung_cu.cuMemsetD8Async(scratch_buf[i], 0, scratch_size[i], st);
	return r;
}

void rung__scratch_release(bool free_them)
{
	for (int i = 0; i < RUNG_MAX_ARGS; i++) {
		if (scratch_buf[i] && free_them)
			rung_cu.cuMemFree(scratch_buf[i]);
		scratch_buf[i] = 0;
		scratch_size[i] = 0;
	}
}

void rung__scalar_param(rung_kparam *kp, const rung_plan *p, const rung_plan_shape *sh, int i)
{
	memset(kp, 0, sizeof(*kp));
	if (p->args[i].scratch) { /* null for 0 bytes (and, never, an unready buffer) */
		if (sh->scratch_bytes[i] > 0 && (size_t)sh->scratch_bytes[i] <= scratch_size[i])
			kp->p = scratch_buf[i];
		return;
	}
	switch (p->args[i].dtype) {
	case RUNG_DT_F64: kp->f64 = sh->fval[i]; break;
	case RUNG_DT_F32: kp->f32 = (float)sh->fval[i]; break;
	case RUNG_DT_F16: kp->h16 = rung_f64_to_f16(sh->fval[i]); break;
	case RUNG_DT_BF16: kp->h16 = rung_f64_to_bf16(sh->fval[i]); break;
	case RUNG_DT_I64: kp->i64 = sh->ival[i]; break;
	case RUNG_DT_I32: kp->i32 = (int32_t)sh->ival[i]; break;
	case RUNG_DT_U8: kp->u8 = (uint8_t)sh->ival[i]; break;
	default: break;
	}
}

CUresult rung__stream_create(CUstream *st, unsigned flags, bool first)
{
	int least = 0, greatest = 0;
	if (rung_cu.cuStreamCreateWithPriority && rung_cu.cuCtxGetStreamPriorityRange &&
	    rung_cu.cuCtxGetStreamPriorityRange(&least, &greatest) == CUDA_SUCCESS)
		return rung_cu.cuStreamCreateWithPriority(st, flags, first ? greatest : least);
	return rung_cu.cuStreamCreate(st, flags);
}
