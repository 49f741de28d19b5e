#!/usr/bin/env bash
# Sets up, builds and runs the whole test suite: a -Werror build and an
# ASan+UBSan build, each with ctest. GPU tests skip (exit 77) without a GPU.
# What is built already is not built again (build/ and build-asan/ are kept).
# The ASan build compiles (at a lower priority) while the first ctest runs:
# much of a ctest run waits (on a worker, a deadline, a screen), and the
# compiler takes that time instead of leaving it idle.
#   RUNG_SKIP_SANITIZE=1   the -Werror build only
#   RUNG_TEST_JOBS=N       ctest's parallel tests (default: twice the cores: many
#                          tests wait, on a worker, a screen or a signal's delay,
#                          and a third and fourth test use that time; ctest -j4 took
#                          188 s where -j2 took 260 s on 2 cores, docs/BENCHMARKS.md)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
jobs=$(nproc 2>/dev/null || echo 2)
tjobs=${RUNG_TEST_JOBS:-$((2 * jobs))}
# configure: Ninja where it is installed and the directory is new (an
# existing build directory keeps the generator it was made with)
configure() { # DIR OPTIONS...
	local dir=$1 gen=()
	shift
	if [ ! -f "$dir/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then gen=(-G Ninja); fi
	cmake -S . -B "$dir" "${gen[@]}" "$@" >/dev/null
}
sanitize=1
[ "${RUNG_SKIP_SANITIZE:-0}" = 1 ] && sanitize=0
configure build -DRUNG_WERROR=ON
cmake --build build -j"$jobs"
asan_pid=
if [ "$sanitize" = 1 ]; then
	configure build-asan -DRUNG_WERROR=ON -DRUNG_SANITIZE=ON
	# its own process group (setsid), so that all of it can be stopped
	setsid nice -n 10 cmake --build build-asan -j"$jobs" >build-asan/build.log 2>&1 &
	asan_pid=$!
fi
# the ASan build is stopped when the first ctest fails
trap '[ -n "$asan_pid" ] && kill -- -"$asan_pid" 2>/dev/null; true' EXIT
ctest --test-dir build --output-on-failure -j"$tjobs"
if [ "$sanitize" = 1 ]; then
	if ! wait "$asan_pid"; then
		asan_pid=
		cat build-asan/build.log
		echo "scripts/test.sh: the ASan build failed (build-asan/build.log)" >&2
		exit 1
	fi
	asan_pid=
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		ctest --test-dir build-asan --output-on-failure -j"$tjobs"
fi
