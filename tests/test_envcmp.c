/* core/envcmp.c: results from different environments are flagged with what differs. */
#include "core/envcmp.h"
#include "harness.h"

static rung_env h200(void)
{
	rung_env e;
	memset(&e, 0, sizeof(e));
	e.valid = true;
	snprintf(e.gpu, sizeof(e.gpu), "NVIDIA H200");
	snprintf(e.uuid, sizeof(e.uuid), "GPU-8c32f20b-0b04");
	snprintf(e.driver, sizeof(e.driver), "580.159.04");
	snprintf(e.cuda, sizeof(e.cuda), "13.0");
	e.sm_clock_mhz = 1980;
	e.mem_clock_mhz = 3201;
	e.power_limit_w = 700;
	return e;
}

static void test_same(void)
{
	rung_env a = h200(), b = h200();
	char why[256];
	CHECK_INT(rung_env_diff(why, sizeof(why), &a, &b), 0);
	CHECK_STR(why, "");
}

static void test_unknown_is_not_a_difference(void)
{
	rung_env a = h200(), b;
	memset(&b, 0, sizeof(b));
	CHECK_INT(rung_env_diff(NULL, 0, &a, &b), 0);
}

static void test_differences_named(void)
{
	rung_env a = h200(), b = h200();
	snprintf(b.gpu, sizeof(b.gpu), "NVIDIA H100 80GB HBM3");
	snprintf(b.driver, sizeof(b.driver), "575.57");
	b.sm_clock_mhz = 1755;
	b.power_limit_w = 600;
	char why[256];
	CHECK_INT(rung_env_diff(why, sizeof(why), &a, &b), 4);
	CHECK_STR(why, "GPU NVIDIA H200 vs NVIDIA H100 80GB HBM3; driver 580.159.04 vs 575.57; SM clock 1980 vs 1755 MHz; "
		       "power limit 700 vs 600 W");
}

static void test_same_model_other_board(void)
{
	rung_env a = h200(), b = h200();
	snprintf(b.uuid, sizeof(b.uuid), "GPU-124ef69a-d043");
	char why[64];
	CHECK_INT(rung_env_diff(why, sizeof(why), &a, &b), 1);
	CHECK_CONTAINS(why, "another NVIDIA H200");
	/* truncation keeps a terminated string */
	char tiny[8];
	CHECK_INT(rung_env_diff(tiny, sizeof(tiny), &a, &b), 1);
	CHECK_INT(strlen(tiny), 7);
}

int main(void)
{
	T_RUN(test_same);
	T_RUN(test_unknown_is_not_a_difference);
	T_RUN(test_differences_named);
	T_RUN(test_same_model_other_board);
	return t_done();
}
