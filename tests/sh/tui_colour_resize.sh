#!/bin/bash
# End to end in tmux on the demo repository: the themed roles reach the terminal
# as colours (SGR codes in capture-pane -e), NO_COLOR gives attributes only, and
# after a terminal resize the keys still work (j j Enter opens the detail of the
# third version at the new size) and q q exits 0. Skips without tmux.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v tmux >/dev/null || { echo "tmux not installed: skipping"; exit 77; }
export TZ=UTC
T=$(mktemp -d)
SOCK=$T/tmux.sock # inside $T: no socket file is left behind
trap 'tmux -S "$SOCK" kill-server 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$RUNG" demo --no-tui "$T/d" >"$T/demo.out" 2>&1 || fail "rung demo: $(cat "$T/demo.out")"
mkdir "$T/cfg"

# start SESSION COLS LINES ENV...: rung tui on the demo in a detached session; the
# shell prints rung's exit status when it ends
start() {
	local s=$1 x=$2 y=$3
	shift 3
	tmux -S "$SOCK" -f /dev/null new-session -d -s "$s" -x "$x" -y "$y" \
		"env -u NO_COLOR XDG_CONFIG_HOME='$T/cfg' LC_ALL=C.UTF-8 TERM=screen-256color $* '$RUNG' tui -C '$T/d' sgemm; echo rung-exit=\$?; sleep 30" ||
		fail "tmux new-session"
}
screen() { tmux -S "$SOCK" capture-pane -p -t "$1"; }
styled() { tmux -S "$SOCK" capture-pane -p -e -t "$1"; }
# wait_for SESSION PATTERN: until the screen shows it (10 s at most)
wait_for() {
	for _ in $(seq 100); do
		screen "$1" | grep -q -- "$2" && return 0
		sleep 0.1
	done
	echo "--- screen of $1 (waiting for '$2'):"
	screen "$1"
	return 1
}
E=$'\033'
# an SGR colour parameter (30-37, 40-47, 90-97, 100-107, 38;5;N, 48;5;N) in any sequence
COLOUR_RE="$E\\[([0-9;]*;)?(3[0-7]|4[0-7]|9[0-7]|10[0-7]|38;5;[0-9]+|48;5;[0-9]+)[;m]"

start c 110 20
wait_for c "\[versions\]" || fail "versions table not shown"
wait_for c "○○○○" || fail "the recorded results not shown" # they follow the first frame
s=$(styled c)
title=$(grep -m1 "rung sgemm" <<<"$s")
# default theme: title = black on cyan, failed = red, recorded = 139, dim = 244
grep -qF "${E}[30m" <<<"$title" || fail "title not black: $(cat -v <<<"$title")"
grep -qF "${E}[46m" <<<"$title" || fail "title not on cyan: $(cat -v <<<"$title")"
grep -qF "${E}[31m✗" <<<"$s" || fail "failed rung glyph not red: $(cat -v <<<"$s")"
grep -qF "${E}[38;5;139m○" <<<"$s" || fail "recorded rung glyph not colour 139"
grep -qF "${E}[38;5;244m" <<<"$s" || fail "dim hash not colour 244"
status=$(tail -1 <<<"$s")
grep -qF "${E}[44m" <<<"$status" || fail "status bar not on blue: $(cat -v <<<"$status")"
# the third version: j j Enter opens its detail after the resize
third=$(screen c | sed -n 5p | grep -oE '\b[0-9a-f]{7}\b' | head -1)
[[ $third =~ ^[0-9a-f]{7}$ ]] || fail "third row has no hash: $(screen c | sed -n 5p)"

tmux -S "$SOCK" resize-window -t c -x 90 -y 16 || fail "resize-window"
for _ in $(seq 100); do
	[ "$(screen c | wc -l)" = 16 ] && screen c | head -1 | grep -q "^.\{80\}\[versions\]$" && break
	sleep 0.1
done
screen c | head -1 | grep -q "^.\{80\}\[versions\]$" || fail "not redrawn at 90x16: $(screen c)"
styled c | grep -qE "$COLOUR_RE" || fail "no colour after the resize"
tmux -S "$SOCK" send-keys -t c j j Enter
wait_for c "\[detail\]" || fail "j j Enter did not open the detail after a resize"
screen c | head -1 | grep -q "^$third .*\[detail\]$" || fail "detail is not of $third: $(screen c | head -1)"
[ "$(screen c | head -1 | wc -c)" = 91 ] || fail "detail not 90 columns wide"
tmux -S "$SOCK" send-keys -t c q
wait_for c "\[versions\]" || fail "q did not go back to the versions"
tmux -S "$SOCK" send-keys -t c q
wait_for c "^rung-exit=" || fail "q did not quit"
screen c | grep -q "^rung-exit=0$" || fail "exit status: $(screen c | grep rung-exit)"

# NO_COLOR: attributes (reverse title and status) and no colour at all
start m 110 20 NO_COLOR=1
wait_for m "\[versions\]" || fail "versions table not shown with NO_COLOR"
wait_for m "○○○○" || fail "the recorded results not shown with NO_COLOR"
s=$(styled m)
grep -qE "$COLOUR_RE" <<<"$s" && fail "NO_COLOR still has colours: $(grep -E "$COLOUR_RE" <<<"$s" | head -2 | cat -v)"
grep -m1 "rung sgemm" <<<"$s" | grep -qE "$E\\[([0-9;]*;)?7[;m]" || fail "NO_COLOR title not reverse"
tmux -S "$SOCK" send-keys -t m Q
wait_for m "^rung-exit=0" || fail "Q did not quit with NO_COLOR"
echo "ok"
