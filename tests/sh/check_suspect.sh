#!/usr/bin/env bash
# rung check shows the PTX evidence (docs/CHECKS.md, "Evidence: suspects"): a
# kernel with a __device__ counter gets a [suspect] line after its rung lines
# and a "suspects" entry in --json, and the exit code stays the rungs' (the
# same as the plain kernel's, with or without a GPU). The plain kernel has none.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
fail=0
t() { # t NAME CONDITION...
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$RUNG_SRC/tests/faults/good" "$tmp/good"
cp -r "$RUNG_SRC/tests/faults/good" "$tmp/counter"
{ printf '__device__ int calls;\n'; sed 's/^\tif (i < n)$/\tif (i == 0) calls++;\n\tif (i < n)/' "$RUNG_SRC/tests/faults/good/kernel.cu"; } > "$tmp/counter/kernel.cu"
want="[suspect] mutable-global: mutable __device__ global 'calls' (written by the kernel): state can carry over between launches"

out=$("$RUNG" check --compile-only "$tmp/counter" 2>&1); rc=$?
echo "$out"
t "compile-only exits 0 with a suspect" [ "$rc" = 0 ]
t "the suspect line follows the compile line" [ "$(sed -n 2p <<<"$out")" = "$want" ]
json=$("$RUNG" check --compile-only --json "$tmp/counter" 2>/dev/null)
t "json suspects" grep -qF '"suspects":[{"kind":"mutable-global","reason":"mutable __device__ global '"'calls'"' (written by the kernel)' <<<"$json"

out=$("$RUNG" check --compile-only "$tmp/good" 2>&1); rc=$?
t "plain kernel exits 0" [ "$rc" = 0 ]
t "plain kernel: no suspect line" bash -c '! grep -q "^\[suspect\]" <<<"$1"' _ "$out"
t "plain kernel: json suspects empty" grep -qF '"suspects":[]' <<<"$("$RUNG" check --compile-only --json "$tmp/good" 2>/dev/null)"

# The whole ladder (SKIPPED without a GPU): the flag alone never changes the exit code.
"$RUNG" check "$tmp/good" >"$tmp/good.out" 2>&1; rc_good=$?
"$RUNG" check "$tmp/counter" >"$tmp/counter.out" 2>&1; rc_counter=$?
cat "$tmp/counter.out"
t "same exit code as the plain kernel ($rc_good)" [ "$rc_counter" = "$rc_good" ]
t "the suspect is the last line" [ "$(tail -n 1 "$tmp/counter.out")" = "$want" ]
json=$("$RUNG" check --json "$tmp/counter" 2>/dev/null)
t "json of the whole ladder: in the result record too" grep -qF '"result":{' <<<"$json"
t "json of the whole ladder: suspects twice (top level and record)" [ "$(grep -o '"kind":"mutable-global"' <<<"$json" | wc -l)" = 2 ]

[ $fail = 0 ] && echo "all passed"
exit $fail
