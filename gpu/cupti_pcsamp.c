/* The PC sampling sequence (gpu/cupti_pcsamp.h), as checked on the H200
 * (bench/pcsamp_probe.c): cuptiProfilerInitialize; Enable on the context;
 * the stall reason names and indices; two PC-data buffers, one configured as
 * CUPTI's sampling buffer (it may hold data at Stop) and one for GetData;
 * configuration (kernel-serialized, start/stop control, parsed output, the
 * period); Start, launch, synchronize, Stop; the configured buffer, then
 * GetData until nothing remains; Disable. Every params struct is
 * {size, NULL, ctx, ...}. */
#include "gpu/cupti_pcsamp.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cupti_pcsampling.h>
#include <cupti_profiler_target.h>

#include "core/err.h"
#include "gpu/cupti_lib.h"

#define PC_FNS(_) \
	_(cuptiProfilerInitialize, CUpti_Profiler_Initialize_Params) \
	_(cuptiPCSamplingEnable, CUpti_PCSamplingEnableParams) \
	_(cuptiPCSamplingDisable, CUpti_PCSamplingDisableParams) \
	_(cuptiPCSamplingGetNumStallReasons, CUpti_PCSamplingGetNumStallReasonsParams) \
	_(cuptiPCSamplingGetStallReasons, CUpti_PCSamplingGetStallReasonsParams) \
	_(cuptiPCSamplingSetConfigurationAttribute, CUpti_PCSamplingConfigurationInfoParams) \
	_(cuptiPCSamplingStart, CUpti_PCSamplingStartParams) \
	_(cuptiPCSamplingStop, CUpti_PCSamplingStopParams) \
	_(cuptiPCSamplingGetData, CUpti_PCSamplingGetDataParams)

static struct {
	void *lib;
	bool ok;
#define PC_FIELD(name, T) CUptiResult (*name)(T *);
	PC_FNS(PC_FIELD)
#undef PC_FIELD
} S;

#define RUNG_CUPTI_SLOT_(name, T) (void **)&S.name,
RUNG_CUPTI_LOADER(S, PC_FNS)
#undef RUNG_CUPTI_SLOT_

#define CALL(name, var) RUNG_CUPTI_CALL(S, name, var)

#define NPCS 8192 /* PCs per buffer: a kernel has fewer instructions than this; more come in later GetData calls */

typedef struct {
	CUpti_PCSamplingData d;
	CUpti_PCSamplingStallReason *reasons;
} pcbuf;

static int buf_init(pcbuf *b, size_t nreasons)
{
	memset(b, 0, sizeof(*b));
	b->d.size = sizeof(b->d);
	b->d.collectNumPcs = NPCS;
	b->d.pPcData = calloc(NPCS, sizeof(*b->d.pPcData));
	b->reasons = calloc((size_t)NPCS * (nreasons ? nreasons : 1), sizeof(*b->reasons));
	if (!b->d.pPcData || !b->reasons)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	for (size_t i = 0; i < NPCS; i++) {
		b->d.pPcData[i].size = sizeof(b->d.pPcData[i]);
		b->d.pPcData[i].stallReason = b->reasons + i * nreasons;
		b->d.pPcData[i].stallReasonCount = nreasons;
	}
	return 0;
}

static void buf_free(pcbuf *b)
{
	free(b->d.pPcData);
	free(b->reasons);
	memset(b, 0, sizeof(*b));
}

/* CUPTI allocates the function names it hands out, and one name may sit in
 * several slots: they are collected and freed once each at the end. */
static struct {
	char **v;
	size_t n, cap;
} fnames;

static int keep_names(pcbuf *b)
{
	for (size_t i = 0; i < b->d.totalNumPcs && i < NPCS; i++) {
		char *nm = b->d.pPcData[i].functionName;
		b->d.pPcData[i].functionName = NULL;
		if (!nm)
			continue;
		if (fnames.n == fnames.cap) {
			size_t cap = fnames.cap ? 2 * fnames.cap : 256;
			char **v = realloc(fnames.v, cap * sizeof(*v));
			if (!v)
				return rung_error_set(RUNG_ENOMEM, "out of memory");
			fnames.v = v;
			fnames.cap = cap;
		}
		fnames.v[fnames.n++] = nm;
	}
	return 0;
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t) * (char *const *)a, y = (uintptr_t) * (char *const *)b;
	return x < y ? -1 : x > y;
}

static void free_names(void)
{
	if (fnames.n)
		qsort(fnames.v, fnames.n, sizeof(*fnames.v), cmp_ptr);
	for (size_t i = 0; i < fnames.n; i++)
		if (i == 0 || fnames.v[i] != fnames.v[i - 1])
			free(fnames.v[i]);
	free(fnames.v);
	memset(&fnames, 0, sizeof(fnames));
}

/* Moves the PCs of b that belong to func (or all when none does: CUPTI may
 * name the function differently, and only the candidate ran in the range)
 * into out; slot[k] is rung's reason index of CUPTI's reason index k (-1: not
 * a stall reason). */
static int take(rung_stall *out, pcbuf *b, const char *func, const int *slot, const uint32_t *cidx, size_t nr)
{
	const CUpti_PCSamplingData *d = &b->d;
	bool any = false;
	for (size_t i = 0; i < d->totalNumPcs && !any; i++)
		any = d->pPcData[i].functionName && !strcmp(d->pPcData[i].functionName, func);
	out->dropped += d->droppedSamples;
	for (size_t i = 0; i < d->totalNumPcs && i < NPCS; i++) {
		CUpti_PCSamplingPCData *p = &d->pPcData[i];
		bool ours = !any || (p->functionName && !strcmp(p->functionName, func));
		for (size_t k = 0; ours && k < p->stallReasonCount && k < nr; k++) {
			int ri = -1;
			for (size_t z = 0; z < nr; z++)
				if (cidx[z] == p->stallReason[k].pcSamplingStallReasonIndex)
					ri = slot[z];
			if (ri >= 0 && p->stallReason[k].samples) {
				int rc = rung_stall_add(out, (int64_t)p->pcOffset, ri, p->stallReason[k].samples);
				if (rc)
					return rc;
			}
		}
	}
	return keep_names(b);
}

int rung_cupti_pcsamp(rung_stall *out, CUcontext ctx, const char *func, int period, rung_prof_launch_fn launch,
		      void *ud, CUresult *launch_err, char *why, size_t why_len)
{
	memset(out, 0, sizeof(*out));
	out->ms = NAN;
	snprintf(out->func, sizeof(out->func), "%s", func);
	why[0] = 0;
	*launch_err = CUDA_SUCCESS;
	int ret = load(why, why_len);
	if (ret)
		return ret;
	bool enabled = false;
	size_t nr = 0;
	uint32_t *cidx = NULL;
	char **names = NULL;
	int *slot = NULL;
	pcbuf cfgbuf, getbuf;
	memset(&cfgbuf, 0, sizeof(cfgbuf));
	memset(&getbuf, 0, sizeof(getbuf));
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);

	CUpti_Profiler_Initialize_Params ip = {.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
	CALL(cuptiProfilerInitialize, ip);
	CUpti_PCSamplingEnableParams en = {.size = CUpti_PCSamplingEnableParamsSize, .ctx = ctx};
	CALL(cuptiPCSamplingEnable, en);
	enabled = true;

	CUpti_PCSamplingGetNumStallReasonsParams gn = {.size = CUpti_PCSamplingGetNumStallReasonsParamsSize, .ctx = ctx,
						       .numStallReasons = &nr};
	CALL(cuptiPCSamplingGetNumStallReasons, gn);
	cidx = calloc(nr ? nr : 1, sizeof(*cidx));
	names = calloc(nr ? nr : 1, sizeof(*names));
	slot = calloc(nr ? nr : 1, sizeof(*slot));
	if (!cidx || !names || !slot) {
		ret = rung_error_set(RUNG_ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nr; i++)
		if (!(names[i] = calloc(1, CUPTI_STALL_REASON_STRING_SIZE))) {
			ret = rung_error_set(RUNG_ENOMEM, "out of memory");
			goto out;
		}
	CUpti_PCSamplingGetStallReasonsParams gs = {.size = CUpti_PCSamplingGetStallReasonsParamsSize, .ctx = ctx,
						    .numStallReasons = nr, .stallReasonIndex = cidx, .stallReasons = names};
	CALL(cuptiPCSamplingGetStallReasons, gs);
	/* Only the stall reasons proper (smsp__pcsamp_warps_issue_stalled_*);
	 * smsp__pcsamp_sample_count and _samples_data_dropped are totals. */
	for (size_t i = 0; i < nr; i++) {
		slot[i] = -1;
		if (strncmp(names[i], "smsp__pcsamp_warps_issue_stalled_", 33) == 0) {
			int r = rung_stall_reason(out, names[i]);
			if (r < 0) {
				ret = r;
				snprintf(why, why_len, "%s", rung_error_last());
				goto out;
			}
			slot[i] = r;
		}
	}
	if ((ret = buf_init(&cfgbuf, nr)) || (ret = buf_init(&getbuf, nr))) {
		snprintf(why, why_len, "out of memory for the PC sampling buffers");
		goto out;
	}

	CUpti_PCSamplingConfigurationInfo cfg[5];
	memset(cfg, 0, sizeof(cfg));
	int nc = 0;
	cfg[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
	cfg[nc++].attributeData.collectionModeData.collectionMode = CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED;
	cfg[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL;
	cfg[nc++].attributeData.enableStartStopControlData.enableStartStopControl = 1;
	cfg[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
	cfg[nc++].attributeData.samplingDataBufferData.samplingDataBuffer = &cfgbuf.d;
	cfg[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT;
	cfg[nc++].attributeData.outputDataFormatData.outputDataFormat = CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
	if (period >= 5 && period <= 31) {
		cfg[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
		cfg[nc++].attributeData.samplingPeriodData.samplingPeriod = (uint32_t)period;
	}
	CUpti_PCSamplingConfigurationInfoParams cp = {.size = CUpti_PCSamplingConfigurationInfoParamsSize, .ctx = ctx,
						      .numAttributes = (size_t)nc, .pPCSamplingConfigurationInfo = cfg};
	CALL(cuptiPCSamplingSetConfigurationAttribute, cp);
	out->period = period >= 5 && period <= 31 ? period : 0;

	CUpti_PCSamplingStartParams st = {.size = CUpti_PCSamplingStartParamsSize, .ctx = ctx};
	CALL(cuptiPCSamplingStart, st);
	CUresult lr = launch(ud);
	CUpti_PCSamplingStopParams sp = {.size = CUpti_PCSamplingStopParamsSize, .ctx = ctx};
	CUptiResult stop_r = S.cuptiPCSamplingStop(&sp);
	if (lr != CUDA_SUCCESS) {
		*launch_err = lr;
		snprintf(why, why_len, "launch failed under PC sampling (CUresult %d)", (int)lr);
		ret = RUNG_ECUDA;
		goto out;
	}
	if (stop_r != CUPTI_SUCCESS) {
		ret = rung__cupti_fail(S.lib, stop_r, "cuptiPCSamplingStop", why, why_len);
		goto out;
	}
	if ((ret = take(out, &cfgbuf, func, slot, cidx, nr)))
		goto out;
	for (int it = 0; it < 1024; it++) {
		CUpti_PCSamplingGetDataParams gd = {.size = CUpti_PCSamplingGetDataParamsSize, .ctx = ctx,
						    .pcSamplingData = &getbuf.d};
		getbuf.d.totalNumPcs = getbuf.d.remainingNumPcs = 0;
		CALL(cuptiPCSamplingGetData, gd);
		if ((ret = take(out, &getbuf, func, slot, cidx, nr)))
			goto out;
		if (getbuf.d.remainingNumPcs == 0)
			break;
	}
	if ((ret = rung_stall_finish(out)))
		goto out;
	if (out->total == 0) {
		snprintf(why, why_len, "no PC samples for %s (%s)", func,
			 out->dropped ? "all dropped" : "the kernel may be too short for the sampling interval");
		ret = RUNG_ECUDA;
	}
out:
	if (enabled) {
		CUpti_PCSamplingDisableParams dp = {.size = CUpti_PCSamplingDisableParamsSize, .ctx = ctx};
		S.cuptiPCSamplingDisable(&dp);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	out->ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	free_names();
	buf_free(&cfgbuf);
	buf_free(&getbuf);
	for (size_t i = 0; names && i < nr; i++)
		free(names[i]);
	free(names);
	free(cidx);
	free(slot);
	if (ret) {
		double ms = out->ms;
		rung_stall_clear(out);
		out->ms = ms;
	}
	return ret;
}
