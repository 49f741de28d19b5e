/* The L2 flush before every bench sample (gpu/worker/bench.c, compare.c,
 * profile.c): a read sweep over a zeroed scratch buffer of twice the L2
 * size. A memset flush (cuMemsetD32Async) leaves the L2 full of DIRTY lines of
 * the scratch buffer, and the timed kernel then pays for writing them back to
 * DRAM: memory-bound kernels read about 13% slow against ncu (57.5 us vs 50.7 us
 * for a 128 MB copy on the H200). Reading leaves only clean lines, as ncu's own
 * flush does, and evicts the previous sample's dirty lines (their write-back
 * happens during the sweep, before the measured window opens).
 *
 * The sweep is embedded PTX for compute_75 (JIT-compiled by the driver once per
 * process, a few ms: no NVRTC in the worker). Each thread reads float4s with
 * ld.global.cg (cached in L2, not L1), sums them, and stores the sum only when
 * it is not zero: the buffer is all zeros, so the store never happens, but the
 * compiler cannot drop the loads. If the module cannot be loaded, the flush falls
 * back to the memset (and says so on stderr). Source of the PTX (nvcc -ptx
 * -arch=compute_75, .version lowered to 7.0):
 *
 *   extern "C" __global__ void rung_l2_sweep(const float4 *__restrict__ p,
 *           unsigned long long n4, float *sink)
 *   {
 *       float acc = 0.f;
 *       unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
 *       for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x
 *            + threadIdx.x; i < n4; i += stride) {
 *           float4 v = __ldcg(p + i);
 *           acc += v.x + v.y + v.z + v.w;
 *       }
 *       if (acc != 0.f)
 *           *sink = acc;
 *   }
 *
 * Diagnostic only (docs/ARCHITECTURE.md): RUNG_FLUSH=sweep|memset|none picks the
 * flush (default sweep); any other value warns on stderr and keeps the sweep.
 * RUNG_FLUSH_GAP_US=N (diagnostic too) waits for the flush to finish and then
 * N microseconds with the GPU idle before the timed launch, as a profiler's
 * serialized replay does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/worker/flush.h"

static const char sweep_ptx[] =
	".version 7.0\n"
	".target sm_75\n"
	".address_size 64\n"
	"	// .globl	rung_l2_sweep\n"
	".visible .entry rung_l2_sweep(\n"
	"	.param .u64 rung_l2_sweep_param_0,\n"
	"	.param .u64 rung_l2_sweep_param_1,\n"
	"	.param .u64 rung_l2_sweep_param_2\n"
	")\n"
	"{\n"
	"	.reg .pred 	%p<4>;\n"
	"	.reg .f32 	%f<15>;\n"
	"	.reg .b32 	%r<5>;\n"
	"	.reg .b64 	%rd<16>;\n"
	"	ld.param.u64 	%rd6, [rung_l2_sweep_param_0];\n"
	"	ld.param.u64 	%rd7, [rung_l2_sweep_param_1];\n"
	"	ld.param.u64 	%rd8, [rung_l2_sweep_param_2];\n"
	"	mov.u32 	%r1, %ntid.x;\n"
	"	cvt.u64.u32 	%rd1, %r1;\n"
	"	mov.u32 	%r2, %ctaid.x;\n"
	"	mul.wide.u32 	%rd9, %r2, %r1;\n"
	"	mov.u32 	%r3, %tid.x;\n"
	"	cvt.u64.u32 	%rd10, %r3;\n"
	"	add.s64 	%rd15, %rd9, %rd10;\n"
	"	setp.ge.u64 	%p1, %rd15, %rd7;\n"
	"	mov.f32 	%f14, 0f00000000;\n"
	"	@%p1 bra 	$L__BB0_3;\n"
	"	mov.u32 	%r4, %nctaid.x;\n"
	"	cvt.u64.u32 	%rd11, %r4;\n"
	"	mul.lo.s64 	%rd3, %rd11, %rd1;\n"
	"	mov.f32 	%f14, 0f00000000;\n"
	"$L__BB0_2:\n"
	"	shl.b64 	%rd13, %rd15, 4;\n"
	"	add.s64 	%rd12, %rd6, %rd13;\n"
	"	// begin inline asm\n"
	"	ld.global.cg.v4.f32 {%f6,%f7,%f8,%f9}, [%rd12];\n"
	"	// end inline asm\n"
	"	add.f32 	%f10, %f6, %f7;\n"
	"	add.f32 	%f11, %f8, %f10;\n"
	"	add.f32 	%f12, %f9, %f11;\n"
	"	add.f32 	%f14, %f14, %f12;\n"
	"	add.s64 	%rd15, %rd15, %rd3;\n"
	"	setp.lt.u64 	%p2, %rd15, %rd7;\n"
	"	@%p2 bra 	$L__BB0_2;\n"
	"$L__BB0_3:\n"
	"	setp.eq.f32 	%p3, %f14, 0f00000000;\n"
	"	@%p3 bra 	$L__BB0_5;\n"
	"	cvta.to.global.u64 	%rd14, %rd8;\n"
	"	st.global.f32 	[%rd14], %f14;\n"
	"$L__BB0_5:\n"
	"	ret;\n"
	"}\n"
	/* rung's empty kernel (one block of 32 threads): the records' launch floor (bench.c) */
	".visible .entry rung_empty()\n"
	"{\n"
	"	ret;\n"
	"}\n";

static CUmodule sweep_mod;
static CUfunction sweep_fn, empty_fn;
static bool sweep_tried;
static unsigned sweep_blocks;

static void sweep_load(rung_wctx *c)
{
	sweep_tried = true;
	CUresult r = rung_cu.cuModuleLoadData(&sweep_mod, sweep_ptx);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuModuleGetFunction(&sweep_fn, sweep_mod, "rung_l2_sweep");
	if (r != CUDA_SUCCESS) {
		char d[160];
		rung_cu_describe(d, sizeof(d), r);
		fprintf(stderr, "rung worker: L2 read-sweep kernel unavailable (%s); flushing with memset\n", d);
		sweep_fn = NULL;
		return;
	}
	if (rung_cu.cuModuleGetFunction(&empty_fn, sweep_mod, "rung_empty") != CUDA_SUCCESS)
		empty_fn = NULL;
	int sms = c->env.sms > 0 ? c->env.sms : 132;
	sweep_blocks = (unsigned)sms * 4;
}

bool rung__flush_ready(rung_wctx *c)
{
	if (c->flush)
		return true;
	size_t want = (size_t)(c->l2_bytes > 0 ? c->l2_bytes : 64 << 20) * 2;
	want = (want + 255) & ~(size_t)255;
	if (rung_cu.cuMemAlloc(&c->flush, want) != CUDA_SUCCESS) {
		c->flush = 0;
		return false;
	}
	/* zeros: the sweep's sum is 0 and its store never runs */
	if (rung_cu.cuMemsetD8(c->flush, 0, want) != CUDA_SUCCESS) {
		rung_cu.cuMemFree(c->flush);
		c->flush = 0;
		return false;
	}
	c->flush_bytes = want;
	if (!sweep_tried)
		sweep_load(c);
	return true;
}

typedef enum { FLUSH_SWEEP, FLUSH_MEMSET, FLUSH_NONE } flush_mode;

static flush_mode mode_of_env(void)
{
	static int mode = -1;
	if (mode >= 0)
		return (flush_mode)mode;
	const char *e = getenv("RUNG_FLUSH");
	mode = FLUSH_SWEEP;
	if (e && *e) {
		if (!strcmp(e, "memset"))
			mode = FLUSH_MEMSET;
		else if (!strcmp(e, "none"))
			mode = FLUSH_NONE;
		else if (strcmp(e, "sweep") != 0)
			fprintf(stderr, "rung worker: RUNG_FLUSH=%.40s is not sweep, memset or none; using sweep\n", e);
	}
	return (flush_mode)mode;
}

static long gap_us_of_env(void)
{
	static long gap = -1;
	if (gap < 0) {
		const char *e = getenv("RUNG_FLUSH_GAP_US");
		gap = e && *e ? strtol(e, NULL, 10) : 0;
		if (gap < 0 || gap > 1000000)
			gap = 0;
	}
	return gap;
}

static CUresult flush_issue(rung_wctx *c)
{
	flush_mode m = mode_of_env();
	if (m == FLUSH_NONE)
		return CUDA_SUCCESS;
	if (!sweep_fn || m == FLUSH_MEMSET)
		return rung_cu.cuMemsetD32Async(c->flush, 0, c->flush_bytes / 4, c->stream);
	CUdeviceptr p = c->flush;
	unsigned long long n4 = c->flush_bytes / 16;
	CUdeviceptr sink = c->flush; /* never written (see above) */
	void *params[3] = { &p, &n4, &sink };
	return rung_cu.cuLaunchKernel(sweep_fn, sweep_blocks, 1, 1, 512, 1, 1, 0, c->stream, params, NULL);
}

CUresult rung__flush_l2(rung_wctx *c)
{
	CUresult r = flush_issue(c);
	long gap = gap_us_of_env();
	if (r != CUDA_SUCCESS || gap == 0)
		return r;
	r = rung_cu.cuStreamSynchronize(c->stream);
	struct timespec ts = { gap / 1000000, (gap % 1000000) * 1000 };
	nanosleep(&ts, NULL);
	return r;
}

CUresult rung__empty_launch(rung_wctx *c)
{
	if (!empty_fn)
		return CUDA_ERROR_NOT_FOUND;
	return rung_cu.cuLaunchKernel(empty_fn, 1, 1, 1, 32, 1, 1, 0, c->stream, NULL, NULL);
}
