/* Kernels committed as PTX or CUBIN (a DSL's output, docs/SPEC.md "Kernels
 * from DSLs"), without a GPU: the entry checked against the PTX .entry list
 * or the CUBIN's kernels (a missing one lists those that exist), the
 * parameters against the [arg] sections (count, with or without the scratch
 * arguments, and sizes), registers from ptxas or the CUBIN, and the spec's
 * kind = scratch. The PTX is tests/fixtures/ptx/triton_like.ptx, in the shape
 * of Triton's output (two scratch pointers after the kernel's own arguments). */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "core/ptxscan.h"
#include "core/sidecar.h"
#include "core/spec.h"
#include "gpu/compile.h"
#include "gpu/cubin.h"
#include "gpu/plan.h"
#include "gpu/ptxas_run.h"
#include "harness.h"

#define SPEC_HEAD                                                                                                     \
	"[task]\nname = softmax\nkernel = softmax.ptx\nentry = softmax_kernel\nreference = reference.cu\n"              \
	"reference_entry = softmax_ref\n[dims]\nR = 64\nC = 1000\n"                                                    \
	"[arg x]\nkind = input\ndtype = f32\nshape = R, C\n"                                                           \
	"[arg y]\nkind = output\ndtype = f32\nshape = R, C\n"                                                          \
	"[arg R]\nkind = scalar\ndtype = %s\nvalue = R\n"                                                              \
	"[arg C]\nkind = scalar\ndtype = i32\nvalue = C\n"
#define SCRATCH "[arg global_scratch]\nkind = scratch\nsize = 0\n[arg profile_scratch]\nkind = scratch\nsize = 0\n"
#define LAUNCH "[launch]\ngrid = R\nblock = 128\n"

static rung_spec *spec_of(const char *text)
{
	rung_spec *s = NULL;
	int rc = rung_spec_parse(&s, text, "t/rung.ini", "t");
	CHECK_INT(rc, 0);
	if (rc)
		fprintf(stderr, "%s\n", rung_error_last());
	return s;
}

static char *spec_text(const char *r_dtype, const char *scratch)
{
	char *t = malloc(4096);
	int n = snprintf(t, 4096, SPEC_HEAD, r_dtype);
	snprintf(t + n, 4096 - (size_t)n, "%s%s", scratch, LAUNCH);
	return t;
}

static char *fixture(size_t *len)
{
	char *src = t_slurp(RUNG_TEST_DIR "/fixtures/ptx/triton_like.ptx", len);
	CHECK(src != NULL);
	return src;
}

static void test_ptx_scan(void)
{
	size_t len = 0;
	char *ptx = fixture(&len);
	if (!ptx)
		return;
	char names[256];
	int n = 0;
	CHECK_INT(rung_ptx_entry_names(names, sizeof(names), &n, ptx, len), 0);
	CHECK_INT(n, 2);
	CHECK_STR(names, "softmax_kernel, helper_kernel");
	rung_ptx_entry e;
	CHECK_INT(rung_ptx_entry_info(&e, ptx, len, "softmax_kernel"), 0);
	CHECK_INT(e.nparams, 6);
	const int64_t want[6] = {8, 8, 4, 4, 8, 8};
	for (int i = 0; i < 6; i++)
		CHECK_INT(e.size[i], want[i]);
	CHECK_INT(e.reqntid[0], 128);
	CHECK_INT(e.reqntid[1], 1);
	CHECK_INT(e.maxntid[0], 0);
	CHECK_INT(rung_ptx_entry_info(&e, ptx, len, "softmax"), RUNG_ENOTFOUND);
	/* arrays and vector types */
	const char *p = ".visible .entry k(\n\t.param .align 8 .b8 k_param_0[16],\n\t.param .f16x2 k_param_1,\n"
	                "\t.param .u8 k_param_2 // a comment, with a comma\n)\n.maxntid 256\n{ ret; }\n";
	CHECK_INT(rung_ptx_entry_info(&e, p, strlen(p), "k"), 0);
	CHECK_INT(e.nparams, 3);
	CHECK_INT(e.size[0], 16);
	CHECK_INT(e.size[1], 4);
	CHECK_INT(e.size[2], 1);
	CHECK_INT(e.maxntid[0], 256);
	CHECK_INT(e.maxntid[1], 1);
	free(ptx);
}

static int compile_file(rung_compiled *c, const rung_spec *s, const char *src, size_t len, const char *file,
			const char *entry)
{
	rung_compile_req req = {.src = src, .src_len = len, .file = file, .entry = entry, .arch = "sm_90", .spec = s};
	return rung_compile(c, &req);
}

static void test_ptx_entry_and_params(void)
{
	size_t len = 0;
	char *ptx = fixture(&len);
	char *t = spec_text("i32", SCRATCH);
	rung_spec *s = spec_of(t);
	if (!ptx || !s)
		goto out;
	CHECK_INT(s->nargs, 6);
	CHECK_INT(s->nscratch, 2);
	CHECK(s->args[4].scratch && s->args[4].kind == RUNG_ARG_SCALAR && s->args[4].dtype == RUNG_DT_I64);
	rung_compiled c;
	CHECK_INT(compile_file(&c, s, ptx, len, "softmax.ptx", "softmax_kernel"), 0);
	CHECK_STR(c.error, "");
	CHECK_STR(c.lowered, "softmax_kernel");
	CHECK(c.ptx && c.ptx_len == len);
	if (rung_ptxas_path()) { /* assembled ahead: registers known before the GPU runs */
		CHECK(c.cubin && c.cubin_len > 4 && memcmp(c.cubin, "\x7f" "ELF", 4) == 0);
		CHECK(c.kinfo.valid);
		CHECK_STR(c.kinfo.name, "softmax_kernel");
		CHECK(c.kinfo.regs > 0 && c.kinfo.regs <= 255);
		CHECK_INT(c.kinfo.barriers, 1);
		CHECK_CONTAINS(c.log, "Compiling entry function 'softmax_kernel' for 'sm_90'");
	} else { /* the driver JIT-compiles it in the worker */
		CHECK(!c.kinfo.valid);
		CHECK_CONTAINS(c.log, "ptxas not found");
	}
	rung_compiled_clear(&c);

	/* an entry the PTX does not have: the ones it has */
	CHECK_INT(compile_file(&c, s, ptx, len, "softmax.ptx", "softmax"), RUNG_ECOMPILE);
	CHECK_STR(c.error, "softmax.ptx: no kernel 'softmax' (its .entry list: softmax_kernel, helper_kernel)");
	CHECK_STR(rung_error_last(), c.error);
	rung_compiled_clear(&c);
	CHECK_INT(compile_file(&c, s, ".version 8.0\n.target sm_90\n", 0, "e.ptx", "k"), RUNG_ECOMPILE);
	CHECK_STR(c.error, "e.ptx: no kernel 'k': the PTX has no .entry");
	rung_compiled_clear(&c);

	/* Triton writes ".target sm_90a": assembled for sm_90a although the spec
	 * says sm_90 (ptxas refuses sm_90a PTX for sm_90) */
	if (rung_ptxas_path()) {
		const char *a = ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k(.param .u64 a)\n{\n"
		                "\tret;\n}\n";
		rung_compile_req req = {.src = a, .file = "a.ptx", .entry = "k", .arch = "sm_90"};
		CHECK_INT(rung_compile(&c, &req), 0);
		CHECK_STR(c.error, "");
		CHECK_CONTAINS(c.log, "for 'sm_90a'");
		rung_compiled_clear(&c);
	}

	/* ptxas's own error, with the PTX line */
	if (rung_ptxas_path()) {
		const char *bad = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 a)\n{\n"
		                  "\tbogus.op %r1;\n\tret;\n}\n";
		rung_compile_req req = {.src = bad, .file = "bad.ptx", .entry = "k", .arch = "sm_90"};
		CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
		CHECK_CONTAINS(c.error, "bad.ptx: ptxas: ");
		CHECK_CONTAINS(c.error, "(PTX line 6)");
		rung_compiled_clear(&c);
	}
out:
	rung_spec_free(s);
	free(t);
	free(ptx);
}

static void test_ptx_param_mismatch(void)
{
	size_t len = 0;
	char *ptx = fixture(&len);
	/* count: one scratch argument too few (6 parameters, 5 [arg]s, 1 scratch) */
	char *t = spec_text("i32", "[arg global_scratch]\nkind = scratch\nsize = 0\n");
	rung_spec *s = spec_of(t);
	rung_compiled c;
	if (ptx && s) {
		CHECK_INT(compile_file(&c, s, ptx, len, "softmax.ptx", "softmax_kernel"), RUNG_ECOMPILE);
		CHECK_STR(c.error, "softmax.ptx: kernel 'softmax_kernel' takes 6 parameters but t/rung.ini declares 5 [arg] "
		                   "sections (the last is [arg global_scratch] at t/rung.ini:26)");
		rung_compiled_clear(&c);
	}
	rung_spec_free(s);
	free(t);
	/* size: R declared i64, the PTX takes .u32 */
	t = spec_text("i64", SCRATCH);
	s = spec_of(t);
	if (ptx && s) {
		CHECK_INT(compile_file(&c, s, ptx, len, "softmax.ptx", "softmax_kernel"), RUNG_ECOMPILE);
		CHECK_STR(c.error, "softmax.ptx: parameter 3 of 'softmax_kernel' is 4 bytes, but [arg R] (t/rung.ini:18) "
		                   "passes 8 (i64)");
		rung_compiled_clear(&c);
	}
	rung_spec_free(s);
	free(t);
	free(ptx);
}

/* A CUDA kernel (the reference, a CUDA version of the ladder) takes the
 * arguments without the scratch ones. */
static void test_cuda_without_scratch(void)
{
	char *t = spec_text("i32", SCRATCH);
	rung_spec *s = spec_of(t);
	if (s) {
		rung_compiled c;
		const char *src = "extern \"C\" __global__ void softmax_ref(const float *x, float *y, int R, int C)\n"
		                  "{ if (threadIdx.x < R) y[threadIdx.x] = x[threadIdx.x] + C; }\n";
		CHECK_INT(compile_file(&c, s, src, 0, "reference.cu", "softmax_ref"), 0);
		rung_compiled_clear(&c);
		src = "extern \"C\" __global__ void softmax_ref(const float *x, float *y, int R)\n"
		      "{ if (threadIdx.x < R) y[threadIdx.x] = x[threadIdx.x]; }\n";
		CHECK_INT(compile_file(&c, s, src, 0, "reference.cu", "softmax_ref"), RUNG_ECOMPILE);
		CHECK_CONTAINS(c.error, "takes 3 parameters but t/rung.ini declares 6 [arg] sections");
		rung_compiled_clear(&c);
	}
	rung_spec_free(s);
	free(t);
}

static void test_cubin(void)
{
	size_t len = 0;
	char *ptx = fixture(&len);
	char *t = spec_text("i32", SCRATCH);
	rung_spec *s = spec_of(t);
	if (!ptx || !s || !rung_ptxas_path())
		goto out;
	rung_compiled pc, c;
	CHECK_INT(compile_file(&pc, s, ptx, len, "softmax.ptx", "softmax_kernel"), 0);
	char names[256];
	int n = 0;
	CHECK_INT(rung_cubin_entry_names(names, sizeof(names), &n, pc.cubin, pc.cubin_len), 0);
	CHECK_INT(n, 2);
	CHECK_CONTAINS(names, "softmax_kernel");
	CHECK_CONTAINS(names, "helper_kernel");
	rung_cubin_entry e;
	CHECK_INT(rung_cubin_entry_info(&e, pc.cubin, pc.cubin_len, "softmax_kernel"), 0);
	CHECK_INT(e.nparams, 6);
	const int64_t want[6] = {8, 8, 4, 4, 8, 8};
	for (int i = 0; i < 6; i++)
		CHECK_INT(e.size[i], want[i]);
	CHECK(e.has_regs);
	CHECK_INT(e.regs, pc.kinfo.regs); /* EIATTR_REGCOUNT says what ptxas said */
	/* a damaged count (every EIATTR_REGCOUNT of the image: format 04, attribute 2f, 8 bytes) is refused */
	static const uint32_t bad[] = {0xffffffffu, 0x7fffffffu, (1u << 26) + 1, 256};
	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		unsigned char *img = malloc(pc.cubin_len);
		CHECK(img != NULL);
		if (!img)
			break;
		memcpy(img, pc.cubin, pc.cubin_len);
		int patched = 0;
		for (size_t o = 0; o + 12 <= pc.cubin_len; o++)
			if (!memcmp(img + o, "\x04\x2f\x08\x00", 4)) {
				for (int b = 0; b < 4; b++)
					img[o + 8 + b] = (unsigned char)(bad[k] >> (8 * b));
				patched++;
			}
		CHECK(patched >= 1);
		rung_cubin_entry d;
		CHECK_INT(rung_cubin_entry_info(&d, img, pc.cubin_len, "softmax_kernel"), RUNG_EINVAL);
		CHECK_CONTAINS(rung_error_last(), "EIATTR_REGCOUNT says");
		CHECK_CONTAINS(rung_error_last(), "a damaged CUBIN");
		rung_error_clear();
		free(img);
	}

	/* the CUBIN as a version: loaded as it is, its registers read from it */
	CHECK_INT(compile_file(&c, s, pc.cubin, pc.cubin_len, "softmax.cubin", "softmax_kernel"), 0);
	CHECK(c.cubin_len == pc.cubin_len && memcmp(c.cubin, pc.cubin, pc.cubin_len) == 0);
	CHECK(c.ptx == NULL);
	CHECK(c.kinfo.valid);
	CHECK_INT(c.kinfo.regs, pc.kinfo.regs);
	rung_compiled_clear(&c);
	CHECK_INT(compile_file(&c, s, pc.cubin, pc.cubin_len, "softmax.cubin", "softmax"), RUNG_ECOMPILE);
	CHECK_CONTAINS(c.error, "softmax.cubin: no kernel 'softmax' (its kernels: ");
	CHECK_CONTAINS(c.error, "softmax_kernel");
	rung_compiled_clear(&c);
	CHECK_INT(compile_file(&c, s, "not an elf", 10, "x.cubin", "softmax_kernel"), RUNG_ECOMPILE);
	CHECK_STR(c.error, "x.cubin: not a CUBIN (an ELF64 image from ptxas or nvcc -cubin)");
	rung_compiled_clear(&c);
	rung_spec_free(s);
	free(t);
	t = spec_text("i64", SCRATCH);
	s = spec_of(t);
	if (s) {
		CHECK_INT(compile_file(&c, s, pc.cubin, pc.cubin_len, "softmax.cubin", "softmax_kernel"), RUNG_ECOMPILE);
		CHECK_STR(c.error, "softmax.cubin: parameter 3 of 'softmax_kernel' is 4 bytes, but [arg R] "
		                   "(t/rung.ini:18) passes 8 (i64)");
		rung_compiled_clear(&c);
	}
	rung_compiled_clear(&pc);
out:
	rung_spec_free(s);
	free(t);
	free(ptx);
}

static void spec_fails(const char *scratch, const char *want)
{
	char *t = spec_text("i32", scratch);
	rung_spec *s = NULL;
	CHECK_INT(rung_spec_parse(&s, t, "t/rung.ini", "t"), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), want);
	rung_spec_free(s);
	free(t);
}

static void test_spec_scratch(void)
{
	spec_fails("[arg gs]\nkind = scratch\n", "t/rung.ini:26: [arg gs] size: missing; a scratch argument needs a size "
	                                         "in bytes (e.g. size = 0)");
	spec_fails("[arg gs]\nkind = scratch\nsize = 0\ndtype = i64\n",
	           "t/rung.ini:29: [arg gs] dtype: a scratch argument takes only 'size' (bytes)");
	spec_fails("[arg gs]\nkind = scratch\nsize = R-65\n",
	           "t/rung.ini:28: [arg gs] size: 'R-65' = -1, must be at least 0");
	spec_fails("[arg gs]\nkind = scratch\nsize = 0\n[arg n]\nkind = scalar\ndtype = i32\nvalue = 1\n",
	           "t/rung.ini:29: [arg gs]: [arg n] comes after the scratch argument [arg gs]; scratch arguments go last");
	spec_fails("[arg gs]\nkind = output\ndtype = f32\nshape = R\nsize = 0\n",
	           "t/rung.ini:30: [arg gs] size: only a scratch argument takes a size");
	spec_fails("[arg gs]\nkind = scrach\n",
	           "t/rung.ini:27: [arg gs] kind: unknown kind 'scrach' (expected input, output, inout, scalar or scratch)");
}

/* A size > 0: a buffer of that many bytes (an expression over the dims). */
static void test_spec_scratch_size(void)
{
	char *t = spec_text("i32", "[arg gs]\nkind = scratch\nsize = R*4\n[arg ps]\nkind = scratch\nsize = 0\n");
	rung_spec *s = spec_of(t);
	if (s) {
		CHECK_INT(s->nscratch, 2);
		int64_t b = -1;
		CHECK_INT(rung_arg_scratch_bytes(&b, &s->args[4], &s->dims, s->path), 0);
		CHECK_INT(b, 256);
		CHECK_INT(rung_arg_scratch_bytes(&b, &s->args[5], &s->dims, s->path), 0);
		CHECK_INT(b, 0);
		/* the plan carries the bytes per shape; the worker passes a buffer for 256, null for 0 */
		rung_launch l;
		CHECK(rung_launch_for_kernel(&l, s, "", "softmax.ptx", NULL) >= 0);
		rung_plan *p = calloc(1, sizeof(*p));
		CHECK_INT(rung_plan_build(p, s, &l, NULL, 1), 0);
		CHECK_INT(p->nargs, 6);
		CHECK(p->args[4].scratch && p->args[5].scratch && !p->args[3].scratch);
		CHECK_INT(p->shapes[p->nshapes - 1].scratch_bytes[4], 256);
		CHECK_INT(p->shapes[p->nshapes - 1].scratch_bytes[5], 0);
		free(p);
		rung_launch_clear(&l);
	}
	rung_spec_free(s);
	free(t);
}

/* Triton 3.6's metadata: global_scratch_size at line 2, profile_scratch_size at line 6. */
#define SIDECAR(gs, ps) \
	"{\n \"global_scratch_size\": " gs ",\n \"global_scratch_align\": 1,\n \"name\": \"softmax_kernel\",\n" \
	" \"num_warps\": 4,\n \"profile_scratch_size\": " ps ",\n \"shared\": 16\n}\n"

static int launch_sc(rung_launch *l, const rung_spec *s, const char *sc)
{
	memset(l, 0, sizeof(*l));
	return rung_launch_with_sidecar(l, s, "", "t/softmax.ptx", sc, strlen(sc), "t/softmax.json");
}

/* The spec declares no scratch: the sidecar adds them, and the compile
 * counts and sizes them against the .entry list. */
static void test_sidecar_adds_scratch(void)
{
	size_t len = 0;
	char *ptx = fixture(&len);
	char *t = spec_text("i32", "");
	rung_spec *s = spec_of(t);
	rung_launch l;
	rung_compiled c;
	if (!ptx || !s)
		goto out;
	CHECK_INT(s->nargs, 4);
	CHECK(launch_sc(&l, s, SIDECAR("256", "0")) >= 0);
	CHECK_INT(l.nscratch, 2);
	CHECK_STR(l.scratch[0].name, "global_scratch");
	CHECK_STR(l.scratch[0].key, "global_scratch_size");
	CHECK_INT(l.scratch[0].per_program, 256);
	CHECK_INT(l.scratch[0].line, 2);
	CHECK_STR(l.scratch[1].name, "profile_scratch");
	CHECK_INT(l.scratch[1].per_program, 0);
	CHECK_INT(l.scratch[1].line, 6);
	CHECK_STR(l.sidecar, "t/softmax.json");
	int64_t b = -1;
	CHECK_INT(rung_launch_scratch_bytes(&b, &l, 0, &s->dims), 0);
	CHECK_INT(b, 256 * 64); /* per program x grid = R = 64 programs */
	CHECK_INT(rung_launch_scratch_bytes(&b, &l, 1, &s->dims), 0);
	CHECK_INT(b, 0);

	/* 6 parameters: the 4 [arg]s and the 2 the sidecar adds */
	rung_compile_req req = {.src = ptx, .src_len = len, .file = "softmax.ptx", .entry = "softmax_kernel",
	                        .arch = "sm_90", .spec = s, .launch = &l};
	CHECK_INT(rung_compile(&c, &req), 0);
	CHECK_STR(c.error, "");
	rung_compiled_clear(&c);
	/* without the sidecar's: 6 parameters, 4 [arg]s */
	req.launch = NULL;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_CONTAINS(c.error, "takes 6 parameters but t/rung.ini declares 4 [arg] sections");
	rung_compiled_clear(&c);

	/* the plan: the added arguments after the spec's, bytes per shape over the grid */
	rung_plan *p = calloc(1, sizeof(*p));
	CHECK_INT(rung_plan_build(p, s, &l, NULL, 7), 0);
	CHECK_INT(p->nargs, 6);
	CHECK_STR(p->args[4].name, "global_scratch");
	CHECK(p->args[4].scratch && p->args[5].scratch && p->args[4].kind == RUNG_ARG_SCALAR);
	CHECK_INT(p->args[4].dtype, RUNG_DT_I64);
	const rung_plan_shape *bench = &p->shapes[p->nshapes - 1];
	CHECK_INT(bench->scratch_bytes[4], 256 * 64);
	CHECK_INT(bench->scratch_bytes[5], 0);
	CHECK_INT(bench->ival[4], 0);
	CHECK_INT(p->shapes[0].scratch_bytes[4], 256 * p->shapes[0].geom.grid[0]); /* the odd shape: R = 63 */
	CHECK_INT(p->shapes[0].geom.grid[0], 63);
	/* through the worker protocol */
	json_t *j = rung_plan_to_json(p);
	rung_plan *q = calloc(1, sizeof(*q));
	CHECK_INT(rung_plan_from_json(q, j), 0);
	CHECK_INT(q->nargs, 6);
	CHECK(q->args[4].scratch && q->args[5].scratch && !q->args[3].scratch);
	CHECK_INT(q->shapes[q->nshapes - 1].scratch_bytes[4], 256 * 64);
	CHECK_INT(q->shapes[0].scratch_bytes[4], 256 * 63);
	json_decref(j);
	free(q);
	free(p);
	rung_launch_clear(&l);

	/* num_ctas: scratch per CTA */
	CHECK(launch_sc(&l, s, "{\"num_warps\": 4, \"num_ctas\": 2, \"global_scratch_size\": 100}") >= 0);
	CHECK_INT(l.nscratch, 1);
	CHECK_INT(l.scratch[0].per_program, 200);
	/* one added, the PTX takes two: the count names the sidecar */
	req.launch = &l;
	CHECK_INT(rung_compile(&c, &req), RUNG_ECOMPILE);
	CHECK_STR(c.error, "softmax.ptx: kernel 'softmax_kernel' takes 6 parameters, but t/rung.ini declares 4 [arg] "
	                   "sections (the last is [arg C] at t/rung.ini:22) and t/softmax.json:1 adds 1 scratch argument "
	                   "(global_scratch_size): it should take 5");
	rung_compiled_clear(&c);
	rung_launch_clear(&l);

	/* an added scratch where the PTX takes 4 bytes */
	const char *k4 = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 a, .param .u64 b,"
	                 " .param .u32 c, .param .u32 d, .param .u32 e, .param .u64 f)\n{\n\tret;\n}\n";
	CHECK(launch_sc(&l, s, SIDECAR("256", "0")) >= 0);
	rung_compile_req r4 = {.src = k4, .file = "k.ptx", .entry = "k", .arch = "sm_90", .spec = s, .launch = &l};
	CHECK_INT(rung_compile(&c, &r4), RUNG_ECOMPILE);
	CHECK_STR(c.error, "k.ptx: parameter 5 of 'k' is 4 bytes, but scratch argument global_scratch (added by "
	                   "t/softmax.json:2, global_scratch_size) passes 8 (a scratch pointer)");
	rung_compiled_clear(&c);
	rung_launch_clear(&l);

	/* an alignment rung's buffers cannot give */
	CHECK_INT(launch_sc(&l, s, "{\"num_warps\": 4,\n\"global_scratch_size\": 64,\n\"global_scratch_align\": 1024}"),
	          RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "t/softmax.json:3: global_scratch_align = 1024: rung's scratch buffers are aligned "
	                             "to 256 bytes, so a larger alignment is not supported");
	/* a sidecar without the keys (Triton before 3.3) adds nothing */
	CHECK(launch_sc(&l, s, "{\"num_warps\": 4}") >= 0);
	CHECK_INT(l.nscratch, 0);
	rung_launch_clear(&l);
out:
	rung_spec_free(s);
	free(t);
	free(ptx);
}

/* The spec declares them: an explicit size wins, and must hold the sidecar's. */
static void test_sidecar_declared_scratch(void)
{
	char *t = spec_text("i32", SCRATCH);
	rung_spec *s = spec_of(t);
	rung_launch l;
	if (!s)
		goto out;
	CHECK(launch_sc(&l, s, SIDECAR("0", "0")) >= 0);
	CHECK_INT(l.nscratch, 0); /* nothing added: the spec has its own */
	rung_launch_clear(&l);
	CHECK_INT(launch_sc(&l, s, SIDECAR("256", "0")), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "t/rung.ini:28: [arg global_scratch] size: 0 bytes, but t/softmax.json:2 says "
	                             "global_scratch_size = 256: the kernel needs that much global scratch per program "
	                             "(x 64 programs = 16384 bytes); drop the kind = scratch arguments (the sidecar adds "
	                             "them) or make it at least 16384");
	CHECK_INT(launch_sc(&l, s, SIDECAR("0", "8")), RUNG_EINVAL);
	CHECK_CONTAINS(rung_error_last(), "t/rung.ini:31: [arg profile_scratch] size: 0 bytes, but t/softmax.json:6 says "
	                                  "profile_scratch_size = 8");
	rung_spec_free(s);
	free(t);
	/* large enough under every size set */
	t = spec_text("i32", "[arg gs]\nkind = scratch\nsize = R*256\n[arg ps]\nkind = scratch\nsize = 0\n");
	s = spec_of(t);
	if (s) {
		CHECK(launch_sc(&l, s, SIDECAR("256", "0")) >= 0);
		CHECK_INT(l.nscratch, 0);
		rung_launch_clear(&l);
	}
out:
	rung_spec_free(s);
	free(t);
}

static void test_lang_of(void)
{
	CHECK_INT(rung_kernel_lang_of("softmax.cu"), RUNG_LANG_CUDA);
	CHECK_INT(rung_kernel_lang_of("t/softmax.ptx"), RUNG_LANG_PTX);
	CHECK_INT(rung_kernel_lang_of("softmax.cubin"), RUNG_LANG_CUBIN);
	CHECK_INT(rung_kernel_lang_of(".ptx"), RUNG_LANG_CUDA);
	CHECK_STR(rung_kernel_lang_name(RUNG_LANG_PTX), "ptx");
}

int main(void)
{
	T_RUN(test_lang_of);
	T_RUN(test_ptx_scan);
	T_RUN(test_ptx_entry_and_params);
	T_RUN(test_ptx_param_mismatch);
	T_RUN(test_cuda_without_scratch);
	T_RUN(test_cubin);
	T_RUN(test_spec_scratch);
	T_RUN(test_spec_scratch_size);
	T_RUN(test_sidecar_adds_scratch);
	T_RUN(test_sidecar_declared_scratch);
	return t_done();
}
