#include "core/sass_src.h"

#include <stdlib.h>
#include <string.h>

static const char *base_name(const char *p)
{
	const char *b = strrchr(p, '/');
	return b ? b + 1 : p;
}

int rung_sass_find_file(const rung_sass *s, const char *name)
{
	if (!name || !*name)
		return -1;
	for (int i = 0; i < s->nfiles; i++)
		if (strcmp(s->files[i], name) == 0)
			return i;
	int found = -1;
	const char *b = base_name(name);
	for (int i = 0; i < s->nfiles; i++) {
		if (strcmp(base_name(s->files[i]), b) != 0)
			continue;
		if (found >= 0)
			return -1; /* ambiguous */
		found = i;
	}
	return found;
}

int rung_sass_main_file(const rung_sass *s, int func)
{
	if (s->nfiles <= 0)
		return -1;
	int *n = calloc((size_t)s->nfiles, sizeof(*n));
	if (!n)
		return -1;
	for (int i = 0; i < s->nlines; i++) {
		const rung_sass_line *l = &s->lines[i];
		if (l->kind == RUNG_SASS_INST && (func < 0 || l->func == func) && l->call.file >= 0 && l->call.file < s->nfiles)
			n[l->call.file]++;
	}
	int best = -1;
	for (int f = 0; f < s->nfiles; f++)
		if (n[f] > 0 && (best < 0 || n[f] > n[best]))
			best = f;
	free(n);
	return best;
}

int rung_sass_line_in(const rung_sass_line *l, int file)
{
	if (l->kind != RUNG_SASS_INST || file < 0)
		return 0;
	if (l->src.file == file && l->src.line > 0)
		return l->src.line;
	if (l->call.file == file && l->call.line > 0)
		return l->call.line;
	return 0;
}

int rung_sass_sum_by_source(int64_t *out, int nsrc, const rung_sass *s, int file, int func, const int64_t *v)
{
	for (int k = 0; k < nsrc; k++)
		out[k] = -1;
	int summed = 0;
	for (int i = 0; i < s->nlines; i++) {
		const rung_sass_line *l = &s->lines[i];
		if (func >= 0 && l->func != func)
			continue;
		int line = rung_sass_line_in(l, file);
		int64_t x = v ? v[i] : 1;
		if (line < 1 || line > nsrc || x < 0)
			continue;
		out[line - 1] = out[line - 1] < 0 ? x : out[line - 1] + x;
		summed++;
	}
	return summed;
}

int rung_sass_lines_of(int *idx, int max, const rung_sass *s, int file, int func, int line)
{
	int n = 0;
	for (int i = 0; i < s->nlines; i++) {
		const rung_sass_line *l = &s->lines[i];
		if ((func >= 0 && l->func != func) || line < 1 || rung_sass_line_in(l, file) != line)
			continue;
		if (n < max)
			idx[n] = i;
		n++;
	}
	return n;
}

const char *rung_sass_file_name(const rung_sass *s, rung_sass_loc loc)
{
	return loc.file >= 0 && loc.file < s->nfiles ? s->files[loc.file] : "";
}
