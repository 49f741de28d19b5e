#!/bin/bash
# NVRTC is loaded at run time, on the first compile of CUDA C (gpu/nvrtc_lib.c;
# #28 "First frame against tig": linked, its 100 MB and 228k relocations were a
# third of the workbench's first frame). rung does not link it; the workbench
# (to its first frame and quit), the worker and rung log never map it; a
# compile does; without it a compile says "NVRTC not found (NAME)", exit 5,
# and stores no verdict. Dynamic linker logs (LD_DEBUG=files) say what each
# process loaded.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC
. "$RUNG_SRC/tests/sh/lib/tui_repo.sh"
export XDG_CONFIG_HOME=$T/config
fail=0
t() { # t NAME CONDITION...
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
# loads CMD...: the libraries the process (and its children) mapped, one log per process
loads() {
	rm -rf "$T/ld" && mkdir "$T/ld"
	LD_DEBUG=files LD_DEBUG_OUTPUT="$T/ld/log" "$@" </dev/null >"$T/out" 2>"$T/err"
	local rc=$?
	cat "$T"/ld/log.* 2>/dev/null | sed -n 's/.*file=\([^ ]*\).*\[0\];.*/\1/p' | sort -u
	return $rc
}

if command -v readelf >/dev/null; then
	t "rung does not link libnvrtc" bash -c "! readelf -d '$RUNG' | grep -q 'NEEDED.*libnvrtc'"
else
	echo "skip the NEEDED check (no readelf)"
fi
libs=$(loads "$RUNG" --help)
t "rung --help: no NVRTC" bash -c "! grep -q libnvrtc <<<'$libs'"
t "rung --help: the linker log is read (libgit2 listed)" grep -q libgit2 <<<"$libs"
printf 'Q\n' >"$T/keys"
libs=$(COLUMNS=100 LINES=20 RUNG_TUI_SCRIPT=$T/keys loads "$RUNG" tui --no-auto-eval -C "$REPO")
t "rung tui to its first frame and Q: no NVRTC" bash -c "! grep -q libnvrtc <<<'$libs'"
libs=$(loads "$RUNG" -C "$REPO" log)
t "rung log: no NVRTC" bash -c "! grep -q libnvrtc <<<'$libs'"
libs=$(loads "$RUNG" worker)
t "rung worker: no NVRTC" bash -c "! grep -q libnvrtc <<<'$libs'"

# a compile loads it (where this machine has it)
if "$RUNG" --version | grep -q "NVRTC not found"; then
	echo "skip the compile checks: no NVRTC on this machine"
else
	libs=$(cd "$REPO/sgemm" && loads "$RUNG" check --compile-only)
	rc=$?
	t "check --compile-only exits 0 ($rc)" [ "$rc" = 0 ]
	t "check --compile-only: NVRTC loaded" grep -q libnvrtc <<<"$libs"
fi

# no NVRTC (RUNG_NVRTC_LIBRARY names a file that is not there): a clear error, exit 5, no verdict
before=$(git -C "$REPO" notes --ref=rung list | wc -l)
(cd "$REPO/sgemm" && RUNG_NVRTC_LIBRARY=$T/none/libnvrtc.so.13 "$RUNG" check --compile-only >"$T/out" 2>"$T/err")
rc=$?
cat "$T/out" "$T/err"
t "no NVRTC: exit 5 ($rc)" [ "$rc" = 5 ]
t "no NVRTC: the error names the library" grep -q "NVRTC not found ($T/none/libnvrtc.so.13" "$T/err"
t "no NVRTC: the error names the file" grep -q "sgemm.cu: NVRTC not found" "$T/err"
t "no NVRTC: no verdict stored" bash -c "! '$RUNG' -C '$REPO' log 2>&1 | grep -qi 'NVRTC not found'"
t "no NVRTC: no note written" [ "$(git -C "$REPO" notes --ref=rung list | wc -l)" = "$before" ]
RUNG_NVRTC_LIBRARY=$T/none/libnvrtc.so.13 "$RUNG" --version >"$T/out"
t "no NVRTC: rung --version says so" grep -q "^NVRTC not found (built with CUDA" "$T/out"
exit $fail
