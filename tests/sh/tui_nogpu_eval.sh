#!/bin/bash
# `e` without a GPU (#28 D-1), keys from a script, in the demo repository
# (recorded results): the compile rung runs, the row's rungs come back from
# "running" to what they were, and the status line says what ran and that the
# other rungs need a GPU. Before the fix the row stayed ◐··· with
# "queued 8c4f713" for good (the worker's result overtook its QUEUED event).
# Skips where a CUDA driver is present (with a GPU the whole evaluation runs).
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then echo "skip: a CUDA driver is here"; exit 77; fi
export TZ=UTC
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>"$T/err" || fail "rung demo: $(cat "$T/err")"
export XDG_CONFIG_HOME=$T/config
# 8c4f713 is the fifth row; a compile takes about a second: the script waits (50 s at most:
# sanitizer builds, a loaded machine) for the status line's word of what ran
printf 'j\nj\nj\nj\ne\n:until 50 8c4f713: the compile rung ran here\n:dump v.txt\nQ\n' > "$T/keys"
(cd "$T/demo" && COLUMNS=200 LINES=20 RUNG_TUI_DUMP_DIR="$T" RUNG_TUI_SCRIPT="$T/keys" timeout 60 "$RUNG" tui --no-auto-eval \
	</dev/null >/dev/null 2>"$T/err") || fail "rung tui: exit $? ($(cat "$T/err"))"
row=$(grep ' 8c4f713 ' "$T/v.txt")
[ -n "$row" ] || fail "no row 8c4f713: $(cat "$T/v.txt")"
case $row in *◐*|*·*) fail "8c4f713 still running after its compile: $row";; esac
echo "$row" | grep -q '○○○○' || fail "8c4f713 lost its recorded rungs: $row"
grep -q "queued 8c4f713" "$T/v.txt" && fail "the status line still says queued: $(tail -1 "$T/v.txt")"
grep -q "8c4f713: the compile rung ran here (ok, [0-9]* registers); run, check and bench need a GPU" "$T/v.txt" ||
	fail "no word of what ran: $(tail -1 "$T/v.txt")"
echo "ok"
