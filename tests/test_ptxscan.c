/* The PTX evidence scan (core/ptxscan.c) on PTX from real NVRTC compiles of
 * small kernels (no GPU needed), and on hand-written PTX where NVRTC needs
 * options rung does not use (dynamic parallelism needs -rdc). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/err.h"
#include "core/ptxscan.h"
#include "core/result.h"
#include "core/spec.h"
#include "gpu/compile.h"
#include "gpu/worker.h"
#include "harness.h"
#include "app_eval.h"

/* Compiles src (entry k) with rung's own compile path (rung.h built in) and
 * scans its PTX into *s; returns the PTX (caller frees) or NULL. */
static char *scan_src(rung_ptxscan *s, const char *src)
{
	memset(s, 0, sizeof(*s));
	rung_compiled c;
	rung_compile_req req = {.src = src, .file = "k.cu", .entry = "k", .arch = "sm_90"};
	int e = rung_compile(&c, &req);
	CHECK_INT(e, 0);
	if (e) {
		fprintf(stderr, "%s\n", c.log ? c.log : rung_error_last());
		rung_compiled_clear(&c);
		return NULL;
	}
	CHECK_INT(rung_ptxscan_text(s, c.ptx, c.ptx_len), 0);
	char *ptx = strdup(c.ptx);
	rung_compiled_clear(&c);
	return ptx;
}

static void t_counter_incremented(void)
{
	rung_ptxscan s;
	char *ptx = scan_src(&s, "__device__ int calls;\n"
				 "__global__ void k(float *a, int n)\n"
				 "{\n"
				 "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
				 "\tif (threadIdx.x == 0) atomicAdd(&calls, 1);\n"
				 "\tif (i < n) a[i] = 2.0f * a[i];\n"
				 "}\n");
	CHECK_CONTAINS(ptx, ".global .align 4 .u32 calls");
	CHECK_INT(s.nmutable, 1);
	CHECK_STR(s.mutables[0].name, "calls");
	CHECK(s.mutables[0].written);
	CHECK_STR(s.heap_fn, "");
	CHECK_STR(s.launch_fn, "");
	free(ptx);

	/* a plain ++ (ld/st on [calls]) and a launch counter that changes the work */
	ptx = scan_src(&s, "__device__ unsigned launches;\n"
			   "__global__ void k(float *a, int n)\n"
			   "{\n"
			   "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			   "\tif (launches > 0 && i >= n / 2) return;\n"
			   "\tif (i < n) a[i] = 2.0f * a[i];\n"
			   "\tif (i == 0) launches++;\n"
			   "}\n");
	CHECK_CONTAINS(ptx, "[launches]");
	CHECK_INT(s.nmutable, 1);
	CHECK_STR(s.mutables[0].name, "launches");
	CHECK(s.mutables[0].written);
	free(ptx);
}

/* -lineinfo puts a `.loc` line (no ';') before an instruction: the counter of
 * tests/exploits/global_counter, whose atomicAdd goes through a register that
 * a mov right after a .loc loads, was missed on the H200 when the .loc
 * swallowed that mov. */
static void t_loc_before_address(void)
{
	static const char ptx[] =
		".version 9.0\n.target sm_90\n.address_size 64\n"
		".global .align 8 .u64 rows_done;\n"
		".visible .entry k()\n{\n"
		"\t.reg .b64 \t%rd<30>;\n"
		"\t.loc\t1 40 3\n"
		"\tmov.u64 \t%rd28, rows_done;\n"
		"\t.loc\t1 41 3\n"
		"\tatom.global.add.u64 \t%rd29, [%rd28], 1;\n"
		"\tret;\n}\n"
		"\t.file\t1 \"/t/kernel.cu\"\n";
	rung_ptxscan s;
	CHECK_INT(rung_ptxscan_text(&s, ptx, sizeof ptx - 1), 0);
	CHECK_INT(s.nmutable, 1);
	CHECK_STR(s.mutables[0].name, "rows_done");
	CHECK(s.mutables[0].written);
}

/* A __device__ table only read, indexed at run time (its address goes
 * through a register) and at a constant index ([tbl+8]): not mutable. So is a
 * __device__ const array and a __constant__ one. */
/* A namespaced global, a function's static local, a __managed__ one: their
 * C++ names in the reason. */
static void t_names(void)
{
	const char *srcs[][2] = {
		{"namespace ns { __device__ int calls; }\n__global__ void k(float *a) { atomicAdd(&ns::calls, 1); a[0] = 1; }\n",
		 "mutable __device__ global 'ns::calls' (written by the kernel): state can carry over between launches"},
		{"__global__ void k(float *a) { static int count = 0; count++; a[0] = (float)count; }\n",
		 "mutable __device__ global 'k::count' (written by the kernel): state can carry over between launches"},
		{"__managed__ int m;\n__global__ void k(float *a) { m += 1; a[0] = 1; }\n",
		 "mutable __device__ global 'm' (written by the kernel): state can carry over between launches"},
	};
	for (int i = 0; i < 3; i++) {
		rung_ptxscan s;
		char *ptx = scan_src(&s, srcs[i][0]);
		CHECK_INT(s.nmutable, 1);
		rung_result r;
		rung_result_init(&r);
		rung_ptxscan_add_suspects(&r, &s);
		CHECK_STR(r.suspects[0].reason, srcs[i][1]);
		rung_result_clear(&r);
		free(ptx);
	}
}

static void t_table_only_read(void)
{
	rung_ptxscan s;
	char *ptx = scan_src(&s, "__device__ float tbl[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
				 "__device__ const float half_tbl[4] = {0.5f, 1, 1.5f, 2};\n"
				 "__constant__ float ctab[4] = {1, 2, 3, 4};\n"
				 "__global__ void k(float *a, int j)\n"
				 "{\n"
				 "\tint i = threadIdx.x;\n"
				 "\ta[i] = tbl[(i + j) & 7] * half_tbl[j & 3] + tbl[2] + ctab[i & 3];\n"
				 "}\n");
	CHECK_CONTAINS(ptx, ".global .align 4 .b8 tbl[32]");
	CHECK_CONTAINS(ptx, "tbl;"); /* its address is taken (mov.u64 %rd, tbl) */
	CHECK_INT(s.nmutable, 0);
	free(ptx);
}

/* A __device__ cache written through a pointer, and one whose address is
 * passed to a function that writes it. */
static void t_cache_through_pointer(void)
{
	rung_ptxscan s;
	char *ptx = scan_src(&s, "__device__ float cache[1024];\n"
				 "__global__ void k(float *a, int n)\n"
				 "{\n"
				 "\tfloat *p = cache;\n"
				 "\tint i = threadIdx.x;\n"
				 "\tif (i < n) p[i] = a[i] * 3.0f;\n"
				 "\t__syncthreads();\n"
				 "\tif (i < n) a[i] = p[(i + 1) % n];\n"
				 "}\n");
	CHECK_CONTAINS(ptx, ".global .align 4 .b8 cache[4096]");
	CHECK_INT(s.nmutable, 1);
	CHECK_STR(s.mutables[0].name, "cache");
	CHECK(s.mutables[0].written);
	free(ptx);

	ptx = scan_src(&s, "__device__ float memo[64];\n"
			   "__device__ __noinline__ void put(float *p, float v) { *p = v; }\n"
			   "__global__ void k(float *a)\n"
			   "{\n"
			   "\tput(&memo[threadIdx.x & 63], a[threadIdx.x]);\n"
			   "\ta[threadIdx.x] = memo[(threadIdx.x + 1) & 63];\n"
			   "}\n");
	CHECK_CONTAINS(ptx, ".func");
	CHECK_INT(s.nmutable, 1);
	CHECK_STR(s.mutables[0].name, "memo");
	CHECK(!s.mutables[0].written);
	CHECK(s.mutables[0].escapes);
	free(ptx);

	/* the address in another variable's initializer: written through that pointer */
	ptx = scan_src(&s, "__device__ float store4[4];\n"
			   "__device__ float *sp = store4;\n"
			   "__global__ void k(float *a) { sp[threadIdx.x & 3] = a[0]; a[1] = sp[0]; }\n");
	CHECK_CONTAINS(ptx, "store4");
	CHECK_INT(s.nmutable, 1);
	CHECK_STR(s.mutables[0].name, "store4");
	CHECK(s.mutables[0].escapes);
	free(ptx);
}

static void t_malloc(void)
{
	rung_ptxscan s;
	char *ptx = scan_src(&s, "__global__ void k(float *a)\n"
				 "{\n"
				 "\tfloat *p = (float *)malloc(16 * sizeof(float));\n"
				 "\tif (!p) return;\n"
				 "\tp[threadIdx.x & 15] = a[threadIdx.x];\n"
				 "\ta[threadIdx.x] = p[(threadIdx.x + 1) & 15];\n"
				 "\tfree(p);\n"
				 "}\n");
	CHECK_CONTAINS(ptx, "malloc");
	CHECK_STR(s.heap_fn, "malloc");
	CHECK_INT(s.nmutable, 0);
	free(ptx);
	ptx = scan_src(&s, "__global__ void k(float *a)\n"
			   "{\n"
			   "\tfloat *p = (float *)__nv_aligned_device_malloc(64, 16);\n"
			   "\tp[0] = a[0];\n"
			   "\ta[1] = p[0];\n"
			   "}\n");
	CHECK(s.heap_fn[0] != 0);
	free(ptx);
}

/* rung.h's trace macros write __rung_trace: rung's own, not the kernel's state. */
static void t_rung_trace_excluded(void)
{
	rung_ptxscan s;
	char *ptx = scan_src(&s, "#include \"rung.h\"\n"
				 "__global__ void k(float *a, int n)\n"
				 "{\n"
				 "\tRUNG_TRACE_BEGIN(0);\n"
				 "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
				 "\tif (i < n) a[i] += 1.0f;\n"
				 "\tRUNG_TRACE_END(0);\n"
				 "}\n");
	CHECK_CONTAINS(ptx, "atom.global.add.u32");
	CHECK_CONTAINS(ptx, "__rung_trace");
	CHECK_INT(s.nmutable, 0);
	free(ptx);
}

/* The __global__ kernels a CUDA source has, named for an entry not found
 * (#28 D-20): templates by name, a declaration and a definition once,
 * comments and strings skipped, a __device__ function left out. */
static void t_cuda_kernel_names(void)
{
	char b[256];
	CHECK_INT(rung_cuda_kernel_names(b, sizeof(b),
					 "#include <cuda.h>\n"
					 "template <int BM, int BN>\n__global__ void __launch_bounds__(256) tiled(const float *a);\n"
					 "extern \"C\" __global__ void rowsum_warp(const float *__restrict__ x, float *y) { }\n"
					 "// __global__ void commented(float *a) {}\n"
					 "/* __global__ void blocked(float *a) {} */\n"
					 "const char *s = \"__global__ void quoted(\";\n"
					 "__device__ float f(float x) { return x; }\n"
					 "template <int BM, int BN>\n__global__ void __launch_bounds__(256) tiled(const float *a) { }\n"
					 "__global__\nvoid\nlast (int n) {}\n"),
		  3);
	CHECK_STR(b, "tiled, rowsum_warp, last"); /* past __launch_bounds__(256) */
	CHECK_INT(rung_cuda_kernel_names(b, sizeof(b), "__device__ int g(void) { return 0; }\n"), 0);
	CHECK_STR(b, "");
	CHECK_INT(rung_cuda_kernel_names(b, 8, "__global__ void a_long_name(int n) {}\n__global__ void b(int n) {}\n"), 2);
	CHECK(strlen(b) < 8);
}

/* A plain kernel, one with printf (string literals are .global $str), and the
 * task's real sgemm: nothing. */
static void t_plain(void)
{
	rung_ptxscan s;
	char *ptx = scan_src(&s, "__global__ void k(const float *x, float *y, int n)\n"
				 "{\n"
				 "\t__shared__ float t[256];\n"
				 "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
				 "\tt[threadIdx.x] = i < n ? x[i] : 0.0f;\n"
				 "\t__syncthreads();\n"
				 "\tif (i < n) y[i] = t[threadIdx.x ^ 1];\n"
				 "}\n");
	CHECK(ptx != NULL);
	CHECK_INT(s.nmutable, 0);
	CHECK_STR(s.heap_fn, "");
	CHECK_STR(s.launch_fn, "");
	rung_result r;
	rung_result_init(&r);
	CHECK_INT(rung_ptxscan_result(&r, ptx, strlen(ptx)), 0);
	CHECK_INT(r.nsuspects, 0);
	rung_result_clear(&r);
	free(ptx);

	ptx = scan_src(&s, "__global__ void k(float *a)\n"
			   "{\n"
			   "\tif (threadIdx.x == 0) printf(\"%s a[0]=%f\\n\", \"first\", a[0]);\n"
			   "\tassert(a[1] == a[1]);\n"
			   "}\n");
	CHECK_CONTAINS(ptx, "$str");
	CHECK_CONTAINS(ptx, "vprintf");
	CHECK_CONTAINS(ptx, "__assertfail");
	CHECK_INT(s.nmutable, 0);
	free(ptx);

	char *src = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/sgemm.cu", NULL);
	CHECK(src != NULL);
	rung_compiled c;
	rung_compile_req req = {.src = src, .file = "sgemm.cu", .entry = "sgemm<32>", .arch = "sm_90"};
	if (src && rung_compile(&c, &req) == 0) {
		CHECK_INT(rung_ptxscan_text(&s, c.ptx, c.ptx_len), 0);
		CHECK_INT(s.nmutable, 0);
		CHECK_STR(s.heap_fn, "");
		rung_compiled_clear(&c);
	} else {
		CHECK(!"sgemm compiles");
	}
	free(src);
}

/* Dynamic parallelism: NVRTC needs -rdc for it, so hand-written PTX as that
 * compile produces it (cudaGetParameterBufferV2 + cudaLaunchDeviceV2). */
static const char dp_ptx[] =
	"//\n"
	"// Generated by NVIDIA NVVM Compiler\n"
	".version 8.8\n"
	".target sm_90\n"
	".address_size 64\n"
	"\n"
	".extern .func  (.param .b64 func_retval0) cudaGetParameterBufferV2\n"
	"(\n"
	"\t.param .b64 cudaGetParameterBufferV2_param_0,\n"
	"\t.param .align 4 .b8 cudaGetParameterBufferV2_param_1[12],\n"
	"\t.param .align 4 .b8 cudaGetParameterBufferV2_param_2[12],\n"
	"\t.param .b32 cudaGetParameterBufferV2_param_3\n"
	")\n"
	";\n"
	".extern .func  (.param .b32 func_retval0) cudaLaunchDeviceV2\n"
	"(\n"
	"\t.param .b64 cudaLaunchDeviceV2_param_0,\n"
	"\t.param .b64 cudaLaunchDeviceV2_param_1\n"
	")\n"
	";\n"
	".visible .entry child(.param .u64 child_param_0) { ret; }\n"
	".visible .entry k(\n"
	"\t.param .u64 .ptr .global .align 4 k_param_0\n"
	")\n"
	"{\n"
	"\t.reg .b32 \t%r<4>;\n"
	"\t.reg .b64 \t%rd<8>;\n"
	"\tld.param.u64 \t%rd1, [k_param_0];\n"
	"\tmov.u64 \t%rd2, child;\n"
	"\t{ // callseq 0, 0\n"
	"\t.param .b64 param0;\n"
	"\tst.param.b64 \t[param0], %rd2;\n"
	"\t.param .align 4 .b8 param1[12];\n"
	"\t.param .align 4 .b8 param2[12];\n"
	"\t.param .b32 param3;\n"
	"\t.param .b64 retval0;\n"
	"\tcall.uni (retval0), \n"
	"\tcudaGetParameterBufferV2, \n"
	"\t(\n"
	"\tparam0, \n"
	"\tparam1, \n"
	"\tparam2, \n"
	"\tparam3\n"
	"\t);\n"
	"\tld.param.b64 \t%rd3, [retval0];\n"
	"\t} // callseq 0\n"
	"\tst.u64 \t[%rd3], %rd1;\n"
	"\t{ // callseq 1, 0\n"
	"\t.param .b64 param0;\n"
	"\tst.param.b64 \t[param0], %rd3;\n"
	"\t.param .b64 param1;\n"
	"\tst.param.b64 \t[param1], 0;\n"
	"\t.param .b32 retval0;\n"
	"\tcall.uni (retval0), \n"
	"\tcudaLaunchDeviceV2, \n"
	"\t(\n"
	"\tparam0, \n"
	"\tparam1\n"
	"\t);\n"
	"\t} // callseq 1\n"
	"\tret;\n"
	"}\n";

static void t_device_launch(void)
{
	rung_ptxscan s;
	CHECK_INT(rung_ptxscan_text(&s, dp_ptx, strlen(dp_ptx)), 0);
	CHECK_STR(s.launch_fn, "cudaGetParameterBufferV2");
	CHECK_INT(s.nmutable, 0); /* k_param_0 is a parameter, not a global */
	CHECK_STR(s.heap_fn, "");
	/* the call alone (no .extern line), the older name */
	const char *call = ".version 8.0\n.target sm_80\n.address_size 64\n"
			   ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\t{\n\t.param .b64 param0;\n"
			   "\tcall.uni (%r1), cudaLaunchDevice, (param0, param0);\n\t}\n\tret;\n}\n";
	CHECK_INT(rung_ptxscan_text(&s, call, strlen(call)), 0);
	CHECK_STR(s.launch_fn, "cudaLaunchDevice");
	rung_result r;
	rung_result_init(&r);
	CHECK_INT(rung_ptxscan_result(&r, dp_ptx, strlen(dp_ptx)), 1);
	CHECK_INT(r.nsuspects, 1);
	CHECK_INT(r.suspects[0].kind, RUNG_SUSPECT_DEVICE_LAUNCH);
	CHECK_STR(r.suspects[0].reason, "device-side launch (cudaGetParameterBufferV2 in the PTX): kernels started from "
					"the device may run outside the timed launch");
	rung_result_clear(&r);
}

/* Hand-written module-scope forms: .visible/.extern/.managed globals, several
 * names in one declaration, texture references, red/atom/cvta forms, comments
 * and an initializer that holds braces. */
static void t_forms(void)
{
	const char *ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
			  ".global .texref tex0;\n"
			  ".visible .global .align 4 .u32 vis;\n"
			  ".global .attribute(.managed) .align 8 .u64 man;\n"
			  ".global .align 4 .b8 init[8] = {1, 2, 3, 4, 5, 6, 7, 8}; // { not a body\n"
			  ".global .align 4 .u32 ga, gb;\n"
			  ".global .align 4 .u32 gc; /* ; { */\n"
			  ".const .align 4 .u32 cst;\n"
			  ".visible .entry k(.param .u64 k_param_0)\n"
			  "{\n"
			  "\t.reg .b64 %rd<9>;\n"
			  "\t.reg .b32 %r<9>;\n"
			  "\t.reg .pred %p<2>;\n"
			  "\t.shared .align 4 .b8 sm[64];\n"
			  "\tred.global.add.u32 [vis+4], 1;\n"
			  "\tmov.u64 %rd1, man;\n"
			  "\tcvta.global.u64 %rd2, %rd1;\n"
			  "\tadd.s64 %rd3, %rd2, 8;\n"
			  "$L__BB0_1:\n"
			  "\t@%p1 st.u32 [%rd3], %r1;\n"
			  "\tld.global.u32 %r2, [init+4];\n"
			  "\tmov.u64 %rd4, gb;\n"
			  "\tld.global.u32 %r3, [%rd4];\n"
			  "\tmov.b64 {%r4, %r5}, %rd4;\n"
			  "\tmov.b64 %rd5, {%r4, %r5};\n"
			  "\tatom.global.exch.b32 %r6, [%rd5], %r3;\n"
			  "\tmov.u64 %rd6, gc;\n"
			  "\tst.shared.u64 [sm], %rd6;\n"
			  "\tst.shared.u32 [sm+8], %r2;\n"
			  "\tld.global.u32 %r7, [ga];\n"
			  "\tld.const.u32 %r8, [cst];\n"
			  "\tsuld.b.1d.b32.trap {%r1}, [tex0, {%r2}];\n"
			  "\tret;\n"
			  "}\n";
	rung_ptxscan s;
	CHECK_INT(rung_ptxscan_text(&s, ptx, strlen(ptx)), 0);
	CHECK_INT(s.nmutable, 4);
	CHECK_STR(s.mutables[0].name, "vis");
	CHECK(s.mutables[0].written);
	CHECK_STR(s.mutables[1].name, "man");
	CHECK(s.mutables[1].written);
	CHECK_STR(s.mutables[2].name, "gb"); /* through mov.b64 {lo, hi} and back */
	CHECK(s.mutables[2].written);
	CHECK_STR(s.mutables[3].name, "gc"); /* its address stored to shared memory */
	CHECK(!s.mutables[3].written && s.mutables[3].escapes);
	rung_result r;
	rung_result_init(&r);
	CHECK_INT(rung_ptxscan_add_suspects(&r, &s), 1);
	CHECK_STR(r.suspects[0].reason,
		  "mutable __device__ globals 'vis' (written by the kernel), 'man' (written by the kernel), 'gb' (written by "
		  "the kernel), 'gc' (its address escapes: it may be written through a pointer): state can carry over "
		  "between launches");
	rung_result_clear(&r);

	/* 20 counters: 16 kept, the reason names what fits and counts the rest */
	char big[8192];
	size_t n = (size_t)snprintf(big, sizeof big, ".version 8.0\n.target sm_90\n.address_size 64\n");
	for (int k = 0; k < 20; k++)
		n += (size_t)snprintf(big + n, sizeof big - n, ".global .align 4 .u32 counter_number_%02d;\n", k);
	n += (size_t)snprintf(big + n, sizeof big - n, ".visible .entry k()\n{\n");
	for (int k = 0; k < 20; k++)
		n += (size_t)snprintf(big + n, sizeof big - n, "\tred.global.add.u32 [counter_number_%02d], 1;\n", k);
	snprintf(big + n, sizeof big - n, "\tret;\n}\n");
	CHECK_INT(rung_ptxscan_text(&s, big, strlen(big)), 0);
	CHECK_INT(s.nmutable, 20);
	CHECK_STR(s.mutables[15].name, "counter_number_15");
	rung_result_init(&r);
	rung_ptxscan_add_suspects(&r, &s);
	CHECK_STR(r.suspects[0].reason,
		  "mutable __device__ globals 'counter_number_00' (written by the kernel), 'counter_number_01' (written by "
		  "the kernel), 'counter_number_02' (written by the kernel) and 17 more: state can carry over between "
		  "launches");
	rung_result_clear(&r);

	/* the reason for one global */
	rung_result_init(&r);
	rung_ptxscan one = {.nmutable = 1};
	snprintf(one.mutables[0].name, sizeof one.mutables[0].name, "calls");
	one.mutables[0].written = true;
	rung_ptxscan_add_suspects(&r, &one);
	CHECK_STR(rung_result_suspect(&r, RUNG_SUSPECT_MUTABLE_GLOBAL)->reason,
		  "mutable __device__ global 'calls' (written by the kernel): state can carry over between launches");
	rung_result_clear(&r);

	CHECK_INT(rung_ptxscan_text(&s, NULL, 0), RUNG_EINVAL);
	CHECK_INT(rung_ptxscan_text(&s, "", 0), 0);
	CHECK_INT(s.nmutable, 0);
}

/* The parent scans the candidate's PTX after the compile (rung_eval_compile,
 * rung_app_evaluate), and keeps the worker's own evidence after it: a fake worker
 * (a shell script) answers the job with a result that carries a timed-mismatch. */
static void t_evaluate_carries_suspects(void)
{
	rung_spec *spec = NULL;
	CHECK_INT(rung_spec_load(&spec, RUNG_TEST_DIR "/faults/good"), 0);
	if (!spec)
		return;
	const char *src = "__device__ int calls;\n"
			  "extern \"C\" __global__ void vadd(const float *a, const float *b, float *c, int n)\n"
			  "{\n"
			  "\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			  "\tif (i == 0) calls++;\n"
			  "\tif (i < n) c[i] = a[i] + b[i];\n"
			  "}\n";
	rung_job job = {.spec = spec, .kernel_src = src, .kernel_file = "kernel.cu", .seed = 3, .seed_set = true};
	rung_result r;
	rung_compiled kc, rc;
	CHECK_INT(t_app_compile(&r, &kc, &rc, &job, "sm_90"), 0);
	CHECK_INT(r.steps[RUNG_STEP_COMPILE].status, RUNG_S_OK);
	CHECK_INT(r.nsuspects, 1);
	CHECK_INT(r.suspects[0].kind, RUNG_SUSPECT_MUTABLE_GLOBAL);
	CHECK_STR(r.suspects[0].reason,
		  "mutable __device__ global 'calls' (written by the kernel): state can carry over between launches");
	rung_compiled_clear(&kc);
	rung_compiled_clear(&rc);
	rung_result_clear(&r);

	/* the good kernel: nothing */
	char *good = t_slurp(RUNG_TEST_DIR "/faults/good/kernel.cu", NULL);
	rung_job gjob = job;
	gjob.kernel_src = good;
	CHECK_INT(t_app_compile(&r, &kc, &rc, &gjob, "sm_90"), 0);
	CHECK_INT(r.nsuspects, 0);
	rung_compiled_clear(&kc);
	rung_compiled_clear(&rc);
	rung_result_clear(&r);
	free(good);

	const char *rec = "{\"steps\":{\"run\":{\"status\":\"ok\"},\"check\":{\"status\":\"ok\"},"
			  "\"bench\":{\"status\":\"ok\"}},\"bench\":{\"valid\":true,\"median\":0.01,\"n\":10},"
			  "\"suspects\":[{\"kind\":\"timed-mismatch\",\"reason\":\"timed launch 3 wrote other outputs\"}]}";
	const char *dir = t_tmpdir();
	char exe[1024], body[4096];
	snprintf(exe, sizeof exe, "%s/fake.sh", dir);
	snprintf(body, sizeof body,
		 "#!/bin/sh\n"
		 "printf '%%s\\n' '{\"type\":\"hello\",\"proto\":1,\"ok\":true,\"env\":{\"valid\":true,\"gpu\":\"Fake\","
		 "\"arch\":\"sm_90\",\"sms\":3}}' >&0\n"
		 "read line\n"
		 "printf '%%s\\n' '{\"type\":\"result\",\"fatal\":false,\"blobs\":[%zu]}' >&0\n"
		 "printf '%%s' '%s' >&0\n"
		 "sleep 5\n",
		 strlen(rec), rec);
	CHECK_INT(t_write(exe, body), 0);
	chmod(exe, 0755);
	rung_worker_opts o = {.exe = exe};
	rung_worker *w = NULL;
	CHECK_INT(rung_worker_open(&w, &o), 0);
	CHECK_INT(t_app_evaluate(&r, w, &job, NULL, NULL), 0);
	CHECK_INT(r.steps[RUNG_STEP_BENCH].status, RUNG_S_OK);
	CHECK_INT(r.nsuspects, 2);
	CHECK_INT(r.suspects[0].kind, RUNG_SUSPECT_MUTABLE_GLOBAL);
	CHECK_INT(r.suspects[1].kind, RUNG_SUSPECT_TIMED_MISMATCH);
	CHECK_STR(r.suspects[1].reason, "timed launch 3 wrote other outputs");
	rung_result_clear(&r);
	rung_worker_close(w);
	rung_spec_free(spec);
	char *out = NULL;
	t_sh(&out, "rm -rf '%s'", dir);
	free(out);
}

/* The parameters of an .entry, as the compile counts them against the [arg] sections. */
static void t_entry_params(void)
{
	int n = -1;
	/* real PTX: pointers, scalars, a struct by value and a template instance */
	rung_compiled c;
	rung_compile_req req = {.src = "struct P { float x, y, z; };\n"
				      "template <int T> __global__ void k(float *a, int n, double s, P p, const float *__restrict__ b) "
				      "{ a[0] = n * s + p.x + b[T]; }\n"
				      "template __global__ void k<4>(float *, int, double, P, const float *);\n"
				      "extern \"C\" __global__ void none() {}\n"
				      "__device__ float helper(float *a, int i) { return a[i]; }\n"
				      "__global__ void one(float *a) { a[0] = helper(a, 1); }\n",
				.file = "k.cu", .entry = "k<4>", .arch = "sm_90"};
	CHECK_INT(rung_compile(&c, &req), 0);
	if (c.ptx) {
		CHECK_INT(rung_ptx_entry_params(&n, c.ptx, c.ptx_len, c.lowered), 0);
		CHECK_INT(n, 5);
		CHECK_INT(rung_ptx_entry_params(&n, c.ptx, c.ptx_len, "none"), 0);
		CHECK_INT(n, 0);
		CHECK_INT(rung_ptx_entry_params(&n, c.ptx, c.ptx_len, "_Z3onePf"), 0);
		CHECK_INT(n, 1);
		/* a device function is a .func, not an .entry; a prefix of a name is not the name */
		CHECK_INT(rung_ptx_entry_params(&n, c.ptx, c.ptx_len, "_Z6helperPfi"), RUNG_ENOTFOUND);
		CHECK_INT(rung_ptx_entry_params(&n, c.ptx, c.ptx_len, "_Z3one"), RUNG_ENOTFOUND);
	}
	rung_compiled_clear(&c);
	/* hand-written: comments, no parameter list, an unterminated one */
	const char *ptx = "// .entry k(.param .u64 x)\n"
			  "/* .entry k(.param .u64 y) */\n"
			  ".visible .entry k(\n\t.param .u64 k_param_0,\n\t.param .align 4 .b8 k_param_1[12]\n)\n{ ret; }\n"
			  ".entry bare\n{ ret; }\n"
			  ".entry open( .param .u32 a,\n";
	CHECK_INT(rung_ptx_entry_params(&n, ptx, strlen(ptx), "k"), 0);
	CHECK_INT(n, 2);
	CHECK_INT(rung_ptx_entry_params(&n, ptx, strlen(ptx), "bare"), 0);
	CHECK_INT(n, 0);
	CHECK_INT(rung_ptx_entry_params(&n, ptx, strlen(ptx), "open"), RUNG_EINVAL);
	CHECK_INT(rung_ptx_entry_params(&n, ptx, strlen(ptx), "x"), RUNG_ENOTFOUND);
	CHECK_INT(rung_ptx_entry_params(&n, NULL, 0, "k"), RUNG_EINVAL);
}

int main(void)
{
	T_RUN(t_entry_params);
	T_RUN(t_counter_incremented);
	T_RUN(t_loc_before_address);
	T_RUN(t_names);
	T_RUN(t_table_only_read);
	T_RUN(t_cache_through_pointer);
	T_RUN(t_malloc);
	T_RUN(t_rung_trace_excluded);
	T_RUN(t_cuda_kernel_names);
	T_RUN(t_plain);
	T_RUN(t_device_launch);
	T_RUN(t_forms);
	T_RUN(t_evaluate_carries_suspects);
	return t_done();
}
