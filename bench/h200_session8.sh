#!/usr/bin/env bash
# #31 item 2, the second experiment (2026-12-02, after session 7 showed the
# profiler window reading +1.0 us above ncu at 2^24 and -3.5 us at 2^28, with a
# fixed ~0.45 s per check whatever its length): where the records' offset comes
# from. Saxpy at N = 1 (one block: the launch floor), 2^16, 2^20, 2^24, 2^26,
# 2^28, in 3 interleaved rounds of:
#   ncuM: the plain program, memset flush, ncu --cache-control all (the anchor
#         of the earlier tables);
#   ncuS: the plain program, read-sweep flush (as rung's worker), ncu
#         --cache-control none;
#   rec:  rung check --json, RUNG_TIMER=records (median, event median, n);
#   w5:   rung check --json, RUNG_TIMER=profiler RUNG_PROFILER_WINDOW=5.
# The question: is records - ncu a constant c across sizes, and is it the
# records' reading of the one-block kernel minus ncu's (a calibration an empty
# kernel can give per session)? Logs in $OUT (LOG, TGZ as bench/h200_session5.sh).
set -u
. bench/h200_env.sh
DEFAULT_LOG=s8.log
. bench/h200_steps.sh
say "# $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null)"
export RUNG=$B/rung RUNG_SRC=$ROOT RUNG_WORKER_EXE=$B/rung
offsets() {
  nvcc -O3 -arch=sm_90 -o "$W/saxpy_plain" bench/saxpy_plain.cu 2>&1 | tail -2
  ncu_med() { # ncu_med N MODE CACHE: median gpu__time_duration in us over 20 launches
    ncu --clock-control none --cache-control "$3" --kernel-name regex:saxpy --launch-skip 5 --launch-count 20 \
      --metrics gpu__time_duration.sum --csv "$W/saxpy_plain" "$1" "$2" > "$W/ncu.csv" 2>/dev/null
    python3 -c 'import csv,sys,statistics; r=[float(x[-1].replace(",","")) for x in csv.reader(open(sys.argv[1])) if len(x)>3 and x[-3]=="gpu__time_duration.sum"]; print("%.3f" % (statistics.median(r)/1000) if r else "nan")' "$W/ncu.csv"
  }
  rung_med() { # rung_med DIR ENV...: median us, event median us, n
    env "${@:2}" rung check --json "$1" > "$W/o.json" 2>/dev/null
    python3 -c 'import json,sys; b=json.load(open(sys.argv[1]))["result"]["bench"]; e=b.get("event_median"); print("%.3f ev=%s n=%d %s" % (b["median"]*1e3, "%.3f" % (e*1e3) if e else "-", b["n"], b.get("method")))' "$W/o.json" 2>&1 | head -1
  }
  for n in ${SIZES:-1 65536 1048576 16777216 67108864 268435456}; do
    local d=$W/saxpy_$n; mkdir -p "$d"; cp bench/tasks/saxpy/*.cu "$d/"
    sed -e "s/^N = .*/N = $n/" -e "s/^sizes = .*/sizes = N=$(( n < 1000 ? n : 1000 ))/" bench/tasks/saxpy/rung.ini > "$d/rung.ini"
    for r in 1 2 3; do
      echo "n=$n r=$r ncuM $(ncu_med $n memset all) ncuS $(ncu_med $n sweep none) rec $(rung_med "$d" RUNG_TIMER=records) w5 $(rung_med "$d" RUNG_TIMER=profiler RUNG_PROFILER_WINDOW=5)"
    done
  done
}
export -f offsets; export W O
TAILN=200 step offsets 500 bash -c offsets
say "# end $(date -u +%FT%TZ)"
[ -n "${TGZ:-}" ] && cp "$W"/*.out "$O"/ 2>/dev/null && tar czf "$TGZ" -C "$O" --exclude="$(basename "$TGZ")" . 2>/dev/null
exit 0
