/* One (shape, seed) case. By default the check runs on the device
 * (gpu/worker/devcheck.c: inputs generated into the buffers, the reference's
 * peak, poison and chunk hashes, the inputs' hashes and the metrics, with only
 * summaries read back: the same bits as the host path below). The host path
 * (RUNG_HOST_CHECK=1, or no device module) is streamed so the worker never
 * holds whole host copies of the arguments (peak RSS stays near the four 4 MiB
 * staging buffers):
 *  - inputs are generated chunk by chunk (rung_fill_at on a thread pool) into
 *    one staging slab while the previous slab is uploaded (pinned memory, async
 *    copies: generation and PCIe overlap) to the candidate's buffer; the
 *    reference's copy is then made on the device. A 64-bit hash per chunk of
 *    RUNG_METRICS_CHUNK elements is kept so "input unchanged" is checked later
 *    by reading the candidate's buffer back and hashing it (a changed chunk is
 *    regenerated to find the first changed element exactly). npy inputs are
 *    loaded whole and compared directly;
 *  - outputs are poisoned on the device (cuMemsetD32/D16/D8 with the pattern,
 *    chunked uploads for 8-byte dtypes); guard bands are written and read back
 *    alone;
 *  - the reference runs on its own buffers, which stay on the device; its output
 *    is read back once in slabs to check it wrote everything, find its peak |value|
 *    and hash every chunk (a later mismatch means something overwrote it);
 *  - metrics read candidate and reference slabs back together and feed
 *    rung_metrics_feed per chunk on the thread pool, merged in chunk order
 *    (core/metrics.h: bit-identical to rung_metrics_compute on whole arrays).
 *  Every readback is double-buffered: the next slab is copied while the host
 *  works on this one (the slabs and the walk: gpu/worker/stage.c; inputs:
 *  gpu/worker/input.c).
 * Device memory: candidate and reference buffers exist at once (about twice the
 * arguments' size). */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/guard.h"
#include "core/metrics.h"
#include "core/npy.h"
#include "core/par.h"
#include "core/rng.h"
#include "core/timing.h"
#include "gpu/worker/bset.h"
#include "gpu/worker/case.h"
#include "gpu/worker/devcheck.h"
#include "gpu/worker/input.h"
#include "gpu/worker/launch.h"
#include "gpu/worker/report.h"
#include "gpu/worker/stage.h"
#include "gpu/worker/verify.h"

#define CH RUNG_METRICS_CHUNK

/* --- small helpers ------------------------------------------------------------ */

static bool is_tensor(const rung_plan_arg *a)
{
	return a->kind != RUNG_ARG_SCALAR;
}

/* --- device buffers ------------------------------------------------------------ */

typedef struct {
	rung_dist dist;                    /* the case's input distribution */
	rung_init_kind init[RUNG_MAX_ARGS]; /* each argument's init under it (rung_dist_init) */
	rung_dbuf cand[RUNG_MAX_ARGS], ref[RUNG_MAX_ARGS];
	uint64_t *in_hash[RUNG_MAX_ARGS];  /* generated inputs: per chunk */
	void *in_host[RUNG_MAX_ARGS];      /* npy inputs: whole */
	uint64_t *ref_hash[RUNG_MAX_ARGS]; /* reference outputs: per chunk */
	double peak[RUNG_MAX_ARGS];        /* reference outputs: max |finite| */
} rung_case;

static void free_case(rung_case *k, int nargs, bool fatal)
{
	for (int i = 0; i < nargs; i++) {
		if (!fatal) { /* after a sticky error the context is gone: leave device memory */
			if (k->cand[i].base)
				rung_cu.cuMemFree(k->cand[i].base);
			if (k->ref[i].base)
				rung_cu.cuMemFree(k->ref[i].base);
		}
		free(k->in_hash[i]);
		free(k->in_host[i]);
		free(k->ref_hash[i]);
	}
	memset(k, 0, sizeof(*k));
}

static int alloc_buf(rung_wjob *j, rung_dbuf *b, const rung_plan_arg *a, int64_t numel, char *reason, size_t rlen)
{
	b->bytes = (size_t)numel * rung_dtype_size(a->dtype);
	/* under compute-sanitizer every buffer has its exact size and no band of
	 * rung's own, so memcheck reports every read past its end, even one whose
	 * value the kernel masks out (in a band it would be allocated memory) */
	b->bare = (j->p->flags & RUNG_JOB_SANITIZE) != 0;
	b->total = b->bare ? (b->bytes ? b->bytes : 1) : rung_guard_total(b->bytes);
	CUresult r = rung_cu.cuMemAlloc(&b->base, b->total);
	if (r != CUDA_SUCCESS) {
		char sz[32], d[160];
		rung__fmt_bytes(sz, sizeof(sz), (double)b->total);
		rung_cu_describe(d, sizeof(d), r);
		rung__sfmt(reason, rlen, "%s allocating %s (%s)", d, a->name, sz);
		b->base = 0;
		j->fatal = j->fatal || rung_cu_is_sticky(r);
		return 1;
	}
	b->ptr = b->base + (b->bare ? 0 : rung_guard_size());
	return 0;
}

/* Reads both bands back; returns corrupted bytes (rep filled) or -1 with reason. */
static int64_t check_bands(rung_wjob *j, const rung_dbuf *b, const char *name, rung_guard_report *rep, char *reason,
			   size_t rlen)
{
	if (b->bare) { /* no bands to check (a sanitize run) */
		memset(rep, 0, sizeof(*rep));
		return 0;
	}
	size_t g = rung_guard_size();
	unsigned char both[2 * 4096];
	CUresult r;
	if ((r = rung_cu.cuMemcpyDtoH(both, b->base, g)) != CUDA_SUCCESS ||
	    (r = rung_cu.cuMemcpyDtoH(both + g, b->ptr + b->bytes, g)) != CUDA_SUCCESS) {
		rung__cu_fail(j, r, reason, rlen, "reading back", name);
		return -1;
	}
	/* checked as a whole copy of an empty payload: after-band offsets move by bytes */
	int64_t bad = rung_guard_check_key(rep, both, 0, b->band);
	if (bad > 0) {
		if (rep->first >= 0)
			rep->first += (int64_t)b->bytes;
		if (rep->last >= 0)
			rep->last += (int64_t)b->bytes;
	}
	return bad;
}

/* Poison over n elements at ptr: a memset where the pattern repeats every 4, 2
 * or 1 bytes, chunked uploads for 8-byte patterns. */
static int poison_dev(rung_wjob *j, CUdeviceptr ptr, rung_dtype dt, int64_t n, const char *name, char *reason,
		      size_t rlen)
{
	unsigned char pat[8];
	size_t es = rung_dtype_size(dt);
	rung_poison_bits(pat, dt, 0);
	CUresult r = CUDA_SUCCESS;
	if (n <= 0)
		return 0;
	if (es == 4) {
		uint32_t w;
		memcpy(&w, pat, 4);
		r = rung_cu.cuMemsetD32(ptr, w, (size_t)n);
	} else if (es == 2) {
		uint16_t h;
		memcpy(&h, pat, 2);
		r = rung_cu.cuMemsetD16(ptr, h, (size_t)n);
	} else if (es == 1) {
		r = rung_cu.cuMemsetD8(ptr, pat[0], (size_t)n);
	} else {
		int64_t slab = rung__slab_elems(es), fill = n < slab ? n : slab;
		rung_poison_fill(rung__stage(0), dt, fill, 0);
		for (int64_t s = 0; s < n && r == CUDA_SUCCESS; s += slab) {
			int64_t cnt = n - s < slab ? n - s : slab;
			r = rung_cu.cuMemcpyHtoD(ptr + (size_t)s * es, rung__stage(0), (size_t)cnt * es);
		}
	}
	if (r != CUDA_SUCCESS)
		return rung__cu_fail(j, r, reason, rlen, "poisoning of", name);
	return 0;
}

/* --- launches ------------------------------------------------------------------ */

static void build_params(rung_kparam *kp, void **params, const rung_plan *p, const rung_plan_shape *sh,
			 const rung_dbuf *buf)
{
	for (int i = 0; i < p->nargs; i++) {
		if (is_tensor(&p->args[i])) {
			memset(&kp[i], 0, sizeof(kp[i]));
			kp[i].p = buf[i].ptr;
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
	CUresult r = rung__scratch_zero(c->stream); /* before every launch, outside the event pair */
	if (r != CUDA_SUCCESS)
		return r;
	if (e0)
		rung_cu.cuEventRecord(e0, c->stream);
	r = rung__launch(c, f, g, params);
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

/* --- streaming passes over device buffers ---------------------------------------- */

typedef struct {
	rung_dtype dt;
	size_t es;
	int64_t s0, cnt;          /* slab */
	const char *got, *ref;    /* slab data (got may be NULL) */
	/* reference pass */
	bool count_poison;
	int64_t *pcount, *pfirst; /* per chunk */
	double *peaks;            /* per chunk */
	uint64_t *hash;           /* per chunk: written (reference pass) or checked */
	unsigned char *changed;   /* per chunk: 1 when the hash differs */
	/* metrics pass */
	const rung_metrics_ctx *ctx;
	rung_metrics_acc *acc;    /* per chunk of the slab (each holds an error map: merged slab by slab) */
} pass_job;

static void ref_chunk(void *ud, int64_t k)
{
	pass_job *w = ud;
	int64_t off = k * CH, cnt = w->cnt - off < CH ? w->cnt - off : CH, c = (w->s0 + off) / CH;
	const char *r = w->ref + (size_t)off * w->es;
	w->peaks[c] = rung_metrics_peak(r, w->dt, cnt);
	w->hash[c] = rung__hash_bytes(r, (size_t)cnt * w->es);
	if (w->count_poison) {
		int64_t first;
		w->pcount[c] = rung_poison_count(&first, r, w->dt, cnt, 0);
		w->pfirst[c] = first >= 0 ? w->s0 + off + first : -1;
	}
}

static void metrics_chunk(void *ud, int64_t k)
{
	pass_job *w = ud;
	int64_t off = k * CH, cnt = w->cnt - off < CH ? w->cnt - off : CH, c = (w->s0 + off) / CH;
	const char *g = w->got + (size_t)off * w->es, *r = w->ref + (size_t)off * w->es;
	rung_metrics_acc_init(&w->acc[k], w->s0 + off); /* acc per chunk of this slab */
	rung_metrics_feed(w->ctx, &w->acc[k], g, r, cnt);
	w->changed[c] = rung__hash_bytes(r, (size_t)cnt * w->es) != w->hash[c];
}

static void input_chunk(void *ud, int64_t k)
{
	pass_job *w = ud;
	int64_t off = k * CH, cnt = w->cnt - off < CH ? w->cnt - off : CH, c = (w->s0 + off) / CH;
	w->changed[c] = rung__hash_bytes(w->got + (size_t)off * w->es, (size_t)cnt * w->es) != w->hash[c];
}

/* Reference output i: peak, chunk hashes and (outputs) the poison left. Returns
 * 0, or 1 with reason (without the "reference failed: " prefix). */
static int ref_pass(rung_wjob *j, rung_case *k, const rung_plan_shape *sh, int i, char *reason, size_t rlen)
{
	const rung_plan_arg *a = &j->p->args[i];
	size_t es = rung_dtype_size(a->dtype);
	int64_t n = sh->numel[i], nc = rung__nchunks(n);
	int64_t *pcount = calloc((size_t)nc + 1, sizeof(int64_t)), *pfirst = calloc((size_t)nc + 1, sizeof(int64_t));
	double *peaks = calloc((size_t)nc + 1, sizeof(double));
	k->ref_hash[i] = calloc((size_t)nc + 1, sizeof(uint64_t));
	int ret = 0;
	if (!pcount || !pfirst || !peaks || !k->ref_hash[i]) {
		rung__sfmt(reason, rlen, "out of host memory checking %s", a->name);
		ret = 1;
		goto out;
	}
	double peak = 0;
	int64_t un = 0, first = -1;
	if (rung__devcheck_on(j->c)) {
		double t0 = rung_now_s();
		CUresult cr = rung__dev_scan(j->c->stream, k->ref[i].ptr, n, a->dtype, a->kind == RUNG_ARG_OUTPUT, &peak, &un,
					     &first);
		if (cr == CUDA_SUCCESS)
			cr = rung__dev_hash(j->c->stream, k->ref[i].ptr, n, es, k->ref_hash[i]);
		rung_timing_lap("reference: poison+peak+hash (device)", t0);
		if (cr != CUDA_SUCCESS) {
			rung__cu_fail(j, cr, reason, rlen, "checking", a->name);
			ret = 1;
			goto out;
		}
	} else {
		pass_job w = { .dt = a->dtype, .es = es, .count_poison = a->kind == RUNG_ARG_OUTPUT, .pcount = pcount,
			       .pfirst = pfirst, .peaks = peaks, .hash = k->ref_hash[i] };
		rung_slab_walk sw;
		CUresult cr = rung__walk_start(&sw, j, &k->ref[i].ptr, 1, es, n);
		char *bufs[2];
		for (int got = cr == CUDA_SUCCESS ? 1 : -1; got > 0;) {
			double t0 = rung_now_s();
			if ((got = rung__walk_next(&sw, &w.s0, &w.cnt, bufs, &cr)) <= 0)
				break;
			t0 = rung_timing_lap("reference: readback (wait)", t0);
			w.ref = bufs[0];
			rung_par_for(rung__nchunks(w.cnt), ref_chunk, &w);
			rung_timing_lap("reference: poison+peak+hash", t0);
			rung__beat(j, "checking the reference");
		}
		if (cr != CUDA_SUCCESS) {
			rung__cu_fail(j, cr, reason, rlen, "reading back", a->name);
			ret = 1;
			goto out;
		}
		for (int64_t c = 0; c < nc; c++) {
			peak = peaks[c] > peak ? peaks[c] : peak;
			un += pcount[c];
			if (first < 0 && pcount[c] > 0)
				first = pfirst[c];
		}
	}
	k->peak[i] = peak;
	if (un > 0) {
		rung__sfmt(reason, rlen, "left %" PRId64 " of %" PRId64 " elements of %s unwritten (first at %" PRId64 ")",
			 un, n, a->name, first);
		ret = 1;
	}
out:
	free(pcount);
	free(pfirst);
	free(peaks);
	return ret;
}

/* Golden output i (no reference kernel): loaded whole, uploaded to the
 * reference buffer, peak and hashes from the host copy. */
static int golden_pass(rung_wjob *j, rung_case *k, const rung_plan_shape *sh, int i, char *reason, size_t rlen)
{
	const rung_plan_arg *a = &j->p->args[i];
	if (!a->golden[0]) {
		rung__sfmt(reason, rlen, "no reference kernel and no golden file for %s", a->name);
		return 1;
	}
	rung_npy arr;
	if (rung_npy_load(&arr, a->golden) ||
	    rung_npy_expect(&arr, a->golden, a->name, a->dtype, sh->rank[i], sh->extent[i])) {
		rung__sfmt(reason, rlen, "%s", rung_error_last());
		rung_npy_clear(&arr);
		return 1;
	}
	size_t es = rung_dtype_size(a->dtype);
	int64_t n = sh->numel[i], nc = rung__nchunks(n);
	int ret = 0;
	CUresult r = rung_cu.cuMemcpyHtoD(k->ref[i].ptr, arr.data, (size_t)n * es);
	if (r != CUDA_SUCCESS) {
		ret = rung__cu_fail(j, r, reason, rlen, "upload of", a->golden);
		goto out;
	}
	double *peaks = calloc((size_t)nc + 1, sizeof(double));
	k->ref_hash[i] = calloc((size_t)nc + 1, sizeof(uint64_t));
	if (!peaks || !k->ref_hash[i]) {
		free(peaks);
		rung__sfmt(reason, rlen, "out of host memory checking %s", a->name);
		ret = 1;
		goto out;
	}
	pass_job w = { .dt = a->dtype, .es = es, .s0 = 0, .cnt = n, .ref = arr.data, .peaks = peaks,
		       .hash = k->ref_hash[i] };
	rung_par_for(nc, ref_chunk, &w);
	double peak = 0;
	for (int64_t c = 0; c < nc; c++)
		peak = peaks[c] > peak ? peaks[c] : peak;
	k->peak[i] = peak;
	free(peaks);
out:
	rung_npy_clear(&arr);
	return ret;
}

/* Input i (generated) unchanged, on the device: its chunk hashes against those
 * of the generation; a changed chunk alone is read back and compared with the
 * host's fill of it (the first changed element). Returns as input_pass. */
static int64_t device_input_pass(rung_wjob *j, rung_case *k, const rung_plan_shape *sh, int i, uint64_t seed,
				 char *reason, size_t rlen)
{
	const rung_plan_arg *a = &j->p->args[i];
	size_t es = rung_dtype_size(a->dtype);
	int64_t n = sh->numel[i], nc = rung__nchunks(n), at = -1;
	uint64_t *h = malloc(((size_t)nc + 1) * sizeof(uint64_t));
	if (!h) {
		rung__sfmt(reason, rlen, "out of host memory checking %s", a->name);
		return -2;
	}
	double t0 = rung_now_s();
	CUresult cr = rung__dev_hash(j->c->stream, k->cand[i].ptr, n, es, h);
	for (int64_t c = 0; c < nc && cr == CUDA_SUCCESS && at == -1; c++) {
		if (h[c] == k->in_hash[i][c])
			continue;
		int64_t c0 = c * CH, cc = n - c0 < CH ? n - c0 : CH;
		cr = rung_cu.cuMemcpyDtoH(rung__stage(0), k->cand[i].ptr + (size_t)c0 * es, (size_t)cc * es);
		if (cr != CUDA_SUCCESS)
			break;
		rung_fill_at(rung__stage(2), a->dtype, c0, cc, k->init[i], a->a, a->b, seed, a->name);
		int64_t d = rung_input_first_change(rung__stage(2), rung__stage(0), a->dtype, cc);
		at = c0 + (d >= 0 ? d : 0);
	}
	rung_timing_lap("inputs unchanged: hash (device)", t0);
	free(h);
	if (cr != CUDA_SUCCESS) {
		rung__cu_fail(j, cr, reason, rlen, "checking", a->name);
		return -2;
	}
	return at;
}

/* Input i unchanged? Returns -1 (unchanged), the first changed element, or -2
 * with reason on a failure. */
static int64_t input_pass(rung_wjob *j, rung_case *k, const rung_plan_shape *sh, int i, uint64_t seed, char *reason,
			  size_t rlen)
{
	const rung_plan_arg *a = &j->p->args[i];
	size_t es = rung_dtype_size(a->dtype);
	int64_t n = sh->numel[i], nc = rung__nchunks(n);
	unsigned char *changed = NULL;
	if (!k->in_host[i] && !(changed = calloc((size_t)nc + 1, 1))) {
		rung__sfmt(reason, rlen, "out of host memory checking %s", a->name);
		return -2;
	}
	if (!k->in_host[i] && rung__devcheck_on(j->c)) {
		int64_t at = device_input_pass(j, k, sh, i, seed, reason, rlen);
		free(changed);
		return at;
	}
	int64_t at = -1, s = 0, cnt = 0;
	rung_slab_walk sw;
	CUdeviceptr src = k->cand[i].ptr;
	CUresult cr = rung__walk_start(&sw, j, &src, 1, es, n);
	char *bufs[2];
	for (int got = cr == CUDA_SUCCESS ? 1 : -1; got > 0 && at == -1;) {
		double t0 = rung_now_s();
		if ((got = rung__walk_next(&sw, &s, &cnt, bufs, &cr)) <= 0)
			break;
		t0 = rung_timing_lap("inputs unchanged: readback (wait)", t0);
		const char *buf = bufs[0];
		if (k->in_host[i]) {
			int64_t d = rung_input_first_change((const char *)k->in_host[i] + (size_t)s * es, buf, a->dtype, cnt);
			if (d >= 0)
				at = s + d;
		} else {
			pass_job w = { .dt = a->dtype, .es = es, .s0 = s, .cnt = cnt, .got = buf, .hash = k->in_hash[i],
				       .changed = changed };
			rung_par_for(rung__nchunks(cnt), input_chunk, &w);
			for (int64_t c = s / CH; c < rung__nchunks(s + cnt) && at == -1; c++) {
				if (!changed[c])
					continue;
				/* regenerate the chunk with the case's distribution (rung__stage(2): the walk
				 * uses 0 and 1) and find the element */
				int64_t c0 = c * CH, cc = n - c0 < CH ? n - c0 : CH;
				rung_fill_at(rung__stage(2), a->dtype, c0, cc, k->init[i], a->a, a->b, seed, a->name);
				int64_t d = rung_input_first_change(rung__stage(2), buf + (size_t)(c0 - s) * es, a->dtype, cc);
				at = c0 + (d >= 0 ? d : 0);
			}
		}
		rung_timing_lap("inputs unchanged: compare", t0);
		rung__beat(j, "checking inputs");
	}
	rung__stage_drain(); /* stopped early (a change found): the copy in flight */
	if (cr != CUDA_SUCCESS) {
		rung__cu_fail(j, cr, reason, rlen, "reading back", a->name);
		at = -2;
	}
	free(changed);
	return at;
}

/* Metrics of output i: candidate and reference slabs side by side. Returns 0,
 * 1 with reason (failure), or 2 with reason (the reference changed). */
static int metrics_pass(rung_wjob *j, rung_case *k, const rung_plan_shape *sh, int i, rung_check_metric *m,
			char *reason, size_t rlen)
{
	const rung_plan *p = j->p;
	const rung_plan_arg *a = &p->args[i];
	size_t es = rung_dtype_size(a->dtype);
	int64_t n = sh->numel[i], nc = rung__nchunks(n);
	rung_check_opts o;
	rung__plan_check_opts(&o, p, a->dtype);
	rung_check_opts_inputs(&o, k->dist); /* ints: exact */
	if (p->inputs_default && k->dist == RUNG_DIST_WIDE)
		rung_check_opts_lenient(&o); /* the default wide: what it is for, not precision */
	o.check_poison = a->kind == RUNG_ARG_OUTPUT;
	o.poison_variant = 0;
	rung_metrics_ctx ctx;
	if (rung_metrics_begin(&ctx, a->name, a->dtype, n, sh->rank[i], sh->extent[i], &o, k->peak[i])) {
		rung__sfmt(reason, rlen, "metrics for %s: %s", a->name, rung_error_last());
		return 1;
	}
	/* host path: the chunks' accumulators of one slab (each holds a 4 KiB
	 * error map), merged into total in chunk order after each slab (the same
	 * merges as at the end, in the same order); device path: the reference's
	 * chunk hashes */
	bool dev = rung__devcheck_on(j->c);
	int64_t slab_chunks = rung__nchunks(rung__slab_elems(es));
	rung_metrics_acc *acc = dev ? NULL : malloc(((size_t)slab_chunks + 1) * sizeof(*acc));
	uint64_t *h = dev ? malloc(((size_t)nc + 1) * sizeof(uint64_t)) : NULL;
	unsigned char *changed = calloc((size_t)nc + 1, 1);
	rung_metrics_acc total;
	rung_metrics_acc_init(&total, 0);
	int ret = 0;
	if (!(dev ? (void *)h : (void *)acc) || !changed) {
		rung__sfmt(reason, rlen, "metrics for %s: out of host memory", a->name);
		ret = 1;
		goto out;
	}
	if (dev) {
		/* on the device: the reference's chunk hashes, then every chunk fed and
		 * merged there; one accumulator comes back */
		double t0 = rung_now_s();
		CUresult cr = rung__dev_hash(j->c->stream, k->ref[i].ptr, n, es, h);
		for (int64_t c = 0; c < nc && cr == CUDA_SUCCESS; c++)
			changed[c] = h[c] != k->ref_hash[i][c];
		t0 = rung_timing_lap("metrics: reference unchanged (device)", t0);
		if (cr == CUDA_SUCCESS)
			cr = rung__dev_metrics(j->c->stream, k->cand[i].ptr, k->ref[i].ptr, n, &ctx.f, &total);
		rung_timing_lap("metrics: compare (device)", t0);
		if (cr != CUDA_SUCCESS) {
			rung__cu_fail(j, cr, reason, rlen, "comparing", a->name);
			ret = 1;
			goto out;
		}
	} else {
		pass_job w = { .dt = a->dtype, .es = es, .hash = k->ref_hash[i], .changed = changed, .ctx = &ctx,
			       .acc = acc };
		CUdeviceptr src[2] = { k->cand[i].ptr, k->ref[i].ptr };
		rung_slab_walk sw;
		CUresult cr = rung__walk_start(&sw, j, src, 2, es, n);
		char *bufs[2];
		rung_metrics_fold *fold = malloc(sizeof(*fold));
		if (!fold) {
			rung__sfmt(reason, rlen, "metrics for %s: out of host memory", a->name);
			ret = 1;
			goto out;
		}
		rung_metrics_fold_init(fold);
		for (int got = cr == CUDA_SUCCESS ? 1 : -1; got > 0;) {
			double t0 = rung_now_s();
			if ((got = rung__walk_next(&sw, &w.s0, &w.cnt, bufs, &cr)) <= 0)
				break;
			t0 = rung_timing_lap("metrics: readback (wait)", t0);
			w.got = bufs[0];
			w.ref = bufs[1];
			int64_t ks = rung__nchunks(w.cnt);
			rung_par_for(ks, metrics_chunk, &w);
			for (int64_t c = 0; c < ks; c++)
				rung_metrics_fold_add(fold, &acc[c]);
			rung_timing_lap("metrics: compare", t0);
			rung__beat(j, "comparing outputs");
		}
		rung_metrics_fold_end(fold, &total);
		free(fold);
		if (cr != CUDA_SUCCESS) {
			rung__cu_fail(j, cr, reason, rlen, "reading back", a->name);
			ret = 1;
			goto out;
		}
	}
	for (int64_t c = 0; c < nc; c++) {
		if (changed[c]) {
			rung__sfmt(reason, rlen, "the reference's copy of %s changed on the device while %s ran (a write outside its buffers?)",
				 a->name, p->kernel.name);
			ret = 2;
			goto out;
		}
	}
	rung_metrics_end(&ctx, &total, m);
out:
	free(acc);
	free(h);
	free(changed);
	return ret;
}

/* --- the case ------------------------------------------------------------------- */

static int add_metric(rung_result *res, const rung_check_metric *m)
{
	rung_check_metric *nm = realloc(res->metrics, (size_t)(res->nmetrics + 1) * sizeof(*nm));
	if (!nm)
		return RUNG_ENOMEM;
	res->metrics = nm;
	res->metrics[res->nmetrics++] = *m;
	return 0;
}

/* Where: "" for the run case, " at M=127,N=255 seed 2/3" otherwise, and
 * " (inputs wide) at M=127,N=255 seed 1/3" for a distribution besides normal. */
static void case_where(char *buf, size_t len, const rung_plan *p, int s, int k, rung_dist d)
{
	char dims[256], in[48] = "";
	rung_dimset_format(dims, sizeof(dims), &p->shapes[s].dims);
	if (d != RUNG_DIST_NORMAL)
		rung__sfmt(in, sizeof(in), " (inputs %s)", rung_dist_name(d));
	rung__sfmt(buf, len, "%s at %s seed %d/%d", in, dims, k + 1, p->nseeds);
}

/* Device memory one set of guarded buffers needs (the arguments). */
static size_t case_bytes(const rung_plan *p, const rung_plan_shape *sh, bool outputs_only)
{
	size_t total = 0;
	for (int i = 0; i < p->nargs; i++)
		if (is_tensor(&p->args[i]) && (!outputs_only || rung__is_out(&p->args[i])))
			total += rung_guard_total((size_t)sh->numel[i] * rung_dtype_size(p->args[i].dtype));
	return total;
}

/* Buffers, inputs, poison and guards for the reference (ref = true) and the
 * candidate. The reference's copies exist when it has a kernel; golden outputs
 * only get an output buffer. Returns 0, or 1 with reason. */
static int setup(rung_wjob *j, rung_case *k, const rung_plan_shape *sh, uint64_t seed, char *reason, size_t rlen)
{
	const rung_plan *p = j->p;
	char why[512];
	double t0 = rung_now_s();
	for (int i = 0; i < p->nargs; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (!is_tensor(a))
			continue;
		if ((p->has_ref || rung__is_out(a)) && alloc_buf(j, &k->ref[i], a, sh->numel[i], why, sizeof(why))) {
			rung__sfmt(reason, rlen, "reference failed: %s", why);
			j->ref_failed = true;
			return 1;
		}
	}
	for (int i = 0; i < p->nargs; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (is_tensor(a) && alloc_buf(j, &k->cand[i], a, sh->numel[i], reason, rlen))
			return 1;
	}
	t0 = rung_timing_lap("device alloc", t0);
	for (int i = 0; i < p->nargs; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (!is_tensor(a))
			continue;
		CUdeviceptr dst[2] = { k->cand[i].ptr, k->ref[i].ptr };
		int ndst = p->has_ref ? 2 : 1;
		if (rung__has_input(a)) {
			if (a->init == RUNG_INIT_NPY) {
				if (!(k->in_host[i] = rung__npy_upload(j, sh, i, seed, dst, ndst, reason, rlen)))
					return 1;
			} else {
				uint64_t *h = NULL;
				if (a->kind == RUNG_ARG_INPUT && !(h = k->in_hash[i] = calloc((size_t)rung__nchunks(sh->numel[i]) + 1, 8))) {
					rung__sfmt(reason, rlen, "out of host memory for input %s", a->name);
					return 1;
				}
				if (rung__gen_upload(j, sh, i, seed, k->init[i], dst, ndst, h, reason, rlen))
					return 1;
			}
		}
		t0 = rung_now_s();
		if (a->kind == RUNG_ARG_OUTPUT) {
			if (poison_dev(j, k->cand[i].ptr, a->dtype, sh->numel[i], a->name, reason, rlen))
				return 1;
			if (p->has_ref && poison_dev(j, k->ref[i].ptr, a->dtype, sh->numel[i], a->name, reason, rlen))
				return 1;
		}
		if (rung__write_bands(j, &k->cand[i], j->band_key, a->name, reason, rlen))
			return 1;
		if (k->ref[i].base && rung__write_bands(j, &k->ref[i], j->band_key, a->name, reason, rlen))
			return 1;
		rung_timing_lap("outputs: poison + guards", t0);
	}
	return 0;
}

/* The expected outputs: the reference kernel on its buffers (checked: guards and
 * nothing left unwritten), or golden files. Returns 0 or 1 with reason
 * ("reference failed: ..."). */
static int reference(rung_wjob *j, rung_case *k, const rung_plan_shape *sh, char *reason, size_t rlen)
{
	const rung_plan *p = j->p;
	char why[512];
	if ((p->flags & RUNG_JOB_SANITIZE) && (p->flags & RUNG_JOB_SANITIZE_BENCH))
		return 0; /* the sanitize rung at the benchmark shape: the sanitizer's report is its verdict, no reference */
	if (!p->has_ref) {
		for (int i = 0; i < p->nargs; i++) {
			if (rung__is_out(&p->args[i]) && golden_pass(j, k, sh, i, why, sizeof(why))) {
				rung__sfmt(reason, rlen, "reference failed: %s", why);
				j->ref_failed = true;
				return 1;
			}
		}
		return 0;
	}
	rung_kparam kp[RUNG_MAX_ARGS];
	void *params[RUNG_MAX_ARGS];
	build_params(kp, params, p, sh, k->ref);
	double t0 = rung_now_s();
	CUresult r = launch_sync(j->c, j->rfn, &sh->ref_geom, params, NULL);
	rung_timing_lap("reference kernel", t0);
	if (r != CUDA_SUCCESS) {
		rung__describe_fault(why, sizeof(why), r, p->ref.name);
		rung__sfmt(reason, rlen, "reference failed: %s", why);
		j->ref_failed = true;
		j->fatal = j->fatal || rung_cu_is_sticky(r) || r == CUDA_ERROR_LAUNCH_TIMEOUT;
		return 1;
	}
	for (int i = 0; i < p->nargs; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (!rung__is_out(a))
			continue;
		rung_guard_report rep;
		int64_t bad = check_bands(j, &k->ref[i], a->name, &rep, why, sizeof(why));
		if (bad > 0)
			rung_guard_describe(why, sizeof(why), a->name, &rep, rung_dtype_size(a->dtype));
		if (bad != 0 || ref_pass(j, k, sh, i, why, sizeof(why))) {
			rung__sfmt(reason, rlen, "reference failed: %s", why);
			j->ref_failed = true;
			return 1;
		}
	}
	return 0;
}

rung_case_outcome rung__run_case(rung_wjob *j, int s, int kseed, rung_dist dist, bool first, char *reason,
				 size_t rlen)
{
	const rung_plan *p = j->p;
	const rung_plan_shape *sh = &p->shapes[s];
	rung_wctx *c = j->c;
	uint64_t seed = p->seeds[kseed];
	rung_case k;
	memset(&k, 0, sizeof(k));
	k.dist = dist;
	for (int i = 0; i < p->nargs; i++)
		k.init[i] = rung_dist_init(dist, p->args[i].dtype, p->args[i].init);
	char where[320] = "";
	if (!first)
		case_where(where, sizeof(where), p, s, kseed, dist);
	char why[512];
	rung_case_outcome out = RUNG_CASE_OK;

	/* Device memory first, so a huge shape fails cleanly before any work. */
	size_t need = case_bytes(p, sh, false), ref_need = case_bytes(p, sh, !p->has_ref), free_b = 0, total_b = 0;
	if (rung_cu.cuMemGetInfo(&free_b, &total_b) == CUDA_SUCCESS && need + ref_need > free_b) {
		char a[32], b[32], t[32];
		rung__fmt_bytes(a, sizeof(a), (double)need);
		rung__fmt_bytes(b, sizeof(b), (double)free_b);
		rung__fmt_bytes(t, sizeof(t), (double)(need + ref_need));
		if (need > free_b)
			rung__sfmt(reason, rlen, "out of device memory: the arguments need %s, %s free%s", a, b, where);
		else
			rung__sfmt(reason, rlen, "out of device memory: the arguments need %s, and %s with the reference's own copy; %s free%s",
				 a, t, b, where);
		return RUNG_CASE_FAULT;
	}
	if (!rung__stage_ready()) {
		rung__sfmt(reason, rlen, "out of host memory for the staging buffers%s", where);
		return RUNG_CASE_FAULT;
	}
	rung__beat_begin(first ? RUNG_STEP_RUN : RUNG_STEP_CHECK);
	if (setup(j, &k, sh, seed, why, sizeof(why)) || reference(j, &k, sh, why, sizeof(why))) {
		rung__reason_at(reason, rlen, why, where);
		out = RUNG_CASE_FAULT;
		goto done;
	}
	rung_kparam kp[RUNG_MAX_ARGS];
	void *params[RUNG_MAX_ARGS];
	build_params(kp, params, p, sh, k.cand);
	/* The run case starts on shared memory filled with NaN bits (-1 as an
	 * integer): a kernel that reads shared memory it never wrote shows it, and
	 * the check rung's second run (rung__determinism) starts on zeros. */
	if (first && rung__verify_ready(c, NULL, 0))
		rung__smem_fill(c, c->stream, UINT32_C(0xFFFFFFFF));
	double ms = NAN, t0 = rung_now_s();
	CUresult r = launch_sync(c, j->kfn, &sh->geom, params, first ? &ms : NULL);
	t0 = rung_timing_lap("candidate kernel", t0);
	if (r != CUDA_SUCCESS) {
		rung__describe_fault(why, sizeof(why), r, p->kernel.name);
		rung__reason_at(reason, rlen, why, where);
		j->fatal = j->fatal || rung_cu_is_sticky(r) || r == CUDA_ERROR_LAUNCH_TIMEOUT;
		out = RUNG_CASE_FAULT;
		goto done;
	}
	if (first) {
		j->res->run_ms = ms;
		if (!(p->flags & (RUNG_JOB_NO_BENCH | RUNG_JOB_PROFILE | RUNG_JOB_TRACE)))
			rung__bench_prep(j, sh, k.ref); /* overlaps the checks below */
	}
	if ((p->flags & RUNG_JOB_SANITIZE) && (p->flags & RUNG_JOB_SANITIZE_BENCH))
		goto done; /* no reference to compare with (above): the launch under the sanitizer was the point */

	/* Guards of every buffer, inputs unchanged, then metrics per output. */
	for (int i = 0; i < p->nargs && out == RUNG_CASE_OK; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (!is_tensor(a))
			continue;
		rung_guard_report rep;
		int64_t bad = check_bands(j, &k.cand[i], a->name, &rep, why, sizeof(why));
		if (bad < 0) {
			rung__reason_at(reason, rlen, why, where);
			out = RUNG_CASE_FAULT;
			goto done;
		}
		if (bad > 0) {
			rung_guard_describe(why, sizeof(why), a->name, &rep, rung_dtype_size(a->dtype));
			rung__reason_at(reason, rlen, why, where);
			out = RUNG_CASE_WRONG;
		}
	}
	t0 = rung_timing_lap("guards", t0);
	for (int i = 0; i < p->nargs && out == RUNG_CASE_OK; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (a->kind != RUNG_ARG_INPUT)
			continue;
		int64_t at = input_pass(j, &k, sh, i, seed, why, sizeof(why));
		if (at == -2) {
			rung__reason_at(reason, rlen, why, where);
			out = RUNG_CASE_FAULT;
			goto done;
		}
		if (at >= 0) {
			int64_t coord[RUNG_MAX_RANK];
			int rank = rung_unflatten(coord, at, sh->rank[i], sh->extent[i], sh->numel[i]);
			char cs[128];
			rung_fmt_coord(cs, sizeof(cs), coord, rank);
			rung__sfmt(reason, rlen, "input %s was modified at %s (declare it kind = inout if that is intended)%s",
				 a->name, cs, where);
			out = RUNG_CASE_WRONG;
		}
	}
	bool finite = true;
	for (int i = 0; i < p->nargs; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (!rung__is_out(a))
			continue;
		rung_check_metric m;
		memset(&m, 0, sizeof(m));
		int mr = metrics_pass(j, &k, sh, i, &m, why, sizeof(why));
		if (mr == 1) {
			rung__reason_at(reason, rlen, why, where);
			out = RUNG_CASE_FAULT;
			goto done;
		}
		if (mr == 2) {
			if (out == RUNG_CASE_OK) {
				rung__reason_at(reason, rlen, why, where);
				out = RUNG_CASE_WRONG;
			}
			finite = false;
			continue;
		}
		m.dims = sh->dims;
		m.seed = seed;
		m.inputs = dist;
		if (m.nan_count > 0 || m.inf_count > 0)
			finite = false;
		if (!j->no_rows)
			add_metric(j->res, &m);
		if (!m.pass && out == RUNG_CASE_OK) {
			char what[600];
			rung__sfmt(what, sizeof(what), "%s: %s", a->name, m.reason[0] ? m.reason : "mismatch");
			rung__reason_at(reason, rlen, what, where);
			out = RUNG_CASE_WRONG;
		}
	}
	if (first)
		j->res->run_finite = finite;
done:
	rung__beat_end();
	if (first && out == RUNG_CASE_OK && !j->fatal) {
		for (int i = 0; i < p->nargs; i++) {
			if (p->args[i].kind == RUNG_ARG_SCALAR || !k.cand[i].base)
				continue;
			j->keep[i] = k.cand[i];
			k.cand[i].base = 0;
		}
		j->have_keep = true;
		rung__bench_prep_keep(j, k.ref, k.peak);
	}
	t0 = rung_now_s();
	free_case(&k, p->nargs, j->fatal);
	rung_timing_lap("device free", t0);
	return out;
}

void rung__keep_clear(rung_wjob *j)
{
	for (int i = 0; i < RUNG_MAX_ARGS; i++) {
		if (j->keep[i].base && !j->fatal)
			rung_cu.cuMemFree(j->keep[i].base);
		j->keep[i].base = 0;
	}
	j->have_keep = false;
}
