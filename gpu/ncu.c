#include "gpu/ncu.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/err.h"
#include "core/timing.h"
#include "gpu/spawn.h"


#define NCU_TIMEOUT_MS (300 * 1000)
#define NCU_MAX_OUT ((size_t)256 << 20)
#define NCU_MAX_ERR ((size_t)64 << 10)

int rung_ncu_export_page(char **out, size_t *len, const char *ncu, const char *report, rung_ncu_page page)
{
	*out = NULL;
	*len = 0;
	const char *details[] = {ncu, "--import", report, "--page", "details", "--csv", NULL};
	const char *source[] = {ncu, "--import", report, "--page", "source", "--csv", "--print-source", "sass", NULL};
	const char *const *argv = page == RUNG_NCU_PAGE_SOURCE ? source : details;
	const char *what = page == RUNG_NCU_PAGE_SOURCE ? "source" : "details";
	rung_spawned r;
	char tag[64];
	snprintf(tag, sizeof(tag), "ncu --import --page %s", what);
	int rc = rung__spawn(&r, tag, ncu, argv, NCU_TIMEOUT_MS, NCU_MAX_OUT, NCU_MAX_ERR);
	int ml;
	const char *msg = rung__spawned_errline(&r, &ml);
	if (rc == 0 && !WIFEXITED(r.status))
		rc = rung_error_set(RUNG_EIO, "%s: killed by signal %d", tag, WTERMSIG(r.status));
	else if (rc == 0 && WEXITSTATUS(r.status) != 0)
		rc = rung_error_set(RUNG_EIO, "%s failed (exit %d)%s%.*s", tag, WEXITSTATUS(r.status), ml ? ": " : "",
				    ml > 300 ? 300 : ml, msg);
	else if (rc == 0 && r.out_over)
		rc = rung_error_set(RUNG_EIO, "%s: more than %zu MiB of output", tag, NCU_MAX_OUT >> 20);
	if (rc < 0) {
		rung__spawned_clear(&r);
		return rc;
	}
	*out = r.out;
	*len = r.out_len;
	free(r.err);
	return 0;
}
