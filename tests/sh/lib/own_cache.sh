#!/bin/bash
# ctest runs every test through this: the command with a cache directory of
# its own (RUNG_CACHE_DIR: rung's CUBIN and SASS caches, core/fs.h), made
# fresh and removed after, so that no test writes the person's ~/.cache, none
# reads what another test (or an earlier run) kept, and a test that wants a
# compile to happen gets one. Its exit status is the command's (77: skipped).
d=$(mktemp -d "${TMPDIR:-/tmp}/rung-test-cache-XXXXXX") || exit 1
RUNG_CACHE_DIR=$d "$@"
rc=$?
rm -rf "$d"
exit "$rc"
