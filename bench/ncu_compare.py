#!/usr/bin/env python3
"""Compares rung's bench medians (ms, one per process run) with ncu's
gpu__time_duration.sum for the same kernel (median over the profiled launches)."""
import csv, statistics, sys

name, path, meds = sys.argv[1], sys.argv[2], [float(x) for x in sys.argv[3:]]
vals = []
with open(path) as f:
    lines = [l for l in f if l.startswith('"')]
for row in csv.DictReader(lines):
    if row.get("Metric Name") == "gpu__time_duration.sum":
        v = float(row["Metric Value"].replace(",", ""))
        unit = row.get("Metric Unit", "")
        scale = {"nsecond": 1e-6, "usecond": 1e-3, "msecond": 1.0, "second": 1e3}.get(unit, 1e-6)
        vals.append(v * scale)
if not vals:
    print(f"{name}: no data (ncu rows=0, rung runs={len(meds)})")
    sys.exit(0)
ncu = statistics.median(vals)
if not meds:  # ncu alone
    print(f"{name}: ncu={ncu*1e3:.2f}us (median of {len(vals)}, min {min(vals)*1e3:.2f}, max {max(vals)*1e3:.2f})")
    sys.exit(0)
rung = statistics.median(meds)
spread = (max(meds) - min(meds)) / rung * 100
print(f"{name}: rung={rung*1e3:.2f}us ncu={ncu*1e3:.2f}us diff={(rung/ncu-1)*100:+.2f}% "
      f"spread5={spread:.2f}% ncu_n={len(vals)} rung_medians_us={[round(m*1e3,2) for m in meds]}")
