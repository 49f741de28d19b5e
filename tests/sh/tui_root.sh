#!/bin/bash
# At the root of a repository with several tasks (the demo's): the workbench
# opens the first task with the switcher, instead of exiting 3 with "name
# one" (keys from a script, screens dumped, no terminal needed); log, brief
# and eval cover every task, labelled.
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
head -1 "$T/second.txt" | grep -q "^rung softmax (task 2/2, T switches): 5 versions" || fail "after T: $(head -1 "$T/second.txt")"
# a recorded (imported) result's detail says so, and does not claim it was reused from here
printf '<Enter>\n:dump detail.txt\nQ\n' > "$T/keys2"
(cd "$T/d" && COLUMNS=120 LINES=30 RUNG_TUI_DUMP_DIR="$T" RUNG_TUI_SCRIPT="$T/keys2" timeout 60 "$RUNG" tui sgemm </dev/null) \
	> "$T/out" 2>&1 || fail "detail: $(cat "$T/out")"
grep -q "(imported, not measured here)" "$T/detail.txt" || fail "recorded detail: $(head -12 "$T/detail.txt")"
grep -q "result of another version with the same files" "$T/detail.txt" && fail "recorded result labelled as reused"

# the command line at the root covers every task, labelled
cd "$T/d"
out=$("$RUNG" log 2>&1) || fail "log at the root: $out"
grep -q "^== task sgemm$" <<<"$out" && grep -q "^== task softmax$" <<<"$out" || fail "log headers: $out"
out=$("$RUNG" brief 2>&1) || fail "brief at the root: $out"
grep -q "^# rung brief: sgemm" <<<"$out" && grep -q "^# rung brief: softmax" <<<"$out" || fail "brief titles"
out=$("$RUNG" eval --compile-only --all 2>&1); rc=$?
[ "$rc" = 1 ] || fail "eval --all at the root: exit $rc (the demo's typo fails to compile: 1): $out"
grep -q "11 version(s)" <<<"$out" && grep -q "5 version(s)" <<<"$out" || fail "eval did not cover both tasks: $out"
"$RUNG" eval HEAD >/dev/null 2>&1; [ $? = 3 ] || fail "a revision at the root without --task should still ask for a task"
# the table's values start under their headers (the steps header is wider than its values)
"$RUNG" log --task sgemm > "$T/log" 2>&1
python3 - "$T/log" <<'PY' || fail "log columns misaligned: $(head -3 "$T/log")"
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
head = lines[0]
row = next(l for l in lines[1:] if " ok ok ok ok " in l)
for col in ("MAX_REL", "PSNR", "COSINE", "MEDIAN_MS", "VS_BASE", "PERF", "REGS/SP"):
    at = head.index(col)
    if row[at] == " " or row[at - 1] != " ":
        sys.exit("%s at %d: %r" % (col, at, row[at - 3:at + 8]))
PY
echo "workbench and commands at the root: ok"
