/* Theme files (tui/theme.c, themes/NAME.theme): parsed over the default theme.
 * Every role keeps a colour the terminal can be asked for. */
#include "core/err.h"
#include "fuzz.h"
#include "tui/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	rung_theme t;
	rung_theme_default(&t);
	if (rung_theme_parse(&t, text, "fuzz.theme") < 0)
		FUZZ_ASSERT(strncmp(rung_error_last(), "fuzz.theme:", 11) == 0);
	for (int r = 0; r < RUNG_NROLES; r++) {
		FUZZ_ASSERT(t.role[r].fg >= -1 && t.role[r].fg <= 255);
		FUZZ_ASSERT(t.role[r].bg >= -1 && t.role[r].bg <= 255);
		(void)rung_color_reduce(t.role[r].fg, 8);
	}
	rung_error_clear();
	free(text);
	return 0;
}
