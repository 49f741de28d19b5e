#!/bin/bash
# Speedups as kernel engineers say them (#28 D-3) and "vs base" that stays
# the task's baseline whatever rows are shown (D-4), on the demo repository's
# recorded results (no GPU needed): 276.1 ms -> 1.366 ms is "202x" in rung
# log (with -n and --rev too, where the baseline is not among the rows), in
# its JSON (the ratio), and "202×" in the workbench's table, detail and
# compare screens; rung demo's printed table too (the CLI compare's line is
# in test_worker_nogpu, with a fake worker).
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$RUNG" demo --no-tui "$T/demo" >"$T/demo.out" 2>"$T/err" || fail "rung demo: $(cat "$T/err")"
D=$T/demo
row() { grep "^$1 " <<<"$2"; }

# rung demo's printed table (no terminal) says it as rung log does, not -99.5%
out=$(cat "$T/demo.out")
row 53c0aa4 "$out" | grep -q " 202x +-0\.[0-9] " || fail "demo table: best not 202x: $(row 53c0aa4 "$out")"
row 6c5f07f "$out" | grep -q " 12.6x +-" || fail "demo table: 6c5f07f not 12.6x: $(row 6c5f07f "$out")"
row 1cb25ba "$out" | grep -q " base " || fail "demo table: baseline not base: $(row 1cb25ba "$out")"
grep -E '^[0-9a-f]{7} ' <<<"$out" | grep -qE ' [-+][0-9.]+% ' && fail "demo table: a per-cent change: $(grep -E ' [-+][0-9.]+% ' <<<"$out")"

out=$("$RUNG" log -C "$D" --task sgemm 2>&1) || fail "rung log: $out"
row 53c0aa4 "$out" | grep -q " 202x +-[0-9.]* *-99.5% " || fail "best not 202x: $(row 53c0aa4 "$out")"
row 6c5f07f "$out" | grep -q " 12.6x +-" || fail "6c5f07f not 12.6x: $(row 6c5f07f "$out")"
row 1cb25ba "$out" | grep -q " base " || fail "baseline not base: $(row 1cb25ba "$out")"

# -n 2: the baseline is not shown; no other version is called base
out=$("$RUNG" log -C "$D" --task sgemm -n 2 2>&1) || fail "rung log -n 2: $out"
grep -q " base " <<<"$out" && fail "-n 2 calls a version base: $out"
row 53c0aa4 "$out" | grep -q " 202x +-" || fail "-n 2: best not 202x: $(row 53c0aa4 "$out")"
grep -q "^VS_BASE: speedup over the task's baseline 1cb25ba " <<<"$out" || fail "-n 2: no word of the baseline: $out"
out=$(cd "$D/sgemm" && "$RUNG" log --rev 8b22df9..53c0aa4 2>&1) || fail "rung log --rev: $out"
row 53c0aa4 "$out" | grep -q " 202x +-" || fail "--rev: best not 202x: $(row 53c0aa4 "$out")"
row 8c4f713 "$out" | grep -q " base " && fail "--rev: 8c4f713 called base: $(row 8c4f713 "$out")"
row 8c4f713 "$out" | grep -q " 67.1x +-" || fail "--rev: 8c4f713 not 67.1x: $(row 8c4f713 "$out")"

# JSON keeps the ratio; with -n the baseline's numbers, not the oldest row's
"$RUNG" log -C "$D" --task sgemm -n 2 --json > "$T/log.json" 2>"$T/err" || fail "log --json: $(cat "$T/err")"
python3 - "$T/log.json" <<'PY' || fail "log --json"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert len(rows) == 2, rows
for r in rows:  # the ratio beside the delta (null: no live timing here)
    assert "speedup_vs_baseline" in r and "delta_vs_baseline" in r, r
    assert r["baseline"] is False, r
PY

# the workbench: the table, the detail of the best, compare of baseline and best
printf ':dump v.txt\n<Enter>\n:dump d.txt\nq\nG\na\ng\nb\nc\n:sleep 1\n:dump c.txt\nQ\n' > "$T/keys"
(cd "$D" && COLUMNS=120 LINES=40 RUNG_TUI_DUMP_DIR="$T" RUNG_TUI_SCRIPT="$T/keys" timeout 60 "$RUNG" tui --no-auto-eval \
	</dev/null >/dev/null 2>"$T/err") || fail "rung tui: exit $? ($(cat "$T/err"))"
grep ' 53c0aa4 ' "$T/v.txt" | grep -q ' 202× ±0.[0-9] ' || fail "table: $(grep ' 53c0aa4 ' "$T/v.txt")"
grep ' 6c5f07f ' "$T/v.txt" | grep -q ' 12.6× ±' || fail "table: $(grep ' 6c5f07f ' "$T/v.txt")"
grep -q '202× \[20[0-9], 20[0-9]\] vs baseline' "$T/d.txt" || fail "detail: $(grep 'vs baseline' "$T/d.txt")"
grep -q '^median .* 202× \[20[0-9], 20[0-9]\] FASTER' "$T/c.txt" || fail "compare: $(grep '^median' "$T/c.txt")"
grep -q '0\.005x' "$T/c.txt" && fail "compare: one significant digit"
echo "ok"
