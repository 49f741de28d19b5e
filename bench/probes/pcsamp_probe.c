/* PC sampling probe: module loaded BEFORE enable (as in rung's worker). */
#include <cuda.h>
#include <cupti_pcsampling.h>
#include <cupti.h>
#include <cupti_profiler_target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CK(x) do { CUresult r_ = (x); if (r_) { printf("CU %s = %d\n", #x, r_); exit(1);} } while (0)
#define CP(x) do { CUptiResult r_ = (x); if (r_) { const char *s; cuptiGetResultString(r_, &s); printf("CUPTI %s = %d %s\n", #x, r_, s); exit(1);} } while (0)
int main(int argc, char **argv)
{
	const char *cubin = argv[1], *fname = argv[2];
	int n = atoi(argv[3]), period = argc > 4 ? atoi(argv[4]) : 0, reload = argc > 5 ? atoi(argv[5]) : 0;
	CK(cuInit(0)); { CUpti_Profiler_Initialize_Params pi = {CUpti_Profiler_Initialize_Params_STRUCT_SIZE}; CP(cuptiProfilerInitialize(&pi)); } CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
	FILE *f = fopen(cubin, "rb"); fseek(f, 0, SEEK_END); long sz = ftell(f); rewind(f); char *img = malloc(sz); fread(img, 1, sz, f); fclose(f);
	CUmodule mod; CK(cuModuleLoadData(&mod, img)); CUfunction fn; CK(cuModuleGetFunction(&fn, mod, fname));
	CUdeviceptr a, b; CK(cuMemAlloc(&a, (size_t)n * 4)); CK(cuMemAlloc(&b, (size_t)n * 4)); CK(cuMemsetD32(a, 0x3f800000, n));
	CUpti_PCSamplingEnableParams en = {CUpti_PCSamplingEnableParamsSize, NULL, ctx}; CP(cuptiPCSamplingEnable(&en));
	if (reload) { CK(cuModuleUnload(mod)); CK(cuModuleLoadData(&mod, img)); CK(cuModuleGetFunction(&fn, mod, fname)); }
	size_t nr = 0; CUpti_PCSamplingGetNumStallReasonsParams gn = {CUpti_PCSamplingGetNumStallReasonsParamsSize, NULL, ctx, &nr}; CP(cuptiPCSamplingGetNumStallReasons(&gn));
	uint32_t *idx = calloc(nr, 4); char **names = calloc(nr, sizeof(char *)); for (size_t i = 0; i < nr; i++) names[i] = calloc(1, CUPTI_STALL_REASON_STRING_SIZE);
	CUpti_PCSamplingGetStallReasonsParams gs = {CUpti_PCSamplingGetStallReasonsParamsSize, NULL, ctx, nr, idx, names}; CP(cuptiPCSamplingGetStallReasons(&gs));
	printf("reasons %zu:", nr); for (size_t i = 0; i < nr; i++) printf(" %u=%s", idx[i], names[i]); printf("\n");
	CUpti_PCSamplingData sd; memset(&sd, 0, sizeof(sd)); sd.size = sizeof(sd); sd.collectNumPcs = 10000;
	sd.pPcData = calloc(sd.collectNumPcs, sizeof(CUpti_PCSamplingPCData));
	for (size_t i = 0; i < sd.collectNumPcs; i++) { sd.pPcData[i].size = sizeof(CUpti_PCSamplingPCData); sd.pPcData[i].stallReason = calloc(nr, sizeof(CUpti_PCSamplingStallReason)); }
	CUpti_PCSamplingData gdb; memset(&gdb, 0, sizeof(gdb)); gdb.size = sizeof(gdb); gdb.collectNumPcs = 10000;
	gdb.pPcData = calloc(gdb.collectNumPcs, sizeof(CUpti_PCSamplingPCData));
	for (size_t i = 0; i < gdb.collectNumPcs; i++) { gdb.pPcData[i].size = sizeof(CUpti_PCSamplingPCData); gdb.pPcData[i].stallReason = calloc(nr, sizeof(CUpti_PCSamplingStallReason)); }
	CUpti_PCSamplingConfigurationInfo cfg[6]; memset(cfg, 0, sizeof(cfg)); int nc = 0;
	cfg[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE; cfg[nc++].attributeData.collectionModeData.collectionMode = CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED;
	cfg[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL; cfg[nc++].attributeData.enableStartStopControlData.enableStartStopControl = 1;
	cfg[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER; cfg[nc++].attributeData.samplingDataBufferData.samplingDataBuffer = &sd;
	cfg[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT; cfg[nc++].attributeData.outputDataFormatData.outputDataFormat = CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
	if (period) { cfg[nc].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD; cfg[nc++].attributeData.samplingPeriodData.samplingPeriod = period; }
	CUpti_PCSamplingConfigurationInfoParams cp = {CUpti_PCSamplingConfigurationInfoParamsSize, NULL, ctx, nc, cfg}; CP(cuptiPCSamplingSetConfigurationAttribute(&cp));
	CUpti_PCSamplingConfigurationInfo q[2]; memset(q, 0, sizeof(q)); q[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD; q[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SCRATCH_BUFFER_SIZE;
	CUpti_PCSamplingConfigurationInfoParams qp = {CUpti_PCSamplingConfigurationInfoParamsSize, NULL, ctx, 2, q}; cuptiPCSamplingGetConfigurationAttribute(&qp);
	printf("period %u scratch %zu\n", q[0].attributeData.samplingPeriodData.samplingPeriod, q[1].attributeData.scratchBufferSizeData.scratchBufferSize);
	CUpti_PCSamplingStartParams st = {CUpti_PCSamplingStartParamsSize, NULL, ctx}; CP(cuptiPCSamplingStart(&st));
	void *params[] = {&a, &b, &n};
	CK(cuLaunchKernel(fn, (n + 255) / 256, 1, 1, 256, 1, 1, 0, 0, params, 0)); CK(cuCtxSynchronize());
	CUpti_PCSamplingStopParams sp = {CUpti_PCSamplingStopParamsSize, NULL, ctx}; CP(cuptiPCSamplingStop(&sp));
	uint64_t tot = 0, totall = 0, totni = 0; int npc = 0;
	printf("configured buffer after stop: totalNumPcs %zu remaining %zu totalSamples %lu\n", sd.totalNumPcs, sd.remainingNumPcs, (unsigned long)sd.totalSamples);
	for (int it = -1; it < 100; it++) {
		CUptiResult r = 0;
		if (it >= 0) { CUpti_PCSamplingGetDataParams gd = {CUpti_PCSamplingGetDataParamsSize, NULL, ctx, &gdb}; r = cuptiPCSamplingGetData(&gd); sd = gdb; }
		printf("getdata %d: r=%d totalNumPcs %zu remaining %zu totalSamples %lu dropped %lu nonusr %lu hwfull %u range %lu\n", it, r, sd.totalNumPcs, sd.remainingNumPcs, (unsigned long)sd.totalSamples, (unsigned long)sd.droppedSamples, (unsigned long)sd.nonUsrKernelsTotalSamples, sd.hardwareBufferFull, (unsigned long)sd.rangeId);
		if (r) break;
		tot += sd.totalSamples;
		for (size_t i = 0; i < sd.totalNumPcs; i++) {
			CUpti_PCSamplingPCData *p = &sd.pPcData[i]; npc++;
			if (npc <= 12) printf("  pc 0x%04lx func %s idx %u crc %lx nreasons %zu:", (unsigned long)p->pcOffset, p->functionName ? p->functionName : "(null)", p->functionIndex, (unsigned long)p->cubinCrc, p->stallReasonCount);
			for (size_t k = 0; k < p->stallReasonCount; k++) {
				const char *nm = "?"; for (size_t z = 0; z < nr; z++) if (idx[z] == p->stallReason[k].pcSamplingStallReasonIndex) nm = names[z];
				if (strstr(nm, "not_issued")) totni += p->stallReason[k].samples; else totall += p->stallReason[k].samples;
				if (npc <= 12) printf(" %s=%u", nm, p->stallReason[k].samples);
			}
			if (npc <= 12) printf("\n");
		}
		if (it >= 0 && sd.remainingNumPcs == 0) break;
	}
	printf("pcs %d totalSamples %lu sum(all) %lu sum(not_issued) %lu\n", npc, (unsigned long)tot, (unsigned long)totall, (unsigned long)totni);
	CUpti_PCSamplingDisableParams dp = {CUpti_PCSamplingDisableParamsSize, NULL, ctx}; CP(cuptiPCSamplingDisable(&dp));
	return 0;
}
