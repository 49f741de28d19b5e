/* Intra-kernel tracing and per-PC SASS counts on the CPU: rung.h compiles with
 * NVRTC into PTX that reads %globaltimer and writes __rung_trace; a synthetic
 * device trace buffer decodes into hand-derived statistics; SASS counts annotate
 * a hand-written nvdisasm listing by pc; the profile_extra store round trip;
 * `rung profile --ncu` without ncu on PATH. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/sass.h"
#include "core/sass_prof.h"
#include "core/err.h"
#include "core/trace.h"
#include "gpu/compile.h"
#include "harness.h"
#include "vcs/prof_store.h"
#include "vcs/store.h"

static const char *traced_src =
	"#include \"rung.h\"\n"
	"extern \"C\" __global__ void traced(float *x, int n)\n"
	"{\n"
	"\tRUNG_TRACE_BEGIN(1);\n"
	"\tint i = blockIdx.x * blockDim.x + threadIdx.x;\n"
	"\tif (i < n)\n"
	"\t\tx[i] *= 2.0f;\n"
	"\tRUNG_TRACE_END(1);\n"
	"\tRUNG_TRACE_BEGIN(2);\n"
	"\tif (i < n)\n"
	"\t\tx[i] += 1.0f;\n"
	"\tRUNG_TRACE_END(2);\n"
	"}\n";

static void test_rung_h_compiles(void)
{
	rung_compile_req req = {.src = traced_src, .file = "traced.cu", .entry = "traced", .arch = "sm_90"};
	rung_compiled c;
	int rc = rung_compile(&c, &req);
	CHECK_INT(rc, 0);
	if (rc) {
		fprintf(stderr, "%s\n%s\n", c.error, c.log ? c.log : "");
		rung_compiled_clear(&c);
		return;
	}
	CHECK(c.ptx != NULL);
	CHECK_CONTAINS(c.ptx, "%globaltimer");
	CHECK_CONTAINS(c.ptx, "%smid");
	CHECK_CONTAINS(c.ptx, ".global .align 8 .b8 __rung_trace[16]");
	CHECK_CONTAINS(c.ptx, "atom.global.add.u32");
	CHECK(c.cubin_len > 0);
	rung_compiled_clear(&c);

	/* A kernel without rung.h has no trace symbol: the worker attaches nothing. */
	rung_compile_req plain = {.src = "extern \"C\" __global__ void k(float *x) { x[0] = 1; }\n", .file = "k.cu",
				  .entry = "k", .arch = "sm_90"};
	CHECK_INT(rung_compile(&c, &plain), 0);
	CHECK(c.ptx && !strstr(c.ptx, "__rung_trace"));
	rung_compiled_clear(&c);

	/* A version's own rung.h wins over the built-in one. */
	rung_header own = {.name = "rung.h", .text = "#define RUNG_TRACE_BEGIN(r)\n#define RUNG_TRACE_END(r)\n"};
	rung_compile_req mine = {.src = traced_src, .file = "traced.cu", .entry = "traced", .arch = "sm_90",
				 .headers = &own, .nheaders = 1};
	CHECK_INT(rung_compile(&c, &mine), 0);
	CHECK(c.ptx && !strstr(c.ptx, "globaltimer"));
	rung_compiled_clear(&c);
}

static void put_rec(unsigned char *p, uint64_t t0, uint64_t t1, uint32_t block, uint32_t smid, uint32_t region)
{
	memset(p, 0, RUNG_TRACE_REC_BYTES);
	for (int i = 0; i < 8; i++) {
		p[i] = (unsigned char)(t0 >> (8 * i));
		p[8 + i] = (unsigned char)(t1 >> (8 * i));
	}
	for (int i = 0; i < 4; i++) {
		p[16 + i] = (unsigned char)(block >> (8 * i));
		p[20 + i] = (unsigned char)(smid >> (8 * i));
		p[24 + i] = (unsigned char)(region >> (8 * i));
	}
}

/* 4 blocks on 2 SMs (blocks 0,2 on SM 5; 1,3 on SM 9), regions 1 and 2.
 * Region 1 durations (ns): 1000, 2000, 3000, 4000 -> median (rank 2) 2 us,
 * p90 (rank 4) 4 us, max 4 us. Region 2: 500 each. One torn record (t1 < t0). */
static void test_trace_stats(void)
{
	const uint64_t T = 1000000000000ull;
	unsigned char raw[10 * RUNG_TRACE_REC_BYTES];
	int k = 0;
	put_rec(raw + 32 * k++, T + 0, T + 1000, 0, 5, 1);
	put_rec(raw + 32 * k++, T + 100, T + 2100, 1, 9, 1);
	put_rec(raw + 32 * k++, T + 1000, T + 1500, 0, 5, 2);
	put_rec(raw + 32 * k++, T + 5000, T + 8000, 2, 5, 1);
	put_rec(raw + 32 * k++, T + 2100, T + 2600, 1, 9, 2);
	put_rec(raw + 32 * k++, T + 6000, T + 10000, 3, 9, 1);
	put_rec(raw + 32 * k++, T + 8000, T + 8500, 2, 5, 2);
	put_rec(raw + 32 * k++, T + 10000, T + 10500, 3, 9, 2);
	put_rec(raw + 32 * k++, T + 9000, T + 100, 3, 9, 7); /* torn */
	rung_trace t;
	rung_trace_init(&t);
	t.kernel_us = 20.0;
	t.written = 9;
	CHECK_INT(rung_trace_decode(&t, raw, (size_t)k), 0);
	CHECK_INT(t.nrec, 8);
	CHECK_INT(rung_trace_stats(&t), 0);
	CHECK_INT(t.origin, T);
	CHECK_INT(t.nregions, 2);
	CHECK_INT(t.regions[0].region, 1);
	CHECK_INT(t.regions[0].count, 4);
	CHECK_NEAR(t.regions[0].median_us, 2.0, 1e-12);
	CHECK_NEAR(t.regions[0].p90_us, 4.0, 1e-12);
	CHECK_NEAR(t.regions[0].max_us, 4.0, 1e-12);
	CHECK_NEAR(t.regions[0].frac, 0.1, 1e-12);
	CHECK_INT(t.regions[1].region, 2);
	CHECK_INT(t.regions[1].count, 4);
	CHECK_NEAR(t.regions[1].median_us, 0.5, 1e-12);
	CHECK_INT(t.nsms, 2);
	CHECK_INT(t.sms[0].smid, 5);
	CHECK_INT(t.sms[0].blocks, 2);
	CHECK_NEAR(t.sms[0].first_us, 0.0, 1e-12);
	CHECK_NEAR(t.sms[0].last_us, 8.5, 1e-12);
	CHECK_INT(t.sms[1].smid, 9);
	CHECK_INT(t.sms[1].blocks, 2);
	CHECK_NEAR(t.sms[1].first_us, 0.1, 1e-12);
	CHECK_NEAR(t.sms[1].last_us, 10.5, 1e-12);

	/* JSON round trip keeps the records and recomputes the same statistics. */
	json_t *j = rung_trace_to_json(&t);
	rung_trace u;
	rung_trace_init(&u);
	CHECK_INT(rung_trace_from_json(&u, j), 0);
	CHECK_INT(u.nrec, 8);
	CHECK_INT(u.nregions, 2);
	CHECK_NEAR(u.regions[0].p90_us, 4.0, 1e-12);
	CHECK_NEAR(u.kernel_us, 20.0, 1e-12);
	CHECK_INT(u.written, 9);
	CHECK_INT(u.sms[1].blocks, 2);

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	rung_trace_print(f, &u, 16);
	fclose(f);
	CHECK_CONTAINS(buf, "2.00");
	CHECK_CONTAINS(buf, "10%");
	CHECK_CONTAINS(buf, "2 SMs, 2..2 blocks per SM");
	free(buf);
	json_decref(j);
	rung_trace_clear(&u);
	rung_trace_clear(&t);

	/* Malformed JSON is an error, not a crash. */
	json_t *bad = json_loads("{\"records\":[[1,2,3]]}", 0, NULL);
	CHECK(rung_trace_from_json(&u, bad) < 0);
	json_decref(bad);
	rung_trace_clear(&u);
}

static const char *listing =
	"\t.text.loop:\n"
	"loop:\n"
	".text.loop:\n"
	"        /*0000*/                   LDC R1, c[0x0][0x28] ;\n"
	"        /*0010*/                   MOV R0, RZ ;\n"
	".L_x_1:\n"
	"        /*0020*/                   FFMA R5, R2, R3, R5 ;\n"
	"        /*0030*/                   IADD3 R0, R0, 0x1, RZ ;\n"
	"        /*0040*/                   ISETP.GE.AND P0, PT, R0, 0x64, PT ;\n"
	"        /*0050*/               @!P0 BRA `(.L_x_1) ;\n"
	"        /*0060*/                   EXIT ;\n"
	".L_x_2:\n"
	"        /*0070*/                   BRA `(.L_x_2);\n";

static void test_sass_annotate(void)
{
	rung_sass s;
	CHECK_INT(rung_sass_normalize(&s, listing, 0), 0);
	rung_sass_counts c;
	memset(&c, 0, sizeof(c));
	/* 4 warps, 100 iterations: the loop body runs 400 times, the rest 4. */
	CHECK_INT(rung_sass_counts_add(&c, 0x20, 400, 12800), 0);
	CHECK_INT(rung_sass_counts_add(&c, 0x0, 4, 128), 0);
	CHECK_INT(rung_sass_counts_add(&c, 0x30, 400, 12800), 0);
	CHECK_INT(rung_sass_counts_add(&c, 0x40, 400, 12800), 0);
	CHECK_INT(rung_sass_counts_add(&c, 0x50, 300, 9600), 0); /* two instances of one pc sum */
	CHECK_INT(rung_sass_counts_add(&c, 0x50, 100, 3200), 0);
	CHECK_INT(rung_sass_counts_add(&c, 0x60, 4, 128), 0);
	rung_sass_counts_sort(&c);
	CHECK_INT(c.n, 6);
	CHECK_INT(rung_sass_counts_at(&c, 0x50)->inst, 400);
	CHECK(rung_sass_counts_at(&c, 0x10) == NULL);

	int64_t inst[64];
	CHECK(s.nlines < 64);
	int n = rung_sass_annotate(inst, &s, rung_sass_find_func(&s, "loop"), &c);
	CHECK_INT(n, 6);
	int ffma = -1, mov = -1, label = -1;
	for (int i = 0; i < s.nlines; i++) {
		if (strstr(s.lines[i].text, "FFMA"))
			ffma = i;
		if (strstr(s.lines[i].text, "MOV"))
			mov = i;
		if (s.lines[i].kind == RUNG_SASS_LABEL && label < 0)
			label = i;
	}
	CHECK(ffma >= 0 && mov >= 0 && label >= 0);
	CHECK_INT(s.lines[ffma].pc, 0x20);
	CHECK_INT(inst[ffma], 400);
	CHECK_INT(inst[mov], -1);  /* no record */
	CHECK_INT(inst[label], -1); /* labels carry no count */

	int idx[3];
	CHECK_INT(rung_sass_hot(idx, 3, &s, inst), 3);
	CHECK_INT(s.lines[idx[0]].pc, 0x20); /* ties: lower pc first */
	CHECK_INT(s.lines[idx[1]].pc, 0x30);
	CHECK_INT(s.lines[idx[2]].pc, 0x40);

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	rung_sass_print_hot(f, &s, -1, &c, 20);
	fclose(f);
	CHECK_CONTAINS(buf, "0x0020          400          12800  24.9%  FFMA R5, R2, R3, R5");
	CHECK(strstr(buf, "FFMA") < strstr(buf, "EXIT")); /* hottest first; 400 of 1608 = 24.9% */
	free(buf);

	/* JSON round trip. */
	snprintf(c.func, sizeof(c.func), "loop");
	json_t *j = rung_sass_counts_to_json(&c);
	rung_sass_counts d;
	CHECK_INT(rung_sass_counts_from_json(&d, j), 0);
	CHECK_STR(d.func, "loop");
	CHECK_INT(d.n, 6);
	CHECK_INT(rung_sass_counts_at(&d, 0x40)->thread_inst, 12800);
	json_decref(j);
	rung_sass_counts_clear(&d);
	rung_sass_counts_clear(&c);
	rung_sass_clear(&s);
}

static void test_extra_store(void)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/results.db", t_tmpdir());
	rung_store *st = NULL;
	CHECK_INT(rung_store_open(&st, path), 0);
	char *js = NULL;
	CHECK_INT(rung_store_get_extra(&js, st, "abc", "sass"), RUNG_ENOTFOUND);
	CHECK_INT(rung_store_put_extra(st, "abc", "sass", "{\"function\":\"k\",\"records\":[[32,4,128]]}", 1), 0);
	CHECK_INT(rung_store_put_extra(st, "abc", "ncu", "{\"report\":\"/x/abc.ncu-rep\"}", 2), 0);
	CHECK_INT(rung_store_put_extra(st, "abc", "sass", "{\"function\":\"k\",\"records\":[[48,8,256]]}", 3), 0);
	CHECK_INT(rung_store_get_extra(&js, st, "abc", "sass"), 0);
	CHECK_STR(js, "{\"function\":\"k\",\"records\":[[48,8,256]]}"); /* replaced */
	free(js);
	CHECK_INT(rung_store_get_extra(&js, st, "abc", "ncu"), 0);
	CHECK_CONTAINS(js, "abc.ncu-rep");
	free(js);
	rung_store_close(st);
}

static void test_ncu_missing(void)
{
	char *out = NULL;
	int rc = t_sh(&out, "cd %s && PATH=/nonexistent-rung-path %s profile --ncu 2>&1", t_tmpdir(), RUNG_BIN);
	CHECK_INT(rc, 4);
	CHECK_CONTAINS(out, "ncu not found on PATH");
	free(out);
}

int main(void)
{
	T_RUN(test_rung_h_compiles);
	T_RUN(test_trace_stats);
	T_RUN(test_sass_annotate);
	T_RUN(test_extra_store);
	T_RUN(test_ncu_missing);
	return t_done();
}
