/* rung.ini (core/spec.c, inih): parse, then evaluate what the plan evaluates:
 * the launch geometry, every argument's element count and scalar value, and
 * the roofline counts, at [dims] and at every [check] set. */
#include "core/err.h"
#include "core/expr.h"
#include "core/spec.h"
#include "fuzz.h"

static void eval_at(const rung_spec *s, const rung_dimset *ds)
{
	rung_geom g;
	if (rung_launch_eval(&g, &s->launch, ds) == 0)
		for (int d = 0; d < 3; d++)
			FUZZ_ASSERT(g.grid[d] >= 1 && g.block[d] >= 1);
	for (int i = 0; i < s->nargs; i++) {
		int64_t n, iv;
		double fv;
		if (s->args[i].kind == RUNG_ARG_SCALAR)
			(void)rung_arg_value(&iv, &fv, &s->args[i], ds, s->path);
		else if (rung_arg_numel(&n, &s->args[i], ds, s->path) == 0)
			FUZZ_ASSERT(n >= 0);
	}
	int64_t v;
	if (s->flops.text)
		(void)rung_expr_eval(&v, s->flops.text, ds);
	if (s->bytes.text)
		(void)rung_expr_eval(&v, s->bytes.text, ds);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	rung_spec *s = NULL;
	if (rung_spec_parse(&s, text, "fuzz/rung.ini", "fuzz") == 0) {
		FUZZ_ASSERT(s != NULL);
		FUZZ_ASSERT(s->nargs >= 0 && s->nargs <= RUNG_MAX_ARGS);
		FUZZ_ASSERT(s->ncheck >= 0 && s->ncheck <= RUNG_MAX_CHECK_SETS);
		eval_at(s, &s->dims);
		for (int c = 0; c < s->ncheck; c++)
			eval_at(s, &s->check[c]);
		rung_spec_free(s);
	} else {
		/* every spec error names the file */
		FUZZ_ASSERT(s == NULL);
		FUZZ_ASSERT(strncmp(rung_error_last(), "fuzz/rung.ini", 13) == 0);
	}
	rung_error_clear();
	free(text);
	return 0;
}
