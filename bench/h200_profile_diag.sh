#!/usr/bin/env bash
# Diagnoses the CUPTI range-profiler metrics one by one on the device.
ROOT=$PWD; B=$ROOT/.carry/bin
export LD_LIBRARY_PATH=$ROOT/.carry/lib:${LD_LIBRARY_PATH:-} PATH=$B:$PATH
for g in 1 3; do
  echo "== RUNG_PROFILE_GROUP=$g rung profile tests/tasks/sgemm"
  RUNG_PROFILE_GROUP=$g rung profile tests/tasks/sgemm
  RUNG_PROFILE_GROUP=$g rung profile --json tests/tasks/sgemm | python3 -c '
import json,sys
d=json.load(sys.stdin)
r=d.get("result",d)
for c in r.get("counters",[]): print("  ", c)'
done
