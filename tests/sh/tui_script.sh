#!/bin/bash
# rung tui on a real repository (the git backend), driven by a keystroke
# script with no display: versions table, help, escapes shown inert, and a
# verdict written from the steer screen lands in git notes.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC TERM=xterm-256color LC_ALL=C.UTF-8
unset NO_COLOR
. "$RUNG_SRC/tests/sh/lib/tui_repo.sh"
fail() { echo "FAIL: $*"; exit 1; }

cat >"$T/keys" <<'KEYS'
:dump versions.txt
?
:dump help.txt
q
j
v
3
:dump steer.txt
Q
KEYS
RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=100 LINES=20 "$RUNG" tui -C "$REPO" \
	>"$T/out" 2>&1 || fail "rung tui exited $?: $(cat "$T/out")"
v=$(cat "$T/versions.txt")
echo "$v"
grep -q "\[versions\]" <<<"$v" || fail "no versions title"
grep -q "rung sgemm: 3 versions, 0 evaluated" <<<"$v" || fail "version count"
grep -q "naive sgemm" <<<"$v" || fail "first version missing"
grep -q "tile it .* keep" <<<"$v" || fail "verdict from git notes not shown"
grep -qF 'evil ^[[2J^[]0;pwned^G s' <<<"$v" || fail "escapes not made inert"
grep -q $'\033' "$T/versions.txt" && fail "raw ESC on screen"
grep -q "move-down" "$T/help.txt" || fail "help screen"
grep -q "\[steer\]" "$T/steer.txt" || fail "steer screen"
# j moved to "tile it"; 3 set its verdict to baseline through git notes
note=$(git -C "$REPO" notes --ref=rung show HEAD~1) || fail "no note"
grep -q "^verdict: baseline$" <<<"$note" || fail "verdict not written: $note"
# :until SECS TEXT: live updates until the screen shows TEXT (at once here), or
# SECS at most when it never does; the script goes on either way
printf ':until 30 3 versions, 0 evaluated\n:dump u1.txt\n:until 0.5 no such text on any screen\n:dump u2.txt\nQ\n' >"$T/keys"
t0=$(date +%s%N)
RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=100 LINES=20 "$RUNG" tui -C "$REPO" \
	>"$T/out" 2>&1 || fail ":until: rung tui exited $?: $(cat "$T/out")"
ms=$((($(date +%s%N) - t0) / 1000000))
grep -q "3 versions, 0 evaluated" "$T/u1.txt" || fail ":until: $(head -2 "$T/u1.txt")"
grep -q "naive sgemm" "$T/u2.txt" || fail ":until that never matched: no screen after it"
[ "$ms" -ge 500 ] || fail ":until 0.5 on text never shown returned after $ms ms"
[ "$ms" -lt 20000 ] || fail ":until took $ms ms"
printf ':until 3\nQ\n' >"$T/keys"
RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" "$RUNG" tui -C "$REPO" </dev/null >"$T/err" 2>&1 && fail ":until without TEXT accepted"
grep -q "keys:1: :until SECS TEXT expected" "$T/err" || fail ":until without TEXT: $(cat "$T/err")"
# a bad theme name is a clean error
"$RUNG" tui -C "$REPO" --theme no-such-theme </dev/null >"$T/err" 2>&1 && fail "bad theme accepted"
grep -q "theme 'no-such-theme' not found" "$T/err" || fail "theme error: $(cat "$T/err")"
echo "ok"
