/* One job inside the worker: load modules, check launch geometry against the
 * device, then for every (shape, seed): generate inputs, run the reference into
 * its own buffers, run the candidate on guarded and poisoned buffers, and check
 * guards, inputs, unwritten outputs and metrics. The run rung is the first case
 * (benchmark shape, first seed); the check rung is every case. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/guard.h"
#include "core/half.h"
#include "core/metrics.h"
#include "core/npy.h"
#include "core/rng.h"
#include "gpu/worker_child.h"

#define FILL_CHUNK (INT64_C(1) << 24)

static bool is_tensor(const rung_plan_arg *a)
{
	return a->kind != RUNG_ARG_SCALAR;
}

static bool is_out(const rung_plan_arg *a)
{
	return a->kind == RUNG_ARG_OUTPUT || a->kind == RUNG_ARG_INOUT;
}

static bool has_input(const rung_plan_arg *a)
{
	return a->kind == RUNG_ARG_INPUT || a->kind == RUNG_ARG_INOUT;
}

static void fmt_bytes(char *buf, size_t len, double b)
{
	if (b >= 1024.0 * 1024 * 1024)
		rung__sfmt(buf, len, "%.1f GiB", b / (1024.0 * 1024 * 1024));
	else if (b >= 1024.0 * 1024)
		rung__sfmt(buf, len, "%.1f MiB", b / (1024.0 * 1024));
	else
		rung__sfmt(buf, len, "%.0f bytes", b);
}

void rung__describe_fault(char *buf, size_t len, CUresult r, const char *what)
{
	char d[256];
	rung_cu_describe(d, sizeof(d), r);
	rung__sfmt(buf, len, "%s in %s", d, what);
}

CUresult rung__launch(rung_wctx *c, CUfunction f, const rung_geom *g, void **params)
{
	return rung_cu.cuLaunchKernel(f, (unsigned)g->grid[0], (unsigned)g->grid[1], (unsigned)g->grid[2],
				      (unsigned)g->block[0], (unsigned)g->block[1], (unsigned)g->block[2],
				      (unsigned)g->smem, c->stream, params, NULL);
}

void rung__scalar_param(rung_kparam *kp, const rung_plan *p, const rung_plan_shape *sh, int i)
{
	memset(kp, 0, sizeof(*kp));
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

void *rung__make_input(const rung_plan *p, const rung_plan_shape *sh, int i, uint64_t seed, char *reason, size_t rlen)
{
	const rung_plan_arg *a = &p->args[i];
	size_t es = rung_dtype_size(a->dtype);
	int64_t n = sh->numel[i];
	if (a->init == RUNG_INIT_NPY) {
		rung_npy arr;
		if (rung_npy_load(&arr, a->npy) ||
		    rung_npy_expect(&arr, a->npy, a->name, a->dtype, sh->rank[i], sh->extent[i])) {
			rung__sfmt(reason, rlen, "%s", rung_error_last());
			rung_npy_free(&arr);
			return NULL;
		}
		void *d = arr.data;
		arr.data = NULL;
		rung_npy_free(&arr);
		return d;
	}
	void *buf = malloc((size_t)n * es + 1);
	if (!buf) {
		char b[32];
		fmt_bytes(b, sizeof(b), (double)n * (double)es);
		rung__sfmt(reason, rlen, "out of host memory for input %s (%s)", a->name, b);
		return NULL;
	}
	for (int64_t s = 0; s < n; s += FILL_CHUNK) {
		int64_t k = n - s < FILL_CHUNK ? n - s : FILL_CHUNK;
		if (rung_fill_at((char *)buf + (size_t)s * es, a->dtype, s, k, a->init, a->a, a->b, seed, a->name)) {
			rung__sfmt(reason, rlen, "input %s: %s", a->name, rung_error_last());
			free(buf);
			return NULL;
		}
	}
	return buf;
}

/* --- one (shape, seed) case -------------------------------------------------- */

typedef struct {
	void *in[RUNG_MAX_ARGS];  /* host inputs (input/inout) */
	void *exp[RUNG_MAX_ARGS]; /* expected outputs (output/inout) */
	rung_dbuf buf[RUNG_MAX_ARGS];
	void *whole[RUNG_MAX_ARGS]; /* host readback of a whole guarded buffer */
} rung_case;

static void free_dbufs(rung_case *k, int nargs)
{
	for (int i = 0; i < nargs; i++) {
		if (k->buf[i].base)
			rung_cu.cuMemFree(k->buf[i].base);
		memset(&k->buf[i], 0, sizeof(k->buf[i]));
		free(k->whole[i]);
		k->whole[i] = NULL;
	}
}

static void free_case(rung_case *k, int nargs)
{
	free_dbufs(k, nargs);
	for (int i = 0; i < nargs; i++) {
		free(k->in[i]);
		free(k->exp[i]);
		k->in[i] = k->exp[i] = NULL;
	}
}

/* Where: "" for the run case, " at M=127,N=255 seed 2/3" otherwise. */
static void case_where(char *buf, size_t len, const rung_plan *p, int s, int k)
{
	char dims[256];
	rung_dimset_format(dims, sizeof(dims), &p->shapes[s].dims);
	rung__sfmt(buf, len, " at %s seed %d/%d", dims, k + 1, p->nseeds);
}

/* Allocates guarded buffers and uploads: canary bands, inputs (copies of k->in),
 * poison over outputs. Returns 0, or 1 with reason (OOM: not fatal). */
static int upload(rung_wjob *j, rung_case *k, const rung_plan_shape *sh, char *reason, size_t rlen)
{
	const rung_plan *p = j->p;
	size_t g = rung_guard_size();
	void *band = malloc(g);
	if (!band) {
		rung__sfmt(reason, rlen, "out of host memory");
		return 1;
	}
	rung_guard_fill_band(band, g);
	int ret = 0;
	for (int i = 0; i < p->nargs && !ret; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (!is_tensor(a))
			continue;
		rung_dbuf *b = &k->buf[i];
		b->bytes = (size_t)sh->numel[i] * rung_dtype_size(a->dtype);
		b->total = rung_guard_total(b->bytes);
		CUresult r = rung_cu.cuMemAlloc(&b->base, b->total);
		if (r != CUDA_SUCCESS) {
			char sz[32], d[160];
			fmt_bytes(sz, sizeof(sz), (double)b->total);
			rung_cu_describe(d, sizeof(d), r);
			rung__sfmt(reason, rlen, "%s allocating %s (%s)", d, a->name, sz);
			b->base = 0;
			ret = 1;
			if (rung_cu_is_sticky(r))
				j->fatal = true;
			break;
		}
		b->ptr = b->base + g;
		const void *payload = k->in[i];
		void *poison = NULL;
		if (a->kind == RUNG_ARG_OUTPUT) {
			poison = malloc(b->bytes + 1);
			if (!poison) {
				rung__sfmt(reason, rlen, "out of host memory for output %s", a->name);
				ret = 1;
				break;
			}
			rung_poison_fill(poison, a->dtype, sh->numel[i], 0);
			payload = poison;
		}
		if ((r = rung_cu.cuMemcpyHtoD(b->base, band, g)) != CUDA_SUCCESS ||
		    (r = rung_cu.cuMemcpyHtoD(b->ptr, payload, b->bytes)) != CUDA_SUCCESS ||
		    (r = rung_cu.cuMemcpyHtoD(b->ptr + b->bytes, band, g)) != CUDA_SUCCESS) {
			char d[160];
			rung_cu_describe(d, sizeof(d), r);
			rung__sfmt(reason, rlen, "upload of %s failed: %s", a->name, d);
			j->fatal = j->fatal || rung_cu_is_sticky(r);
			ret = 1;
		}
		free(poison);
	}
	free(band);
	return ret;
}

static int readback(rung_wjob *j, rung_case *k, int i, char *reason, size_t rlen)
{
	rung_dbuf *b = &k->buf[i];
	k->whole[i] = malloc(b->total);
	if (!k->whole[i]) {
		rung__sfmt(reason, rlen, "out of host memory reading back %s", j->p->args[i].name);
		return 1;
	}
	CUresult r = rung_cu.cuMemcpyDtoH(k->whole[i], b->base, b->total);
	if (r != CUDA_SUCCESS) {
		char d[160];
		rung_cu_describe(d, sizeof(d), r);
		rung__sfmt(reason, rlen, "reading back %s failed: %s", j->p->args[i].name, d);
		j->fatal = j->fatal || rung_cu_is_sticky(r);
		return 1;
	}
	return 0;
}

static void build_params(rung_kparam *kp, void **params, const rung_plan *p, const rung_plan_shape *sh,
			 const rung_case *k)
{
	for (int i = 0; i < p->nargs; i++) {
		if (is_tensor(&p->args[i])) {
			memset(&kp[i], 0, sizeof(kp[i]));
			kp[i].p = k->buf[i].ptr;
		} else {
			rung__scalar_param(&kp[i], p, sh, i);
		}
		params[i] = &kp[i];
	}
}

/* Launches f and waits. Returns CUDA_SUCCESS or the error; *ms gets the event time. */
static CUresult launch_sync(rung_wctx *c, CUfunction f, const rung_geom *g, void **params, double *ms)
{
	CUevent e0 = NULL, e1 = NULL;
	if (ms) {
		*ms = NAN;
		if (rung_cu.cuEventCreate(&e0, CU_EVENT_DEFAULT) != CUDA_SUCCESS ||
		    rung_cu.cuEventCreate(&e1, CU_EVENT_DEFAULT) != CUDA_SUCCESS)
			e0 = e1 = NULL;
	}
	if (e0)
		rung_cu.cuEventRecord(e0, c->stream);
	CUresult r = rung__launch(c, f, g, params);
	if (r == CUDA_SUCCESS && e1)
		rung_cu.cuEventRecord(e1, c->stream);
	CUresult s = rung_cu.cuStreamSynchronize(c->stream);
	if (r == CUDA_SUCCESS)
		r = s;
	if (r == CUDA_SUCCESS && e0 && e1) {
		float t = 0;
		if (rung_cu.cuEventElapsedTime(&t, e0, e1) == CUDA_SUCCESS)
			*ms = t;
	}
	if (e0 && !rung_cu_is_sticky(r))
		rung_cu.cuEventDestroy(e0);
	if (e1 && !rung_cu_is_sticky(r))
		rung_cu.cuEventDestroy(e1);
	return r;
}

/* Device memory the case needs at once (one set of guarded buffers). */
static size_t case_bytes(const rung_plan *p, const rung_plan_shape *sh)
{
	size_t total = 0;
	for (int i = 0; i < p->nargs; i++)
		if (is_tensor(&p->args[i]))
			total += rung_guard_total((size_t)sh->numel[i] * rung_dtype_size(p->args[i].dtype));
	return total;
}

/* Expected outputs: from the reference kernel, or golden .npy files. Returns 0,
 * or 1 with reason ("reference failed: ..."). */
static int expected(rung_wjob *j, rung_case *k, int s, char *reason, size_t rlen)
{
	const rung_plan *p = j->p;
	const rung_plan_shape *sh = &p->shapes[s];
	if (!p->has_ref) {
		for (int i = 0; i < p->nargs; i++) {
			const rung_plan_arg *a = &p->args[i];
			if (!is_out(a))
				continue;
			if (!a->golden[0]) {
				rung__sfmt(reason, rlen, "reference failed: no reference kernel and no golden file for %s", a->name);
				return 1;
			}
			rung_npy arr;
			if (rung_npy_load(&arr, a->golden) ||
			    rung_npy_expect(&arr, a->golden, a->name, a->dtype, sh->rank[i], sh->extent[i])) {
				rung__sfmt(reason, rlen, "reference failed: %s", rung_error_last());
				rung_npy_free(&arr);
				return 1;
			}
			k->exp[i] = arr.data;
			arr.data = NULL;
			rung_npy_free(&arr);
		}
		return 0;
	}
	char why[512];
	if (upload(j, k, sh, why, sizeof(why))) {
		rung__sfmt(reason, rlen, "reference failed: %s", why);
		free_dbufs(k, p->nargs);
		return 1;
	}
	rung_kparam kp[RUNG_MAX_ARGS];
	void *params[RUNG_MAX_ARGS];
	build_params(kp, params, p, sh, k);
	CUresult r = launch_sync(j->c, j->rfn, &sh->ref_geom, params, NULL);
	if (r != CUDA_SUCCESS) {
		rung__describe_fault(why, sizeof(why), r, p->ref.name);
		rung__sfmt(reason, rlen, "reference failed: %s", why);
		j->fatal = j->fatal || rung_cu_is_sticky(r) || r == CUDA_ERROR_LAUNCH_TIMEOUT;
		if (!j->fatal)
			free_dbufs(k, p->nargs);
		return 1;
	}
	for (int i = 0; i < p->nargs; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (!is_out(a))
			continue;
		if (readback(j, k, i, why, sizeof(why))) {
			rung__sfmt(reason, rlen, "reference failed: %s", why);
			free_dbufs(k, p->nargs);
			return 1;
		}
		rung_guard_report rep;
		if (rung_guard_check(&rep, k->whole[i], k->buf[i].bytes) > 0) {
			rung_guard_describe(why, sizeof(why), a->name, &rep, rung_dtype_size(a->dtype));
			rung__sfmt(reason, rlen, "reference failed: %s", why);
			free_dbufs(k, p->nargs);
			return 1;
		}
		const char *payload = (const char *)k->whole[i] + rung_guard_size();
		int64_t first;
		int64_t un = a->kind == RUNG_ARG_OUTPUT ? rung_poison_count(&first, payload, a->dtype, sh->numel[i], 0) : 0;
		if (un > 0) {
			rung__sfmt(reason, rlen, "reference failed: left %" PRId64 " of %" PRId64 " elements of %s unwritten (first at %" PRId64 ")",
				 un, sh->numel[i], a->name, first);
			free_dbufs(k, p->nargs);
			return 1;
		}
		k->exp[i] = malloc(k->buf[i].bytes + 1);
		if (!k->exp[i]) {
			rung__sfmt(reason, rlen, "out of host memory for the expected %s", a->name);
			free_dbufs(k, p->nargs);
			return 1;
		}
		memcpy(k->exp[i], payload, k->buf[i].bytes);
	}
	free_dbufs(k, p->nargs);
	return 0;
}

static int add_metric(rung_result *res, const rung_check_metric *m)
{
	rung_check_metric *nm = realloc(res->metrics, (size_t)(res->nmetrics + 1) * sizeof(*nm));
	if (!nm)
		return RUNG_ENOMEM;
	res->metrics = nm;
	res->metrics[res->nmetrics++] = *m;
	return 0;
}

typedef enum { CASE_OK, CASE_FAULT, CASE_WRONG } case_outcome;

/* Runs one case. On CASE_FAULT / CASE_WRONG, reason says why. */
static case_outcome run_case(rung_wjob *j, int s, int kseed, bool first, char *reason, size_t rlen)
{
	const rung_plan *p = j->p;
	const rung_plan_shape *sh = &p->shapes[s];
	rung_wctx *c = j->c;
	uint64_t seed = p->seeds[kseed];
	rung_case k;
	memset(&k, 0, sizeof(k));
	char where[320] = "";
	if (!first)
		case_where(where, sizeof(where), p, s, kseed);
	char why[512];
	case_outcome out = CASE_OK;

	/* Device memory first, so a huge shape fails cleanly before host allocation. */
	size_t need = case_bytes(p, sh), free_b = 0, total_b = 0;
	if (rung_cu.cuMemGetInfo(&free_b, &total_b) == CUDA_SUCCESS && need > free_b) {
		char a[32], b[32];
		fmt_bytes(a, sizeof(a), (double)need);
		fmt_bytes(b, sizeof(b), (double)free_b);
		rung__sfmt(reason, rlen, "out of device memory: the arguments need %s, %s free%s", a, b, where);
		return CASE_FAULT;
	}
	for (int i = 0; i < p->nargs; i++) {
		if (!has_input(&p->args[i]))
			continue;
		if (!(k.in[i] = rung__make_input(p, sh, i, seed, why, sizeof(why)))) {
			rung__sfmt(reason, rlen, "%s%s", why, where);
			out = CASE_FAULT;
			goto done;
		}
	}
	if (expected(j, &k, s, why, sizeof(why))) {
		rung__sfmt(reason, rlen, "%s%s", why, where);
		out = CASE_FAULT;
		goto done;
	}
	if (upload(j, &k, sh, why, sizeof(why))) {
		rung__sfmt(reason, rlen, "%s%s", why, where);
		out = CASE_FAULT;
		goto done;
	}
	rung_kparam kp[RUNG_MAX_ARGS];
	void *params[RUNG_MAX_ARGS];
	build_params(kp, params, p, sh, &k);
	double ms = NAN;
	CUresult r = launch_sync(c, j->kfn, &sh->geom, params, first ? &ms : NULL);
	if (r != CUDA_SUCCESS) {
		rung__describe_fault(why, sizeof(why), r, p->kernel.name);
		rung__sfmt(reason, rlen, "%s%s", why, where);
		j->fatal = j->fatal || rung_cu_is_sticky(r) || r == CUDA_ERROR_LAUNCH_TIMEOUT;
		out = CASE_FAULT;
		goto done;
	}
	if (first)
		j->res->run_ms = ms;

	/* Guards of every buffer, inputs unchanged, then metrics per output. */
	for (int i = 0; i < p->nargs; i++) {
		if (!is_tensor(&p->args[i]))
			continue;
		if (readback(j, &k, i, why, sizeof(why))) {
			rung__sfmt(reason, rlen, "%s%s", why, where);
			out = CASE_FAULT;
			goto done;
		}
	}
	for (int i = 0; i < p->nargs && out == CASE_OK; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (!is_tensor(a))
			continue;
		rung_guard_report rep;
		if (rung_guard_check(&rep, k.whole[i], k.buf[i].bytes) > 0) {
			rung_guard_describe(why, sizeof(why), a->name, &rep, rung_dtype_size(a->dtype));
			rung__sfmt(reason, rlen, "%s%s", why, where);
			out = CASE_WRONG;
		}
	}
	for (int i = 0; i < p->nargs && out == CASE_OK; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (a->kind != RUNG_ARG_INPUT)
			continue;
		const char *payload = (const char *)k.whole[i] + rung_guard_size();
		int64_t at = rung_input_first_change(k.in[i], payload, a->dtype, sh->numel[i]);
		if (at >= 0) {
			int64_t coord[RUNG_MAX_RANK];
			int rank = rung_unflatten(coord, at, sh->rank[i], sh->extent[i], sh->numel[i]);
			char cs[128];
			rung_fmt_coord(cs, sizeof(cs), coord, rank);
			rung__sfmt(reason, rlen, "input %s was modified at %s (declare it kind = inout if that is intended)%s",
				 a->name, cs, where);
			out = CASE_WRONG;
		}
	}
	bool finite = true;
	for (int i = 0; i < p->nargs; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (!is_out(a))
			continue;
		rung_check_opts o;
		rung_check_opts_default(&o, a->dtype);
		if (p->has_atol) {
			o.atol = p->atol;
			o.atol_scaled = false;
		}
		if (p->has_rtol)
			o.rtol = p->rtol;
		o.has_min_psnr = p->has_min_psnr;
		o.min_psnr = p->min_psnr;
		o.has_min_cossim = p->has_min_cossim;
		o.min_cossim = p->min_cossim;
		o.check_poison = a->kind == RUNG_ARG_OUTPUT;
		o.poison_variant = 0;
		rung_check_metric m;
		memset(&m, 0, sizeof(m));
		const char *payload = (const char *)k.whole[i] + rung_guard_size();
		if (rung_metrics_compute(&m, a->name, payload, k.exp[i], a->dtype, sh->numel[i], sh->rank[i],
					 sh->extent[i], &o)) {
			rung__sfmt(reason, rlen, "metrics for %s: %s", a->name, rung_error_last());
			out = CASE_FAULT;
			goto done;
		}
		m.dims = sh->dims;
		m.seed = seed;
		if (m.nan_count > 0 || m.inf_count > 0)
			finite = false;
		add_metric(j->res, &m);
		if (!m.pass && out == CASE_OK) {
			rung__sfmt(reason, rlen, "%s: %s%s", a->name, m.reason[0] ? m.reason : "mismatch", where);
			out = CASE_WRONG;
		}
	}
	if (first)
		j->res->run_finite = finite;
done:
	if (j->fatal) {
		/* The context is gone: do not touch device memory again. */
		for (int i = 0; i < p->nargs; i++) {
			memset(&k.buf[i], 0, sizeof(k.buf[i]));
		}
	}
	free_case(&k, p->nargs);
	return out;
}

/* --- geometry and modules ---------------------------------------------------- */

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

void rung__wjob_run(rung_wctx *c, const rung_plan *p, const void *kcubin, size_t kcubin_len, const void *rcubin,
		    size_t rcubin_len, rung_result *res, bool *fatal)
{
	rung_wjob j;
	memset(&j, 0, sizeof(j));
	j.c = c;
	j.p = p;
	j.res = res;
	char reason[1024];
	res->run_dims = p->shapes[p->nshapes - 1].dims;
	res->nshapes = p->nshapes;
	res->nseeds = p->nseeds;
	rung_cu.cuCtxSetCurrent(c->ctx);

	rung__wstep(res, RUNG_STEP_RUN, RUNG_S_RUNNING, NULL);
	rung__wprogress(c, RUNG_STEP_RUN, 0, "loading modules");
	if (rung__load_fn(&j, kcubin, kcubin_len, &p->kernel, &j.kmod, &j.kfn, &j.kstatic_smem, reason, sizeof(reason))) {
		rung__wstep(res, RUNG_STEP_RUN, RUNG_S_FAILED, "%s", reason);
		goto out;
	}
	if (p->has_ref && rung__load_fn(&j, rcubin, rcubin_len, &p->ref, &j.rmod, &j.rfn, &j.rstatic_smem, reason, sizeof(reason))) {
		rung__wstep(res, RUNG_STEP_RUN, RUNG_S_FAILED, "reference failed: %s", reason);
		goto out;
	}
	if (rung__check_geometry(&j, j.kfn, j.kstatic_smem, false, p->kernel.name, reason, sizeof(reason))) {
		rung__wstep(res, RUNG_STEP_RUN, RUNG_S_FAILED, "%s", reason);
		goto out;
	}
	if (p->has_ref && rung__check_geometry(&j, j.rfn, j.rstatic_smem, true, p->ref.name, reason, sizeof(reason))) {
		rung__wstep(res, RUNG_STEP_RUN, RUNG_S_FAILED, "reference failed: %s", reason);
		goto out;
	}

	/* run: benchmark shape, first seed */
	int bench = p->nshapes - 1;
	char dims[256];
	rung_dimset_format(dims, sizeof(dims), &p->shapes[bench].dims);
	rung__wprogress(c, RUNG_STEP_RUN, 0, "%s seed 1/%d", dims, p->nseeds);
	case_outcome o = run_case(&j, bench, 0, true, reason, sizeof(reason));
	if (o == CASE_FAULT) {
		rung__wstep(res, RUNG_STEP_RUN, RUNG_S_FAILED, "%s", reason);
		goto out;
	}
	rung__wstep(res, RUNG_STEP_RUN, RUNG_S_OK, NULL);

	/* check: every shape x every seed (the run case counts as the first) */
	char first_fail[1024] = "";
	if (o == CASE_WRONG)
		rung__sfmt(first_fail, sizeof(first_fail), "%s", reason);
	rung__wstep(res, RUNG_STEP_CHECK, RUNG_S_RUNNING, NULL);
	int total = p->nshapes * p->nseeds, done = 1;
	for (int s = 0; s < p->nshapes && !j.fatal; s++) {
		for (int k = 0; k < p->nseeds && !j.fatal; k++) {
			if (s == bench && k == 0)
				continue;
			rung_dimset_format(dims, sizeof(dims), &p->shapes[s].dims);
			rung__wprogress(c, RUNG_STEP_CHECK, (double)done / total, "%s seed %d/%d", dims, k + 1, p->nseeds);
			o = run_case(&j, s, k, false, reason, sizeof(reason));
			done++;
			if (o == CASE_FAULT) {
				rung__wstep(res, RUNG_STEP_CHECK, RUNG_S_FAILED, "%s", reason);
				goto out;
			}
			if (o == CASE_WRONG && !first_fail[0])
				rung__sfmt(first_fail, sizeof(first_fail), "%s", reason);
		}
	}
	if (first_fail[0]) {
		rung__wstep(res, RUNG_STEP_CHECK, RUNG_S_FAILED, "%s", first_fail);
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_SKIPPED, "check failed");
		goto out;
	}
	rung__wstep(res, RUNG_STEP_CHECK, RUNG_S_OK, NULL);

	if (p->flags & RUNG_JOB_NO_BENCH) {
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_SKIPPED, "not requested");
		goto out;
	}
	rung__wbench(&j);
out:
	if (!j.fatal) {
		if (j.kmod)
			rung_cu.cuModuleUnload(j.kmod);
		if (j.rmod)
			rung_cu.cuModuleUnload(j.rmod);
	}
	*fatal = j.fatal;
}
