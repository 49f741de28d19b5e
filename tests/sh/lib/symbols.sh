#!/bin/bash
# symbols.sh BUILD_DIR: the layering check on symbols (tests/sh/layering_symbols.sh).
#
# tests/sh/layering.sh checks #includes; this checks what the objects call. A
# static archive is searched only for what is still undefined when the linker
# reaches it, so a call from vcs/ into gpu/ links as long as some other object
# pulls gpu/'s definition in first. Here every undefined symbol of a module's
# objects that another rung module defines must come from a module it may use
# (docs/ARCHITECTURE.md), and one that a third-party library with an owner
# defines (curses, libgit2, sqlite3, NVRTC) only from a module allowed it.
#
# A module M's objects: the members of BUILD_DIR/librung_M.a, else (an OBJECT
# library such as rung_tui) BUILD_DIR/CMakeFiles/rung_M.dir/M/*.o. The third
# party libraries are the files CMakeCache.txt names (none without a cache).
# Prints one line per violation, e.g.
#   vcs/store.c.o needs rung_worker_open (gpu/worker.c): vcs/ may use core/ only
# and exits 1 on any; 0 when clean; 77 without nm; 2 on a usage or nm error.
set -u
dir=${1:?usage: symbols.sh BUILD_DIR}
command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }

# The rung modules each module may use. app/ and cli/ are the issue's future
# folders: app/ under the front ends (no curses, no tui/ or cli/), tui/ never cli/.
# A module with objects and no rule here fails: add its rule.
rules='core=;gpu=core;vcs=core;demo_data=;app=core gpu vcs demo_data;tui=core gpu vcs app demo_data;cli=core gpu vcs app tui demo_data'
# The modules each owned third-party library is allowed to (every other
# library, libc, libm, pthread, dl, inih, jansson, is open to all).
ext_rules='curses=tui cli;git2=vcs app tui cli;sqlite3=vcs app tui cli;nvrtc=gpu app tui cli'

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/syms"
mods=()
# nm -A -g over FILES..., as lines "MODULE OBJECT KIND SYMBOL" (KIND U or D)
nm_unit() { # MODULE FILES...
	local m=$1; shift
	nm -A -g "$@" 2>"$tmp/nm.err" >"$tmp/nm.out" || { echo "nm failed on $*:"; cat "$tmp/nm.err"; exit 2; }
	awk -v m="$m" '{
		n = split($1, a, ":")
		obj = (n >= 3) ? a[2] : a[1]
		sub(/.*\//, "", obj)
		k = $(NF-1); s = $NF
		if (k == "U" || k == "w" || k == "v") k = "U"; else k = "D"
		print m, m "/" obj, k, s
	}' "$tmp/nm.out" >>"$tmp/syms"
}
for a in "$dir"/librung_*.a; do
	[ -e "$a" ] || continue
	m=${a##*/librung_}; m=${m%.a}
	nm_unit "$m" "$a"; mods+=("$m")
done
for d in "$dir"/CMakeFiles/rung_*.dir; do
	[ -d "$d" ] || continue
	m=${d##*/rung_}; m=${m%.dir}
	[ -e "$dir/librung_$m.a" ] && continue
	objs=("$d/$m"/*.o)
	[ -e "${objs[0]}" ] || continue
	nm_unit "$m" "${objs[@]}"; mods+=("$m")
done
[ ${#mods[@]} -gt 0 ] || { echo "no rung library (librung_*.a) in $dir"; exit 2; }

# Defined dynamic symbols of the owned third-party libraries: "LIB SYMBOL".
: >"$tmp/ext"
so_files() { # FILE: the shared objects behind FILE (a linker script's INPUT/GROUP followed)
	local f=$1 d t
	[ -e "$f" ] || return 0
	if [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ]; then echo "$f"; return; fi
	d=${f%/*}
	for t in $(sed -n 's/^[[:space:]]*\(INPUT\|GROUP\)[[:space:]]*(\(.*\)).*/\2/p' "$f" | tr -d '()' | sed 's/AS_NEEDED//g'); do
		case $t in
		-l*) t=$d/lib${t#-l}.so ;;
		/*) ;;
		*) t=$d/$t ;;
		esac
		[ -e "$t" ] && [ "$(head -c 4 "$t" | od -An -c | tr -d ' ')" = '177ELF' ] && echo "$t"
	done
}
cache=$dir/CMakeCache.txt
if [ -f "$cache" ]; then
	for lib in curses git2 sqlite3 nvrtc; do
		case $lib in
		curses) re='^(CURSES_(NCURSES|CURSES|FORM)_LIBRARY|pkgcfg_lib_NCURSES_[^:]*):FILEPATH=' ;;
		git2) re='^pkgcfg_lib_LIBGIT2_[^:]*:FILEPATH=' ;;
		sqlite3) re='^pkgcfg_lib_SQLITE3_[^:]*:FILEPATH=' ;;
		nvrtc) re='^CUDA_nvrtc_LIBRARY:FILEPATH=' ;;
		esac
		grep -E "$re" "$cache" | sed 's/^[^=]*=//' | while read -r f; do so_files "$f"; done | sort -u |
			while read -r so; do
				nm -D --defined-only "$so" 2>/dev/null | awk -v l="$lib" 'NF >= 3 { s = $NF; sub(/@.*/, "", s); print l, s }'
			done >>"$tmp/ext"
	done
else
	echo "note: no $cache: third-party libraries not checked"
fi

awk -v rules="$rules" -v ext_rules="$ext_rules" -v mods="${mods[*]}" '
function list(s,   t) { t = s; gsub(/ /, "/, ", t); return t "/" }
BEGIN {
	n = split(rules, r, ";")
	for (i = 1; i <= n; i++) { split(r[i], kv, "="); has[kv[1]] = 1; may[kv[1]] = kv[2]
		c = split(kv[2], d, " "); for (j = 1; j <= c; j++) ok[kv[1], d[j]] = 1 }
	n = split(ext_rules, r, ";")
	for (i = 1; i <= n; i++) { split(r[i], kv, "="); c = split(kv[2], d, " ")
		for (j = 1; j <= c; j++) extok[kv[1], d[j]] = 1 }
	c = split(mods, d, " ")
	for (j = 1; j <= c; j++) if (!(d[j] in has)) { print "no layering rule for " d[j] "/ (tests/sh/lib/symbols.sh)"; bad = 1 }
}
FILENAME == ARGV[1] { if (!($2 in ext)) ext[$2] = $1; next }
$3 == "D" { if (!($4 in def)) { def[$4] = $1; src[$4] = $2 }; next }
{ und[++nu] = $0 }
END {
	for (i = 1; i <= nu; i++) {
		split(und[i], f, " "); m = f[1]; obj = f[2]; s = f[4]
		if (!(m in has) || seen[obj, s]++) continue
		if (s in def) {
			dm = def[s]
			if (dm == m || ok[m, dm]) continue
			where = src[s]; sub(/\.o$/, "", where)
			print obj " needs " s " (" where "): " m "/ may use " (may[m] == "" ? "nothing of rung" : list(may[m]) " only")
			bad = 1
		} else if (s in ext) {
			l = ext[s]
			if (extok[l, m]) continue
			print obj " needs " s " (" l "): " m "/ may not use " l
			bad = 1
		}
	}
	exit bad
}' "$tmp/ext" "$tmp/syms"
