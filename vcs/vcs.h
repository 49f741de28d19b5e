#ifndef RUNG_VCS_VCS_H
#define RUNG_VCS_VCS_H
/* The version of libgit2 linked in, "1.5.1". */
const char *rung_libgit2_version(void);
#endif
