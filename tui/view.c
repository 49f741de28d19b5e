/* The main loop, view stack, keymap, status bar, prompt, scripts and dumps. */
#define _GNU_SOURCE /* strcasestr */
#include "tui/view.h"

#include "app/goal.h"

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include "core/err.h"
#include "core/timing.h"
#include "tui/draw.h"

/* ---- requests and keys ------------------------------------------------- */

typedef struct {
	const char *name, *group, *help;
	int keys[3];
} req_info;

static const req_info req_table[RUNG_NREQS] = {
	[RUNG_REQ_NONE] = {"none", "", "", {0, 0, 0}},
#define RUNG_REQ_INFO(id, name, group, k1, k2, k3, help) [RUNG_REQ_##id] = {name, group, help, {k1, k2, k3}},
	RUNG_REQ_LIST(RUNG_REQ_INFO)
#undef RUNG_REQ_INFO
};

const char *rung_request_name(rung_request r)
{
	return (unsigned)r < RUNG_NREQS ? req_table[r].name : "?";
}

rung_request rung_key_request(int key)
{
	if (!key)
		return RUNG_REQ_NONE;
	for (int r = 1; r < RUNG_NREQS; r++)
		for (int k = 0; k < 3; k++)
			if (req_table[r].keys[k] == key)
				return (rung_request)r;
	return RUNG_REQ_NONE;
}

static const struct {
	int key;
	const char *name;
} key_names[] = {
	{RUNG_KEY_ENTER, "Enter"}, {KEY_ENTER, "Enter"}, {'\n', "Enter"}, {RUNG_KEY_ESC, "Esc"}, {RUNG_KEY_TAB, "Tab"},
	{' ', "Space"}, {KEY_UP, "Up"}, {KEY_DOWN, "Down"}, {KEY_LEFT, "Left"}, {KEY_RIGHT, "Right"},
	{KEY_NPAGE, "PgDn"}, {KEY_PPAGE, "PgUp"}, {KEY_HOME, "Home"}, {KEY_END, "End"},
	{KEY_BACKSPACE, "Backspace"}, {127, "Backspace"}, {KEY_RESIZE, "Resize"},
};

const char *rung_key_name(int key, char *buf, int len)
{
	for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (key_names[i].key == key)
			return key_names[i].name;
	if (key > 0 && key < 32)
		snprintf(buf, (size_t)len, "Ctrl-%c", key + 'A' - 1);
	else if (key >= 32 && key < 127)
		snprintf(buf, (size_t)len, "%c", key);
	else
		snprintf(buf, (size_t)len, "key-%d", key);
	return buf;
}

int rung_key_parse(const char *tok)
{
	size_t n = strlen(tok);
	if (n == 1)
		return (unsigned char)tok[0];
	if (n < 3 || tok[0] != '<' || tok[n - 1] != '>')
		return -1;
	char name[32];
	snprintf(name, sizeof(name), "%.*s", (int)(n - 2), tok + 1);
	if ((name[0] == 'C' || name[0] == 'c') && name[1] == '-' && name[2] && !name[3])
		return RUNG_CTRL(name[2]);
	if (!strcmp(name, "lt"))
		return '<';
	for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (!strcasecmp(key_names[i].name, name))
			return key_names[i].key;
	return -1;
}

void rung_help_each(rung_help_fn fn, void *ud)
{
	for (int r = 1; r < RUNG_NREQS; r++) {
		char keys[64] = "", kb[16];
		for (int k = 0; k < 3; k++) {
			int key = req_table[r].keys[k];
			if (!key)
				continue;
			const char *kn = rung_key_name(key, kb, sizeof(kb));
			if (strstr(keys, kn))
				continue;
			if (*keys)
				strncat(keys, ", ", sizeof(keys) - strlen(keys) - 1);
			strncat(keys, kn, sizeof(keys) - strlen(keys) - 1);
		}
		fn(ud, req_table[r].group, keys, req_table[r].name, req_table[r].help);
	}
}

typedef struct {
	rung_lines *out;
	const char *group;
} help_lines_ctx;

static void help_line(void *ud, const char *group, const char *keys, const char *name, const char *help)
{
	help_lines_ctx *x = ud;
	if (!x->group || strcmp(x->group, group)) {
		x->group = group;
		if (x->out->n)
			rung_lines_add(x->out, RUNG_ROLE_DEFAULT, "%s", "");
		rung_lines_add(x->out, RUNG_ROLE_HEADER, "%s", group);
	}
	rung_lines_new(x->out);
	rung_lines_seg(x->out, RUNG_ROLE_KEY, "  %-14s", keys);
	rung_lines_seg(x->out, RUNG_ROLE_DEFAULT, " %-18s ", name);
	rung_lines_seg(x->out, RUNG_ROLE_DIM, "%s", help);
}

void rung_help_lines(rung_lines *out)
{
	help_lines_ctx x = {out, NULL};
	rung_help_each(help_line, &x);
	/* what the versions table's glyphs mean, drawn as the table draws them */
	rung_lines_add(out, RUNG_ROLE_DEFAULT, "%s", "");
	rung_lines_add(out, RUNG_ROLE_HEADER, "%s", "Versions table");
	char steps[64];
	snprintf(steps, sizeof(steps), "%s %s %s %s %s %s %s", rung_glyph(RUNG_G_OK), rung_glyph(RUNG_G_CACHED),
		 rung_tui_utf8 ? "\u25cb" : "r", rung_glyph(RUNG_G_FAILED), rung_glyph(RUNG_G_RUNNING),
		 rung_glyph(RUNG_G_PENDING), rung_glyph(RUNG_G_SKIPPED));
	const struct {
		rung_role role;
		const char *glyph, *text;
	} legend[] = {
		{RUNG_ROLE_MARK, "a, b", "marked for compare (keys a and b; c compares them)"},
		{RUNG_ROLE_BEST, rung_glyph(RUNG_G_BEST), "the best (fastest passing) version"},
		{RUNG_ROLE_BEST, rung_glyph(RUNG_G_BEST_PROV), "the best, provisional: no version has passed the sanitizer yet"},
		{RUNG_ROLE_BASELINE, rung_glyph(RUNG_G_BASELINE), "the baseline that 'vs base' is measured against"},
		{RUNG_ROLE_SUSPECT, rung_glyph(RUNG_G_SUSPECT), "suspect: evidence that it may fool the bench"},
		{RUNG_ROLE_NOTE, rung_glyph(RUNG_G_NOTE), "has a note"},
		{RUNG_ROLE_OK, steps, "CRKB rungs: ok, reused, recorded, failed, running, pending, skipped"},
	};
	for (size_t i = 0; i < sizeof(legend) / sizeof(legend[0]); i++) {
		int pad = 14 - rung_tui_width(legend[i].glyph);
		rung_lines_new(out);
		rung_lines_seg(out, RUNG_ROLE_DEFAULT, "%s", "  ");
		rung_lines_seg(out, legend[i].role, "%s", legend[i].glyph);
		rung_lines_seg(out, RUNG_ROLE_DEFAULT, "%*s %s", pad > 0 ? pad : 0, "", legend[i].text);
	}
	rung_lines_add(out, RUNG_ROLE_DEFAULT, "%s", "");
	rung_lines_add(out, RUNG_ROLE_HEADER, "%s", "Mouse");
	rung_lines_add(out, RUNG_ROLE_DEFAULT, "%s", "  click          select the line under the pointer");
	rung_lines_add(out, RUNG_ROLE_DEFAULT, "%s", "  wheel          scroll (the roofline: the next or previous version)");
}

/* ---- views ------------------------------------------------------------- */

static const rung_view_ops *const screen_ops[RUNG_NSCREENS] = {
#define RUNG_SCREEN_OPS(id, name, title) [RUNG_SCREEN_##id] = &rung_screen_##name##_ops,
	RUNG_SCREEN_LIST(RUNG_SCREEN_OPS)
#undef RUNG_SCREEN_OPS
};

rung_view *rung_tui_current(rung_tui *t)
{
	return t->depth ? t->stack[t->depth - 1] : NULL;
}

int rung_view_rows(const rung_view *v)
{
	int r = v->height - v->top;
	return r > 0 ? r : 0;
}

void rung_view_clamp(rung_view *v)
{
	int rows = rung_view_rows(v);
	if (rows < 1)
		rows = 1;
	if (v->pager) {
		int max = v->nlines - rows;
		if (max < 0)
			max = 0;
		if (v->offset > max)
			v->offset = max;
		if (v->offset < 0)
			v->offset = 0;
		v->cursor = v->offset;
		return;
	}
	if (v->cursor >= v->nlines)
		v->cursor = v->nlines - 1;
	if (v->cursor < 0)
		v->cursor = 0;
	if (v->cursor < v->offset)
		v->offset = v->cursor;
	if (v->cursor >= v->offset + rows)
		v->offset = v->cursor - rows + 1;
	int max = v->nlines - rows;
	if (v->offset > max)
		v->offset = max > 0 ? max : 0;
	if (v->offset < 0)
		v->offset = 0;
}

static void layout(rung_tui *t)
{
	t->lines = LINES;
	t->cols = COLS;
	int vh = t->lines - 1;
	if (vh < 1)
		vh = 1;
	if (t->status)
		delwin(t->status);
	t->status = newwin(1, t->cols, t->lines > 1 ? t->lines - 1 : 0, 0);
	for (int i = 0; i < t->depth; i++) {
		rung_view *v = t->stack[i];
		if (v->win)
			delwin(v->win);
		v->win = newwin(vh, t->cols, 0, 0);
		v->height = vh;
		v->width = t->cols;
		if (v->win) {
			keypad(v->win, TRUE);
			wbkgdset(v->win, ' ' | rung_tui_attr(RUNG_ROLE_DEFAULT));
		}
		rung_view_clamp(v);
	}
	if (t->status) {
		/* keys are read from the status window: a new one needs the same modes, or the
		 * next wget_wch blocks (and decodes no function keys) after a resize */
		keypad(t->status, TRUE);
		nodelay(t->status, TRUE);
		wbkgdset(t->status, ' ' | rung_tui_attr(RUNG_ROLE_STATUS));
	}
	t->view_dirty = t->status_dirty = true;
}

static int view_open(rung_view *v)
{
	int err = v->ops->open ? v->ops->open(v) : 0;
	v->generation = v->tui->model->generation;
	rung_view_clamp(v);
	return err;
}

int rung_tui_open_view(rung_tui *t, rung_screen_id id)
{
	/* raise an open screen instead of stacking a second copy */
	for (int i = 0; i < t->depth; i++)
		if (t->stack[i]->id == id) {
			rung_view *v = t->stack[i];
			memmove(&t->stack[i], &t->stack[i + 1], (size_t)(t->depth - i - 1) * sizeof(v));
			t->stack[t->depth - 1] = v;
			int err = view_open(v);
			t->view_dirty = t->status_dirty = true;
			return err;
		}
	if (t->depth == (int)(sizeof(t->stack) / sizeof(t->stack[0])))
		return rung_error_set(RUNG_EINVAL, "too many views open");
	rung_view *v = calloc(1, sizeof(*v));
	if (!v)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	v->ops = screen_ops[id];
	v->id = id;
	v->tui = t;
	v->top = 1;
	v->height = t->lines > 1 ? t->lines - 1 : 1;
	v->width = t->cols;
	v->win = newwin(v->height, v->width, 0, 0);
	if (v->win) {
		keypad(v->win, TRUE);
		wbkgdset(v->win, ' ' | rung_tui_attr(RUNG_ROLE_DEFAULT));
	}
	t->stack[t->depth++] = v;
	int err = view_open(v);
	t->view_dirty = t->status_dirty = true;
	return err;
}

static void view_close(rung_tui *t)
{
	rung_view *v = rung_tui_current(t);
	if (!v)
		return;
	if (v->ops->done)
		v->ops->done(v);
	if (v->win)
		delwin(v->win);
	free(v);
	t->depth--;
	if (!t->depth)
		t->quit = true;
	else
		view_open(rung_tui_current(t));
	t->view_dirty = t->status_dirty = true;
}

void rung_tui_message(rung_tui *t, bool error, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(t->message, sizeof(t->message), fmt, ap);
	va_end(ap);
	t->message_error = error;
	t->message_queued = t->message_reload = false;
	t->status_dirty = true;
}

void rung_tui_prompt(rung_tui *t, const char *label, const char *initial,
		     void (*done)(rung_tui *t, const char *text, bool ok))
{
	t->prompting = true;
	snprintf(t->prompt_label, sizeof(t->prompt_label), "%s", label);
	snprintf(t->prompt_buf, sizeof(t->prompt_buf), "%s", initial ? initial : "");
	t->prompt_len = (int)strlen(t->prompt_buf);
	t->prompt_done = done;
	t->status_dirty = true;
}

int rung_tui_selected_row(rung_tui *t)
{
	int i = t->sel[0] ? rung_model_find(t->model, t->sel) : -1;
	if (i < 0 && t->model->nrows > 0)
		i = 0;
	return i;
}

void rung_tui_switch_marks(rung_tui *t, int from, int to)
{
	int need = (from > to ? from : to) + 1;
	if (need > t->ntask_marks) {
		struct rung_task_marks *nm = realloc(t->task_marks, (size_t)need * sizeof(*nm));
		if (nm) {
			memset(nm + t->ntask_marks, 0, (size_t)(need - t->ntask_marks) * sizeof(*nm));
			t->task_marks = nm;
			t->ntask_marks = need;
		}
	}
	if (from >= 0 && from < t->ntask_marks) {
		struct rung_task_marks *k = &t->task_marks[from];
		snprintf(k->sel, sizeof(k->sel), "%s", t->sel);
		snprintf(k->a, sizeof(k->a), "%s", t->mark_a);
		snprintf(k->b, sizeof(k->b), "%s", t->mark_b);
	}
	t->sel[0] = t->mark_a[0] = t->mark_b[0] = 0;
	if (to >= 0 && to < t->ntask_marks) {
		const struct rung_task_marks *k = &t->task_marks[to];
		snprintf(t->sel, sizeof(t->sel), "%s", k->sel);
		snprintf(t->mark_a, sizeof(t->mark_a), "%s", k->a);
		snprintf(t->mark_b, sizeof(t->mark_b), "%s", k->b);
	}
}

void rung_tui_select_row(rung_tui *t, int row)
{
	if (row >= 0 && row < t->model->nrows)
		snprintf(t->sel, sizeof(t->sel), "%s", t->model->rows[row].hash);
}

void rung_view_draw_title(rung_view *v, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	static const char *const titles[] = {
#define RUNG_SCREEN_TITLE(id, name, title) title,
		RUNG_SCREEN_LIST(RUNG_SCREEN_TITLE)
#undef RUNG_SCREEN_TITLE
	};
	char right[48];
	snprintf(right, sizeof(right), "[%s]", titles[v->id]);
	rung_tui_fill(v->win, 0, 0, v->width, RUNG_ROLE_TITLE);
	int rw = (int)strlen(right);
	int lw = v->width - rw - 1;
	/* the stop rule's state, where the task has a [goal] or the person said done */
	const rung_model *mo = v->tui->model; /* no stop rule while results are read, or when they could not be */
	const rung_goal_status *gs = mo->filling || mo->fill_failed ? NULL : rung_model_goal(v->tui->model);
	if (gs && (gs->has_goal || gs->done.in_force)) {
		char st[160], plain[512];
		int tw = rung_tui_sanitize(plain, sizeof(plain), buf, -1, 0);
		rung_goal_short(st, sizeof(st), gs);
		if (tw + 2 + rung_tui_width(st) + 2 + rw > v->width) /* the title keeps all its room: the state alone */
			snprintf(st, sizeof(st), "%s%s", gs->state != RUNG_STOP_CONTINUE ? "STOP: " : "CONTINUE",
				 gs->state != RUNG_STOP_CONTINUE ? rung_stop_name(gs->state) : "");
		int sw = rung_tui_width(st), sx = v->width - rw - 2 - sw;
		if (sx >= tw + 2) {
			rung_tui_draw(v->win, 0, sx, sw, gs->state != RUNG_STOP_CONTINUE ? RUNG_ROLE_BEST : RUNG_ROLE_TITLE, st);
			lw = sx - 2;
		}
	}
	rung_tui_draw_cut(v->win, 0, 0, lw > 0 ? lw : v->width, RUNG_ROLE_TITLE, buf);
	if (lw > 0)
		rung_tui_draw(v->win, 0, v->width - rw, rw, RUNG_ROLE_TITLE, right);
}

/* ---- status bar ------------------------------------------------------- */

/* Seconds between redraws of a pool's workers on the status bar. */
#define RUNG_TUI_WORKERS_S 0.25

static void draw_status(rung_tui *t)
{
	WINDOW *w = t->status;
	if (!w)
		return;
	werase(w);
	rung_tui_fill(w, 0, 0, t->cols, RUNG_ROLE_STATUS);
	if (t->prompting) {
		int x = rung_tui_draw(w, 0, 0, t->cols, RUNG_ROLE_STATUS, t->prompt_label);
		x += rung_tui_draw(w, 0, x, t->cols - x, RUNG_ROLE_INPUT, t->prompt_buf);
		wnoutrefresh(w);
		return;
	}
	rung_model *m = t->model;
	char left[1024] = "";
	rung_role role = RUNG_ROLE_STATUS;
	if (t->message[0]) {
		snprintf(left, sizeof(left), "%s", t->message);
		if (t->message_error)
			role = RUNG_ROLE_ERROR;
	} else if (m->queue_total > 0) {
		if (m->queue_hash[0] && m->queue_step == RUNG_STEP_SANITIZE) /* S, or the gate before a best */
			snprintf(left, sizeof(left), "sanitizing %d/%d %.*s %.0f%%", m->queue_done + 1, m->queue_total,
				 RUNG_ID(m->queue_hash), m->queue_frac * 100);
		else if (m->queue_hash[0])
			snprintf(left, sizeof(left), "evaluating %d/%d %.*s %s %.0f%%", m->queue_done + 1, m->queue_total,
				 RUNG_ID(m->queue_hash), rung_step_name(m->queue_step), m->queue_frac * 100);
		else
			snprintf(left, sizeof(left), "evaluating %d/%d queued", m->queue_done + 1, m->queue_total);
		role = RUNG_ROLE_RUNNING;
	} else if (rung_tui_selected_row(t) >= 0 && rung_model_row_is_recorded(&m->rows[rung_tui_selected_row(t)])) {
		/* a recorded result is never taken for a live one: say so while it is selected */
		const rung_result *r = m->rows[rung_tui_selected_row(t)].result;
		snprintf(left, sizeof(left), "%.127s%s%.120s", r->recorded_note[0] ? r->recorded_note : "recorded on another machine",
			 m->message[0] ? "; " : "", m->message);
	} else if (m->message[0]) {
		snprintf(left, sizeof(left), "%s", m->message);
	} else {
		snprintf(left, sizeof(left), "? help");
	}
	rung_view *v = rung_tui_current(t);
	char right[64] = "";
	if (v && v->nlines > 0)
		snprintf(right, sizeof(right), " %d/%d", v->cursor + 1, v->nlines);
	int rw = (int)strlen(right);
	/* a pool's workers (rung tui --workers) while a batch runs: label, host,
	 * GPU, current job, done/failed each where the width allows, else label,
	 * job and done/failed */
	rung_model_worker wk[8];
	int nw = m->queue_total > 0 ? rung_model_workers(m, wk, 8) : 0;
	if (nw > 8)
		nw = 8;
	t->workers_shown = nw > 0;
	t->workers_drawn_at = rung_now_s();
	if (nw > 0) {
		char full[1024], brief[512];
		int fl = 0, bl = 0;
		for (int i = 0; i < nw; i++) {
			const rung_model_worker *k = &wk[i];
			const char *job = k->retired ? "retired" : k->waiting ? "waits for its GPU" : k->doing[0] ? k->doing : "idle";
			fl += snprintf(full + fl, sizeof(full) - (size_t)fl, "%s%s%s%s%s%s %s %d/%d", i ? " | " : "", k->label,
				       k->host[0] ? " " : "", k->host, k->gpu[0] ? " " : "", k->gpu, job, k->done, k->failed);
			if (fl >= (int)sizeof(full))
				fl = (int)sizeof(full) - 1;
			bl += snprintf(brief + bl, sizeof(brief) - (size_t)bl, "%s%s %s %d/%d", i ? " | " : "", k->label, job,
				       k->done, k->failed);
			if (bl >= (int)sizeof(brief))
				bl = (int)sizeof(brief) - 1;
		}
		size_t ll = strlen(left);
		int room = t->cols - rw - (rw ? 1 : 0) - (int)ll - 3;
		if (ll + 8 < sizeof(left) && snprintf(left + ll, sizeof(left) - ll, " · %.*s", (int)(sizeof(left) - ll - 6),
						      fl <= room ? full : brief) < 0)
			left[ll] = 0;
	}
	if (rw > t->cols / 2)
		rw = 0, right[0] = 0;
	rung_tui_draw_cut(w, 0, 0, t->cols - rw - (rw ? 1 : 0), role, left); /* a cut message says so */
	if (rw)
		rung_tui_draw(w, 0, t->cols - rw, rw, RUNG_ROLE_STATUS, right);
	wnoutrefresh(w);
}

/* ---- input ----------------------------------------------------------- */

static int move_cursor(rung_view *v, int delta)
{
	int oc = v->cursor, oo = v->offset;
	if (v->pager) {
		v->offset += delta;
	} else {
		v->cursor += delta;
	}
	rung_view_clamp(v);
	if (v->cursor != oc && v->ops->select)
		v->ops->select(v);
	return v->cursor != oc || v->offset != oo ? RUNG_R_REDRAW : RUNG_R_NONE;
}

static int find_match(rung_tui *t, int dir, bool include_current)
{
	rung_view *v = rung_tui_current(t);
	if (!v || !v->ops->line_text || !t->search[0] || v->nlines <= 0) {
		if (!t->search[0])
			rung_tui_message(t, false, "no search (press /)");
		return RUNG_R_NONE;
	}
	char buf[1024];
	int from = v->cursor; /* where the search starts */
	for (int k = include_current ? 0 : 1; k <= v->nlines; k++) {
		int i = ((from + dir * k) % v->nlines + v->nlines) % v->nlines;
		const char *s = v->ops->line_text(v, i, buf, sizeof(buf));
		if (s && strcasestr(s, t->search)) {
			if (v->pager)
				v->offset = i;
			else
				v->cursor = i;
			rung_view_clamp(v);
			if (v->ops->select)
				v->ops->select(v);
			/* past the last line (n) or the first (N): said, as less and vim do */
			bool wrapped = k > 0 && (dir > 0 ? i < from : i > from);
			const char *where = v->ops->match_where ? v->ops->match_where(v, i, t->search) : "";
			rung_tui_message(t, false, "/%s: line %d%s%s%s", t->search, i + 1, where[0] ? ", " : "", where,
					 k == 0 || !wrapped ? "" : dir > 0 ? " (search wrapped to the top)" : " (search wrapped to the bottom)");
			return RUNG_R_REDRAW;
		}
	}
	rung_tui_message(t, true, "no match for '%s'", t->search);
	return RUNG_R_NONE;
}

static void search_done(rung_tui *t, const char *text, bool ok)
{
	if (!ok)
		return;
	snprintf(t->search, sizeof(t->search), "%s", text);
	rung_view *v = rung_tui_current(t);
	if (t->filter && v && v->id == RUNG_SCREEN_VERSIONS)
		view_open(v);
	if (find_match(t, 1, true))
		t->view_dirty = true;
}

static int generic_request(rung_tui *t, rung_view *v, rung_request req)
{
	int rows = rung_view_rows(v);
	switch (req) {
	case RUNG_REQ_MOVE_DOWN:
		return move_cursor(v, 1);
	case RUNG_REQ_MOVE_UP:
		return move_cursor(v, -1);
	case RUNG_REQ_PAGE_DOWN:
		return move_cursor(v, rows > 1 ? rows : 1);
	case RUNG_REQ_PAGE_UP:
		return move_cursor(v, -(rows > 1 ? rows : 1));
	case RUNG_REQ_HALF_DOWN:
		return move_cursor(v, rows / 2 > 0 ? rows / 2 : 1);
	case RUNG_REQ_HALF_UP:
		return move_cursor(v, -(rows / 2 > 0 ? rows / 2 : 1));
	case RUNG_REQ_MOVE_FIRST:
		return move_cursor(v, -v->nlines - v->offset);
	case RUNG_REQ_MOVE_LAST:
		return move_cursor(v, v->nlines);
	case RUNG_REQ_SCROLL_LEFT:
		if (!v->hscroll)
			return RUNG_R_NONE;
		v->hscroll = v->hscroll > 8 ? v->hscroll - 8 : 0;
		return RUNG_R_REDRAW;
	case RUNG_REQ_SCROLL_RIGHT:
		v->hscroll += 8;
		return RUNG_R_REDRAW;
	case RUNG_REQ_ENTER:
		return rung_tui_open_view(t, RUNG_SCREEN_DETAIL) < 0 ? (rung_tui_message(t, true, "%s", rung_error_last()), 0)
								    : RUNG_R_REDRAW;
	case RUNG_REQ_VIEW_COMPARE:
	case RUNG_REQ_VIEW_ROOFLINE:
	case RUNG_REQ_VIEW_STEER:
	case RUNG_REQ_VIEW_PLOT:
	case RUNG_REQ_VIEW_HELP: {
		rung_screen_id id = req == RUNG_REQ_VIEW_COMPARE ? RUNG_SCREEN_COMPARE
				  : req == RUNG_REQ_VIEW_ROOFLINE ? RUNG_SCREEN_ROOFLINE
				  : req == RUNG_REQ_VIEW_STEER	? RUNG_SCREEN_STEER
				  : req == RUNG_REQ_VIEW_PLOT	? RUNG_SCREEN_PLOT
								: RUNG_SCREEN_HELP;
		if (id == RUNG_SCREEN_PLOT && v->id == RUNG_SCREEN_PLOT) { /* p again: back */
			view_close(t);
			return RUNG_R_REDRAW;
		}
		if (rung_tui_open_view(t, id) < 0)
			rung_tui_message(t, true, "%s", rung_error_last());
		return RUNG_R_REDRAW;
	}
	case RUNG_REQ_BACK:
		if (t->depth > 1)
			view_close(t);
		return RUNG_R_REDRAW;
	case RUNG_REQ_VIEW_CLOSE:
		view_close(t);
		return RUNG_R_REDRAW;
	case RUNG_REQ_QUIT:
		t->quit = true;
		return RUNG_R_NONE;
	case RUNG_REQ_SEARCH:
		rung_tui_prompt(t, "/", "", search_done);
		return RUNG_R_NONE;
	case RUNG_REQ_FIND_NEXT:
		return find_match(t, 1, false);
	case RUNG_REQ_FIND_PREV:
		return find_match(t, -1, false);
	case RUNG_REQ_MARK_A:
	case RUNG_REQ_MARK_B: {
		int row = rung_tui_selected_row(t);
		if (row < 0)
			return RUNG_R_NONE;
		char *mk = req == RUNG_REQ_MARK_A ? t->mark_a : t->mark_b;
		snprintf(mk, 41, "%s", t->model->rows[row].hash);
		rung_tui_message(t, false, "marked %.*s as %c; 'c' compares", RUNG_ID(mk), req == RUNG_REQ_MARK_A ? 'a' : 'b');
		return RUNG_R_REDRAW;
	}
	case RUNG_REQ_REFRESH:
		t->model->message[0] = 0; /* what the reload says next is new */
		if (rung_model_refresh(t->model) < 0)
			rung_tui_message(t, true, "refresh: %s", rung_error_last());
		else
			rung_tui_message(t, false, "reloading"), t->message_reload = true;
		return RUNG_R_REOPEN;
	case RUNG_REQ_EVALUATE: {
		int row = rung_tui_selected_row(t);
		if (row < 0)
			return RUNG_R_NONE;
		if (rung_model_evaluate(t->model, t->model->rows[row].hash) < 0)
			rung_tui_message(t, true, "evaluate: %s", rung_error_last());
		else
			rung_tui_message(t, false, "queued %.*s", RUNG_ID(t->model->rows[row].hash)),
				t->message_queued = true;
		return RUNG_R_REDRAW;
	}
	case RUNG_REQ_SANITIZE: {
		int row = rung_tui_selected_row(t);
		if (row < 0)
			return RUNG_R_NONE;
		if (rung_model_sanitize(t->model, t->model->rows[row].hash) < 0)
			rung_tui_message(t, true, "sanitize: %s", rung_error_last());
		else
			rung_tui_message(t, false, "sanitize %.*s queued (compute-sanitizer, in the background)",
					 RUNG_ID(t->model->rows[row].hash)),
				t->message_queued = true;
		return RUNG_R_REDRAW;
	}
	case RUNG_REQ_EVALUATE_MISSING: {
		int n = rung_model_evaluate_missing(t->model);
		if (n < 0)
			rung_tui_message(t, true, "evaluate: %s", rung_error_last());
		else
			rung_tui_message(t, false, "queued %d version%s%s", n, n == 1 ? "" : "s",
					 t->model->loading ? "; the rest once the list is loaded" : ""),
				t->message_queued = n > 0;
		return RUNG_R_REDRAW;
	}
	default:
		return RUNG_R_NONE;
	}
}

static void prompt_key(rung_tui *t, int key)
{
	t->status_dirty = true;
	if (key == RUNG_KEY_ESC || key == RUNG_CTRL('c') || key == RUNG_CTRL('g')) {
		t->prompting = false;
		if (t->prompt_done)
			t->prompt_done(t, t->prompt_buf, false);
		t->view_dirty = true;
		return;
	}
	if (key == RUNG_KEY_ENTER || key == '\n' || key == KEY_ENTER) {
		t->prompting = false;
		char text[256];
		snprintf(text, sizeof(text), "%s", t->prompt_buf);
		if (t->prompt_done)
			t->prompt_done(t, text, true);
		t->view_dirty = true;
		return;
	}
	if (key == KEY_BACKSPACE || key == 127 || key == RUNG_CTRL('h')) {
		/* drop one UTF-8 character */
		while (t->prompt_len > 0 && (t->prompt_buf[t->prompt_len - 1] & 0xc0) == 0x80)
			t->prompt_len--;
		if (t->prompt_len > 0)
			t->prompt_len--;
		t->prompt_buf[t->prompt_len] = 0;
		return;
	}
	if (key == RUNG_CTRL('u')) {
		t->prompt_len = 0;
		t->prompt_buf[0] = 0;
		return;
	}
	if (key >= 32 && key != 127 && key < KEY_MIN) {
		char mb[8];
		int n = 1;
		if (key < 128) {
			mb[0] = (char)key;
		} else {
			mbstate_t st = {0};
			size_t r = wcrtomb(mb, (wchar_t)key, &st);
			if (r == (size_t)-1)
				return;
			n = (int)r;
		}
		if (t->prompt_len + n < (int)sizeof(t->prompt_buf)) {
			memcpy(t->prompt_buf + t->prompt_len, mb, (size_t)n);
			t->prompt_len += n;
			t->prompt_buf[t->prompt_len] = 0;
		}
	}
}

static void handle_mouse(rung_tui *t, int y, int x)
{
	rung_view *v = rung_tui_current(t);
	(void)x;
	if (!v || v->pager || y < v->top || y >= v->height)
		return;
	int line = v->offset + (y - v->top);
	if (line >= v->nlines)
		return;
	v->cursor = line;
	rung_view_clamp(v);
	if (v->ops->select)
		v->ops->select(v);
	t->view_dirty = t->status_dirty = true;
}

static void do_request(rung_tui *t, rung_view *v, rung_request req)
{
	int r = v->ops->request ? v->ops->request(v, req) : RUNG_R_UNHANDLED;
	if (r & RUNG_R_UNHANDLED)
		r = generic_request(t, v, req);
	v = rung_tui_current(t);
	if (v && (r & RUNG_R_REOPEN))
		view_open(v);
	if (r & (RUNG_R_REDRAW | RUNG_R_REOPEN))
		t->view_dirty = true;
	t->status_dirty = true;
}

/* The mouse wheel: a list scrolls by `lines` with the cursor kept on screen, a
 * pager scrolls, and a screen without list rows (the roofline) moves its
 * selection by one. */
#define RUNG_WHEEL_LINES 3
static void wheel(rung_tui *t, int dir)
{
	rung_view *v = rung_tui_current(t);
	if (!v || t->prompting)
		return;
	int rows = rung_view_rows(v);
	if (rows <= 0) {
		do_request(t, v, dir > 0 ? RUNG_REQ_MOVE_DOWN : RUNG_REQ_MOVE_UP);
		return;
	}
	if (v->pager) {
		if (move_cursor(v, dir * RUNG_WHEEL_LINES))
			t->view_dirty = t->status_dirty = true;
		return;
	}
	int oc = v->cursor, oo = v->offset, max = v->nlines - rows;
	v->offset += dir * RUNG_WHEEL_LINES;
	if (v->offset > max)
		v->offset = max;
	if (v->offset < 0)
		v->offset = 0;
	if (v->cursor < v->offset)
		v->cursor = v->offset;
	if (v->cursor >= v->offset + rows)
		v->cursor = v->offset + rows - 1;
	rung_view_clamp(v);
	if (v->cursor != oc && v->ops->select)
		v->ops->select(v);
	if (v->cursor != oc || v->offset != oo)
		t->view_dirty = t->status_dirty = true;
}

void rung_tui_key(rung_tui *t, int key)
{
	if (key == KEY_RESIZE) {
		layout(t);
		return;
	}
	if (key == KEY_MOUSE) {
		MEVENT me;
		if (getmouse(&me) != OK)
			return;
		if (t->message[0] && !t->prompting) { /* as a key: the last note gives way */
			t->message[0] = 0;
			t->status_dirty = true;
		}
		if (me.bstate & BUTTON4_PRESSED)
			wheel(t, -1);
		else if (me.bstate & BUTTON5_PRESSED)
			wheel(t, 1);
		else if (me.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_RELEASED))
			handle_mouse(t, me.y, me.x);
		return;
	}
	if (t->prompting) {
		prompt_key(t, key);
		return;
	}
	if (t->message[0]) {
		t->message[0] = 0;
		t->status_dirty = true;
	}
	rung_view *v = rung_tui_current(t);
	if (!v)
		return;
	rung_request req = rung_key_request(key);
	if (req == RUNG_REQ_NONE) {
		char kb[16];
		rung_tui_message(t, false, "unknown key %s (? for help)", rung_key_name(key, kb, sizeof(kb)));
		return;
	}
	do_request(t, v, req);
}

/* ---- frame ---------------------------------------------------------- */

/* Shows every match of the search in the list rows of v in the search role
 * (case-insensitive, as the search matches): the text already drawn is read
 * back, so every screen gets it whatever draws its lines. */
static void highlight_search(rung_view *v, const char *needle)
{
	if (!needle[0] || !v->win || !v->ops->line_text)
		return;
	wchar_t wn[128];
	size_t nn = mbstowcs(wn, needle, sizeof(wn) / sizeof(wn[0]) - 1);
	if (nn == (size_t)-1 || nn == 0)
		return;
	for (size_t i = 0; i < nn; i++)
		wn[i] = (wchar_t)towlower((wint_t)wn[i]);
	attr_t sa = rung_tui_attr(RUNG_ROLE_SEARCH);
	short pair = (short)PAIR_NUMBER(sa);
	attr_t attrs = sa & ~A_COLOR;
	enum { MAXW = 1024 };
	int w = v->width < MAXW ? v->width : MAXW;
	for (int y = v->top; y < v->height; y++) {
		cchar_t cells[MAXW + 1];
		if (mvwin_wchnstr(v->win, y, 0, cells, w) == ERR)
			continue;
		/* the characters of the row and the column each starts at */
		wchar_t ch[MAXW];
		int col[MAXW + 1], n = 0;
		for (int x = 0; x < w; x++) {
			wchar_t wc[CCHARW_MAX + 1] = {0};
			attr_t a;
			short p;
			if (getcchar(&cells[x], wc, &a, &p, NULL) == ERR)
				break;
			if (!wc[0]) /* the second column of a wide character */
				continue;
			ch[n] = (wchar_t)towlower((wint_t)wc[0]);
			col[n++] = x;
		}
		col[n] = w;
		for (int k = 0; k + (int)nn <= n; k++) {
			if (wmemcmp(ch + k, wn, nn))
				continue;
			int end = k + (int)nn < n ? col[k + nn] : w;
			mvwchgat(v->win, y, col[k], end - col[k], attrs, pair, NULL);
			k += (int)nn - 1;
		}
	}
}

static void draw_frame(rung_tui *t)
{
	rung_view *v = rung_tui_current(t);
	if (v && v->generation != t->model->generation) {
		view_open(v);
		t->view_dirty = true;
	}
	if (t->model->generation != t->status_gen) {
		t->status_gen = t->model->generation;
		t->status_dirty = true;
	}
	if (t->workers_shown && rung_now_s() - t->workers_drawn_at >= RUNG_TUI_WORKERS_S)
		t->status_dirty = true;
	if (!t->view_dirty && !t->status_dirty)
		return;
	if (v && t->view_dirty && v->win) {
		werase(v->win);
		if (v->ops->draw)
			v->ops->draw(v);
		highlight_search(v, t->search);
		wnoutrefresh(v->win);
	}
	if (t->status_dirty || t->view_dirty)
		draw_status(t);
	t->view_dirty = t->status_dirty = false;
	doupdate();
	if (!t->drawn) { /* the first frame: the model's background reading may start */
		t->drawn = true;
		rung_model_drawn(t->model);
	}
}

/* "{style}": the role whose colour pair the cell has (none: "-"), then its attributes. */
static void style_name(char *buf, size_t len, attr_t a, short pair)
{
	int r = rung_tui_pair_role(pair);
	snprintf(buf, len, "{%s", r >= 0 ? rung_role_name((rung_role)r) : "-");
	static const struct {
		attr_t bit;
		const char *name;
	} bits[] = {{A_BOLD, "bold"}, {A_REVERSE, "reverse"}, {A_UNDERLINE, "underline"}, {A_DIM, "dim"}};
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		if (a & bits[i].bit)
			snprintf(buf + strlen(buf), len - strlen(buf), " %s", bits[i].name);
	snprintf(buf + strlen(buf), len - strlen(buf), "}");
}

/* One line with a {style} marker at its start and wherever the style changes
 * (trailing blanks dropped, as in the text dump). */
static void dump_attr_line(FILE *f, WINDOW *w, int y, int wd)
{
	cchar_t cells[1024];
	int n = wd < 1023 ? wd : 1023;
	if (mvwin_wchnstr(w, y, 0, cells, n) == ERR)
		n = 0;
	char line[16384], last[96] = "";
	size_t o = 0, keep = 0;
	for (int i = 0; i < n; i++) {
		wchar_t wch[CCHARW_MAX + 1] = {0};
		attr_t a = 0;
		short pair = 0;
		if (getcchar(&cells[i], wch, &a, &pair, NULL) == ERR)
			break;
		if (!wch[0]) /* the second column of a wide character */
			continue;
		char style[96];
		style_name(style, sizeof(style), a, pair);
		if (strcmp(style, last)) {
			snprintf(last, sizeof(last), "%s", style);
			if (o + strlen(style) + 1 >= sizeof(line))
				break;
			memcpy(line + o, style, strlen(style));
			o += strlen(style);
		}
		char mb[64];
		size_t len = wcstombs(mb, wch, sizeof(mb) - 1);
		if (len == (size_t)-1)
			len = 0;
		if (o + len + 1 >= sizeof(line))
			break;
		memcpy(line + o, mb, len);
		o += len;
		if (len != 1 || mb[0] != ' ')
			keep = o;
	}
	/* a style that only starts in the trailing blanks goes with them */
	fprintf(f, "%.*s\n", (int)(keep ? keep : (o && line[0] == '{' ? (size_t)(strchr(line, '}') - line + 1) : 0)),
		line);
}

/* Line y of window w as text (multibyte, trailing blanks dropped). */
static void screen_line(char mb[4096], WINDOW *w, int y)
{
	int wd = getmaxx(w);
	wchar_t wbuf[1024];
	int n = mvwinnwstr(w, y, 0, wbuf, wd < 1023 ? wd : 1023);
	if (n < 0)
		n = 0;
	wbuf[n] = 0;
	size_t len = wcstombs(mb, wbuf, 4095);
	if (len == (size_t)-1)
		len = 0;
	mb[len] = 0;
	while (len > 0 && mb[len - 1] == ' ')
		mb[--len] = 0;
}

/* The windows a dump shows, top to bottom (NULL where there is none). */
static void screen_windows(rung_tui *t, WINDOW *wins[2])
{
	rung_view *v = rung_tui_current(t);
	wins[0] = v ? v->win : NULL;
	wins[1] = t->status;
}

static int dump(rung_tui *t, const char *path, bool attrs)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return rung_error_set(RUNG_EIO, "%s: %s", path, strerror(errno));
	draw_frame(t);
	WINDOW *wins[2];
	screen_windows(t, wins);
	for (int k = 0; k < 2; k++) {
		WINDOW *w = wins[k];
		if (!w)
			continue;
		int h = getmaxy(w), wd = getmaxx(w);
		for (int y = 0; y < h; y++) {
			if (attrs) {
				dump_attr_line(f, w, y, wd);
				continue;
			}
			char mb[4096];
			screen_line(mb, w, y);
			fprintf(f, "%s\n", mb);
		}
	}
	fclose(f);
	return 0;
}

/* True when a line of the screen, drawn now, contains text. */
static bool screen_has(rung_tui *t, const char *text)
{
	draw_frame(t);
	WINDOW *wins[2];
	screen_windows(t, wins);
	for (int k = 0; k < 2; k++)
		for (int y = 0; wins[k] && y < getmaxy(wins[k]); y++) {
			char mb[4096];
			screen_line(mb, wins[k], y);
			if (strstr(mb, text))
				return true;
		}
	return false;
}

int rung_tui_dump(rung_tui *t, const char *path)
{
	return dump(t, path, false);
}

int rung_tui_dump_attrs(rung_tui *t, const char *path)
{
	return dump(t, path, true);
}

/* ---- scripts -------------------------------------------------------- */

static int parse_step(rung_step_id *out, const char *s)
{
	for (int i = 0; i < RUNG_NSTEPS; i++)
		if (!strcmp(s, rung_step_name((rung_step_id)i))) {
			*out = (rung_step_id)i;
			return 0;
		}
	return -1;
}

static int script_event(rung_tui *t, char *args)
{
	char kind[32], hash[64];
	int off = 0;
	if (sscanf(args, "%31s %63s %n", kind, hash, &off) < 2)
		return rung_error_set(RUNG_EINVAL, "':event KIND HASH ...' expected");
	rung_model_event ev = {0};
	const char *rest = args + off;
	int row = rung_model_find(t->model, hash);
	snprintf(ev.hash, sizeof(ev.hash), "%.40s", row >= 0 ? t->model->rows[row].hash : hash);
	if (!strcmp(kind, "queued")) {
		ev.kind = RUNG_EV_QUEUED;
	} else if (!strcmp(kind, "progress")) {
		char step[32];
		if (sscanf(rest, "%31s %lf", step, &ev.frac) != 2 || parse_step(&ev.step, step) < 0)
			return rung_error_set(RUNG_EINVAL, "':event progress HASH STEP FRAC' expected");
		ev.kind = RUNG_EV_PROGRESS;
	} else if (!strcmp(kind, "result")) {
		char st[16];
		double median = 1.0, maxrel = 1e-6;
		if (sscanf(rest, "%15s %lf %lf", st, &median, &maxrel) < 1)
			return rung_error_set(RUNG_EINVAL, "':event result HASH ok|fail [MEDIAN_MS [MAX_REL]]' expected");
		ev.kind = RUNG_EV_RESULT;
		ev.result = rung_model_fake_result(ev.hash, median, maxrel, strcmp(st, "fail") != 0, 7);
		if (ev.result && !isnan(t->model->ceil.bw_bytes_s) && ev.result->bench.valid)
			ev.result->bench.tbps = ev.result->bench.tflops / 100;
	} else if (!strcmp(kind, "note")) {
		char verdict[32];
		int o2 = 0;
		if (sscanf(rest, "%31s %n", verdict, &o2) < 1 || rung_verdict_parse(&ev.verdict, verdict) < 0)
			return rung_error_set(RUNG_EINVAL, "':event note HASH VERDICT TEXT' expected");
		snprintf(ev.text, sizeof(ev.text), "%s", rest + o2);
		ev.kind = RUNG_EV_NOTE;
	} else if (!strcmp(kind, "message")) {
		ev.kind = RUNG_EV_MESSAGE;
		snprintf(ev.text, sizeof(ev.text), "%s %s", hash, rest);
	} else {
		return rung_error_set(RUNG_EINVAL, "unknown event '%s' (queued, progress, result, note, message)", kind);
	}
	return rung_model_post(t->model, &ev);
}

static void apply_events(rung_tui *t)
{
	rung_model *m = t->model;
	bool busy = m->queue_total > 0;
	char before[sizeof(m->message)];
	if (t->message_reload)
		memcpy(before, m->message, sizeof(before));
	if (rung_model_apply_events(m) <= 0)
		return;
	/* "reloading" gives way to what the reload says (done, failed, a broken spec) */
	if (t->message_reload && strcmp(before, m->message))
		t->message[0] = 0, t->message_reload = false;
	t->status_dirty = true; /* the view reopens on the generation change */
	/* a key's note ("queued 8c4f713") gives way once the queue it spoke of
	 * is done: the status line then says what happened */
	if (t->message_queued && busy && m->queue_total == 0)
		t->message[0] = 0, t->message_queued = false;
}

int rung_tui_script_command(rung_tui *t, const char *line)
{
	char cmd[32];
	int off = 0;
	if (sscanf(line, ":%31s %n", cmd, &off) < 1)
		return rung_error_set(RUNG_EINVAL, "empty command");
	char args[1024];
	snprintf(args, sizeof(args), "%s", line + off);
	size_t al = strlen(args);
	while (al && (args[al - 1] == '\n' || args[al - 1] == '\r' || args[al - 1] == ' '))
		args[--al] = 0;
	if (!strcmp(cmd, "dump") || !strcmp(cmd, "save-display") || !strcmp(cmd, "dump-attrs")) {
		char path[2048];
		const char *dir = t->opts && t->opts->dump_dir ? t->opts->dump_dir : ".";
		if (!args[0])
			return rung_error_set(RUNG_EINVAL, ":%s needs a file name", cmd);
		snprintf(path, sizeof(path), "%s/%s", dir, args);
		return !strcmp(cmd, "dump-attrs") ? rung_tui_dump_attrs(t, path) : rung_tui_dump(t, path);
	}
	if (!strcmp(cmd, "resize")) {
		int c, l;
		if (sscanf(args, "%dx%d", &c, &l) != 2 || c < 1 || l < 1)
			return rung_error_set(RUNG_EINVAL, ":resize COLSxLINES expected");
		resizeterm(l, c);
		layout(t);
		return 0;
	}
	if (!strcmp(cmd, "event"))
		return script_event(t, args);
	if (!strcmp(cmd, "wait")) {
		/* let background threads deliver: wait for the pipe, then drain */
		struct pollfd p = {rung_model_event_fd(t->model), POLLIN, 0};
		int waited = 0;
		while (poll(&p, 1, waited ? 50 : 2000) > 0) {
			apply_events(t);
			waited = 1;
		}
		return 0;
	}
	if (!strcmp(cmd, "until")) {
		/* apply live updates until a line of the screen contains TEXT, for SECS at
		 * most; then the script goes on either way (its next :dump shows what is there) */
		double secs = 0;
		int toff = 0;
		if (sscanf(args, "%lf %n", &secs, &toff) < 1 || secs <= 0 || !args[toff])
			return rung_error_set(RUNG_EINVAL, ":until SECS TEXT expected");
		const char *text = args + toff;
		struct pollfd p = {rung_model_event_fd(t->model), POLLIN, 0};
		double t0 = rung_now_s();
		while (!screen_has(t, text) && rung_now_s() - t0 < secs)
			if (poll(&p, 1, 50) > 0)
				apply_events(t);
		return 0;
	}
	if (!strcmp(cmd, "sleep")) {
		/* apply live updates for N seconds (a background evaluation in flight) */
		double secs = atof(args);
		struct pollfd p = {rung_model_event_fd(t->model), POLLIN, 0};
		double t0 = rung_now_s();
		for (;;) {
			double left = secs - (rung_now_s() - t0);
			if (left <= 0)
				break;
			if (left > RUNG_TUI_WORKERS_S && t->workers_shown)
				left = RUNG_TUI_WORKERS_S; /* the workers' status drawn meanwhile, as live */
			if (poll(&p, 1, (int)(left * 1000) + 1) > 0)
				apply_events(t);
			if (t->workers_shown)
				draw_frame(t);
		}
		return 0;
	}
	if (!strcmp(cmd, "click")) {
		int y, x;
		if (sscanf(args, "%d %d", &y, &x) != 2)
			return rung_error_set(RUNG_EINVAL, ":click Y X expected");
		handle_mouse(t, y, x);
		return 0;
	}
	if (!strcmp(cmd, "mouse")) {
		/* a mouse event through curses' own queue, read back as a terminal's would be */
		char kind[32];
		MEVENT me = {0};
		if (sscanf(args, "%31s %d %d", kind, &me.y, &me.x) != 3)
			return rung_error_set(RUNG_EINVAL, ":mouse click|wheel-up|wheel-down Y X expected");
		if (!strcmp(kind, "click"))
			me.bstate = BUTTON1_CLICKED;
		else if (!strcmp(kind, "wheel-up"))
			me.bstate = BUTTON4_PRESSED;
		else if (!strcmp(kind, "wheel-down"))
			me.bstate = BUTTON5_PRESSED;
		else
			return rung_error_set(RUNG_EINVAL, ":mouse click|wheel-up|wheel-down Y X expected");
		if (ungetmouse(&me) == ERR)
			return rung_error_set(RUNG_EIO, ":mouse: curses took no mouse event");
		wint_t wch;
		if (wget_wch(t->status ? t->status : stdscr, &wch) != KEY_CODE_YES || wch != KEY_MOUSE)
			return rung_error_set(RUNG_EIO, ":mouse: no KEY_MOUSE came back");
		rung_tui_key(t, KEY_MOUSE);
		return 0;
	}
	if (!strcmp(cmd, "type")) {
		for (const char *p = args; *p; p++)
			rung_tui_key(t, (unsigned char)*p);
		return 0;
	}
	return rung_error_set(RUNG_EINVAL, "unknown script command ':%s'", cmd);
}

/* Applies events until the first frame's rows have their results
 * (m->filling: RUNG_EV_FILL), for secs at most. */
static void wait_filled(rung_tui *t, double secs)
{
	struct pollfd p = {rung_model_event_fd(t->model), POLLIN, 0};
	double t0 = rung_now_s();
	while (t->model->filling && rung_now_s() - t0 < secs)
		if (poll(&p, 1, 50) > 0)
			apply_events(t);
}

static int run_script(rung_tui *t, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return rung_error_set(RUNG_EIO, "%s: %s", path, strerror(errno));
	/* the first frame is drawn as the keyboard's is, before the rows' results
	 * are read (m->filling); a script's lines and keys act once they are in
	 * (after a task switch too), as its screens are compared whole */
	draw_frame(t);
	char line[2048];
	int lineno = 0, err = 0;
	while (!err && !t->quit && fgets(line, sizeof(line), f)) {
		lineno++;
		/* events posted by :event or by threads arrive through the pipe, as live */
		struct pollfd p = {rung_model_event_fd(t->model), POLLIN, 0};
		if (poll(&p, 1, 0) > 0)
			apply_events(t);
		wait_filled(t, 30); /* a task switch's rows too */
		draw_frame(t);
		char *s = line;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '#' || *s == '\n' || !*s)
			continue;
		if (*s == ':') {
			if (rung_tui_script_command(t, s) < 0)
				err = rung_error_set(RUNG_EINVAL, "%s:%d: %s", path, lineno, rung_error_last());
			continue;
		}
		for (char *save = NULL, *tok = strtok_r(s, " \t\r\n", &save); tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
			int key = rung_key_parse(tok);
			if (key < 0) {
				err = rung_error_set(RUNG_EINVAL, "%s:%d: unknown key '%s'", path, lineno, tok);
				break;
			}
			rung_tui_key(t, key);
			struct pollfd q = {rung_model_event_fd(t->model), POLLIN, 0};
			if (poll(&q, 1, 0) > 0)
				apply_events(t);
			wait_filled(t, 30);
			draw_frame(t);
			if (t->quit)
				break;
		}
	}
	fclose(f);
	return err;
}

static int run_keyboard(rung_tui *t)
{
	struct pollfd p[2] = {{STDIN_FILENO, POLLIN, 0}, {rung_model_event_fd(t->model), POLLIN, 0}};
	while (!t->quit) {
		draw_frame(t);
		/* a pool's workers on the status bar: looked at again meanwhile */
		if (poll(p, 2, t->workers_shown ? (int)(RUNG_TUI_WORKERS_S * 1000) : -1) < 0 && errno != EINTR)
			return rung_error_set(RUNG_EIO, "poll: %s", strerror(errno));
		if (p[1].revents & POLLIN)
			apply_events(t);
		/* read all that curses has, including a KEY_RESIZE after SIGWINCH (EINTR) */
		wint_t wch;
		int r;
		while (!t->quit && (r = wget_wch(t->status ? t->status : stdscr, &wch)) != ERR) {
			rung_tui_key(t, (int)wch);
			if (r == KEY_CODE_YES && wch == KEY_RESIZE)
				continue;
		}
	}
	return 0;
}

int rung_tui_run(rung_model *m, const rung_tui_opts *opts)
{
	static const rung_tui_opts none = {0};
	if (!opts)
		opts = &none;
	rung_tui *t = calloc(1, sizeof(*t));
	if (!t)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	t->model = m;
	t->opts = opts;

	char theme_name[128];
	int err = rung_theme_choose(theme_name, sizeof(theme_name), &t->colour, opts->theme);
	if (!err)
		err = rung_theme_load(&t->theme, theme_name);
	if (err < 0) {
		free(t);
		return err;
	}

	setlocale(LC_ALL, "");
	bool utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	rung_tui_draw_init(opts->ascii ? false : utf8);

	FILE *out = NULL, *in = NULL;
	SCREEN *scr = NULL;
	if (opts->script) {
		char v[16];
		int lines = opts->lines ? opts->lines : (getenv("LINES") ? atoi(getenv("LINES")) : 24);
		int cols = opts->cols ? opts->cols : (getenv("COLUMNS") ? atoi(getenv("COLUMNS")) : 80);
		snprintf(v, sizeof(v), "%d", lines > 0 ? lines : 24);
		setenv("LINES", v, 1);
		snprintf(v, sizeof(v), "%d", cols > 0 ? cols : 80);
		setenv("COLUMNS", v, 1);
		out = fopen("/dev/null", "w");
		in = fopen("/dev/null", "r");
		const char *term = getenv("TERM");
		if (!term || !*term || !strcmp(term, "dumb"))
			term = "xterm-256color";
		scr = out && in ? newterm(term, out, in) : NULL;
		if (!scr)
			scr = out && in ? newterm("vt100", out, in) : NULL;
		if (!scr) {
			if (out)
				fclose(out);
			if (in)
				fclose(in);
			free(t);
			return rung_error_set(RUNG_EIO, "cannot start curses on /dev/null");
		}
		set_term(scr);
	} else {
		/* newterm, not initscr: initscr exits the process when it cannot start */
		scr = newterm(NULL, stdout, stdin);
		if (!scr) {
			free(t);
			return rung_error_set(RUNG_EIO, "cannot start curses on this terminal (TERM=%s)",
					      getenv("TERM") ? getenv("TERM") : "");
		}
		set_term(scr);
	}
	/* ncurses 6.4 flushes its output at every cursor move (tinfo's mvcur)
	 * until the screen has once been ended: a frame was some 50-100 writes of
	 * 10-80 bytes, each a packet over ssh and a wake-up of the terminal. Ended
	 * here, before anything is drawn, the next refresh resumes it (the
	 * terminal modes below are the program's) and every frame is one or two
	 * writes (docs/BENCHMARKS.md, "Workbench speed"). */
	endwin();
	raw();
	noecho();
	nonl();
	curs_set(0);
	set_escdelay(25);
	rung_tui_theme_apply(&t->theme, t->colour);
	/* clicks and the wheel (buttons 4 and 5); in script mode too, for :mouse */
	mousemask(BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
	mouseinterval(0);
	t->lines = LINES;
	t->cols = COLS;
	layout(t);
	if (m->nrows)
		rung_tui_select_row(t, 0);
	err = rung_tui_open_view(t, RUNG_SCREEN_VERSIONS);
	if (!err)
		err = opts->script ? run_script(t, opts->script) : run_keyboard(t);

	rung_error_state saved; /* the views' cleanup may set errors of its own */
	rung_error_save(&saved);
	while (t->depth) {
		rung_view *v = t->stack[--t->depth];
		if (v->ops->done)
			v->ops->done(v);
		if (v->win)
			delwin(v->win);
		free(v);
	}
	if (t->status)
		delwin(t->status);
	free(t->task_marks);
	endwin();
	if (scr)
		delscreen(scr);
	if (out)
		fclose(out);
	if (in)
		fclose(in);
	free(t);
	if (err < 0) {
		saved.code = err;
		rung_error_restore(&saved);
	}
	return err;
}
