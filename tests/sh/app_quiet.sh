#!/usr/bin/env bash
# app/ prints nothing and never exits (docs/ARCHITECTURE.md): no object of
# librung_app.a may refer to stdout, stderr, printf and the like, exit(),
# abort() or perror(). Writing to a FILE the caller opened (fputs to a file,
# fwrite) stays allowed. First the check runs on a fake archive with one bad
# call per kind, which must fail naming each; then on the real one.
set -u
: "${RUNG:?}"
command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }
command -v ar >/dev/null 2>&1 || { echo "SKIP: no ar"; exit 77; }
cc=${CC:-cc}
forbidden='printf|vprintf|puts|putchar|perror|exit|_exit|abort|stdout|stderr|__printf_chk|__vprintf_chk|__fprintf_chk'
check() { # ARCHIVE: prints "OBJECT SYMBOL" per forbidden reference
	nm -A -u "$1" 2>/dev/null | awk -v re="^($forbidden)$" '{ s = $NF; sub(/@.*/, "", s); if (s ~ re) { n = split($1, a, ":"); print a[2], s } }' | sort
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/bad.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
void a(void) { printf("x %d\n", 1); }
void b(void) { fprintf(stderr, "y\n"); }
void c(void) { exit(3); }
void d(FILE *f) { fputs("fine", f); }
C
"$cc" -O0 -c -o "$tmp/bad.o" "$tmp/bad.c" || exit 2
ar rcs "$tmp/libbad.a" "$tmp/bad.o" || exit 2
got=$(check "$tmp/libbad.a" | awk '{print $2}' | tr '\n' ' ')
for s in printf stderr exit; do
	case " $got " in *" $s "*) ;; *) echo "FAIL: the check missed $s in the bad archive (found: $got)"; exit 1 ;; esac
done
case " $got " in *" fputs "*) echo "FAIL: fputs to a caller's FILE was flagged"; exit 1 ;; esac
echo "ok   the check finds printf, stderr and exit in a bad archive"
lib=$(dirname "$RUNG")/librung_app.a
[ -f "$lib" ] || { echo "FAIL: no $lib"; exit 1; }
bad=$(check "$lib")
if [ -n "$bad" ]; then
	echo "FAIL: app/ prints or exits:"; echo "$bad"; exit 1
fi
echo "ok   app/ neither prints nor exits"
echo "2 passed, 0 failed"
