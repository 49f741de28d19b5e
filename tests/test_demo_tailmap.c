/* The demo's wrong-at-odd-sizes SGEMM step (examples/sgemm/ladder/07-warptile-ntail.cu)
 * shows its bad tail columns in the error map (issue #17), at the check sizes
 * of examples/sgemm/rung.ini, computed on the host: C = A * B from the inputs
 * rung generates (randn, and ints for the exact compare), written into
 * poisoned C exactly where the kernel's store loop writes (its block, warp and
 * lane layout), compared by rung_metrics_compute with the task's tolerances.
 * The faulty step skips every float4 group that runs past N, so the last
 * N % 4 columns keep their poison: U down the last tile column(s), every other
 * tile clean; its fix (07-warptile.cu) passes everywhere. The emulated store
 * loops are tied to the sources by their guard lines. */
#include "harness.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/errmap.h"
#include "core/fs.h"
#include "core/guard.h"
#include "core/metrics.h"
#include "core/rng.h"
#include "core/spec.h"

/* the kernels' tiling (07-warptile*.cu) */
#define BM 128
#define BN 128
#define WM 64
#define WN 32
#define NT 256

static char *read_src(const char *name)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/../examples/sgemm/%s", RUNG_TEST_DIR, name);
	char *s = NULL;
	size_t len = 0;
	CHECK_INT(rung_fs_read_file(&s, &len, path, 0), 0);
	return s;
}

/* Writes acc (the M x N products) into C where the kernel's epilogue stores:
 * faulty = 07-warptile-ntail (`if (col + 3 >= N) continue;` before the
 * store), else 07-warptile (a partial group stored element by element). */
static void store_like_kernel(float *C, const float *acc, int M, int N, bool faulty)
{
	const int gx = (N + BN - 1) / BN, gy = (M + BM - 1) / BM;
	for (int by = 0; by < gy; by++)
		for (int bx = 0; bx < gx; bx++)
			for (int tid = 0; tid < NT; tid++) {
				const int warp = tid / 32, lane = tid % 32;
				const int m0 = by * BM, n0 = bx * BN;
				const int wm = (warp / (BN / WN)) * WM, wn = (warp % (BN / WN)) * WN;
				const int lr = lane / 4, lc = lane % 4;
				for (int i = 0; i < 2; i++)
					for (int q = 0; q < 4; q++) {
						const int row = m0 + wm + i * 32 + lr * 4 + q;
						if (row >= M)
							continue;
						for (int j = 0; j < 2; j++) {
							const int col = n0 + wn + j * 16 + lc * 4;
							if (faulty && col + 3 >= N)
								continue;
							for (int p = 0; p < 4; p++)
								if (faulty || col + p < N)
									C[(int64_t)row * N + col + p] = acc[(int64_t)row * N + col + p];
						}
					}
			}
}

/* The first tile column the unwritten columns [N - N % 4, N) reach (cols when none). */
static int first_bad_tile_col(const rung_err_map_geom *g, int N)
{
	return N % 4 ? (int)((N - N % 4) / g->tw) : g->cols;
}

static void t_sources_match_the_emulation(void)
{
	char *bad = read_src("ladder/07-warptile-ntail.cu"), *good = read_src("ladder/07-warptile.cu");
	if (!bad || !good)
		goto out;
	CHECK_CONTAINS(bad, "if (col + 3 >= N)\n\t\t\t\t\tcontinue;");
	CHECK_CONTAINS(bad, "\t\t\t\t\t\tC[row * N + col + p] = v[p];");
	CHECK(!strstr(bad, "col + p < N"));
	CHECK(!strstr(good, "col + 3 >= N"));
	CHECK_CONTAINS(good, "if (vecB && col + 3 < N) {");
	CHECK_CONTAINS(good, "if (col + p < N)\n\t\t\t\t\t\t\tC[row * N + col + p] = v[p];");
	/* the same tiling and product as the emulation */
	for (int k = 0; k < 2; k++) {
		const char *s = k ? good : bad;
		CHECK_CONTAINS(s, "// rung: grid = cdiv(N,128), cdiv(M,128); block = 256;");
		CHECK_CONTAINS(s, "#define WM 64\n#define WN 32\n#define NT 256");
		CHECK_CONTAINS(s, "const int row = m0 + wm + i * 32 + lr * 4 + q;");
		CHECK_CONTAINS(s, "const int col = n0 + wn + j * 16 + lc * 4;");
		CHECK_CONTAINS(s, "const int ktiles = (K + BK - 1) / BK;");
	}
out:
	free(bad);
	free(good);
}

/* At the benchmark shape (N % 4 == 0) the faulty store writes every element: 4096 hides it. */
static void t_bench_shape_hides_it(void)
{
	const int M = 4096, N = 4096;
	int64_t n = (int64_t)M * N;
	float *acc = calloc((size_t)n, sizeof(float)), *C = malloc(sizeof(float) * (size_t)n);
	rung_poison_fill(C, RUNG_DT_F32, n, 0);
	store_like_kernel(C, acc, M, N, true);
	int64_t first = 0;
	CHECK_INT(rung_poison_count(&first, C, RUNG_DT_F32, n, 0), 0);
	free(acc);
	free(C);
}

static void t_map_shows_the_tail(void)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/../examples/sgemm/rung.ini", RUNG_TEST_DIR);
	rung_spec *spec = NULL;
	CHECK_INT(rung_spec_load(&spec, path), 0);
	if (!spec)
		return;
	CHECK_INT(spec->ncheck, 4);
	int failing = 0;
	for (int s = 0; s < spec->ncheck; s++)
		for (int d = 0; d < spec->ninputs; d++) {
			int64_t M = 0, N = 0, K = 0;
			CHECK_INT(rung_dimset_get(&M, &spec->check[s], "M"), 0);
			CHECK_INT(rung_dimset_get(&N, &spec->check[s], "N"), 0);
			CHECK_INT(rung_dimset_get(&K, &spec->check[s], "K"), 0);
			const rung_dist dist = spec->inputs[d];
			const rung_init_kind init = rung_dist_init(dist, RUNG_DT_F32, RUNG_INIT_RANDN);
			const uint64_t seed = 0x5eed0000u + (uint64_t)s;
			int64_t n = M * N;
			float *A = malloc(sizeof(float) * (size_t)(M * K)), *B = malloc(sizeof(float) * (size_t)(K * N));
			float *ref = malloc(sizeof(float) * (size_t)n), *acc = malloc(sizeof(float) * (size_t)n);
			float *got = malloc(sizeof(float) * (size_t)n);
			CHECK_INT(rung_fill(A, RUNG_DT_F32, M * K, init, 0, 0, seed, "A"), 0);
			CHECK_INT(rung_fill(B, RUNG_DT_F32, K * N, init, 0, 0, seed, "B"), 0);
			/* ref in double; the kernel's fp32 FMA chain over k (its zero-filled K tail adds 0) */
			for (int64_t r = 0; r < M; r++)
				for (int64_t c = 0; c < N; c++) {
					double sd = 0;
					float sf = 0;
					for (int64_t k = 0; k < K; k++) {
						sd += (double)A[r * K + k] * B[k * N + c];
						sf = fmaf(A[r * K + k], B[k * N + c], sf);
					}
					ref[r * N + c] = (float)sd;
					acc[r * N + c] = sf;
				}
			const int64_t shape[2] = { M, N };
			for (int faulty = 0; faulty < 2; faulty++) {
				rung_poison_fill(got, RUNG_DT_F32, n, 0);
				store_like_kernel(got, acc, (int)M, (int)N, faulty);
				rung_check_opts o;
				rung_check_opts_from_spec(&o, spec, RUNG_DT_F32);
				rung_check_opts_inputs(&o, dist);
				o.check_poison = true;
				o.poison_variant = 0;
				rung_check_metric m;
				memset(&m, 0, sizeof m);
				CHECK_INT(rung_metrics_compute(&m, "C", got, ref, RUNG_DT_F32, n, 2, shape, &o), 0);
				const rung_err_map *map = &m.map;
				rung_err_map_geom g;
				rung_err_map_geom_init(&g, n, 2, shape);
				CHECK(memcmp(&map->g, &g, sizeof g) == 0);
				/* faulty: tile columns from the first holding column N - N % 4 are U
				 * in every tile row, every other tile clean; fixed: all clean */
				const int c0 = faulty ? first_bad_tile_col(&g, (int)N) : g.cols;
				int off = 0;
				for (int r = 0; r < g.rows; r++)
					for (int c = 0; c < g.cols; c++)
						off += rung_err_map_at(map, r, c) != (c >= c0 ? RUNG_MAP_UNWRITTEN : 0);
				if (off)
					fprintf(stderr, "M=%lld,N=%lld,K=%lld %s %s: %d tiles off\n", (long long)M,
						(long long)N, (long long)K, rung_dist_name(dist),
						faulty ? "ntail" : "fixed", off);
				CHECK_INT(off, 0);
				const int64_t tail = faulty ? N % 4 : 0;
				CHECK_INT(m.unwritten, M * tail);
				CHECK_INT(m.pass, tail == 0);
				CHECK_INT(m.mismatches, m.unwritten); /* every written element is right */
				failing += !m.pass;
				char text[RUNG_MAP_TEXT_MAX];
				rung_err_map_encode(text, sizeof text, map);
				if (faulty && M == 127 && N == 255) {
					/* 64 x 64 tiles of 2 x 4: columns 252..254 are tile column 63 */
					char want[RUNG_MAP_TEXT_MAX] = "";
					for (int r = 0; r < 64; r++)
						strcat(want, ".{63}U");
					CHECK_STR(text, want);
					CHECK_STR(m.reason, "unwritten 381 elements of C (poison left), first at (0,252)");
				} else if (faulty && M == 129 && N == 130) {
					/* 43 x 44 tiles of 3 x 3: columns 128, 129 are tile columns 42 and 43 */
					char want[RUNG_MAP_TEXT_MAX] = "";
					for (int r = 0; r < 43; r++)
						strcat(want, ".{42}UU");
					CHECK_STR(text, want);
				} else if (faulty && M == 1 && N == 1) {
					CHECK_STR(text, "U"); /* the one element is the tail */
				}
			}
			free(A);
			free(B);
			free(ref);
			free(acc);
			free(got);
		}
	/* 127x255, 1x1 and 129x130 fail under both input sets; 1024x512 passes */
	CHECK_INT(failing, 3 * spec->ninputs);
	rung_spec_free(spec);
}

int main(void)
{
	T_RUN(t_sources_match_the_emulation);
	T_RUN(t_bench_shape_hides_it);
	T_RUN(t_map_shows_the_tail);
	return t_done();
}
