#!/usr/bin/env bash
# rung's progress line on a terminal goes through the inert filter too (#30
# D2): a kernel file named with OSC 52 (write the clipboard) and OSC 2 (set the
# window title) shows as visible escapes in the `rung eval` and `rung watch`
# progress line, and no ESC reaches the terminal but rung's own "\r ESC[K".
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
fail=0
t() { # t NAME CONDITION...
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@b
# onpty SECONDS OUT CMD...: runs CMD on a pseudo-terminal for at most SECONDS
# (then SIGINT), its bytes into OUT; COMMIT_AFTER (seconds) commits a change first
onpty() {
	python3 - "$@" <<'PY'
import os, pty, select, signal, subprocess, sys, time
secs, out, cmd = float(sys.argv[1]), sys.argv[2], sys.argv[3:]
after = float(os.environ.get("COMMIT_AFTER", "0"))
pid, fd = pty.fork()
if pid == 0:
    os.execvp(cmd[0], cmd)
data, t0, committed = b"", time.time(), False
while time.time() - t0 < secs:
    if after and not committed and time.time() - t0 > after:
        k = [n for n in os.listdir("sgemm") if n.startswith("k")][0]
        open(os.path.join("sgemm", k), "a").write("// v2\n")
        subprocess.run(["git", "commit", "-qam", "v2"])
        committed = True
    r, _, _ = select.select([fd], [], [], 0.1)
    if r:
        try:
            d = os.read(fd, 65536)
        except OSError:
            break
        if not d:
            break
        data += d
    elif os.waitpid(pid, os.WNOHANG)[0]:
        break
try:
    os.kill(pid, signal.SIGINT)
    os.waitpid(pid, 0)
except (ProcessLookupError, ChildProcessError):
    pass
open(out, "wb").write(data)
PY
}
# only rung's own control sequence ("\r ESC[K") may be in the bytes
only_own_escapes() { python3 -c 'import sys; d=open(sys.argv[1],"rb").read().replace(b"\x1b[K",b""); sys.exit(b"\x1b" in d or b"\x07" in d)' "$1"; }
shows() { grep -qF -- "$1" "$2"; }

git init -q "$tmp/repo" && cd "$tmp/repo" && mkdir sgemm && cp "$RUNG_SRC"/tests/tasks/sgemm/* sgemm/ || exit 1
KN=$'k\e]52;c;ZWNobyBwd25lZA==\a\e]2;pwned-title\a.cu'
mv sgemm/sgemm.cu "sgemm/$KN" && sed -i "s/^kernel = .*/kernel = $KN/" sgemm/rung.ini && git add -A && git commit -qm v1

onpty 30 "$tmp/eval.out" "$RUNG" eval --missing
t "eval: the progress line was drawn" shows "compile: sgemm/k" "$tmp/eval.out"
t "eval: the name shows as escapes" shows 'k\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b]2;pwned-title\x07.cu' "$tmp/eval.out"
t "eval: no ESC or BEL but rung's own" only_own_escapes "$tmp/eval.out"

COMMIT_AFTER=2 onpty 9 "$tmp/watch.out" "$RUNG" watch --interval 0.2
t "watch: the progress line was drawn" shows "compile: sgemm/k" "$tmp/watch.out"
t "watch: no ESC or BEL but rung's own" only_own_escapes "$tmp/watch.out"
exit $fail
