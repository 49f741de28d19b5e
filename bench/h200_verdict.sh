#!/usr/bin/env bash
# The time to verdict on the H200 (#26 item 7, #31 item 1), in one run: the
# bit-identity of the device check (tests/gpu_devcheck), then `rung check`'s
# laps (bench/h200_laps.sh, KERNEL=new: a new kernel source and then the same
# again, 2 runs each, for the 4096^3 SGEMM and a 4096 x 8192 softmax) by the
# build before (.carry/bin/rung-before, scripts/build-carry.sh with
# RUNG_BEFORE=REV) and after, interleaved twice, then the warm MCP check
# against the one-shot CLI in both kinds of call (bench/h200_mcp_warm.sh,
# KERNEL=new), then gpu_faults and gpu_exploits. Everything under $OUT
# (laps_I_BIN.txt and lI/ per round), and one archive $TGZ when set.
set -u
. bench/h200_env.sh
$B/gpu_devcheck > "$O/devcheck.txt" 2>&1; echo "devcheck rc=$?" >> "$O/devcheck.txt"
i=0
for b in rung-before rung rung-before rung; do
  i=$((i + 1))
  [ -x "$B/$b" ] || continue
  RUNG_BIN=$B/$b KERNEL=new RUNS=${RUNS:-2} bash bench/h200_laps.sh > "$O/laps_${i}_$b.txt" 2>&1
  mkdir -p "$O/l$i"; mv "$O"/laps_*.log "$O"/laps_walls_* "$O/l$i/" 2>/dev/null
done
KERNEL=new N=${N:-7} bash bench/h200_mcp_warm.sh > "$O/mcp.txt" 2>&1
for t in faults exploits; do timeout 150 "$B/gpu_$t" > "$O/$t.txt" 2>&1; echo "$t rc=$?" >> "$O/$t.txt"; done
[ -n "${TGZ:-}" ] && tar czf "$TGZ" -C "$O" .
tail -n1 "$O/devcheck.txt" "$O/faults.txt" "$O/exploits.txt"
grep -H '^median' "$O"/laps_*.txt
cat "$O/mcp_warm.md"
