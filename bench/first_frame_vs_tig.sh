#!/usr/bin/env bash
# The workbench's first frame against tig's, in one run (#28 "First frame against tig"):
# rung demo's repository and a 10,000-commit one, under a 160x40 pseudo-terminal
# (bench/pty_first_frame.py: process start -> a known subject on screen -> quit key -> exit),
# each binary given interleaved with tig, ROUNDS rounds of RUNS runs.
# Usage: bash bench/first_frame_vs_tig.sh RUNG [RUNG_BEFORE] [RUNS] [ROUNDS] [NCOMMITS]
# Needs tig, git, python3. No hyperfine.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
RUNG=$(realpath "$1"); BEFORE=${2:+$(realpath "$2")}
RUNS=${3:-10}; ROUNDS=${4:-3}; N=${5:-10000}
for t in tig python3 git; do command -v $t >/dev/null || { echo "first_frame_vs_tig.sh: $t not installed" >&2; exit 2; }; done
W=$(mktemp -d /tmp/rung-ff-XXXXXX)
trap 'rm -rf "$W"' EXIT
export TZ=UTC XDG_CONFIG_HOME=$W/config
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "tig: $(tig --version | head -1); rung: $("$RUNG" --version | head -1)${BEFORE:+; before: $("$BEFORE" --version | head -1)}"
"$RUNG" demo --no-tui "$W/demo" >/dev/null
# the 10,000 commits of bench/tui_vs_tig.sh: each changes sgemm.cu
R=$W/big; git init -q -b main "$R"; T=$SRC/tests/tasks/sgemm
awk -v n="$N" -v ini="$T/rung.ini" -v ref="$T/reference.cu" -v ker="$T/sgemm.cu" '
function slurp(f,   s, l) { s = ""; while ((getline l < f) > 0) s = s l "\n"; close(f); return s }
BEGIN { I = slurp(ini); F = slurp(ref); K = slurp(ker)
	for (i = 1; i <= n; i++) { ts = 1764432000 + i * 60
		printf "commit refs/heads/main\nauthor Ada Lovelace <ada@example.com> %d +0000\n", ts
		printf "committer Ada Lovelace <ada@example.com> %d +0000\ndata <<EOM\nsgemm: try %d\nEOM\n", ts, i
		if (i == 1) { printf "M 100644 inline rung.ini\ndata <<EOD\n%sEOD\n", I; printf "M 100644 inline reference.cu\ndata <<EOD\n%sEOD\n", F }
		printf "M 100644 inline sgemm.cu\ndata <<EOD\n// try %d\n%sEOD\n\n", i, K } }' | git -C "$R" fast-import --quiet
git -C "$R" checkout -q -f main
ff() { python3 "$SRC/bench/pty_first_frame.py" "$RUNS" "$@"; }
for repo in demo big; do
	cd "$W/$repo"
	if [ $repo = demo ]; then mark="fix N tail"; tigs=("tig"); else mark="try $((N - 19))"; tigs=("tig" "tig -- sgemm.cu"); fi
	# warm the page cache and the store
	printf 'Q\n' >"$W/q"; RUNG_TUI_SCRIPT=$W/q RUNG_TUI_DUMP_DIR=$W "$RUNG" tui --no-auto-eval >/dev/null 2>&1 || true
	echo "== $repo ($(git rev-list --count HEAD) commits), marker '$mark', load average $(cut -d' ' -f1-3 /proc/loadavg)"
	for round in $(seq "$ROUNDS"); do
		ff Q "$mark" -- "$RUNG" tui --no-auto-eval | sed "s/^/r$round after: /"
		[ -n "$BEFORE" ] && ff Q "$mark" -- "$BEFORE" tui --no-auto-eval | sed "s/^/r$round before: /"
		for tv in "${tigs[@]}"; do ff q "$mark" -- $tv | sed "s/^/r$round ($tv): /"; done
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
