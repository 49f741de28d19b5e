#!/bin/bash
# The test programs remove the temporary directories they make (t_tmpdir)
# when every case passes: run a few that make many, each with its own TMPDIR,
# and find nothing left.
set -u
: "${RUNG:?}"
B=$(dirname "$RUNG")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
for t in test_spec test_store test_notes test_history test_npy test_trace; do
	[ -x "$B/$t" ] || continue
	mkdir -p "$T/$t"
	TMPDIR="$T/$t" "$B/$t" >/dev/null 2>&1 || fail "$t failed"
	left=$(ls -A "$T/$t")
	[ -z "$left" ] || fail "$t left $(wc -w <<<"$left") entries in TMPDIR: $(head -c 200 <<<"$left")"
done
echo "tests clean up: ok"
