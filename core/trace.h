/* Intra-kernel trace (rung.h, `rung trace`): the device records of the
 * `__rung_trace` buffer, decoded, and their statistics per region and per SM.
 * Pure C. Record layout on the device (32 bytes, little endian):
 *   u64 t0, u64 t1 (%globaltimer, ns), u32 block (linear block id), u32 smid,
 *   u32 region, u32 pad. */
#ifndef RUNG_CORE_TRACE_H
#define RUNG_CORE_TRACE_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include <jansson.h>

#define RUNG_TRACE_REC_BYTES 32

typedef struct {
	uint64_t t0, t1; /* ns, %globaltimer */
	uint32_t block, smid, region;
} rung_trace_rec;

typedef struct {
	uint32_t region;
	int count;
	double median_us, p90_us, max_us;
	double frac; /* median / kernel time (NAN when the kernel time is unknown) */
} rung_trace_region;

typedef struct {
	uint32_t smid;
	int blocks;              /* distinct blocks that recorded on this SM */
	double first_us, last_us; /* first start, last end, from the earliest t0 */
} rung_trace_sm;

typedef struct {
	int nrec;
	rung_trace_rec *recs; /* owned */
	uint64_t origin;      /* earliest t0 (ns) */
	double kernel_us;     /* the traced launch (events), NAN if unknown */
	uint64_t written;     /* records the kernel tried to write (> nrec: buffer full) */
	int nregions;
	rung_trace_region *regions; /* by region id, ascending (owned) */
	int nsms;
	rung_trace_sm *sms; /* by SM id, ascending (owned) */
} rung_trace;

void rung_trace_init(rung_trace *t);
void rung_trace_clear(rung_trace *t);

/* Decodes n raw device records (n * RUNG_TRACE_REC_BYTES bytes) into t->recs
 * (replacing them). Records with t1 < t0 are dropped (torn). RUNG_ENOMEM. */
int rung_trace_decode(rung_trace *t, const void *raw, size_t n);

/* Computes regions and SMs from t->recs (median and p90 by nearest rank). */
int rung_trace_stats(rung_trace *t);

/* {"kernel_us":..,"written":..,"origin_ns":..,"records":[[region,block,smid,t0_ns,t1_ns],...]
 *  (times relative to origin), "regions":[{region,count,median_us,p90_us,max_us,frac}],
 *  "sms":[{smid,blocks,first_us,last_us}]} (new reference). */
json_t *rung_trace_to_json(const rung_trace *t);
/* Reads the records (and kernel_us, written, origin) back and recomputes the
 * statistics. RUNG_EINVAL on a malformed object. */
int rung_trace_from_json(rung_trace *t, const json_t *j);

/* Prints the per-region table and the per-SM summary (at most max_sms SM
 * lines; the rest are summarized). */
void rung_trace_print(FILE *f, const rung_trace *t, int max_sms);

#endif
