/* The config file, $XDG_CONFIG_HOME/rung/config (`theme = NAME` and other
 * keys; tui/theme.c rung_theme_choose): the input is written there (a private
 * temporary directory) and read the way the TUI reads it at start. */
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "fuzz.h"
#include "tui/theme.h"

static char dir[256], path[300];

static void cleanup(void)
{
	unlink(path);
	snprintf(path, sizeof path, "%s/rung", dir);
	rmdir(path);
	rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");
		snprintf(dir, sizeof dir, "%s/rung-fuzz-config-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(dir))
			abort();
		snprintf(path, sizeof path, "%s/rung", dir);
		if (mkdir(path, 0700) != 0)
			abort();
		snprintf(path, sizeof path, "%s/rung/config", dir);
		setenv("XDG_CONFIG_HOME", dir, 1);
		unsetenv("NO_COLOR");
		atexit(cleanup);
	}
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	char name[64];
	bool colour;
	if (rung_theme_choose(name, sizeof name, &colour, NULL) < 0)
		FUZZ_ASSERT(strstr(rung_error_last(), "/rung/config:") != NULL);
	FUZZ_ASSERT(colour);
	FUZZ_ASSERT(memchr(name, 0, sizeof name) != NULL);
	rung_error_clear();
	return 0;
}
