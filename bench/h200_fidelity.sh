#!/usr/bin/env bash
# Where rung's median of a memory-bound copy parts from ncu's (docs/BENCHMARKS.md
# section 2): the bench copy timed by rung with CUPTI's serial kernel records
# (the default), its instrumented concurrent-kernel records, and no CUPTI, and
# by a plain CUDA program (no rung, CUPTI or NVML), each against ncu. Then the
# time to verdict again. (Run on 2026-12-01 with zeros as well as random data:
# the values made no difference.) Run from the repo root with binaries in .carry/bin.
set -u
. bench/h200_env.sh
W=$(mktemp -d)
med() { python3 -c 'import json,sys; b=json.load(sys.stdin)["result"]["bench"]; print("median %.2f us, events %.2f us, n=%d, %s" % (b["median"]*1e3, b.get("event_median",0)*1e3, b.get("n",0), b.get("method","")))'; }
ncu1() { # label, command... : ncu's median gpu__time_duration of kernel "copy"
  local label=$1; shift
  ncu --clock-control none --target-processes all --kernel-name regex:^copy$ --launch-skip 5 --launch-count 15 \
      --metrics gpu__time_duration.sum --csv "$@" > "$W/ncu.csv" 2>/dev/null
  python3 bench/ncu_compare.py "$label" "$W/ncu.csv"
}
for n in ${SIZES:-16777216 268435456}; do
  d=$W/copy_$n; mkdir -p "$d"; cp bench/tasks/copy/*.cu "$d/"
  sed "s/^N = .*/N = $n/" bench/tasks/copy/rung.ini > "$d/rung.ini"
  for mode in kernel concurrent 0; do # RUNG_CUPTI: serial records (default), instrumented records, none (events)
    echo "rung   N=$n RUNG_CUPTI=$mode: $(RUNG_CUPTI=$mode rung check --json --budget 1 "$d" 2>/dev/null | med)"
  done
  ncu1 "ncu on rung check N=$n" rung check --budget 0.3 "$d"
  RUNG_CUPTI=0 ncu1 "ncu on rung check N=$n, RUNG_CUPTI=0" rung check --budget 0.3 "$d"
  copy_events "$n" random | grep -E "read-sweep flush "
  ncu1 "ncu on copy_events N=$n" copy_events "$n" random
done
echo "== time to verdict (4096^3 sgemm)"
RUNG_TIMING=1 rung check bench/tasks/sgemm4096 > "$O/timing.log" 2>&1
grep -E "rss\]|parent|sum of|\[bench\]|\[compile\]" "$O/timing.log"
for i in 1 2 3 4 5; do python3 bench/rusage.py rung check bench/tasks/sgemm4096 | tail -1; done
