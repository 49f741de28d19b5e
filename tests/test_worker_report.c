/* The worker's reasons (#28 item 13): a failing case names every dimension
 * of its size set, however long the failure's text; the cut falls in the
 * text, at a UTF-8 boundary. */
#include "harness.h"

#include <string.h>

#include "gpu/worker/report.h"

static void t_reason_keeps_where(void)
{
	char reason[128], what[300];
	memset(what, 'x', sizeof(what) - 1);
	what[sizeof(what) - 1] = 0;
	const char *where = " at M=128,N=256,K=16 seed 1/2";
	rung__reason_at(reason, sizeof(reason), what, where);
	CHECK_INT(strlen(reason), sizeof(reason) - 1);
	CHECK_CONTAINS(reason, "...");
	CHECK(strlen(reason) > strlen(where) && !strcmp(reason + strlen(reason) - strlen(where), where));
	/* a short one is left whole */
	rung__reason_at(reason, sizeof(reason), "C: mismatch", where);
	CHECK_STR(reason, "C: mismatch at M=128,N=256,K=16 seed 1/2");
	/* never inside a UTF-8 character: \u00b1 is 2 bytes */
	for (size_t i = 0; i + 2 < sizeof(what); i += 2)
		memcpy(what + i, "\xc2\xb1", 2);
	what[sizeof(what) - 1] = 0;
	rung__reason_at(reason, sizeof(reason), what, where);
	const char *dots = strstr(reason, "...");
	CHECK(dots && ((unsigned char)dots[-1] == 0xb1));
}

int main(void)
{
	T_RUN(t_reason_keeps_where);
	return t_done();
}
