/* core/spec.c and core/spec_launch.c: a full spec parses to exact values; every class of
 * mistake gives its exact "file:line: [section] key: what" message; launch lines override. */
#include <glob.h>
#include <stdint.h>
#include <stdlib.h>

#include "core/err.h"
#include "core/expr.h"
#include "core/sanitize.h"
#include "core/spec.h"
#include "harness.h"
#include "vcs/store.h"

#define P "tasks/x/rung.ini"

/* A full sgemm spec; the line numbers matter to the tests below. */
static const char *sgemm_ini =
	"# sgemm: C = alpha * A * B\n"                       /* 1 */
	"[task]\n"                                            /* 2 */
	"name = sgemm\n"                                      /* 3 */
	"kernel = sgemm.cu\n"                                 /* 4 */
	"entry = sgemm<16, 16>\n"                             /* 5 */
	"reference = ref.cu   # naive, one thread per C\n"    /* 6 */
	"reference_entry = sgemm_ref\n"                       /* 7 */
	"arch = sm_90a\n"                                     /* 8 */
	"options = -lineinfo --use_fast_math\n"               /* 9 */
	"headers = include, common\n"                         /* 10 */
	"\n"                                                  /* 11 */
	"[dims]\n"                                            /* 12 */
	"M = 1024\n"                                          /* 13 */
	"N = 2048\n"                                          /* 14 */
	"K = 512\n"                                           /* 15 */
	"MN = M * N\n"                                        /* 16 */
	"\n"                                                  /* 17 */
	"[check]\n"                                           /* 18 */
	"sizes = M=127,N=255,K=63; M=1, N=1, K=1\n"           /* 19 */
	"seeds = 5\n"                                         /* 20 */
	"atol = 1e-4\n"                                       /* 21 */
	"rtol = 1e-3\n"                                       /* 22 */
	"min_cossim = 0.9999\n"                               /* 23 */
	"\n"                                                  /* 24 */
	"[arg A]\n"                                           /* 25 */
	"kind = input\n"                                      /* 26 */
	"dtype = f32\n"                                       /* 27 */
	"shape = M, K\n"                                      /* 28 */
	"init = uniform(-1, 1.5)\n"                           /* 29 */
	"\n"                                                  /* 30 */
	"  [arg B]\n"                                         /* 31 */
	"  kind = input\n"                                    /* 32 */
	"  dtype = bf16\n"                                    /* 33 */
	"  shape = K, N\n"                                    /* 34 */
	"\n"                                                  /* 35 */
	"[arg C]\n"                                           /* 36 */
	"kind = output\n"                                     /* 37 */
	"dtype = f32\n"                                       /* 38 */
	"shape = M, N\n"                                      /* 39 */
	"golden = golden/c.npy\n"                             /* 40 */
	"\n"                                                  /* 41 */
	"[arg M]\n"                                           /* 42 */
	"kind = scalar\n"                                     /* 43 */
	"dtype = i32\n"                                       /* 44 */
	"value = M\n"                                         /* 45 */
	"\n"                                                  /* 46 */
	"[arg alpha]\n"                                       /* 47 */
	"kind = scalar\n"                                     /* 48 */
	"dtype = f32\n"                                       /* 49 */
	"value = 0.5\n"                                       /* 50 */
	"\n"                                                  /* 51 */
	"[arg idx]\n"                                         /* 52 */
	"kind = inout\n"                                      /* 53 */
	"dtype = i32\n"                                       /* 54 */
	"shape = min(M, 64)\n"                                /* 55 */
	"\n"                                                  /* 56 */
	"[launch]\n"                                          /* 57 */
	"grid = cdiv(N,16), cdiv(M,16)\n"                     /* 58 */
	"block = 16, 16\n"                                    /* 59 */
	"smem = 2*16*16*4\n"                                  /* 60 */
	"\n"                                                  /* 61 */
	"[roofline]\n"                                        /* 62 */
	"flops = 2*M*N*K\n"                                   /* 63 */
	"bytes = 4*(M*K+K*N+M*N)\n";                          /* 64 */

/* A small valid spec to which each error test adds or changes one thing. */
static const char *small_head =
	"[task]\n"               /* 1 */
	"name = t\n"             /* 2 */
	"kernel = k.cu\n"        /* 3 */
	"entry = k\n"            /* 4 */
	"reference = r.cu\n"     /* 5 */
	"reference_entry = r\n"  /* 6 */
	"[dims]\n"               /* 7 */
	"M = 64\n"               /* 8 */
	"N = 32\n"               /* 9 */
	"[launch]\n"             /* 10 */
	"grid = cdiv(M, 32)\n"   /* 11 */
	"block = 32\n"           /* 12 */
	"[arg X]\n"              /* 13 */
	"kind = output\n"        /* 14 */
	"dtype = f32\n"          /* 15 */
	"shape = M\n";           /* 16 */

/* Parses text expecting failure; returns the message (static copy). */
static const char *parse_err(const char *text)
{
	static char msg[1024];
	rung_spec *s = (rung_spec *)1;
	rung_error_clear();
	int rc = rung_spec_parse(&s, text, P, "tasks/x");
	if (rc == 0) {
		rung_spec_free(s);
		return "(parsed without error)";
	}
	if (s != NULL)
		return "(out not NULL on error)";
	snprintf(msg, sizeof(msg), "%s", rung_error_last());
	return msg;
}

/* small_head followed by extra lines (starting at line 17). */
static const char *small_err(const char *extra)
{
	static char buf[4096];
	snprintf(buf, sizeof(buf), "%s%s", small_head, extra);
	return parse_err(buf);
}

static rung_spec *parse_ok(const char *text)
{
	rung_spec *s = NULL;
	int rc = rung_spec_parse(&s, text, P, "tasks/x");
	if (rc) {
		fprintf(stderr, "  parse failed: %s\n", rung_error_last());
		return NULL;
	}
	return s;
}

static int64_t dim(const rung_dimset *ds, const char *name)
{
	int64_t v = -1;
	rung_dimset_get(&v, ds, name);
	return v;
}

static void test_full_sgemm_spec(void)
{
	rung_spec *s = parse_ok(sgemm_ini);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR(s->path, P);
	CHECK_STR(s->dir, "tasks/x");
	CHECK_STR(s->name, "sgemm");
	CHECK_STR(s->kernel, "sgemm.cu");
	CHECK_STR(s->entry, "sgemm<16, 16>");
	CHECK_STR(s->reference, "ref.cu");
	CHECK_STR(s->reference_entry, "sgemm_ref");
	CHECK_STR(s->arch, "sm_90a");
	CHECK_STR(s->options, "-lineinfo --use_fast_math");
	CHECK_STR(s->headers, "include, common");
	/* their lines: what only NVRTC or the file system can judge is reported there */
	CHECK_INT(s->arch_line, 8);
	CHECK_INT(s->options_line, 9);
	CHECK_INT(s->headers_line, 10);

	CHECK_INT(s->dims.n, 4);
	CHECK_INT(dim(&s->dims, "M"), 1024);
	CHECK_INT(dim(&s->dims, "N"), 2048);
	CHECK_INT(dim(&s->dims, "K"), 512);
	CHECK_INT(dim(&s->dims, "MN"), 1024 * 2048);

	CHECK_INT(s->ncheck, 2);
	char buf[256];
	CHECK_INT(rung_dimset_format(buf, sizeof(buf), &s->check[0]), 0);
	CHECK_STR(buf, "M=127,N=255,K=63,MN=32385"); /* MN re-derived: 127*255 */
	CHECK_INT(rung_dimset_format(buf, sizeof(buf), &s->check[1]), 0);
	CHECK_STR(buf, "M=1,N=1,K=1,MN=1");
	CHECK_INT(s->seeds, 5);
	CHECK(s->has_atol && s->has_rtol && s->has_min_cossim && !s->has_min_psnr);
	CHECK_NEAR(s->atol, 1e-4, 0);
	CHECK_NEAR(s->rtol, 1e-3, 0);
	CHECK_NEAR(s->min_cossim, 0.9999, 0);

	CHECK_INT(s->nargs, 6);
	rung_arg *a = &s->args[0];
	CHECK_STR(a->name, "A");
	CHECK_INT(a->kind, RUNG_ARG_INPUT);
	CHECK_INT(a->dtype, RUNG_DT_F32);
	CHECK_INT(a->rank, 2);
	CHECK_STR(a->shape[0].text, "M");
	CHECK_STR(a->shape[1].text, "K");
	CHECK_INT(a->shape[1].line, 28);
	CHECK_INT(a->init, RUNG_INIT_UNIFORM);
	CHECK_NEAR(a->init_a, -1.0, 0);
	CHECK_NEAR(a->init_b, 1.5, 0);
	CHECK_INT(a->line, 25);
	CHECK(a->npy_path == NULL && a->golden == NULL && a->value.text == NULL);

	a = &s->args[1];
	CHECK_STR(a->name, "B");
	CHECK_INT(a->line, 31);
	CHECK_INT(a->dtype, RUNG_DT_BF16);
	CHECK_INT(a->init, RUNG_INIT_RANDN); /* default for floats */

	a = &s->args[2];
	CHECK_STR(a->name, "C");
	CHECK_INT(a->kind, RUNG_ARG_OUTPUT);
	CHECK_STR(a->golden, "tasks/x/golden/c.npy");
	int64_t n = 0;
	CHECK_INT(rung_arg_numel(&n, a, &s->dims, s->path), 0);
	CHECK_INT(n, 1024 * 2048);
	CHECK_INT(rung_arg_numel(&n, a, &s->check[0], s->path), 0);
	CHECK_INT(n, 127 * 255);

	a = &s->args[3];
	CHECK_STR(a->name, "M");
	CHECK_INT(a->kind, RUNG_ARG_SCALAR);
	CHECK_INT(a->dtype, RUNG_DT_I32);
	CHECK_INT(a->rank, 0);
	CHECK_STR(a->value.text, "M");
	CHECK_INT(a->value.line, 45);
	int64_t iv = 0;
	double fv = 0;
	CHECK_INT(rung_arg_value(&iv, &fv, a, &s->check[0], s->path), 0);
	CHECK_INT(iv, 127);
	CHECK_NEAR(fv, 127, 0);
	CHECK_INT(rung_arg_numel(&n, a, &s->dims, s->path), 0);
	CHECK_INT(n, 1);

	a = &s->args[4];
	CHECK_STR(a->name, "alpha");
	CHECK_INT(rung_arg_value(&iv, &fv, a, &s->dims, s->path), 0);
	CHECK_NEAR(fv, 0.5, 0);
	CHECK_INT(iv, 0);

	a = &s->args[5];
	CHECK_STR(a->name, "idx");
	CHECK_INT(a->kind, RUNG_ARG_INOUT);
	CHECK_INT(a->init, RUNG_INIT_UNIFORM); /* default for integers: uniform(0,100) */
	CHECK_NEAR(a->init_a, 0, 0);
	CHECK_NEAR(a->init_b, 100, 0);
	CHECK_INT(rung_arg_numel(&n, a, &s->check[1], s->path), 0);
	CHECK_INT(n, 1);

	CHECK_INT(s->launch.ngrid, 2);
	CHECK_INT(s->launch.nblock, 2);
	CHECK_STR(s->launch.grid[0].text, "cdiv(N,16)");
	CHECK_STR(s->launch.grid[1].text, "cdiv(M,16)");
	CHECK_INT(s->launch.grid[1].line, 58);
	CHECK_STR(s->launch.smem.text, "2*16*16*4");
	CHECK_STR(s->launch.file, P);
	rung_geom g;
	CHECK_INT(rung_launch_eval(&g, &s->launch, &s->dims), 0);
	CHECK_INT(g.grid[0], 128);
	CHECK_INT(g.grid[1], 64);
	CHECK_INT(g.grid[2], 1);
	CHECK_INT(g.block[0], 16);
	CHECK_INT(g.block[1], 16);
	CHECK_INT(g.block[2], 1);
	CHECK_INT(g.smem, 2048);
	CHECK_INT(rung_launch_eval(&g, &s->launch, &s->check[0]), 0);
	CHECK_INT(g.grid[0], 16); /* cdiv(255,16) */
	CHECK_INT(g.grid[1], 8);  /* cdiv(127,16) */

	int64_t flops, bytes;
	CHECK_INT(rung_expr_eval(&flops, s->flops.text, &s->dims), 0);
	CHECK_INT(flops, 2LL * 1024 * 2048 * 512);
	CHECK_INT(rung_expr_eval(&bytes, s->bytes.text, &s->dims), 0);
	CHECK_INT(bytes, 4LL * (1024 * 512 + 512 * 2048 + 1024 * 2048));
	CHECK_INT(s->flops.line, 63);
	rung_spec_free(s);
}

/* small_head with one exact substring replaced (keeping line numbers where the test says so). */
static const char *small_sub(const char *old, const char *new_text)
{
	static char buf[4096];
	const char *at = strstr(small_head, old);
	if (!at)
		return "(replacement target missing)";
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - small_head), small_head, new_text, at + strlen(old));
	return parse_err(buf);
}

static void test_small_spec_is_valid(void)
{
	rung_spec *s = parse_ok(small_head);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_INT(s->ncheck, 1); /* no sizes: check at the benchmark shape */
	CHECK_INT(dim(&s->check[0], "M"), 64);
	CHECK_INT(s->seeds, 3);
	CHECK(!s->has_atol && !s->has_rtol && !s->has_min_psnr && !s->has_min_cossim);
	CHECK(s->arch == NULL && s->options == NULL && s->headers == NULL);
	CHECK(s->launch.smem.text == NULL && s->flops.text == NULL && s->bytes.text == NULL);
	rung_geom g;
	CHECK_INT(rung_launch_eval(&g, &s->launch, &s->dims), 0);
	CHECK_INT(g.grid[0], 2);
	CHECK_INT(g.smem, 0);
	rung_spec_free(s);
}

static void test_err_missing_required_key(void)
{
	CHECK_STR(small_sub("entry = k\n", "# entry = k\n"), P ":1: [task] entry: missing (required)");
	CHECK_STR(small_sub("grid = cdiv(M, 32)\n", "#\n"), P ":10: [launch] grid: missing (required)");
	CHECK_STR(small_sub("kind = output\n", "#\n"), P ":13: [arg X] kind: missing (input, output, inout, scalar or scratch)");
	CHECK_STR(small_sub("dtype = f32\n", "#\n"), P ":13: [arg X] dtype: missing (f64, f32, f16, bf16, i64, i32 or u8)");
	CHECK_STR(small_sub("shape = M\n", "#\n"), P ":13: [arg X] shape: missing; an output needs a shape (e.g. shape = M, K)");
}

static void test_err_missing_section(void)
{
	CHECK_STR(parse_err("[dims]\nM = 4\n"), P ":1: [task]: missing section");
	CHECK_STR(small_sub("[launch]\ngrid = cdiv(M, 32)\nblock = 32\n", "#\n#\n#\n"),
	          P ":1: [launch]: missing section (grid and block are required)");
	char head[1024];
	snprintf(head, sizeof(head), "%.*s", (int)(strstr(small_head, "[arg X]") - small_head), small_head);
	CHECK_STR(parse_err(head), P ":1: no [arg NAME] sections; declare one per kernel parameter, in order");
	CHECK_STR(parse_err(""), P ":1: [task]: missing section");
}

static void test_err_unknown_section(void)
{
	CHECK_STR(small_err("[tsak]\n"),
	          P ":17: [tsak]: unknown section (expected [task], [dims], [check], [arg NAME], [launch] or [roofline])");
	CHECK_STR(small_err("[arg]\n"), P ":17: [arg]: missing argument name, e.g. [arg A]");
	CHECK_STR(small_err("[arg 2x]\n"), P ":17: [arg 2x]: '2x' is not a valid argument name");
}

/* [goal]: the four goals with their units, and every mistake at its line. */
static void test_goal_section(void)
{
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s[roofline]\nflops = M\n[goal]\nroof = 80%%\nspeedup = 20x\nplateau = 3\nversions = 40\n",
		 small_head);
	rung_spec *s = parse_ok(buf);
	CHECK(s != NULL);
	if (s) {
		CHECK_INT(s->goal.line, 19);
		CHECK_NEAR(s->goal.roof, 80, 0);
		CHECK_INT(s->goal.roof_line, 20);
		CHECK_NEAR(s->goal.speedup, 20, 0);
		CHECK_INT(s->goal.plateau, 3);
		CHECK_INT(s->goal.versions, 40);
		CHECK_INT(s->goal.versions_line, 23);
		rung_spec_free(s);
	}
	snprintf(buf, sizeof(buf), "%s[goal]\nspeedup = 2.5\n", small_head);
	s = parse_ok(buf);
	CHECK(s && s->goal.speedup == 2.5 && s->goal.roof == 0 && s->goal.plateau == 0);
	rung_spec_free(s);
	s = parse_ok(small_head);
	CHECK(s && s->goal.line == 0 && s->goal.roof == 0 && s->goal.versions == 0);
	rung_spec_free(s);
	CHECK_STR(small_err("[goal]\n"),
		  P ":17: [goal]: no goal in it (expected roof, speedup, plateau or versions, e.g. roof = 80%)");
	CHECK_STR(small_err("[goal]\nroof = 80%\n"),
		  P ":18: [goal] roof: needs [roofline] flops or bytes: without them there is no roof to reach");
	CHECK_STR(small_err("[roofline]\nbytes = M\n[goal]\nroof = 120%\n"),
		  P ":20: [goal] roof: '120%': a percent of the roof above 0 and at most 100 (e.g. 80%)");
	CHECK_STR(small_err("[goal]\nroof = lots\n"), P ":18: [goal] roof: bad number 'lots' (e.g. 80%)");
	CHECK_STR(small_err("[goal]\nspeedup = 0.5x\n"),
		  P ":18: [goal] speedup: '0.5x': a speedup over the baseline above 1 (e.g. 20x)");
	CHECK_STR(small_err("[goal]\nplateau = 2.5\n"),
		  P ":18: [goal] plateau: expected a whole number from 1 to 100000, found '2.5'");
	CHECK_STR(small_err("[goal]\nversions = 0\n"),
		  P ":18: [goal] versions: expected a whole number from 1 to 100000, found '0'");
	CHECK_STR(small_err("[goal]\nplateau = 3\nplateau = 4\n"), P ":19: [goal] plateau: duplicate key (first at line 18)");
	CHECK_STR(small_err("[goal]\nroofs = 3\n"),
		  P ":18: [goal]: unknown key 'roofs' (expected roof, speedup, plateau, versions)");
	CHECK_STR(small_err("[goal]\nplateau = 3\n[goal]\n"), P ":19: [goal]: duplicate section (first at line 17)");
}

/* A [goal] is no part of the content key: the spec without it hashes the same,
 * and a spec without one comes back byte for byte. */
static void test_goal_not_in_key(void)
{
	const char *base = "[task]\nname = t\n\n[roofline]\nbytes = M\n";
	char *same = rung_spec_text_without_goal(base);
	CHECK_STR(same, base);
	free(same);
	char with[512];
	snprintf(with, sizeof(with), "%s\n# when to stop\n[ goal ]\nroof = 80%%\nplateau = 3\n", base);
	char *stripped = rung_spec_text_without_goal(with);
	CHECK_STR(stripped, base);
	free(stripped);
	/* a goal in the middle: the sections after it stay */
	char *mid = rung_spec_text_without_goal("[task]\nname = t\n[goal]\nroof = 80\n[dims]\nM = 4\n");
	CHECK_STR(mid, "[task]\nname = t\n[dims]\nM = 4\n");
	free(mid);
	rung_key_input a = {.kernel_src = "k", .kernel_len = 1, .ref_src = "r", .spec_text = base};
	rung_key_input b = a;
	b.spec_text = with;
	char ka[65], kb[65];
	rung_content_hash(ka, &a);
	rung_content_hash(kb, &b);
	CHECK_STR(ka, kb);
	b.spec_text = "[task]\nname = u\n\n[roofline]\nbytes = M\n";
	rung_content_hash(kb, &b);
	CHECK(strcmp(ka, kb) != 0);
}

static void test_err_unknown_key(void)
{
	CHECK_STR(small_sub("name = t\n", "nmae = t\n"),
	          P ":2: [task]: unknown key 'nmae' (expected name, kernel, entry, reference, reference_entry, arch, options, headers)");
	CHECK_STR(small_err("grid = 4\n"), P ":17: [arg X]: unknown key 'grid' (expected kind, dtype, shape, init, value, golden, size)");
	CHECK_STR(small_err("[check]\ntolerance = 1\n"),
	          P ":18: [check]: unknown key 'tolerance' (expected sizes, seeds, atol, rtol, min_psnr, min_cossim, deterministic, inputs, sanitize, special)");
}

static void test_err_duplicate_key(void)
{
	CHECK_STR(small_err("dtype = f16\n"), P ":17: [arg X] dtype: duplicate key (first at line 15)");
	CHECK_STR(small_sub("N = 32\n", "M = 32\n"), P ":9: [dims] M: duplicate key (first at line 8)");
}

static void test_err_duplicate_section_and_arg(void)
{
	CHECK_STR(small_err("[arg X]\nkind = input\n"), P ":17: [arg X]: duplicate argument (first at line 13)");
	CHECK_STR(small_err("[dims]\nK = 4\n"), P ":17: [dims]: duplicate section (first at line 7)");
}

static void test_err_bad_kind_dtype(void)
{
	CHECK_STR(small_sub("kind = output\n", "kind = outptu\n"),
	          P ":14: [arg X] kind: unknown kind 'outptu' (expected input, output, inout, scalar or scratch)");
	CHECK_STR(small_sub("dtype = f32\n", "dtype = float\n"),
	          P ":15: [arg X] dtype: unknown dtype 'float' (expected f64, f32, f16, bf16, i64, i32 or u8)");
}

static void test_err_bad_init(void)
{
	const char *y = "[arg Y]\nkind = input\ndtype = f32\nshape = N\n"; /* lines 17-20 */
	char buf[512];
	snprintf(buf, sizeof(buf), "%sinit = normal\n", y);
	CHECK_STR(small_err(buf),
	          P ":21: [arg Y] init: unknown init 'normal' (expected randn, uniform(a,b), ones, zeros, arange or npy:PATH)");
	snprintf(buf, sizeof(buf), "%sinit = uniform(1)\n", y);
	CHECK_STR(small_err(buf), P ":21: [arg Y] init: expected uniform(a,b), found 'uniform(1)'");
	snprintf(buf, sizeof(buf), "%sinit = uniform(1, 1)\n", y);
	CHECK_STR(small_err(buf), P ":21: [arg Y] init: uniform(a,b) needs a < b, found 'uniform(1, 1)'");
	snprintf(buf, sizeof(buf), "%sinit = uniform(0, x)\n", y);
	CHECK_STR(small_err(buf), P ":21: [arg Y] init: bad number in 'uniform(0, x)'");
	snprintf(buf, sizeof(buf), "%sinit = npy:\n", y);
	CHECK_STR(small_err(buf), P ":21: [arg Y] init: npy: needs a path, e.g. npy:data/a.npy");
	CHECK_STR(small_err("[arg Y]\nkind = input\ndtype = i32\nshape = M\ninit = randn\n"),
	          P ":21: [arg Y] init: randn needs a float dtype, not i32; use uniform(a,b) or arange");
	/* and the good forms */
	snprintf(buf, sizeof(buf), "%s%sinit = npy:data/y.npy\n", small_head, y);
	rung_spec *s = parse_ok(buf);
	CHECK(s != NULL);
	if (s) {
		CHECK_INT(s->args[1].init, RUNG_INIT_NPY);
		CHECK_STR(s->args[1].npy_path, "tasks/x/data/y.npy");
		rung_spec_free(s);
	}
	snprintf(buf, sizeof(buf), "%s%sinit = arange\n", small_head, y);
	s = parse_ok(buf);
	CHECK(s != NULL);
	if (s) {
		CHECK_INT(s->args[1].init, RUNG_INIT_ARANGE);
		rung_spec_free(s);
	}
}

static void test_err_output_with_init(void)
{
	CHECK_STR(small_err("init = zeros\n"),
	          P ":17: [arg X] init: an output is written by the kernel; use kind = inout to give it initial values");
}

static void test_err_scalar_rules(void)
{
	CHECK_STR(small_err("[arg n]\nkind = scalar\ndtype = i32\n"),
	          P ":17: [arg n] value: missing; a scalar needs a value (e.g. value = M)");
	CHECK_STR(small_err("[arg n]\nkind = scalar\ndtype = i32\nshape = M\nvalue = M\n"),
	          P ":20: [arg n] shape: a scalar has no shape");
	CHECK_STR(small_err("[arg Y]\nkind = input\ndtype = f32\nshape = M\nvalue = 3\n"),
	          P ":21: [arg Y] value: only scalars take a value; an input has a shape");
	CHECK_STR(small_err("[arg n]\nkind = scalar\ndtype = u8\nvalue = M * 4\n"),
	          P ":20: [arg n] value: M * 4 = 256 does not fit in u8");
	CHECK_STR(small_err("[arg n]\nkind = scalar\ndtype = i32\nvalue = 0.5\n"),
	          P ":20: [arg n] value: bad number at column 2, found '.'");
	CHECK_STR(small_err("[check]\nsizes = M=3000000000\n[arg n]\nkind = scalar\ndtype = i32\nvalue = M\n"),
	          P ":22: [arg n] value: M = 3000000000 does not fit in i32 (check sizes M=3000000000,N=32)");
	CHECK_STR(small_err("[arg g]\nkind = scalar\ndtype = f32\nvalue = 1\ngolden = g.npy\n"),
	          P ":21: [arg g] golden: only outputs and inouts take a golden file");
}

static void test_err_no_output(void)
{
	CHECK_STR(small_sub("kind = output\n", "kind = input\n"),
	          P ":13: no argument is an output or inout, so there is nothing to check");
}

static void test_err_bad_number(void)
{
	CHECK_STR(small_err("[check]\natol = 1e-3x\n"), P ":18: [check] atol: bad number '1e-3x'");
	CHECK_STR(small_err("[check]\nrtol = -1\n"), P ":18: [check] rtol: must not be negative, found '-1'");
	CHECK_STR(small_err("[check]\nmin_cossim = 1.5\n"), P ":18: [check] min_cossim: must be between -1 and 1, found '1.5'");
	CHECK_STR(small_err("[check]\nmin_psnr = nan\n"), P ":18: [check] min_psnr: bad number 'nan'");
	CHECK_STR(small_err("[check]\nseeds = 0\n"), P ":18: [check] seeds: expected an integer from 1 to 1000, found '0'");
	CHECK_STR(small_err("[check]\nseeds = 3.5\n"), P ":18: [check] seeds: expected an integer from 1 to 1000, found '3.5'");
}

/* [check] sanitize: the compute-sanitizer tools, from a fixed list only. */
static void test_sanitize_key(void)
{
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s[check]\nsanitize = racecheck, memcheck\n", small_head);
	rung_spec *s = parse_ok(buf);
	CHECK(s != NULL);
	if (s) {
		CHECK_INT(s->sanitize, RUNG_SAN_BIT(RUNG_SAN_MEMCHECK) | RUNG_SAN_BIT(RUNG_SAN_RACECHECK));
		CHECK_INT(s->sanitize_line, 18);
		rung_spec_free(s);
	}
	s = parse_ok(small_head);
	if (s) {
		CHECK_INT(s->sanitize, 0); /* off unless asked for */
		rung_spec_free(s);
	}
	CHECK_STR(small_err("[check]\nsanitize = memcheck, leakcheck\n"),
		  P ":18: [check] sanitize: unknown tool 'leakcheck' (expected memcheck, racecheck, synccheck, initcheck)");
	CHECK_STR(small_err("[check]\nseeds = 2\nsanitize = --log-file=/tmp/x\n"),
		  P ":19: [check] sanitize: unknown tool '--log-file=/tmp/x' (expected memcheck, racecheck, synccheck, initcheck)");
	CHECK_STR(small_err("[check]\nsanitize = ,\n"),
		  P ":18: [check] sanitize: no tool given (expected memcheck, racecheck, synccheck or initcheck)");
	CHECK_STR(small_err("[check]\nsanitize = memcheck\nsanitize = racecheck\n"),
		  P ":19: [check] sanitize: duplicate key (first at line 18)");
}

static void test_err_unknown_dim_in_shape(void)
{
	/* The example of docs/STYLE.md, to the character. */
	const char *text =
		"[task]\nname = t\nkernel = k.cu\nentry = k\nreference = r.cu\nreference_entry = r\n" /* 1-6 */
		"[dims]\nM = 64\n"                                                                      /* 7-8 */
		"[launch]\ngrid = 1\nblock = 32\n"                                                      /* 9-11 */
		"[arg C]\nkind = output\nshape = M, Q\ndtype = f32\n";                                 /* 12-15 */
	CHECK_STR(parse_err(text), "tasks/x/rung.ini:14: [arg C] shape: unknown dim 'Q'");
	CHECK_STR(small_sub("M = 64\n", "M = N*2\n"), P ":8: [dims] M: unknown dim 'N'"); /* N comes later */
}

static void test_err_expression_syntax(void)
{
	CHECK_STR(small_sub("grid = cdiv(M, 32)\n", "grid = cdiv(M, 32\n"),
	          P ":11: [launch] grid: expected ',' or ')' at end of expression");
	CHECK_STR(small_sub("shape = M\n", "shape = M N\n"), P ":16: [arg X] shape: expected an operator at column 3, found 'N'");
	CHECK_STR(small_sub("shape = M\n", "shape = M,,N\n"), P ":16: [arg X] shape: empty item in 'M,,N'");
	CHECK_STR(small_sub("grid = cdiv(M, 32)\n", "grid = M / (N - 32)\n"), P ":11: [launch] grid: division by zero");
	CHECK_STR(small_sub("grid = cdiv(M, 32)\n", "grid = 1,1,1,1\n"),
	          P ":11: [launch] grid: more than 3 comma-separated expressions");
}

static void test_err_overflow(void)
{
	CHECK_STR(small_err("[roofline]\nflops = M*N*10000000000000000\n"),
	          P ":18: [roofline] flops: overflow in 'M*N*10000000000000000'");
	/* Fine at the benchmark shape, overflows only with a [check] set. */
	CHECK_STR(small_err("[check]\nsizes = M=64; M=1000000000,N=1000000000\n[roofline]\nbytes = M*N*N\n"),
	          P ":20: [roofline] bytes: overflow in 'M*N*N' (check sizes M=1000000000,N=1000000000)");
}

static void test_err_zero_or_negative(void)
{
	CHECK_STR(small_sub("grid = cdiv(M, 32)\n", "grid = M - 64\n"), P ":11: [launch] grid: x: 'M - 64' = 0, must be at least 1");
	CHECK_STR(small_sub("block = 32\n", "block = 32, 0\n"), P ":12: [launch] block: y: got 0, must be at least 1");
	CHECK_STR(small_sub("block = 32\n", "block = 32, 64\n"),
	          P ":12: [launch] block: 2048 threads per block exceeds the CUDA limit of 1024");
	CHECK_STR(small_sub("grid = cdiv(M, 32)\n", "grid = 1, 70000\n"),
	          P ":11: [launch] grid: y = 70000 exceeds the CUDA limit of 65535");
	CHECK_STR(small_err("[launch]\n"), P ":17: [launch]: duplicate section (first at line 10)");
	CHECK_STR(small_sub("M = 64\n", "M = 0\n"), P ":8: [dims] M: got 0, must be at least 1");
	CHECK_STR(small_err("[check]\nsizes = M=32\n[arg Y]\nkind = input\ndtype = f32\nshape = M - 32\n"),
	          P ":22: [arg Y] shape: 'M - 32' = 0, must be at least 1 (check sizes M=32,N=32)");
	/* A derived dim re-evaluated under a check set. */
	CHECK_STR(small_sub("N = 32\n", "N = M - 32\n[check]\nsizes = M=32\n"),
	          P ":9: [dims] N: 'M - 32' = 0, must be at least 1 (check sizes M=32)");
	CHECK_STR(small_err("[roofline]\nbytes = -M\n"), P ":18: [roofline] bytes: '-M' = -64, must be at least 0");
}

/* [check] inputs: the distributions of the check sweep (normal first, then as written). */
static void test_check_inputs(void)
{
	static const char *y = "[arg Y]\nkind = input\ndtype = f32\nshape = M\n"; /* lines 19-22 */
	char buf[1024];
	/* absent: normal only */
	snprintf(buf, sizeof(buf), "%s%s", small_head, y);
	rung_spec *s = parse_ok(buf);
	CHECK(s != NULL);
	if (s) {
		CHECK_INT(s->ninputs, 1);
		CHECK_INT(s->inputs[0], RUNG_DIST_NORMAL);
		CHECK_INT(s->inputs_line, 0);
		rung_spec_free(s);
	}
	snprintf(buf, sizeof(buf), "%s[check]\ninputs = wide ,normal,  ints, constant\n%s", small_head, y);
	s = parse_ok(buf);
	CHECK(s != NULL);
	if (s) {
		CHECK_INT(s->ninputs, 4);
		CHECK_INT(s->inputs[0], RUNG_DIST_NORMAL);
		CHECK_INT(s->inputs[1], RUNG_DIST_WIDE);
		CHECK_INT(s->inputs[2], RUNG_DIST_INTS);
		CHECK_INT(s->inputs[3], RUNG_DIST_CONSTANT);
		CHECK_INT(s->inputs_line, 18);
		rung_spec_free(s);
	}
	snprintf(buf, sizeof(buf), "%s[check]\ninputs = normal\n%s", small_head, y);
	s = parse_ok(buf);
	CHECK(s && s->ninputs == 1);
	rung_spec_free(s);

	snprintf(buf, sizeof(buf), "[check]\ninputs = normal, wid\n%s", y);
	CHECK_STR(small_err(buf), P ":18: [check] inputs: unknown distribution 'wid' (normal, wide, constant, ints, special)");
	snprintf(buf, sizeof(buf), "[check]\ninputs = normal, wide, wide\n%s", y);
	CHECK_STR(small_err(buf), P ":18: [check] inputs: 'wide' given twice");
	snprintf(buf, sizeof(buf), "[check]\ninputs = normal,,wide\n%s", y);
	CHECK_STR(small_err(buf), P ":18: [check] inputs: empty item in 'normal,,wide'");
	snprintf(buf, sizeof(buf), "[check]\ninputs = normal, wide,\n%s", y);
	CHECK_STR(small_err(buf), P ":18: [check] inputs: empty item in 'normal, wide,'");
	snprintf(buf, sizeof(buf), "[check]\ninputs =\n%s", y);
	CHECK_STR(small_err(buf), P ":18: [check] inputs: missing value");
	snprintf(buf, sizeof(buf), "[check]\ninputs = wide\n%s", y);
	CHECK_STR(small_err(buf),
	          P ":18: [check] inputs: 'normal' is missing: the run case and the bench always use it (e.g. inputs = normal, wide)");
	snprintf(buf, sizeof(buf), "[check]\ninputs = normal\ninputs = wide\n%s", y);
	CHECK_STR(small_err(buf), P ":19: [check] inputs: duplicate key (first at line 18)");
	/* a distribution must change some argument: integer inputs and fixed inits keep theirs */
	CHECK_STR(small_err("[check]\ninputs = normal, ints\n"
	                    "[arg I]\nkind = input\ndtype = i32\nshape = M\n"
	                    "[arg Z]\nkind = inout\ndtype = f32\nshape = M\ninit = zeros\n"),
	          P ":18: [check] inputs: 'ints' changes no argument (it replaces float inputs whose init is randn or uniform)");
	/* an inout with generated data counts */
	snprintf(buf, sizeof(buf), "%s[check]\ninputs = normal, constant\n[arg Z]\nkind = inout\ndtype = bf16\nshape = M\n"
	         "init = uniform(1, 2)\n", small_head);
	s = parse_ok(buf);
	CHECK(s && s->ninputs == 2 && s->inputs[1] == RUNG_DIST_CONSTANT);
	rung_spec_free(s);
	/* golden outputs hold the normal inputs' result */
	snprintf(buf, sizeof(buf), "golden = x.npy\n[check]\ninputs = normal, wide\n%s", y);
	CHECK_STR(small_err(buf),
	          P ":19: [check] inputs: 'wide' cannot be checked against the golden file of [arg X] (it holds the result of the normal inputs)");
}

/* [check] special: the values the reference defines, for inputs = ..., special. */
static void test_check_special(void)
{
	static const char *y = "[arg Y]\nkind = input\ndtype = f32\nshape = M\n"; /* lines 20-23 */
	char buf[1024];
	snprintf(buf, sizeof(buf), "%s[check]\ninputs = normal, special\n%s", small_head, y);
	rung_spec *s = parse_ok(buf);
	CHECK(s && s->ninputs == 2 && s->inputs[1] == RUNG_DIST_SPECIAL && s->special == RUNG_SPECIAL_ALL);
	rung_spec_free(s);
	snprintf(buf, sizeof(buf), "%s[check]\ninputs = normal, special\nspecial = -inf, -0 ,subnormal\n%s", small_head, y);
	s = parse_ok(buf);
	CHECK(s != NULL);
	if (s) {
		CHECK_INT(s->special, (1u << RUNG_SPECIAL_NEG_INF) | (1u << RUNG_SPECIAL_NEG_ZERO) | (1u << RUNG_SPECIAL_SUBNORMAL));
		CHECK_INT(s->special_line, 19);
		char txt[128];
		rung_special_format(txt, sizeof(txt), s->special);
		CHECK_STR(txt, "-inf, -0, subnormal");
		rung_spec_free(s);
	}
	snprintf(buf, sizeof(buf), "[check]\ninputs = normal, special\nspecial = -inf, inf\n%s", y);
	CHECK_STR(small_err(buf), P ":19: [check] special: unknown special value 'inf' (the values are -inf, +inf, nan, -0, subnormal, max)");
	snprintf(buf, sizeof(buf), "[check]\ninputs = normal, special\nspecial = nan, nan\n%s", y);
	CHECK_STR(small_err(buf), P ":19: [check] special: 'nan' given twice");
	snprintf(buf, sizeof(buf), "[check]\ninputs = normal, wide\nspecial = -inf\n%s", y);
	CHECK_STR(small_err(buf), P ":19: [check] special: the special values are drawn only by the 'special' distribution: add it to inputs (inputs = normal, special)");
}

/* The default distributions (issue 25): no inputs line and an f32/f64 input that
 * wide changes: normal + wide, marked default; an explicit inputs line, an
 * f16/bf16 input, a golden file or nothing to change: as written. */
static void test_default_inputs(void)
{
	static const struct {
		const char *extra;
		int added;
	} cases[] = {
		{ "[arg Y]\nkind = input\ndtype = f32\nshape = M\n", 1 },
		{ "[arg Y]\nkind = inout\ndtype = f64\nshape = M\ninit = uniform(0, 1)\n", 1 },
		{ "[check]\ninputs = normal\n[arg Y]\nkind = input\ndtype = f32\nshape = M\n", 0 }, /* the opt-out */
		{ "[check]\ninputs = normal, ints\n[arg Y]\nkind = input\ndtype = f32\nshape = M\n", 0 },
		{ "[arg Y]\nkind = input\ndtype = f16\nshape = M\n", 0 },
		{ "[arg Y]\nkind = input\ndtype = f32\nshape = M\n[arg Z]\nkind = input\ndtype = bf16\nshape = M\n", 0 },
		{ "[arg Y]\nkind = input\ndtype = i32\nshape = M\n", 0 },
		{ "[arg Y]\nkind = input\ndtype = f32\nshape = M\ninit = zeros\n", 0 },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char buf[1024];
		snprintf(buf, sizeof(buf), "%s%s", small_head, cases[k].extra);
		rung_spec *s = parse_ok(buf);
		CHECK(s != NULL);
		if (!s)
			continue;
		int before = s->ninputs;
		CHECK_INT(rung_spec_default_inputs(s), cases[k].added);
		CHECK_INT(s->inputs_default, cases[k].added);
		CHECK_INT(s->ninputs, before + cases[k].added);
		if (cases[k].added)
			CHECK(s->inputs[0] == RUNG_DIST_NORMAL && s->inputs[1] == RUNG_DIST_WIDE);
		CHECK_INT(rung_spec_default_inputs(s), 0); /* once */
		rung_spec_free(s);
	}
}

/* The default size set below the block (issue 25): small_head's block is 32 and
 * its output X has shape M; a task whose sets vary M, none below 32, gets
 * M = 17 (N from [dims]), once; not without sizes, not when a set is below
 * the block, not when M stays the benchmark's, not where an expression would
 * not hold. */
static void test_default_small_set(void)
{
	static const struct {
		const char *extra;
		int added;
	} cases[] = {
		{ "[check]\nsizes = M=48\n", 1 },
		{ "[check]\nsizes = M=48; M=96\n", 1 },
		{ "", 0 },                              /* no sizes: the task's one shape */
		{ "[check]\nsizes = M=31\n", 0 },     /* below the block already */
		{ "[check]\nsizes = N=7\n", 0 },      /* M does not vary */
		{ "[check]\nsizes = M=48\n[roofline]\nbytes = M - 20\n", 0 }, /* 17 - 20 < 0 */
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		char buf[1024];
		snprintf(buf, sizeof(buf), "%s%s", small_head, cases[k].extra);
		rung_spec *s = parse_ok(buf);
		CHECK(s != NULL);
		if (!s)
			continue;
		int before = s->ncheck;
		CHECK_INT(rung_spec_default_checks(s), cases[k].added);
		CHECK_INT(s->ncheck, before + cases[k].added);
		if (cases[k].added) {
			int64_t m = 0, n = 0;
			CHECK_INT(rung_dimset_get(&m, &s->check[s->ncheck - 1], "M"), 0);
			CHECK_INT(rung_dimset_get(&n, &s->check[s->ncheck - 1], "N"), 0);
			CHECK_INT(m, 17);
			CHECK_INT(n, 32);
			CHECK_INT(rung_spec_default_checks(s), 0); /* once */
		}
		rung_spec_free(s);
	}
}

static void test_err_bad_sizes(void)
{
	CHECK_STR(small_err("[check]\nsizes = M=32;;M=16\n"),
	          P ":18: [check] sizes: size set 2 is empty or has an empty item; expected e.g. 'M=127,N=255; M=1024,N=1024'");
	CHECK_STR(small_err("[check]\nsizes = M:32\n"), P ":18: [check] sizes: size set 1: expected NAME=VALUE, found 'M:32'");
	CHECK_STR(small_err("[check]\nsizes = M=32,Q=4\n"), P ":18: [check] sizes: size set 1: unknown dim 'Q' (not in [dims])");
	CHECK_STR(small_err("[check]\nsizes = M=32; N=1,N=2\n"), P ":18: [check] sizes: size set 2: 'N' given twice");
	CHECK_STR(small_err("[check]\nsizes = M=0\n"), P ":18: [check] sizes: size set 1: M = 0, must be at least 1");
	CHECK_STR(small_err("[check]\nsizes = M=N\n"), P ":18: [check] sizes: size set 1: M: unknown dim 'N'");
}

static void test_err_ini_syntax(void)
{
	CHECK_STR(parse_err("name = t\n[task]\n"), P ":1: 'name' is outside any section; start with [task]");
	CHECK_STR(small_err("[arg Y\n"), P ":17: section header '[arg Y' does not end with ']'");
	CHECK_STR(small_err("shape M\n"), P ":17: [arg X]: expected 'key = value', found 'shape M'");
	CHECK_STR(small_err("golden =\n"), P ":17: [arg X] golden: missing value");
	CHECK_STR(small_err("golden = # nothing\n"), P ":17: [arg X] golden: missing value");
	CHECK_STR(small_err("bad key = 1\n"), P ":17: [arg X]: 'bad key' is not a valid key");
}

/* inih reads lines into a fixed buffer: a longer line is an error naming its line, and a
 * [check] sizes line may be repeated to split a long list. ';' inside a value is kept. */
static void test_long_lines_and_repeated_sizes(void)
{
	char big[400];
	snprintf(big, sizeof(big), "[check]\nsizes = M=1%0300d\n", 0);
	const char *e = small_err(big);
	CHECK_CONTAINS(e, P ":18: [check]: line is ");
	CHECK_CONTAINS(e, "split it (a [check] sizes line may be repeated)");
	char more[256];
	snprintf(more, sizeof(more), "%s[check]\nsizes = M=32 ; M=16\nsizes = M=8\n", small_head);
	rung_spec *s = parse_ok(more);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_INT(s->ncheck, 3);
	CHECK_INT(dim(&s->check[0], "M"), 32);
	CHECK_INT(dim(&s->check[1], "M"), 16);
	CHECK_INT(dim(&s->check[2], "M"), 8);
	rung_spec_free(s);
}

static void test_err_task_values(void)
{
	CHECK_STR(small_sub("name = t\n", "name = t\narch = sm90\n"), P ":3: [task] arch: 'sm90' is not an architecture (e.g. sm_90, sm_90a)");
	/* a virtual architecture has no CUBIN, which every rung after compile needs */
	CHECK_STR(small_sub("name = t\n", "name = t\narch = compute_90\n"),
	          P ":3: [task] arch: 'compute_90' is a virtual architecture (PTX only); rung needs a CUBIN: use sm_90");
	CHECK_STR(small_sub("name = t\n", "name = t\narch = compute_90a\n"),
	          P ":3: [task] arch: 'compute_90a' is a virtual architecture (PTX only); rung needs a CUBIN: use sm_90a");
	CHECK_STR(small_sub("entry = k\n", "entry = 3k\n"),
	          P ":4: [task] entry: '3k' is not a kernel name (e.g. sgemm or sgemm<128,8>)");
	CHECK_STR(small_sub("entry = k\n", "entry = k<1,2\n"),
	          P ":4: [task] entry: 'k<1,2' is not a kernel name (e.g. sgemm or sgemm<128,8>)");
}

static void test_comments_and_whitespace(void)
{
	/* CRLF endings, a BOM, ; and # comments, indented keys, # after a value; ';' inside sizes is not a comment. */
	const char *text =
		"\xEF\xBB\xBF; a comment\r\n"
		"[task]\r\n"
		"  name = t   # trailing\r\n"
		"kernel=k.cu\r\n"
		"entry = k\r\n"
		"reference = r.cu\r\n"
		"reference_entry = r\r\n"
		"[ dims ]\r\n"
		"M = 64\r\n"
		"[check]\r\n"
		"sizes = M=1 ; M=2\r\n"
		"[launch]\r\n"
		"grid = 1\r\n"
		"block = 32\r\n"
		"[arg   X]\r\n"
		"kind = output\r\n"
		"dtype = f32\r\n"
		"shape = M\r\n";
	rung_spec *s = parse_ok(text);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_STR(s->name, "t");
	CHECK_STR(s->kernel, "k.cu");
	CHECK_INT(s->ncheck, 2);
	CHECK_INT(dim(&s->check[1], "M"), 2);
	CHECK_STR(s->args[0].name, "X");
	CHECK_STR(s->args[0].shape[0].text, "M");
	CHECK_INT(s->args[0].line, 15);
	rung_spec_free(s);
}

static const char *kernel_src =
	"#include \"tile.h\"\n"                                                              /* 1 */
	"// 128x128 tiles\n"                                                                /* 2 */
	"__global__ void sgemm() {} // rung: grid = cdiv(N,128), cdiv(M,128); block = 256; smem = 49152\n"; /* 3 */

static void test_launch_from_source(void)
{
	rung_spec *s = parse_ok(sgemm_ini);
	CHECK(s != NULL);
	if (!s)
		return;
	rung_launch l;
	CHECK_INT(rung_launch_from_source(&l, s, kernel_src, "sgemm.cu"), 1);
	CHECK_STR(l.file, "sgemm.cu");
	CHECK_INT(l.ngrid, 2);
	CHECK_INT(l.nblock, 1);
	CHECK_STR(l.grid[0].text, "cdiv(N,128)");
	CHECK_INT(l.grid[0].line, 3);
	CHECK_STR(l.smem.text, "49152");
	rung_geom g;
	CHECK_INT(rung_launch_eval(&g, &l, &s->dims), 0);
	CHECK_INT(g.grid[0], 16);
	CHECK_INT(g.grid[1], 8);
	CHECK_INT(g.grid[2], 1);
	CHECK_INT(g.block[0], 256);
	CHECK_INT(g.block[1], 1);
	CHECK_INT(g.smem, 49152);
	rung_launch_clear(&l);
	CHECK(l.grid[0].text == NULL);

	/* A subset of keys: the rest comes from [launch]. */
	CHECK_INT(rung_launch_from_source(&l, s, "//rung: block = 8, 8\n", "k.cu"), 1);
	CHECK_INT(rung_launch_eval(&g, &l, &s->dims), 0);
	CHECK_INT(g.grid[0], 128);
	CHECK_INT(g.grid[1], 64);
	CHECK_INT(g.block[0], 8);
	CHECK_INT(g.block[1], 8);
	CHECK_INT(g.smem, 2048);
	rung_launch_clear(&l);

	/* No line: a copy of [launch]. */
	CHECK_INT(rung_launch_from_source(&l, s, "__global__ void k() {}\n// rungs: not us\n", "k.cu"), 0);
	CHECK_STR(l.grid[1].text, "cdiv(M,16)");
	CHECK(l.grid[1].text != s->launch.grid[1].text);
	CHECK_STR(l.file, P);
	rung_launch_clear(&l);
	rung_spec_free(s);
}

static const char *launch_err(const char *src)
{
	static char msg[1024];
	rung_spec *s = parse_ok(sgemm_ini);
	if (!s)
		return "(spec failed)";
	rung_launch l;
	int rc = rung_launch_from_source(&l, s, src, "sgemm.cu");
	snprintf(msg, sizeof(msg), "%s", rc < 0 ? rung_error_last() : "(no error)");
	if (rc < 0 && (l.ngrid != 0 || l.grid[0].text != NULL))
		snprintf(msg, sizeof(msg), "(out not cleared on error)");
	rung_launch_clear(&l);
	rung_spec_free(s);
	return msg;
}

static void test_launch_from_source_errors(void)
{
	CHECK_STR(launch_err("x\n\n// rung: gird = 4\n"), "sgemm.cu:3: rung: unknown key 'gird' (expected grid, block or smem)");
	CHECK_STR(launch_err("// rung: grid = 1\n// rung: grid = 2\n"), "sgemm.cu:2: rung grid: duplicate key (first at line 1)");
	CHECK_STR(launch_err("int x; // rung:\n"), "sgemm.cu:1: rung: empty; expected e.g. 'grid = cdiv(N,128); block = 256'");
	CHECK_STR(launch_err("// rung: grid = cdiv(N, Q)\n"), "sgemm.cu:1: rung grid: unknown dim 'Q'");
	CHECK_STR(launch_err("// rung: grid 4\n"), "sgemm.cu:1: rung: expected 'key = value', found 'grid 4'");
	CHECK_STR(launch_err("// rung: smem = 1, 2\n"), "sgemm.cu:1: rung smem: expected one expression");
	CHECK_STR(launch_err("// rung: block =\n"), "sgemm.cu:1: rung block: missing value");
	CHECK_STR(launch_err("// rung: block = 2048\n"), "sgemm.cu:1: rung block: x = 2048 exceeds the CUDA limit of 1024");
	CHECK_STR(launch_err("\n// rung: block = M - 127\n"),
	          "sgemm.cu:2: rung block: x: 'M - 127' = 0, must be at least 1 (check sizes M=127,N=255,K=63,MN=32385)");
}

static void test_load_from_disk(void)
{
	const char *dir = t_tmpdir();
	CHECK(dir != NULL);
	if (!dir)
		return;
	char path[512];
	snprintf(path, sizeof(path), "%s/rung.ini", dir);
	CHECK_INT(t_write(path, sgemm_ini), 0);
	rung_spec *s = NULL;
	/* headers = include, common: each must be a directory of the task */
	char want[600], sub[600];
	snprintf(sub, sizeof(sub), "%s/include/tile.cuh", dir);
	CHECK_INT(t_write(sub, "#define TILE 16\n"), 0);
	CHECK_INT(rung_spec_load(&s, dir), RUNG_EINVAL);
	CHECK(s == NULL);
	snprintf(want, sizeof(want), "%s:10: [task] headers: 'common': no such directory (%s/common)", path, dir);
	CHECK_STR(rung_error_last(), want);
	snprintf(sub, sizeof(sub), "%s/common", dir);
	CHECK_INT(t_write(sub, "a file, not a directory\n"), 0);
	CHECK_INT(rung_spec_load(&s, dir), RUNG_EINVAL);
	snprintf(want, sizeof(want), "%s:10: [task] headers: 'common' is not a directory (%s/common)", path, dir);
	CHECK_STR(rung_error_last(), want);
	remove(sub);
	snprintf(sub, sizeof(sub), "%s/common/x.cuh", dir);
	CHECK_INT(t_write(sub, "\n"), 0);
	CHECK_INT(rung_spec_load(&s, dir), 0);
	if (s) {
		CHECK_STR(s->path, path);
		CHECK_STR(s->dir, dir);
		char golden[600];
		snprintf(golden, sizeof(golden), "%s/golden/c.npy", dir);
		CHECK_STR(s->args[2].golden, golden);
		rung_spec_free(s);
	}
	s = NULL;
	CHECK_INT(rung_spec_load(&s, path), 0); /* the file itself */
	if (s) {
		CHECK_STR(s->dir, dir);
		rung_spec_free(s);
	}
	char bad[4096];
	snprintf(bad, sizeof(bad), "%s%s", small_head, "dtype = f16\n");
	CHECK_INT(t_write(path, bad), 0);
	CHECK_INT(rung_spec_load(&s, dir), RUNG_EINVAL);
	CHECK(s == NULL);
	snprintf(want, sizeof(want), "%s:17: [arg X] dtype: duplicate key (first at line 15)", path);
	CHECK_STR(rung_error_last(), want);
	snprintf(path, sizeof(path), "%s/nope", dir);
	CHECK_INT(rung_spec_load(&s, path), RUNG_EIO);
	snprintf(want, sizeof(want), "%s: No such file or directory", path);
	CHECK_STR(rung_error_last(), want);
}

static void test_dtype_and_dimset(void)
{
	static const struct {
		const char *name;
		size_t size;
		bool f;
	} want[RUNG_DT_COUNT] = { { "f64", 8, 1 }, { "f32", 4, 1 }, { "f16", 2, 1 }, { "bf16", 2, 1 },
		                      { "i64", 8, 0 }, { "i32", 4, 0 }, { "u8", 1, 0 } };
	for (int i = 0; i < RUNG_DT_COUNT; i++) {
		rung_dtype dt = RUNG_DT_COUNT;
		CHECK_STR(rung_dtype_name((rung_dtype)i), want[i].name);
		CHECK_INT(rung_dtype_size((rung_dtype)i), want[i].size);
		CHECK_INT(rung_dtype_is_float((rung_dtype)i), want[i].f);
		CHECK_INT(rung_dtype_parse(&dt, want[i].name), 0);
		CHECK_INT(dt, i);
	}
	rung_dtype dt;
	CHECK_INT(rung_dtype_parse(&dt, "F32"), RUNG_EINVAL);
	CHECK_STR(rung_arg_kind_name(RUNG_ARG_INOUT), "inout");
	CHECK_STR(rung_arg_kind_name(RUNG_ARG_SCALAR), "scalar");

	rung_dimset ds = { 0 };
	int64_t v;
	CHECK_INT(rung_dimset_get(&v, &ds, "M"), RUNG_ENOTFOUND);
	CHECK_INT(rung_dimset_set(&ds, "M", 127), 0);
	CHECK_INT(rung_dimset_set(&ds, "N", 255), 0);
	CHECK_INT(rung_dimset_set(&ds, "M", 128), 0); /* replaces */
	CHECK_INT(ds.n, 2);
	CHECK_INT(rung_dimset_get(&v, &ds, "M"), 0);
	CHECK_INT(v, 128);
	char buf[64];
	CHECK_INT(rung_dimset_format(buf, sizeof(buf), &ds), 0);
	CHECK_STR(buf, "M=128,N=255");
	CHECK_INT(rung_dimset_format(buf, 8, &ds), RUNG_EINVAL);
	for (int i = 0; i < RUNG_MAX_DIMS - 2; i++) {
		char name[8];
		snprintf(name, sizeof(name), "D%d", i);
		CHECK_INT(rung_dimset_set(&ds, name, i), 0);
	}
	CHECK_INT(rung_dimset_set(&ds, "ONEMORE", 1), RUNG_EINVAL);
}

/* Every task shipped in the tree (examples/, tests/tasks/) must parse. */
static void test_shipped_tasks_parse(void)
{
	glob_t g;
	int n = 0;
	const char *pats[] = { RUNG_TEST_DIR "/../examples/*/rung.ini", RUNG_TEST_DIR "/tasks/*/rung.ini",
			       RUNG_TEST_DIR "/exploits/*/rung.ini" };
	for (int p = 0; p < 3; p++) {
		if (glob(pats[p], 0, NULL, &g) != 0)
			continue;
		for (size_t i = 0; i < g.gl_pathc; i++, n++) {
			rung_spec *s = NULL;
			int rc = rung_spec_load(&s, g.gl_pathv[i]);
			if (rc)
				fprintf(stderr, "  %s\n", rung_error_last());
			CHECK_INT(rc, 0);
			if (s) {
				CHECK(s->nargs >= 1);
				rung_spec_free(s);
			}
		}
		globfree(&g);
	}
	CHECK(n >= 1); /* tests/tasks/sgemm at least */
	/* the GPU test's exploit (tests/gpu_inputs.c) checks normal and wide */
	rung_spec *s = NULL;
	CHECK_INT(rung_spec_load(&s, RUNG_TEST_DIR "/exploits/normal_only"), 0);
	CHECK(s && s->ninputs == 2 && s->inputs[1] == RUNG_DIST_WIDE);
	rung_spec_free(s);
}

/* The first example in docs/SPEC.md parses, with the geometry the text describes. */
static void test_doc_example_parses(void)
{
	char *doc = NULL;
	CHECK_INT(t_sh(&doc, "awk '/^```ini$/ { n++; next } /^```$/ { if (n == 1) exit } n == 1' '%s/../docs/SPEC.md'", RUNG_TEST_DIR), 0);
	if (!doc)
		return;
	rung_spec *s = parse_ok(doc);
	free(doc);
	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_INT(s->nargs, 6);
	CHECK_STR(s->args[3].name, "M");
	rung_geom g;
	CHECK_INT(rung_launch_eval(&g, &s->launch, &s->dims), 0);
	CHECK_INT(g.grid[0], 64);
	CHECK_INT(g.grid[1], 64);
	CHECK_INT(g.block[0] * g.block[1], 256);
	rung_spec_free(s);
}

/* [check] deterministic: true by default, false declares results that may
 * vary between runs; any other value is an error at its line. */
static void test_deterministic(void)
{
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s", small_head);
	rung_spec *s = parse_ok(buf);
	CHECK(s && !s->nondeterministic);
	rung_spec_free(s);
	snprintf(buf, sizeof(buf), "%s[check]\ndeterministic = false\n", small_head);
	s = parse_ok(buf);
	CHECK(s && s->nondeterministic);
	rung_spec_free(s);
	CHECK_STR(small_err("[check]\ndeterministic = maybe\n"),
		  P ":18: [check] deterministic: expected true or false, found 'maybe'");
}

int main(void)
{
	T_RUN(test_full_sgemm_spec);
	T_RUN(test_small_spec_is_valid);
	T_RUN(test_err_missing_required_key);
	T_RUN(test_err_missing_section);
	T_RUN(test_err_unknown_section);
	T_RUN(test_err_unknown_key);
	T_RUN(test_goal_section);
	T_RUN(test_goal_not_in_key);
	T_RUN(test_deterministic);
	T_RUN(test_err_duplicate_key);
	T_RUN(test_err_duplicate_section_and_arg);
	T_RUN(test_err_bad_kind_dtype);
	T_RUN(test_err_bad_init);
	T_RUN(test_err_output_with_init);
	T_RUN(test_err_scalar_rules);
	T_RUN(test_err_no_output);
	T_RUN(test_err_bad_number);
	T_RUN(test_sanitize_key);
	T_RUN(test_err_unknown_dim_in_shape);
	T_RUN(test_err_expression_syntax);
	T_RUN(test_err_overflow);
	T_RUN(test_err_zero_or_negative);
	T_RUN(test_err_bad_sizes);
	T_RUN(test_check_inputs);
	T_RUN(test_check_special);
	T_RUN(test_default_inputs);
	T_RUN(test_default_small_set);
	T_RUN(test_err_ini_syntax);
	T_RUN(test_long_lines_and_repeated_sizes);
	T_RUN(test_err_task_values);
	T_RUN(test_comments_and_whitespace);
	T_RUN(test_launch_from_source);
	T_RUN(test_launch_from_source_errors);
	T_RUN(test_load_from_disk);
	T_RUN(test_dtype_and_dimset);
	T_RUN(test_shipped_tasks_parse);
	T_RUN(test_doc_example_parses);
	return t_done();
}
