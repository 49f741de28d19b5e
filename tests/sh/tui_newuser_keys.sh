#!/bin/bash
# Keys and glyphs a new user found saying the wrong thing (#28 D-7, D-10,
# D-11, D-20), keys from a script on the demo repository (no GPU needed):
#  - D-11: the detail marks recorded rungs ○ as the table does, not ↺ (reused);
#  - D-10: m brings the error map it names into view;
#  - D-7: u in the source view leaves it for the ncu pages (the screen, not only
#    the status line), and l from there opens the source view again;
#  - Ctrl-C quits (it said "unknown key Ctrl-C"); n says when a search wraps.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>"$T/err" || fail "rung demo: $(cat "$T/err")"
export XDG_CONFIG_HOME=$T/config
tui() {
	printf '%b' "$1" > "$T/keys"
	(cd "$T/demo" && COLUMNS=120 LINES=30 RUNG_TUI_DUMP_DIR="$T" RUNG_TUI_SCRIPT="$T/keys" timeout 60 "$RUNG" tui --no-auto-eval \
		</dev/null >/dev/null 2>"$T/err")
}
tui '<Enter>\n:dump d.txt\nq\nj\nj\nj\n<Enter>\nm\n:dump m.txt\nq\ng\n<Enter>\nl\n:sleep 2\nu\n:dump u.txt\nl\n:dump l.txt\nq\n/ s g e m m <Enter>\nn\n:dump n.txt\nG\nn\n:dump w.txt\n<C-c>\n:dump never.txt\n' ||
	fail "rung tui: exit $? ($(cat "$T/err"))"
grep -q '^compile  ○ ok' "$T/d.txt" || fail "D-11: $(grep '^compile' "$T/d.txt")"
grep -q '↺' "$T/d.txt" && fail "D-11: a recorded rung drawn as reused: $(grep '↺' "$T/d.txt")"
grep -q '^error map  C .*(case 2 of 9 with errors; m: next)' "$T/m.txt" || fail "D-10: the map is not in view: $(head -3 "$T/m.txt")"
head -1 "$T/u.txt" | grep -q '^7ab6146 ncu sections' || fail "D-7: u left the source view on screen: $(head -1 "$T/u.txt")"
tail -1 "$T/u.txt" | grep -q '^detail: ncu sections' || fail "D-7: $(tail -1 "$T/u.txt")"
head -1 "$T/l.txt" | grep -q '^7ab6146 source sgemm.cu' || fail "D-7: l from the ncu page: $(head -1 "$T/l.txt")"
tail -1 "$T/w.txt" | grep -q '^/sgemm: line [0-9]* (search wrapped to the top)' || fail "n at the bottom: $(tail -1 "$T/w.txt")"
tail -1 "$T/n.txt" | grep -q 'wrapped' && fail "n in the middle says wrapped: $(tail -1 "$T/n.txt")"
[ -e "$T/never.txt" ] && fail "Ctrl-C did not quit"
echo "ok"
