#!/bin/bash
# The fake GPU and the fake compute-sanitizer of the sanitize gate's tests
# (tests/sh/sanitize_gate.sh, tests/sh/tui_sanitize_gate.sh), so that rung's
# own sanitize path runs without a GPU:
# - a worker (RUNG_WORKER_EXE) whose hello names a fake GPU; a job of the
#   evaluation takes the next median of $T/medians; a sanitize job (plan
#   flags bit 32) gets no bench; one at the benchmark shape (bit 256) first
#   sleeps when $T/slow exists (past the cost limit); each job is logged in
#   $T/jobs;
# - a compute-sanitizer (RUNG_COMPUTE_SANITIZER) that logs its tool in
#   $T/argv.txt, writes $T/TOOL.N.log (the Nth run of a tool) or $T/TOOL.log
#   as its report, sleeps $(cat $T/cs_sleep) seconds when that file exists
#   (a long run), and runs the worker.
# Usage: . fake_sanitizer.sh  (needs T; exports RUNG_WORKER_EXE, TMPDIR,
# RUNG_COMPUTE_SANITIZER; clean writes clean reports, runs counts the runs)
: "${T:?}" "${RUNG_SRC:?}"
FIX="$RUNG_SRC/tests/fixtures/sanitize"
cat > "$T/worker.sh" <<EOF
#!/bin/bash
export LC_ALL=C
printf '%s\n' '{"type":"hello","proto":1,"ok":true,"env":{"valid":true,"gpu":"Fake GPU","uuid":"GPU-fake","arch":"sm_90","sms":3}}' >&0
while IFS= read -r line; do
	case "\$line" in
	*'"type":"job"'*)
		flags=\$(printf '%s' "\$line" | sed -n 's/.*"flags":\([0-9]*\).*/\1/p')
		flags=\${flags:-0}
		if [ \$((flags & 32)) != 0 ]; then
			echo "sanitize \$flags" >> "$T/jobs"
			[ \$((flags & 256)) != 0 ] && [ -f "$T/slow" ] && sleep 4
			res='{"steps":{"run":{"status":"ok"},"check":{"status":"ok"},"bench":{"status":"SKIPPED","reason":"sanitize"}},"metrics":[{"output":"c","n":1000,"pass":true}],"nshapes":1,"nseeds":1}'
		else
			m=\$(head -1 "$T/medians"); sed -i 1d "$T/medians"
			echo "eval \$m" >> "$T/jobs"
			res='{"steps":{"run":{"status":"ok"},"check":{"status":"ok"},"bench":{"status":"ok"}},"bench":{"valid":true,"median":'\$m',"n":11,"noise_ok":true,"method":"cupti-activity"},"metrics":[{"output":"c","n":1000,"pass":true}],"nshapes":1,"nseeds":1}'
		fi
		printf '{"type":"result","fatal":false,"blobs":[%d]}\n%s' \${#res} "\$res" >&0 ;;
	*'"type":"quit"'*) exit 0 ;;
	esac
done
EOF
mkdir -p "$T/cs"
cat > "$T/cs/compute-sanitizer" <<EOF
#!/bin/sh
while [ \$# -gt 0 ]; do
	case "\$1" in
	--tool) tool=\$2; shift 2 ;;
	--log-file) log=\$2; shift 2 ;;
	--target-processes|--print-limit) shift 2 ;;
	*) break ;;
	esac
done
echo "\$tool" >> "$T/argv.txt"
# the Nth run of a tool takes \$tool.N.log when there is one (a finding at the benchmark shape only)
n=\$(cat "$T/\$tool.n" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n > "$T/\$tool.n"
if [ -f "$T/\$tool.\$n.log" ]; then cat "$T/\$tool.\$n.log" > "\$log"; else cat "$T/\$tool.log" > "\$log"; fi
[ -f "$T/cs_sleep" ] && sleep "\$(cat "$T/cs_sleep")"
"\$@"
EOF
chmod +x "$T/worker.sh" "$T/cs/compute-sanitizer"
export RUNG_WORKER_EXE="$T/worker.sh" TMPDIR="$T" RUNG_COMPUTE_SANITIZER="$T/cs/compute-sanitizer"
clean() { cp "$FIX/clean.txt" "$T/memcheck.log"; cp "$FIX/racecheck_clean.txt" "$T/racecheck.log"; cp "$FIX/clean.txt" "$T/synccheck.log"; }
runs() { if [ -f "$T/argv.txt" ]; then wc -l < "$T/argv.txt" | tr -d ' '; else echo 0; fi; }
