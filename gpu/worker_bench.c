/* The bench rung inside the worker, at the benchmark shape:
 *  - warm-up launches: at least 3 and 50 ms, or 1 and 20 ms when the run case
 *    has just launched the kernel at this shape in this job (module loaded,
 *    clocks up);
 *  - before every sample, an L2 flush that leaves L2 clean: a read sweep over a
 *    zeroed scratch buffer of twice the L2 size (worker_flush.c says why not a
 *    memset; persisting L2 is left at 0);
 *  - the primary figure is CUPTI's activity record of the kernel (end - start on
 *    the GPU), which is the kernel's own duration: launch overhead and the flush
 *    are outside it by construction. CUDA events around the launch are the
 *    cross-check (event_median), and the fallback when CUPTI is absent;
 *  - samples in batches; the SM clock (NVML) is read while each batch runs and a
 *    batch under 75% of the max clock is dropped and counted;
 *  - adaptive stop: at least 10 samples, then stop when the relative standard
 *    error of the median is <= 0.5% or the budget is spent. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/guard.h"
#include "core/stats.h"
#include "core/timing.h"
#include "gpu/cupti.h"
#include "gpu/worker_case.h"

#define MIN_SAMPLES 10
#define MAX_SAMPLES 5000
#define MAX_BATCH 16
#define RSE_TARGET 0.005

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_of(double *v, int n)
{
	if (n < 1)
		return NAN;
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void fail(rung_wjob *j, CUresult r, const char *what)
{
	char why[512];
	rung__describe_fault(why, sizeof(why), r, what);
	rung__wstep(j->res, RUNG_STEP_BENCH, RUNG_S_FAILED, "%s", why);
	if (rung_cu_is_sticky(r))
		j->fatal = true;
}

int rung__bench_buffers(rung_wjob *j, rung_dbuf *buf, rung_kparam *kp, void **params)
{
	const rung_plan *p = j->p;
	rung_result *res = j->res;
	const rung_plan_shape *sh = &p->shapes[p->nshapes - 1];
	char why[512];
	/* Buffers at the benchmark shape with the first seed's inputs. */
	for (int i = 0; i < p->nargs; i++) {
		const rung_plan_arg *a = &p->args[i];
		if (a->kind == RUNG_ARG_SCALAR) {
			rung__scalar_param(&kp[i], p, sh, i);
			params[i] = &kp[i];
			continue;
		}
		if (j->have_keep && j->keep[i].base) {
			/* the run case's buffers: its inputs were verified unchanged; an
			 * inout was changed by the kernel, so it gets its inputs again */
			buf[i] = j->keep[i];
			j->keep[i].base = 0;
			if (a->kind == RUNG_ARG_INOUT &&
			    rung__upload_input(j, sh, i, p->seeds[0], &buf[i].ptr, 1, why, sizeof(why))) {
				rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "%s", why);
				return 1;
			}
			memset(&kp[i], 0, sizeof(kp[i]));
			kp[i].p = buf[i].ptr;
			params[i] = &kp[i];
			continue;
		}
		size_t bytes = (size_t)sh->numel[i] * rung_dtype_size(a->dtype);
		buf[i].bytes = bytes;
		buf[i].total = rung_guard_total(bytes);
		CUresult r = rung_cu.cuMemAlloc(&buf[i].base, buf[i].total);
		if (r != CUDA_SUCCESS) {
			buf[i].base = 0;
			fail(j, r, "bench buffers");
			return 1;
		}
		buf[i].ptr = buf[i].base + rung_guard_size();
		if (a->kind != RUNG_ARG_OUTPUT) {
			/* generated in chunks straight to the device (no whole host copy) */
			if (rung__upload_input(j, sh, i, p->seeds[0], &buf[i].ptr, 1, why, sizeof(why))) {
				rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "%s", why);
				return 1;
			}
		}
		memset(&kp[i], 0, sizeof(kp[i]));
		kp[i].p = buf[i].ptr;
		params[i] = &kp[i];
	}
	return 0;
}

void rung__wbench(rung_wjob *j)
{
	rung_wctx *c = j->c;
	const rung_plan *p = j->p;
	rung_result *res = j->res;
	const rung_plan_shape *sh = &p->shapes[p->nshapes - 1];
	rung_bench *b = &res->bench;
	rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_RUNNING, NULL);
	rung__wprogress(c, RUNG_STEP_BENCH, 0, "warm-up");

	rung_dbuf buf[RUNG_MAX_ARGS];
	rung_kparam kp[RUNG_MAX_ARGS];
	void *params[RUNG_MAX_ARGS];
	memset(buf, 0, sizeof(buf));
	CUevent ev[2 * MAX_BATCH];
	memset(ev, 0, sizeof(ev));
	double *cupti_ns = NULL, *samples = NULL, *evs = NULL, *clocks = NULL;
	int n = 0, nev = 0, nclk = 0, dropped = 0;
	bool use_cupti = false;

	bool ran_here = j->have_keep; /* the run case launched it on these buffers */
	double tt = rung_timing_now();
	if (rung__bench_buffers(j, buf, kp, params))
		goto out;
	tt = rung_timing_lap("bench: buffers (reused from the run case, or generated)", tt);
	if (!rung__flush_ready(c)) {
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "out of device memory for the L2 flush buffer");
		goto out;
	}
	for (int i = 0; i < 2 * MAX_BATCH; i++) {
		CUresult r = rung_cu.cuEventCreate(&ev[i], CU_EVENT_DEFAULT);
		if (r != CUDA_SUCCESS) {
			ev[i] = NULL;
			fail(j, r, "cuEventCreate");
			goto out;
		}
	}

	/* Warm-up: at least 3 launches and 50 ms, or 1 launch and 20 ms after the
	 * run case (at most a tenth of the budget). */
	int min_warm = ran_here ? 1 : 3;
	double warm_s = ran_here ? 0.02 : 0.05;
	double t0 = now_s(), est_ms = 0;
	for (int w = 0; w < 1000; w++) {
		rung_cu.cuEventRecord(ev[0], c->stream);
		CUresult r = rung__launch(c, j->kfn, &sh->geom, params);
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuEventRecord(ev[1], c->stream);
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuStreamSynchronize(c->stream);
		if (r != CUDA_SUCCESS) {
			fail(j, r, p->kernel.name);
			goto out;
		}
		float ms = 0;
		rung_cu.cuEventElapsedTime(&ms, ev[0], ev[1]);
		est_ms = ms;
		double el = now_s() - t0;
		if (w + 1 >= min_warm && (el >= warm_s || el >= p->budget_s / 10))
			break;
		rung__wprogress(c, RUNG_STEP_BENCH, 0, "warm-up %d", w + 1);
	}

	tt = rung_timing_lap("bench: flush setup + warm-up", tt);
	use_cupti = rung_cupti_available() && rung_cupti_start(p->kernel.lowered) == 0;
	samples = malloc(MAX_SAMPLES * sizeof(double));
	evs = malloc(MAX_SAMPLES * sizeof(double));
	clocks = malloc((MAX_SAMPLES / 1 + 1) * sizeof(double));
	cupti_ns = malloc(MAX_BATCH * 4 * sizeof(double));
	if (!samples || !evs || !clocks || !cupti_ns) {
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "out of host memory");
		goto out;
	}
	/* Batches of about 50 ms so progress (and the parent's deadline) keep moving. */
	int batch = est_ms > 0 ? (int)(50.0 / est_ms) : MAX_BATCH;
	if (batch < 1)
		batch = 1;
	if (batch > MAX_BATCH)
		batch = MAX_BATCH;
	double start = now_s(), last_progress = 0, hard = p->budget_s * 5 + 10;
	double rse = NAN;
	int next_check = MIN_SAMPLES;
	if (use_cupti)
		rung_cupti_collect(cupti_ns, MAX_BATCH * 4); /* drop warm-up records */
	while (n < MAX_SAMPLES) {
		int m = batch;
		if (n < MIN_SAMPLES && n + m > MIN_SAMPLES)
			m = MIN_SAMPLES - n; /* land on the first check, not past it */
		if (n + m > MAX_SAMPLES)
			m = MAX_SAMPLES - n;
		CUresult r = CUDA_SUCCESS;
		for (int i = 0; i < m && r == CUDA_SUCCESS; i++) {
			r = rung__flush_l2(c);
			if (r == CUDA_SUCCESS)
				r = rung_cu.cuEventRecord(ev[2 * i], c->stream);
			if (r == CUDA_SUCCESS)
				r = rung__launch(c, j->kfn, &sh->geom, params);
			if (r == CUDA_SUCCESS)
				r = rung_cu.cuEventRecord(ev[2 * i + 1], c->stream);
		}
		int clk = c->nvml ? rung_nvml_sm_clock_mhz() : -1; /* read while the batch runs */
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuStreamSynchronize(c->stream);
		if (r != CUDA_SUCCESS) {
			fail(j, r, p->kernel.name);
			goto out;
		}
		double bev[MAX_BATCH];
		for (int i = 0; i < m; i++) {
			float ms = NAN;
			if (rung_cu.cuEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]) != CUDA_SUCCESS)
				ms = NAN;
			bev[i] = ms;
		}
		int got = m;
		if (use_cupti) {
			got = rung_cupti_collect(cupti_ns, MAX_BATCH * 4);
			if (got != m) {
				/* Records missing or extra: fall back to events for the whole run. */
				fprintf(stderr, "rung worker: CUPTI returned %d records for %d launches; using CUDA events\n", got, m);
				use_cupti = false;
				rung_cupti_stop();
				memcpy(samples, evs, (size_t)nev * sizeof(double));
				n = nev;
				got = m;
			}
		}
		double el = now_s() - start;
		/* Under 75% of the max SM clock: drop the batch, unless the budget is gone
		 * with too few samples (then keep them; `dropped` still tells). */
		bool slow = clk > 0 && c->max_clock_mhz > 0 && clk < 0.75 * c->max_clock_mhz &&
			    !(el >= p->budget_s && n < MIN_SAMPLES);
		if (slow) {
			dropped += m;
		} else {
			for (int i = 0; i < m; i++) {
				samples[n++] = use_cupti ? cupti_ns[i] * 1e-6 : bev[i];
				evs[nev++] = bev[i];
			}
			if (clk > 0)
				clocks[nclk++] = clk;
		}
		if (n >= MIN_SAMPLES && (n >= next_check || el >= p->budget_s)) {
			/* The bootstrap costs O(n log n): re-check as n grows by 10%. */
			rse = rung_rse_median(samples, n, 200, 0x5eed);
			next_check = n + n / 10 + 1;
			if (rse <= RSE_TARGET || el >= p->budget_s)
				break;
		}
		if (el >= hard)
			break;
		if (el - last_progress >= 0.2) {
			rung__wprogress(c, RUNG_STEP_BENCH, el / p->budget_s > 1 ? 1 : el / p->budget_s, "n=%d", n);
			last_progress = el;
		}
	}
	if (use_cupti)
		rung_cupti_stop();
	if (n < 1) {
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED,
			    "no valid samples: all %d were taken under 75%% of the max SM clock (%d MHz)", dropped,
			    c->max_clock_mhz);
		goto out;
	}
	if (rung_bench_fill(b, samples, n, RSE_TARGET)) {
		rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_FAILED, "statistics failed");
		goto out;
	}
	b->valid = true;
	b->dropped = dropped;
	b->event_median = median_of(evs, nev);
	b->clock_mhz = nclk ? median_of(clocks, nclk) : NAN;
	rung__sfmt(b->method, sizeof(b->method), "%s", use_cupti ? "cupti-activity" : "events");
	b->tflops = isfinite(p->flops) && b->median > 0 ? p->flops / (b->median * 1e-3) / 1e12 : NAN;
	b->tbps = isfinite(p->bytes) && b->median > 0 ? p->bytes / (b->median * 1e-3) / 1e12 : NAN;
	rung__wstep(res, RUNG_STEP_BENCH, RUNG_S_OK, NULL);
out:
	rung_timing_lap("bench: samples (flush + launch)", tt);
	if (!j->fatal) {
		for (int i = 0; i < 2 * MAX_BATCH; i++)
			if (ev[i])
				rung_cu.cuEventDestroy(ev[i]);
		for (int i = 0; i < p->nargs; i++)
			if (buf[i].base)
				rung_cu.cuMemFree(buf[i].base);
	}
	if (use_cupti)
		rung_cupti_stop();
	free(samples);
	free(evs);
	free(clocks);
	free(cupti_ns);
}
