#!/usr/bin/env bash
# H200 run for the integrity work ("timed is verified"): the GPU tests (the
# exploit suite first), each exploit through `rung check` as a user runs it,
# and the cost of the new checks on time to verdict: the 4096^3 SGEMM and the
# demo softmax, with the binary before the change (.carry/bin/rung-before,
# scripts/build-carry.sh with RUNG_BEFORE=<rev>) and after it, interleaved in
# one run. Run from the repo root with binaries in .carry/bin.
set -u
. bench/h200_env.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv,noheader

echo "== gpu tests"
for p in "$B"/gpu_exploits "$B"/gpu_*; do
  t=$(basename "$p"); case " $seen " in *" $t "*) continue ;; esac; seen="${seen:-} $t"
  [ -x "$B/$t" ] || continue
  timeout 300 "$B/$t" > "$O/t.log" 2>&1; rc=$?
  cat "$O/t.log" >> "$O/gputests.log"; echo "$t rc=$rc $(tail -1 "$O/t.log")"
  [ "$t" = gpu_exploits ] && grep -E "^     |FAIL|failed" "$O/t.log"
  rm -f "$O/t.log"
done

echo "== the exploits through rung check"
for d in tests/exploits/*/; do
  echo "-- $d"; timeout 120 rung check --budget 0.3 "$d" 2>&1 | tail -6; echo "rc=$?"
done

echo "== time to verdict, before and after, interleaved"
for task in bench/tasks/sgemm4096 examples/softmax; do
  for i in 1 2 3 4 5; do
    [ -x "$B/rung-before" ] && echo "before $task $(python3 bench/rusage.py "$B/rung-before" check "$task" | tail -1)"
    echo "after  $task $(python3 bench/rusage.py rung check "$task" | tail -1)"
  done
done
for task in bench/tasks/sgemm4096 examples/softmax; do
  echo "-- RUNG_TIMING=1 rung check $task"
  RUNG_TIMING=1 rung check "$task" > "$O/timing.log" 2>&1
  grep -E "^\[|bench:|second input|determin|reference kernel|candidate kernel|worker\] job|sum of" "$O/timing.log"
  rung check --json "$task" 2>/dev/null | python3 -c 'import json,sys; r=json.load(sys.stdin)["result"]; b=r["bench"]; print("bench median", b["median"], "n", b["n"], "verified", b.get("verified"), "sets", b.get("sets"), "verify_ms", b.get("verify_ms"), "nondet", r.get("nondet_elements"), "suspects", r.get("suspects"))'
done
