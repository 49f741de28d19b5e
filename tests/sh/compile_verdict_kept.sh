#!/bin/bash
# Without a GPU, the compile rung's verdict is kept and shown on the next run
# (#28 D-16): a new user's own versions said "not evaluated" in rung log
# forever after `rung eval --compile-only`, and the workbench compiled them
# again (rows "running") on every start. Now log, brief and the workbench show
# the verdict with what it means ("compiled here (sm_90, DATE) with no GPU:
# run, check and bench need one"), the workbench runs nothing again, and the
# verdict never stands in for a measurement: not over a result recorded on a
# GPU, not exported, not "recorded on another machine".
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC
T=$(mktemp -d)
SOCK=$T/tmux.sock
trap 'tmux -S "$SOCK" kill-server 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
gpu=0
nvidia-smi >/dev/null 2>&1 && gpu=1
export XDG_CONFIG_HOME=$T/cfg

mk() { # a task of one's own: two versions, one that does not compile
	git init -q "$1" && (
		cd "$1" && git config user.name A && git config user.email a@example.com &&
			mkdir t && cp "$RUNG_SRC"/tests/tasks/sgemm/* t/ && git add -A && git commit -qm "naive" &&
			sed -i 's/__global__/__global__ oops/' t/sgemm.cu && git commit -qam "broken"
	) || fail "repo $1"
}
R=$T/mine
mk "$R"
out=$("$RUNG" log -C "$R" 2>&1) || fail "log: $out"
[ "$(grep -c 'not evaluated$' <<<"$out")" = 2 ] || fail "before: $out"
"$RUNG" eval -C "$R" --compile-only >/dev/null 2>&1
out=$("$RUNG" log -C "$R" 2>&1) || fail "log: $out"
echo "$out"
grep -q "not evaluated" <<<"$out" && fail "still not evaluated: $out"
grep -qE "^[0-9a-f]{7}  naive +ok skip skip skip skip .* 32/0 " <<<"$out" || fail "the compile verdict: $out"
grep -A1 -E "^[0-9a-f]{7}  naive " <<<"$out" | grep -q "^         compiled here (sm_[0-9]*, 20[0-9-]*) with no GPU: run, check and bench need one$" ||
	fail "what it means: $out"
grep -qE "^[0-9a-f]{7}  broken +FAIL - - - - +compile: t/sgemm.cu:[0-9]+: " <<<"$out" || fail "the failed compile: $out"
grep -q "recorded on another machine\|not measured here" <<<"$out" && fail "said to be recorded elsewhere: $out"
grep -q "(on recorded results)" <<<"$out" && fail "the stop line counts it as recorded: $out"
# JSON: under "recorded", with its note, and nothing measured
"$RUNG" log -C "$R" --json >"$T/log.json" || fail "log --json"
python3 - "$T/log.json" <<'PY' || fail "log --json"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
naive = [r for r in rows if r["subject"] == "naive"][0]
rec = naive["recorded"]
assert rec and rec["steps"]["compile"]["status"] == "ok", naive
assert rec["steps"]["run"]["status"] == "SKIPPED" and rec["steps"]["run"]["reason"] == "needs a GPU", rec
assert rec["recorded_note"].startswith("compiled here (sm_"), rec
assert not rec["bench"]["valid"] and not rec["env"]["valid"], rec
PY
out=$("$RUNG" brief -C "$R" 2>&1) || fail "brief: $out"
grep -qE "^\| [0-9a-f]{7} \| naive \|  \| compiled only \| regs 32, spills 0, smem [0-9]+ B; compiled here " <<<"$out" || fail "brief: $out"
grep -q "^## Compiled only" <<<"$out" || fail "brief: no section: $out"
grep -q "^## Recorded results" <<<"$out" && fail "brief: called recorded: $out"
[ -z "$("$RUNG" export -C "$R" --recorded 2>/dev/null)" ] || fail "exported as a recorded result"

# the workbench: a first session compiles every version (no GPU) and keeps the verdicts;
# the next one shows them at once and runs nothing again
W=$T/wb
mk "$W"
if [ "$gpu" = 0 ]; then
	# (until both are compiled: 50 s at most)
	printf ':until 50 2 versions, 2 evaluated\n:dump first.txt\nQ\n' >"$T/k1"
	(cd "$W" && COLUMNS=100 LINES=12 RUNG_TUI_SCRIPT="$T/k1" RUNG_TUI_DUMP_DIR="$T" timeout 60 "$RUNG" tui </dev/null >/dev/null 2>&1) ||
		fail "first session"
	grep -q "2 versions, 2 evaluated" "$T/first.txt" || fail "first session: $(cat "$T/first.txt")"
	command -v tmux >/dev/null || { echo "no tmux: the second session is not checked"; exit 0; }
	tmux -S "$SOCK" -f /dev/null new-session -d -s t -x 100 -y 12 \
		"env LC_ALL=C.UTF-8 TERM=screen XDG_CONFIG_HOME='$T/cfg' '$RUNG' tui -C '$W'; sleep 30" || fail "tmux"
	seen=
	for _ in $(seq 30); do # 3 s: nothing may start
		s=$(tmux -S "$SOCK" capture-pane -p -t t)
		grep -q "\[versions\]" <<<"$s" && seen=1
		grep -q "◐\|evaluating" <<<"$s" && fail "the second session runs them again: $s"
		sleep 0.1
	done
	[ -n "$seen" ] || fail "no versions table: $s"
	echo "$s"
	grep -q "^rung sgemm: 2 versions, 0 evaluated, 2 compiled only " <<<"$s" || fail "title: $s"
	grep -qE " naive +✓--- .* 32/0" <<<"$s" || fail "the kept compile verdict: $s"
	grep -qE " broken +✗--- " <<<"$s" || fail "the kept failed compile: $s"
	tmux -S "$SOCK" send-keys -t t j
	for _ in $(seq 50); do
		tmux -S "$SOCK" capture-pane -p -t t | tail -1 | grep -q "2/2 *$" && break
		sleep 0.1
	done
	s=$(tmux -S "$SOCK" capture-pane -p -t t)
	grep -q "^compiled here (sm_[0-9]*, [0-9-]*) with no GPU: run, check and bench need one" <<<"$(tail -1 <<<"$s")" ||
		fail "status line: $(tail -1 <<<"$s")"
	tmux -S "$SOCK" send-keys -t t Enter
	for _ in $(seq 50); do
		tmux -S "$SOCK" capture-pane -p -t t | grep -q "\[detail\]" && break
		sleep 0.1
	done
	d=$(tmux -S "$SOCK" capture-pane -p -t t)
	grep -q "^compile only: compiled here (sm_[0-9]*, [0-9-]*) with no GPU: run, check and bench need one" <<<"$d" ||
		fail "detail: $d"
	grep -q "^run      - SKIPPED .*needs a GPU" <<<"$d" || fail "detail run: $d"
	tmux -S "$SOCK" kill-server 2>/dev/null
fi

# a result recorded on a GPU (the demo's H200 runs) is never replaced by a compile verdict
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || fail "demo"
if [ -f "$RUNG_SRC/examples/sgemm/recorded.jsonl" ]; then
	"$RUNG" eval -C "$T/demo" --task sgemm --compile-only 53c0aa4 >/dev/null 2>&1
	out=$("$RUNG" log -C "$T/demo" --task sgemm 2>&1)
	grep -A1 "^53c0aa4 " <<<"$out" | grep -q "recorded on NVIDIA H200" || fail "the H200 result replaced: $(grep -A1 '^53c0aa4 ' <<<"$out")"
	grep -q "compiled here" <<<"$out" && fail "a compile verdict over a recorded result: $out"
fi
echo "ok"
