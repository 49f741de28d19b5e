/* rung.h tracing and per-PC SASS counts on the GPU (one worker, a few seconds):
 *  - a traced kernel with two regions over 64 blocks: both regions have
 *    count == 64, every duration >= 0, the per-SM block counts sum to 64;
 *  - `--sass` counts of a loop kernel (#pragma unroll 1, ITERS iterations,
 *    WARPS full warps): the loop body FFMA executed ITERS * WARPS times (warp
 *    level) and 32x that at thread level; nothing executed more often
 *    (SKIPPED counts as a pass with a note when profiling is not permitted).
 * Exit 77 (skipped) without a CUDA driver or device. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "core/sass.h"
#include "core/sass_prof.h"
#include "core/spec.h"
#include "core/trace.h"
#include "gpu/compile.h"
#include "gpu/nvdisasm.h"
#include "gpu/worker.h"
#include "harness.h"
#include "app_eval.h"

static rung_worker *W;

enum { N = 64 * 128, ITERS = 100, WARPS = N / 32 };

static const char *ini =
	"[task]\nname = trace_test\nkernel = kernel.cu\nentry = %s\nreference = reference.cu\nreference_entry = ref\narch = sm_90\n"
	"[dims]\nN = 8192\n[check]\nsizes = N=8192\nseeds = 1\n"
	"[arg x]\nkind = input\ndtype = f32\nshape = N\ninit = uniform(-1, 1)\n"
	"[arg y]\nkind = output\ndtype = f32\nshape = N\n"
	"[arg n]\nkind = scalar\ndtype = i32\nvalue = N\n"
	"[launch]\ngrid = cdiv(N,128)\nblock = 128\n";

static const char *traced =
	"#include \"rung.h\"\n"
	"extern \"C\" __global__ void traced(const float *x, float *y, int n)\n"
	"{\n"
	"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"\tRUNG_TRACE_BEGIN(1);\n"
	"\tfloat v = i < n ? x[i] : 0.0f;\n"
	"\tRUNG_TRACE_END(1);\n"
	"\tRUNG_TRACE_BEGIN(2);\n"
	"\tif (i < n)\n"
	"\t\ty[i] = 2.0f * v;\n"
	"\tRUNG_TRACE_END(2);\n"
	"}\n";

static const char *loop_body =
	"(const float *x, float *y, int n)\n"
	"{\n"
	"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"\tif (i >= n)\n"
	"\t\treturn;\n"
	"\tfloat a = x[i], b = 1.0f + 1e-4f * (float)(n & 1);\n"
	"#pragma unroll 1\n"
	"\tfor (int k = 0; k < 100; k++)\n"
	"\t\ta = fmaf(a, b, 0.5f);\n"
	"\ty[i] = a;\n"
	"}\n";

static const char *make_task(const char *entry, const char *kernel_src, const char *ref_src)
{
	const char *dir = t_tmpdir();
	char path[600], text[4096];
	snprintf(path, sizeof(path), "%s/rung.ini", dir);
	snprintf(text, sizeof(text), ini, entry);
	t_write(path, text);
	snprintf(path, sizeof(path), "%s/kernel.cu", dir);
	t_write(path, kernel_src);
	snprintf(path, sizeof(path), "%s/reference.cu", dir);
	t_write(path, ref_src);
	return dir;
}

static int eval(rung_result *r, const char *dir, const char *src, unsigned flags)
{
	rung_spec *spec = NULL;
	int rc = rung_spec_load(&spec, dir);
	if (rc) {
		fprintf(stderr, "%s: %s\n", dir, rung_error_last());
		rung_result_init(r);
		return rc;
	}
	rung_job job = {.spec = spec, .kernel_src = src, .kernel_file = "kernel.cu", .seed = 7, .seed_set = true,
			.flags = flags, .label = dir};
	rc = t_app_evaluate(r, W, &job, NULL, NULL);
	printf("     %s: %s %s\n", rung_status_name(rung_result_status(r)), rung_result_reason(r),
	       r->steps[RUNG_STEP_PROFILE].reason);
	rung_spec_free(spec);
	return rc;
}

static void test_trace_two_regions(void)
{
	const char *ref = "extern \"C\" __global__ void ref(const float *x, float *y, int n)\n"
			  "{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = 2.0f * x[i]; }\n";
	const char *dir = make_task("traced", traced, ref);
	rung_result r;
	CHECK_INT(eval(&r, dir, traced, RUNG_JOB_TRACE), 0);
	CHECK_INT(r.steps[RUNG_STEP_CHECK].status, RUNG_S_OK);
	CHECK_INT(r.steps[RUNG_STEP_PROFILE].status, RUNG_S_OK);
	CHECK_INT(r.steps[RUNG_STEP_BENCH].status, RUNG_S_SKIPPED);
	json_t *aux = r.aux ? json_loads(r.aux, 0, NULL) : NULL;
	rung_trace t;
	rung_trace_init(&t);
	CHECK_INT(rung_trace_from_json(&t, json_object_get(aux, "trace")), 0);
	rung_trace_print(stdout, &t, 4);
	CHECK_INT(t.nregions, 2);
	CHECK_INT(t.nrec, 128);
	if (t.nregions == 2) {
		CHECK_INT(t.regions[0].region, 1);
		CHECK_INT(t.regions[0].count, 64);
		CHECK_INT(t.regions[1].region, 2);
		CHECK_INT(t.regions[1].count, 64);
		CHECK(t.regions[0].max_us < 1000);
	}
	int blocks = 0;
	for (int i = 0; i < t.nsms; i++)
		blocks += t.sms[i].blocks;
	CHECK_INT(blocks, 64);
	CHECK(t.kernel_us > 0);
	rung_trace_clear(&t);
	json_decref(aux);
	rung_result_clear(&r);
}

static void test_sass_loop_counts(void)
{
	char ksrc[2048], rsrc[2048];
	snprintf(ksrc, sizeof(ksrc), "extern \"C\" __global__ void loop%s", loop_body);
	snprintf(rsrc, sizeof(rsrc), "extern \"C\" __global__ void ref%s", loop_body);
	const char *dir = make_task("loop", ksrc, rsrc);
	rung_result r;
	CHECK_INT(eval(&r, dir, ksrc, RUNG_JOB_PROFILE | RUNG_JOB_SASS), 0);
	CHECK_INT(r.steps[RUNG_STEP_CHECK].status, RUNG_S_OK);
	const rung_step *ps = &r.steps[RUNG_STEP_PROFILE];
	if (ps->status == RUNG_S_SKIPPED) {
		printf("     note: SASS metrics not permitted here: %s\n", ps->reason);
		rung_result_clear(&r);
		return;
	}
	CHECK_INT(ps->status, RUNG_S_OK);
	json_t *aux = r.aux ? json_loads(r.aux, 0, NULL) : NULL;
	rung_sass_counts c;
	CHECK_INT(rung_sass_counts_from_json(&c, json_object_get(aux, "sass")), 0);
	uint64_t maxi = 0;
	for (int i = 0; i < c.n; i++)
		if (c.pcs[i].inst > maxi)
			maxi = c.pcs[i].inst;
	CHECK_INT(maxi, (uint64_t)ITERS * WARPS);

	/* The FFMA of the loop body, found in the listing by pc. */
	rung_compile_req req = {.src = ksrc, .file = "kernel.cu", .entry = "loop", .arch = "sm_90"};
	rung_compiled kc;
	char *listing = NULL;
	if (rung_compile(&kc, &req) == 0 && rung_sass_from_cubin(&listing, kc.cubin, kc.cubin_len) == 0) {
		rung_sass s;
		CHECK_INT(rung_sass_normalize(&s, listing, 0), 0);
		int64_t *inst = calloc((size_t)s.nlines + 1, sizeof(*inst));
		rung_sass_annotate(inst, &s, rung_sass_find_func(&s, "loop"), &c);
		/* The hottest FFMA is the loop body's (b = 1 + 1e-4*(n&1) may also be an
		 * FFMA, executed once per thread): ITERS per warp, ITERS per thread. */
		int ffma = 0, hot = -1;
		for (int i = 0; i < s.nlines; i++)
			if (!strncmp(s.lines[i].text, "FFMA", 4)) {
				ffma++;
				if (hot < 0 || inst[i] > inst[hot])
					hot = i;
			}
		CHECK(ffma >= 1);
		if (hot >= 0) {
			CHECK_INT(inst[hot], (int64_t)ITERS * WARPS);
			CHECK_INT(rung_sass_counts_at(&c, s.lines[hot].pc)->thread_inst, (uint64_t)ITERS * N);
		}
		rung_sass_print_hot(stdout, &s, -1, &c, 8);
		free(inst);
		rung_sass_clear(&s);
	} else {
		printf("     note: no nvdisasm listing (%s): FFMA line not checked\n", rung_error_last());
	}
	free(listing);
	rung_compiled_clear(&kc);
	rung_sass_counts_clear(&c);
	json_decref(aux);
	rung_result_clear(&r);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	rung_worker_opts o = {.exe = RUNG_BIN};
	if (rung_worker_open(&W, &o))
		return 1;
	rung_env env;
	int rc = rung_worker_env(&env, W);
	if (rc == RUNG_ENODEV) {
		printf("skipped: %s\n", rung_error_last());
		rung_worker_close(W);
		return T_SKIP;
	}
	if (rc) {
		fprintf(stderr, "worker: %s\n", rung_error_last());
		return 1;
	}
	printf("device: %s (%s), driver %s\n", env.gpu, env.arch, env.driver);
	T_RUN(test_trace_two_regions);
	T_RUN(test_sass_loop_counts);
	rung_worker_close(W);
	return t_done();
}
