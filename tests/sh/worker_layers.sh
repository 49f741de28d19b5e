#!/usr/bin/env bash
# The worker's child side is layered (tests/sh/lib/worker_layers.sh): first on
# fake build directories whose gpu/worker objects call upward, sideways, in a
# circle, or hold a file the order does not name, each of which must fail with
# its own line; the same tree without those calls must pass; then the real
# build directory (the one holding $RUNG) must pass.
set -u
: "${RUNG:?}" "${RUNG_SRC:?}"
command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }
cc=${CC:-cc}
command -v "$cc" >/dev/null 2>&1 || { echo "SKIP: no C compiler"; exit 77; }
check=$RUNG_SRC/tests/sh/lib/worker_layers.sh
fail=0
t() { # t NAME CONDITION...
	local name=$1; shift
	if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fail=1; fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src"

# A small worker: report at the bottom, launch above it, bench and case side by
# side, job, then main. With -DBAD: report calls up into job (a circle through
# case and launch), case calls bench beside it, and stray.c is in no layer.
cat >"$tmp/src/report.c" <<'EOF'
#ifdef BAD
void rung__wjob_run(void);
#endif
void rung__sfmt(void) {
#ifdef BAD
	rung__wjob_run();
#endif
}
EOF
cat >"$tmp/src/launch.c" <<'EOF'
void rung__sfmt(void);
int printf(const char *f, ...);
void rung__launch(void) { rung__sfmt(); printf("x"); }
EOF
cat >"$tmp/src/case.c" <<'EOF'
void rung__launch(void);
void rung__sfmt(void);
#ifdef BAD
void rung__wbench(void);
void rung__determinism(void);
#endif
void rung__run_case(void) {
	rung__launch();
	rung__sfmt();
#ifdef BAD
	rung__wbench();
	rung__determinism();
#endif
}
EOF
cat >"$tmp/src/bench.c" <<'EOF'
void rung__launch(void);
void rung__wbench(void) { rung__launch(); }
void rung__determinism(void) { rung__launch(); }
EOF
cat >"$tmp/src/job.c" <<'EOF'
void rung__run_case(void);
void rung__wbench(void);
void rung__wjob_run(void) { rung__run_case(); rung__wbench(); }
EOF
cat >"$tmp/src/main.c" <<'EOF'
void rung__wjob_run(void);
void rung__sfmt(void);
int rung_worker_main(void) { rung__wjob_run(); rung__sfmt(); return 0; }
EOF
cat >"$tmp/src/stray.c" <<'EOF'
void rung__launch(void);
void rung__stray(void) { rung__launch(); }
EOF

build() { # build DIR CFLAGS...: a fake build directory, named as CMake names it
	local b=$1 c o; shift
	mkdir -p "$b/CMakeFiles/rung_gpu.dir/gpu/worker"
	for c in "$tmp/src"/*.c; do
		o=$b/CMakeFiles/rung_gpu.dir/gpu/worker/$(basename "$c").o
		"$cc" -c "$@" -o "$o" "$c" || return 1
	done
}
build "$tmp/bad" -DBAD || { echo "FAIL could not build the fake tree"; exit 1; }
build "$tmp/good" || { echo "FAIL could not build the fake tree"; exit 1; }
rm "$tmp/good/CMakeFiles/rung_gpu.dir/gpu/worker/stray.c.o"
order='report; launch; bench case; job; main'

out=$(RUNG_WORKER_ORDER=$order bash "$check" "$tmp/bad" 2>&1); rc=$?
echo "$out"
want="gpu/worker/stray.c: not in the declared order (tests/sh/lib/worker_layers.sh)
case.c -> bench.c (rung__determinism rung__wbench): bench.c is not below case.c
report.c -> job.c (rung__wjob_run): job.c is not below report.c
cycle: bench.c -> launch.c -> report.c -> job.c -> bench.c (one of the circles among bench.c case.c job.c launch.c report.c)"
t "bad tree: exit 1" [ "$rc" = 1 ]
t "bad tree: one line per upward or sideways call, the stray file and the circle" [ "$out" = "$want" ]

out=$(RUNG_WORKER_ORDER=$order bash "$check" "$tmp/good" 2>&1); rc=$?
[ -n "$out" ] && echo "$out"
t "good fake tree: exit 0" [ "$rc" = 0 ]
t "good fake tree: no output" [ -z "$out" ]

# Two files calling each other, with no order broken but the one between them:
# the circle is named on its own.
mkdir -p "$tmp/two/CMakeFiles/rung_gpu.dir/gpu/worker"
printf 'void b(void);\nvoid a(void) { b(); }\n' >"$tmp/src2a.c"
printf 'void a(void);\nvoid b(void) { a(); }\n' >"$tmp/src2b.c"
"$cc" -c -o "$tmp/two/CMakeFiles/rung_gpu.dir/gpu/worker/a.c.o" "$tmp/src2a.c" &&
	"$cc" -c -o "$tmp/two/CMakeFiles/rung_gpu.dir/gpu/worker/b.c.o" "$tmp/src2b.c" || exit 1
out=$(RUNG_WORKER_ORDER='a; b' bash "$check" "$tmp/two" 2>&1); rc=$?
t "two files in a circle: exit 1" [ "$rc" = 1 ]
t "and the upward call and the circle are named" [ "$out" = "a.c -> b.c (b): b.c is not below a.c
cycle: a.c -> b.c -> a.c" ]

# An order naming a file that was not built fails (the order stays current).
out=$(RUNG_WORKER_ORDER="$order; gone" bash "$check" "$tmp/good" 2>&1); rc=$?
t "a declared file without an object fails" [ "$rc" = 1 ]
t "and says so" grep -qxF "gpu/worker/gone.c: in the declared order but has no object" <<<"$out"

# The real tree, with the order declared in tests/sh/lib/worker_layers.sh.
out=$(bash "$check" "$(dirname "$RUNG")" 2>&1); rc=$?
[ -n "$out" ] && echo "$out"
t "gpu/worker/ keeps its layers" [ "$rc" = 0 ]

[ $fail = 0 ] && echo "all passed"
exit $fail
