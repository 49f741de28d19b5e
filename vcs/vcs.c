#include "vcs/vcs.h"

#include <stdio.h>
#include <git2.h>

const char *rung_libgit2_version(void)
{
	static char buf[32];
	int ma, mi, pa;
	git_libgit2_version(&ma, &mi, &pa);
	snprintf(buf, sizeof(buf), "%d.%d.%d", ma, mi, pa);
	return buf;
}
