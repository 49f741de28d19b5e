#!/usr/bin/env bash
# The short-kernel window's cost, by range layout (MODES: "one" = a range
# per launch, the kernel alone, the default; "all" = RUNG_PROFILER_RANGES=all,
# every kernel of each launch a range), with RUNG_TIMING=1 laps of the
# profiler session; medians against ncu on the plain program, at SIZES, with
# RUNG_TIMER=profiler (the window at every size); then every GPU test.
set -u
. bench/h200_env.sh
W=$(mktemp -d)
nvcc -O3 -arch=sm_90 -o "$W/saxpy_plain" bench/saxpy_plain.cu 2>&1 | tail -2
export RUNG_TIMER=profiler
for n in ${SIZES:-262144 1048576 4194304 16777216 67108864}; do
  d=$W/saxpy_$n; mkdir -p "$d"; cp bench/tasks/saxpy/*.cu "$d/"; sed "s/^N = .*/N = $n/" bench/tasks/saxpy/rung.ini > "$d/rung.ini"
  ncu --clock-control none --kernel-name regex:saxpy --launch-skip 5 --launch-count 20 --metrics gpu__time_duration.sum --csv "$W/saxpy_plain" $n > "$W/ncu.csv" 2>/dev/null
  echo "n=$n ncu median: $(python3 -c 'import csv,sys,statistics; r=[float(x[-1].replace(",","")) for x in csv.reader(open(sys.argv[1])) if len(x)>3 and x[-3]=="gpu__time_duration.sum"]; print("%.3f us (%d launches)" % (statistics.median(r)/1000, len(r)))' "$W/ncu.csv")"
  for mode in ${MODES:-one all one all}; do
    if [ $mode = all ]; then export RUNG_PROFILER_RANGES=all; else unset RUNG_PROFILER_RANGES; fi
    s=$(date +%s%N); RUNG_TIMING=1 rung check --json "$d" > "$W/o.json" 2> "$W/t.err"; rc=$?; ms=$(( ($(date +%s%N) - s) / 1000000 ))
    med=$(python3 -c 'import json,sys; b=json.load(open(sys.argv[1]))["result"]["bench"]; print("%.3f us %s n=%d" % (b["median"]*1e3, b.get("method"), b["n"]))' "$W/o.json" 2>&1)
    echo "  $mode: rc=$rc wall ${ms} ms, median $med; $(grep -E 'profiler: ' "$W/t.err" | sed -E 's/^rung timing \[[a-z]+\] *//' | tr -s ' ' | tr '\n' ';' | cut -c1-330)"
  done
done
unset RUNG_PROFILER_RANGES RUNG_TIMER
echo "== the default (records over 50 us): 2^24 and 2^26"
for n in 16777216 67108864; do
  d=$W/saxpy_$n
  for i in 1 2; do echo "  n=$n default: $(rung check --json "$d" 2>/dev/null | python3 -c 'import json,sys; b=json.load(sys.stdin)["result"]["bench"]; print("%.3f us %s" % (b["median"]*1e3, b.get("method")))')"; done
done
echo "== gpu tests"; STEPS=tests bash bench/h200_session.sh 2>&1 | grep -E " rc="
D=/tmp/rung-demo; rm -rf "$D"; rung demo --no-tui "$D" > /dev/null 2>&1
rev=$(git -C "$D" log --format=%h -1 -- softmax)
(cd "$D" && rung profile --stalls --task softmax "$rev" 2>&1 | grep -E "^\[stalls\] [0-9]"; rung profile --sass --task softmax "$rev" 2>&1 | grep -E "^\[sass\] [0-9]"; rung profile --task softmax "$rev" 2>&1 | grep -E "^\[profile\]" | head -2)
rm -rf "$W"
