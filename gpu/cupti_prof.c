/* The range profiler sequence (gpu/cupti_prof.h). Every params struct is
 * {T_STRUCT_SIZE} with the rest zeroed. */
#include "gpu/cupti_prof.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include "core/err.h"
#include "core/timing.h"
#include "gpu/cupti_lib.h"


#define PROF_FNS(_) \
	_(cuptiProfilerInitialize, CUpti_Profiler_Initialize_Params) \
	_(cuptiProfilerDeInitialize, CUpti_Profiler_DeInitialize_Params) \
	_(cuptiProfilerDeviceSupported, CUpti_Profiler_DeviceSupported_Params) \
	_(cuptiDeviceGetChipName, CUpti_Device_GetChipName_Params) \
	_(cuptiProfilerGetCounterAvailability, CUpti_Profiler_GetCounterAvailability_Params) \
	_(cuptiProfilerHostInitialize, CUpti_Profiler_Host_Initialize_Params) \
	_(cuptiProfilerHostDeinitialize, CUpti_Profiler_Host_Deinitialize_Params) \
	_(cuptiProfilerHostConfigAddMetrics, CUpti_Profiler_Host_ConfigAddMetrics_Params) \
	_(cuptiProfilerHostGetConfigImageSize, CUpti_Profiler_Host_GetConfigImageSize_Params) \
	_(cuptiProfilerHostGetConfigImage, CUpti_Profiler_Host_GetConfigImage_Params) \
	_(cuptiProfilerHostEvaluateToGpuValues, CUpti_Profiler_Host_EvaluateToGpuValues_Params) \
	_(cuptiProfilerHostGetNumOfPasses, CUpti_Profiler_Host_GetNumOfPasses_Params) \
	_(cuptiRangeProfilerEnable, CUpti_RangeProfiler_Enable_Params) \
	_(cuptiRangeProfilerDisable, CUpti_RangeProfiler_Disable_Params) \
	_(cuptiRangeProfilerGetCounterDataSize, CUpti_RangeProfiler_GetCounterDataSize_Params) \
	_(cuptiRangeProfilerCounterDataImageInitialize, CUpti_RangeProfiler_CounterDataImage_Initialize_Params) \
	_(cuptiRangeProfilerSetConfig, CUpti_RangeProfiler_SetConfig_Params) \
	_(cuptiRangeProfilerStart, CUpti_RangeProfiler_Start_Params) \
	_(cuptiRangeProfilerStop, CUpti_RangeProfiler_Stop_Params) \
	_(cuptiRangeProfilerDecodeData, CUpti_RangeProfiler_DecodeData_Params) \
	_(cuptiRangeProfilerGetCounterDataInfo, CUpti_RangeProfiler_GetCounterDataInfo_Params) \
	_(cuptiRangeProfilerCounterDataGetRangeInfo, CUpti_RangeProfiler_CounterData_GetRangeInfo_Params)

static struct {
	void *lib;
	bool ok;
#define PROF_FIELD(name, T) CUptiResult (*name)(T *);
	PROF_FNS(PROF_FIELD)
#undef PROF_FIELD
} P;

#define RUNG_CUPTI_SLOT_(name, T) (void **)&P.name,
RUNG_CUPTI_LOADER(P, PROF_FNS)
#undef RUNG_CUPTI_SLOT_

static const char *res_str(CUptiResult r)
{
	return rung__cupti_str(P.lib, r);
}

static const char *level(CUpti_Profiler_Support_Level l)
{
	switch (l) {
	case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED: return "unsupported";
	case CUPTI_PROFILER_CONFIGURATION_DISABLED: return "disabled";
	case CUPTI_PROFILER_CONFIGURATION_SUPPORTED: return "supported";
	default: return "unknown";
	}
}

static int cfail(CUptiResult r, const char *call, char *why, size_t len)
{
	return rung__cupti_fail(P.lib, r, call, why, len);
}

#define CALL(name, var) RUNG_CUPTI_CALL(P, name, var)

/* host's configuration image: *config (malloc'd, the caller frees it, also
 * on an error after it was made) of *size bytes. */
static int config_image(uint8_t **config, size_t *size, CUpti_Profiler_Host_Object *host, char *why, size_t why_len)
{
	int ret = 0;
	CUpti_Profiler_Host_GetConfigImageSize_Params cs = {.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
	cs.pHostObject = host;
	CALL(cuptiProfilerHostGetConfigImageSize, cs);
	if (!(*config = malloc(cs.configImageSize + 1))) {
		ret = rung_error_set(RUNG_ENOMEM, "out of memory");
		goto out;
	}
	*size = cs.configImageSize;
	CUpti_Profiler_Host_GetConfigImage_Params ci = {.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
	ci.pHostObject = host;
	ci.configImageSize = cs.configImageSize;
	ci.pConfigImage = *config;
	CALL(cuptiProfilerHostGetConfigImage, ci);
out:
	return ret;
}

/* RUNG_EUNSUPPORTED (why) when the configuration would replay the kernel
 * (more than one pass), as a timing must not. */
static int one_pass_only(const uint8_t *config, size_t size, const char *metric, char *why, size_t why_len)
{
	int ret = 0;
	CUpti_Profiler_Host_GetNumOfPasses_Params np = {.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
	np.configImageSize = size;
	np.pConfigImage = (uint8_t *)config;
	CALL(cuptiProfilerHostGetNumOfPasses, np);
	if (np.numOfPasses != 1) {
		snprintf(why, why_len, "%s needs %zu passes here (the kernel would be replayed)", metric, np.numOfPasses);
		ret = RUNG_EUNSUPPORTED;
	}
out:
	return ret;
}

/* The duration window's host side kept for the worker's life (an experiment
 * of #31 item 2, off unless RUNG_PROFILER_HOST=keep or thread; measured by
 * bench/h200_session7.sh): cuptiProfilerInitialize, the chip's name, the host
 * object and the config image of gpu__time_duration.sum, made once without a
 * counter availability image (optional for the chips this CUPTI knows) and
 * never torn down, so that a warm worker's windows skip them. */
static struct {
	pthread_mutex_t lock;
	int state; /* 0 not tried, 1 ready, -1 failed (why) */
	char why[256];
	CUpti_Profiler_Host_Object *host;
	uint8_t *config;
	size_t config_size;
} K = {.lock = PTHREAD_MUTEX_INITIALIZER};

static const char *const duration_metric[] = {"gpu__time_duration.sum"};

bool rung_cupti_host_kept(void)
{
	const char *e = getenv("RUNG_PROFILER_HOST");
	return e && (!strcmp(e, "keep") || !strcmp(e, "thread"));
}

int rung_cupti_durations_prepare(CUdevice dev)
{
	(void)dev; /* the chip of device 0, as profile_session's */
	pthread_mutex_lock(&K.lock);
	if (K.state) {
		int st = K.state;
		pthread_mutex_unlock(&K.lock);
		return st > 0 ? 0 : RUNG_EUNSUPPORTED;
	}
	char why[256] = "";
	size_t why_len = sizeof(why);
	CUpti_Profiler_Host_Object *host = NULL;
	uint8_t *config = NULL;
	size_t config_size = 0;
	bool inited = false;
	double t0 = rung_now_s();
	int ret = load(why, why_len);
	if (ret)
		goto out;
	CUpti_Profiler_Initialize_Params ip = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
	CALL(cuptiProfilerInitialize, ip);
	inited = true;
	CUpti_Device_GetChipName_Params cn = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE};
	cn.deviceIndex = 0;
	CALL(cuptiDeviceGetChipName, cn);
	CUpti_Profiler_Host_Initialize_Params hi = {.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
	hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
	hi.pChipName = cn.pChipName;
	CALL(cuptiProfilerHostInitialize, hi);
	host = hi.pHostObject;
	CUpti_Profiler_Host_ConfigAddMetrics_Params am = {.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
	am.pHostObject = host;
	const char *one[1] = {duration_metric[0]};
	am.ppMetricNames = one;
	am.numMetrics = 1;
	CALL(cuptiProfilerHostConfigAddMetrics, am);
	if ((ret = config_image(&config, &config_size, host, why, why_len)) ||
	    (ret = one_pass_only(config, config_size, duration_metric[0], why, why_len)))
		goto out;
	K.host = host;
	K.config = config;
	K.config_size = config_size;
	rung_timing_lap("profiler (kept host): initialize, chip name, host initialize, config image", t0);
out:
	if (ret) {
		snprintf(K.why, sizeof(K.why), "%s", why[0] ? why : rung_error_last());
		rung_error_clear();
		free(config);
		if (host) {
			CUpti_Profiler_Host_Deinitialize_Params hd = {.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
			hd.pHostObject = host;
			P.cuptiProfilerHostDeinitialize(&hd);
		}
		if (inited) { /* not kept: the profiler is left as every session leaves it */
			CUpti_Profiler_DeInitialize_Params dp = {.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
			P.cuptiProfilerDeInitialize(&dp);
		}
	}
	K.state = ret ? -1 : 1;
	pthread_mutex_unlock(&K.lock);
	return ret ? RUNG_EUNSUPPORTED : 0;
}

/* One profiler session (initialize, configure, one launch under kernel replay,
 * evaluate, tear down) for a handful of metrics. */
/* One session: the metrics over `calls` calls of launch (auto range: one
 * range per kernel, at most max_ranges in all). With first == false the last
 * range is the one measured (values[i] is metric i); with first == true every
 * call must launch the same number of kernels, the measured one first, and
 * values[k * n + i] is metric i of call k's first (*nvalues of them). The
 * profiler names auto ranges by their index ("0", "1", ...), not by kernel,
 * hence the order. one_pass: refuse a configuration that would replay the
 * kernel (timing). */
static int profile_session(double *values, int *nvalues, char *skipped, size_t skipped_len, CUcontext ctx,
			   CUdevice dev, const char *const *metrics, int n, int calls, int max_ranges, bool first,
			   bool one_pass, rung_prof_launch_fn launch, rung_prof_launch_fn between, void *ud,
			   CUresult *launch_err, char *why, size_t why_len)
{
	int nout = first ? calls : 1;
	for (int i = 0; i < n * nout; i++)
		values[i] = NAN;
	if (nvalues)
		*nvalues = 0;
	if (skipped_len)
		skipped[0] = 0;
	why[0] = 0;
	*launch_err = CUDA_SUCCESS;
	int ret = load(why, why_len);
	if (ret)
		return ret;
	/* the duration window with the kept host (RUNG_PROFILER_HOST): its
	 * initialize, host object and config image were made once */
	bool kept = first && one_pass && n == 1 && !strcmp(metrics[0], duration_metric[0]) && rung_cupti_host_kept() &&
		    rung_cupti_durations_prepare(dev) == 0;
	bool inited = false, enabled = false;
	CUpti_Profiler_Host_Object *host = NULL;
	CUpti_RangeProfiler_Object *obj = NULL;
	uint8_t *avail = NULL, *config = NULL, *data = NULL;
	const char **ok = calloc((size_t)n + 1, sizeof(*ok));
	int *okidx = calloc((size_t)n + 1, sizeof(*okidx));
	double *okval = calloc((size_t)n + 1, sizeof(*okval));
	int nok = 0;
	if (!ok || !okidx || !okval) {
		ret = rung_error_set(RUNG_ENOMEM, "out of memory");
		goto out;
	}

	double t0 = rung_now_s();
	size_t config_size = 0;
	if (kept) {
		host = K.host;
		config = K.config;
		config_size = K.config_size;
		okidx[0] = 0;
		ok[nok++] = metrics[0];
		goto enable;
	}
	CUpti_Profiler_Initialize_Params ip = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
	CALL(cuptiProfilerInitialize, ip);
	inited = true;
	t0 = rung_timing_lap("profiler: initialize", t0);

	CUpti_Profiler_DeviceSupported_Params ds = {.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE};
	ds.cuDevice = dev;
	ds.api = CUPTI_PROFILER_RANGE_PROFILING;
	CALL(cuptiProfilerDeviceSupported, ds);
	if (ds.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) {
		snprintf(why, why_len, "device not supported by the profiler (architecture %s, vGPU %s, confidential compute %s, CMP %s, WSL %s)",
			 level(ds.architecture), level(ds.vGpu), level(ds.confidentialCompute), level(ds.cmp), level(ds.wsl));
		ret = RUNG_EUNSUPPORTED;
		goto out;
	}

	CUpti_Device_GetChipName_Params cn = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE};
	int ordinal = 0;
	(void)dev;
	cn.deviceIndex = (size_t)ordinal;
	CALL(cuptiDeviceGetChipName, cn);
	t0 = rung_timing_lap("profiler: device supported, chip name", t0);

	CUpti_Profiler_GetCounterAvailability_Params ca = {.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
	ca.ctx = ctx;
	CALL(cuptiProfilerGetCounterAvailability, ca);
	avail = malloc(ca.counterAvailabilityImageSize + 1);
	if (!avail) {
		ret = rung_error_set(RUNG_ENOMEM, "out of memory");
		goto out;
	}
	ca.pCounterAvailabilityImage = avail;
	CALL(cuptiProfilerGetCounterAvailability, ca);
	t0 = rung_timing_lap("profiler: counter availability", t0);

	CUpti_Profiler_Host_Initialize_Params hi = {.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
	hi.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
	hi.pChipName = cn.pChipName;
	hi.pCounterAvailabilityImage = avail;
	CALL(cuptiProfilerHostInitialize, hi);
	t0 = rung_timing_lap("profiler: host initialize", t0);
	host = hi.pHostObject;

	/* One metric at a time, so a metric this chip lacks is skipped, not fatal. */
	size_t sk = 0;
	for (int i = 0; i < n; i++) {
		CUpti_Profiler_Host_ConfigAddMetrics_Params am = {.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
		am.pHostObject = host;
		const char *one[1] = {metrics[i]};
		am.ppMetricNames = one;
		am.numMetrics = 1;
		CUptiResult ar = P.cuptiProfilerHostConfigAddMetrics(&am);
		if (ar == CUPTI_SUCCESS) {
			okidx[nok] = i;
			ok[nok++] = metrics[i];
		} else if (skipped_len > sk + 1) {
			sk += (size_t)snprintf(skipped + sk, skipped_len - sk, "%s%s (%s)", sk ? "," : "", metrics[i],
					       res_str(ar));
			if (sk >= skipped_len)
				sk = skipped_len - 1;
		}
	}
	if (nok == 0) {
		snprintf(why, why_len, "none of the %d metrics exists on %s", n, cn.pChipName ? cn.pChipName : "this chip");
		ret = RUNG_EUNSUPPORTED;
		goto out;
	}
	if ((ret = config_image(&config, &config_size, host, why, why_len)))
		goto out;
	t0 = rung_timing_lap("profiler: metrics and config image", t0);
	if (one_pass && (ret = one_pass_only(config, config_size, metrics[0], why, why_len)))
		goto out;

enable:;
	CUpti_RangeProfiler_Enable_Params en = {.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
	en.ctx = ctx;
	CALL(cuptiRangeProfilerEnable, en);
	obj = en.pRangeProfilerObject;
	enabled = true;

	CUpti_RangeProfiler_GetCounterDataSize_Params gs = {.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
	gs.pRangeProfilerObject = obj;
	gs.pMetricNames = ok;
	gs.numMetrics = (size_t)nok;
	size_t nranges = max_ranges > 4 ? (size_t)max_ranges : 4;
	gs.maxNumOfRanges = nranges;
	gs.maxNumRangeTreeNodes = gs.maxNumOfRanges;
	CALL(cuptiRangeProfilerGetCounterDataSize, gs);
	data = calloc(1, gs.counterDataSize + 1);
	if (!data) {
		ret = rung_error_set(RUNG_ENOMEM, "out of memory");
		goto out;
	}
	CUpti_RangeProfiler_CounterDataImage_Initialize_Params di = {.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
	di.pRangeProfilerObject = obj;
	di.counterDataSize = gs.counterDataSize;
	di.pCounterData = data;
	CALL(cuptiRangeProfilerCounterDataImageInitialize, di);

	CUpti_RangeProfiler_SetConfig_Params sc = {.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
	sc.pRangeProfilerObject = obj;
	sc.configSize = config_size;
	sc.pConfig = config;
	sc.counterDataImageSize = gs.counterDataSize;
	sc.pCounterDataImage = data;
	sc.range = CUPTI_AutoRange;
	/* (user replay for the one-pass window was measured as no faster on the
	 * H200: docs/BENCHMARKS.md, section 2) */
	sc.replayMode = CUPTI_KernelReplay;
	sc.maxRangesPerPass = gs.maxNumOfRanges;
	sc.numNestingLevels = 1;
	sc.minNestingLevel = 1;
	sc.passIndex = 0;
	sc.targetNestingLevel = 1;
	CALL(cuptiRangeProfilerSetConfig, sc);
	t0 = rung_timing_lap("profiler: enable, counter data, set config", t0);

	CUpti_RangeProfiler_Start_Params st = {.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
	st.pRangeProfilerObject = obj;
	CUpti_RangeProfiler_Stop_Params sp = {.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
	sp.pRangeProfilerObject = obj;
	CUptiResult stop_r = CUPTI_SUCCESS;
	if (between) {
		/* one Start/Stop per call around launch alone: only its kernels are
		 * ranges; between(ud) runs outside them */
		for (int c = 0; c < calls && *launch_err == CUDA_SUCCESS && stop_r == CUPTI_SUCCESS; c++) {
			CALL(cuptiRangeProfilerStart, st);
			*launch_err = launch(ud);
			stop_r = P.cuptiRangeProfilerStop(&sp);
			if (*launch_err == CUDA_SUCCESS && stop_r == CUPTI_SUCCESS)
				*launch_err = between(ud);
		}
	} else {
		CALL(cuptiRangeProfilerStart, st);
		for (int c = 0; c < calls && *launch_err == CUDA_SUCCESS; c++)
			*launch_err = launch(ud);
		stop_r = P.cuptiRangeProfilerStop(&sp);
	}
	t0 = rung_timing_lap("profiler: the launches", t0);
	if (*launch_err != CUDA_SUCCESS) {
		snprintf(why, why_len, "the kernel failed under the profiler");
		ret = RUNG_ECUDA;
		goto out;
	}
	if (stop_r != CUPTI_SUCCESS) {
		ret = cfail(stop_r, "cuptiRangeProfilerStop", why, why_len);
		goto out;
	}
	CUpti_RangeProfiler_DecodeData_Params dd = {.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
	dd.pRangeProfilerObject = obj;
	CALL(cuptiRangeProfilerDecodeData, dd);
	CUpti_RangeProfiler_GetCounterDataInfo_Params gi = {.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
	gi.pCounterDataImage = data;
	gi.counterDataImageSize = gs.counterDataSize;
	CALL(cuptiRangeProfilerGetCounterDataInfo, gi);
	if (gi.numTotalRanges < 1) {
		snprintf(why, why_len, "the profiler recorded no range for the kernel");
		ret = RUNG_ECUDA;
		goto out;
	}
	size_t per = 1;
	if (first) {
		per = gi.numTotalRanges / (size_t)calls;
		if (per < 1 || per * (size_t)calls != gi.numTotalRanges) {
			snprintf(why, why_len, "the profiler recorded %zu ranges for %d launches (not the same number each)",
				 (size_t)gi.numTotalRanges, calls);
			ret = RUNG_ECUDA;
			goto out;
		}
	}
	int found = 0;
	for (size_t rg = first ? 0 : gi.numTotalRanges - 1; rg < gi.numTotalRanges && found < nout; rg += per) {
		CUpti_Profiler_Host_EvaluateToGpuValues_Params ev = {.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
		ev.pHostObject = host;
		ev.pCounterDataImage = data;
		ev.counterDataImageSize = gs.counterDataSize;
		ev.rangeIndex = rg;
		ev.ppMetricNames = ok;
		ev.numMetrics = (size_t)nok;
		ev.pMetricValues = okval;
		CALL(cuptiProfilerHostEvaluateToGpuValues, ev);
		for (int k = 0; k < nok; k++)
			values[(size_t)found * (size_t)n + (size_t)okidx[k]] = okval[k];
		found++;
	}
	if (nvalues)
		*nvalues = found;
	rung_timing_lap("profiler: decode and evaluate", t0);
	ret = 0;
out:
	if (enabled) {
		CUpti_RangeProfiler_Disable_Params dp = {.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
		dp.pRangeProfilerObject = obj;
		P.cuptiRangeProfilerDisable(&dp);
	}
	if (host && !kept) {
		CUpti_Profiler_Host_Deinitialize_Params hd = {.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
		hd.pHostObject = host;
		P.cuptiProfilerHostDeinitialize(&hd);
	}
	if (inited && K.state != 1) { /* with a kept host the profiler stays initialized for the worker's life */
		CUpti_Profiler_DeInitialize_Params dp = {.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
		P.cuptiProfilerDeInitialize(&dp);
	}
	free(avail);
	if (!kept)
		free(config);
	free(data);
	free(ok);
	free(okidx);
	free(okval);
	return ret;
}

/* Metrics are collected one per session by default (RUNG_PROFILE_GROUP sets
 * more), each session with its own launch under kernel replay. Measured on the
 * H200 (CUPTI 13): with 3 or more metrics in one configuration the
 * sm__sass_thread_inst_executed_op_* counts of an sgemm read 0; one metric per
 * session gave the exact FFMA count (M*N*K) and every other value. */
int rung_cupti_profile(double *values, char *skipped, size_t skipped_len, CUcontext ctx, CUdevice dev,
		       const char *const *metrics, int n, rung_prof_launch_fn launch, void *ud, CUresult *launch_err,
		       char *why, size_t why_len)
{
	int group = 1;
	const char *e = getenv("RUNG_PROFILE_GROUP");
	if (e && atoi(e) > 0)
		group = atoi(e);
	if (skipped_len)
		skipped[0] = 0;
	size_t sk = 0;
	int ngood = 0, last = 0;
	for (int i = 0; i < n; i += group) {
		int m = n - i < group ? n - i : group;
		char sub[512];
		int rc = profile_session(values + i, NULL, sub, sizeof(sub), ctx, dev, metrics + i, m, 1, 4, false, false,
					 launch, NULL, ud, launch_err, why, why_len);
		if (*launch_err != CUDA_SUCCESS)
			return rc;
		if (rc == RUNG_EUNSUPPORTED && ngood == 0 && !strstr(why, "none of the"))
			return rc; /* no permission or device not supported: nothing will work */
		last = rc;
		if (rc == 0)
			ngood++;
		char names[512] = "";
		if (rc != 0) { /* name the metrics of a group that gave nothing */
			size_t nl = 0;
			for (int k = 0; k < m && nl + 1 < sizeof(names); k++)
				nl += (size_t)snprintf(names + nl, sizeof(names) - nl, "%s%s", k ? "," : "", metrics[i + k]);
		}
		const char *add = rc == 0 ? sub : names;
		if (*add && skipped_len > sk + 1) {
			sk += (size_t)snprintf(skipped + sk, skipped_len - sk, "%s%s", sk ? "," : "", add);
			if (sk >= skipped_len)
				sk = skipped_len - 1;
		}
	}
	if (ngood == 0)
		return last ? last : RUNG_EUNSUPPORTED;
	why[0] = 0;
	return 0;
}

int rung_cupti_durations(double *ns, int *got, int calls, int max_ranges, CUcontext ctx, CUdevice dev,
			 rung_prof_launch_fn launch, rung_prof_launch_fn between, void *ud, CUresult *launch_err, char *why,
			 size_t why_len)
{
	char skipped[256];
	*got = 0;
	if (calls < 1 || max_ranges < calls)
		return rung_error_set(RUNG_EINVAL, "rung_cupti_durations: %d calls, %d ranges", calls, max_ranges);
	int rc = profile_session(ns, got, skipped, sizeof(skipped), ctx, dev, duration_metric, 1, calls, max_ranges, true,
				 true, launch, between, ud, launch_err, why, why_len);
	if (rc == 0 && skipped[0]) {
		snprintf(why, why_len, "gpu__time_duration.sum: %s", skipped);
		return RUNG_EUNSUPPORTED;
	}
	return rc;
}
