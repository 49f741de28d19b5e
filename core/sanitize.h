/* The sanitize rung's pure part: the compute-sanitizer tools rung runs, the
 * kinds of finding, and the parser of compute-sanitizer's text report (its
 * --log-file) into findings with file:line, attributed to the candidate, the
 * reference or the host (docs/CHECKS.md, "The sanitize rung"). No process is
 * started here: gpu/sanitize.c runs the tool and hands the log to
 * rung_san_parse(). */
#ifndef RUNG_CORE_SANITIZE_H
#define RUNG_CORE_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The tools, as one list macro: id, name (the --tool argument). Only these
 * names ever reach compute-sanitizer's command line. */
#define RUNG_SAN_TOOL_LIST(_) \
	_(MEMCHECK, "memcheck") \
	_(RACECHECK, "racecheck") \
	_(SYNCCHECK, "synccheck") \
	_(INITCHECK, "initcheck")

typedef enum {
#define RUNG_SAN_TOOL_ENUM(id, name) RUNG_SAN_##id,
	RUNG_SAN_TOOL_LIST(RUNG_SAN_TOOL_ENUM)
#undef RUNG_SAN_TOOL_ENUM
	RUNG_NSAN_TOOLS
} rung_san_tool;

#define RUNG_SAN_BIT(t) (1u << (t))
/* `--sanitize` with no value: memcheck and racecheck. */
#define RUNG_SAN_DEFAULT (RUNG_SAN_BIT(RUNG_SAN_MEMCHECK) | RUNG_SAN_BIT(RUNG_SAN_RACECHECK))
#define RUNG_SAN_ALL ((1u << RUNG_NSAN_TOOLS) - 1)

const char *rung_san_tool_name(rung_san_tool t); /* "memcheck" */
/* Parses "memcheck, racecheck" (comma or whitespace separated; a name given
 * twice counts once) into a mask of RUNG_SAN_BIT()s. RUNG_EINVAL with
 * "unknown tool 'x' (expected memcheck, racecheck, synccheck, initcheck)" or
 * "no tool given"; the message names no file (the caller adds file:line). */
int rung_san_tools_parse(unsigned *mask, const char *text);
/* "memcheck, racecheck" (in list order) into buf. */
void rung_san_tools_format(char *buf, size_t len, unsigned mask);

/* What a finding is: id, name (JSON and screen). */
#define RUNG_SAN_KIND_LIST(_) \
	_(RACE, "race") \
	_(INVALID_GLOBAL_READ, "invalid-global-read") \
	_(INVALID_GLOBAL_WRITE, "invalid-global-write") \
	_(INVALID_SHARED_READ, "invalid-shared-read") \
	_(INVALID_SHARED_WRITE, "invalid-shared-write") \
	_(INVALID_LOCAL_READ, "invalid-local-read") \
	_(INVALID_LOCAL_WRITE, "invalid-local-write") \
	_(INVALID_ACCESS, "invalid-access") \
	_(MISALIGNED, "misaligned") \
	_(UNINITIALIZED_READ, "uninitialized-read") \
	_(SYNC_HAZARD, "sync-hazard") \
	_(DEVICE_EXCEPTION, "device-exception") \
	_(LEAK, "leak") \
	_(API_ERROR, "api-error") \
	_(OTHER, "other")

typedef enum {
#define RUNG_SAN_KIND_ENUM(id, name) RUNG_SANK_##id,
	RUNG_SAN_KIND_LIST(RUNG_SAN_KIND_ENUM)
#undef RUNG_SAN_KIND_ENUM
	RUNG_NSAN_KINDS
} rung_san_kind;

/* Whose code it is in: id, name. Findings in rung's own kernels (names that
 * start with "rung_") are dropped by the parser and only counted. */
#define RUNG_SAN_WHERE_LIST(_) \
	_(CANDIDATE, "candidate") \
	_(REFERENCE, "reference") \
	_(HOST, "host")

typedef enum {
#define RUNG_SAN_WHERE_ENUM(id, name) RUNG_SANW_##id,
	RUNG_SAN_WHERE_LIST(RUNG_SAN_WHERE_ENUM)
#undef RUNG_SAN_WHERE_ENUM
	RUNG_NSAN_WHERE
} rung_san_where;

const char *rung_san_kind_name(rung_san_kind k);
const char *rung_san_where_name(rung_san_where w);
/* Names back; RUNG_EINVAL when unknown. */
int rung_san_tool_parse(rung_san_tool *out, const char *name);
int rung_san_kind_parse(rung_san_kind *out, const char *name);
int rung_san_where_parse(rung_san_where *out, const char *name);

/* Host-side kinds (API errors, leaks: the host code is rung's own worker)
 * never fail a version; every device kind does. */
bool rung_san_kind_is_host(rung_san_kind k);

/* One finding. Reports that differ only by thread, block or address (memcheck
 * prints one per thread) are merged: count says how many (for a race, the
 * hazards). Strings are cut to fit and always terminated. */
typedef struct {
	rung_san_tool tool;
	rung_san_kind kind;
	rung_san_where where;
	char kernel[96];   /* the kernel, as printed without parameters: "softmax", "sgemm<128, 8>" */
	char file[128];    /* where it happened, as printed ("k.cu"); "" without -lineinfo */
	int line;          /* 0 when unknown */
	int64_t count;
	char message[224]; /* "race between read at k.cu:10 and write at k.cu:13 (25776 hazards)" */
} rung_san_finding;

#define RUNG_SAN_MAX_FINDINGS 8   /* kept with a result */
#define RUNG_SAN_PARSE_MAX 64     /* distinct findings one parse keeps */
#define RUNG_SAN_LINE_MAX 2048    /* a longer log line is cut */

/* How a tool's sanitize run covered the benchmark shape (docs/CHECKS.md,
 * "At the benchmark shape"): id, name (JSON). NONE: the tool did not run. */
#define RUNG_SAN_BENCH_LIST(_) \
	_(NONE, "none") \
	_(COVERED, "covered")       /* a run of its own at the benchmark shape */ \
	_(SAME, "same-shape")       /* the benchmark shape is the smallest: one run covers both */ \
	_(OVER, "over-limit")       /* the bench-shape run went past the cost limit: not covered there */ \
	_(NOT_NEEDED, "not-needed") /* the check-shape run has a finding in the candidate already */ \
	_(OFF, "off")               /* the limit is 0 ($RUNG_SANITIZE_BENCH_LIMIT=0): not covered there */

typedef enum {
#define RUNG_SAN_BENCH_ENUM(id, name) RUNG_SANB_##id,
	RUNG_SAN_BENCH_LIST(RUNG_SAN_BENCH_ENUM)
#undef RUNG_SAN_BENCH_ENUM
	RUNG_NSAN_BENCH
} rung_san_bench;
const char *rung_san_bench_name(rung_san_bench b);
int rung_san_bench_parse(rung_san_bench *out, const char *name); /* RUNG_EINVAL when unknown */

/* The names a report is matched against: the candidate's and the reference's
 * entry (as written, e.g. "sgemm<128,8>", or mangled) and source file. NULL or
 * "" when absent. */
typedef struct {
	const char *kernel, *kernel_file;
	const char *ref, *ref_file;
} rung_san_names;

typedef struct {
	rung_san_tool tool;
	int n;
	rung_san_finding f[RUNG_SAN_PARSE_MAX]; /* in the order first reported */
	int64_t dropped;      /* distinct findings beyond RUNG_SAN_PARSE_MAX */
	int64_t own;          /* reports in rung's own kernels (rung_*), ignored */
	bool have_summary;    /* "ERROR SUMMARY: N errors" or "RACECHECK SUMMARY: ..." seen */
	int64_t summary_errors; /* N of ERROR SUMMARY (or the errors of RACECHECK SUMMARY); -1 when not seen */
	char tool_error[224]; /* compute-sanitizer's own complaint ("Internal Sanitizer Error: ..."), or "" */
	int lines;            /* lines read */
} rung_san_report;

/* Parses compute-sanitizer's text report (the --log-file of one tool run;
 * every line may carry the "========= " prefix). Unknown lines are skipped;
 * a truncated or garbage log gives what could be read (have_summary false).
 * Never fails: text NULL or empty gives an empty report. */
void rung_san_parse(rung_san_report *out, rung_san_tool tool, const char *text, size_t len,
		    const rung_san_names *names);

/* "sgemm" from "void sgemm<128, 8>(const float *, float *)", "_Z5sgemmPfS_" or
 * "sgemm<128,8>": the identifier that names the kernel (for matching). */
void rung_san_base_name(char *buf, size_t len, const char *name);

/* "racecheck: race between read at k.cu:10 and write at k.cu:13 (25776 hazards)" */
void rung_san_describe(char *buf, size_t len, const rung_san_finding *f);

#endif
