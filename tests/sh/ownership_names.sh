#!/usr/bin/env bash
# Ownership in names (docs/STYLE.md, libgit2's habit): rung_x_free(p) frees a
# heap object, p itself included; rung_x_clear(p) empties a value the caller
# owns and never frees p. Checked on every definition in the modules; first on
# a small bad tree, which must fail on each kind of mistake.
set -u
: "${RUNG_SRC:?}"
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
check() { # DIR...: prints one line per misnamed function
python3 - "$@" <<'PY'
import re, sys, pathlib
bad = []
for d in sys.argv[1:]:
    for f in sorted(pathlib.Path(d).rglob('*.c')):
        s = f.read_text(errors='replace')
        for m in re.finditer(r'^void (rung_\w+?_(free|clear))\(([^)]*)\)\n\{', s, re.M):
            name, kind, params = m.group(1), m.group(2), m.group(3)
            p = params.split(',')[0].split('*')[-1].strip()
            i, depth = m.end(), 1
            j = i
            while depth and j < len(s):
                depth += {'{': 1, '}': -1}.get(s[j], 0)
                j += 1
            frees = re.search(r'\bfree\(\s*' + re.escape(p) + r'\s*\)', s[i:j]) is not None
            if kind == 'free' and not frees:
                bad.append(f"{f}: {name}() does not free {p}: a value the caller owns is emptied by a _clear")
            if kind == 'clear' and frees:
                bad.append(f"{f}: {name}() frees {p}: a heap object is freed by a _free")
print("\n".join(bad))
PY
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/core"
cat >"$tmp/core/a.c" <<'C'
void rung_good_free(rung_good *g)
{
	rung_good_clear(g);
	free(g);
}
void rung_good_clear(rung_good *g)
{
	free(g->buf);
}
void rung_val_free(rung_val *v)
{
	free(v->buf);
}
void rung_heap_clear(rung_heap *h)
{
	free(h);
}
C
got=$(cd "$tmp" && check core)
want="core/a.c: rung_val_free() does not free v: a value the caller owns is emptied by a _clear
core/a.c: rung_heap_clear() frees h: a heap object is freed by a _free"
if [ "$got" != "$want" ]; then
	echo "FAIL: on the bad tree the check said:"; echo "$got"; exit 1
fi
echo "ok   the check finds a _free that does not free and a _clear that does"
cd "$RUNG_SRC"
got=$(check core gpu vcs app tui cli)
if [ -n "$got" ]; then
	echo "FAIL:"; echo "$got"; exit 1
fi
echo "ok   every _free frees its object and no _clear does"
echo "2 passed, 0 failed"
