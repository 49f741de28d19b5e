/* Compare: versions a and b side by side: metrics with deltas, the SASS
 * instruction mix, then a source / PTX / SASS diff (libgit2, patience) whose
 * two panes scroll together. The PTX and SASS are made in the background
 * (rung_model_text_prepare: NVRTC and nvdisasm take a second or two): until
 * both are there the screen says "computing SASS diff... (Esc cancels)" and
 * every key works; RUNG_EV_TEXT reopens it, and the diff is built then. The SASS diff shows, per side with stored
 * counts (`rung profile --sass`), how often each instruction ran: a diff
 * line's number is its line in the normalized listing, whose pc maps to the
 * count (tui/model/prof.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/stats.h"
#include "tui/draw.h"
#include "tui/maplines.h"
#include "tui/model/prof.h"
#include "tui/model/occ_row.h"
#include "tui/model/rowmetrics.h"
#include "app/session.h"
#include "app/textdiff.h"
#include "tui/view.h"

/* Counts of one side of the SASS diff, by line of its normalized text. */
typedef struct {
	int64_t *inst; /* NULL: no counts */
	bool *hot;
	int n;
	uint64_t total;
	/* per line, its share of the kernel's warp stall samples (`rung profile
	 * --stalls`), -1 for a line without samples; NULL without samples */
	double *stall;
	bool *stall_hot;
} side_counts;

typedef struct {
	rung_lines top;  /* metrics and mix */
	side_counts ca, cb;
	rung_sbs diff;
	rung_text_kind kind;
	char a[41], b[41];
	rung_text_kind built_kind;
	bool built;
	bool raw, built_raw; /* the SASS diff raw (w), not normalized by basic block */
	char diff_error[256];
	int *hunks;
	int nhunks;
	/* instruction mix, recomputed only when a or b change */
	char mix_a[41], mix_b[41];
	rung_sass_mix xa, xb;
	bool mix_ok;
	char mix_err[256];
	/* the texts of a and b are being made (the diff waits for them) */
	bool pending;
	int map_case; /* which case with errors the maps show (m: next) */
} compare_priv;

/* Whether the PTX and SASS of both are at hand, asking for them in the
 * background where they are not (a failure shows when they are read). */
static bool texts_ready(rung_model *m, const char *ha, const char *hb)
{
	int ea = rung_model_text_prepare(m, ha), eb = rung_model_text_prepare(m, hb);
	if (ea < 0 || eb < 0)
		rung_error_clear();
	return ea != 1 && eb != 1;
}

static void pick_ab(rung_tui *t, int *ra, int *rb)
{
	rung_model *m = t->model;
	*ra = t->mark_a[0] ? rung_model_find(m, t->mark_a) : -1;
	*rb = t->mark_b[0] ? rung_model_find(m, t->mark_b) : -1;
	if (*ra < 0)
		*ra = rung_model_baseline(m);
	if (*rb < 0)
		*rb = rung_tui_selected_row(t);
	if (*ra < 0)
		*ra = m->nrows - 1;
	if (*rb == *ra && m->nrows > 1 && *rb == rung_tui_selected_row(t))
		*rb = *ra == 0 ? 1 : 0;
}

static void metric_row(rung_lines *l, const char *name, const char *a, const char *b, const char *delta, rung_role drole)
{
	rung_lines_new(l);
	rung_lines_seg(l, RUNG_ROLE_HEADER, "%-10s", name);
	rung_lines_seg(l, RUNG_ROLE_DEFAULT, "%14s %14s ", a, b);
	rung_lines_seg(l, drole, "%s", delta);
}

static void int_row(rung_lines *l, const char *name, bool valid, long long a, long long b, bool lower_better)
{
	char sa[32], sb[32], sd[48] = "";
	if (!valid) {
		metric_row(l, name, "-", "-", "", RUNG_ROLE_DEFAULT);
		return;
	}
	snprintf(sa, sizeof(sa), "%lld", a);
	snprintf(sb, sizeof(sb), "%lld", b);
	if (b != a)
		snprintf(sd, sizeof(sd), "%+lld", b - a);
	rung_role r = b == a ? RUNG_ROLE_SAME : ((b < a) == lower_better ? RUNG_ROLE_FASTER : RUNG_ROLE_SLOWER);
	metric_row(l, name, sa, sb, sd, r);
}

/* Theoretical occupancy per side ('-' when anything is unknown), the delta in
 * percentage points. */
static void occ_row(rung_lines *l, rung_model *m, int ra, int rb)
{
	rung_occupancy oa, ob;
	bool va = rung_row_occupancy(&oa, m, ra) == 0, vb = rung_row_occupancy(&ob, m, rb) == 0;
	char sa[32] = "-", sb[32] = "-", sd[48] = "";
	if (va)
		rung_fmt_occupancy(sa, sizeof(sa), &oa);
	if (vb)
		rung_fmt_occupancy(sb, sizeof(sb), &ob);
	rung_role r = RUNG_ROLE_DEFAULT;
	if (va && vb) {
		double d = ob.pct - oa.pct;
		if (d != 0)
			snprintf(sd, sizeof(sd), "%+.3g pts", d);
		r = d == 0 ? RUNG_ROLE_SAME : d > 0 ? RUNG_ROLE_FASTER : RUNG_ROLE_SLOWER;
	}
	metric_row(l, "occupancy", sa, sb, sd, r);
}

static char *get_text(rung_tui *t, const char *hash, rung_text_kind kind, rung_sass_mix *mix, char *err, int errlen)
{
	char *raw = NULL;
	if (rung_model_text(&raw, t->model, hash, kind) < 0) {
		snprintf(err, (size_t)errlen, "%.*s: %s", RUNG_ID(hash), rung_error_last());
		return NULL;
	}
	if (kind != RUNG_TEXT_SASS && !mix)
		return raw;
	char *norm = NULL;
	rung_sass_mix m;
	if (rung_sass_prepare(&norm, &m, raw) < 0) {
		snprintf(err, (size_t)errlen, "%.*s: %s", RUNG_ID(hash), rung_error_last());
		free(raw);
		return NULL;
	}
	if (mix)
		*mix = m;
	if (kind == RUNG_TEXT_SASS) {
		free(raw);
		return norm;
	}
	free(norm);
	return raw;
}

/* The cases with errors in b, then those only a has; the k-th (mod their
 * count) as a's and b's metric of it (NULL where one has none). Returns how
 * many there are. */
static int map_pair(const rung_check_metric **ca, const rung_check_metric **cb, const rung_result *a,
		    const rung_result *b, int k)
{
	const rung_check_metric *list[128][2];
	int cases[64], n = 0;
	int nb = rung_map_cases(cases, 64, b);
	for (int i = 0; i < nb; i++, n++) {
		list[n][1] = &b->metrics[cases[i]];
		list[n][0] = rung_map_same_case(a, list[n][1]);
	}
	int na = rung_map_cases(cases, 64, a);
	for (int i = 0; i < na; i++) {
		const rung_check_metric *x = &a->metrics[cases[i]], *y = rung_map_same_case(b, x);
		if (y && rung_err_map_any(&y->map))
			continue; /* listed with b's */
		list[n][0] = x;
		list[n][1] = y;
		n++;
	}
	*ca = *cb = NULL;
	if (n > 0) {
		*ca = list[k % n][0];
		*cb = list[k % n][1];
	}
	return n;
}

static void build_top(rung_view *v, int ra, int rb)
{
	compare_priv *p = v->priv;
	rung_tui *t = v->tui;
	rung_model *m = t->model;
	rung_lines *l = &p->top;
	rung_lines_clear(l);
	const rung_model_row *A = &m->rows[ra], *B = &m->rows[rb];
	rung_lines_new(l);
	rung_lines_seg(l, RUNG_ROLE_MARK, "a");
	rung_lines_seg(l, RUNG_ROLE_DEFAULT, " %.*s %s", RUNG_ID(A->hash), A->subject);
	rung_lines_new(l);
	rung_lines_seg(l, RUNG_ROLE_MARK, "b");
	rung_lines_seg(l, RUNG_ROLE_DEFAULT, " %.*s %s", RUNG_ID(B->hash), B->subject);
	rung_lines_add(l, RUNG_ROLE_HEADER, "%-10s%14s %14s %s", "", "a", "b", "b vs a (speedup, change)");
	rung_row_metrics ma, mb;
	rung_row_metrics_get(&ma, m, ra, -1);
	rung_row_metrics_get(&mb, m, rb, ra);
	char sa[32], sb[32], sd[96] = "";
	rung_fmt_ms(sa, sizeof(sa), ma.median_ms);
	rung_fmt_ms(sb, sizeof(sb), mb.median_ms);
	rung_role drole = RUNG_ROLE_SAME;
	char other[512] = ""; /* timed on different GPU models: no speedup (rung compare --stored says OTHER_GPU) */
	bool clash = A->result && B->result && rung_results_other_gpu(A->result, B->result, other, sizeof(other));
	if (clash) {
		snprintf(sd, sizeof(sd), "not compared: other GPU");
		drole = RUNG_ROLE_DIM;
	} else if (A->result && B->result && A->result->bench.samples && B->result->bench.samples && A->result->bench.n > 1 &&
	    B->result->bench.n > 1) {
		rung_compare c;
		if (rung_compare_samples(&c, A->result->bench.samples, A->result->bench.n, B->result->bench.samples,
					 B->result->bench.n, 500, 0x5eed) == 0) {
			int o = rung_fmt_compare_speedup(sd, sizeof(sd), &c, rung_tui_utf8);
			snprintf(sd + o, sizeof(sd) - (size_t)o, " %s", rung_cmp_verdict_name(c.verdict));
			drole = c.verdict == RUNG_CMP_FASTER ? RUNG_ROLE_FASTER : c.verdict == RUNG_CMP_SLOWER ? RUNG_ROLE_SLOWER : RUNG_ROLE_SAME;
		}
	} else if (mb.has_delta) {
		rung_fmt_speedup_pm(sd, sizeof(sd), mb.speedup, mb.noise, rung_tui_utf8);
		drole = mb.cmp == RUNG_CMP_FASTER ? RUNG_ROLE_FASTER : mb.cmp == RUNG_CMP_SLOWER ? RUNG_ROLE_SLOWER : RUNG_ROLE_SAME;
	}
	metric_row(l, "median", sa, sb, sd, drole);
	if (clash)
		rung_lines_add(l, RUNG_ROLE_DIM, "%s: timings of different GPU models are not compared", other);
	snprintf(sa, sizeof(sa), isnan(ma.max_rel) ? "-" : "%.2e", ma.max_rel);
	snprintf(sb, sizeof(sb), isnan(mb.max_rel) ? "-" : "%.2e", mb.max_rel);
	metric_row(l, "max_rel", sa, sb, "", RUNG_ROLE_DEFAULT);
	snprintf(sa, sizeof(sa), isnan(ma.roof_pct) ? "-" : "%.0f%%", ma.roof_pct);
	snprintf(sb, sizeof(sb), isnan(mb.roof_pct) ? "-" : "%.0f%%", mb.roof_pct);
	metric_row(l, "roofline", sa, sb, "", RUNG_ROLE_DEFAULT);
	bool kv = ma.has_regs && mb.has_regs;
	int_row(l, "regs", kv, ma.regs, mb.regs, true);
	int_row(l, "spills", kv, ma.spills, mb.spills, true);
	int_row(l, "smem", kv, ma.smem, mb.smem, true);
	occ_row(l, m, ra, rb);
	/* instruction mix from the SASS of both, once it is made */
	bool mix_waits = strcmp(p->mix_a, A->hash) || strcmp(p->mix_b, B->hash);
	if (mix_waits && texts_ready(m, A->hash, B->hash)) {
		mix_waits = false;
		char ea[256] = "", eb[256] = "";
		char *ta = get_text(t, A->hash, RUNG_TEXT_SASS, &p->xa, ea, sizeof(ea));
		char *tb = get_text(t, B->hash, RUNG_TEXT_SASS, &p->xb, eb, sizeof(eb));
		p->mix_ok = ta && tb;
		snprintf(p->mix_err, sizeof(p->mix_err), "%s", ea[0] ? ea : eb);
		free(ta);
		free(tb);
		snprintf(p->mix_a, sizeof(p->mix_a), "%s", A->hash);
		snprintf(p->mix_b, sizeof(p->mix_b), "%s", B->hash);
	}
	rung_lines_add(l, RUNG_ROLE_DEFAULT, "%s", "");
	if (mix_waits) {
		rung_lines_add(l, RUNG_ROLE_DIM, "instruction mix: computing the SASS...");
	} else if (p->mix_ok) {
		const rung_sass_mix *xa = &p->xa, *xb = &p->xb;
		rung_lines_add(l, RUNG_ROLE_HEADER, "instruction mix (a>b)");
		rung_mix_id ids[RUNG_MIX_COUNT];
		int nids = rung_mix_present(ids, xa, xb), col = 0;
		for (int i = 0; i < nids; i++) {
			rung_mix_id k = ids[i];
			if (col == 0)
				rung_lines_new(l);
			long long d = (long long)(xb->n[k] - xa->n[k]);
			rung_lines_seg(l, RUNG_ROLE_HEADER, "%-8s", rung_mix_name(k));
			/* an arrow, not '>' (it read as a false inequality) */
			rung_lines_seg(l, RUNG_ROLE_DEFAULT, "%5lld%s%-5lld", (long long)xa->n[k], rung_tui_utf8 ? "\u2192" : "->",
				       (long long)xb->n[k]);
			char ds[24] = "";
			if (d)
				snprintf(ds, sizeof(ds), "%+lld", d);
			rung_lines_seg(l, d ? (d > 0 ? RUNG_ROLE_DIFF_ADD : RUNG_ROLE_DIFF_DEL) : RUNG_ROLE_DIM, "%-6s ", ds);
			col = (col + 1) % 3;
		}
	} else {
		rung_lines_add(l, RUNG_ROLE_DIM, "instruction mix: %s", p->mix_err);
	}
	rung_lines_add(l, RUNG_ROLE_DEFAULT, "%s", "");
	/* where each is wrong: the maps of one case side by side (m: next) */
	const rung_check_metric *ca, *cb;
	int nc = map_pair(&ca, &cb, A->result, B->result, p->map_case);
	if (nc > 0) {
		rung_map_section_pair(l, ca, cb, p->map_case % nc, nc, v->width);
		rung_lines_add(l, RUNG_ROLE_DEFAULT, "%s", "");
	}
}

static void side_free(side_counts *c)
{
	free(c->inst);
	free(c->hot);
	free(c->stall);
	free(c->stall_hot);
	memset(c, 0, sizeof(*c));
}

/* One side of the SASS diff: the normalized text of a (registers renamed, as
 * rung_sass_prepare), its counts per line into c, its instruction mix into x. */
static char *sass_side(rung_sass_annot *a, side_counts *c, rung_sass_mix *x, char *err, int errlen)
{
	char *text = rung_sass_text(&a->s, -1);
	rung_sass_count(x, &a->s, -1);
	if (a->inst) {
		c->inst = a->inst;
		c->hot = a->hot;
		c->n = a->s.nlines;
		c->total = a->total;
		a->inst = NULL;
		a->hot = NULL;
	}
	if (a->samples && (c->stall = malloc(sizeof(*c->stall) * (size_t)(a->s.nlines > 0 ? a->s.nlines : 1)))) {
		for (int i = 0; i < a->s.nlines; i++)
			c->stall[i] = a->samples[i] >= 0 && a->stall.total ? (double)a->samples[i] / (double)a->stall.total : -1;
		c->stall_hot = a->stall_hot;
		a->stall_hot = NULL;
		c->n = a->s.nlines;
	}
	rung_sass_annot_clear(a);
	if (!text)
		snprintf(err, (size_t)errlen, "out of memory");
	return text;
}

static void build_diff(rung_view *v, int ra, int rb)
{
	compare_priv *p = v->priv;
	rung_tui *t = v->tui;
	rung_model *m = t->model;
	rung_sbs_clear(&p->diff);
	free(p->hunks);
	p->hunks = NULL;
	p->nhunks = 0;
	p->diff_error[0] = 0;
	side_free(&p->ca);
	side_free(&p->cb);
	char *ta, *tb;
	if (p->kind == RUNG_TEXT_SASS) {
		/* both listings normalized at once; their instruction mix comes with them */
		rung_sass_annot sa, sb;
		ta = tb = NULL;
		if (rung_sass_annot_load_pair(&sa, &sb, t->model, m->rows[ra].hash, m->rows[rb].hash,
					      p->raw ? 0 : RUNG_SASS_RENAME_REGS) < 0) {
			snprintf(p->diff_error, sizeof(p->diff_error), "%s", rung_error_last());
		} else {
			/* normalized: by basic block (core/sass_diff.h), straight from the listings */
			if (!p->raw && rung_sass_blockdiff(&p->diff, &sa.s, &sb.s, 3) < 0)
				snprintf(p->diff_error, sizeof(p->diff_error), "%s", rung_error_last());
			ta = sass_side(&sa, &p->ca, &p->xa, p->diff_error, sizeof(p->diff_error));
			tb = sass_side(&sb, &p->cb, &p->xb, p->diff_error, sizeof(p->diff_error));
			p->mix_ok = ta && tb;
			p->mix_err[0] = 0;
			snprintf(p->mix_a, sizeof(p->mix_a), "%s", m->rows[ra].hash);
			snprintf(p->mix_b, sizeof(p->mix_b), "%s", m->rows[rb].hash);
			if (!p->raw) { /* the diff is made */
				free(ta);
				free(tb);
				ta = tb = NULL;
			}
		}
	} else {
		ta = get_text(t, m->rows[ra].hash, p->kind, NULL, p->diff_error, sizeof(p->diff_error));
		tb = ta ? get_text(t, m->rows[rb].hash, p->kind, NULL, p->diff_error, sizeof(p->diff_error)) : NULL;
	}
	if (ta && tb && rung_textdiff(&p->diff, ta, tb, 3) < 0)
		snprintf(p->diff_error, sizeof(p->diff_error), "%s", rung_error_last());
	free(ta);
	free(tb);
	p->hunks = malloc(sizeof(int) * (size_t)(p->diff.nhunks + 1));
	for (int i = 0; p->hunks && i < p->diff.n; i++)
		if (p->diff.rows[i].kind == RUNG_DIFF_HUNK)
			p->hunks[p->nhunks++] = i;
}

static int compare_open(rung_view *v)
{
	rung_tui *t = v->tui;
	compare_priv *p = v->priv;
	if (!p) {
		p = v->priv = calloc(1, sizeof(*p));
		if (!p)
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		p->kind = RUNG_TEXT_SASS;
	}
	v->pager = true;
	v->top = 1;
	int ra, rb;
	pick_ab(t, &ra, &rb);
	if (ra < 0 || rb < 0) {
		rung_lines_clear(&p->top);
		rung_lines_add(&p->top, RUNG_ROLE_DIM, "nothing to compare: mark versions with a and b");
		v->nlines = p->top.n;
		return 0;
	}
	/* the diff is costly: rebuild only when a, b or the kind changed; it comes
	 * first so that a SASS diff also gives the top its instruction mix. The
	 * PTX and SASS are made in the background first: meanwhile the screen says
	 * so and keys work (RUNG_EV_TEXT reopens it). */
	const char *ha = t->model->rows[ra].hash, *hb = t->model->rows[rb].hash;
	if (!p->built || strcmp(p->a, ha) || strcmp(p->b, hb) || p->built_kind != p->kind || p->built_raw != p->raw) {
		snprintf(p->a, sizeof(p->a), "%s", ha);
		snprintf(p->b, sizeof(p->b), "%s", hb);
		p->pending = p->kind != RUNG_TEXT_SOURCE && !texts_ready(t->model, ha, hb);
		if (!p->pending) {
			build_diff(v, ra, rb);
			p->built_kind = p->kind;
			p->built_raw = p->raw;
			p->built = true;
		} else {
			p->built = false;
		}
	}
	build_top(v, ra, rb);
	v->nlines = p->top.n + 1 + (p->pending || p->diff_error[0] || !p->diff.n ? 1 : p->diff.n);
	return 0;
}

/* The count of line lno of one side, -1 when unknown. */
static int64_t count_at(const side_counts *c, int lno)
{
	return c->inst && lno > 0 && lno <= c->n ? c->inst[lno - 1] : -1;
}

/* One half of a diff row: line number, count column, stall share column.
 * The right half (ca: a's side) of a changed row also shows the count's delta
 * b - a where both sides have counts, and the stall share's delta where both
 * have stall samples. */
static void draw_half(WINDOW *w, int y, int x, int width, rung_role role, int lno, const char *text, int hscroll,
		      const side_counts *c, const side_counts *ca, int alno, bool changed)
{
	if (width <= 0)
		return;
	rung_tui_fill(w, y, x, width, role == RUNG_ROLE_DEFAULT ? RUNG_ROLE_DEFAULT : role);
	if (!text)
		return;
	int nw = width >= 20 ? 5 : 0;
	/* a deleted or added line says so without colour too (NO_COLOR, monochrome) */
	char mark = role == RUNG_ROLE_DIFF_DEL ? '-' : role == RUNG_ROLE_DIFF_ADD ? '+' : ' ';
	if (nw)
		rung_tui_drawf(w, y, x, nw, mark == ' ' ? RUNG_ROLE_DIM : role, "%4d%c", lno, mark);
	bool in = lno > 0 && lno <= c->n, ain = ca && alno > 0 && alno <= ca->n;
	/* count column: warp instructions executed, '*' on hot lines */
	/* the code comes first: each metric column is drawn only where the text
	 * keeps 32 columns (the right half's delta column: 40) */
	if (c->inst && width - nw - 8 >= 32) {
		int64_t n = in ? c->inst[lno - 1] : -1;
		bool hot = in && c->hot[lno - 1];
		char cs[32] = "";
		if (n >= 0)
			rung_fmt_count(cs, sizeof(cs), (uint64_t)n);
		rung_tui_drawf(w, y, x + nw, 8, hot ? RUNG_ROLE_HOT : RUNG_ROLE_DIM, "%7s%c", cs, hot ? '*' : ' ');
		nw += 8;
	}
	/* stall column: the line's share of the kernel's stall samples, '*' on the most sampled */
	if (c->stall && width - nw - 7 >= 32) {
		double sh = in ? c->stall[lno - 1] : -1;
		bool hot = in && c->stall_hot && c->stall_hot[lno - 1];
		char ss[32] = "";
		if (sh >= 0)
			snprintf(ss, sizeof(ss), "%.1f%%", 100 * sh);
		rung_tui_drawf(w, y, x + nw, 7, hot ? RUNG_ROLE_HOT : RUNG_ROLE_DIM, "%6s%c", ss, hot ? '*' : ' ');
		nw += 7;
	}
	/* the delta column (right side only): on changed lines, the count's change
	 * b - a where both sides ran them, and the stall share's change */
	int dwant = (c->inst && ca && ca->inst ? 8 : 0) + (c->stall && ca && ca->stall ? 10 : 0);
	if (ca && ((c->inst && ca->inst) || (c->stall && ca->stall)) && width - nw - dwant >= 40) {
		char ds[48] = "";
		rung_role dr = RUNG_ROLE_DIM;
		int64_t n = c->inst && in ? c->inst[lno - 1] : -1, na = count_at(ca, alno);
		if (changed && c->inst && ca->inst && n >= 0 && na >= 0 && n != na) {
			char mag[32];
			rung_fmt_count(mag, sizeof(mag), (uint64_t)(n > na ? n - na : na - n));
			snprintf(ds, sizeof(ds), "%c%s", n > na ? '+' : '-', mag);
			dr = n > na ? RUNG_ROLE_SLOWER : RUNG_ROLE_FASTER;
		}
		double sb = c->stall && in ? c->stall[lno - 1] : -1, sa = ca->stall && ain ? ca->stall[alno - 1] : -1;
		if (changed && sb >= 0 && sa >= 0 && fabs(sb - sa) >= 0.0005) {
			snprintf(ds + strlen(ds), sizeof(ds) - strlen(ds), "%s%+.1f%%st", ds[0] ? " " : "", 100 * (sb - sa));
			if (dr == RUNG_ROLE_DIM)
				dr = sb > sa ? RUNG_ROLE_SLOWER : RUNG_ROLE_FASTER;
		}
		int dw = (c->inst && ca->inst ? 8 : 0) + (c->stall && ca->stall ? 10 : 0);
		rung_tui_drawf(w, y, x + nw, dw, dr, "%*s ", dw - 1, ds);
		nw += dw;
	}
	rung_line line = {0};
	line.text = (char *)text;
	line.nseg = 1;
	line.seg[0].end = (int)strlen(text);
	line.seg[0].role = role;
	rung_line_draw(w, y, x + nw, width - nw, &line, hscroll);
}

static void compare_draw(rung_view *v)
{
	compare_priv *p = v->priv;
	rung_view_draw_title(v, "compare a %.*s .. b %.*s  %s diff%s (t switches%s)", RUNG_ID(p->a), RUNG_ID(p->b),
			     rung_text_kind_name(p->kind),
			     p->kind != RUNG_TEXT_SASS ? "" : p->raw ? ", raw" : ", by basic block",
			     p->kind != RUNG_TEXT_SASS ? "" : p->raw ? ", w normalizes" : ", w: raw");
	int rows = rung_view_rows(v);
	int half = (v->width - 1) / 2;
	for (int i = 0; i < rows; i++) {
		int line = v->offset + i, y = v->top + i;
		if (line < p->top.n) {
			rung_line_draw(v->win, y, 0, v->width, &p->top.v[line], 0);
			continue;
		}
		line -= p->top.n;
		if (p->pending) {
			if (line == 0)
				rung_tui_drawf(v->win, y, 0, v->width, RUNG_ROLE_DIM, "computing %s diff... (Esc cancels)",
					       rung_text_kind_name(p->kind));
			continue;
		}
		if (line == 0) {
			rung_tui_fill(v->win, y, 0, v->width, RUNG_ROLE_HEADER);
			char counts[160] = "";
			if (p->kind == RUNG_TEXT_SASS && (p->ca.inst || p->cb.inst)) {
				char na[32] = "-", nb[32] = "-";
				if (p->ca.inst)
					rung_fmt_count(na, sizeof(na), p->ca.total);
				if (p->cb.inst)
					rung_fmt_count(nb, sizeof(nb), p->cb.total);
				snprintf(counts, sizeof(counts), "; executed a %s b %s (warp inst.)", na, nb);
			}
			if (p->kind == RUNG_TEXT_SASS && (p->ca.stall || p->cb.stall))
				snprintf(counts + strlen(counts), sizeof(counts) - strlen(counts), "; stall share per line%s",
					 p->ca.stall && p->cb.stall ? " and its change" : p->ca.stall ? " (a only)" : " (b only)");
			rung_tui_drawf(v->win, y, 0, v->width, RUNG_ROLE_HEADER, "%s diff a -> b: %d hunk%s, +%d -%d%s",
				       rung_text_kind_name(p->kind), p->diff.nhunks, p->diff.nhunks == 1 ? "" : "s", p->diff.adds, p->diff.dels, counts);
			continue;
		}
		line--;
		if (p->diff_error[0]) {
			if (line == 0)
				rung_tui_draw(v->win, y, 0, v->width, RUNG_ROLE_DIM, p->diff_error);
			continue;
		}
		if (line == 0 && p->diff.n == 0) {
			rung_tui_draw(v->win, y, 0, v->width, RUNG_ROLE_DIM, "no differences");
			break;
		}
		if (line >= p->diff.n)
			break;
		const rung_diff_row *d = &p->diff.rows[line];
		if (d->kind == RUNG_DIFF_HUNK) {
			rung_tui_draw(v->win, y, 0, v->width, RUNG_ROLE_DIFF_HUNK, d->left ? d->left : "@@");
			continue;
		}
		rung_role lr = d->kind == RUNG_DIFF_DEL || d->kind == RUNG_DIFF_CHANGE ? RUNG_ROLE_DIFF_DEL : RUNG_ROLE_DEFAULT;
		rung_role rr = d->kind == RUNG_DIFF_ADD || d->kind == RUNG_DIFF_CHANGE ? RUNG_ROLE_DIFF_ADD : RUNG_ROLE_DEFAULT;
		draw_half(v->win, y, 0, half, lr, d->lno, d->left, v->hscroll, &p->ca, NULL, 0, false);
		rung_tui_draw(v->win, y, half, 1, RUNG_ROLE_AXIS, rung_glyph(RUNG_G_VBAR));
		draw_half(v->win, y, half + 1, v->width - half - 1, rr, d->rno, d->right, v->hscroll, &p->cb,
			  p->kind == RUNG_TEXT_SASS ? &p->ca : NULL, d->lno, d->kind != RUNG_DIFF_SAME);
	}
}

static int compare_request(rung_view *v, rung_request req)
{
	compare_priv *p = v->priv;
	int base = p->top.n + 1;
	switch (req) {
	case RUNG_REQ_NEXT_CASE: {
		const rung_check_metric *ca, *cb;
		int ra, rb;
		pick_ab(v->tui, &ra, &rb);
		int nc = ra >= 0 && rb >= 0 ? map_pair(&ca, &cb, v->tui->model->rows[ra].result, v->tui->model->rows[rb].result, 0) : 0;
		if (nc == 0) {
			rung_tui_message(v->tui, false, "no case with errors to map");
			return RUNG_R_NONE;
		}
		p->map_case = (p->map_case + 1) % nc;
		rung_tui_message(v->tui, false, "error map: case %d of %d", p->map_case + 1, nc);
		return RUNG_R_REOPEN;
	}
	case RUNG_REQ_SASS_RAW:
		if (p->kind != RUNG_TEXT_SASS) {
			rung_tui_message(v->tui, false, "w: only the SASS diff has a raw form (t switches to it)");
			return RUNG_R_NONE;
		}
		p->raw = !p->raw;
		rung_tui_message(v->tui, false, p->raw ? "SASS diff: raw (nvdisasm's registers, line by line)"
						       : "SASS diff: normalized (registers renamed, by basic block)");
		return RUNG_R_REOPEN;
	case RUNG_REQ_TEXT_KIND:
		p->kind = (rung_text_kind)((p->kind + 1) % RUNG_NTEXT);
		rung_tui_message(v->tui, false, "%s diff", rung_text_kind_name(p->kind));
		return RUNG_R_REOPEN;
	case RUNG_REQ_NEXT_HUNK:
	case RUNG_REQ_PREV_HUNK: {
		int cur = v->offset - base;
		int target = -1;
		if (req == RUNG_REQ_NEXT_HUNK) {
			for (int i = 0; i < p->nhunks && target < 0; i++)
				if (p->hunks[i] > cur)
					target = p->hunks[i];
		} else {
			for (int i = p->nhunks - 1; i >= 0 && target < 0; i--)
				if (p->hunks[i] < cur)
					target = p->hunks[i];
		}
		if (target < 0) {
			rung_tui_message(v->tui, false, "no %s hunk", req == RUNG_REQ_NEXT_HUNK ? "next" : "previous");
			return RUNG_R_NONE;
		}
		v->offset = base + target;
		rung_view_clamp(v);
		return RUNG_R_REDRAW;
	}
	case RUNG_REQ_NEXT_PANE:
		/* between the metrics pane and the diff pane */
		v->offset = v->offset >= p->top.n ? 0 : p->top.n;
		rung_view_clamp(v);
		return RUNG_R_REDRAW;
	case RUNG_REQ_ENTER:
		return RUNG_R_NONE;
	default:
		return RUNG_R_UNHANDLED;
	}
}

static void compare_done(rung_view *v)
{
	compare_priv *p = v->priv;
	if (p && p->pending) /* Esc: the texts not started yet are not made */
		rung_model_text_cancel(v->tui->model);
	if (p) {
		rung_lines_clear(&p->top);
		rung_sbs_clear(&p->diff);
		side_free(&p->ca);
		side_free(&p->cb);
		free(p->hunks);
		free(p);
	}
	v->priv = NULL;
}

static const char *compare_line_text(rung_view *v, int i, char *buf, int len)
{
	compare_priv *p = v->priv;
	if (i < p->top.n)
		return p->top.v[i].text;
	i -= p->top.n + 1;
	if (p->pending || i < 0 || i >= p->diff.n)
		return NULL;
	snprintf(buf, (size_t)len, "%s | %s", p->diff.rows[i].left ? p->diff.rows[i].left : "",
		 p->diff.rows[i].right ? p->diff.rows[i].right : "");
	return buf;
}

const rung_view_ops rung_screen_compare_ops = {
	.name = "compare",
	.open = compare_open,
	.draw = compare_draw,
	.request = compare_request,
	.done = compare_done,
	.line_text = compare_line_text,
};
