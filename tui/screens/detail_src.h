/* The detail screen's source view (`l`): the version's kernel source beside
 * the SASS of the selected source line, from nvdisasm's line info
 * (core/sass_src.h), with the stored per-PC counts and warp stall samples
 * summed per source line (and the top stall reason of each line).
 * A compile error, a sanitizer finding or an assert names the line to open at.
 * Text from the repository stays raw here and is made inert when drawn. */
#ifndef RUNG_TUI_SCREENS_DETAIL_SRC_H
#define RUNG_TUI_SCREENS_DETAIL_SRC_H

#include <stdbool.h>
#include <stdint.h>

#include "core/result.h"
#include "tui/lines.h"
#include "tui/model/model.h"
#include "tui/model/prof.h"

#define RUNG_SRCVIEW_ERRS 16

typedef struct {
	char *src;        /* the kernel source at the version (raw) */
	int nsrc;         /* its lines */
	const char **lp;  /* line starts in src */
	int *ll;          /* line lengths */
	bool have_sass;   /* a (below) holds the listing */
	rung_sass_annot a;
	int file;         /* the kernel's file in a.s.files, -1 without line info */
	char file_name[128]; /* its last path component ("" unknown) */
	int64_t *ninst;   /* per source line: SASS instructions (-1: none) */
	int64_t *count;   /* per source line: warp instructions executed (-1: none); NULL without counts */
	int64_t *stalls;  /* per source line: warp stall samples (-1: none); NULL without stall samples */
	int *stall_top;   /* per source line: its top stall reason (index into a.stall.reasons), -1 none */
	char note[256];   /* why there is no SASS or no line info ("" when there is) */
	unsigned drop;    /* metric columns left out of the source pane (RUNG_SRC_DROP_*; rung_srcview_fit) */
	int nerr;         /* compile errors at a line of the kernel, in log order */
	struct {
		int line;
		char msg[240];
	} err[RUNG_SRCVIEW_ERRS];
} rung_srcview;

/* Loads hash's source, SASS and counts; r (may be NULL) gives the compile log.
 * 0, or negative when there is no source (message set). sv is always safe to clear. */
int rung_srcview_load(rung_srcview *sv, rung_model *m, const char *hash, const rung_result *r);
void rung_srcview_clear(rung_srcview *sv);

/* The line (1-based) the view opens at, and why, into why: the first compile
 * error at a kernel line, a sanitizer finding's line, a `file:line` in a
 * failed rung's reason or the kernel's output (an assert), for a failed check
 * the first line that stores to global memory; else the line that executed
 * the most (counts) or has the most SASS. 1 when nothing says. */
int rung_srcview_jump(const rung_srcview *sv, const rung_result *r, char *why, int len);

/* The source pane's metric columns, in the order they give way to the code
 * on a narrow pane (the line number always stays). */
enum {
	RUNG_SRC_DROP_TOP = 1,    /* the top stall's name */
	RUNG_SRC_DROP_COUNT = 2,  /* instructions executed and their % */
	RUNG_SRC_DROP_SASS = 4,   /* SASS instructions per line */
	RUNG_SRC_DROP_STALLS = 8, /* stall samples and their % */
};
/* The columns to leave out so that a pane `width` wide keeps at least 40
 * columns for the code (all of them on a pane too narrow for that). */
unsigned rung_srcview_fit(const rung_srcview *sv, int width);

/* The source pane: one line per source line (tag: the line number); the
 * code is each line's last segment (the others: rung_line_draw_gutter). */
void rung_srcview_source_lines(rung_lines *l, const rung_srcview *sv);
/* Its column header. */
void rung_srcview_source_header(rung_lines *l, const rung_srcview *sv);
/* The SASS pane for source line `line`: a header, the compile errors at the
 * line, then its SASS lines (pc, count, instruction; code inlined from
 * elsewhere names where it is written), at most max lines in all. On a pane
 * `width` wide the stall names, then the counts, give way to the instruction. */
void rung_srcview_sass_lines(rung_lines *l, const rung_srcview *sv, int line, int max, int width);

/* The line number an error message points at: "f.cu(12): error" or
 * "f.cu:12: ..."; 0 if none. name (may be NULL) gets the file name before it. */
int rung_error_line(const char *msg, char *name, int len);

#endif
