#!/usr/bin/env bash
# rung check --compile-only and rung dump on tests/tasks/sgemm: the real register count
# and resources, exact compile errors with file:line, exit codes, and the dump files.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
fail=0
t() { # t NAME CONDITION...: records a failure with its name
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$RUNG_SRC/tests/tasks/sgemm" "$tmp/sgemm"
cd "$tmp/sgemm"

# 1. A good kernel: one line with the resources ptxas reports for sgemm<32>.
out=$("$RUNG" check --compile-only 2>&1); rc=$?
echo "$out"
t "compile-only exits 0" [ "$rc" = 0 ]
t "compile line format" grep -Eq '^\[compile\] ok regs=[1-9][0-9]* spills=0 stack=0 smem=8192 ptx=[0-9]+\.[0-9]KB cubin=[0-9]+\.[0-9]KB [0-9]+ms$' <<<"$out"
regs=$(sed -nE 's/^\[compile\] ok regs=([0-9]+) .*/\1/p' <<<"$out")
# The same count from the toolkit's standalone ptxas on the PTX rung produced, when it is here.
ptxas=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
if [ -x "$ptxas" ]; then
	"$RUNG" dump --out "$tmp/ptx" >/dev/null 2>&1
	want=$("$ptxas" -arch=sm_90 -v "$tmp/ptx/kernel.ptx" -o /dev/null 2>&1 | sed -nE 's/.*Used ([0-9]+) registers.*/\1/p' | head -1)
	t "regs=$regs matches standalone ptxas (${want:-none})" test -n "$want" -a "$regs" = "$want"
else
	echo "skip ptxas cross-check (no ptxas)"
fi

# 2. A FILE inside the task dir is compiled as the kernel; --json has the same facts.
json=$("$RUNG" check --compile-only --json sgemm.cu); rc=$?
t "json exits 0" [ "$rc" = 0 ]
t "json regs" grep -q "\"regs\":$regs," <<<"$json"
t "json lowered name" grep -q '"lowered":"_Z5sgemmILi32EEviiiPKfS1_Pf"' <<<"$json"
t "json smem" grep -q '"smem":8192' <<<"$json"
t "json one line" [ "$(wc -l <<<"$json")" = 1 ]

# 3. A broken kernel: FAILED with the first error as file:line, exit 1.
sed 's/acc += As/acc += Xs/' sgemm.cu > broken.cu
out=$("$RUNG" check --compile-only broken.cu 2>&1); rc=$?
echo "$out"
t "broken exits 1" [ "$rc" = 1 ]
t "broken line" [ "$out" = '[compile] FAILED broken.cu:19: identifier "Xs" is undefined' ]
json=$("$RUNG" check --compile-only --json broken.cu 2>/dev/null)
t "broken json status" grep -q '"status":"FAILED"' <<<"$json"

# 4. A malformed launch line: a spec error (exit 3) naming file:line.
sed 's/block = 32, 32/blok = 32/' sgemm.cu > badlaunch.cu
err=$("$RUNG" check --compile-only badlaunch.cu 2>&1 >/dev/null); rc=$?
t "bad launch exits 3" [ "$rc" = 3 ]
t "bad launch message" grep -q "badlaunch.cu:2: rung: unknown key 'blok'" <<<"$err"

# 5. A reference that does not compile is its own error (exit 3).
cp reference.cu reference.ok
echo 'this is not C++' >> reference.cu
err=$("$RUNG" check --compile-only 2>&1 >/dev/null); rc=$?
t "broken reference exits 3" [ "$rc" = 3 ]
t "broken reference message" grep -q "the reference reference.cu does not compile: reference.cu:13:" <<<"$err"
mv reference.ok reference.cu

# 6. Usage errors.
"$RUNG" check --compile-only no/such/dir >/dev/null 2>&1; rc=$?
t "missing path exits 2" [ "$rc" = 2 ]
"$RUNG" check --frobnicate >/dev/null 2>&1; rc=$?
t "unknown option exits 2" [ "$rc" = 2 ]

# 6b. --json on a spec error: a JSON object with the error on stdout, exit 3.
cp -r . "$tmp/badspec" && echo "[bogus]" >> "$tmp/badspec/rung.ini"
js=$("$RUNG" check --json --compile-only "$tmp/badspec" 2>/dev/null); rc=$?
t "--json spec error exits 3" [ "$rc" = 3 ]
t "--json spec error is a JSON object" python3 -c 'import json,sys; o=json.loads(sys.argv[1]); assert o["status"]=="error" and o["exit"]==3 and "rung.ini:" in o["error"]' "$js"

# 7. dump: default directory, all files; SASS with FFMA and LDG.E when nvdisasm is here.
out=$("$RUNG" dump 2>"$tmp/dump.err"); rc=$?
echo "$out"
t "dump exits 0" [ "$rc" = 0 ]
for f in kernel.cu kernel.ptx kernel.cubin ptxas.log reference.cu reference.ptx reference.cubin reference.ptxas.log; do
	t "dump wrote $f" [ -s ".rung/dumps/$f" ]
	t "dump printed $f" grep -qx ".rung/dumps/$f" <<<"$out"
done
t "dump keeps its folder out of git" grep -qx '\*' .rung/.gitignore
if command -v git >/dev/null; then
	git init -q "$tmp/g" && cp -r . "$tmp/g/t" && rm -rf "$tmp/g/t/.rung" && (cd "$tmp/g/t" && "$RUNG" dump >/dev/null 2>&1)
	t "git add -A picks no dump" [ -z "$(cd "$tmp/g" && git add -A && git status --porcelain | grep '\.rung/')" ]
fi
t "dump ptx has the entry" grep -q '.entry _Z5sgemmILi32EEviiiPKfS1_Pf' .rung/dumps/kernel.ptx
t "dump ptxas.log has the entry" grep -q "Compiling entry function '_Z5sgemmILi32EEviiiPKfS1_Pf'" .rung/dumps/ptxas.log
if grep -q "nvdisasm not found" "$tmp/dump.err"; then
	echo "skip SASS checks: nvdisasm not found (pip install nvidia-cuda-nvdisasm)"
else
	t "dump kernel.sass has FFMA" grep -q 'FFMA' .rung/dumps/kernel.sass
	t "dump kernel.sass has LDG.E" grep -q 'LDG\.E' .rung/dumps/kernel.sass
	t "dump reference.sass has DFMA" grep -q 'DFMA' .rung/dumps/reference.sass
fi

# 8. Without nvdisasm: no .sass, said on stderr, still exit 0.
RUNG_NVDISASM= "$RUNG" dump --out "$tmp/nosass" >/dev/null 2>"$tmp/nosass.err"; rc=$?
t "no nvdisasm exits 0" [ "$rc" = 0 ]
t "no nvdisasm: no .sass" [ ! -e "$tmp/nosass/kernel.sass" ]
t "no nvdisasm: cubin still" [ -s "$tmp/nosass/kernel.cubin" ]
t "no nvdisasm: said so" grep -q "nvdisasm not found (pip install nvidia-cuda-nvdisasm)" "$tmp/nosass.err"

exit $fail
