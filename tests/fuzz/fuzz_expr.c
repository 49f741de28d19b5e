/* Launch and shape expressions (core/expr.c): evaluated against a dim set with
 * small, odd and huge values, so that overflow checks are reached; and the
 * names collected. Each line of the input is one expression. */
#include "core/err.h"
#include "core/expr.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static rung_dimset ds;
	if (ds.n == 0) {
		rung_dimset_set(&ds, "M", 127);
		rung_dimset_set(&ds, "N", 65);
		rung_dimset_set(&ds, "K", 33);
		rung_dimset_set(&ds, "Z", 0);
		rung_dimset_set(&ds, "NEG", -7);
		rung_dimset_set(&ds, "BIG", INT64_MAX);
		rung_dimset_set(&ds, "MIN", INT64_MIN);
	}
	char *text = fuzz_text(data, size);
	for (char *line = text; line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		int64_t v;
		(void)rung_expr_eval(&v, line, &ds);
		(void)rung_expr_eval(&v, line, NULL);
		char names[8][RUNG_NAME_MAX];
		int n = rung_expr_names(names, 8, line);
		FUZZ_ASSERT(n <= 8);
		for (int i = 0; i < n; i++)
			FUZZ_ASSERT(memchr(names[i], 0, RUNG_NAME_MAX) != NULL);
		rung_error_clear();
		line = nl ? nl + 1 : NULL;
	}
	free(text);
	return 0;
}
