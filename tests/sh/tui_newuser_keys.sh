#!/bin/bash
# Keys and glyphs a new user found saying the wrong thing (#28 D-7, D-10,
# D-11, D-20), keys from a script on the demo repository (no GPU needed):
#  - D-11: the detail marks recorded rungs ○ as the table does, not ↺ (reused);
#  - D-10: m brings the error map it names into view;
#  - D-7: u in the source view leaves it for the ncu pages (the screen, not only
#    the status line), and l from there opens the source view again;
#  - Ctrl-C quits (it said "unknown key Ctrl-C"); n says when a search wraps, and
#    where a match is when the table does not show it (a note, a cut subject);
#  - D-6: t and l say "computing the SASS" at once and make it in the background
#    (the screen froze for 1.5-3 s), and the SASS comes when it is made.
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
# D-20: the detail does not repeat its title (the whole commit id instead), and the seeds are
# said once, numbered, so that a case's metrics are not cut at 120 columns
sed -n 2p "$T/d.txt" | grep -q '^commit 53c0aa4[0-9a-f]\{33\}  rung-agent, 2025-06-02 12:55 UTC$' || fail "detail line 2: $(sed -n 2p "$T/d.txt")"
grep -q '^53c0aa430174 ' "$T/d.txt" && fail "the title repeated"
grep -q '^  seeds 1 = [0-9]\{15,\}, 2 = [0-9]\{15,\}$' "$T/d.txt" || fail "the seeds: $(grep seed "$T/d.txt" | head -3)"
grep -q '^  ✓ C M=4096,N=4096,K=4096 seed 1: .* cos 1\.000000 ' "$T/d.txt" || fail "a case cut: $(grep 'M=4096' "$T/d.txt")"
grep -q '^error map  C .*(case 2 of 9 with errors; m: next)' "$T/m.txt" || fail "D-10: the map is not in view: $(head -3 "$T/m.txt")"
# D-20: ab5b6f7's unwritten elements are the poison it left, not a "got nan" beside "nan 0"
tui 'j\nj\nj\n<Enter>\n:dump p.txt\nQ\n' || fail "rung tui: exit $? ($(cat "$T/err"))"
grep -q '^      bad (0,252) \[252\]: never written (poison left), expected 2.70095$' "$T/p.txt" || fail "poison: $(grep 'bad (' "$T/p.txt" | head -2)"
grep -q 'got nan' "$T/p.txt" && fail "poison read as nan: $(grep 'got nan' "$T/p.txt" | head -1)"
head -1 "$T/u.txt" | grep -q '^53c0aa4 ncu sections' || fail "D-7: u left the source view on screen: $(head -1 "$T/u.txt")"
tail -1 "$T/u.txt" | grep -q '^detail: ncu sections' || fail "D-7: $(tail -1 "$T/u.txt")"
head -1 "$T/l.txt" | grep -q '^53c0aa4 source sgemm.cu' || fail "D-7: l from the ncu page: $(head -1 "$T/l.txt")"
tail -1 "$T/w.txt" | grep -q '^/sgemm: line [0-9]* (search wrapped to the top)' || fail "n at the bottom: $(tail -1 "$T/w.txt")"
tail -1 "$T/n.txt" | grep -q 'wrapped' && fail "n in the middle says wrapped: $(tail -1 "$T/n.txt")"
[ -e "$T/never.txt" ] && fail "Ctrl-C did not quit"
# D-20: a match in text the table does not show says where it is (it looked like a wrong match)
tui '/ f l o a t 4 <Enter>\n:dump f1.txt\nn\n:dump f2.txt\n/ N e x t <Enter>\n:dump f3.txt\nQ\n' || fail "rung tui: exit $? ($(cat "$T/err"))"
tail -1 "$T/f1.txt" | grep -q '^/float4: line 3, in its subject, past the cut ' || fail "hidden subject match: $(tail -1 "$T/f1.txt")"
grep -q '^ .* df16e84 ' "$T/f1.txt" || fail "f1: $(cat "$T/f1.txt")"
# D-20: one unit in the median column (softmax: "180.7us" stood beside "1.653ms")
tui 'T\n:dump soft.txt\nQ\n' || fail "rung tui: exit $? ($(cat "$T/err"))"
grep -q ' 60349e3 .*  0\.1807ms ' "$T/soft.txt" || fail "median in ms: $(grep 60349e3 "$T/soft.txt")"
grep -q ' 4eea44c .*  1\.653ms ' "$T/soft.txt" || fail "median in ms: $(grep 4eea44c "$T/soft.txt")"
grep -q '[0-9]us ' "$T/soft.txt" && fail "a median in us beside ms: $(grep '[0-9]us ' "$T/soft.txt")"
# D-20: the rungs after a failed one read '-' whichever rung failed (a failed run left them blank)
grep -q ' 77845e9 .* ○✗--  ' "$T/f1.txt" || fail "after a failed run: $(grep 77845e9 "$T/f1.txt")"
grep -q ' ab5b6f7 .* ○○✗-  ' "$T/f1.txt" || fail "after a failed check: $(grep ab5b6f7 "$T/f1.txt")"
tail -1 "$T/f2.txt" | grep -q '^/float4: line 5 ' || fail "a shown match says nothing more: $(tail -1 "$T/f2.txt")"
tail -1 "$T/f3.txt" | grep -q '^/Next: line [0-9]*, in its note (the detail shows it)' || fail "note match: $(tail -1 "$T/f3.txt")"

# D-20: "smallest error first" puts a failed check after every passing version
tui 's\ns\n:dump sort.txt\nQ\n' || fail "rung tui: exit $? ($(cat "$T/err"))"
tail -1 "$T/sort.txt" | grep -qi 'error' || fail "sort: not by error: $(tail -1 "$T/sort.txt")"
fl=$(grep -n ' ab5b6f7 ' "$T/sort.txt" | cut -d: -f1)
pl=$(grep -n ' 53c0aa4 ' "$T/sort.txt" | cut -d: -f1)
[ -n "$fl" ] && [ -n "$pl" ] && [ "$fl" -gt "$pl" ] || fail "sort: the failed ab5b6f7 (line $fl) before the passing 53c0aa4 (line $pl)"

# D-20: a cut title or status line ends in an ellipsis, not mid-word
printf ':dump narrow.txt\nQ\n' > "$T/keys"
(cd "$T/demo" && COLUMNS=50 LINES=10 RUNG_TUI_DUMP_DIR="$T" RUNG_TUI_SCRIPT="$T/keys" timeout 60 "$RUNG" tui --no-auto-eval \
	</dev/null >/dev/null 2>"$T/err") || fail "rung tui 50x10: $(cat "$T/err")"
head -1 "$T/narrow.txt" | grep -q '^rung sgemm (task 1/2, T switches): 1\.\.\. \[versions\]$' || fail "title: $(head -1 "$T/narrow.txt")"
tail -1 "$T/narrow.txt" | grep -q '^recorded on NVIDIA H200, 2026-12-01 *1/11$\|\.\.\. 1/11$' || fail "status: $(tail -1 "$T/narrow.txt")"

# D-6 on a terminal (tmux): keys from a script wait for the SASS, a person does not
if command -v tmux >/dev/null; then
	SOCK=$T/tmux.sock
	tfail() { tmux -S "$SOCK" kill-server 2>/dev/null; fail "$@"; }
	tmux -S "$SOCK" -f /dev/null new-session -d -s t -x 120 -y 30 \
		"cd '$T/demo' && env LC_ALL=C.UTF-8 TERM=xterm-256color XDG_CONFIG_HOME='$T/config' '$RUNG' tui --no-auto-eval; sleep 30" ||
		fail "tmux"
	screen() { tmux -S "$SOCK" capture-pane -p -t t; }
	wait_for() { # text, tenths of a second
		for _ in $(seq "$2"); do
			screen | grep -q -- "$1" && return 0
			sleep 0.1
		done
		return 1
	}
	wait_for '\[versions\]' 50 || tfail "no versions table"
	tmux -S "$SOCK" send-keys -t t j j Enter
	wait_for '\[detail\]' 50 || tfail "no detail"
	tmux -S "$SOCK" send-keys -t t t
	wait_for 'computing the SASS of df16e84 (NVRTC, nvdisasm)... (Esc cancels)' 20 || tfail "D-6: t said nothing: $(screen | head -3)"
	wait_for '^SASS: [0-9]* instructions' 150 || tfail "D-6: no SASS: $(screen | head -3)"
	tmux -S "$SOCK" send-keys -t t q j Enter l
	wait_for 'computing the SASS of ab5b6f7' 20 || tfail "D-6: l said nothing: $(screen | head -3)"
	wait_for '^ab5b6f7 source sgemm.cu' 150 || tfail "D-6: no source view: $(screen | head -3)"
	tmux -S "$SOCK" send-keys -t t Q
	tmux -S "$SOCK" kill-server 2>/dev/null
fi
echo "ok"
