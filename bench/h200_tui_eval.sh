#!/usr/bin/env bash
# The workbench against the command line on the same versions, in one run
# (issue #13, docs/BENCHMARKS.md "The workbench evaluating live"): the demo's
# SGEMM ladder (11 versions) in fresh demo repositories, `rung eval --all`
# against bench_tui_eval (the git model evaluating every version in-process, as
# `E` does), ROUNDS times in alternating order. Needs rung and bench_tui_eval on
# PATH (.carry/bin) and a GPU. Prints one line per run and the ratio of medians.
set -u
ROUNDS=${ROUNDS:-3}
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
RUNG_BIN=$(command -v rung)
export RUNG_WORKER_EXE=$RUNG_BIN
now() { date +%s.%N; }
cli_run() {
  local d=$W/cli$1
  rung demo --no-tui "$d" >/dev/null 2>&1 || { echo "demo failed"; return 1; }
  local s; s=$(now)
  # --no-sanitize: the workbench's sanitize gate runs after its last result, outside what is timed
  rung eval --all --no-sanitize -C "$d" --task sgemm > "$W/cli.log" 2>&1; local rc=$?
  local e; e=$(now)
  python3 -c "print('cli round $1: rung eval --all %.2f s (rc $rc, %d version lines)' % ($e - $s, $(grep -c '^[0-9a-f]\{7\} ' "$W/cli.log")))"
  python3 -c "print($e - $s)" >> "$W/cli.t"
}
tui_run() {
  local d=$W/tui$1
  rung demo --no-tui "$d" >/dev/null 2>&1 || { echo "demo failed"; return 1; }
  local s; s=$(now)
  bench_tui_eval "$d" sgemm > "$W/tui.log" 2>&1; local rc=$?
  local e; e=$(now)
  echo "tui round $1: $(head -1 "$W/tui.log") (rc $rc)"
  sed -n 2,3p "$W/tui.log"
  python3 -c "print($e - $s)" >> "$W/tui.t"
}
for r in $(seq 1 "$ROUNDS"); do
  if [ $((r % 2)) = 1 ]; then cli_run "$r"; tui_run "$r"; else tui_run "$r"; cli_run "$r"; fi
done
python3 - "$W/cli.t" "$W/tui.t" <<'PY'
import statistics, sys
c = [float(x) for x in open(sys.argv[1])]; t = [float(x) for x in open(sys.argv[2])]
print("cli  wall s: min %.2f median %.2f max %.2f" % (min(c), statistics.median(c), max(c)))
print("tui  wall s: min %.2f median %.2f max %.2f (process start to exit)" % (min(t), statistics.median(t), max(t)))
print("ratio of medians (workbench / cli): %.2f" % (statistics.median(t) / statistics.median(c)))
PY
