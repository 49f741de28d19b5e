#!/usr/bin/env bash
# The short-kernel fidelity table of docs/BENCHMARKS.md (loop-speed issue, goal
# 4): saxpy at 2^18..2^26 elements timed by rung in 5 processes each (default:
# the range profiler's gpu__time_duration under 50 us; RUNG_TIMER=records: the
# serial kernel records), against ncu's gpu__time_duration.sum on a plain CUDA
# program (--clock-control none, caches flushed as ncu does by default) and
# triton's do_bench, all in the same run. Run from the repo root with binaries
# in .carry/bin (scripts/build-carry.sh); logs to $OUT.
set -u
. bench/h200_env.sh
W=$(mktemp -d)
nvcc -O3 -arch=sm_90 -o "$W/saxpy_plain" bench/saxpy_plain.cu || exit 1
med() { python3 -c 'import json,sys; b=json.load(sys.stdin)["result"]["bench"]; print("%.4f %s %s" % (b["median"], b.get("method",""), b.get("record_median","-")))'; }
for n in ${SIZES:-262144 1048576 4194304 16777216 67108864}; do
  d=$W/saxpy_$n; mkdir -p "$d"; cp bench/tasks/saxpy/*.cu "$d/"
  sed "s/^N = .*/N = $n/" bench/tasks/saxpy/rung.ini > "$d/rung.ini"
  for mode in auto records; do
    meds=()
    for i in 1 2 3 4 5; do
      line=$(RUNG_TIMER=$mode rung check --json --budget 1 "$d" 2>>"$O/short_err.log" | med)
      echo "n=$n mode=$mode run=$i $line" >> "$O/short_runs.log"
      meds+=("$(echo "$line" | cut -d' ' -f1)")
    done
    ncu --clock-control none --kernel-name regex:^saxpy$ --launch-skip 5 --launch-count 20 \
        --metrics gpu__time_duration.sum --csv "$W/saxpy_plain" "$n" > "$W/ncu.csv" 2>/dev/null
    python3 bench/ncu_compare.py "saxpy n=$n rung[$mode]" "$W/ncu.csv" "${meds[@]}"
  done
done
grep -h "method\|record" "$O/short_runs.log" | head -12
python3 bench/saxpy_triton.py ${SIZES:-262144 1048576 4194304 16777216 67108864}
tail -5 "$O/short_err.log"
