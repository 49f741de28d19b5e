#!/bin/bash
# 8-colour terminals (#28 D-8): TERM=screen (tmux 3.3's default) and
# TERM=xterm drew every grey (hashes, the author line, hints: the theme's
# 244) in yellow (ESC[33m). Now the default colour with A_DIM (ESC[2m). The
# real binary in tmux, read back with capture-pane -e, at 80x24, 120x36 and
# 200x50; xterm-256color keeps its grey. Skips without tmux.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v tmux >/dev/null || { echo "tmux not installed: skipping"; exit 77; }
export TZ=UTC
. "$RUNG_SRC/tests/sh/lib/tui_repo.sh"
# One server per case, each on its own socket: a new server on the socket of
# one that kill-server is still taking down fails with "server exited
# unexpectedly" (seen once in CI).
SOCK=
fail() { echo "FAIL: $*"; [ -n "$SOCK" ] && tmux -S "$SOCK" kill-server 2>/dev/null; exit 1; }
hash=$(git -C "$REPO" rev-parse --short=7 HEAD~1)
for term in screen xterm xterm-256color; do
	for size in 80x24 120x36 200x50; do
		SOCK=$T/tmux.$term.$size.sock
		tmux -S "$SOCK" -f /dev/null new-session -d -s t -x "${size%x*}" -y "${size#*x}" \
			"env LC_ALL=C.UTF-8 TERM=$term XDG_CONFIG_HOME='$T/config' '$RUNG' tui -C '$REPO' --no-auto-eval; sleep 30" ||
			fail "tmux"
		line=
		for _ in $(seq 150); do # 15 s: a loaded machine
			line=$(tmux -S "$SOCK" capture-pane -p -e -t t | grep -a " .*$hash" | head -1)
			[ -n "$line" ] && break
			sleep 0.1
		done
		tmux -S "$SOCK" kill-server 2>/dev/null
		[ -n "$line" ] || fail "$term $size: no row $hash"
		case $term in
		xterm-256color)
			grep -qF "$(printf '\033[38;5;244m')$hash" <<<"$line" || fail "$term $size: the hash is not grey: $(cat -v <<<"$line")";;
		*)
			grep -qF "$(printf '\033[33m')$hash" <<<"$line" && fail "$term $size: the hash is yellow: $(cat -v <<<"$line")"
			grep -qF "$(printf '\033[2m')$hash" <<<"$line" || fail "$term $size: the hash is not dim: $(cat -v <<<"$line")";;
		esac
	done
done
echo "ok"
