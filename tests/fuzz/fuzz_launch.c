/* The launch line in kernel source, `// rung: grid = ...; block = ...; smem = ...`
 * (core/spec_launch.c): parsed over the test task's spec, then evaluated at its
 * [dims] and [check] sets. The input is the kernel source. */
#include "core/err.h"
#include "core/spec.h"
#include "fuzz.h"

/* tests/tasks/sgemm/rung.ini, trimmed */
static const char spec_text[] = "[task]\n"
				"name = sgemm\n"
				"kernel = sgemm.cu\n"
				"entry = sgemm<32>\n"
				"reference = reference.cu\n"
				"reference_entry = sgemm_ref\n"
				"arch = sm_90\n"
				"[dims]\n"
				"M = 256\nN = 256\nK = 128\n"
				"[check]\n"
				"sizes = M=127,N=65,K=33; M=1,N=1,K=1\n"
				"[arg M]\nkind = scalar\ndtype = i32\nvalue = M\n"
				"[arg A]\nkind = input\ndtype = f32\nshape = M, K\n"
				"[arg C]\nkind = output\ndtype = f32\nshape = M, N\n"
				"[launch]\n"
				"grid = cdiv(N,32), cdiv(M,32)\n"
				"block = 32, 32\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static rung_spec *spec;
	if (!spec && rung_spec_parse(&spec, spec_text, "fuzz/rung.ini", "fuzz") != 0) {
		fprintf(stderr, "fuzz_launch: the built-in spec does not parse: %s\n", rung_error_last());
		abort();
	}
	char *src = fuzz_text(data, size);
	rung_launch l;
	memset(&l, 0, sizeof l);
	int rc = rung_launch_from_source(&l, spec, src, "fuzz/k.cu");
	if (rc == 1) {
		rung_geom g;
		(void)rung_launch_eval(&g, &l, &spec->dims);
		for (int c = 0; c < spec->ncheck; c++)
			(void)rung_launch_eval(&g, &l, &spec->check[c]);
	} else if (rc < 0) {
		FUZZ_ASSERT(strncmp(rung_error_last(), "fuzz/k.cu:", 10) == 0);
	}
	rung_launch_clear(&l);
	rung_error_clear();
	free(src);
	return 0;
}
