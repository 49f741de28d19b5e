#!/bin/bash
# The workbench's first frame comes before the recorded results are parsed
# (#28, first frame against tig), on the real binary at the keyboard:
# 1. under a pseudo-terminal (python3), the bytes rung writes on rung demo's
#    repository show the rows with their metric cells pending ('…') and the
#    title "reading their results..." before any result figure or count;
# 2. in tmux, the screen once they are in is the one a script dumps (which
#    acts only once they are in) and holds today's figures (the title's
#    counts and stop rule, the rows' medians and speedups);
# 3. libgit2's init reads no CA certificate (vcs/repo.c): the bundle is
#    never opened (with strace, where it can trace);
# 4. on a damaged store the rows stay pending and the status line says why;
# 5. each frame is one write or two, not one a cursor move (ncurses 6.4
#    flushes at every move until the screen was once ended: tui/view.c),
#    counted with strace from the start to the filled screen's quit.
# Skips without python3 or tmux.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "python3 not installed: skipping"; exit 77; }
command -v tmux >/dev/null || { echo "tmux not installed: skipping"; exit 77; }
export TZ=UTC LC_ALL=C.UTF-8
T=$(mktemp -d)
trap 'tmux -S "$T/tmux.sock" kill-server 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export XDG_CONFIG_HOME=$T/config
"$RUNG" demo --no-tui "$T/d" >/dev/null 2>&1 || fail "rung demo"
FILLED="11 versions, 0 evaluated, 11 recorded"

# 1. the byte stream: pending first, the figures after
cat >"$T/stream.py" <<'EOF'
import os, pty, re, select, struct, sys, termios, fcntl, time
ESC = re.compile(rb"\x1b(\[[0-9;?>=]*[ -/]*[@-~]|[()][A-Za-z0-9]|[=>78cDEHMZ])")
out, filled = sys.argv[1], sys.argv[2].encode()
pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "xterm-256color"
    os.execvp(sys.argv[3], sys.argv[3:])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 160, 0, 0))
buf, sent, end = b"", False, time.monotonic() + 20
# (curses writes what changed: a marker must be text that the filled screen
# writes whole, the stop rule's state beside the title)
while time.monotonic() < end:
    r, _, _ = select.select([fd], [], [], 0.2)
    if not r:
        continue
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    buf += data
    if not sent and filled in ESC.sub(b"", buf):
        os.write(fd, b"Q")
        sent = True
if not sent:
    os.kill(pid, 9)
os.waitpid(pid, 0)
open(out, "wb").write(ESC.sub(b"", buf))
sys.exit(0 if sent else 1)
EOF
(cd "$T/d" && python3 "$T/stream.py" "$T/stream" "CONTINUE: 19%" "$RUNG" tui --no-auto-eval) ||
	fail "the filled screen never came: $(tr -d '\r' <"$T/stream" 2>/dev/null | tail -c 600)"
python3 - "$T/stream" <<'EOF' || exit 1
import sys
s = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
filled = s.find("CONTINUE: 19%")
def at(what):
    i = s.find(what)
    return i if i >= 0 else len(s)
first = {w: at(w) for w in ("reading their results", "fix N tail", "\u2026", "3.324ms", "83.1\u00d7", "CONTINUE")}
bad = []
if not first["reading their results"] < filled:
    bad.append("no first frame saying 'reading their results' before the results")
if not first["fix N tail"] < first["3.324ms"]:
    bad.append("the rows came with their figures, not before them")
if not first["\u2026"] < first["3.324ms"]:
    bad.append("no pending cell before the figures")
for w in ("3.324ms", "83.1\u00d7", "CONTINUE"):
    if first[w] < first["reading their results"]:
        bad.append("'%s' in the first frame" % w)
if bad:
    print("FAIL: " + "; ".join(bad) + ": " + repr(s[:2000]))
    sys.exit(1)
EOF

# 2. the screen once filled, in tmux, against a script's dump of the same size
SOCK=$T/tmux.sock
tmux -S "$SOCK" -f /dev/null new-session -d -s t -x 160 -y 40 \
	"cd '$T/d' && env TERM=screen-256color XDG_CONFIG_HOME='$XDG_CONFIG_HOME' '$RUNG' tui --no-auto-eval; sleep 30" || fail "tmux"
screen() { tmux -S "$SOCK" capture-pane -p -t t; }
for _ in $(seq 100); do screen | grep -q "$FILLED" && break; sleep 0.1; done
sleep 0.3 # the status line's message, if any, comes with the fill
screen >"$T/tmux.txt"
tmux -S "$SOCK" send-keys -t t Q
printf ':dump s.txt\nQ\n' >"$T/keys"
(cd "$T/d" && RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR=$T COLUMNS=160 LINES=40 "$RUNG" tui --no-auto-eval) \
	>/dev/null 2>"$T/err" || fail "rung tui (script): $(cat "$T/err")"
diff <(sed 's/ *$//' "$T/s.txt") <(sed 's/ *$//' "$T/tmux.txt") >"$T/diff" || fail "the filled screen is not the script's: $(cat "$T/diff")"
s=$(cat "$T/tmux.txt")
grep -q "rung sgemm (task 1/2, T switches): $FILLED .*CONTINUE: 19% of the TF32 tensor roof, goal 80%" <<<"$s" ||
	fail "title: $(head -1 <<<"$s")"
grep -q ' df16e84 .* ○○○○  1\.55e-03   3\.324ms  83\.1× ±0\.02  41\.3 TFLOP/s   62% 1980MHz   128/0 ' <<<"$s" ||
	fail "the tail row: $(grep df16e84 <<<"$s")"
grep -q ' 1cb25ba .*   276\.1ms     baseline ' <<<"$s" || fail "the baseline: $(grep 1cb25ba <<<"$s")"
grep -q '…' <<<"$s" && fail "a cell still pending: $(grep '…' <<<"$s" | head -2)"

# 3. no CA certificate read (libgit2's init, vcs/repo.c)
# (LeakSanitizer cannot run under ptrace: no leak check in the ASan build there)
if command -v strace >/dev/null && strace -f -e trace=none true 2>/dev/null; then
	(cd "$T/d" && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -qq -e trace=open,openat -o "$T/st" "$RUNG" log >/dev/null 2>&1) || fail "rung log under strace"
	grep -q 'openat.*rung/results.db' "$T/st" || fail "strace saw no open of the store: $(head -3 "$T/st")"
	grep -q 'ca-certificates\|/etc/ssl/certs' "$T/st" && fail "the CA certificates were read: $(grep -m1 ssl "$T/st")"
fi

# 4. a damaged store (as tests/sh/store_damage.sh damages it): the rows stay
# pending, the title says their results could not be read, the status line
# why, and no stop rule or count is shown as if there were no results
cp -a "$T/d" "$T/dmg"
db=$T/dmg/.git/rung/results.db
off=$(grep -obaF '"label":"sgemm: ' "$db" | head -1 | cut -d: -f1)
[ -n "$off" ] || fail "no sgemm result row in the store"
at=$(( off / 4096 - 4 )); [ $at -lt 1 ] && at=1
yes "rung damage" | head -c $((9 * 4096)) >"$T/noise"
dd if="$T/noise" of="$db" bs=4096 seek=$at conv=notrunc 2>/dev/null || fail dd
printf ':dump dmg.txt\nQ\n' >"$T/keys"
(cd "$T/dmg" && RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR=$T COLUMNS=160 LINES=20 "$RUNG" tui --no-auto-eval sgemm) \
	>/dev/null 2>"$T/err" || fail "rung tui on a damaged store: exit $?: $(cat "$T/err")"
s=$(cat "$T/dmg.txt")
grep -q "11 versions, their results could not be read  " <<<"$s" || fail "damaged: title: $(head -1 <<<"$s")"
tail -1 <<<"$s" | grep -q "^reading the results failed: .*results.db: the results store is damaged" ||
	fail "damaged: status line: $(tail -1 <<<"$s")"
grep -q "CONTINUE\|STOP\|evaluated\|recorded" <<<"$s" && fail "damaged: counts or a stop rule shown: $(head -1 <<<"$s")"
grep -q ' df16e84 .*…' <<<"$s" || fail "damaged: the tail row not pending: $(grep df16e84 <<<"$s")"

# 5. writes to the terminal: the first frame, the filled one and the exit
# (12-16 writes; 150 or more when every cursor move flushed)
if command -v strace >/dev/null && strace -f -e trace=none true 2>/dev/null; then
	(cd "$T/d" && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" python3 "$T/stream.py" "$T/stream2" \
		"CONTINUE: 19%" strace -f -qq -e trace=write -o "$T/wst" "$RUNG" tui --no-auto-eval) ||
		fail "the filled screen never came under strace"
	w=$(grep -c '^[0-9]* *write(1,' "$T/wst")
	echo "writes to the terminal: $w"
	[ "$w" -ge 3 ] || fail "strace saw $w writes to the terminal: $(head -3 "$T/wst")"
	[ "$w" -le 30 ] || fail "$w writes to the terminal for two frames: $(grep -m3 'write(1,' "$T/wst")"
fi
echo "ok"
