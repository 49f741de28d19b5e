#!/usr/bin/env bash
# The L1 ceiling of `rung ceilings` on the H200 (issue 15, item 5: the
# hierarchical roofline), with ncu's own counters over the same kernel as the
# cross-check. Build on the dev box with scripts/build-carry.sh, then run from
# the repo root on the GPU box (binaries in .carry/bin):
#   bash bench/h200_ceil_l1.sh
# It prints:
#   - `rung ceilings` (the table: dram, l2, l1 measured beside the datasheet;
#     expected on the H200: dram ~4.3 TB/s, l2 ~10 TB/s, l1 ~25-33 TB/s against
#     the datasheet's 132 SMs x 128 B/clk x 1.98 GHz = 33.5 TB/s),
#   - the checks: l1 measured, l1 > l2 > dram, l1 at most 1.05x the datasheet,
#   - ncu on ceil_l1 (when ncu is on PATH): l1tex bytes/s and the L1 hit rate
#     (should be ~100 %: the working set is L1-resident), to compare with rung's,
#   - the demo's roofline screen with the stored ceilings: the L2 slope labelled
#     with the measured value, "(measured)"; L1 keeps the datasheet's 33.5 TB/s
#     unless the measured one is higher (the speed-of-light guard's rule).
# Logs under $OUT.
set -u
. bench/h200_env.sh
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv,noheader
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
D=$W/demo
rung demo --no-tui "$D" >/dev/null 2>&1 || echo "rung demo failed"

echo "== rung ceilings (stored in the demo repository)"
timeout 120 rung ceilings -C "$D"; echo "rc=$?"
timeout 120 rung ceilings -C "$D" --json >"$W/c.json"; echo "rc=$?"
cp "$W/c.json" "$O/ceilings.json"
python3 - "$W/c.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
m, d = j.get("measured", {}), j.get("datasheet", {})
def v(o, k): return o.get(k, {}).get("value")
l1, l2, dram, l1d = v(m, "l1"), v(m, "l2"), v(m, "dram"), v(d, "l1")
print("measured TB/s: dram %s l2 %s l1 %s; datasheet l1 %s" % tuple(
    "%.2f" % (x / 1e12) if x else "-" for x in (dram, l2, l1, l1d)))
ok = True
def check(c, what):
    global ok
    print(("ok   " if c else "FAIL ") + what)
    ok = ok and c
check(l1 is not None, "l1 measured")
check(bool(l1 and l2 and dram and l1 > l2 > dram), "l1 > l2 > dram")
check(bool(l1 and l1d and l1 <= 1.05 * l1d), "l1 at most 1.05x the datasheet (%.3g)" % ((l1 or 0) / (l1d or 1)))
check(bool(l1 and l1 >= 15e12), "l1 at least 15 TB/s")
sys.exit(0 if ok else 1)
PY
echo "checks rc=$?"

if command -v ncu >/dev/null; then
  echo "== ncu on ceil_l1 (one launch)"
  timeout 300 ncu --target-processes all --kernel-name ceil_l1 --launch-count 1 \
    --metrics gpu__time_duration.sum,l1tex__t_bytes.sum,l1tex__t_bytes.sum.per_second,l1tex__t_sector_hit_rate.pct,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,lts__t_bytes.sum \
    rung ceilings 2>&1 | grep -E "ceil_l1|gpu__time|l1tex|lts__" | head -20
else
  echo "== ncu not on PATH: no cross-check"
fi

echo "== the demo's roofline with these ceilings (all levels, then L1 alone)"
printf 'r\n:dump roof_all.txt\nl\nl\nl\n:dump roof_l1.txt\nQ\n' >"$W/keys"
RUNG_TUI_SCRIPT="$W/keys" RUNG_TUI_DUMP_DIR="$W" COLUMNS=120 LINES=32 LC_ALL=C.UTF-8 TERM=xterm-256color \
  timeout 120 rung tui --no-auto-eval -C "$D" sgemm >/dev/null 2>&1; echo "tui rc=$?"
cat "$W/roof_all.txt" "$W/roof_l1.txt" 2>/dev/null
cp "$W"/roof_*.txt "$O/" 2>/dev/null
