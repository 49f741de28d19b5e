#!/bin/bash
# End to end: the real binary in tmux on a throwaway repository; keys are sent
# with send-keys and the screen read with capture-pane. Skips without tmux.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v tmux >/dev/null || { echo "tmux not installed: skipping"; exit 77; }
export TZ=UTC
. "$RUNG_SRC/tests/sh/lib/tui_repo.sh"
fail() { echo "FAIL: $*"; tmux -S "$SOCK" kill-server 2>/dev/null; exit 1; }
SOCK=$T/tmux.sock # inside $T (tui_repo.sh removes it): no socket file is left behind
tmux -S "$SOCK" -f /dev/null new-session -d -s t -x 100 -y 24 \
	"env LC_ALL=C.UTF-8 TERM=screen-256color '$RUNG' tui -C '$REPO'; sleep 30" || fail "tmux"
screen() { tmux -S "$SOCK" capture-pane -p -t t; }
# wait until a screen shows $1 (5 s at most)
wait_for() {
	for _ in $(seq 50); do
		screen | grep -q -- "$1" && return 0
		sleep 0.1
	done
	echo "--- screen:"; screen; return 1
}
wait_for "\[versions\]" || fail "versions table not shown"
s=$(screen)
grep -q "naive sgemm" <<<"$s" || fail "no naive sgemm row"
grep -q "tile it" <<<"$s" || fail "no tile it row"
grep -q "hash .*subject" <<<"$s" || fail "no column header"
grep -q '\^\[' <<<"$s" || fail "escape in subject not shown inert"
tmux -S "$SOCK" send-keys -t t '?'
wait_for "\[help\]" || fail "help not shown"
wait_for "move-down" || fail "help has no keys"
tmux -S "$SOCK" send-keys -t t 'q'
wait_for "\[versions\]" || fail "q did not return to versions"
tmux -S "$SOCK" send-keys -t t 'j' 'Enter'
wait_for "\[detail\]" || fail "Enter did not open the detail"
tmux -S "$SOCK" send-keys -t t 'Escape'
wait_for "\[versions\]" || fail "Esc did not go back"
tmux -S "$SOCK" resize-window -t t -x 20 -y 6 2>/dev/null
sleep 0.3
tmux -S "$SOCK" send-keys -t t 'Q'
for _ in $(seq 50); do
	screen | grep -q "versions\]" || break
	sleep 0.1
done
screen | grep -q "\[versions\]" && fail "Q did not quit"
tmux -S "$SOCK" kill-server 2>/dev/null
echo "ok"
