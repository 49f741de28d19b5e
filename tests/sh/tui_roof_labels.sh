#!/bin/bash
# The roofline's ceiling labels (#28 D-9) on the demo's recorded H200 results,
# the real binary in tmux, in colour, at 80x24, 120x36 and 200x50 and under
# TERM=screen, then 60x15:
# - the tensor roof drawn is the one a tensor kernel's roof % is against, the
#   TF32 one for this f32 task (535 TFLOP/s: "19% of the TF32 tensor roof"),
#   and it is labelled in the default view of all levels too (the FP16 roof's
#   label was not there: the roof is shorter than its label at 0.01 FLOP/B);
# - every label is in its role (the tensor roof's dim, the others the
#   ceiling's yellow);
# - at 60x15 the DRAM label ends at its slope (it sat at the 1P row, 8
#   columns away from it, with the L1 label in its place).
# Skips without tmux or without the recorded results.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v tmux >/dev/null || { echo "tmux not installed: skipping"; exit 77; }
[ -f "$RUNG_SRC/examples/sgemm/recorded.jsonl" ] || { echo "SKIP: no recorded results in this tree"; exit 77; }
export TZ=UTC
T=$(mktemp -d)
SOCK=
trap '[ -n "$SOCK" ] && tmux -S "$SOCK" kill-server 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
"$RUNG" demo --no-tui "$T/d" >"$T/demo.out" 2>&1 || fail "rung demo: $(cat "$T/demo.out")"
mkdir "$T/cfg"
E=$'\033'
screen() { tmux -S "$SOCK" capture-pane -p -t t; }
wait_for() {
	for _ in $(seq 150); do # 15 s: a loaded machine
		screen | grep -q -- "$1" && return 0
		sleep 0.1
	done
	echo "--- screen (waiting for '$1'):"
	screen
	return 1
}
# the columns between the end of a label and the next braille cell on its line
gap_after() { # label, screen text
	python3 - "$1" "$2" <<'PY'
import sys
label, text = sys.argv[1], sys.argv[2]
for line in text.split("\n"):
    i = line.find(label)
    if i < 0:
        continue
    rest = line[i + len(label):]
    for k, ch in enumerate(rest):
        if 0x2800 <= ord(ch) <= 0x28FF:
            print(k)
            break
    else:
        print(999)
    break
else:
    print(-1)
PY
}
n=0
for term in screen xterm-256color; do
	for size in 80x24 120x36 200x50 60x15; do
		[ "$size" = 60x15 ] && [ "$term" = screen ] && continue
		n=$((n + 1))
		SOCK=$T/tmux.$n.sock
		tmux -S "$SOCK" -f /dev/null new-session -d -s t -x "${size%x*}" -y "${size#*x}" \
			"env -u NO_COLOR LC_ALL=C.UTF-8 TERM=$term XDG_CONFIG_HOME='$T/cfg' '$RUNG' tui --no-auto-eval -C '$T/d' sgemm; sleep 30" ||
			fail "tmux"
		wait_for "\[versions\]" || fail "$term $size: no versions table"
		wait_for "○○○○" || fail "$term $size: the recorded results not shown" # they follow the first frame
		tmux -S "$SOCK" send-keys -t t r
		wait_for "\[roofline\]" || fail "$term $size: r did not open the roofline"
		wait_for "FLOP/B" || fail "$term $size: no plot"
		s=$(screen)
		c=$(tmux -S "$SOCK" capture-pane -p -e -t t)
		tmux -S "$SOCK" kill-server 2>/dev/null
		SOCK=
		echo "--- $term $size"
		echo "$s"
		grep -qF "FP16 tensor" <<<"$s" && fail "$term $size: the FP16 roof drawn for an f32 task"
		grep -qF "DRAM 4.81 TB/s" <<<"$s" || fail "$term $size: no DRAM label"
		g=$(gap_after "DRAM 4.81 TB/s" "$s")
		[ "$g" -ge 0 ] && [ "$g" -le 2 ] || fail "$term $size: the DRAM label is $g columns from its slope"
		[ "$size" = 60x15 ] && continue # no room there for the roofs' labels
		grep -qF "TF32 tensor 535 TFLOP/s" <<<"$s" || fail "$term $size: no label on the tensor roof"
		grep -qF "FP32 66.9 TFLOP/s" <<<"$s" || fail "$term $size: no label on the FP32 roof"
		grep -qF "L1 33.5 TB/s" <<<"$s" || fail "$term $size: no L1 label"
		# the roles: the tensor roof dim (8 colours: A_DIM; 256: the theme's grey), the
		# FP32 and DRAM ceilings yellow
		if [ "$term" = screen ]; then
			grep -qF "${E}[2mTF32 tensor 535 TFLOP/s" <<<"$c" || fail "$term $size: the tensor label is not dim: $(grep -a TF32 <<<"$c" | cat -v)"
		else
			grep -qF "${E}[38;5;244mTF32 tensor 535 TFLOP/s" <<<"$c" || fail "$term $size: the tensor label is not grey: $(grep -a TF32 <<<"$c" | cat -v)"
		fi
		LC_ALL=C grep -qE "${E}\\[([0-9;]*;)?33mFP32 66.9 TFLOP/s" <<<"$c" || fail "$term $size: the FP32 label is not yellow: $(grep -a 'FP32 66' <<<"$c" | cat -v)"
		LC_ALL=C grep -qE "${E}\\[([0-9;]*;)?33mDRAM 4.81 TB/s" <<<"$c" || fail "$term $size: the DRAM label is not yellow: $(grep -a 'DRAM 4' <<<"$c" | cat -v)"
	done
done
echo "ok"
