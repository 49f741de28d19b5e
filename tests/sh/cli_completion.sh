#!/bin/bash
# rung completion bash|zsh: scripts generated from the option tables. The bash
# one registers `complete -p rung` and completes check's options (the table's,
# the shared -C/--task/--spec-rev included) and their values; the zsh one has
# the same options for _arguments.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$RUNG" completion bash >"$T/rung.bash" || fail "completion bash exited $?"
for o in --compile-only --json --seed --budget --force --sanitize --sanitize= --no-sanitize -C --task --spec-rev; do
	sed -n '/^\tcheck)$/,/^\t\t;;$/p' "$T/rung.bash" | grep -qE -- " $o( |')" || fail "bash script: check lacks $o"
done
bash -n "$T/rung.bash" || fail "bash script does not parse"
# sourced in a fresh bash: registered, and completing words through the function
out=$(bash --norc --noprofile -c '
	source "$1" || exit 9
	complete -p rung || exit 8
	comp() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _rung; printf "%s\n" "${COMPREPLY[@]}"; }
	echo "== cmds"; comp rung ch
	echo "== opts"; comp rung check --sp
	echo "== dir"; cd "$2" && mkdir -p adir && touch afile && comp rung check -C a
	echo "== seed"; comp rung check --seed ""
	echo "== verdict"; comp rung note HEAD --verdict b
	echo "== shells"; comp rung completion ""
	# #28 D-20: --task offered .git; compare offered nothing
	echo "== task"; mkdir -p .git sgemm && comp rung check --task ""
	echo "== compare"; git init -q r && cd r && git -c user.name=A -c user.email=a@b commit -q --allow-empty -m one &&
		git branch -q feature && touch k.cu && comp rung compare "" && cd ..
	echo "== comparef"; cd r && comp rung compare HEAD k && cd ..
' _ "$T/rung.bash" "$T") || fail "sourcing the bash script: exit $?"
grep -q '^complete -F _rung rung$' <<<"$out" || fail "complete -p rung: $out"
sect() { sed -n "/^== $1\$/,/^==/p" <<<"$out" | grep -v '^=='; }
[ "$(sect cmds)" = check ] || fail "command completion: $(sect cmds)"
[ "$(sect opts)" = --spec-rev ] || fail "option completion: $(sect opts)"
[ "$(sect dir)" = adir ] || fail "-C completes directories only: $(sect dir)"
[ -z "$(sect seed)" ] || fail "a number is not completed: $(sect seed)"
[ "$(sect verdict)" = "$(printf 'baseline\nbest')" ] || fail "--verdict completes its choices: $(sect verdict)"
[ "$(sect shells)" = "$(printf 'bash\nzsh')" ] || fail "completion's argument: $(sect shells)"
grep -qx sgemm <<<"$(sect task)" || fail "--task: no task directory: $(sect task)"
grep -qx .git <<<"$(sect task)" && fail "--task offers .git: $(sect task)"
c=$(sect compare)
for w in WORKTREE HEAD HEAD~1 master feature k.cu "$(git -C "$T/r" log --format=%h -n 1)"; do
	[ "$w" = master ] && ! git -C "$T/r" rev-parse -q --verify master >/dev/null && w=$(git -C "$T/r" branch --show-current)
	grep -qxF "$w" <<<"$c" || fail "compare: no $w: $c"
done
grep -qx .git <<<"$c" && fail "compare offers .git: $c"
[ "$(sect comparef)" = k.cu ] || fail "compare's B: $(sect comparef)"

"$RUNG" completion zsh >"$T/_rung" || fail "completion zsh exited $?"
head -1 "$T/_rung" | grep -qx '#compdef rung' || fail "zsh script: no #compdef line"
for o in "'--compile-only[" "'--budget=[" "'-C+[" "'--task=[" "'--spec-rev=[" "'--sanitize=-["; do
	sed -n '/^\tcheck)$/,/^\t\t;;$/p' "$T/_rung" | grep -qF -- "$o" || fail "zsh script: check lacks $o"
done
if command -v zsh >/dev/null; then
	zsh -n "$T/_rung" || fail "zsh script does not parse"
fi
"$RUNG" completion fish >/dev/null 2>&1; [ $? = 2 ] || fail "completion fish: exit 2"
"$RUNG" completion >/dev/null 2>&1; [ $? = 2 ] || fail "completion without a shell: exit 2"
echo "ok"
