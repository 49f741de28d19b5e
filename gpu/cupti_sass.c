/* The SASS metrics sequence (gpu/cupti_sass.h): Initialize, chip name, metric
 * ids (GetProperties), SetConfig (GPU granularity), Enable (lazy patching),
 * launch, GetDataProperties, FlushData, Disable, UnsetConfig, DeInitialize.
 * Every params struct is {T_STRUCT_SIZE} with the rest zeroed. */
#include "gpu/cupti_sass.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>

#include "core/err.h"
#include "gpu/cupti_lib.h"

#define SASS_FNS(_) \
	_(cuptiProfilerInitialize, CUpti_Profiler_Initialize_Params) \
	_(cuptiProfilerDeInitialize, CUpti_Profiler_DeInitialize_Params) \
	_(cuptiDeviceGetChipName, CUpti_Device_GetChipName_Params) \
	_(cuptiSassMetricsGetProperties, CUpti_SassMetrics_GetProperties_Params) \
	_(cuptiSassMetricsSetConfig, CUpti_SassMetricsSetConfig_Params) \
	_(cuptiSassMetricsUnsetConfig, CUpti_SassMetricsUnsetConfig_Params) \
	_(cuptiSassMetricsEnable, CUpti_SassMetricsEnable_Params) \
	_(cuptiSassMetricsDisable, CUpti_SassMetricsDisable_Params) \
	_(cuptiSassMetricsGetDataProperties, CUpti_SassMetricsGetDataProperties_Params) \
	_(cuptiSassMetricsFlushData, CUpti_SassMetricsFlushData_Params)

static struct {
	void *lib;
	bool ok;
#define SASS_FIELD(name, T) CUptiResult (*name)(T *);
	SASS_FNS(SASS_FIELD)
#undef SASS_FIELD
} S;

#define RUNG_CUPTI_SLOT_(name, T) (void **)&S.name,
RUNG_CUPTI_LOADER(S, SASS_FNS)
#undef RUNG_CUPTI_SLOT_

#define CALL(name, var) RUNG_CUPTI_CALL(S, name, var)

static const char *const metric_names[2] = {"smsp__sass_inst_executed", "smsp__sass_thread_inst_executed"};

int rung_cupti_sass(rung_sass_counts *out, CUcontext ctx, CUdevice dev, const char *func, rung_prof_launch_fn launch,
		    void *ud, CUresult *launch_err, char *why, size_t why_len)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->func, sizeof(out->func), "%s", func);
	why[0] = 0;
	*launch_err = CUDA_SUCCESS;
	int ret = load(why, why_len);
	if (ret)
		return ret;
	bool inited = false, configured = false, enabled = false;
	CUpti_SassMetrics_Data *data = NULL;
	CUpti_SassMetrics_InstanceValue *vals = NULL;
	size_t nrec = 0;

	CUpti_Profiler_Initialize_Params ip = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
	CALL(cuptiProfilerInitialize, ip);
	inited = true;

	CUpti_Device_GetChipName_Params cn = {.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE};
	cn.deviceIndex = (size_t)dev;
	CALL(cuptiDeviceGetChipName, cn);

	CUpti_SassMetrics_Config cfg[2];
	uint64_t ids[2];
	for (int m = 0; m < 2; m++) {
		CUpti_SassMetrics_GetProperties_Params gp = {.structSize = CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE};
		gp.pChipName = cn.pChipName;
		gp.pMetricName = metric_names[m];
		CALL(cuptiSassMetricsGetProperties, gp);
		ids[m] = gp.metric.metricId;
		cfg[m].metricId = ids[m];
		cfg[m].outputGranularity = CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU;
	}
	CUpti_SassMetricsSetConfig_Params sc = {.structSize = CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE};
	sc.numOfMetricConfig = 2;
	sc.pConfigs = cfg;
	sc.deviceIndex = (uint32_t)dev;
	CALL(cuptiSassMetricsSetConfig, sc);
	configured = true;

	CUpti_SassMetricsEnable_Params en = {.structSize = CUpti_SassMetricsEnable_Params_STRUCT_SIZE};
	en.ctx = ctx;
	en.enableLazyPatching = 1;
	CALL(cuptiSassMetricsEnable, en);
	enabled = true;

	CUresult lr = launch(ud);
	if (lr != CUDA_SUCCESS) {
		*launch_err = lr;
		snprintf(why, why_len, "launch failed under SASS metrics (CUresult %d)", (int)lr);
		ret = RUNG_ECUDA;
		goto out;
	}

	CUpti_SassMetricsGetDataProperties_Params dp = {.structSize = CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE};
	dp.ctx = ctx;
	CALL(cuptiSassMetricsGetDataProperties, dp);
	nrec = dp.numOfPatchedInstructionRecords;
	size_t ninst = dp.numOfInstances;
	if (nrec == 0 || ninst == 0) {
		snprintf(why, why_len, "no SASS records (was %s launched?)", func);
		ret = RUNG_ECUDA;
		goto out;
	}
	/* Room for every metric's instances in each record, whichever layout CUPTI uses. */
	size_t per = ninst * 2;
	data = calloc(nrec, sizeof(*data));
	vals = calloc(nrec * per, sizeof(*vals));
	if (!data || !vals) {
		ret = rung_error_set(RUNG_ENOMEM, "out of memory");
		snprintf(why, why_len, "out of memory for %zu SASS records", nrec);
		goto out;
	}
	for (size_t i = 0; i < nrec; i++) {
		data[i].structSize = CUPTI_PROFILER_STRUCT_SIZE(CUpti_SassMetrics_Data, pInstanceValues);
		data[i].pInstanceValues = vals + i * per;
	}
	CUpti_SassMetricsFlushData_Params fd = {.structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE};
	fd.ctx = ctx;
	fd.numOfPatchedInstructionRecords = nrec;
	fd.numOfInstances = ninst;
	fd.pMetricsData = data;
	CALL(cuptiSassMetricsFlushData, fd);

	/* Only the candidate runs inside the enabled range (lazy patching), so when
	 * CUPTI names the function differently, every record is still ours. */
	bool any = false;
	for (size_t i = 0; i < nrec && !any; i++)
		any = data[i].functionName && !strcmp(data[i].functionName, func);
	for (size_t i = 0; i < nrec; i++) {
		const CUpti_SassMetrics_Data *d = &data[i];
		if (any && (!d->functionName || strcmp(d->functionName, func) != 0))
			continue;
		uint64_t inst = 0, thr = 0;
		for (size_t k = 0; k < per; k++) {
			const CUpti_SassMetrics_InstanceValue *v = &d->pInstanceValues[k];
			if (v->metricId == 0 && v->value == 0)
				continue; /* not written */
			if (v->metricId == ids[0])
				inst += v->value;
			else if (v->metricId == ids[1])
				thr += v->value;
		}
		if ((ret = rung_sass_counts_add(out, d->pcOffset, inst, thr))) {
			snprintf(why, why_len, "out of memory");
			goto out;
		}
	}
	rung_sass_counts_sort(out);
	if (out->n == 0) {
		snprintf(why, why_len, "%zu SASS records, none for %s", nrec, func);
		ret = RUNG_ECUDA;
	}
out:
	if (enabled) {
		CUpti_SassMetricsDisable_Params dis = {.structSize = CUpti_SassMetricsDisable_Params_STRUCT_SIZE};
		dis.ctx = ctx;
		S.cuptiSassMetricsDisable(&dis);
	}
	if (configured) {
		CUpti_SassMetricsUnsetConfig_Params us = {.structSize = CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE};
		us.deviceIndex = (uint32_t)dev;
		S.cuptiSassMetricsUnsetConfig(&us);
	}
	if (inited) {
		CUpti_Profiler_DeInitialize_Params di = {.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
		S.cuptiProfilerDeInitialize(&di);
	}
	free(data);
	free(vals);
	if (ret)
		rung_sass_counts_clear(out);
	return ret;
}
