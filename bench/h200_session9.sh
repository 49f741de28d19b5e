#!/usr/bin/env bash
# #31 item 2, the calibrated records (2026-12-02; core/calib.h,
# gpu/worker/calib.c), on the code that makes them the default over 50 us:
#  calib:   tests/gpu_calib (measured, cached, malformed and stale lines, off,
#           no cache);
#  fidelity: saxpy at 2^24, 2^26, 2^28 in 5 interleaved rounds of ncuS (the
#           plain program, read-sweep flush, ncu --cache-control none: the
#           anchor), rung check --json by default (calibrated) and with
#           RUNG_TIMER=records (the records as they are), one fresh cache for
#           the run (its first check measures the profiler's floor), the wall
#           of each check;
#  cost:    the demo's sgemm, rung check 4 times with RUNG_TIMING=1 and a fresh
#           cache: the floor's laps, first (measured) and after (cached);
#  tests:   the GPU tests on the changed bench.
# Logs in $OUT (LOG, TGZ as bench/h200_session5.sh).
set -u
. bench/h200_env.sh
DEFAULT_LOG=s9.log
. bench/h200_steps.sh
say "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
export RUNG=$B/rung RUNG_SRC=$ROOT RUNG_WORKER_EXE=$B/rung
fidelity() {
  export RUNG_CACHE_DIR=$W/cache-fid
  nvcc -O3 -arch=sm_90 -o "$W/saxpy_plain" bench/saxpy_plain.cu 2>&1 | tail -2
  ncu_med() {
    ncu --clock-control none --cache-control none --kernel-name regex:saxpy --launch-skip 5 --launch-count 20 \
      --metrics gpu__time_duration.sum --csv "$W/saxpy_plain" "$1" sweep > "$W/ncu.csv" 2>/dev/null
    python3 -c 'import csv,sys,statistics; r=[float(x[-1].replace(",","")) for x in csv.reader(open(sys.argv[1])) if len(x)>3 and x[-3]=="gpu__time_duration.sum"]; print("%.3f" % (statistics.median(r)/1000) if r else "nan")' "$W/ncu.csv"
  }
  rung_med() {
    local s=$(date +%s%N)
    env "${@:2}" rung check --json "$1" > "$W/o.json" 2>/dev/null
    local ms=$(( ($(date +%s%N) - s) / 1000000 ))
    python3 -c 'import json,sys; b=json.load(open(sys.argv[1]))["result"]["bench"]; o=b.get("record_offset"); print("%.3f off=%s wall=%sms %s" % (b["median"]*1e3, "%.3f" % (o*1e3) if o is not None else "-", sys.argv[2], b.get("method")))' "$W/o.json" $ms 2>&1 | head -1
  }
  for n in 16777216 67108864 268435456; do
    local d=$W/saxpy_$n; mkdir -p "$d"; cp bench/tasks/saxpy/*.cu "$d/"
    sed "s/^N = .*/N = $n/" bench/tasks/saxpy/rung.ini > "$d/rung.ini"
    for r in 1 2 3 4 5; do
      echo "n=$n r=$r ncuS $(ncu_med $n) cal $(rung_med "$d") raw $(rung_med "$d" RUNG_TIMER=records)"
    done
  done
}
cost() {
  export RUNG_CACHE_DIR=$W/cache-cost
  local D=$W/cdemo; rm -rf "$D"; rung demo --no-tui "$D" >/dev/null 2>&1 || { echo "rung demo failed"; return 1; }
  for i in 1 2 3 4; do
    local s=$(date +%s%N)
    (cd "$D/sgemm" && RUNG_TIMING=1 rung check HEAD > "$W/c.out" 2> "$W/c.err")
    echo "check $i: rc=$? wall $(( ($(date +%s%N) - s) / 1000000 )) ms; $(grep -E '^\[bench\]' "$W/c.out" | cut -c1-200)"
    grep -E 'launch floor|bench: samples' "$W/c.err" | sed -E 's/^rung timing \[[a-z]+\] *//' | tr -s ' ' | tr '\n' ';'; echo
  done
}
export -f fidelity cost; export W O
TAILN=60 step calib 240 "$B/gpu_calib"
TAILN=40 step fidelity 300 bash -c fidelity
TAILN=20 step cost 120 bash -c cost
for t in exploits faults devcheck sanitize_gate compare profile; do
  step "$t" 120 "$B/gpu_$t"
done
say "# end $(date -u +%FT%TZ)"
[ -n "${TGZ:-}" ] && cp "$W"/*.out "$O"/ 2>/dev/null && tar czf "$TGZ" -C "$O" --exclude="$(basename "$TGZ")" . 2>/dev/null
exit 0
