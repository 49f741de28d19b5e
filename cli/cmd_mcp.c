/* rung mcp [-C DIR] [--task DIR] [--spec-rev REV]: a Model Context Protocol
 * server on stdin/stdout for a coding agent (docs/CLI.md, "rung mcp").
 *
 * Transport: stdio, one JSON-RPC 2.0 message per line, UTF-8, no embedded
 * newlines (JSON escapes them). Protocol revision 2025-11-25, the latest one
 * with the initialize handshake; a client asking for 2025-06-18, 2025-03-26 or
 * 2024-11-05 gets that one, any other gets 2025-11-25 (the spec's version
 * negotiation: the client decides whether to go on).
 *
 * Nothing but protocol reaches stdout: the descriptor is kept for the protocol
 * and fd 1 is pointed at stderr before anything runs, so a child (the worker,
 * ptxas, nvdisasm) or a stray write cannot corrupt the stream. The tools call
 * the app/ services (docs/ARCHITECTURE.md, "the verbs") and write their text
 * with the commands' printers (cli/views.h) into memory; none runs a command
 * with stdout or stderr captured. The check tool calls the check service
 * (app/check.h) as `rung check` does, with a warm evaluator whose worker
 * keeps its CUDA context across calls.
 *
 * Errors: a line that is not JSON is -32700, not a request object -32600 (a
 * batch too: batches were removed in 2025-06-18), an unknown method -32601,
 * bad params of a method (no tool name, an unknown tool, no uri) -32602, an
 * unknown resource -32002. What a tool itself fails at (its arguments, the
 * task, a compile, git) is a tools/call result with isError true and the
 * message rung would print. The loop never exits on a bad request; it ends at
 * the end of stdin. */
#define _GNU_SOURCE /* open_memstream */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "core/err.h"
#include "core/stall.h"
#include "core/fs.h"
#include "core/inert.h"
#include "core/lineread.h"
#include "core/sass_excerpt.h"
#include "app/profile_extra.h"
#include "core/version.h"
#include "gpu/children.h"
#include "cli/check_view.h"
#include "cli/cli.h"
#include "app/check.h"
#include "app/directives.h"
#include "app/log.h"
#include "app/profile_extra.h"
#include "cli/views.h"
#include "app/goal.h"
#include "app/sanitize_gate.h"
#include "app/session.h"
#include "app/task.h"

#define MCP_LATEST "2025-11-25"
static const char *const mcp_versions[] = {MCP_LATEST, "2025-06-18", "2025-03-26", "2024-11-05"};

enum {
	RPC_PARSE = -32700,
	RPC_INVALID_REQUEST = -32600,
	RPC_NO_METHOD = -32601,
	RPC_INVALID_PARAMS = -32602,
	RPC_INTERNAL = -32603,
	MCP_NO_RESOURCE = -32002,
};

/* DUMP_TEXT_DEFAULT: each of the dump tool's three texts, so that its
 * default answer stays under 32 KB (docs/CLI.md); LOG_ROWS_DEFAULT likewise. */
enum { TEXT_MAX = 256 * 1024, DUMP_TEXT_DEFAULT = 8 * 1024, DUMP_TEXT_MAX = 4 * 1024 * 1024, LOG_ROWS_DEFAULT = 20 };
/* The longest message read (docs/CLI.md, "rung mcp"): a longer line is
 * dropped as it arrives and answered -32600. */
enum { MCP_MAX_MESSAGE = 16 * 1024 * 1024 };
/* How long the detached GPU workers get for their CUDA teardown at the end. */
enum { MCP_REAP_GRACE_MS = 5000 };

typedef struct {
	rung_vctx_opts where;
	bool any_repo;
} mcp_opts;

static const rung_opt_spec mcp_specs[] = {
	{RUNG_OPT_SUBTABLE(mcp_opts, where, rung_vctx_opt_specs)},
	{RUNG_OPT_BOOL(mcp_opts, any_repo), .name = "any-repo",
	 .help = "let the tools' dir, task and rev arguments reach other repositories on disk (default: only the one the server started in)"},
	{0}};
const rung_opt_table rung_opts_mcp = {.cmd = "mcp", .args = "", .max_args = 0, .opts = mcp_specs};

static int proto_fd = -1;
static rung_vctx_opts defaults; /* the server's -C, --task, --spec-rev: a tool's own arguments override them */
static atomic_bool client_gone; /* a write to the client failed (EPIPE): the loop ends */
static bool any_repo;           /* --any-repo */
static char served_root[PATH_MAX]; /* the repository (or directory) served, resolved; "" none */

/* ---- the calls in flight ----------------------------------------------------- */

/* Two threads (docs/CLI.md, "rung mcp", "One call at a time"): the main one
 * reads the messages and answers the quick methods itself (initialize, ping,
 * tools/list, resources/list, resources/templates/list, the directives tool,
 * notifications); tools/call of every other tool and resources/read go, in
 * order, to one worker thread, which runs one at a time (the tools call the
 * services and write their text into memory streams of their own; the
 * process's stdout and stderr FILEs are never swapped, and the main thread
 * writes its own lines with say()). notifications/cancelled drops a queued
 * call, or, for the one running, kills its children (the GPU worker, nvdisasm, ptxas) so that it
 * ends early, and drops its answer. A running check is abandoned instead of
 * waited for: NVRTC cannot be stopped inside a compile, so the thread that
 * runs it is left to finish the compile on its own (it then stops before the
 * GPU rungs, its answer dropped, and closes its evaluator), and a fresh worker
 * thread takes the queue at once. That is safe beside the next call because
 * no tool swaps stdout or stderr (the services print nothing; check's
 * messages go out with say()) and the check shares nothing with the new thread.
 *
 * The warm evaluator (app/check.h): each worker thread keeps one (cur_warm),
 * opened at its first GPU check; its worker process, and so its CUDA context,
 * lives from call to call. A worker that died or faulted is replaced by a
 * fresh one after the call (the service prestarts it), a cancelled call's is
 * killed and replaced, and an abandoned thread's goes with the thread. */
typedef struct job {
	json_t *msg; /* owned */
	json_t *id;  /* borrowed from msg */
	bool cancelled;
	volatile int stop; /* cancelled: the check service stops at its next phase */
	bool abandoned;    /* under q_mu: a fresh thread serves the queue; this job's thread ends after it */
	struct job *next;
} job;

static pthread_mutex_t out_mu = PTHREAD_MUTEX_INITIALIZER; /* one line at a time on proto_fd */
static pthread_mutex_t q_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_cv = PTHREAD_COND_INITIALIZER;
static job *q_head, *q_tail; /* under q_mu */
static job *running;         /* under q_mu: the call the worker thread runs */
static bool q_end;           /* under q_mu: no more calls */
static pthread_t worker_th;     /* the thread serving the queue now (main thread only) */
static bool worker_on;
static _Thread_local job *cur_job; /* the call this thread runs (NULL on the main thread) */
static _Thread_local rung_evaluator *cur_warm; /* this thread's warm evaluator; NULL until its first GPU check */

/* A line of the server's own on stderr (fd 2, never the stderr FILE), inert. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char raw[1024], out[4200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	rung_inert_lines(out, sizeof(out), raw, strlen(raw));
	rung_fs_write_all(STDERR_FILENO, out, strlen(out));
}

/* ---- the protocol's output ------------------------------------------------ */

/* True on a worker thread while the call it runs was cancelled: its answer is dropped. */
static bool answer_dropped(void)
{
	if (!cur_job)
		return false;
	pthread_mutex_lock(&q_mu);
	bool drop = cur_job->cancelled;
	pthread_mutex_unlock(&q_mu);
	return drop;
}

static void send_msg(json_t *msg)
{
	if (answer_dropped()) {
		json_decref(msg);
		return;
	}
	char *s = json_dumps(msg, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(17));
	json_decref(msg);
	if (!s) {
		say("rung mcp: out of memory writing a reply\n");
		return;
	}
	pthread_mutex_lock(&out_mu);
	size_t n = strlen(s);
	s[n] = '\n'; /* replaces the NUL: one line */
	for (size_t off = 0; off < n + 1;) {
		ssize_t w = write(proto_fd, s + off, n + 1 - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) { /* SIGPIPE is ignored: the client closed its end */
			client_gone = true;
			break;
		}
		off += (size_t)w;
	}
	pthread_mutex_unlock(&out_mu);
	free(s);
}

static void send_result(json_t *id, json_t *result)
{
	send_msg(json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id, "result", result));
}

static void send_error(json_t *id, int code, const char *msg, json_t *data)
{
	json_t *err = json_pack("{s:i,s:s}", "code", code, "message", msg);
	if (data)
		json_object_set_new(err, "data", data);
	send_msg(json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id ? id : json_null(), "error", err));
}

/* text made inert (core/inert.h) and valid UTF-8, at most max bytes of it */
static json_t *inert_string(const char *src, size_t n, size_t max)
{
	bool cut = n > max;
	if (cut)
		n = max;
	size_t cap = n * 4 + 64, o = 0;
	char *buf = malloc(cap);
	if (!buf)
		return json_string("");
	for (size_t off = 0; off < n;) {
		size_t used = rung_inert_lines(buf + o, cap - o, src + off, n - off);
		o += strlen(buf + o);
		if (!used)
			break;
		off += used;
	}
	if (cut)
		o += (size_t)snprintf(buf + o, cap - o, "\n[... cut at %zu bytes]\n", max);
	json_t *s = json_stringn(buf, o);
	free(buf);
	return s ? s : json_string("");
}

/* ---- a tool's text: what its printers wrote, its exit code ---------------- */

/* What a tool's printers wrote into memory (texts_open, texts_close): its
 * text (out), its messages (err) and its exit code. */
typedef struct {
	char *out, *err;
	size_t nout, nerr;
	int rc;
} captured;

static void captured_clear(captured *c)
{
	free(c->out);
	free(c->err);
	memset(c, 0, sizeof(*c));
}

/* ---- the tools' arguments ------------------------------------------------- */

typedef struct {
	json_t *args;     /* the call's arguments object (borrowed) */
	char why[1024];   /* the first bad argument */
} targs;

static const char *str_arg(targs *t, const char *name)
{
	json_t *v = json_object_get(t->args, name);
	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_string(v)) {
		if (!t->why[0])
			snprintf(t->why, sizeof(t->why), "argument '%s': expected a string", name);
		return NULL;
	}
	return json_string_value(v);
}

static bool bool_arg(targs *t, const char *name)
{
	json_t *v = json_object_get(t->args, name);
	if (!v || json_is_null(v))
		return false;
	if (!json_is_boolean(v)) {
		if (!t->why[0])
			snprintf(t->why, sizeof(t->why), "argument '%s': expected true or false", name);
		return false;
	}
	return json_is_true(v);
}

/* 1 given, 0 absent (t->why set when of the wrong type or out of range) */
static int int_arg(targs *t, const char *name, long long lo, long long hi, long long *out)
{
	json_t *v = json_object_get(t->args, name);
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi) {
		if (!t->why[0])
			snprintf(t->why, sizeof(t->why), "argument '%s': expected an integer from %lld to %lld", name, lo, hi);
		return 0;
	}
	*out = json_integer_value(v);
	return 1;
}

/* True when path (relative to base, NULL: the current directory) is inside
 * the repository the server serves: its resolved path (symlinks followed)
 * is the served root or below it. A path that does not exist is left to the
 * command (a revision, or its own "no such file"). */
static bool inside_served(const char *path, const char *base)
{
	if (any_repo || !served_root[0] || !path || !*path)
		return true;
	char joined[PATH_MAX * 2], real[PATH_MAX];
	if (path[0] != '/' && base && *base)
		snprintf(joined, sizeof(joined), "%s/%s", base, path);
	else
		snprintf(joined, sizeof(joined), "%s", path);
	if (!realpath(joined, real))
		return true;
	size_t n = strlen(served_root);
	return !strncmp(real, served_root, n) && (real[n] == 0 || real[n] == '/' || served_root[n - 1] == '/');
}

/* The argument name's path outside the served repository: t->why set, false. */
static bool confined(targs *t, const char *name, const char *path, const char *base)
{
	if (inside_served(path, base))
		return true;
	if (!t->why[0])
		snprintf(t->why, sizeof(t->why),
			 "argument '%s': '%.200s' is outside the repository this server serves (%.200s); start rung mcp with "
			 "--any-repo to allow others",
			 name, path, served_root);
	return false;
}

static void where_of(targs *t, rung_vctx_opts *w)
{
	const char *dir = str_arg(t, "dir"), *task = str_arg(t, "task"), *spec = str_arg(t, "spec_rev");
	confined(t, "dir", dir, NULL);
	confined(t, "task", task, dir ? dir : defaults.dir);
	w->dir = dir ? dir : defaults.dir;
	w->task = task ? task : defaults.task;
	w->spec_rev = spec ? spec : defaults.spec_rev;
}

/* A revision or path as the CLI's positional argument: one that starts with
 * '-' would be read as an option. */
static bool positional_ok(targs *t, const char *name, const char *v)
{
	if (v && v[0] == '-') {
		if (!t->why[0])
			snprintf(t->why, sizeof(t->why), "argument '%s': '%s' is not a revision or path", name, v);
		return false;
	}
	return true;
}

/* ---- tool results ---------------------------------------------------------- */

static json_t *tool_result(json_t *text, json_t *structured, bool is_error)
{
	json_t *content = json_array();
	json_array_append_new(content, json_pack("{s:s,s:o}", "type", "text", "text", text));
	json_t *r = json_pack("{s:o}", "content", content);
	if (structured)
		json_object_set_new(r, "structuredContent", structured);
	if (is_error)
		json_object_set_new(r, "isError", json_true());
	return r;
}

/* A tool that could not run: the message, and as its exit code the one rung
 * gives the error set (an argument's fault when none is: 2). */
static json_t *tool_error(const char *fmt, const char *msg)
{
	char buf[2048];
	snprintf(buf, sizeof(buf), fmt, msg);
	int code = rung_error_last_code();
	json_t *r = tool_result(inert_string(buf, strlen(buf), TEXT_MAX), NULL, true);
	json_object_set_new(r, "_meta", json_pack("{s:i}", "rung/exit", code < 0 ? rung_cli_exit_of(code) : RUNG_EXIT_USAGE));
	return r;
}

/* Every string in j made inert in place (core/inert.h): the structured
 * content carries commit subjects, notes and compiler text too. */
static void inert_json(json_t *j)
{
	if (json_is_object(j)) {
		const char *k;
		json_t *v;
		json_object_foreach(j, k, v) {
			if (json_is_string(v))
				json_object_set_new(j, k, inert_string(json_string_value(v), json_string_length(v), SIZE_MAX / 8));
			else
				inert_json(v);
		}
	} else if (json_is_array(j)) {
		for (size_t i = 0; i < json_array_size(j); i++) {
			json_t *v = json_array_get(j, i);
			if (json_is_string(v))
				json_array_set_new(j, i, inert_string(json_string_value(v), json_string_length(v), SIZE_MAX / 8));
			else
				inert_json(v);
		}
	}
}

/* A command that failed before it had anything to say on stdout: its stderr (what rung prints). */
static json_t *command_error(const captured *c, const char *cmd)
{
	char head[64];
	snprintf(head, sizeof(head), "rung %s: exit %d\n", cmd, c->rc);
	size_t n = c->nerr ? c->nerr : strlen(head);
	json_t *r = tool_result(inert_string(c->nerr ? c->err : head, n, TEXT_MAX), NULL, true);
	json_object_set_new(r, "_meta", json_pack("{s:i}", "rung/exit", c->rc));
	return r;
}

static const char *exit_meaning(int rc)
{
	switch (rc) {
	case RUNG_EXIT_OK: return "ok";
	case RUNG_EXIT_FAIL: return "a rung failed";
	case RUNG_EXIT_USAGE: return "usage";
	case RUNG_EXIT_SPEC: return "bad task spec or launch line";
	case RUNG_EXIT_NOGPU: return "no GPU: the GPU rungs were SKIPPED";
	default: return "rung itself failed";
	}
}

/* text: stdout's lines (cut), the exit code and stderr's messages */
static json_t *summary_text(const char *lines, size_t nlines, const captured *c)
{
	size_t cap = nlines + c->nerr + 128;
	char *b = malloc(cap);
	if (!b)
		return json_string("");
	size_t o = 0;
	memcpy(b, lines, nlines);
	o = nlines;
	if (o && b[o - 1] != '\n')
		b[o++] = '\n';
	o += (size_t)snprintf(b + o, cap - o, "exit %d (%s)\n", c->rc, exit_meaning(c->rc));
	if (c->nerr) {
		memcpy(b + o, c->err, c->nerr);
		o += c->nerr;
	}
	json_t *s = inert_string(b, o, TEXT_MAX);
	free(b);
	return s;
}

/* ---- the tools -------------------------------------------------------------- */

static const char where_props[] =
	"\"task\":{\"type\":\"string\",\"description\":\"the task directory, where the repository has several (--task)\"},"
	"\"dir\":{\"type\":\"string\",\"description\":\"the repository or a directory in it (-C; default: where rung mcp runs)\"},"
	"\"spec_rev\":{\"type\":\"string\",\"description\":\"read rung.ini and the reference at this revision (--spec-rev)\"}";

/* The stop rule's state of the task the tool worked on (app/goal.h,
 * rung_goal_to_json), for the agent to branch on: null where no one task is
 * named (a repository of several, no task). */
static json_t *stop_of(targs *t)
{
	rung_vctx_opts w;
	where_of(t, &w);
	rung_vctx c;
	json_t *j = NULL;
	if (rung_vctx_open(&c, "mcp", &w, RUNG_VCTX_TASK | RUNG_VCTX_STORE_READ) == 0) {
		rung_goal_status s;
		if (rung_goal_load(&s, &c) == 0)
			j = rung_goal_to_json(&s);
		rung_goal_status_clear(&s);
		rung_vctx_close(&c);
	}
	rung_error_clear();
	return j ? j : json_null();
}

/* The recommended version under the sanitize gate (app/sanitize_gate.h),
 * for brief's structured content: null where no one task is named or none passed. */
static json_t *best_of(targs *t)
{
	rung_vctx_opts w;
	where_of(t, &w);
	rung_vctx c;
	json_t *j = NULL;
	if (rung_vctx_open(&c, "mcp", &w, RUNG_VCTX_TASK | RUNG_VCTX_STORE_READ) == 0) {
		j = rung_gate_best_json(&c);
		rung_vctx_close(&c);
	}
	rung_error_clear();
	return j ? j : json_null();
}

/* This thread's warm evaluator, opened now the first time (NULL when it
 * cannot be: the check then opens one of its own). */
static rung_evaluator *thread_warm(void)
{
	if (!cur_warm) {
		rung_evaluator *e = calloc(1, sizeof(*e));
		if (e && rung_check_warm_open(e) == 0)
			cur_warm = e;
		else
			free(e);
		rung_error_clear();
	}
	return cur_warm;
}

static void thread_warm_close(void)
{
	if (!cur_warm)
		return;
	rung_check_warm_close(cur_warm);
	free(cur_warm);
	cur_warm = NULL;
}

/* The check tool: the check service (app/check.h) with the arguments as its
 * request, as `rung check` asks it; the text is the rung lines, the exit line
 * and rung's messages (cli/check_view.h), the structured content the one JSON
 * form (rung_check_to_json) with the stop state. */
static json_t *t_check(targs *t)
{
	rung_check_request req = {.budget_s = NAN};
	where_of(t, &req.where);
	const char *dir = str_arg(t, "dir");
	req.target = str_arg(t, "rev");
	if (req.target && positional_ok(t, "rev", req.target))
		confined(t, "rev", req.target, dir ? dir : defaults.dir);
	req.compile_only = bool_arg(t, "compile_only");
	req.force = bool_arg(t, "force");
	const char *seed = str_arg(t, "seed");
	if (seed) {
		char *end = NULL;
		errno = 0;
		unsigned long long x = strtoull(seed, &end, 0);
		if (!isdigit((unsigned char)seed[0]) || *end || errno == ERANGE) { /* as --seed: no sign */
			if (!t->why[0])
				snprintf(t->why, sizeof(t->why),
					 "argument 'seed': expected a non-negative integer (decimal or 0x hex), found '%.200s'", seed);
		} else {
			req.seed_set = true;
			req.seed = x;
		}
	}
	json_t *b = json_object_get(t->args, "budget");
	if (b && !json_is_null(b)) {
		double v = json_number_value(b);
		if ((!json_is_number(b) || !(v > 0 && v <= 3600)) && !t->why[0]) /* as --budget: (0, 3600] */
			snprintf(t->why, sizeof(t->why), "argument 'budget': expected a number of seconds above 0, at most 3600");
		req.budget_s = v;
	}
	if (t->why[0]) {
		char msg[1536];
		snprintf(msg, sizeof(msg), "rung check: %s", t->why);
		return tool_error("%s", msg);
	}
	req.warm = req.compile_only ? NULL : thread_warm();
	req.cancel = cur_job ? &cur_job->stop : NULL;
	rung_check_result c;
	rung_check(&c, &req);
	int code = rung_check_exit(&c);
	char *said = NULL, *text = NULL;
	size_t nsaid = 0, ntext = 0;
	FILE *m = open_memstream(&said, &nsaid); /* what rung check says on stderr */
	if (m) {
		rung_check_print_before(m, &c);
		rung_check_print_after(m, &c);
		fclose(m);
	}
	if (nsaid) /* for the person watching the agent's log (fd 2: never the stderr FILE) */
		say("%s", said);
	json_t *r;
	if (!c.loaded) {
		r = tool_result(inert_string(nsaid ? said : "rung check: failed\n", nsaid ? nsaid : 19, TEXT_MAX), NULL, true);
	} else {
		m = open_memstream(&text, &ntext);
		if (m) {
			rung_check_print_lines(m, &c);
			fprintf(m, "exit %d (%s)\n", code, exit_meaning(code));
			if (nsaid)
				fwrite(said, 1, nsaid, m);
			fclose(m);
		}
		json_t *j = rung_check_to_json(&c);
		if (j)
			json_object_set_new(j, "stop", stop_of(t));
		r = j ? tool_result(inert_string(text ? text : "", ntext, TEXT_MAX), j, false) : NULL;
	}
	if (r)
		json_object_set_new(r, "_meta", json_pack("{s:i}", "rung/exit", code));
	free(said);
	free(text);
	rung_check_result_clear(&c);
	return r;
}

/* The SASS listing at path as an excerpt of at most max bytes (core/sass_excerpt.h),
 * the version's stored stall samples or counts choosing the hottest lines:
 * {path, bytes, offset 0, truncated, excerpt true, text}; NULL when unreadable. */
static json_t *sass_excerpt(targs *t, const char *path, size_t max)
{
	char *raw = NULL;
	size_t n = 0;
	if (rung_fs_read_file(&raw, &n, path, 64u << 20) < 0) {
		rung_error_clear();
		return NULL;
	}
	bool cut = false;
	rung_vctx_opts w;
	where_of(t, &w);
	int nh = 0;
	const char *what = NULL, *rev = str_arg(t, "rev");
	rung_sass_heat *heat = rung_profile_heat_load(&w, rev ? rev : "HEAD", &nh, &what);
	char *ex = rung_sass_excerpt_hot(raw, n, max, heat, nh, what, &cut);
	free(heat);
	free(raw);
	if (!ex)
		return NULL;
	json_t *o = json_pack("{s:s,s:I,s:i,s:b,s:b}", "path", path, "bytes", (json_int_t)n, "offset", 0, "truncated", cut,
			      "excerpt", true);
	json_object_set_new(o, "text", inert_string(ex, strlen(ex), max + 1024));
	free(ex);
	return o;
}

/* path's bytes [offset, offset + max) as {path, bytes, offset, truncated, text} */
static json_t *file_text(const char *path, size_t offset, size_t max)
{
	char *s = NULL;
	size_t n = 0;
	struct stat st;
	if (stat(path, &st) != 0)
		return NULL;
	if (rung_fs_read_head(&s, &n, path, offset + max) < 0) {
		rung_error_clear();
		return NULL;
	}
	size_t from = offset < n ? offset : n;
	json_t *o = json_pack("{s:s,s:I,s:I,s:b}", "path", path, "bytes", (json_int_t)st.st_size, "offset",
			      (json_int_t)from, "truncated", (size_t)st.st_size > n);
	json_object_set_new(o, "text", inert_string(s + from, n - from, max));
	free(s);
	return o;
}

/* The where arguments and rev (checked: not an option, inside the served
 * repository): rev, NULL when not given; t->why says what is wrong. */
static const char *where_rev(targs *t, rung_vctx_opts *w)
{
	where_of(t, w);
	const char *rev = str_arg(t, "rev"), *dir = str_arg(t, "dir");
	if (rev && positional_ok(t, "rev", rev))
		confined(t, "rev", rev, dir ? dir : defaults.dir);
	return rev;
}

/* The tool error of a bad argument (t->why), as "rung CMD: ...". */
static json_t *why_error(targs *t, const char *cmd)
{
	char msg[1536];
	snprintf(msg, sizeof(msg), "rung %s: %s", cmd, t->why);
	return tool_error("%s", msg);
}

/* Memory streams for a tool's text and messages, into c->out and c->err:
 * 0, or RUNG_ENOMEM (nothing open). */
static int texts_open(captured *c, FILE **text, FILE **err)
{
	memset(c, 0, sizeof(*c));
	*text = open_memstream(&c->out, &c->nout);
	*err = open_memstream(&c->err, &c->nerr);
	if (*text && *err)
		return 0;
	if (*text)
		fclose(*text);
	if (*err)
		fclose(*err);
	captured_clear(c);
	return rung_error_set(RUNG_ENOMEM, "out of memory");
}

/* Closes them; the messages are echoed on stderr for the person watching the
 * agent's log. */
static void texts_close(captured *c, FILE *text, FILE *err)
{
	fclose(text);
	fclose(err);
	if (c->nerr)
		fprintf(stderr, "%s", c->err);
	rung_error_clear();
}

/* rung dump of rev (NULL: the task's working tree) where w says (app/dump.h),
 * shown as rung dump shows it: c->out the paths written, a line each, c->err
 * its messages, c->rc its exit code (clear c). 0, or RUNG_ENOMEM. */
static int dump_run(captured *c, const rung_vctx_opts *w, const char *rev)
{
	FILE *out, *err;
	if (texts_open(c, &out, &err) < 0)
		return RUNG_ENOMEM;
	rung_task task;
	c->rc = rung_cli_task_load_to(err, &task, "dump", rev, w);
	if (!c->rc) {
		rung_dump_result r;
		rung_dump(&r, &(rung_dump_req){.task = &task});
		c->rc = rung_cli_dump_print(out, err, &r);
		rung_dump_result_clear(&r);
	}
	rung_task_clear(&task);
	texts_close(c, out, err);
	return 0;
}

static json_t *t_dump(targs *t)
{
	long long max = DUMP_TEXT_DEFAULT, offset = 0;
	int_arg(t, "max_bytes", 1, DUMP_TEXT_MAX, &max);
	int_arg(t, "offset", 0, LLONG_MAX / 4, &offset);
	rung_vctx_opts w;
	const char *rev = where_rev(t, &w);
	if (t->why[0])
		return why_error(t, "dump");
	captured c;
	if (dump_run(&c, &w, rev) < 0)
		return tool_error("rung dump: %s", rung_error_last());
	/* a version that does not compile (exit 1) still has its source and log
	 * written: a result, as check gives, with the log; anything else is an error */
	if (c.rc != 0 && (c.rc != RUNG_EXIT_FAIL || !c.nout)) {
		json_t *r = command_error(&c, "dump");
		captured_clear(&c);
		return r;
	}
	json_t *paths = json_array(), *st = json_object();
	char *dir = NULL;
	for (char *line = c.out, *nl; line && *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line);
		char p[PATH_MAX];
		snprintf(p, sizeof(p), "%.*s", (int)(nl - line), line);
		char real[PATH_MAX];
		const char *abs = realpath(p, real) ? real : p;
		json_array_append_new(paths, json_string(abs));
		if (!dir)
			dir = rung_fs_dir_of(abs);
		const char *base = strrchr(abs, '/') ? strrchr(abs, '/') + 1 : abs;
		static const char *const keep[][2] = {
			{"kernel.ptx", "ptx"}, {"kernel.sass", "sass"}, {"ptxas.log", "ptxas_log"}};
		for (size_t k = 0; k < sizeof(keep) / sizeof(keep[0]); k++) {
			json_t *f;
			/* the SASS from its start: an excerpt (line info once per line, the
			 * lines chosen by relevance when cut); a page at an offset: the bytes as written */
			bool ex = !strcmp(keep[k][1], "sass") && offset == 0;
			if (!strcmp(base, keep[k][0]) &&
			    (f = ex ? sass_excerpt(t, abs, (size_t)max) : file_text(abs, (size_t)offset, (size_t)max)))
				json_object_set_new(st, keep[k][1], f);
		}
		if (!*nl)
			break;
	}
	json_object_set_new(st, "dir", json_string(dir ? dir : ""));
	json_object_set_new(st, "paths", paths);
	json_object_set_new(st, "max_bytes", json_integer(max));
	json_object_set_new(st, "offset", json_integer(offset));
	free(dir);
	json_t *r = tool_result(summary_text(c.out, c.nout, &c), st, false);
	json_object_set_new(r, "_meta", json_pack("{s:i}", "rung/exit", c.rc));
	captured_clear(&c);
	return r;
}

/* stalls: rung profile --stalls --json, once (a GPU run); the text is the
 * kernel's top stall reasons and its most sampled pcs, made from the JSON. */
/* The samples as structured content, within an agent's answer (32 KB, #27):
 * past STALL_RECORDS_MAX bytes, the records of the most sampled pcs only, in
 * pc order, with records_total (all pcs) and records_cut. */
#define STALL_RECORDS_MAX (20u << 10)
static void cut_stall_records(json_t *sj, const rung_stall *st)
{
	json_t *recs = json_object_get(sj, "records");
	char *d = recs ? json_dumps(recs, JSON_COMPACT) : NULL;
	size_t len = d ? strlen(d) : 0;
	free(d);
	if (!recs || len <= STALL_RECORDS_MAX || st->n != (int)json_array_size(recs))
		return;
	int keep = (int)((double)st->n * STALL_RECORDS_MAX / (double)len);
	int *top = keep > 0 ? malloc(sizeof(int) * (size_t)keep) : NULL;
	int nt = top ? rung_stall_top_rows(top, keep, st) : 0;
	bool *on = calloc((size_t)st->n, sizeof(bool));
	json_t *kept = json_array();
	for (int k = 0; on && k < nt; k++)
		on[top[k]] = true;
	for (int i = 0; on && kept && i < st->n; i++) /* records are in pc order, as rung_stall keeps them */
		if (on[i])
			json_array_append(kept, json_array_get(recs, (size_t)i));
	if (on && kept) {
		json_object_set_new(sj, "records_total", json_integer(st->n));
		json_object_set_new(sj, "records_cut", json_true());
		json_object_set_new(sj, "records", kept);
	} else {
		json_decref(kept);
	}
	free(on);
	free(top);
}

/* One sampled launch of rev (app/profile_extra.h, rung_per_pc), as rung
 * profile --stalls --json runs it: its object (a load error's too, as the
 * command prints it), NULL when it failed before it had one (its lines on
 * out, messages on err); c->rc its exit code. */
static json_t *stalls_run(captured *c, FILE *out, FILE *err, const rung_vctx_opts *w, const char *rev)
{
	rung_task task;
	c->rc = rung_cli_task_load_to(err, &task, "profile", rev, w);
	if (c->rc) {
		rung_task_clear(&task);
		return rung_cli_json_error_obj(c->rc);
	}
	rung_compiled kc, refc;
	memset(&kc, 0, sizeof(kc));
	memset(&refc, 0, sizeof(refc));
	rung_result r;
	rung_result_init(&r);
	rung_eval_opts eo = {
		.job_flags = RUNG_JOB_PROFILE | RUNG_JOB_STALLS,
		.sanitize_set = true, /* no sanitize rung in a profiling run */
		.progress = rung_cli_progress,
	};
	json_t *j = NULL;
	if ((c->rc = rung_cli_evaluate_to(out, err, &r, &task, &eo, &kc, &refc, "profile")) == 0) {
		c->rc = rung_gpu_exit_code(&r, RUNG_STEP_CHECK);
		if (r.steps[RUNG_STEP_PROFILE].status == RUNG_S_FAILED && c->rc == RUNG_EXIT_OK)
			c->rc = RUNG_EXIT_FAIL;
		rung_per_pc p;
		rung_per_pc_load(&p, &task, &r, "stall");
		if (p.stored < 0)
			fprintf(err, "rung profile: %s (the stall samples were not stored)\\n", p.store_error);
		j = rung_per_pc_to_json(&p, "stall");
		rung_per_pc_clear(&p);
	}
	rung_result_clear(&r);
	rung_compiled_clear(&kc);
	rung_compiled_clear(&refc);
	rung_task_clear(&task);
	return j;
}

static json_t *t_stalls(targs *t)
{
	rung_vctx_opts w;
	const char *rev = where_rev(t, &w);
	if (t->why[0])
		return why_error(t, "profile");
	captured c;
	FILE *out, *err;
	if (texts_open(&c, &out, &err) < 0)
		return tool_error("rung profile: %s", rung_error_last());
	json_t *j = stalls_run(&c, out, err, &w, rev);
	texts_close(&c, out, err);
	const char *jst = json_string_value(json_object_get(j, "status"));
	if (!j || (jst && !strcmp(jst, "error"))) { /* the error object: a bad task, an argument */
		json_decref(j);
		json_t *r = command_error(&c, "profile");
		captured_clear(&c);
		return r;
	}
	char *txt = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&txt, &len);
	rung_stall st;
	const json_t *sj = json_object_get(j, "stall");
	if (f && sj && rung_stall_from_json(&st, sj) == 0) {
		fprintf(f, "%llu warp stall samples at %d pcs; top stall reasons:\n", (unsigned long long)st.total, st.n);
		rung_stall_print_bars(f, &st, 8, 30);
		int top[5];
		int nt = rung_stall_top_rows(top, 5, &st);
		fprintf(f, "most sampled pcs (their SASS: the dump tool's kernel.sass):\n");
		for (int k = 0; k < nt; k++) {
			char label[64] = "";
			int rr = rung_stall_row_top(&st, top[k]);
			if (rr >= 0)
				rung_stall_label(label, sizeof(label), st.reasons[rr]);
			fprintf(f, "  pc 0x%04llx  %5.1f%%  %s\n", (unsigned long long)st.pc[top[k]],
				st.total ? 100.0 * (double)rung_stall_row_total(&st, top[k]) / (double)st.total : 0.0, label);
		}
		cut_stall_records(json_object_get(j, "stall"), &st);
		rung_stall_clear(&st);
	} else if (f) {
		rung_error_clear();
		const char *status = json_string_value(json_object_get(j, "status")),
			   *reason = json_string_value(json_object_get(j, "reason"));
		fprintf(f, "no stall samples: %s %s\n", status ? status : "?", reason ? reason : "");
	}
	if (f)
		fclose(f);
	json_t *text = inert_string(txt ? txt : "", txt ? len : 0, TEXT_MAX);
	free(txt);
	json_t *r = tool_result(text, j, false);
	json_object_set_new(r, "_meta", json_pack("{s:i}", "rung/exit", c.rc));
	captured_clear(&c);
	return r;
}

/* compare: the comparison (app/compare.h) as structured content, as rung
 * compare --json gives it; the text is the exit code and the messages. */
static json_t *t_compare(targs *t)
{
	const char *A = str_arg(t, "a"), *B = str_arg(t, "b");
	if ((!A || !B) && !t->why[0])
		snprintf(t->why, sizeof(t->why), "rung compare: arguments 'a' and 'b' (two revisions) are required");
	json_t *bj = json_object_get(t->args, "budget");
	char bud[64];
	if (bj && json_is_number(bj))
		snprintf(bud, sizeof(bud), "%.17g", json_number_value(bj));
	bool allow_shared = bool_arg(t, "allow_shared");
	rung_vctx_opts w;
	where_of(t, &w);
	const char *dir = str_arg(t, "dir");
	if (A && B && positional_ok(t, "a", A) && positional_ok(t, "b", B) && confined(t, "a", A, dir ? dir : defaults.dir))
		confined(t, "b", B, dir ? dir : defaults.dir);
	if (t->why[0])
		return tool_error("%s", t->why);
	captured c;
	FILE *out, *err;
	if (texts_open(&c, &out, &err) < 0)
		return tool_error("rung: %s", rung_error_last());
	rung_compare_result cr;
	c.rc = rung_cli_compare_run(err, &cr, &w, A, B, bj && json_is_number(bj) ? bud : NULL, allow_shared,
				    bool_arg(t, "stored"), bool_arg(t, "any_gpu"));
	json_t *j = c.rc ? NULL : rung_compare_to_json(&cr);
	if (j)
		c.rc = rung_cli_compare_exit(&cr);
	rung_compare_result_clear(&cr);
	texts_close(&c, out, err);
	json_t *r;
	if (!j)
		r = command_error(&c, "compare");
	else {
		r = tool_result(summary_text("", 0, &c), j, false);
		json_object_set_new(r, "_meta", json_pack("{s:i}", "rung/exit", c.rc));
	}
	captured_clear(&c);
	return r;
}

/* The rows of one task (w) into rows, its table onto text, its messages onto
 * err: the exit code, as rung log gives it. */
static int log_task(json_t *rows, FILE *text, FILE *err, const rung_vctx_opts *w, const rung_log_req *req)
{
	rung_vctx c;
	int rc = rung_cli_vctx_open_to(err, &c, "log", w, RUNG_VCTX_TASK | RUNG_VCTX_STORE_READ);
	if (rc)
		return rc;
	rung_log l;
	int e = rung_log_load(&l, &c, req);
	if (e < 0) {
		rc = rung_cli_fail_to(err, "log", e);
	} else {
		for (int i = 0; i < l.n; i++) {
			json_t *row = rung_log_row_to_json(&l, i);
			if (row)
				json_array_append_new(rows, row);
		}
		rung_cli_log_table(text, &l, c.task.kernel_path);
	}
	rung_log_clear(&l);
	rung_vctx_close(&c);
	return rc;
}

/* log: the rows (app/log.h) as structured content, as rung log --json gives
 * them, and rung log's table as the text, from one load; at the root of a
 * repository of several tasks, every task's (as rung log runs there). */
static json_t *t_log(targs *t)
{
	long long n = LOG_ROWS_DEFAULT;
	int_arg(t, "n", 0, INT_MAX, &n);
	rung_log_req req = {.range = str_arg(t, "range"), .max = (int)n, .goal = true};
	bool full = bool_arg(t, "full");
	rung_vctx_opts w;
	where_of(t, &w);
	if (t->why[0])
		return tool_error("%s", t->why);
	captured c;
	FILE *text, *err;
	if (texts_open(&c, &text, &err) < 0)
		return tool_error("rung log: %s", rung_error_last());
	json_t *rows = json_array();
	char **tasks;
	int ntasks;
	if (rung_vctx_root_tasks(&tasks, &ntasks, &w) == 0) {
		for (int i = 0; i < ntasks; i++) {
			char abs[PATH_MAX];
			rung_root_task_path(abs, sizeof(abs), tasks[i]);
			rung_vctx_opts tw = w;
			tw.task = abs;
			fprintf(text, "%s== task %s\n", i ? "\n" : "", tasks[i][0] ? tasks[i] : ".");
			int rc = log_task(rows, text, err, &tw, &req);
			if (rc > c.rc)
				c.rc = rc;
		}
		rung_strv_free(tasks, ntasks);
	} else {
		c.rc = log_task(rows, text, err, &w, &req);
	}
	texts_close(&c, text, err);
	json_t *r;
	if (c.rc != 0 || !rows) {
		json_decref(rows);
		r = command_error(&c, "log");
		captured_clear(&c);
		return r;
	}
	for (size_t i = 0; !full && i < json_array_size(rows); i++) {
		json_t *row = json_array_get(rows, i);
		static const char *const recs[] = {"result", "recorded"};
		for (size_t k = 0; k < 2; k++) { /* the record summed up: the row has its numbers */
			json_t *rec = json_object_get(row, recs[k]);
			if (!json_is_object(rec))
				continue;
			json_t *sum = json_object();
			static const char *const keep[] = {"key", "status", "created", "recorded_note", "floor_ms"};
			for (size_t f = 0; f < sizeof(keep) / sizeof(keep[0]); f++)
				if (json_object_get(rec, keep[f]))
					json_object_set(sum, keep[f], json_object_get(rec, keep[f]));
			json_t *med = json_object_get(json_object_get(rec, "bench"), "median_ms");
			if (med)
				json_object_set(sum, "median_ms", med);
			json_object_set_new(row, recs[k], sum);
		}
	}
	r = tool_result(summary_text(c.out, c.nout, &c), json_pack("{s:o}", "rows", rows), false);
	json_object_set_new(r, "_meta", json_pack("{s:i}", "rung/exit", c.rc));
	captured_clear(&c);
	return r;
}

static json_t *directive_json(const rung_directive_item *it)
{
	const rung_directive *d = it->d;
	json_t *o = json_pack("{s:s,s:s,s:b,s:s,s:s,s:I,s:s}", "id", it->id, "status",
			      rung_dstatus_name(rung_directive_status(d)), "task_wide", d->task_wide, "version",
			      it->note->commit, "author", d->author, "time", (json_int_t)d->time, "text", "");
	json_object_set_new(o, "text", inert_string(d->text, strlen(d->text), TEXT_MAX));
	json_object_set_new(o, "subject", inert_string(it->subject, strlen(it->subject), 256));
	if (d->answer != RUNG_ANSWER_NONE) {
		json_t *an = json_pack("{s:s,s:s,s:I}", "kind", rung_answer_name(d->answer), "author", d->answer_author, "time",
				       (json_int_t)d->answer_time);
		json_object_set_new(an, "by_version", d->answer_version[0] ? json_string(d->answer_version) : json_null());
		json_object_set_new(an, "reason", d->answer_text ? inert_string(d->answer_text, strlen(d->answer_text), TEXT_MAX)
								 : json_null());
		json_object_set_new(o, "answer", an);
	}
	/* every answer, oldest first: an agent's answer after the person's close is kept beside it */
	json_t *hist = json_array();
	int standing = rung_directive_standing(d);
	for (int k = 0; k < d->nanswers; k++) {
		const rung_answer_rec *a = &d->answers[k];
		json_t *h = json_pack("{s:s,s:s,s:I,s:b}", "kind", rung_answer_name(a->kind), "author", a->author, "time",
				      (json_int_t)a->time, "standing", k == standing);
		json_object_set_new(h, "by_version", a->version[0] ? json_string(a->version) : json_null());
		json_object_set_new(h, "reason", a->text ? inert_string(a->text, strlen(a->text), TEXT_MAX) : json_null());
		json_array_append_new(hist, h);
	}
	json_object_set_new(o, "answers", hist);
	return o;
}

static void directive_line(FILE *f, const rung_directive_item *it)
{
	const rung_directive *d = it->d;
	fprintf(f, "[%s] %s%s on %s \"%s\" (%s): %s\n", it->id, rung_dstatus_name(rung_directive_status(d)),
		d->task_wide ? " task-wide" : "", it->short_id, it->subject, d->author, d->text);
	if (d->answer != RUNG_ANSWER_NONE)
		fprintf(f, "    %s%s%.7s (%s)%s%s\n", rung_answer_name(d->answer), d->answer_version[0] ? " by " : "",
			d->answer_version, d->answer_author, d->answer_text ? ": " : "", d->answer_text ? d->answer_text : "");
	int standing = rung_directive_standing(d);
	for (int k = 0; k < d->nanswers; k++)
		if (k != standing)
			fprintf(f, "    also %s%s%.7s (%s)%s%s\n", rung_answer_name(d->answers[k].kind),
				d->answers[k].version[0] ? " by " : "", d->answers[k].version, d->answers[k].author,
				d->answers[k].text ? ": " : "", d->answers[k].text ? d->answers[k].text : "");
}

/* The directives of the task, as a result: all, or the open ones (id: the one with that id). */
static json_t *directives_result(rung_vctx *c, bool all, const char *only_id)
{
	rung_directives ds;
	int e = rung_directives_load(&ds, c);
	if (e < 0)
		return tool_error("rung mcp: %s", rung_error_last());
	int one = only_id ? rung_directives_find(&ds, only_id) : -1;
	rung_error_clear();
	json_t *arr = json_array();
	char *text = NULL;
	size_t tlen = 0;
	FILE *f = open_memstream(&text, &tlen);
	int shown = 0;
	for (int i = 0; i < ds.n; i++) {
		if (only_id ? i != one : !all && rung_directive_status(ds.items[i].d) != RUNG_DSTATUS_OPEN)
			continue;
		json_array_append_new(arr, directive_json(&ds.items[i]));
		if (f)
			directive_line(f, &ds.items[i]);
		shown++;
	}
	if (f && !shown)
		fprintf(f, "%s\n", all ? "no directives" : "no open directives");
	if (f)
		fclose(f);
	json_t *st = json_pack("{s:o}", "directives", arr);
	json_t *r = tool_result(inert_string(text ? text : "", text ? tlen : 0, TEXT_MAX), st, false);
	free(text);
	rung_directives_clear(&ds);
	return r;
}

/* brief: rung brief's markdown (app/brief.h) as the text, once; at the root
 * of a repository of several tasks, every task's, one after the other. */
static json_t *t_brief(targs *t)
{
	long long n = 10;
	int_arg(t, "n", 0, 100000, &n);
	bool mark = bool_arg(t, "mark");
	rung_vctx_opts w;
	where_of(t, &w);
	if (t->why[0])
		return why_error(t, "brief");
	captured c;
	FILE *text, *err;
	if (texts_open(&c, &text, &err) < 0)
		return tool_error("rung brief: %s", rung_error_last());
	char **tasks;
	int ntasks;
	if (rung_vctx_root_tasks(&tasks, &ntasks, &w) == 0) {
		for (int i = 0; i < ntasks; i++) {
			char abs[PATH_MAX];
			rung_root_task_path(abs, sizeof(abs), tasks[i]);
			rung_vctx_opts tw = w;
			tw.task = abs;
			int rc = rung_cli_brief_to(text, err, &tw, (int)n, mark);
			if (rc > c.rc)
				c.rc = rc;
		}
		rung_strv_free(tasks, ntasks);
	} else {
		c.rc = rung_cli_brief_to(text, err, &w, (int)n, mark);
	}
	texts_close(&c, text, err);
	if (c.rc != 0 && !c.nout) {
		json_t *r = command_error(&c, "brief");
		captured_clear(&c);
		return r;
	}
	/* the markdown once, as the text; the structured content says only the exit */
	json_t *md = inert_string(c.out ? c.out : "", c.nout, TEXT_MAX);
	json_t *st = json_pack("{s:i,s:I,s:o,s:o}", "exit", c.rc, "bytes", (json_int_t)c.nout, "stop", stop_of(t), "best",
			       best_of(t));
	json_t *r = tool_result(md, st, c.rc != 0);
	json_object_set_new(r, "_meta", json_pack("{s:i}", "rung/exit", c.rc));
	captured_clear(&c);
	return r;
}

static json_t *t_directives(targs *t)
{
	bool all = bool_arg(t, "all");
	rung_vctx_opts w;
	where_of(t, &w);
	if (t->why[0])
		return tool_error("rung mcp: %s", t->why);
	rung_vctx c;
	if (rung_vctx_open(&c, "mcp", &w, RUNG_VCTX_TASK_IF_ONE) < 0)
		return tool_error("rung mcp: %s", rung_error_last());
	json_t *r = directives_result(&c, all, NULL);
	rung_vctx_close(&c);
	return r;
}

static json_t *t_ack(targs *t)
{
	const char *id = str_arg(t, "id"), *status = str_arg(t, "status"), *reason = str_arg(t, "reason"),
		   *version = str_arg(t, "version");
	rung_answer_kind kind = RUNG_ANSWER_NONE;
	if (!t->why[0] && (!id || !status || !reason || !*reason))
		snprintf(t->why, sizeof(t->why), "arguments 'id', 'status' (done or declined) and 'reason' are required");
	else if (!t->why[0] && strcmp(status, "done") && strcmp(status, "declined"))
		snprintf(t->why, sizeof(t->why), "argument 'status': '%s': done or declined", status);
	else if (!t->why[0])
		kind = !strcmp(status, "done") ? RUNG_ANSWER_DONE : RUNG_ANSWER_DECLINED;
	rung_vctx_opts w;
	where_of(t, &w);
	if (t->why[0])
		return tool_error("rung note: %s", t->why);
	rung_vctx c;
	if (rung_vctx_open(&c, "mcp", &w, RUNG_VCTX_TASK_IF_ONE) < 0)
		return tool_error("rung note: %s", rung_error_last());
	char by[41];
	json_t *r;
	if (rung_directive_answer(&c, id, kind, version, reason, by) < 0)
		r = tool_error("rung note: %s", rung_error_last());
	else
		r = directives_result(&c, true, id);
	rung_vctx_close(&c);
	return r;
}

typedef struct {
	const char *name, *title, *description;
	const char *props;    /* the inputSchema's properties, without the where ones */
	const char *required; /* a JSON array */
	json_t *(*fn)(targs *t);
	bool read_only;
	const char *out_props;    /* the outputSchema's properties (JSON object members) */
	const char *out_required; /* a JSON array */
} tool;

/* Pieces of the output schemas (docs/CLI.md, "rung mcp", describes each
 * structured result): what the tools below build. */
#define S_STR "{\"type\":\"string\"}"
#define S_INT "{\"type\":\"integer\"}"
#define S_BOOL "{\"type\":\"boolean\"}"
#define S_OBJ "{\"type\":\"object\"}"
#define S_NUM_OR_NULL "{\"type\":[\"number\",\"null\"]}"
#define S_DIRECTIVES \
	"\"directives\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"required\":[\"id\",\"status\",\"text\"]," \
	"\"properties\":{\"id\":" S_STR ",\"status\":{\"enum\":[\"open\",\"done\",\"declined\",\"closed\"]}," \
	"\"task_wide\":" S_BOOL ",\"version\":" S_STR ",\"author\":" S_STR ",\"time\":" S_INT ",\"text\":" S_STR \
	",\"subject\":" S_STR ",\"answer\":" S_OBJ ",\"answers\":{\"type\":\"array\",\"items\":" S_OBJ "}}}}"
#define S_DUMPFILE \
	"{\"type\":\"object\",\"required\":[\"path\",\"bytes\",\"truncated\",\"text\"],\"properties\":{\"path\":" S_STR \
	",\"bytes\":" S_INT ",\"truncated\":" S_BOOL ",\"text\":" S_STR ",\"offset\":" S_INT ",\"excerpt\":" S_BOOL "}}"

static const tool tools[] = {
	{"check", "Check a version",
	 "Compile, run, check and bench one version of the task (rung check): the rung lines as text, the result JSON "
	 "(docs/RESULT-JSON.md) as structured content, with the task's stop state after it under stop (as brief's). "
	 "compile_only needs no GPU.",
	 "\"rev\":{\"type\":\"string\",\"description\":\"a revision (HEAD, a commit), a task directory or a kernel file; default: the task's working tree\"},"
	 "\"compile_only\":{\"type\":\"boolean\",\"description\":\"stop after the compile rung\"},"
	 "\"force\":{\"type\":\"boolean\",\"description\":\"run the GPU rungs even when the store has this content's result\"},"
	 "\"seed\":{\"type\":\"string\",\"description\":\"base seed for the input data (decimal or 0x hex)\"},"
	 "\"budget\":{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":3600,\"description\":\"time budget of the bench rung in seconds\"}",
	 "[]", t_check, false,
	 "\"task\":" S_STR ",\"dir\":" S_STR ",\"arch\":" S_STR ",\"rev\":" S_STR ",\"cached\":" S_BOOL ",\"status\":" S_STR
	 ",\"steps\":{},\"suspects\":{\"type\":\"array\"},\"result\":" S_OBJ ",\"seed\":" S_STR ",\"kernel\":" S_OBJ
	 ",\"reference\":{},\"launch\":{},\"stop\":{\"type\":[\"object\",\"null\"]}", "[\"status\"]"},
	{"dump", "Dump PTX and SASS",
	 "Compile the kernel and the reference and write kernel.cu/.ptx/.cubin/.sass and ptxas.log (rung dump): the "
	 "paths, and the PTX, SASS and ptxas log text of the kernel, each cut at max_bytes.",
	 "\"rev\":{\"type\":\"string\",\"description\":\"a revision, task directory or kernel file\"},"
	 "\"max_bytes\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":4194304,\"description\":\"at most this much of each text (default 8192)\"},"
	 "\"offset\":{\"type\":\"integer\",\"minimum\":0,\"description\":\"each text from this byte on (to page through it; default 0)\"}",
	 "[]", t_dump, false,
	 "\"dir\":" S_STR ",\"paths\":{\"type\":\"array\",\"items\":" S_STR "},\"max_bytes\":" S_INT ",\"offset\":" S_INT
	 ",\"ptx\":" S_DUMPFILE ",\"sass\":" S_DUMPFILE ",\"ptxas_log\":" S_DUMPFILE, "[\"dir\",\"paths\"]"},
	{"stalls", "Where the warps wait",
	 "Sample one launch of a version with CUPTI PC sampling (rung profile --stalls, a GPU run, never timed): the "
	 "kernel's top warp stall reasons (ncu's names) and its most sampled pcs as text, the samples per pc as "
	 "structured content; stored beside the result for the workbench and rung brief.",
	 "\"rev\":{\"type\":\"string\",\"description\":\"a revision, task directory or kernel file\"}",
	 "[]", t_stalls, false,
	 "\"status\":" S_STR ",\"reason\":" S_STR ",\"stored\":" S_BOOL ",\"stall\":" S_OBJ, "[\"status\"]"},
	{"compare", "Compare two versions",
	 "Time two versions interleaved on the GPU, every launch verified (rung compare --json): SAME, FASTER, SLOWER or DISAGREE.",
	 "\"a\":{\"type\":\"string\",\"description\":\"the first revision\"},"
	 "\"b\":{\"type\":\"string\",\"description\":\"the second revision\"},"
	 "\"budget\":{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":3600,\"description\":\"time budget in seconds\"},"
	 "\"allow_shared\":{\"type\":\"boolean\",\"description\":\"compare on a GPU other processes use too\"},"
	 "\"stored\":{\"type\":\"boolean\",\"description\":\"compare the stored results' bench samples instead of timing now "
	 "(rung compare --stored; no GPU needed)\"},"
	 "\"any_gpu\":{\"type\":\"boolean\",\"description\":\"with stored: compare results timed on different GPU models (else "
	 "OTHER_GPU)\"}",
	 "[\"a\",\"b\"]", t_compare, false,
	 "\"verdict\":" S_STR ",\"identical\":" S_BOOL, "[\"verdict\"]"},
	{"log", "Versions and results",
	 "One row per version with its stored results (rung log): the table as text, rung log --json as structured content "
	 "(each row's result and recorded result summed up unless full).",
	 "\"n\":{\"type\":\"integer\",\"minimum\":0,\"description\":\"the newest N versions only (default 20; 0: all)\"},"
	 "\"range\":{\"type\":\"string\",\"description\":\"only these versions (a git range, A..B)\"},"
	 "\"full\":{\"type\":\"boolean\",\"description\":\"each row's whole result records (about 10 KB a row)\"}",
	 "[]", t_log, true,
	 "\"rows\":{\"type\":\"array\",\"items\":{\"type\":\"object\",\"required\":[\"rev\"],\"properties\":{\"rev\":" S_STR
	 ",\"short\":" S_STR ",\"subject\":" S_STR ",\"result\":{\"type\":[\"object\",\"null\"]},\"recorded\":{\"type\":[\"object\",\"null\"]}}}}",
	 "[\"rows\"]"},
	{"brief", "Task brief",
	 "The markdown brief of the task (rung brief): the stop rule's STOP or CONTINUE line, roofline floor, best and "
	 "baseline, the last versions, the person's verdicts, remarks and directives with their ids; the stop state as "
	 "structured content (stop: state, stop, which, line, roof, speedup, since_gain, met_by, done), and best: the "
	 "version to build on under the sanitize gate (version, short, state sanitized|not-sanitized|unsanitized, "
	 "provisional, detail, pending: a faster one not sanitized yet). mark: remember "
	 "what it showed as new.",
	 "\"n\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":100000,\"description\":\"list the last N versions (default 10)\"},"
	 "\"mark\":{\"type\":\"boolean\",\"description\":\"remember what this brief showed as new (rung brief --mark)\"}",
	 "[]", t_brief, false,
	 "\"exit\":" S_INT ",\"bytes\":" S_INT ",\"stop\":{\"type\":[\"object\",\"null\"]},\"best\":{\"type\":[\"object\",\"null\"]}", "[\"exit\"]"},
	{"directives", "Open directives",
	 "The person's directives on the task that are still open, each with its id (all: done, declined and closed "
	 "ones too, with the answer).",
	 "\"all\":{\"type\":\"boolean\",\"description\":\"every directive, not only the open ones\"}", "[]", t_directives,
	 true, S_DIRECTIVES, "[\"directives\"]"},
	{"ack_directive", "Answer a directive",
	 "Mark a directive done or declined, with the reason; kept in the version's note (rung note --ack/--decline) "
	 "with the version that answered it (default: the task's newest).",
	 "\"id\":{\"type\":\"string\",\"description\":\"the directive's id, as directives and brief list it\"},"
	 "\"status\":{\"type\":\"string\",\"enum\":[\"done\",\"declined\"]},"
	 "\"reason\":{\"type\":\"string\",\"minLength\":1,\"description\":\"what was done, or why not\"},"
	 "\"version\":{\"type\":\"string\",\"description\":\"the revision that answers it (default: the task's newest version)\"}",
	 "[\"id\",\"status\",\"reason\"]", t_ack, false, S_DIRECTIVES, "[\"directives\"]"},
};
#define NTOOLS (int)(sizeof(tools) / sizeof(tools[0]))

/* A tool's inputSchema (with the where arguments; no others accepted) or
 * outputSchema, from the table above; NULL on a mistake in the table (said). */
static json_t *tool_schema(const tool *t, bool output)
{
	char schema[8192];
	if (output)
		snprintf(schema, sizeof(schema), "{\"type\":\"object\",\"properties\":{%s},\"required\":%s}", t->out_props,
			 t->out_required);
	else
		snprintf(schema, sizeof(schema),
			 "{\"type\":\"object\",\"properties\":{%s%s%s},\"required\":%s,\"additionalProperties\":false}",
			 t->props, t->props[0] ? "," : "", where_props, t->required);
	json_error_t je;
	json_t *j = json_loads(schema, 0, &je);
	if (!j)
		say("rung mcp: internal: %s's %s schema: %s\n", t->name, output ? "output" : "input", je.text);
	return j;
}

static json_t *tools_list(void)
{
	json_t *arr = json_array();
	for (int i = 0; i < NTOOLS; i++) {
		json_t *in = tool_schema(&tools[i], false), *out = tool_schema(&tools[i], true);
		if (!in)
			in = json_pack("{s:s}", "type", "object");
		json_t *t = json_pack("{s:s,s:s,s:s,s:o}", "name", tools[i].name, "title", tools[i].title, "description",
				      tools[i].description, "inputSchema", in);
		if (out)
			json_object_set_new(t, "outputSchema", out);
		json_object_set_new(t, "annotations", json_pack("{s:b,s:b,s:b}", "readOnlyHint", tools[i].read_only,
								   "destructiveHint", false, "openWorldHint", false));
		json_array_append_new(arr, t);
	}
	return json_pack("{s:o}", "tools", arr);
}

/* The first argument the tool does not take, as a result listing the ones it
 * does (a misspelt compile_only must not run the whole GPU check); NULL when
 * every argument is known. */
static json_t *unknown_argument(const tool *t, json_t *args)
{
	json_t *schema = tool_schema(t, false);
	json_t *props = json_object_get(schema, "properties");
	const char *k;
	json_t *v;
	json_t *r = NULL;
	json_object_foreach(args, k, v) {
		if (json_object_get(props, k))
			continue;
		char msg[1024];
		int o = snprintf(msg, sizeof(msg), "rung %s: unknown argument '%.100s' (valid:", t->name, k);
		const char *pk;
		json_t *pv;
		json_object_foreach(props, pk, pv) {
			if (o < (int)sizeof(msg))
				o += snprintf(msg + o, sizeof(msg) - (size_t)o, " %s", pk);
		}
		if (o < (int)sizeof(msg))
			snprintf(msg + o, sizeof(msg) - (size_t)o, ")");
		rung_error_clear();
		r = tool_error("%s", msg);
		break;
	}
	json_decref(schema);
	return r;
}

/* ---- resources ------------------------------------------------------------------ */

/* rung://source/REV[?QUERY] and rung://dump/REV/FILE[?QUERY], QUERY being
 * task=DIR, offset=N, max_bytes=N joined by '&': a read answers at most
 * max_bytes (default RES_TEXT_DEFAULT) from offset, and says where the rest is. */
enum { RES_TEXT_DEFAULT = 32 * 1024 };
typedef struct {
	bool dump;
	char rev[256], file[64], task[1024];
	long long offset, max_bytes;
	char base[1400]; /* the URI without offset and max_bytes (the next page's is made from it) */
} res_uri;

/* One query parameter: 0 taken, -1 not one of ours or malformed. */
static int query_param(res_uri *u, const char *p, size_t n)
{
	char v[1100];
	if (n > 5 && !strncmp(p, "task=", 5) && n - 5 < sizeof(u->task)) {
		snprintf(u->task, sizeof(u->task), "%.*s", (int)(n - 5), p + 5);
		return u->task[0] ? 0 : -1;
	}
	long long *dst = n > 7 && !strncmp(p, "offset=", 7) ? &u->offset : n > 10 && !strncmp(p, "max_bytes=", 10) ? &u->max_bytes : NULL;
	if (!dst)
		return -1;
	size_t k = dst == &u->offset ? 7 : 10;
	if (n - k >= 20)
		return -1;
	snprintf(v, sizeof(v), "%.*s", (int)(n - k), p + k);
	if (strspn(v, "0123456789") != strlen(v))
		return -1;
	*dst = atoll(v);
	return dst == &u->max_bytes && (*dst < 1 || *dst > DUMP_TEXT_MAX) ? -1 : 0;
}

static int parse_uri(res_uri *u, const char *uri)
{
	memset(u, 0, sizeof(*u));
	const char *p;
	if (!strncmp(uri, "rung://source/", 14))
		p = uri + 14;
	else if (!strncmp(uri, "rung://dump/", 12))
		p = uri + 12, u->dump = true;
	else
		return -1;
	const char *q = strchr(p, '?');
	size_t plen = q ? (size_t)(q - p) : strlen(p);
	u->max_bytes = RES_TEXT_DEFAULT;
	for (const char *a = q ? q + 1 : NULL; a;) {
		const char *amp = strchr(a, '&');
		if (query_param(u, a, amp ? (size_t)(amp - a) : strlen(a)) < 0)
			return -1;
		a = amp ? amp + 1 : NULL;
	}
	snprintf(u->base, sizeof(u->base), "%.*s%s%s", (int)(uri + (q ? (size_t)(q - uri) : strlen(uri)) - uri), uri,
		 u->task[0] ? "?task=" : "", u->task);
	const char *slash = u->dump ? memchr(p, '/', plen) : NULL;
	size_t rlen = slash ? (size_t)(slash - p) : plen;
	if (!rlen || rlen >= sizeof(u->rev) || p[0] == '-' || memchr(p, '/', rlen) || (u->dump && !slash))
		return -1;
	snprintf(u->rev, sizeof(u->rev), "%.*s", (int)rlen, p);
	if (u->dump) {
		size_t flen = plen - rlen - 1;
		if (!flen || flen >= sizeof(u->file))
			return -1;
		snprintf(u->file, sizeof(u->file), "%.*s", (int)flen, slash + 1);
		static const char *const files[] = {"kernel.cu", "kernel.ptx", "kernel.sass", "ptxas.log", "reference.cu",
						    "reference.ptx", "reference.sass", "reference.ptxas.log"};
		bool ok = false;
		for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
			ok |= !strcmp(u->file, files[i]);
		if (!ok)
			return -1;
	}
	return 0;
}

static const char *mime_of(const char *file)
{
	const char *dot = strrchr(file, '.');
	return dot && !strcmp(dot, ".cu") ? "text/x-cuda" : "text/plain";
}

static void add_resource(json_t *arr, const char *uri, const char *name, const char *title, const char *desc,
			 const char *mime)
{
	json_t *r = json_pack("{s:s,s:s,s:s}", "uri", uri, "name", name, "mimeType", mime);
	json_object_set_new(r, "title", inert_string(title, strlen(title), 512));
	if (desc)
		json_object_set_new(r, "description", inert_string(desc, strlen(desc), 512));
	json_array_append_new(arr, r);
}

static json_t *resources_list(void)
{
	json_t *arr = json_array();
	rung_vctx c;
	if (rung_vctx_open(&c, "mcp", &defaults, RUNG_VCTX_TASK_IF_ONE) < 0) {
		rung_error_clear();
		return json_pack("{s:o}", "resources", arr);
	}
	if (c.task.kernel_path) {
		rung_history_opts ho = {.kernel_path = c.task.kernel_path};
		rung_history *h = NULL;
		rung_version v;
		if (rung_history_open(&h, c.repo, &ho) == 0) {
			for (int i = 0; i < 50 && rung_history_next(&v, h) == 0; i++) {
				char uri[128], title[600];
				snprintf(uri, sizeof(uri), "rung://source/%s", v.short_id);
				snprintf(title, sizeof(title), "%s at %s", c.task.kernel_path, v.short_id);
				add_resource(arr, uri, uri + 7, title, v.subject, "text/x-cuda");
			}
		}
		rung_history_free(h);
		/* what rung dump wrote: <taskdir>/.rung/dumps/<rev>/ */
		const char *wd = rung_repo_workdir(c.repo);
		char *tdir = rung_path_join(wd ? wd : ".", c.task.dir && c.task.dir[0] ? c.task.dir : ".");
		char *root = tdir ? rung_path_join(tdir, ".rung/dumps") : NULL;
		free(tdir);
		DIR *d = root ? opendir(root) : NULL;
		struct dirent *de;
		while (d && (de = readdir(d))) {
			if (de->d_name[0] == '.' || strlen(de->d_name) > 40)
				continue;
			char *sub = rung_path_join(root, de->d_name);
			DIR *d2 = sub ? opendir(sub) : NULL;
			struct dirent *f;
			while (d2 && (f = readdir(d2))) {
				char uri[600];
				snprintf(uri, sizeof(uri), "rung://dump/%s/%s", de->d_name, f->d_name);
				res_uri u;
				if (parse_uri(&u, uri) == 0)
					add_resource(arr, uri, uri + 7, uri + 12, "written by rung dump", mime_of(f->d_name));
			}
			if (d2)
				closedir(d2);
			free(sub);
		}
		if (d)
			closedir(d);
		free(root);
	}
	rung_vctx_close(&c);
	rung_error_clear();
	return json_pack("{s:o}", "resources", arr);
}

static json_t *templates_list(void)
{
	return json_pack("{s:[{s:s,s:s,s:s,s:s},{s:s,s:s,s:s,s:s}]}", "resourceTemplates", "uriTemplate",
			 "rung://source/{rev}", "name", "source", "description",
			 "the task's kernel source at a revision (add ?task=DIR where the repository has several tasks)",
			 "mimeType", "text/x-cuda", "uriTemplate", "rung://dump/{rev}/{file}", "name", "dump", "description",
			 "what rung dump writes for a revision: kernel.cu, kernel.ptx, kernel.sass, ptxas.log, reference.*",
			 "mimeType", "text/plain");
}

/* 0 and *out the contents, or an error code with msg */
/* The folders rung dump wrote for a commit, by (commit, task, spec commit):
 * a commit's dump is the same every time, so a second read of its files
 * reads them instead of compiling again (1.3 to 2.6 s each). The worker
 * thread's alone; WORKTREE and anything that is not a commit is never kept. */
enum { DUMP_CACHE = 64 };
static struct {
	char key[1200];
	char dir[PATH_MAX];
} dump_cache[DUMP_CACHE];
static int dump_cache_next;

/* The cache key of a dump of rev, "" when it has none. */
static void dump_key(char *key, size_t len, const rung_vctx_opts *w, const char *rev)
{
	key[0] = 0;
	rung_repo *r = NULL;
	char c[41], sc[41];
	if (rung_repo_open(&r, w->dir) == 0 && rung_repo_resolve(c, r, rev) == 0 && strcmp(c, "WORKTREE") &&
	    rung_repo_resolve(sc, r, w->spec_rev ? w->spec_rev : "HEAD") == 0 && strcmp(sc, "WORKTREE"))
		snprintf(key, len, "%s|%s|%.1000s", c, sc, w->task ? w->task : "");
	rung_repo_free(r);
	rung_error_clear();
}

static const char *dump_cached(const char *key)
{
	for (int i = 0; key[0] && i < DUMP_CACHE; i++)
		if (!strcmp(dump_cache[i].key, key))
			return dump_cache[i].dir;
	return NULL;
}

static void dump_remember(const char *key, const char *path_in_dir)
{
	if (!key[0] || dump_cached(key))
		return;
	char *d = rung_fs_dir_of(path_in_dir);
	if (!d)
		return;
	int i = dump_cache_next++ % DUMP_CACHE;
	snprintf(dump_cache[i].key, sizeof(dump_cache[i].key), "%s", key);
	snprintf(dump_cache[i].dir, sizeof(dump_cache[i].dir), "%s", d);
	free(d);
}

/* text[0..n) cut to the page u asks for (whole UTF-8 characters), with a
 * last line naming the next page's URI; a new string (NULL: out of memory). */
static char *page_of(const char *text, size_t n, const res_uri *u)
{
	size_t from = (size_t)u->offset < n ? (size_t)u->offset : n;
	while (from < n && ((unsigned char)text[from] & 0xC0) == 0x80)
		from++;
	size_t k = n - from;
	bool cut = k > (size_t)u->max_bytes;
	if (cut)
		k = rung_utf8_whole(text + from, (size_t)u->max_bytes);
	char tail[1700] = "";
	if (cut || from)
		snprintf(tail, sizeof(tail), "\n[bytes %zu to %zu of %zu%s%s%s%zu]\n", from, from + k, n,
			 cut ? "; the rest: " : "", cut ? u->base : "", cut ? (strchr(u->base, '?') ? "&offset=" : "?offset=") : "",
			 cut ? from + k : 0);
	if (!cut && from) /* the last page: no next one */
		snprintf(tail, sizeof(tail), "\n[bytes %zu to %zu of %zu]\n", from, from + k, n);
	char *out = malloc(k + strlen(tail) + 1);
	if (!out)
		return NULL;
	memcpy(out, text + from, k);
	strcpy(out + k, tail);
	return out;
}

static int resource_read(json_t **out, const char *uri, char *msg, size_t len)
{
	res_uri u;
	if (parse_uri(&u, uri) < 0) {
		snprintf(msg, len, "Resource not found: %s (rung://source/REV or rung://dump/REV/FILE)", uri);
		return MCP_NO_RESOURCE;
	}
	rung_vctx_opts w = defaults;
	if (u.task[0])
		w.task = u.task;
	if (!inside_served(w.task, w.dir) || (!u.dump && !inside_served(u.rev, w.dir))) {
		snprintf(msg, len, "Resource not found: %s: outside the repository this server serves (%.1000s; rung mcp --any-repo allows others)",
			 uri, served_root);
		return MCP_NO_RESOURCE;
	}
	char *text = NULL;
	size_t n = 0;
	int code = 0;
	if (!u.dump) {
		rung_task t;
		if (rung_task_load_target(&t, u.rev, &w) < 0) {
			snprintf(msg, len, "Resource not found: %s: %s", uri, rung_error_last());
			code = MCP_NO_RESOURCE;
		} else if (t.kernel.src) {
			n = strlen(t.kernel.src);
			text = rung_inert_utf8(t.kernel.src, n);
		}
		rung_task_clear(&t);
	} else {
		char key[1200], cpath[PATH_MAX + 80];
		dump_key(key, sizeof(key), &w, u.rev);
		const char *cdir = dump_cached(key);
		char *raw = NULL;
		if (cdir && snprintf(cpath, sizeof(cpath), "%s/%s", cdir, u.file) < (int)sizeof(cpath) &&
		    rung_fs_read_file(&raw, &n, cpath, 64u << 20) == 0) {
			text = rung_inert_utf8(raw, n);
			free(raw);
		}
		rung_error_clear();
		captured c;
		if (!text && dump_run(&c, &w, u.rev) == 0) {
			for (char *line = c.out, *nl; line && *line && !text; line = nl + 1) {
				nl = strchr(line, '\n');
				if (!nl)
					break;
				*nl = 0;
				const char *base = strrchr(line, '/') ? strrchr(line, '/') + 1 : line;
				if (!strcmp(base, u.file) && rung_fs_read_file(&raw, &n, line, 64u << 20) == 0) {
					text = rung_inert_utf8(raw, n);
					free(raw);
					if (c.rc == 0)
						dump_remember(key, line); /* a whole dump: its folder serves the next reads */
				}
				rung_error_clear();
			}
			if (!text) {
				snprintf(msg, len, "Resource not found: %s: %.*s", uri, (int)(c.nerr ? c.nerr : 0),
					 c.nerr ? c.err : "");
				if (!c.nerr)
					snprintf(msg, len, "Resource not found: %s: rung dump wrote no %s (exit %d)", uri, u.file, c.rc);
				code = MCP_NO_RESOURCE;
			}
			captured_clear(&c);
		}
	}
	if (code)
		return code;
	if (!text) {
		snprintf(msg, len, "out of memory");
		return RPC_INTERNAL;
	}
	char *page = page_of(text, strlen(text), &u);
	free(text);
	if (!page) {
		snprintf(msg, len, "out of memory");
		return RPC_INTERNAL;
	}
	json_t *contents = json_pack("[{s:s,s:s,s:s}]", "uri", uri, "mimeType", mime_of(u.dump ? u.file : ".cu"), "text", page);
	free(page);
	if (!contents) {
		snprintf(msg, len, "internal: the text is not valid UTF-8");
		return RPC_INTERNAL;
	}
	*out = json_pack("{s:o}", "contents", contents);
	return 0;
}

/* ---- the dispatch ---------------------------------------------------------------------- */

static bool valid_id(const json_t *id)
{
	return json_is_string(id) || json_is_integer(id);
}

static void handle_initialize(json_t *id, json_t *params)
{
	json_t *pv = json_object_get(params, "protocolVersion");
	if (!json_is_string(pv)) {
		send_error(id, RPC_INVALID_PARAMS, "initialize: params.protocolVersion (a string) is required", NULL);
		return;
	}
	const char *want = json_string_value(pv), *use = MCP_LATEST;
	for (size_t i = 0; i < sizeof(mcp_versions) / sizeof(mcp_versions[0]); i++)
		if (!strcmp(want, mcp_versions[i]))
			use = mcp_versions[i];
	json_t *ci = json_object_get(params, "clientInfo");
	const char *cname = json_string_value(json_object_get(ci, "name"));
	say("rung mcp: %.200s asked for protocol %.40s, using %s\n", cname ? cname : "a client", want, use);
	json_t *r = json_pack(
		"{s:s,s:{s:{s:b},s:{s:b,s:b}},s:{s:s,s:s,s:s},s:s}", "protocolVersion", use, "capabilities", "tools",
		"listChanged", false, "resources", "subscribe", false, "listChanged", false, "serverInfo", "name", "rung",
		"title", "rung GPU kernel workbench", "version", RUNG_VERSION, "instructions",
		"rung evaluates the versions of a CUDA kernel committed to git. Call brief first: it has the person's "
		"verdicts and directives (with ids). Commit a change, then check it (compile_only without a GPU), dump its "
		"PTX/SASS, compare two versions. Answer each directive with ack_directive (done or declined, with the reason).");
	send_result(id, r);
}

static void handle_call(json_t *id, json_t *params)
{
	json_t *name = json_object_get(params, "name");
	if (!json_is_string(name)) {
		send_error(id, RPC_INVALID_PARAMS, "tools/call: params.name (a string) is required", NULL);
		return;
	}
	const tool *t = NULL;
	for (int i = 0; i < NTOOLS; i++)
		if (!strcmp(tools[i].name, json_string_value(name)))
			t = &tools[i];
	if (!t) {
		char msg[300];
		snprintf(msg, sizeof(msg), "Unknown tool: %.200s", json_string_value(name));
		send_error(id, RPC_INVALID_PARAMS, msg, NULL);
		return;
	}
	json_t *args = json_object_get(params, "arguments");
	if (args && !json_is_object(args) && !json_is_null(args)) {
		send_error(id, RPC_INVALID_PARAMS, "tools/call: params.arguments must be an object", NULL);
		return;
	}
	json_t *empty = json_object();
	targs ta = {.args = json_is_object(args) ? args : empty};
	json_t *r = unknown_argument(t, ta.args);
	if (!r)
		r = t->fn(&ta);
	json_decref(empty);
	if (!r) {
		send_error(id, RPC_INTERNAL, "out of memory", NULL);
		return;
	}
	/* every result: its exit code in _meta, its structured content inert */
	if (!json_object_get(r, "_meta"))
		json_object_set_new(r, "_meta", json_pack("{s:i}", "rung/exit", json_is_true(json_object_get(r, "isError"))
									  ? RUNG_EXIT_USAGE : RUNG_EXIT_OK));
	inert_json(json_object_get(r, "structuredContent"));
	send_result(id, r);
}

static void handle(json_t *msg)
{
	if (!json_is_object(msg)) {
		send_error(NULL, RPC_INVALID_REQUEST,
			   json_is_array(msg) ? "Invalid Request: batches are not supported (MCP 2025-06-18 removed them)"
					      : "Invalid Request: not a JSON-RPC object",
			   NULL);
		return;
	}
	json_t *id = json_object_get(msg, "id"), *method = json_object_get(msg, "method"),
	       *params = json_object_get(msg, "params");
	const char *jv = json_string_value(json_object_get(msg, "jsonrpc"));
	bool has_id = id != NULL;
	if (!method && (json_object_get(msg, "result") || json_object_get(msg, "error")))
		return; /* a response: rung sends no requests, so there is nothing it answers */
	if (!jv || strcmp(jv, "2.0") || !json_is_string(method) || (has_id && !valid_id(id)) ||
	    (params && !json_is_object(params) && !json_is_array(params))) {
		send_error(has_id && valid_id(id) ? id : NULL, RPC_INVALID_REQUEST,
			   "Invalid Request: needs \"jsonrpc\":\"2.0\", a string method, a string or integer id", NULL);
		return;
	}
	const char *m = json_string_value(method);
	if (!has_id) { /* a notification: never answered */
		if (strcmp(m, "notifications/initialized") && strcmp(m, "notifications/cancelled"))
			say("rung mcp: notification %.200s ignored\n", m);
		return;
	}
	if (params && !json_is_object(params)) {
		send_error(id, RPC_INVALID_PARAMS, "params must be an object", NULL);
		return;
	}
	if (!strcmp(m, "initialize")) {
		handle_initialize(id, params);
	} else if (!strcmp(m, "ping")) {
		send_result(id, json_object());
	} else if (!strcmp(m, "tools/list")) {
		send_result(id, tools_list());
	} else if (!strcmp(m, "tools/call")) {
		handle_call(id, params);
	} else if (!strcmp(m, "resources/list")) {
		send_result(id, resources_list());
	} else if (!strcmp(m, "resources/templates/list")) {
		send_result(id, templates_list());
	} else if (!strcmp(m, "resources/read")) {
		json_t *uri = json_object_get(params, "uri");
		if (!json_is_string(uri)) {
			send_error(id, RPC_INVALID_PARAMS, "resources/read: params.uri (a string) is required", NULL);
			return;
		}
		json_t *out = NULL;
		char emsg[2048];
		int code = resource_read(&out, json_string_value(uri), emsg, sizeof(emsg));
		if (code) {
			char clean[4096];
			rung_inert(clean, sizeof(clean), emsg, strlen(emsg));
			send_error(id, code, clean, json_pack("{s:O}", "uri", uri));
		} else {
			send_result(id, out);
		}
	} else {
		char msg[300];
		snprintf(msg, sizeof(msg), "Method not found: %.200s", m);
		send_error(id, RPC_NO_METHOD, msg, NULL);
	}
}

/* ---- the worker thread and cancellation ---------------------------------------- */

static void *worker_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&q_mu);
	for (;;) {
		while (!q_head && !q_end)
			pthread_cond_wait(&q_cv, &q_mu);
		job *j = q_head;
		if (!j)
			break; /* the end, nothing left */
		q_head = j->next;
		if (!q_head)
			q_tail = NULL;
		if (j->cancelled) { /* cancelled before it started: never run, never answered */
			json_decref(j->msg);
			free(j);
			continue;
		}
		running = j;
		cur_job = j;
		pthread_mutex_unlock(&q_mu);
		if (!client_gone)
			handle(j->msg);
		rung_error_clear();
		pthread_mutex_lock(&q_mu);
		bool gone = j->abandoned;
		if (!gone)
			running = NULL;
		if (!gone && j->stop && cur_warm) {
			/* cancelled: its worker was killed; a fresh one for the next call */
			pthread_mutex_unlock(&q_mu);
			rung_check_warm_reset(cur_warm);
			pthread_mutex_lock(&q_mu);
		}
		cur_job = NULL;
		json_decref(j->msg);
		free(j);
		if (gone)
			break; /* abandoned: another thread has the queue */
	}
	pthread_mutex_unlock(&q_mu);
	thread_warm_close();
	return NULL;
}

/* A check running on the worker thread (a tools/call of check). */
static bool is_check(const job *j)
{
	const char *m = json_string_value(json_object_get(j->msg, "method"));
	json_t *params = json_object_get(j->msg, "params");
	const char *tool = json_string_value(json_object_get(params, "name"));
	return m && !strcmp(m, "tools/call") && tool && !strcmp(tool, "check");
}

/* notifications/cancelled: the queued call is dropped; the running one has
 * its children killed and its answer dropped. */
static void cancel(json_t *params)
{
	json_t *rid = json_object_get(params, "requestId");
	if (!valid_id(rid))
		return;
	bool kill_now = false;
	pthread_mutex_lock(&q_mu);
	for (job *j = q_head; j; j = j->next)
		if (json_equal(j->id, rid))
			j->cancelled = true;
	if (running && json_equal(running->id, rid) && !running->cancelled) {
		running->cancelled = true;
		running->stop = 1;
		kill_now = true;
		/* a check may be inside NVRTC, which nothing stops: its thread is
		 * left to it, and a fresh one serves the queue now */
		pthread_t th;
		if (worker_on && is_check(running) && pthread_create(&th, NULL, worker_main, NULL) == 0) {
			running->abandoned = true;
			running = NULL;
			pthread_detach(worker_th);
			worker_th = th;
		}
	}
	pthread_mutex_unlock(&q_mu);
	if (kill_now)
		rung_children_kill(); /* the worker, nvdisasm, ptxas of that call: it ends early */
}

/* A message from the client: the slow ones to the worker thread, in order,
 * the rest answered here. */
static void dispatch(json_t *msg)
{
	const char *m = json_string_value(json_object_get(msg, "method"));
	json_t *id = json_object_get(msg, "id"), *params = json_object_get(msg, "params");
	if (m && !id && !strcmp(m, "notifications/cancelled")) {
		cancel(params);
		json_decref(msg);
		return;
	}
	const char *tool = json_string_value(json_object_get(params, "name"));
	bool slow = m && valid_id(id) &&
		    ((!strcmp(m, "tools/call") && !(tool && !strcmp(tool, "directives"))) || !strcmp(m, "resources/read"));
	job *j = slow && worker_on ? calloc(1, sizeof(*j)) : NULL;
	if (!j) {
		handle(msg);
		json_decref(msg);
		return;
	}
	j->msg = msg;
	j->id = id;
	pthread_mutex_lock(&q_mu);
	if (q_tail)
		q_tail->next = j;
	else
		q_head = j;
	q_tail = j;
	pthread_cond_signal(&q_cv);
	pthread_mutex_unlock(&q_mu);
}

/* The end of input: the calls queued still run and are answered. */
static void worker_stop(void)
{
	if (!worker_on)
		return;
	pthread_mutex_lock(&q_mu);
	q_end = true;
	pthread_cond_signal(&q_cv);
	pthread_mutex_unlock(&q_mu);
	pthread_join(worker_th, NULL);
	worker_on = false;
}

/* The repository the server serves: the one at -C (or here), its working
 * tree resolved; the directory itself when it is in none. */
static void find_served_root(void)
{
	served_root[0] = 0;
	rung_repo *repo = NULL;
	const char *wd = NULL;
	if (rung_repo_open(&repo, defaults.dir) == 0)
		wd = rung_repo_workdir(repo);
	rung_error_clear();
	if (!realpath(wd ? wd : defaults.dir ? defaults.dir : ".", served_root))
		served_root[0] = 0;
	size_t n = strlen(served_root);
	while (n > 1 && served_root[n - 1] == '/')
		served_root[--n] = 0;
	rung_repo_free(repo);
}

/* The end of the server (docs/CLI.md, "rung mcp"): the GPU workers it left
 * to their CUDA teardown get MCP_REAP_GRACE_MS, then are killed; the
 * temporary files go; stdout and stderr are flushed and the process ends with _exit, so
 * that no library's exit-time destructors run while a job's thread may still be
 * inside NVRTC (a cancelled compile finishes first). The crash at exit after GPU
 * checks (#27 item 1) had another cause: std::cout bound to a capture stream
 * that had been closed, when the tools still ran the CLI's commands with
 * stdout and stderr swapped for memory streams. No tool does now (the
 * services write into streams of their own), so std::cout and std::cerr
 * bind to the process's stdout (fd 1, pointed at stderr) and stderr. */
static void mcp_end(int code)
{
	rung_children_reap(MCP_REAP_GRACE_MS);
	rung_tmp_remove_all();
	/* the two streams the server writes through, not every FILE of the
	 * process (fflush(NULL) walks the list exit() would, libraries' included) */
	fflush(stdout);
	fflush(stderr);
	if (proto_fd >= 0)
		close(proto_fd);
	_exit(code);
}

int rung_cmd_mcp(int argc, char **argv)
{
	mcp_opts mo = {0};
	int rc, nargs;
	if (rung_opts_parse(&rc, &rung_opts_mcp, &mo, argc, argv, &nargs))
		return rc;
	defaults = mo.where;
	any_repo = mo.any_repo;
	find_served_root();
	/* a client gone is a failed write (EPIPE), not a signal that kills the server */
	signal(SIGPIPE, SIG_IGN);
	/* stdout is the protocol's alone: its descriptor is kept, and fd 1 goes to
	 * stderr for everything else (children inherit that) */
	fflush(stdout);
	proto_fd = dup(STDOUT_FILENO);
	if (proto_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		fprintf(stderr, "rung mcp: %s\n", strerror(errno));
		return RUNG_EXIT_INTERNAL;
	}
	worker_on = pthread_create(&worker_th, NULL, worker_main, NULL) == 0; /* else: every call on this thread */
	rung_line_reader rd;
	rung_line_reader_init(&rd, STDIN_FILENO, MCP_MAX_MESSAGE);
	int end = RUNG_EXIT_OK;
	while (!client_gone) {
		char *line = NULL;
		size_t n = 0;
		int got = rung_line_read(&rd, &line, &n);
		if (got == RUNG_LINE_EOF)
			break;
		if (got < 0) {
			say("rung mcp: stdin: %s\n", rung_error_last());
			end = RUNG_EXIT_INTERNAL;
			break;
		}
		rung_children_reap(0); /* the workers detached by earlier calls that are done */
		if (got == RUNG_LINE_TOO_LONG) {
			char m[200];
			snprintf(m, sizeof(m), "Invalid Request: a message of %zu bytes, over the limit of %d MiB", n,
				 MCP_MAX_MESSAGE >> 20);
			send_error(NULL, RPC_INVALID_REQUEST, m, NULL);
			continue;
		}
		if (strspn(line, " \t") == n)
			continue;
		json_error_t je;
		json_t *msg = json_loadb(line, n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
		if (!msg) {
			char m[400];
			snprintf(m, sizeof(m), "Parse error: %s at column %d", je.text, je.column);
			send_error(NULL, RPC_PARSE, m, NULL);
			continue;
		}
		dispatch(msg); /* takes msg */
		rung_error_clear();
	}
	rung_line_reader_clear(&rd);
	worker_stop();
	thread_warm_close(); /* the main thread's, when the checks ran here */
	mcp_end(end);
	return end;
}
