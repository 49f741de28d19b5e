#!/bin/bash
# rung tui where it cannot draw: stdin or stdout not a terminal, TERM unset,
# unknown or dumb. Each is refused at once with a rung message and exit 2 (no
# spinning on end of input, no escapes into a pipe, no blank screen), and rung
# demo prints its table instead. The cases that need a terminal on stdin run
# in tmux (skipped without it).
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC LC_ALL=C.UTF-8
unset RUNG_TUI_SCRIPT
. "$RUNG_SRC/tests/sh/lib/tui_repo.sh"
SOCK=$T/tmux.sock # inside $T: no socket file is left behind
trap 'tmux -S "$SOCK" kill-server 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# /dev/null as stdin: ncurses reads end of input forever
TERM=xterm-256color timeout 10 "$RUNG" tui -C "$REPO" </dev/null >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 2 ] || fail "tui </dev/null: exit $rc, not 2: $(cat "$T/err")"
[ ! -s "$T/out" ] || fail "tui </dev/null wrote to stdout: $(cat -v "$T/out")"
grep -qx "rung tui: not on a terminal (stdin and stdout must both be one); 'rung log' prints the versions as a table" \
	"$T/err" || fail "message: $(cat "$T/err")"
# a bad theme is still reported as such without a terminal
TERM=xterm-256color timeout 10 "$RUNG" tui -C "$REPO" --theme no-such-theme </dev/null >/dev/null 2>"$T/err"
rc=$?
[ $rc = 2 ] || fail "bad theme: exit $rc, not 2"
grep -q "^rung tui: theme 'no-such-theme' not found" "$T/err" || fail "theme message: $(cat "$T/err")"

command -v tmux >/dev/null || { echo "tmux not installed: the cases on a terminal are skipped"; exit 77; }
# on the pane's terminal: NAME ENV... runs rung tui with stdin and stdout on the terminal,
# stderr into $T/NAME.err and the exit status into $T/NAME.rc
cat >"$T/cases.sh" <<EOF
run() { local n=\$1; shift; env "\$@" timeout 10 '$RUNG' tui -C '$REPO' 2>'$T/'\$n.err; echo \$? >'$T/'\$n.rc; }
run unset -u TERM
run dumb TERM=dumb
run unknown TERM=no-such-terminal
env TERM=screen-256color timeout 10 '$RUNG' tui -C '$REPO' 2>'$T/pipe.err' | cat >'$T/pipe.out'
echo \${PIPESTATUS[0]} >'$T/pipe.rc'
(cd '$REPO' && TERM=dumb timeout 10 '$RUNG' 2>'$T/bare.err'; echo \$? >'$T/bare.rc')
TERM=dumb timeout 60 '$RUNG' demo '$T/demo' 2>'$T/demo.err'; echo \$? >'$T/demo.rc'
touch '$T/done'
sleep 30
EOF
tmux -S "$SOCK" -f /dev/null new-session -d -s t -x 120 -y 60 "env TERM=screen-256color bash '$T/cases.sh'" ||
	fail "tmux new-session"
for _ in $(seq 300); do
	[ -e "$T/done" ] && break
	sleep 0.1
done
[ -e "$T/done" ] || fail "the cases did not finish: $(tmux -S "$SOCK" capture-pane -p -t t)"
# expect NAME MESSAGE: exit 2 and that one line on stderr
expect() {
	local rc
	rc=$(cat "$T/$1.rc")
	[ "$rc" = 2 ] || fail "$1: exit $rc, not 2: $(cat "$T/$1.err")"
	grep -qxF "$2" "$T/$1.err" || fail "$1: message: $(cat "$T/$1.err")"
}
SUFFIX="; 'rung log' prints the versions as a table"
expect unset "rung tui: TERM is not set (set it to the terminal's type, e.g. TERM=xterm-256color)$SUFFIX"
expect dumb "rung tui: TERM=dumb: the terminal cannot move the cursor$SUFFIX"
expect unknown "rung tui: TERM=no-such-terminal: unknown terminal type (no terminfo entry)$SUFFIX"
expect pipe "rung tui: not on a terminal (stdin and stdout must both be one)$SUFFIX"
[ ! -s "$T/pipe.out" ] || fail "escapes written into the pipe: $(head -c 200 "$T/pipe.out" | cat -v)"
expect bare "rung tui: TERM=dumb: the terminal cannot move the cursor$SUFFIX"
# rung demo on a dumb terminal prints its table
[ "$(cat "$T/demo.rc")" = 0 ] || fail "demo on TERM=dumb: exit $(cat "$T/demo.rc"): $(cat "$T/demo.err")"
grep -qx "rung demo: TERM=dumb: the terminal cannot move the cursor: printing the versions instead of opening the workbench" \
	"$T/demo.err" || fail "demo message: $(cat "$T/demo.err")"
tmux -S "$SOCK" capture-pane -p -S - -t t | grep -q "^softmax: 5 versions of softmax/softmax.ptx" ||
	fail "no demo table: $(tmux -S "$SOCK" capture-pane -p -S - -t t)"
echo "ok"
