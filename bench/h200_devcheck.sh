#!/usr/bin/env bash
# Issue #14 goal 1 (the check's host-side work on the GPU): on the H200,
#  1. tests/gpu_devcheck: device generation, chunk hashes, the reference scan and
#     the metrics bit-identical to the host path (its lines "generation: N of N"
#     and "metrics: N of N ... bit-identical", then "K passed, 0 failed");
#     then the GPU tests whose verdicts go through the check (GPU_TESTS= to skip);
#  2. the time to verdict of `rung check` on the 4096^3 SGEMM (bench/tasks/sgemm4096)
#     and on the softmax demo task (examples/softmax), 5 runs each with the device
#     path and with RUNG_HOST_CHECK=1 (the host path), interleaved: per run the
#     wall time from process start to exit (bench/rusage.py), the verdict line and
#     the worker's timing laps of the check (inputs, reference, inputs unchanged,
#     metrics); then the median wall per task and path.
# Logs to $OUT (one file per run). Run from the repo root with binaries in
# .carry/bin (scripts/build-carry.sh).
set -u
. bench/h200_env.sh
echo "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
echo "== gpu_devcheck"
timeout 300 "$B/gpu_devcheck" > "$O/gpu_devcheck.log" 2>&1
rc=$?
grep -E "device |generation:|metrics:|differs|DIFFERS|FAIL|passed" "$O/gpu_devcheck.log" | head -40
echo "gpu_devcheck rc=$rc"
# the GPU tests whose verdicts go through the check (now on the device by default)
for t in ${GPU_TESTS-gpu_inputs gpu_exploits gpu_faults gpu_output}; do
  timeout 300 "$B/$t" > "$O/$t.log" 2>&1; echo "$t rc=$? $(tail -1 "$O/$t.log")"
done
laps='inputs: |reference: |reference kernel|inputs unchanged|metrics: |candidate kernel|device alloc|guards'
for task in bench/tasks/sgemm4096 examples/softmax; do
  name=$(basename "$task")
  echo "== rung check $task (5 x device, 5 x RUNG_HOST_CHECK=1, interleaved)"
  : > "$O/walls_$name.txt"
  for i in 1 2 3 4 5; do
    for mode in device host; do
      log=$O/check_${name}_${mode}_$i.log
      if [ "$mode" = host ]; then hc=1; else hc=; fi
      RUNG_HOST_CHECK=$hc RUNG_TIMING=1 timeout 120 python3 bench/rusage.py sh -c "rung check $task 2>&1" > "$log" 2>&1
      wall=$(sed -n 's/^wall=\([0-9.]*\)s.*/\1/p' "$log" | tail -1)
      echo "$mode $wall" >> "$O/walls_$name.txt"
      verdict=$(grep -E '^\[check\]|^\[bench\]' "$log" | tr '\n' ' ' | cut -c1-160)
      echo "-- $mode run $i: wall ${wall:-?} s  $verdict"
      grep -E "rung timing \[worker\] +($laps)" "$log" | sed 's/^rung timing \[worker\] */     /'
      grep -E "rung worker: .*checking on the host" "$log" | head -1
    done
  done
  for mode in device host; do
    med=$(awk -v m=$mode '$1 == m && $2 != "" { print $2 }' "$O/walls_$name.txt" | sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }')
    echo "median wall $name $mode: ${med:-?} s (goal for sgemm4096 with the device path: <= 0.45 s)"
  done
done
