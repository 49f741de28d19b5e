#include "tui/screens/detail_prof.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/sass_src.h"
#include "tui/draw.h"
#include "tui/model/prof.h"

void rung_detail_prof_stored(char *buf, int len, rung_model *m, const char *hash)
{
	buf[0] = 0;
	if (!m->ops || !m->ops->extra)
		return;
	char *js = NULL;
	bool sass = m->ops->extra(&js, m, hash, "sass") == 0;
	free(js);
	js = NULL;
	bool trace = m->ops->extra(&js, m, hash, "trace") == 0;
	free(js);
	js = NULL;
	bool stall = m->ops->extra(&js, m, hash, "stall") == 0;
	free(js);
	rung_error_clear();
	snprintf(buf, (size_t)len, "%s%s%s%s%s", sass ? "SASS counts" : "", sass && (stall || trace) ? ", " : "",
		 stall ? "stall samples" : "", stall && trace ? ", " : "", trace ? "trace" : "");
}

/* The kernel's top stall reasons as bars in roles of rising heat, the
 * largest reason the full width. */
static void stall_bars(rung_lines *l, const rung_stall *st, int width)
{
	int idx[8];
	uint64_t sum[8];
	int n = rung_stall_top(idx, sum, 8, st);
	char period[48] = "CUPTI's default interval";
	if (st->period)
		snprintf(period, sizeof(period), "one per 2^%d cycles per SM", st->period);
	char tot[32];
	rung_fmt_count(tot, sizeof(tot), st->total);
	rung_lines_add(l, RUNG_ROLE_HEADER, "Warp stalls: %s samples (%s)%s", tot, period,
		       st->dropped ? ", some dropped" : "");
	/* foreground roles: a full block shows its foreground (scale_4 is white on red) */
	static const rung_role heat[] = {RUNG_ROLE_SCALE_3, RUNG_ROLE_SCALE_2, RUNG_ROLE_SCALE_1, RUNG_ROLE_SCALE_1};
	for (int k = 0; k < n; k++) {
		char label[64];
		rung_stall_label(label, sizeof(label), st->reasons[idx[k]]);
		double share = st->total ? (double)sum[k] / (double)st->total : 0;
		int w = sum[0] ? (int)((double)width * (double)sum[k] / (double)sum[0] + 0.5) : 0;
		rung_lines_new(l);
		rung_lines_seg(l, RUNG_ROLE_DEFAULT, "  %-20s %5.1f%% ", label, 100 * share);
		char bar[3 * 64 + 1];
		int o = 0;
		for (int c = 0; c < w && c < 64; c++)
			o += snprintf(bar + o, sizeof(bar) - (size_t)o, "%s", rung_tui_utf8 ? "\u2588" : "#");
		bar[o] = 0;
		rung_lines_seg(l, heat[k < 3 ? k : 3], "%s", bar);
	}
}

/* Line order of the listing: by pc, or (by_stall) the sampled instructions
 * with the most samples first. Returns how many indices order[] holds. */
static int line_order(int *order, const rung_sass_annot *a, bool by_stall)
{
	int n = 0;
	for (int i = 0; i < a->s.nlines; i++)
		if (!by_stall || (a->samples && a->samples[i] > 0))
			order[n++] = i;
	if (by_stall) /* insertion sort: a kernel has a few thousand lines at most */
		for (int i = 1; i < n; i++) {
			int v = order[i], j = i;
			for (; j > 0 && a->samples[order[j - 1]] < a->samples[v]; j--)
				order[j] = order[j - 1];
			order[j] = v;
		}
	return n;
}

void rung_detail_sass_lines(rung_lines *l, rung_model *m, const char *hash, bool by_stall, int width)
{
	rung_sass_annot a;
	if (rung_sass_annot_load(&a, m, hash, 0) < 0) {
		rung_lines_add(l, RUNG_ROLE_HEADER, "SASS");
		rung_lines_add(l, RUNG_ROLE_DIM, "  %s", rung_error_last());
		rung_sass_annot_clear(&a);
		return;
	}
	int ninst = 0;
	for (int i = 0; i < a.s.nlines; i++)
		ninst += a.s.lines[i].kind == RUNG_SASS_INST;
	char tot[32];
	rung_fmt_count(tot, sizeof(tot), a.total);
	bool stalls = a.samples != NULL;
	if (!stalls)
		by_stall = false;
	/* with line info: each instruction's line in the kernel's file (l: the source beside it) */
	int file = rung_sass_main_file(&a.s, -1);
	if (a.inst) {
		int nhot = 0;
		for (int i = 0; i < a.s.nlines; i++)
			nhot += a.hot[i];
		rung_lines_add(l, RUNG_ROLE_HEADER, "SASS: %d instruction%s, %d counted, %s warp instructions executed, %d hot", ninst,
			       ninst == 1 ? "" : "s", a.counted, tot, nhot);
	} else {
		rung_lines_add(l, RUNG_ROLE_HEADER, "SASS: %d instruction%s", ninst, ninst == 1 ? "" : "s");
		rung_lines_add(l, RUNG_ROLE_DIM, "  %s", a.note);
	}
	if (stalls) {
		stall_bars(l, &a.stall, 40);
		rung_lines_add(l, RUNG_ROLE_DIM, "  %s; ] next line with the most stalls, s: sort by %s", by_stall ? "by samples" : "by pc",
			       by_stall ? "pc" : "samples");
	} else {
		rung_lines_add(l, RUNG_ROLE_DIM, "  %s", a.stall_note);
	}
	/* the instruction comes first (at least 44 columns): the top stall's
	 * name, then the counts and their %, give way on a narrow window */
	int gutter = 8 + (file >= 0 ? 6 : 0) + (a.inst ? 16 : 0) + (stalls ? 36 : 0) + 4;
	bool names = stalls && width - gutter >= 44;
	if (stalls && !names)
		gutter -= 20;
	bool counts = a.inst && (width - gutter >= 44 || !stalls);
	if (a.inst && !counts)
		gutter -= 16;
	rung_lines_new(l);
	rung_lines_seg(l, RUNG_ROLE_HEADER, "      pc%s  ", file >= 0 ? "  line" : "");
	if (counts)
		rung_lines_seg(l, RUNG_ROLE_HEADER, "  count      %%  ");
	if (stalls)
		rung_lines_seg(l, RUNG_ROLE_HEADER, "samples     %%%s", names ? "  top stall           " : "  ");
	rung_lines_seg(l, RUNG_ROLE_HEADER, "  instruction");
	int *order = malloc(sizeof(*order) * (size_t)(a.s.nlines > 0 ? a.s.nlines : 1));
	int norder = order ? line_order(order, &a, by_stall) : 0;
	/* the most sampled lines' ranks, most samples first */
	int *rank = stalls ? calloc((size_t)(a.s.nlines > 0 ? a.s.nlines : 1), sizeof(*rank)) : NULL;
	int *byrank = stalls ? malloc(sizeof(*byrank) * (size_t)(a.s.nlines > 0 ? a.s.nlines : 1)) : NULL;
	if (rank && byrank) {
		int nr = line_order(byrank, &a, true);
		for (int k = 0, r = 0; k < nr; k++)
			if (a.stall_hot[byrank[k]])
				rank[byrank[k]] = ++r;
	}
	free(byrank);
	for (int k = 0; k < norder; k++) {
		int i = order[k];
		const rung_sass_line *sl = &a.s.lines[i];
		rung_line *ln = rung_lines_new(l);
		if (sl->kind != RUNG_SASS_INST) {
			/* labels end 4 columns left of the instructions: the pc, count and stall columns' widths */
			rung_lines_seg(l, RUNG_ROLE_DIM, "%*s", gutter - 4, "");
			rung_lines_seg(l, sl->kind == RUNG_SASS_FUNC ? RUNG_ROLE_HEADER : RUNG_ROLE_DIFF_HUNK, "%s:", sl->text);
			continue;
		}
		bool shot = stalls && a.stall_hot[i];
		bool hot = (a.hot && a.hot[i]) || shot;
		if (ln && shot)
			ln->tag = rank ? rank[i] : 1; /* `]` and `[` go through these by rank (1: the most sampled) */
		/* the offset as nvdisasm prints it ("0040") */
		char pc[24];
		snprintf(pc, sizeof(pc), "%04llx", (unsigned long long)sl->pc);
		rung_lines_seg(l, hot ? RUNG_ROLE_HOT : RUNG_ROLE_DIM, "%c %6s", hot ? '*' : ' ', pc);
		if (file >= 0) {
			int ln = rung_sass_line_in(sl, file);
			char lc[16] = "-";
			if (ln > 0)
				snprintf(lc, sizeof(lc), "%d", ln);
			rung_lines_seg(l, RUNG_ROLE_DIM, "%6s", lc);
		}
		if (counts) {
			if (a.inst[i] >= 0) {
				char c[32];
				rung_fmt_count(c, sizeof(c), (uint64_t)a.inst[i]);
				double pct = a.total ? 100.0 * (double)a.inst[i] / (double)a.total : 0;
				rung_lines_seg(l, a.hot[i] ? RUNG_ROLE_HOT : RUNG_ROLE_DEFAULT, " %8s %5.1f%%", c, pct);
			} else {
				rung_lines_seg(l, RUNG_ROLE_DIM, " %8s %6s", "-", "");
			}
		}
		if (stalls) {
			if (a.samples[i] >= 0) {
				char c[32], label[64] = "";
				rung_fmt_count(c, sizeof(c), (uint64_t)a.samples[i]);
				double pct = a.stall.total ? 100.0 * (double)a.samples[i] / (double)a.stall.total : 0;
				if (a.stall_top[i] >= 0)
					rung_stall_label(label, sizeof(label), a.stall.reasons[a.stall_top[i]]);
				rung_lines_seg(l, shot ? RUNG_ROLE_HOT : RUNG_ROLE_DEFAULT, "  %7s %5.1f%%%s%-*.*s", c, pct,
					       names ? "  " : "", names ? 18 : 0, names ? 18 : 0, label);
			} else {
				rung_lines_seg(l, RUNG_ROLE_DIM, "  %7s %6s%s%-*s", "-", "", names ? "  " : "", names ? 18 : 0, "");
			}
		}
		rung_lines_seg(l, hot ? RUNG_ROLE_HOT : RUNG_ROLE_DEFAULT, "    %s", sl->text);
		if (file >= 0 && sl->src.file >= 0 && sl->src.file != file) { /* inlined from another file */
			const char *f = rung_sass_file_name(&a.s, sl->src), *b = strrchr(f, '/');
			rung_lines_seg(l, RUNG_ROLE_DIM, "  %s:%d", b ? b + 1 : f, sl->src.line);
		}
	}
	free(order);
	free(rank);
	rung_sass_annot_clear(&a);
}

/* When one block ran on one SM: its records' first start to last end. */
typedef struct {
	uint32_t smid, block;
	uint64_t t0, t1;
} block_span;

static int span_cmp(const void *a, const void *b)
{
	const block_span *x = a, *y = b;
	if (x->smid != y->smid)
		return x->smid < y->smid ? -1 : 1;
	return x->block < y->block ? -1 : x->block > y->block;
}

/* The spans of the blocks in t (nested regions of one block count once). */
static int block_spans(block_span **out, const rung_trace *t)
{
	block_span *v = malloc(sizeof(*v) * (size_t)t->nrec);
	if (!v)
		return -1;
	for (int i = 0; i < t->nrec; i++)
		v[i] = (block_span){t->recs[i].smid, t->recs[i].block, t->recs[i].t0, t->recs[i].t1};
	qsort(v, (size_t)t->nrec, sizeof(*v), span_cmp);
	int n = 0;
	for (int i = 0; i < t->nrec; i++) {
		if (n && v[n - 1].smid == v[i].smid && v[n - 1].block == v[i].block) {
			if (v[i].t0 < v[n - 1].t0)
				v[n - 1].t0 = v[i].t0;
			if (v[i].t1 > v[n - 1].t1)
				v[n - 1].t1 = v[i].t1;
		} else {
			v[n++] = v[i];
		}
	}
	*out = v;
	return n;
}

void rung_trace_timeline(rung_lines *l, const rung_trace *t, int width, int max_rows)
{
	if (t->nsms <= 0 || t->nrec <= 0 || width <= 0 || max_rows <= 0)
		return;
	uint64_t end = 0;
	uint32_t maxsm = 0;
	for (int i = 0; i < t->nrec; i++) {
		if (t->recs[i].t1 - t->origin > end)
			end = t->recs[i].t1 - t->origin;
		if (t->recs[i].smid > maxsm)
			maxsm = t->recs[i].smid;
	}
	double span = end ? (double)end : 1, cell = span / width;
	int per = (t->nsms + max_rows - 1) / max_rows, nrows = (t->nsms + per - 1) / per;
	int *bucket = malloc(sizeof(int) * ((size_t)maxsm + 1));
	double *acc = calloc((size_t)nrows * (size_t)width, sizeof(double));
	if (!bucket || !acc) {
		free(bucket);
		free(acc);
		return;
	}
	for (uint32_t s = 0; s <= maxsm; s++)
		bucket[s] = -1;
	for (int i = 0; i < t->nsms; i++)
		if (t->sms[i].smid <= maxsm)
			bucket[t->sms[i].smid] = i / per;
	block_span *spans = NULL;
	int nspans = block_spans(&spans, t);
	for (int i = 0; i < nspans; i++) {
		const block_span *r = &spans[i];
		int b = r->smid <= maxsm ? bucket[r->smid] : -1;
		if (b < 0)
			continue;
		double a0 = (double)(r->t0 - t->origin), a1 = (double)(r->t1 - t->origin);
		int c0 = (int)(a0 / cell), c1 = (int)(a1 / cell);
		c0 = c0 < 0 ? 0 : c0 >= width ? width - 1 : c0;
		c1 = c1 < c0 ? c0 : c1 >= width ? width - 1 : c1;
		if (a1 <= a0) { /* an instant: still visible */
			acc[b * width + c0] += cell * 0.05;
			continue;
		}
		for (int c = c0; c <= c1; c++) {
			double lo = fmax(a0, c * cell), hi = fmin(a1, (c + 1) * cell);
			if (hi > lo)
				acc[b * width + c] += hi - lo;
		}
	}
	free(spans);
	double maxlev = 0;
	for (int b = 0; b < nrows; b++) {
		int nsm = b == nrows - 1 ? t->nsms - b * per : per;
		for (int c = 0; c < width; c++) {
			acc[b * width + c] /= cell * nsm;
			maxlev = fmax(maxlev, acc[b * width + c]);
		}
	}
	static const char *const shade_utf8[] = {" ", "\u2591", "\u2592", "\u2593", "\u2588"};
	static const char *const shade_ascii[] = {" ", ".", ":", "+", "#"};
	const char *const *shade = rung_tui_utf8 ? shade_utf8 : shade_ascii;
	rung_lines_add(l, RUNG_ROLE_HEADER, "per-SM timeline: %d SMs, %d per row, 0 to %.2f us; darker: more blocks running", t->nsms,
		       per, span / 1e3);
	for (int b = 0; b < nrows; b++) {
		int i0 = b * per, i1 = i0 + per - 1 < t->nsms - 1 ? i0 + per - 1 : t->nsms - 1;
		int blocks = 0;
		for (int i = i0; i <= i1; i++)
			blocks += t->sms[i].blocks;
		char label[32], bar[8 * 512] = "";
		if (i1 > i0)
			snprintf(label, sizeof(label), "SM %3u-%-3u", t->sms[i0].smid, t->sms[i1].smid);
		else
			snprintf(label, sizeof(label), "SM %-7u", t->sms[i0].smid);
		size_t o = 0;
		for (int c = 0; c < width && c < 500; c++) {
			double v = acc[b * width + c];
			int k = v <= 0 || maxlev <= 0 ? 0 : (int)ceil(v / maxlev * 4);
			k = k < 0 ? 0 : k > 4 ? 4 : k;
			size_t n = strlen(shade[k]);
			memcpy(bar + o, shade[k], n);
			o += n;
		}
		bar[o] = 0;
		rung_lines_new(l);
		rung_lines_seg(l, RUNG_ROLE_HEADER, "  %s ", label);
		rung_lines_seg(l, RUNG_ROLE_AXIS, "|");
		rung_lines_seg(l, RUNG_ROLE_POINT, "%s", bar);
		rung_lines_seg(l, RUNG_ROLE_AXIS, "|");
		rung_lines_seg(l, RUNG_ROLE_DIM, " %d block%s", blocks, blocks == 1 ? "" : "s");
	}
	free(bucket);
	free(acc);
}

void rung_detail_trace_lines(rung_lines *l, rung_model *m, const char *hash, int width)
{
	rung_trace t;
	int e = rung_model_trace(&t, m, hash);
	if (e < 0) {
		rung_lines_add(l, RUNG_ROLE_HEADER, "trace");
		if (e == RUNG_ENOTFOUND)
			rung_lines_add(l, RUNG_ROLE_DIM, "  no stored trace (mark regions with rung.h, then rung trace %.*s)", RUNG_ID(hash));
		else
			rung_lines_add(l, RUNG_ROLE_ERROR, "  %s", rung_error_last());
		rung_trace_clear(&t);
		return;
	}
	char ku[32] = "unknown";
	if (!isnan(t.kernel_us))
		snprintf(ku, sizeof(ku), "%.2f us", t.kernel_us);
	rung_lines_add(l, RUNG_ROLE_HEADER, "trace: %d record%s, %d region%s, %d SM%s, kernel %s", t.nrec, t.nrec == 1 ? "" : "s",
		       t.nregions, t.nregions == 1 ? "" : "s", t.nsms, t.nsms == 1 ? "" : "s", ku);
	if (t.written > (uint64_t)t.nrec)
		rung_lines_add(l, RUNG_ROLE_WARNING, "  buffer full: the kernel wrote %llu records, %d kept",
			       (unsigned long long)t.written, t.nrec);
	if (t.nrec == 0) {
		rung_lines_add(l, RUNG_ROLE_DIM, "  no records (the kernel reached no RUNG_TRACE_END in thread 0 of a block)");
		rung_trace_clear(&t);
		return;
	}
	rung_lines_add(l, RUNG_ROLE_DEFAULT, "%s", "");
	rung_lines_add(l, RUNG_ROLE_HEADER, "  region    count   median us      p90 us      max us  %% kernel");
	for (int i = 0; i < t.nregions; i++) {
		const rung_trace_region *g = &t.regions[i];
		char frac[16] = "-";
		if (!isnan(g->frac))
			snprintf(frac, sizeof(frac), "%.1f%%", g->frac * 100);
		rung_lines_add(l, RUNG_ROLE_DEFAULT, "  %6u %8d %11.3f %11.3f %11.3f %9s", g->region, g->count, g->median_us, g->p90_us,
			       g->max_us, frac);
	}
	rung_lines_add(l, RUNG_ROLE_DEFAULT, "%s", "");
	int bar = width - 30;
	bar = bar < 16 ? 16 : bar > 100 ? 100 : bar;
	rung_trace_timeline(l, &t, bar, 32);
	rung_trace_clear(&t);
}
