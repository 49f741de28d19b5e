/* The compile rung with the real NVRTC (no GPU needed): PTX, CUBIN and ptxas resources
 * for good kernels; exact "file:line: message" errors for bad ones. */
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "gpu/compile.h"
#include "harness.h"

static int compile_src(rung_compiled *out, const char *src, const char *file, const char *entry)
{
	rung_compile_req req = {.src = src, .file = file, .entry = entry};
	return rung_compile(out, &req);
}

static void test_sgemm_task_kernel(void)
{
	char *src = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/sgemm.cu", NULL);
	CHECK(src != NULL);
	if (!src)
		return;
	rung_compiled c;
	rung_compile_req req = {.src = src, .file = "sgemm.cu", .entry = "sgemm<32>", .arch = "sm_90"};
	CHECK_INT(rung_compile(&c, &req), 0);
	CHECK_STR(c.lowered, "_Z5sgemmILi32EEviiiPKfS1_Pf");
	CHECK(c.ptx && c.ptx_len > 1000);
	CHECK_INT(c.ptx_len, strlen(c.ptx));
	CHECK_CONTAINS(c.ptx, ".entry _Z5sgemmILi32EEviiiPKfS1_Pf");
	CHECK_CONTAINS(c.ptx, ".target sm_90");
	CHECK_CONTAINS(c.ptx, "sgemm.cu\""); /* -lineinfo names the program in .file */
	CHECK(c.cubin && c.cubin_len > 1000);
	CHECK(c.cubin && memcmp(c.cubin,
	                        "\x7f"
	                        "ELF",
	                        4) == 0);
	CHECK(c.kinfo.valid);
	CHECK_STR(c.kinfo.name, "_Z5sgemmILi32EEviiiPKfS1_Pf");
	CHECK(c.kinfo.regs > 0 && c.kinfo.regs <= 255);
	CHECK_INT(c.kinfo.smem, 2 * 32 * 32 * 4); /* As + Bs */
	CHECK_INT(c.kinfo.barriers, 1);
	CHECK_INT(c.kinfo.spill_stores, 0);
	CHECK_CONTAINS(c.log, "Compiling entry function '_Z5sgemmILi32EEviiiPKfS1_Pf' for 'sm_90'");
	CHECK(c.ms > 0);
	CHECK_STR(c.error, "");
	rung_compiled_free(&c);
	free(src);
}

static void test_syntax_error_file_line(void)
{
	const char *src = "__global__ void k(float *a)\n" /* 1 */
	                  "{\n"                           /* 2 */
	                  "\ta[0] = x;\n"                 /* 3 */
	                  "\ta[1] = y\n"                  /* 4 */
	                  "}\n";
	rung_compiled c;
	CHECK_INT(compile_src(&c, src, "bad.cu", "k"), RUNG_ECOMPILE);
	CHECK_STR(c.error, "bad.cu:3: identifier \"x\" is undefined");
	CHECK_STR(rung_error_last(), "bad.cu:3: identifier \"x\" is undefined");
	CHECK_CONTAINS(c.log, "bad.cu(4): error: identifier \"y\" is undefined"); /* full log kept */
	CHECK(c.ptx == NULL && c.cubin == NULL);
	rung_compiled_free(&c);
}

static void test_template_entry(void)
{
	const char *src = "template <int T> __global__ void k(float *a, int n)\n"
	                  "{\n"
	                  "\tfloat loc[T];\n"
	                  "\tfor (int i = 0; i < T; i++) loc[i] = a[(i * n) % 1000];\n"
	                  "\tfloat s = 0;\n"
	                  "\tfor (int i = 0; i < T; i++) s += loc[(i * 7 + n) % T];\n"
	                  "\ta[threadIdx.x] = s;\n"
	                  "}\n";
	rung_compiled c;
	CHECK_INT(compile_src(&c, src, "k.cu", "k<128>"), 0);
	CHECK_STR(c.lowered, "_Z1kILi128EEvPfi");
	CHECK(c.kinfo.valid && c.kinfo.regs > 0);
	CHECK_INT(c.kinfo.stack, 512); /* float loc[128] dynamically indexed: local memory */
	rung_compiled_free(&c);
	CHECK_INT(compile_src(&c, src, "k.cu", "k<4>"), 0);
	CHECK_STR(c.lowered, "_Z1kILi4EEvPfi");
	rung_compiled_free(&c);
}

static void test_plain_and_extern_c(void)
{
	const char *src = "__global__ void add(float *a) { a[threadIdx.x] += 1.0f; }\n"
	                  "extern \"C\" __global__ void twice(float *a) { a[threadIdx.x] *= 2.0f; }\n";
	rung_compiled c;
	CHECK_INT(compile_src(&c, src, "k.cu", "add"), 0);
	CHECK_STR(c.lowered, "_Z3addPf");
	CHECK_STR(c.kinfo.name, "_Z3addPf");
	rung_compiled_free(&c);
	CHECK_INT(compile_src(&c, src, "k.cu", "twice"), 0);
	CHECK_STR(c.lowered, "twice");
	CHECK(c.kinfo.regs > 0);
	rung_compiled_free(&c);
}

static void test_missing_entry(void)
{
	const char *src = "__global__ void add(float *a) { a[threadIdx.x] += 1.0f; }\n";
	rung_compiled c;
	CHECK_INT(compile_src(&c, src, "k.cu", "foo"), RUNG_ECOMPILE);
	CHECK_STR(c.error, "entry 'foo' not found in k.cu");
	rung_compiled_free(&c);
	/* a source error comes first even when the entry is missing too */
	CHECK_INT(compile_src(&c, "__global__ void add(float *a) { a[0] = z; }\n", "k.cu", "foo"), RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu:1: identifier \"z\" is undefined");
	rung_compiled_free(&c);
	/* NVRTC prints the name expression's errors first when a template entry is missing */
	CHECK_INT(compile_src(&c, "x\n", "k.cu", "sgemm<32>"), RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu:1: this declaration has no storage class or type specifier");
	CHECK_CONTAINS(c.log, "__nv_name_map(2): error");
	rung_compiled_free(&c);
	/* an error with no line */
	CHECK_INT(compile_src(&c, "__global__ void k(float *a) { a[0] = 1; }\nstruct S { int x; }\n", "k.cu", "k"),
	          RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu: at end of source: expected a \";\"");
	rung_compiled_free(&c);
}

static void test_device_function_is_not_a_kernel(void)
{
	const char *src = "__device__ __noinline__ float f(float x) { return x * 2.0f; }\n"
	                  "__global__ void g(float *a) { a[0] = f(a[1]); }\n";
	rung_compiled c;
	CHECK_INT(compile_src(&c, src, "k.cu", "f"), RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu: 'f' is not a __global__ kernel");
	rung_compiled_free(&c);
}

static void test_headers_in_memory_and_dirs(void)
{
	const char *src = "#include \"tile.cuh\"\n"
	                  "#include \"scale.cuh\"\n"
	                  "__global__ void k(float *a) { a[threadIdx.x] = TILE * SCALE; }\n";
	rung_header h[] = {{.name = "tile.cuh", .text = "#define TILE 16\n"}};
	const char *dir = t_tmpdir();
	char path[512];
	snprintf(path, sizeof(path), "%s/inc/scale.cuh", dir);
	CHECK_INT(t_write(path, "#define SCALE 3\n"), 0);
	char inc[512];
	snprintf(inc, sizeof(inc), "%s/inc", dir);
	const char *dirs[] = {inc, NULL};
	rung_compile_req req = {
	    .src = src, .file = "k.cu", .entry = "k", .headers = h, .nheaders = 1, .include_dirs = dirs};
	rung_compiled c;
	CHECK_INT(rung_compile(&c, &req), 0);
	CHECK_CONTAINS(c.ptx, "1111490560"); /* 16 * 3 = 48.0f = 0x42400000 */
	rung_compiled_free(&c);

	/* an error inside a header names the header and its line */
	rung_header bad[] = {{.name = "tile.cuh", .text = "#define TILE 16\n__device__ int oops() { return undefined_thing; }\n"}};
	req.headers = bad;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "tile.cuh:2: identifier \"undefined_thing\" is undefined");
	rung_compiled_free(&c);

	/* a missing header is a catastrophic error at the #include line */
	req.headers = NULL;
	req.nheaders = 0;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu:1: cannot open source file \"tile.cuh\"");
	rung_compiled_free(&c);
}

static void test_options(void)
{
	const char *src = "__global__ void k(float *a) { a[threadIdx.x] = SCALE; }\n";
	rung_compiled c;
	rung_compile_req req = {.src = src, .file = "k.cu", .entry = "k", .options = "  -DSCALE=3\t--use_fast_math "};
	CHECK_INT(rung_compile(&c, &req), 0);
	rung_compiled_free(&c);
	req.options = NULL;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu:1: identifier \"SCALE\" is undefined");
	rung_compiled_free(&c);
	req.options = "--no-such-option";
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_CONTAINS(c.error, "invalid NVRTC option");
	rung_compiled_free(&c);
}

static void test_ptxas_failures(void)
{
	rung_compiled c;
	const char *asm_src = "__global__ void k(float *a) { asm volatile(\"bogus.instr %0;\" :: \"f\"(a[0])); }\n";
	CHECK_INT(compile_src(&c, asm_src, "k.cu", "k"), RUNG_ECOMPILE);
	CHECK_CONTAINS(c.error, "k.cu: ptxas: ");
	CHECK_CONTAINS(c.error, "Unknown modifier '.instr' (PTX line ");
	rung_compiled_free(&c);

	const char *big = "__global__ void k(float *a) { __shared__ float s[100000]; s[threadIdx.x] = a[0];"
	                  " __syncthreads(); a[threadIdx.x] = s[threadIdx.x + 1]; }\n";
	CHECK_INT(compile_src(&c, big, "k.cu", "k"), RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu: 400000 bytes of static shared memory (limit 49152; use dynamic shared memory)");
	rung_compiled_free(&c);
}

static void test_bad_request(void)
{
	rung_compiled c;
	CHECK_INT(compile_src(&c, NULL, "k.cu", "k"), RUNG_EINVAL);
	CHECK_INT(compile_src(&c, "", "k.cu", ""), RUNG_EINVAL);
	rung_compiled_free(&c);
	rung_compiled_free(NULL);
}

int main(void)
{
	T_RUN(test_sgemm_task_kernel);
	T_RUN(test_syntax_error_file_line);
	T_RUN(test_template_entry);
	T_RUN(test_plain_and_extern_c);
	T_RUN(test_missing_entry);
	T_RUN(test_device_function_is_not_a_kernel);
	T_RUN(test_headers_in_memory_and_dirs);
	T_RUN(test_options);
	T_RUN(test_ptxas_failures);
	T_RUN(test_bad_request);
	return t_done();
}
