/* ptxas -v log parsing, on logs captured from NVRTC 13.0 (--ptxas-options=-v, sm_90). */
#include "harness.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/ptxas.h"

/* Five kernels (two instantiations of a template, an extern "C" one, one calling a
 * non-inlined device function whose own block follows it) from one program. */
static const char *multi_log = "ptxas info    : 0 bytes gmem\n"
                               "ptxas info    : Compiling entry function '_Z1kILi4EEvPfi' for 'sm_90'\n"
                               "ptxas info    : Function properties for _Z1kILi4EEvPfi\n"
                               "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                               "ptxas info    : Used 20 registers, used 0 barriers\n"
                               "ptxas info    : Compile time = 8.524 ms\n"
                               "ptxas info    : Compiling entry function '_Z1kILi128EEvPfi' for 'sm_90'\n"
                               "ptxas info    : Function properties for _Z1kILi128EEvPfi\n"
                               "ptxas         .     512 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                               "ptxas info    : Used 32 registers, used 0 barriers, 512 bytes cumulative stack size\n"
                               "ptxas info    : Compile time = 92.728 ms\n"
                               "ptxas info    : Compiling entry function '_Z8callsdevPf' for 'sm_90'\n"
                               "ptxas info    : Function properties for _Z8callsdevPf\n"
                               "ptxas         .     256 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                               "ptxas info    : Used 36 registers, used 0 barriers, 256 bytes cumulative stack size\n"
                               "ptxas info    : Compile time = 6.774 ms\n"
                               "ptxas info    : Function properties for _Z3devfPf\n"
                               "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                               "ptxas info    : Compiling entry function '_Z5sgemmiiiPKfS0_Pf' for 'sm_90'\n"
                               "ptxas info    : Function properties for _Z5sgemmiiiPKfS0_Pf\n"
                               "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                               "ptxas info    : Used 32 registers, used 1 barriers, 8192 bytes smem\n"
                               "ptxas info    : Compile time = 6.157 ms\n"
                               "ptxas info    : Compiling entry function 'plain' for 'sm_90'\n"
                               "ptxas info    : Function properties for plain\n"
                               "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
                               "ptxas info    : Used 8 registers, used 0 barriers\n"
                               "ptxas info    : Compile time = 0.672 ms\n";

/* A kernel forced to spill by __launch_bounds__(1024, 2), after two small ones. */
static const char *spill_log =
    "ptxas info    : 400 bytes gmem\n"
    "ptxas info    : Compiling entry function '_Z7usegmemPf' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z7usegmemPf\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 10 registers, used 0 barriers\n"
    "ptxas info    : Compile time = 1.789 ms\n"
    "ptxas info    : Compiling entry function '_Z7usecmemPf' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z7usecmemPf\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 8 registers, used 0 barriers\n"
    "ptxas info    : Compile time = 0.787 ms\n"
    "ptxas info    : Compiling entry function '_Z5spillPKfPf' for 'sm_90'\n"
    "ptxas info    : Function properties for _Z5spillPKfPf\n"
    "ptxas         .     2000 bytes stack frame, 2372 bytes spill stores, 6980 bytes spill loads\n"
    "ptxas info    : Used 32 registers, used 0 barriers, 2000 bytes cumulative stack size\n"
    "ptxas info    : Compile time = 580.934 ms\n";

static void test_sgemm_smem_barriers(void)
{
	rung_kinfo k;
	CHECK_INT(rung_ptxas_parse(&k, multi_log, "_Z5sgemmiiiPKfS0_Pf"), 0);
	CHECK(k.valid);
	CHECK_STR(k.name, "_Z5sgemmiiiPKfS0_Pf");
	CHECK_INT(k.regs, 32);
	CHECK_INT(k.barriers, 1);
	CHECK_INT(k.smem, 8192);
	CHECK_INT(k.stack, 0);
	CHECK_INT(k.spill_stores, 0);
	CHECK_INT(k.spill_loads, 0);
}

static void test_template_instances_apart(void)
{
	rung_kinfo a, b;
	CHECK_INT(rung_ptxas_parse(&a, multi_log, "_Z1kILi4EEvPfi"), 0);
	CHECK_INT(rung_ptxas_parse(&b, multi_log, "_Z1kILi128EEvPfi"), 0);
	CHECK_INT(a.regs, 20);
	CHECK_INT(a.stack, 0);
	CHECK_INT(a.stack_frame, 0);
	CHECK_INT(b.regs, 32);
	CHECK_INT(b.stack, 512);
	CHECK_INT(b.stack_frame, 512);
	CHECK_INT(b.smem, 0);
}

static void test_device_function_block_not_mixed_in(void)
{
	rung_kinfo k;
	CHECK_INT(rung_ptxas_parse(&k, multi_log, "_Z8callsdevPf"), 0);
	CHECK_INT(k.regs, 36);
	CHECK_INT(k.stack, 256);
	CHECK_INT(k.stack_frame, 256); /* the device function's "0 bytes stack frame" must not overwrite it */
	/* a device function has properties but no entry block: not a kernel */
	CHECK_INT(rung_ptxas_parse(&k, multi_log, "_Z3devfPf"), RUNG_ENOTFOUND);
	CHECK(!k.valid);
}

static void test_extern_c_and_first(void)
{
	rung_kinfo k;
	CHECK_INT(rung_ptxas_parse(&k, multi_log, "plain"), 0);
	CHECK_INT(k.regs, 8);
	CHECK_INT(rung_ptxas_parse(&k, multi_log, NULL), 0);
	CHECK_STR(k.name, "_Z1kILi4EEvPfi");
	CHECK_INT(k.regs, 20);
}

static void test_spills(void)
{
	rung_kinfo k;
	CHECK_INT(rung_ptxas_parse(&k, spill_log, "_Z5spillPKfPf"), 0);
	CHECK_INT(k.regs, 32);
	CHECK_INT(k.spill_stores, 2372);
	CHECK_INT(k.spill_loads, 6980);
	CHECK_INT(k.stack_frame, 2000);
	CHECK_INT(k.stack, 2000);
	CHECK_INT(rung_ptxas_parse(&k, spill_log, "_Z7usecmemPf"), 0);
	CHECK_INT(k.regs, 8);
	CHECK_INT(k.spill_stores, 0);
}

static void test_missing(void)
{
	rung_kinfo k;
	CHECK_INT(rung_ptxas_parse(&k, multi_log, "_Z5sgemm"), RUNG_ENOTFOUND); /* a prefix is not a match */
	CHECK_CONTAINS(rung_error_last(), "_Z5sgemm");
	CHECK_INT(rung_ptxas_parse(&k, "", NULL), RUNG_ENOTFOUND);
	CHECK_INT(rung_ptxas_parse(&k, NULL, NULL), RUNG_ENOTFOUND);
}

/* Older ptxas (CUDA 11/12 nvcc) prints cmem items on the "Used" line. */
static void test_cmem_item(void)
{
	const char *log = "ptxas info    : Compiling entry function '_Z3addPf' for 'sm_80'\n"
	                  "ptxas info    : Function properties for _Z3addPf\n"
	                  "    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
	                  "ptxas info    : Used 40 registers, used 1 barriers, 8192 bytes smem, 380 bytes cmem[0], "
	                  "16 bytes cmem[2]\n";
	rung_kinfo k;
	CHECK_INT(rung_ptxas_parse(&k, log, "_Z3addPf"), 0);
	CHECK_INT(k.regs, 40);
	CHECK_INT(k.barriers, 1);
	CHECK_INT(k.smem, 8192);
	CHECK_INT(k.cmem, 380);
}

/* A number is read within its line: a line that ends in ", " is followed by one
 * that starts with a number, and strtoll would skip the newline and carry the
 * parser past the end of the line (memchr with a wrapped length; issue item 3). */
static void test_numbers_stay_on_their_line(void)
{
	/* heap copies of exactly their size, so that a read past the end is caught */
	char *frame = strdup("ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
	                     "ptxas info    : Function properties for _Z1kPf\n"
	                     "ptxas         .     8 bytes stack frame, \n"
	                     "16 bytes spill stores\n"
	                     "ptxas info    : Used 12 registers\n");
	rung_kinfo k;
	CHECK_INT(rung_ptxas_parse(&k, frame, "_Z1kPf"), 0);
	CHECK_INT(k.stack_frame, 8);
	CHECK_INT(k.spill_stores, 16); /* nvcc's unprefixed frame line */
	CHECK_INT(k.regs, 12);
	free(frame);

	/* the "Used" line's last item is empty: the number on the next line is not smem */
	char *used = strdup("ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
	                    "ptxas info    : Used 40 registers, \n"
	                    "5 bytes smem\n");
	CHECK_INT(rung_ptxas_parse(&k, used, "_Z1kPf"), 0);
	CHECK_INT(k.regs, 40);
	CHECK_INT(k.smem, 0);
	free(used);

	/* "Used" and then the end of the line: no register count from the next line */
	char *bare = strdup("ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
	                    "ptxas info    : Used \n"
	                    "7 registers\n");
	CHECK_INT(rung_ptxas_parse(&k, bare, "_Z1kPf"), 0);
	CHECK_INT(k.regs, 0);
	free(bare);

	/* numbers too large for the field saturate instead of overflowing */
	char *huge = strdup("ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n"
	                    "ptxas info    : Function properties for _Z1kPf\n"
	                    "ptxas         .     99999999999999999999999 bytes stack frame, 4 bytes spill stores\n"
	                    "ptxas info    : Used 99999999999 registers, 8 bytes smem\n");
	CHECK_INT(rung_ptxas_parse(&k, huge, "_Z1kPf"), 0);
	CHECK_INT(k.stack_frame, INT64_MAX);
	CHECK_INT(k.spill_stores, 4);
	CHECK_INT(k.regs, INT_MAX);
	CHECK_INT(k.smem, 8);
	free(huge);
}

int main(void)
{
	T_RUN(test_sgemm_smem_barriers);
	T_RUN(test_template_instances_apart);
	T_RUN(test_device_function_block_not_mixed_in);
	T_RUN(test_extern_c_and_first);
	T_RUN(test_spills);
	T_RUN(test_missing);
	T_RUN(test_cmem_item);
	T_RUN(test_numbers_stay_on_their_line);
	return t_done();
}
