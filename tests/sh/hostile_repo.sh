#!/bin/bash
# A hostile repository: commit subjects, an author, notes, a kernel's #error
# message and a spec value carry terminal escapes (clear screen, window title,
# OSC 52 clipboard writes, DSR/DA2 queries that make a terminal type replies),
# C1 controls, a bidi override and invalid UTF-8. No command's stdout or
# stderr may carry any of them raw: they show as visible escapes (cli/inert.c).
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

ESC=$'\033'
EVIL="${ESC}]0;pwned${ESC}\\ ${ESC}[2J ${ESC}]52;c;ZXZpbA==$'\a' ${ESC}[6n ${ESC}[>c "$'\xc2\x9b'"31m "$'\xe2\x80\xae'"gnp.exe "$'\xff\xfe'
cd "$T"
git init -q repo && cd repo
git config user.name "Mallory ${ESC}[5m"
git config user.email m@example.com
mkdir -p sgemm
cp "$RUNG_SRC"/tests/tasks/sgemm/* sgemm/
export GIT_AUTHOR_DATE='2025-11-29T16:00:00Z' GIT_COMMITTER_DATE='2025-11-29T16:00:00Z'
git add -A && git commit -q -m "naive $EVIL"
sed -i 's/$/ /' sgemm/sgemm.cu
export GIT_AUTHOR_DATE='2025-11-29T17:00:00Z' GIT_COMMITTER_DATE='2025-11-29T17:00:00Z'
git commit -qam "tile it $EVIL"
"$RUNG" note HEAD --verdict keep "look at this $EVIL" >/dev/null 2>&1 || fail "rung note"
# a kernel whose compile error message is hostile (valid UTF-8: a kernel that is not
# is refused before NVRTC reads it, tests/sh/check_source_errors.sh)
mkdir -p "$T/bad"
cp "$RUNG_SRC"/tests/tasks/sgemm/* "$T/bad/"
k=$(sed -n 's/^kernel *= *//p' "$T/bad/rung.ini")
printf '#error "%s"\n' "${EVIL%$'\xff\xfe'}" | cat - "$T/bad/$k" > "$T/bad/k2" && mv "$T/bad/k2" "$T/bad/$k"

check_clean() { # name, file: no ESC, BEL, C1 (as UTF-8 or raw), bidi override, invalid byte 0xff
	if LC_ALL=C grep -q $'[\x1b\x07\x9b\xff]' "$2" || LC_ALL=C grep -q $'\xc2[\x80-\x9f]' "$2" ||
	   LC_ALL=C grep -q $'\xe2\x80\xae' "$2"; then
		echo "--- $1:"; cat -v "$2" | head -20
		fail "$1 wrote a control byte raw"
	fi
}
run() { # name, command...
	local name=$1; shift
	"$@" >"$T/out" 2>"$T/err"
	check_clean "$name (stdout)" "$T/out"
	check_clean "$name (stderr)" "$T/err"
}
run "log" "$RUNG" log
grep -q 'tile it \\x1b\]0;pwned' "$T/out" || fail "log does not show the subject as escapes: $(cat -v "$T/out")"
run "log --csv" "$RUNG" log --csv
run "log --json" "$RUNG" log --json
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1]) if l.strip()]' "$T/out" || fail "log --json is no longer JSON"
run "brief" "$RUNG" brief
grep -q 'look at this' "$T/out" || fail "brief lost the directive"
run "notes" "$RUNG" notes
run "note" "$RUNG" note HEAD "again $EVIL"
run "check --compile-only (hostile #error)" "$RUNG" check --compile-only "$T/bad"
grep -q 'pwned' "$T/out" "$T/err" || fail "the #error message is not shown at all"
run "check --json --compile-only" "$RUNG" check --json --compile-only "$T/bad"
run "dump" "$RUNG" dump --out "$T/dumps" "$T/bad"
# a spec value echoed in its error
cp -r "$RUNG_SRC"/tests/tasks/sgemm "$T/spec"
EVIL="$EVIL" awk '/^seeds *=/ { print "seeds = " ENVIRON["EVIL"]; next } { print }' "$RUNG_SRC/tests/tasks/sgemm/rung.ini" > "$T/spec/rung.ini"
grep -q pwned "$T/spec/rung.ini" || fail "the spec was not changed"
run "check (bad spec value)" "$RUNG" check --compile-only "$T/spec"
grep -q 'seeds' "$T/err" "$T/out" || fail "spec error not shown"
# CSV: a subject that a spreadsheet would run as a formula stays text
git commit -q --allow-empty -m "=HYPERLINK(\"http://x\")" 2>/dev/null
sed -i 's/$/  /' sgemm/sgemm.cu && git commit -qam '=cmd|calc'
"$RUNG" log --csv > "$T/csv" 2>/dev/null
grep -q "\"'=cmd|calc\"" "$T/csv" || fail "formula subject not quoted as text: $(grep cmd "$T/csv")"
echo "hostile repo: ok"
