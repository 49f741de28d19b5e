#include "core/profile.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

#define RUNG_PROFILE_NAME(n) n,
const char *const rung_profile_metrics[] = {RUNG_PROFILE_METRIC_LIST(RUNG_PROFILE_NAME)};
#undef RUNG_PROFILE_NAME
const int rung_profile_nmetrics = (int)(sizeof(rung_profile_metrics) / sizeof(rung_profile_metrics[0]));

double rung_counter_get(const rung_result *r, const char *name)
{
	for (int i = 0; r && r->counters && i < r->ncounters; i++)
		if (!strcmp(r->counters[i].name, name))
			return r->counters[i].value;
	return NAN;
}

int rung_counter_set(rung_result *r, const char *name, double value)
{
	for (int i = 0; r->counters && i < r->ncounters; i++)
		if (!strcmp(r->counters[i].name, name)) {
			r->counters[i].value = value;
			return 0;
		}
	rung_counter *nc = realloc(r->counters, (size_t)(r->ncounters + 1) * sizeof(*nc));
	if (!nc)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	r->counters = nc;
	snprintf(nc[r->ncounters].name, sizeof(nc[r->ncounters].name), "%s", name);
	nc[r->ncounters].value = value;
	r->ncounters++;
	return 0;
}

static void derive_flops(rung_result *r, const char *out, char p)
{
	char a[96], m[96], f[96];
	snprintf(a, sizeof(a), "sm__sass_thread_inst_executed_op_%cadd_pred_on.sum", p);
	snprintf(m, sizeof(m), "sm__sass_thread_inst_executed_op_%cmul_pred_on.sum", p);
	snprintf(f, sizeof(f), "sm__sass_thread_inst_executed_op_%cfma_pred_on.sum", p);
	double va = rung_counter_get(r, a), vm = rung_counter_get(r, m), vf = rung_counter_get(r, f);
	if (isnan(va) && isnan(vm) && isnan(vf))
		return;
	rung_counter_set(r, out, (isnan(va) ? 0 : va) + (isnan(vm) ? 0 : vm) + 2 * (isnan(vf) ? 0 : vf));
}

void rung_profile_derive(rung_result *r)
{
	derive_flops(r, "flops.f32", 'f');
	derive_flops(r, "flops.f16", 'h');
	derive_flops(r, "flops.f64", 'd');
	double rd = rung_counter_get(r, "dram__bytes_read.sum"), wr = rung_counter_get(r, "dram__bytes_write.sum");
	if (!isnan(rd) || !isnan(wr))
		rung_counter_set(r, "dram.bytes", (isnan(rd) ? 0 : rd) + (isnan(wr) ? 0 : wr));
}

double rung_profile_flops(const rung_result *r)
{
	static const char *const fk[] = {"flops.f32", "flops.f16", "flops.f64"};
	double fl = NAN;
	for (int i = 0; i < 3; i++) {
		double v = rung_counter_get(r, fk[i]);
		if (!isnan(v))
			fl = (isnan(fl) ? 0 : fl) + v;
	}
	return fl;
}

const char *rung_profile_level_counter(rung_mem_level l)
{
	switch (l) {
	case RUNG_MEM_DRAM: return "dram.bytes";
	case RUNG_MEM_L2: return "lts__t_bytes.sum";
	case RUNG_MEM_L1: return "l1tex__t_bytes.sum";
	default: return NULL;
	}
}

void rung_profile_intensities(double out[RUNG_MEM_NLEVELS], const rung_result *r)
{
	double fl = rung_profile_flops(r);
	for (int l = 0; l < RUNG_MEM_NLEVELS; l++) {
		double b = rung_counter_get(r, rung_profile_level_counter((rung_mem_level)l));
		out[l] = fl > 0 && b > 0 ? fl / b : NAN;
	}
}

void rung_profile_intensity_line(char *buf, size_t len, const rung_result *r)
{
	double ai[RUNG_MEM_NLEVELS];
	rung_profile_intensities(ai, r);
	size_t o = 0;
	buf[0] = 0;
	for (int l = 0; l < RUNG_MEM_NLEVELS && o < len; l++)
		if (!isnan(ai[l]))
			o += (size_t)snprintf(buf + o, len - o, "%s%s=%.3g", o ? " " : "", rung_mem_level_key((rung_mem_level)l), ai[l]);
	if (o && o < len)
		snprintf(buf + o, len - o, " FLOP/B");
}

/* 201.3MB, 34.4G */
static void si(char *buf, size_t len, double v, const char *unit)
{
	const char *p[] = {"", "K", "M", "G", "T", "P"};
	int k = 0;
	while (fabs(v) >= 1000 && k < 5) {
		v /= 1000;
		k++;
	}
	snprintf(buf, len, "%.*f%s%s", k ? 1 : 0, v, p[k], unit);
}

static bool has(const char *s, const char *part)
{
	return strstr(s, part) != NULL;
}

/* v with an SI prefix and unit: "201.3 MB", "12 B", "1.2 G inst", "12/s" (sep: between the prefix and a word unit) */
static void si_unit(char *buf, size_t len, double v, const char *unit, const char *sep)
{
	const char *p[] = {"", "K", "M", "G", "T", "P"};
	int k = 0;
	while (fabs(v) >= 1000 && k < 5) {
		v /= 1000;
		k++;
	}
	if (k)
		snprintf(buf, len, "%.1f %s%s%s", v, p[k], sep, unit);
	else
		snprintf(buf, len, "%.0f%s%s", v, unit[0] == '/' ? "" : " ", unit);
}

void rung_counter_format(char *buf, size_t len, const char *name, double v)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "%g", v);
	} else if (has(name, "pct")) {
		snprintf(buf, len, "%.1f %%", v);
	} else if (has(name, "time_duration")) { /* ncu reports it in ns */
		if (fabs(v) < 1e3)
			snprintf(buf, len, "%.0f ns", v);
		else if (fabs(v) < 1e6)
			snprintf(buf, len, "%.2f us", v / 1e3);
		else if (fabs(v) < 1e9)
			snprintf(buf, len, "%.2f ms", v / 1e6);
		else
			snprintf(buf, len, "%.2f s", v / 1e9);
	} else if (has(name, "per_second")) {
		si_unit(buf, len, v, "/s", "");
	} else if (has(name, "bytes")) {
		si_unit(buf, len, v, "B", "");
	} else if (has(name, "cycles")) {
		si_unit(buf, len, v, "cycles", " ");
	} else if (has(name, "inst_executed")) {
		si_unit(buf, len, v, "inst", " ");
	} else if (!strncmp(name, "flops.", 6)) {
		si_unit(buf, len, v, "FLOP", "");
	} else {
		snprintf(buf, len, "%g", v);
	}
}

void rung_profile_summary(char *buf, size_t len, const rung_result *r, double need_flops, double need_bytes)
{
	size_t o = 0;
	buf[0] = 0;
#define ADD(...) \
	do { \
		if (o < len) \
			o += (size_t)snprintf(buf + o, len - o, __VA_ARGS__); \
	} while (0)
	ADD("ok");
	char t[32];
	double dram = rung_counter_get(r, "dram.bytes");
	if (!isnan(dram)) {
		si(t, sizeof(t), dram, "B");
		ADD(" dram=%s", t);
		if (need_bytes > 0)
			ADD(" (%.2fx the bytes it needs)", dram / need_bytes);
	}
	double fl = rung_profile_flops(r);
	if (!isnan(fl)) {
		si(t, sizeof(t), fl, "");
		ADD(" flops=%s", t);
		if (need_flops > 0)
			ADD(" (%.2fx)", fl / need_flops);
	}
	double occ = rung_counter_get(r, "sm__warps_active.avg.pct_of_peak_sustained_active");
	if (!isnan(occ))
		ADD(" occupancy=%.0f%%", occ);
	double sm = rung_counter_get(r, "sm__throughput.avg.pct_of_peak_sustained_elapsed");
	if (!isnan(sm))
		ADD(" sm=%.0f%%", sm);
	double tc = rung_counter_get(r, "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active");
	double tg = rung_counter_get(r, "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active");
	if (!isnan(tc) || !isnan(tg))
		ADD(" tensor=%.0f%%", fmax(isnan(tc) ? 0 : tc, isnan(tg) ? 0 : tg));
	double ns = rung_counter_get(r, "gpu__time_duration.sum");
	if (!isnan(ns))
		ADD(" time=%.1fus", ns / 1e3);
#undef ADD
}
