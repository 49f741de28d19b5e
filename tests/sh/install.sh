#!/bin/bash
# cmake --install (issue #12 item 20): bin/rung, share/rung/themes and
# share/man/man1/rung.1 are installed; the installed binary, moved elsewhere
# as a whole, reads its themes from next to it (never from the source tree);
# the man page is the option tables'; `rung --version` says the version, the
# commit (git describe, "unknown" without git) and the NVRTC/CUDA versions.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
BUILD=$(dirname "$RUNG")
[ -f "$BUILD/CMakeCache.txt" ] || { echo "SKIP: $RUNG is not in a CMake build directory"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

out=$(cmake --install "$BUILD" --prefix "$T/p" 2>&1) || fail "cmake --install: $out"
for f in bin/rung share/rung/themes/default.theme share/rung/themes/light.theme \
	share/rung/themes/high-contrast.theme share/rung/themes/monochrome.theme share/man/man1/rung.1; do
	[ -s "$T/p/$f" ] || fail "not installed: $f ($(cd "$T/p" && find . -type f))"
done
[ -x "$T/p/bin/rung" ] || fail "bin/rung is not executable"
cmp -s "$T/p/share/rung/themes/light.theme" "$RUNG_SRC/themes/light.theme" || fail "light.theme differs from the source's"

# the man page: generated from the option tables (a section per command, every option of each)
man1="$T/p/share/man/man1/rung.1"
grep -q '^\.TH RUNG 1 ' "$man1" || fail "no .TH line: $(head -3 "$man1")"
for cmd in $("$RUNG" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 { print $1 }'); do
	grep -qx "\.SS \"rung $cmd\"" "$man1" || fail "no section for rung $cmd in the man page"
done
grep -q '^\\fB\\-\\-remark\\fR$' "$man1" || fail "rung note's --remark missing from the man page"
grep -q '^\\fB\\-\\-compile\\-only\\fR$' "$man1" || fail "rung check's --compile-only missing from the man page"
if command -v groff >/dev/null; then
	warn=$(LC_ALL=C.UTF-8 groff -man -ww -z "$man1" 2>&1)
	[ -z "$warn" ] || fail "groff warns on rung.1: $warn"
fi

# moved as a whole: the binary finds its themes next to it
mv "$T/p" "$T/moved"
R="$T/moved/bin/rung"
export XDG_CONFIG_HOME="$T/config" NO_COLOR=
mkdir -p "$T/config" "$T/dump"
printf ':dump v.txt\nQ\n' >"$T/keys"
for theme in light high-contrast default; do
	err=$(RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T/dump" COLUMNS=80 LINES=12 "$R" tui --memory 3 --theme "$theme" 2>&1 >/dev/null) ||
		fail "the installed rung with --theme $theme: exit $?: $err"
	[ -z "$err" ] || fail "the installed rung with --theme $theme said: $err"
	[ -s "$T/dump/v.txt" ] || fail "no screen drawn with --theme $theme"
done
# the file it reads is the installed one: spoil it, and the error names it
cp "$T/moved/share/rung/themes/light.theme" "$T/light.bak"
echo "colour nosuchrole = red" >>"$T/moved/share/rung/themes/light.theme"
err=$(RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T/dump" "$R" tui --memory 3 --theme light 2>&1); rc=$?
[ "$rc" = 2 ] || fail "a spoiled installed theme: exit $rc ($err)"
grep -qF "$T/moved/share/rung/themes/light.theme:" <<<"$err" || fail "the error does not name the installed theme: $err"
cp "$T/light.bak" "$T/moved/share/rung/themes/light.theme"
err=$("$R" tui --theme nosuch 2>&1); rc=$?
[ "$rc" = 2 ] || fail "an unknown theme: exit $rc"
grep -qF "$T/moved/share/rung/themes/nosuch.theme" <<<"$err" || fail "not looked for next to the binary: $err"
grep -qF "$RUNG_SRC" <<<"$err" && fail "the installed binary looked in the source tree: $err"
# the build directory's binary still finds the source tree's
err=$("$RUNG" tui --theme nosuch 2>&1)
grep -qF "$RUNG_SRC/themes/nosuch.theme" <<<"$err" || fail "the build's binary does not look in the source tree: $err"

# rung --version: the same for both binaries
v=$("$R" --version) || fail "--version exit $?"
[ "$v" = "$("$RUNG" --version)" ] || fail "the installed and built binaries differ: $v"
[ "$(wc -l <<<"$v")" = 2 ] || fail "--version: $v"
l1=$(sed -n 1p <<<"$v") l2=$(sed -n 2p <<<"$v")
[[ "$l1" =~ ^rung\ [0-9]+\.[0-9]+\.[0-9]+\ \(commit\ ([A-Za-z0-9._/+-]+)\)$ ]] || fail "--version line 1: $l1"
commit=${BASH_REMATCH[1]}
[[ "$l2" =~ ^NVRTC\ [0-9]+\.[0-9]+\ \(built\ with\ CUDA\ [0-9]+\.[0-9]+\)$ ]] || fail "--version line 2: $l2"
grep -qF "project(rung VERSION $(cut -d' ' -f2 <<<"$l1") " "$RUNG_SRC/CMakeLists.txt" || fail "not the project's version: $l1"
if command -v git >/dev/null && [ "$(git -C "$RUNG_SRC" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$RUNG_SRC" && pwd -P)" ]; then
	id=${commit%-dirty}
	id=${id##*-g} # a describe with a tag: v0.1-3-gabc1234
	git -C "$RUNG_SRC" cat-file -e "$id^{commit}" 2>/dev/null || fail "--version's commit $commit is not a commit of $RUNG_SRC"
fi

# the commit as cmake/gitversion.cmake finds it: git describe at the top of a work
# tree; "unknown" without git, or in a directory below another repository's top
gv() { rm -f "$T/bi.c"; cmake -DSRC="$1" -DOUT="$T/bi.c" -P "$RUNG_SRC/cmake/gitversion.cmake" >/dev/null 2>&1 || fail "gitversion.cmake on $1"; cat "$T/bi.c"; }
mkdir -p "$T/nogit"
grep -q 'rung_build_commit\[\] = "unknown";' <<<"$(gv "$T/nogit")" || fail "no git: $(gv "$T/nogit")"
if command -v git >/dev/null; then
	git init -q "$T/g" && mkdir "$T/g/sub" && echo x >"$T/g/f"
	git -C "$T/g" add f && git -C "$T/g" -c user.name=t -c user.email=t@t commit -qm x
	h=$(git -C "$T/g" rev-parse --short HEAD)
	grep -q "rung_build_commit\[\] = \"$h\";" <<<"$(gv "$T/g")" || fail "a clean tree: $(gv "$T/g") (want $h)"
	echo y >"$T/g/f"
	grep -q "rung_build_commit\[\] = \"$h-dirty\";" <<<"$(gv "$T/g")" || fail "a dirty tree: $(gv "$T/g")"
	grep -q '"unknown"' <<<"$(gv "$T/g/sub")" || fail "below another repository's top: $(gv "$T/g/sub")"
fi
echo "install: ok"
