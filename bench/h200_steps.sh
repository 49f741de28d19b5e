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
