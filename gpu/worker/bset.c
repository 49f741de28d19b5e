/* The bench rung's two input sets (gpu/worker/bset.h): set 0 is the run
 * case's inputs, set 1 the same with about one element in 64 moved, at
 * positions from a nonce the kernel cannot know (rung__perturb), each with the
 * reference's outputs for it. Set 1 is prepared on a stream of its own right
 * after the run case's candidate launch, so the reference's second launch
 * overlaps the host's checks of the run case. */
#include "gpu/worker/bset.h"

#include <string.h>

#include "gpu/worker/input.h"
#include "gpu/worker/launch.h"
#include "gpu/worker/report.h"
#include "gpu/worker/verify.h"

static void set_free(rung_bset *b, int s, int nargs)
{
	for (int i = 0; i < nargs; i++) {
		if (b->in[s][i])
			rung_cu.cuMemFree(b->in[s][i]);
		if (b->out[s][i].base)
			rung_cu.cuMemFree(b->out[s][i].base);
		b->in[s][i] = 0;
		memset(&b->out[s][i], 0, sizeof(b->out[s][i]));
	}
}

void rung__bset_clear(rung_wjob *j)
{
	rung_bset *b = &j->bset;
	if (!j->fatal) {
		if (b->pending && b->st)
			rung_cu.cuStreamSynchronize(b->st);
		for (int s = 0; s < RUNG_BENCH_SETS; s++)
			set_free(b, s, j->p->nargs);
		if (b->peak_dev)
			rung_cu.cuMemFree(b->peak_dev);
		if (b->st)
			rung_cu.cuStreamDestroy(b->st);
	}
	memset(b, 0, sizeof(*b));
}

/* Set 1: set 0 perturbed, and the reference's outputs for it, on b->st. Returns
 * 0, or 1 with b->note (then only set 0 is used). */
static int prep_set1(rung_wjob *j, const rung_plan_shape *sh)
{
	const rung_plan *p = j->p;
	rung_bset *b = &j->bset;
	char d[160];
	CUresult r = rung__dalloc(&b->peak_dev, RUNG_MAX_ARGS * sizeof(uint64_t));
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuMemsetD8Async(b->peak_dev, 0, RUNG_MAX_ARGS * sizeof(uint64_t), b->st);
	uint64_t nonce = rung__nonce();
	rung_kparam kp[RUNG_MAX_ARGS];
	void *params[RUNG_MAX_ARGS];
	for (int i = 0; i < p->nargs && r == CUDA_SUCCESS; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (a->kind == RUNG_ARG_SCALAR) {
			rung__scalar_param(&kp[i], p, sh, i);
			params[i] = &kp[i];
			continue;
		}
		size_t es = rung_dtype_size(a->dtype), bytes = (size_t)sh->numel[i] * es;
		memset(&kp[i], 0, sizeof(kp[i]));
		params[i] = &kp[i];
		if (rung__has_input(a)) {
			if ((r = rung__dalloc(&b->in[1][i], bytes)) != CUDA_SUCCESS)
				break;
			r = rung__perturb(j->c, b->st, b->in[1][i], b->in[0][i], sh->numel[i], es, nonce + (uint64_t)i);
			kp[i].p = b->in[1][i];
		}
		if (r == CUDA_SUCCESS && rung__is_out(a)) {
			rung_dbuf *o = &b->out[1][i];
			o->bytes = bytes;
			o->total = bytes;
			if ((r = rung__dalloc(&o->base, bytes)) != CUDA_SUCCESS)
				break;
			o->ptr = o->base;
			if (a->kind == RUNG_ARG_INOUT)
				r = rung_cu.cuMemcpyDtoDAsync(o->ptr, b->in[1][i], bytes, b->st);
			else
				r = rung__poison_async(b->st, o->ptr, a->dtype, sh->numel[i], 0);
			kp[i].p = o->ptr;
		}
	}
	if (r == CUDA_SUCCESS) {
		rung_wctx on_st = *j->c;
		on_st.stream = b->st;
		r = rung__launch(&on_st, j->rfn, &sh->ref_geom, params);
	}
	for (int i = 0; i < p->nargs && r == CUDA_SUCCESS; i++)
		if (rung__is_out(&p->args[i]))
			r = rung__peak(j->c, b->st, b->out[1][i].ptr, sh->numel[i], p->args[i].dtype,
				       b->peak_dev + (size_t)i * sizeof(uint64_t));
	if (r != CUDA_SUCCESS) {
		rung_cu_describe(d, sizeof(d), r);
		rung__sfmt(b->note, sizeof(b->note), "one input set: the second could not be prepared (%s)", d);
		if (rung_cu_is_sticky(r))
			j->fatal = true;
		else
			rung_cu.cuStreamSynchronize(b->st);
		set_free(b, 1, p->nargs);
		return 1;
	}
	b->pending = true;
	return 0;
}

void rung__bench_prep(rung_wjob *j, const rung_plan_shape *sh, rung_dbuf *ref)
{
	const rung_plan *p = j->p;
	rung_bset *b = &j->bset;
	char why[512];
	b->nsets = 1;
	if (!rung__verify_ready(j->c, why, sizeof(why))) {
		rung__sfmt(b->note, sizeof(b->note), "%s", why);
		return;
	}
	if (!p->has_ref) { /* golden outputs: only the inputs they were made for */
		rung__sfmt(b->note, sizeof(b->note), "one input set: golden outputs exist for one");
		return;
	}
	/* Set 0's pristine inputs: the reference's copy (it reads, never writes, an
	 * input); an inout is generated again. */
	for (int i = 0; i < p->nargs; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (!rung__has_input(a))
			continue;
		size_t bytes = (size_t)sh->numel[i] * rung_dtype_size(a->dtype);
		CUresult r = rung__dalloc(&b->in[0][i], bytes);
		if (r == CUDA_SUCCESS && a->kind == RUNG_ARG_INPUT)
			r = rung_cu.cuMemcpyDtoDAsync(b->in[0][i], ref[i].ptr, bytes, j->c->stream);
		else if (r == CUDA_SUCCESS &&
			 rung__upload_input(j, sh, i, p->seeds[0], &b->in[0][i], 1, why, sizeof(why)))
			r = CUDA_ERROR_UNKNOWN;
		if (r != CUDA_SUCCESS) {
			rung__sfmt(b->note, sizeof(b->note), "one input set: no device memory for a copy of %s", a->name);
			set_free(b, 0, p->nargs);
			j->fatal = j->fatal || rung_cu_is_sticky(r);
			return;
		}
	}
	/* set 1 waits for those copies on a stream of its own, then runs beside the
	 * checks of the run case */
	CUevent ev = NULL;
	CUresult r = rung__stream_create(&b->st, CU_STREAM_NON_BLOCKING, false); /* behind the checks */
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuEventRecord(ev, j->c->stream);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuStreamWaitEvent(b->st, ev, 0);
	if (r == CUDA_SUCCESS && !prep_set1(j, sh))
		b->nsets = 2;
	else if (r != CUDA_SUCCESS)
		rung__sfmt(b->note, sizeof(b->note), "one input set: no stream for a second");
	if (ev)
		rung_cu.cuEventDestroy(ev); /* destroyed once its work is done */
}

void rung__bench_prep_keep(rung_wjob *j, rung_dbuf *ref, const double *peak)
{
	rung_bset *b = &j->bset;
	if (b->nsets < 1)
		return;
	for (int i = 0; i < j->p->nargs; i++) {
		if (!rung__is_out(&j->p->args[i]) || !ref[i].base)
			continue;
		b->out[0][i] = ref[i];
		b->peak[0][i] = peak[i];
		ref[i].base = 0;
	}
}

int rung__bset_wait(rung_wjob *j, char *reason, size_t rlen)
{
	rung_bset *b = &j->bset;
	if (!b->pending)
		return 0;
	b->pending = false;
	uint64_t bits[RUNG_MAX_ARGS];
	CUresult r = rung_cu.cuStreamSynchronize(b->st);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuMemcpyDtoH(bits, b->peak_dev, sizeof(bits));
	if (r != CUDA_SUCCESS) {
		char d[200];
		rung__describe_fault(d, sizeof(d), r, j->p->has_ref ? j->p->ref.name : "the second input set");
		rung__sfmt(reason, rlen, "reference failed on the second input set: %s", d);
		j->ref_failed = true;
		j->fatal = j->fatal || rung_cu_is_sticky(r);
		return 1;
	}
	for (int i = 0; i < j->p->nargs; i++) {
		double v = 0;
		memcpy(&v, &bits[i], sizeof(v));
		b->peak[1][i] = v;
	}
	return 0;
}
