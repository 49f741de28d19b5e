#!/bin/bash
# --json on errors of the command line (#27 item 9): with --json, a bad option,
# a bad or missing value, an unexpected argument, a task or target that is not
# there and a bad --rev range print one JSON object on stdout,
# {"status":"error","exit":2,"error":...}, with the exit code (2) and the
# message on stderr; without --json stdout stays empty. Every verb that takes
# --json: check, log, compare, ceilings, profile (and --stalls), trace.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export HOME="$T" GIT_CONFIG_NOSYSTEM=1
"$RUNG" demo --no-tui "$T/demo" >/dev/null 2>&1 || fail "rung demo exited $?"
cd "$T/demo/sgemm" || fail "no sgemm task"
n=0
# one JSON error object on stdout naming WORDS, exit 2, the message on stderr too;
# each stdout is kept ($T/out.N, its words, verb and command in $T/outs) and all of
# them are judged at the end by one python (judge_outs), not one python each
: >"$T/outs"
json_err() { # WORDS ARGS...
	local words=$1
	shift
	"$RUNG" "$@" >"$T/out.$n" 2>"$T/err"; local rc=$?
	[ "$rc" = 2 ] || fail "rung $*: exit $rc, not 2 (stderr: $(cat "$T/err"))"
	printf '%s\t%s\t%s\t%s\n' "$T/out.$n" "$words" "$1" "rung $*" >>"$T/outs"
	grep -qF -- "$words" "$T/err" || fail "rung $*: stderr does not say '$words': $(cat "$T/err")"
	n=$((n + 1))
}
judge_outs() {
	python3 - "$T/outs" "$RUNG_SRC" <<'PY' || fail "a stdout is not one JSON error object (above)"
import json, sys
try:
    import jsonschema
except ImportError:
    jsonschema = None
schemas = {}
def schema(name):
    if name not in schemas:
        schemas[name] = json.load(open(sys.argv[2] + "/docs/schema/" + name))
    return schemas[name]
bad = 0
for row in open(sys.argv[1]):
    out, words, verb, cmd = row.rstrip("\n").split("\t")
    text = open(out).read()
    try:
        lines = text.splitlines()
        assert len(lines) == 1, lines
        d = json.loads(lines[0])
        assert d["status"] == "error" and d["exit"] == 2 and words in d["error"], d
        assert set(d) == {"status", "exit", "error"}, d
        if jsonschema:
            jsonschema.validate(d, schema("error.schema.json"))
            if verb == "check":  # also one of check's two shapes
                jsonschema.validate(d, schema("check.schema.json"))
    except Exception as e:
        print("FAIL: %s: stdout is not one JSON error object: %r (%s)" % (cmd, text, e))
        bad = 1
sys.exit(bad)
PY
}
for v in check log compare ceilings profile trace "profile --stalls"; do
	# shellcheck disable=SC2086
	json_err "unknown option '--bogus'" $v --json --bogus
	# shellcheck disable=SC2086
	json_err "unknown option '--bogus'" $v --bogus --json # --json after the word that is wrong
done
json_err "--budget: expected a number, found 'x'" check --json --budget x
json_err "-n: expected an integer" log --json -n x
json_err "--budget: expected a value" compare --json HEAD HEAD~1 --budget
json_err "unexpected argument 'b'" check --json a b
json_err "needs two versions, A and B" compare --json HEAD
json_err "--json, --csv and --plot: give one" log --json --csv
json_err "nosuch..HEAD: bad revision range" log --json --rev nosuch..HEAD
for v in "check --compile-only" log "compare HEAD HEAD~1" profile trace "profile --stalls"; do
	# shellcheck disable=SC2086
	json_err "no task nosuch in this repository" $v --json --task nosuch
done
json_err "nosuchrev: not a task directory, file or git revision" check --json --compile-only nosuchrev
json_err "nosuchrev: not a task directory, file or git revision" compare --json nosuchrev HEAD
judge_outs
# without --json: nothing on stdout
for args in "check --bogus" "log --rev nosuch..HEAD" "compare HEAD" "log --task nosuch"; do
	# shellcheck disable=SC2086
	"$RUNG" $args >"$T/out" 2>/dev/null; rc=$?
	[ "$rc" = 2 ] && [ ! -s "$T/out" ] || fail "rung $args without --json: exit $rc, stdout: $(cat "$T/out")"
done
# a verb without --json keeps its text errors only (the word is an unknown option there)
"$RUNG" brief --json >"$T/out" 2>/dev/null; rc=$?
[ "$rc" = 2 ] && [ ! -s "$T/out" ] || fail "rung brief --json: exit $rc, stdout: $(cat "$T/out")"
# over MCP the error object is an error, not a result (compare's is parsed as its result)
python3 - "$RUNG" <<'PY' || fail "MCP (above)"
import json, subprocess, sys
msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "compare", "arguments": {"a": "nosuchrev", "b": "HEAD"}}}]
out = subprocess.run([sys.argv[1], "mcp"], input="".join(json.dumps(m) + "\n" for m in msgs), capture_output=True, text=True).stdout
r = {m["id"]: m for m in map(json.loads, out.splitlines())}[2]["result"]
assert r.get("isError") and r["_meta"]["rung/exit"] == 2 and "nosuchrev" in r["content"][0]["text"], r
print("mcp ok")
PY
echo "json errors: $n cases ok"
