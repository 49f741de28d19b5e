# Sourced by the bench/h200_session*.sh scripts after bench/h200_env.sh: each
# step under its own timeout, its last lines appended to the log $L as it ends
# (so a run stopped at the device's limit still says what it got). Sets L (the
# log, $LOG or $O/DEFAULT_LOG), W (a temporary folder, removed at exit), say
# and step. STEPS="a b" picks steps (default: all, in order); TAILN lines kept.
L=${LOG:-$O/${DEFAULT_LOG:-steps.log}}
: > "$L"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
say() { echo "$*" | tee -a "$L"; }
step() { # step NAME SECONDS CMD...: the command's last TAILN lines into the log
  local name=$1 lim=$2; shift 2
  case " ${STEPS:-$name} " in *" $name "*) ;; *) return 0;; esac
  local t0=$(date +%s.%N)
  timeout "$lim" "$@" > "$W/$name.out" 2>&1
  local rc=$?
  say "== $name rc=$rc $(python3 -c "print('%.1f s' % ($(date +%s.%N) - $t0))")"
  tail -n "${TAILN:-40}" "$W/$name.out" | cut -c1-220 >> "$L"
}
# The workbench on rung demo's repository evaluating by itself: screen dumps at
# 0, 10 and 35 s into $O (t0.txt, t10.txt, t35.txt). A step: step tui_auto 60 bash -c tui_auto
tui_auto() {
  local D=$W/gdemo; rm -rf "$D"; rung demo --no-tui "$D" >/dev/null 2>&1 || { echo "rung demo failed"; return 1; }
  printf ':dump t0.txt\n:sleep 10\n:dump t10.txt\n:sleep 25\n:dump t35.txt\nQ\n' > "$W/keys"
  (cd "$D/sgemm" && RUNG_TUI_SCRIPT=$W/keys RUNG_TUI_DUMP_DIR=$O COLUMNS=160 LINES=24 TERM=xterm-256color rung tui)
  echo "rung tui rc=$?"
  for f in t0 t10 t35; do echo "== $f"; cat "$O/$f.txt"; done
}
export -f tui_auto; export W O
