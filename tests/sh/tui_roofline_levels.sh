#!/bin/bash
# The hierarchical roofline on the demo's recorded results (no GPU needed):
# every profiled version has a DRAM, an L2 and an L1 point (the counted FLOPs
# over dram.bytes, lts__t_bytes.sum and l1tex__t_bytes.sum), each with its
# glyph in the legend; the ceilings are labelled (the L1 one from the
# datasheet formula, 132 SMs x 128 B/clk x 1.98 GHz = 33.5 TB/s; L2 only once
# measured); `L` cycles the levels drawn (all, DRAM, L2, L1).
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC TERM=xterm-256color LC_ALL=C
unset NO_COLOR
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
[ -f "$RUNG_SRC/examples/sgemm/recorded.jsonl" ] || { echo "SKIP: no recorded results in this tree"; exit 77; }

"$RUNG" demo --no-tui "$T/d" >"$T/demo.out" 2>&1 || fail "rung demo: $(cat "$T/demo.out")"
D=$T/d
# r: the roofline; six j: the seventh version, "128x128 block tile" (a3a83d2)
cat >"$T/keys" <<'KEYS'
r
j j j j j j
:dump all.txt
L
:dump dram.txt
L
:dump l2.txt
L
:dump l1.txt
L
:dump again.txt
j j j j
:dump naive.txt
Q
KEYS
tui() {
	RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=110 LINES=30 "$RUNG" tui --no-auto-eval -C "$D" sgemm \
		>"$T/out" 2>&1 || fail "rung tui exited $?: $(cat "$T/out")"
}
tui
a=$(cat "$T/all.txt")
echo "$a"
# the plot: the rows between the title and the x axis labels
plot() { sed -n '2,/FLOP\/B$/p' "$1" | sed '$d' | cut -c6-; }
count() { plot "$1" | tr -cd "$2" | wc -c; }

grep -qF "o ideal ([roofline] counts)  x DRAM  + L2 (no ceiling)  # L1 (profile counters; L: all)  r recorded elsewhere" <<<"$a" ||
	fail "legend of all levels"
# the 128x128 tile: 137438953472 + 2097152 FLOP over 679864320 (DRAM), 4736053952 (L2)
# and 4831838208 (L1) bytes: 202.16, 29.02, 28.44 FLOP/B
grep -q "^a3a83d2 682.7 FLOP/B .*; DRAM 202.2 L2 29.0 L1 28.4 FLOP/B, moves 3.4x the bytes it needs" <<<"$a" ||
	fail "the selected version's three intensities: $(tail -2 <<<"$a")"
grep -qF "L1 33.5 TB/s" <<<"$a" || fail "no L1 ceiling label"
grep -qF "DRAM 4.81 TB/s" <<<"$a" || fail "no DRAM ceiling label"
grep -qF "FP32 66.9 TFLOP/s" <<<"$a" || fail "no FP32 ceiling label"
grep -q "L2 [0-9.]* TB/s" <<<"$a" && fail "an L2 ceiling label though none was measured"
# 8 FFMA versions have counters and non-zero counted FLOPs (the TF32 one counts no FFMA):
# each level's glyph at least 4 times (coincident points share a cell)
for g in x + '#'; do
	n=$(count "$T/all.txt" "$g")
	[ "$n" -ge 4 ] || fail "only $n '$g' points in the plot of all levels"
done
# the naive kernel: 137438953472 + 33554432 FLOP over 8522290944, 22405915840 and
# 2268279603200 bytes: 16.13, 6.136, 0.0606 FLOP/B
grep -q "^1cb25ba 682.7 FLOP/B .*; DRAM 16.1 L2 6.1 L1 0.061 FLOP/B" "$T/naive.txt" ||
	fail "the naive version's intensities: $(tail -2 "$T/naive.txt")"

d=$(cat "$T/dram.txt")
grep -qF "x DRAM (profile counters; L: DRAM)" <<<"$d" || fail "legend with DRAM alone: $(tail -3 <<<"$d")"
[ "$(count "$T/dram.txt" '+#')" = 0 ] || fail "L2 or L1 points drawn with DRAM alone"
[ "$(count "$T/dram.txt" x)" -ge 5 ] || fail "DRAM points missing with DRAM alone"
grep -qF "L1 33.5 TB/s" <<<"$d" && fail "the L1 ceiling drawn with DRAM alone"
grep -qF "DRAM 4.81 TB/s" <<<"$d" || fail "no DRAM label with DRAM alone"

grep -qF "+ L2 (no ceiling) (profile counters; L: L2)" "$T/l2.txt" || fail "legend with L2 alone: $(tail -3 "$T/l2.txt")"
[ "$(count "$T/l2.txt" 'x#')" = 0 ] || fail "DRAM or L1 points drawn with L2 alone"
l1=$(cat "$T/l1.txt")
grep -qF "# L1 (profile counters; L: L1)" <<<"$l1" || fail "legend with L1 alone"
[ "$(count "$T/l1.txt" 'x+')" = 0 ] || fail "DRAM or L2 points drawn with L1 alone"
grep -qF "L1 33.5 TB/s" <<<"$l1" || fail "no L1 label with L1 alone"
# with one level drawn the path runs through its points too: the L1 view draws the same slopes
# as the view of all levels, and its path adds more line dots than the selected version's ties
[ "$(count "$T/l1.txt" '.')" -gt "$(count "$T/all.txt" '.')" ] || fail "no L1 path"
cmp -s "$T/all.txt" "$T/again.txt" || fail "the fourth L does not come back to all levels"

# an L2 ceiling once measured (stored as rung ceilings stores it, for the recorded results' device):
# L2 has no datasheet figure, so it is labelled measured; L1 measured below the datasheet keeps
# the datasheet's (the guard's rule: the higher)
if command -v sqlite3 >/dev/null; then
	uuid=$(grep -o '"uuid":"[^"]*"' "$RUNG_SRC/examples/sgemm/recorded.jsonl" | head -1 | cut -d'"' -f4)
	sqlite3 "$D/.git/rung/results.db" "CREATE TABLE IF NOT EXISTS ceilings (uuid TEXT NOT NULL, sm_clock_mhz INTEGER NOT NULL,
		mem_clock_mhz INTEGER NOT NULL, gpu TEXT, json TEXT NOT NULL, created INTEGER NOT NULL,
		PRIMARY KEY (uuid, sm_clock_mhz, mem_clock_mhz));
		INSERT INTO ceilings VALUES ('$uuid', 1980, 3201, 'NVIDIA H200',
		'{\"dram\":{\"src\":\"measured\",\"value\":4.31e12},\"l2\":{\"src\":\"measured\",\"value\":1.05e13},\"l1\":{\"src\":\"measured\",\"value\":2.97e13}}', 0);" ||
		fail "sqlite3 insert"
	tui
	m=$(cat "$T/all.txt")
	echo "$m"
	grep -qF "L2 10.5 TB/s (measured)" <<<"$m" || fail "no measured L2 ceiling label"
	grep -qF "  + L2  #" <<<"$m" || fail "L2 still without a ceiling in the legend"
	grep -qF "L1 33.5 TB/s" <<<"$m" || fail "L1 label"
	grep -qF "(datasheet ceilings)" <<<"$m" || fail "title"
else
	echo "no sqlite3: the measured L2 ceiling is not checked"
fi
echo "ok"
