#!/usr/bin/env bash
# H200: every GPU test, then the integrity issue's tasks through `rung check`
# as a user runs them (tests/exploits/*: the verdicts, the kernel's output made
# inert, the input distributions). Run from the repo root with binaries in
# .carry/bin (scripts/build-carry.sh).
set -u
. bench/h200_env.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv,noheader
echo "== gpu tests"
for p in "$B"/gpu_*; do
  t=$(basename "$p")
  timeout 300 "$p" > "$O/t.log" 2>&1; rc=$?
  cat "$O/t.log" >> "$O/gputests.log"; echo "$t rc=$rc $(tail -1 "$O/t.log")"
  grep -E "FAIL|: CHECK|expected" "$O/t.log" | head -8
  rm -f "$O/t.log"
done
echo "== the exploit tasks through rung check"
for d in tests/exploits/*/; do
  echo "-- $d"; timeout 120 rung check --budget 0.3 "$d" > "$O/c.log" 2>&1; echo "rc=$?"
  cut -c1-400 "$O/c.log" | head -12; echo "control bytes: $(grep -c $'\x1b' "$O/c.log")"
done
echo "== kernel output in --json"
rung check --json tests/exploits/prints | python3 -c 'import json,sys;o=json.load(sys.stdin)["result"]["output"];print(o["bytes"],o["dropped"],len(o["text"]))'
echo "== rung's own lines still reach the user"
RUNG_TIMING=1 rung check tests/faults/good 2>&1 | grep -c 'rung timing \[worker\]'
echo "== normal_only without the inputs line"
T=$(mktemp -d); cp tests/exploits/normal_only/* "$T"; sed -i '/^inputs/d' "$T/rung.ini"; rung check "$T" | tail -3; echo "rc=$?"; rm -rf "$T"
