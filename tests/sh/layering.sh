#!/bin/bash
# Module dependencies are one-way (docs/ARCHITECTURE.md): core/ includes no
# CUDA, curses, git or sqlite header and nothing from gpu/, vcs/ or tui/; gpu/
# and vcs/ include core/ only (and not each other); only tui/ includes them all.
# The app layer's folders (rules that apply as soon as the folders exist): app/
# includes no curses header and nothing from tui/ or cli/; tui/ nothing from
# cli/; none of core/, gpu/, vcs/ includes app/ or cli/.
# CMake links each module's library only to what it may use; this test checks
# the includes, which the shared include path cannot (tests/sh/layering_symbols.sh
# checks the symbols, which static-archive link order cannot).
# First the rules are run on a small tree with one bad include per rule, which
# must fail on each; then on the real tree, which must pass.
set -u
: "${RUNG_SRC:?}"
bad=0
check() { # DIR PATTERN WHAT: under the current directory
	local hits
	# every .c and .h under DIR, its subfolders too (tui/screens, gpu/worker, ...)
	hits=$(find "$1" \( -name '*.c' -o -name '*.h' \) -print0 2>/dev/null | sort -z |
		xargs -0 -r grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"](\.\./)*($2)" /dev/null 2>/dev/null)
	if [ -n "$hits" ]; then
		echo "FAIL: $1/ includes $3:"; echo "$hits"; bad=1
	fi
}
rules() {
	check core 'cuda|cupti|nvrtc|nvml|git2|curses|ncurses|sqlite3|gpu/|vcs/|tui/|app/|cli/' 'a CUDA, curses, git or sqlite header, or another module'
	check gpu 'git2|curses|ncurses|sqlite3|vcs/|tui/|app/|cli/' 'git, curses, sqlite, vcs/, tui/, app/ or cli/'
	check vcs 'cuda|cupti|nvrtc|nvml|curses|ncurses|gpu/|tui/|app/|cli/' 'CUDA, curses, gpu/, tui/, app/ or cli/'
	check app 'curses|ncurses|tui/|cli/' 'curses, tui/ or cli/'
	check tui 'cli/' 'cli/'
}

# The rules themselves: each bad include below must be reported, the good ones not.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/core" "$tmp/gpu/worker" "$tmp/vcs" "$tmp/app" "$tmp/tui/screens"
printf '#include "core/err.h"\n#include "app/session.h"\n' >"$tmp/core/spec.c"
printf '#include "core/err.h"\n#include "cli/args.h"\n' >"$tmp/gpu/worker.c"
printf '#include "gpu/worker/child.h"\n#include "vcs/store.h"\n' >"$tmp/gpu/worker/main.c"
printf '#include "core/err.h"\n#include <sqlite3.h>\n# include "../gpu/worker.h"\n' >"$tmp/vcs/store.c"
printf '#include "core/err.h"\n#include "gpu/worker.h"\n#include "vcs/store.h"\n#include <curses.h>\n' >"$tmp/app/a.c"
printf '#include <ncurses.h>\n' >"$tmp/app/b.h"
printf '#include "cli/args.h"\n' >"$tmp/app/c.c"
printf '#include "tui/canvas.h"\n' >"$tmp/app/d.c"
printf '#include <curses.h>\n#include "app/session.h"\n#include "tui/view.h"\n#include "cli/args.h"\n' >"$tmp/tui/screens/detail.c"
out=$(cd "$tmp" && rules; echo "bad=$bad")
bad=${out##*bad=}; out=${out%bad=*}
want="core/spec.c:2:#include \"app/session.h\"
gpu/worker.c:2:#include \"cli/args.h\"
gpu/worker/main.c:2:#include \"vcs/store.h\"
vcs/store.c:3:# include \"../gpu/worker.h\"
app/a.c:4:#include <curses.h>
app/b.h:1:#include <ncurses.h>
app/c.c:1:#include \"cli/args.h\"
app/d.c:1:#include \"tui/canvas.h\"
tui/screens/detail.c:4:#include \"cli/args.h\""
got=$(grep -v '^FAIL: ' <<<"$out")
if [ "$bad" != 1 ] || [ "$(sort <<<"$got")" != "$(sort <<<"$want")" ]; then
	echo "FAIL: the rules on the bad tree reported:"; echo "$out"; echo "instead of:"; echo "$want"
	exit 1
fi
echo "ok   the rules find every bad include of the bad tree"

cd "$RUNG_SRC"
bad=0
rules
[ $bad = 0 ] && echo "1 passed, 0 failed"
exit $bad
