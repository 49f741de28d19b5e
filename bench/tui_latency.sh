#!/usr/bin/env bash
# Key-press latency of the workbench while it evaluates in-process, in one run on this
# machine (CPU only: every version is compiled with NVRTC by the compile threads, the GPU
# rungs are skipped), with the idle workbench as the anchor.
# Usage: bash bench/tui_latency.sh [BUILD_DIR] [NVERSIONS] [KEYS]
# Needs: python3, git.
#  1. builds a throwaway NVERSIONS-commit repository holding tests/tasks/sgemm, every commit
#     changing sgemm.cu (one comment line: NVERSIONS distinct sources, none with a result);
#  2. (NVERSIONS <= 1000) rung eval --all on the same versions, the CLI's time as an anchor;
#  3. rung tui on a 160x40 pseudo-terminal (bench/pty_key_latency.py), idle: KEYS j/k presses
#     50-100 ms apart, each timed from write() to the first output byte, to the key's effect
#     on screen (the status line's " ROW/TOTAL") and to the end of the redraw (2 ms quiet);
#  4. the same after `E` (every version queued), counting the keys sent while the status
#     line says "evaluating";
#  5. the same again with rung's threads other than the UI thread set to nice 10 by the
#     harness (an experiment: the UI thread ahead of the compile threads for a CPU).
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${1:-$SRC/build-tuibench}" && pwd)
N=${2:-400}
KEYS=${3:-200}
RUNG=$B/rung
for t in python3 git; do
	command -v $t >/dev/null || { echo "tui_latency.sh: $t not installed" >&2; exit 2; }
done
[ -x "$RUNG" ] || { echo "tui_latency.sh: build rung in $B first" >&2; exit 2; }
W=$(mktemp -d /tmp/rung-tui-latency-XXXXXX)
trap 'rm -rf "$W"' EXIT
R=$W/repo

git init -q -b main "$R"
T=$SRC/tests/tasks/sgemm
awk -v n="$N" -v ini="$T/rung.ini" -v ref="$T/reference.cu" -v ker="$T/sgemm.cu" '
function slurp(f,   s, l) { s = ""; while ((getline l < f) > 0) s = s l "\n"; close(f); return s }
BEGIN {
	I = slurp(ini); F = slurp(ref); K = slurp(ker)
	for (i = 1; i <= n; i++) {
		ts = 1764432000 + i * 60
		printf "commit refs/heads/main\nauthor Ada Lovelace <ada@example.com> %d +0000\n", ts
		printf "committer Ada Lovelace <ada@example.com> %d +0000\ndata <<EOM\nsgemm: try %d\nEOM\n", ts, i
		if (i == 1) {
			printf "M 100644 inline rung.ini\ndata <<EOD\n%sEOD\n", I
			printf "M 100644 inline reference.cu\ndata <<EOD\n%sEOD\n", F
		}
		printf "M 100644 inline sgemm.cu\ndata <<EOD\n// try %d\n%sEOD\n\n", i, K
	}
}' | git -C "$R" fast-import --quiet
git -C "$R" checkout -q -f main
echo "repository: $(git -C "$R" rev-list --count HEAD) commits, every one changing sgemm.cu"
cd "$R"
wait=
if [ "$N" -le 1000 ]; then
	t0=$(date +%s%N)
	"$RUNG" eval --all >/dev/null 2>&1 || true
	echo "rung eval --all on the same versions (no GPU: compile rung only, nothing stored): $(( ($(date +%s%N) - t0) / 1000000 )) ms"
else # minutes of compiles: neither that anchor nor the wait for the workbench's evaluation to end
	wait=--no-wait
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$SRC/bench/pty_key_latency.py" --keys "$KEYS" -- "$RUNG" tui | sed 's/^/pty 160x40: /'
python3 "$SRC/bench/pty_key_latency.py" --evaluate $wait --keys "$KEYS" -- "$RUNG" tui | sed 's/^/pty 160x40: /'
python3 "$SRC/bench/pty_key_latency.py" --evaluate $wait --nice-others 10 --keys "$KEYS" -- "$RUNG" tui |
	sed 's/^/pty 160x40: /'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
