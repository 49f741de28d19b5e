/* Nsight Compute's pages read back (`rung profile --ncu` imports its report
 * with `ncu --import R --page details --csv` and `--page source --csv
 * --print-source sass`): the sections of the details page as tables of
 * metrics with the rules (OPT/INF/WRN/ERR) under their section, and the
 * per-instruction figures of the source page by pc. Pure C, on core/csv.h.
 *
 * Stored beside the result (vcs/prof_store.h) as JSON, nothing in it
 * path- or host-dependent, so recorded results can carry it:
 *   "ncu_sections" {"format":1,"kernel","grid","block","cc",
 *                   "sections":[{"name","metrics":[[name,unit,value]...],
 *                                "rules":[{"name","type","text","speedup_type","speedup"}]}]}
 *   "ncu_source"   {"format":1,"kernel","stalls":[reason...],
 *                   "has":{"samples","inst"},
 *                   "lines":[[pc,sass,samples,samples_not_issued,inst,thread_inst,{reason:samples}]...]}
 * where pc is relative to the first line (nvdisasm's /0000/ offsets,
 * core/sass_prof.h), values as ncu prints them ("13,364,163"), an absent
 * figure null, and the stall object holds the non-zero stall_* columns
 * (all samples) by ncu's reason name ("long_sb", "barrier", ...). */
#ifndef RUNG_CORE_NCU_H
#define RUNG_CORE_NCU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/sass_prof.h"

typedef struct {
	char *name, *unit, *value; /* as ncu prints them */
} rung_ncu_metric;

typedef struct {
	char *name, *type, *text; /* "SOLBottleneck", "OPT", the description */
	char *speedup_type;       /* "global", "local" or "" */
	double speedup;           /* estimated speedup in percent; NAN when none */
} rung_ncu_rule;

typedef struct {
	char *name; /* "GPU Speed Of Light Throughput" */
	int nmetrics, nrules;
	rung_ncu_metric *metrics;
	rung_ncu_rule *rules;
} rung_ncu_section;

typedef struct {
	char kernel[256], grid[64], block[64], cc[16];
	int nsections;
	rung_ncu_section *sections;
	int skipped; /* rows of other launches (another ID) left out */
} rung_ncu_details;

/* The details page (CSV). The header names the columns; "Section Name",
 * "Metric Name", "Metric Unit" and "Metric Value" are required. A rule row
 * (no metric, a rule) names its section by identifier ("SpeedOfLight"):
 * it joins the section of that title. Errors: "<name>:<line>: ...". */
int rung_ncu_details_parse(rung_ncu_details *out, const char *text, size_t len, const char *name);
void rung_ncu_details_clear(rung_ncu_details *d);
json_t *rung_ncu_details_to_json(const rung_ncu_details *d);
int rung_ncu_details_from_json(rung_ncu_details *d, const json_t *j); /* RUNG_EINVAL when malformed */
/* The metric of that name in the section of that title, or NULL. */
const rung_ncu_metric *rung_ncu_metric_find(const rung_ncu_details *d, const char *section, const char *metric);
/* One line of the speed-of-light figures, as far as the page has them:
 * "compute (SM) 39.04%, memory 45.29% (DRAM 2.10%, L1/TEX 46.77%, L2 7.76%),
 * duration 6.75 ms"; "" when the page has none. */
void rung_ncu_sol_line(char *buf, size_t len, const rung_ncu_details *d);
/* The section title of an identifier ("SpeedOfLight" -> "GPU Speed Of Light
 * Throughput"), or NULL when rung does not know it. */
const char *rung_ncu_section_title(const char *ident);

typedef struct {
	int64_t pc;              /* relative to the first line */
	char *sass;              /* the instruction, trimmed */
	int64_t samples, samples_ni; /* warp stall samples (all, not issued); -1 absent */
	int64_t inst, thread_inst;   /* instructions executed (warp, thread level); -1 absent */
	int64_t *stall;          /* per reason of the page (nstalls), -1 absent; NULL without stall columns */
} rung_ncu_line;

typedef struct {
	char kernel[256];
	int nstalls;
	char **stalls; /* reason names, "stall_" dropped: "long_sb" */
	bool has_samples, has_inst;
	int nlines;
	rung_ncu_line *lines;
	int skipped; /* lines of further kernels left out */
} rung_ncu_source;

/* The source page with --print-source sass (CSV): a "Kernel Name" row, then
 * a header with "Address" and "Source" and the figures, then a row per
 * instruction. Columns missing from the header are absent (-1), not zero. */
int rung_ncu_source_parse(rung_ncu_source *out, const char *text, size_t len, const char *name);
void rung_ncu_source_clear(rung_ncu_source *s);
json_t *rung_ncu_source_to_json(const rung_ncu_source *s);
int rung_ncu_source_from_json(rung_ncu_source *s, const json_t *j);
/* The warp stall samples of every line summed (absent ones as 0), saturated
 * at INT64_MAX: a page read back from the store or an import may hold any
 * count. */
int64_t rung_ncu_source_samples(const rung_ncu_source *s);
/* The reason with the most samples on line l (-1 when none is above zero). */
int rung_ncu_line_top_stall(const rung_ncu_source *s, const rung_ncu_line *l);

/* ncu's "Instructions Executed" against rung's own per-PC counts (`rung
 * profile --sass`): compared = pcs that have both, agree = those equal,
 * ncu_only = ncu lines executed (inst > 0) that rung has no record of,
 * rung_only = rung records above zero at a pc ncu does not list. */
typedef struct {
	int compared, agree, ncu_only, rung_only;
	int64_t first_pc; /* the first pc that differs, -1 when none */
} rung_ncu_agreement;
void rung_ncu_agree(rung_ncu_agreement *out, const rung_ncu_source *s, const rung_sass_counts *c);

#endif
