/* Result records: status/reason rules and a JSON round trip of a fully
 * populated record, compared field by field. */
#include "harness.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/result.h"
#include "app/evaluate.h"
#include "cli/report.h"
#include "cli/cli.h"

/* NAN equals NAN here; everything else exact */
static int same_d(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}
#define CHECK_D(a, b) do { if (!same_d((a), (b))) { \
	fprintf(stderr, "%s:%d: %s: %s == %.17g, expected %.17g\n", __FILE__, __LINE__, t_current, #a, (double)(a), (double)(b)); \
	t_case_failed = 1; } } while (0)

static void fill_kinfo(rung_kinfo *k, int base)
{
	k->valid = true;
	snprintf(k->name, sizeof k->name, "_Z5sgemmPKfS0_Pfiii_%d", base);
	k->regs = base + 1;
	k->barriers = 1;
	k->stack = base * 8;
	k->smem = 16384 + base;
	k->cmem = 400;
	k->spill_stores = base;
	k->spill_loads = base + 2;
	k->stack_frame = 256;
}

static void populate(rung_result *r)
{
	rung_result_init(r);
	snprintf(r->key, sizeof r->key, "%s", "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
	snprintf(r->rev, sizeof r->rev, "%s", "0123456789abcdef0123456789abcdef01234567");
	snprintf(r->label, sizeof r->label, "%s", "tile \"64x64\"\twith ünïcode\nand a newline");
	r->base_seed = UINT64_C(0xFEDCBA9876543210); /* above 2^63 */
	r->created = 1764400000;
	r->cached = true;
	r->recorded = true;
	snprintf(r->recorded_note, sizeof r->recorded_note, "%s", "recorded on NVIDIA H200, 2026-11-29");
	r->steps[RUNG_STEP_COMPILE] = (rung_step){ RUNG_S_OK, "", 41.5, RUNG_CAUSE_NONE };
	r->steps[RUNG_STEP_RUN] = (rung_step){ RUNG_S_OK, "", 3.25, RUNG_CAUSE_NONE };
	r->steps[RUNG_STEP_CHECK] = (rung_step){ RUNG_S_FAILED, "max_rel 3.1e-02 at (127,4)", 120.0, RUNG_CAUSE_NONE };
	r->steps[RUNG_STEP_BENCH] = (rung_step){ RUNG_S_SKIPPED, "check failed", NAN, RUNG_CAUSE_NONE };
	r->steps[RUNG_STEP_PROFILE] = (rung_step){ RUNG_S_NONE, "", NAN, RUNG_CAUSE_NONE };
	fill_kinfo(&r->compile.kernel, 3);
	fill_kinfo(&r->compile.reference, 7);
	r->compile.ptx_bytes = 12345;
	r->compile.cubin_bytes = 67890;
	r->compile.compile_ms = 40.125;
	snprintf(r->compile.arch, sizeof r->compile.arch, "sm_90");
	snprintf(r->compile.lowered_name, sizeof r->compile.lowered_name, "_Z5sgemmPKfS0_Pfiii");
	r->compile_log = strdup("ptxas info : Used 80 registers\n");
	r->output = strdup("tid 0 \x1b[2J\x1b]52;c;eA==\x07 \xe2\x9c\x93\n");
	r->output_bytes = 70000;
	r->output_dropped = 70000 - RUNG_OUTPUT_KEEP;
	/* set directly so the test does not depend on spec.c */
	snprintf(r->run_dims.d[0].name, RUNG_NAME_MAX, "N");
	r->run_dims.d[0].value = 4096;
	snprintf(r->run_dims.d[1].name, RUNG_NAME_MAX, "M");
	r->run_dims.d[1].value = 127;
	snprintf(r->run_dims.d[2].name, RUNG_NAME_MAX, "K");
	r->run_dims.d[2].value = 63;
	r->run_dims.n = 3;
	r->run_ms = 15.506;
	r->run_finite = true;

	r->nmetrics = 2;
	r->metrics = calloc(2, sizeof *r->metrics);
	for (int k = 0; k < 2; k++) {
		rung_check_metric *m = &r->metrics[k];
		snprintf(m->output, sizeof m->output, "C%d", k);
		m->dims = r->run_dims;
		m->dims.d[1].value = 127 + k;
		m->seed = UINT64_C(0x8000000000000001) + (uint64_t)k;
		m->n = 4096 * 127;
		m->max_abs = 0.1 + k;
		m->max_rel = 3.1e-2;
		m->mae = 1.0 / 3.0;
		m->mse = 1e-300;
		m->rmse = 1e-150;
		m->psnr = k ? INFINITY : 31.2;
		m->cossim = k ? NAN : 0.999999999999;
		m->peak = -INFINITY;
		m->nan_count = 5;
		m->inf_count = 6;
		m->mismatches = 7;
		m->unwritten = 8 + k;
		m->nbad = 2;
		m->bad_rank = 2;
		for (int b = 0; b < 2; b++) {
			m->bad_index[b] = 127 * 4096 + b;
			m->bad_coord[b][0] = 127;
			m->bad_coord[b][1] = 4 + b;
			m->bad_got[b] = b ? NAN : 1.5;
			m->bad_expected[b] = b ? -INFINITY : 1.25e-7;
		}
		m->has_ulp = k == 0;
		for (int u = 0; u < RUNG_ULP_BINS; u++)
			m->ulp_hist[u] = m->has_ulp ? (uint64_t)(u * 1000 + 1) : 0;
		m->pass = k == 1;
		snprintf(m->reason, sizeof m->reason, "max_rel 3.1e-2 at (127,%d)", 4 + k);
		if (k == 0) { /* a map on the first row only: the second reads as none */
			rung_err_map_geom_init(&m->map.g, m->n, 2, (int64_t[]){ 127, 4096 });
			for (int t = 0; t < 64; t++)
				m->map.lv[t * 64 + 63] = (uint8_t)(1 + t % RUNG_MAP_UNWRITTEN);
			m->map.lv[5] = RUNG_MAP_NAN;
		}
	}
	r->nshapes = 3;
	r->nseeds = 2;

	r->bench.valid = true;
	r->bench.median = 15.5;
	r->bench.mean = 15.51;
	r->bench.min = 15.4;
	r->bench.max = 16.0;
	r->bench.q1 = 15.45;
	r->bench.q3 = 15.55;
	r->bench.stddev = 0.05;
	r->bench.rse_median = 0.0013;
	r->bench.noise_ok = true;
	r->bench.n = 4;
	r->bench.dropped = 1;
	r->bench.samples = malloc(4 * sizeof(double));
	r->bench.samples[0] = 15.5;
	r->bench.samples[1] = 0.1 + 0.2; /* needs 17 digits to round-trip */
	r->bench.samples[2] = 16.0;
	r->bench.samples[3] = 15.4;
	r->bench.event_median = 15.65;
	r->bench.clock_mhz = 1980;
	r->bench.tflops = 8.867;
	r->bench.tbps = NAN;
	snprintf(r->bench.method, sizeof r->bench.method, "cupti-activity-calibrated");
	r->bench.record_median = 15.6;
	r->bench.record_offset = 0.00141;
	r->bench.record_floor = 0.00323;
	r->bench.profiler_floor = 0.00182;
	snprintf(r->bench.calibration, sizeof r->bench.calibration, "profiler floor cached from 2026-12-02 18:43 UTC (20 launches)");

	r->env.valid = true;
	snprintf(r->env.gpu, sizeof r->env.gpu, "NVIDIA H200");
	snprintf(r->env.uuid, sizeof r->env.uuid, "GPU-1234");
	snprintf(r->env.driver, sizeof r->env.driver, "580.65");
	snprintf(r->env.cuda, sizeof r->env.cuda, "13.0");
	snprintf(r->env.arch, sizeof r->env.arch, "sm_90");
	r->env.sms = 132;
	r->env.sm_clock_mhz = 1980;
	r->env.mem_clock_mhz = 3201;
	r->env.bus_width = 6016;
	r->env.l2_bytes = 62914560;
	r->env.persisting_l2_limit = 39321600;
	r->env.power_limit_w = 700.5;
	snprintf(r->env.host, sizeof r->env.host, "gpu-box-7");

	r->impossible = true;
	r->floor_ms = 2.0541433731251915;
	/* a record of this rung carries the impossible flag's suspect too */
	rung_result_add_suspect(r, RUNG_SUSPECT_MUTABLE_GLOBAL, "mutable __device__ global 'calls' (written by the kernel)");
	rung_result_add_suspect(r, RUNG_SUSPECT_IMPOSSIBLE, "median 1ms is below the speed-of-light floor 2.054ms");
	r->ncounters = 2;
	r->counters = calloc(2, sizeof *r->counters);
	snprintf(r->counters[0].name, sizeof r->counters[0].name, "dram__bytes_read.sum");
	r->counters[0].value = 67108864;
	snprintf(r->counters[1].name, sizeof r->counters[1].name, "sm__throughput.avg.pct_of_peak_sustained_elapsed");
	r->counters[1].value = NAN;
}

static void same_dims(const rung_dimset *a, const rung_dimset *b)
{
	CHECK_INT(a->n, b->n);
	for (int k = 0; k < a->n && k < b->n; k++) {
		CHECK_STR(a->d[k].name, b->d[k].name); /* order kept */
		CHECK_INT(a->d[k].value, b->d[k].value);
	}
}

static void same_kinfo(const rung_kinfo *a, const rung_kinfo *b)
{
	CHECK(a->valid == b->valid);
	CHECK_STR(a->name, b->name);
	CHECK_INT(a->regs, b->regs);
	CHECK_INT(a->barriers, b->barriers);
	CHECK_INT(a->stack, b->stack);
	CHECK_INT(a->smem, b->smem);
	CHECK_INT(a->cmem, b->cmem);
	CHECK_INT(a->spill_stores, b->spill_stores);
	CHECK_INT(a->spill_loads, b->spill_loads);
	CHECK_INT(a->stack_frame, b->stack_frame);
}

static void same_result(const rung_result *a, const rung_result *b)
{
	CHECK_STR(a->key, b->key);
	CHECK_STR(a->rev, b->rev);
	CHECK_STR(a->label, b->label);
	CHECK(a->base_seed == b->base_seed);
	CHECK_INT(a->created, b->created);
	CHECK(a->cached == b->cached);
	CHECK(a->recorded == b->recorded);
	CHECK_STR(a->recorded_note, b->recorded_note);
	for (int s = 0; s < RUNG_NSTEPS; s++) {
		CHECK_INT(a->steps[s].status, b->steps[s].status);
		CHECK_STR(a->steps[s].reason, b->steps[s].reason);
		CHECK_D(a->steps[s].wall_ms, b->steps[s].wall_ms);
	}
	same_kinfo(&a->compile.kernel, &b->compile.kernel);
	same_kinfo(&a->compile.reference, &b->compile.reference);
	CHECK_INT(a->compile.ptx_bytes, b->compile.ptx_bytes);
	CHECK_INT(a->compile.cubin_bytes, b->compile.cubin_bytes);
	CHECK_D(a->compile.compile_ms, b->compile.compile_ms);
	CHECK_STR(a->compile.arch, b->compile.arch);
	CHECK_STR(a->compile.lowered_name, b->compile.lowered_name);
	if (a->compile_log || b->compile_log)
		CHECK_STR(a->compile_log, b->compile_log);
	if (a->output || b->output)
		CHECK_STR(a->output, b->output);
	CHECK_INT(a->output_bytes, b->output_bytes);
	CHECK_INT(a->output_dropped, b->output_dropped);
	same_dims(&a->run_dims, &b->run_dims);
	CHECK_D(a->run_ms, b->run_ms);
	CHECK(a->run_finite == b->run_finite);
	CHECK_INT(a->nmetrics, b->nmetrics);
	for (int k = 0; k < a->nmetrics && k < b->nmetrics; k++) {
		const rung_check_metric *x = &a->metrics[k], *y = &b->metrics[k];
		CHECK_STR(x->output, y->output);
		same_dims(&x->dims, &y->dims);
		CHECK(x->seed == y->seed);
		CHECK_INT(x->n, y->n);
		CHECK_D(x->max_abs, y->max_abs);
		CHECK_D(x->max_rel, y->max_rel);
		CHECK_D(x->mae, y->mae);
		CHECK_D(x->mse, y->mse);
		CHECK_D(x->rmse, y->rmse);
		CHECK_D(x->psnr, y->psnr);
		CHECK_D(x->cossim, y->cossim);
		CHECK_D(x->peak, y->peak);
		CHECK_INT(x->nan_count, y->nan_count);
		CHECK_INT(x->inf_count, y->inf_count);
		CHECK_INT(x->mismatches, y->mismatches);
		CHECK_INT(x->unwritten, y->unwritten);
		CHECK_INT(x->nbad, y->nbad);
		CHECK_INT(x->bad_rank, y->bad_rank);
		for (int i = 0; i < x->nbad && i < y->nbad; i++) {
			CHECK_INT(x->bad_index[i], y->bad_index[i]);
			for (int d = 0; d < x->bad_rank; d++)
				CHECK_INT(x->bad_coord[i][d], y->bad_coord[i][d]);
			CHECK_D(x->bad_got[i], y->bad_got[i]);
			CHECK_D(x->bad_expected[i], y->bad_expected[i]);
		}
		CHECK(x->has_ulp == y->has_ulp);
		for (int u = 0; u < RUNG_ULP_BINS; u++)
			CHECK_INT(x->ulp_hist[u], y->ulp_hist[u]);
		CHECK(x->pass == y->pass);
		CHECK_STR(x->reason, y->reason);
		CHECK_INT(x->inputs, y->inputs);
		CHECK(memcmp(&x->map, &y->map, sizeof x->map) == 0);
	}
	CHECK_INT(a->nshapes, b->nshapes);
	CHECK_INT(a->nseeds, b->nseeds);
	CHECK_INT(a->ninputs, b->ninputs);
	for (int k = 0; k < a->ninputs && k < b->ninputs; k++)
		CHECK_INT(a->inputs[k], b->inputs[k]);
	const rung_bench *p = &a->bench, *q = &b->bench;
	CHECK(p->valid == q->valid);
	CHECK_D(p->median, q->median);
	CHECK_D(p->mean, q->mean);
	CHECK_D(p->min, q->min);
	CHECK_D(p->max, q->max);
	CHECK_D(p->q1, q->q1);
	CHECK_D(p->q3, q->q3);
	CHECK_D(p->stddev, q->stddev);
	CHECK_D(p->rse_median, q->rse_median);
	CHECK(p->noise_ok == q->noise_ok);
	CHECK_INT(p->n, q->n);
	CHECK_INT(p->dropped, q->dropped);
	for (int k = 0; k < p->n && k < q->n; k++)
		CHECK_D(p->samples[k], q->samples[k]);
	CHECK_D(p->event_median, q->event_median);
	CHECK_D(p->clock_mhz, q->clock_mhz);
	CHECK_D(p->tflops, q->tflops);
	CHECK_D(p->tbps, q->tbps);
	CHECK_STR(p->method, q->method);
	CHECK_D(p->record_median, q->record_median);
	CHECK_D(p->record_offset, q->record_offset);
	CHECK_D(p->record_floor, q->record_floor);
	CHECK_D(p->profiler_floor, q->profiler_floor);
	CHECK_STR(p->calibration, q->calibration);
	const rung_env *e = &a->env, *f = &b->env;
	CHECK(e->valid == f->valid);
	CHECK_STR(e->gpu, f->gpu);
	CHECK_STR(e->uuid, f->uuid);
	CHECK_STR(e->driver, f->driver);
	CHECK_STR(e->cuda, f->cuda);
	CHECK_STR(e->arch, f->arch);
	CHECK_INT(e->sms, f->sms);
	CHECK_INT(e->sm_clock_mhz, f->sm_clock_mhz);
	CHECK_INT(e->mem_clock_mhz, f->mem_clock_mhz);
	CHECK_INT(e->bus_width, f->bus_width);
	CHECK_INT(e->l2_bytes, f->l2_bytes);
	CHECK_INT(e->persisting_l2_limit, f->persisting_l2_limit);
	CHECK_D(e->power_limit_w, f->power_limit_w);
	CHECK_STR(e->host, f->host);
	CHECK(a->impossible == b->impossible);
	CHECK_INT(a->nsuspects, b->nsuspects);
	for (int k = 0; k < a->nsuspects && k < b->nsuspects; k++) {
		CHECK_INT(a->suspects[k].kind, b->suspects[k].kind);
		CHECK_STR(a->suspects[k].reason, b->suspects[k].reason);
	}
	CHECK_D(a->floor_ms, b->floor_ms);
	CHECK_INT(a->ncounters, b->ncounters);
	for (int k = 0; k < a->ncounters && k < b->ncounters; k++) {
		CHECK_STR(a->counters[k].name, b->counters[k].name);
		CHECK_D(a->counters[k].value, b->counters[k].value);
	}
}

static void t_roundtrip(void)
{
	rung_result a, b;
	populate(&a);
	char *js = rung_result_to_json(&a);
	CHECK(js != NULL);
	if (!js)
		return;
	CHECK(strchr(js, '\n') == NULL); /* one line */
	/* encodings: NAN -> null, infinities -> strings, big seeds -> decimal strings */
	CHECK_CONTAINS(js, "\"psnr\":\"inf\"");
	CHECK_CONTAINS(js, "\"peak\":\"-inf\"");
	CHECK_CONTAINS(js, "\"cossim\":null");
	CHECK_CONTAINS(js, "\"base_seed\":\"18364758544493064720\"");
	CHECK_CONTAINS(js, "\"status\":\"FAILED\"");
	CHECK_CONTAINS(js, "\"run_dims\":{\"N\":4096,\"M\":127,\"K\":63}");
	/* kernel output: controls JSON-escaped, so the text is inert in --json too */
	CHECK_CONTAINS(js, "\"output\":{\"text\":\"tid 0 \\u001B[2J\\u001B]52;c;eA==\\u0007 \xe2\x9c\x93\\n\",\"bytes\":70000,"
			   "\"dropped\":4464}");
	CHECK(!strchr(js, '\x1b'));
	CHECK_INT(rung_result_from_json(&b, js), 0);
	same_result(&a, &b);
	/* and serializing the parsed record gives the same text */
	char *js2 = rung_result_to_json(&b);
	CHECK_STR(js2, js);
	free(js);
	free(js2);
	rung_result_clear(&a);
	rung_result_clear(&b);
	CHECK(a.metrics == NULL && a.compile_log == NULL && a.bench.samples == NULL);
	CHECK(isnan(a.run_ms) && isnan(a.bench.median));
}

/* [check] inputs: the distributions of a result and of each metric row; absent
 * (normal only) leaves the JSON exactly as before, so stored results stay valid. */
static void t_inputs(void)
{
	rung_result a, b;
	populate(&a);
	char *js = rung_result_to_json(&a);
	CHECK(js && !strstr(js, "\"inputs\""));
	CHECK_INT(rung_result_runs(&a), 2 * 2 + 1); /* 3 shapes x 2 seeds: 2 check shapes x 2 + the run case */
	char names[64];
	rung_result_inputs_str(names, sizeof names, &a);
	CHECK_STR(names, "normal");
	free(js);
	a.ninputs = 3;
	a.inputs[0] = RUNG_DIST_NORMAL;
	a.inputs[1] = RUNG_DIST_WIDE;
	a.inputs[2] = RUNG_DIST_INTS;
	a.metrics[1].inputs = RUNG_DIST_INTS;
	CHECK_INT(rung_result_runs(&a), 5 + 2 + 2); /* each further distribution: the 2 check shapes, first seed */
	rung_result_inputs_str(names, sizeof names, &a);
	CHECK_STR(names, "normal, wide, ints");
	js = rung_result_to_json(&a);
	CHECK_CONTAINS(js, "\"inputs\":[\"normal\",\"wide\",\"ints\"]");
	CHECK_CONTAINS(js, "\"inputs\":\"ints\"");
	CHECK_INT(rung_result_from_json(&b, js), 0);
	same_result(&a, &b);
	CHECK_INT(b.metrics[0].inputs, RUNG_DIST_NORMAL);
	CHECK_INT(b.metrics[1].inputs, RUNG_DIST_INTS);
	free(js);
	rung_result_clear(&b);
	/* only the benchmark shape: each further distribution runs there once */
	a.nshapes = 1;
	CHECK_INT(rung_result_runs(&a), 1 + 2);
	a.nshapes = 0;
	CHECK_INT(rung_result_runs(&a), 0);
	rung_result_clear(&a);
}

/* The error map: written as rows/cols/h/w/tile/levels when present, absent
 * otherwise; a record without one (older) reads with none; a malformed one is
 * dropped, the rest of the record kept. */
static void t_map(void)
{
	rung_result a, b;
	populate(&a);
	char *js = rung_result_to_json(&a);
	CHECK_CONTAINS(js, "\"map\":{\"rows\":64,\"cols\":64,\"h\":127,\"w\":4096,\"tile\":[2,64],\"levels\":\".{5}N.{57}1.{63}2");
	CHECK(strstr(strstr(js, "\"map\"") + 1, "\"map\"") == NULL); /* the second row has none */
	CHECK_INT(rung_result_from_json(&b, js), 0);
	CHECK_INT(b.metrics[0].map.g.rows, 64);
	CHECK_INT(rung_err_map_at(&b.metrics[0].map, 0, 5), RUNG_MAP_NAN);
	CHECK_INT(rung_err_map_at(&b.metrics[0].map, 11, 63), RUNG_MAP_UNWRITTEN);
	CHECK_INT(b.metrics[1].map.g.rows, 0);
	rung_result_clear(&b);
	/* an older record: no "map" key at all */
	char *at = strstr(js, ",\"map\":{");
	CHECK(at != NULL);
	char *lv = at ? strstr(at, "\"levels\":\"") : NULL; /* the levels hold braces: the object ends after their quote */
	char *end = lv ? strchr(strchr(lv + 10, '"'), '}') : NULL;
	if (at && end) {
		memmove(at, end + 1, strlen(end + 1) + 1);
		CHECK(strstr(js, "\"map\"") == NULL);
		CHECK_INT(rung_result_from_json(&b, js), 0);
		CHECK_INT(b.metrics[0].map.g.rows, 0);
		CHECK_INT(b.metrics[0].nbad, 2);
		rung_result_clear(&b);
	}
	free(js);
	/* malformed maps: dropped, the record still reads */
	const char *bad[] = {
		"{\"rows\":64,\"cols\":64,\"h\":127,\"w\":4096,\"tile\":[2,64],\"levels\":\".{4095}\"}",
		"{\"rows\":65,\"cols\":64,\"h\":130,\"w\":4096,\"tile\":[2,64],\"levels\":\".{4160}\"}",
		"{\"rows\":2,\"cols\":2,\"h\":127,\"w\":4096,\"tile\":[2,64],\"levels\":\"....\"}",
		"{\"rows\":1,\"cols\":1,\"h\":1,\"w\":1,\"tile\":[1],\"levels\":\".\"}",
		"{\"rows\":1,\"cols\":1,\"h\":1,\"w\":1,\"tile\":[1,1],\"levels\":\"Z\"}",
		"{\"rows\":1,\"cols\":1,\"h\":-1,\"w\":1,\"tile\":[1,1],\"levels\":\".\"}",
		"\"1{4096}\"",
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		char doc[1024];
		snprintf(doc, sizeof doc, "{\"format\":1,\"metrics\":[{\"output\":\"C\",\"n\":4,\"mismatches\":3,\"map\":%s}]}", bad[k]);
		CHECK_INT(rung_result_from_json(&b, doc), 0);
		CHECK_INT(b.nmetrics, 1);
		CHECK_INT(b.metrics[0].mismatches, 3);
		CHECK_INT(b.metrics[0].map.g.rows, 0);
		rung_result_clear(&b);
	}
	const char *good = "{\"format\":1,\"metrics\":[{\"output\":\"C\",\"n\":3,\"map\":{\"rows\":1,\"cols\":3,\"h\":1,\"w\":3,\"tile\":[1,1],\"levels\":\".U9\"}}]}";
	CHECK_INT(rung_result_from_json(&b, good), 0);
	CHECK_INT(rung_err_map_at(&b.metrics[0].map, 0, 1), RUNG_MAP_UNWRITTEN);
	CHECK_INT(rung_err_map_at(&b.metrics[0].map, 0, 2), 9);
	rung_result_clear(&b);
	rung_result_clear(&a);
}

static void t_empty_and_errors(void)
{
	rung_result a, b;
	rung_result_init(&a);
	CHECK(isnan(a.floor_ms) && isnan(a.steps[0].wall_ms) && isnan(a.bench.event_median));
	CHECK(isnan(a.bench.record_offset) && isnan(a.bench.record_floor) && isnan(a.bench.profiler_floor));
	CHECK_STR(a.bench.calibration, "");
	CHECK_INT(rung_result_status(&a), RUNG_S_NONE);
	CHECK_STR(rung_result_reason(&a), "");
	char *js = rung_result_to_json(&a);
	CHECK_CONTAINS(js, "\"compile_log\":null");
	CHECK_CONTAINS(js, "\"metrics\":[]");
	CHECK(!strstr(js, "\"output\"")); /* nothing printed: no output object */
	CHECK_INT(rung_result_from_json(&b, js), 0);
	same_result(&a, &b);
	free(js);
	rung_result_clear(&b);

	CHECK(rung_result_from_json(&b, "{\"key\": ") < 0);
	CHECK_CONTAINS(rung_error_last(), "result JSON:");
	CHECK(rung_result_from_json(&b, "[1,2]") < 0);
	CHECK(rung_result_from_json(&b, "{\"steps\":{\"run\":{\"status\":\"bogus\"}}}") < 0);
	CHECK_CONTAINS(rung_error_last(), "step run: unknown status 'bogus'");
	/* unknown keys are ignored, missing ones stay absent */
	CHECK_INT(rung_result_from_json(&b, "{\"future\":1,\"run_ms\":2.5}"), 0);
	CHECK_D(b.run_ms, 2.5);
	CHECK(isnan(b.floor_ms));
	rung_result_clear(&b);
}

static void t_status_and_reason(void)
{
	rung_result r;
	rung_result_init(&r);
	r.steps[RUNG_STEP_COMPILE].status = RUNG_S_OK;
	r.steps[RUNG_STEP_RUN].status = RUNG_S_OK;
	CHECK_INT(rung_result_status(&r), RUNG_S_OK);
	r.steps[RUNG_STEP_BENCH].status = RUNG_S_SKIPPED;
	CHECK_INT(rung_result_status(&r), RUNG_S_SKIPPED);
	r.steps[RUNG_STEP_CHECK].status = RUNG_S_FAILED;
	snprintf(r.steps[RUNG_STEP_CHECK].reason, sizeof r.steps[0].reason, "max_rel 3.1e-2 at (127,4)");
	CHECK_INT(rung_result_status(&r), RUNG_S_FAILED);
	CHECK_STR(rung_result_reason(&r), "check: max_rel 3.1e-2 at (127,4)");
	CHECK_STR(rung_step_name(RUNG_STEP_PROFILE), "profile");
	CHECK_STR(rung_status_name(RUNG_S_SKIPPED), "SKIPPED");
	CHECK_STR(rung_status_name(RUNG_S_OK), "ok");
}

/* Suspects: one of each kind, the order kept, the JSON round trip, an unknown
 * kind from a newer rung dropped on read. */
static void t_suspects(void)
{
	rung_result r;
	rung_result_init(&r);
	CHECK(rung_result_suspect(&r, RUNG_SUSPECT_MUTABLE_GLOBAL) == NULL);
	rung_result_add_suspect(&r, RUNG_SUSPECT_MUTABLE_GLOBAL, "mutable __device__ global '%s'", "calls");
	rung_result_add_suspect(&r, RUNG_SUSPECT_TIMED_MISMATCH, "timed launch %d differs", 7);
	rung_result_add_suspect(&r, RUNG_SUSPECT_MUTABLE_GLOBAL, "second of the same kind");
	CHECK_INT(r.nsuspects, 2);
	CHECK_STR(rung_result_suspect(&r, RUNG_SUSPECT_MUTABLE_GLOBAL)->reason, "mutable __device__ global 'calls'");
	CHECK_STR(rung_suspect_name(RUNG_SUSPECT_TIMED_MISMATCH), "timed-mismatch");
	char *js = rung_result_to_json(&r);
	CHECK_CONTAINS(js, "\"suspects\":[{\"kind\":\"mutable-global\"");
	rung_result back;
	CHECK_INT(rung_result_from_json(&back, js), 0);
	CHECK_INT(back.nsuspects, 2);
	CHECK_INT(back.suspects[1].kind, RUNG_SUSPECT_TIMED_MISMATCH);
	CHECK_STR(back.suspects[1].reason, "timed launch 7 differs");
	rung_result_clear(&back);
	free(js);
	CHECK_INT(rung_result_from_json(&back, "{\"suspects\":[{\"kind\":\"from-the-future\",\"reason\":\"x\"},"
					      "{\"kind\":\"device-malloc\",\"reason\":\"malloc in k\"}]}"), 0);
	CHECK_INT(back.nsuspects, 1);
	CHECK_INT(back.suspects[0].kind, RUNG_SUSPECT_DEVICE_MALLOC);
	rung_result_drop_suspect(&back, RUNG_SUSPECT_DEVICE_MALLOC);
	CHECK_INT(back.nsuspects, 0);
	rung_result_clear(&back);
	/* a record of an older rung: impossible without its suspect gets one on reading */
	CHECK_INT(rung_result_from_json(&back, "{\"impossible\":true,\"floor_ms\":2.0,"
					      "\"bench\":{\"valid\":true,\"median\":0.5}}"), 0);
	CHECK(back.impossible);
	CHECK_INT(back.nsuspects, 1);
	CHECK_STR(back.suspects[0].reason, "median 0.5ms is below the speed-of-light floor 2ms (25% of it): the timing is "
					   "wrong or the kernel skips work that [roofline] says it must do");
	rung_result_clear(&back);
	rung_result_clear(&r);
}

/* Output that is not UTF-8 (a raw C1 byte, NUL is impossible in the field) is
 * stored with those bytes as \xNN, and reads back as that text. */
static void t_output_not_utf8(void)
{
	rung_result a, b;
	rung_result_init(&a);
	a.output = strdup("\x9b" "31m red \xff\n");
	a.output_bytes = 13;
	char *js = rung_result_to_json(&a);
	CHECK_CONTAINS(js, "\"output\":{\"text\":\"\\\\x9b31m red \\\\xff\\n\",\"bytes\":13,\"dropped\":0}");
	CHECK_INT(rung_result_from_json(&b, js), 0);
	CHECK_STR(b.output, "\\x9b31m red \\xff\n");
	CHECK_INT(b.output_bytes, 13);
	CHECK_INT(b.output_dropped, 0);
	free(js);
	rung_result_clear(&a);
	rung_result_clear(&b);
	CHECK(a.output == NULL && a.output_bytes == 0);
}

/* The typed cause of a FAILED rung: written only when not none, read back,
 * absent (a record stored before it) or unknown reads as none; the exit code
 * follows the cause, not the reason's text. */
static void t_cause(void)
{
	rung_result r, back;
	rung_result_init(&r);
	r.steps[RUNG_STEP_COMPILE].status = RUNG_S_OK;
	r.steps[RUNG_STEP_RUN].status = RUNG_S_FAILED;
	snprintf(r.steps[RUNG_STEP_RUN].reason, sizeof r.steps[0].reason, "reference failed: illegal address in vadd_ref");
	r.steps[RUNG_STEP_RUN].cause = RUNG_CAUSE_REFERENCE;
	CHECK_STR(rung_cause_name(RUNG_CAUSE_REFERENCE), "reference");
	CHECK_STR(rung_cause_name(RUNG_CAUSE_NONE), "none");
	CHECK_INT(rung_gpu_exit_code(&r, RUNG_STEP_BENCH), RUNG_EXIT_SPEC);
	char *j = rung_result_to_json(&r);
	CHECK(j != NULL);
	CHECK_CONTAINS(j, "\"cause\":\"reference\"");
	CHECK_INT(rung_result_from_json(&back, j), 0);
	CHECK_INT(back.steps[RUNG_STEP_RUN].cause, RUNG_CAUSE_REFERENCE);
	CHECK_INT(back.steps[RUNG_STEP_COMPILE].cause, RUNG_CAUSE_NONE);
	CHECK_STR(back.steps[RUNG_STEP_RUN].reason, r.steps[RUNG_STEP_RUN].reason); /* the text stays */
	CHECK_INT(rung_gpu_exit_code(&back, RUNG_STEP_BENCH), RUNG_EXIT_SPEC);
	rung_result_clear(&back);
	free(j);
	/* the candidate's failure with a reason that merely reads like one: exit 1 */
	r.steps[RUNG_STEP_RUN].cause = RUNG_CAUSE_NONE;
	CHECK_INT(rung_gpu_exit_code(&r, RUNG_STEP_BENCH), RUNG_EXIT_FAIL);
	j = rung_result_to_json(&r);
	CHECK(j && !strstr(j, "\"cause\"")); /* none is absent */
	free(j);
	/* a stored record without "cause", and one with a cause this build does not know */
	const char *old = "{\"steps\":{\"run\":{\"status\":\"FAILED\",\"reason\":\"reference failed: x\"}}}";
	CHECK_INT(rung_result_from_json(&back, old), 0);
	CHECK_INT(back.steps[RUNG_STEP_RUN].status, RUNG_S_FAILED);
	CHECK_INT(back.steps[RUNG_STEP_RUN].cause, RUNG_CAUSE_NONE);
	rung_result_clear(&back);
	const char *newer = "{\"steps\":{\"run\":{\"status\":\"FAILED\",\"reason\":\"x\",\"cause\":\"harness\"}}}";
	CHECK_INT(rung_result_from_json(&back, newer), 0);
	CHECK_INT(back.steps[RUNG_STEP_RUN].cause, RUNG_CAUSE_NONE);
	rung_result_clear(&back);
	/* the sanitize rung's exit code too */
	r.steps[RUNG_STEP_RUN].status = RUNG_S_OK;
	r.steps[RUNG_STEP_SANITIZE].status = RUNG_S_FAILED;
	snprintf(r.steps[RUNG_STEP_SANITIZE].reason, sizeof r.steps[0].reason, "reference failed: memcheck: 1 error");
	r.steps[RUNG_STEP_SANITIZE].cause = RUNG_CAUSE_REFERENCE;
	CHECK_INT(rung_sanitize_exit_code(&r), RUNG_EXIT_SPEC);
	r.steps[RUNG_STEP_SANITIZE].cause = RUNG_CAUSE_NONE;
	CHECK_INT(rung_sanitize_exit_code(&r), RUNG_EXIT_FAIL);
	rung_result_clear(&r);
}

int main(void)
{
	T_RUN(t_roundtrip);
	T_RUN(t_inputs);
	T_RUN(t_map);
	T_RUN(t_empty_and_errors);
	T_RUN(t_status_and_reason);
	T_RUN(t_cause);
	T_RUN(t_suspects);
	T_RUN(t_output_not_utf8);
	return t_done();
}
