#!/bin/bash
# Room for code at common widths (#28 D-5), keys from a script, on the demo
# repository (the H200's recorded counts and stall samples; no GPU needed):
#  - the source view (l) keeps 40 columns of code at 120 columns (it had 3),
#    the metric columns give way, and Right scrolls the code only: the line
#    numbers stay;
#  - at 200 columns every column is there and the top stall is named whole;
#  - at 80x24 the SASS pane (t) shows whole instructions (it cut them at 10).
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>"$T/err" || fail "rung demo: $(cat "$T/err")"
export XDG_CONFIG_HOME=$T/config
tui() { # COLSxLINES keys
	printf '%b' "$2" > "$T/keys"
	(cd "$T/demo" && COLUMNS=${1%x*} LINES=${1#*x} RUNG_TUI_DUMP_DIR="$T" RUNG_TUI_SCRIPT="$T/keys" timeout 60 "$RUNG" tui \
		--no-auto-eval </dev/null >/dev/null 2>"$T/err") || fail "rung tui $1: exit $? ($(cat "$T/err"))"
}
# the best version (53c0aa4, the first row): its source opens at line 27, the hottest
# (each script waits until the pane shows what is checked, 20 s at most)
tui 120x36 '<Enter>\nl\n:until 20 return __uint_as_float(r);\n:dump s120.txt\n<Right>\n<Right>\n<Right>\n<Right>\n:dump s120r.txt\nQ\n'
left=$(grep '^>   27' "$T/s120.txt" | sed 's/│.*//')
[ -n "$left" ] || fail "120: no cursor line 27: $(cat "$T/s120.txt")"
grep -qF 'asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r)' <<<"$left" || fail "120: the code is cut: $left"
grep -q '^    28  *  return __uint_as_float(r);' "$T/s120.txt" || fail "120: $(grep '^    28' "$T/s120.txt")"
grep -q '^    28 ' "$T/s120r.txt" || fail "Right scrolled the line numbers away: $(grep '28' "$T/s120r.txt" | head -2)"
grep -q '^>   27   39826  13.0%  , %1;" : "=r"(r) : "f"(x));' "$T/s120r.txt" || fail "Right did not scroll the code: $(grep '^>' "$T/s120r.txt")"

tui 200x50 '<Enter>\nl\n:until 20 selected (issued)\n:dump s200.txt\nQ\n'
grep -q '^  line  sass    count      %  stalls      %  top stall' "$T/s200.txt" || fail "200: $(sed -n 2p "$T/s200.txt")"
grep -q '^>   27 .* selected (issued) ' "$T/s200.txt" || fail "200: the stall name is cut: $(grep '^>' "$T/s200.txt")"

tui 80x24 '<Enter>\nt\n:until 20 ISETP.GE.AND P3, PT, R3, 0x1, PT\n:dump t80.txt\nQ\n'
grep -q ' ISETP.GE.AND P3, PT, R3, 0x1, PT$' "$T/t80.txt" || fail "80: the SASS is cut: $(grep '0060' "$T/t80.txt")"
echo "ok"
