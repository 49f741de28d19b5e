#!/bin/bash
# The error map in the workbench (docs/CHECKS.md, "The error map"), on results
# imported from tests/fixtures/errmap/ (recorded, as the demo's are): the
# detail draws the selected case's map (blocks in UTF-8, level characters in
# ASCII, each in its scale role), `m` selects the next case with errors, and
# compare puts the maps of a and b side by side.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC TERM=xterm-256color
unset NO_COLOR
. "$RUNG_SRC/tests/sh/lib/tui_repo.sh"
fail() { echo "FAIL: $*"; exit 1; }

# HEAD: the tail bug (columns 240..254 of 127 x 255 at 500x, and a second case
# with one bad tile and one unwritten); HEAD~2: everything slightly off.
head=$(git -C "$REPO" rev-parse HEAD) first=$(git -C "$REPO" rev-parse HEAD~2)
sed "s/@REV@/$head/g" "$RUNG_SRC/tests/fixtures/errmap/tail.jsonl" >"$T/tail.jsonl"
sed "s/@REV@/$first/g" "$RUNG_SRC/tests/fixtures/errmap/slight.jsonl" >"$T/slight.jsonl"
"$RUNG" import -C "$REPO" "$T/tail.jsonl" >/dev/null || fail "import tail"
"$RUNG" import -C "$REPO" "$T/slight.jsonl" >/dev/null || fail "import slight"
# --json carries the maps (here the recorded result of HEAD)
"$RUNG" log -C "$REPO" --json >"$T/log.json" || fail "rung log --json"
grep -qF '"map":{"rows":64,"cols":64,"h":127,"w":255,"tile":[2,4],"levels":".{60}3333.{60}3333' "$T/log.json" ||
	fail "no map in --json: $(head -c 600 "$T/log.json")"

tui() { # LOCALE KEYS...
	local loc=$1
	shift
	printf '%s\n' "$@" >"$T/keys"
	RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=100 LINES=50 LC_ALL=$loc "$RUNG" tui -C "$REPO" \
		>"$T/out" 2>&1 || fail "rung tui exited $?: $(cat "$T/out")"
}
dots() { printf "%${1}s" "" | sed "s/ /$2/g"; }

# ASCII: the levels themselves; 64 x 64 tiles of 2 x 4, two tile rows per line
tui C '<Enter>' ':dump ascii.txt' 'm' ':dump ascii_m.txt' 'Q'
a=$(cat "$T/ascii.txt")
grep -q "error map  C M=127,N=255,K=63 seed 1  (case 1 of 2 with errors; m: next)" <<<"$a" || fail "map header: $a"
grep -q "127 x 255 elements, tiles of 2 x 4, one character 4 x 4" <<<"$a" || fail "map sizes"
row="$(dots 60 .)3333"
[ "$(grep -c "^      $row\$" <<<"$a")" -ge 20 ] || fail "tail columns not drawn: $a"
grep -q "^    0 $row\$" <<<"$a" || fail "first row label"
grep -q "[1-9U]" <<<"$(grep "^      \.\.\." <<<"$a" | cut -c7-66)" && fail "a tile left of the tail is bad"
# m: the next case, one bad tile (level 5) and one unwritten
m=$(cat "$T/ascii_m.txt")
grep -q "error map  C M=129,N=130,K=17 seed 1  (case 2 of 2 with errors" <<<"$m" || fail "m did not move: $m"
grep -q "^      $(dots 30 .)5$(dots 13 .)\$" <<<"$m" || fail "one bad tile"
grep -q "^  128 $(dots 43 .)U\$" <<<"$m" || fail "unwritten tile"

# UTF-8: blocks, in the scale roles
tui C.UTF-8 '<Enter>' ':dump utf8.txt' ':dump-attrs utf8_attrs.txt' '<Space>' ':dump utf8_2.txt' 'Q'
grep -q "^      $(dots 60 ·)▒▒▒▒\$" "$T/utf8.txt" || fail "blocks: $(cat "$T/utf8.txt")"
grep -q "{map_ok}$(dots 60 ·){scale_2}▒▒▒▒" "$T/utf8_attrs.txt" || fail "roles: $(grep -m2 '▒' "$T/utf8_attrs.txt")"
grep -q "· within tolerance  ░ <=10x  ▒ <=1e3x  ▓ <=1e6x  █ more  U unwritten N NaN I Inf" "$T/utf8_2.txt" ||
	fail "legend: $(cat "$T/utf8_2.txt")"

# compare a = HEAD~2 (slightly off everywhere) .. b = HEAD (tail): side by side, 2 x 2 tiles a character
tui C '<End>' 'a' '<Home>' 'b' 'c' ':dump compare.txt' 'Q'
c=$(cat "$T/compare.txt")
grep -q "error map a | b  C M=127,N=255,K=63 seed 1" <<<"$c" || fail "compare map header: $c"
[ "$(grep -c "^      $(dots 32 1)    $(dots 30 .)33\$" <<<"$c")" -ge 10 ] || fail "maps not side by side: $c"
echo "ok"
