#!/usr/bin/env bash
# rung check --compile-only on copies of tests/tasks/sgemm with one mistake each:
# a kernel, reference or header that is not UTF-8 text is said at its file:line
# (exit 1 for the kernel, 3 for the reference); a UTF-8 byte-order mark is dropped;
# an arch or option NVRTC refuses and a missing headers directory are the spec's
# (rung.ini:LINE, exit 3); a kernel whose parameters do not match the [arg]
# sections fails its compile rung (the reference's: exit 3). Then the same from git.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
fail=0
t() { # t NAME CONDITION...: records a failure with its name
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
has() { grep -qF -- "$1" <<<"$2"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
orig="$RUNG_SRC/tests/tasks/sgemm"
n=0
fresh() { # a new copy of the task; cd into it
	n=$((n + 1))
	cp -r "$orig" "$tmp/t$n" && cd "$tmp/t$n" || exit 1
}
check() { # runs check --compile-only; sets out (stdout), err (stderr), rc
	out=$("$RUNG" check --compile-only "$@" 2>"$tmp/err"); rc=$?
	err=$(cat "$tmp/err")
}
# bytes PYEXPR FILE: writes the bytes of a python expression (src: the file's text)
bytes() { python3 -c 'import sys; src=open(sys.argv[2],"rb").read(); open(sys.argv[2],"wb").write(eval(sys.argv[1]))' "$1" "$2"; }

# 1. One 0xFF byte in a comment of the kernel (NVRTC took it for the end of the file).
fresh
bytes 'src.replace(b"T x T tiles.", b"T x T tiles \xff.")' sgemm.cu
check
t "0xFF kernel exits 1" [ "$rc" = 1 ]
t "0xFF kernel message" [ "$out" = "[compile] FAILED sgemm.cu:1: byte 0xFF is not UTF-8 (the file must be UTF-8 or ASCII)" ]

# 2. The kernel saved as UTF-16, with its BOM and without.
fresh
bytes 'b"\xff\xfe" + src.decode().encode("utf-16-le")' sgemm.cu
check
t "UTF-16 kernel exits 1" [ "$rc" = 1 ]
t "UTF-16 kernel message" [ "$out" = "[compile] FAILED sgemm.cu: UTF-16 text (BOM FF FE): save it as UTF-8" ]
bytes 'src[2:]' sgemm.cu
check
t "UTF-16 without BOM message" [ "$out" = "[compile] FAILED sgemm.cu: UTF-16 text (little-endian, no BOM): save it as UTF-8" ]

# 3. A UTF-8 byte-order mark is dropped: the kernel compiles as without it.
fresh
bytes 'b"\xef\xbb\xbf" + src' sgemm.cu
check
t "BOM kernel compiles (exit 0)" [ "$rc" = 0 ]
t "BOM kernel ok line" has "[compile] ok regs=" "$out"

# 4. A NUL byte (NVRTC read the text up to it: "expected a }").
fresh
bytes 'src.replace(b"__syncthreads();\n#pragma", b"__syncthreads();\0\n#pragma")' sgemm.cu
check
t "NUL kernel exits 1" [ "$rc" = 1 ]
t "NUL kernel message" [ "$out" = "[compile] FAILED sgemm.cu:16: NUL byte (the file must be UTF-8 or ASCII text)" ]

# 5. The reference: the task itself is broken (exit 3).
fresh
bytes 'src.replace(b"in double.", b"in double \xe9.")' reference.cu
check
t "bad reference exits 3" [ "$rc" = 3 ]
t "bad reference message" [ "$err" = "rung check: the reference reference.cu does not compile: reference.cu:1: byte 0xE9 is not UTF-8 (the file must be UTF-8 or ASCII)" ]

# 6. A header the kernel #includes, from the task directory and from a headers dir.
fresh
mkdir inc
printf '// the tile \xff\n#define TILE 32\n' > inc/tile.cuh
printf '#include "tile.cuh"\n' | cat - "$orig/sgemm.cu" > sgemm.cu
sed -i 's/^arch = sm_90$/arch = sm_90\nheaders = inc/' rung.ini
check
t "bad header exits 1" [ "$rc" = 1 ]
t "bad header message" [ "$out" = "[compile] FAILED inc/tile.cuh:1: byte 0xFF is not UTF-8 (the file must be UTF-8 or ASCII)" ]
printf '\xef\xbb\xbf// the tile\n#define TILE 32\n' > inc/tile.cuh
check
t "BOM header compiles (exit 0)" [ "$rc" = 0 ]

# 7. arch and options NVRTC refuses: rung.ini:LINE, exit 3 (the reference fails so too).
fresh
sed -i 's/^arch = sm_90$/arch = sm_200/' rung.ini
check
t "arch sm_200 exits 3" [ "$rc" = 3 ]
t "arch sm_200 on the compile line" has "[compile] FAILED ./rung.ini:8: [task] arch: NVRTC " "$out"
t "arch sm_200 names it and the list" has "does not compile for 'sm_200' (it takes sm_" "$out"
t "arch sm_200 on stderr" has "rung check: ./rung.ini:8: [task] arch: NVRTC " "$err"
t "arch sm_200 not blamed on the kernel" eval '! grep -q "sgemm.cu" <<<"$out$err"'
check --json
t "arch sm_200 --json exits 3" [ "$rc" = 3 ]
t "arch sm_200 --json reason" python3 -c 'import json,sys; o=json.loads(sys.argv[1]); assert o["steps"]["compile"]["reason"].startswith("./rung.ini:8: [task] arch:")' "$out"
sed -i 's/^arch = sm_200$/arch = compute_90/' rung.ini
check
t "arch compute_90 exits 3" [ "$rc" = 3 ]
t "arch compute_90 message" has "./rung.ini:8: [task] arch: 'compute_90' is a virtual architecture (PTX only); rung needs a CUBIN: use sm_90" "$err"
sed -i 's/^arch = compute_90$/arch = sm_90\noptions = -DX=1 --bogus/' rung.ini
check
t "options --bogus exits 3" [ "$rc" = 3 ]
t "options --bogus message" [ "$out" = "[compile] FAILED ./rung.ini:9: [task] options: unrecognized option --bogus found" ]
out=$("$RUNG" dump --out "$tmp/dump" 2>&1); rc=$?
t "options --bogus: dump exits 3" [ "$rc" = 3 ]

# 8. headers = nosuchdir: a spec error (exit 3) at its line.
fresh
sed -i 's/^arch = sm_90$/arch = sm_90\nheaders = inc, nosuchdir/' rung.ini
mkdir inc
check
t "missing headers dir exits 3" [ "$rc" = 3 ]
t "missing headers dir message" [ "$err" = "rung check: ./rung.ini:9: [task] headers: 'nosuchdir': no such directory (./nosuchdir)" ]

# 9. Parameters: 5 in the kernel against 6 [arg] sections (it compiled "ok").
fresh
sed -i 's/int M, int N, int K, const/int N, int K, const/; s/row < M/row < N/g' sgemm.cu
check
t "5 parameters vs 6 [arg] exits 1" [ "$rc" = 1 ]
t "5 parameters vs 6 [arg] message" [ "$out" = "[compile] FAILED sgemm.cu: kernel 'sgemm<32>' takes 5 parameters but ./rung.ini declares 6 [arg] sections (the first without a parameter is [arg C] at ./rung.ini:46)" ]
cp "$orig/sgemm.cu" .
sed -i 's/float \*C)/float *C, int pad)/' reference.cu
check
t "reference with 7 parameters exits 3" [ "$rc" = 3 ]
t "reference with 7 parameters message" [ "$err" = "rung check: the reference reference.cu does not compile: reference.cu: kernel 'sgemm_ref' takes 7 parameters but ./rung.ini declares 6 [arg] sections (the last is [arg C] at ./rung.ini:46)" ]

# 10. From git: a committed kernel with 0xFF or NUL, a committed spec with a missing headers dir.
if command -v git >/dev/null; then
	g="$tmp/g"
	mkdir "$g" && cd "$g" && git init -q && git config user.email t@t && git config user.name t
	cp -r "$orig" t && git add -A && git commit -qm base
	bytes 'src.replace(b"T x T tiles.", b"T x T tiles \xff.")' t/sgemm.cu
	git commit -qam ff
	check HEAD
	id=$(git rev-parse --short=7 HEAD)
	t "git: 0xFF kernel exits 1" [ "$rc" = 1 ]
	t "git: 0xFF kernel message" [ "$out" = "[compile] FAILED t/sgemm.cu@$id:1: byte 0xFF is not UTF-8 (the file must be UTF-8 or ASCII)" ]
	ev=$("$RUNG" eval --task t HEAD 2>&1) # the eval pipeline (the workbench's too) compiles through the same check
	t "git: eval's compile rung says so" has "compile: t/sgemm.cu:1: byte 0xFF is not UTF-8 (the file must be UTF-8 or ASCII)" "$ev"
	cp "$orig/sgemm.cu" t/
	bytes 'src.replace(b"__syncthreads();\n#pragma", b"__syncthreads();\0\n#pragma")' t/sgemm.cu
	check WORKTREE
	t "git: NUL kernel exits 1" [ "$rc" = 1 ]
	t "git: NUL kernel message" [ "$out" = "[compile] FAILED t/sgemm.cu@WORKTREE:16: NUL byte (the file must be UTF-8 or ASCII text)" ]
	cp "$orig/sgemm.cu" t/
	sed -i 's/^arch = sm_90$/arch = sm_90\nheaders = nosuchdir/' t/rung.ini
	git commit -qam headers
	check HEAD
	t "git: missing headers dir exits 3" [ "$rc" = 3 ]
	t "git: missing headers dir message" has "rung check: t/rung.ini:9: [task] headers: 'nosuchdir': no such directory (" "$err"
fi

exit $fail
