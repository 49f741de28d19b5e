#!/usr/bin/env bash
# The CUBIN cache (docs/CLI.md, "The CUBIN cache"): the second check of the
# same task reads the kernel's and the reference's NVRTC output back from
# the user's cache directory, $RUNG_CACHE_DIR/cubin ("cached":true, the same
# resources, `[compile] ... cached`); the working tree and the repository's .git
# are left as they were; a changed kernel or reference compiles again alone; a
# version from git (REV) is cached too; a damaged entry is compiled again; a
# task outside any repository is cached too, and writes nothing beside it.
# An entry planted in the repository's .git/rung/cubin (where rung kept them
# before: the agent writes .git) is never read: a reference's machine code
# cannot be swapped there. RUNG_CACHE_DIR=off keeps nothing.
# (tests/test_compile_cache.c has the key's parts one by one.)
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
fail=0
t() { # t NAME CONDITION...
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
R=$T/r
export RUNG_CACHE_DIR=$T/cache
git init -q "$R" && mkdir "$R/sgemm" && cp "$RUNG_SRC"/tests/tasks/sgemm/* "$R/sgemm/"
git -C "$R" add -A && git -C "$R" commit -qm one
# field SOURCE KEY: a value of the "kernel" or "reference" object of check --json
field() { python3 -c 'import json, sys; d = json.loads(sys.stdin.read()); print(json.dumps(d[sys.argv[1]].get(sys.argv[2])))' "$@"; }
entries() { find "$RUNG_CACHE_DIR/cubin" -type f 2>/dev/null | wc -l; }

j1=$("$RUNG" check --compile-only --json "$R/sgemm"); rc=$?
t "first check exits 0" [ "$rc" = 0 ]
t "first: the reference compiled" [ "$(field reference cached <<<"$j1")" = false ]
t "first: the kernel compiled" [ "$(field kernel cached <<<"$j1")" = false ]
t "first: two entries in \$RUNG_CACHE_DIR/cubin" [ "$(entries)" = 2 ]
t "first: nothing in the repository's .git/rung/cubin" [ ! -e "$R/.git/rung/cubin" ]
j2=$("$RUNG" check --compile-only --json "$R/sgemm"); rc=$?
t "second check exits 0" [ "$rc" = 0 ]
t "second: the reference read back" [ "$(field reference cached <<<"$j2")" = true ]
t "second: the kernel read back" [ "$(field kernel cached <<<"$j2")" = true ]
t "second: the same kernel resources" [ "$(field kernel resources <<<"$j2")" = "$(field kernel resources <<<"$j1")" ]
t "second: the same kernel sizes" [ "$(field kernel cubin_bytes <<<"$j2")/$(field kernel ptx_bytes <<<"$j2")" = \
	"$(field kernel cubin_bytes <<<"$j1")/$(field kernel ptx_bytes <<<"$j1")" ]
line=$("$RUNG" check --compile-only "$R/sgemm" 2>&1 | grep '^\[compile\]')
t "second: the compile line says cached ($line)" eval '[[ "$line" == *"ms cached" ]]'
t "second: the same reference resources" [ "$(field reference resources <<<"$j2")" = "$(field reference resources <<<"$j1")" ]
t "second: the same reference sizes" [ "$(field reference cubin_bytes <<<"$j2")/$(field reference ptx_bytes <<<"$j2")" = \
	"$(field reference cubin_bytes <<<"$j1")/$(field reference ptx_bytes <<<"$j1")" ]
t "still two entries" [ "$(entries)" = 2 ]
st=$(git -C "$R" status --porcelain --ignored)
t "the working tree is untouched ($st)" [ -z "$st" ]

# a changed reference compiles again, and its entry joins the first
echo '// a comment changes the line info' >>"$R/sgemm/reference.cu"
j3=$("$RUNG" check --compile-only --json "$R/sgemm")
t "a changed reference compiles again" [ "$(field reference cached <<<"$j3")" = false ]
t "the unchanged kernel is read back" [ "$(field kernel cached <<<"$j3")" = true ]
t "three entries" [ "$(entries)" = 3 ]
git -C "$R" checkout -q sgemm/reference.cu
echo '// a comment changes the line info' >>"$R/sgemm/sgemm.cu"
j4=$("$RUNG" check --compile-only --json "$R/sgemm")
t "a changed kernel compiles again" [ "$(field kernel cached <<<"$j4")" = false ]
t "the unchanged reference is read back" [ "$(field reference cached <<<"$j4")" = true ]
t "four entries" [ "$(entries)" = 4 ]
git -C "$R" checkout -q sgemm/sgemm.cu

# a version from git: the reference at HEAD, cached the same way
h1=$("$RUNG" check --compile-only --json -C "$R" HEAD)
h2=$("$RUNG" check --compile-only --json -C "$R" HEAD)
t "REV: exit 0, the reference's resources" [ "$(field reference resources <<<"$h1")" = "$(field reference resources <<<"$j1")" ]
t "REV: the second reads the reference back" [ "$(field reference cached <<<"$h2")" = true ]
t "REV: and the kernel" [ "$(field kernel cached <<<"$h2")" = true ]

# a damaged entry is compiled again and rewritten
for f in "$RUNG_CACHE_DIR"/cubin/*; do head -c 100 "$f" >"$f.cut" && mv "$f.cut" "$f"; done
j5=$("$RUNG" check --compile-only --json "$R/sgemm"); rc=$?
t "damaged entries: exit 0" [ "$rc" = 0 ]
t "damaged entries: compiled again" [ "$(field reference cached <<<"$j5")" = false ]
t "damaged entries: the kernel too" [ "$(field kernel cached <<<"$j5")" = false ]
t "damaged entries: the same kernel resources" [ "$(field kernel resources <<<"$j5")" = "$(field kernel resources <<<"$j1")" ]
t "damaged entries: the same resources" [ "$(field reference resources <<<"$j5")" = "$(field reference resources <<<"$j1")" ]
t "rewritten whole" [ "$(head -c 19 "$(ls -t "$RUNG_CACHE_DIR"/cubin/* | head -1)")" = "rung-cubin-cache 1" ]

# outside any repository: cached the same way, nothing beside the task
mkdir "$T/plain" && cp "$RUNG_SRC"/tests/tasks/sgemm/* "$T/plain/"
echo "// plain" >>"$T/plain/sgemm.cu" # not the repository's kernel
(cd "$T" && GIT_CEILING_DIRECTORIES=$T "$RUNG" check --compile-only --json plain >"$T/p1" && GIT_CEILING_DIRECTORIES=$T "$RUNG" check --compile-only --json plain >"$T/p2")
t "no repository: compiled the first time" [ "$(field kernel cached <"$T/p1")" = false ]
t "no repository: read back the second" [ "$(field reference cached <"$T/p2")/$(field kernel cached <"$T/p2")" = true/true ]
t "no repository: nothing written" [ "$(find "$T/plain" -newer "$T/p1" | wc -l)" = 0 ] &&
	t "no repository: the task directory has only its files" [ "$(ls -A "$T/plain" | tr '\n' ' ')" = "reference.cu rung.ini sgemm.cu " ]

# planted in the repository's .git/rung/cubin, the old place: never read
rm -rf "$R/.git/rung/cubin" && mkdir -p "$R/.git/rung" && mv "$RUNG_CACHE_DIR/cubin" "$R/.git/rung/cubin"
j6=$("$RUNG" check --compile-only --json "$R/sgemm")
t "an entry in .git/rung/cubin is not read: the reference compiled" [ "$(field reference cached <<<"$j6")" = false ]
t "nor the kernel's" [ "$(field kernel cached <<<"$j6")" = false ]

# RUNG_CACHE_DIR=off: nothing kept, compiled each time
rm -rf "$RUNG_CACHE_DIR"
j7=$(RUNG_CACHE_DIR=off "$RUNG" check --compile-only --json "$R/sgemm") && j8=$(RUNG_CACHE_DIR=off "$RUNG" check --compile-only --json "$R/sgemm")
t "RUNG_CACHE_DIR=off: compiled again" [ "$(field reference cached <<<"$j8")/$(field kernel cached <<<"$j8")" = false/false ]
t "RUNG_CACHE_DIR=off: nothing kept" [ ! -e "$RUNG_CACHE_DIR" ]
# without RUNG_CACHE_DIR: $XDG_CACHE_HOME/rung, else ~/.cache/rung
(unset RUNG_CACHE_DIR; XDG_CACHE_HOME=$T/xdg "$RUNG" check --compile-only "$R/sgemm" >/dev/null)
t "XDG_CACHE_HOME/rung/cubin" [ "$(find "$T/xdg/rung/cubin" -type f 2>/dev/null | wc -l)" = 2 ]
(unset RUNG_CACHE_DIR XDG_CACHE_HOME; HOME=$T/home "$RUNG" check --compile-only "$R/sgemm" >/dev/null)
t "~/.cache/rung/cubin" [ "$(find "$T/home/.cache/rung/cubin" -type f 2>/dev/null | wc -l)" = 2 ]

[ "$fail" = 0 ] && echo "cubin cache: ok"
exit "$fail"
