#!/bin/bash
# rung watch with the flags the TUI and scripts use (-C DIR --task DIR): a commit
# made while it runs is picked up and gets its rung line (no GPU: compile ok, the
# GPU rungs skipped); SIGINT and SIGTERM end it cleanly with exit 0.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC
T=$(mktemp -d)
WPID=
cleanup() { [ -n "$WPID" ] && kill -KILL "$WPID" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$T/out" 2>/dev/null; echo "--- stderr"; cat "$T/err" 2>/dev/null; exit 1; }

cd "$T"
git init -q repo && cd repo
git config user.name "Ada Lovelace"
git config user.email ada@example.com
mkdir -p sgemm other
cp "$RUNG_SRC"/tests/tasks/sgemm/* sgemm/
cp "$RUNG_SRC"/tests/tasks/sgemm/* other/   # two tasks: --task is needed
git add -A && git commit -q -m "naive sgemm"
cd /

# waits up to $2 seconds for a regex in a file
wait_for() {
	for _ in $(seq 1 $(($2 * 10))); do
		grep -q "$1" "$3" 2>/dev/null && return 0
		kill -0 "$WPID" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

n=1
for sig in INT TERM; do
	: >"$T/out"; : >"$T/err"
	"$RUNG" watch -C "$T/repo" --task sgemm --interval 0.2 >"$T/out" 2>"$T/err" &
	WPID=$!
	wait_for "waiting for commits" 20 "$T/err" || fail "no banner ($sig)"
	grep -q "sgemm/sgemm.cu, $n version(s) so far" "$T/err" || fail "banner ($sig)"
	n=$((n + 1))
	# a new version, committed while it watches
	( cd "$T/repo" && echo "// $sig" >>sgemm/sgemm.cu && git commit -qam "tweak $sig" )
	NEW=$(git -C "$T/repo" rev-parse --short=7 HEAD)
	wait_for "^$NEW " 60 "$T/out" || fail "commit $NEW not picked up ($sig)"
	# the compile rung passed; without a GPU the rest is skipped, with one it ran
	grep -q "^$NEW  *ok .*tweak $sig" "$T/out" || fail "rung line for $NEW ($sig)"
	kill -"$sig" "$WPID"
	rc=0
	wait "$WPID" || rc=$?
	WPID=
	[ "$rc" -eq 0 ] || fail "exit $rc after SIG$sig"
	[ "$(grep -c "^$NEW " "$T/out")" -eq 1 ] || fail "evaluated more than once ($sig)"
done

# the TUI's `e` command line: never a usage error
rc=0
"$RUNG" eval -C "$T/repo" --task sgemm "$(git -C "$T/repo" rev-parse HEAD)" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 0 ] || [ "$rc" -eq 4 ] || fail "rung eval -C --task HASH: exit $rc"
echo ok
