#include "app/demo.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <git2.h>

#include "core/err.h"
#include "core/fs.h"
#include "core/spec.h"
#include "app/import.h"
#include "vcs/repo.h"
#include "vcs/store.h"

const rung_demo_file *rung_demo_find(const char *path)
{
	for (int i = 0; i < rung_demo_nfiles; i++)
		if (!strcmp(rung_demo_files[i].path, path))
			return &rung_demo_files[i];
	return NULL;
}

int rung_demo_parse_date(int64_t *out, const char *s)
{
	struct tm tm;
	memset(&tm, 0, sizeof(tm));
	int n = 0;
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
		   &tm.tm_sec, &n) != 6 ||
	    tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour > 23 ||
	    tm.tm_min > 59 || tm.tm_sec > 60)
		return rung_error_set(RUNG_EINVAL, "'%s' is not an ISO 8601 date (2025-06-02T09:04:00Z)", s);
	const char *z = s + n;
	int off = 0;
	int oh, om;
	if (!strcmp(z, "Z")) {
		off = 0;
	} else if ((z[0] == '+' || z[0] == '-') && sscanf(z + 1, "%2d:%2d", &oh, &om) == 2 && strlen(z) == 6) {
		off = (oh * 60 + om) * 60 * (z[0] == '-' ? -1 : 1);
	} else {
		return rung_error_set(RUNG_EINVAL, "'%s': the date needs a zone (Z or +HH:MM)", s);
	}
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	*out = (int64_t)timegm(&tm) - off;
	return 0;
}

/* Trims spaces at both ends in place. */
static char *trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t l = strlen(s);
	while (l && (s[l - 1] == ' ' || s[l - 1] == '\t' || s[l - 1] == '\r'))
		s[--l] = 0;
	return s;
}

/* Splits s at '|' into at most max fields (the last keeps any further '|'). */
static int split(char **f, int max, char *s)
{
	int n = 0;
	while (n < max - 1) {
		char *bar = strchr(s, '|');
		if (!bar)
			break;
		*bar = 0;
		f[n++] = trim(s);
		s = bar + 1;
	}
	f[n++] = trim(s);
	return n;
}

static int find_step(const rung_demo_plan *p, const char *task, const char *step)
{
	for (int i = 0; i < p->nsteps; i++)
		if (!strcmp(p->steps[i].task, task) && !strcmp(p->steps[i].step, step))
			return i;
	return -1;
}

static int add_step(rung_demo_plan *p, const rung_demo_step *s)
{
	rung_demo_step *v = realloc(p->steps, (size_t)(p->nsteps + 1) * sizeof(*v));
	if (!v)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	p->steps = v;
	p->steps[p->nsteps++] = *s;
	return 0;
}

static int add_note(rung_demo_plan *p, const rung_demo_note *n)
{
	rung_demo_note *v = realloc(p->notes, (size_t)(p->nnotes + 1) * sizeof(*v));
	if (!v)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	p->notes = v;
	p->notes[p->nnotes++] = *n;
	return 0;
}

static int parse_line(rung_demo_plan *p, const char *task, char *line, const char *name, int lineno,
		      int64_t *last_time)
{
	char *f[5];
	int nf = split(f, 4, line);
	if (nf != 4)
		return rung_error_set(RUNG_EINVAL, "%s:%d: expected 4 fields separated by '|', got %d", name, lineno, nf);
	/* a step's files: a last field that starts with "files:" */
	for (char *bar = strchr(f[3], '|'); bar; bar = strchr(bar + 1, '|')) {
		char *t = bar + 1;
		while (*t == ' ' || *t == '\t')
			t++;
		if (!strncmp(t, "files:", 6)) {
			*bar = 0;
			f[3] = trim(f[3]);
			f[4] = trim(t + 6);
			nf = 5;
			break;
		}
	}
	/* a note's first field is its kind: a directive for the agent, one it has
	 * since followed (done), or a remark (vcs/notes.h) */
	static const char *const kinds[] = {"directive", "done", "remark"};
	int kind = -1;
	for (int k = 0; k < 3; k++)
		if (!strcmp(f[0], kinds[k]))
			kind = k;
	if (kind >= 0) {
		rung_demo_note n;
		memset(&n, 0, sizeof(n));
		n.line = lineno;
		n.kind = kind == 0 ? RUNG_ENTRY_DIRECTIVE : kind == 1 ? RUNG_ENTRY_DONE : RUNG_ENTRY_REMARK;
		n.step = find_step(p, task, f[1]);
		if (n.step < 0)
			return rung_error_set(RUNG_EINVAL, "%s:%d: note on '%s', which is not an earlier step of %s", name,
					      lineno, f[1], task);
		if (strcmp(f[2], "-") && rung_note_verdict_parse(&n.verdict, f[2]) < 0)
			return rung_error_set(RUNG_EINVAL, "%s:%d: verdict '%s': use keep, reject, baseline, best or -",
					      name, lineno, f[2]);
		if (strlen(f[3]) >= sizeof(n.text))
			return rung_error_set(RUNG_EINVAL, "%s:%d: note text too long", name, lineno);
		snprintf(n.text, sizeof(n.text), "%s", f[3]);
		return add_note(p, &n);
	}
	rung_demo_step s;
	memset(&s, 0, sizeof(s));
	s.line = lineno;
	if (!f[0][0] || strlen(f[0]) >= sizeof(s.step) || strchr(f[0], '/'))
		return rung_error_set(RUNG_EINVAL, "%s:%d: bad step name '%s'", name, lineno, f[0]);
	snprintf(s.task, sizeof(s.task), "%s", task);
	snprintf(s.step, sizeof(s.step), "%s", f[0]);
	if (find_step(p, task, s.step) >= 0)
		return rung_error_set(RUNG_EINVAL, "%s:%d: step '%s' listed twice", name, lineno, s.step);
	char path[512];
	snprintf(path, sizeof(path), "%s/ladder/%s.cu", task, s.step);
	if (nf == 5) {
		if (kind >= 0)
			return rung_error_set(RUNG_EINVAL, "%s:%d: a note takes 4 fields", name, lineno);
		char *save = NULL;
		for (char *it = strtok_r(f[4], " \t", &save); it; it = strtok_r(NULL, " \t", &save)) {
			char *eq = strchr(it, '=');
			if (!eq || eq == it || !eq[1] || s.nfiles == 4 || (size_t)(eq - it) >= sizeof(s.dest[0]) ||
			    strlen(eq + 1) >= sizeof(s.src[0]))
				return rung_error_set(RUNG_EINVAL, "%s:%d: files: expected up to 4 DEST=SRC, got '%s'", name,
						      lineno, it);
			*eq = 0;
			if (strchr(it, '/') || !strcmp(it, "..") || !strcmp(it, "."))
				return rung_error_set(RUNG_EINVAL, "%s:%d: files: '%s' is not a file name in the task directory",
						      name, lineno, it);
			snprintf(s.dest[s.nfiles], sizeof(s.dest[0]), "%s", it);
			snprintf(s.src[s.nfiles], sizeof(s.src[0]), "%s", eq + 1);
			if (!rung_demo_find(s.src[s.nfiles]) && !s.missing[0])
				snprintf(s.missing, sizeof(s.missing), "%s", s.src[s.nfiles]);
			s.nfiles++;
		}
		if (!s.nfiles)
			return rung_error_set(RUNG_EINVAL, "%s:%d: files: empty", name, lineno);
	} else if (!rung_demo_find(path)) {
		return rung_error_set(RUNG_EINVAL, "%s:%d: step '%s' has no file %s", name, lineno, s.step, path);
	}
	/* author: Name <email> */
	char *lt = strchr(f[1], '<'), *gt = lt ? strchr(lt, '>') : NULL;
	if (!lt || !gt || lt == f[1])
		return rung_error_set(RUNG_EINVAL, "%s:%d: author '%s' is not 'Name <email>'", name, lineno, f[1]);
	*lt = 0;
	*gt = 0;
	snprintf(s.name, sizeof(s.name), "%s", trim(f[1]));
	snprintf(s.email, sizeof(s.email), "%s", lt + 1);
	if (rung_demo_parse_date(&s.time, f[2]) < 0)
		return rung_error_set(RUNG_EINVAL, "%s:%d: %s", name, lineno, rung_error_last());
	if (s.time < *last_time)
		return rung_error_set(RUNG_EINVAL, "%s:%d: date %s is earlier than the step before", name, lineno, f[2]);
	*last_time = s.time;
	if (!f[3][0])
		return rung_error_set(RUNG_EINVAL, "%s:%d: empty commit message", name, lineno);
	snprintf(s.message, sizeof(s.message), "%s", f[3]);
	return add_step(p, &s);
}

int rung_demo_plan_parse(rung_demo_plan *p, const char *task, const char *text, const char *name)
{
	char *copy = strdup(text);
	if (!copy)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	int e = 0, lineno = 0;
	int64_t last = 0;
	char *save = NULL;
	/* strtok_r would skip empty lines and miscount: walk by hand */
	for (char *s = copy; s && e == 0; s = save) {
		char *nl = strchr(s, '\n');
		save = nl ? nl + 1 : NULL;
		if (nl)
			*nl = 0;
		lineno++;
		char *t = trim(s);
		if (!*t || *t == '#')
			continue;
		e = parse_line(p, task, t, name, lineno, &last);
	}
	free(copy);
	return e;
}

/* The kernel file named in a task's rung.ini. */
static int task_kernel(char *out, size_t len, const char *task)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/rung.ini", task);
	const rung_demo_file *f = rung_demo_find(path);
	if (!f)
		return rung_error_set(RUNG_ENOTFOUND, "%s: not embedded", path);
	rung_spec *spec = NULL;
	int e = rung_spec_parse(&spec, (const char *)f->bytes, path, task);
	if (e < 0)
		return e;
	if (!spec->kernel || strchr(spec->kernel, '/')) {
		rung_spec_free(spec);
		return rung_error_set(RUNG_EINVAL, "%s: [task] kernel must be a file in the task directory", path);
	}
	snprintf(out, len, "%s", spec->kernel);
	rung_spec_free(spec);
	return 0;
}

int rung_demo_plan_load(rung_demo_plan *p)
{
	memset(p, 0, sizeof(*p));
	int e = 0;
	for (int i = 0; i < rung_demo_nfiles && e == 0; i++) {
		const char *path = rung_demo_files[i].path;
		const char *slash = strchr(path, '/');
		if (!slash || strcmp(slash, "/ladder.txt"))
			continue;
		if (p->ntasks == (int)(sizeof(p->tasks) / sizeof(p->tasks[0]))) {
			e = rung_error_set(RUNG_EINVAL, "too many embedded tasks");
			break;
		}
		char *task = p->tasks[p->ntasks];
		snprintf(task, sizeof(p->tasks[0]), "%.*s", (int)(slash - path), path);
		if ((e = task_kernel(p->kernels[p->ntasks], sizeof(p->kernels[0]), task)) < 0)
			break;
		p->ntasks++;
		e = rung_demo_plan_parse(p, task, (const char *)rung_demo_files[i].bytes, path);
	}
	if (e == 0 && p->ntasks == 0)
		e = rung_error_set(RUNG_ENOTFOUND, "no example tasks embedded in this binary");
	if (e < 0) {
		rung_demo_plan_clear(p);
		return e;
	}
	rung_demo_plan_sort(p);
	return 0;
}

void rung_demo_plan_sort(rung_demo_plan *p)
{
	/* stable insertion sort by date: tasks interleave, each keeps its order */
	for (int i = 1; i < p->nsteps; i++) {
		rung_demo_step s = p->steps[i];
		int j = i;
		for (; j > 0 && p->steps[j - 1].time > s.time; j--)
			p->steps[j] = p->steps[j - 1];
		if (j != i) {
			p->steps[j] = s;
			for (int k = 0; k < p->nnotes; k++) { /* keep note -> step indices right */
				int st = p->notes[k].step;
				if (st == i)
					p->notes[k].step = j;
				else if (st >= j && st < i)
					p->notes[k].step = st + 1;
			}
		}
	}
}

void rung_demo_plan_clear(rung_demo_plan *p)
{
	free(p->steps);
	free(p->notes);
	memset(p, 0, sizeof(*p));
}

static int mkdir_p(const char *dir)
{
	char buf[4096];
	if (snprintf(buf, sizeof(buf), "%s", dir) >= (int)sizeof(buf))
		return rung_error_set(RUNG_EINVAL, "%s: path too long", dir);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(buf, 0777) < 0 && errno != EEXIST)
			return rung_error_set(RUNG_EIO, "%s: cannot create: %s", buf, strerror(errno));
		*p = '/';
	}
	if (mkdir(buf, 0777) < 0 && errno != EEXIST)
		return rung_error_set(RUNG_EIO, "%s: cannot create: %s", buf, strerror(errno));
	return 0;
}

int rung_demo_prepare_dir(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) < 0) {
		if (errno != ENOENT)
			return rung_error_set(RUNG_EIO, "%s: %s", dir, strerror(errno));
		return mkdir_p(dir);
	}
	if (!S_ISDIR(st.st_mode))
		return rung_error_set(RUNG_EINVAL, "%s exists and is not a directory; give a new or empty directory", dir);
	DIR *d = opendir(dir);
	if (!d)
		return rung_error_set(RUNG_EIO, "%s: %s", dir, strerror(errno));
	int n = 0;
	struct dirent *de;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			n++;
	closedir(d);
	if (n)
		return rung_error_set(RUNG_EINVAL,
				      "%s is not empty (%d entr%s): the demo needs a new or empty directory; nothing was changed",
				      dir, n, n == 1 ? "y" : "ies");
	return 0;
}

/* ---- the repository ------------------------------------------------------ */

static const char demo_readme[] =
	"# rung demo\n"
	"\n"
	"Two kernel-optimization ladders as an agent would commit them, made by `rung demo`:\n"
	"\n"
	"- `sgemm/`: fp32 matrix multiply, from a naive kernel to TF32 tensor cores\n"
	"  (with a step that does not compile, one that leaves the last N % 4 columns\n"
	"  unwritten, so it is wrong only at odd N, and one that overruns its shared\n"
	"  memory);\n"
	"- `softmax/`: row softmax, from three passes to one warp per row.\n"
	"\n"
	"Each commit changes one kernel file (`sgemm/sgemm.cu`, `softmax/softmax.cu`);\n"
	"steering notes are in `refs/notes/rung` (`git notes --ref=rung show REV`).\n"
	"\n"
	"    rung tui -C . sgemm          # the workbench on one task\n"
	"    rung log --task sgemm        # one row per version\n"
	"    rung eval --task sgemm       # evaluate every version (needs a GPU)\n"
	"    rung check --compile-only sgemm\n"
	"\n"
	"What follows is examples/README.md from rung's source, where these tasks\n"
	"live (`examples/sgemm` there is `sgemm/` here).\n"
	"\n";

typedef struct {
	git_repository *g;
	git_index *idx;
	git_oid head;
	bool has_head;
} builder;

static int gerr(int e, const char *what)
{
	return rung_git_error(e, what);
}

static int stage(builder *b, const char *path, const void *bytes, size_t len)
{
	git_index_entry ent;
	memset(&ent, 0, sizeof(ent));
	ent.path = path;
	ent.mode = GIT_FILEMODE_BLOB;
	int e = git_index_add_from_buffer(b->idx, &ent, bytes, len);
	return e < 0 ? gerr(e, path) : 0;
}

static int stage_embedded(builder *b, const char *repo_path, const char *embedded)
{
	const rung_demo_file *f = rung_demo_find(embedded);
	if (!f)
		return rung_error_set(RUNG_ENOTFOUND, "%s: not embedded in this binary", embedded);
	return stage(b, repo_path, f->bytes, f->len);
}

static int commit(builder *b, const char *name, const char *email, int64_t when, const char *msg)
{
	git_oid tree_id, id;
	git_tree *tree = NULL;
	git_commit *parent = NULL;
	git_signature *sig = NULL;
	int e = git_index_write_tree(&tree_id, b->idx);
	if (e == 0)
		e = git_tree_lookup(&tree, b->g, &tree_id);
	if (e == 0 && b->has_head)
		e = git_commit_lookup(&parent, b->g, &b->head);
	if (e == 0)
		e = git_signature_new(&sig, name, email, (git_time_t)when, 0);
	if (e == 0) {
		const git_commit *parents[1] = {parent};
		char *m = malloc(strlen(msg) + 2);
		if (!m) {
			e = -1;
		} else {
			sprintf(m, "%s\n", msg);
			e = git_commit_create(&id, b->g, "HEAD", sig, sig, NULL, m, tree, parent ? 1 : 0, parents);
			free(m);
		}
	}
	git_signature_free(sig);
	git_commit_free(parent);
	git_tree_free(tree);
	if (e < 0)
		return gerr(e, "commit");
	b->head = id;
	b->has_head = true;
	return 0;
}

static int setup_commit(builder *b, const rung_demo_plan *p)
{
	const rung_demo_file *ex = rung_demo_find("README.md");
	size_t rl = strlen(demo_readme), el = ex ? ex->len : 0;
	char *readme = malloc(rl + el + 1);
	if (!readme)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	memcpy(readme, demo_readme, rl);
	if (ex)
		memcpy(readme + rl, ex->bytes, el);
	int e = stage(b, "README.md", readme, rl + el);
	free(readme);
	char msg[512] = "Add the ";
	for (int t = 0; e == 0 && t < p->ntasks; t++) {
		char src[512], dst[512];
		snprintf(src, sizeof(src), "%s/rung.ini", p->tasks[t]);
		e = stage_embedded(b, src, src);
		if (e == 0) {
			snprintf(src, sizeof(src), "%s/reference.cu", p->tasks[t]);
			snprintf(dst, sizeof(dst), "%s", src);
			e = stage_embedded(b, dst, src);
		}
		size_t l = strlen(msg);
		snprintf(msg + l, sizeof(msg) - l, "%s%s", t == 0 ? "" : t == p->ntasks - 1 ? " and " : ", ", p->tasks[t]);
	}
	size_t l = strlen(msg);
	snprintf(msg + l, sizeof(msg) - l, " task%s: rung.ini and reference kernels", p->ntasks > 1 ? "s" : "");
	/* half an hour before the first step */
	int64_t when = (p->nsteps ? p->steps[0].time : 0) - 1800;
	return e ? e : commit(b, RUNG_DEMO_HUMAN_NAME, RUNG_DEMO_HUMAN_EMAIL, when, msg);
}

static const char *kernel_of(const rung_demo_plan *p, const char *task)
{
	for (int t = 0; t < p->ntasks; t++)
		if (!strcmp(p->tasks[t], task))
			return p->kernels[t];
	return NULL;
}

/* Deleting the last entries of [user] leaves "[user]" behind in .git/config:
 * the repository should look as if git made it. */
static void drop_empty_user_section(const char *dir)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/.git/config", dir);
	char *buf = NULL;
	if (rung_fs_read_file(&buf, NULL, path, RUNG_FS_MAX_TEXT) < 0)
		return;
	char *u = strstr(buf, "[user]\n");
	if (!u || (u[7] && u[7] != '[')) {
		free(buf);
		return;
	}
	memmove(u, u + 7, strlen(u + 7) + 1);
	FILE *f = fopen(path, "w");
	if (f) {
		fputs(buf, f);
		fclose(f);
	}
	free(buf);
}

/* Notes are written as the human: the repository's own user.name/email are
 * set for the duration (rung_note_add signs with git's default signature). */
static int write_notes(rung_demo_report *rep, const rung_demo_plan *p, const char *dir)
{
	rung_repo *r = NULL;
	int e = rung_repo_open(&r, dir);
	if (e < 0)
		return e;
	git_config *cfg = NULL, *local = NULL;
	e = git_repository_config(&cfg, rung_repo_git(r));
	if (e == 0)
		e = git_config_open_level(&local, cfg, GIT_CONFIG_LEVEL_LOCAL);
	if (e == 0)
		e = git_config_set_string(local, "user.name", RUNG_DEMO_HUMAN_NAME);
	if (e == 0)
		e = git_config_set_string(local, "user.email", RUNG_DEMO_HUMAN_EMAIL);
	if (e < 0)
		e = gerr(e, "config");
	for (int i = 0; e == 0 && i < p->nnotes; i++) {
		const rung_demo_note *n = &p->notes[i];
		if (p->steps[n->step].missing[0])
			continue; /* on a step left out */
		/* a couple of minutes after the commit it is about */
		e = rung_note_add_entry(r, p->steps[n->step].commit, n->verdict, n->kind, n->text,
					p->steps[n->step].time + 120);
		if (e == 0)
			rep->notes++;
	}
	if (local) {
		git_config_delete_entry(local, "user.name");
		git_config_delete_entry(local, "user.email");
	}
	git_config_free(local);
	git_config_free(cfg);
	rung_repo_free(r);
	if (e == 0)
		drop_empty_user_section(dir);
	return e;
}

static int import_recorded(rung_demo_report *rep, const rung_demo_plan *p, const char *dir, const char *cmd)
{
	rung_repo *r = NULL;
	rung_store *s = NULL;
	int e = 0;
	for (int t = 0; e == 0 && !p->skip_recorded && t < p->ntasks; t++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/recorded.jsonl", p->tasks[t]);
		const rung_demo_file *f = rung_demo_find(path);
		if (!f || !f->len)
			continue;
		if (!s && ((e = rung_repo_open(&r, dir)) < 0 || (e = rung_store_open_repo(&s, r)) < 0))
			break;
		FILE *in = fmemopen((void *)f->bytes, f->len, "r");
		if (!in) {
			e = rung_error_set(RUNG_EIO, "%s: %s", path, strerror(errno));
			break;
		}
		int n = 0;
		int rc = rung_import_stream(&n, s, in, path);
		fclose(in);
		rep->recorded += n;
		if (rc)
			e = rc; /* "path:line: ..." */
	}
	rung_store_close(s);
	rung_repo_free(r);
	return e;
}

int rung_demo_build(rung_demo_report *rep, rung_demo_plan *p, const char *dir, const char *cmd)
{
	memset(rep, 0, sizeof(*rep));
	int e = rung_demo_prepare_dir(dir);
	if (e < 0)
		return e;
	git_libgit2_init();
	builder b;
	memset(&b, 0, sizeof(b));
	git_repository_init_options io;
	git_repository_init_options_init(&io, GIT_REPOSITORY_INIT_OPTIONS_VERSION);
	io.flags = GIT_REPOSITORY_INIT_MKPATH;
	io.initial_head = "main";
	e = git_repository_init_ext(&b.g, dir, &io);
	if (e < 0)
		e = gerr(e, "git init");
	if (e == 0 && (e = git_repository_index(&b.idx, b.g)) < 0)
		e = gerr(e, "index");
	if (e == 0 && (e = setup_commit(&b, p)) == 0)
		rep->commits++;
	for (int i = 0; e == 0 && i < p->nsteps; i++) {
		rung_demo_step *s = &p->steps[i];
		const char *kernel = kernel_of(p, s->task);
		char src[512], dst[512];
		if (s->missing[0]) {
			if (!rep->skipped++)
				snprintf(rep->skip_note, sizeof(rep->skip_note),
					 "%.60s step %.120s left out: examples/%.250s is not in this build (drop the file in and rebuild)",
					 s->task, s->step, s->missing);
			continue;
		}
		for (int k = 0; e == 0 && k < s->nfiles; k++) {
			snprintf(dst, sizeof(dst), "%s/%s", s->task, s->dest[k]);
			e = stage_embedded(&b, dst, s->src[k]);
		}
		snprintf(src, sizeof(src), "%s/ladder/%s.cu", s->task, s->step);
		snprintf(dst, sizeof(dst), "%s/%s", s->task, kernel ? kernel : "");
		if (e == 0 && !s->nfiles)
			e = stage_embedded(&b, dst, src);
		/* a step's own rung.ini, ladder/<step>.ini, when the ladder has one (the goal of its last step) */
		snprintf(src, sizeof(src), "%s/ladder/%s.ini", s->task, s->step);
		snprintf(dst, sizeof(dst), "%s/rung.ini", s->task);
		if (e == 0 && !s->nfiles && rung_demo_find(src))
			e = stage_embedded(&b, dst, src);
		if (e == 0)
			e = commit(&b, s->name, s->email, s->time, s->message);
		if (e == 0) {
			git_oid_tostr(s->commit, sizeof(s->commit), &b.head);
			rep->commits++;
		}
	}
	if (e == 0) {
		/* the working tree and index at HEAD */
		git_checkout_options co;
		git_checkout_options_init(&co, GIT_CHECKOUT_OPTIONS_VERSION);
		co.checkout_strategy = GIT_CHECKOUT_FORCE;
		int ge = git_checkout_head(b.g, &co);
		if (ge == 0)
			ge = git_index_read(b.idx, 1);
		if (ge < 0)
			e = gerr(ge, "checkout");
		git_oid_tostr(rep->head, sizeof(rep->head), &b.head);
	}
	git_index_free(b.idx);
	git_repository_free(b.g);
	if (e == 0)
		e = write_notes(rep, p, dir);
	if (e == 0)
		e = import_recorded(rep, p, dir, cmd);
	git_libgit2_shutdown();
	return e;
}
