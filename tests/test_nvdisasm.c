/* nvdisasm as a subprocess on a real NVRTC CUBIN, then normalization and instruction mix
 * of the live listing. Skips (77) where nvdisasm is not installed; the not-found path is
 * covered by tests/sh/check_compile_only.sh (RUNG_NVDISASM=). */
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/sass.h"
#include "core/sass_src.h"
#include "gpu/compile.h"
#include "gpu/nvdisasm.h"
#include "harness.h"

static const char *sgemm_src =
    "template <int T> __global__ void sgemm(int M, int N, int K, const float *__restrict__ A,\n"
    "                                       const float *__restrict__ B, float *__restrict__ C)\n"
    "{\n"
    "	__shared__ float As[T][T];\n"
    "	__shared__ float Bs[T][T];\n"
    "	int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;\n"
    "	float acc = 0.0f;\n"
    "	for (int k0 = 0; k0 < K; k0 += T) {\n"
    "		int ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;\n"
    "		As[threadIdx.y][threadIdx.x] = (row < M && ka < K) ? A[(size_t)row * K + ka] : 0.0f;\n"
    "		Bs[threadIdx.y][threadIdx.x] = (col < N && kb < K) ? B[(size_t)kb * N + col] : 0.0f;\n"
    "		__syncthreads();\n"
    "#pragma unroll\n"
    "		for (int k = 0; k < T; k++)\n"
    "			acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];\n"
    "		__syncthreads();\n"
    "	}\n"
    "	if (row < M && col < N)\n"
    "		C[(size_t)row * N + col] = acc;\n"
    "}\n";

static void test_live_listing(void)
{
	rung_compiled c;
	rung_compile_req req = {.src = sgemm_src, .file = "sgemm.cu", .entry = "sgemm<16>"};
	CHECK_INT(rung_compile(&c, &req), 0);
	char *text = NULL;
	CHECK_INT(rung_sass_from_cubin(&text, c.cubin, c.cubin_len), 0);
	CHECK_CONTAINS(text, ".text._Z5sgemmILi16EEviiiPKfS1_Pf");
	CHECK_CONTAINS(text, "/*0000*/");

	rung_sass s;
	CHECK_INT(rung_sass_normalize(&s, text, 0), 0);
	int f = rung_sass_find_func(&s, c.lowered);
	CHECK(f >= 0);
	rung_sass_mix m;
	rung_sass_count(&m, &s, f);
	CHECK_INT(m.n[RUNG_MIX_FFMA], 16); /* the unrolled inner loop: one FFMA per k */
	CHECK_INT(m.n[RUNG_MIX_BAR], 2);   /* two __syncthreads */
	CHECK_INT(m.n[RUNG_MIX_STS], 2);   /* As and Bs */
	CHECK_INT(m.n[RUNG_MIX_STG32], 1);
	CHECK_INT(m.n[RUNG_MIX_LDG32], 2);
	/* line info (-gi): the FFMAs of the unrolled loop come from line 15 of sgemm.cu */
	CHECK_CONTAINS(text, "sgemm.cu\", line "); /* NVRTC names it under its working directory */
	int file = rung_sass_find_file(&s, "sgemm.cu"), ffma = 0;
	CHECK(file >= 0);
	CHECK_INT(rung_sass_main_file(&s, f), file);
	for (int i = 0; i < s.nlines; i++)
		if (s.lines[i].kind == RUNG_SASS_INST && strncmp(s.lines[i].text, "FFMA", 4) == 0) {
			CHECK_INT(rung_sass_line_in(&s.lines[i], file), 15);
			ffma++;
		}
	CHECK_INT(ffma, 16);
	/* the first instruction kept is at offset 0 */
	for (int i = 0; i < s.nlines; i++)
		if (s.lines[i].kind == RUNG_SASS_INST) {
			CHECK_INT(s.lines[i].pc, 0);
			break;
		}
	rung_sass_clear(&s);
	free(text);
	rung_compiled_clear(&c);
}

static void test_garbage_cubin(void)
{
	char *text = (char *)"unchanged";
	const char junk[] = "this is not an ELF file";
	int rc = rung_sass_from_cubin(&text, junk, sizeof(junk));
	CHECK_INT(rc, RUNG_EIO);
	CHECK(text == NULL);
	CHECK_CONTAINS(rung_error_last(), "nvdisasm failed (exit ");
	CHECK_INT(rung_sass_from_cubin(&text, NULL, 0), RUNG_EINVAL);
}

int main(void)
{
	const char *p = rung_nvdisasm_path();
	if (!p) {
		printf("skip: nvdisasm not found (pip install nvidia-cuda-nvdisasm)\n");
		return T_SKIP;
	}
	printf("nvdisasm: %s\n", p);
	T_RUN(test_live_listing);
	T_RUN(test_garbage_cubin);
	return t_done();
}
