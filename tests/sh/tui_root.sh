#!/bin/bash
# The workbench at the root of a repository with several tasks (the demo's)
# opens the first task with the switcher, instead of exiting 3 with "name
# one": keys from a script, screens dumped (no terminal needed).
set -u
: "${RUNG:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$RUNG" demo --no-tui "$T/d" >/dev/null 2>&1 || fail "demo"
printf ':dump first.txt\nT\n:dump second.txt\nQ\n' > "$T/keys"
(cd "$T/d" && COLUMNS=120 LINES=20 RUNG_TUI_DUMP_DIR="$T" RUNG_TUI_SCRIPT="$T/keys" timeout 60 "$RUNG" tui </dev/null) \
	> "$T/out" 2>&1 || fail "rung tui at the root: $(cat "$T/out")"
head -1 "$T/first.txt" | grep -q "^rung sgemm (task 1/2, T switches): 11 versions" || fail "first task: $(head -1 "$T/first.txt")"
head -1 "$T/second.txt" | grep -q "^rung softmax (task 2/2, T switches): 4 versions" || fail "after T: $(head -1 "$T/second.txt")"
echo "workbench at the root: ok"
