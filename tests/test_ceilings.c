/* `rung ceilings` without a GPU: the ceilings JSON and store round trip (per
 * device UUID and clocks), the ceiling kernels compile with NVRTC for sm_90
 * into the instructions they are meant to time, the printed table, and the
 * command's no-GPU exit. */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/ceilings_json.h"
#include "core/err.h"
#include "core/roofline_guard.h"
#include "gpu/ceilings.h"
#include "gpu/compile.h"
#include "cli/ceilings_print.h"
#include "vcs/ceil_store.h"
#include "vcs/store.h"

static rung_env h200(void)
{
	rung_env e;
	memset(&e, 0, sizeof(e));
	e.valid = true;
	snprintf(e.gpu, sizeof(e.gpu), "NVIDIA H200");
	snprintf(e.uuid, sizeof(e.uuid), "GPU-aaaa-bbbb");
	snprintf(e.arch, sizeof(e.arch), "sm_90");
	e.sms = 132;
	e.sm_clock_mhz = 1980;
	e.mem_clock_mhz = 3201;
	e.bus_width = 6016;
	return e;
}

static rung_ceilings measured(void)
{
	rung_ceilings c;
	rung_ceilings_init(&c);
	c.dram = (rung_ceiling){4.31e12, RUNG_CEIL_MEASURED};
	c.l2 = (rung_ceiling){10.5e12, RUNG_CEIL_MEASURED};
	c.l1 = (rung_ceiling){29.7e12, RUNG_CEIL_MEASURED};
	c.fp32 = (rung_ceiling){66.2e12, RUNG_CEIL_MEASURED};
	c.tensor[RUNG_TC_BF16] = (rung_ceiling){480e12, RUNG_CEIL_MEASURED};
	c.tensor[RUNG_TC_TF32] = (rung_ceiling){240e12, RUNG_CEIL_MEASURED};
	return c;
}

static void test_json(void)
{
	rung_ceilings c = measured(), back;
	char *s = rung_ceilings_to_json(&c), *s2;
	CHECK_CONTAINS(s, "\"dram\":{\"src\":\"measured\",\"value\":4310000000000");
	CHECK(!strstr(s, "fp64")); /* absent ceilings are left out */
	CHECK_INT(rung_ceilings_from_json(&back, s), 0);
	free(s);
	CHECK_NEAR(back.dram.value, 4.31e12, 1);
	CHECK_INT(back.dram.src, RUNG_CEIL_MEASURED);
	CHECK_NEAR(back.tensor[RUNG_TC_BF16].value, 480e12, 1);
	CHECK_NEAR(back.tensor[RUNG_TC_TF32].value, 240e12, 1);
	CHECK(isnan(back.fp64.value));
	CHECK_INT(back.fp64.src, RUNG_CEIL_NONE);
	CHECK_CONTAINS(s2 = rung_ceilings_to_json(&c), "\"l1\":{\"src\":\"measured\",\"value\":29700000000000");
	free(s2);
	CHECK_NEAR(back.l1.value, 29.7e12, 1);
	CHECK_INT(back.l1.src, RUNG_CEIL_MEASURED);
	CHECK(rung_ceilings_field(&back, "l1") == &back.l1);
	/* a stored object from before L1 was measured reads, with L1 absent */
	CHECK_INT(rung_ceilings_from_json(&back, "{\"dram\":{\"src\":\"measured\",\"value\":4.31e12},"
						 "\"l2\":{\"src\":\"measured\",\"value\":1.05e13}}"), 0);
	CHECK_NEAR(back.l2.value, 10.5e12, 1);
	CHECK(isnan(back.l1.value));
	CHECK_INT(back.l1.src, RUNG_CEIL_NONE);
	/* the guard then takes the datasheet L1 */
	rung_env e = h200();
	rung_ceilings g;
	rung_ceilings_guard(&g, &e, &back);
	CHECK_NEAR(g.l1.value, 3.345408e13, 1);
	CHECK_INT(g.l1.src, RUNG_CEIL_DATASHEET);
	CHECK_INT(g.l2.src, RUNG_CEIL_MEASURED);
	CHECK_INT(rung_ceilings_from_json(&back, "{not json"), RUNG_EINVAL);
	CHECK(rung_ceilings_field(&back, "nope") == NULL);
}

static void test_store(void)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/ceil.db", t_tmpdir());
	rung_store *st = NULL;
	CHECK_INT(rung_store_open(&st, path), 0);
	if (!st)
		return;
	rung_env e = h200();
	rung_ceilings got;
	int64_t when = -1;
	CHECK_INT(rung_store_get_ceilings(&got, &when, st, &e), RUNG_ENOTFOUND);
	rung_ceilings c = measured();
	CHECK_INT(rung_store_put_ceilings(st, &e, &c, 1764432000), 0);
	CHECK_INT(rung_store_get_ceilings(&got, &when, st, &e), 0);
	CHECK_INT(when, 1764432000);
	CHECK_NEAR(got.dram.value, 4.31e12, 1);
	CHECK_NEAR(got.l2.value, 10.5e12, 1);
	CHECK_NEAR(got.l1.value, 29.7e12, 1);
	CHECK_INT(got.l1.src, RUNG_CEIL_MEASURED);
	/* Another clock is another row; replacing keeps one row per key. */
	rung_env e2 = e;
	e2.sm_clock_mhz = 1500;
	CHECK_INT(rung_store_get_ceilings(&got, NULL, st, &e2), RUNG_ENOTFOUND);
	c.dram.value = 4.40e12;
	CHECK_INT(rung_store_put_ceilings(st, &e, &c, 1764432100), 0);
	CHECK_INT(rung_store_get_ceilings(&got, &when, st, &e), 0);
	CHECK_NEAR(got.dram.value, 4.40e12, 1);
	CHECK_INT(when, 1764432100);
	rung_env nouuid = e;
	nouuid.uuid[0] = 0;
	CHECK_INT(rung_store_put_ceilings(st, &nouuid, &c, 0), RUNG_EINVAL);
	rung_store_close(st);
	/* Survives reopening (it is in the file). */
	CHECK_INT(rung_store_open(&st, path), 0);
	CHECK_INT(rung_store_get_ceilings(&got, NULL, st, &e), 0);
	CHECK_NEAR(got.fp32.value, 66.2e12, 1);
	rung_store_close(st);
}

static void test_kernels_compile(void)
{
	rung_compiled k;
	memset(&k, 0, sizeof(k));
	rung_compile_req req = {.src = rung_ceilings_source(), .file = "rung_ceilings.cu", .entry = "ceil_copy", .arch = "sm_90"};
	int rc = rung_compile(&k, &req);
	CHECK_INT(rc, 0);
	if (rc) {
		fprintf(stderr, "%s\n%s\n", k.error, k.log ? k.log : "");
		rung_compiled_clear(&k);
		return;
	}
	const char *entries[] = {".entry ceil_copy", ".entry ceil_ffma", ".entry ceil_dfma", ".entry ceil_mma_bf16",
				 ".entry ceil_mma_tf32", ".entry ceil_l1"};
	for (int i = 0; i < 6; i++)
		CHECK_CONTAINS(k.ptx, entries[i]);
	CHECK_CONTAINS(k.ptx, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32");
	CHECK_CONTAINS(k.ptx, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32");
	CHECK_CONTAINS(k.ptx, "fma.rn.f32");
	CHECK_CONTAINS(k.ptx, "fma.rn.f64");
	CHECK_CONTAINS(k.ptx, "ld.global.nc.v4");
	/* the L1 kernel: 8 volatile 128-bit L1-cached loads per step, none merged */
	CHECK_CONTAINS(k.ptx, "ld.global.ca.v4.f32");
	int nca = 0;
	for (const char *q = k.ptx; (q = strstr(q, "ld.global.ca.v4.f32")); q++)
		nca++;
	CHECK_INT(nca, 8);
	CHECK(k.cubin_len > 0);
	rung_compiled_clear(&k);
}

static void test_print(void)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/ceil.txt", t_tmpdir());
	FILE *f = fopen(path, "w+");
	rung_env e = h200();
	rung_ceilings m = measured(), d;
	rung_ceilings_guard(&d, &e, NULL);
	rung_ceilings_print(f, &e, &m, &d);
	rewind(f);
	char buf[2048] = "";
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	CHECK_CONTAINS(buf, "device NVIDIA H200 (sm_90, 132 SMs, 1980 MHz SM, 3201 MHz memory)");
	CHECK_CONTAINS(buf, "dram      4.31 TB/s        measured   datasheet 4.81 TB/s");
	CHECK_CONTAINS(buf, "fp32      66.2 TFLOP/s     measured   datasheet 66.9 TFLOP/s");
	CHECK_CONTAINS(buf, "fp64      -                none       datasheet 33.5 TFLOP/s");
	CHECK_CONTAINS(buf, "l2        10.5 TB/s        measured   datasheet -");
	CHECK_CONTAINS(buf, "l1        29.7 TB/s        measured   datasheet 33.5 TB/s");
	CHECK_CONTAINS(buf, "bf16-mma  480 TFLOP/s      measured   datasheet 1.07e+03 TFLOP/s");
}

static void test_cmd_nogpu(void)
{
	char *out = NULL;
	int rc = t_sh(&out, "%s ceilings 2>&1", RUNG_BIN);
	/* No GPU here: the worker says so (exit 4); on a GPU box this test only checks it ran. */
	if (rc == 4)
		CHECK_CONTAINS(out, "SKIPPED");
	else
		CHECK(rc == 0 || rc == 5);
	free(out);
}

int main(void)
{
	T_RUN(test_json);
	T_RUN(test_store);
	T_RUN(test_kernels_compile);
	T_RUN(test_print);
	T_RUN(test_cmd_nogpu);
	return t_done();
}
