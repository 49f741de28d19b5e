/* The error map of one output (docs/CHECKS.md, "The error map"): the worst
 * element of each tile of a grid of at most 64 x 64 tiles over the last two
 * dimensions (leading dimensions folded onto them; one row of tiles for rank 1
 * or an unusable shape), as one level per tile:
 *   0        every element within its tolerance
 *   1 .. 9   the worst |got - ref| / tolerance ("excess") in (10^(k-1), 10^k];
 *            9 also for larger and for any difference under a zero tolerance
 *   10 (I)   an Inf where the reference has none (or the other sign)
 *   11 (N)   a NaN where the reference has none
 *   12 (U)   an element left unwritten (poison still there)
 * A tile's level is the largest of its elements', so the map is the same
 * whatever the chunking and threads that computed it (core/metrics.c computes
 * it in the metrics pass). Text form (result JSON "map.levels"):
 * docs/RESULT-JSON.md. */
#ifndef RUNG_CORE_ERRMAP_H
#define RUNG_CORE_ERRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RUNG_MAP_SIDE 64
#define RUNG_MAP_TILES (RUNG_MAP_SIDE * RUNG_MAP_SIDE)
/* the longest levels text, NUL included */
#define RUNG_MAP_TEXT_MAX (RUNG_MAP_TILES + 1)

enum {
	RUNG_MAP_OK = 0,
	RUNG_MAP_EXCESS_MAX = 9, /* 1 .. 9: excess bands */
	RUNG_MAP_INF = 10,
	RUNG_MAP_NAN = 11,
	RUNG_MAP_UNWRITTEN = 12,
	RUNG_MAP_NLEVELS
};

/* Where the tiles lie: rows x cols tiles of th x tw elements over an h x w
 * plane (the last tile row and column may be shorter). rows == 0: no map. */
typedef struct {
	int rows, cols;
	int64_t h, w;
	int64_t th, tw;
} rung_err_map_geom;

typedef struct {
	rung_err_map_geom g;
	uint8_t lv[RUNG_MAP_TILES]; /* row-major, rows * cols used, the rest 0 */
} rung_err_map;

/* The grid for n elements of the given row-major shape: the last two extents
 * (rank >= 2; leading ones folded), one row of tiles for rank 1, rank 0 or a
 * shape whose product is not n. n <= 0: no map (rows 0). */
void rung_err_map_geom_init(rung_err_map_geom *g, int64_t n, int rank, const int64_t *shape);
/* The level of a finite mismatch of the given excess (> 1; inf or NaN: 9). */
int rung_err_map_level(double excess);
/* '.', '1'..'9', 'I', 'N', 'U'; '?' for a level out of range. */
char rung_err_map_char(int level);
/* The level of a character, or -1. */
int rung_err_map_level_of(char c);
/* True when some tile is not 0. */
bool rung_err_map_any(const rung_err_map *m);
/* The largest level (0 when none or no map). */
int rung_err_map_worst(const rung_err_map *m);
/* Level of tile (r, c); 0 outside the grid. */
int rung_err_map_at(const rung_err_map *m, int r, int c);
/* The levels text: one character per tile, row-major; a run of k >= 5 equal
 * characters is written "c{k}". buf holds RUNG_MAP_TEXT_MAX bytes. */
void rung_err_map_encode(char *buf, size_t len, const rung_err_map *m);
/* Reads levels text for geometry g into m (which takes g). RUNG_EINVAL when
 * the geometry is not what rung_err_map_geom_init makes of (h, w) or the text
 * does not give exactly rows * cols valid levels; m is then cleared. */
int rung_err_map_decode(rung_err_map *m, const rung_err_map_geom *g, const char *text);

#endif
