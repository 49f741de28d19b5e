#!/usr/bin/env bash
# rung brief tells the agent where the best version's warps wait: the top
# stall reasons with their shares and the three most sampled PCs, from the
# samples `rung profile --stalls` stored beside its result; without samples,
# the command that takes them. A fake worker (a "GPU" that answers every job
# with a passing, benched result and stall samples in its side data) stands in
# for the device.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
{
	echo '#!/bin/bash'
	echo 'export LC_ALL=C'
	echo "printf '%s\n' '{\"type\":\"hello\",\"proto\":1,\"ok\":true,\"env\":{\"valid\":true,\"gpu\":\"Fake GPU\",\"uuid\":\"GPU-fake\",\"arch\":\"sm_90\",\"sms\":3}}' >&0"
	echo 'while IFS= read -r line; do'
	echo '	case "$line" in'
	echo "	*'\"type\":\"job\"'*)"
	echo "		res='{\"steps\":{\"run\":{\"status\":\"ok\"},\"check\":{\"status\":\"ok\"},\"bench\":{\"status\":\"ok\"},\"profile\":{\"status\":\"ok\"}},\"bench\":{\"valid\":true,\"median\":1.25,\"n\":11,\"noise_ok\":true,\"method\":\"cupti-activity\"},\"metrics\":[{\"output\":\"c\",\"n\":1000,\"pass\":true}],\"nshapes\":1,\"nseeds\":1,\"aux\":{\"stall\":{\"function\":\"\",\"period\":10,\"total\":450,\"dropped\":0,\"reasons\":[\"long_scoreboard\",\"long_scoreboard_not_issued\",\"barrier\",\"selected\"],\"records\":[[16,0,240,1,200,3,60],[32,2,100],[48,3,50]]}}}'"
	echo "		printf '{\"type\":\"result\",\"fatal\":false,\"blobs\":[%d]}\n%s' \${#res} \"\$res\" >&0 ;;"
	echo "	*'\"type\":\"quit\"'*) exit 0 ;;"
	echo '	esac'
	echo 'done'
} > "$T/worker.sh"
chmod +x "$T/worker.sh"
export RUNG_WORKER_EXE="$T/worker.sh"
mkdir "$T/r" && cd "$T/r" && git init -q && git config user.name A && git config user.email a@x
cp -r "$RUNG_SRC/tests/faults/good" vadd && git add -A && git commit -qm "vadd" || fail "repo"
head=$(git rev-parse --short=7 HEAD)
"$RUNG" check HEAD > "$T/check.out" 2>&1 || fail "check: $(cat "$T/check.out")"
out=$("$RUNG" brief 2>&1) || fail "brief: $out"
grep -qF "where its warps wait: not sampled (\`rung profile --stalls $head\` on a GPU box)" <<<"$out" ||
	fail "no 'not sampled' line: $out"
"$RUNG" profile --stalls HEAD > "$T/prof.out" 2>&1 || fail "profile --stalls: $(cat "$T/prof.out")"
grep -q "^\[stalls\] samples stored with the result of $head" "$T/prof.out" || fail "not stored: $(cat "$T/prof.out")"
out=$("$RUNG" brief 2>&1) || fail "brief: $out"
echo "$out" | grep -A2 "^## Best passing version" 
# 240 + 100 + 110 of 450 (the 200 not issued are part of the 240, not more samples)
grep -qF "where its warps wait (450 warp stall samples): long scoreboard 53.3%, selected (issued) 24.4%, barrier 22.2%" <<<"$out" ||
	fail "top reasons: $out"
grep -qF "most sampled instructions: pc 0x0010 66.7% (long scoreboard), pc 0x0020 22.2% (barrier), pc 0x0030 11.1% (selected (issued))" <<<"$out" ||
	fail "top pcs: $out"
echo ok
