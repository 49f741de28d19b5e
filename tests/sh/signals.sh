#!/bin/bash
# SIGTERM, SIGINT and SIGHUP end rung check and rung dump with 128+N (#27
# item 5), never with NVRTC's exit(4) (rung's "no GPU" code), at several
# points of the command (compiling, disassembling); their children (nvdisasm)
# are gone and their temporary files ($TMPDIR/rung-cubin-*, rung-ptxas-*)
# removed. A command that finished before the signal exits as usual.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export RUNG_WORKER_EXE="$RUNG" HOME="$T" GIT_CONFIG_NOSYSTEM=1 TMPDIR="$T/tmp" RUNG_CACHE_DIR="$T/cache"
mkdir -p "$TMPDIR"
git config --global user.name "Ada Lovelace" && git config --global user.email ada@example.com
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || fail "rung demo exited $?"
cd "$T/demo/sgemm" || fail "no sgemm task"
# job control: a background command of a shell without it ignores SIGINT
# (bash), and rung keeps a signal it inherited ignored (nohup's SIGHUP too)
set -m
n=0
for cmd in "check HEAD" "dump HEAD" "check --compile-only HEAD~2"; do
	for sig in TERM INT HUP; do
		for delay in 0.05 0.4 1.2; do
			# no cached CUBIN or SASS, so the signal can land mid-compile
			rm -rf "$RUNG_CACHE_DIR"
			# shellcheck disable=SC2086
			"$RUNG" $cmd >"$T/out" 2>&1 &
			pid=$!
			sleep "$delay"
			kill -"$sig" "$pid" 2>/dev/null
			wait "$pid"
			rc=$?
			case $sig in TERM) want=143 ;; INT) want=130 ;; HUP) want=129 ;; esac
			# finished before the signal: its own code (0, or 4 without a GPU
			# for check HEAD, after its own [bench] line: NVRTC's exit(4) on a
			# signal would print none)
			[ "$rc" = "$want" ] || [ "$rc" = 0 ] || { [ "$rc" = 4 ] && [ "$cmd" = "check HEAD" ] && grep -q '^\[bench\] SKIPPED' "$T/out"; } ||
				fail "rung $cmd, SIG$sig after $delay s: exit $rc (want $want)"
			[ "$rc" = "$want" ] && n=$((n + 1))
			sleep 0.2
			left=$(ls "$TMPDIR")
			[ -z "$left" ] || fail "rung $cmd, SIG$sig after $delay s: left in \$TMPDIR: $left"
			pgrep -f "nvdisasm .*$TMPDIR" >/dev/null && fail "rung $cmd, SIG$sig after $delay s: nvdisasm left running"
		done
	done
done
[ "$n" -gt 0 ] || fail "no signal landed before its command ended (the machine is too fast for this test?)"
echo "ok ($n of 27 signals landed mid-command)"
