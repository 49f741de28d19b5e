#!/bin/bash
# Without a GPU, every --json command answers on stdout with a JSON object
# that says SKIPPED and why, and exits 4 like the text mode (an agent reads
# stdout, not stderr). Skipped (77) where a CUDA driver is present.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
if ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; then echo "skip: a CUDA driver is here"; exit 77; fi
fail() { echo "FAIL: $*"; exit 1; }
task="$RUNG_SRC/tests/tasks/sgemm"
for cmd in "check --json $task" "profile --json $task" "trace --json $task" "ceilings --json"; do
	out=$($RUNG $cmd 2>/dev/null); rc=$?
	[ "$rc" = 4 ] || fail "rung $cmd: exit $rc, expected 4"
	python3 -c '
import json, sys
o = json.loads(sys.argv[1])
st = o.get("status")
if st != "SKIPPED" and o.get("result", {}).get("status") != "SKIPPED":
    sys.exit("status %r" % st)
' "$out" || fail "rung $cmd: not a SKIPPED JSON object: $out"
done
echo "json without a GPU: ok"
