. bench/h200_env.sh
D=/tmp/gdemo; rm -rf $D; rung demo --no-tui $D >/dev/null 2>&1
printf ':dump t2.txt\n:sleep 20\n:dump t20.txt\n:sleep 15\n:dump t35.txt\nQ\n' > /tmp/keys
cd $D/sgemm && RUNG_TUI_SCRIPT=/tmp/keys RUNG_TUI_DUMP_DIR=$OUT COLUMNS=160 LINES=22 TERM=xterm-256color rung tui > $OUT/tui.out 2>&1; echo "rung (tui) rc=$?"
for f in t2 t20 t35; do echo "== $f"; head -3 $OUT/$f.txt; tail -2 $OUT/$f.txt; done
