#!/bin/bash
# Dumps kept by machine code (#27 item 3): a second `rung dump` of the same
# version neither compiles (the kernel's CUBIN cache entry in the user's cache
# directory, $RUNG_CACHE_DIR/cubin, is read, not written again) nor runs
# nvdisasm (its SASS comes from $RUNG_CACHE_DIR/sass, keyed by the CUBIN and
# the nvdisasm), and writes the same
# files; a changed kernel is compiled and disassembled again; the MCP
# rung://dump/ resources of one version run nvdisasm once in all. nvdisasm is
# a script here that counts its runs and prints a listing of its own.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export HOME="$T" GIT_CONFIG_NOSYSTEM=1
cat >"$T/nvdisasm" <<'SH'
#!/bin/sh
echo run >>"$NVD_LOG"
f=""; for a in "$@"; do f=$a; done
echo "	.text.fake:"
echo "        /*0000*/                   HMMA.1688.F32.TF32 R4, R8, R12, R4 ; // $(cksum <"$f" | cut -d' ' -f1)"
SH
chmod +x "$T/nvdisasm"
export RUNG_NVDISASM=$T/nvdisasm NVD_LOG=$T/nvd.log
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || fail "rung demo exited $?"
cd "$T/demo/sgemm" || fail "no sgemm task"
export RUNG_CACHE_DIR=$T/cache
C=$RUNG_CACHE_DIR
runs() { [ -f "$NVD_LOG" ] && wc -l <"$NVD_LOG" | tr -d ' ' || echo 0; }
"$RUNG" dump HEAD >"$T/paths1" 2>"$T/err" || { cat "$T/err"; fail "first dump exited $?"; }
[ "$(runs)" = 2 ] || fail "first dump: nvdisasm ran $(runs) times, not 2 (kernel, reference)"
[ "$(ls "$C/sass" | wc -l)" = 2 ] || fail "first dump: not 2 SASS entries kept: $(ls "$C/sass")"
[ "$(ls "$C/cubin" | wc -l)" = 2 ] || fail "first dump: the kernel's CUBIN is not kept beside the reference's"
D=$(dirname "$(head -1 "$T/paths1")")
cp -r "$D" "$T/first"
grep -q HMMA "$D/kernel.sass" || fail "the dump's kernel.sass is not nvdisasm's listing"
inodes() { ls -i "$C/cubin" "$C/sass" | sort; }
inodes >"$T/inodes1"
for i in 1 2 3; do
	"$RUNG" dump HEAD >"$T/paths2" 2>"$T/err" || { cat "$T/err"; fail "dump $((i + 1)) exited $?"; }
done
[ "$(runs)" = 2 ] || fail "repeated dumps ran nvdisasm again ($(runs) runs in all)"
inodes | diff "$T/inodes1" - >/dev/null || fail "a repeated dump wrote a cache entry again (it compiled or disassembled)"
diff -r "$T/first" "$D" >/dev/null || fail "a repeated dump wrote other files than the first"
diff "$T/paths1" "$T/paths2" >/dev/null || fail "a repeated dump printed other paths"
# the MCP resources of another version: one dump's work in all
python3 - "$RUNG" <<'PY' || fail "MCP resources (above)"
import json, subprocess, sys
msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}}}]
for i, f in enumerate(["kernel.sass", "kernel.ptx", "ptxas.log", "kernel.sass"]):
    msgs.append({"jsonrpc": "2.0", "id": 2 + i, "method": "resources/read", "params": {"uri": "rung://dump/HEAD~1/" + f}})
out = subprocess.run([sys.argv[1], "mcp"], input="".join(json.dumps(m) + "\n" for m in msgs), capture_output=True, text=True).stdout
res = {m["id"]: m for m in map(json.loads, out.splitlines())}
for i in range(2, 6):
    assert "result" in res[i], res[i]
assert "HMMA" in res[2]["result"]["contents"][0]["text"], res[2]
PY
[ "$(runs)" = 3 ] || fail "4 MCP resource reads of another version ran nvdisasm $(( $(runs) - 2 )) times, not once (its kernel; the reference is kept)"
# a changed kernel: compiled and disassembled again
echo "// changed" >>sgemm.cu
"$RUNG" dump >/dev/null 2>"$T/err" || { cat "$T/err"; fail "dump of the working tree exited $?"; }
# (the working tree's reference is compiled as reference.cu, not as
# sgemm/reference.cu@REV: its line info names another file, so it is other machine code)
[ "$(runs)" = 5 ] || fail "a changed kernel: nvdisasm ran $(( $(runs) - 3 )) times, not twice"
[ "$(ls "$C/cubin" | wc -l)" = 5 ] || fail "a changed kernel (and HEAD~1's) are not kept: $(ls "$C/cubin")"
"$RUNG" dump >/dev/null 2>&1 && [ "$(runs)" = 5 ] || fail "the working tree's second dump ran nvdisasm again"
# a damaged entry is a miss, replaced
for f in "$C"/sass/*; do printf 'rung-sass-cache 1\nbroken\n' >"$f"; done
"$RUNG" dump HEAD >/dev/null 2>&1 || fail "dump over damaged SASS entries exited $?"
[ "$(runs)" = 7 ] || fail "damaged SASS entries were not run again ($(runs) runs in all)"
grep -q HMMA "$D/kernel.sass" || fail "a damaged entry reached the dump"
[ ! -e "$(git rev-parse --absolute-git-dir)/rung/sass" ] || fail "SASS kept in the repository's .git"
echo "dump cache: ok"
