#!/bin/bash
# Warp stall samples in the detail screen's SASS pane (docs/TUI.md, "Stall
# reasons"), on a recorded result whose export line carries stall samples
# (`rung profile --stalls` JSON, "extras"): the kernel's top reasons as bars
# with their shares, each sampled line's samples, share and top reason next to
# its instruction, the hottest lines marked; `s` lists the sampled lines most
# samples first, `]` jumps to the next line with the most samples.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC TERM=xterm-256color
. "$RUNG_SRC/tests/sh/lib/tui_repo.sh"
fail() { echo "FAIL: $*"; exit 1; }

head=$(git -C "$REPO" rev-parse HEAD)
# 0x0010: 300 samples, 240 long scoreboard; 0x0020: 100 barrier; 0x0030: 50 selected;
# kernel total 450: long scoreboard 240 (53.3 %), barrier 100 (22.2 %), selected 50 + 60 (24.4 %)
sed "s/@REV@/$head/g" "$RUNG_SRC/tests/fixtures/errmap/tail.jsonl" | python3 -c '
import json, sys
for line in sys.stdin:
    o = json.loads(line)
    o["extras"] = {"stall": {"function": "", "period": 10, "total": 450, "dropped": 0,
        "reasons": ["long_scoreboard", "long_scoreboard_not_issued", "barrier", "selected"],
        "records": [[16, 0, 240, 1, 200, 3, 60], [32, 2, 100], [48, 3, 50]]}}
    print(json.dumps(o))' >"$T/stall.jsonl" || fail "fixture"
"$RUNG" import -C "$REPO" "$T/stall.jsonl" >/dev/null || fail "import"

tui() {
	printf '%s\n' "$@" >"$T/keys"
	RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=140 LINES=${ROWS:-40} LC_ALL=C "$RUNG" tui -C "$REPO" \
		>"$T/out" 2>&1 || fail "rung tui exited $?: $(cat "$T/out")"
}
tui '<Enter>' 't' ':dump sass.txt' 's' ':dump sorted.txt' 's' ']' ':dump jumped.txt' 'Q'
a=$(cat "$T/sass.txt")
grep -q "Warp stalls: 450 samples (one per 2^10 cycles per SM)" <<<"$a" || fail "no stall header: $a"
grep -qE "^  long scoreboard +53\.3% #{40}$" <<<"$a" || fail "long scoreboard bar: $a"
grep -qE "^  selected \(issued\) +24\.4% #{18}$" <<<"$a" || fail "selected bar"
grep -qE "^  barrier +22\.2% #{17}$" <<<"$a" || fail "barrier bar"
grep -qE "samples +% +top stall" <<<"$a" || fail "no stall columns: $a"
grep -qE "^\* +0010 .* 300 +66\.7%  long scoreboard +[A-Z]" <<<"$a" || fail "line 0x10: $(grep 0010 <<<"$a")"
grep -qE "^\* +0020 .* 100 +22\.2%  barrier +[A-Z]" <<<"$a" || fail "line 0x20: $(grep 0020 <<<"$a")"
grep -qE "^  +0040 .* - +[A-Z]" <<<"$a" || fail "unsampled line 0x40: $(grep 0040 <<<"$a")"
# in UTF-8 the bars are full blocks in foreground roles, hottest first (a
# full block shows its foreground: scale_4 would draw the top bar white)
printf '%s\n' '<Enter>' 't' ':dump-attrs attrs.txt' 'Q' >"$T/keys"
RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=140 LINES=40 LC_ALL=C.UTF-8 "$RUNG" tui -C "$REPO" >/dev/null 2>&1 ||
	fail "rung tui (UTF-8) exited $?"
grep -q "long scoreboard *53.3% *{scale_3}█" "$T/attrs.txt" || fail "top bar's role: $(grep -m1 'long scoreboard' "$T/attrs.txt")"
grep -q "selected (issued) *24.4% *{scale_2}█" "$T/attrs.txt" || fail "second bar's role: $(grep -m1 'selected' "$T/attrs.txt")"
# sorted: only the three sampled lines, most samples first
s=$(grep -E "^[* ] +00[0-9a-f]{2} " "$T/sorted.txt" | awk '{print ($1 == "*") ? $2 : $1}' | tr '\n' ' ')
[ "$s" = "0010 0020 0030 " ] || fail "sorted order: '$s': $(cat "$T/sorted.txt")"
grep -q "by samples; ] next line" "$T/sorted.txt" || fail "no sort note"
# ]: the first marked line comes to the third row of the pane
grep -qE "^\* +0010 " <<<"$(sed -n 4p "$T/jumped.txt")" || fail "] did not jump to 0x10: $(head -6 "$T/jumped.txt")"
# ] again: the second most sampled (0x20); [ goes back to the first
tui '<Enter>' 't' ']' ']' ':dump j2.txt' '[' ':dump j3.txt' ']' ']' ']' ':dump j4.txt' 'Q'
grep -qE "^\* +0020 " <<<"$(sed -n 4p "$T/j2.txt")" || fail "] ] did not go to 0x20: $(head -6 "$T/j2.txt")"
grep -q "stalls: line 2 of the 2 most sampled" "$T/j2.txt" || fail "no rank message: $(tail -2 "$T/j2.txt")"
# the position on the status line follows the jump (#28 D-20: it stayed at 1/N until the next j)
tail -1 "$T/j2.txt" | grep -qE " 1/[0-9]+ *$" && fail "the position did not follow ]: $(tail -1 "$T/j2.txt")"
grep -qE "^\* +0010 " <<<"$(sed -n 4p "$T/j3.txt")" || fail "[ did not go back to 0x10: $(head -6 "$T/j3.txt")"
grep -q "stalls: that was the last of the 2 most sampled lines" "$T/j4.txt" || fail "past the last: $(tail -2 "$T/j4.txt")"
# compare, on the demo's recorded results (the H200's samples): a = the float4
# step, b = the warp-tiled one; each side's stall share per line, and on
# changed lines the share's change (b - a)
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || fail "rung demo"
printf '%s\n' 'j' 'j' 'j' 'j' 'a' 'k' 'k' 'b' 'c' ':until 120 SASS diff a -> b:' ':dump cmp.txt' 'Q' >"$T/keys"
RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=160 LINES=200 LC_ALL=C "$RUNG" tui --no-auto-eval -C "$T/demo" sgemm \
	>"$T/out" 2>&1 || fail "rung tui exited $?: $(cat "$T/out")"
c=$(cat "$T/cmp.txt")
grep -q "compare a 8c4f713 .. b df16e84  SASS diff" <<<"$c" || fail "compare title: $(head -2 <<<"$c")"
grep -qE "SASS diff a -> b: [0-9]+ hunks?, .*; stall share per line and its change" <<<"$c" || fail "compare header: $c"
grep -qE "[0-9]\.[0-9]%\*? " <<<"$c" || fail "no stall share column"
grep -qE "[-+][0-9]+\.[0-9]%st" <<<"$c" || fail "no stall share change on a changed line"
echo ok
