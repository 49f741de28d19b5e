#!/bin/bash
# rung profile --ncu reads ncu's report back and the detail screen shows it,
# with no GPU and no Nsight Compute: the worker is a fake that says hello as an
# H200 would (RUNG_WORKER_EXE) and `ncu` on PATH is a fake that writes the
# report file and prints the pages ncu 2025.3.1 printed on the H200
# (tests/fixtures/ncu/regblock2d.*). Checks the arguments rung gives ncu, the
# summary it prints, the kinds it stores (nothing path-dependent in them), and
# the sections table and source page in the workbench, on the version's
# recorded result (imported under the key the profile stored its data at).
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC TERM=xterm-256color LC_ALL=C.UTF-8
unset NO_COLOR
. "$RUNG_SRC/tests/sh/lib/tui_repo.sh"
fail() { echo "FAIL: $*"; exit 1; }
FX=$RUNG_SRC/tests/fixtures/ncu

mkdir -p "$T/bin"
cat >"$T/worker.sh" <<'SH'
#!/bin/sh
printf '%s\n' '{"type":"hello","proto":1,"ok":true,"env":{"valid":true,"gpu":"NVIDIA H200","uuid":"GPU-fake-ncu","arch":"sm_90","sms":132}}' >&0
while IFS= read -r line; do
	case "$line" in *'"type":"quit"'*) exit 0 ;; esac
done
SH
cat >"$T/bin/ncu" <<SH
#!/bin/sh
# the fake: every call's arguments logged, one per line
printf '%s\n' "--- call" "\$@" >>"$T/ncu.args"
printf '%s\n' "deadline=\${RUNG_DEADLINE:-unset}" >>"$T/ncu.env"
prev=
for a in "\$@"; do
	[ "\$prev" = --export ] && : >"\$a"
	prev=\$a
done
case " \$* " in
*" --import "*" --page details "*) cat "$FX/regblock2d.details.csv" ;;
*" --import "*" --page source "*) cat "$FX/regblock2d.source.csv" ;;
esac
SH
chmod +x "$T/worker.sh" "$T/bin/ncu"

out=$(cd "$REPO" && PATH="$T/bin:$PATH" RUNG_WORKER_EXE="$T/worker.sh" "$RUNG" profile --ncu HEAD 2>"$T/err") ||
	fail "rung profile --ncu exited $?: $out $(cat "$T/err")"
echo "$out"
# the profile run: --set detailed plus the warp state section, on rung's own --launch-only mode
grep -qx -- "--set" "$T/ncu.args" && grep -qx detailed "$T/ncu.args" || fail "no --set detailed: $(cat "$T/ncu.args")"
grep -A1 -x -- "--section" "$T/ncu.args" | grep -qx WarpStateStats || fail "no --section WarpStateStats"
grep -qx -- "--launch-only" "$T/ncu.args" || fail "ncu did not run rung --launch-only"
# the worker under ncu's replays gets 600 s, not the 10 s default (a 0.28 s
# kernel replayed ~40 times was killed); a RUNG_DEADLINE of the user's stands
grep -qx "deadline=600" "$T/ncu.env" || fail "the profiled run's deadline: $(cat "$T/ncu.env")"
report=$(sed -n 's/^\[ncu\] report \(.*\.ncu-rep\) (path stored with the result)$/\1/p' <<<"$out")
[ -n "$report" ] && [ -f "$report" ] || fail "no report line: $out"
key=$(basename "$report" .ncu-rep)
# then two imports of that report, each with its page
[ "$(grep -c -x -- "--import" "$T/ncu.args")" = 2 ] || fail "not two imports: $(cat "$T/ncu.args")"
grep -A8 -x -- "--import" "$T/ncu.args" | grep -qx -- "--print-source" || fail "no --print-source sass"
grep -A1 -x -- "--import" "$T/ncu.args" | grep -qxF "$report" || fail "the import is not of rung's report"
grep -qF "[ncu] imported 9 sections, 38 SASS lines (stored with the result: the detail screen shows them, u)" <<<"$out" ||
	fail "import line"
grep -qF "[ncu] SOL: compute (SM) 39.04%, memory 45.29% (DRAM 2.10%, L1/TEX 46.77%, L2 7.76%), duration 6.75 ms" <<<"$out" ||
	fail "SOL line"
grep -qF "[ncu] occupancy: achieved 12.49%, theoretical 12.50%, 130 registers/thread" <<<"$out" || fail "occupancy line"
grep -qF "[ncu] rules: 5 OPT, 0 WRN, 2 INF, 0 ERR" <<<"$out" || fail "rules line"
grep -qF "[ncu] top stall (source page): " <<<"$out" || fail "top stall line"

# the stored kinds, as --json shows the sections (and nothing of this machine's paths in them)
js=$(cd "$REPO" && PATH="$T/bin:$PATH" RUNG_WORKER_EXE="$T/worker.sh" "$RUNG" profile --ncu --json HEAD 2>/dev/null) ||
	fail "--json exited $?"
grep -qF '"ncu_sections":{"format":1,"kernel":"sgemm","grid":"(32, 32, 1)","block":"(256, 1, 1)","cc":"9.0"' <<<"$js" ||
	fail "no sections in --json: ${js:0:400}"
grep -qF '"ncu_source_lines":38' <<<"$js" || fail "source lines in --json"

# the workbench: the version's recorded result under the key the data is stored at
head=$(git -C "$REPO" rev-parse HEAD)
# (without the demo line's own extras: this version's side data is what was stored above)
head -1 "$RUNG_SRC/examples/sgemm/recorded.jsonl" | python3 -c 'import json, sys
o = json.loads(sys.stdin.read()); o.pop("extras", None); print(json.dumps(o))' |
	sed -E "s/\"key\": \"[0-9a-f]{64}\"/\"key\":\"$key\"/; s/\"commits\": \[\"[0-9a-f]+\"\]/\"commits\":[\"$head\"]/" >"$T/rec.jsonl"
"$RUNG" import -C "$REPO" "$T/rec.jsonl" >/dev/null || fail "import"
printf '%s\n' '<Enter>' 'u' ':dump sections.txt' 'u' ':dump source.txt' 'u' ':dump back.txt' '?' ':dump help.txt' 'Q' >"$T/keys"
RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=120 LINES=200 "$RUNG" tui -C "$REPO" >"$T/out" 2>&1 ||
	fail "rung tui exited $?: $(cat "$T/out")"
s=$(cat "$T/sections.txt")
echo "$s" | head -40
grep -q "ncu sections (u: source page)" <<<"$s" || fail "title: $s"
grep -qF "ncu: sgemm (32, 32, 1)x(256, 1, 1), CC 9.0, 9 sections" <<<"$s" || fail "sections header"
grep -q "^GPU Speed Of Light Throughput *$" <<<"$s" || fail "section name"
grep -qE "^  Elapsed Cycles +cycle +13,364,163 *$" <<<"$s" || fail "metric row: $s"
grep -qE "^  Registers Per Thread +register/thread +130 *$" <<<"$s" || fail "launch statistics row"
# a rule row, wrapped under its section: OPT under the SOL table, before the roofline chart's INF
awk '/^GPU Speed Of Light Throughput/{a=1} a&&/^  OPT +This workload exhibits low compute throughput/{print "ok"; exit}' <<<"$s" |
	grep -q ok || fail "OPT rule not under its section"
grep -qE "^         performance of this device" <<<"$s" || fail "rule text not wrapped under itself"
grep -qF "(est. speedup 1.7%, global)" <<<"$s" || fail "estimated speedup"
grep -q "^Memory Workload Analysis Chart *$" <<<"$s" || fail "a section with rules only"
src=$(cat "$T/source.txt")
grep -q "ncu source page: sgemm, 38 SASS lines" <<<"$src" || fail "source header: $src"
grep -qF "rung's own counts: none stored (rung profile --sass" <<<"$src" || fail "no counts note"
# (the stall by rung's name, as the SASS pane says it: #28 D-20, it read ncu's no_inst)
grep -qE "^ +0000 +- +8192 +43  no instruction 43 +LDC R1, c\[0x0\]\[0x28\]" <<<"$src" || fail "source line 0: $src"
grep -qE "BRA 0x300$" <<<"$src" || fail "branch target not relative"
grep -q "\[detail\]" "$T/back.txt" || true
grep -q "ncu" "$T/back.txt" && fail "u did not come back to the summary: $(head -3 "$T/back.txt")"
grep -qE "^ +u +ncu +detail: ncu's sections" "$T/help.txt" || grep -q "detail: ncu's sections" "$T/help.txt" || fail "help"
: >"$T/ncu.env"
(cd "$REPO" && PATH="$T/bin:$PATH" RUNG_WORKER_EXE="$T/worker.sh" RUNG_DEADLINE=42 "$RUNG" profile --ncu HEAD >/dev/null 2>&1)
grep -qx "deadline=42" "$T/ncu.env" || fail "RUNG_DEADLINE not kept under ncu: $(cat "$T/ncu.env")"
echo "ok"
