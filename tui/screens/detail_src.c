#include "tui/screens/detail_src.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/sanitize.h"
#include "core/sass_src.h"

static const char *base_name(const char *p)
{
	const char *b = strrchr(p, '/');
	return b ? b + 1 : p;
}

/* The first location "name(N)" or "name:N:" in msg: N, its name, and where
 * the scan goes on; NULL when there is none. */
static const char *next_loc(const char *msg, char *name, int len, int *line)
{
	for (const char *p = msg; *p; p++) {
		if (*p != '(' && *p != ':')
			continue;
		char close = *p == '(' ? ')' : ':';
		const char *q = p + 1;
		int n = 0, digits = 0;
		while (*q >= '0' && *q <= '9' && digits < 9)
			n = n * 10 + (*q++ - '0'), digits++;
		if (digits && *q == close && n > 0) {
			const char *s = p;
			while (s > msg && s[-1] != ' ' && s[-1] != '\t' && s[-1] != '\'' && s[-1] != '"' && s[-1] != ':')
				s--;
			if (name)
				snprintf(name, (size_t)len, "%.*s", (int)(p - s), s);
			*line = n;
			return q + 1;
		}
	}
	return NULL;
}

int rung_error_line(const char *msg, char *name, int len)
{
	int n = 0;
	if (name && len > 0)
		name[0] = 0;
	return next_loc(msg, name, len, &n) ? n : 0;
}

void rung_srcview_clear(rung_srcview *sv)
{
	free(sv->src);
	free(sv->lp);
	free(sv->ll);
	free(sv->ninst);
	free(sv->count);
	free(sv->stalls);
	free(sv->stall_top);
	if (sv->have_sass)
		rung_sass_annot_clear(&sv->a);
	memset(sv, 0, sizeof(*sv));
	sv->file = -1;
}

/* A file name of a message names the kernel's file (or the kernel's is unknown). */
static bool is_kernel_file(const rung_srcview *sv, const char *name)
{
	return name[0] && (!sv->file_name[0] || strcmp(base_name(name), sv->file_name) == 0);
}

/* The compile log's errors at a line of the kernel (rung_error_line). */
static void read_errors(rung_srcview *sv, const char *log)
{
	const char *p = log;
	while (p && *p && sv->nerr < RUNG_SRCVIEW_ERRS) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		char line[1024], name[256];
		snprintf(line, sizeof(line), "%.*s", len > 1000 ? 1000 : len, p);
		int n = strstr(line, "error") ? rung_error_line(line, name, sizeof(name)) : 0;
		if (n > 0 && !sv->file_name[0] && name[0]) /* no SASS to say: the first error names it */
			snprintf(sv->file_name, sizeof(sv->file_name), "%s", base_name(name));
		if (n > 0 && n <= sv->nsrc && is_kernel_file(sv, name)) {
			sv->err[sv->nerr].line = n;
			snprintf(sv->err[sv->nerr].msg, sizeof(sv->err[sv->nerr].msg), "%.239s", line);
			sv->nerr++;
		}
		p = nl ? nl + 1 : NULL;
	}
}

static int split_source(rung_srcview *sv)
{
	int n = 1;
	for (const char *p = sv->src; *p; p++)
		n += *p == '\n';
	sv->lp = malloc(sizeof(*sv->lp) * (size_t)n);
	sv->ll = malloc(sizeof(*sv->ll) * (size_t)n);
	if (!sv->lp || !sv->ll)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	const char *p = sv->src;
	sv->nsrc = 0;
	while (*p) {
		const char *e = strchr(p, '\n');
		int len = e ? (int)(e - p) : (int)strlen(p);
		if (len > 0 && p[len - 1] == '\r')
			len--;
		sv->lp[sv->nsrc] = p;
		sv->ll[sv->nsrc++] = len;
		if (!e)
			break;
		p = e + 1;
	}
	return 0;
}

/* Stall samples per source line, and each line's top reason: the reasons
 * of its instructions summed (all-samples reasons only). */
static int stall_sums(rung_srcview *sv, int n)
{
	const rung_stall *st = &sv->a.stall;
	sv->stalls = malloc(sizeof(*sv->stalls) * (size_t)n);
	sv->stall_top = malloc(sizeof(*sv->stall_top) * (size_t)n);
	uint64_t *by = calloc((size_t)n * (size_t)(st->nreasons ? st->nreasons : 1), sizeof(*by));
	if (!sv->stalls || !sv->stall_top || !by) {
		free(by);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	rung_sass_sum_by_source(sv->stalls, sv->nsrc, &sv->a.s, sv->file, -1, sv->a.samples);
	for (int i = 0; i < sv->a.s.nlines; i++) {
		int line = rung_sass_line_in(&sv->a.s.lines[i], sv->file), row;
		if (line < 1 || line > sv->nsrc || sv->a.samples[i] < 0 || (row = rung_stall_find(st, sv->a.s.lines[i].pc)) < 0)
			continue;
		for (int r = 0; r < st->nreasons; r++)
			by[(size_t)(line - 1) * (size_t)st->nreasons + (size_t)r] += st->counts[(size_t)row * (size_t)st->nreasons + (size_t)r];
	}
	for (int i = 0; i < n; i++) {
		sv->stall_top[i] = -1;
		uint64_t best = 0;
		for (int r = 0; r < st->nreasons; r++) {
			uint64_t v = by[(size_t)i * (size_t)st->nreasons + (size_t)r];
			if (!rung_stall_is_not_issued(st->reasons[r]) && v > best) {
				best = v;
				sv->stall_top[i] = r;
			}
		}
	}
	free(by);
	return 0;
}

int rung_srcview_load(rung_srcview *sv, rung_model *m, const char *hash, const rung_result *r)
{
	memset(sv, 0, sizeof(*sv));
	sv->file = -1;
	int e = rung_model_text(&sv->src, m, hash, RUNG_TEXT_SOURCE);
	if (e < 0)
		return e;
	if ((e = split_source(sv)) < 0)
		return e;
	if (rung_sass_annot_load(&sv->a, m, hash, 0) == 0) {
		sv->have_sass = true;
		/* the kernel's file: the one its instructions come from, outermost */
		int func = sv->a.s.nfuncs == 1 ? 0 : -1;
		sv->file = rung_sass_main_file(&sv->a.s, func);
		if (sv->file >= 0)
			snprintf(sv->file_name, sizeof(sv->file_name), "%s", base_name(sv->a.s.files[sv->file]));
		else
			snprintf(sv->note, sizeof(sv->note), "the SASS has no line info (compiled without -lineinfo?)");
	} else {
		snprintf(sv->note, sizeof(sv->note), "no SASS: %s", rung_error_last());
		rung_sass_annot_clear(&sv->a);
		rung_error_clear();
	}
	int n = sv->nsrc > 0 ? sv->nsrc : 1;
	sv->ninst = malloc(sizeof(*sv->ninst) * (size_t)n);
	if (!sv->ninst)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	for (int i = 0; i < n; i++)
		sv->ninst[i] = -1;
	if (sv->file >= 0) {
		rung_sass_sum_by_source(sv->ninst, sv->nsrc, &sv->a.s, sv->file, -1, NULL);
		if (sv->a.inst) {
			if (!(sv->count = malloc(sizeof(*sv->count) * (size_t)n)))
				return rung_error_set(RUNG_ENOMEM, "out of memory");
			rung_sass_sum_by_source(sv->count, sv->nsrc, &sv->a.s, sv->file, -1, sv->a.inst);
		}
		if (sv->a.samples && (e = stall_sums(sv, n)) < 0)
			return e;
	}
	if (r && r->compile_log)
		read_errors(sv, r->compile_log);
	return 0;
}

/* The first `name:N` / `name(N)` of the kernel's file in text, 0 if none. */
static int line_in_text(const rung_srcview *sv, const char *text)
{
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		char line[512], name[256];
		snprintf(line, sizeof(line), "%.*s", nl ? (int)(nl - p) : (int)strlen(p), p);
		int n;
		for (const char *q = line; (q = next_loc(q, name, sizeof(name), &n));)
			if (n <= sv->nsrc && strchr(name, '.') && is_kernel_file(sv, name))
				return n;
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

int rung_srcview_jump(const rung_srcview *sv, const rung_result *r, char *why, int len)
{
	why[0] = 0;
	if (sv->nerr > 0) {
		snprintf(why, (size_t)len, "compile error at line %d", sv->err[0].line);
		return sv->err[0].line;
	}
	for (int i = 0; r && i < r->nsanitize; i++) {
		const rung_san_finding *f = &r->sanitize[i];
		if (f->line > 0 && f->line <= sv->nsrc && is_kernel_file(sv, f->file)) {
			snprintf(why, (size_t)len, "%s at line %d", rung_san_kind_name(f->kind), f->line);
			return f->line;
		}
	}
	for (int s = 0; r && s < RUNG_NSTEPS; s++) {
		if (r->steps[s].status != RUNG_S_FAILED)
			continue;
		int n = line_in_text(sv, r->steps[s].reason);
		if (n > 0) {
			snprintf(why, (size_t)len, "%s failed at line %d", rung_step_name((rung_step_id)s), n);
			return n;
		}
	}
	int n = r && r->output ? line_in_text(sv, r->output) : 0;
	if (n > 0) {
		snprintf(why, (size_t)len, "the kernel's output names line %d", n);
		return n;
	}
	if (r && r->steps[RUNG_STEP_CHECK].status == RUNG_S_FAILED && sv->file >= 0) {
		for (int i = 0; i < sv->a.s.nlines; i++) {
			const rung_sass_line *l = &sv->a.s.lines[i];
			int ln = rung_sass_line_in(l, sv->file);
			if (ln > 0 && ln <= sv->nsrc && rung_sass_classify(l->text) >= RUNG_MIX_STG32 &&
			    rung_sass_classify(l->text) <= RUNG_MIX_STG128) {
				snprintf(why, (size_t)len, "check failed: line %d stores to global memory", ln);
				return ln;
			}
		}
	}
	const int64_t *v = sv->count ? sv->count : sv->ninst;
	int best = 0;
	for (int i = 0; v && i < sv->nsrc; i++)
		if (v[i] > 0 && (!best || v[i] > v[best - 1]))
			best = i + 1;
	if (best)
		snprintf(why, (size_t)len, "line %d: the most %s", best, sv->count ? "instructions executed" : "SASS");
	return best ? best : 1;
}

static bool has_error(const rung_srcview *sv, int line)
{
	for (int k = 0; k < sv->nerr; k++)
		if (sv->err[k].line == line)
			return true;
	return false;
}

static uint64_t count_total(const rung_srcview *sv)
{
	uint64_t t = 0;
	for (int i = 0; sv->count && i < sv->nsrc; i++)
		if (sv->count[i] > 0)
			t += (uint64_t)sv->count[i];
	return t;
}

#define TOP_W 18 /* "math pipe throttle", "selected (issued)": whole */

/* The gutter's width with the columns in `drop` left out. */
static int gutter_width(const rung_srcview *sv, unsigned drop)
{
	int w = 6 + 2; /* "!  123" and the code's indent */
	if (!(drop & RUNG_SRC_DROP_SASS))
		w += 6;
	if (sv->count && !(drop & RUNG_SRC_DROP_COUNT))
		w += 16;
	if (sv->stalls && !(drop & RUNG_SRC_DROP_STALLS))
		w += 15 + (drop & RUNG_SRC_DROP_TOP ? 0 : 2 + TOP_W);
	return w;
}

unsigned rung_srcview_fit(const rung_srcview *sv, int width)
{
	static const unsigned order[] = {RUNG_SRC_DROP_TOP, RUNG_SRC_DROP_COUNT, RUNG_SRC_DROP_SASS, RUNG_SRC_DROP_STALLS};
	const int want = 40;
	unsigned drop = 0;
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]) && width - gutter_width(sv, drop) < want; k++)
		drop |= order[k];
	return drop;
}

void rung_srcview_source_header(rung_lines *l, const rung_srcview *sv)
{
	rung_lines_new(l);
	rung_lines_seg(l, RUNG_ROLE_HEADER, "  line");
	if (!(sv->drop & RUNG_SRC_DROP_SASS))
		rung_lines_seg(l, RUNG_ROLE_HEADER, "  sass");
	if (sv->count && !(sv->drop & RUNG_SRC_DROP_COUNT))
		rung_lines_seg(l, RUNG_ROLE_HEADER, "    count      %%");
	if (sv->stalls && !(sv->drop & RUNG_SRC_DROP_STALLS))
		rung_lines_seg(l, RUNG_ROLE_HEADER, "  stalls      %%%s", sv->drop & RUNG_SRC_DROP_TOP ? "" : "  top stall         ");
	rung_lines_seg(l, RUNG_ROLE_HEADER, "  %s", sv->file_name[0] ? sv->file_name : "source");
}

void rung_srcview_source_lines(rung_lines *l, const rung_srcview *sv)
{
	uint64_t total = count_total(sv);
	/* the hot source lines: the largest counts, as the SASS pane marks instructions */
	bool *hot = sv->count ? calloc((size_t)(sv->nsrc > 0 ? sv->nsrc : 1), sizeof(*hot)) : NULL;
	if (hot)
		rung_sass_mark_hot(hot, sv->count, sv->nsrc, RUNG_SASS_HOT_TOP);
	/* and the source lines with the most stall samples */
	bool *shot = sv->stalls ? calloc((size_t)(sv->nsrc > 0 ? sv->nsrc : 1), sizeof(*shot)) : NULL;
	if (shot)
		rung_sass_mark_hot(shot, sv->stalls, sv->nsrc, RUNG_SASS_HOT_TOP);
	for (int i = 0; i < sv->nsrc; i++) {
		int line = i + 1;
		bool err = has_error(sv, line), h = (hot && hot[i]) || (shot && shot[i]);
		rung_line *ln = rung_lines_new(l);
		if (!ln)
			break;
		ln->tag = line;
		rung_lines_seg(l, err ? RUNG_ROLE_ERROR : h ? RUNG_ROLE_HOT : RUNG_ROLE_DIM, "%c%5d", err ? '!' : h ? '*' : ' ', line);
		if (!(sv->drop & RUNG_SRC_DROP_SASS)) {
			if (sv->ninst[i] >= 0)
				rung_lines_seg(l, RUNG_ROLE_DIM, " %5lld", (long long)sv->ninst[i]);
			else
				rung_lines_seg(l, RUNG_ROLE_DIM, " %5s", "");
		}
		if (sv->count && !(sv->drop & RUNG_SRC_DROP_COUNT)) {
			if (sv->count[i] >= 0) {
				char c[32];
				rung_fmt_count(c, sizeof(c), (uint64_t)sv->count[i]);
				rung_lines_seg(l, h ? RUNG_ROLE_HOT : RUNG_ROLE_DEFAULT, " %8s %5.1f%%", c,
					       total ? 100.0 * (double)sv->count[i] / (double)total : 0.0);
			} else {
				rung_lines_seg(l, RUNG_ROLE_DIM, " %8s %6s", "", "");
			}
		}
		if (sv->stalls && !(sv->drop & RUNG_SRC_DROP_STALLS)) {
			int tw = sv->drop & RUNG_SRC_DROP_TOP ? 0 : TOP_W;
			if (sv->stalls[i] >= 0) {
				char c[32], label[64] = "";
				rung_fmt_count(c, sizeof(c), (uint64_t)sv->stalls[i]);
				if (sv->stall_top[i] >= 0)
					rung_stall_label(label, sizeof(label), sv->a.stall.reasons[sv->stall_top[i]]);
				bool sh = shot && shot[i];
				rung_lines_seg(l, sh ? RUNG_ROLE_HOT : RUNG_ROLE_DEFAULT, " %7s %5.1f%%%s%-*.*s", c,
					       sv->a.stall.total ? 100.0 * (double)sv->stalls[i] / (double)sv->a.stall.total : 0.0,
					       tw ? "  " : "", tw, tw, label);
			} else {
				rung_lines_seg(l, RUNG_ROLE_DIM, " %7s %6s%s%-*s", "", "", tw ? "  " : "", tw, "");
			}
		}
		rung_lines_seg(l, RUNG_ROLE_DIM, "  "); /* the gutter's end (its own role: a segment apart): the code alone scrolls */
		rung_lines_seg(l, err ? RUNG_ROLE_ERROR : RUNG_ROLE_DEFAULT, "%.*s", sv->ll[i] > 1000 ? 1000 : sv->ll[i], sv->lp[i]);
	}
	free(hot);
	free(shot);
}

void rung_srcview_sass_lines(rung_lines *l, const rung_srcview *sv, int line, int max, int width)
{
	/* the instruction comes first: the stall names (18), then the counts give
	 * way when it would get under 32 columns ("  1a50" and its indent: 8) */
	bool cnt = sv->a.inst != NULL, smp = sv->a.samples != NULL;
	bool names = smp && width - (8 + (cnt ? 9 : 0) + 8 + 1 + TOP_W) >= 32;
	if (!names && cnt && smp && width - (8 + 9 + 8) < 32)
		cnt = false;
	int start = l->n;
	for (int k = 0; k < sv->nerr && l->n - start < max; k++)
		if (sv->err[k].line == line)
			rung_lines_add(l, RUNG_ROLE_ERROR, "%s", sv->err[k].msg);
	if (sv->file < 0) {
		if (l->n - start < max)
			rung_lines_add(l, RUNG_ROLE_DIM, "%s", sv->note);
		return;
	}
	int n = rung_sass_lines_of(NULL, 0, &sv->a.s, sv->file, -1, line);
	if (n == 0) {
		rung_lines_add(l, RUNG_ROLE_DIM, "line %d: no SASS", line);
		return;
	}
	rung_lines_new(l);
	rung_lines_seg(l, RUNG_ROLE_HEADER, "line %d: %d instruction%s", line, n, n == 1 ? "" : "s");
	if (sv->count && sv->count[line - 1] >= 0) {
		char c[32];
		rung_fmt_count(c, sizeof(c), (uint64_t)sv->count[line - 1]);
		uint64_t total = count_total(sv);
		rung_lines_seg(l, RUNG_ROLE_HEADER, ", %s executed (%.1f%%)", c,
			       total ? 100.0 * (double)sv->count[line - 1] / (double)total : 0.0);
	}
	if (sv->stalls && sv->stalls[line - 1] >= 0) {
		char c[32], label[64] = "";
		rung_fmt_count(c, sizeof(c), (uint64_t)sv->stalls[line - 1]);
		if (sv->stall_top[line - 1] >= 0)
			rung_stall_label(label, sizeof(label), sv->a.stall.reasons[sv->stall_top[line - 1]]);
		rung_lines_seg(l, RUNG_ROLE_HEADER, ", %s stall samples (%.1f%%, most %s)", c,
			       sv->a.stall.total ? 100.0 * (double)sv->stalls[line - 1] / (double)sv->a.stall.total : 0.0, label);
	}
	int shown = 0;
	for (int i = 0; i < sv->a.s.nlines && l->n - start < max; i++) {
		const rung_sass_line *sl = &sv->a.s.lines[i];
		if (rung_sass_line_in(sl, sv->file) != line)
			continue;
		if (l->n - start == max - 1 && n - shown > 1) {
			rung_lines_add(l, RUNG_ROLE_DIM, "  ... %d more (t: the whole SASS)", n - shown);
			break;
		}
		bool hot = sv->a.hot && sv->a.hot[i];
		rung_lines_new(l);
		rung_lines_seg(l, hot ? RUNG_ROLE_HOT : RUNG_ROLE_DIM, "%c %04llx", hot ? '*' : ' ', (unsigned long long)sl->pc);
		if (cnt) {
			char c[32] = "-";
			if (sv->a.inst[i] >= 0)
				rung_fmt_count(c, sizeof(c), (uint64_t)sv->a.inst[i]);
			rung_lines_seg(l, hot ? RUNG_ROLE_HOT : RUNG_ROLE_DEFAULT, " %8s", c);
		}
		if (smp) {
			char c[32] = "-", label[64] = "";
			if (sv->a.samples[i] >= 0)
				rung_fmt_count(c, sizeof(c), (uint64_t)sv->a.samples[i]);
			if (names && sv->a.stall_top[i] >= 0)
				rung_stall_label(label, sizeof(label), sv->a.stall.reasons[sv->a.stall_top[i]]);
			rung_lines_seg(l, sv->a.stall_hot[i] ? RUNG_ROLE_HOT : RUNG_ROLE_DEFAULT, " %7s%s%-*s", c, names ? " " : "",
				       names ? TOP_W : 0, label);
		}
		rung_lines_seg(l, hot ? RUNG_ROLE_HOT : RUNG_ROLE_DEFAULT, "  %s", sl->text);
		if (sl->src.file >= 0 && sl->src.file != sv->file) /* inlined from another file */
			rung_lines_seg(l, RUNG_ROLE_DIM, "  %s:%d", base_name(rung_sass_file_name(&sv->a.s, sl->src)), sl->src.line);
		shown++;
	}
}
