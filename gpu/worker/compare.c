/* A/B timing inside the worker ("compare" message): two versions of the same
 * task on the same buffers at the benchmark shape, and every launch verified
 * (docs/CHECKS.md, "Compare is verified too"), without the reference kernel:
 *  - both CUBINs are loaded from this message (fresh modules: no __device__
 *    state of an earlier job or compare carries over) and unloaded after it;
 *  - two input sets: set 0 from the first seed, set 1 = set 0 with about one
 *    element in 64 moved (rung__perturb, a nonce from /dev/urandom); each round
 *    picks one at random (after two warm-up rounds, one on each set);
 *  - a round is two launches, A then B in even rounds and B then A in odd ones
 *    (neither version always runs first): the set's inputs go into the buffers
 *    (inouts always), outputs are poisoned (A and B with different variants,
 *    so poison both leave is still told apart), L2 flushed, the first launch
 *    (timed); its outputs are saved (device to device), its inputs checked bit
 *    for bit against the set and its guard bands checked; inouts restored,
 *    outputs poisoned again, L2 flushed, the second launch (timed); then its
 *    outputs are compared with the first's saved ones with twice the check's
 *    tolerance (atol scaled by the peak of A's first output on that set, rtol
 *    doubled; both are within the tolerance of the reference, so within twice
 *    it of each other), the first's outputs for its poison, its inputs and its
 *    guard bands. All of that runs outside the timed windows, on the GPU
 *    (gpu/kernels/verify.cu), and is judged after each batch: one difference
 *    stops the compare with "A and B disagree at timed round 7 (...)";
 *  - CUPTI activity durations (events when CUPTI is absent); batches under 75%
 *    of the max SM clock are dropped. Stops when both medians are stable (rse
 *    <= 0.5%) or the budget is spent.
 * Answers {"type":"compare_result", "a":[ms...], "b":[ms...], "method",
 * "dropped", "fatal", "reason", "verified", "sets", "verify_ms", "order",
 * "disagree"?: {"round", "timed", "kernel", "arg", "count", "first"}}. */
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "core/guard.h"
#include "core/metrics.h"
#include "core/stats.h"
#include "core/timing.h"
#include "gpu/cupti.h"
#include "gpu/worker/compare.h"
#include "gpu/worker/flush.h"
#include "gpu/worker/input.h"
#include "gpu/worker/launch.h"
#include "gpu/worker/report.h"
#include "gpu/worker/verify.h"

#define MIN_ROUNDS 10
#define MAX_ROUNDS 4000
#define BATCH 8
#define WARM_ROUNDS 2 /* one on each input set: they give A's peaks */
#define NSETS 2

enum { KA, KB };
static const char *const kname[2] = { "A", "B" };

/* The verification results of one round (device memory, zeroed before it). */
typedef struct {
	rung_vstat in[2][RUNG_MAX_ARGS];  /* inputs after A (in[KA]) and after B, bit for bit against the set */
	rung_vstat out[RUNG_MAX_ARGS];    /* the second's outputs against the first's, twice the tolerance */
	rung_vstat back[RUNG_MAX_ARGS];   /* the first's outputs: its own poison left where the second wrote */
	uint64_t bands[2][RUNG_MAX_ARGS]; /* guard-band bytes changed after A and after B */
} cslot;

/* Events of one round: before the inputs and poison, then flush, start, end of
 * each launch, then after the checks. */
enum { E_PREP, E_FLUSH1, E_START1, E_END1, E_FLUSH2, E_START2, E_END2, E_DONE, NE };

/* Where a round went wrong (sent to the parent). */
typedef struct {
	int round;
	bool timed;
	int kernel; /* KA, KB, or -1: they disagree */
	char arg[64];
	int64_t count; /* elements, or guard-band bytes */
	bool has_first;
	int rank;      /* of first */
	int64_t first[RUNG_MAX_RANK];
} disinfo;

typedef struct {
	rung_wctx *c;
	const rung_plan *p; /* A's plan: the arguments and the buffers */
	const rung_plan_shape *sh;
	const rung_geom *geom[2];
	CUfunction fn[2];
	void **params;
	rung_dbuf *buf;                          /* the candidates' buffers (guarded) */
	CUdeviceptr in[NSETS][RUNG_MAX_ARGS];    /* pristine inputs and inouts of each set */
	CUdeviceptr save[RUNG_MAX_ARGS];         /* the first launch's outputs of a round */
	double peak[NSETS][RUNG_MAX_ARGS];       /* of A's first outputs on each set */
	bool have_peak[NSETS];
	CUdeviceptr peak_dev;                    /* RUNG_MAX_ARGS u64 */
	int nsets, cur;                          /* sets; the one the input buffers hold */
} cmp;

static size_t arg_bytes(const cmp *s, int i)
{
	return (size_t)s->sh->numel[i] * rung_dtype_size(s->p->args[i].dtype);
}

/* Round k's first kernel (A B, B A, ...) and each kernel's poison variant
 * (A's alternates every two rounds; B's is always the other one). */
static int first_of(int k)
{
	return k & 1 ? KB : KA;
}

static int variant_of(int k, int who)
{
	int va = (k >> 1) & 1;
	return who == KA ? va : !va;
}

/* --- setup -------------------------------------------------------------------- */

/* Set 0's pristine copies of the
 * inputs (made before any launch), set 1 perturbed from them, the scratch for
 * the first launch's outputs. 0, or 1 with reason (fatal set on a sticky
 * error). Set 1 is left out (nsets 1) when it does not fit. */
static int setup(cmp *s, bool *fatal, char *reason, size_t rlen)
{
	const rung_plan *p = s->p;
	CUresult r = rung__dalloc(&s->peak_dev, RUNG_MAX_ARGS * sizeof(uint64_t));
	for (int i = 0; i < p->nargs && r == CUDA_SUCCESS; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (a->kind == RUNG_ARG_SCALAR)
			continue;
		/* the guard bands were written by rung__bench_buffers (the compare's band key) */
		if (rung__has_input(a) && (r = rung__dalloc(&s->in[0][i], arg_bytes(s, i))) == CUDA_SUCCESS)
			r = rung_cu.cuMemcpyDtoDAsync(s->in[0][i], s->buf[i].ptr, arg_bytes(s, i), s->c->stream);
		if (r == CUDA_SUCCESS && rung__is_out(a))
			r = rung__dalloc(&s->save[i], arg_bytes(s, i));
	}
	if (r != CUDA_SUCCESS) {
		char d[160];
		rung_cu_describe(d, sizeof(d), r);
		rung__sfmt(reason, rlen, "no device memory for the verification of the timed launches: %s", d);
		*fatal = rung_cu_is_sticky(r);
		return 1;
	}
	s->nsets = 2;
	uint64_t nonce = rung__nonce();
	for (int i = 0; i < p->nargs && r == CUDA_SUCCESS; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (!rung__has_input(a))
			continue;
		size_t es = rung_dtype_size(a->dtype);
		r = rung__dalloc(&s->in[1][i], arg_bytes(s, i));
		if (r == CUDA_SUCCESS)
			r = rung__perturb(s->c, s->c->stream, s->in[1][i], s->in[0][i], s->sh->numel[i], es, nonce + (uint64_t)i);
	}
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuStreamSynchronize(s->c->stream);
	if (r != CUDA_SUCCESS) {
		if (rung_cu_is_sticky(r)) {
			*fatal = true;
			rung__describe_fault(reason, rlen, r, "the second input set");
			return 1;
		}
		fprintf(stderr, "rung worker: compare with one input set (the second does not fit)\n");
		for (int i = 0; i < p->nargs; i++) {
			if (s->in[1][i])
				rung_cu.cuMemFree(s->in[1][i]);
			s->in[1][i] = 0;
		}
		s->nsets = 1;
	}
	return 0;
}

static void teardown(cmp *s)
{
	for (int i = 0; i < RUNG_MAX_ARGS; i++) {
		for (int x = 0; x < NSETS; x++)
			if (s->in[x][i])
				rung_cu.cuMemFree(s->in[x][i]);
		if (s->save[i])
			rung_cu.cuMemFree(s->save[i]);
	}
	if (s->peak_dev)
		rung_cu.cuMemFree(s->peak_dev);
}

/* --- one round ---------------------------------------------------------------- */

/* Before a launch of `who` on set x: the set's inputs where the buffers hold
 * another set's (inouts always), outputs poisoned. */
static CUresult before(cmp *s, int x, int variant)
{
	const rung_plan *p = s->p;
	CUstream st = s->c->stream;
	CUresult r = rung__scratch_zero(st); /* before each launch, outside the timed window */
	for (int i = 0; i < p->nargs && r == CUDA_SUCCESS; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (rung__has_input(a) && (a->kind == RUNG_ARG_INOUT || x != s->cur))
			r = rung_cu.cuMemcpyDtoDAsync(s->buf[i].ptr, s->in[x][i], arg_bytes(s, i), st);
		else if (a->kind == RUNG_ARG_OUTPUT)
			r = rung__poison_async(st, s->buf[i].ptr, a->dtype, s->sh->numel[i], variant);
	}
	s->cur = x;
	return r;
}

/* Inputs of `who` bit for bit against set x, and its guard bands, into slot. */
static CUresult inputs_and_bands(cmp *s, int x, int who, CUdeviceptr slot)
{
	const rung_plan *p = s->p;
	CUstream st = s->c->stream;
	CUresult r = CUDA_SUCCESS;
	for (int i = 0; i < p->nargs && r == CUDA_SUCCESS; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (a->kind == RUNG_ARG_SCALAR)
			continue;
		if (a->kind == RUNG_ARG_INPUT)
			r = rung__verify(s->c, st, s->buf[i].ptr, s->in[x][i], s->sh->numel[i], a->dtype, 0, 0, false, 0, true,
					 slot + offsetof(cslot, in) + ((size_t)who * RUNG_MAX_ARGS + (size_t)i) * sizeof(rung_vstat));
		if (r == CUDA_SUCCESS)
			r = rung__bands(s->c, st, &s->buf[i],
					slot + offsetof(cslot, bands) + ((size_t)who * RUNG_MAX_ARGS + (size_t)i) * sizeof(uint64_t));
	}
	return r;
}

/* A's outputs at `from` are the first on set x: their peaks (waits for them). */
static CUresult take_peaks(cmp *s, int x, const CUdeviceptr *from)
{
	const rung_plan *p = s->p;
	CUstream st = s->c->stream;
	CUresult r = rung_cu.cuMemsetD8Async(s->peak_dev, 0, RUNG_MAX_ARGS * sizeof(uint64_t), st);
	for (int i = 0; i < p->nargs && r == CUDA_SUCCESS; i++)
		if (rung__is_out(&p->args[i]))
			r = rung__peak(s->c, st, from[i], s->sh->numel[i], p->args[i].dtype,
				       s->peak_dev + (size_t)i * sizeof(uint64_t));
	uint64_t bits[RUNG_MAX_ARGS];
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuStreamSynchronize(st);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuMemcpyDtoH(bits, s->peak_dev, sizeof(bits));
	if (r != CUDA_SUCCESS)
		return r;
	for (int i = 0; i < p->nargs; i++)
		memcpy(&s->peak[x][i], &bits[i], sizeof(double));
	s->have_peak[x] = true;
	return CUDA_SUCCESS;
}

/* Queues round k on set x (events e[NE], results into slot). */
static CUresult round_enqueue(cmp *s, int k, int x, CUevent *e, CUdeviceptr slot)
{
	const rung_plan *p = s->p;
	rung_wctx *c = s->c;
	CUstream st = c->stream;
	int f = first_of(k), sn = !f;
	CUdeviceptr cur_out[RUNG_MAX_ARGS];
	for (int i = 0; i < p->nargs; i++)
		cur_out[i] = s->buf[i].ptr;
	CUresult r = rung_cu.cuEventRecord(e[E_PREP], st);
	if (r == CUDA_SUCCESS)
		r = before(s, x, variant_of(k, f));
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuEventRecord(e[E_FLUSH1], st);
	if (r == CUDA_SUCCESS)
		r = rung__flush_l2(c);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuEventRecord(e[E_START1], st);
	if (r == CUDA_SUCCESS)
		r = rung__launch(c, s->fn[f], s->geom[f], s->params);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuEventRecord(e[E_END1], st);
	/* the first's outputs saved, its inputs and bands checked before the second runs */
	for (int i = 0; i < p->nargs && r == CUDA_SUCCESS; i++)
		if (rung__is_out(&p->args[i]))
			r = rung_cu.cuMemcpyDtoDAsync(s->save[i], s->buf[i].ptr, arg_bytes(s, i), st);
	if (r == CUDA_SUCCESS)
		r = inputs_and_bands(s, x, f, slot);
	if (r == CUDA_SUCCESS && f == KA && !s->have_peak[x])
		r = take_peaks(s, x, s->save);
	if (r == CUDA_SUCCESS)
		r = before(s, x, variant_of(k, sn));
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuEventRecord(e[E_FLUSH2], st);
	if (r == CUDA_SUCCESS)
		r = rung__flush_l2(c);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuEventRecord(e[E_START2], st);
	if (r == CUDA_SUCCESS)
		r = rung__launch(c, s->fn[sn], s->geom[sn], s->params);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuEventRecord(e[E_END2], st);
	if (r == CUDA_SUCCESS && sn == KA && !s->have_peak[x])
		r = take_peaks(s, x, cur_out);
	for (int i = 0; i < p->nargs && r == CUDA_SUCCESS; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (!rung__is_out(a))
			continue;
		rung_check_opts o;
		rung__plan_check_opts(&o, p, a->dtype);
		double atol = 2 * (o.atol_scaled ? o.atol * s->peak[x][i] : o.atol);
		bool poison = a->kind == RUNG_ARG_OUTPUT;
		r = rung__verify(c, st, s->buf[i].ptr, s->save[i], s->sh->numel[i], a->dtype, atol, 2 * o.rtol, poison,
				 variant_of(k, sn), false, slot + offsetof(cslot, out) + (size_t)i * sizeof(rung_vstat));
		/* the other way round, for the first's poison only: where the second
		 * computed a NaN, the first may have left its poison (NaN too) */
		if (r == CUDA_SUCCESS && poison)
			r = rung__verify(c, st, s->save[i], s->buf[i].ptr, s->sh->numel[i], a->dtype, INFINITY, 0, true,
					 variant_of(k, f), false, slot + offsetof(cslot, back) + (size_t)i * sizeof(rung_vstat));
	}
	if (r == CUDA_SUCCESS)
		r = inputs_and_bands(s, x, sn, slot);
	if (r == CUDA_SUCCESS)
		r = rung_cu.cuEventRecord(e[E_DONE], st);
	return r;
}

/* --- judging a round ---------------------------------------------------------- */

static void where_of(disinfo *d, const cmp *s, int i, const rung_vstat *v)
{
	int64_t f = rung__vstat_first(v);
	d->has_first = f >= 0;
	d->rank = 0;
	if (d->has_first)
		d->rank = rung_unflatten(d->first, f, s->sh->rank[i], s->sh->extent[i], s->sh->numel[i]);
}

static void at_text(char *buf, size_t len, const disinfo *d)
{
	buf[0] = 0;
	if (d->has_first) {
		char cs[128];
		rung_fmt_coord(cs, sizeof(cs), d->first, d->rank);
		rung__sfmt(buf, len, ", first at %s", cs);
	}
}

/* 0 when round k (on set x; `rno` its number among the warm-up or the timed
 * rounds) matched; else 1 with reason and *d. */
static int judge(const cmp *s, const cslot *v, int k, int x, int rno, bool timed, disinfo *d, char *reason,
		 size_t rlen)
{
	const rung_plan *p = s->p;
	int f = first_of(k), sn = !f;
	char rd[48], at[160];
	rung__sfmt(rd, sizeof(rd), "%s round %d", timed ? "timed" : "warm-up", rno);
	memset(d, 0, sizeof(*d));
	d->round = rno;
	d->timed = timed;
	d->kernel = -1;
	int order[2] = { f, sn };
	for (int o = 0; o < 2; o++) {
		int who = order[o];
		for (int i = 0; i < p->nargs; i++) {
			const rung_plan_arg *a = &p->args[i];
			if (a->kind == RUNG_ARG_SCALAR || !v->bands[who][i])
				continue;
			d->kernel = who;
			d->count = (int64_t)v->bands[who][i];
			rung__sfmt(d->arg, sizeof(d->arg), "%s", a->name);
			rung__sfmt(reason, rlen, "%s wrote outside %s at %s (%" PRIu64 " bytes of its guard bands changed): it behaves differently when timed; rung check %s",
				   kname[who], a->name, rd, v->bands[who][i], kname[who]);
			return 1;
		}
	}
	for (int o = 0; o < 2; o++) {
		int who = order[o];
		for (int i = 0; i < p->nargs; i++) {
			const rung_plan_arg *a = &p->args[i];
			const rung_vstat *st = &v->in[who][i];
			if (a->kind != RUNG_ARG_INPUT || !st->mismatches)
				continue;
			d->kernel = who;
			d->count = (int64_t)st->mismatches;
			rung__sfmt(d->arg, sizeof(d->arg), "%s", a->name);
			where_of(d, s, i, st);
			at_text(at, sizeof(at), d);
			rung__sfmt(reason, rlen, "%s changed input %s at %s (%" PRIu64 " elements%s, input set %d): it behaves differently when timed; rung check %s",
				   kname[who], a->name, rd, st->mismatches, at, x + 1, kname[who]);
			return 1;
		}
	}
	for (int i = 0; i < p->nargs; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (!rung__is_out(a))
			continue;
		const rung_vstat *st = &v->out[i], *bk = &v->back[i];
		if (st->mismatches || bk->mismatches) {
			const rung_vstat *w = st->mismatches ? st : bk;
			d->count = (int64_t)w->mismatches;
			rung__sfmt(d->arg, sizeof(d->arg), "%s", a->name);
			where_of(d, s, i, w);
			at_text(at, sizeof(at), d);
			char un[96] = "";
			if (st->unwritten)
				rung__sfmt(un, sizeof(un), ", %" PRIu64 " left unwritten by %s", st->unwritten, kname[sn]);
			else if (bk->unwritten)
				rung__sfmt(un, sizeof(un), ", %" PRIu64 " left unwritten by %s", bk->unwritten, kname[f]);
			rung__sfmt(reason, rlen, "A and B disagree at %s (%" PRId64 " elements of %s%s%s, input set %d): one of them behaves differently when timed; rung check each",
				   rd, d->count, a->name, at, un, x + 1);
			return 1;
		}
		/* the spec's gates, between two outputs that each pass them against the
		 * reference: the error may double (psnr 6.02 dB lower) and the angles add
		 * (cos >= 2c^2 - 1) */
		rung_check_opts o;
		rung__plan_check_opts(&o, p, a->dtype);
		double peak = s->peak[x][i];
		if (o.has_min_psnr && st->nfinite > 0) {
			double mse = st->sq / (double)st->nfinite, lim = o.min_psnr - 20 * log10(2.0);
			double psnr = mse == 0 ? INFINITY : 10.0 * log10(peak * peak / mse);
			if (!(psnr >= lim)) {
				rung__sfmt(d->arg, sizeof(d->arg), "%s", a->name);
				rung__sfmt(reason, rlen, "A and B disagree at %s (psnr %.1fdB < %.1fdB between them in %s, input set %d): one of them behaves differently when timed; rung check each",
					   rd, psnr, lim, a->name, x + 1);
				return 1;
			}
		}
		if (o.has_min_cossim && st->nfinite > 0) {
			double c = o.min_cossim, lim = c > 0 ? 2 * c * c - 1 : -1;
			double cs = st->gg == 0 && st->rr == 0 ? 1.0
				    : st->gg == 0 || st->rr == 0 ? 0.0
								 : st->dot / (sqrt(st->gg) * sqrt(st->rr));
			if (!(cs >= lim)) {
				rung__sfmt(d->arg, sizeof(d->arg), "%s", a->name);
				rung__sfmt(reason, rlen, "A and B disagree at %s (cossim %.6f < %.6f between them in %s, input set %d): one of them behaves differently when timed; rung check each",
					   rd, cs, lim, a->name, x + 1);
				return 1;
			}
		}
	}
	return 0;
}

/* --- the reply ------------------------------------------------------------------ */

static json_t *arr(const double *v, int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_real(v[i]));
	return a;
}

typedef struct {
	const double *a, *b;
	int n, dropped, verified, sets;
	double verify_ms;
	const char *method;
	bool fatal;
	const char *reason;
	const disinfo *dis; /* or NULL */
	const rung_gpu_procs *shared;
} reply_args;

static void reply(rung_wctx *c, const reply_args *ra)
{
	json_t *j = json_pack("{s:s,s:o,s:o,s:s,s:i,s:b,s:s,s:i,s:i,s:f,s:s}", "type", "compare_result", "a",
			      arr(ra->a, ra->n), "b", arr(ra->b, ra->n), "method", ra->method, "dropped", ra->dropped,
			      "fatal", ra->fatal, "reason", ra->reason ? ra->reason : "", "verified", ra->verified, "sets",
			      ra->sets, "verify_ms", isfinite(ra->verify_ms) ? ra->verify_ms : 0.0, "order", "alternate");
	if (ra->shared)
		json_object_set_new(j, "shared", rung_gpu_procs_to_json(ra->shared));
	if (ra->dis) {
		const disinfo *d = ra->dis;
		json_t *first = json_array();
		for (int k = 0; d->has_first && k < d->rank; k++)
			json_array_append_new(first, json_integer(d->first[k]));
		json_object_set_new(j, "disagree",
				    json_pack("{s:i,s:b,s:s,s:s,s:I,s:o}", "round", d->round, "timed", d->timed, "kernel",
					      d->kernel >= 0 ? kname[d->kernel] : "", "arg", d->arg, "count",
					      (json_int_t)d->count, "first", first));
	}
	rung__wsend(c, j, NULL, 0);
	json_decref(j);
}

/* --- the compare ---------------------------------------------------------------- */

bool rung__wcompare(rung_wctx *c, const json_t *msg, const rung_blob *blobs, int nblobs)
{
	rung_plan *pa = malloc(sizeof(*pa)), *pb = malloc(sizeof(*pb));
	rung_result res;
	rung_result_init(&res);
	rung_wjob ja, jb;
	memset(&ja, 0, sizeof(ja));
	memset(&jb, 0, sizeof(jb));
	rung_dbuf buf[RUNG_MAX_ARGS];
	rung_kparam kp[RUNG_MAX_ARGS];
	void *params[RUNG_MAX_ARGS];
	memset(buf, 0, sizeof(buf));
	cmp s;
	memset(&s, 0, sizeof(s));
	CUevent ev[NE * BATCH];
	memset(ev, 0, sizeof(ev));
	CUdeviceptr slots = 0;
	cslot *hslots = NULL;
	rung_gpu_procs shared;
	memset(&shared, 0, sizeof(shared));
	double *sa = malloc(MAX_ROUNDS * sizeof(double)), *sb = malloc(MAX_ROUNDS * sizeof(double));
	double ns[4 * BATCH];
	int n = 0, dropped = 0, verified = 0, k = 0, timed = 0, per_set[NSETS] = { 0 };
	double verify_ms = 0;
	bool use_cupti = false, have_dis = false;
	disinfo dis;
	char reason[1024] = "";
	bool fatal = false;
	if (!pa || !pb || !sa || !sb) {
		snprintf(reason, sizeof(reason), "worker: out of memory");
		goto out;
	}
	if (nblobs < 2 || rung_plan_from_json(pa, json_object_get(msg, "a")) ||
	    rung_plan_from_json(pb, json_object_get(msg, "b"))) {
		snprintf(reason, sizeof(reason), "%s", nblobs < 2 ? "worker protocol: compare needs two CUBINs" : rung_error_last());
		goto out;
	}
	ja.c = jb.c = c;
	ja.p = pa;
	jb.p = pb;
	ja.res = jb.res = &res;
	/* poison and guard bands a kernel cannot know in advance (core/guard.h) */
	rung_poison_key_set(rung__nonce());
	ja.band_key = jb.band_key = rung__nonce() | 1;
	const rung_plan_shape *sha = &pa->shapes[pa->nshapes - 1], *shb = &pb->shapes[pb->nshapes - 1];
	rung_cu.cuCtxSetCurrent(c->ctx);
	/* Both modules from this message's CUBINs: fresh __device__ state, whatever ran before. */
	if (rung__load_fn(&ja, blobs[0].data, blobs[0].len, &pa->kernel, &ja.kmod, &ja.kfn, &ja.kstatic_smem, reason,
			  sizeof(reason)) ||
	    rung__load_fn(&jb, blobs[1].data, blobs[1].len, &pb->kernel, &jb.kmod, &jb.kfn, &jb.kstatic_smem, reason,
			  sizeof(reason)) ||
	    rung__check_geometry(&ja, ja.kfn, ja.kstatic_smem, false, "A", reason, sizeof(reason)) ||
	    rung__check_geometry(&jb, jb.kfn, jb.kstatic_smem, false, "B", reason, sizeof(reason)))
		goto out;
	if (!rung__verify_ready(c, reason, sizeof(reason))) { /* never time what cannot be verified */
		char why[512];
		rung__sfmt(why, sizeof(why), "cannot verify the timed launches: %s", reason);
		rung__sfmt(reason, sizeof(reason), "%s", why);
		goto out;
	}
	/* scratch buffers for both (A a CUDA version, B a Triton one with the
	 * scratch arguments its sidecar adds, or the other way round) */
	if (rung__scratch_ready(&ja, pa, reason, sizeof(reason)) || rung__scratch_ready(&jb, pb, reason, sizeof(reason)))
		goto out;
	if (rung__bench_buffers(&ja, buf, kp, params)) {
		snprintf(reason, sizeof(reason), "%s", res.steps[RUNG_STEP_BENCH].reason);
		goto out;
	}
	/* B's scratch arguments beyond A's arguments (the launch passes A's
	 * parameters to both; a kernel ignores those past its own) */
	for (int i = 0; i < pa->nargs && i < pb->nargs; i++) /* a null pointer for A, a buffer for B */
		if (pa->args[i].scratch && pb->args[i].scratch && !kp[i].p)
			rung__scalar_param(&kp[i], pb, shb, i);
	for (int i = pa->nargs; i < pb->nargs; i++) {
		if (!pb->args[i].scratch) {
			snprintf(reason, sizeof(reason), "B takes argument %s that A does not", pb->args[i].name);
			goto out;
		}
		rung__scalar_param(&kp[i], pb, shb, i);
		params[i] = &kp[i];
	}
	if (!rung__flush_ready(c)) {
		snprintf(reason, sizeof(reason), "out of device memory for the L2 flush buffer");
		goto out;
	}
	s.c = c;
	s.p = pa;
	s.sh = sha;
	s.geom[KA] = &sha->geom;
	s.geom[KB] = &shb->geom;
	s.fn[KA] = ja.kfn;
	s.fn[KB] = jb.kfn;
	s.params = params;
	s.buf = buf;
	if (setup(&s, &fatal, reason, sizeof(reason)))
		goto out;
	CUresult r = rung__dalloc(&slots, BATCH * sizeof(cslot));
	hslots = malloc(BATCH * sizeof(cslot));
	if (r != CUDA_SUCCESS || !hslots) {
		snprintf(reason, sizeof(reason), "out of memory for the launch checks");
		goto out;
	}
	for (int i = 0; i < NE * BATCH && r == CUDA_SUCCESS; i++)
		r = rung_cu.cuEventCreate(&ev[i], CU_EVENT_DEFAULT);
	/* Warm-up: one round on each input set, verified like the timed ones. */
	for (int w = 0; w < WARM_ROUNDS && r == CUDA_SUCCESS; w++, k++) {
		int x = w < s.nsets ? w : 0;
		r = rung_cu.cuMemsetD8Async(slots, 0, sizeof(cslot), c->stream);
		if (r == CUDA_SUCCESS)
			r = round_enqueue(&s, k, x, ev, slots);
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuMemcpyDtoHAsync(hslots, slots, sizeof(cslot), c->stream);
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuStreamSynchronize(c->stream);
		if (r != CUDA_SUCCESS)
			break;
		if (judge(&s, hslots, k, x, w + 1, false, &dis, reason, sizeof(reason))) {
			have_dis = true;
			goto out;
		}
		verified += 2;
		per_set[x]++;
	}
	if (r != CUDA_SUCCESS) {
		rung__describe_fault(reason, sizeof(reason), r, "warm-up");
		fatal = rung_cu_is_sticky(r);
		goto out;
	}
	use_cupti = rung_cupti_available() && rung_cupti_start2(pa->kernel.lowered, pb->kernel.lowered) == 0;
	double budget = pa->budget_s > 0 ? pa->budget_s : 2.0, start = rung_now_s(), last = 0;
	int next_check = MIN_ROUNDS;
	if (c->nvml) /* who else is on the GPU: before and after the timed rounds */
		rung_nvml_others(&shared);
	while (n < MAX_ROUNDS) {
		int m = n + BATCH > MAX_ROUNDS ? MAX_ROUNDS - n : BATCH, xs[BATCH];
		r = rung_cu.cuMemsetD8Async(slots, 0, (size_t)m * sizeof(cslot), c->stream);
		for (int i = 0; i < m && r == CUDA_SUCCESS; i++) {
			xs[i] = rung__pick_set(s.nsets);
			r = round_enqueue(&s, k + i, xs[i], ev + NE * i, slots + (size_t)i * sizeof(cslot));
		}
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuMemcpyDtoHAsync(hslots, slots, (size_t)m * sizeof(cslot), c->stream);
		int clk = c->nvml ? rung_nvml_sm_clock_mhz() : -1; /* read while the batch runs */
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuStreamSynchronize(c->stream);
		if (r != CUDA_SUCCESS) {
			rung__describe_fault(reason, sizeof(reason), r, "A/B timing");
			fatal = rung_cu_is_sticky(r);
			goto out;
		}
		double ea[BATCH], eb[BATCH];
		for (int i = 0; i < m; i++) {
			if (judge(&s, &hslots[i], k + i, xs[i], timed + i + 1, true, &dis, reason, sizeof(reason))) {
				have_dis = true;
				goto out;
			}
			verified += 2;
			per_set[xs[i]]++;
			CUevent *e = ev + NE * i;
			float t1 = NAN, t2 = NAN, pre = 0, mid = 0, post = 0;
			if (rung_cu.cuEventElapsedTime(&t1, e[E_START1], e[E_END1]) != CUDA_SUCCESS)
				t1 = NAN;
			if (rung_cu.cuEventElapsedTime(&t2, e[E_START2], e[E_END2]) != CUDA_SUCCESS)
				t2 = NAN;
			if (rung_cu.cuEventElapsedTime(&pre, e[E_PREP], e[E_FLUSH1]) == CUDA_SUCCESS &&
			    rung_cu.cuEventElapsedTime(&mid, e[E_END1], e[E_FLUSH2]) == CUDA_SUCCESS &&
			    rung_cu.cuEventElapsedTime(&post, e[E_END2], e[E_DONE]) == CUDA_SUCCESS)
				verify_ms += pre + mid + post;
			bool a_first = first_of(k + i) == KA;
			ea[i] = a_first ? t1 : t2;
			eb[i] = a_first ? t2 : t1;
		}
		if (use_cupti) {
			/* records in completion order: the first and second launch of each round */
			int got = rung_cupti_collect(ns, 4 * BATCH);
			if (got == 2 * m) {
				for (int i = 0; i < m; i++) {
					bool a_first = first_of(k + i) == KA;
					ea[i] = ns[2 * i + (a_first ? 0 : 1)] * 1e-6;
					eb[i] = ns[2 * i + (a_first ? 1 : 0)] * 1e-6;
				}
			} else {
				fprintf(stderr, "rung worker: CUPTI returned %d records for %d launches; using CUDA events\n", got,
					2 * m);
				rung_cupti_stop();
				use_cupti = false;
				n = 0; /* restart the series with one method only */
				k += m;
				timed += m;
				continue;
			}
		}
		k += m;
		timed += m;
		double el = rung_now_s() - start;
		bool slow = clk > 0 && c->max_clock_mhz > 0 && clk < 0.75 * c->max_clock_mhz &&
			    !(el >= budget && n < MIN_ROUNDS);
		if (slow) {
			dropped += m;
		} else {
			for (int i = 0; i < m; i++) {
				sa[n] = ea[i];
				sb[n++] = eb[i];
			}
		}
		if (n >= MIN_ROUNDS && (n >= next_check || el >= budget)) {
			next_check = n + n / 10 + 1;
			double ra = rung_rse_median(sa, n, 200, 0x5eed), rb = rung_rse_median(sb, n, 200, 0x5eed);
			/* per_set counts the warm-up's round on each set: one timed round on each too */
			bool all_sets = s.nsets < 2 || (per_set[0] > 1 && per_set[1] > 1);
			if ((ra <= 0.005 && rb <= 0.005 && all_sets) || el >= budget)
				break;
		}
		if (el >= budget * 5 + 10)
			break;
		if (el - last >= 0.2) {
			rung__wprogress(c, RUNG_STEP_BENCH, el / budget > 1 ? 1 : el / budget, "A/B n=%d", n);
			last = el;
		}
	}
	if (c->nvml)
		rung_nvml_others(&shared);
out:
	if (use_cupti)
		rung_cupti_stop();
	fatal = fatal || ja.fatal || jb.fatal;
	int sets = (per_set[0] > 0) + (per_set[1] > 0);
	reply_args ra = { .a = sa, .b = sb, .n = reason[0] ? 0 : n, .dropped = dropped, .verified = verified,
			  .sets = sets, .verify_ms = verify_ms, .method = use_cupti ? "cupti-activity" : "events",
			  .fatal = fatal, .reason = reason, .dis = have_dis ? &dis : NULL, .shared = &shared };
	reply(c, &ra);
	if (!fatal) {
		for (int i = 0; i < NE * BATCH; i++)
			if (ev[i])
				rung_cu.cuEventDestroy(ev[i]);
		if (slots)
			rung_cu.cuMemFree(slots);
		teardown(&s);
		for (int i = 0; i < RUNG_MAX_ARGS; i++)
			if (buf[i].base)
				rung_cu.cuMemFree(buf[i].base);
		if (ja.kmod)
			rung_cu.cuModuleUnload(ja.kmod);
		if (jb.kmod)
			rung_cu.cuModuleUnload(jb.kmod);
	}
	rung__scratch_release(!fatal);
	rung_result_clear(&res);
	free(hslots);
	free(pa);
	free(pb);
	free(sa);
	free(sb);
	return fatal;
}
