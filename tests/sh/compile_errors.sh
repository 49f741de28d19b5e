#!/bin/bash
# Compile errors as a new user meets them (#28 D-20): only the first compile
# error was shown, with no word of the others, and an entry that is not found
# did not name the kernels the file has. Now the first error says how many
# more there are ("(and 1 more error)", in rung log too), rung check lists the
# others under it (five at most, then how many are left), and "entry ... not
# found" names the file's __global__ kernels. No GPU needed.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
D=$T/t
mkdir "$D" && cp "$RUNG_SRC"/tests/tasks/sgemm/* "$D"/ || fail "task"
orig=$(cat "$D/sgemm.cu")

# two undefined identifiers: both named
sed -i 's/acc += As/accx += As/; s/C\[(size_t)row \* N + col\] = acc;/C[(size_t)row * N + col] = accy;/' "$D/sgemm.cu"
out=$(cd "$D" && "$RUNG" check --compile-only 2>&1)
[ $? = 1 ] || fail "exit: $out"
echo "$out"
[ "$(sed -n 1p <<<"$out")" = '[compile] FAILED sgemm.cu:19: identifier "accx" is undefined (and 1 more error)' ] || fail "first: $out"
[ "$(sed -n 2p <<<"$out")" = '          sgemm.cu:23: identifier "accy" is undefined' ] || fail "the other: $out"

# eight: five listed under the first, then how many are left
printf '%s\n' "$orig" | sed 's/acc += As\[threadIdx.y\]\[k\] \* Bs\[k\]\[threadIdx.x\];/acc += u1 + u2 + u3 + u4 + u5 + u6 + u7 + u8;/' >"$D/sgemm.cu"
grep -q u8 "$D/sgemm.cu" || fail "edit"
out=$(cd "$D" && "$RUNG" check --compile-only 2>&1)
echo "$out"
grep -q '^\[compile\] FAILED sgemm.cu:19: identifier "u1" is undefined (and 7 more errors)$' <<<"$out" || fail "eight: $out"
[ "$(grep -c '^          sgemm.cu:19: identifier "u[2-6]" is undefined$' <<<"$out")" = 5 ] || fail "five listed: $out"
grep -q '^          \.\.\. 2 more (rung dump writes the whole compile log)$' <<<"$out" || fail "the rest counted: $out"
grep -q 'u7\|u8' <<<"$out" && fail "more than five listed: $out"

# an entry not found names the kernels there are
printf '%s\n' "$orig" | sed 's/__global__ void sgemm(/__global__ void sgemm_tiled(/' >"$D/sgemm.cu"
out=$(cd "$D" && "$RUNG" check --compile-only 2>&1)
echo "$out"
grep -qF "[compile] FAILED entry 'sgemm<32>' not found in sgemm.cu (its __global__ kernel: sgemm_tiled)" <<<"$out" ||
	fail "entry: $out"

# rung log, from git: the count stays with the first error
R=$T/repo
git init -q "$R" && cd "$R" && git config user.name A && git config user.email a@example.com || fail "git"
mkdir t && cp "$RUNG_SRC"/tests/tasks/sgemm/* t/ &&
	sed -i 's/acc += As/accx += As/; s/C\[(size_t)row \* N + col\] = acc;/C[(size_t)row * N + col] = accy;/' t/sgemm.cu &&
	git add -A && git commit -qm "two typos" || fail "commit"
"$RUNG" eval --compile-only >/dev/null 2>&1
out=$("$RUNG" log 2>&1)
echo "$out"
grep -qE '^[0-9a-f]{7}  two typos +FAIL - - - - +compile: t/sgemm.cu:19: identifier "accx" is undefined \(and 1 more error\)' <<<"$out" ||
	fail "log: $out"
echo "ok"
