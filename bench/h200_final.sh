#!/usr/bin/env bash
# Last H200 checks of a session: GPU tests, time to verdict, the workbench
# evaluating the demo live (scripted, no terminal), per-instruction SASS counts
# shown in the detail screen, and rung profile --ncu. (The flush and CUPTI-mode
# experiments against ncu are in h200_fidelity.sh.) Run from the repo root with
# binaries in .carry/bin.
set -u
. bench/h200_env.sh

echo "== gpu tests"
for t in gpu_faults gpu_profile gpu_rev_store gpu_trace; do
  [ -x "$B/$t" ] && { timeout 300 "$B/$t" > "$O/t.log" 2>&1; rc=$?; cat "$O/t.log" >> "$O/gputests.log"; echo "$t rc=$rc $(tail -1 "$O/t.log")"; rm -f "$O/t.log"; }
done

echo "== time to verdict"
RUNG_TIMING=1 rung check bench/tasks/sgemm4096 > "$O/timing.log" 2>&1
grep -E "rss|context|generate|upload|sum of|peak RSS|\[bench\]|compile|worker" "$O/timing.log"
for i in 1 2 3; do python3 bench/rusage.py rung check bench/tasks/sgemm4096 | tail -1; done

W=$(mktemp -d)
echo "== workbench evaluating the demo live (scripted)"
D=/tmp/rung-demo-live; rm -rf "$D"; rung demo --no-tui "$D" > /dev/null 2>&1
mkdir -p "$O/screens"
printf ':sleep 2\n:dump live-2s.txt\n:sleep 40\n:dump live-42s.txt\nQ\n' > "$W/keys"
(cd "$D" && RUNG_TUI_DUMP_DIR="$O/screens" RUNG_TUI_SCRIPT="$W/keys" timeout 120 rung tui --auto-eval sgemm < /dev/null; echo "tui rc=$?")
head -14 "$O/screens/live-2s.txt"; tail -1 "$O/screens/live-2s.txt"
head -14 "$O/screens/live-42s.txt"; tail -1 "$O/screens/live-42s.txt"

echo "== SASS counts in the detail screen"
(cd "$D" && top=$(git log -1 --format=%h -- sgemm/sgemm.cu) && rung profile --task sgemm --sass "$top" 2>&1 | head -14)
printf '<Enter>\nt\n:dump sass.txt\nQ\n' > "$W/keys2"
(cd "$D" && RUNG_TUI_DUMP_DIR="$O/screens" RUNG_TUI_SCRIPT="$W/keys2" timeout 60 rung tui sgemm < /dev/null; echo "tui rc=$?")
head -30 "$O/screens/sass.txt"

echo "== rung profile --ncu"
(cd "$D" && top=$(git log -1 --format=%h -- sgemm/sgemm.cu) && timeout 120 rung profile --task sgemm --ncu "$top" 2>&1 | tail -4)
