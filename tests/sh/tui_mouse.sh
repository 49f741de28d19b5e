#!/bin/bash
# The mouse wheel in a real terminal (tmux): the wheel reports a terminal sends
# (X10 encoding for TERM=screen-256color, SGR 1006 for xterm-256color) are
# written into the pane as a terminal would, and the versions table scrolls 3
# lines per notch with the cursor kept on screen. Skips without tmux.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v tmux >/dev/null || { echo "tmux not installed: skipping"; exit 77; }
export TZ=UTC
T=$(mktemp -d)
SOCK=$T/tmux.sock # inside $T: no socket file is left behind
trap 'tmux -S "$SOCK" kill-server 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$RUNG" demo --no-tui "$T/d" >"$T/demo.out" 2>&1 || fail "rung demo: $(cat "$T/demo.out")"

screen() { tmux -S "$SOCK" capture-pane -p -t "$1"; }
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
# the ids of the versions, newest first, as the table lists them
ids=($("$RUNG" log -C "$T/d" --task sgemm 2>/dev/null | grep -oE '^[0-9a-f]{7} '))
[ ${#ids[@]} = 11 ] || fail "demo versions: ${ids[*]}"

# wheel SESSION up|down: one notch over row 4, column 10, in the session's encoding
for term in screen-256color xterm-256color; do
	s=${term%%-*}
	tmux -S "$SOCK" -f /dev/null new-session -d -s "$s" -x 100 -y 8 \
		"env LC_ALL=C.UTF-8 TERM=$term '$RUNG' tui -C '$T/d' sgemm; echo rung-exit=\$?; sleep 30" || fail "tmux"
	wait_for "$s" "\[versions\]" || fail "$term: versions table not shown"
	wait_for "$s" " 1/11$" || fail "$term: no position"
	wait_for "$s" "○○○○" || fail "$term: the recorded results not shown" # they follow the first frame
	wheel() {
		if [ "$term" = screen-256color ]; then
			# X10: ESC [ M, button 64 (up) or 65 (down) + 32, column + 33, row + 33
			tmux -S "$SOCK" send-keys -t "$s" -H 1b 5b 4d "$([ "$1" = up ] && echo 60 || echo 61)" 2b 25
		else
			# SGR: ESC [ < button ; column ; row M (1-based)
			tmux -S "$SOCK" send-keys -t "$s" -l $'\033'"[<$([ "$1" = up ] && echo 64 || echo 65);11;5M"
		fi
	}
	wheel down
	wait_for "$s" " 4/11$" || fail "$term: the wheel did not scroll down"
	screen "$s" | sed -n 3p | grep -q " ${ids[3]} " || fail "$term: 4th version not first: $(screen "$s")"
	wheel down
	wheel down
	wait_for "$s" " 7/11$" || fail "$term: the wheel did not scroll to the end"
	screen "$s" | sed -n 7p | grep -q " ${ids[10]} " || fail "$term: last version not shown: $(screen "$s")"
	wheel up
	for _ in $(seq 50); do
		screen "$s" | sed -n 3p | grep -q " ${ids[3]} " && break
		sleep 0.1
	done
	screen "$s" | sed -n 3p | grep -q " ${ids[3]} " || fail "$term: the wheel did not scroll up: $(screen "$s")"
	screen "$s" | grep -q " 7/11$" || fail "$term: the cursor moved on scrolling up: $(screen "$s")"
	tmux -S "$SOCK" send-keys -t "$s" Q
	wait_for "$s" "^rung-exit=0" || fail "$term: Q did not quit"
done
echo "ok"
