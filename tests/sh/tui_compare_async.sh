#!/bin/bash
# The compare screen makes its PTX and SASS in the background (#12 item 14):
# with an nvdisasm that takes 2 s per listing (RUNG_NVDISASM: a script of this
# test), `c` shows the screen at once with "computing SASS diff... (Esc
# cancels)", Esc goes back at once, the keys typed meanwhile are drawn, and
# the diff arrives when both listings are made. The real binary in tmux on a
# throwaway repository; skips without tmux.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v tmux >/dev/null || { echo "tmux not installed: skipping"; exit 77; }
export TZ=UTC
. "$RUNG_SRC/tests/sh/lib/tui_repo.sh"
SOCK=$T/tmux.sock # inside $T (tui_repo.sh removes it)
fail() { echo "FAIL: $*"; echo "--- screen:"; screen; tmux -S "$SOCK" kill-server 2>/dev/null; exit 1; }
screen() { tmux -S "$SOCK" capture-pane -p -t t 2>/dev/null; }
# wait until the screen shows $1 ($2 tenths of a second at most)
wait_for() {
	for _ in $(seq "$2"); do
		screen | grep -q -- "$1" && return 0
		sleep 0.1
	done
	return 1
}
cat > "$T/nvdisasm" <<'SH'
#!/bin/sh
# a slow nvdisasm: 2 s, then a short listing
sleep 2
printf '\t.target\tsm_90\n\t.section\t.text.sgemm,"ax",@progbits\n        .global         sgemm\nsgemm:\n.text.sgemm:\n'
printf '        /*0000*/                   LDC R1, c[0x0][0x28] ;\n'
printf '        /*0010*/                   FFMA R2, R3, R3, R2 ;\n'
printf '        /*0020*/                   EXIT ;\n'
SH
chmod +x "$T/nvdisasm"
tmux -S "$SOCK" -f /dev/null new-session -d -s t -x 120 -y 30 \
	"env LC_ALL=C.UTF-8 TERM=screen-256color RUNG_NVDISASM='$T/nvdisasm' '$RUNG' tui --no-auto-eval -C '$REPO'; sleep 30" ||
	fail "tmux"
wait_for "\[versions\]" 50 || fail "versions table not shown"
tmux -S "$SOCK" send-keys -t t c
# at once (the listings take 4 s and more): the screen, with the progress line
wait_for "computing SASS diff... (Esc cancels)" 15 || fail "no progress line within 1.5 s of c"
s=$(screen)
grep -q "\[compare\]" <<<"$s" || fail "the compare screen is not shown while it computes"
grep -q "^median " <<<"$s" || fail "the metrics are not shown while the diff computes"
# Esc cancels at once, and the key typed after it is drawn
tmux -S "$SOCK" send-keys -t t Escape
wait_for "\[versions\]" 10 || fail "Esc did not go back within 1 s"
tmux -S "$SOCK" send-keys -t t j
wait_for " 2/3 *$" 10 || fail "j after Esc not drawn within 1 s"
# again: the diff comes when both listings are made (the one made meanwhile is kept)
tmux -S "$SOCK" send-keys -t t c
wait_for "\[compare\]" 10 || fail "c did not open the compare screen within 1 s"
tmux -S "$SOCK" send-keys -t t j
wait_for "SASS diff a -> b: " 150 || fail "the SASS diff never came"
s=$(screen)
grep -q "computing SASS diff" <<<"$s" && fail "the progress line stayed"
grep -q "^instruction mix (a>b)" <<<"$s" || fail "no instruction mix once the listings are made"
tmux -S "$SOCK" send-keys -t t Q
for _ in $(seq 50); do
	screen | grep -q "\[compare\]" || break
	sleep 0.1
done
screen | grep -q "\[compare\]" && fail "Q did not quit"
tmux -S "$SOCK" kill-server 2>/dev/null
echo "ok"
