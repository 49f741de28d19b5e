#!/bin/bash
# The plot screen (#32) end to end in tmux on the demo, in colour: p opens it,
# the counted versions (●, point: cyan), the failed ones (✗, failed: red), the
# best-so-far line and the goal line (┈, ceiling: yellow) reach the terminal
# in the theme's colours; after a resize it is laid out again at the new
# size; the title bar carries the stop rule's state (softmax: STOP, in the
# best role's yellow). Skips without tmux.
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
start() {
	local s=$1 task=$2
	tmux -S "$SOCK" -f /dev/null new-session -d -s "$s" -x 110 -y 30 \
		"env -u NO_COLOR XDG_CONFIG_HOME='$T/cfg' LC_ALL=C.UTF-8 TERM=screen-256color '$RUNG' tui --no-auto-eval -C '$T/d' $task; echo rung-exit=\$?; sleep 30" ||
		fail "tmux new-session"
}
screen() { tmux -S "$SOCK" capture-pane -p -t "$1"; }
styled() { tmux -S "$SOCK" capture-pane -p -e -t "$1"; }
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

start g sgemm
# the title's stop rule once the rows' results are in (they follow the first frame)
wait_for g "CONTINUE  \[versions\]" || fail "versions table not shown"
screen g | head -1 | grep -q "T switches): 11 versions, .*  CONTINUE  \[versions\]$" ||
	fail "title bar: $(screen g | head -1)"
tmux -S "$SOCK" send-keys -t g p
wait_for g "\[progress\]" || fail "p did not open the plot"
s=$(styled g)
grep -q "^CONTINUE: best 1[0-9]% of the TF32 tensor roof (target 80%)" <<<"$(screen g)" || fail "no stop line: $(screen g | sed -n 2p)"
grep -qF "${E}[36m●" <<<"$s" || fail "counted versions not cyan: $(cat -v <<<"$s" | head -20)"
grep -qF "${E}[31m✗" <<<"$s" || fail "failed versions not red"
grep -qF "${E}[33m┈" <<<"$s" || fail "goal line not yellow"
LC_ALL=C grep -qE "${E}\\[([0-9;]*;)?33m"$'\xe2[\xa0-\xa3]' <<<"$s" || fail "best-so-far line not yellow braille"
[ "$(screen g | grep -c '┈┈┈┈')" = 1 ] || fail "not one goal line"
last=$(screen g | sed -n 29p)
grep -q "1cb25ba ─.* 11 versions, oldest to newest → ─.* [0-9a-f]\{7\}$" <<<"$last" || fail "axis at 110x30: $last"
# resized: laid out again, the axis on the new last line, 72 columns wide
tmux -S "$SOCK" resize-window -t g -x 72 -y 20 || fail "resize-window"
for _ in $(seq 100); do
	screen g | sed -n 19p | grep -q "^          1cb25ba ─.* [0-9a-f]\{7\}$" && break
	sleep 0.1
done
last=$(screen g | sed -n 19p)
grep -q "^          1cb25ba ─.* [0-9a-f]\{7\}$" <<<"$last" || fail "not laid out again at 72x20: $(screen g)"
[ "$(printf '%s' "$last" | wc -m)" = 72 ] || fail "axis not 72 columns: $last"
styled g | grep -qF "${E}[31m✗" || fail "no colour after the resize"
tmux -S "$SOCK" send-keys -t g p
wait_for g "\[versions\]" || fail "p again did not go back"
tmux -S "$SOCK" send-keys -t g q
wait_for g "^rung-exit=" || fail "q did not quit"
screen g | grep -q "^rung-exit=0$" || fail "exit status: $(screen g | grep rung-exit)"

start s softmax
wait_for s "STOP: goal met" || fail "softmax versions not shown"
title=$(styled s | head -1)
grep -qE "${E}\\[([0-9;]*;)?33m(${E}\\[[0-9;]*m)*STOP: goal met" <<<"$title" ||
	fail "softmax title: $(cat -v <<<"$title")"
echo "ok"
