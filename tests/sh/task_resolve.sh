#!/bin/bash
# The one task resolver (app/where.c) over the CLI and MCP: a repository with
# two tasks (alpha, beta), each with an uncommitted edit. From {the root,
# alpha/, beta/} x {no task, alpha, beta, nosuch} x {HEAD, REV, WORKTREE}:
# a task named is the one used (its kernel at that revision, whatever the
# working directory), an unknown one is exit 2 (isError over MCP), and with none
# named the working directory's task is used (at the root: exit 2, name one).
# Then brief, log, notes, export, dump, compare, note, profile, trace and eval
# --task (exit 2 and the same words for a task that is not there, in a
# repository or outside one), a target path in another task
# than the one named, and MCP's brief, log, dump and rung://source/REV?task=.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v python3 >/dev/null || { echo "no python3: skipped"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export HOME="$T" GIT_CONFIG_NOSYSTEM=1 TZ=UTC
R=$T/r
git init -q "$R" && cd "$R" || fail "git init"
git config user.name "Ada Lovelace" && git config user.email ada@example.com
for t in alpha beta; do
	mkdir "$t" && cp "$RUNG_SRC"/tests/tasks/sgemm/* "$t/" && sed -i "s/^name = sgemm/name = $t/" "$t/rung.ini"
	echo "// $t v1" >>"$t/sgemm.cu"
done
git add -A && git commit -qm "both v1"
echo "// alpha v2" >>alpha/sgemm.cu && git commit -qam "alpha v2"
echo "// beta v2" >>beta/sgemm.cu && git commit -qam "beta v2"
for t in alpha beta; do echo "// $t wt" >>"$t/sgemm.cu"; done
REV=$(git rev-parse --short=7 HEAD~1)
short() { [ "$1" = WORKTREE ] && echo WORKTREE || git -C "$R" rev-parse --short=7 "$1"; }

# the task a (cwd, named task) pair must give: a name, or "2" for exit 2
expect() { # CWD TASK
	case "$2" in
	none) [ "$1" = root ] && echo 2 || echo "$1" ;;
	nosuch) echo 2 ;;
	*) echo "$2" ;;
	esac
}
# task and kernel file of a check --json envelope (or of an MCP result's structuredContent)
fields() { python3 -c 'import json,sys
d=json.load(sys.stdin); print(d.get("task"), (d.get("kernel") or {}).get("file"))'; }

n=0
: >"$T/cli.want"
for cwd in root alpha beta; do
	dir=$R; [ "$cwd" = root ] || dir=$R/$cwd
	for task in none alpha beta nosuch; do
		topt=(); [ "$task" = none ] || topt=(--task "$task")
		for rev in HEAD "$REV" WORKTREE; do
			want=$(expect "$cwd" "$task")
			out=$(cd "$dir" && "$RUNG" check --compile-only --json "${topt[@]}" "$rev" 2>"$T/err"); rc=$?
			what="check from $cwd, task $task, $rev"
			if [ "$want" = 2 ]; then
				[ "$rc" = 2 ] || fail "$what: exit $rc, not 2: $out"
				[ "$task" = nosuch ] && { grep -q "no task nosuch in this repository (its tasks: alpha, beta)" "$T/err" ||
					fail "$what: message: $(cat "$T/err")"; }
				[ "$task" = none ] && { grep -q "2 tasks in this repository (alpha, beta)" "$T/err" ||
					fail "$what: message: $(cat "$T/err")"; }
			else
				[ "$rc" = 0 ] || fail "$what: exit $rc: $(cat "$T/err")"
				# the envelope is read after the matrix, all in one python (fields_of)
				printf '%s' "$out" >"$T/cli.$n.json"
				printf '%s\t%s\t%s\n' "$T/cli.$n.json" "$want $want/sgemm.cu@$(short "$rev")" "$what" >>"$T/cli.want"
			fi
			n=$((n + 1))
		done
	done
done
[ "$n" = 36 ] || fail "the CLI matrix ran $n cases"
# fields_of FILE...: the fields of each file's envelope, a line each (as `fields`)
fields_of() { python3 -c 'import json,sys
for p in sys.argv[1:]:
    try:
        d=json.load(open(p)); print(d.get("task"), (d.get("kernel") or {}).get("file"))
    except Exception as e:
        print("unreadable: %r" % e)' "$@"; }
mapfile -t files < <(cut -f1 "$T/cli.want")
fields_of "${files[@]}" >"$T/cli.got"
[ "$(wc -l <"$T/cli.got")" = "$(wc -l <"$T/cli.want")" ] || fail "the CLI matrix's envelopes: $(cat "$T/cli.got")"
while IFS=$'\t' read -r file want what && IFS= read -r got <&3; do
	[ "$got" = "$want" ] || fail "$what: got '$got', wanted task ${want%% *}"
done <"$T/cli.want" 3<"$T/cli.got"

# the same matrix over MCP: one server per working directory, raw JSON-RPC lines
init='{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
inited='{"jsonrpc":"2.0","method":"notifications/initialized"}'
for cwd in root alpha beta; do
	dir=$R; [ "$cwd" = root ] || dir=$R/$cwd
	{
		echo "$init"; echo "$inited"
		id=1
		for task in none alpha beta nosuch; do
			for rev in HEAD "$REV" WORKTREE; do
				targ=""; [ "$task" = none ] || targ=",\"task\":\"$task\""
				echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"method\":\"tools/call\",\"params\":{\"name\":\"check\",\"arguments\":{\"compile_only\":true,\"rev\":\"$rev\"$targ}}}"
				id=$((id + 1))
				q=""; [ "$task" = none ] || q="?task=$task"
				echo "{\"jsonrpc\":\"2.0\",\"id\":$id,\"method\":\"resources/read\",\"params\":{\"uri\":\"rung://source/$rev$q\"}}"
				id=$((id + 1))
			done
		done
	} >"$T/in.$cwd"
	(cd "$dir" && "$RUNG" mcp <"$T/in.$cwd" >"$T/out.$cwd" 2>"$T/mcperr.$cwd") || fail "rung mcp in $cwd exited $?"
	# what each check call (odd id) and the source read after it answered: one line
	# per id, "ID<TAB>CHECK | SOURCE", read from the server's output by one python
	python3 - "$T/out.$cwd" 24 >"$T/got.$cwd" <<'EOF'
import json, sys
by = {}
for line in open(sys.argv[1]):
    m = json.loads(line)
    by[m.get("id")] = m
for i in range(1, int(sys.argv[2]), 2):
    try:
        c, s = by[i]["result"], by[i + 1]
        if c.get("isError"):
            check = "error %s" % c["_meta"]["rung/exit"]
        else:
            sc = c["structuredContent"]
            check = "%s %s" % (sc["task"], sc["kernel"]["file"])
        if "error" in s:
            src = "error"
        else:
            txt = s["result"]["contents"][0]["text"]
            src = ",".join(l[3:] for l in txt.splitlines() if l.startswith("// ") and l.split()[-1] in ("v1", "v2", "wt"))
        print("%d\t%s" % (i, check + " | " + src))
    except Exception as e:
        print("%d\tunreadable: %r" % (i, e))
EOF
	declare -A G=()
	while IFS=$'\t' read -r k v; do G[$k]=$v; done <"$T/got.$cwd"
	id=1
	for task in none alpha beta nosuch; do
		for rev in HEAD "$REV" WORKTREE; do
			want=$(expect "$cwd" "$task")
			what="MCP from $cwd, task $task, $rev"
			got=${G[$id]-}
			if [ "$want" = 2 ]; then
				[ "$got" = "error 2 | error" ] || fail "$what: got '$got', wanted an error (exit 2)"
			else
				case "$rev" in
				WORKTREE) marks="$want v1,$want v2,$want wt" ;;
				HEAD) marks="$want v1,$want v2" ;;
				*) marks="$want v1"; [ "$want" = alpha ] && marks="alpha v1,alpha v2" ;;
				esac
				[ "$got" = "$want $want/sgemm.cu@$(short "$rev") | $marks" ] ||
					fail "$what: got '$got', wanted task $want ($marks)"
			fi
			id=$((id + 2))
		done
	done
done

# brief, log, notes, export and dump name the task asked for, from the other task's directory
cd "$R/alpha"
"$RUNG" note --task beta HEAD "beta's own note" >/dev/null 2>&1 || fail "note --task beta"
"$RUNG" note HEAD "alpha's own note" >/dev/null 2>&1 || fail "note in alpha/"
b=$("$RUNG" brief --task beta 2>&1) || fail "brief --task beta: $b"
# (brief opens with the stop rule's line, then its title)
[ "$(grep -m1 '^# rung brief:' <<<"$b")" = "# rung brief: beta" ] || fail "brief --task beta from alpha/: $(head -3 <<<"$b")"
l=$("$RUNG" log --task beta 2>&1) || fail "log --task beta: $l"
grep -q "beta v2" <<<"$l" && ! grep -q "alpha v2" <<<"$l" || fail "log --task beta from alpha/: $l"
o=$("$RUNG" notes --task beta 2>&1) || fail "notes --task beta: $o"
grep -q "beta's own note" <<<"$o" && ! grep -q "alpha's own note" <<<"$o" || fail "notes --task beta from alpha/: $o"
o=$("$RUNG" notes 2>&1) || fail "notes: $o"
grep -q "beta's own note" <<<"$o" && grep -q "alpha's own note" <<<"$o" || fail "notes (all) from alpha/: $o"
"$RUNG" export --task beta >/dev/null 2>&1 || fail "export --task beta"
"$RUNG" dump --task beta "$REV" >/dev/null 2>"$T/err" || fail "dump --task beta $REV: $(cat "$T/err")"
grep -q "// beta v1" "$R/beta/.rung/dumps/$REV/kernel.cu" && ! grep -q "alpha" "$R/beta/.rung/dumps/$REV/kernel.cu" ||
	fail "dump --task beta from alpha/ did not dump beta's kernel"
[ -e "$R/alpha/.rung/dumps/$REV" ] && fail "dump --task beta wrote into alpha/"
for cmd in "brief" "log" "notes" "export" "dump HEAD" "check --compile-only" "check --compile-only HEAD" \
	"compare HEAD HEAD~1" "note HEAD x" "note --ack 1234abcd why" "profile" "trace" "eval --compile-only" \
	"log --json" "check --json --compile-only" "import /dev/null" "watch"; do
	# shellcheck disable=SC2086
	"$RUNG" $cmd --task nosuch >/dev/null 2>"$T/err"; rc=$?
	[ "$rc" = 2 ] || fail "$cmd --task nosuch: exit $rc, not 2"
	grep -q "no task nosuch in this repository" "$T/err" || fail "$cmd --task nosuch: $(cat "$T/err")"
done
cd "$R"
"$RUNG" brief --task nosuch >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] || fail "brief --task nosuch at the root: exit $rc, not 2"
# outside any repository every verb says a missing task alike, as rung check
# does (exit 2, "nosuch: no such task directory or file"), not "not inside a
# git repository" for some and the task for others
mkdir "$T/norepo"
for cmd in "brief" "log" "notes" "export" "dump HEAD" "check --compile-only" "check --compile-only HEAD" \
	"compare HEAD HEAD~1" "note HEAD x" "profile" "trace" "eval --compile-only" "log --json" "import /dev/null" "watch"; do
	# shellcheck disable=SC2086
	(cd "$T/norepo" && GIT_CEILING_DIRECTORIES="$T" "$RUNG" $cmd --task nosuch >/dev/null 2>"$T/err"); rc=$?
	[ "$rc" = 2 ] || fail "$cmd --task nosuch outside a repository: exit $rc, not 2: $(cat "$T/err")"
	grep -q "^rung ${cmd%% *}: nosuch: no such task directory or file$" "$T/err" ||
		fail "$cmd --task nosuch outside a repository: $(cat "$T/err")"
done
# a path form names a task from the working directory; ./beta from alpha/ is no task
(cd alpha && "$RUNG" check --compile-only --json --task ../beta HEAD) | fields | grep -qx "beta beta/sgemm.cu@$(short HEAD)" ||
	fail "--task ../beta from alpha/"
(cd alpha && "$RUNG" check --compile-only --task ./beta HEAD >/dev/null 2>&1); rc=$?
[ "$rc" = 2 ] || fail "--task ./beta from alpha/: exit $rc, not 2"
# a target path in another task than the one named contradicts it
(cd alpha && "$RUNG" check --compile-only --task beta sgemm.cu >/dev/null 2>"$T/err"); rc=$?
[ "$rc" = 2 ] || fail "check --task beta sgemm.cu in alpha/: exit $rc, not 2"
grep -q "sgemm.cu lies in task alpha, not in the task named, beta" "$T/err" || fail "contradiction: $(cat "$T/err")"
# the working tree of a task named from the other one: its own edit, its path from here
(cd alpha && "$RUNG" check --compile-only --json --task beta) | python3 -c 'import json,sys
d=json.load(sys.stdin); sys.exit(d["task"] != "beta" or d["kernel"]["file"] != "../beta/sgemm.cu")' ||
	fail "check --task beta (working tree) from alpha/"

# MCP's brief, log and dump with a task from the other task's directory
{
	echo "$init"; echo "$inited"
	echo '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"brief","arguments":{"task":"beta"}}}'
	echo '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"log","arguments":{"task":"beta"}}}'
	echo "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"dump\",\"arguments\":{\"task\":\"beta\",\"rev\":\"HEAD\",\"max_bytes\":100000}}}"
	echo '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"brief","arguments":{"task":"nosuch"}}}'
	echo '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"log","arguments":{"task":"nosuch"}}}'
	echo '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"dump","arguments":{"task":"nosuch","rev":"HEAD"}}}'
	echo '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"directives","arguments":{"task":"nosuch"}}}'
	echo '{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"compare","arguments":{"task":"nosuch","a":"HEAD","b":"HEAD~1"}}}'
	echo '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"stalls","arguments":{"task":"nosuch"}}}'
	echo '{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"ack_directive","arguments":{"task":"nosuch","id":"1234abcd","status":"done","reason":"x"}}}'
} >"$T/in.more"
(cd alpha && "$RUNG" mcp <"$T/in.more" >"$T/out.more" 2>/dev/null) || fail "rung mcp (brief, log, dump) exited $?"
python3 - "$T/out.more" <<'EOF' || fail "MCP brief, log, dump with a task (above)"
import json, sys
by = {m.get("id"): m for m in map(json.loads, open(sys.argv[1]))}
def text(i):
    return "".join(c.get("text", "") for c in by[i]["result"]["content"])
ok = True
def need(cond, what):
    global ok
    if not cond:
        print("  " + what); ok = False
# (brief opens with the stop rule's line, then its title)
need("# rung brief: beta" in text(1).splitlines()[:3], "brief task beta: " + text(1)[:200])
need("beta v2" in text(2) and "alpha v2" not in text(2), "log task beta: " + text(2)[:200])
d = json.dumps(by[3]["result"])
need(not by[3]["result"].get("isError") and "beta/sgemm.cu" in d and "alpha/sgemm.cu" not in d, "dump task beta: " + d[:200])
for i in (4, 5, 6, 7, 8, 9, 10):
    r = by[i]["result"]
    need(r.get("isError") and "no task nosuch" in text(i), "call %d with task nosuch: %s" % (i, json.dumps(r)[:200]))
    # the same exit as the CLI's (2) where the tool gives one
    need(r.get("_meta", {}).get("rung/exit", 2) == 2, "call %d with task nosuch: exit %r" % (i, r.get("_meta")))
sys.exit(0 if ok else 1)
EOF
echo "task resolve: ok"
