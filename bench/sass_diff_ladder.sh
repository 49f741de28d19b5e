#!/usr/bin/env bash
# The SASS diff's hunk count and size on the demo ladder's consecutive steps,
# before and after normalization (docs/BENCHMARKS.md, "SASS diff"). Needs no
# GPU: each step is compiled with NVRTC (`rung dump`) and disassembled with
# nvdisasm; bench_sassdiff prints the table.
#   bench/sass_diff_ladder.sh [BUILD_DIR]    (default: build)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$src/build}
rung=$build/rung
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$src/examples/sgemm" "$tmp/task"
args=()
# the steps in the ladder's commit order (examples/sgemm/ladder.txt), those that compile
while IFS='|' read -r step _; do
	step=${step// /}
	case $step in '' | \#* | remark | directive | done) continue ;; esac
	cp "$tmp/task/ladder/$step.cu" "$tmp/task/$step.cu"
	if "$rung" dump -o "$tmp/$step" "$tmp/task/$step.cu" >/dev/null 2>&1; then
		args+=("$step=$tmp/$step/kernel.sass")
	else
		echo "($step does not compile: left out)" >&2
	fi
done <"$src/examples/sgemm/ladder.txt"
echo "machine: $(uname -srm), $(nproc) CPUs; $(date -u +%Y-%m-%d); nvdisasm $(nvdisasm --version 2>/dev/null | tail -1)"
"$build/bench_sassdiff" "${args[@]}"
