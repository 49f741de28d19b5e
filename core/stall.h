/* Warp stall samples of one kernel (`rung profile --stalls`): CUPTI PC
 * sampling (gpu/cupti_pcsamp.h) gives, per PC offset of the function (the
 * address nvdisasm prints, as rung_sass_line.pc), how many samples found a
 * warp there and why it was not issuing, by stall reason. Pure C.
 *
 * Reasons are kept as CUPTI names them without the common prefix
 * "smsp__pcsamp_warps_issue_stalled_": "long_scoreboard", "barrier",
 * "selected" (the warp issued), ... Each reason R also comes as
 * "R_not_issued": the samples of R at which no warp issued. A PC's samples
 * are the sum of its reasons without the _not_issued ones, as ncu's
 * "Warp Stall Sampling (All Samples)" column. Labels are ncu's
 * ("Stall Long Scoreboard" shows as "long scoreboard").
 *
 * JSON: {"function":"sgemm","period":11,"total":N,"dropped":N,"kernels":1,
 *        "reasons":["barrier",...],"records":[[pc,ri,count,ri,count,...],...]} */
#ifndef RUNG_CORE_STALL_H
#define RUNG_CORE_STALL_H

#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/sass.h"

#define RUNG_STALL_MAX_REASONS 64

typedef struct {
	char func[512];   /* mangled kernel name */
	int nreasons;
	char reasons[RUNG_STALL_MAX_REASONS][64];
	int n;            /* pcs */
	int64_t *pc;      /* n, ascending */
	uint64_t *counts; /* n x nreasons, row-major (owned) */
	uint64_t total;   /* samples of the function (sum over pcs, all-samples reasons) */
	uint64_t dropped; /* samples CUPTI dropped (buffer full) */
	int period;       /* log2 of the sampling interval in cycles; 0 unknown */
	double ms;        /* wall time of the sampling run, NAN unknown */
} rung_stall;

void rung_stall_clear(rung_stall *s);
/* The index of reason name (CUPTI's full name or the short one), added when
 * new. RUNG_EINVAL past RUNG_STALL_MAX_REASONS. */
int rung_stall_reason(rung_stall *s, const char *name);
/* Adds count samples of reason ri at pc (records of several passes sum). */
int rung_stall_add(rung_stall *s, int64_t pc, int ri, uint64_t count);
/* Sorts by pc, merges equal pcs and recomputes total. */
int rung_stall_finish(rung_stall *s);
/* The row of pc (index into pc[]), or -1. */
int rung_stall_find(const rung_stall *s, int64_t pc);
/* True for the _not_issued reasons (not part of a pc's samples). */
int rung_stall_is_not_issued(const char *reason);
/* Samples at row i (sum of its all-samples reasons). */
uint64_t rung_stall_row_total(const rung_stall *s, int i);
/* The reason with the most samples at row i (all-samples reasons only), -1 none. */
int rung_stall_row_top(const rung_stall *s, int i);
/* ncu's label of a short reason: "long scoreboard", "math pipe throttle",
 * "selected (issued)"; unknown ones with '_' as ' '. */
void rung_stall_label(char *buf, size_t len, const char *reason);

/* The kernel's reasons by samples, most first (all-samples reasons with any
 * samples): idx[] and their sums. Returns how many (<= max). */
int rung_stall_top(int *idx, uint64_t *sum, int max, const rung_stall *s);
/* The rows (indices into pc[]) with the most samples, most first (ties: the
 * lower pc); returns how many (<= max; 0 out of memory too). */
int rung_stall_top_rows(int *rows, int max, const rung_stall *s);

/* Per line of the listing: samples[i] = the samples at line i's pc, -1 for
 * lines without a record; top[i] (may be NULL) = its top reason or -1.
 * func: the function the samples belong to (-1: any). Returns lines annotated. */
int rung_stall_annotate(int64_t *samples, int *top, const rung_sass *l, int func, const rung_stall *s);

json_t *rung_stall_to_json(const rung_stall *s);
int rung_stall_from_json(rung_stall *s, const json_t *j); /* RUNG_EINVAL when malformed */

/* The summary as text bars:
 *   "  long scoreboard       41.2%  ######################"
 * max reasons, bars of width columns for the largest share. */
void rung_stall_print_bars(FILE *f, const rung_stall *s, int max, int width);

/* The hottest lines of the listing by samples:
 *   "  0x0090   12345  18.2%  long scoreboard 71%   LDS R4, [R2]"
 * (share of the kernel's samples; the line's top reason and its share of
 * the line). */
void rung_stall_print_hot(FILE *f, const rung_sass *l, int func, const rung_stall *s, int max);

#endif
