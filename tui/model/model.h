/* The workbench's model: what the screens show, decoupled from git, the store
 * and the GPU. A backend (tui/model/mem.c in memory, tui/model/git.c on a
 * repository) fills the rows and answers a few requests through an ops table.
 *
 * Threads: only the UI thread reads or changes rows. Anything that happens
 * elsewhere (a background evaluation, a reload) is posted as an event with
 * rung_model_post() from any thread; it lands on a mutex-protected queue and a
 * byte is written to a pipe whose read end (rung_model_event_fd) the UI polls
 * together with stdin. rung_model_apply_events() then applies the queue on the
 * UI thread. The UI never waits for the GPU, git or the store. */
#ifndef RUNG_TUI_MODEL_H
#define RUNG_TUI_MODEL_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "app/sanitize_gate.h"
#include "core/result.h"
#include "core/roofline.h"
#include "core/spec.h"

/* Steering verdicts: id, name (as stored in notes). */
#define RUNG_VERDICT_LIST(_) \
	_(NONE, "") \
	_(KEEP, "keep") \
	_(REJECT, "reject") \
	_(BASELINE, "baseline") \
	_(BEST, "best")

typedef enum {
#define RUNG_VERDICT_ENUM(id, name) RUNG_VERDICT_##id,
	RUNG_VERDICT_LIST(RUNG_VERDICT_ENUM)
#undef RUNG_VERDICT_ENUM
	RUNG_NVERDICTS
} rung_verdict;

const char *rung_verdict_name(rung_verdict v);
/* "keep" -> RUNG_VERDICT_KEEP; 0 or RUNG_EINVAL. */
int rung_verdict_parse(rung_verdict *out, const char *s);

/* A directive's status (the same order as vcs/notes.h's rung_dstatus: a cast converts). */
typedef enum {
	RUNG_DIR_OPEN = 0,
	RUNG_DIR_DONE,     /* the agent did it */
	RUNG_DIR_DECLINED, /* the agent declined it */
	RUNG_DIR_CLOSED,   /* the person closed it */
	RUNG_NDIR_STATUS
} rung_dir_status;
const char *rung_dir_status_name(rung_dir_status s); /* "open", "done", "declined", "closed" */

/* One directive of a version's note (remarks are not directives). The texts
 * are raw: sanitized when drawn. */
typedef struct {
	char id[9];            /* 8 hex digits, as `rung brief` lists it ("" : none known) */
	rung_dir_status status;
	bool task_wide;        /* "[task-wide] ": aimed at the task, not at the next version */
	bool task_done;        /* "[task-wide] [done] ": the person's verdict that the task is done (app/goal.h) */
	char text[256];
	char author[64];       /* who wrote it */
	char by[41];           /* the version that answered it ("" : none, or not said) */
	char who[64];          /* who answered it */
	char reason[256];      /* the answer's reason ("" : none) */
} rung_model_directive;

/* One version (commit) as the table shows it. */
typedef struct {
	char hash[41];         /* full hex commit id (or any unique id) */
	char subject[256];     /* raw: sanitized when drawn */
	char author[64];
	int64_t date;          /* unix seconds */
	rung_status step[RUNG_NSTEPS]; /* live per-rung status (NONE = not run) */
	bool cached;           /* the result came from the store */
	rung_result *result;   /* owned by the model; NULL = not evaluated */
	rung_verdict verdict;
	char note[256];        /* first line of the steering note ("" = none) */
	/* every directive of the version's note, in the note's order (owned by
	 * the row, freed with it; moved with it like result) */
	rung_model_directive *dirs;
	int ndirs;
	bool baseline, best;
	/* A result recorded on another machine (rung demo, rung import), owned by
	 * the row; never mixed with live ones. While the row has no live result,
	 * `result` points at it (result == recorded) so every screen shows it,
	 * labelled; a live result replaces it in `result` and it stays here for
	 * recorded-vs-recorded comparisons. rung_model_row_sync_steps sets result
	 * from it when result is NULL. */
	rung_result *recorded;
	/* the kernel issues tensor-core instructions (its source says so:
	 * rung_text_uses_mma): 1 yes, -1 no, 0 not looked at yet (rung_model_row_mma) */
	signed char mma;
	/* its results are being read (the first frame's rows: the git model reads
	 * them after the first frame, RUNG_EV_FILL): result and recorded are
	 * unknown, not absent, and the screens say so */
	bool pending;
} rung_model_row;

/* The row shows a recorded result (no live one). */
bool rung_model_row_is_recorded(const rung_model_row *r);
/* The row's result of one kind: recorded ? the recorded one : the live one (NULL when none). */
const rung_result *rung_model_row_result(const rung_model_row *r, bool recorded);

typedef enum { RUNG_TEXT_SOURCE, RUNG_TEXT_PTX, RUNG_TEXT_SASS, RUNG_NTEXT } rung_text_kind;
const char *rung_text_kind_name(rung_text_kind k); /* "source", "PTX", "SASS" */

typedef enum {
	RUNG_EV_QUEUED,   /* hash was queued for evaluation (.step RUNG_STEP_SANITIZE: for its sanitize rung only) */
	RUNG_EV_PROGRESS, /* hash is at step, frac done */
	RUNG_EV_RESULT,   /* result for hash (ownership of .result passes to the model) */
	RUNG_EV_ROWS,     /* a reload finished: .rows/.nrows replace the list (ownership passes) */
	RUNG_EV_NOTE,     /* hash got verdict + note text */
	RUNG_EV_MESSAGE,  /* .text for the status bar */
	RUNG_EV_EVALUATE_MISSING, /* evaluate every row without a live result (as `E`), on the UI thread */
	RUNG_EV_TASKS,    /* .text: the task list changed (backend state); bumps the generation */
	/* more of the first list, read in the background: .rows/.nrows are appended
	 * when the list still ends at row .hash (else they are stale and dropped);
	 * .last: the list is complete (clears m->loading) */
	RUNG_EV_ROWS_MORE,
	/* versions committed since the list was read (the model's poll of HEAD):
	 * .rows/.nrows, newest first, go on top when the list's newest commit is
	 * .hash ("" : the list had none); a WORKTREE row on top is replaced by
	 * theirs. Selection and marks stay (they are kept by hash). When the list
	 * does not fit (history rewritten) the model reloads it instead. The new
	 * rows in the auto-evaluation scope are queued. */
	RUNG_EV_ROWS_NEW,
	/* the probe of rung_model_auto_evaluate answered: .scope is what is
	 * evaluated without asking from now on (the rows in it are queued now,
	 * and every row that arrives later) */
	RUNG_EV_AUTO,
	/* the PTX and SASS of .hash asked for by rung_model_text_prepare are made
	 * (or failed: rung_model_text says why); bumps the generation */
	RUNG_EV_TEXT,
	/* the results of the pending rows (rung_model_row.pending), read after
	 * the first frame: .rows/.nrows are the same versions with their live and
	 * recorded results, for the list of fill generation .gen (m->fill_gen:
	 * else stale, dropped); each pending row of the same hash takes them.
	 * .text: why they could not be read (the rows stay pending). Clears
	 * m->filling; a pending row they do not cover has the list read again. */
	RUNG_EV_FILL,
} rung_event_kind;

/* What the workbench evaluates without being asked. */
typedef enum {
	RUNG_AUTO_NONE,    /* nothing */
	RUNG_AUTO_UNSEEN,  /* versions with no result at all, live or recorded (own versions) */
	RUNG_AUTO_MISSING, /* versions without a live result (as `E`) */
} rung_auto_scope;

typedef struct rung_model_event {
	rung_event_kind kind;
	char hash[41];
	rung_step_id step;
	double frac;
	rung_result *result;
	rung_model_row *rows;
	int nrows;
	rung_verdict verdict;
	char text[256];
	bool last;                     /* RUNG_EV_ROWS_MORE: the list is complete */
	unsigned gen;                  /* RUNG_EV_FILL: the fill generation */
	rung_auto_scope scope;         /* RUNG_EV_AUTO */
	struct rung_model_event *next; /* queue link (internal) */
} rung_model_event;

/* Device ceilings for the roofline (NAN = unknown). */
typedef struct {
	double bw_bytes_s;   /* DRAM bandwidth, B/s */
	double l2_bytes_s;   /* L2 bandwidth, B/s (NAN when unknown: measured only) */
	double l1_bytes_s;   /* L1 bandwidth, B/s (NAN when unknown) */
	double fp32_flop_s;  /* FP32 FMA peak, FLOP/s */
	double tensor_flop_s;/* tensor peak, FLOP/s (NAN when unknown) */
	/* each tensor ceiling (core/roofline.h rung_tc_type; NAN: unknown): the
	 * roofline draws the one of the task's data type, as the roof % takes it */
	double tensor_tc[RUNG_TC_COUNT];
	rung_ceil_src src_tc[RUNG_TC_COUNT];
	/* where each came from (RUNG_CEIL_NONE: unknown, or not said) */
	rung_ceil_src src_dram, src_l2, src_l1, src_fp32, src_tensor;
	char source[64];     /* "measured", "datasheet", ... */
} rung_model_ceilings;

/* Every ceiling unknown. */
void rung_model_ceilings_clear(rung_model_ceilings *c);

/* The roofline screen's ceilings for a result's device: the speed-of-light
 * guard's (rung_ceilings_guard, core/roofline_guard.h: the datasheet ones for
 * env's chip and clocks, one arch parse, each raised by a measured one, which
 * may be NULL, where that is higher), so that the screen and the guard agree.
 * source: "measured" when DRAM or FP32 is a measured one, else "datasheet".
 * RUNG_EINVAL (out left unknown) when there is no DRAM or FP32 ceiling. */
int rung_model_ceilings_from(rung_model_ceilings *out, const rung_env *env, const rung_ceilings *measured);

typedef struct rung_model rung_model;

/* What a backend implements. Every function returns 0 or a negative rung_err
 * with rung_error_set() called; none may block on the GPU. */
/* A worker of the pool evaluations run on (rung tui --workers; app/pool.h's
 * rung_pool_status): done and failed count since the pool was made. */
typedef struct {
	char label[64];  /* "local:0", "ssh:gpu3" */
	char host[64];   /* as its worker reported it ("" before its hello) */
	char gpu[128];   /* the GPU's name ("" : none reported) */
	char doing[64];  /* the current job ("abc1234 gpu"), "" idle */
	int done, failed;
	bool waiting;    /* waiting for its GPU, which another worker holds */
	bool retired;
} rung_model_worker;

typedef struct {
	const char *name;
	/* Reload the list: either fill m->rows directly (fast) or post RUNG_EV_ROWS later. */
	int (*refresh)(rung_model *m);
	/* Source / PTX / SASS of a version into *out (malloc'd, caller frees). RUNG_ENOTFOUND when absent. */
	int (*text)(char **out, rung_model *m, const char *hash, rung_text_kind kind);
	/* Queue a version for evaluation; progress and the result arrive as events. */
	int (*evaluate)(rung_model *m, const char *hash);
	/* Queue the sanitize rung of a version (the spec's [check] sanitize tools,
	 * else memcheck and racecheck), as evaluate. NULL: the backend cannot. */
	int (*sanitize)(rung_model *m, const char *hash);
	/* Store verdict + note (the git backend writes a git note); the row is updated by the caller. */
	int (*set_note)(rung_model *m, const char *hash, rung_verdict v, const char *text);
	/* The person closes directive `id` of version hash (answer "closed", with
	 * the reason; the git backend through app/directives.c). NULL: the backend
	 * cannot. */
	int (*close_directive)(rung_model *m, const char *hash, const char *id, const char *reason);
	/* Reads the version's note again into its row (verdict, note, dirs) after
	 * set_note or close_directive wrote it; a quick read (one note), as the
	 * write was. NULL: the backend updates the row itself (mem). */
	int (*reread_note)(rung_model *m, rung_model_row *row);
	void (*free)(rung_model *m); /* frees the backend's own state (impl) */
	/* Switches to task m->tasks[i]: replaces rows, title and ceilings (NULL: one task only). */
	int (*set_task)(rung_model *m, int i);
	/* Profile side data stored beside the version's live result (vcs/prof_store.h
	 * kinds "sass", "trace") as JSON text into *out (caller frees); RUNG_ENOTFOUND
	 * when none. NULL: the backend has none (tui/model/prof.h reads it). */
	int (*extra)(char **out, rung_model *m, const char *hash, const char *kind);
	/* Launch geometry of a version at the task's benchmark shape: [launch]
	 * overridden by the version's `// rung:` line, evaluated with [dims].
	 * RUNG_ENOTFOUND when the version has none. NULL: the backend cannot tell. */
	int (*launch)(rung_geom *out, rung_model *m, const char *hash);
	/* Has the PTX and SASS of a version made in the background where that is
	 * slow (NVRTC, nvdisasm): 0 when `text` answers at once now, 1 when they
	 * are being made (RUNG_EV_TEXT follows). NULL: `text` is always quick. */
	int (*text_prepare)(rung_model *m, const char *hash);
	/* Drops the text_prepare requests not started yet (NULL: none to drop). */
	void (*text_cancel)(rung_model *m);
	/* the first frame is on screen (the git backend reads its rows' results
	 * after it) */
	void (*drawn)(rung_model *m);
	/* The pool's workers into out[0..max), any time (a batch may run): their
	 * count, 0 without a pool. NULL: the backend has none. */
	int (*workers)(rung_model *m, rung_model_worker *out, int max);
	/* The pending rows got their results (RUNG_EV_FILL): what the backend
	 * derives from them (the git model: the ceilings). NULL: nothing. */
	void (*filled)(rung_model *m);
} rung_model_ops;

struct rung_model {
	const rung_model_ops *ops;
	void *impl;

	rung_model_row *rows; /* newest first (git log order) */
	int nrows;
	rung_model_ceilings ceil;
	char title[128];      /* task name for the title bar */
	/* the task's [goal] (core/spec.h; line 0: none) and the data type that
	 * picks its roof, for the stop rule (rung_model_goal) */
	rung_goal_spec goal;
	rung_dtype goal_dtype;
	struct {
		struct rung_goal_status *status; /* rung_model_goal's, at gen */
		unsigned gen;
		bool valid;
	} goal_cache;
	/* the repository's tasks (directories with rung.ini), m->task is shown; ntasks 0 = unknown */
	char tasks[16][128];
	int ntasks, task;
	bool auto_baseline;   /* no baseline verdict: the oldest evaluated row, recomputed as results arrive */
	/* The sanitize gate (app/sanitize_gate.h) over live results: no version
	 * is best before it passed the sanitizer. gate_tools: the task's gate
	 * tools (0: no gate, as for the in-memory model and recorded results);
	 * gate_why: why the run cannot happen here ("no GPU", "no
	 * compute-sanitizer"; "" as far as is known); set by recomputing the
	 * best: gate_pending, the faster version not sanitized yet (-1: none),
	 * gate_provisional, the best is not sanitized (nothing has passed). */
	unsigned gate_tools;
	char gate_why[128];
	int gate_pending;
	bool gate_provisional;

	/* evaluation queue as the status bar shows it: "evaluating 3/12 a1b2c3d bench 41%" */
	int queue_total, queue_done;
	char queue_hash[41];
	rung_step_id queue_step;
	double queue_frac;
	char message[256];    /* last RUNG_EV_MESSAGE */
	unsigned generation;  /* bumped whenever rows change (screens cache on it) */
	/* The first list is still arriving (RUNG_EV_ROWS_MORE): rows holds the
	 * newest versions read so far. `E` meanwhile queues the rows loaded and
	 * sets evaluate_when_loaded: the rest is queued when the list is complete. */
	bool loading;
	bool evaluate_when_loaded;
	/* Rows are pending (their results are being read, RUNG_EV_FILL of
	 * fill_gen brings them): the title says so and shows no counts or
	 * stop rule; `E` waits for them (evaluate_when_loaded). */
	bool filling;
	unsigned fill_gen;
	/* the fill failed (a damaged store: the message says so): the rows stay
	 * pending, the title says their results could not be read */
	bool fill_failed;
	/* what arriving rows get queued for without a key (RUNG_EV_AUTO sets it) */
	rung_auto_scope auto_scope;

	/* the event queue (rung_model_post, rung_model_apply_events) */
	struct {
		pthread_mutex_t lock;
		rung_model_event *head, *tail;
		int pipe_fd[2];
	} events;
};

/* Sets up the generic part (queue, pipe); ops/impl set by the backend. */
int rung_model_init(rung_model *m, const rung_model_ops *ops, void *impl);
/* Frees rows, queued events, the pipe, then calls ops->free; frees m. */
void rung_model_free(rung_model *m);

/* Any thread: copies *ev (taking ownership of .result/.rows) and wakes the UI. */
int rung_model_post(rung_model *m, const rung_model_event *ev);
/* The fd that becomes readable when events are queued. */
int rung_model_event_fd(const rung_model *m);
/* UI thread: applies all queued events; returns how many were applied. */
int rung_model_apply_events(rung_model *m);

/* Convenience wrappers around ops (UI thread). */
int rung_model_refresh(rung_model *m);
int rung_model_text(char **out, rung_model *m, const char *hash, rung_text_kind kind);
/* ops->launch, or RUNG_EUNSUPPORTED. */
int rung_model_launch(rung_geom *out, rung_model *m, const char *hash);
int rung_model_evaluate(rung_model *m, const char *hash);
/* ops->sanitize, or RUNG_EUNSUPPORTED. */
int rung_model_sanitize(rung_model *m, const char *hash);
/* Evaluates every row without a result and not already queued; returns the count queued (>= 0). */
int rung_model_evaluate_missing(rung_model *m);
/* Queues the rows in scope not already queued or running (MISSING: as
 * rung_model_evaluate_missing, but the rest of a list still loading is left
 * to the scope; UNSEEN: rows with neither a live nor a recorded result);
 * returns the count queued (>= 0). */
int rung_model_evaluate_scope(rung_model *m, rung_auto_scope scope);
/* ops->text_prepare (0 where the backend has none), ops->text_cancel. */
int rung_model_text_prepare(rung_model *m, const char *hash);
void rung_model_text_cancel(rung_model *m);
/* ops->drawn (nothing where the backend has none): the front end's first frame is on screen. */
void rung_model_drawn(rung_model *m);
/* Writes through the backend and updates the row (verdict baseline/best also moves the flags). */
int rung_model_set_note(rung_model *m, const char *hash, rung_verdict v, const char *text);

/* Closes open directive `id` of version hash (the person: "closed", with the
 * reason, "" for none) through the backend, then the row's directives are
 * read again. RUNG_EUNSUPPORTED when the backend cannot; RUNG_EINVAL when the
 * row has it answered already (done, declined or closed: that answer stays;
 * `rung note --close` replaces one). */
int rung_model_close_directive(rung_model *m, const char *hash, const char *id, const char *reason);
/* Replaces the row's directive list by a copy of dirs (n of them). */
int rung_model_row_set_dirs(rung_model_row *r, const rung_model_directive *dirs, int n);

/* The stop rule's state of the rows (app/goal.h), live results or, when no
 * row has one, recorded ones; the done verdict from the rows' directives;
 * computed again when the rows or their notes change. NULL when out of
 * memory. UI thread. */
const struct rung_goal_status *rung_model_goal(rung_model *m);

/* Whether row i's kernel issues tensor-core instructions (row.mma), read
 * once from its source (UI thread; false when the source cannot be read).
 * The roof % is against the FP32 FMA ceiling unless it does. */
bool rung_model_row_mma(rung_model *m, int i);

/* The gate state of row r: NA without a gate, a recorded or no live result,
 * or a version that did not pass; SANITIZING while its sanitize rung is
 * queued or running here; UNSANITIZED for NOT_SANITIZED where gate_why says
 * the run cannot happen; else rung_gate_of's. */
rung_gate_state rung_model_row_gate(const rung_model *m, const rung_model_row *r);
/* Its phrase for the views, as the CLI's (rung_gate_describe): "sanitizing
 * (memcheck, racecheck, synccheck)", "sanitized (...)", "sanitize failed:
 * ...", "unsanitized (no compute-sanitizer)", "not sanitized"; "" for NA. */
void rung_model_gate_describe(char *buf, size_t len, const rung_model *m, const rung_model_row *r);

/* Lookups (UI thread). */
int rung_model_find(const rung_model *m, const char *hash_or_prefix); /* row index or -1 */
int rung_model_baseline(const rung_model *m); /* row index of the baseline, or -1 */
int rung_model_best(const rung_model *m);     /* row index of the best, or -1 */

/* Switches to task i of m->tasks (RUNG_EINVAL when out of range, RUNG_EUNSUPPORTED
 * for a backend with one task). The evaluation queue keeps running for the old task. */
int rung_model_set_task(rung_model *m, int i);
/* Live and recorded rows: *live rows with a live result, *recorded rows showing a recorded one. */
void rung_model_count(const rung_model *m, int *live, int *recorded);

/* Frees an array of rows (results included). */
void rung_model_rows_free(rung_model_row *rows, int n);
/* Replaces m->rows (takes ownership), recomputes best when no row is marked best. */
void rung_model_set_rows(rung_model *m, rung_model_row *rows, int n);
/* Sets row steps from its result (or clears them). */
void rung_model_row_sync_steps(rung_model_row *row);

/* ---- backends ---- */

/* In memory (tests, benchmarks): rows added by hand; evaluate only posts QUEUED.
 * A row added with .recorded set (and .result NULL) shows that recorded result. */
int rung_model_mem_new(rung_model **out);
/* Appends a copy of *row (row->result is taken over). */
int rung_model_mem_add(rung_model *m, const rung_model_row *row);
/* Sets the text returned for (hash, kind) (copied). */
int rung_model_mem_set_text(rung_model *m, const char *hash, rung_text_kind kind, const char *text);
/* Sets the launch geometry returned for hash (the demo gives every version
 * a 16x16 block without dynamic shared memory). */
int rung_model_mem_set_launch(rung_model *m, const char *hash, const rung_geom *g);
/* n deterministic synthetic versions with results (seeded), for tests and benches. */
int rung_model_mem_demo(rung_model *m, int n, unsigned seed);
/* A synthetic result: ok all the way with the given median (ms), or failing at check. */
rung_result *rung_model_fake_result(const char *hash, double median_ms, double max_rel, bool check_ok, unsigned seed);

/* On a git repository (vcs/ history, notes and store). dir = repository (or any dir inside),
 * taskdir = task directory relative to it (NULL = the repository root). */
int rung_model_git_new(rung_model **out, const char *dir, const char *taskdir);
/* As rung_model_git_new, with the spec (rung.ini and reference) read at
 * spec_rev (rung tui --spec-rev; NULL: HEAD's). Without spec_rev a spec at
 * HEAD that does not parse gives way to the newest earlier one that does:
 * m->message names the error and the commit used, the title says
 * "(spec of abc1234)", and a new HEAD with a broken spec is said once. */
int rung_model_git_open(rung_model **out, const char *dir, const char *taskdir, const char *spec_rev);
/* The same with evaluations on a pool of workers (app/pool.h's spec: rung tui
 * --workers; NULL or "": the one local worker). A bad spec: RUNG_EUSAGE.
 * The workbench's: the first rows' results are read once the front end
 * says its first frame is out (rung_model_drawn), where the others read
 * them at once (m->filling either way). */
int rung_model_git_open_pool(rung_model **out, const char *dir, const char *taskdir, const char *spec_rev,
			     const char *workers);
/* ops->workers (0 where the backend has none). */
int rung_model_workers(rung_model *m, rung_model_worker *out, int max);

/* Auto-evaluation (`rung tui`, `auto_eval` in the config; rung demo): the
 * model's background thread opens its evaluation worker (the one `e` and `E`
 * use later: one worker, one CUDA context) and reads the device from it. With
 * a GPU it posts RUNG_EV_AUTO with scope with_gpu and the message "<GPU>:
 * evaluating ..."; without one, scope without_gpu (there the compile rung runs:
 * registers, spills, SASS) and "no GPU: showing recorded results (<reason>)".
 * The rows in scope are queued then, and every row that arrives later (new
 * commits, a reload, another task). Never blocks. */
int rung_model_auto_evaluate(rung_model *m, rung_auto_scope with_gpu, rung_auto_scope without_gpu);
/* Seconds rung_model_auto_evaluate's probe waits (with nothing else asked)
 * before it starts the worker: the first frames come first, and quitting at
 * once does not wait for a worker's start-up. */
#define RUNG_MODEL_PROBE_DELAY_S 0.25
/* Seconds between two looks at HEAD for new commits (RUNG_EV_ROWS_NEW): 1. */
#define RUNG_MODEL_POLL_S 1

#endif
