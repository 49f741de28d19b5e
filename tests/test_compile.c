/* The compile rung with the real NVRTC (no GPU needed): PTX, CUBIN and ptxas resources
 * for good kernels; exact "file:line: message" errors for bad ones. */
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "gpu/compile.h"
#include "gpu/cubin.h"
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
	rung_compiled_clear(&c);
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
	/* the first error, and a word of the others (#28 D-20: nothing said there were more) */
	CHECK_STR(c.error, "bad.cu:3: identifier \"x\" is undefined (and 2 more errors)");
	CHECK_STR(rung_error_last(), "bad.cu:3: identifier \"x\" is undefined (and 2 more errors)");
	CHECK_CONTAINS(c.log, "bad.cu(4): error: identifier \"y\" is undefined"); /* full log kept */
	CHECK(c.ptx == NULL && c.cubin == NULL);
	rung_compiled_clear(&c);
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
	rung_compiled_clear(&c);
	CHECK_INT(compile_src(&c, src, "k.cu", "k<4>"), 0);
	CHECK_STR(c.lowered, "_Z1kILi4EEvPfi");
	rung_compiled_clear(&c);
}

static void test_plain_and_extern_c(void)
{
	const char *src = "__global__ void add(float *a) { a[threadIdx.x] += 1.0f; }\n"
	                  "extern \"C\" __global__ void twice(float *a) { a[threadIdx.x] *= 2.0f; }\n";
	rung_compiled c;
	CHECK_INT(compile_src(&c, src, "k.cu", "add"), 0);
	CHECK_STR(c.lowered, "_Z3addPf");
	CHECK_STR(c.kinfo.name, "_Z3addPf");
	rung_compiled_clear(&c);
	CHECK_INT(compile_src(&c, src, "k.cu", "twice"), 0);
	CHECK_STR(c.lowered, "twice");
	CHECK(c.kinfo.regs > 0);
	rung_compiled_clear(&c);
}

static void test_missing_entry(void)
{
	const char *src = "__global__ void add(float *a) { a[threadIdx.x] += 1.0f; }\n";
	rung_compiled c;
	CHECK_INT(compile_src(&c, src, "k.cu", "foo"), RUNG_ECOMPILE);
	/* the kernels the file does have, named (#28 D-20: the message named none) */
	CHECK_STR(c.error, "entry 'foo' not found in k.cu (its __global__ kernel: add)");
	rung_compiled_clear(&c);
	CHECK_INT(compile_src(&c, "template <int T> __global__ void tile(float *a) { a[T] = 0; }\n"
				  "// __global__ void old(float *a);\n"
				  "__global__ void\nflat(float *a) { a[0] = 1; }\n",
			      "k.cu", "tile"),
		  RUNG_ECOMPILE);
	CHECK_STR(c.error, "entry 'tile' not found in k.cu (its __global__ kernels: tile, flat)");
	rung_compiled_clear(&c);
	CHECK_INT(compile_src(&c, "__device__ float f(float x) { return x; }\n", "k.cu", "g"), RUNG_ECOMPILE);
	CHECK_STR(c.error, "entry 'g' not found in k.cu (it has no __global__ kernel)");
	rung_compiled_clear(&c);
	/* every error: the first named, the others counted (#28 D-20), all in the log */
	CHECK_INT(compile_src(&c, "__global__ void add(float *a) { a[0] = z; a[1] = y; a[2] = x; }\n", "k.cu", "add"),
		  RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu:1: identifier \"z\" is undefined (and 2 more errors)");
	CHECK_INT(rung_compile_log_nerrors(c.log), 3);
	char e[256];
	CHECK_INT(rung_compile_log_error(c.log, 2, e, sizeof(e)), 1);
	CHECK_STR(e, "k.cu:1: identifier \"x\" is undefined");
	CHECK_INT(rung_compile_log_error(c.log, 3, e, sizeof(e)), 0);
	rung_compiled_clear(&c);
	/* a source error comes first even when the entry is missing too */
	CHECK_INT(compile_src(&c, "__global__ void add(float *a) { a[0] = z; }\n", "k.cu", "foo"), RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu:1: identifier \"z\" is undefined");
	rung_compiled_clear(&c);
	/* NVRTC prints the name expression's errors first when a template entry is missing */
	CHECK_INT(compile_src(&c, "x\n", "k.cu", "sgemm<32>"), RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu:1: this declaration has no storage class or type specifier (and 1 more error)");
	CHECK_CONTAINS(c.log, "__nv_name_map(2): error");
	rung_compiled_clear(&c);
	/* an error with no line */
	CHECK_INT(compile_src(&c, "__global__ void k(float *a) { a[0] = 1; }\nstruct S { int x; }\n", "k.cu", "k"),
	          RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu: at end of source: expected a \";\"");
	rung_compiled_clear(&c);
}

static void test_device_function_is_not_a_kernel(void)
{
	const char *src = "__device__ __noinline__ float f(float x) { return x * 2.0f; }\n"
	                  "__global__ void g(float *a) { a[0] = f(a[1]); }\n";
	rung_compiled c;
	CHECK_INT(compile_src(&c, src, "k.cu", "f"), RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu: 'f' is not a __global__ kernel");
	rung_compiled_clear(&c);
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
	rung_compiled_clear(&c);

	/* an error inside a header names the header and its line */
	rung_header bad[] = {{.name = "tile.cuh", .text = "#define TILE 16\n__device__ int oops() { return undefined_thing; }\n"}};
	req.headers = bad;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "tile.cuh:2: identifier \"undefined_thing\" is undefined");
	rung_compiled_clear(&c);

	/* a missing header is a catastrophic error at the #include line */
	req.headers = NULL;
	req.nheaders = 0;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu:1: cannot open source file \"tile.cuh\"");
	rung_compiled_clear(&c);
}

static void test_options(void)
{
	const char *src = "__global__ void k(float *a) { a[threadIdx.x] = SCALE; }\n";
	rung_compiled c;
	rung_compile_req req = {.src = src, .file = "k.cu", .entry = "k", .options = "  -DSCALE=3\t--use_fast_math "};
	CHECK_INT(rung_compile(&c, &req), 0);
	rung_compiled_clear(&c);
	req.options = NULL;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu:1: identifier \"SCALE\" is undefined");
	rung_compiled_clear(&c);
	req.options = "--no-such-option";
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_CONTAINS(c.error, "invalid NVRTC option");
	rung_compiled_clear(&c);
}

static void test_ptxas_failures(void)
{
	rung_compiled c;
	const char *asm_src = "__global__ void k(float *a) { asm volatile(\"bogus.instr %0;\" :: \"f\"(a[0])); }\n";
	CHECK_INT(compile_src(&c, asm_src, "k.cu", "k"), RUNG_ECOMPILE);
	CHECK_CONTAINS(c.error, "k.cu: ptxas: ");
	CHECK_CONTAINS(c.error, "Unknown modifier '.instr' (PTX line ");
	rung_compiled_clear(&c);

	const char *big = "__global__ void k(float *a) { __shared__ float s[100000]; s[threadIdx.x] = a[0];"
	                  " __syncthreads(); a[threadIdx.x] = s[threadIdx.x + 1]; }\n";
	CHECK_INT(compile_src(&c, big, "k.cu", "k"), RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu: 400000 bytes of static shared memory (limit 49152; use dynamic shared memory)");
	rung_compiled_clear(&c);
}

/* A source that is not UTF-8 text fails with its file:line before NVRTC misreads it
 * (0xFF ended the file: "entry not found"; a NUL cut it: "expected a }"). */
static void test_source_encoding(void)
{
	rung_compiled c;
	const char *good = "__global__ void vadd(float *a) { a[threadIdx.x] += 1.0f; }\n";
	/* 0xFF in a comment */
	CHECK_INT(compile_src(&c, "// tile\n// caf\xff\n__global__ void vadd(float *a) { a[0] = 1; }\n", "vadd.cu", "vadd"),
	          RUNG_ECOMPILE);
	CHECK_STR(c.error, "vadd.cu:2: byte 0xFF is not UTF-8 (the file must be UTF-8 or ASCII)");
	CHECK_STR(rung_error_last(), c.error);
	CHECK_CONTAINS(c.log, "vadd.cu:2: byte 0xFF"); /* the log says why too */
	rung_compiled_clear(&c);
	/* Latin-1: a lead byte without its continuation */
	CHECK_INT(compile_src(&c, "// caf\xe9 au lait\n", "vadd.cu", "vadd"), RUNG_ECOMPILE);
	CHECK_STR(c.error, "vadd.cu:1: byte 0xE9 is not UTF-8 (the file must be UTF-8 or ASCII)");
	rung_compiled_clear(&c);
	/* UTF-8 itself is fine */
	CHECK_INT(compile_src(&c, "// caf\xc3\xa9, \xe2\x88\x91, \xf0\x9f\x9a\x80\n__global__ void vadd(float *a) { a[0] = 1; }\n",
	                      "vadd.cu", "vadd"),
	          0);
	rung_compiled_clear(&c);
	/* a UTF-8 byte-order mark is dropped: the compile succeeds (NVRTC: "unrecognized token") */
	char bom[256];
	snprintf(bom, sizeof(bom), "\xef\xbb\xbf%s", good);
	CHECK_INT(compile_src(&c, bom, "vadd.cu", "vadd"), 0);
	CHECK_STR(c.lowered, "_Z4vaddPf");
	rung_compiled_clear(&c);
	/* ... and line numbers stay those of the file */
	CHECK_INT(compile_src(&c, "\xef\xbb\xbf\n__global__ void vadd(float *a) { a[0] = x; }\n", "vadd.cu", "vadd"),
	          RUNG_ECOMPILE);
	CHECK_STR(c.error, "vadd.cu:2: identifier \"x\" is undefined");
	rung_compiled_clear(&c);
	/* UTF-16, with and without a BOM */
	const char u16le[] = "\xff\xfe/\0/\0 \0x\0\n\0";
	rung_compile_req req = {.src = u16le, .src_len = sizeof(u16le) - 1, .file = "vadd.cu", .entry = "vadd"};
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "vadd.cu: UTF-16 text (BOM FF FE): save it as UTF-8");
	rung_compiled_clear(&c);
	const char u16be[] = "\xfe\xff\0/\0/";
	req.src = u16be, req.src_len = sizeof(u16be) - 1;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "vadd.cu: UTF-16 text (BOM FE FF): save it as UTF-8");
	rung_compiled_clear(&c);
	const char u16nobom[] = "/\0/\0 \0x\0\n\0";
	req.src = u16nobom, req.src_len = sizeof(u16nobom) - 1;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "vadd.cu: UTF-16 text (little-endian, no BOM): save it as UTF-8");
	rung_compiled_clear(&c);
	/* a NUL byte, seen when the length is given */
	const char nul[] = "// a\n// b\n__global__ void vadd(float *a) {\n\0 a[0] = 1; }\n";
	req.src = nul, req.src_len = sizeof(nul) - 1;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "vadd.cu:4: NUL byte (the file must be UTF-8 or ASCII text)");
	rung_compiled_clear(&c);
}

/* Headers are checked as the source is: in memory (from git) and on disk (-I dirs,
 * and beside the header that includes them). */
static void test_header_encoding(void)
{
	const char *src = "#include \"tile.cuh\"\n__global__ void k(float *a) { a[threadIdx.x] = TILE; }\n";
	rung_compiled c;
	rung_header h[] = {{.name = "tile.cuh", .text = "#define TILE 16 // \xff\n"}};
	rung_compile_req req = {.src = src, .file = "k.cu", .entry = "k", .headers = h, .nheaders = 1};
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "tile.cuh:1: byte 0xFF is not UTF-8 (the file must be UTF-8 or ASCII)");
	rung_compiled_clear(&c);
	const char nul[] = "// x\n#define TILE 16\n\0";
	h[0].text = nul, h[0].len = sizeof(nul) - 1;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "tile.cuh:3: NUL byte (the file must be UTF-8 or ASCII text)");
	rung_compiled_clear(&c);
	h[0].text = "\xef\xbb\xbf#define TILE 16\n", h[0].len = 0; /* dropped, as in the source */
	CHECK_INT(rung_compile(&c, &req), 0);
	CHECK_CONTAINS(c.ptx, "1098907648"); /* 16.0f */
	rung_compiled_clear(&c);

	/* on disk: found through the -I dirs, and its own includes beside it */
	const char *dir = t_tmpdir();
	char inc[512], p[600];
	snprintf(inc, sizeof(inc), "%s/inc", dir);
	const char *dirs[] = {dir, inc, NULL};
	req.headers = NULL, req.nheaders = 0, req.include_dirs = dirs;
	snprintf(p, sizeof(p), "%s/inc/tile.cuh", dir);
	CHECK_INT(t_write(p, "#include \"sub/size.cuh\"\n#define TILE SIZE\n"), 0);
	snprintf(p, sizeof(p), "%s/inc/sub/size.cuh", dir);
	CHECK_INT(t_write(p, "#include \"two.cuh\"\n#define SIZE (8 * TWO)\n"), 0);
	snprintf(p, sizeof(p), "%s/inc/sub/two.cuh", dir);
	CHECK_INT(t_write(p, "// deux \xe9\n#define TWO 2\n"), 0);
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	char want[800];
	snprintf(want, sizeof(want), "%s/inc/sub/two.cuh:1: byte 0xE9 is not UTF-8 (the file must be UTF-8 or ASCII)", dir);
	CHECK_STR(c.error, want);
	rung_compiled_clear(&c);
	CHECK_INT(t_write(p, "\xef\xbb\xbf// deux\n#define TWO 2\n"), 0); /* NVRTC reads a file's BOM as a token */
	CHECK_INT(rung_compile(&c, &req), 0);
	CHECK_CONTAINS(c.ptx, "1098907648"); /* 8 * 2 = 16.0f */
	rung_compiled_clear(&c);
	CHECK_INT(t_write(p, "#define TWO 2\n"), 0);
	CHECK_INT(rung_compile(&c, &req), 0);
	rung_compiled_clear(&c);
	/* a git header that #includes a disk one */
	rung_header gh[] = {{.name = "tile.cuh", .text = "#include \"sub/size.cuh\"\n#define TILE SIZE\n"}};
	req.headers = gh, req.nheaders = 1;
	CHECK_INT(t_write(p, "#define TWO 2 /* \xc0\xaf */\n"), 0); /* an overlong '/' is not UTF-8 either */
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	snprintf(want, sizeof(want), "%s/inc/sub/two.cuh:1: byte 0xC0 is not UTF-8 (the file must be UTF-8 or ASCII)", dir);
	CHECK_STR(c.error, want);
	rung_compiled_clear(&c);
}

/* A spec of 4 [arg] sections; arch and options as given (lines 7 and 8). */
static rung_spec *spec_with(const char *arch, const char *options)
{
	char text[2048];
	snprintf(text, sizeof(text),
	         "[task]\nname = v\nkernel = k.cu\nentry = vadd\nreference = r.cu\nreference_entry = vadd\n" /* 1-6 */
	         "%s\n%s\n"                                                                                /* 7, 8 */
	         "[dims]\nN = 64\n"                                                                          /* 9, 10 */
	         "[arg a]\nkind = input\ndtype = f32\nshape = N\n"                                           /* 11-14 */
	         "[arg b]\nkind = input\ndtype = f32\nshape = N\n"                                           /* 15-18 */
	         "[arg c]\nkind = output\ndtype = f32\nshape = N\n"                                          /* 19-22 */
	         "[arg n]\nkind = scalar\ndtype = i32\nvalue = N\n"                                          /* 23-26 */
	         "[launch]\ngrid = 1\nblock = 64\n",
	         arch, options);
	rung_spec *s = NULL;
	CHECK_INT(rung_spec_parse(&s, text, "t/rung.ini", "t"), 0);
	return s;
}

/* What is wrong in the spec is said at its line, not blamed on the kernel. */
static void test_spec_arch_and_options(void)
{
	const char *src = "__global__ void vadd(const float *a, const float *b, float *c, int n)\n"
	                  "{ int i = threadIdx.x; if (i < n) c[i] = a[i] + b[i]; }\n";
	rung_compiled c;
	rung_spec *s = spec_with("arch = sm_200", "# no options");
	if (!s)
		return;
	rung_compile_req req = {.src = src, .file = "k.cu", .entry = "vadd", .arch = s->arch, .spec = s};
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_CONTAINS(c.error, "t/rung.ini:7: [task] arch: NVRTC ");
	CHECK_CONTAINS(c.error, " does not compile for 'sm_200' (it takes sm_");
	CHECK_CONTAINS(c.error, "sm_90, "); /* the list NVRTC gives */
	CHECK(c.spec_error);
	rung_compiled_clear(&c);
	/* the same arch not from the spec (a device's): said against the file */
	req.spec = NULL;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_CONTAINS(c.error, "k.cu: NVRTC ");
	CHECK_CONTAINS(c.error, " does not compile for 'sm_200'");
	CHECK(!c.spec_error);
	rung_compiled_clear(&c);
	rung_spec_free(s);
	/* a suffix NVRTC has not for that number: its front end refuses it */
	s = spec_with("arch = sm_86a", "");
	if (!s)
		return;
	req.spec = s, req.arch = s->arch;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_CONTAINS(c.error, "t/rung.ini:7: [task] arch: NVRTC ");
	CHECK_CONTAINS(c.error, " does not compile for 'sm_86a' (it takes sm_");
	CHECK_CONTAINS(c.error, "; the a and f suffixes only for some)");
	CHECK(c.spec_error);
	rung_compiled_clear(&c);
	rung_spec_free(s);
	/* an option NVRTC does not know: at the options line, in NVRTC's words */
	s = spec_with("arch = sm_90", "options = -DX=1 --bogus");
	if (!s)
		return;
	req.spec = s, req.arch = s->arch, req.options = s->options;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "t/rung.ini:8: [task] options: unrecognized option --bogus found");
	CHECK(c.spec_error);
	rung_compiled_clear(&c);
	req.spec = NULL;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu: invalid NVRTC option: unrecognized option --bogus found (options: -DX=1 --bogus)");
	CHECK(!c.spec_error);
	rung_compiled_clear(&c);
	rung_spec_free(s);
	/* a good spec compiles */
	s = spec_with("arch = sm_90", "options = -DX=1");
	if (!s)
		return;
	req.spec = s, req.arch = s->arch, req.options = s->options;
	CHECK_INT(rung_compile(&c, &req), 0);
	CHECK_STR(c.error, "");
	rung_compiled_clear(&c);
	rung_spec_free(s);
}

/* The kernel takes one parameter per [arg] section, in order (the worker passes them so). */
static void test_params_against_spec(void)
{
	rung_spec *s = spec_with("arch = sm_90", "");
	if (!s)
		return;
	rung_compiled c;
	rung_compile_req req = {.src = "__global__ void vadd(const float *a, const float *b, float *c)\n"
	                               "{ int i = threadIdx.x; c[i] = a[i] + b[i]; }\n",
	                        .file = "k.cu", .entry = "vadd", .arch = "sm_90", .spec = s};
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu: kernel 'vadd' takes 3 parameters but t/rung.ini declares 4 [arg] sections "
	                   "(the first without a parameter is [arg n] at t/rung.ini:23)");
	CHECK(!c.spec_error); /* the kernel's mistake or the spec's: the kernel's compile rung fails */
	CHECK(c.ptx != NULL); /* the PTX is kept for a look */
	rung_compiled_clear(&c);
	req.src = "template <int T> __global__ void vadd(const float *a, const float *b, float *c, int n, int m)\n"
	          "{ int i = threadIdx.x; if (i < n) c[i] = a[i] + b[i] + T + m; }\n";
	req.entry = "vadd<2>";
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.cu: kernel 'vadd<2>' takes 5 parameters but t/rung.ini declares 4 [arg] sections "
	                   "(the last is [arg n] at t/rung.ini:23)");
	rung_compiled_clear(&c);
	req.src = "extern \"C\" __global__ void vadd(const float *a, const float *b, float *c, int n)\n"
	          "{ int i = threadIdx.x; if (i < n) c[i] = a[i] + b[i]; }\n";
	req.entry = "vadd";
	CHECK_INT(rung_compile(&c, &req), 0);
	rung_compiled_clear(&c);
	/* without a spec nothing is counted */
	req.spec = NULL;
	req.src = "__global__ void vadd(float *c) { c[0] = 1; }\n";
	CHECK_INT(rung_compile(&c, &req), 0);
	rung_compiled_clear(&c);
	rung_spec_free(s);
}


/* The machine-code key (no-op versions): comments, blank lines and a renamed
 * local that shift every line give the same key; a changed constant, a changed
 * __constant__ initialiser or another arch give another. */
static void code_key(char out[65], const char *src, const char *arch)
{
	rung_compiled c;
	rung_compile_req req = {.src = src, .file = "k.cu", .entry = "k", .arch = arch};
	out[0] = 0;
	CHECK_INT(rung_compile(&c, &req), 0);
	CHECK_INT(rung_cubin_code_key(out, c.cubin, c.cubin_len), 0);
	rung_compiled_clear(&c);
}

static void test_code_key(void)
{
	const char *a = "__constant__ float w[2] = {1, 2};\n"
			"extern \"C\" __global__ void k(float *y, int n) {\n"
			"  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			"  if (i < n) y[i] = y[i] * w[0] + 3.0f;\n}\n";
	const char *a_comment = "// a comment that moves every line down\n\n\n"
				"__constant__ float w[2] = {1, 2}; /* weights */\n"
				"extern \"C\" __global__ void k(float *y, int n) {\n"
				"  // the index\n  int idx = blockIdx.x * blockDim.x + threadIdx.x;\n"
				"  if (idx < n) y[idx] = y[idx] * w[0] + 3.0f;\n}\n";
	const char *b_const = "__constant__ float w[2] = {1, 2};\n"
			      "extern \"C\" __global__ void k(float *y, int n) {\n"
			      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			      "  if (i < n) y[i] = y[i] * w[0] + 4.0f;\n}\n";
	const char *b_init = "__constant__ float w[2] = {5, 2};\n"
			     "extern \"C\" __global__ void k(float *y, int n) {\n"
			     "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
			     "  if (i < n) y[i] = y[i] * w[0] + 3.0f;\n}\n";
	char ka[65], kc[65], kb[65], ki[65], k80[65];
	code_key(ka, a, "sm_90");
	code_key(kc, a_comment, "sm_90");
	code_key(kb, b_const, "sm_90");
	code_key(ki, b_init, "sm_90");
	code_key(k80, a, "sm_80");
	CHECK_INT(strlen(ka), 64);
	CHECK_STR(ka, kc);
	CHECK(strcmp(ka, kb) != 0);
	CHECK(strcmp(ka, ki) != 0); /* same .text, other constant data */
	CHECK(strcmp(ka, k80) != 0);
	char junk[65];
	CHECK_INT(rung_cubin_code_key(junk, "not an elf", 10), RUNG_EINVAL);
}

static void test_bad_request(void)
{
	rung_compiled c;
	CHECK_INT(compile_src(&c, NULL, "k.cu", "k"), RUNG_EINVAL);
	CHECK_INT(compile_src(&c, "", "k.cu", ""), RUNG_EINVAL);
	rung_compiled_clear(&c);
	rung_compiled_clear(NULL);
}

int main(void)
{
	T_RUN(test_code_key);
	T_RUN(test_sgemm_task_kernel);
	T_RUN(test_syntax_error_file_line);
	T_RUN(test_template_entry);
	T_RUN(test_plain_and_extern_c);
	T_RUN(test_missing_entry);
	T_RUN(test_device_function_is_not_a_kernel);
	T_RUN(test_headers_in_memory_and_dirs);
	T_RUN(test_options);
	T_RUN(test_ptxas_failures);
	T_RUN(test_source_encoding);
	T_RUN(test_header_encoding);
	T_RUN(test_spec_arch_and_options);
	T_RUN(test_params_against_spec);
	T_RUN(test_bad_request);
	return t_done();
}
