/* The result record's JSON (core/result.c; the worker's result blob, the store,
 * `rung import`): parse, and when it parses, print and parse again. The printed
 * form is a fixed point: printing what was read back gives the same text. */
#include "core/err.h"
#include "core/result.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	rung_result *r = malloc(sizeof(*r)), *back = malloc(sizeof(*back));
	if (!r || !back)
		abort();
	if (rung_result_from_json(r, text) == 0) {
		(void)rung_result_status(r);
		char *j1 = rung_result_to_json(r);
		FUZZ_ASSERT(j1 != NULL);
		int rc = rung_result_from_json(back, j1);
		if (rc != 0)
			fprintf(stderr, "printed result does not parse: %s\n%s\n", rung_error_last(), j1);
		FUZZ_ASSERT(rc == 0);
		char *j2 = rung_result_to_json(back);
		FUZZ_ASSERT(j2 != NULL);
		if (strcmp(j1, j2) != 0)
			fprintf(stderr, "round trip differs:\n%s\n%s\n", j1, j2);
		FUZZ_ASSERT(strcmp(j1, j2) == 0);
		free(j1);
		free(j2);
		rung_result_clear(back);
	}
	rung_result_clear(r);
	rung_error_clear();
	free(r);
	free(back);
	free(text);
	return 0;
}
