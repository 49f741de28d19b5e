/* Workbench timings: first frame on 10,000 in-memory versions, redraw per key
 * press, and the SASS diff of two 50k-instruction listings (normalize with
 * core/sass.h + git_diff_buffers with patience). Prints numbers only. */
#include <locale.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "core/timing.h"
#include "tui/model/model.h"
#include "tui/model/synth.h"
#include "app/textdiff.h"
#include "tui/view.h"

static double now_ms(void)
{
	return rung_now_s() * 1e3;
}

static double run(rung_model *m, const char *script_text, const char *dir)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/keys", dir);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(script_text, f);
	fclose(f);
	rung_tui_opts o = {.script = path, .lines = 50, .cols = 160, .dump_dir = dir, .theme = "default"};
	double t0 = now_ms();
	if (rung_tui_run(m, &o) < 0) {
		fprintf(stderr, "bench_tui: %s\n", rung_error_last());
		return -1;
	}
	return now_ms() - t0;
}

/* An evaluation in flight: a thread posts progress for one version every
 * millisecond, as the worker does, and a fresh result every 200 ms (the
 * table is rebuilt), while the UI thread processes keys. */
typedef struct {
	rung_model *m;
	char hash[41];
	atomic_bool stop;
	int posted;
} feeder;

static void *feed(void *arg)
{
	feeder *f = arg;
	struct timespec ms = {0, 1000000};
	for (int i = 0; !atomic_load(&f->stop); i++) {
		rung_model_event ev = {.kind = RUNG_EV_PROGRESS, .step = RUNG_STEP_BENCH, .frac = (i % 1000) / 1000.0};
		snprintf(ev.hash, sizeof(ev.hash), "%s", f->hash);
		if (i % 200 == 199) {
			ev.kind = RUNG_EV_RESULT;
			ev.result = rung_model_fake_result(f->hash, 1.0 + i * 1e-4, 1e-6, true, 7);
		}
		if (rung_model_post(f->m, &ev) == 0)
			f->posted++;
		nanosleep(&ms, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10000;
	int keys = 2000;
	setenv("TERM", "xterm-256color", 0);
	char dir[] = "/tmp/rung-bench-tui-XXXXXX";
	if (!mkdtemp(dir))
		return 1;

	double t0 = now_ms();
	rung_model *m;
	if (rung_model_mem_new(&m) < 0 || rung_model_mem_demo(m, n, 1) < 0) {
		fprintf(stderr, "bench_tui: %s\n", rung_error_last());
		return 1;
	}
	double t_model = now_ms() - t0;
	/* first frame: start curses, open the versions table, draw, dump, quit */
	double t_first = run(m, ":dump first.txt\nQ\n", dir);
	/* redraw per key press: j/k through the table, pages, sort */
	char *script = malloc((size_t)keys * 4 + 64);
	script[0] = 0;
	for (int i = 0; i < keys; i++)
		strcat(script, i % 50 == 49 ? "<PgDn>\n" : (i % 2 ? "j\n" : "k\n"));
	strcat(script, "Q\n");
	double t_keys = run(m, script, dir);
	free(script);
	double per_key = (t_keys - t_first) / keys;
	/* a live result arriving: the table reopens (metrics for every row) and redraws */
	char ev[256];
	snprintf(ev, sizeof(ev), ":event result %.12s ok 1.0\nj\nQ\n", m->rows[0].hash);
	double t_event = run(m, ev, dir) - t_first;
	/* the same keys with an evaluation in flight */
	feeder fd = {.m = m};
	snprintf(fd.hash, sizeof(fd.hash), "%s", m->rows[1].hash);
	atomic_init(&fd.stop, false);
	pthread_t th;
	double per_key_live = -1;
	if (pthread_create(&th, NULL, feed, &fd) == 0) {
		script = malloc((size_t)keys * 4 + 64);
		script[0] = 0;
		for (int i = 0; i < keys; i++)
			strcat(script, i % 50 == 49 ? "<PgDn>\n" : (i % 2 ? "j\n" : "k\n"));
		strcat(script, "Q\n");
		double t_live = run(m, script, dir);
		free(script);
		atomic_store(&fd.stop, true);
		pthread_join(th, NULL);
		per_key_live = (t_live - t_first) / keys;
	}

	printf("versions: %d\n", n);
	printf("model build (in-memory demo): %.1f ms\n", t_model);
	printf("time to first frame: %.1f ms\n", t_first);
	printf("redraw per key press: %.3f ms (%d keys)\n", per_key, keys);
	printf("live result -> table rebuilt and redrawn: %.1f ms\n", t_event);
	printf("redraw per key press, evaluation in flight: %.3f ms (%d keys, %d events posted: progress every 1 ms, a "
	       "result every 200)\n",
	       per_key_live, keys, fd.posted);
	rung_model_free(m);

	/* SASS diff of two 50k-instruction listings */
	int ni = 50000;
	char *a = rung_synth_sass(ni, 1, 4), *b = rung_synth_sass(ni, 2, 6);
	/* as the compare screen does it: both normalized at once (rung_sass_normalize_pair,
	 * registers renamed), then the text and the instruction mix of each */
	double s0 = now_ms();
	rung_sass sa, sb;
	if (rung_sass_normalize_pair(&sa, &sb, a, b, RUNG_SASS_RENAME_REGS) < 0) {
		fprintf(stderr, "bench_tui: %s\n", rung_error_last());
		return 1;
	}
	rung_sass_mix ma, mb;
	rung_sass_count(&ma, &sa, -1);
	rung_sass_count(&mb, &sb, -1);
	char *na = rung_sass_text(&sa, -1), *nb = rung_sass_text(&sb, -1);
	/* the compare screen's default since issue #15: the diff by basic block */
	double k0 = now_ms();
	rung_sbs bd;
	if (rung_sass_blockdiff(&bd, &sa, &sb, 3) < 0) {
		fprintf(stderr, "bench_tui: %s\n", rung_error_last());
		return 1;
	}
	double k1 = now_ms();
	printf("SASS diff by basic block (rung_sass_blockdiff): %.1f ms, %d hunks, +%d -%d, %d rows\n", k1 - k0,
	       bd.nhunks, bd.adds, bd.dels, bd.n);
	rung_sbs_clear(&bd);
	rung_sass_clear(&sa);
	rung_sass_clear(&sb);
	if (!na || !nb) {
		fprintf(stderr, "bench_tui: out of memory\n");
		return 1;
	}
	double s1 = now_ms() - (k1 - k0);
	rung_sbs d;
	if (rung_textdiff(&d, na, nb, 3) < 0) {
		fprintf(stderr, "bench_tui: %s\n", rung_error_last());
		return 1;
	}
	double s2 = now_ms();
	printf("SASS normalize x2, in parallel (%d instructions each): %.1f ms\n", ni, s1 - s0);
	printf("SASS diff (git_diff_buffers, patience): %.1f ms, %d hunks, +%d -%d, %d rows\n", s2 - s1, d.nhunks, d.adds,
	       d.dels, d.n);
	printf("SASS normalize + diff total: %.1f ms\n", s2 - s0);
	rung_sbs_clear(&d);
	free(a);
	free(b);
	free(na);
	free(nb);
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return 0;
}
