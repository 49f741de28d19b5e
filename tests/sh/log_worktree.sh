#!/bin/bash
# rung log on a repository whose kernel has uncommitted edits: the WORKTREE row
# looks up a recorded result by content, and a miss must not free memory it
# never initialized (MALLOC_PERTURB_ fills fresh allocations with garbage, so
# the old code crashed in free() in a release build; ASan catches it anyway).
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$RUNG" demo --no-tui "$T/d" >/dev/null 2>&1 || fail "rung demo failed"
cd "$T/d" || fail "no demo repository"
echo x >>sgemm/sgemm.cu

for fmt in "" --json --csv; do
	out=$(MALLOC_PERTURB_=165 "$RUNG" log --task sgemm $fmt 2>&1)
	rc=$?
	[ "$rc" = 0 ] || fail "rung log $fmt exited $rc: $out"
	grep -qi "worktree" <<<"$out" || fail "rung log $fmt has no WORKTREE row: $out"
done
# the committed versions keep their recorded results
out=$(MALLOC_PERTURB_=165 "$RUNG" log --task sgemm --json 2>&1) || fail "rung log --json: $out"
grep -q '"recorded":{' <<<"$out" || fail "recorded results lost: $out"
echo "ok"
