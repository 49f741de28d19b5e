#!/usr/bin/env bash
# Each step of a first-frame change on its own (#28 "First frame against tig"):
# the binaries given (one per step, oldest first) and tig, interleaved, on rung
# demo's repository under a 160x40 pseudo-terminal (bench/pty_first_frame.py:
# process start -> 'fix N tail' on screen -> the stop rule's 'CONTINUE' in
# the title (the recorded results in) -> quit key -> exit), ROUNDS rounds of
# RUNS runs; then the CPU time of `rung notes` on it (perf stat -r 30): it
# opens the repository (libgit2's init) and reads the notes, little more.
# Usage: bash bench/first_frame_steps.sh RUNS ROUNDS RUNG...
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
RUNS=$1 ROUNDS=$2
shift 2
for t in tig python3 perf; do command -v $t >/dev/null || { echo "first_frame_steps.sh: $t not installed" >&2; exit 2; }; done
W=$(mktemp -d /tmp/rung-ffs-XXXXXX)
trap 'rm -rf "$W"' EXIT
export TZ=UTC XDG_CONFIG_HOME=$W/config
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(date -u '+%Y-%m-%d %H:%M:%S UTC'); load average $(cut -d' ' -f1-3 /proc/loadavg)"
for b in "$@"; do echo "$(basename "$b"): $("$b" --version | head -1)"; done
"$1" demo --no-tui "$W/demo" >/dev/null
cd "$W/demo"
printf 'Q\n' >"$W/q"
for b in "$@"; do RUNG_TUI_SCRIPT=$W/q "$b" tui --no-auto-eval >/dev/null 2>&1 || true; done
for round in $(seq "$ROUNDS"); do
	for b in "$@"; do
		python3 "$SRC/bench/pty_first_frame.py" "$RUNS" Q "fix N tail" "CONTINUE" -- "$b" tui --no-auto-eval | sed "s/^/r$round /"
	done
	python3 "$SRC/bench/pty_first_frame.py" "$RUNS" q "fix N tail" -- tig | sed "s/^/r$round /"
done
for round in 1 2; do
	for b in "$@"; do
		echo "r$round $(basename "$b") notes: $(perf stat -r 30 "$b" notes 2>&1 >/dev/null | grep -E 'task-clock|elapsed' | awk '{printf "%s %s %s ", $1, $2, $3}')"
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
