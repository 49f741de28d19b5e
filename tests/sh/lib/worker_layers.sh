#!/bin/bash
# worker_layers.sh BUILD_DIR: the worker's child side (gpu/worker/*.c) is
# layered: every call from one of its files to another goes down the order
# below, so they never call each other in a circle (tests/sh/worker_layers.sh;
# docs/ARCHITECTURE.md, "Inside the worker").
#
# The call graph comes from the built objects, BUILD_DIR/CMakeFiles/rung_gpu.dir/
# gpu/worker/*.c.o: an edge a -> b for every undefined symbol of a.c.o that b.c.o
# defines. Each file must be in the order, and may call only files on layers
# below its own (not beside it). With BUILD_DIR/CMakeCache.txt, the objects are
# those of the sources that exist in the source tree (a stale object of a
# removed file is left out) and a source without an object fails (not built).
# Prints one line per call against the order, e.g.
#   case.c -> bench.c (rung__bench_prep): bench.c is not below case.c
# and one per group of files that call each other in circles (its shortest
# cycle through the group's first file, and the group when larger), e.g.
#   cycle: bench.c -> case.c -> bench.c (one of the circles among bench.c case.c job.c)
# and exits 1 on any; 0 when clean; 77 without nm; 2 on a usage or nm error.
# RUNG_WORKER_ORDER replaces the order (the test's fake trees).
set -u
dir=${1:?usage: worker_layers.sh BUILD_DIR}
command -v nm >/dev/null 2>&1 || { echo "SKIP: no nm"; exit 77; }

# Bottom first; layers separated by ';'. A file calls only files of earlier layers.
#  report: messages to the parent, step verdicts, reason text
#  devcheck, flush, launch, stage, verify: the device-side check; the L2 flush;
#    modules, geometry and launches;
#    the host staging slabs and the readback walk; rung's verification kernels
#  input: inputs generated or loaded and uploaded; the benchmark shape's buffers
#  bset, calib: the bench's two input sets, prepared during the run case; the
#    records' launch floor (rung's empty kernel, after the flush)
#  bench, case: the bench rung and the determinism run; one run/check case
#  ceil, compare, profile, sass, trace: the other requests and rungs
#  job: one job's rungs in order; main: the process, its device and message loop
order=${RUNG_WORKER_ORDER:-'report; devcheck flush launch stage verify; input; bset calib; bench case; ceil compare profile sass trace; job; main'}

objdir=$dir/CMakeFiles/rung_gpu.dir/gpu/worker
src=
if [ -f "$dir/CMakeCache.txt" ]; then
	src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$dir/CMakeCache.txt")
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/defs"
: >"$tmp/undefs"
: >"$tmp/files"
bad=0
for o in "$objdir"/*.c.o; do
	[ -e "$o" ] || continue
	f=${o##*/}; f=${f%.o}
	[ -n "$src" ] && [ ! -e "$src/gpu/worker/$f" ] && continue
	echo "$f" >>"$tmp/files"
	nm -g "$o" 2>"$tmp/nm.err" >"$tmp/nm.out" || { echo "nm failed on $o:"; cat "$tmp/nm.err"; exit 2; }
	awk -v f="$f" 'NF >= 2 { k = $(NF-1); if (k == "U" || k == "w" || k == "v") print f, $NF }' "$tmp/nm.out" >>"$tmp/undefs"
	awk -v f="$f" 'NF >= 3 { k = $(NF-1); if (k != "U" && k != "w" && k != "v") print $NF, f }' "$tmp/nm.out" >>"$tmp/defs"
done
if [ -n "$src" ]; then
	for c in "$src"/gpu/worker/*.c; do
		[ -e "$c" ] || continue
		f=${c##*/}
		grep -qxF "$f" "$tmp/files" || { echo "gpu/worker/$f has no object in $objdir (not built?)"; bad=1; }
	done
fi
[ -s "$tmp/files" ] || { echo "no object in $objdir"; exit 2; }

awk -v order="$order" -v bad="$bad" '
BEGIN {
	nl = split(order, layer, ";")
	for (l = 1; l <= nl; l++) {
		c = split(layer[l], fs, " ")
		for (i = 1; i <= c; i++) { lv[fs[i] ".c"] = l; declared[fs[i] ".c"] = 1 }
	}
}
FILENAME == ARGV[1] { files[$1] = 1; next }
FILENAME == ARGV[2] { if (!($1 in def)) def[$1] = $2; next }
{
	# ARGV[3]: "CALLER SYMBOL"
	if (!($2 in def) || def[$2] == $1) next
	a = $1; b = def[$2]
	if (!((a, b) in edge)) { edge[a, b] = $2; out[a] = out[a] " " b }
	else if (index(" " edge[a, b] " ", " " $2 " ") == 0) edge[a, b] = edge[a, b] " " $2
}
function sorted(s,   arr, n, i, j, t, r) { # the words of s, sorted, space-separated
	n = split(s, arr, " ")
	for (i = 2; i <= n; i++) { t = arr[i]; for (j = i - 1; j >= 1 && arr[j] > t; j--) arr[j + 1] = arr[j]; arr[j + 1] = t }
	r = ""; for (i = 1; i <= n; i++) r = r (i > 1 ? " " : "") arr[i]
	return r
}
END {
	nf = 0
	for (f in files) all = all " " f
	nf = split(sorted(all), file, " ")
	for (i = 1; i <= nf; i++)
		if (!(file[i] in declared)) { print "gpu/worker/" file[i] ": not in the declared order (tests/sh/lib/worker_layers.sh)"; bad = 1 }
	for (f in declared) dl = dl " " f
	nd = split(sorted(dl), dfile, " ")
	for (i = 1; i <= nd; i++)
		if (!(dfile[i] in files)) { print "gpu/worker/" dfile[i] ": in the declared order but has no object"; bad = 1 }
	# calls that do not go down the order
	for (i = 1; i <= nf; i++) {
		a = file[i]
		if (!(a in lv)) continue
		nb = split(sorted(out[a]), to, " ")
		for (k = 1; k <= nb; k++) {
			b = to[k]
			if ((b in lv) && lv[b] < lv[a]) continue
			if (!(b in lv)) continue
			print a " -> " b " (" sorted(edge[a, b]) "): " b " is not below " a
			bad = 1
		}
	}
	# circles: reach[x, y] by closure; each circle once, as the shortest cycle
	# through its alphabetically first file (neighbours in name order)
	for (i = 1; i <= nf; i++) {
		nb = split(out[file[i]], to, " ")
		for (k = 1; k <= nb; k++) reach[file[i], to[k]] = 1
	}
	for (m = 1; m <= nf; m++)
		for (i = 1; i <= nf; i++)
			if ((file[i], file[m]) in reach)
				for (k = 1; k <= nf; k++)
					if ((file[m], file[k]) in reach) reach[file[i], file[k]] = 1
	for (i = 1; i <= nf; i++) {
		s = file[i]
		if (!((s, s) in reach) || (s in done)) continue
		group = ""
		for (k = 1; k <= nf; k++)
			if (((s, file[k]) in reach) && ((file[k], s) in reach)) { done[file[k]] = 1; group = group " " file[k] }
		# BFS from s back to s
		delete prev; delete seen
		qh = 1; qt = 0; found = 0
		nb = split(sorted(out[s]), to, " ")
		for (k = 1; k <= nb; k++) if (!(to[k] in seen)) { seen[to[k]] = 1; prev[to[k]] = s; q[++qt] = to[k] }
		while (qh <= qt && !found) {
			x = q[qh++]
			if (x == s) { found = 1; break }
			nb = split(sorted(out[x]), to, " ")
			for (k = 1; k <= nb; k++) if (!(to[k] in seen)) { seen[to[k]] = 1; prev[to[k]] = x; q[++qt] = to[k] }
		}
		path = s; x = prev[s]
		while (x != s) { path = x " -> " path; x = prev[x] }
		print "cycle: " s " -> " path (split(group, tmp, " ") > 2 ? " (one of the circles among" group ")" : "")
		bad = 1
	}
	exit bad
}' "$tmp/files" "$tmp/defs" "$tmp/undefs"
