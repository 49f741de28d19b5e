#!/usr/bin/env bash
# One H200 session for the integrity issue, in steps (all by default, or the
# ones named): tests (every GPU test), printf (what holds up a printing kernel),
# sanitize (the sanitize rung by hand, its cost, real reports kept as fixtures),
# demo (the demo ladders evaluated and exported: the recorded results shipped in
# examples/*/recorded.jsonl), verdict (time to verdict before and after the
# change, interleaved), fidelity (rung against ncu and a plain CUDA program).
# Logs and files under $OUT. Run from the repo root with binaries in .carry/bin.
set -u
. bench/h200_env.sh
want() { [ $# -eq 0 ] && return 0; [ -z "${STEPS:-}" ] && return 0; case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,driver_version --format=csv,noheader
W=$(mktemp -d)

if want tests; then
  echo "== gpu tests"
  for p in "$B"/gpu_*; do
    t=$(basename "$p")
    [ -n "${TESTS:-}" ] && case " $TESTS " in *" $t "*) ;; *) continue ;; esac
    timeout 300 "$p" > "$W/t.log" 2>&1; rc=$?
    cat "$W/t.log" >> "$O/gputests.log"; echo "$t rc=$rc $(tail -1 "$W/t.log")"
    grep -E "FAIL|: CHECK|expected|^     " "$W/t.log" | cut -c1-300 | head -30
  done
fi

if want printf; then
  echo "== printf: a kernel printing 1M lines, plain CUDA program, by FIFO size"
  for f in 65536 262144 1048576 16777216; do
    timeout 60 printf_fifo $f 2 2>&1 >/dev/null | tail -2
    echo "   (stdout a pipe:)"; timeout 60 printf_fifo $f 1 2>&1 > >(wc -c > "$W/wc") | tail -1; sleep 1; echo "   bytes: $(cat "$W/wc")"
  done
  echo "== rung check tests/exploits/prints with a long deadline"
  s=$(date +%s.%N); RUNG_DEADLINE=120 timeout 300 rung check tests/exploits/prints 2>&1 | head -4; echo "took $(echo "$(date +%s.%N) - $s" | bc) s"
fi

if want sanitize; then
  echo "== sanitize"
  for c in "--sanitize=racecheck tests/faults/shared_race" "--sanitize tests/faults/good" \
           "--sanitize=memcheck tests/faults/illegal_address"; do
    s=$(date +%s.%N); timeout 300 rung check $c > "$W/s.log" 2>&1; rc=$?
    echo "-- rung check $c: rc=$rc in $(echo "$(date +%s.%N) - $s" | bc) s"; grep -E "^\[(check|bench|sanitize)\]" "$W/s.log" | cut -c1-300
  done
  s=$(date +%s.%N); rung check tests/faults/good > /dev/null 2>&1; echo "-- without --sanitize: $(echo "$(date +%s.%N) - $s" | bc) s"
  echo "-- deadline: RUNG_DEADLINE=5 rung check --sanitize=memcheck tests/faults/never_ends"
  RUNG_DEADLINE=5 timeout 120 rung check --sanitize=memcheck tests/faults/never_ends 2>&1 | grep -E "^\[(run|sanitize)\]"
  sleep 1; echo "left over: $(pgrep -af 'rung worker|compute-sanitizer' | grep -v pgrep | wc -l)"
  mkdir -p "$W/fx"
  compute-sanitizer --tool racecheck --target-processes all --log-file "$W/fx/racecheck.txt" rung check --budget 0.1 tests/faults/shared_race > /dev/null 2>&1
  compute-sanitizer --tool memcheck --target-processes all --log-file "$W/fx/memcheck.txt" rung check --budget 0.1 tests/faults/illegal_address > /dev/null 2>&1
  tar -C "$W/fx" -cf "$O/fixtures.tar" . ; ls -la "$W/fx"
fi

if want demo; then
  echo "== demo ladders (rung eval --all), exported"
  D=/tmp/rung-demo; rm -rf "$D"; rung demo --no-tui "$D" > /dev/null 2>&1
  for task in sgemm softmax; do
    s=$(date +%s.%N); rung eval -C "$D" --task $task --all 2>&1 | tail -16; echo "eval $task: $(echo "$(date +%s.%N) - $s" | bc) s"
  done
  rung log -C "$D" --task sgemm 2>&1 | head -16; rung log -C "$D" --task softmax 2>&1 | head -8
  echo "== profile counters of every version (shipped with the recorded results)"
  for task in sgemm softmax; do
    for rev in $(git -C "$D" log --format=%h -- "$task/$task.cu" | tac); do
      echo "-- $task $rev: $(cd "$D" && rung profile --task $task "$rev" 2>&1 | grep -E '^\[profile\]' | cut -c1-160)"
    done
  done
  for task in sgemm softmax; do # one file per task: examples/<task>/recorded.jsonl
    rung export -C "$D" --task $task --out "$O/recorded-$task.jsonl"; wc -l "$O/recorded-$task.jsonl"
  done
  cat "$O"/recorded-*.jsonl > "$O/recorded.jsonl"
  echo "== error maps of the failing cases in the export (docs/CHECKS.md, \"The error map\")"
  python3 -c 'import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)["result"]
    for m in r["metrics"]:
        if not m["pass"]:
            mp = m.get("map")
            print(r["label"][:40], m["dims"], m.get("inputs", "normal"), mp["levels"][:100] if mp else "NO MAP")' "$O/recorded.jsonl"
fi

if want verdict; then
  echo "== time to verdict, before and after, interleaved"
  for task in bench/tasks/sgemm4096 examples/softmax; do
    for i in $(seq ${RUNS:-5}); do
      [ -x "$B/rung-before" ] && echo "before $task $(python3 bench/rusage.py "$B/rung-before" check "$task" | tail -1)"
      echo "after  $task $(python3 bench/rusage.py rung check "$task" | tail -1)"
    done
    rung check --json "$task" 2>/dev/null | python3 -c 'import json,sys; r=json.load(sys.stdin)["result"]; b=r["bench"]; print("bench median", b["median"], "n", b["n"], "verified", b.get("verified"), "sets", b.get("sets"), "verify_ms", b.get("verify_ms"), "nondet", r.get("nondet_elements"))'
  done
fi

if want fidelity; then
  echo "== fidelity: rung against ncu and a plain CUDA program"
  med() { python3 -c 'import json,sys; b=json.load(sys.stdin)["result"]["bench"]; print("median %.2f us, events %.2f us, n=%d, verified %s, %s" % (b["median"]*1e3, b.get("event_median",0)*1e3, b.get("n",0), b.get("verified"), b.get("method","")))'; }
  for n in ${SIZES:-16777216 268435456}; do
    d=$W/copy_$n; mkdir -p "$d"; cp bench/tasks/copy/*.cu "$d/"
    sed "s/^N = .*/N = $n/" bench/tasks/copy/rung.ini > "$d/rung.ini"
    for i in 1 2 3; do echo "rung N=$n: $(rung check --json --budget 1 "$d" 2>/dev/null | med)"; done
    copy_events "$n" random | grep -E "read-sweep flush "
    ncu --clock-control none --target-processes all --kernel-name regex:^copy$ --launch-skip 5 --launch-count 15 \
        --metrics gpu__time_duration.sum --csv copy_events "$n" random > "$W/ncu.csv" 2>/dev/null
    python3 bench/ncu_compare.py "ncu on copy_events N=$n" "$W/ncu.csv"
  done
  for i in 1 2 3 4 5; do rung check --json bench/tasks/sgemm4096 2>/dev/null | python3 -c 'import json,sys; b=json.load(sys.stdin)["result"]["bench"]; print("sgemm4096 median %.4f ms rse %.3f%%" % (b["median"], 100*b["rse_median"]))'; done
fi
rm -rf "$W"
