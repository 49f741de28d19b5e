/* Roofline: a log-log plot of every evaluated version (FLOP/B against
 * FLOP/s) under the memory and compute ceilings, the path through the versions
 * in commit order, the selected one highlighted.
 *
 * Each version has its ideal point (the task's [roofline] FLOP and byte counts
 * over the bench median) and, where the profile rung left counters, the
 * hierarchical ones as ncu draws them: the counted FLOPs over the bytes moved
 * at DRAM (dram.bytes), L2 (lts__t_bytes.sum) and L1 (l1tex__t_bytes.sum), at
 * the counted FLOPs over the median, each level with its glyph and colour role.
 * `L` (mem-levels) cycles the levels drawn: all, DRAM, L2, L1; with one level
 * the path runs through its points too. Results recorded on another machine
 * plot in their own role and are labelled. The ceilings are the speed-of-light
 * guard's (measured where stored and higher, else the datasheet's: title), each
 * labelled with its name and value ("DRAM 4.8 TB/s", "FP32 67 TFLOP/s"; "(measured)"
 * or "(datasheet)" after one whose source is not the title's) in free cells
 * beside its line; a level's bandwidth slope is drawn when a point of it is. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/profile.h"
#include "core/roofline.h"
#include "core/roofline_fit.h"
#include "tui/canvas.h"
#include "tui/draw.h"
#include "tui/model/rowmetrics.h"
#include "tui/view.h"

/* The measured points of a version: one FLOP/s, an intensity per memory
 * level (NAN where it has no counters for it). */
typedef struct {
	double intensity[RUNG_MEM_NLEVELS], flop_s;
	double bytes_ratio; /* measured DRAM bytes / the bytes it needs ([roofline]); NAN when unknown */
} measured_pt;

/* The levels drawn: every one, or one of them (RUNG_REQ_MEM_LEVELS cycles). */
typedef enum { SHOW_ALL = 0, SHOW_DRAM, SHOW_L2, SHOW_L1, SHOW_N } show_mode;

typedef struct {
	rung_row_metrics *mx;
	measured_pt *ms;
	int n;
	bool any_level[RUNG_MEM_NLEVELS], any_recorded;
	show_mode show;
} roof_priv;

static void measured_get(measured_pt *o, const rung_model_row *row, const rung_row_metrics *mx)
{
	for (int l = 0; l < RUNG_MEM_NLEVELS; l++)
		o->intensity[l] = NAN;
	o->flop_s = o->bytes_ratio = NAN;
	const rung_result *r = row->result;
	if (!r || isnan(mx->median_ms) || mx->median_ms <= 0)
		return;
	double flops = rung_profile_flops(r);
	if (!(flops > 0))
		return;
	rung_profile_intensities(o->intensity, r);
	double s = mx->median_ms * 1e-3;
	o->flop_s = flops / s;
	double bytes = rung_counter_get(r, "dram.bytes");
	if (bytes > 0 && !isnan(r->bench.tbps) && r->bench.tbps > 0)
		o->bytes_ratio = bytes / (r->bench.tbps * 1e12 * s);
}

static bool level_shown(const roof_priv *p, int l)
{
	return p->show == SHOW_ALL || (int)p->show == l + 1;
}

/* The level's bandwidth (NAN when unknown) and its source. */
static double level_bw(const rung_model_ceilings *ce, int l, rung_ceil_src *src)
{
	rung_ceil_src sd = l == RUNG_MEM_DRAM ? ce->src_dram : l == RUNG_MEM_L2 ? ce->src_l2 : ce->src_l1;
	if (src)
		*src = sd;
	double v = l == RUNG_MEM_DRAM ? ce->bw_bytes_s : l == RUNG_MEM_L2 ? ce->l2_bytes_s : ce->l1_bytes_s;
	return v > 0 ? v : NAN;
}

static rung_role level_role(int l)
{
	return l == RUNG_MEM_DRAM ? RUNG_ROLE_MEM_DRAM : l == RUNG_MEM_L2 ? RUNG_ROLE_MEM_L2 : RUNG_ROLE_MEM_L1;
}

static const char *level_glyph(int l)
{
	static const char *const u[] = {"\u25c6", "\u25b2", "\u25a0"}, *const a[] = {"x", "+", "#"};
	return rung_tui_utf8 ? u[l] : a[l];
}

static bool plottable(double x, double y)
{
	return !isnan(x) && !isnan(y) && x > 0 && y > 0;
}

static int roof_open(rung_view *v)
{
	rung_tui *t = v->tui;
	rung_model *m = t->model;
	roof_priv *p = v->priv;
	if (!p && !(p = v->priv = calloc(1, sizeof(*p))))
		return -1;
	free(p->mx);
	free(p->ms);
	p->n = m->nrows;
	p->mx = calloc((size_t)(m->nrows + 1), sizeof(*p->mx));
	p->ms = calloc((size_t)(m->nrows + 1), sizeof(*p->ms));
	if (!p->mx || !p->ms)
		return -1;
	int base = rung_model_baseline(m);
	p->any_recorded = false;
	for (int l = 0; l < RUNG_MEM_NLEVELS; l++)
		p->any_level[l] = false;
	for (int i = 0; i < m->nrows; i++) {
		const rung_result *ri = m->rows[i].result;
		if (ri && ri->bench.valid && !isnan(ri->bench.tflops)) /* the roof that fits its instruction mix */
			rung_model_row_mma(m, i);
		rung_row_metrics_get(&p->mx[i], m, i, base);
		measured_get(&p->ms[i], &m->rows[i], &p->mx[i]);
		for (int l = 0; l < RUNG_MEM_NLEVELS; l++)
			p->any_level[l] |= plottable(p->ms[i].intensity[l], p->ms[i].flop_s);
		p->any_recorded |= rung_model_row_is_recorded(&m->rows[i]) && plottable(p->mx[i].intensity, p->mx[i].flop_s);
	}
	v->nlines = m->nrows;
	v->cursor = rung_tui_selected_row(t);
	v->top = v->height; /* no list rows: clicks do nothing here */
	return 0;
}

typedef struct {
	double xlo, xhi, ylo, yhi; /* log10 ranges */
	int dw, dh;
} axes;

static int to_dx(const axes *a, double x)
{
	return (int)lround((log10(x) - a->xlo) / (a->xhi - a->xlo) * (a->dw - 1));
}

static int to_dy(const axes *a, double y)
{
	return a->dh - 1 - (int)lround((log10(y) - a->ylo) / (a->yhi - a->ylo) * (a->dh - 1));
}

static void tick_label(char *buf, int len, double v)
{
	if (v < 1)
		snprintf(buf, (size_t)len, "%g", v);
	else
		rung_fmt_si(buf, len, v);
}

/* "4.8 TB/s", "67 TFLOP/s", "1.98 PFLOP/s" */
static void fmt_rate(char *buf, int len, double v, const char *unit)
{
	static const struct {
		double scale;
		const char *prefix;
	} p[] = {{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1, ""}};
	size_t k = 0;
	while (k + 1 < sizeof(p) / sizeof(p[0]) && v < p[k].scale)
		k++;
	snprintf(buf, (size_t)len, "%.3g %s%s", v / p[k].scale, p[k].prefix, unit);
}

/* Whether n cells of canvas row cy from cx hold nothing. */
static bool cells_free(const rung_canvas *c, int cy, int cx, int n)
{
	if (cy < 0 || cy >= c->h || cx < 0 || cx + n > c->w)
		return false;
	for (int i = 0; i < n; i++) {
		size_t k = (size_t)cy * (size_t)c->w + (size_t)(cx + i);
		if (c->bits[k] || c->glyph[k])
			return false;
	}
	return true;
}

/* Cells of the plot that labels took (the canvas knows only its own). */
typedef struct {
	const rung_canvas *c;
	unsigned char *taken; /* c->w * c->h */
} label_map;

/* Whether n cells of canvas row cy from cx hold nothing, not even a label,
 * and a label is not right beside them ("FP32 66.9 TFLOP/sDRAM 4.81 TB/s"). */
static bool room(const label_map *lm, int cy, int cx, int n)
{
	if (!cells_free(lm->c, cy, cx, n))
		return false;
	for (int i = -1; lm->taken && i <= n; i++)
		if (cx + i >= 0 && cx + i < lm->c->w && lm->taken[(size_t)cy * (size_t)lm->c->w + (size_t)(cx + i)])
			return false;
	return true;
}

static void put_label(rung_view *v, label_map *lm, int margin, int cy, int cx, const char *text, rung_role role)
{
	int n = (int)strlen(text);
	rung_tui_draw(v->win, 1 + cy, margin + cx, n, role, text);
	for (int i = 0; lm->taken && i < n; i++)
		lm->taken[(size_t)cy * (size_t)lm->c->w + (size_t)(cx + i)] = 1;
}

/* Labels a flat roof at canvas row ry whose left end is cell cx_lo: at the
 * right end, just above the line, else just below it within the roof's span,
 * else on the top row above it, kept clear of the axis' unit beside that row's
 * end. Above the line the label may start left of cx_lo, down to cell
 * above_lo (nothing is drawn above a roof): a roof shorter than its label, as
 * the tensor roof of a plot reaching down to 0.01 FLOP/B, is labelled all the
 * same (#28 D-9). */
static bool label_roof(rung_view *v, label_map *lm, int margin, int ry, int cx_lo, int above_lo, const char *text,
		       rung_role role)
{
	int n = (int)strlen(text), w = lm->c->w;
	struct { int r, lo, end; } at[] = {{ry - 1, above_lo, w}, {ry + 1, cx_lo, w}, {0, above_lo, w - 3}};
	for (int k = 0; k < 3; k++) {
		if (at[k].r < (k == 2 ? 0 : 1) || (k == 2 && ry != 1))
			continue;
		for (int cx = at[k].end - n; cx >= at[k].lo && cx >= 0; cx--)
			if (room(lm, at[k].r, cx, n)) {
				put_label(v, lm, margin, at[k].r, cx, text, role);
				return true;
			}
	}
	return false;
}

/* Labels a memory slope whose upper end (its ridge with the FP32 roof) is at
 * canvas cell (rx, ry): in the rows above the roof, ending at the ridge's
 * column, the nearest row first (a label already there pushes it up); only
 * where no row has room there, as near it as there is room. */
static bool label_slope_top(rung_view *v, label_map *lm, int margin, int rx, int ry, const char *text, rung_role role)
{
	int n = (int)strlen(text);
	for (int r = ry - 1; r >= 0; r--) {
		int cx = rx - n + 1;
		if (cx >= 0 && cx + n <= lm->c->w && room(lm, r, cx, n)) {
			put_label(v, lm, margin, r, cx, text, role);
			return true;
		}
	}
	for (int r = ry - 1; r >= 1; r--)
		for (int d = 0; d <= lm->c->w; d++) {
			int cx = rx - n + 1 + d; /* ending at rx, then moved right */
			if (cx < 0)
				continue;
			if (cx + n > lm->c->w)
				break;
			if (room(lm, r, cx, n)) {
				put_label(v, lm, margin, r, cx, text, role);
				return true;
			}
		}
	return false;
}

/* "L2 10.5 TB/s", with "(measured)" or "(datasheet)" when the ceiling's source
 * is not the one the title names. */
static void ceiling_label(char *buf, int len, const char *name, double value, const char *unit, rung_ceil_src src,
			  const char *title_src)
{
	char val[32];
	fmt_rate(val, sizeof(val), value, unit);
	if (src != RUNG_CEIL_NONE && strcmp(rung_ceil_src_name(src), title_src))
		snprintf(buf, (size_t)len, "%s %s (%s)", name, val, rung_ceil_src_name(src));
	else
		snprintf(buf, (size_t)len, "%s %s", name, val);
}

static void roof_draw(rung_view *v)
{
	rung_tui *t = v->tui;
	rung_model *m = t->model;
	roof_priv *p = v->priv;
	const rung_model_ceilings *ce = &m->ceil;
	const char *title_src = ce->source[0] ? ce->source : "no";
	rung_view_draw_title(v, "roofline %s (%s ceilings)", m->title, title_src);
	int sel = rung_tui_selected_row(t);
	bool any_shown = false;
	for (int l = 0; l < RUNG_MEM_NLEVELS; l++)
		any_shown |= p->any_level[l] && level_shown(p, l);
	/* info line: the selected version's points, labelled when recorded elsewhere */
	int info_y = v->height - 1;
	if (sel >= 0 && sel < p->n && info_y >= 1) {
		const rung_model_row *row = &m->rows[sel];
		const rung_row_metrics *mx = &p->mx[sel];
		const measured_pt *ms = &p->ms[sel];
		char line[512], fs[32];
		int o = 0;
		bool rec = rung_model_row_is_recorded(row);
		if (isnan(mx->flop_s) || isnan(mx->intensity)) {
			o = snprintf(line, sizeof(line), "%.*s not benched", RUNG_ID(row->hash));
		} else {
			char roof[96];
			rung_fmt_si(fs, sizeof(fs), mx->flop_s);
			rung_fmt_roof_of(roof, sizeof(roof), mx, true);
			o = snprintf(line, sizeof(line), "%.*s %.1f FLOP/B %sFLOP/s %.0f%% %s%s", RUNG_ID(row->hash), mx->intensity, fs,
				     mx->roof_pct, roof, mx->impossible ? " IMPOSSIBLE" : "");
		}
		bool first = true;
		for (int l = 0; l < RUNG_MEM_NLEVELS && o < (int)sizeof(line); l++)
			if (plottable(ms->intensity[l], ms->flop_s)) {
				o += snprintf(line + o, sizeof(line) - (size_t)o, ms->intensity[l] >= 1 ? "%s %s %.1f" : "%s %s %.2g",
					      first ? ";" : "", rung_mem_level_label((rung_mem_level)l), ms->intensity[l]);
				first = false;
			}
		if (!first && o < (int)sizeof(line)) {
			o += snprintf(line + o, sizeof(line) - (size_t)o, " FLOP/B");
			/* the measured FLOP/s only when the counted FLOPs differ from the [roofline] ones */
			if (o < (int)sizeof(line) && (isnan(mx->flop_s) || fabs(ms->flop_s / mx->flop_s - 1) > 0.01)) {
				rung_fmt_si(fs, sizeof(fs), ms->flop_s);
				o += snprintf(line + o, sizeof(line) - (size_t)o, " %sFLOP/s", fs);
			}
			if (!isnan(ms->bytes_ratio) && o < (int)sizeof(line))
				o += snprintf(line + o, sizeof(line) - (size_t)o, ", moves %.1fx the bytes it needs", ms->bytes_ratio);
		}
		if (rec && o < (int)sizeof(line))
			o += snprintf(line + o, sizeof(line) - (size_t)o, " (%s)",
				      row->result->recorded_note[0] ? row->result->recorded_note : "recorded on another machine");
		if (o < (int)sizeof(line))
			snprintf(line + o, sizeof(line) - (size_t)o, "  %s", row->subject);
		rung_role rl = isnan(mx->flop_s) ? RUNG_ROLE_DIM
			     : mx->impossible	  ? RUNG_ROLE_IMPOSSIBLE
			     : rec		  ? RUNG_ROLE_RECORDED
						  : RUNG_ROLE_DEFAULT;
		rung_tui_draw(v->win, info_y, 0, v->width, rl, line);
	}
	bool have_ceil = !isnan(ce->bw_bytes_s) && !isnan(ce->fp32_flop_s);
	int margin = 5;
	/* room on the right for the "FLOP/B" unit after the last tick when wide enough */
	/* a legend line above the info line when there is more than one kind of point */
	bool legend = (any_shown || p->any_recorded) && v->height >= 12;
	int pw = v->width - margin - (v->width >= 40 ? 8 : 1), ph = v->height - 3 - legend; /* title, x labels, info */
	if (pw < 4 || ph < 1) {
		return;
	}
	if (!have_ceil) {
		rung_tui_draw(v->win, 1, 0, v->width, RUNG_ROLE_DIM, "no roofline ceilings known: run 'rung ceilings' on the GPU box");
		return;
	}
	/* the memory slopes drawn: DRAM's always (the ideal points' roof), L2's and
	 * L1's where their bandwidth is known and a point of that level is drawn */
	bool slope[RUNG_MEM_NLEVELS];
	double bw[RUNG_MEM_NLEVELS];
	rung_ceil_src bsrc[RUNG_MEM_NLEVELS];
	int nslopes = 0;
	for (int l = 0; l < RUNG_MEM_NLEVELS; l++) {
		bw[l] = level_bw(ce, l, &bsrc[l]);
		slope[l] = l == RUNG_MEM_DRAM || (!isnan(bw[l]) && p->any_level[l] && level_shown(p, l));
		nslopes += slope[l];
	}
	/* the tensor roof drawn: the one of the task's data type (TF32 for f32),
	 * which a tensor kernel's roof % is against (rowmetrics.c); the FP16 one
	 * where that is unknown */
	double tensor = ce->tensor_flop_s;
	rung_ceil_src tsrc = ce->src_tensor;
	char tname[24] = "FP16 tensor";
	{
		const char *nm;
		rung_tc_type tc = rung_fit_tensor_type(m->goal_dtype, &nm);
		if (!isnan(ce->tensor_tc[tc])) {
			tensor = ce->tensor_tc[tc];
			tsrc = ce->src_tc[tc];
			snprintf(tname, sizeof(tname), "%s tensor", nm);
		}
	}
	/* ranges */
	double ridge = ce->fp32_flop_s / ce->bw_bytes_s;
	double top = isnan(tensor) ? ce->fp32_flop_s : fmax(ce->fp32_flop_s, tensor);
	double imin = ridge, imax = ridge, fmin_ = ce->fp32_flop_s, fmax_ = top;
	for (int l = 0; l < RUNG_MEM_NLEVELS; l++)
		if (slope[l])
			imin = fmin(imin, ce->fp32_flop_s / bw[l]);
	for (int i = 0; i < p->n; i++) {
		const rung_row_metrics *mx = &p->mx[i];
		if (isnan(mx->intensity) || isnan(mx->flop_s) || mx->intensity <= 0 || mx->flop_s <= 0)
			continue;
		imin = fmin(imin, mx->intensity);
		imax = fmax(imax, mx->intensity);
		fmin_ = fmin(fmin_, mx->flop_s);
		fmax_ = fmax(fmax_, mx->flop_s);
	}
	for (int i = 0; i < p->n; i++) {
		const measured_pt *ms = &p->ms[i];
		for (int l = 0; l < RUNG_MEM_NLEVELS; l++) {
			if (!level_shown(p, l) || !plottable(ms->intensity[l], ms->flop_s))
				continue;
			imin = fmin(imin, ms->intensity[l]);
			imax = fmax(imax, ms->intensity[l]);
			fmin_ = fmin(fmin_, ms->flop_s);
			fmax_ = fmax(fmax_, ms->flop_s);
		}
	}
	axes a;
	a.xlo = floor(log10(imin)) - (imin == ridge ? 1 : 0);
	a.xhi = ceil(log10(imax) + 1e-9) + (imax == ridge ? 1 : 0);
	if (a.xhi - a.xlo < 2)
		a.xhi = a.xlo + 2;
	a.ylo = floor(log10(fmin(fmin_, ce->bw_bytes_s * pow(10, a.xlo)) + 1e-9));
	a.yhi = ceil(log10(fmax_) + 1e-9);
	if (a.yhi - a.ylo < 1)
		a.yhi = a.ylo + 1;
	rung_canvas c;
	if (rung_canvas_init(&c, pw, ph) < 0)
		return;
	a.dw = c.dw;
	a.dh = c.dh;
	/* ceilings: memory slopes up to their ridges, flat compute roofs after the first */
	double x0 = pow(10, a.xlo), x1 = pow(10, a.xhi);
	double xr = fmin(ridge, x1), xfirst = xr;
	for (int l = RUNG_MEM_NLEVELS - 1; l >= 0; l--) {
		if (!slope[l])
			continue;
		double r = fmin(ce->fp32_flop_s / bw[l], x1);
		xfirst = fmin(xfirst, r);
		rung_canvas_line(&c, to_dx(&a, x0), to_dy(&a, fmax(bw[l] * x0, pow(10, a.ylo))), to_dx(&a, r), to_dy(&a, bw[l] * r),
				 l == RUNG_MEM_DRAM ? RUNG_ROLE_CEILING : level_role(l), 2);
	}
	rung_canvas_line(&c, to_dx(&a, xfirst), to_dy(&a, ce->fp32_flop_s), to_dx(&a, x1), to_dy(&a, ce->fp32_flop_s),
			 RUNG_ROLE_CEILING, 2);
	if (!isnan(tensor) && tensor > ce->fp32_flop_s) {
		double tr = tensor / ce->bw_bytes_s;
		if (tr < x1) {
			rung_canvas_line(&c, to_dx(&a, xr), to_dy(&a, ce->bw_bytes_s * xr), to_dx(&a, tr), to_dy(&a, tensor),
					 RUNG_ROLE_DIM, 1);
			rung_canvas_line(&c, to_dx(&a, tr), to_dy(&a, tensor), to_dx(&a, x1), to_dy(&a, tensor),
					 RUNG_ROLE_DIM, 1);
		}
	}
	/* path in commit order (rows are newest first): the ideal points', and with
	 * one level drawn, that level's points' */
	int px = -1, py = -1;
	for (int i = p->n - 1; i >= 0; i--) {
		const rung_row_metrics *mx = &p->mx[i];
		if (isnan(mx->intensity) || isnan(mx->flop_s) || mx->flop_s <= 0 || mx->intensity <= 0)
			continue;
		int x = to_dx(&a, mx->intensity), y = to_dy(&a, mx->flop_s);
		if (px >= 0)
			rung_canvas_line(&c, px, py, x, y, RUNG_ROLE_PATH, 1);
		px = x, py = y;
	}
	if (p->show != SHOW_ALL) {
		int l = (int)p->show - 1;
		px = py = -1;
		for (int i = p->n - 1; i >= 0; i--) {
			const measured_pt *ms = &p->ms[i];
			if (!plottable(ms->intensity[l], ms->flop_s))
				continue;
			int x = to_dx(&a, ms->intensity[l]), y = to_dy(&a, ms->flop_s);
			if (px >= 0)
				rung_canvas_line(&c, px, py, x, y, level_role(l), 1);
			px = x, py = y;
		}
	}
	/* the selected version's measured points, tied to its ideal one */
	if (sel >= 0 && sel < p->n && plottable(p->mx[sel].intensity, p->mx[sel].flop_s))
		for (int l = 0; l < RUNG_MEM_NLEVELS; l++)
			if (level_shown(p, l) && plottable(p->ms[sel].intensity[l], p->ms[sel].flop_s))
				rung_canvas_line(&c, to_dx(&a, p->mx[sel].intensity), to_dy(&a, p->mx[sel].flop_s),
						 to_dx(&a, p->ms[sel].intensity[l]), to_dy(&a, p->ms[sel].flop_s), RUNG_ROLE_DIM, 3);
	/* L1 first, so that DRAM's glyph is on top where two share a cell */
	for (int l = RUNG_MEM_NLEVELS - 1; l >= 0; l--) {
		if (!level_shown(p, l))
			continue;
		for (int i = p->n - 1; i >= 0; i--) {
			const measured_pt *ms = &p->ms[i];
			if (!plottable(ms->intensity[l], ms->flop_s))
				continue;
			bool is_sel = i == sel;
			rung_canvas_glyph(&c, to_dx(&a, ms->intensity[l]), to_dy(&a, ms->flop_s), level_glyph(l),
					  is_sel ? RUNG_ROLE_SELECTED_POINT : level_role(l), (is_sel ? 8 : 4) - (l > 0));
		}
	}
	for (int i = p->n - 1; i >= 0; i--) {
		const rung_row_metrics *mx = &p->mx[i];
		if (isnan(mx->intensity) || isnan(mx->flop_s) || mx->flop_s <= 0 || mx->intensity <= 0)
			continue;
		int x = to_dx(&a, mx->intensity), y = to_dy(&a, mx->flop_s);
		bool is_sel = i == sel;
		bool rec = rung_model_row_is_recorded(&m->rows[i]);
		rung_role role = is_sel ? RUNG_ROLE_SELECTED_POINT
			       : mx->impossible ? RUNG_ROLE_IMPOSSIBLE
			       : rec ? RUNG_ROLE_RECORDED
				     : RUNG_ROLE_POINT;
		const char *g = rung_tui_utf8 ? (is_sel ? "\u25c9" : rec ? "\u25cb" : "\u25cf") : (is_sel ? "@" : rec ? "r" : "o");
		rung_canvas_glyph(&c, x, y, g, role, is_sel ? 9 : 5);
	}
	rung_canvas_draw(&c, v->win, 1, margin);
	/* the ceilings' names and values, in free cells beside their lines */
	{
		label_map lm = {&c, calloc((size_t)c.w * (size_t)c.h, 1)};
		int cw = rung_tui_utf8 ? 2 : 1, ch = rung_tui_utf8 ? 4 : 1;
		char lb[96];
		int cxr = to_dx(&a, xr) / cw;
		char fp32[96];
		ceiling_label(fp32, sizeof(fp32), "FP32", ce->fp32_flop_s, "FLOP/s", ce->src_fp32, title_src);
		bool fp32_done = label_roof(v, &lm, margin, to_dy(&a, ce->fp32_flop_s) / ch, cxr, cxr, fp32, RUNG_ROLE_CEILING);
		if (nslopes == 1) {
			/* the DRAM slope alone: just left of it, on the first row below the
			 * ridge with room (nothing is plotted above the slope; the ridge's row
			 * is the roof's) */
			ceiling_label(lb, sizeof(lb), "DRAM", ce->bw_bytes_s, "B/s", ce->src_dram, title_src);
			int n = (int)strlen(lb);
			for (int r = to_dy(&a, ce->bw_bytes_s * xr) / ch + 1; r >= 0 && r < c.h; r++) {
				int left = 0;
				while (left < c.w && cells_free(&c, r, left, 1))
					left++;
				if (left < c.w && left - 1 - n >= 0 && room(&lm, r, left - 1 - n, n)) {
					put_label(v, &lm, margin, r, left - 1 - n, lb, RUNG_ROLE_CEILING);
					break;
				}
			}
		} else {
			/* several slopes side by side leave no room between them: each is
			 * labelled above its upper end, DRAM's first (the ideal points'
			 * roof: nearest its ridge, #28 D-9), the others above it where
			 * their own ridge's column is taken */
			for (int l = 0; l < RUNG_MEM_NLEVELS; l++) {
				if (!slope[l])
					continue;
				double r = fmin(ce->fp32_flop_s / bw[l], x1);
				ceiling_label(lb, sizeof(lb), rung_mem_level_label((rung_mem_level)l), bw[l], "B/s", bsrc[l], title_src);
				label_slope_top(v, &lm, margin, to_dx(&a, r) / cw, to_dy(&a, ce->fp32_flop_s) / ch, lb,
						l == RUNG_MEM_DRAM ? RUNG_ROLE_CEILING : level_role(l));
			}
		}
		/* the tensor roof, after the slopes (each slope's label is only
		 * right above its ridge) */
		if (!isnan(tensor) && tensor > ce->fp32_flop_s && tensor / ce->bw_bytes_s < x1) {
			ceiling_label(lb, sizeof(lb), tname, tensor, "FLOP/s", tsrc, title_src);
			label_roof(v, &lm, margin, to_dy(&a, tensor) / ch, to_dx(&a, tensor / ce->bw_bytes_s) / cw, 0, lb,
				   RUNG_ROLE_DIM);
		}
		/* no room right of the ridge: above the roof further left, where the
		 * slopes' labels left room */
		if (!fp32_done)
			label_roof(v, &lm, margin, to_dy(&a, ce->fp32_flop_s) / ch, cxr, 0, fp32, RUNG_ROLE_CEILING);
		free(lm.taken);
	}
	if (legend) {
		char lg[256];
		int o = snprintf(lg, sizeof(lg), "%s ideal ([roofline] counts)", rung_tui_utf8 ? "\u25cf" : "o");
		if (any_shown) {
			for (int l = 0; l < RUNG_MEM_NLEVELS; l++)
				if (p->any_level[l] && level_shown(p, l) && o < (int)sizeof(lg))
					o += snprintf(lg + o, sizeof(lg) - (size_t)o, "  %s %s%s", level_glyph(l),
						      rung_mem_level_label((rung_mem_level)l),
						      isnan(level_bw(ce, l, NULL)) ? " (no ceiling)" : "");
			if (o < (int)sizeof(lg))
				o += snprintf(lg + o, sizeof(lg) - (size_t)o, " (profile counters; L: %s)",
					      p->show == SHOW_ALL ? "all" : rung_mem_level_label((rung_mem_level)(p->show - 1)));
		}
		if (p->any_recorded && o < (int)sizeof(lg))
			snprintf(lg + o, sizeof(lg) - (size_t)o, "  %s recorded elsewhere", rung_tui_utf8 ? "\u25cb" : "r");
		rung_tui_draw(v->win, v->height - 2, 0, v->width, RUNG_ROLE_DIM, lg);
		/* each level's glyph in its role */
		if (any_shown) {
			int col = (int)strlen("o ideal ([roofline] counts)");
			for (int l = 0; l < RUNG_MEM_NLEVELS && col + 2 < v->width; l++)
				if (p->any_level[l] && level_shown(p, l)) {
					rung_tui_draw(v->win, v->height - 2, col + 2, 1, level_role(l), level_glyph(l));
					col += 4 + (int)strlen(rung_mem_level_label((rung_mem_level)l)) +
					       (isnan(level_bw(ce, l, NULL)) ? (int)strlen(" (no ceiling)") : 0);
				}
		}
	}
	/* y axis: decade labels */
	int cell_h = rung_tui_utf8 ? 4 : 1;
	int last_cy = -1;
	for (int e = (int)a.yhi; e >= (int)a.ylo; e--) {
		int cy = to_dy(&a, pow(10, e)) / cell_h;
		if (cy < 0 || cy >= ph || cy == last_cy)
			continue;
		last_cy = cy;
		char lb[16];
		rung_fmt_si(lb, sizeof(lb), pow(10, e));
		rung_tui_draw_right(v->win, 1 + cy, 0, margin - 1, RUNG_ROLE_AXIS, lb);
		rung_tui_draw(v->win, 1 + cy, margin - 1, 1, RUNG_ROLE_AXIS, rung_tui_utf8 ? "\u2524" : "+");
	}
	for (int cy = 0; cy < ph; cy++) {
		chtype ch = mvwinch(v->win, 1 + cy, margin - 1) & A_CHARTEXT;
		if (ch == ' ')
			rung_tui_draw(v->win, 1 + cy, margin - 1, 1, RUNG_ROLE_AXIS, rung_glyph(RUNG_G_VBAR));
	}
	if (v->width > 6)
		rung_tui_draw(v->win, 1, 0, margin - 1, RUNG_ROLE_AXIS, "");
	/* x axis labels */
	int ly = 1 + ph;
	int cell_w = rung_tui_utf8 ? 2 : 1;
	int last_end = -1;
	for (int e = (int)a.xlo; e <= (int)a.xhi; e++) {
		int cx = margin + to_dx(&a, pow(10, e)) / cell_w;
		char lb[16];
		tick_label(lb, sizeof(lb), pow(10, e));
		int lw = (int)strlen(lb);
		int lx = cx - lw / 2;
		if (lx < margin)
			lx = margin;
		if (lx <= last_end || lx + lw > v->width)
			continue;
		rung_tui_draw(v->win, ly, lx, lw, RUNG_ROLE_AXIS, lb);
		last_end = lx + lw;
	}
	if (last_end + 7 <= v->width)
		rung_tui_draw(v->win, ly, v->width - 6, 6, RUNG_ROLE_AXIS, "FLOP/B");
	if (v->width >= margin + 12 && ph >= 2)
		rung_tui_draw(v->win, 1, v->width - 7, 7, RUNG_ROLE_AXIS, "FLOP/s");
	rung_canvas_clear(&c);
}

static int roof_request(rung_view *v, rung_request req)
{
	rung_tui *t = v->tui;
	int row = rung_tui_selected_row(t);
	switch (req) {
	case RUNG_REQ_MOVE_DOWN:
	case RUNG_REQ_MOVE_UP:
		/* through the versions (the table's order: newest first) */
		row += req == RUNG_REQ_MOVE_DOWN ? 1 : -1;
		if (row < 0 || row >= t->model->nrows)
			return RUNG_R_NONE;
		rung_tui_select_row(t, row);
		v->cursor = row;
		return RUNG_R_REDRAW;
	case RUNG_REQ_MEM_LEVELS: {
		roof_priv *p = v->priv;
		if (!p)
			return RUNG_R_NONE;
		p->show = (show_mode)((p->show + 1) % SHOW_N);
		return RUNG_R_REDRAW;
	}
	case RUNG_REQ_ENTER:
		return RUNG_R_UNHANDLED;
	default:
		return RUNG_R_UNHANDLED;
	}
}

static void roof_done(rung_view *v)
{
	roof_priv *p = v->priv;
	if (p) {
		free(p->mx);
		free(p->ms);
		free(p);
	}
	v->priv = NULL;
}

static const char *roof_line_text(rung_view *v, int i, char *buf, int len)
{
	rung_model *m = v->tui->model;
	if (i < 0 || i >= m->nrows)
		return NULL;
	snprintf(buf, (size_t)len, "%s %s", m->rows[i].hash, m->rows[i].subject);
	return buf;
}

static void roof_select(rung_view *v)
{
	rung_tui_select_row(v->tui, v->cursor);
}

const rung_view_ops rung_screen_roofline_ops = {
	.name = "roofline",
	.open = roof_open,
	.draw = roof_draw,
	.request = roof_request,
	.select = roof_select,
	.done = roof_done,
	.line_text = roof_line_text,
};
