#!/bin/bash
# A version may change language (issue #16): a task whose rung.ini switches
# `kernel = softmax.cu` to `kernel = softmax.ptx` (a Triton-shaped PTX with its
# metadata sidecar softmax.json) keeps its CUDA versions in `rung log`, each
# compiled with its own entry (`rung eval --compile-only`), and `rung compare`
# diffs the SASS of a CUDA version against the PTX one, without a GPU. Then the
# sidecar: it fills block (num_warps x 32) and smem (shared) where rung.ini
# leaves them out, an explicit value that contradicts it is rung.ini:LINE's
# error naming both (exit 3), and a key naming a program to run is refused
# (exit 3).
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
R=$T/repo
git init -q "$R"
git -C "$R" config user.name "Ada Lovelace"
git -C "$R" config user.email ada@example.com
mkdir "$R/t"
spec() { # $1 kernel, $2 entry, $3 scratch args (yes/no), $4 [launch] lines
	cat <<EOF
[task]
name = softmax
kernel = $1
entry = $2
reference = reference.cu
reference_entry = softmax_ref
arch = sm_90
[dims]
R = 64
C = 1000
[arg x]
kind = input
dtype = f32
shape = R, C
[arg y]
kind = output
dtype = f32
shape = R, C
[arg R]
kind = scalar
dtype = i32
value = R
[arg C]
kind = scalar
dtype = i32
value = C
EOF
	[ "$3" = yes ] && printf '[arg global_scratch]\nkind = scratch\nsize = 0\n[arg profile_scratch]\nkind = scratch\nsize = 0\n'
	printf '[launch]\ngrid = R\n%b' "$4"
}
cat >"$R/t/reference.cu" <<'EOF'
// rung: block = 128
extern "C" __global__ void softmax_ref(const float *x, float *y, int R, int C)
{
	int r = blockIdx.x * blockDim.x + threadIdx.x;
	if (r >= R) return;
	const float *xr = x + (long)r * C; float *yr = y + (long)r * C;
	float m = -3.0e38f; for (int i = 0; i < C; i++) m = fmaxf(m, xr[i]);
	float d = 0; for (int i = 0; i < C; i++) d += expf(xr[i] - m);
	for (int i = 0; i < C; i++) yr[i] = expf(xr[i] - m) / d;
}
EOF
sed -e 's/softmax_ref/softmax/' -e 's/expf/__expf/g' -e 's|^// rung: block = 128|// rung: grid = cdiv(R,128); block = 128|' \
	"$R/t/reference.cu" >"$R/t/softmax.cu"
spec softmax.cu softmax no 'block = 128\n' >"$R/t/rung.ini"
git -C "$R" add -A && git -C "$R" commit -qm "cuda: one thread per row"
sed -i 's|/ d;|* (1.0f / d);|' "$R/t/softmax.cu"
git -C "$R" commit -qam "cuda: multiply by the inverse"
grep -v "// rung:" "$RUNG_SRC/tests/fixtures/ptx/triton_like.ptx" >"$R/t/softmax.ptx"
printf '{\n "name": "softmax_kernel",\n "num_warps": 4,\n "shared": 512,\n "global_scratch_size": 0,\n "profile_scratch_size": 0\n}\n' \
	>"$R/t/softmax.json"
spec softmax.ptx softmax_kernel yes '' >"$R/t/rung.ini"
git -C "$R" add -A && git -C "$R" commit -qm "triton: softmax.ptx and its metadata"
cu=$(git -C "$R" rev-parse --short=7 HEAD~1)
ptx=$(git -C "$R" rev-parse --short=7 HEAD)

# rung log: all three versions, the switch said at the PTX one
out=$("$RUNG" log -C "$R" 2>&1) || fail "log: $out"
echo "$out"
[ "$(grep -cE '^[0-9a-f]{7} ' <<<"$out")" = 3 ] || fail "log does not list 3 versions"
grep -q "kernel = changed here from t/softmax.cu" <<<"$out" || fail "log does not say where kernel = changed"
j=$("$RUNG" log --json -C "$R" 2>&1) || fail "log --json: $j"
[ "$(grep -c '"kernel_path":"t/softmax.cu"' <<<"$j")" = 2 ] || fail "log --json: not 2 CUDA versions: $j"
[ "$(grep -c '"kernel_path":"t/softmax.ptx"' <<<"$j")" = 1 ] || fail "log --json: not 1 PTX version: $j"
grep -q '"kernel_from":"t/softmax.cu"' <<<"$j" || fail "log --json: no kernel_from: $j"

# every version compiles with its own kernel file and entry
out=$("$RUNG" eval -C "$R" --compile-only --all 2>&1)
echo "$out"
[ "$(grep -cE '^[0-9a-f]{7}  ok' <<<"$out")" = 3 ] || fail "eval --compile-only: not 3 compiled: $out"
out=$("$RUNG" check -C "$R" --compile-only --json HEAD~2 2>&1) || fail "check HEAD~2: $out"
grep -q '"file":"t/softmax.cu@[0-9a-f]*","entry":"softmax",' <<<"$out" || fail "check HEAD~2 did not read softmax.cu: $out"

# compare a CUDA version with the PTX one: registers and a SASS diff
out=$("$RUNG" compare -C "$R" HEAD~1 HEAD 2>&1)
rc=$?
echo "$out" | head -30
if [ "$rc" = 0 ] && ! grep -q "timing: SKIPPED" <<<"$out"; then
	echo "a GPU is present: the timing ran (skipping the rest of the compare checks)"
else
	[ "$rc" = 4 ] || fail "compare: exit $rc, not 4 (no GPU)"
	grep -q "^a $cu$" <<<"$out" || fail "compare: no a ($cu)"
	grep -q "^b $ptx$" <<<"$out" || fail "compare: no b ($ptx)"
	grep -qE "^regs +[0-9]+ +[0-9]+" <<<"$out" || fail "compare: no registers"
	if ! grep -q "^SASS: nvdisasm not found" <<<"$out"; then
		grep -qE "^SASS diff a -> b( \([^)]*\))?: [0-9]+ hunks?" <<<"$out" || fail "compare: no SASS diff"
		grep -q "^-softmax:" <<<"$out" || fail "compare: the CUDA kernel's SASS is not on the a side"
		grep -q "^+softmax_kernel:" <<<"$out" || fail "compare: the PTX kernel's SASS is not on the b side"
	fi
fi

# the sidecar fills block and smem
W=$R/t
out=$("$RUNG" check --compile-only --json "$W" 2>&1) || fail "check with the sidecar: $out"
grep -q '"sidecar":"[^"]*t/softmax.json","grid":\[64,1,1\],"block":\[128,1,1\],"smem":512' <<<"$out" ||
	fail "the sidecar did not fill block and smem: $out"
# an explicit value wins where it agrees with the sidecar
spec softmax.ptx softmax_kernel yes 'block = 128\nsmem = 1024\n' >"$W/rung.ini"
out=$("$RUNG" check --compile-only --json "$W" 2>&1) || fail "check with an agreeing block: $out"
grep -q '"block":\[128,1,1\],"smem":1024' <<<"$out" || fail "the spec's smem did not win: $out"
# and is the spec's error where it does not
spec softmax.ptx softmax_kernel yes 'block = 256\n' >"$W/rung.ini"
out=$("$RUNG" check --compile-only "$W" 2>&1)
rc=$?
[ "$rc" = 3 ] || fail "a block against num_warps: exit $rc, not 3: $out"
grep -q "t/rung.ini:35: \[launch\] block: 256 x 1 x 1 threads, but .*t/softmax.json:3 says num_warps = 4" <<<"$out" ||
	fail "block conflict message: $out"
spec softmax.ptx softmax_kernel yes 'smem = 100\n' >"$W/rung.ini"
out=$("$RUNG" check --compile-only "$W" 2>&1)
[ $? = 3 ] || fail "smem under shared: not exit 3: $out"
grep -q "t/rung.ini:35: \[launch\] smem: 100 bytes, but .*t/softmax.json:4 says shared = 512" <<<"$out" ||
	fail "smem conflict message: $out"
# in git too: a version's own sidecar, at its revision
git -C "$R" checkout -q -- t/rung.ini
# a key that names a program to run is refused, at its line
for key in command ptxas launcher pre_hook; do
	printf '{\n "num_warps": 4,\n "shared": 512,\n "%s": "/bin/sh"\n}\n' "$key" >"$W/softmax.json"
	out=$("$RUNG" check --compile-only "$W" 2>&1)
	rc=$?
	[ "$rc" = 3 ] || fail "sidecar key $key: exit $rc, not 3: $out"
	grep -q "t/softmax.json:4: key '$key': rung never runs a program named by the repository" <<<"$out" ||
		fail "sidecar key $key: $out"
done
printf '{"num_warps": 4, "target": {"arch": 90, "compiler": "x"}}' >"$W/softmax.json"
out=$("$RUNG" check --compile-only "$W" 2>&1)
[ $? = 3 ] && grep -q "key 'target.compiler'" <<<"$out" || fail "nested key: $out"
# committed, it is that version's verdict: compile FAILED with the message
git -C "$R" commit -qam "sidecar with a compiler"
out=$("$RUNG" eval -C "$R" --compile-only HEAD 2>&1)
grep -q "key 'target.compiler'" <<<"$out" || fail "eval of a version with a bad sidecar: $out"
# unknown keys are ignored; a sidecar over the size limit is refused
printf '{"num_warps": 4, "shared": 512, "hash": "ab", "debug": false, "cluster_dims": [1,1,1]}' >"$W/softmax.json"
"$RUNG" check --compile-only "$W" >/dev/null 2>&1 || fail "unknown keys were not ignored"
python3 -c 'import json; print(json.dumps({"num_warps": 4, "pad": "x" * 300000}))' >"$W/softmax.json"
out=$("$RUNG" check --compile-only "$W" 2>&1)
[ $? = 3 ] || fail "a huge sidecar: not exit 3: $out"
echo "ok"
