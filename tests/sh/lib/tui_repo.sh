#!/bin/bash
# Makes a throwaway task repository for the tui tests: three versions of the
# sgemm task, one with terminal escapes in its subject, one steering note.
# Usage: . tui_repo.sh  (sets REPO, T; needs RUNG and RUNG_SRC)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
REPO=$T/repo
git init -q "$REPO"
(
	cd "$REPO" || exit 1
	git config user.name "Ada Lovelace"
	git config user.email ada@example.com
	mkdir -p sgemm
	cp "$RUNG_SRC"/tests/tasks/sgemm/* sgemm/
	export GIT_AUTHOR_DATE='2025-11-29T16:00:00Z' GIT_COMMITTER_DATE='2025-11-29T16:00:00Z'
	git add -A && git commit -q -m "naive sgemm"
	sed -i 's/$/ /' sgemm/sgemm.cu
	export GIT_AUTHOR_DATE='2025-11-29T17:00:00Z' GIT_COMMITTER_DATE='2025-11-29T17:00:00Z'
	git commit -qam "tile it"
	sed -i 's/ $//' sgemm/sgemm.cu
	export GIT_AUTHOR_DATE='2025-11-29T18:00:00Z' GIT_COMMITTER_DATE='2025-11-29T18:00:00Z'
	git commit -qam "$(printf 'evil \033[2J\033]0;pwned\007 subject')"
	git notes --ref=rung add -m "verdict: keep" HEAD~1
)
