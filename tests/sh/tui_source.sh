#!/bin/bash
# Source <-> SASS in the workbench, on the demo (its SASS made here by NVRTC
# with -lineinfo and nvdisasm -gi; no GPU): the SASS pane has each
# instruction's source line, `l` splits the detail into the kernel's source
# (with each line's SASS count) beside the SASS of the line under the cursor,
# moving the cursor moves the SASS; a compile error opens it at the error's
# line, a failed check at the line that stores to global memory; text from
# the repository stays inert. Skips (77) without nvdisasm.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
export TZ=UTC TERM=xterm-256color LC_ALL=C.UTF-8
unset NO_COLOR
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$RUNG" demo --no-tui "$T/d" >"$T/demo.out" 2>&1 || fail "rung demo: $(cat "$T/demo.out")"
# row i of the versions table is the i-th sgemm version, newest first
row() { git -C "$T/d" log --format=%s -- sgemm/sgemm.cu | grep -n -m1 "$1" | cut -d: -f1; }
down() { local n=$(($1 - 1)) k=""; while [ "$n" -gt 0 ]; do k="$k"$'j\n'; n=$((n - 1)); done; printf '%s' "$k"; }
tui() { # COLS KEYS
	printf '%s\n' "$2" >"$T/keys"
	RUNG_TUI_SCRIPT="$T/keys" RUNG_TUI_DUMP_DIR="$T" COLUMNS=$1 LINES=24 "$RUNG" tui -C "$T/d" sgemm \
		>"$T/out" 2>&1 || fail "rung tui exited $?: $(cat "$T/out")"
}

# the best version (newest): SASS pane, then the source view, then one line down
tui 140 "<Enter>
t
:dump sass.txt
l
:dump split.txt
j
:dump split_down.txt
l
:dump back.txt
Q"
s=$(cat "$T/sass.txt")
if grep -q "nvdisasm not found" <<<"$s"; then
	echo "skip: nvdisasm not found (pip install nvidia-cuda-nvdisasm)"
	exit 77
fi
echo "$s" | head -8
grep -qE "^      pc  line .*  instruction" <<<"$s" || fail "no line column in the SASS pane"
# LDC R1 (the kernel's first instruction) is on the kernel's opening line
open=$(grep -n -m1 "^extern \"C\" __global__" "$T/d/sgemm/sgemm.cu" | cut -d: -f1)
[ -n "$open" ] || fail "no kernel line in sgemm.cu"
grep -Eq "^[ *]   0000 +$((open + 1)) .*  LDC R1, c\[0x0\]\[0x28\]" <<<"$s" ||
	grep -Eq "^[ *]   0000 +$open .*  LDC R1, c\[0x0\]\[0x28\]" <<<"$s" || fail "LDC R1 not at line $open or $((open + 1))"

v=$(cat "$T/split.txt")
echo "$v" | head -6
grep -q "source sgemm.cu (l: back, t: SASS)" <<<"$v" || fail "no source view title"
grep -qE "line  sass .*  sgemm.cu" <<<"$v" || fail "no source column header"
# it opens at the line with the most SASS: to_tf32's cvt.rna, inlined everywhere
cvt=$(grep -n -m1 'cvt.rna.tf32.f32' "$T/d/sgemm/sgemm.cu" | cut -d: -f1)
grep -Eq "^> +$cvt +[0-9]+ .*asm\(\"cvt\.rna" <<<"$v" || fail "cursor not on line $cvt (cvt.rna) with its SASS count"
grep -q "line $cvt: [0-9]* instructions" <<<"$v" || fail "SASS pane not for line $cvt"
grep -Eq "source: line $cvt: the most (SASS|instructions executed)" <<<"$v" || fail "no reason for the line opened at"
# the count beside the line is the SASS pane's count
n=$(grep -o "line $cvt: [0-9]* instructions" <<<"$v" | awk '{print $3}')
grep -Eq "^> +$cvt +$n .*asm" <<<"$v" || fail "count beside line $cvt is not $n"
# one line down: the SASS pane follows
d=$(cat "$T/split_down.txt")
grep -Eq "^> +$((cvt + 1)) " <<<"$d" || fail "cursor did not move to $((cvt + 1))"
grep -Eq "line $((cvt + 1)): ([0-9]+ instructions|no SASS)" <<<"$d" || fail "SASS pane did not follow the cursor"
grep -q "source" "$T/back.txt" && grep -q "(l: back" "$T/back.txt" && fail "l did not leave the source view"

# a compile error: the view opens at its line, marked, with the message beside it
r=$(row "float4 global loads")
tui 140 "$(down "$r")
<Enter>
l
:dump split_err.txt
j
:dump split_err_down.txt
Q"
e=$(cat "$T/split_err.txt")
echo "$e" | head -4
ln=$(grep -o 'FAILED compile: sgemm/sgemm.cu:[0-9]*' "$T/demo.out" | head -1 | awk -F: '{print $NF}')
[ -n "$ln" ] || fail "no compile error line in the demo table"
grep -Eq "^> +$ln +.*reinterpret_cast" <<<"$e" || fail "cursor not on error line $ln"
grep -Eq "^! +$ln +.*reinterpret_cast" "$T/split_err_down.txt" || fail "error line $ln not marked"
grep -q "sgemm/sgemm.cu($ln): error" <<<"$e" || fail "error message not beside its line"
grep -q "source: compile error at line $ln" <<<"$e" || fail "no jump reason"

# a failed check: the line that stores C
r=$(row "warp tiling (64x32 per warp), dou")
tui 140 "$(down "$r")
<Enter>
l
:dump split_check.txt
Q"
c=$(cat "$T/split_check.txt")
grep -Eq "source: check failed: line [0-9]+ stores to global memory" <<<"$c" || fail "no check jump: $c"
st=$(grep -o "check failed: line [0-9]*" <<<"$c" | awk '{print $4}')
grep -Eq "^> +$st +[0-9]+ " <<<"$c" || fail "cursor not on line $st"
grep -Eq "STG" <<<"$c" || fail "no STG in the SASS of line $st"

# hostile source text is shown inert in the source view
sed -i '1s/^/\/\/ evil \x1b[2J\x1b]0;pwned\x07 s\n/' "$T/d/sgemm/sgemm.cu"
git -C "$T/d" -c user.name=t -c user.email=t@t commit -qam "evil comment" || fail "commit"
tui 140 "<Enter>
l
g
:dump split_evil.txt
Q"
grep -qF 'evil ^[[2J^[]0;pwned^G s' "$T/split_evil.txt" || fail "escapes not inert: $(head -4 "$T/split_evil.txt")"
grep -q $'\033' "$T/split_evil.txt" && fail "raw ESC on screen"
echo "ok"
