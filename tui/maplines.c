/* Error map lines (tui/maplines.h). */
#include "tui/maplines.h"

#include <stdio.h>
#include <string.h>

#include "core/errmap.h"
#include "tui/draw.h"

enum { LABEL = 6, GAP = 4 };

int rung_map_cases(int *out, int max, const rung_result *r)
{
	int n = 0;
	for (int i = 0; r && i < r->nmetrics && n < max; i++)
		if (rung_err_map_any(&r->metrics[i].map))
			out[n++] = i;
	return n;
}

const rung_check_metric *rung_map_same_case(const rung_result *r, const rung_check_metric *m)
{
	char want[256] = "", dims[256];
	if (m)
		rung_dimset_format(want, sizeof want, &m->dims);
	for (int i = 0; r && m && i < r->nmetrics; i++) {
		const rung_check_metric *x = &r->metrics[i];
		dims[0] = 0;
		rung_dimset_format(dims, sizeof dims, &x->dims);
		if (!strcmp(x->output, m->output) && x->seed == m->seed && x->inputs == m->inputs && !strcmp(dims, want))
			return x;
	}
	return NULL;
}

const char *rung_map_glyph(char c, rung_role *role)
{
	int lv = rung_err_map_level_of(c);
	static const char *const ascii[] = {".", "1", "2", "3", "4", "5", "6", "7", "8", "9", "I", "N", "U"};
	if (lv < 0) {
		*role = RUNG_ROLE_DEFAULT;
		return "?";
	}
	if (lv == RUNG_MAP_OK)
		*role = RUNG_ROLE_MAP_OK;
	else if (lv > RUNG_MAP_EXCESS_MAX)
		*role = RUNG_ROLE_MAP_MARK;
	else
		*role = lv == 1 ? RUNG_ROLE_SCALE_1 : lv <= 3 ? RUNG_ROLE_SCALE_2 : lv <= 6 ? RUNG_ROLE_SCALE_3 : RUNG_ROLE_SCALE_4;
	if (!rung_tui_utf8 || lv > RUNG_MAP_EXCESS_MAX)
		return ascii[lv];
	/* blocks by band: within, <= 10x, <= 1e3x, <= 1e6x, more */
	switch (*role) {
	case RUNG_ROLE_MAP_OK: return "\u00b7";
	case RUNG_ROLE_SCALE_1: return "\u2591";
	case RUNG_ROLE_SCALE_2: return "\u2592";
	case RUNG_ROLE_SCALE_3: return "\u2593";
	default: return "\u2588";
	}
}

/* How many tiles one character holds across (fx) and down (fy) so that
 * ncols maps of cols tiles fit in width: powers of two, a character about
 * square (two tile rows per line when the map is tall). */
static void factors(int *fx, int *fy, const rung_err_map_geom *g, int nmaps, int width)
{
	*fx = 1;
	while (*fx < RUNG_MAP_SIDE && LABEL + nmaps * ((g->cols + *fx - 1) / *fx) + (nmaps - 1) * GAP > width)
		*fx *= 2;
	*fy = *fx * (g->rows > RUNG_MAP_LINES_MAX ? 2 : 1);
	if (*fy > RUNG_MAP_SIDE)
		*fy = RUNG_MAP_SIDE;
}

/* The level characters of line y of m (tiles merged fx x fy: the worst wins). */
static void cells(char *buf, const rung_err_map *m, int y, int fx, int fy)
{
	int n = 0;
	for (int x = 0; x * fx < m->g.cols; x++) {
		int worst = 0;
		for (int r = y * fy; r < (y + 1) * fy && r < m->g.rows; r++)
			for (int c = x * fx; c < (x + 1) * fx && c < m->g.cols; c++)
				if (rung_err_map_at(m, r, c) > worst)
					worst = rung_err_map_at(m, r, c);
		buf[n++] = rung_err_map_char(worst);
	}
	buf[n] = 0;
}

static void header(rung_lines *l, const rung_check_metric *m, int nth, int ncases, const char *what)
{
	char ds[256] = "", in[32] = "";
	rung_dimset_format(ds, sizeof ds, &m->dims);
	if (m->inputs != RUNG_DIST_NORMAL)
		snprintf(in, sizeof in, " %s", rung_dist_name(m->inputs));
	rung_lines_new(l);
	rung_lines_seg(l, RUNG_ROLE_HEADER, "%s", what);
	rung_lines_seg(l, RUNG_ROLE_DEFAULT, "  %s %s%s seed %llu", m->output, ds, in, (unsigned long long)m->seed);
	rung_lines_seg(l, RUNG_ROLE_DIM, "  (case %d of %d with errors%s)", nth + 1, ncases, ncases > 1 ? "; m: next" : "");
}

static void sizes(rung_lines *l, const rung_err_map_geom *g, int fx, int fy)
{
	char each[96] = "";
	if (fx > 1 || fy > 1)
		snprintf(each, sizeof each, ", one character %lld x %lld", (long long)(g->th * fy), (long long)(g->tw * fx));
	rung_lines_add(l, RUNG_ROLE_DIM, "  %lld x %lld elements, tiles of %lld x %lld%s: the worst |got - ref| / tolerance",
		       (long long)g->h, (long long)g->w, (long long)g->th, (long long)g->tw, each);
}

/* Line y's label: row 0 on the first line, the last row on the last. */
static void label(rung_lines *l, const rung_err_map_geom *g, int y, int lines)
{
	rung_lines_new(l);
	if (y == 0 || y == lines - 1) /* the first row, and the last as the ruler gives the last column */
		rung_lines_seg(l, RUNG_ROLE_DIM, "%5lld ", (long long)(y == 0 ? 0 : g->h - 1));
	else
		rung_lines_seg(l, RUNG_ROLE_DIM, "%*s", LABEL, "");
}

static void ruler(char *buf, size_t len, const rung_err_map_geom *g, int ncells)
{
	char last[24];
	snprintf(last, sizeof last, "%lld", (long long)(g->w - 1));
	int pad = ncells - 1 - (int)strlen(last);
	if (g->w == 1 || pad < 1)
		snprintf(buf, len, "0");
	else
		snprintf(buf, len, "0%*s%s", pad, "", last);
}

static void legend(rung_lines *l)
{
	rung_role r;
	rung_lines_new(l);
	rung_lines_seg(l, RUNG_ROLE_DIM, "  ");
	/* (a segment in the map_ok role would be drawn as map cells: the legend's
	 * "within tolerance" is dim, as the dots are in the default theme) */
	if (!rung_tui_utf8) {
		rung_lines_seg(l, RUNG_ROLE_DIM, ". within tolerance");
		rung_lines_seg(l, RUNG_ROLE_SCALE_2, "  1-9: up to 10^k x");
	} else {
		static const char *const band[] = {".", "1", "2", "4", "7"}, *const text[] = {"within tolerance", "<=10x", "<=1e3x",
											  "<=1e6x", "more"};
		for (int k = 0; k < 5; k++) {
			const char *g = rung_map_glyph(band[k][0], &r);
			rung_lines_seg(l, k ? r : RUNG_ROLE_DIM, "%s%s %s", k ? "  " : "", g, text[k]);
		}
	}
	rung_lines_seg(l, RUNG_ROLE_MAP_MARK, "  U");
	rung_lines_seg(l, RUNG_ROLE_DIM, " unwritten ");
	rung_lines_seg(l, RUNG_ROLE_MAP_MARK, "N");
	rung_lines_seg(l, RUNG_ROLE_DIM, " NaN ");
	rung_lines_seg(l, RUNG_ROLE_MAP_MARK, "I");
	rung_lines_seg(l, RUNG_ROLE_DIM, " Inf");
}

void rung_map_section(rung_lines *l, const rung_check_metric *m, int nth, int ncases, int width)
{
	const rung_err_map_geom *g = &m->map.g;
	if (g->rows <= 0)
		return;
	int fx, fy;
	factors(&fx, &fy, g, 1, width);
	int lines = (g->rows + fy - 1) / fy, ncells = (g->cols + fx - 1) / fx;
	header(l, m, nth, ncases, "error map");
	sizes(l, g, fx, fy);
	char buf[RUNG_MAP_SIDE + 1];
	for (int y = 0; y < lines; y++) {
		label(l, g, y, lines);
		cells(buf, &m->map, y, fx, fy);
		rung_lines_seg(l, RUNG_ROLE_MAP_OK, "%s", buf);
	}
	char rl[160];
	ruler(rl, sizeof rl, g, ncells);
	rung_lines_add(l, RUNG_ROLE_DIM, "%*s%s", LABEL, "", rl);
	legend(l);
}

void rung_map_section_pair(rung_lines *l, const rung_check_metric *a, const rung_check_metric *b, int nth,
			   int ncases, int width)
{
	const rung_check_metric *any = b && b->map.g.rows > 0 ? b : a;
	if (!any || any->map.g.rows <= 0)
		return;
	const rung_err_map_geom *g = &any->map.g;
	bool ha = a && !memcmp(&a->map.g, g, sizeof *g), hb = b && !memcmp(&b->map.g, g, sizeof *g);
	int fx, fy;
	factors(&fx, &fy, g, 2, width);
	int lines = (g->rows + fy - 1) / fy, ncells = (g->cols + fx - 1) / fx;
	header(l, any, nth, ncases, "error map a | b");
	sizes(l, g, fx, fy);
	rung_lines_new(l);
	rung_lines_seg(l, RUNG_ROLE_DIM, "%*s", LABEL, "");
	rung_lines_seg(l, RUNG_ROLE_MARK, "a");
	rung_lines_seg(l, RUNG_ROLE_DIM, "%*s", ncells - 1 + GAP, "");
	rung_lines_seg(l, RUNG_ROLE_MARK, "b");
	char buf[RUNG_MAP_SIDE + 1];
	for (int y = 0; y < lines; y++) {
		label(l, g, y, lines);
		if (ha) {
			cells(buf, &a->map, y, fx, fy);
			rung_lines_seg(l, RUNG_ROLE_MAP_OK, "%s", buf);
		} else {
			rung_lines_seg(l, RUNG_ROLE_DIM, "%-*.*s", ncells, ncells, y == 0 ? "(no map)" : "");
		}
		rung_lines_seg(l, RUNG_ROLE_DIM, "%*s", GAP, "");
		if (hb) {
			cells(buf, &b->map, y, fx, fy);
			rung_lines_seg(l, RUNG_ROLE_MAP_OK, "%s", buf);
		} else if (y == 0) {
			rung_lines_seg(l, RUNG_ROLE_DIM, "(no map)");
		}
	}
	char rl[160];
	ruler(rl, sizeof rl, g, ncells);
	rung_lines_add(l, RUNG_ROLE_DIM, "%*s%-*s%*s%s", LABEL, "", ncells, rl, GAP, "", rl);
	legend(l);
}
