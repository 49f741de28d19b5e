#!/bin/bash
# The README's build lines are bounded (#28 D-19): `cmake --build build -j`
# with no number runs make -j, every compile at once, on a small or shared
# machine; and it says how long scripts/test.sh takes and which build
# directories it uses.
set -u
: "${RUNG_SRC:?}"
fail() { echo "FAIL: $*"; exit 1; }
f=$RUNG_SRC/README.md
bad=$(grep -nE 'cmake --build [^ ]+ (.* )?-j( |$)' "$f")
[ -z "$bad" ] || fail "unbounded -j in README.md: $bad"
grep -q 'cmake --build build -j"$(nproc)"' "$f" || fail "no bounded build line"
grep -q 'scripts/test.sh' "$f" && tr '\n' ' ' < "$f" | grep -qE '[0-9]+(–[0-9]+)? minutes on a quiet 2-core machine' || fail "no word of the test time"
tr '\n' ' ' < "$f" | grep -q 'builds into the same `build/` as the quick start' || fail "no word of build/ being reused"
echo "ok"
