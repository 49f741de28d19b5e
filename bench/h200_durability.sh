#!/usr/bin/env bash
# The GPU half of #30 (reliability round 3), for the H200:
#   1. SIGKILL of `rung eval` and `rung check` while they store live results,
#      KILLS (default 50) times at random points: after every kill the store
#      checks clean and every version a killed run reported (its result line
#      on stdout, or a check that finished) is still stored, then and at the
#      end.
#   2. Two concurrent `rung eval --all` on one store: both finish, the store
#      checks clean, and each version's row agrees between run A, run B and
#      the store (every rung passed or not alike).
#   3. Kernel printf with escape sequences (OSC 52 clipboard, OSC 2 title, a
#      screen clear, a raw C1 CSI): `rung check` on a pseudo-terminal and on a
#      pipe, the MCP check tool, and the workbench (its screen dump; in tmux
#      with set-clipboard on when tmux is there: the pane title and the
#      buffers) show the text as escapes and never pass a control through.
# Run from the repository root:  RUNG=build/rung bash bench/h200_durability.sh
# Logs go to $OUT (a new temporary directory when unset); a summary is
# printed at the end. Exit 0 when every check held, 1 otherwise, 77 without a
# GPU.
set -u
: "${RUNG:?RUNG=path/to/rung}"
RUNG=$(cd "$(dirname "$RUNG")" && pwd)/$(basename "$RUNG")
SRC=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
KILLS=${KILLS:-50}
V=${VERSIONS:-12}
W=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
	[ -n "${TMUXS:-}" ] && tmux -L "$TMUXS" kill-server 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@b GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@b
bad=0
note() { echo "$*" | tee -a "$OUT/summary.txt"; }
failed() { note "FAIL: $*"; bad=$((bad + 1)); }
: >"$OUT/summary.txt"
command -v python3 >/dev/null || { echo "needs python3"; exit 1; }

# a repository of V versions of the sgemm task, each with its own machine code
# (a dead branch on K == -i: the compiler cannot drop it, so every SASS differs)
git init -q "$W/repo" && cd "$W/repo" && mkdir sgemm && cp "$SRC"/tests/tasks/sgemm/* sgemm/ || exit 1
sed -i 's/^M = 256/M = 1024/; s/^N = 256/N = 1024/; s/^K = 128/K = 1024/' sgemm/rung.ini
cp sgemm/sgemm.cu "$W/base.cu"
for i in $(seq 1 "$V"); do
	sed "s/\tfloat acc = 0.0f;/\tfloat acc = 0.0f;\n\tif (K == -$i)\n\t\tacc = $i.0f;/" "$W/base.cu" >sgemm/sgemm.cu
	git add -A && git commit -qm "v$i" || exit 1
done
"$RUNG" check --budget 0.2 HEAD >"$OUT/probe.log" 2>&1
if [ $? = 4 ]; then
	echo "no GPU: $(tail -1 "$OUT/probe.log")"
	exit 77
fi
rm -rf .git/rung
# How long the runs take here: the kill times are drawn inside them (a window
# longer than the run lets it finish first: 1 of 30 kills landed in the
# session of 2026-12-01).
now() { python3 -c 'import time; print(time.time())'; }
t0=$(now)
"$RUNG" eval --all >"$OUT/timing_eval.log" 2>&1
t1=$(now)
"$RUNG" check --budget 0.3 HEAD >"$OUT/timing_check.log" 2>&1
t2=$(now)
T_EVAL=$(python3 -c "print(round($t1 - $t0, 3))")
T_CHECK=$(python3 -c "print(round($t2 - $t1, 3))")
rm -rf .git/rung
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$OUT/gpu.txt" 2>&1
note "h200_durability: $(cat "$OUT/gpu.txt" | head -1), $V versions, $KILLS kills, $(date -u +%FT%TZ)"
note "run lengths: eval --all of $V versions ${T_EVAL} s, one check ${T_CHECK} s; kills drawn over 5-95 % of each"

# the versions with a live result in the store (short ids)
stored() { "$RUNG" log --json 2>/dev/null | python3 -c '
import json, sys
for l in sys.stdin:
    o = json.loads(l)
    if o.get("evaluated"): print(o["short"])'; }
store_ok() { # store_ok WHAT: rung store check exits 0
	local out
	out=$("$RUNG" store check 2>&1) || { failed "$1: store check: $out"; return 1; }
	echo "$1: $out" >>"$OUT/store_checks.log"
}
rand_sleep() { python3 -c "import random, time; time.sleep(random.uniform($1, $2))"; }

# ---- 1. SIGKILL at random points ------------------------------------------
declare -A reported=() # versions a killed run said it stored
kills=0 survivors=0 lost=0 finished=0 resets=0
for k in $(seq 1 "$KILLS"); do
	if [ $((k % 2)) = 1 ]; then
		what=eval
		# eval --missing runs only what is not stored yet: its length shrinks
		left=$(stored | wc -l)
		read -r lo hi <<<"$(python3 -c "s = max(0.2, $T_EVAL * ($V - $left) / $V); print(0.05 * s, 0.95 * s)")"
		"$RUNG" eval --missing >"$OUT/kill$k.out" 2>"$OUT/kill$k.err" &
		pid=$!
		pids+=("$pid")
		rand_sleep "$lo" "$hi"
	else
		what=check
		rev="HEAD~$((RANDOM % V))"
		[ "$rev" = "HEAD~0" ] && rev=HEAD
		short=$(git rev-parse --short=7 "$rev")
		read -r lo hi <<<"$(python3 -c "print(0.05 * $T_CHECK, 0.95 * $T_CHECK)")"
		"$RUNG" check --budget 0.3 "$rev" >"$OUT/kill$k.out" 2>"$OUT/kill$k.err" &
		pid=$!
		pids+=("$pid")
		rand_sleep "$lo" "$hi"
	fi
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	rc=$?
	pids=()
	[ "$rc" = 137 ] && kills=$((kills + 1)) || finished=$((finished + 1))
	if [ $what = eval ]; then # every result line printed was stored first
		for s in $(grep -oE '^[0-9a-f]{7}' "$OUT/kill$k.out"); do reported[$s]=1; done
	elif [ "$rc" = 0 ] || [ "$rc" = 1 ]; then # a check that finished stored its result
		reported[$short]=1
	fi
	echo "kill $k: $what rc=$rc reported so far: ${#reported[@]}" >>"$OUT/kills.log"
	store_ok "kill $k ($what)" || continue
	have=" $(stored | tr '\n' ' ') "
	for s in "${!reported[@]}"; do
		if [[ "$have" == *" $s "* ]]; then survivors=$((survivors + 1)); else
			lost=$((lost + 1))
			failed "kill $k ($what): $s was reported stored and is not in the store"
		fi
	done
	if [ "$(wc -w <<<"$have")" -ge "$V" ]; then # all stored: start again from an empty store
		rm -rf .git/rung
		reported=()
		resets=$((resets + 1))
	fi
done
note "kills: $kills SIGKILLs of $KILLS runs ($finished finished first), $resets fresh stores; reported-stored checks: $survivors survived, $lost lost"

# ---- 2. two concurrent eval --all on one store -----------------------------
rm -rf .git/rung
"$RUNG" eval --all >"$OUT/concurrentA.out" 2>"$OUT/concurrentA.err" &
pa=$!
"$RUNG" eval --all >"$OUT/concurrentB.out" 2>"$OUT/concurrentB.err" &
pb=$!
pids=("$pa" "$pb")
wait "$pa"; ra=$?
wait "$pb"; rb=$?
pids=()
[ "$ra" = 0 ] && [ "$rb" = 0 ] || failed "concurrent eval: exits A=$ra B=$rb (see concurrent[AB].err)"
store_ok "concurrent eval"
"$RUNG" log --json >"$OUT/concurrent.log.json" 2>&1
rows=$(python3 - "$OUT/concurrentA.out" "$OUT/concurrentB.out" "$OUT/concurrent.log.json" <<'PY'
import json, re, sys
def lines(p):  # short id -> the line's rung statuses (ok/FAIL/-), in order
    out = {}
    for l in open(p):
        m = re.match(r"^([0-9a-f]{7}) ", l)
        if m:
            out[m.group(1)] = re.findall(r"\b(ok|FAIL|SKIP|-)\b", l)[:5]
    return out
a, b = lines(sys.argv[1]), lines(sys.argv[2])
store = {}
for l in open(sys.argv[3]):
    try:
        o = json.loads(l)
    except ValueError:
        continue
    st = o.get("steps", {})
    store[o["short"]] = [("ok" if st.get(k) == "ok" else "FAIL" if st.get(k) == "failed" else "-")
                         for k in ("compile", "run", "check", "bench", "profile")] if o.get("evaluated") else None
agree = sum(1 for s in store if store[s] and s in a and s in b and a[s][:4] == b[s][:4] == store[s][:4])
print(len(store), agree, len(a), len(b))
PY
)
read -r nrows agree na nb <<<"$rows"
[ "$agree" = "$nrows" ] && [ "$nrows" = "$V" ] || failed "concurrent eval: $agree of $nrows rows agree (A printed $na, B $nb)"
note "concurrent: two eval --all exit $ra and $rb; rows compared: $nrows, agree in A, B and the store: $agree"

# ---- 3. kernel printf with escapes -----------------------------------------
rm -rf .git/rung
python3 - sgemm/sgemm.cu <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
s = s.replace("\tfloat acc = 0.0f;", "\tfloat acc = 0.0f;\n"
              "\tif (blockIdx.x == 0 && blockIdx.y == 0 && threadIdx.x == 0 && threadIdx.y == 0)\n"
              "\t\tprintf(\"kernel says \\033]52;c;cHduZWQ=\\007\\033]2;pwned-title\\007\\033[2J\\x9b\" \"6n done\\n\");", 1)
open(p, "w").write(s)
PY
git commit -qam "printf escapes"
# only rung's own "\r ESC[K" may reach a terminal
raw_ctl() { python3 -c 'import sys; d=open(sys.argv[1],"rb").read().replace(b"\x1b[K",b""); print(sum(d.count(c) for c in (b"\x1b", b"\x07", b"\xc2\x9b")))' "$1"; }
python3 - "$OUT/printf_pty.bin" "$RUNG" check --budget 0.3 HEAD <<'PY'
import os, pty, sys
out, cmd = sys.argv[1], sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(cmd[0], cmd)
data = b""
while True:
    try:
        d = os.read(fd, 65536)
    except OSError:
        break
    if not d:
        break
    data += d
os.waitpid(pid, 0)
open(out, "wb").write(data)
PY
"$RUNG" check --budget 0.3 HEAD >"$OUT/printf_pipe.txt" 2>&1
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"check","arguments":{"rev":"HEAD","budget":0.3}}}' |
	"$RUNG" mcp >"$OUT/printf_mcp.json" 2>"$OUT/printf_mcp.err"
printf ':sleep 40\n:dump versions.txt\n<Enter>\n:wait\n:dump detail.txt\nQ\n' >"$W/keys"
RUNG_TUI_SCRIPT="$W/keys" RUNG_TUI_DUMP_DIR="$OUT" "$RUNG" tui >"$OUT/tui.out" 2>&1
for f in printf_pty.bin printf_pipe.txt printf_mcp.json; do
	n=$(raw_ctl "$OUT/$f")
	grep -q 'kernel says' "$OUT/$f" || failed "printf: $f does not show the kernel's output"
	[ "$n" = 0 ] || failed "printf: $f has $n raw control(s)"
	note "printf: $f: raw controls $n, kernel output shown: $(grep -c 'kernel says' "$OUT/$f") line(s)"
done
if [ -f "$OUT/detail.txt" ]; then
	note "printf: workbench detail dump: raw controls $(raw_ctl "$OUT/detail.txt"), kernel output shown: $(grep -c 'kernel says' "$OUT/detail.txt")"
	[ "$(raw_ctl "$OUT/detail.txt")" = 0 ] || failed "printf: the workbench's dump has raw controls"
else
	failed "printf: the workbench wrote no dump (tui.out)"
fi
if command -v tmux >/dev/null; then
	TMUXS=rung-dur-$$
	S="tmux -L $TMUXS"
	$S -f /dev/null new-session -d -s e -x 160 -y 45 "bash --norc"
	$S set-option -g set-clipboard on
	sleep 0.5
	$S send-keys -t e "cd $W/repo && printf '\\033]2;clean\\007' && clear" Enter
	sleep 0.5
	$S send-keys -t e "$RUNG check --budget 0.3 HEAD; $RUNG" Enter
	sleep 40
	$S send-keys -t e Enter
	sleep 3
	$S send-keys -t e Q
	sleep 1
	title=$($S display -p -t e '#{pane_title}')
	bufs=$($S list-buffers 2>/dev/null | wc -l)
	$S kill-server 2>/dev/null
	TMUXS=
	[ "$title" = clean ] && [ "$bufs" = 0 ] || failed "printf in tmux: pane title '$title', $bufs clipboard buffer(s)"
	note "printf: tmux (rung check, then the workbench on the version): pane title '$title', clipboard buffers $bufs"
else
	note "printf: tmux not installed: the pane title and clipboard check did not run"
fi

note "== $([ $bad = 0 ] && echo "all held" || echo "$bad FAILED"); logs in $OUT"
[ $bad = 0 ]
