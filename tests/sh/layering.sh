#!/bin/bash
# Module dependencies are one-way (docs/ARCHITECTURE.md): core/ includes no
# CUDA, curses, git or sqlite header and nothing from gpu/, vcs/ or tui/; gpu/
# and vcs/ include core/ only (and not each other); only tui/ includes them all.
# CMake links each module's library only to what it may use; this test checks
# the includes, which the shared include path cannot.
set -u
: "${RUNG_SRC:?}"
cd "$RUNG_SRC"
bad=0
check() { # DIR PATTERN WHAT
  local hits
  hits=$(grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($2)" "$1"/*.c "$1"/*.h 2>/dev/null)
  if [ -n "$hits" ]; then
    echo "FAIL: $1/ includes $3:"; echo "$hits"; bad=1
  fi
}
check core 'cuda|cupti|nvrtc|nvml|git2|curses|ncurses|sqlite3|gpu/|vcs/|tui/' 'a CUDA, curses, git or sqlite header, or another module'
check gpu 'git2|curses|ncurses|sqlite3|vcs/|tui/' 'git, curses, sqlite, vcs/ or tui/'
check vcs 'cuda|cupti|nvrtc|nvml|curses|ncurses|gpu/|tui/' 'CUDA, curses, gpu/ or tui/'
[ $bad = 0 ] && echo "1 passed, 0 failed"
exit $bad
