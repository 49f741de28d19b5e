/* The worker process (`rung worker`), the top of gpu/worker/: owns the CUDA
 * context. Reads jobs from the parent, answers with progress and a result;
 * exits after a sticky error (the context is poisoned until the process ends)
 * so the parent restarts it. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "core/err.h"
#include "core/result.h"
#include "core/timing.h"
#include "gpu/cupti.h"
#include "gpu/worker/ceil.h"
#include "gpu/worker/child.h"
#include "gpu/worker/compare.h"
#include "gpu/worker/job.h"
#include "gpu/worker/launch.h"
#include "gpu/worker/report.h"
#include "gpu/worker_internal.h"

static int attr(rung_wctx *c, CUdevice_attribute a)
{
	int v = 0;
	if (rung_cu.cuDeviceGetAttribute(&v, a, c->dev) != CUDA_SUCCESS)
		return 0;
	return v;
}

/* NVML's init is independent of the CUDA driver: it runs on a thread of its
 * own while the primary context is made (#31, the one-shot verdict). */
typedef struct {
	char uuid[64];
	bool ok;
	int max_clock_mhz;
	double power_limit_w;
	char driver[64];
} nvml_probe;

static void *nvml_probe_run(void *arg)
{
	nvml_probe *p = arg;
	if (rung_nvml_open(p->uuid) == 0) {
		p->ok = true;
		p->max_clock_mhz = rung_nvml_max_sm_clock_mhz();
		p->power_limit_w = rung_nvml_power_limit_w();
		const char *dv = rung_nvml_driver_version();
		if (dv)
			snprintf(p->driver, sizeof(p->driver), "%s", dv);
	}
	return NULL;
}

/* Driver, device 0 (CUDA_VISIBLE_DEVICES selects), primary context, stream, env. */


/* CUPTI's library and its activity callbacks, on a thread beside the driver's
 * start and the primary context (CUPTI may be set up before any context; its
 * activity API is thread-safe). The error text is kept for the main thread. */
typedef struct {
	int rc;
	char why[256];
} cupti_probe;

static void *cupti_probe_run(void *arg)
{
	cupti_probe *p = arg;
	p->rc = rung_cupti_load();
	if (p->rc)
		rung__sfmt(p->why, sizeof(p->why), "%s", rung_error_last());
	return NULL;
}

static int device_open(rung_wctx *c)
{
	rung_timing_rss("worker start");
	double tl = rung_now_s();
	/* RUNG_CUPTI_SERIAL=1 (diagnostic): CUPTI after the context, as before */
	const char *ser = getenv("RUNG_CUPTI_SERIAL");
	cupti_probe cp = {0};
	pthread_t cpt;
	bool cp_thread = !(ser && *ser && strcmp(ser, "0")) && pthread_create(&cpt, NULL, cupti_probe_run, &cp) == 0;
	int rc = rung_driver_load();
	tl = rung_timing_lap("context init: libcuda + cuInit", tl);
	if (rc) {
		if (cp_thread)
			pthread_join(cpt, NULL);
		return rc;
	}
	rung_timing_rss("libcuda loaded, cuInit");
	CUresult r;
	char d[256];
	rung_env *e = &c->env;
	memset(e, 0, sizeof(*e));
	e->power_limit_w = NAN;
	if ((r = rung_cu.cuDeviceGet(&c->dev, 0)) != CUDA_SUCCESS) {
		rung_cu_describe(d, sizeof(d), r);
		return rung_error_set(RUNG_ENODEV, "CUDA device 0 unusable: %s", d);
	}
	if (rung_cu.cuDeviceGetUuid) { /* no context needed: NVML finds the device by it */
		CUuuid u;
		if (rung_cu.cuDeviceGetUuid(&u, c->dev) == CUDA_SUCCESS) {
			const unsigned char *b = (const unsigned char *)u.bytes;
			rung__sfmt(e->uuid, sizeof(e->uuid),
				 "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
				 b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
		}
	}
	nvml_probe nv;
	memset(&nv, 0, sizeof(nv));
	nv.power_limit_w = NAN;
	rung__sfmt(nv.uuid, sizeof(nv.uuid), "%s", e->uuid);
	pthread_t nvt;
	bool nv_thread = pthread_create(&nvt, NULL, nvml_probe_run, &nv) == 0;
	if (!nv_thread)
		nvml_probe_run(&nv);
	if ((r = rung_cu.cuDevicePrimaryCtxRetain(&c->ctx, c->dev)) != CUDA_SUCCESS ||
	    (r = rung_cu.cuCtxSetCurrent(c->ctx)) != CUDA_SUCCESS ||
	    (r = rung__stream_create(&c->stream, CU_STREAM_DEFAULT, true)) != CUDA_SUCCESS) {
		if (nv_thread)
			pthread_join(nvt, NULL);
		if (cp_thread)
			pthread_join(cpt, NULL);
		rung_cu_describe(d, sizeof(d), r);
		return rung_error_set(RUNG_ENODEV, "CUDA device 0 unusable: %s", d);
	}
	tl = rung_timing_lap("context init: primary context + stream", tl);
	rung_timing_rss("primary context, stream");
	rung_cu.cuDeviceGetName(e->gpu, sizeof(e->gpu), c->dev);
	int ver = 0;
	rung_cu.cuDriverGetVersion(&ver);
	rung__sfmt(e->cuda, sizeof(e->cuda), "%d.%d", ver / 1000, (ver % 1000) / 10);
	rung__sfmt(e->arch, sizeof(e->arch), "sm_%d%d", attr(c, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
		 attr(c, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
	e->sms = attr(c, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
	e->sm_clock_mhz = attr(c, CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000;
	e->mem_clock_mhz = attr(c, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) / 1000;
	e->bus_width = attr(c, CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
	e->l2_bytes = attr(c, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
	c->l2_bytes = (int)e->l2_bytes;
	c->max_block_threads = attr(c, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
	c->smem_optin = attr(c, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
	/* Leave persisting L2 at 0: a persisting window survives memset flushes. */
	if (rung_cu.cuCtxSetLimit)
		rung_cu.cuCtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, 0);
	if (rung_cu.cuCtxResetPersistingL2Cache)
		rung_cu.cuCtxResetPersistingL2Cache();
	size_t lim = 0;
	if (rung_cu.cuCtxGetLimit && rung_cu.cuCtxGetLimit(&lim, CU_LIMIT_PERSISTING_L2_CACHE_SIZE) == CUDA_SUCCESS)
		e->persisting_l2_limit = (int64_t)lim;
	/* A larger device printf FIFO than the driver's 1 MiB: a kernel whose every
	 * thread prints stalls while the FIFO is full, and on the H200 a launch
	 * printing 1M lines took about 50 s with 16 MiB and over 60 s with 1 MiB or
	 * less (bench/printf_fifo.cu, docs/BENCHMARKS.md). Raised only, and before
	 * any module is loaded (the driver refuses it after a printf kernel ran). */
	size_t fifo = 0;
	if (rung_cu.cuCtxGetLimit && rung_cu.cuCtxSetLimit &&
	    rung_cu.cuCtxGetLimit(&fifo, CU_LIMIT_PRINTF_FIFO_SIZE) == CUDA_SUCCESS && fifo < RUNG_PRINTF_FIFO &&
	    (r = rung_cu.cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, RUNG_PRINTF_FIFO)) != CUDA_SUCCESS) {
		rung_cu_describe(d, sizeof(d), r);
		fprintf(stderr, "rung worker: printf FIFO left at %zu bytes: %s\n", fifo, d);
	}
	gethostname(e->host, sizeof(e->host) - 1);

	c->max_clock_mhz = e->sm_clock_mhz;
	tl = rung_timing_lap("context init: attributes + limits", tl);
	if (nv_thread)
		pthread_join(nvt, NULL);
	tl = rung_timing_lap("context init: NVML (wait)", tl);
	if (nv.ok) {
		c->nvml = true;
		if (nv.max_clock_mhz > 0)
			c->max_clock_mhz = e->sm_clock_mhz = nv.max_clock_mhz;
		e->power_limit_w = nv.power_limit_w;
		if (nv.driver[0])
			rung__sfmt(e->driver, sizeof(e->driver), "%s", nv.driver);
	}
	rung_timing_rss("NVML (on its own thread beside the context)");
	if (!e->driver[0])
		rung__sfmt(e->driver, sizeof(e->driver), "CUDA %s", e->cuda);
	rung_error_clear();
	/* Under compute-sanitizer (the sanitize rung: no bench, no CUPTI needed) or
	 * ncu the tool holds CUPTI already: that is expected, not worth a line in
	 * every sanitize run's output. */
	if (cp_thread)
		pthread_join(cpt, NULL);
	else
		cupti_probe_run(&cp);
	if (cp.rc != 0 && !strstr(cp.why, "MULTIPLE_SUBSCRIBERS"))
		fprintf(stderr, "rung worker: %s\n", cp.why);
	rung_timing_lap("context init: CUPTI (wait)", tl);
	rung_timing_rss("CUPTI");
	e->valid = true;
	return 0;
}

static int send_hello(rung_wctx *c, int rc)
{
	json_t *j;
	if (rc == 0) {
		j = json_pack("{s:s,s:i,s:b,s:o}", "type", "hello", "proto", RUNG_PROTO_VERSION, "ok", 1, "env",
			      rung_env_to_json(&c->env));
	} else {
		j = json_pack("{s:s,s:i,s:b,s:s,s:i}", "type", "hello", "proto", RUNG_PROTO_VERSION, "ok", 0, "reason",
			      rung_error_last(), "code", rc);
	}
	int err = rung__wsend(c, j, NULL, 0);
	json_decref(j);
	return err;
}

static int send_error(rung_wctx *c, rung_step_id step, const char *reason, bool fatal)
{
	json_t *j = json_pack("{s:s,s:s,s:s,s:b}", "type", "error", "step", rung_step_name(step), "reason", reason,
			      "fatal", fatal);
	int err = rung__wsend(c, j, NULL, 0);
	json_decref(j);
	return err;
}

static bool handle_job(rung_wctx *c, rung_msg *m)
{
	rung_plan *plan = malloc(sizeof(*plan));
	if (!plan) {
		send_error(c, RUNG_STEP_RUN, "worker: out of memory", false);
		return false;
	}
	if (rung_plan_from_json(plan, m->json) || m->nblobs < (plan->has_ref ? 2 : 1)) {
		send_error(c, RUNG_STEP_RUN, rung_error_last()[0] ? rung_error_last() : "worker protocol: job without CUBIN",
			   false);
		free(plan);
		return false;
	}
	rung_timing_rss("job received");
	rung_result res;
	rung_result_init(&res);
	res.env = c->env;
	bool fatal = false;
	rung__wjob_run(c, plan, m->blobs[0].data, m->blobs[0].len, plan->has_ref ? m->blobs[1].data : NULL,
		       plan->has_ref ? m->blobs[1].len : 0, &res, &fatal);
	rung_timing_rss("job done");
	char *js = rung_result_to_json(&res);
	if (!js) {
		send_error(c, RUNG_STEP_RUN, "worker: cannot encode the result", fatal);
	} else {
		json_t *h = json_pack("{s:s,s:b}", "type", "result", "fatal", fatal);
		/* the record ends with a newline (JSON allows it): srun forwards a step's
		 * output by lines, so a record without one would wait there until the
		 * next job (app/pool.c's Slurm workers, on a node with a GPU) */
		size_t n = strlen(js);
		char *nl = realloc(js, n + 2);
		if (nl) {
			js = nl;
			js[n++] = '\n';
			js[n] = 0;
		}
		rung_blob b = {js, n};
		rung__wsend(c, h, &b, 1);
		json_decref(h);
		free(js);
	}
	rung_result_clear(&res);
	free(plan);
	return fatal;
}

int rung_worker_main(int in_fd, int out_fd)
{
	rung_wctx c;
	memset(&c, 0, sizeof(c));
	/* Keep the protocol stream clean. Spawned by the parent (out_fd == in_fd,
	 * one socket both ways), stdout and stderr are its capture pipes and stay
	 * as they are. Run with the protocol on stdout (tests, by hand), anything
	 * printed to stdout (device printf, libraries) goes to stderr instead. */
	c.out_fd = out_fd;
	if (out_fd == STDOUT_FILENO) {
		fflush(stdout);
		c.out_fd = dup(STDOUT_FILENO);
		dup2(STDERR_FILENO, STDOUT_FILENO);
	}
	double t0 = rung_now_s();
	int rc = device_open(&c);
	rung_timing_lap("context init (driver, device, CUPTI, NVML)", t0);
	if (send_hello(&c, rc) || rc)
		return 0;
	rung_chan ch;
	rung_chan_init(&ch, in_fd);
	int code = 0;
	for (;;) {
		rung_msg m;
		if (rung_msg_read(&m, &ch, -1))
			break; /* parent gone */
		bool stop = false;
		if (!strcmp(m.type, "quit")) {
			stop = true;
		} else if (!strcmp(m.type, "job")) {
			if (handle_job(&c, &m)) {
				code = 1;
				stop = true;
			}
		} else if (!strcmp(m.type, "compare")) {
			if (rung__wcompare(&c, m.json, m.blobs, m.nblobs)) {
				code = 1;
				stop = true;
			}
		} else if (!strcmp(m.type, "ceilings")) {
			if (rung__wceilings(&c, m.json, m.blobs, m.nblobs)) {
				code = 1;
				stop = true;
			}
		} else {
			char why[128];
			rung__sfmt(why, sizeof(why), "worker protocol: unknown message '%.60s'", m.type);
			send_error(&c, RUNG_STEP_RUN, why, false);
		}
		rung_msg_clear(&m);
		if (stop)
			break;
	}
	rung_chan_clear(&ch);
	/* The parent has its answer and may have gone: let go of the pipes it shares
	 * (stderr, often a pipe a caller reads to its end) before the teardown, so
	 * nobody waits for the CUDA context to be destroyed. */
	int nul = open("/dev/null", O_WRONLY);
	if (nul >= 0) {
		dup2(nul, STDOUT_FILENO);
		dup2(nul, STDERR_FILENO);
		close(nul);
	}
	if (c.out_fd != STDOUT_FILENO)
		close(c.out_fd);
	if (code == 0) {
		if (c.flush)
			rung_cu.cuMemFree(c.flush);
		rung_cu.cuStreamDestroy(c.stream);
		if (rung_cu.cuDevicePrimaryCtxRelease)
			rung_cu.cuDevicePrimaryCtxRelease(c.dev);
	}
	return code;
}
