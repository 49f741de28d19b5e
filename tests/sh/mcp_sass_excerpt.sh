#!/bin/bash
# The MCP dump tool's SASS excerpt on the demo (#27 item 3): the TF32 version
# (53c0aa4 "fix illegal address", 08-tf32-mma) has 64 HMMA past the first
# 180 KB of its listing; the default answer (8 KiB of sass, the whole answer
# under 32 KB) holds all 64, its main loop, and, from the H200 stall samples
# the demo records for it, its hottest instructions. Needs NVRTC and nvdisasm
# (exit 77 without them: no GPU needed).
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export HOME="$T" GIT_CONFIG_NOSYSTEM=1
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || fail "rung demo exited $?"
cd "$T/demo/sgemm" || fail "no sgemm task"
rev=$(git log --format=%h --grep='fix illegal address: BK=64' -1)
[ -n "$rev" ] || fail "no TF32 version in the demo"
"$RUNG" dump "$rev" >"$T/paths" 2>"$T/err" || { grep -q "NVRTC\|libnvrtc" "$T/err" && { echo "no NVRTC: skipped"; exit 77; }; cat "$T/err"; fail "rung dump $rev exited $?"; }
grep -q 'kernel.sass$' "$T/paths" || { echo "no nvdisasm: skipped"; exit 77; }
python3 - "$RUNG" "$rev" "$(grep 'kernel.sass$' "$T/paths")" <<'PY' || fail "(above)"
import json, subprocess, sys
rung, rev, full = sys.argv[1], sys.argv[2], open(sys.argv[3]).read()
assert full.count(" HMMA.") == 64 and full.find(" HMMA.") > 150000, (full.count(" HMMA."), full.find(" HMMA."))
msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "dump", "arguments": {"rev": rev}}}]
out = subprocess.run([rung, "mcp"], input="".join(json.dumps(m) + "\n" for m in msgs), capture_output=True, text=True).stdout
line = [l for l in out.splitlines() if json.loads(l).get("id") == 2][0]
r = json.loads(line)["result"]
assert not r.get("isError"), r
sass = r["structuredContent"]["sass"]
assert sass["excerpt"] and sass["truncated"], {k: v for k, v in sass.items() if k != "text"}
text = sass["text"]
assert len(text.encode()) <= 8192, len(text.encode())
assert len(line.encode()) <= 32 * 1024, "the answer is %d bytes" % len(line.encode())
assert text.count(" HMMA.") == 64, text.count(" HMMA.")
assert "the main loop .L_x_" in text.splitlines()[0], text.splitlines()[0]
assert "the hottest instructions by stall samples" in text.splitlines()[0], text.splitlines()[0]
assert "File \"" not in text.split("\n", 2)[2], "the path is repeated"
print("sass excerpt: %d bytes, 64 HMMA, answer %d bytes" % (len(text), len(line)))
PY
echo ok
