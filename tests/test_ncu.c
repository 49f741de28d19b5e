/* Nsight Compute's pages read back (core/csv.c, core/ncu.c), on ncu 2025.3.1
 * output from the H200 (tests/fixtures/ncu/: whole details pages, source
 * pages trimmed to their first lines; tf32's report lost its PC samples and
 * its source page has only the sampling columns). */
#include "harness.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "core/err.h"
#include "core/ncu.h"

#define FX RUNG_TEST_DIR "/fixtures/ncu/"

static void test_csv_fields(void)
{
	const char *t = "a,\"b,c\",\"say \"\"hi\"\"\",,\"\"\r\n"
			"\n"
			"\"two\nlines\",x,\n"
			"last";
	rung_csv c;
	CHECK_INT(rung_csv_parse(&c, t, strlen(t), "t.csv"), 0);
	CHECK_INT(c.nrows, 3);
	CHECK_INT(c.rows[0].nfields, 5);
	CHECK_STR(c.rows[0].fields[0], "a");
	CHECK_STR(c.rows[0].fields[1], "b,c");
	CHECK_STR(c.rows[0].fields[2], "say \"hi\"");
	CHECK_STR(c.rows[0].fields[3], "");
	CHECK_STR(c.rows[0].fields[4], "");
	CHECK_INT(c.rows[0].line, 1);
	/* the blank line is no row; a quoted newline stays in the field; a trailing comma is an empty field */
	CHECK_INT(c.rows[1].line, 3);
	CHECK_INT(c.rows[1].nfields, 3);
	CHECK_STR(c.rows[1].fields[0], "two\nlines");
	CHECK_STR(c.rows[1].fields[2], "");
	CHECK_INT(c.rows[2].line, 5);
	CHECK_STR(rung_csv_field(&c.rows[2], 0), "last");
	CHECK_STR(rung_csv_field(&c.rows[2], 7), "");
	rung_csv_clear(&c);
	CHECK_INT(rung_csv_parse(&c, "", 0, "e.csv"), 0);
	CHECK_INT(c.nrows, 0);
	rung_csv_clear(&c);
}

static void test_csv_errors(void)
{
	rung_csv c;
	const char *t = "a,b\n\"open,\nstill open";
	CHECK_INT(rung_csv_parse(&c, t, strlen(t), "u.csv"), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "u.csv:3: unterminated quoted field (the quote opens on line 2)");
	CHECK_INT(c.nrows, 0);
	t = "a,b\nc,\"d\"e\n";
	CHECK_INT(rung_csv_parse(&c, t, strlen(t), "q.csv"), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "q.csv:2: text after a closing quote (a field is quoted whole or not at all)");
	t = "x\ny,a\"b\n";
	CHECK_INT(rung_csv_parse(&c, t, strlen(t), "r.csv"), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "r.csv:2: quote inside an unquoted field");
	CHECK_INT(rung_csv_parse(&c, "a\0b", 3, "n.csv"), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "n.csv:1: NUL byte in the text");
}

static void test_csv_number(void)
{
	double v;
	CHECK_INT(rung_csv_number(&v, "13,364,163"), 0);
	CHECK_NEAR(v, 13364163, 0);
	CHECK_INT(rung_csv_number(&v, "12,937,957.01"), 0);
	CHECK_NEAR(v, 12937957.01, 1e-6);
	CHECK_INT(rung_csv_number(&v, " -3.20 "), 0);
	CHECK_NEAR(v, -3.2, 1e-12);
	CHECK_INT(rung_csv_number(&v, "1e+06"), 0);
	CHECK_NEAR(v, 1e6, 0);
	CHECK_INT(rung_csv_number(&v, "999"), 0);
	CHECK_NEAR(v, 999, 0);
	/* absent or not a number: ncu's "nan", "n/a", "-", misplaced separators, hex */
	const char *bad[] = {"", "-", "n/a", "nan", "inf", "1,23", "12,3456", ",123", "1234,567", "0x10", "3 4", "1.5,0"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT(rung_csv_number(&v, bad[i]), RUNG_EINVAL);
		CHECK(isnan(v));
	}
}

static char *fixture(const char *name, size_t *len)
{
	char p[1024];
	snprintf(p, sizeof(p), FX "%s", name);
	char *t = t_slurp(p, len);
	CHECK(t != NULL);
	return t;
}

static int details(rung_ncu_details *d, const char *file)
{
	size_t n = 0;
	char *t = fixture(file, &n);
	int rc = t ? rung_ncu_details_parse(d, t, n, file) : -1;
	free(t);
	return rc;
}

static const rung_ncu_section *section(const rung_ncu_details *d, const char *name)
{
	for (int i = 0; i < d->nsections; i++)
		if (!strcmp(d->sections[i].name, name))
			return &d->sections[i];
	return NULL;
}

/* regblock2d: sections in ncu's order, metrics as printed, and each rule row
 * (named by section identifier) under the section it belongs to. */
static void test_details_regblock2d(void)
{
	rung_ncu_details d;
	CHECK_INT(details(&d, "regblock2d.details.csv"), 0);
	CHECK_STR(d.kernel, "sgemm");
	CHECK_STR(d.grid, "(32, 32, 1)");
	CHECK_STR(d.block, "(256, 1, 1)");
	CHECK_STR(d.cc, "9.0");
	const char *order[] = {"GPU Speed Of Light Throughput", "GPU Speed Of Light Roofline Chart", "Compute Workload Analysis",
			       "Memory Workload Analysis", "Memory Workload Analysis Chart", "Launch Statistics", "Occupancy",
			       "GPU and Memory Workload Distribution", "Source Counters"};
	int nm[] = {10, 0, 5, 12, 0, 17, 13, 10, 4}, nr[] = {1, 1, 1, 0, 1, 0, 1, 0, 2};
	CHECK_INT(d.nsections, 9);
	for (int i = 0; i < 9 && i < d.nsections; i++) {
		CHECK_STR(d.sections[i].name, order[i]);
		CHECK_INT(d.sections[i].nmetrics, nm[i]);
		CHECK_INT(d.sections[i].nrules, nr[i]);
	}
	const rung_ncu_metric *m = rung_ncu_metric_find(&d, "GPU Speed Of Light Throughput", "Elapsed Cycles");
	CHECK(m != NULL);
	if (m) {
		CHECK_STR(m->unit, "cycle");
		CHECK_STR(m->value, "13,364,163");
	}
	m = rung_ncu_metric_find(&d, NULL, "Registers Per Thread");
	CHECK(m && !strcmp(m->value, "130") && !strcmp(m->unit, "register/thread"));
	CHECK(rung_ncu_metric_find(&d, "Occupancy", "Elapsed Cycles") == NULL);
	const rung_ncu_section *s = section(&d, "GPU Speed Of Light Throughput");
	CHECK(s && s->nrules == 1);
	if (s && s->nrules) {
		CHECK_STR(s->rules[0].name, "SOLBottleneck");
		CHECK_STR(s->rules[0].type, "OPT");
		CHECK(!strncmp(s->rules[0].text, "This workload exhibits low compute throughput", 45));
		CHECK(isnan(s->rules[0].speedup));
	}
	s = section(&d, "Memory Workload Analysis Chart");
	CHECK(s && s->nrules == 1);
	if (s && s->nrules) {
		CHECK_STR(s->rules[0].name, "MemoryL2Compression");
		CHECK_STR(s->rules[0].speedup_type, "global");
		CHECK_NEAR(s->rules[0].speedup, 1.695, 1e-12);
	}
	s = section(&d, "Occupancy");
	CHECK(s && s->nrules == 1 && !strcmp(s->rules[0].speedup_type, "local"));
	CHECK_INT(d.skipped, 0);
	rung_ncu_details_clear(&d);
}

/* tf32: a broken report (grid (0, 0, 0), "nan" and "n/a" values, ERR rules,
 * one with a description of four lines in one quoted field). */
static void test_details_tf32(void)
{
	rung_ncu_details d;
	CHECK_INT(details(&d, "tf32.details.csv"), 0);
	CHECK_STR(d.grid, "(0, 0, 0)");
	const rung_ncu_metric *m = rung_ncu_metric_find(&d, NULL, "Elapsed Cycles");
	double v;
	CHECK(m && !strcmp(m->value, "nan") && rung_csv_number(&v, m->value) == RUNG_EINVAL);
	const rung_ncu_section *s = section(&d, "Source Counters");
	CHECK(s && s->nrules == 4);
	if (s && s->nrules == 4) {
		CHECK_STR(s->rules[0].type, "ERR");
		CHECK_STR(s->rules[0].text, "Required metric smsp__pcsamp_sample_count could not be found.");
		CHECK(!strncmp(s->rules[3].text, "<built-in function raise_exception> returned a result with an exception set\n", 76));
		CHECK(strstr(s->rules[3].text, "NvRules.py:3237") != NULL);
	}
	s = section(&d, "GPU Speed Of Light Roofline Chart");
	CHECK(s && s->nrules == 1 && !strncmp(s->rules[0].text, "float division by zero\n", 23));
	rung_ncu_details_clear(&d);
	/* softmax: the sections without charts */
	CHECK_INT(details(&d, "softmax.details.csv"), 0);
	CHECK_STR(d.kernel, "softmax");
	CHECK(section(&d, "Occupancy") && !strcmp(section(&d, "Occupancy")->rules[0].name, "AchievedOccupancy"));
	rung_ncu_details_clear(&d);
}

static char *dumps(json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	json_decref(j);
	return s;
}

static void test_details_json(void)
{
	const char *files[] = {"regblock2d.details.csv", "softmax.details.csv", "tf32.details.csv"};
	for (int f = 0; f < 3; f++) {
		rung_ncu_details d, e;
		CHECK_INT(details(&d, files[f]), 0);
		char *a = dumps(rung_ncu_details_to_json(&d));
		json_t *j = json_loads(a, 0, NULL);
		CHECK_INT(rung_ncu_details_from_json(&e, j), 0);
		json_decref(j);
		char *b = dumps(rung_ncu_details_to_json(&e));
		CHECK_STR(a, b);
		CHECK_INT(e.nsections, d.nsections);
		CHECK(strstr(a, "127.0.0.1") == NULL); /* nothing of the host in what is stored */
		free(a);
		free(b);
		rung_ncu_details_clear(&d);
		rung_ncu_details_clear(&e);
	}
	rung_ncu_details d;
	json_t *j = json_loads("{\"sections\":[{\"name\":\"X\",\"metrics\":[[\"a\",1,\"b\"]]}]}", 0, NULL);
	CHECK_INT(rung_ncu_details_from_json(&d, j), RUNG_EINVAL);
	json_decref(j);
	CHECK_INT(rung_ncu_details_from_json(&d, NULL), RUNG_EINVAL);
}

static void test_details_errors(void)
{
	rung_ncu_details d;
	const char *t = "\"ID\",\"Section Name\",\"Metric Name\",\"Metric Value\"\n\"0\",\"S\",\"m\",\"1\"\n";
	CHECK_INT(rung_ncu_details_parse(&d, t, strlen(t), "d.csv"), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "d.csv:1: no \"Metric Unit\" column in the header (is this ncu's --page details --csv?)");
	t = "\"ID\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
	    "\"0\",\"S\",\"m\",\"%\",\"1\"\n"
	    "\"0\",\"S\",\"m\",\"%\",\"1\",\"extra\"\n";
	CHECK_INT(rung_ncu_details_parse(&d, t, strlen(t), "d.csv"), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "d.csv:3: 6 fields, the header has 5");
	t = "\"ID\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
	    "\"0\",\"S\",\"\",\"\",\"\"\n";
	CHECK_INT(rung_ncu_details_parse(&d, t, strlen(t), "d.csv"), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "d.csv:2: a row of section \"S\" with neither a metric nor a rule");
	t = "\"ID\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
	CHECK_INT(rung_ncu_details_parse(&d, t, strlen(t), "d.csv"), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "d.csv:1: a header and no rows (ncu profiled no kernel?)");
	CHECK_INT(rung_ncu_details_parse(&d, "", 0, "d.csv"), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "d.csv:1: no header row (is this ncu's --page details --csv?)");
	/* a page cut inside a quoted rule: the line it was opened on */
	size_t n;
	char *full = fixture("regblock2d.details.csv", &n);
	char *cut = full ? strstr(full, "\"This workload exhibits") : NULL;
	CHECK(cut != NULL);
	if (cut) {
		cut[10] = 0;
		CHECK_INT(rung_ncu_details_parse(&d, full, strlen(full), "cut.csv"), RUNG_EINVAL);
		CHECK_STR(rung_error_last(), "cut.csv:12: unterminated quoted field (the quote opens on line 12)");
	}
	free(full);
	/* a second launch (another ID) is counted and left out; ncu's chatter before the header is skipped */
	t = "==PROF== Disconnected\n\"ID\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
	    "\"0\",\"S\",\"m\",\"%\",\"1\"\n\"1\",\"S\",\"m\",\"%\",\"2\"\n";
	CHECK_INT(rung_ncu_details_parse(&d, t, strlen(t), "d.csv"), 0);
	CHECK_INT(d.skipped, 1);
	CHECK(d.nsections == 1 && d.sections[0].nmetrics == 1 && !strcmp(d.sections[0].metrics[0].value, "1"));
	rung_ncu_details_clear(&d);
}

static int source(rung_ncu_source *s, const char *file)
{
	size_t n = 0;
	char *t = fixture(file, &n);
	int rc = t ? rung_ncu_source_parse(s, t, n, file) : -1;
	free(t);
	return rc;
}

static void test_source_regblock2d(void)
{
	rung_ncu_source s;
	CHECK_INT(source(&s, "regblock2d.source.csv"), 0);
	CHECK_STR(s.kernel, "sgemm");
	CHECK(s.has_inst && s.has_samples);
	CHECK_INT(s.nlines, 38);
	CHECK_INT(s.nstalls, 18); /* the all-samples stall_* columns, not the "(Not Issued)" ones */
	CHECK_STR(s.stalls[0], "barrier");
	CHECK_STR(s.stalls[s.nstalls - 1], "wait");
	if (s.nlines == 38) {
		/* pcs relative to the first line: nvdisasm's offsets */
		CHECK_INT(s.lines[0].pc, 0);
		CHECK_INT(s.lines[1].pc, 0x10);
		CHECK_INT(s.lines[37].pc, 37 * 0x10);
		CHECK_STR(s.lines[0].sass, "LDC R1, c[0x0][0x28]");
		CHECK_INT(s.lines[0].samples, 43);
		CHECK_INT(s.lines[0].samples_ni, 43);
		CHECK_INT(s.lines[0].inst, 8192);
		CHECK_INT(s.lines[0].thread_inst, 262144);
		int k = rung_ncu_line_top_stall(&s, &s.lines[0]);
		CHECK(k >= 0 && !strcmp(s.stalls[k], "no_inst"));
		CHECK_INT(s.lines[0].stall[k], 43);
		k = rung_ncu_line_top_stall(&s, &s.lines[2]); /* ULDC: 11 imc, 1 other */
		CHECK(k >= 0 && !strcmp(s.stalls[k], "imc"));
		CHECK_INT(rung_ncu_line_top_stall(&s, &s.lines[3]), -1); /* no samples */
	}
	rung_ncu_source_clear(&s);
}

/* tf32: the page has the sampling columns only; no "Instructions Executed" is absent, not 0 */
static void test_source_truncated(void)
{
	rung_ncu_source s;
	CHECK_INT(source(&s, "tf32.source.csv"), 0);
	CHECK(!s.has_inst && s.has_samples);
	CHECK_INT(s.nstalls, 0);
	CHECK_INT(s.nlines, 28);
	if (s.nlines) {
		CHECK_INT(s.lines[3].pc, 0x30);
		CHECK_STR(s.lines[3].sass, "ULDC.64 UR6, c[0x0][0x208]");
		CHECK_INT(s.lines[3].inst, -1);
		CHECK_INT(s.lines[3].samples, 0);
		CHECK(s.lines[3].stall == NULL);
	}
	rung_sass_counts c = {0};
	rung_sass_counts_add(&c, 0x30, 100, 3200);
	rung_ncu_agreement ag;
	rung_ncu_agree(&ag, &s, &c);
	CHECK_INT(ag.compared, 0);
	rung_sass_counts_clear(&c);
	rung_ncu_source_clear(&s);
}

/* The samples of a page summed, saturated: an imported page may hold any count (#30 D7). */
static void test_source_samples(void)
{
	rung_ncu_line l[3];
	memset(l, 0, sizeof(l));
	l[0].samples = INT64_MAX;
	l[1].samples = 5;
	l[2].samples = -1; /* absent */
	rung_ncu_source s;
	memset(&s, 0, sizeof(s));
	s.lines = l;
	s.nlines = 3;
	CHECK(rung_ncu_source_samples(&s) == INT64_MAX);
	l[0].samples = 7;
	CHECK(rung_ncu_source_samples(&s) == 12);
	s.nlines = 0;
	CHECK(rung_ncu_source_samples(&s) == 0);
}

static void test_source_json(void)
{
	const char *files[] = {"regblock2d.source.csv", "softmax.source.csv", "tf32.source.csv"};
	for (int f = 0; f < 3; f++) {
		rung_ncu_source s, e;
		CHECK_INT(source(&s, files[f]), 0);
		char *a = dumps(rung_ncu_source_to_json(&s));
		/* no absolute address is stored, branch targets included; immediates stay */
		CHECK(strstr(a, "0x7fefab7a") == NULL && strstr(a, "0x7f3d717a") == NULL && strstr(a, "0x7fc1437a") == NULL);
		if (f == 0)
			CHECK_CONTAINS(a, "\"@P0   BRA 0x300\"");
		if (f == 2)
			CHECK_CONTAINS(a, "LOP3.LUT R6, R6, 0x7fffffc, RZ, 0xc0, !PT");
		json_t *j = json_loads(a, 0, NULL);
		CHECK_INT(rung_ncu_source_from_json(&e, j), 0);
		json_decref(j);
		char *b = dumps(rung_ncu_source_to_json(&e));
		CHECK_STR(a, b);
		if (f == 0)
			CHECK_CONTAINS(a, "[0,\"LDC R1, c[0x0][0x28]\",43,43,8192,262144,{\"no_inst\":43}]");
		if (f == 2)
			CHECK_CONTAINS(a, "[48,\"ULDC.64 UR6, c[0x0][0x208]\",0,0,null,null,{}]");
		free(a);
		free(b);
		rung_ncu_source_clear(&s);
		rung_ncu_source_clear(&e);
	}
}

static void test_source_errors(void)
{
	rung_ncu_source s;
	const char *t = "\"Kernel Name\",\"k\",\n\"Address\",\"Source\",\"Instructions Executed\"\n"
			"\"0x100\",\"NOP\",\"1\"\n\"zz\",\"NOP\",\"1\"\n";
	CHECK_INT(rung_ncu_source_parse(&s, t, strlen(t), "s.csv"), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "s.csv:4: address \"zz\" is not a hex number 0x...");
	t = "\"Kernel Name\",\"k\",\n\"Section Name\",\"Metric Name\"\n";
	CHECK_INT(rung_ncu_source_parse(&s, t, strlen(t), "s.csv"), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "s.csv:2: no header row starting with \"Address\" (is this ncu's --page source --csv?)");
	t = "\"Address\",\"Source\"\n\"0x100\",\"NOP\"\n\"0x90\",\"NOP\"\n";
	CHECK_INT(rung_ncu_source_parse(&s, t, strlen(t), "s.csv"), RUNG_EINVAL);
	CHECK_STR(rung_error_last(), "s.csv:3: address 0x90 below the first line's 0x100");
	/* branch targets inside the function become offsets; numbers in brackets stay */
	t = "\"Address\",\"Source\"\n\"0x7f00\",\"  @P0 BRA 0x7f10\"\n\"0x7f10\",\"LDC R1, c[0x0][0x7f00]\"\n"
	    "\"0x7f20\",\" BRA 0x7f20 \"\n";
	CHECK_INT(rung_ncu_source_parse(&s, t, strlen(t), "s.csv"), 0);
	CHECK(s.nlines == 3 && !strcmp(s.lines[0].sass, "@P0 BRA 0x10") && !strcmp(s.lines[2].sass, "BRA 0x20"));
	CHECK(s.nlines == 3 && !strcmp(s.lines[1].sass, "LDC R1, c[0x0][0x7f00]"));
	rung_ncu_source_clear(&s);
	/* a second kernel's page is left out */
	t = "\"Kernel Name\",\"a\",\n\"Address\",\"Source\",\"Instructions Executed\"\n\"0x100\",\"NOP\",\"1,024\"\n"
	    "\"Kernel Name\",\"b\",\n\"Address\",\"Source\"\n\"0x0\",\"EXIT\"\n";
	CHECK_INT(rung_ncu_source_parse(&s, t, strlen(t), "s.csv"), 0);
	CHECK_INT(s.nlines, 1);
	CHECK_INT(s.lines[0].inst, 1024);
	CHECK(s.skipped > 0);
	rung_ncu_source_clear(&s);
}

/* ncu's "Instructions Executed" against rung's per-PC counts: one pc differs,
 * one ncu line rung has no record of, one rung record ncu does not list */
static void test_agree(void)
{
	rung_ncu_source s;
	CHECK_INT(source(&s, "regblock2d.source.csv"), 0);
	rung_sass_counts c = {0};
	for (int i = 0; i < s.nlines; i++) {
		if (i == 5)
			continue;
		rung_sass_counts_add(&c, s.lines[i].pc, (uint64_t)s.lines[i].inst + (i == 9 ? 32 : 0), 0);
	}
	rung_sass_counts_add(&c, 0x4000, 7, 0);
	rung_sass_counts_sort(&c);
	rung_ncu_agreement ag;
	rung_ncu_agree(&ag, &s, &c);
	CHECK_INT(ag.compared, 37);
	CHECK_INT(ag.agree, 36);
	CHECK_INT(ag.first_pc, 0x90);
	CHECK_INT(ag.ncu_only, 1);
	CHECK_INT(ag.rung_only, 1);
	rung_sass_counts_clear(&c);
	rung_ncu_source_clear(&s);
}

int main(void)
{
	T_RUN(test_csv_fields);
	T_RUN(test_csv_errors);
	T_RUN(test_csv_number);
	T_RUN(test_details_regblock2d);
	T_RUN(test_details_tf32);
	T_RUN(test_details_json);
	T_RUN(test_details_errors);
	T_RUN(test_source_regblock2d);
	T_RUN(test_source_truncated);
	T_RUN(test_source_json);
	T_RUN(test_source_samples);
	T_RUN(test_source_errors);
	T_RUN(test_agree);
	return t_done();
}
