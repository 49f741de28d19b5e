#!/bin/bash
# The roof % against the ceiling that fits the instruction mix (#28 D-9), on
# the demo's recorded H200 results: an FP32 FFMA kernel (df16e84, 41.3
# TFLOP/s) read 8% of the TF32 tensor roof (535 TFLOP/s); now 62% of the FP32
# FMA one (66.9 TFLOP/s), named in the detail; the TF32 mma.sync version
# (53c0aa4) stays against the tensor roof, named too.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>"$T/err" || fail "rung demo: $(cat "$T/err")"
export XDG_CONFIG_HOME=$T/config
printf ':dump v.txt\n<Enter>\n:dump best.txt\nq\nj\nj\n<Enter>\n:dump fma.txt\nQ\n' > "$T/keys"
(cd "$T/demo" && COLUMNS=120 LINES=60 RUNG_TUI_DUMP_DIR="$T" RUNG_TUI_SCRIPT="$T/keys" timeout 60 "$RUNG" tui --no-auto-eval \
	</dev/null >/dev/null 2>"$T/err") || fail "rung tui: exit $? ($(cat "$T/err"))"
grep ' df16e84 ' "$T/v.txt" | grep -q '   62%  ' || fail "table: $(grep ' df16e84 ' "$T/v.txt")"
grep ' 53c0aa4 ' "$T/v.txt" | grep -q '   19%  ' || fail "table: $(grep ' 53c0aa4 ' "$T/v.txt")"
grep -q '62% of the FP32 FMA roof (66.9 TFLOP/s)' "$T/fma.txt" || fail "detail df16e84: $(grep 'roof' "$T/fma.txt")"
grep -q '19% of the TF32 tensor roof (535 TFLOP/s)' "$T/best.txt" || fail "detail 53c0aa4: $(grep 'roof' "$T/best.txt")"
echo "ok"
