/* The sanitize rung's pure part (core/sanitize.c): tool names, the parser of
 * compute-sanitizer reports on fixtures written in its formats
 * (tests/fixtures/sanitize/), attribution to candidate / reference / host,
 * the verdict and the JSON round trip of the findings. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/result.h"
#include "core/sanitize.h"
#include "harness.h"

static const rung_san_names vadd_names = {"vadd", "kernel.cu", "vadd_ref", "reference.cu"};
static const rung_san_names softmax_names = {"softmax", "k.cu", "softmax_ref", "reference.cu"};

static void parse_fixture(rung_san_report *rep, rung_san_tool tool, const char *name, const rung_san_names *names)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/fixtures/sanitize/%s", RUNG_TEST_DIR, name);
	size_t len = 0;
	char *text = t_slurp(path, &len);
	CHECK(text != NULL);
	rung_san_parse(rep, tool, text, len, names);
	free(text);
}

static void t_tools(void)
{
	unsigned m = 0;
	CHECK_INT(rung_san_tools_parse(&m, "memcheck, racecheck"), 0);
	CHECK_INT(m, RUNG_SAN_DEFAULT);
	CHECK_INT(rung_san_tools_parse(&m, " racecheck memcheck,memcheck "), 0);
	CHECK_INT(m, RUNG_SAN_DEFAULT);
	CHECK_INT(rung_san_tools_parse(&m, "memcheck,racecheck,synccheck,initcheck"), 0);
	CHECK_INT(m, RUNG_SAN_ALL);
	char buf[96];
	rung_san_tools_format(buf, sizeof(buf), m);
	CHECK_STR(buf, "memcheck, racecheck, synccheck, initcheck");
	m = 7;
	CHECK_INT(rung_san_tools_parse(&m, "memcheck,leakcheck"), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "unknown tool 'leakcheck' (expected memcheck, racecheck, synccheck, initcheck)");
	CHECK_INT(m, 7); /* untouched on error */
	CHECK_INT(rung_san_tools_parse(&m, " , "), RUNG_EINVAL);
	CHECK_CONTAINS(rung_error_last(), "no tool given");
	/* an option-looking word is just an unknown tool: nothing but these four names passes */
	CHECK_INT(rung_san_tools_parse(&m, "--print-limit"), RUNG_EINVAL);
	CHECK_INT(rung_san_tools_parse(&m, "memcheck;rm"), RUNG_EINVAL);
	rung_san_kind k;
	CHECK_INT(rung_san_kind_parse(&k, "invalid-shared-write"), 0);
	CHECK_INT(k, RUNG_SANK_INVALID_SHARED_WRITE);
	CHECK_STR(rung_san_kind_name(RUNG_SANK_UNINITIALIZED_READ), "uninitialized-read");
	CHECK_INT(rung_san_kind_parse(&k, "nope"), RUNG_EINVAL);
}

static void t_base_name(void)
{
	char b[64];
	rung_san_base_name(b, sizeof(b), "void sgemm<128, 8>(const float *, float *)");
	CHECK_STR(b, "sgemm");
	rung_san_base_name(b, sizeof(b), "sgemm<128,8>");
	CHECK_STR(b, "sgemm");
	rung_san_base_name(b, sizeof(b), "_Z5sgemmiiiPKfS0_Pf");
	CHECK_STR(b, "sgemm");
	rung_san_base_name(b, sizeof(b), "_ZN2ns7softmaxEPfi");
	CHECK_STR(b, "softmax");
	rung_san_base_name(b, sizeof(b), "ns::softmax(float *)");
	CHECK_STR(b, "softmax");
	rung_san_base_name(b, sizeof(b), "softmax");
	CHECK_STR(b, "softmax");
	rung_san_base_name(b, sizeof(b), "_Z99999x"); /* bad length: taken as written */
	CHECK_STR(b, "_Z99999x");
}

static void t_memcheck_oob(void)
{
	rung_san_report rep;
	parse_fixture(&rep, RUNG_SAN_MEMCHECK, "memcheck_oob.txt", &vadd_names);
	CHECK(rep.have_summary);
	CHECK_INT(rep.summary_errors, 6);
	CHECK_INT(rep.n, 4);
	/* the two cuGetProcAddress_v2 errors are one host finding */
	CHECK_INT(rep.f[0].kind, RUNG_SANK_API_ERROR);
	CHECK_INT(rep.f[0].where, RUNG_SANW_HOST);
	CHECK_INT(rep.f[0].count, 2);
	CHECK_CONTAINS(rep.f[0].message, "cuGetProcAddress_v2");
	/* two threads reading past the end at one line: one finding, count 2 */
	CHECK_INT(rep.f[1].kind, RUNG_SANK_INVALID_GLOBAL_READ);
	CHECK_INT(rep.f[1].where, RUNG_SANW_CANDIDATE);
	CHECK_STR(rep.f[1].kernel, "vadd");
	CHECK_STR(rep.f[1].file, "kernel.cu");
	CHECK_INT(rep.f[1].line, 6);
	CHECK_INT(rep.f[1].count, 2);
	CHECK_STR(rep.f[1].message, "invalid __global__ read of size 4 bytes at kernel.cu:6 in vadd by thread (232,0,0) in "
				    "block (3,0,0): address 0x7f3c7f2ff000 is out of bounds");
	CHECK_INT(rep.f[2].kind, RUNG_SANK_INVALID_GLOBAL_WRITE);
	CHECK_INT(rep.f[2].line, 7);
	CHECK_INT(rep.f[2].count, 1);
	CHECK_INT(rep.f[3].kind, RUNG_SANK_API_ERROR);
	CHECK_CONTAINS(rep.f[3].message, "CUDA_ERROR_LAUNCH_FAILED");
	CHECK_STR(rep.tool_error, "");

	/* the verdict: the candidate's first finding, with the report count */
	rung_result r;
	rung_result_init(&r);
	rung_result_sanitize_add(&r, &rep);
	rung_result_sanitize_judge(&r, NULL);
	CHECK_INT(r.steps[RUNG_STEP_SANITIZE].status, RUNG_S_FAILED);
	CHECK_STR(r.steps[RUNG_STEP_SANITIZE].reason,
		  "memcheck: invalid __global__ read of size 4 bytes at kernel.cu:6 in vadd by thread (232,0,0) in block "
		  "(3,0,0): address 0x7f3c7f2ff000 is out of bounds (2 reports)");
	/* candidate findings first, host last */
	CHECK_INT(r.nsanitize, 4);
	CHECK_INT(r.sanitize[0].where, RUNG_SANW_CANDIDATE);
	CHECK_INT(r.sanitize[1].where, RUNG_SANW_CANDIDATE);
	CHECK_INT(r.sanitize[2].where, RUNG_SANW_HOST);
	CHECK_INT(r.sanitize_tools, RUNG_SAN_BIT(RUNG_SAN_MEMCHECK));
	CHECK_INT(rung_result_status(&r), RUNG_S_FAILED);
	CHECK_STR(rung_result_reason(&r), "sanitize: memcheck: invalid __global__ read of size 4 bytes at kernel.cu:6 in vadd "
					  "by thread (232,0,0) in block (3,0,0): address 0x7f3c7f2ff000 is out of bounds (2 reports)");
	rung_result_clear(&r);
}

static void t_memcheck_old_format(void)
{
	rung_san_report rep;
	parse_fixture(&rep, RUNG_SAN_MEMCHECK, "memcheck_misaligned_old.txt", &vadd_names);
	CHECK_INT(rep.n, 1);
	CHECK_INT(rep.f[0].kind, RUNG_SANK_MISALIGNED);
	CHECK_STR(rep.f[0].kernel, "vadd<double>");
	CHECK_STR(rep.f[0].file, "kernel.cu"); /* the directory is dropped */
	CHECK_INT(rep.f[0].line, 75);
	CHECK_INT(rep.f[0].count, 2);
	CHECK_INT(rep.f[0].where, RUNG_SANW_CANDIDATE);
	CHECK_CONTAINS(rep.f[0].message, "address 0x7f6510c00004 is misaligned");
	CHECK_INT(rep.summary_errors, 2);
}

static void t_memcheck_reference(void)
{
	rung_san_report rep;
	parse_fixture(&rep, RUNG_SAN_MEMCHECK, "memcheck_reference.txt", &vadd_names);
	CHECK_INT(rep.n, 2);
	CHECK_INT(rep.f[0].where, RUNG_SANW_REFERENCE);
	CHECK_STR(rep.f[0].kernel, "vadd_ref");
	CHECK_STR(rep.f[0].file, "reference.cu");
	CHECK_INT(rep.f[0].line, 6);
	rung_result r;
	rung_result_init(&r);
	rung_result_sanitize_add(&r, &rep);
	rung_result_sanitize_judge(&r, NULL);
	CHECK_INT(r.steps[RUNG_STEP_SANITIZE].status, RUNG_S_FAILED);
	CHECK_STR(r.steps[RUNG_STEP_SANITIZE].reason,
		  "reference failed: memcheck: invalid __global__ write of size 4 bytes at reference.cu:6 in vadd_ref by "
		  "thread (0,0,0) in block (0,0,0): address 0x0 is out of bounds");
	rung_result_clear(&r);

	/* the same report with equal kernel names: the file decides */
	rung_san_names same = {"vadd", "kernel.cu", "vadd", "reference.cu"};
	parse_fixture(&rep, RUNG_SAN_MEMCHECK, "memcheck_reference.txt", &same);
	CHECK_INT(rep.f[0].where, RUNG_SANW_REFERENCE);
	rung_san_names other = {"vadd_ref", "reference.cu", "vadd", "kernel.cu"};
	parse_fixture(&rep, RUNG_SAN_MEMCHECK, "memcheck_reference.txt", &other);
	CHECK_INT(rep.f[0].where, RUNG_SANW_CANDIDATE);
}

static void t_memcheck_frames(void)
{
	rung_san_names names = {"sgemm<128,8>", "sgemm.cu", "sgemm_ref", "reference.cu"};
	rung_san_report rep;
	parse_fixture(&rep, RUNG_SAN_MEMCHECK, "memcheck_shared_frames.txt", &names);
	CHECK_INT(rep.n, 2);
	/* in a __device__ function: the frame names the kernel, the "at" line the place */
	CHECK_INT(rep.f[0].kind, RUNG_SANK_INVALID_SHARED_WRITE);
	CHECK_STR(rep.f[0].kernel, "sgemm<128, 8>");
	CHECK_STR(rep.f[0].file, "tile.cuh");
	CHECK_INT(rep.f[0].line, 22);
	CHECK_INT(rep.f[0].where, RUNG_SANW_CANDIDATE);
	/* rung's own kernel is not the version's fault */
	CHECK_INT(rep.own, 1);
	CHECK_INT(rep.f[1].kind, RUNG_SANK_DEVICE_EXCEPTION);
	CHECK_STR(rep.f[1].message, "warp Illegal Address at sgemm.cu:57 in sgemm<128, 8> by thread (0,0,0) in block (4,0,0)");
}

static void t_racecheck(void)
{
	rung_san_report rep;
	parse_fixture(&rep, RUNG_SAN_RACECHECK, "racecheck_analysis.txt", &softmax_names);
	CHECK(rep.have_summary);
	CHECK_INT(rep.summary_errors, 1);
	CHECK_INT(rep.n, 1);
	CHECK_INT(rep.f[0].kind, RUNG_SANK_RACE);
	CHECK_INT(rep.f[0].where, RUNG_SANW_CANDIDATE);
	CHECK_STR(rep.f[0].kernel, "softmax");
	CHECK_STR(rep.f[0].file, "k.cu");
	CHECK_INT(rep.f[0].line, 10);
	CHECK_INT(rep.f[0].count, 25776);
	char d[300];
	rung_san_describe(d, sizeof(d), &rep.f[0]);
	CHECK_STR(d, "racecheck: race between read at k.cu:10 and write at k.cu:13 (25776 hazards)");

	/* the same race on one line, then a warning in the reference with three reads */
	parse_fixture(&rep, RUNG_SAN_RACECHECK, "racecheck_oneline.txt", &softmax_names);
	CHECK_INT(rep.n, 2);
	rung_san_describe(d, sizeof(d), &rep.f[0]);
	CHECK_STR(d, "racecheck: race between read at k.cu:10 and write at k.cu:13 (25776 hazards)");
	CHECK_INT(rep.f[1].where, RUNG_SANW_REFERENCE);
	CHECK_STR(rep.f[1].message,
		  "race (warning) between write at reference.cu:21 and read at reference.cu:24 and 2 more accesses (160 hazards)");
	CHECK_INT(rep.f[1].count, 160);
	CHECK_INT(rep.summary_errors, 2);

	rung_result r;
	rung_result_init(&r);
	rung_result_sanitize_add(&r, &rep);
	rung_result_sanitize_judge(&r, NULL);
	CHECK_STR(r.steps[RUNG_STEP_SANITIZE].reason, "racecheck: race between read at k.cu:10 and write at k.cu:13 (25776 hazards)");
	rung_result_clear(&r);

	/* hazard-level report */
	parse_fixture(&rep, RUNG_SAN_RACECHECK, "racecheck_hazard.txt", &softmax_names);
	CHECK_INT(rep.n, 2);
	CHECK_STR(rep.f[0].message, "WAW hazard between write at k.cu:18 and write at k.cu:18");
	CHECK_STR(rep.f[1].message, "RAW hazard between write at k.cu:18 and read at k.cu:20");
	CHECK_STR(rep.f[1].kernel, "reduce");
	CHECK_INT(rep.f[1].kind, RUNG_SANK_RACE);
	CHECK_INT(rep.summary_errors, 2);
}

static void t_synccheck_initcheck(void)
{
	rung_san_report rep;
	parse_fixture(&rep, RUNG_SAN_SYNCCHECK, "synccheck.txt", &softmax_names);
	CHECK_INT(rep.n, 1);
	CHECK_INT(rep.f[0].kind, RUNG_SANK_SYNC_HAZARD);
	CHECK_INT(rep.f[0].line, 31);
	CHECK_INT(rep.f[0].count, 2);
	CHECK_STR(rep.f[0].message, "barrier error detected. Divergent thread(s) in block at k.cu:31 in reduce by thread "
				    "(37,0,0) in block (0,0,0)");
	CHECK_INT(rep.f[0].tool, RUNG_SAN_SYNCCHECK);

	parse_fixture(&rep, RUNG_SAN_INITCHECK, "initcheck.txt", &softmax_names);
	CHECK_INT(rep.n, 2);
	CHECK_INT(rep.f[0].kind, RUNG_SANK_UNINITIALIZED_READ);
	CHECK_INT(rep.f[0].where, RUNG_SANW_CANDIDATE);
	CHECK_STR(rep.f[0].file, "k.cu");
	CHECK_INT(rep.f[0].line, 41);
	CHECK_INT(rep.f[1].where, RUNG_SANW_HOST); /* a host copy: rung's own call */
}

static void t_clean_and_host_only(void)
{
	rung_san_report rep;
	parse_fixture(&rep, RUNG_SAN_MEMCHECK, "clean.txt", &vadd_names);
	CHECK(rep.have_summary);
	CHECK_INT(rep.n, 1);
	CHECK_INT(rep.f[0].where, RUNG_SANW_HOST);
	rung_result r;
	rung_result_init(&r);
	rung_result_sanitize_add(&r, &rep);
	rung_san_report empty;
	rung_san_parse(&empty, RUNG_SAN_RACECHECK, "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n",
		       72, &vadd_names);
	CHECK(empty.have_summary);
	CHECK_INT(empty.summary_errors, 0);
	rung_result_sanitize_add(&r, &empty);
	rung_result_sanitize_judge(&r, NULL);
	CHECK_INT(r.steps[RUNG_STEP_SANITIZE].status, RUNG_S_OK);
	CHECK_STR(r.steps[RUNG_STEP_SANITIZE].reason,
		  "no findings (memcheck, racecheck); 1 host-side report (rung's own CUDA calls) not counted");
	/* an incomplete tool run is never a pass */
	rung_result_sanitize_judge(&r, "racecheck: no report (compute-sanitizer ended without its summary)");
	CHECK_INT(r.steps[RUNG_STEP_SANITIZE].status, RUNG_S_FAILED);
	CHECK_CONTAINS(r.steps[RUNG_STEP_SANITIZE].reason, "no report");
	rung_result_clear(&r);
}

static void t_truncated_and_tool_error(void)
{
	rung_san_report rep;
	parse_fixture(&rep, RUNG_SAN_MEMCHECK, "truncated.txt", &vadd_names);
	CHECK(!rep.have_summary);
	CHECK_INT(rep.summary_errors, -1);
	CHECK_INT(rep.n, 1);
	CHECK_INT(rep.f[0].line, 7);
	CHECK_INT(rep.f[0].kind, RUNG_SANK_INVALID_GLOBAL_WRITE);

	parse_fixture(&rep, RUNG_SAN_MEMCHECK, "tool_error.txt", &vadd_names);
	CHECK_INT(rep.n, 0);
	CHECK(!rep.have_summary);
	CHECK_STR(rep.tool_error, "Error: Target application terminated before first instrumented API call");
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void t_garbage(void)
{
	rung_san_report rep;
	rung_san_parse(&rep, RUNG_SAN_MEMCHECK, NULL, 0, NULL);
	CHECK_INT(rep.n, 0);
	rung_san_parse(&rep, RUNG_SAN_MEMCHECK, "", 0, NULL);
	CHECK_INT(rep.lines, 0);
	/* random bytes, words of the format in random order, NULs, no newline at the end */
	static const char *words[] = {"=========", " ", "    ", "at ", "+0x", " in ", ":", "12", "Invalid __global__ ",
				      "write ", "Race reported between ", "Read access at ", " and ", " [", "hazards]",
				      "\n", "\n", "Device Frame:", "0x", "Barrier error detected", "ERROR SUMMARY: ",
				      "Error: ", "Potential WAW hazard", " Thread (0,0,0) at ", "(", "<", "\x1b[31m",
				      "_Z", "99", "\xff\xfe"};
	size_t cap = 1 << 20;
	char *buf = malloc(cap);
	CHECK(buf != NULL);
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	for (int round = 0; round < 40 && buf; round++) {
		size_t n = 0;
		while (n + 64 < cap) {
			uint64_t v = rnd(&seed);
			if (v % 5 == 0) {
				buf[n++] = (char)(v >> 8);
			} else {
				const char *w = words[(v >> 16) % (sizeof(words) / sizeof(words[0]))];
				size_t k = strlen(w);
				memcpy(buf + n, w, k);
				n += k;
			}
		}
		rung_san_parse(&rep, RUNG_SAN_RACECHECK, buf, n, &softmax_names);
		CHECK(rep.n <= RUNG_SAN_PARSE_MAX);
		for (int i = 0; i < rep.n; i++) {
			CHECK(strlen(rep.f[i].message) < sizeof(rep.f[i].message));
			for (const char *c = rep.f[i].message; *c; c++)
				CHECK((unsigned char)*c >= 0x20 && (unsigned char)*c < 0x7f); /* inert, ASCII */
		}
	}
	/* one line of 600 KB: cut, not overflowed */
	memset(buf, 'x', cap - 1);
	memcpy(buf, "Invalid __global__ write of size 4 bytes\n    at vadd+0x10 in ", 62);
	buf[cap - 1] = 0;
	rung_san_parse(&rep, RUNG_SAN_MEMCHECK, buf, cap - 1, &vadd_names);
	CHECK_INT(rep.n, 1);
	/* many distinct findings: the first RUNG_SAN_PARSE_MAX kept, the rest counted */
	size_t n = 0;
	for (int i = 0; i < 100; i++)
		n += (size_t)snprintf(buf + n, cap - n,
				      "========= Invalid __global__ write of size 4 bytes\n=========     at vadd+0x10 in kernel.cu:%d\n",
				      i + 1);
	rung_san_parse(&rep, RUNG_SAN_MEMCHECK, buf, n, &vadd_names);
	CHECK_INT(rep.n, RUNG_SAN_PARSE_MAX);
	CHECK_INT(rep.dropped, 100 - RUNG_SAN_PARSE_MAX);
	CHECK_INT(rep.f[RUNG_SAN_PARSE_MAX - 1].line, RUNG_SAN_PARSE_MAX);
	free(buf);
}

static void t_result_keep_and_json(void)
{
	rung_result r;
	rung_result_init(&r);
	rung_san_report rep;
	/* host findings fill the list, then device ones push them out */
	memset(&rep, 0, sizeof(rep));
	rep.tool = RUNG_SAN_MEMCHECK;
	rep.n = RUNG_SAN_MAX_FINDINGS + 2;
	for (int i = 0; i < rep.n; i++) {
		rep.f[i].tool = RUNG_SAN_MEMCHECK;
		rep.f[i].kind = RUNG_SANK_API_ERROR;
		rep.f[i].where = RUNG_SANW_HOST;
		rep.f[i].count = 1;
		snprintf(rep.f[i].message, sizeof(rep.f[i].message), "host %d", i);
	}
	rung_result_sanitize_add(&r, &rep);
	CHECK_INT(r.nsanitize, RUNG_SAN_MAX_FINDINGS);
	parse_fixture(&rep, RUNG_SAN_RACECHECK, "racecheck_oneline.txt", &softmax_names);
	rung_result_sanitize_add(&r, &rep);
	CHECK_INT(r.nsanitize, RUNG_SAN_MAX_FINDINGS);
	CHECK_INT(r.sanitize[0].where, RUNG_SANW_CANDIDATE);
	CHECK_INT(r.sanitize[1].where, RUNG_SANW_REFERENCE);
	CHECK_STR(r.sanitize[2].message, "host 0");
	CHECK_INT(r.sanitize_tools, RUNG_SAN_DEFAULT);
	rung_result_sanitize_judge(&r, NULL);

	char *js = rung_result_to_json(&r);
	CHECK(js != NULL);
	CHECK_CONTAINS(js, "\"sanitize_tools\":[\"memcheck\",\"racecheck\"]");
	CHECK_CONTAINS(js, "{\"tool\":\"racecheck\",\"kind\":\"race\",\"where\":\"candidate\",\"kernel\":\"softmax\","
			   "\"file\":\"k.cu\",\"line\":10,\"count\":25776,\"message\":\"race between read at k.cu:10 and "
			   "write at k.cu:13 (25776 hazards)\"}");
	rung_result back;
	CHECK_INT(rung_result_from_json(&back, js), 0);
	CHECK_INT(back.sanitize_tools, r.sanitize_tools);
	CHECK_INT(back.nsanitize, r.nsanitize);
	for (int i = 0; i < r.nsanitize && i < back.nsanitize; i++) {
		CHECK_INT(back.sanitize[i].tool, r.sanitize[i].tool);
		CHECK_INT(back.sanitize[i].kind, r.sanitize[i].kind);
		CHECK_INT(back.sanitize[i].where, r.sanitize[i].where);
		CHECK_STR(back.sanitize[i].kernel, r.sanitize[i].kernel);
		CHECK_STR(back.sanitize[i].file, r.sanitize[i].file);
		CHECK_INT(back.sanitize[i].line, r.sanitize[i].line);
		CHECK_INT(back.sanitize[i].count, r.sanitize[i].count);
		CHECK_STR(back.sanitize[i].message, r.sanitize[i].message);
	}
	CHECK_INT(back.steps[RUNG_STEP_SANITIZE].status, RUNG_S_FAILED);
	CHECK_STR(back.steps[RUNG_STEP_SANITIZE].reason, r.steps[RUNG_STEP_SANITIZE].reason);
	char *js2 = rung_result_to_json(&back);
	CHECK_STR(js2, js);
	free(js2);
	free(js);

	/* a result without the rung writes no sanitize keys, and reads back without it */
	rung_result none;
	rung_result_init(&none);
	js = rung_result_to_json(&none);
	CHECK(js && !strstr(js, "\"sanitize_tools\"") && !strstr(js, "\"sanitize\":["));
	CHECK_INT(rung_result_from_json(&back, js), 0);
	CHECK_INT(back.sanitize_tools, 0);
	CHECK_INT(back.steps[RUNG_STEP_SANITIZE].status, RUNG_S_NONE);
	free(js);

	/* copy: the rung moves into another record (a stored result) */
	rung_result_sanitize_copy(&none, &r);
	CHECK_INT(none.nsanitize, r.nsanitize);
	CHECK_INT(none.steps[RUNG_STEP_SANITIZE].status, RUNG_S_FAILED);
	rung_result_clear(&back);
	rung_result_clear(&none);
	rung_result_clear(&r);
}

int main(void)
{
	T_RUN(t_tools);
	T_RUN(t_base_name);
	T_RUN(t_memcheck_oob);
	T_RUN(t_memcheck_old_format);
	T_RUN(t_memcheck_reference);
	T_RUN(t_memcheck_frames);
	T_RUN(t_racecheck);
	T_RUN(t_synccheck_initcheck);
	T_RUN(t_clean_and_host_only);
	T_RUN(t_truncated_and_tool_error);
	T_RUN(t_garbage);
	T_RUN(t_result_keep_and_json);
	return t_done();
}
