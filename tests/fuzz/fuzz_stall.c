/* Warp stall samples (core/stall.c) as stored beside a result and carried by
 * `rung export` / `rung import` (an export line's "extras" comes from outside):
 * the input read as the stall JSON; what parses has its pcs ascending and
 * unique, its total the sum of its rows, reasons in range, and survives its
 * JSON round trip; the annotation and the bars run on it. */
#include <jansson.h>

#include "core/err.h"
#include "core/stall.h"
#include "fuzz.h"

static char *dump(json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(j);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *j = json_loadb((const char *)data, size, 0, NULL);
	rung_stall s, t;
	if (j && rung_stall_from_json(&s, j) == 0) {
		uint64_t tot = 0;
		for (int i = 0; i < s.n; i++) {
			FUZZ_ASSERT(i == 0 || s.pc[i] > s.pc[i - 1]);
			tot += rung_stall_row_total(&s, i);
			int r = rung_stall_row_top(&s, i);
			FUZZ_ASSERT(r >= -1 && r < s.nreasons);
		}
		FUZZ_ASSERT(tot == s.total);
		int idx[RUNG_STALL_MAX_REASONS];
		uint64_t sum[RUNG_STALL_MAX_REASONS];
		int n = rung_stall_top(idx, sum, RUNG_STALL_MAX_REASONS, &s);
		for (int k = 0; k < n; k++)
			FUZZ_ASSERT(idx[k] >= 0 && idx[k] < s.nreasons && (k == 0 || sum[k] <= sum[k - 1]));
		FILE *f = fopen("/dev/null", "w");
		if (f) {
			rung_stall_print_bars(f, &s, 8, 40);
			fclose(f);
		}
		char *a = dump(rung_stall_to_json(&s));
		json_t *k = a ? json_loads(a, 0, NULL) : NULL;
		FUZZ_ASSERT(k && rung_stall_from_json(&t, k) == 0);
		char *b = dump(rung_stall_to_json(&t));
		FUZZ_ASSERT(a && b && !strcmp(a, b));
		json_decref(k);
		free(a);
		free(b);
		rung_stall_clear(&t);
		rung_stall_clear(&s);
	}
	json_decref(j);
	rung_error_clear();
	return 0;
}
