#!/usr/bin/env bash
# The short-kernel window's cost, by replay mode (user replay, the default for
# the one-pass durations session, against RUNG_PROFILER_REPLAY=kernel), with
# RUNG_TIMING=1 laps of the profiler session; medians against ncu on the
# plain program; then every GPU test on this code.
set -u
. bench/h200_env.sh
W=$(mktemp -d)
nvcc -O3 -arch=sm_90 -o "$W/saxpy_plain" bench/saxpy_plain.cu 2>&1 | tail -2
for n in 262144 1048576 4194304 16777216; do
  d=$W/saxpy_$n; mkdir -p "$d"; cp bench/tasks/saxpy/*.cu "$d/"; sed "s/^N = .*/N = $n/" bench/tasks/saxpy/rung.ini > "$d/rung.ini"
  ncu --clock-control none --kernel-name regex:saxpy --launch-skip 5 --launch-count 20 --metrics gpu__time_duration.sum --csv "$W/saxpy_plain" $n > "$W/ncu.csv" 2>/dev/null
  echo "n=$n ncu median: $(python3 -c 'import csv,sys,statistics; r=[float(x[-1].replace(",","")) for x in csv.reader(open(sys.argv[1])) if len(x)>3 and x[-3]=="gpu__time_duration.sum"]; print("%.3f us (%d launches)" % (statistics.median(r)/1000, len(r)))' "$W/ncu.csv")"
  for mode in user kernel user kernel; do
    if [ $mode = kernel ]; then export RUNG_PROFILER_REPLAY=kernel; else unset RUNG_PROFILER_REPLAY; fi
    s=$(date +%s%N); RUNG_TIMING=1 rung check --json "$d" > "$W/o.json" 2> "$W/t.err"; rc=$?; ms=$(( ($(date +%s%N) - s) / 1000000 ))
    med=$(python3 -c 'import json,sys; b=json.load(open(sys.argv[1]))["result"]["bench"]; print("%.3f us %s n=%d" % (b["median"]*1e3, b.get("method"), b["n"]))' "$W/o.json" 2>&1)
    echo "  $mode: rc=$rc wall ${ms} ms, median $med; $(grep -E 'profiler: ' "$W/t.err" | sed -E 's/^rung timing \[[a-z]+\] *//' | tr -s ' ' | tr '\n' ';' | cut -c1-330)"
  done
done
unset RUNG_PROFILER_REPLAY
echo "== gpu tests"; STEPS=tests bash bench/h200_session.sh 2>&1 | grep -E " rc="
D=/tmp/rung-demo; rm -rf "$D"; rung demo --no-tui "$D" > /dev/null 2>&1
rev=$(git -C "$D" log --format=%h -1 -- softmax)
(cd "$D" && rung profile --stalls --task softmax "$rev" 2>&1 | grep -E "^\[stalls\] [0-9]"; rung profile --sass --task softmax "$rev" 2>&1 | grep -E "^\[sass\] [0-9]"; rung profile --task softmax "$rev" 2>&1 | grep -E "^\[profile\]" | head -2)
rm -rf "$W"
