#!/bin/bash
# rung mcp's limits and contracts (tests/mcp/limits.py): a message over 16 MiB
# is -32600 and costs no more memory than the cap (#30 D8); tools and resources
# reach only the repository the server started in unless --any-repo (#30 D9);
# unknown arguments refused, _meta["rung/exit"] and an outputSchema on every
# tool, structured content inert (a commit subject with ESC, U+202E and BEL)
# and every default answer under 32 KB; a client gone mid-call (EPIPE) ends
# the server with 0; SIGTERM mid-check ends it with 143 and no child left (#27).
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
export T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; [ -f "$T/mcp.stderr" ] && tail -20 "$T/mcp.stderr" | sed 's/^/  mcp stderr: /'; exit 1; }
export RUNG_WORKER_EXE="$RUNG" HOME="$T" GIT_CONFIG_NOSYSTEM=1
git config --global user.name "Ada Lovelace" && git config --global user.email ada@example.com
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || fail "rung demo exited $?"
"$RUNG" demo --no-tui "$T/other" >/dev/null 2>&1 || fail "rung demo (the other repository) exited $?"
cd "$T/demo/sgemm" || fail "no sgemm task in the demo"
# a commit subject and a directive with terminal controls
printf '\n// touched\n' >>sgemm.cu
git commit -qam "$(printf 'evil \033[2J subject \xe2\x80\xae rtl \a bell')" || fail "git commit"
"$RUNG" note HEAD "$(printf 'directive with \033[31mred\033[0m and bell \a')" >/dev/null 2>&1 || fail "rung note exited $?"
python3 "$RUNG_SRC/tests/mcp/limits.py" "$RUNG" "$T/demo/sgemm" "$T/other/sgemm" || fail "the MCP limits (above)"
echo ok
