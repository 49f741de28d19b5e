/* SASS normalization (for diffs between versions) and instruction mix.
 * Input is an nvdisasm listing (`nvdisasm -c`, default labels); cuobjdump-style
 * hex encoding comments (0x...) are stripped too. Pure text, no CUDA.
 * Line info (`nvdisasm -g` or `-gi`: `//## File "k.cu", line 27` before the
 * instructions it covers, `... inlined at "k.cu", line 104` for inlined code)
 * is read into each instruction's source location and leaves the normalized
 * text unchanged. core/sass_src.h maps lines to source lines. */
#ifndef RUNG_CORE_SASS_H
#define RUNG_CORE_SASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	RUNG_SASS_RENAME_REGS = 1 << 0, /* R7 -> r0, P3 -> p0, UR4 -> ur0, UP1 -> up0, B2 -> b0 by first use, per function */
};

typedef enum {
	RUNG_SASS_FUNC,  /* "_Z5sgemmiiiPKfS0_Pf:" starts a function */
	RUNG_SASS_LABEL, /* ".L_x_0:" (renumbered per function by first appearance) */
	RUNG_SASS_INST,  /* "@!P0 BRA `(.L_x_1)" */
} rung_sass_kind;

/* A source location from the line info: file indexes rung_sass.files; file -1
 * and line 0 where the listing gives none. */
typedef struct {
	int file;
	int line; /* 1-based */
} rung_sass_loc;

typedef struct {
	rung_sass_kind kind;
	int func;   /* index into rung_sass.funcs */
	int64_t pc; /* original offset (nvdisasm's address comment, 0x40 for 0040) for instructions, -1 otherwise */
	const char *text; /* normalized text, NUL-terminated, inside rung_sass's buffer */
	/* instructions with line info (else both {-1, 0}): src is where the code is
	 * written (an inlined helper's own line), call the outermost location, in
	 * the function being listed (the call site of inlined code; src otherwise).
	 * Only `-gi` listings name call sites: with `-g` call is src. */
	rung_sass_loc src, call;
} rung_sass_line;

typedef struct {
	int nlines;
	rung_sass_line *lines;
	int nfuncs;
	char **funcs; /* function names (mangled), owned */
	char *buf;    /* storage of all line texts */
	int nfiles;
	char **files; /* source file names as the line info writes them (raw text from the repository: show inert), owned */
} rung_sass;

/* Normalizes a listing: drops header, section and directive lines, the
 * address and encoding comments, the trailing self-branch (`.L_x_7:` then
 * `BRA `(.L_x_7)`) and NOP padding after it; renumbers labels per function;
 * collapses whitespace and drops the trailing " ;". Returns 0 or RUNG_ENOMEM. */
int rung_sass_normalize(rung_sass *out, const char *listing, unsigned flags);
void rung_sass_clear(rung_sass *s);

/* Normalizes two listings at once (the second on its own thread), as the
 * compare screen's diff needs both. On error both are freed; returns the error. */
int rung_sass_normalize_pair(rung_sass *a, rung_sass *b, const char *la, const char *lb, unsigned flags);

/* The index of the function named `name`, or -1. */
int rung_sass_find_func(const rung_sass *s, const char *name);

/* The normalized text, one line per entry ("name:" lines for functions, labels
 * as ".L_x_0:", instructions indented by two spaces). func < 0: all functions.
 * Caller frees. NULL on ENOMEM. */
char *rung_sass_text(const rung_sass *s, int func);

/* Instruction-mix classes: id, name. LDG/STG by access width (.32 covers 32 bits
 * and narrower). TOTAL counts every instruction kept by the normalization. */
#define RUNG_SASS_MIX_LIST(_) \
	_(FFMA, "FFMA") \
	_(FADD, "FADD") \
	_(FMUL, "FMUL") \
	_(HMMA, "HMMA") \
	_(HGMMA, "HGMMA") \
	_(IMAD, "IMAD") \
	_(LDG32, "LDG.32") \
	_(LDG64, "LDG.64") \
	_(LDG128, "LDG.128") \
	_(STG32, "STG.32") \
	_(STG64, "STG.64") \
	_(STG128, "STG.128") \
	_(LDS, "LDS") \
	_(STS, "STS") \
	_(LDSM, "LDSM") \
	_(BAR, "BAR") \
	_(LDL, "LDL") \
	_(STL, "STL") \
	_(BRA, "BRA") \
	_(TOTAL, "total")

typedef enum {
#define RUNG_SASS_MIX_ENUM(id, name) RUNG_MIX_##id,
	RUNG_SASS_MIX_LIST(RUNG_SASS_MIX_ENUM)
#undef RUNG_SASS_MIX_ENUM
	RUNG_MIX_COUNT
} rung_mix_id;

typedef struct {
	int64_t n[RUNG_MIX_COUNT];
} rung_sass_mix;

const char *rung_mix_name(rung_mix_id id); /* "LDG.128" */

/* The class of one instruction's text ("@P0 LDG.E.128 R4, desc[UR4][R2.64]"), or -1
 * when it is in none of the classes (it still counts in TOTAL). */
int rung_sass_classify(const char *inst);

/* Counts the instructions of one function (func >= 0) or all (func < 0). */
void rung_sass_count(rung_sass_mix *out, const rung_sass *s, int func);

/* The classes of a mix comparison of a against b worth a line: those either
 * side has, in order (TOTAL last), into out (RUNG_MIX_COUNT at most); returns
 * how many. The compare screen and `rung compare` show these. */
int rung_mix_present(rung_mix_id *out, const rung_sass_mix *a, const rung_sass_mix *b);

#endif
