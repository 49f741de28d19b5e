#!/usr/bin/env bash
# rung profile --ncu reads its report back (issue 15, item 4), on the H200:
# for two demo versions (sgemm 2-D register blocking, softmax), rung's own
# per-PC counts first (rung profile --sass, for the agreement line), then
# rung profile --ncu (--set detailed --section WarpStateStats, then ncu
# --import of the details and source pages), then the kinds stored beside the
# result (ncu, ncu_sections, ncu_source, sass) with their sizes and heads.
# Run from the repo root with the carried binaries (scripts/build-carry.sh);
# logs on stdout, the stored JSON in $OUT/ncu_import/.
# What proves it: per version, "[ncu] imported N sections, M SASS lines
# (stored ...)" with N >= 9 and a "Warp State Statistics" section in the dump,
# "[ncu] warp state: ..." and "[ncu] instructions executed: K of K pcs agree
# exactly", and kinds ncu_sections / ncu_source listed for the result's key.
set -u
. bench/h200_env.sh
command -v ncu >/dev/null || { echo "ncu not on PATH"; exit 4; }
ncu --version | tail -1
D=/tmp/rung-demo-ncu; rm -rf "$D"; rung demo --no-tui "$D" >/dev/null 2>&1
mkdir -p "$O/ncu_import"
pick() { git -C "$D" log --format='%h %s' -- "$1" | grep -F "$2" | head -1 | cut -d' ' -f1; }
for spec in "sgemm|sgemm/sgemm.cu|128x128 block tile|regblock2d" "softmax|softmax/softmax.cu||softmax"; do
	IFS='|' read -r task file subj tag <<<"$spec"
	if [ -n "$subj" ]; then rev=$(pick "$file" "$subj"); else rev=$(git -C "$D" log --format=%h -1 -- "$file"); fi
	echo "== $tag ($task $rev): rung profile --sass"
	(cd "$D" && timeout 300 rung profile --sass --task "$task" "$rev") | grep -E "^\[(check|sass)\]" | head -4
	echo "== $tag: rung profile --ncu"
	s=$(date +%s%N)
	(cd "$D" && timeout 600 rung profile --ncu --task "$task" "$rev"); echo "rc=$? in $(( ($(date +%s%N) - s) / 1000000 )) ms"
	(cd "$D" && timeout 600 rung profile --ncu --json --task "$task" "$rev") >"$O/ncu_import/$tag.profile.json" 2>/dev/null
	echo "--json: $(wc -c <"$O/ncu_import/$tag.profile.json") bytes"
done
echo "== stored kinds"
python3 - "$D/.git/rung/results.db" "$O/ncu_import" <<'PY'
import json, sqlite3, sys
db, out = sys.argv[1], sys.argv[2]
c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
for key, kind, js in c.execute("select key, kind, json from profile_extra order by key, kind"):
    print(key[:12], kind, len(js), "bytes:", js[:160].replace("\n", " "))
    open("%s/%s.%s.json" % (out, key[:12], kind), "w").write(js)
    if kind == "ncu_sections":
        d = json.loads(js)
        print("   sections:", [s["name"] for s in d["sections"]])
    if kind == "ncu_source":
        d = json.loads(js)
        print("   lines:", len(d["lines"]), "has:", d["has"], "stalls:", d["stalls"][:6], "...")
        print("   absolute addresses left:", sum(1 for l in d["lines"] if "0x7f" in l[1]))
PY
rm -rf "$D"
