#!/usr/bin/env bash
# CI, after scripts/test.sh: runs every libFuzzer harness (tests/fuzz/) for
# RUNG_FUZZ_RUNS (default 100000) runs from a fixed seed, so CI is
# reproducible: new findings come from bench/fuzz.sh (10 minutes each, random)
# and go into tests/fuzz/regress/. Installs clang through apt when it is
# missing; when clang with libFuzzer cannot be had, says so and exits 0. Any
# crash fails the run, with the crashing input's path and the sanitizer report.
set -euo pipefail
cd "$(dirname "$0")/.."
have_libfuzzer() {
	command -v clang >/dev/null 2>&1 || return 1
	local t
	t=$(mktemp -d)
	printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return 0; }\n' >"$t/f.c"
	clang -fsanitize=fuzzer,address,undefined -o "$t/f" "$t/f.c" >/dev/null 2>&1
	local rc=$?
	rm -rf "$t"
	return $rc
}
if ! have_libfuzzer && command -v apt-get >/dev/null 2>&1; then
	SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
	echo "fuzz-ci: installing clang" >&2
	{ $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq clang >/dev/null; } ||
		echo "fuzz-ci: apt-get install clang failed" >&2
fi
if ! have_libfuzzer; then
	echo "fuzz-ci: SKIPPED: no clang with libFuzzer (-fsanitize=fuzzer) on this machine"
	exit 0
fi
RUNG_FUZZ_RUNS=${RUNG_FUZZ_RUNS:-100000} exec tests/fuzz/run.sh "${RUNG_FUZZ_SECONDS:-30}"
