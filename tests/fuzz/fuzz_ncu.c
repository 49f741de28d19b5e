/* Nsight Compute's pages (core/csv.c, core/ncu.c): the input read as a details
 * page and as a source page; what parses survives its JSON round trip. */
#include "core/csv.h"
#include "core/err.h"
#include "core/ncu.h"
#include "fuzz.h"

static char *dump(json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	json_decref(j);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	rung_csv c;
	if (rung_csv_parse(&c, text, size, "fuzz") == 0) {
		for (int i = 0; i < c.nrows; i++) {
			FUZZ_ASSERT(c.rows[i].nfields >= 1 && c.rows[i].line >= 1);
			FUZZ_ASSERT(i == 0 || c.rows[i].line > c.rows[i - 1].line);
		}
		rung_csv_clear(&c);
	}
	rung_ncu_details d, e;
	if (rung_ncu_details_parse(&d, text, size, "fuzz") == 0) {
		char *a = dump(rung_ncu_details_to_json(&d));
		json_t *j = a ? json_loads(a, 0, NULL) : NULL;
		FUZZ_ASSERT(j && rung_ncu_details_from_json(&e, j) == 0);
		char *b = dump(rung_ncu_details_to_json(&e));
		FUZZ_ASSERT(a && b && !strcmp(a, b));
		json_decref(j);
		free(a);
		free(b);
		rung_ncu_details_clear(&e);
		rung_ncu_details_clear(&d);
	}
	rung_ncu_source s, t;
	if (rung_ncu_source_parse(&s, text, size, "fuzz") == 0) {
		FUZZ_ASSERT(s.nlines > 0 && s.lines[0].pc == 0);
		for (int i = 0; i < s.nlines; i++) {
			FUZZ_ASSERT(s.lines[i].pc >= 0);
			int k = rung_ncu_line_top_stall(&s, &s.lines[i]);
			FUZZ_ASSERT(k >= -1 && k < s.nstalls);
		}
		char *a = dump(rung_ncu_source_to_json(&s));
		json_t *j = a ? json_loads(a, 0, NULL) : NULL;
		FUZZ_ASSERT(j && rung_ncu_source_from_json(&t, j) == 0);
		char *b = dump(rung_ncu_source_to_json(&t));
		FUZZ_ASSERT(a && b && !strcmp(a, b));
		json_decref(j);
		free(a);
		free(b);
		rung_ncu_source_clear(&t);
		rung_ncu_source_clear(&s);
	}
	rung_error_clear();
	free(text);
	return 0;
}
