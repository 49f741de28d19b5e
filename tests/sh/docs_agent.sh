#!/bin/bash
# What an agent reads in the docs holds (#27 item 7): docs/CLI.md's exit-code
# table lists each code once; docs/RESULT-JSON.md's "Shape" block is valid
# JSON and names every key of a real result (rung check --json); `rung log
# --json` is JSON lines, as its help says; `rung log --rev nosuch..HEAD` is a
# bad command line (exit 2), not rung's own failure (5); rung brief says what
# the recorded results (the demo's H200 runs) show, labelled as not measured here.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
export T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export HOME="$T" GIT_CONFIG_NOSYSTEM=1 RUNG_WORKER_EXE="$RUNG"
git config --global user.name "Ada Lovelace" && git config --global user.email ada@example.com
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || fail "rung demo exited $?"
cd "$T/demo/sgemm" || fail "no sgemm task"
"$RUNG" check --json HEAD >"$T/check.json" 2>/dev/null
python3 - "$RUNG_SRC" "$T/check.json" <<'PY' || fail "the docs (above)"
import json, re, sys
src, check = sys.argv[1], sys.argv[2]
cli = open(src + "/docs/CLI.md").read()
table = cli.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
codes = re.findall(r"^\| (\S+) \|", table, re.M)
codes = [c for c in codes if c not in ("code", "---")]
assert len(codes) == len(set(codes)), "exit codes listed twice: %r" % codes
doc = open(src + "/docs/RESULT-JSON.md").read()
block = doc.split("## Shape", 1)[1].split("```json", 1)[1].split("```", 1)[0]
shape = json.loads(block)
result = json.load(open(check))["result"]
missing = sorted(k for k in result if k not in shape)
assert not missing, "result keys the Shape does not name: %r" % missing
print("docs ok")
PY
"$RUNG" log --json -n 3 >"$T/log.jsonl" || fail "rung log --json exited $?"
python3 -c 'import json,sys; rows=[json.loads(l) for l in open(sys.argv[1])]; assert len(rows)==3 and all("rev" in r for r in rows), rows' "$T/log.jsonl" ||
	fail "rung log --json is not one JSON object per version"
"$RUNG" help log | grep -q -- '--json.*JSON lines' || fail "rung log's help does not say JSON lines"
"$RUNG" log --rev nosuch..HEAD >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || fail "rung log --rev nosuch..HEAD: exit $rc, not 2"
if python3 -c 'import jsonschema' 2>/dev/null; then
	for a in "HEAD" "--compile-only HEAD" "--compile-only" "nosuchrev" "--compile-only 8b22df9"; do
		# shellcheck disable=SC2086
		"$RUNG" check --json $a >"$T/c.json" 2>/dev/null
		python3 -c 'import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))' \
			"$RUNG_SRC/docs/schema/check.schema.json" "$T/c.json" || fail "rung check --json $a against docs/schema/check.schema.json"
	done
	printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}' \
		'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"check","arguments":{"rev":"HEAD"}}}' |
		"$RUNG" mcp 2>/dev/null | tail -1 >"$T/m.json"
	python3 -c 'import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[2]))["result"]["structuredContent"], json.load(open(sys.argv[1])))' \
		"$RUNG_SRC/docs/schema/check.schema.json" "$T/m.json" || fail "the MCP check tool's structured content against docs/schema/check.schema.json"
fi
"$RUNG" brief >"$T/brief.md" 2>&1 || fail "rung brief exited $?"
grep -q '^## Recorded results (not measured here)$' "$T/brief.md" || fail "the brief ignores the recorded results"
grep -q '^fastest recorded passing version: [0-9a-f]\{7\} .*median .* ms.*(recorded on NVIDIA H200' "$T/brief.md" ||
	{ sed -n '/Recorded results/,/Baseline/p' "$T/brief.md"; fail "the brief does not name the fastest recorded version"; }
echo ok
