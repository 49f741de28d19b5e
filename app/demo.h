/* `rung demo`: a real optimization ladder replayed into a fresh git repository.
 * The example tasks (examples/sgemm, examples/softmax) are embedded in the
 * binary (app/demo_data.h); each task's ladder.txt is the commit plan:
 *
 *   <step> | <author> | <date, ISO 8601> | <commit message> [| files: <files>]
 *   note | <step> | <verdict> | <text>
 *
 * <files>, when given, replaces "write ladder/<step>.cu to the kernel file":
 * space-separated DEST=SRC, each writing the embedded file SRC (relative to
 * examples/) to DEST in the task directory, e.g. the Triton step
 * `softmax.ptx=softmax-triton/softmax.ptx softmax.json=softmax-triton/softmax.json
 * rung.ini=softmax/ladder/05-triton.ini`. A step whose SRC is not embedded (a
 * build without the Triton PTX) is skipped, and its notes with it: the
 * report says which file to drop in.
 *
 * The repository gets one setup commit (README.md, every task's rung.ini and
 * reference.cu), then one commit per ladder step writing ladder/<step>.cu to
 * the task's kernel file, in date order across tasks, then the steering notes
 * (refs/notes/rung), then the results recorded on a GPU (<task>/recorded.jsonl,
 * made with `rung export`), imported as recorded, never as live.
 * Commits are deterministic (fixed authors and dates): the same binary makes
 * the same commit ids on every machine, so recorded results link to them. */
#ifndef RUNG_APP_DEMO_H
#define RUNG_APP_DEMO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "app/demo_data.h"
#include "app/session.h"
#include "vcs/notes.h"

/* The author of the setup commit and of the steering notes. */
#define RUNG_DEMO_HUMAN_NAME "Ada Lovelace"
#define RUNG_DEMO_HUMAN_EMAIL "ada@example.com"

/* An embedded file by its path relative to examples/ ("sgemm/ladder.txt"); NULL if absent. */
const rung_demo_file *rung_demo_find(const char *path);

typedef struct {
	char task[64];      /* "sgemm" */
	char step[128];     /* "01-naive" */
	char name[128], email[128];
	int64_t time;       /* unix seconds (UTC) */
	int line;           /* line in ladder.txt */
	char message[512];
	char commit[41];    /* filled by rung_demo_build */
	int nfiles;         /* 0: ladder/<step>.cu to the task's kernel file */
	char dest[4][128], src[4][256];
	char missing[256];  /* "" or the SRC that is not embedded: the step is skipped */
} rung_demo_step;

typedef struct {
	int step;           /* index into steps */
	rung_note_verdict verdict;
	rung_entry_kind kind; /* directive, done (a directive since followed) or remark */
	char text[1024];
	int line;
} rung_demo_note;

typedef struct {
	char tasks[8][64];  /* in embedded order: "sgemm", "softmax" */
	char kernels[8][256]; /* each task's kernel file, from its rung.ini: "sgemm.cu" */
	int ntasks;
	rung_demo_step *steps; /* every task's steps, sorted by date (stable) */
	int nsteps;
	rung_demo_note *notes;
	int nnotes;
	bool skip_recorded; /* build without importing the embedded recorded results */
} rung_demo_plan;

/* Parses one task's ladder.txt (`name` is used in messages: "sgemm/ladder.txt:12: ...")
 * and appends its steps and notes to p. Every step must have a ladder/<step>.cu
 * among the embedded files, dates must not go backwards within a task, a note
 * must follow its step. */
int rung_demo_plan_parse(rung_demo_plan *p, const char *task, const char *text, const char *name);
/* The plan of every embedded task (each <task>/ladder.txt), steps sorted by date. */
int rung_demo_plan_load(rung_demo_plan *p);
void rung_demo_plan_clear(rung_demo_plan *p);
/* Sorts the steps by date, stably (each task keeps its own order), and keeps
 * the notes pointing at their steps (done by rung_demo_plan_load). */
void rung_demo_plan_sort(rung_demo_plan *p);

/* Parses "2025-06-02T09:04:00Z" (or +HH:MM / -HH:MM) into unix seconds. RUNG_EINVAL if malformed. */
int rung_demo_parse_date(int64_t *out, const char *s);

/* Makes `dir` ready for the demo: creates it (and its parents) when absent;
 * RUNG_EINVAL when it exists and is not an empty directory (nothing is touched). */
int rung_demo_prepare_dir(const char *dir);

typedef struct {
	int commits;   /* setup commit + steps */
	int notes;     /* steering notes written */
	int recorded;  /* recorded results imported */
	int skipped;   /* steps left out (a file not embedded) */
	char skip_note[512]; /* the first: "softmax 05-triton: examples/... is not in this build ..." */
	char head[41];
} rung_demo_report;

/* Builds the demo repository in the empty directory `dir` (see above); fills
 * p->steps[i].commit. Recorded results are imported with import errors
 * printed as "rung <cmd>: sgemm/recorded.jsonl:N: ...". */
int rung_demo_build(rung_demo_report *rep, rung_demo_plan *p, const char *dir, const char *cmd);


/* Prints one table per task for `rung demo --no-tui`: every version, newest
 * first, with its stored live result, else its recorded result (labelled
 * "recorded on <GPU>, <date>"), else (compile = true) a compile-only pass
 * run now with NVRTC (nothing stored). Returns RUNG_EXIT_* (0 when the
 * tables were printed, whatever the versions' own verdicts). */
int rung_demo_show(FILE *out, const char *dir, const rung_demo_plan *p, bool compile);

#endif
