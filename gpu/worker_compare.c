/* A/B timing inside the worker ("compare" message): two versions of the same
 * task, same buffers at the benchmark shape, launched A B A B ... with an L2
 * flush before every launch, so drift in clocks or temperature hits both alike.
 * CUPTI activity durations (events when CUPTI is absent); batches under 75% of
 * the max SM clock are dropped. Stops when both medians are stable (rse <= 0.5%)
 * or the budget is spent. Answers {"type":"compare_result", "a":[ms...],
 * "b":[ms...], "method", "dropped", "fatal", "reason"}. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/err.h"
#include "core/stats.h"
#include "gpu/cupti.h"
#include "gpu/worker_child.h"

#define MIN_ROUNDS 10
#define MAX_ROUNDS 4000
#define BATCH 8

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static json_t *arr(const double *v, int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_real(v[i]));
	return a;
}

static void reply(rung_wctx *c, const double *a, const double *b, int n, const char *method, int dropped,
		  bool fatal, const char *reason)
{
	json_t *j = json_pack("{s:s,s:o,s:o,s:s,s:i,s:b,s:s}", "type", "compare_result", "a", arr(a, n), "b",
			      arr(b, n), "method", method, "dropped", dropped, "fatal", fatal, "reason",
			      reason ? reason : "");
	rung__wsend(c, j, NULL, 0);
	json_decref(j);
}

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
	CUevent ev[4 * BATCH];
	memset(ev, 0, sizeof(ev));
	double *sa = malloc(MAX_ROUNDS * sizeof(double)), *sb = malloc(MAX_ROUNDS * sizeof(double));
	double ns[4 * BATCH];
	int n = 0, dropped = 0;
	bool use_cupti = false;
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
	const rung_plan_shape *sha = &pa->shapes[pa->nshapes - 1], *shb = &pb->shapes[pb->nshapes - 1];
	rung_cu.cuCtxSetCurrent(c->ctx);
	if (rung__load_fn(&ja, blobs[0].data, blobs[0].len, &pa->kernel, &ja.kmod, &ja.kfn, &ja.kstatic_smem, reason,
			  sizeof(reason)) ||
	    rung__load_fn(&jb, blobs[1].data, blobs[1].len, &pb->kernel, &jb.kmod, &jb.kfn, &jb.kstatic_smem, reason,
			  sizeof(reason)) ||
	    rung__check_geometry(&ja, ja.kfn, ja.kstatic_smem, false, "A", reason, sizeof(reason)) ||
	    rung__check_geometry(&jb, jb.kfn, jb.kstatic_smem, false, "B", reason, sizeof(reason)))
		goto out;
	if (rung__bench_buffers(&ja, buf, kp, params)) {
		snprintf(reason, sizeof(reason), "%s", res.steps[RUNG_STEP_BENCH].reason);
		goto out;
	}
	if (!rung__flush_ready(c)) {
		snprintf(reason, sizeof(reason), "out of device memory for the L2 flush buffer");
		goto out;
	}
	CUresult r = CUDA_SUCCESS;
	for (int i = 0; i < 4 * BATCH && r == CUDA_SUCCESS; i++)
		r = rung_cu.cuEventCreate(&ev[i], CU_EVENT_DEFAULT);
	/* warm-up: 3 of each */
	for (int w = 0; w < 3 && r == CUDA_SUCCESS; w++) {
		r = rung__launch(c, ja.kfn, &sha->geom, params);
		if (r == CUDA_SUCCESS)
			r = rung__launch(c, jb.kfn, &shb->geom, params);
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuStreamSynchronize(c->stream);
	}
	if (r != CUDA_SUCCESS) {
		rung__describe_fault(reason, sizeof(reason), r, "warm-up");
		fatal = rung_cu_is_sticky(r);
		goto out;
	}
	use_cupti = rung_cupti_available() && rung_cupti_start2(pa->kernel.lowered, pb->kernel.lowered) == 0;
	double budget = pa->budget_s > 0 ? pa->budget_s : 2.0, start = now_s(), last = 0;
	int next_check = MIN_ROUNDS;
	while (n < MAX_ROUNDS) {
		int m = n + BATCH > MAX_ROUNDS ? MAX_ROUNDS - n : BATCH;
		for (int i = 0; i < m && r == CUDA_SUCCESS; i++) {
			for (int k = 0; k < 2 && r == CUDA_SUCCESS; k++) {
				r = rung__flush_l2(c);
				if (r == CUDA_SUCCESS)
					r = rung_cu.cuEventRecord(ev[4 * i + 2 * k], c->stream);
				if (r == CUDA_SUCCESS)
					r = rung__launch(c, k ? jb.kfn : ja.kfn, k ? &shb->geom : &sha->geom, params);
				if (r == CUDA_SUCCESS)
					r = rung_cu.cuEventRecord(ev[4 * i + 2 * k + 1], c->stream);
			}
		}
		int clk = c->nvml ? rung_nvml_sm_clock_mhz() : -1;
		if (r == CUDA_SUCCESS)
			r = rung_cu.cuStreamSynchronize(c->stream);
		if (r != CUDA_SUCCESS) {
			rung__describe_fault(reason, sizeof(reason), r, "A/B timing");
			fatal = rung_cu_is_sticky(r);
			goto out;
		}
		double ea[BATCH], eb[BATCH];
		for (int i = 0; i < m; i++) {
			float t = NAN;
			rung_cu.cuEventElapsedTime(&t, ev[4 * i], ev[4 * i + 1]);
			ea[i] = t;
			t = NAN;
			rung_cu.cuEventElapsedTime(&t, ev[4 * i + 2], ev[4 * i + 3]);
			eb[i] = t;
		}
		if (use_cupti) {
			int got = rung_cupti_collect(ns, 4 * BATCH);
			if (got == 2 * m) {
				for (int i = 0; i < m; i++) {
					ea[i] = ns[2 * i] * 1e-6;
					eb[i] = ns[2 * i + 1] * 1e-6;
				}
			} else {
				fprintf(stderr, "rung worker: CUPTI returned %d records for %d launches; using CUDA events\n", got,
					2 * m);
				rung_cupti_stop();
				use_cupti = false;
				n = 0; /* restart the series with one method only */
				continue;
			}
		}
		double el = now_s() - start;
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
			if ((ra <= 0.005 && rb <= 0.005) || el >= budget)
				break;
		}
		if (el >= budget * 5 + 10)
			break;
		if (el - last >= 0.2) {
			rung__wprogress(c, RUNG_STEP_BENCH, el / budget > 1 ? 1 : el / budget, "A/B n=%d", n);
			last = el;
		}
	}
out:
	if (use_cupti)
		rung_cupti_stop();
	reply(c, sa, sb, reason[0] ? 0 : n, use_cupti ? "cupti-activity" : "events", dropped, fatal || ja.fatal || jb.fatal,
	      reason);
	fatal = fatal || ja.fatal || jb.fatal;
	if (!fatal) {
		for (int i = 0; i < 4 * BATCH; i++)
			if (ev[i])
				rung_cu.cuEventDestroy(ev[i]);
		for (int i = 0; i < RUNG_MAX_ARGS; i++)
			if (buf[i].base)
				rung_cu.cuMemFree(buf[i].base);
		if (ja.kmod)
			rung_cu.cuModuleUnload(ja.kmod);
		if (jb.kmod)
			rung_cu.cuModuleUnload(jb.kmod);
	}
	rung_result_clear(&res);
	free(pa);
	free(pb);
	free(sa);
	free(sb);
	return fatal;
}
