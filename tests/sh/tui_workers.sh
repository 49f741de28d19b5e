#!/bin/bash
# The workbench on a pool of workers (#29: `rung tui --workers`, `workers =`
# in the config), without a GPU: fake workers with a device
# (tests/sh/lib/fake_gpu_worker.py as RUNG_WORKER_EXE, each job logged), keys
# from a script, screen dumps.
#  1. --workers local:0,1 --no-auto-eval, `E`: every version is evaluated on
#     the pool (the fake workers' log has one job per version that runs, on both
#     devices), each row gets its result, and while the batch runs the status
#     bar names both workers with their host, GPU, current job and done/failed
#     (at 80 columns: label, job and done/failed), redrawn as the counts go up.
#  2. `workers = local:0,1` in the config does the same.
#  3. a bad spec (--workers gpu:2, or in the config) exits 2 before any screen,
#     naming the option.
# The default (no pool) is the rest of the tui tests'.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "no python3 (skipping)"; exit 77; }
export TZ=UTC
T=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export RUNG_WORKER_EXE=$RUNG_SRC/tests/sh/lib/fake_gpu_worker.py FAKE_LOG=$T/log FAKE_JOB_S=3
export FAKE_GPU_NAME_0="Fake H200" FAKE_GPU_NAME_1="Fake A100"
R=$T/repo
git init -q "$R"
git -C "$R" config user.name "Ada Lovelace"
git -C "$R" config user.email ada@example.com
mkdir "$R/t"
cp "$RUNG_SRC"/tests/faults/good/{rung.ini,kernel.cu,reference.cu} "$R/t/"
git -C "$R" add -A && git -C "$R" commit -qm "v0"
for k in 1 2 3; do # versions with machine code of their own
	sed -i "s/c\[i\] = .*/c[i] = a[i] + b[i] + (float)(i \& $k);/" "$R/t/kernel.cu"
	git -C "$R" commit -qam "v$k"
done
mapfile -t revs < <(git -C "$R" rev-list --abbrev-commit --abbrev=7 HEAD)

run_tui() { # run_tui NAME ARGS...: E, a dump while the batch runs, one after
	local name=$1; shift
	rm -rf "$R/.git/rung"; : >"$T/log"; rm -f "$T"/busy.txt "$T"/busy80.txt "$T"/mid.txt "$T"/done.txt
	# the status bar names both workers on a job (or done with one) while the batch runs
	printf '%s\n' 'E' ':until 60 local:1 fakehost Fake A100' ':until 60 local:0 fakehost Fake H200' ':dump busy.txt' \
		':resize 80x20' ':dump busy80.txt' ':resize 200x20' ':until 60 1/0' ':dump mid.txt' \
		':until 90 4 versions, 4 evaluated' ':dump done.txt' 'Q' >"$T/keys"
	(cd "$R" && COLUMNS=200 LINES=20 RUNG_TUI_DUMP_DIR="$T" RUNG_TUI_SCRIPT="$T/keys" timeout 120 "$RUNG" tui \
		--no-auto-eval "$@" </dev/null >/dev/null 2>"$T/err") || fail "$name: rung tui: exit $? ($(cat "$T/err"))"
	[ -f "$T/busy.txt" ] || fail "$name: no dump"
	local bar
	bar=$(tail -1 "$T/busy.txt")
	echo "$name, while the batch runs: $bar"
	for w in "local:0 fakehost Fake H200" "local:1 fakehost Fake A100"; do
		grep -qE "$w ([0-9a-f]{7} [a-z]+|idle) [0-9]+/0" <<<"$bar" || fail "$name: the status bar does not show $w with its job and done/failed: $bar"
	done
	# at 80 columns: label, job and done/failed of each, within the width
	bar=$(tail -1 "$T/busy80.txt")
	echo "$name, at 80 columns: $bar"
	for w in local:0 local:1; do
		grep -qE "$w ([0-9a-f]{7} [a-z]+|idle) [0-9]+/0" <<<"$bar" || fail "$name: at 80 columns the status bar does not show $w: $bar"
	done
	[ "$(tail -1 "$T/busy80.txt" | wc -L)" -le 80 ] || fail "$name: the status bar is wider than 80 columns"
	# a worker's count of versions done goes up as the batch runs
	bar=$(tail -1 "$T/mid.txt")
	echo "$name, later: $bar"
	grep -qE "local:[01] fakehost Fake (H200|A100) ([0-9a-f]{7} [a-z]+|idle) 1/0" <<<"$bar" || fail "$name: no worker counts one done: $bar"
	# one job per version on the fake workers, on both devices
	[ "$(grep -c '^start ' "$T/log")" = 4 ] || fail "$name: not 4 jobs on the pool: $(cat "$T/log")"
	grep -q '^start GPU-fake-0 ' "$T/log" && grep -q '^start GPU-fake-1 ' "$T/log" ||
		fail "$name: not both workers ran jobs: $(cat "$T/log")"
	# every row has its result (the store: 4 live results)
	local stored
	stored=$("$RUNG" log -C "$R" --task t 2>&1)
	echo "$stored"
	for h in "${revs[@]}"; do
		grep -qE "^$h .* ok ok ok ok " <<<"$stored" || fail "$name: $h has no live result: $stored"
		grep -q " $h .*✓✓✓✓" "$T/done.txt" || fail "$name: row $h has not its result on the screen: $(cat "$T/done.txt")"
	done
}

export XDG_CONFIG_HOME=$T/noconfig
run_tui "--workers local:0,1" --workers local:0,1
mkdir -p "$T/cfg/rung"
echo "workers = local:0,1" >"$T/cfg/rung/config"
XDG_CONFIG_HOME=$T/cfg run_tui "workers = in the config"

# 3. a bad spec: exit 2 before any screen
printf 'Q\n' >"$T/keys"
err=$(cd "$R" && RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" timeout 20 "$RUNG" tui --workers gpu:2 2>&1 </dev/null)
rc=$?
[ "$rc" = 2 ] && grep -q "workers" <<<"$err" || fail "--workers gpu:2: exit $rc, not a usage error: $err"
echo "workers = gpu:2" >"$T/cfg/rung/config"
err=$(cd "$R" && XDG_CONFIG_HOME=$T/cfg RUNG_TUI_SCRIPT="$T/keys" timeout 20 "$RUNG" tui 2>&1 </dev/null)
rc=$?
[ "$rc" = 2 ] && grep -q "workers" <<<"$err" || fail "workers = gpu:2 in the config: exit $rc, not a usage error: $err"
echo "ok"
