/* The records' calibration rules (core/calib.h): the cache line's format and
 * parse (boot, bounds, trailing junk) and when the offset is taken. */
#include "harness.h"

#include <math.h>
#include <string.h>

#include "core/calib.h"

static void t_line_roundtrip(void)
{
	char line[256];
	CHECK_INT(rung_calib_format(line, sizeof(line), "b0a7-11", 1824.0, 20, 1764700981LL), 0);
	CHECK_STR(line, "rung-calib 1 boot b0a7-11 floor_ns 1824.0 n 20 at 1764700981\n");
	double ns = 0;
	int n = 0;
	long long at = 0;
	CHECK_INT(rung_calib_parse(line, "b0a7-11", &ns, &n, &at), 1);
	CHECK_NEAR(ns, 1824.0, 1e-9);
	CHECK_INT(n, 20);
	CHECK(at == 1764700981LL);
	/* another boot: stale, nothing set */
	ns = -1;
	CHECK_INT(rung_calib_parse(line, "c1d2-22", &ns, &n, &at), 0);
	CHECK_NEAR(ns, -1, 0);
	CHECK_INT(rung_calib_parse(line, NULL, &ns, &n, &at), 0);
	/* a buffer too small for the line */
	CHECK_INT(rung_calib_format(line, 20, "b0a7-11", 1824.0, 20, 1), -1);
}

static void t_line_malformed(void)
{
	double ns = 0;
	int n = 0;
	long long at = 0;
	const char *bad[] = {
		"",
		"rung-calib 2 boot b floor_ns 1824.0 n 20 at 1\n",   /* another format */
		"rung-calib 1 boot b floor_ns 1824.0 n 20\n",        /* cut short */
		"rung-calib 1 boot b floor_ns 1824.0 n 20 at 1 x\n", /* trailing junk */
		"rung-calib 1 boot b floor_ns 50.0 n 20 at 1\n",     /* 0.05 us: below the bounds */
		"rung-calib 1 boot b floor_ns 200000 n 20 at 1\n",   /* 200 us: above */
		"rung-calib 1 boot b floor_ns nan n 20 at 1\n",
		"rung-calib 1 boot b floor_ns 1824.0 n 0 at 1\n",    /* no launches */
		"rung-calib 1 boot b floor_ns 1824.0 n 20 at -5\n",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = rung_calib_parse(bad[i], "b", &ns, &n, &at);
		if (r != -1)
			fprintf(stderr, "line %zu: %d\n", i, r);
		CHECK_INT(r, -1);
	}
	CHECK_INT(rung_calib_parse(NULL, "b", &ns, &n, &at), -1);
}

static void t_offset_rule(void)
{
	double off = 0;
	char why[200] = "";
	/* the H200's figures: records 3.23 us, profiler 1.82 us, a 57 us kernel */
	CHECK_INT(rung_calib_offset(0.00323, 0.00182, 0.057, &off, why, sizeof(why)), 1);
	CHECK_NEAR(off, 0.00141, 1e-12);
	/* negative: the records read below the profiler, nothing taken */
	CHECK_INT(rung_calib_offset(0.0018, 0.0020, 0.057, &off, why, sizeof(why)), 0);
	CHECK(isnan(off));
	CHECK_CONTAINS(why, "-0.20 us is outside 0 to 5 us");
	/* over 5 us */
	CHECK_INT(rung_calib_offset(0.0090, 0.0018, 0.057, &off, why, sizeof(why)), 0);
	CHECK_CONTAINS(why, "+7.20 us");
	/* over a quarter of the median */
	CHECK_INT(rung_calib_offset(0.00323, 0.00182, 0.004, &off, why, sizeof(why)), 0);
	CHECK_CONTAINS(why, "over 25% of the median");
	/* a quarter exactly is taken */
	CHECK_INT(rung_calib_offset(0.00323, 0.00182, 0.00564, &off, why, sizeof(why)), 1);
	/* nothing measured */
	CHECK_INT(rung_calib_offset(NAN, 0.00182, 0.057, &off, why, sizeof(why)), 0);
	CHECK_CONTAINS(why, "no launch floor");
}

static void t_name(void)
{
	char b[128];
	rung_calib_name(b, sizeof(b), "GPU-0a1b/../x y", "580.159.04");
	CHECK_STR(b, "GPU-0a1b_.._x_y-580.159.04");
	rung_calib_name(b, sizeof(b), "", NULL);
	CHECK_STR(b, "gpu-driver");
}

int main(void)
{
	T_RUN(t_line_roundtrip);
	T_RUN(t_line_malformed);
	T_RUN(t_offset_rule);
	T_RUN(t_name);
	return t_done();
}
