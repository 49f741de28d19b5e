/* The error map's grid, levels and text form (core/errmap.h). */
#include "core/errmap.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "core/metrics_hd.h"

static void axis(int *tiles, int64_t *per, int64_t ext)
{
	*per = (ext + RUNG_MAP_SIDE - 1) / RUNG_MAP_SIDE;
	*tiles = (int)((ext + *per - 1) / *per);
}

static void geom_of(rung_err_map_geom *g, int64_t h, int64_t w)
{
	memset(g, 0, sizeof *g);
	if (h <= 0 || w <= 0)
		return;
	g->h = h;
	g->w = w;
	axis(&g->rows, &g->th, h);
	axis(&g->cols, &g->tw, w);
}

void rung_err_map_geom_init(rung_err_map_geom *g, int64_t n, int rank, const int64_t *shape)
{
	int64_t h = 1, w = n;
	bool ok = shape && rank > 0;
	int64_t prod = 1;
	for (int d = 0; ok && d < rank; d++) {
		if (shape[d] <= 0 || prod > n / shape[d])
			ok = false;
		else
			prod *= shape[d];
	}
	if (ok && prod == n) {
		w = shape[rank - 1];
		h = rank >= 2 ? shape[rank - 2] : 1;
	}
	geom_of(g, n > 0 ? h : 0, n > 0 ? w : 0);
}

int rung_err_map_level(double excess)
{
	return rung_hd_map_level(excess); /* the feed's, host and device (core/metrics_hd.h) */
}

char rung_err_map_char(int level)
{
	if (level == RUNG_MAP_OK)
		return '.';
	if (level >= 1 && level <= RUNG_MAP_EXCESS_MAX)
		return (char)('0' + level);
	switch (level) {
	case RUNG_MAP_INF: return 'I';
	case RUNG_MAP_NAN: return 'N';
	case RUNG_MAP_UNWRITTEN: return 'U';
	default: return '?';
	}
}

int rung_err_map_level_of(char c)
{
	if (c == '.')
		return RUNG_MAP_OK;
	if (c >= '1' && c <= '9')
		return c - '0';
	switch (c) {
	case 'I': return RUNG_MAP_INF;
	case 'N': return RUNG_MAP_NAN;
	case 'U': return RUNG_MAP_UNWRITTEN;
	default: return -1;
	}
}

bool rung_err_map_any(const rung_err_map *m)
{
	return rung_err_map_worst(m) > 0;
}

int rung_err_map_worst(const rung_err_map *m)
{
	int worst = 0, n = m->g.rows * m->g.cols;
	for (int k = 0; k < n && k < RUNG_MAP_TILES; k++)
		if (m->lv[k] > worst)
			worst = m->lv[k];
	return worst;
}

int rung_err_map_at(const rung_err_map *m, int r, int c)
{
	if (r < 0 || c < 0 || r >= m->g.rows || c >= m->g.cols)
		return 0;
	return m->lv[r * m->g.cols + c];
}

void rung_err_map_encode(char *buf, size_t len, const rung_err_map *m)
{
	size_t k = 0;
	int n = m->g.rows * m->g.cols;
	if (len == 0)
		return;
	for (int i = 0; i < n && i < RUNG_MAP_TILES;) {
		int j = i;
		while (j < n && m->lv[j] == m->lv[i])
			j++;
		char c = rung_err_map_char(m->lv[i]), run[16];
		int w;
		if (j - i >= 5)
			w = snprintf(run, sizeof run, "%c{%d}", c, j - i);
		else
			w = snprintf(run, sizeof run, "%.*s", j - i, (char[]){c, c, c, c, 0});
		if (k + (size_t)w >= len)
			break;
		memcpy(buf + k, run, (size_t)w);
		k += (size_t)w;
		i = j;
	}
	buf[k] = 0;
}

int rung_err_map_decode(rung_err_map *m, const rung_err_map_geom *g, const char *text)
{
	rung_err_map_geom want;
	memset(m, 0, sizeof *m);
	geom_of(&want, g->h, g->w);
	if (!text || want.rows == 0 || memcmp(&want, g, sizeof want) != 0)
		return rung_error_set(RUNG_EINVAL, "error map: geometry %dx%d tiles of %lldx%lld over %lldx%lld is not the grid",
				      g->rows, g->cols, (long long)g->th, (long long)g->tw, (long long)g->h, (long long)g->w);
	int n = want.rows * want.cols, k = 0;
	for (const char *p = text; *p;) {
		int lv = rung_err_map_level_of(*p++);
		long run = 1;
		if (lv < 0)
			goto bad;
		if (*p == '{') {
			run = 0;
			for (p++; *p >= '0' && *p <= '9'; p++)
				if ((run = run * 10 + (*p - '0')) > n)
					goto bad;
			if (*p++ != '}' || run < 1)
				goto bad;
		}
		if (run > n - k)
			goto bad;
		memset(m->lv + k, lv, (size_t)run);
		k += (int)run;
	}
	if (k != n)
		goto bad;
	m->g = want;
	return 0;
bad:
	memset(m, 0, sizeof *m);
	return rung_error_set(RUNG_EINVAL, "error map: levels text does not give %d tiles", n);
}
