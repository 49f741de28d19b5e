#!/usr/bin/env bash
# Every path a task names stays inside its repository, or its task directory
# when it is in none (#18 item 7): kernel, reference, headers, npy: inputs,
# golden files and path options in rung.ini (absolute, "..", a symlink out) are
# a rung.ini:LINE error with exit 3 for check, dump and log, and nothing of the
# file outside is read: dump copies nothing, no output quotes it. The kernel's
# #includes ("../..", <...>, absolute, a symlinked header, a macro) fail its
# compile rung with file:line, for a path and for versions read from git.
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
# a file outside every task: no command may show its content
printf 'SECRET-LINE-1\nSECRET-LINE-2\n' > "$tmp/secret.txt"
printf 'SECRET-LINE-1\n' > "$tmp/secret.cuh"
n=0
fresh() { # a new copy of the task, in no repository; cd into it
	n=$((n + 1))
	mkdir -p "$tmp/p$n" && cp -r "$orig" "$tmp/p$n/t" && cd "$tmp/p$n/t" || exit 1
}
run() { # run CMD ARGS...: sets out (stdout + stderr) and rc
	out=$("$RUNG" "$@" 2>&1); rc=$?
}
set_key() { sed -i "s|^$1 = .*|$1 = $2|" rung.ini; }
line_of() { grep -n "^$1 = " rung.ini | cut -d: -f1; }
no_secret() { ! grep -rqs SECRET . && ! has SECRET "$out"; }

# 1. reference = an absolute path: check and dump stop at its line (exit 3), and
#    dump copies nothing (it copied /etc/shadow into the dump folder).
fresh
set_key reference "$tmp/secret.txt"
ln=$(line_of reference)
run dump .
t "absolute reference: dump exits 3" [ "$rc" = 3 ]
t "absolute reference: rung.ini:$ln" has "rung dump: ./rung.ini:$ln: [task] reference: '$tmp/secret.txt' is an absolute path" "$out"
t "absolute reference: nothing copied" no_secret
t "absolute reference: no dump folder" [ ! -e .rung ]
run check --compile-only .
t "absolute reference: check exits 3" [ "$rc" = 3 ]

# 2. kernel = ../../secret.txt (".." out of the task directory; no repository)
fresh
set_key kernel ../../secret.txt
ln=$(line_of kernel)
run check --compile-only .
t "kernel ..: exits 3" [ "$rc" = 3 ]
t "kernel ..: rung.ini:$ln" has "./rung.ini:$ln: [task] kernel: '../../secret.txt' is outside the task directory ($(realpath .)): it is $tmp/secret.txt" "$out"
t "kernel ..: not quoted" no_secret

# 3. a symlink in the task directory that leads out
fresh
ln -s "$tmp/secret.txt" ref2.cu
set_key reference ref2.cu
run dump .
t "symlinked reference: exits 3" [ "$rc" = 3 ]
t "symlinked reference: says where it leads" has "[task] reference: 'ref2.cu' is outside the task directory ($(realpath .)): it is $tmp/secret.txt" "$out"
t "symlinked reference: nothing copied" no_secret

# 4. headers, npy: and golden
fresh
sed -i 's/^arch = sm_90$/arch = sm_90\nheaders = ..\/../' rung.ini
run check --compile-only .
t "headers ..: exits 3" [ "$rc" = 3 ]
t "headers ..: rung.ini:9" has "./rung.ini:9: [task] headers: '../..' is outside the task directory" "$out"
fresh
sed -i 's/^shape = M, K$/shape = M, K\ninit = npy:..\/..\/a.npy/' rung.ini
ln=$(line_of init)
run check --compile-only .
t "npy ..: exits 3" [ "$rc" = 3 ]
t "npy ..: rung.ini:$ln" has "./rung.ini:$ln: [arg A] init: '../../a.npy' is outside the task directory" "$out"
fresh
sed -i 's/^shape = M, N$/shape = M, N\ngolden = \/tmp\/c.npy/' rung.ini
ln=$(line_of golden)
run check --compile-only .
t "golden absolute: exits 3" [ "$rc" = 3 ]
t "golden absolute: rung.ini:$ln" has "./rung.ini:$ln: [arg C] golden: '/tmp/c.npy' is an absolute path" "$out"
fresh
sed -i "s|^arch = sm_90$|arch = sm_90\noptions = --pre-include=$tmp/secret.cuh|" rung.ini
run check --compile-only .
t "path option: exits 3" [ "$rc" = 3 ]
t "path option: rung.ini:9" has "./rung.ini:9: [task] options: '--pre-include=$tmp/secret.cuh' names a path" "$out"
t "path option: not quoted" no_secret

# 5. inside a repository, ".." to a file of the same repository is fine, one
#    above the repository is not
mkdir -p "$tmp/r" && cp -r "$orig" "$tmp/r/t" && mkdir "$tmp/r/shared" && mv "$tmp/r/t/reference.cu" "$tmp/r/shared/"
cd "$tmp/r" && git init -q . && git config user.name t && git config user.email t@e && cd t
set_key reference ../shared/reference.cu
run check --compile-only .
t "reference in the repository, beside the task: ok" [ "$rc" = 0 ]

# 6. the kernel's #includes, for a path target
inc() { # inc LINE: the kernel with LINE first; runs check --compile-only
	printf '%b\n' "$1" | cat - "$orig/sgemm.cu" > sgemm.cu
	run check --compile-only .
}
fresh
inc "#include \"../../../../../../../..$tmp/secret.cuh\""
t "include ..: exits 1" [ "$rc" = 1 ]
t "include ..: file:line" has "[compile] FAILED sgemm.cu:1: #include \"../../../../../../../..$tmp/secret.cuh\" reads $tmp/secret.cuh, outside the task directory" "$out"
t "include ..: not quoted" no_secret
inc "#include <$tmp/secret.cuh>"
t "include <absolute>: file:line" has "[compile] FAILED sgemm.cu:1: #include <$tmp/secret.cuh> reads $tmp/secret.cuh, outside the task directory" "$out"
inc "// a comment\n/* x */ %: include /* y */ \"$tmp/secret.cuh\""
t "include by digraph after comments: line 2" has "[compile] FAILED sgemm.cu:2: #include \"$tmp/secret.cuh\" reads" "$out"
inc "#define P \"$tmp/secret.cuh\"\n#include P"
t "computed include: refused at its line" has "[compile] FAILED sgemm.cu:2: #include with a macro: rung cannot tell which file it reads; name the file" "$out"
t "computed include: not quoted" no_secret
ln -s "$tmp/secret.cuh" tile.cuh
inc '#include "tile.cuh"'
t "symlinked header: refused" has "[compile] FAILED sgemm.cu:1: #include \"tile.cuh\" reads $tmp/secret.cuh, outside the task directory" "$out"
rm tile.cuh
inc '// #include "/etc/passwd"\n#include "cuda_fp16.h"'
t "commented include and a toolkit header: compile ok" [ "$rc" = 0 ]

# 7. from git: a spec naming a file outside, an #include out of the repository
#    at a commit, a symlinked header in the working tree
cd "$tmp" && git init -q g && cd g && git config user.name t && git config user.email t@e
cp -r "$orig" t && git add -A && git commit -qm base
printf '#include "../../../../../../../..%s/secret.cuh"\n' "$tmp" | cat - "$orig/sgemm.cu" > t/sgemm.cu
git commit -qam "escaping include"
run eval --compile-only HEAD
t "git include ..: eval exits 1" [ "$rc" = 1 ]
t "git include ..: compile rung FAILED at file:line" has "compile: t/sgemm.cu:1: #include \"../../../../../../../..$tmp/secret.cuh\" reads $tmp/secret.cuh, outside the repository ($tmp/g)" "$out"
run check --compile-only HEAD
t "git include ..: check FAILED" has "[compile] FAILED t/sgemm.cu@" "$out"
t "git include ..: not quoted" no_secret
cp "$orig/sgemm.cu" t/sgemm.cu
ln -s "$tmp/secret.cuh" t/tile.cuh
printf '#include "tile.cuh"\n' | cat - "$orig/sgemm.cu" > t/sgemm.cu
run eval --compile-only WORKTREE
t "worktree symlinked header: refused" has "#include \"tile.cuh\" reads $tmp/secret.cuh, outside the repository" "$out"
t "worktree symlinked header: not quoted" no_secret
rm t/tile.cuh
git checkout -q t/sgemm.cu
sed -i "s|^reference = .*|reference = ../../secret.txt|" t/rung.ini
git commit -qam "spec names a file outside"
for cmd in log "check --compile-only HEAD" "dump HEAD" "eval --compile-only"; do
	run $cmd
	t "git spec outside: $cmd exits 3" [ "$rc" = 3 ]
	t "git spec outside: $cmd names rung.ini:6" has "t/rung.ini:6: [task] reference: '../../secret.txt' is outside the repository ($tmp/g): it is $tmp/secret.txt" "$out"
done
t "git spec outside: not quoted" no_secret
exit $fail
