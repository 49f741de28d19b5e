#!/bin/bash
# Concurrent `rung note` on one commit: two writers of 25 notes each at once,
# every call exits 0 and all 50 directives are in the note (the notes ref is
# moved with compare-and-swap and retried, vcs/notes.c); a writer that cannot
# get the ref (a stale lock) fails with exit 5 and says so, writing nothing.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

git init -q "$T/repo" && cd "$T/repo"
git config user.name "Ada Lovelace"
git config user.email ada@example.com
mkdir -p sgemm
cp "$RUNG_SRC"/tests/tasks/sgemm/* sgemm/
git add -A && git commit -q -m "naive sgemm"

writer() {
	for i in $(seq 1 25); do
		"$RUNG" note HEAD "writer $1 note $i" >/dev/null 2>>"$T/err.$1" || echo "writer $1 note $i: exit $?" >>"$T/bad"
	done
}
writer 1 &
writer 2 &
wait
[ ! -s "$T/bad" ] || fail "calls failed: $(cat "$T/bad") $(cat "$T"/err.*)"
got=$(git notes --ref=rung show HEAD | grep -c '^- ')
[ "$got" = 50 ] || fail "$got of 50 directives survived"
for w in 1 2; do
	for i in $(seq 1 25); do
		[ "$(git notes --ref=rung show HEAD | grep -c ": writer $w note $i\$")" = 1 ] || fail "writer $w note $i lost or doubled"
	done
done

# a ref nobody lets go of: exit 5 after the retries, and the note unchanged
touch .git/refs/notes/rung.lock
err=$("$RUNG" note HEAD "never written" 2>&1)
rc=$?
[ "$rc" = 5 ] || fail "exit $rc, expected 5: $err"
grep -q "the note was not written" <<<"$err" || fail "message: $err"
rm .git/refs/notes/rung.lock
git notes --ref=rung show HEAD | grep -q "never written" && fail "note written anyway"
echo ok
