#!/bin/bash
# docs/CLI.md cannot drift from the option tables: every block between
# "<!-- rung help --markdown CMD -->" and "<!-- end -->" must be exactly what
# `rung help --markdown CMD` prints, and every command with a table has one.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# split a stream of marked blocks into $2/CMD.md, one file per command
split_blocks() {
	awk -v dir="$2" '
		/^<!-- rung help --markdown [a-z]+ -->$/ { f = dir "/" $5 ".md"; printf "" > f; next }
		/^<!-- end -->$/ { if (f) close(f); f = ""; next }
		f { print >> f }' "$1"
}
mkdir "$T/doc" "$T/gen"
"$RUNG" help --markdown >"$T/gen.txt" || fail "rung help --markdown exited $?"
split_blocks "$T/gen.txt" "$T/gen"
split_blocks "$RUNG_SRC/docs/CLI.md" "$T/doc"
[ -s "$T/gen/check.md" ] || fail "no block for check in rung help --markdown"
grep -q -- '--spec-rev REV' "$T/gen/check.md" || fail "check's block lacks --spec-rev"
for g in "$T"/gen/*.md; do
	c=$(basename "$g" .md)
	[ -f "$T/doc/$c.md" ] || fail "docs/CLI.md has no '<!-- rung help --markdown $c -->' block (paste the output of 'rung help --markdown $c')"
	diff -u "$T/doc/$c.md" "$g" >"$T/diff" || { cat "$T/diff"; fail "docs/CLI.md's block for $c differs from 'rung help --markdown $c' (above)"; }
done
for d in "$T"/doc/*.md; do
	c=$(basename "$d" .md)
	[ -f "$T/gen/$c.md" ] || fail "docs/CLI.md has a block for '$c', which has no option table"
done
# one command's block alone
"$RUNG" help --markdown check | diff - <(sed -n '/^<!-- rung help --markdown check -->$/,/^<!-- end -->$/p' "$RUNG_SRC/docs/CLI.md") >/dev/null ||
	fail "rung help --markdown check differs from its block"
"$RUNG" help --markdown nosuch >/dev/null 2>&1; [ $? = 2 ] || fail "help --markdown of an unknown command: exit 2"
echo "ok"
