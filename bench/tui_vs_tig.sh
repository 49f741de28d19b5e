#!/usr/bin/env bash
# Workbench speed against tig, in one run on this machine (CPU only).
# Usage: bash bench/tui_vs_tig.sh [BUILD_DIR] [NCOMMITS] [RUNS]
# Needs: tig, hyperfine, tmux, python3 (apt-get install -y tig hyperfine tmux).
#  1. builds a throwaway NCOMMITS-commit repository holding tests/tasks/sgemm, every
#     commit changing sgemm.cu (one comment line), with git fast-import;
#  2. rung tui, display-less (RUNG_TUI_SCRIPT with "Q": curses on /dev/null):
#     process start -> first frame drawn (the newest versions; the rest load behind) -> Q -> exit,
#     and with ":wait" before Q: -> every version listed -> exit (hyperfine);
#  3. rung tui, tig and tig -- sgemm.cu (the path-limited walk rung does) under a 160x40
#     pseudo-terminal (bench/pty_first_frame.py): process start -> the 20th commit's subject
#     on screen (first frame), and -> exit after the quit key sent once it was seen; both tigs
#     also to "of NCOMMITS" in the status line (list fully read) with tmux capture-pane polling;
#  4. bench_tui: redraw per key (idle and with an evaluation in flight), SASS diff.
set -euo pipefail
SRC=$(cd "$(dirname "$0")/.." && pwd)
B=$(cd "${1:-$SRC/build-tuibench}" && pwd)
N=${2:-10000}
RUNS=${3:-10}
RUNG=$B/rung
for t in tig hyperfine tmux python3 git; do
	command -v $t >/dev/null || { echo "tui_vs_tig.sh: $t not installed" >&2; exit 2; }
done
[ -x "$RUNG" ] && [ -x "$B/bench_tui" ] || { echo "tui_vs_tig.sh: build rung and bench_tui in $B first" >&2; exit 2; }
W=$(mktemp -d /tmp/rung-tui-vs-tig-XXXXXX)
trap 'tmux kill-session -t rungbench$$ 2>/dev/null || true; rm -rf "$W"' EXIT
R=$W/repo
export TERM=xterm-256color

# 1. the repository
t0=$(date +%s%N)
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
echo "repository: $(git -C "$R" rev-list --count HEAD) commits, every one changing sgemm.cu, built in $(( ($(date +%s%N) - t0) / 1000000 )) ms"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
MARK="try $((N - 19))"

# 2. rung display-less, real binary, real git backend
printf 'Q\n' > "$W/q.keys"
cd "$R"
RUNG_TUI_SCRIPT=$W/q.keys RUNG_TUI_DUMP_DIR=$W "$RUNG" tui # warm the page cache and the store
hyperfine -N -w 2 -r "$RUNS" --export-json "$W/h.json" \
	"env RUNG_TUI_SCRIPT=$W/q.keys RUNG_TUI_DUMP_DIR=$W LINES=40 COLUMNS=160 $RUNG tui" >/dev/null
python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print('rung tui display-less ($N commits): start -> first frame -> Q -> exit: median %.1f ms (min %.1f, max %.1f, n=%d, hyperfine)' % (r['median']*1e3, r['min']*1e3, r['max']*1e3, len(r['times'])))" "$W/h.json"
printf ':wait\nQ\n' > "$W/wq.keys"
hyperfine -N -w 2 -r "$RUNS" --export-json "$W/hw.json" \
	"env RUNG_TUI_SCRIPT=$W/wq.keys RUNG_TUI_DUMP_DIR=$W LINES=40 COLUMNS=160 $RUNG tui" >/dev/null
python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print('rung tui display-less ($N commits): start -> every version listed (:wait, which ends after 50 ms without an event) -> Q -> exit: median %.1f ms (min %.1f, max %.1f, n=%d, hyperfine)' % (r['median']*1e3, r['min']*1e3, r['max']*1e3, len(r['times'])))" "$W/hw.json"

# 3. under a pseudo-terminal, rung and tig the same way. rung lists the commits that change
# the kernel (a path-limited walk); `tig -- sgemm.cu` does the same walk, plain `tig` the whole
# log (here every commit changes sgemm.cu, so both list the same N commits).
python3 "$SRC/bench/pty_first_frame.py" "$RUNS" Q "$MARK" -- "$RUNG" tui | sed 's/^/pty 160x40: /'
python3 "$SRC/bench/pty_first_frame.py" "$RUNS" q "$MARK" -- tig | sed 's/^/pty 160x40: /'
python3 "$SRC/bench/pty_first_frame.py" "$RUNS" q "$MARK" -- tig -- sgemm.cu | sed 's/^/pty 160x40: (tig -- sgemm.cu) /'
for variant in "tig" "tig -- sgemm.cu"; do
	loads=()
	for i in $(seq "$RUNS"); do
		s=$(date +%s%N)
		tmux new-session -d -s rungbench$$ -x 160 -y 40 "$variant"
		until tmux capture-pane -p -t rungbench$$ 2>/dev/null | grep -q "of $N\b"; do sleep 0.002; done
		loads+=($(( ($(date +%s%N) - s) / 100000 )))
		tmux kill-session -t rungbench$$
	done
	printf '%s\n' "${loads[@]}" | sort -n | awk -v n="$N" -v v="$variant" '{a[NR]=$1} END {m = NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2;
		printf "tmux 160x40: %s: start -> \"of %d\" in its status line (all commits read): median %.1f ms (min %.1f, max %.1f, n=%d; 2 ms polling + tmux)\n", v, n, m/10, a[1]/10, a[NR]/10, NR}'
done
gl=$( { /usr/bin/time -f %e git -C "$R" log --pretty=raw --parents >/dev/null; } 2>&1 )
echo "git log --pretty=raw --parents (what tig reads): $gl s"
gl=$( { /usr/bin/time -f %e git -C "$R" log --pretty=raw --parents -- sgemm.cu >/dev/null; } 2>&1 )
echo "git log --pretty=raw --parents -- sgemm.cu (what tig -- sgemm.cu reads): $gl s"

# 4. in-memory model: key presses, evaluation in flight, SASS diff
"$B/bench_tui" | sed 's/^/bench_tui: /'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
