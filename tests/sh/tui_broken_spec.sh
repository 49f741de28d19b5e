#!/bin/bash
# One typo in a committed rung.ini does not lock the person out (#28 D-2),
# keys from a script:
#  - the CLI's spec error says how to use an earlier spec (--spec-rev);
#  - rung tui opens with the last good spec, says why (file:line), and its
#    title says whose spec it is; rung tui --spec-rev REV takes that one;
#  - with the workbench open, a commit with a broken spec still shows up
#    within seconds, and the status line says that HEAD's spec is broken;
#  - R says how the reload went rather than "reloading" until the next key.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC
. "$RUNG_SRC/tests/sh/lib/tui_repo.sh"
fail() { echo "FAIL: $*"; exit 1; }
export XDG_CONFIG_HOME=$T/config
good=$(git -C "$REPO" rev-parse --short=7 HEAD)
first=$(git -C "$REPO" rev-parse --short=7 HEAD~2)
tui() { # keys file, then options
	local k=$1
	shift
	COLUMNS=200 LINES=10 RUNG_TUI_DUMP_DIR="$T" RUNG_TUI_SCRIPT="$T/$k" timeout 60 "$RUNG" tui -C "$REPO" --no-auto-eval "$@" \
		</dev/null >/dev/null 2>"$T/err"
}

# live: the workbench is open on a good spec when the agent commits a kernel change with a spec typo
# (until the broken spec is named: the commit goes in after 1.5 s; 30 s at most)
printf ':until 30 using the last good one, of %s\n:dump live.txt\nR\n:sleep 3\n:dump reload.txt\nQ\n' "$good" > "$T/live"
(
	sleep 1.5
	cd "$REPO" && sed -i 's/^rtol = 1e-4/rtol = le-4/' sgemm/rung.ini && sed -i 's/$/  /' sgemm/sgemm.cu &&
		GIT_AUTHOR_DATE='2025-11-29T19:00:00Z' GIT_COMMITTER_DATE='2025-11-29T19:00:00Z' git commit -qam "kernel change and a spec typo"
) &
bg=$!
tui live || fail "rung tui (live): exit $? ($(cat "$T/err"))"
wait "$bg" || fail "the commit did not go in"
grep -q "kernel change and a spec typo" "$T/live.txt" || fail "the new commit never appeared: $(cat "$T/live.txt")"
grep -q "HEAD's rung.ini is broken (sgemm/rung.ini:18: \[check\] rtol: bad number 'le-4'): using the last good one, of $good" \
	"$T/live.txt" || fail "nothing said of the broken spec: $(tail -1 "$T/live.txt")"
grep -q "reloading" "$T/reload.txt" && fail "R still says reloading: $(tail -1 "$T/reload.txt")"
grep -q "HEAD's rung.ini is broken" "$T/reload.txt" || fail "R: the reload does not say: $(tail -1 "$T/reload.txt")"

# the CLI: exit 3, and the way out
"$RUNG" log -C "$REPO" >/dev/null 2>"$T/err"
rc=$?
[ "$rc" = 3 ] || fail "rung log: exit $rc, not 3"
grep -q "^rung log: sgemm/rung.ini:18: \[check\] rtol: bad number 'le-4'$" "$T/err" || fail "rung log: $(cat "$T/err")"
grep -q "^rung log: to use the spec of an earlier commit meanwhile: rung log --spec-rev REV" "$T/err" ||
	fail "rung log: no word of --spec-rev: $(cat "$T/err")"
"$RUNG" log -C "$REPO" --spec-rev HEAD~1 >/dev/null 2>&1 || fail "rung log --spec-rev HEAD~1"

# opened with the spec broken at HEAD: the last good one, labelled
printf ':dump open.txt\nQ\n' > "$T/open"
tui open || fail "rung tui: exit $? ($(cat "$T/err"))"
head -1 "$T/open.txt" | grep -q "^rung sgemm (spec of $good): 4 versions" || fail "title: $(head -1 "$T/open.txt")"
grep -q "HEAD's rung.ini is broken (sgemm/rung.ini:18" "$T/open.txt" || fail "open: $(tail -1 "$T/open.txt")"
tui open --spec-rev HEAD~3 || fail "rung tui --spec-rev: exit $? ($(cat "$T/err"))"
head -1 "$T/open.txt" | grep -q "^rung sgemm (spec of $first): 4 versions" || fail "--spec-rev: $(head -1 "$T/open.txt")"
grep -q "broken" "$T/open.txt" && fail "--spec-rev: a broken spec was looked at: $(tail -1 "$T/open.txt")"
echo "ok"
