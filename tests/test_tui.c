/* The workbench driven by keystroke scripts on the in-memory model, with no
 * display (newterm on /dev/null); screens are compared with the golden files
 * in tests/screens/ (RUNG_UPDATE_SCREENS=1 rewrites them: review by eye). */
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/err.h"
#include "core/metrics.h"
#include "core/profile.h"
#include "core/roofline_guard.h"
#include "gitfix.h"
#include "harness.h"
#include "app/evaluate.h"
#include "app/goal.h"
#include "cli/report.h"
#include "app/demo.h"
#include "tui/draw.h"
#include "app/import.h"
#include "tui/model/model.h"
#include "tui/model/occ_row.h"
#include "tui/model/rowmetrics.h"
#include "app/textdiff.h"
#include "tui/theme.h"
#include "tui/view.h"
#include "vcs/ceil_store.h"
#include "vcs/repo.h"
#include "vcs/store.h"

static rung_model *demo_model(int n)
{
	rung_model *m = NULL;
	CHECK_INT(rung_model_mem_new(&m), 0);
	CHECK_INT(rung_model_mem_demo(m, n, 1), 0);
	return m;
}

/* Runs script text on m at cols x lines; the dumps land in a fresh directory (returned). */
/* The git model with its first rows' results in: they are read after the
 * first frame (m->filling, RUNG_EV_FILL), on the service's runner. */
static int git_model_filled(rung_model **out, const char *dir, const char *task)
{
	int e = rung_model_git_new(out, dir, task);
	for (int k = 0; e == 0 && *out && (*out)->filling && k < 300; k++) {
		struct pollfd p = {rung_model_event_fd(*out), POLLIN, 0};
		if (poll(&p, 1, 100) > 0)
			rung_model_apply_events(*out);
	}
	return e;
}

static const char *run_script(rung_model *m, const char *script, int cols, int lines, int ascii)
{
	const char *dir = t_tmpdir();
	char path[1024];
	snprintf(path, sizeof(path), "%s/script", dir);
	CHECK_INT(t_write(path, script), 0);
	rung_tui_opts o = {.script = path, .lines = lines, .cols = cols, .dump_dir = dir, .ascii = ascii, .theme = "default"};
	int e = rung_tui_run(m, &o);
	if (e < 0)
		fprintf(stderr, "rung_tui_run: %s\n", rung_error_last());
	CHECK_INT(e, 0);
	return dir;
}

/* Compares dir/name with tests/screens/name (or writes it when updating). */
static void golden(const char *dir, const char *name)
{
	char got_path[1024], want_path[1024];
	snprintf(got_path, sizeof(got_path), "%s/%s", dir, name);
	snprintf(want_path, sizeof(want_path), "%s/screens/%s", RUNG_TEST_DIR, name);
	char *got = t_slurp(got_path, NULL);
	CHECK(got != NULL);
	if (!got)
		return;
	if (getenv("RUNG_UPDATE_SCREENS")) {
		t_write(want_path, got);
		free(got);
		return;
	}
	char *want = t_slurp(want_path, NULL);
	if (!want || strcmp(got, want)) {
		char *out = NULL;
		t_sh(&out, "diff -u '%s' '%s' | head -40", want_path, got_path);
		fprintf(stderr, "%s: screen differs from %s\n%s\n", t_current, want_path, out ? out : "");
		free(out);
		t_case_failed = 1;
	}
	free(want);
	free(got);
}

static char *dump_of(const char *dir, const char *name)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return t_slurp(p, NULL);
}

/* ---- pure parts -------------------------------------------------------- */

static void test_sanitize(void)
{
	char out[256];
	rung_tui_draw_init(true);
	int w = rung_tui_sanitize(out, sizeof(out), "a\x1b[31mred\x07", -1, 0);
	CHECK_STR(out, "a^[[31mred^G");
	CHECK_INT(w, 12);
	rung_tui_sanitize(out, sizeof(out), "x\x7fy", -1, 0);
	CHECK_STR(out, "x^?y");
	/* C1 CSI (U+009B) and a bidi override are shown by code point */
	rung_tui_sanitize(out, sizeof(out), "\xc2\x9b" "1m \xe2\x80\xae" "abc", -1, 0);
	CHECK_STR(out, "<U+009B>1m <U+202E>abc");
	/* invalid UTF-8 and a lone continuation byte */
	rung_tui_sanitize(out, sizeof(out), "\xff\x80ok", -1, 0);
	CHECK_STR(out, "\\xff\\x80ok");
	/* valid UTF-8 passes, tabs expand to the next multiple of 8 from start_col */
	w = rung_tui_sanitize(out, sizeof(out), "\xe2\x9c\x93\tz", -1, 2);
	CHECK_STR(out, "\xe2\x9c\x93     z");
	CHECK_INT(w, 7);
	/* not UTF-8: every high byte is inert */
	rung_tui_draw_init(false);
	rung_tui_sanitize(out, sizeof(out), "\xe2\x9c\x93", -1, 0);
	CHECK_STR(out, "\\xe2\\x9c\\x93");
	/* truncation keeps a NUL and never splits an escape */
	rung_tui_sanitize(out, 5, "\x1b\x1b\x1b", -1, 0);
	CHECK_STR(out, "^[^[");
	rung_tui_draw_init(true);
}

static void test_theme_files(void)
{
	rung_theme builtin, file;
	rung_theme_default(&builtin);
	char path[1024];
	snprintf(path, sizeof(path), "%s/../themes/default.theme", RUNG_TEST_DIR);
	char *text = t_slurp(path, NULL);
	CHECK(text != NULL);
	CHECK_STR(text, rung_theme_default_text());
	snprintf(path, sizeof(path), "%s/../themes/monochrome.theme", RUNG_TEST_DIR);
	char *mono = t_slurp(path, NULL);
	CHECK_STR(mono, rung_theme_monochrome_text());
	free(mono);
	free(text);
	/* every shipped theme parses and names every role */
	const char *names[] = {"default", "light", "high-contrast", "monochrome"};
	for (int i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/../themes/%s.theme", RUNG_TEST_DIR, names[i]);
		char *t = t_slurp(path, NULL);
		CHECK(t != NULL);
		for (int r = 0; t && r < RUNG_NROLES; r++) {
			char needle[64];
			snprintf(needle, sizeof(needle), "\n%s ", rung_role_name((rung_role)r));
			if (r > 0)
				CHECK_CONTAINS(t, needle);
		}
		CHECK_INT(rung_theme_load(&file, path), 0);
		free(t);
	}
	CHECK_INT(builtin.role[RUNG_ROLE_FAILED].fg, 1);
	CHECK(builtin.role[RUNG_ROLE_FAILED].attrs & RUNG_A_BOLD);
	CHECK_INT(builtin.role[RUNG_ROLE_PENDING].fg, 244);
	CHECK_INT(builtin.role[RUNG_ROLE_DEFAULT].bg, -1);
}

static void test_theme_errors(void)
{
	rung_theme t;
	rung_theme_default(&t);
	CHECK(rung_theme_parse(&t, "ok = green default\n\nbogus = red default\n", "x.theme") < 0);
	CHECK_STR(rung_error_last(), "x.theme:3: unknown role 'bogus'");
	CHECK(rung_theme_parse(&t, "# c\nok = purpel default\n", "y.theme") < 0);
	CHECK_STR(rung_error_last(), "y.theme:2: unknown colour 'purpel'");
	CHECK(rung_theme_parse(&t, "ok = red default blink\n", "z.theme") < 0);
	CHECK_CONTAINS(rung_error_last(), "z.theme:1: unknown attribute 'blink'");
	CHECK(rung_theme_parse(&t, "ok = 256 default\n", "n.theme") < 0);
	CHECK(rung_theme_parse(&t, "ok red\n", "q.theme") < 0);
	CHECK_CONTAINS(rung_error_last(), "q.theme:1:");
	CHECK_INT(rung_theme_parse(&t, "ok = bright-red 17 underline reverse\n", "good.theme"), 0);
	CHECK_INT(t.role[RUNG_ROLE_OK].fg, 9);
	CHECK_INT(t.role[RUNG_ROLE_OK].bg, 17);
	CHECK_INT(t.role[RUNG_ROLE_OK].attrs, RUNG_A_UNDERLINE | RUNG_A_REVERSE);
	/* a theme file that does not exist */
	CHECK(rung_theme_load(&t, "no-such-theme") < 0);
	CHECK_CONTAINS(rung_error_last(), "theme 'no-such-theme' not found");
}

static void test_theme_choose(void)
{
	const char *dir = t_tmpdir();
	char path[1024], name[64];
	bool colour;
	setenv("XDG_CONFIG_HOME", dir, 1);
	unsetenv("NO_COLOR");
	snprintf(path, sizeof(path), "%s/rung/config", dir);
	t_write(path, "# mine\ntheme = light\n");
	CHECK_INT(rung_theme_choose(name, sizeof(name), &colour, NULL), 0);
	CHECK_STR(name, "light");
	CHECK(colour);
	CHECK_INT(rung_theme_choose(name, sizeof(name), &colour, "high-contrast"), 0);
	CHECK_STR(name, "high-contrast");
	setenv("NO_COLOR", "1", 1);
	CHECK_INT(rung_theme_choose(name, sizeof(name), &colour, NULL), 0);
	CHECK_STR(name, "monochrome");
	CHECK(!colour);
	unsetenv("NO_COLOR");
	t_write(path, "theme light\n");
	CHECK(rung_theme_choose(name, sizeof(name), &colour, NULL) < 0);
	CHECK_CONTAINS(rung_error_last(), "rung/config:1: expected 'key = value'");
	/* a typo is an error at its line, not ignored */
	t_write(path, "# mine\nthme = light\n");
	CHECK(rung_theme_choose(name, sizeof(name), &colour, NULL) < 0);
	CHECK_CONTAINS(rung_error_last(), "rung/config:2: unknown key 'thme' (known: theme, auto_eval)");
	unsetenv("XDG_CONFIG_HOME");
}

/* auto_eval in the config: gpu by default, on/off/gpu read, anything else an
 * error at its line; the theme beside it is still read. */
static void test_config_auto_eval(void)
{
	const char *dir = t_tmpdir();
	char path[1024];
	setenv("XDG_CONFIG_HOME", dir, 1);
	snprintf(path, sizeof(path), "%s/rung/config", dir);
	unlink(path);
	rung_config c;
	CHECK_INT(rung_config_read(&c), 0); /* no file: the defaults */
	CHECK_INT(c.auto_eval, RUNG_AUTO_EVAL_GPU);
	CHECK_STR(c.theme, "");
	t_write(path, "theme = light\nauto_eval = off # reviewing by hand\n");
	CHECK_INT(rung_config_read(&c), 0);
	CHECK_INT(c.auto_eval, RUNG_AUTO_EVAL_OFF);
	CHECK_STR(c.theme, "light");
	t_write(path, "auto_eval = on\n");
	CHECK_INT(rung_config_read(&c), 0);
	CHECK_INT(c.auto_eval, RUNG_AUTO_EVAL_ON);
	t_write(path, "auto_eval = gpu\n");
	CHECK_INT(rung_config_read(&c), 0);
	CHECK_INT(c.auto_eval, RUNG_AUTO_EVAL_GPU);
	t_write(path, "# mine\n\nauto_eval = yes\n");
	CHECK(rung_config_read(&c) < 0);
	CHECK_CONTAINS(rung_error_last(), "rung/config:3: auto_eval is on, off or gpu, not 'yes'");
	CHECK_STR(rung_auto_eval_name(RUNG_AUTO_EVAL_OFF), "off");
	unlink(path);
	unsetenv("XDG_CONFIG_HOME");
}

static void test_color_reduce(void)
{
	CHECK_INT(rung_color_reduce(196, 256), 196);
	CHECK_INT(rung_color_reduce(196, 16), 9);  /* #ff0000 -> bright red */
	CHECK_INT(rung_color_reduce(196, 8), 1);   /* -> red */
	CHECK_INT(rung_color_reduce(232, 16), 0);  /* darkest grey -> black */
	CHECK_INT(rung_color_reduce(255, 16), 7);  /* lightest grey (#eeeeee) -> white (#e5e5e5) */
	CHECK_INT(rung_color_reduce(231, 16), 15); /* #ffffff -> bright white */
	CHECK_INT(rung_color_reduce(12, 8), 4);    /* bright blue -> blue */
	CHECK_INT(rung_color_reduce(-1, 8), -1);
	CHECK_INT(rung_color_reduce(21, 16), 4);   /* #0000ff -> blue (#0000ee) */
	CHECK_INT(rung_color_reduce(46, 16), 10);  /* #00ff00 -> bright green */
}

static void test_keymap_help(void)
{
	rung_lines l = {0};
	rung_help_lines(&l);
	char all[16384] = "";
	for (int i = 0; i < l.n; i++) {
		strncat(all, l.v[i].text, sizeof(all) - strlen(all) - 2);
		strcat(all, "\n");
	}
	/* every request is in the help, with its key */
	for (int r = 1; r < RUNG_NREQS; r++)
		CHECK_CONTAINS(all, rung_request_name((rung_request)r));
	CHECK_CONTAINS(all, "Ctrl-D         half-page-down");
	CHECK_CONTAINS(all, "j, Down        move-down");
	CHECK_CONTAINS(all, "?, h           view-help");
	/* the versions table's glyphs: the compare marks, best and baseline each their own */
	CHECK_CONTAINS(all, "\n  a, b           marked for compare");
	CHECK_CONTAINS(all, "\n  \u2605              the best");
	CHECK_CONTAINS(all, "\n  \u2606              the best, provisional");
	CHECK_CONTAINS(all, "\n  \u2302              the baseline");
	CHECK_CONTAINS(all, "\n  \u2691              suspect");
	rung_lines_clear(&l);
	CHECK_INT(rung_key_request('j'), RUNG_REQ_MOVE_DOWN);
	CHECK_INT(rung_key_request(KEY_NPAGE), RUNG_REQ_PAGE_DOWN);
	CHECK_INT(rung_key_request(4), RUNG_REQ_HALF_DOWN);
	CHECK_INT(rung_key_request('Q'), RUNG_REQ_QUIT);
	CHECK_INT(rung_key_parse("<Enter>"), '\r');
	CHECK_INT(rung_key_parse("<C-d>"), 4);
	CHECK_INT(rung_key_parse("<Esc>"), 27);
	CHECK_INT(rung_key_parse("<PgDn>"), KEY_NPAGE);
	CHECK_INT(rung_key_parse("x"), 'x');
	CHECK_INT(rung_key_parse("<Nope>"), -1);
}

typedef struct {
	rung_model *m;
	char hash[41];
	int n;
} poster;

static void *post_many(void *arg)
{
	poster *p = arg;
	for (int i = 0; i < p->n; i++) {
		rung_model_event ev = {.kind = RUNG_EV_PROGRESS, .step = RUNG_STEP_BENCH, .frac = i / (double)p->n};
		snprintf(ev.hash, sizeof(ev.hash), "%s", p->hash);
		rung_model_post(p->m, &ev);
	}
	rung_model_event ev = {.kind = RUNG_EV_RESULT};
	snprintf(ev.hash, sizeof(ev.hash), "%s", p->hash);
	ev.result = rung_model_fake_result(p->hash, 1.5, 1e-7, true, 3);
	rung_model_post(p->m, &ev);
	return NULL;
}

/* Events from another thread arrive in order through the pipe and the queue. */
static void test_events_threaded(void)
{
	rung_model *m = demo_model(12);
	int row = 0; /* newest: not evaluated */
	CHECK(m->rows[row].result == NULL);
	CHECK_INT(rung_model_evaluate(m, m->rows[row].hash), 0);
	poster p = {m, "", 5000};
	snprintf(p.hash, sizeof(p.hash), "%s", m->rows[row].hash);
	pthread_t th;
	pthread_create(&th, NULL, post_many, &p);
	int applied = 0;
	bool saw_running = false;
	while (applied < p.n + 2) {
		int n = rung_model_apply_events(m);
		applied += n;
		if (m->rows[row].step[RUNG_STEP_BENCH] == RUNG_S_RUNNING)
			saw_running = true;
		if (!n)
			usleep(100);
	}
	pthread_join(th, NULL);
	CHECK_INT(applied, p.n + 2);
	CHECK(saw_running || m->rows[row].result);
	CHECK(m->rows[row].result != NULL);
	CHECK_NEAR(m->rows[row].result->bench.median, 1.5, 1e-12);
	CHECK_INT(m->rows[row].step[RUNG_STEP_BENCH], RUNG_S_OK);
	CHECK_INT(m->queue_total, 0);
	/* 1.5 ms beats every demo version: it is the best now */
	CHECK_INT(rung_model_best(m), row);
	rung_model_free(m);
}

static void test_textdiff(void)
{
	rung_sbs d;
	CHECK_INT(rung_textdiff(&d, "a\nb\nc\nd\n", "a\nB\nc\nd\ne\n", 3), 0);
	CHECK_INT(d.nhunks, 1);
	CHECK_INT(d.adds, 2);
	CHECK_INT(d.dels, 1);
	/* rows: hunk, a, b|B (paired), c, d, |e */
	CHECK_INT(d.n, 6);
	if (d.n == 6) {
		CHECK_INT(d.rows[0].kind, RUNG_DIFF_HUNK);
		CHECK_INT(d.rows[2].kind, RUNG_DIFF_CHANGE);
		CHECK_STR(d.rows[2].left, "b");
		CHECK_STR(d.rows[2].right, "B");
		CHECK_INT(d.rows[5].kind, RUNG_DIFF_ADD);
		CHECK(d.rows[5].left == NULL);
		CHECK_INT(d.rows[5].rno, 5);
	}
	rung_sbs_clear(&d);
}

/* ---- screens ----------------------------------------------------------- */

static void test_screen_versions(void)
{
	rung_model *m = demo_model(12);
	const char *dir = run_script(m, ":dump versions.txt\nj j\n:dump versions_cursor.txt\n", 100, 20, 0);
	golden(dir, "versions.txt");
	golden(dir, "versions_cursor.txt");
	char *s = dump_of(dir, "versions.txt");
	CHECK_CONTAINS(s, "naive sgemm");
	CHECK_CONTAINS(s, "baseline");
	CHECK_CONTAINS(s, "\xe2\x9c\x93\xe2\x9c\x93\xe2\x9c\x93\xe2\x9c\x93"); /* ✓✓✓✓ */
	CHECK_CONTAINS(s, "\xe2\x9c\x93\xe2\x9c\x93\xe2\x9c\x97-");		/* check failed, bench skipped */
	free(s);
	rung_model_free(m);
}

/* The compare marks and the baseline have cells (and letters) of their own: the
 * baseline marked b shows both, never 'B' beside 'b'. */
static void test_marks_distinct(void)
{
	rung_model *m = demo_model(12);
	const char *dir = run_script(m, "G b k a g\n:dump marks.txt\n", 100, 20, 0);
	char *s = dump_of(dir, "marks.txt");
	CHECK_CONTAINS(s, "\nb\u2302  0004202 naive sgemm");  /* mark b on the baseline */
	CHECK_CONTAINS(s, "\na   25b2331 coalesce loads");
	CHECK_CONTAINS(s, "\n \u2605  8d596f5 ");
	CHECK(s && !strstr(s, "\nB "));
	free(s);
	dir = run_script(m, "G b\n:dump marks_ascii.txt\n", 100, 20, 1);
	s = dump_of(dir, "marks_ascii.txt");
	CHECK_CONTAINS(s, "\nb=  0004202 naive sgemm");
	free(s);
	rung_model_free(m);
}

/* The table at 250 columns: the subject takes no more than its longest text, and
 * the extra columns (perf in TFLOP/s or TB/s, the SM clock, the date) fill the
 * room. At 60 columns the verdict is kept; less important columns go first. */
static void test_versions_widths(void)
{
	rung_model *m = demo_model(12);
	int longest = 0;
	for (int i = 0; i < m->nrows; i++)
		if ((int)strlen(m->rows[i].subject) > longest)
			longest = (int)strlen(m->rows[i].subject);
	const char *dir = run_script(m, ":dump versions_wide.txt\n:resize 60x20\n:dump versions_narrow.txt\n", 250, 20, 0);
	golden(dir, "versions_wide.txt");
	golden(dir, "versions_narrow.txt");
	char *s = dump_of(dir, "versions_wide.txt");
	const char *hdr = s ? strstr(s, "\n    hash") : NULL;
	CHECK(hdr != NULL);
	if (hdr) {
		const char *subj = strstr(hdr, "subject"), *steps = strstr(hdr, "CRKB");
		CHECK(subj && steps && steps - subj <= longest + 1);
		CHECK_CONTAINS(hdr, " perf ");
		CHECK_CONTAINS(hdr, " clock ");
		CHECK_CONTAINS(hdr, " date ");
		CHECK_CONTAINS(hdr, " verdict");
	}
	CHECK_CONTAINS(s, " TFLOP/s ");
	CHECK_CONTAINS(s, " 1980MHz ");
	CHECK_CONTAINS(s, " 01-01 05:30 unroll K loop"); /* the demo model's dates (TZ=UTC) */
	free(s);
	s = dump_of(dir, "versions_narrow.txt");
	CHECK_CONTAINS(s, " verdict\n");
	CHECK_CONTAINS(s, " baseline \xe2\x9c\x8e\n"); /* the verdict and the note's glyph */
	CHECK_CONTAINS(s, " keep     \xe2\x9c\x8e\n");
	CHECK(s && !strstr(s, "regs/sp") && !strstr(s, "max_rel"));
	free(s);
	rung_model_free(m);
}

/* Suspect versions (docs/CHECKS.md, "Evidence: suspects"): a flag in the
 * mark column's second cell (ASCII '?'), "suspect" as the verdict until the
 * person gives one, and a suspect section in the detail, its reasons inert. */
static void test_screen_suspect(void)
{
	rung_model *m = demo_model(12);
	/* row 3 is the best (8d596f5), row 7 has the verdict keep (02a90af), row 4 none (b5b19e1) */
	CHECK(m->rows[3].best && m->rows[3].verdict == RUNG_VERDICT_NONE);
	CHECK_INT(m->rows[7].verdict, RUNG_VERDICT_KEEP);
	rung_result_add_suspect(m->rows[3].result, RUNG_SUSPECT_MUTABLE_GLOBAL,
				"mutable __device__ global 'calls' (written by the kernel): state can carry over between launches");
	rung_result_add_suspect(m->rows[3].result, RUNG_SUSPECT_TIMED_MISMATCH, "timed launch 4 wrote \x1b[31mother\x1b[0m outputs");
	rung_result_add_suspect(m->rows[7].result, RUNG_SUSPECT_DEVICE_MALLOC,
				"device-side malloc in the PTX: the device heap keeps state between launches");
	m->rows[4].result->impossible = true;
	m->rows[4].result->floor_ms = 50;
	rung_result_sync_impossible(m->rows[4].result);
	const char *dir = run_script(m, ":dump versions_suspect.txt\nj j j <Enter>\n:dump detail_suspect.txt\n", 100, 20, 0);
	golden(dir, "versions_suspect.txt");
	golden(dir, "detail_suspect.txt");
	char *s = dump_of(dir, "versions_suspect.txt");
	CHECK_CONTAINS(s, "\xe2\x98\x85\xe2\x9a\x91" " 8d596f5"); /* ★⚑: best and suspect */
	CHECK_CONTAINS(s, "\xe2\x9a\x91" " b5b19e1");		  /* impossible is suspect too */
	CHECK_CONTAINS(s, "\xe2\x9a\x91" " 02a90af");
	CHECK_CONTAINS(s, " keep     ");				  /* the person's verdict stays */
	CHECK_CONTAINS(s, "  0e8cb96");				  /* no evidence: no flag */
	const char *best = strstr(s, "8d596f5");
	CHECK(best && strstr(best, " suspect\n") && strstr(best, " suspect\n") < strchr(best, '\n') + 1);
	free(s);
	s = dump_of(dir, "detail_suspect.txt");
	CHECK_CONTAINS(s, "\xe2\x9a\x91 suspect  evidence that it may fool the bench: verify before building on it");
	CHECK_CONTAINS(s, "  mutable-global  mutable __device__ global 'calls' (written by the kernel)");
	CHECK_CONTAINS(s, "  timed-mismatch  timed launch 4 wrote ^[[31mother^[[0m outputs"); /* inert */
	free(s);
	char *out = NULL;
	t_sh(&out, "rm -rf '%s'", dir);
	free(out);
	dir = run_script(m, ":dump versions_suspect_ascii.txt\n", 100, 20, 1);
	golden(dir, "versions_suspect_ascii.txt");
	s = dump_of(dir, "versions_suspect_ascii.txt");
	CHECK_CONTAINS(s, "*? 8d596f5");
	free(s);
	t_sh(&out, "rm -rf '%s'", dir);
	free(out);
	rung_model_free(m);
}

/* The ladder's progress (#32): the plot screen at two sizes and in ASCII,
 * the stop rule in the title bar, and the person's done verdict there. */
static void test_plot_screen(void)
{
	rung_model *m = demo_model(12);
	m->goal = (rung_goal_spec){.line = 1, .roof = 80, .roof_line = 2, .plateau = 3, .plateau_line = 3};
	m->goal_dtype = RUNG_DT_F32;
	const char *dir = run_script(m, ":dump versions_goal.txt\np\n:dump plot.txt\n:resize 64x18\n:dump plot_small.txt\np\n"
				     ":dump plot_back.txt\n", 100, 30, 0);
	golden(dir, "versions_goal.txt");
	golden(dir, "plot.txt");
	golden(dir, "plot_small.txt");
	char *s = dump_of(dir, "versions_goal.txt");
	CHECK_CONTAINS(s, "CONTINUE: ");
	CHECK_CONTAINS(s, "of the FP32 roof, goal 80%");
	free(s);
	s = dump_of(dir, "plot.txt");
	CHECK_CONTAINS(s, "progress sgemm");
	CHECK_CONTAINS(s, "CONTINUE: best ");
	CHECK_CONTAINS(s, "\xe2\x97\x8f");       /* ● a counted version */
	CHECK_CONTAINS(s, "\xe2\x9c\x97");       /* ✗ a failed one */
	CHECK_CONTAINS(s, "\xe2\x94\x88");       /* ┈ the goal line */
	CHECK_CONTAINS(s, "goal 80%");
	free(s);
	s = dump_of(dir, "plot_back.txt"); /* p again: back to the table */
	CHECK(s && strstr(s, "[versions]") != NULL);
	free(s);
	char *out = NULL;
	t_sh(&out, "rm -rf '%s'", dir);
	free(out);

	/* ASCII, and a done verdict: STOP in the title bar */
	rung_model_directive d = {.status = RUNG_DIR_OPEN, .task_wide = true, .task_done = true};
	snprintf(d.id, sizeof(d.id), "0badc0de");
	snprintf(d.text, sizeof(d.text), "good enough");
	snprintf(d.author, sizeof(d.author), "Ada Lovelace");
	CHECK_INT(rung_model_row_set_dirs(&m->rows[0], &d, 1), 0);
	m->generation++;
	dir = run_script(m, "p\n:dump plot_ascii.txt\n", 80, 24, 1);
	golden(dir, "plot_ascii.txt");
	s = dump_of(dir, "plot_ascii.txt");
	CHECK_CONTAINS(s, "STOP: done by the person");
	CHECK_CONTAINS(s, "STOP: done by the person: good enough (Ada Lovelace)");
	CHECK(s && !strstr(s, "\xe2"));
	free(s);
	t_sh(&out, "rm -rf '%s'", dir);
	free(out);
	rung_model_free(m);
}

static void test_screen_ascii(void)
{
	rung_model *m = demo_model(12);
	const char *dir = run_script(m, ":dump versions_ascii.txt\nr\n:dump roofline_ascii.txt\n", 100, 20, 1);
	golden(dir, "versions_ascii.txt");
	golden(dir, "roofline_ascii.txt");
	char *s = dump_of(dir, "versions_ascii.txt");
	CHECK_CONTAINS(s, "oooo");
	CHECK_CONTAINS(s, "oox-");
	CHECK_CONTAINS(s, "cccc");
	free(s);
	rung_model_free(m);
}

static void test_screen_detail(void)
{
	rung_model *m = demo_model(12);
	/* the failing version (check) and a good one */
	const char *dir = run_script(m, "j j j j j j <Enter>\n:dump detail_failed.txt\n<Esc> k <Enter>\n:dump detail_compile.txt\n"
				     "<Esc> g j j <Enter>\n:dump detail.txt\n<Space>\n:dump detail_page2.txt\n",
				     90, 30, 0);
	golden(dir, "detail_compile.txt");
	char *c = dump_of(dir, "detail_compile.txt");
	CHECK_CONTAINS(c, "sgemm.cu(14): error: identifier \"As\" is undefined");
	CHECK_CONTAINS(c, "     14 |");
	CHECK_CONTAINS(c, "C[row * N + col] = acc;");
	free(c);
	golden(dir, "detail_failed.txt");
	golden(dir, "detail.txt");
	golden(dir, "detail_page2.txt");
	char *s = dump_of(dir, "detail_failed.txt");
	CHECK_CONTAINS(s, "bad (127,4)");
	CHECK_CONTAINS(s, "worst at (127,4): got 1.5 expected 1.4535");
	CHECK_CONTAINS(s, "2 shapes x 2 seeds  max_rel 3.10e-02");
	free(s);
	s = dump_of(dir, "detail_page2.txt");
	CHECK_CONTAINS(s, "<- median");
	CHECK_CONTAINS(s, "NVIDIA H200");
	free(s);
	rung_model_free(m);
}

/* The detail screen's line of each output comes from the metric table
 * (core/metric_table.h): max_ulp where the output has a ULP histogram, and a
 * metric absent from an output (NaN) left out of its line. */
static void test_detail_metrics_from_table(void)
{
	rung_model *m = NULL;
	CHECK_INT(rung_model_mem_new(&m), 0);
	rung_model_row *rows = calloc(1, sizeof(*rows));
	snprintf(rows[0].hash, sizeof(rows[0].hash), "%s", "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee");
	snprintf(rows[0].subject, sizeof(rows[0].subject), "sgemm: float4 loads");
	rows[0].date = 1764417600;
	rung_result *r = rows[0].result = rung_model_fake_result(rows[0].hash, 1.0, 1e-6, true, 3);
	r->metrics[0].has_ulp = true;
	memset(r->metrics[0].ulp_hist, 0, sizeof(r->metrics[0].ulp_hist));
	r->metrics[0].ulp_hist[0] = 500;
	r->metrics[0].ulp_hist[3] = 2; /* 4-15 ulps */
	r->metrics[1].psnr = NAN;
	rung_model_row_sync_steps(&rows[0]);
	rung_model_set_rows(m, rows, 1);
	const char *dir = run_script(m, "<Enter>\n:dump metrics_detail.txt\n", 160, 20, 0);
	char *s = dump_of(dir, "metrics_detail.txt");
	CHECK_CONTAINS(s, " cos 1.000000 max_ulp <=15\n");
	const char *l2 = s ? strstr(s, "K=126 seed 1001:") : NULL; /* the second output's line */
	const char *e2 = l2 ? strchr(l2, '\n') : NULL;
	CHECK(l2 && e2);
	if (l2 && e2) {
		char line[512];
		snprintf(line, sizeof(line), "%.*s", (int)(e2 - l2), l2);
		CHECK_CONTAINS(line, " max_rel ");
		CHECK(!strstr(line, "psnr") && !strstr(line, "max_ulp"));
	}
	free(s);
	rung_model_free(m);
}

/* [check] inputs: the detail screen names the distributions checked and the
 * distribution of each metric row; `rung check`'s line counts their runs. */
static void test_inputs_shown(void)
{
	rung_model *m = NULL;
	CHECK_INT(rung_model_mem_new(&m), 0);
	rung_model_row *rows = calloc(1, sizeof(*rows));
	snprintf(rows[0].hash, sizeof(rows[0].hash), "%s", "dddddddddddddddddddddddddddddddddddddddd");
	snprintf(rows[0].subject, sizeof(rows[0].subject), "softmax: subtract the row max");
	rows[0].date = 1764417600;
	rung_result *r = rows[0].result = rung_model_fake_result(rows[0].hash, 1.0, 1e-6, true, 3);
	r->ninputs = 3;
	r->inputs[0] = RUNG_DIST_NORMAL;
	r->inputs[1] = RUNG_DIST_WIDE;
	r->inputs[2] = RUNG_DIST_INTS;
	r->metrics[2].inputs = RUNG_DIST_WIDE;
	r->metrics[3].inputs = RUNG_DIST_INTS;
	rung_model_row_sync_steps(&rows[0]);
	rung_model_set_rows(m, rows, 1);
	const char *dir = run_script(m, "<Enter>\n:dump inputs_detail.txt\n", 110, 14, 0);
	char *s = dump_of(dir, "inputs_detail.txt");
	CHECK_CONTAINS(s, "2 shapes x 2 seeds, inputs normal, wide, ints");
	CHECK_CONTAINS(s, "C M=127,N=128,K=126 seed 1000:");
	CHECK_CONTAINS(s, "C M=256,N=257,K=255 wide seed 1000:");
	CHECK_CONTAINS(s, "C M=256,N=257,K=255 ints seed 1001:");
	free(s);

	char path[1024];
	snprintf(path, sizeof(path), "%s/check.txt", t_tmpdir());
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		rung_check_print_gpu_step(f, r, NULL, RUNG_STEP_CHECK);
		r->ninputs = 0; /* a result from before [check] inputs: the line as it was */
		rung_check_print_gpu_step(f, r, NULL, RUNG_STEP_CHECK);
		int nshapes = r->nshapes;
		r->nshapes = 1; /* the run case alone: one shape, one run */
		rung_check_print_gpu_step(f, r, NULL, RUNG_STEP_CHECK);
		r->nshapes = nshapes;
		fclose(f);
	}
	s = t_slurp(path, NULL);
	/* 1 check shape x 2 seeds + the run case, + 1 case each for wide and ints */
	CHECK_CONTAINS(s, "[check] ok 2 shapes, 5 runs (inputs normal, wide, ints) max_abs=");
	CHECK_CONTAINS(s, "[check] ok 2 shapes, 3 runs max_abs=");
	CHECK_CONTAINS(s, "[check] ok 1 shape, 1 run max_abs=");
	free(s);
	rung_model_free(m);
}

/* Every "max_rel X" in text s has X one of the allowed values (NULL-terminated);
 * returns how many there were. */
static int max_rel_tokens_in(const char *s, const char *const *allowed)
{
	int n = 0;
	for (const char *p = s; p && (p = strstr(p, "max_rel")); p += 7) {
		const char *v = p + 7;
		if (*v == '=' || *v == ' ')
			v++;
		else
			continue;
		char tok[32];
		int k = 0;
		while (v[k] && v[k] != ' ' && v[k] != '\n' && k < 31)
			tok[k] = v[k], k++;
		tok[k] = 0;
		bool ok = false;
		for (int a = 0; allowed[a]; a++)
			ok |= !strcmp(tok, allowed[a]);
		if (!ok) {
			fprintf(stderr, "max_rel %s is not one of the metrics' values, in:\n%s\n", tok, s);
			t_case_failed = 1;
		}
		n++;
	}
	return n;
}

/* One name, one number (issue #12 item 11): max_rel is defined once
 * (core/result.h, docs/CHECKS.md) and every view shows the same value in the
 * same form. The outputs come from the real comparison (rung_metrics_compute):
 * the element with the largest relative error (45) is not the one furthest
 * outside its tolerance (rel 0.5, 49.5x), and the failure line used to call
 * that element's 0.5 "max_rel"; a second seed has max_rel 50, the version's. */
static void test_max_rel_one_number(void)
{
	rung_check_opts o;
	rung_check_opts_default(&o, RUNG_DT_F32);
	o.atol = 1e-3, o.rtol = 1e-2, o.atol_scaled = false;
	const int64_t shape[2] = {2, 3};
	const float ref1[6] = {1e-3f, 10, 1, 1, 1, 1}, got1[6] = {1e-3f + 0.045f, 15, 1, 1, 1, 1};
	const float ref2[6] = {1e-3f, 1, 1, 1, 1, 1}, got2[6] = {1e-3f + 0.05f, 1, 1, 1, 1, 1};

	rung_model *m = NULL;
	CHECK_INT(rung_model_mem_new(&m), 0);
	rung_model_row *rows = calloc(1, sizeof(*rows));
	snprintf(rows[0].hash, sizeof(rows[0].hash), "%s", "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee");
	snprintf(rows[0].subject, sizeof(rows[0].subject), "sgemm: skip the N tail");
	rows[0].date = 1764417600;
	rung_result *r = rows[0].result = rung_model_fake_result(rows[0].hash, 1.0, 1e-6, false, 5);
	r->nshapes = 1;
	r->nmetrics = 2; /* of the fake's 4 */
	for (int i = 0; i < 2; i++) {
		rung_check_metric *cm = &r->metrics[i];
		rung_dimset dims = cm->dims;
		CHECK_INT(rung_metrics_compute(cm, "C", i ? got2 : got1, i ? ref2 : ref1, RUNG_DT_F32, 6, 2, shape, &o), 0);
		cm->dims = dims;
		cm->seed = 1000 + (uint64_t)i;
		CHECK(!cm->pass);
	}
	CHECK_NEAR(r->metrics[0].max_rel, 45, 1e-3);
	CHECK_NEAR(r->metrics[1].max_rel, 50, 1e-3);
	CHECK_NEAR(rung_result_max_rel(r), 50, 1e-3);
	snprintf(r->steps[RUNG_STEP_CHECK].reason, sizeof(r->steps[0].reason), "C: %s at M=127,N=128,K=126 seed 1/2",
		 r->metrics[0].reason);
	rung_model_row_sync_steps(&rows[0]);
	rung_model_set_rows(m, rows, 1);
	const char *dir = run_script(m, ":dump maxrel_versions.txt\n<Enter>\n:dump maxrel_detail.txt\n", 200, 20, 0);
	const char *const metric_values[] = {"4.50e+01", "5.00e+01", NULL};
	const char *const version_value[] = {"5.00e+01", NULL};

	char *d = dump_of(dir, "maxrel_detail.txt");
	CHECK_CONTAINS(d, "1 shape x 2 seeds  max_rel 5.00e+01"); /* the check line: the version's */
	CHECK_CONTAINS(d, "seed 1000: max_abs 5.00e+00 max_rel 4.50e+01");
	CHECK_CONTAINS(d, "seed 1001: max_abs 5.00e-02 max_rel 5.00e+01");
	CHECK_CONTAINS(d, "worst at (0,1): got 15 expected 10, 50x its tolerance; 2 of 6 elements of C outside");
	CHECK_INT(max_rel_tokens_in(d, metric_values), 3); /* the failure line names no other max_rel */
	free(d);

	char *v = dump_of(dir, "maxrel_versions.txt");
	const char *row = v ? strstr(v, "eeeeeee") : NULL;
	CHECK(row != NULL);
	CHECK_CONTAINS(row, " 5.00e+01 "); /* the table: the same number as the check line */
	free(v);

	/* rung check's lines: the failure's reason, and the ok line's max_rel */
	char path[1024];
	snprintf(path, sizeof(path), "%s/check.txt", t_tmpdir());
	FILE *f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		rung_check_print_gpu_step(f, r, NULL, RUNG_STEP_CHECK);
		r->steps[RUNG_STEP_CHECK].status = RUNG_S_OK;
		r->steps[RUNG_STEP_CHECK].reason[0] = 0;
		r->metrics[0].pass = r->metrics[1].pass = true;
		rung_check_print_gpu_step(f, r, NULL, RUNG_STEP_CHECK);
		fclose(f);
	}
	char *c = t_slurp(path, NULL);
	CHECK_CONTAINS(c, "[check] FAILED C: worst at (0,1)");
	CHECK_CONTAINS(c, " max_rel=5.00e+01 ");
	CHECK_INT(max_rel_tokens_in(c, version_value), 1);
	free(c);
	char line[256];
	rung_vrow_line(line, sizeof(line), &(rung_version){.short_id = "eeeeeee", .subject = "s"}, r);
	CHECK_CONTAINS(line, "max_rel 5.00e+01");
	rung_model_free(m);
}

static void test_screen_compare(void)
{
	rung_model *m = demo_model(12);
	/* mark a = the baseline (last row), b = the third row */
	const char *dir = run_script(m, "G a g j j b c\n:dump compare_sass.txt\n<Tab>\n:dump compare_diff.txt\n] ]\n:dump compare_hunk.txt\nw\ng\n:dump compare_sass_raw.txt\nw\ng\n:dump compare_sass_again.txt\nt\n:dump compare_source.txt\nw\nt\n:dump compare_ptx.txt\n",
				     100, 40, 0);
	golden(dir, "compare_sass.txt");
	golden(dir, "compare_diff.txt");
	golden(dir, "compare_hunk.txt");
	golden(dir, "compare_sass_raw.txt");
	golden(dir, "compare_ptx.txt");
	golden(dir, "compare_source.txt");
	char *s = dump_of(dir, "compare_sass.txt");
	CHECK_CONTAINS(s, "instruction mix");
	CHECK_CONTAINS(s, "FFMA");
	CHECK_CONTAINS(s, "FASTER");
	/* normalized by default: by basic block, registers in lower case */
	CHECK_CONTAINS(s, "SASS diff, by basic block (t switches, w: raw)");
	CHECK_CONTAINS(s, "SASS diff a -> b: 5 hunks, +186 -186");
	CHECK_CONTAINS(s, "ISETP.GE.AND p0, PT, r0, c[0x0][0x164], PT");
	free(s);
	/* w: the raw diff, nvdisasm's registers line by line (the synthetic listings
	 * share their register numbers, so raw is no bigger here); w again: back */
	s = dump_of(dir, "compare_sass_raw.txt");
	CHECK_CONTAINS(s, "SASS diff, raw (t switches, w normalizes)");
	CHECK_CONTAINS(s, "SASS diff a -> b: 5 hunks, +161 -161");
	CHECK_CONTAINS(s, "ISETP.GE.AND P0, PT, R52, c[0x0][0x164], P");
	free(s);
	s = dump_of(dir, "compare_sass_again.txt");
	CHECK_CONTAINS(s, "SASS diff a -> b: 5 hunks, +186 -186");
	free(s);
	s = dump_of(dir, "compare_source.txt");
	CHECK_CONTAINS(s, "source diff a -> b");
	CHECK_CONTAINS(s, "#define TILE");
	free(s);
	rung_model_free(m);
}

/* The occupancy row: per side from registers and smem (ptxas) and the launch
 * geometry; '-' when the geometry is unknown. */
static void test_compare_occupancy(void)
{
	rung_model *m = NULL;
	CHECK_INT(rung_model_mem_new(&m), 0);
	const struct {
		const char *hash, *subject;
		int regs;
		int64_t smem;
	} v[] = {
		{"cccccccccccccccccccccccccccccccccccccccc", "no launch geometry", 32, 0},
		{"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "tf32 mma", 165, 0},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "float4", 109, 8192},
	};
	for (int i = 0; i < 3; i++) {
		rung_model_row r = {0};
		snprintf(r.hash, sizeof(r.hash), "%s", v[i].hash);
		snprintf(r.subject, sizeof(r.subject), "%s", v[i].subject);
		r.result = rung_model_fake_result(r.hash, 10.0 - i, 1e-6, true, (unsigned)i + 1);
		r.result->compile.kernel.regs = v[i].regs;
		r.result->compile.kernel.smem = v[i].smem;
		r.result->compile.kernel.barriers = 1;
		CHECK_INT(rung_model_mem_add(m, &r), 0);
	}
	/* 256 threads: a (109 regs) 2 blocks = 25%; b (165 regs, 70 KiB dynamic) 1 block = 12.5% */
	rung_geom g = {.grid = {32, 32, 1}, .block = {256, 1, 1}, .smem = 0};
	CHECK_INT(rung_model_mem_set_launch(m, v[2].hash, &g), 0);
	g.smem = 71680;
	CHECK_INT(rung_model_mem_set_launch(m, v[1].hash, &g), 0);
	rung_occupancy o;
	CHECK_INT(rung_row_occupancy(&o, m, 1), 0);
	CHECK_INT(o.blocks, 1);
	CHECK_INT(o.by_smem, 3);
	CHECK(rung_row_occupancy(&o, m, 0) < 0);
	const char *dir = run_script(m, "G a k b c\n:dump occ_ab.txt\n<Esc> g b c\n:dump occ_unknown.txt\n", 100, 20, 0);
	char *s = dump_of(dir, "occ_ab.txt");
	CHECK_CONTAINS(s, "occupancy       25% regs     12.5% regs -12.5 pts");
	free(s);
	s = dump_of(dir, "occ_unknown.txt");
	CHECK_CONTAINS(s, "occupancy       25% regs              -\n");
	free(s);
	rung_model_free(m);
}

static void test_screen_roofline(void)
{
	rung_model *m = demo_model(12);
	const char *dir = run_script(m, "r\n:dump roofline.txt\nj j\n:dump roofline_sel.txt\n", 100, 30, 0);
	golden(dir, "roofline.txt");
	golden(dir, "roofline_sel.txt");
	char *s = dump_of(dir, "roofline.txt");
	CHECK_CONTAINS(s, "FLOP/B");
	CHECK_CONTAINS(s, "FLOP/s");
	CHECK_CONTAINS(s, "100T");
	CHECK_CONTAINS(s, " 10 ");
	/* the ceilings are labelled with their name and value */
	CHECK_CONTAINS(s, " DRAM 4.8 TB/s ");
	CHECK_CONTAINS(s, " FP32 67 TFLOP/s\n");
	CHECK_CONTAINS(s, " FP16 tensor 494 TFLOP/s\n");
	free(s);
	s = dump_of(dir, "roofline_sel.txt"); /* a selection changes no label */
	CHECK_CONTAINS(s, " DRAM 4.8 TB/s ");
	free(s);
	rung_model_free(m);
}

static void test_screen_steer(void)
{
	rung_model *m = demo_model(12);
	char hash[41];
	snprintf(hash, sizeof(hash), "%s", m->rows[2].hash);
	const char *dir = run_script(m, "j j v 1 i\n:type try cp.async next\n<Enter>\n:dump steer.txt\n<Tab>\n:dump steer_list.txt\n", 100, 24, 0);
	golden(dir, "steer.txt");
	golden(dir, "steer_list.txt");
	int row = rung_model_find(m, hash);
	CHECK_INT(m->rows[row].verdict, RUNG_VERDICT_KEEP);
	CHECK_STR(m->rows[row].note, "try cp.async next");
	/* baseline moves with the verdict */
	dir = run_script(m, "j j v 3\n", 100, 24, 0);
	CHECK_INT(rung_model_baseline(m), row);
	rung_model_free(m);
}

/* Every directive of the selected version and the task-wide ones, with id,
 * status (coloured), answering version and reason; x closes the open one
 * under the list's cursor with the reason typed (the mem backend). */
static void test_steer_directives(void)
{
	rung_model *m = demo_model(6);
	rung_model_directive d[3] = {{.id = "1a2b3c4d", .status = RUNG_DIR_OPEN},
				     {.id = "5e6f7a8b", .status = RUNG_DIR_DONE, .who = "claude"},
				     {.id = "99887766", .status = RUNG_DIR_DECLINED, .who = "claude"}};
	snprintf(d[0].text, sizeof(d[0].text), "try cp.async \x1b[31mnext");
	snprintf(d[1].text, sizeof(d[1].text), "use float4 loads");
	snprintf(d[1].by, sizeof(d[1].by), "%s", m->rows[0].hash);
	snprintf(d[1].reason, sizeof(d[1].reason), "done in the inner loop");
	snprintf(d[2].text, sizeof(d[2].text), "try 64x64 tiles");
	snprintf(d[2].reason, sizeof(d[2].reason), "smem would exceed 48 KiB");
	CHECK_INT(rung_model_row_set_dirs(&m->rows[2], d, 3), 0);
	rung_model_directive tw = {.id = "0badcafe", .status = RUNG_DIR_OPEN, .task_wide = true};
	snprintf(tw.text, sizeof(tw.text), "never loosen tolerances");
	CHECK_INT(rung_model_row_set_dirs(&m->rows[5], &tw, 1), 0);
	char hash[41];
	snprintf(hash, sizeof(hash), "%s", m->rows[2].hash);
	/* x in the form says how; on the list: the done one is refused, the open one asks a reason */
	const char *dir = run_script(m,
				     "j j v\n:dump steer_dirs.txt\n:dump-attrs steer_dirs_attrs.txt\nx\n:dump steer_x_form.txt\n"
				     "<Tab> j j j\nx\n:dump steer_x_done.txt\nk x\n:type not needed now\n<Enter>\n:dump steer_closed.txt\n",
				     120, 24, 0);
	golden(dir, "steer_dirs.txt");
	char *s = dump_of(dir, "steer_dirs.txt");
	CHECK_CONTAINS(s, "directive 1a2b3c4d open     try cp.async ^[[31mnext\n");
	CHECK_CONTAINS(s, "          5e6f7a8b done     use float4 loads  [by ");
	CHECK_CONTAINS(s, ", claude: done in the inner loop]\n");
	CHECK_CONTAINS(s, "          99887766 declined try 64x64 tiles  [claude: smem would exceed 48 KiB]\n");
	CHECK_CONTAINS(s, "          0badcafe open     [task-wide, ");
	CHECK_CONTAINS(s, "] never loosen tolerances\n");
	char want[128];
	snprintf(want, sizeof(want), "\n%.7s          5e6f7a8b done     use float4 loads  [by %.7s, claude: ", hash, m->rows[0].hash);
	CHECK_CONTAINS(s, want); /* the list: the whole history's directives */
	CHECK_CONTAINS(s, " baseline 0badcafe open     [task-wide] never loosen tolerances\n");
	free(s);
	s = dump_of(dir, "steer_dirs_attrs.txt");
	CHECK_CONTAINS(s, "{note}open     ");
	CHECK_CONTAINS(s, "{ok}done     ");
	CHECK_CONTAINS(s, "{warning}declined ");
	free(s);
	s = dump_of(dir, "steer_x_form.txt");
	CHECK_CONTAINS(s, "Tab to the notes list, then x on an open directive closes it");
	free(s);
	s = dump_of(dir, "steer_x_done.txt");
	CHECK_CONTAINS(s, "directive 5e6f7a8b is already done");
	free(s);
	s = dump_of(dir, "steer_closed.txt");
	CHECK_CONTAINS(s, "directive 1a2b3c4d closed: not needed now");
	snprintf(want, sizeof(want), "\n%.7s          1a2b3c4d closed   try cp.async ^[[31mnext  [by %.7s, you: not needed now]\n",
		 hash, m->rows[0].hash);
	CHECK_CONTAINS(s, want);
	free(s);
	int row = rung_model_find(m, hash);
	CHECK_INT(m->rows[row].dirs[0].status, RUNG_DIR_CLOSED);
	CHECK_STR(m->rows[row].dirs[0].reason, "not needed now");
	CHECK_INT(m->rows[row].dirs[1].status, RUNG_DIR_DONE);
	/* closing it again is refused by the model, and so is closing an answered one (its answer stays) */
	CHECK_INT(rung_model_close_directive(m, hash, "1a2b3c4d", "again"), RUNG_EINVAL);
	CHECK_INT(rung_model_close_directive(m, hash, "99887766", "no"), RUNG_EINVAL);
	CHECK_STR(m->rows[row].dirs[2].reason, "smem would exceed 48 KiB");
	rung_model_free(m);
}

static void test_screen_help(void)
{
	rung_model *m = demo_model(3);
	const char *dir = run_script(m, "?\n:dump help.txt\n<PgDn>\n:dump help_page2.txt\nq\n:dump help_closed.txt\n", 80, 24, 0);
	golden(dir, "help.txt");
	golden(dir, "help_page2.txt");
	char *s = dump_of(dir, "help_closed.txt");
	CHECK_CONTAINS(s, "[versions]");
	free(s);
	rung_model_free(m);
}

/* Every screen at 20x6, and resizes in both directions, draw without crashing. */
static void test_tiny_and_resize(void)
{
	rung_model *m = demo_model(12);
	const char *dir = run_script(m,
				     ":resize 20x6\n:dump tiny_versions.txt\n<Enter>\n:dump tiny_detail.txt\n<Esc> c\n:dump tiny_compare.txt\n"
				     "<Esc> r\n:dump tiny_roofline.txt\n<Esc> v\n:dump tiny_steer.txt\n?\n:dump tiny_help.txt\n"
				     ":resize 1x1\nj k <Esc>\n:resize 3x2\n<Enter> <Esc>\n:resize 100x30\n:dump resized.txt\nQ\n",
				     80, 24, 0);
	golden(dir, "tiny_versions.txt");
	golden(dir, "tiny_detail.txt");
	golden(dir, "tiny_compare.txt");
	golden(dir, "tiny_roofline.txt");
	golden(dir, "tiny_steer.txt");
	golden(dir, "tiny_help.txt");
	golden(dir, "resized.txt");
	char *s = dump_of(dir, "tiny_versions.txt");
	int lines = 0;
	for (char *p = s; p && *p; p++)
		lines += *p == '\n';
	CHECK_INT(lines, 6);
	free(s);
	rung_model_free(m);
}

/* dir/name with the {style} markers of :dump-attrs taken out. */
static char *strip_styles(const char *dir, const char *name)
{
	char *s = dump_of(dir, name), *o = s;
	for (const char *p = s; p && *p; p++) {
		if (*p == '{') {
			const char *e = strchr(p, '}');
			if (e) {
				p = e;
				continue;
			}
		}
		*o++ = *p;
	}
	if (o)
		*o = 0;
	return s;
}

/* The versions screen at 100x12 through :dump and :dump-attrs, with theme (NULL: chosen
 * as rung does, NO_COLOR included) on the terminal type term. */
static const char *styled_versions(rung_model *m, const char *theme, const char *term)
{
	const char *dir = t_tmpdir();
	char path[1024];
	snprintf(path, sizeof(path), "%s/script", dir);
	CHECK_INT(t_write(path, ":dump plain.txt\n:dump-attrs attrs.txt\nQ\n"), 0);
	setenv("TERM", term, 1);
	rung_tui_opts o = {.script = path, .lines = 12, .cols = 100, .dump_dir = dir, .theme = theme};
	int e = rung_tui_run(m, &o);
	setenv("TERM", "xterm-256color", 1);
	if (e < 0)
		fprintf(stderr, "rung_tui_run: %s\n", rung_error_last());
	CHECK_INT(e, 0);
	/* the styles are on top of the same text */
	char *plain = dump_of(dir, "plain.txt"), *stripped = strip_styles(dir, "attrs.txt");
	CHECK_STR(stripped, plain);
	free(plain);
	free(stripped);
	return dir;
}

/* Colours are on (one colour pair per role) on a colour terminal; NO_COLOR and a
 * terminal without colours get the monochrome theme's attributes and no pair. */
static void test_colour_roles(void)
{
	rung_model *m = demo_model(6);
	char *a = dump_of(styled_versions(m, "default", "xterm-256color"), "attrs.txt");
	CHECK(a && !strncmp(a, "{title bold}rung sgemm: 6 versions", 34));
	CHECK_CONTAINS(a, "\n{header bold}    hash    subject");
	CHECK_CONTAINS(a, "{best bold}\u2605{default}  {dim}");
	CHECK_CONTAINS(a, "{ok}\u2713\u2713\u2713\u2713{default}");
	CHECK_CONTAINS(a, "{cached}\u21ba\u21ba\u21ba\u21ba{default}");
	CHECK_CONTAINS(a, "{faster bold}2.43\u00d7 \u00b10.03"); /* 1D blocktiling, -58.8% of the time (#28 D-3) */
	CHECK_CONTAINS(a, "{baseline bold}baseline{default} {note}\u270e");
	CHECK_CONTAINS(a, "\n{status}? help");
	free(a);
	/* 8 colours: pairs still, the 256-colour roles reduced */
	a = dump_of(styled_versions(m, "default", "xterm"), "attrs.txt");
	CHECK(a && !strncmp(a, "{title bold}rung", 16));
	CHECK_CONTAINS(a, "{ok}\u2713");
	free(a);
	const char *mono[][2] = {{NULL, "xterm-256color"}, {"default", "xterm-256color"}, {"default", "vt100"}};
	for (int i = 0; i < 3; i++) {
		if (i < 2)
			setenv("NO_COLOR", "1", 1); /* NO_COLOR wins over an explicit theme */
		a = dump_of(styled_versions(m, mono[i][0], mono[i][1]), "attrs.txt");
		unsetenv("NO_COLOR");
		CHECK(a && !strncmp(a, "{- bold reverse}rung sgemm: 6 versions", 38));
		CHECK_CONTAINS(a, "\n{- bold underline}    hash    subject");
		CHECK_CONTAINS(a, "{- underline}baseline{-} \u270e");
		CHECK_CONTAINS(a, "{- bold}2.43\u00d7 \u00b10.03");
		CHECK_CONTAINS(a, "\n{- reverse}? help");
		for (const char *p = a; p && (p = strchr(p, '{')); p++)
			if (p[1] != '-') {
				fprintf(stderr, "%s: case %d: a colour pair without colours: %.40s\n", t_current, i, p);
				t_case_failed = 1;
				break;
			}
		free(a);
	}
	rung_model_free(m);
}

/* Terminal escapes in a commit subject and a note are drawn inert. */
static void test_escapes(void)
{
	rung_model *m = demo_model(3);
	rung_model_row r = {0};
	snprintf(r.hash, sizeof(r.hash), "e5c0000000000000000000000000000000000000");
	snprintf(r.subject, sizeof(r.subject), "evil \x1b[2J\x1b]0;pwned\x07 title \xc2\x9b" "31m");
	snprintf(r.author, sizeof(r.author), "mallory\x1b[5m");
	snprintf(r.note, sizeof(r.note), "note \x1b[41mred");
	r.verdict = RUNG_VERDICT_KEEP;
	r.date = 1767225600;
	CHECK_INT(rung_model_mem_add(m, &r), 0);
	const char *dir = run_script(m, "G\n:dump escapes.txt\n<Enter>\n:dump escapes_detail.txt\n<Esc> v\n:dump escapes_steer.txt\n", 100, 12, 0);
	golden(dir, "escapes.txt");
	golden(dir, "escapes_detail.txt");
	golden(dir, "escapes_steer.txt");
	for (int k = 0; k < 3; k++) {
		const char *names[] = {"escapes.txt", "escapes_detail.txt", "escapes_steer.txt"};
		char *s = dump_of(dir, names[k]);
		CHECK(s && !strchr(s, '\x1b'));
		CHECK(s && !strchr(s, '\x07'));
		CHECK_CONTAINS(s, "^[");
		free(s);
	}
	char *s = dump_of(dir, "escapes_detail.txt");
	CHECK_CONTAINS(s, "evil ^[[2J^[]0;pwned^G title <U+009B>31m");
	CHECK_CONTAINS(s, "mallory^[[5m");
	free(s);
	rung_model_free(m);
}

/* What the kernel printed is a section of the detail, drawn inert: whatever
 * the field holds (raw ESC, BEL, CR, a raw C1 CSI, a bidi override, a byte
 * that is not UTF-8), no control reaches the screen. */
static void test_detail_output(void)
{
	rung_model *m = NULL;
	CHECK_INT(rung_model_mem_new(&m), 0);
	rung_model_row r = {0};
	snprintf(r.hash, sizeof(r.hash), "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567");
	snprintf(r.subject, sizeof(r.subject), "prints a line per thread");
	r.date = 1767225600;
	r.result = rung_model_fake_result(r.hash, 2.0, 1e-7, true, 3);
	r.result->output = strdup("tid 0 \x1b[2J\x1b]52;c;cHduZWQ=\x07 ok\n"
				  "tid 1 \xc2\x9b" "31m red \xe2\x80\xae" "evil\r over \xff\n"
				  "tid 2 stored \\u{009B} as text\ttab\n");
	r.result->output_bytes = 1048576;
	r.result->output_dropped = 1048576 - RUNG_OUTPUT_KEEP;
	CHECK_INT(rung_model_mem_add(m, &r), 0);
	const char *dir = run_script(m, "<Enter> G\n:dump detail_output.txt\n", 100, 16, 0);
	golden(dir, "detail_output.txt");
	size_t n = 0;
	char *sc = dump_of(dir, "detail_output.txt");
	if (sc)
		n = strlen(sc);
	CHECK(sc && !memchr(sc, '\x1b', n) && !memchr(sc, '\x07', n) && !memchr(sc, '\r', n));
	CHECK(sc && !strstr(sc, "\xc2\x9b") && !strstr(sc, "\xe2\x80\xae"));
	CHECK_CONTAINS(sc, "kernel output (1.0 MiB, 960.0 KiB dropped)");
	CHECK_CONTAINS(sc, "  tid 0 ^[[2J^[]52;c;cHduZWQ=^G ok");
	CHECK_CONTAINS(sc, "  tid 1 <U+009B>31m red <U+202E>evil^M over \\xff");
	CHECK_CONTAINS(sc, "  ... 960.0 KiB more not kept");
	free(sc);
	rung_model_free(m);
}

/* A live update arrives while the user navigates: the table and status bar
 * change without a key press for them. */
static void test_live_update(void)
{
	rung_model *m = demo_model(12);
	char newest[41];
	snprintf(newest, sizeof(newest), "%.7s", m->rows[0].hash);
	char script[2048];
	snprintf(script, sizeof(script),
		 "j\n:event queued %s\n:event progress %s bench 0.41\nk\n:dump live_running.txt\n"
		 "j j <Enter>\n:event result %s ok 2.0\n<Esc>\n:dump live_done.txt\n/naive\n:dump live_search.txt\n",
		 newest, newest, newest);
	/* "/naive" is typed as keys: / then n a i v e then Enter */
	char *p = strstr(script, "/naive\n");
	snprintf(p, sizeof(script) - (size_t)(p - script), "/ n a i v e <Enter>\n:dump live_search.txt\nF\n:dump live_filter.txt\n");
	const char *dir = run_script(m, script, 100, 20, 0);
	golden(dir, "live_running.txt");
	golden(dir, "live_done.txt");
	golden(dir, "live_search.txt");
	golden(dir, "live_filter.txt");
	char *s = dump_of(dir, "live_running.txt");
	char want[128];
	snprintf(want, sizeof(want), "evaluating 1/1 %s bench 41%%", newest);
	CHECK_CONTAINS(s, want);
	CHECK_CONTAINS(s, "\xe2\x9c\x93\xe2\x9c\x93\xe2\x9c\x93\xe2\x97\x90"); /* ✓✓✓◐ */
	free(s);
	s = dump_of(dir, "live_done.txt");
	CHECK(!strstr(s, "evaluating"));
	CHECK_CONTAINS(s, "2.000ms");
	free(s);
	CHECK(m->rows[0].result != NULL);
	CHECK_INT(rung_model_best(m), 0);
	rung_model_free(m);
}

/* A result for the gate's test: passed, timed at ms; sanitize: its sanitize
 * rung with every gate tool (RUNG_S_OK, RUNG_S_FAILED) or none (RUNG_S_NONE). */
static rung_result *gate_result(const char *hash, double ms, rung_status sanitize)
{
	rung_result *r = rung_model_fake_result(hash, ms, 1e-7, true, 3);
	r->steps[RUNG_STEP_SANITIZE].status = sanitize;
	if (sanitize != RUNG_S_NONE)
		r->sanitize_tools = RUNG_GATE_BASE_TOOLS;
	if (sanitize == RUNG_S_FAILED)
		snprintf(r->steps[RUNG_STEP_SANITIZE].reason, sizeof(r->steps[0].reason), "racecheck: race at k.cu:10");
	return r;
}

static void post_gate(rung_model *m, rung_event_kind kind, const char *hash, rung_result *r)
{
	rung_model_event ev = {.kind = kind, .result = r, .step = RUNG_STEP_SANITIZE};
	snprintf(ev.hash, sizeof(ev.hash), "%s", hash);
	CHECK_INT(rung_model_post(m, &ev), 0);
	rung_model_apply_events(m);
}

/* The sanitize gate over live results (app/sanitize_gate.h): the fastest is
 * best only once it passed; while it is sanitizing, or when it failed, the
 * fastest sanitized one is; where nothing passed, the fastest is best,
 * provisional (a hollow star), in the CLI's words. */
static void test_gate_best(void)
{
	rung_model *m = NULL;
	CHECK_INT(rung_model_mem_new(&m), 0);
	const char *h[3] = {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
			    "cccccccccccccccccccccccccccccccccccccccc"};
	for (int i = 0; i < 3; i++) { /* newest (fastest) first */
		rung_model_row r = {0};
		snprintf(r.hash, sizeof(r.hash), "%s", h[i]);
		snprintf(r.subject, sizeof(r.subject), "v%d", 3 - i);
		CHECK_INT(rung_model_mem_add(m, &r), 0);
	}
	m->gate_tools = RUNG_GATE_BASE_TOOLS;
	post_gate(m, RUNG_EV_RESULT, h[2], gate_result(h[2], 3.0, RUNG_S_NONE));
	post_gate(m, RUNG_EV_RESULT, h[1], gate_result(h[1], 2.0, RUNG_S_NONE));
	post_gate(m, RUNG_EV_RESULT, h[0], gate_result(h[0], 1.0, RUNG_S_NONE));
	/* nothing passed: the fastest, provisional */
	CHECK_INT(rung_model_best(m), 0);
	CHECK(m->gate_provisional);
	char d[700];
	snprintf(m->gate_why, sizeof(m->gate_why), "no compute-sanitizer");
	rung_model_gate_describe(d, sizeof(d), m, &m->rows[0]);
	CHECK_STR(d, "unsanitized (no compute-sanitizer)");
	const char *dir = run_script(m, "<Enter>\n:dump gate_detail.txt\n<Esc>\n:dump gate_versions.txt\n", 100, 12, 0);
	char *s = dump_of(dir, "gate_versions.txt");
	CHECK_CONTAINS(s, "\n \xe2\x98\x86  aaaaaaa"); /* ☆ */
	free(s);
	s = dump_of(dir, "gate_detail.txt");
	CHECK_CONTAINS(s, "\nsanitize: unsanitized (no compute-sanitizer): this best is provisional");
	free(s);
	m->gate_why[0] = 0;
	/* the slowest passed: it is best, the fastest pending */
	post_gate(m, RUNG_EV_RESULT, h[2], gate_result(h[2], 3.0, RUNG_S_OK));
	CHECK_INT(rung_model_best(m), 2);
	CHECK_INT(m->gate_pending, 0);
	CHECK(!m->gate_provisional);
	/* the fastest sanitizing: not best yet */
	post_gate(m, RUNG_EV_QUEUED, h[0], NULL);
	CHECK_INT(rung_model_row_gate(m, &m->rows[0]), RUNG_GATE_SANITIZING);
	rung_model_gate_describe(d, sizeof(d), m, &m->rows[0]);
	CHECK_STR(d, "sanitizing (memcheck, racecheck, synccheck)");
	CHECK_INT(rung_model_best(m), 2);
	/* it failed: still not best, and says why */
	post_gate(m, RUNG_EV_RESULT, h[0], gate_result(h[0], 1.0, RUNG_S_FAILED));
	CHECK_INT(rung_model_best(m), 2);
	rung_model_gate_describe(d, sizeof(d), m, &m->rows[0]);
	CHECK_STR(d, "sanitize failed: racecheck: race at k.cu:10");
	/* the next fastest passed: the best moves to it */
	post_gate(m, RUNG_EV_RESULT, h[1], gate_result(h[1], 2.0, RUNG_S_OK));
	CHECK_INT(rung_model_best(m), 1);
	CHECK_INT(m->gate_pending, -1);
	dir = run_script(m, ":dump gate_moved.txt\n", 100, 12, 0);
	s = dump_of(dir, "gate_moved.txt");
	CHECK_CONTAINS(s, "\n \xe2\x98\x85  bbbbbbb"); /* ★ */
	free(s);
	rung_model_free(m);
}

/* `/` search: every match on the screen is drawn in the search role (case
 * insensitive, as the search), on the versions table, the cursor row included,
 * and on the other screens; NO_COLOR gets attributes that differ from the cursor's. */
static void test_search_highlight(void)
{
	rung_model *m = demo_model(12);
	const char *dir = run_script(m, "/ N A I V E <Enter>\n:dump-attrs found.txt\n? / m o v e - <Enter>\n:dump-attrs help.txt\n",
				     100, 20, 0);
	char *s = dump_of(dir, "found.txt");
	CHECK_CONTAINS(s, "{search}naive{cursor} sgemm");
	free(s);
	s = dump_of(dir, "help.txt");
	CHECK_CONTAINS(s, " {search}move-{default}down ");
	CHECK_CONTAINS(s, " {search}move-{default}up ");
	free(s);
	/* a search that is cleared leaves no highlight */
	dir = run_script(m, "/ n a i v e <Enter> / <Enter>\n:dump-attrs cleared.txt\n", 100, 20, 0);
	s = dump_of(dir, "cleared.txt");
	CHECK(s && !strstr(s, "{search}"));
	free(s);
	setenv("NO_COLOR", "1", 1);
	dir = t_tmpdir();
	char path[1024];
	snprintf(path, sizeof(path), "%s/script", dir);
	t_write(path, "/ n a i v e <Enter>\n:dump-attrs mono.txt\n");
	rung_tui_opts o = {.script = path, .lines = 20, .cols = 100, .dump_dir = dir};
	CHECK_INT(rung_tui_run(m, &o), 0);
	unsetenv("NO_COLOR");
	s = dump_of(dir, "mono.txt");
	CHECK_CONTAINS(s, "{- bold reverse underline}naive{- reverse} sgemm");
	free(s);
	rung_model_free(m);
}

/* Whether line n (1-based) of s contains text. */
static bool line_has(const char *s, int n, const char *text)
{
	for (int i = 1; s && i < n; i++)
		s = (s = strchr(s, '\n')) ? s + 1 : NULL;
	if (!s)
		return false;
	const char *e = strchr(s, '\n'), *f = strstr(s, text);
	return f && (!e || f < e);
}

static void test_sort_mouse(void)
{
	rung_model *m = demo_model(12);
	const char *dir = run_script(m, "s\n:dump sorted_time.txt\n:click 4 10\n<Enter>\n:dump clicked.txt\n", 100, 20, 0);
	golden(dir, "sorted_time.txt");
	char *s = dump_of(dir, "sorted_time.txt");
	/* fastest first: the 3rd table line (row 2 of the list) is the best */
	CHECK_CONTAINS(s, "fastest first");
	free(s);
	s = dump_of(dir, "clicked.txt");
	CHECK_CONTAINS(s, "[detail]");
	free(s);
	rung_model_free(m);
	/* the wheel, through curses' event queue: a list scrolls 3 lines with the cursor
	 * kept on screen; the detail (a pager) scrolls; the roofline moves its selection */
	m = demo_model(12);
	dir = run_script(m,
			 ":mouse wheel-down 4 10\n:dump wheel1.txt\n:mouse wheel-down 4 10\n:mouse wheel-down 4 10\n:dump wheel2.txt\n"
			 ":mouse wheel-up 4 10\n:dump wheel3.txt\n:mouse click 3 10\n:dump wheel4.txt\n"
			 "<Enter>\n:mouse wheel-down 4 10\n:dump wheel_detail.txt\n<Esc> r\n:mouse wheel-down 4 10\n:dump wheel_roof.txt\n",
			 100, 8, 0);
	s = dump_of(dir, "wheel1.txt");
	CHECK(line_has(s, 3, " 8d596f5 ")); /* the 4th version first, the cursor on it */
	CHECK_CONTAINS(s, " 4/12\n");
	free(s);
	s = dump_of(dir, "wheel2.txt"); /* at the end: the last 5 of 12 */
	CHECK(line_has(s, 3, " 02a90af ") && line_has(s, 7, " 0004202 "));
	CHECK_CONTAINS(s, " 8/12\n");
	free(s);
	s = dump_of(dir, "wheel3.txt"); /* back up 3: the cursor stays where it was */
	CHECK(line_has(s, 3, " b5b19e1 "));
	CHECK_CONTAINS(s, " 8/12\n");
	free(s);
	s = dump_of(dir, "wheel4.txt"); /* a click on the second list row */
	CHECK_CONTAINS(s, " 6/12\n");
	free(s);
	s = dump_of(dir, "wheel_detail.txt");
	CHECK_CONTAINS(s, "[detail]");
	CHECK_CONTAINS(s, " 4/");
	free(s);
	s = dump_of(dir, "wheel_roof.txt");
	CHECK_CONTAINS(s, "[roofline]");
	CHECK_CONTAINS(s, "\na534213 "); /* the info line: the version after the clicked 3a2335f */
	free(s);
	rung_model_free(m);
}

static void test_script_errors(void)
{
	rung_model *m = demo_model(3);
	const char *dir = t_tmpdir();
	char path[1024];
	snprintf(path, sizeof(path), "%s/bad", dir);
	t_write(path, "j\n<Bogus>\n");
	rung_tui_opts o = {.script = path, .lines = 10, .cols = 40, .dump_dir = dir};
	CHECK(rung_tui_run(m, &o) < 0);
	CHECK_CONTAINS(rung_error_last(), "bad:2: unknown key '<Bogus>'");
	t_write(path, ":resize nope\n");
	CHECK(rung_tui_run(m, &o) < 0);
	CHECK_CONTAINS(rung_error_last(), "bad:1:");
	rung_model_free(m);
}


/* ---- recorded results, task switching, measured roofline points ------- */

#define H200_NOTE "recorded on NVIDIA H200, 2025-11-29"

static rung_result *recorded_result(const char *hash, double median_ms)
{
	rung_result *r = rung_model_fake_result(hash, median_ms, 1e-6, true, 3);
	r->recorded = true;
	r->cached = true; /* as the store gives them back */
	snprintf(r->recorded_note, sizeof(r->recorded_note), H200_NOTE);
	return r;
}

/* Three versions, newest first: c (nothing), b (recorded 1 ms), a (recorded 2 ms). */
static rung_model *recorded_model(void)
{
	rung_model *m = NULL;
	CHECK_INT(rung_model_mem_new(&m), 0);
	rung_model_row *rows = calloc(3, sizeof(*rows));
	const char *ids[3] = {"cccccccccccccccccccccccccccccccccccccccc", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
			      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"};
	const char *subj[3] = {"c: not evaluated anywhere", "b: recorded, faster", "a: recorded, first"};
	for (int i = 0; i < 3; i++) {
		snprintf(rows[i].hash, sizeof(rows[i].hash), "%s", ids[i]);
		snprintf(rows[i].subject, sizeof(rows[i].subject), "%s", subj[i]);
		rows[i].date = 1764417600 - i * 3600;
	}
	rows[1].recorded = recorded_result(ids[1], 1.0);
	rows[2].recorded = recorded_result(ids[2], 2.0);
	for (int i = 0; i < 3; i++)
		rung_model_row_sync_steps(&rows[i]);
	rung_model_set_rows(m, rows, 3);
	snprintf(m->title, sizeof(m->title), "sgemm");
	return m;
}

static void post_live(rung_model *m, const char *hash, double median_ms)
{
	rung_model_event ev = {.kind = RUNG_EV_RESULT};
	snprintf(ev.hash, sizeof(ev.hash), "%s", hash);
	ev.result = rung_model_fake_result(hash, median_ms, 1e-6, true, 5);
	CHECK_INT(rung_model_post(m, &ev), 0);
	CHECK_INT(rung_model_apply_events(m), 1);
}

static void test_recorded_model(void)
{
	rung_model *m = recorded_model();
	int live, rec;
	rung_model_count(m, &live, &rec);
	CHECK_INT(live, 0);
	CHECK_INT(rec, 2);
	CHECK(!rung_model_row_is_recorded(&m->rows[0]));
	CHECK(rung_model_row_is_recorded(&m->rows[1]));
	CHECK(rung_model_row_result(&m->rows[1], false) == NULL);
	/* with nothing live, baseline and best are among the recorded ones */
	CHECK_INT(rung_model_baseline(m), 2);
	CHECK_INT(rung_model_best(m), 1);
	rung_row_metrics mx;
	rung_row_metrics_get(&mx, m, 1, rung_model_baseline(m));
	CHECK(mx.has_delta);
	CHECK_NEAR(mx.delta, -0.5, 1e-12); /* 1 ms against 2 ms, both recorded */
	/* recorded is not evaluated here: E queues all three */
	CHECK_INT(rung_model_evaluate_missing(m), 3);
	CHECK_INT(rung_model_apply_events(m), 3);
	CHECK_INT(m->queue_total, 3);

	/* the first live result: the live kind now rules baseline and best */
	post_live(m, m->rows[0].hash, 3.0);
	CHECK_INT(rung_model_baseline(m), 0);
	CHECK_INT(rung_model_best(m), 0);
	rung_row_metrics_get(&mx, m, 1, rung_model_baseline(m));
	CHECK(!mx.has_delta); /* recorded b is never compared with live c */
	rung_row_metrics_get(&mx, m, 0, rung_model_baseline(m));
	CHECK(!mx.has_delta);

	/* a live result replaces the recorded display of a; its recorded one stays for recorded rows */
	post_live(m, m->rows[2].hash, 4.0);
	CHECK(!rung_model_row_is_recorded(&m->rows[2]));
	CHECK_NEAR(m->rows[2].result->bench.median, 4.0, 1e-12);
	CHECK_NEAR(rung_model_row_result(&m->rows[2], true)->bench.median, 2.0, 1e-12);
	CHECK_INT(rung_model_baseline(m), 2); /* the oldest live one */
	CHECK_INT(rung_model_best(m), 0);     /* 3 ms live beats 4 ms live; recorded b's 1 ms does not count */
	rung_row_metrics_get(&mx, m, 0, 2);
	CHECK(mx.has_delta);
	CHECK_NEAR(mx.delta, -0.25, 1e-12); /* live 3 against live 4 */
	rung_row_metrics_get(&mx, m, 1, 2);
	CHECK(mx.has_delta);
	CHECK_NEAR(mx.delta, -0.5, 1e-12); /* recorded 1 against recorded 2 */
	rung_model_count(m, &live, &rec);
	CHECK_INT(live, 2);
	CHECK_INT(rec, 1);
	rung_model_free(m);
}

static void test_recorded_screens(void)
{
	rung_model *m = recorded_model();
	const char *dir = run_script(m, ":dump versions_recorded.txt\nj\n:dump recorded_sel.txt\n<Enter>\n:dump recorded_detail.txt\n", 100, 10, 1);
	golden(dir, "versions_recorded.txt");
	char *s = dump_of(dir, "versions_recorded.txt");
	CHECK_CONTAINS(s, "rung sgemm: 3 versions, 0 evaluated, 2 recorded");
	CHECK_CONTAINS(s, "b: recorded, faster");
	CHECK_CONTAINS(s, "rrrr"); /* recorded ticks, not live ones */
	free(s);
	/* selecting a recorded row says where it was measured */
	s = dump_of(dir, "recorded_sel.txt");
	CHECK_CONTAINS(s, H200_NOTE);
	free(s);
	s = dump_of(dir, "recorded_detail.txt");
	CHECK_CONTAINS(s, H200_NOTE);
	free(s);
	/* a live row is not labelled: the first row (c, nothing) shows the help hint */
	dir = run_script(m, "g\n:dump first.txt\n", 100, 10, 1);
	s = dump_of(dir, "first.txt");
	CHECK(!strstr(s, "recorded on"));
	free(s);
	/* a recorded row being evaluated here: the steps passed are live ticks,
	 * the running one and the pending one follow (never "rr" for this run) */
	dir = run_script(m, ":event queued bbbbbbb\n:event progress bbbbbbb check 0.5\n:dump inflight.txt\n", 100, 10, 1);
	s = dump_of(dir, "inflight.txt");
	const char *row = strstr(s, "b: recorded, faster");
	const char *line = row;
	while (line && line > s && line[-1] != '\n')
		line--;
	CHECK(row != NULL);
	if (row) {
		char buf[128];
		snprintf(buf, sizeof(buf), "%.*s", (int)(strchr(row, '\n') ? strchr(row, '\n') - line : 60), line);
		CHECK_CONTAINS(buf, "oo*.");
		CHECK(!strstr(buf, "rr") && !strstr(buf, "cc"));
	}
	free(s);
	rung_model_free(m);
}

/* The detail's profile counters are shown with their units. */
static void test_counter_units(void)
{
	rung_model *m = demo_model(12);
	rung_result *r = m->rows[2].result;
	CHECK(r != NULL);
	if (!r) {
		rung_model_free(m);
		return;
	}
	CHECK_INT(rung_counter_set(r, "dram__bytes_read.sum", 201.3e6), 0);
	CHECK_INT(rung_counter_set(r, "sm__warps_active.avg.pct_of_peak_sustained_active", 62.04), 0);
	CHECK_INT(rung_counter_set(r, "gpu__time_duration.sum", 73100), 0);
	CHECK_INT(rung_counter_set(r, "flops.f32", 34.4e9), 0);
	const char *dir = run_script(m, "j j <Enter> / d r a m _ _ b <Enter>\n:dump counters.txt\n", 100, 12, 0);
	char *s = dump_of(dir, "counters.txt");
	CHECK_CONTAINS(s, "  dram__bytes_read.sum                                       201.3 MB\n");
	CHECK_CONTAINS(s, "  sm__warps_active.avg.pct_of_peak_sustained_active            62.0 %\n");
	CHECK_CONTAINS(s, "  gpu__time_duration.sum                                     73.10 us\n");
	CHECK_CONTAINS(s, "  flops.f32                                                34.4 GFLOP\n");
	free(s);
	rung_model_free(m);
}

static void test_roofline_measured(void)
{
	rung_model *m = demo_model(12);
	/* version 0 moves 3.1x the bytes its [roofline] counts need; version 1 was recorded elsewhere */
	int k = 0;
	while (k < m->nrows - 1 && !(m->rows[k].result && m->rows[k].result->bench.valid && !isnan(m->rows[k].result->bench.tbps) &&
				      m->rows[k].result->steps[RUNG_STEP_CHECK].status == RUNG_S_OK))
		k++;
	rung_result *r = m->rows[k].result;
	CHECK(r && r->bench.valid && !isnan(r->bench.tbps));
	if (!r) {
		rung_model_free(m);
		return;
	}
	double s = r->bench.median * 1e-3;
	CHECK_INT(rung_counter_set(r, "flops.f32", r->bench.tflops * 1e12 * s), 0);
	CHECK_INT(rung_counter_set(r, "dram.bytes", 3.1 * r->bench.tbps * 1e12 * s), 0);
	int j = k + 1;
	m->rows[j].recorded = m->rows[j].result;
	m->rows[j].result->recorded = true;
	snprintf(m->rows[j].result->recorded_note, sizeof(m->rows[j].result->recorded_note), H200_NOTE);
	char script[256];
	snprintf(script, sizeof(script), "%s%sr\n:dump roofline_measured.txt\nj\n:dump roofline_recorded.txt\n", k ? "g\n" : "",
		 k ? (k == 1 ? "j\n" : k == 2 ? "j j\n" : "j j j\n") : "");
	const char *dir = run_script(m, script, 100, 24, 1);
	golden(dir, "roofline_measured.txt");
	char *t = dump_of(dir, "roofline_measured.txt");
	CHECK_CONTAINS(t, "moves 3.1x the bytes it needs");
	CHECK_CONTAINS(t, "o ideal ([roofline] counts)  x DRAM (profile counters; L: all)  r recorded elsewhere");
	CHECK_CONTAINS(t, "(datasheet ceilings)");
	/* measured intensity is the ideal one / 3.1 */
	rung_row_metrics mx;
	rung_row_metrics_get(&mx, m, k, rung_model_baseline(m));
	char want[64];
	snprintf(want, sizeof(want), "; DRAM %.1f FLOP/B", mx.intensity / 3.1);
	CHECK_CONTAINS(t, want);
	free(t);
	t = dump_of(dir, "roofline_recorded.txt");
	CHECK_CONTAINS(t, "(" H200_NOTE ")");
	free(t);
	rung_model_free(m);
}

static void test_task_key_one_task(void)
{
	rung_model *m = demo_model(3);
	const char *dir = run_script(m, "T\n:dump t.txt\n", 80, 8, 1);
	char *t = dump_of(dir, "t.txt");
	CHECK_CONTAINS(t, "one task in this repository");
	free(t);
	rung_model_free(m);
}

/* One `rung export` line for a passing result at `commit`, as recorded on an H200. */
static char *export_line(const char *key, const char *commit, double median)
{
	rung_result r;
	rung_result_init(&r);
	snprintf(r.key, sizeof(r.key), "%s", key);
	r.created = 1764417600; /* 2025-11-29 12:00 UTC */
	for (int s = RUNG_STEP_COMPILE; s <= RUNG_STEP_BENCH; s++)
		r.steps[s].status = RUNG_S_OK;
	r.bench.valid = true;
	r.bench.median = median;
	r.env.valid = true;
	snprintf(r.env.gpu, sizeof(r.env.gpu), "NVIDIA H200");
	char *rj = rung_result_to_json(&r);
	json_t *o = json_object();
	json_object_set_new(o, "rung_export", json_integer(1));
	json_object_set_new(o, "content", json_string(key));
	json_t *cs = json_array();
	json_array_append_new(cs, json_string(commit));
	json_object_set_new(o, "commits", cs);
	json_object_set_new(o, "result", json_loads(rj, 0, NULL));
	char *line = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	free(rj);
	rung_result_clear(&r);
	return line;
}

/* The git backend on the demo repository: recorded rows labelled, the task
 * key, and auto-evaluation saying there is no GPU here (a worker process is
 * asked; this machine has no driver). */
static void test_git_demo(void)
{
	char dir[600];
	snprintf(dir, sizeof(dir), "%s/demo", t_tmpdir());
	rung_demo_plan p;
	CHECK_INT(rung_demo_plan_load(&p), 0);
	rung_demo_report rep;
	p.skip_recorded = true; /* only the made-up recorded lines below */
	CHECK_INT(rung_demo_build(&rep, &p, dir, "demo"), 0);
	const char *c1 = NULL, *c2 = NULL;
	for (int i = 0; i < p.nsteps; i++)
		if (!strcmp(p.steps[i].task, "sgemm")) {
			if (!c1)
				c1 = p.steps[i].commit;
			else if (!c2)
				c2 = p.steps[i].commit;
		}
	rung_vctx c;
	rung_vctx_opts o = {.dir = dir, .task = "sgemm"};
	CHECK_INT(rung_vctx_open(&c, "demo", &o, RUNG_VCTX_TASK | RUNG_VCTX_STORE), 0);
	char *l1 = export_line("1111111111111111111111111111111111111111111111111111111111111111", c1, 400.0);
	char *l2 = export_line("2222222222222222222222222222222222222222222222222222222222222222", c2, 100.0);
	char buf[32768];
	snprintf(buf, sizeof(buf), "%s\n%s\n", l1, l2);
	free(l1);
	free(l2);
	FILE *in = fmemopen(buf, strlen(buf), "r");
	int n = 0;
	CHECK_INT(rung_import_stream(&n, c.store, in, "rec.jsonl"), 0);
	fclose(in);
	CHECK_INT(n, 2);
	rung_vctx_close(&c);

	/* rung log shows them too, labelled, with their delta among recorded ones */
	char *log = NULL;
	CHECK_INT(t_sh(&log, "'%s' log -C '%s' --task sgemm 2>&1", RUNG_BIN, dir), 0);
	CHECK_CONTAINS(log, H200_NOTE " (not measured here)");
	char want[160];
	snprintf(want, sizeof(want), "%.7s", c2);
	CHECK_CONTAINS(log, want);
	CHECK_CONTAINS(log, "-75.0%");
	free(log);
	/* --json gives them apart from the live result, which stays null */
	CHECK_INT(t_sh(&log, "'%s' log --json -C '%s' --task sgemm 2>&1", RUNG_BIN, dir), 0);
	CHECK_CONTAINS(log, "\"result\":null,\"recorded\":{");
	CHECK_CONTAINS(log, "\"recorded_note\":\"" H200_NOTE "\"");
	free(log);

	setenv("RUNG_WORKER_EXE", RUNG_BIN, 1);
	setenv("RUNG_EXE", RUNG_BIN, 1);
	rung_model *m = NULL;
	CHECK_INT(rung_model_git_new(&m, dir, "sgemm"), 0);
	if (!m) {
		rung_demo_plan_clear(&p);
		return;
	}
	/* the first frame's rows come before their results (#28, first frame
	 * against tig): pending, with no result of either kind yet and no
	 * counts; the recorded ones follow (RUNG_EV_FILL) */
	CHECK(m->filling);
	CHECK(m->nrows == 11 && m->rows[0].pending && m->rows[10].pending);
	for (int i = 0; i < m->nrows; i++)
		CHECK(m->rows[i].pending && !m->rows[i].result && !m->rows[i].recorded);
	CHECK(isnan(m->ceil.fp32_flop_s));
	rung_model_free(m);
	m = NULL;
	CHECK_INT(git_model_filled(&m, dir, "sgemm"), 0);
	if (!m) {
		rung_demo_plan_clear(&p);
		return;
	}
	CHECK(!m->filling);
	for (int i = 0; i < m->nrows; i++)
		CHECK(!m->rows[i].pending);
	CHECK_INT(m->ntasks, 2);
	CHECK_STR(m->tasks[0], "sgemm");
	CHECK_STR(m->tasks[1], "softmax");
	CHECK_INT(m->task, 0);
	int i1 = rung_model_find(m, c1), i2 = rung_model_find(m, c2);
	CHECK(i1 >= 0 && i2 >= 0);
	if (i1 >= 0 && i2 >= 0) {
		CHECK(rung_model_row_is_recorded(&m->rows[i1]));
		CHECK(rung_model_row_is_recorded(&m->rows[i2]));
		CHECK_STR(m->rows[i2].result->recorded_note, H200_NOTE);
		rung_row_metrics mx;
		rung_row_metrics_get(&mx, m, i2, rung_model_baseline(m));
		CHECK_INT(rung_model_baseline(m), i1); /* its baseline verdict */
		CHECK_NEAR(mx.delta, -0.75, 1e-12);    /* recorded 100 against recorded 400 */
	}
	CHECK_INT(rung_model_auto_evaluate(m, RUNG_AUTO_MISSING, RUNG_AUTO_NONE), 0);
	const char *d = run_script(m,
				   ":wait\n:dump git_versions.txt\nG\n:dump git_base.txt\na k b\nT\n:dump git_softmax.txt\n"
				   "T\n:dump git_back.txt\n",
				   110, 20, 1);
	char *t = dump_of(d, "git_versions.txt");
	CHECK_CONTAINS(t, "rung sgemm (task 1/2, T switches): 11 versions, 0 evaluated, 2 recorded");
	CHECK_CONTAINS(t, "no GPU: showing recorded results");
	CHECK_CONTAINS(t, "rrrr");
	free(t);
	t = dump_of(d, "git_base.txt"); /* the oldest version, selected: recorded, labelled */
	CHECK_CONTAINS(t, H200_NOTE "; no GPU: showing recorded results");
	free(t);
	t = dump_of(d, "git_softmax.txt");
	CHECK_CONTAINS(t, "rung softmax (task 2/2, T switches): 5 versions, 0 evaluated");
	CHECK(!strstr(t, "recorded on"));
	free(t);
	t = dump_of(d, "git_back.txt");
	CHECK_CONTAINS(t, "rung sgemm (task 1/2, T switches): 11 versions, 0 evaluated, 2 recorded");
	/* T T keeps the task's compare marks (a: the oldest, b: the next) and its selection */
	char id1[16], id2[16];
	snprintf(id1, sizeof(id1), "%.7s", c1);
	snprintf(id2, sizeof(id2), "%.7s", c2);
	const char *r1 = t ? strstr(t, id1) : NULL, *r2 = t ? strstr(t, id2) : NULL;
	CHECK(r1 && r1 - t >= 5 && r1[-4] == 'a' && r1[-5] == '\n');
	CHECK(r2 && r2 - t >= 5 && r2[-4] == 'b' && r2[-5] == '\n');
	CHECK_CONTAINS(t, " 10/11\n");
	free(t);
	t = dump_of(d, "git_softmax.txt"); /* the other task has marks of its own: none yet */
	CHECK(t && !strstr(t, "\na ") && !strstr(t, "\nb "));
	free(t);
	CHECK_INT(rung_key_request('T'), RUNG_REQ_NEXT_TASK);
	/* launch geometry from each version's `// rung:` line at [dims] (4096^3) */
	const char *c8 = NULL;
	for (int i = 0; i < p.nsteps; i++)
		if (!strcmp(p.steps[i].step, "08-tf32-mma"))
			c8 = p.steps[i].commit;
	rung_geom g;
	CHECK_INT(rung_model_launch(&g, m, c1), 0); /* 01-naive: cdiv(M,32), cdiv(N,32); 32, 32; smem 0 */
	CHECK_INT(g.grid[0], 128);
	CHECK_INT(g.block[0] * g.block[1], 1024);
	CHECK_INT(g.smem, 0);
	CHECK(c8 != NULL);
	if (c8) {
		CHECK_INT(rung_model_launch(&g, m, c8), 0);
		CHECK_INT(g.block[0] * g.block[1] * g.block[2], 256);
		CHECK_INT(g.smem, 71680);
	}
	CHECK(rung_model_launch(&g, m, "0000000000000000000000000000000000000000") < 0);
	/* the made-up recorded results carry no compile info: occupancy unknown */
	rung_occupancy oc;
	CHECK(rung_row_occupancy(&oc, m, i1) < 0);
	/* E evaluates only versions without a live result: all 11, recorded ones included */
	CHECK_INT(rung_model_evaluate_missing(m), 11);
	rung_model_free(m); /* stops the evaluations' thread after the current one */
	unsetenv("RUNG_WORKER_EXE");
	unsetenv("RUNG_EXE");
	rung_demo_plan_clear(&p);
}

/* The roofline screen's ceilings are the guard's (one arch parse, one rule):
 * an sm_100 result gets the B200 datasheet ones (sm_100 is 10.0, not 1.0),
 * and a stored measured ceiling replaces the datasheet's only where higher.
 * B200-like: 148 SMs at 1965 MHz, 4000 MHz memory on 8192 bits:
 *   FP32 = 148 * 1.965e9 * 2 * 128 = 74.45 TFLOP/s, DRAM = 2 * 4000e6 * 8192 / 8
 *   = 8.192 TB/s, f16 tensor = 148 * 1.965e9 * 8192 = 2.382 PFLOP/s. */
static void test_roofline_ceilings_sm100(void)
{
	char dir[600];
	snprintf(dir, sizeof(dir), "%s/sm100", t_tmpdir());
	char *ini = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/rung.ini", NULL);
	char *ker = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/sgemm.cu", NULL);
	char *ref = t_slurp(RUNG_TEST_DIR "/tasks/sgemm/reference.cu", NULL);
	CHECK(ini && ker && ref);
	git_repository *g = gf_init(dir);
	git_oid c1;
	const char *files[] = {"sgemm/rung.ini", ini, "sgemm/sgemm.cu", ker, "sgemm/reference.cu", ref, NULL};
	CHECK_INT(gf_commit(&c1, g, "HEAD", NULL, -1, GF_T0, "naive", files), 0);
	char hex[41];
	gf_hex(hex, &c1);
	rung_result r;
	rung_result_init(&r);
	snprintf(r.key, sizeof(r.key), "%064d", 1);
	r.created = GF_T0;
	for (int s = RUNG_STEP_COMPILE; s <= RUNG_STEP_BENCH; s++)
		r.steps[s].status = RUNG_S_OK;
	r.bench.valid = true;
	r.bench.median = 0.01;
	r.env.valid = true;
	snprintf(r.env.gpu, sizeof(r.env.gpu), "NVIDIA B200");
	snprintf(r.env.uuid, sizeof(r.env.uuid), "GPU-b200");
	snprintf(r.env.arch, sizeof(r.env.arch), "sm_100");
	r.env.sms = 148;
	r.env.sm_clock_mhz = 1965;
	r.env.mem_clock_mhz = 4000;
	r.env.bus_width = 8192;
	rung_repo *repo = NULL;
	rung_store *st = NULL;
	CHECK_INT(rung_repo_open(&repo, dir), 0);
	CHECK_INT(rung_store_open_repo(&st, repo), 0);
	CHECK_INT(rung_store_put(st, &r, r.key, hex), 0);
	rung_store_close(st);

	double fp32 = 148 * 1.965e9 * 2 * 128, dram = 2 * 4000e6 * 8192 / 8, f16 = 148 * 1.965e9 * 8192;
	rung_model *m = NULL;
	CHECK_INT(git_model_filled(&m, dir, "sgemm"), 0);
	if (m) {
		CHECK_STR(m->ceil.source, "datasheet");
		CHECK_NEAR(m->ceil.fp32_flop_s, fp32, 1);
		CHECK_NEAR(m->ceil.bw_bytes_s, dram, 1);
		CHECK_NEAR(m->ceil.tensor_flop_s, f16, 1);
		const char *d = run_script(m, "r\n:dump sm100_roofline.txt\n", 100, 20, 1);
		char *t = dump_of(d, "sm100_roofline.txt");
		CHECK_CONTAINS(t, "(datasheet ceilings)");
		CHECK(t && !strstr(t, "no roofline ceilings known"));
		CHECK_CONTAINS(t, " DRAM 8.19 TB/s ");
		CHECK_CONTAINS(t, " FP32 74.4 TFLOP/s");
		free(t);
		rung_model_free(m);
	}

	/* measured: FP32 above the datasheet's (taken), DRAM below it (not taken), as the guard does */
	rung_ceilings mc;
	rung_ceilings_init(&mc);
	mc.fp32.value = 80e12;
	mc.fp32.src = RUNG_CEIL_MEASURED;
	mc.dram.value = 7.7e12;
	mc.dram.src = RUNG_CEIL_MEASURED;
	CHECK_INT(rung_store_open_repo(&st, repo), 0);
	CHECK_INT(rung_store_put_ceilings(st, &r.env, &mc, GF_T0), 0);
	rung_store_close(st);
	rung_ceilings guard;
	rung_ceilings_guard(&guard, &r.env, &mc);
	m = NULL;
	CHECK_INT(git_model_filled(&m, dir, "sgemm"), 0);
	if (m) {
		CHECK_STR(m->ceil.source, "measured");
		CHECK_NEAR(m->ceil.fp32_flop_s, 80e12, 1);
		CHECK_NEAR(m->ceil.bw_bytes_s, dram, 1);
		CHECK_NEAR(m->ceil.bw_bytes_s, guard.dram.value, 0);
		CHECK_NEAR(m->ceil.fp32_flop_s, guard.fp32.value, 0);
		rung_model_free(m);
	}
	rung_result_clear(&r);
	rung_repo_free(repo);
	git_repository_free(g);
	free(ini);
	free(ker);
	free(ref);
}

/* Counts agree with their number ("1 version", "1 hunk") and the WORKTREE row's
 * name is not cut to the 7 columns of a short hash ("WORKTRE"). */
static void test_plurals_worktree(void)
{
	rung_model *m = NULL;
	CHECK_INT(rung_model_mem_new(&m), 0);
	rung_model_row r = {0};
	snprintf(r.hash, sizeof(r.hash), "WORKTREE");
	snprintf(r.subject, sizeof(r.subject), "(uncommitted changes)");
	CHECK_INT(rung_model_mem_add(m, &r), 0);
	snprintf(m->title, sizeof(m->title), "sgemm");
	const char *dir = run_script(m, ":dump one.txt\n<Enter>\n:dump one_detail.txt\n", 80, 8, 0);
	char *s = dump_of(dir, "one.txt");
	CHECK_CONTAINS(s, "rung sgemm: 1 version, 0 evaluated");
	CHECK_CONTAINS(s, "  WORKTREE (uncommitted changes)");
	free(s);
	s = dump_of(dir, "one_detail.txt");
	CHECK(s && !strncmp(s, "WORKTREE (uncommitted changes)", 30));
	free(s);
	rung_model_free(m);
	/* a diff of one hunk */
	m = demo_model(12);
	dir = run_script(m, "G a g j j b c t\n:dump hunk.txt\n", 100, 40, 0);
	s = dump_of(dir, "hunk.txt");
	CHECK_CONTAINS(s, "source diff a -> b: 1 hunk, +");
	free(s);
	rung_model_free(m);
}

/* A verdict key on the steer screen keeps the version's note (it showed
 * "note: (none)" until R, though the note was still in git). */
static void test_verdict_keeps_note(void)
{
	rung_model *m = demo_model(6);
	char hash[41];
	snprintf(hash, sizeof(hash), "%s", m->rows[2].hash);
	CHECK_INT(rung_model_set_note(m, hash, RUNG_VERDICT_NONE, "try float4 loads"), 0);
	CHECK_STR(m->rows[2].note, "try float4 loads");
	CHECK_INT(rung_model_set_note(m, hash, RUNG_VERDICT_KEEP, ""), 0);
	CHECK_INT(m->rows[2].verdict, RUNG_VERDICT_KEEP);
	CHECK_STR(m->rows[2].note, "try float4 loads");
	rung_model_free(m);
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	setenv("TERM", "xterm-256color", 1);
	setenv("LC_ALL", "C.UTF-8", 1);
	unsetenv("NO_COLOR");
	setlocale(LC_ALL, "");
	if (strcmp(nl_langinfo(CODESET), "UTF-8")) {
		fprintf(stderr, "no UTF-8 locale (C.UTF-8): skipping\n");
		return T_SKIP;
	}
	T_RUN(test_sanitize);
	T_RUN(test_theme_files);
	T_RUN(test_theme_errors);
	T_RUN(test_theme_choose);
	T_RUN(test_config_auto_eval);
	T_RUN(test_color_reduce);
	T_RUN(test_keymap_help);
	T_RUN(test_events_threaded);
	T_RUN(test_textdiff);
	T_RUN(test_screen_versions);
	T_RUN(test_versions_widths);
	T_RUN(test_marks_distinct);
	T_RUN(test_screen_ascii);
	T_RUN(test_screen_suspect);
	T_RUN(test_screen_detail);
	T_RUN(test_screen_compare);
	T_RUN(test_compare_occupancy);
	T_RUN(test_screen_roofline);
	T_RUN(test_screen_steer);
	T_RUN(test_steer_directives);
	T_RUN(test_screen_help);
	T_RUN(test_tiny_and_resize);
	T_RUN(test_colour_roles);
	T_RUN(test_escapes);
	T_RUN(test_detail_output);
	T_RUN(test_live_update);
	T_RUN(test_gate_best);
	T_RUN(test_plot_screen);
	T_RUN(test_sort_mouse);
	T_RUN(test_search_highlight);
	T_RUN(test_script_errors);
	T_RUN(test_recorded_model);
	T_RUN(test_recorded_screens);
	T_RUN(test_roofline_measured);
	T_RUN(test_counter_units);
	T_RUN(test_roofline_ceilings_sm100);
	T_RUN(test_task_key_one_task);
	T_RUN(test_git_demo);
	T_RUN(test_inputs_shown);
	T_RUN(test_detail_metrics_from_table);
	T_RUN(test_max_rel_one_number);
	T_RUN(test_verdict_keeps_note);
	T_RUN(test_plurals_worktree);
	return t_done();
}
