/* SASS lines by CUDA source line, from the line info of a listing
 * (rung_sass_line.src/.call, core/sass.h): which file is the kernel's, which
 * source line each instruction belongs to, and per-SASS-line values (counts,
 * stall samples) summed per source line. Pure C. */
#ifndef RUNG_CORE_SASS_SRC_H
#define RUNG_CORE_SASS_SRC_H

#include <stdint.h>

#include "core/sass.h"

/* The index of file `name` in s->files: the same name, else the only one with
 * the same last path component ("sgemm.cu" finds "/tmp/t/sgemm.cu" and
 * "/tmp/t/sgemm.cu" finds "sgemm.cu"); -1 when none (or several). */
int rung_sass_find_file(const rung_sass *s, const char *name);

/* The file the instructions of func (-1: all) come from at their outermost
 * location (the file that defines the kernel), the one most of them name;
 * -1 when the listing has no line info. */
int rung_sass_main_file(const rung_sass *s, int func);

/* The line of `file` that SASS line l belongs to: its own (src) where that is
 * in file, else the line in file it was inlined at (call); 0 when neither is
 * (no line info, another file, not an instruction). */
int rung_sass_line_in(const rung_sass_line *l, int file);

/* Sums a per-SASS-line value into per-source-line totals: out[k] (k < nsrc,
 * for source line k + 1) is the sum of v[i] >= 0 over the SASS lines i of
 * func (-1: all) that belong to that line of file (rung_sass_line_in); -1
 * where none of them has a value (absent is not zero). v NULL counts the
 * instructions (each 1). Lines beyond nsrc are left out. Returns how many
 * SASS lines were summed. The detail screen's split view sums instruction
 * counts with it, and stall samples per reason the same way. */
int rung_sass_sum_by_source(int64_t *out, int nsrc, const rung_sass *s, int file, int func, const int64_t *v);

/* The indices of the SASS lines of func (-1: all) that belong to source line
 * `line` of file, in listing order, into idx (at most max); returns how many
 * there are (which may be more than max). */
int rung_sass_lines_of(int *idx, int max, const rung_sass *s, int file, int func, int line);

/* The source file name of loc ("" without one). */
const char *rung_sass_file_name(const rung_sass *s, rung_sass_loc loc);

#endif
