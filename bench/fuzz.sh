#!/usr/bin/env bash
# The long fuzzing run recorded in docs/BENCHMARKS.md: every libFuzzer harness
# (tests/fuzz/) for 10 minutes, one at a time (100 minutes in all), printing
# executions and crashes per harness. Needs clang with libFuzzer.
#   bench/fuzz.sh [SECONDS] [PARSER...]     (default 600 s, every harness)
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-600}
[ $# -gt 0 ] && shift
exec tests/fuzz/run.sh "$secs" "$@"
