#!/bin/bash
# rung export / rung import carry a result's profile side data ("extras":
# per-PC SASS counts, warp stall samples, trace, ncu's pages) with it, so that
# recorded results show them on a machine without a GPU: an export line with
# extras imports into another repository, its stall samples reach `rung
# export --recorded` again unchanged; kinds this rung does not know are
# skipped; extras that are not objects are refused with file:line and exit 2,
# and nothing of that line is kept.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$RUNG" demo --no-tui "$T/d" > /dev/null 2>&1 || fail "rung demo"
"$RUNG" export --recorded -C "$T/d" --task sgemm --out "$T/all.jsonl" 2> /dev/null || fail "export"
# the demo's recorded results carry the H200's side data: every kind the
# examples ship comes back out of the demo repository, for the same results
want=$(cat "$RUNG_SRC"/examples/*/recorded.jsonl | python3 -c 'import json, sys
print(sorted((json.loads(l)["content"], k) for l in sys.stdin for k in json.loads(l).get("extras", {})))')
got=$(python3 -c 'import json, sys
print(sorted((json.loads(l)["content"], k) for l in open(sys.argv[1]) for k in json.loads(l).get("extras", {})))' "$T/all.jsonl")
[ "$want" = "$got" ] || fail "the demo's extras differ from the examples': want ${want:0:300} got ${got:0:300}"
grep -q "stall" <<<"$want" || fail "the examples carry no stall samples"
python3 -c 'import json, sys
o = json.loads(open(sys.argv[1]).readline()); o.pop("extras", None); print(json.dumps(o))' "$T/all.jsonl" > "$T/one.jsonl"
python3 - "$T/one.jsonl" "$T/with.jsonl" "$T/bad.jsonl" <<'PY' || fail "could not build the lines"
import json, sys
o = json.loads(open(sys.argv[1]).read())
stall = {"function": "sgemm", "period": 11, "total": 45, "dropped": 0,
         "reasons": ["long_scoreboard", "selected"], "records": [[16, 0, 40, 1, 5]]}
o["extras"] = {"stall": stall, "some_future_kind": {"x": 1}}
open(sys.argv[2], "w").write(json.dumps(o) + "\n")
o["extras"] = {"stall": [1, 2]}
open(sys.argv[3], "w").write("\n" + json.dumps(o) + "\n")
PY

mkdir -p "$T/e" && git -C "$T/e" init -q && cp -r "$T/d/sgemm" "$T/e/" && git -C "$T/e" add -A &&
	git -C "$T/e" -c user.name=t -c user.email=t@t commit -qm init || fail "repo"
out=$("$RUNG" import -C "$T/e" --task sgemm "$T/with.jsonl" 2>&1) || fail "import with extras: $out"
"$RUNG" export --recorded -C "$T/e" --task sgemm --out "$T/back.jsonl" 2> /dev/null || fail "export back"
python3 - "$T/back.jsonl" <<'PY' || fail "the stall samples did not come back: $(cat "$T/back.jsonl" | cut -c1-300)"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert len(lines) == 1, len(lines)
ex = lines[0].get("extras", {})
assert sorted(ex) == ["stall"], sorted(ex)
s = ex["stall"]
assert s["reasons"] == ["long_scoreboard", "selected"] and s["records"] == [[16, 0, 40, 1, 5]] and s["total"] == 45, s
PY

rm -rf "$T/f" && mkdir -p "$T/f" && git -C "$T/f" init -q && cp -r "$T/d/sgemm" "$T/f/" && git -C "$T/f" add -A &&
	git -C "$T/f" -c user.name=t -c user.email=t@t commit -qm init || fail "repo f"
out=$("$RUNG" import -C "$T/f" --task sgemm "$T/bad.jsonl" 2>&1); rc=$?
[ $rc = 2 ] || fail "bad extras: exit $rc, want 2: $out"
grep -q "bad.jsonl:2: extras.stall is not an object" <<<"$out" || fail "no file:line in: $out"
n=$("$RUNG" export --recorded -C "$T/f" --task sgemm 2> /dev/null | wc -l)
[ "$n" = 0 ] || fail "the refused line was kept ($n results)"
echo "ok"
