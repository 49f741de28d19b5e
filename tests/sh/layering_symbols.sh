#!/usr/bin/env bash
# The layering check on symbols (tests/sh/lib/symbols.sh): first on a fake
# build directory whose objects call across forbidden boundaries (vcs/ into
# gpu/, core/ into the tui/ OBJECT library, gpu/ into sqlite3, vcs/ into
# curses behind a linker script), which links anyway and must fail with one
# line per call; the same tree without those calls must pass; then the real
# build directory (the one holding $RUNG) must pass.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || { echo "SKIP: no C compiler"; exit 77; }
check=$RUNG_SRC/tests/sh/lib/symbols.sh
fail=0
t() { # t NAME CONDITION...
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src/core" "$tmp/src/gpu" "$tmp/src/vcs" "$tmp/src/tui" "$tmp/lib"

# Third-party stand-ins: sqlite3 as a plain .so, curses as a linker script
# naming the library and -ltinfo (as Debian's libncursesw.so does).
printf 'int sqlite3_open(const char *f, void **db) { return 0; }\n' >"$tmp/lib/sqlite3.c"
printf 'void *initscr(void) { return 0; }\n' >"$tmp/lib/ncursesw.c"
printf 'int setupterm(const char *t, int fd, int *e) { return 0; }\n' >"$tmp/lib/tinfo.c"
for l in sqlite3 tinfo; do "$cc" -shared -fPIC -o "$tmp/lib/lib$l.so" "$tmp/lib/$l.c" || exit 2; done
"$cc" -shared -fPIC -o "$tmp/lib/libncursesw.so.6" "$tmp/lib/ncursesw.c" || exit 2
echo 'INPUT(libncursesw.so.6 -ltinfo)' >"$tmp/lib/libncursesw.so"

cat >"$tmp/src/core/err.c" <<'EOF'
void rung_error_set(int code) { (void)code; }
EOF
cat >"$tmp/src/core/spec.c" <<'EOF'
void rung_error_set(int code);
#ifdef BAD
void rung_screen_draw(void);
#endif
int rung_spec_load(void) {
	rung_error_set(1);
#ifdef BAD
	rung_screen_draw();
#endif
	return 0;
}
EOF
cat >"$tmp/src/gpu/worker.c" <<'EOF'
void rung_error_set(int code);
#ifdef BAD
int sqlite3_open(const char *f, void **db);
#endif
int rung_worker_open(void) {
	rung_error_set(2);
#ifdef BAD
	sqlite3_open("x", 0);
#endif
	return 0;
}
EOF
cat >"$tmp/src/vcs/store.c" <<'EOF'
void rung_error_set(int code);
int sqlite3_open(const char *f, void **db);
#ifdef BAD
int rung_worker_open(void);
void *initscr(void);
#endif
int rung_store_open(void) {
	rung_error_set(3);
#ifdef BAD
	rung_worker_open();
	initscr();
	initscr();
#endif
	return sqlite3_open("y", 0);
}
EOF
cat >"$tmp/src/tui/screen.c" <<'EOF'
int rung_worker_open(void);
int rung_store_open(void);
int rung_spec_load(void);
void *initscr(void);
void rung_screen_draw(void) { initscr(); rung_worker_open(); rung_store_open(); rung_spec_load(); }
EOF
cat >"$tmp/src/main.c" <<'EOF'
int rung_worker_open(void);
int rung_store_open(void);
int main(void) { return rung_worker_open() + rung_store_open(); }
EOF

build() { # build DIR CFLAGS...: the fake build directory, named as CMake names it
	local b=$1 m o; shift
	mkdir -p "$b/CMakeFiles/rung_tui.dir/tui" "$b/obj"
	for m in core gpu vcs; do
		for c in "$tmp/src/$m"/*.c; do
			o=$b/obj/$(basename "$c").o
			"$cc" -c "$@" -o "$o" "$c" || return 1
			ar rcs "$b/librung_$m.a" "$o" || return 1
		done
	done
	"$cc" -c "$@" -o "$b/CMakeFiles/rung_tui.dir/tui/screen.c.o" "$tmp/src/tui/screen.c" || return 1
	"$cc" -c -o "$b/obj/main.o" "$tmp/src/main.c" || return 1
	printf 'pkgcfg_lib_SQLITE3_sqlite3:FILEPATH=%s\nCURSES_NCURSES_LIBRARY:FILEPATH=%s\n' \
		"$tmp/lib/libsqlite3.so" "$tmp/lib/libncursesw.so" >"$b/CMakeCache.txt"
}
build "$tmp/bad" -DBAD || { echo "FAIL could not build the fake tree"; exit 1; }
build "$tmp/good" || { echo "FAIL could not build the fake tree"; exit 1; }

# What the check is for: with gpu's archive before vcs's, the forbidden call
# from vcs/store.c into gpu/worker.c links, since main pulled worker.c.o in.
t "the bad fake tree links (archive order hides vcs -> gpu)" \
	"$cc" -o "$tmp/bad/a.out" "$tmp/bad/obj/main.o" "$tmp/bad/librung_gpu.a" "$tmp/bad/librung_vcs.a" \
	"$tmp/bad/librung_core.a" -L"$tmp/lib" -lsqlite3 -lncursesw -Wl,-rpath,"$tmp/lib"

out=$(bash "$check" "$tmp/bad" 2>&1); rc=$?
echo "$out"
want="core/spec.c.o needs rung_screen_draw (tui/screen.c): core/ may use nothing of rung
gpu/worker.c.o needs sqlite3_open (sqlite3): gpu/ may not use sqlite3
vcs/store.c.o needs initscr (curses): vcs/ may not use curses
vcs/store.c.o needs rung_worker_open (gpu/worker.c): vcs/ may use core/ only"
t "bad tree: exit 1" [ "$rc" = 1 ]
t "bad tree: one line per forbidden call, nothing about the allowed ones" [ "$(sort <<<"$out")" = "$want" ]

out=$(bash "$check" "$tmp/good" 2>&1); rc=$?
t "good fake tree: exit 0" [ "$rc" = 0 ]
t "good fake tree: no output" [ -z "$out" ]

# A module with objects and no rule fails rather than passing unchecked.
cp "$tmp/good/librung_core.a" "$tmp/good/librung_zzz.a"
out=$(bash "$check" "$tmp/good" 2>&1); rc=$?
t "a module without a rule fails" [ "$rc" = 1 ]
t "and says so" grep -qxF "no layering rule for zzz/ (tests/sh/lib/symbols.sh)" <<<"$out"

# The real tree.
out=$(bash "$check" "$(dirname "$RUNG")" 2>&1); rc=$?
[ -n "$out" ] && echo "$out"
t "rung's own libraries keep the layering" [ "$rc" = 0 ]

[ $fail = 0 ] && echo "all passed"
exit $fail
