#!/usr/bin/env bash
# Builds the libFuzzer harnesses (clang, -DRUNG_FUZZ=ON, in build-fuzz/) and
# runs each for SECONDS, as many at a time as there are cores (RUNG_FUZZ_JOBS),
# from its seed corpus and regression inputs (read only; what the fuzzer adds
# goes to build-fuzz/corpus/<parser>). Prints one line per harness, in the
# order given (executions, crashes) and, for a crash, the crashing input's
# path and the sanitizer report. Exit 1 on any crash.
#   tests/fuzz/run.sh SECONDS [PARSER...]     (default: every harness)
# With RUNG_FUZZ_RUNS=N each harness makes N runs from seed 1 instead (CI):
# the same runs whatever else runs beside it.
set -uo pipefail
cd "$(dirname "$0")/../.."
secs=${1:?usage: tests/fuzz/run.sh SECONDS [PARSER...]}
shift
parsers=("$@")
[ ${#parsers[@]} -gt 0 ] || parsers=(spec expr launch sass npy result protocol ptxas theme config ncu stall import cubin mcp)
B=${RUNG_FUZZ_BUILD:-build-fuzz}
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S . -B "$B" -DCMAKE_C_COMPILER=clang -DRUNG_FUZZ=ON >/dev/null || exit 1
cmake --build "$B" --target rung_fuzz -j"$jobs" >"$B/build.log" 2>&1 || { cat "$B/build.log"; exit 1; }

if [ -n "${RUNG_FUZZ_RUNS:-}" ]; then what="${RUNG_FUZZ_RUNS} runs (seed 1)"; else what="${secs} s"; fi
echo "fuzz: $what per harness, $(clang --version | head -1), $(nproc) cores, $(date -u +%Y-%m-%d)"
printf '%-10s %8s %12s %10s %8s %s\n' harness seconds execs exec/s crashes corpus
# run_one PARSER: one harness; its table line in $B/logs/PARSER.line, and what
# to say about a failure in $B/logs/PARSER.fail (absent when it passed)
run_one() {
	local h=$1 work="$B/corpus/$1" art="$B/crashes/$1" log="$B/logs/$1.log"
	mkdir -p "$work" "$art" "$B/logs"
	rm -f "$B/logs/$h.fail" "$B/logs/$h.line"
	local seeds=(tests/fuzz/corpus/"$h")
	[ -d tests/fuzz/regress/"$h" ] && seeds+=(tests/fuzz/regress/"$h")
	local start budget rc took execs rate crashes
	start=$(date +%s)
	# -timeout: an input that runs 10 s is a hang, reported like a crash
	# RUNG_FUZZ_RUNS=N (CI): N runs from a fixed seed instead of SECONDS, so a
	# run is reproducible and a submission cannot fail on what chance found
	if [ -n "${RUNG_FUZZ_RUNS:-}" ]; then budget=(-runs="$RUNG_FUZZ_RUNS" -seed=1); else budget=(-max_total_time="$secs"); fi
	"$B/fuzz_$h" "${budget[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$art/" "$work" "${seeds[@]}" >"$log" 2>&1
	rc=$?
	took=$(($(date +%s) - start))
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	crashes=$(find "$art" -type f | wc -l)
	printf '%-10s %8s %12s %10s %8s %s\n' "$h" "$took" "${execs:--}" "${rate:--}" "$crashes" \
		"$(find "$work" -type f | wc -l) files" >"$B/logs/$h.line"
	if [ "$rc" != 0 ] || [ "$crashes" != 0 ]; then
		{
			echo "--- fuzz_$h failed (exit $rc); crashing input:"
			find "$art" -type f -print
			echo "--- sanitizer report ($log):"
			grep -n -m1 -E '^==[0-9]+==ERROR|runtime error|invariant failed|ERROR: libFuzzer' "$log" |
				cut -d: -f1 | { read -r n && tail -n +"$n" "$log" | head -60; } || tail -60 "$log"
		} >"$B/logs/$h.fail"
	fi
}
par=${RUNG_FUZZ_JOBS:-$jobs}
running=0
for h in "${parsers[@]}"; do
	if [ "$running" -ge "$par" ]; then
		wait -n
		running=$((running - 1))
	fi
	run_one "$h" &
	running=$((running + 1))
done
wait
failed=0
for h in "${parsers[@]}"; do
	cat "$B/logs/$h.line" 2>/dev/null || printf '%-10s %8s\n' "$h" "(no result)"
	if [ -e "$B/logs/$h.fail" ] || [ ! -e "$B/logs/$h.line" ]; then
		failed=1
		cat "$B/logs/$h.fail" 2>/dev/null
	fi
done
exit "$failed"
