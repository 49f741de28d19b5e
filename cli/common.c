/* What every command shares (cli/common.h). */
#include "cli/common.h"

#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/err.h"
#include "core/fs.h"
#include "vcs/repo.h"
#include "gpu/sanitize.h"
#include "cli/cli.h"

int rung_cli_exit_of(int err)
{
	switch (err) {
	case 0:
		return RUNG_EXIT_OK;
	case RUNG_EUSAGE:
	case RUNG_ENOTFOUND:
		return RUNG_EXIT_USAGE;
	case RUNG_ESPEC:
	case RUNG_EINVAL:
		return RUNG_EXIT_SPEC;
	case RUNG_ENODEV:
		return RUNG_EXIT_NOGPU;
	case RUNG_ECOMPILE:
		return RUNG_EXIT_FAIL;
	default:
		return RUNG_EXIT_INTERNAL;
	}
}

int rung_cli_fail(const char *cmd, int err)
{
	return rung_cli_fail_to(stderr, cmd, err);
}

int rung_cli_fail_to(FILE *f, const char *cmd, int err)
{
	fprintf(f, "rung %s: %s\n", cmd, rung_error_last());
	return rung_cli_exit_of(err);
}

int rung_cli_vctx_open(rung_vctx *c, const char *cmd, const rung_vctx_opts *o, unsigned need)
{
	return rung_cli_vctx_open_to(stderr, c, cmd, o, need);
}

int rung_cli_vctx_open_to(FILE *f, rung_vctx *c, const char *cmd, const rung_vctx_opts *o, unsigned need)
{
	int e = rung_vctx_open(c, cmd, o, need);
	if (e == 0)
		return RUNG_EXIT_OK;
	/* a committed rung.ini that does not parse: the earlier versions are still
	 * reachable with an earlier spec (#28 D-2) */
	bool spec = e == RUNG_EINVAL && !(o && o->spec_rev) && strstr(rung_error_last(), "rung.ini:");
	int rc = rung_cli_fail_to(f, cmd, e);
	if (f == stderr && rung_opts_json()) /* the command line's --json (not the MCP server's text) */
		rung_cli_json_error(rc);
	if (spec)
		fprintf(f, "rung %s: to use the spec of an earlier commit meanwhile: rung %s --spec-rev REV (HEAD~1: "
				"the one before)\n", cmd, cmd);
	return rc;
}

json_t *rung_cli_json_error_obj(int rc)
{
	return json_pack("{s:s,s:i,s:s}", "status", "error", "exit", rc, "error", rung_error_last());
}

void rung_cli_json_error(int rc)
{
	if (!rung_opts_json_error_first())
		return; /* said already */
	json_t *e = rung_cli_json_error_obj(rc);
	char *js = e ? json_dumps(e, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
	if (js)
		puts(js);
	free(js);
	json_decref(e);
}

int rung_cli_error(const char *cmd, int rc, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "rung %s: %s\n", cmd, msg);
	rung_error_set(rc == RUNG_EXIT_USAGE ? RUNG_EUSAGE : RUNG_EINVAL, "%s", msg);
	if (rung_opts_json())
		rung_cli_json_error(rc);
	return rc;
}

int rung_cli_task_load(rung_task *t, const char *cmd, const char *target, const rung_task_where *w)
{
	return rung_cli_task_load_to(stderr, t, cmd, target, w);
}

int rung_cli_task_load_to(FILE *f, rung_task *t, const char *cmd, const char *target, const rung_task_where *w)
{
	int e = rung_task_resolve(t, target, w);
	if (e == 0)
		return RUNG_EXIT_OK;
	int rc = rung_cli_fail_to(f, cmd, e);
	if (f == stderr && rung_opts_json()) /* the command line's --json (not the MCP server's text) */
		rung_cli_json_error(rc);
	return rc;
}

int rung_cli_evaluate(rung_result *r, const rung_task *t, const rung_eval_opts *o, rung_compiled *kc,
		      rung_compiled *rc, const char *cmd)
{
	return rung_cli_evaluate_to(stdout, stderr, r, t, o, kc, rc, cmd);
}

int rung_cli_evaluate_to(FILE *out, FILE *err, rung_result *r, const rung_task *t, const rung_eval_opts *o,
			 rung_compiled *kc, rung_compiled *rc, const char *cmd)
{
	rung_evaluator ev;
	rung_eval_info info;
	int e = rung_evaluator_open(&ev, NULL, o->flags);
	if (e == 0) {
		ev.ceil_task = t;
		e = rung_app_evaluate(r, &info, &ev, t, o, kc, rc);
	}
	rung_cli_progress_clear();
	rung_evaluator_detach(&ev);
	if (e < 0)
		return rung_cli_fail_to(err, cmd, e);
	if (r->steps[RUNG_STEP_COMPILE].status != RUNG_S_OK) {
		fprintf(out, "[compile] FAILED %s\n", r->steps[RUNG_STEP_COMPILE].reason);
		return RUNG_EXIT_FAIL;
	}
	if (info.reference_failed) {
		fprintf(err, "rung %s: the reference %s does not compile: %s\n", cmd, t->reference.path,
			info.reference_error);
		return RUNG_EXIT_SPEC;
	}
	return RUNG_EXIT_OK;
}

int rung_cli_compile_both(rung_compiled *kc, rung_compiled *rc, const rung_task *t, const char *cmd)
{
	int e = rung_task_compile_both(kc, rc, t);
	if (e == RUNG_ECOMPILE) {
		printf("[compile] FAILED %s\n", rung_error_last());
		return RUNG_EXIT_FAIL;
	}
	return e < 0 ? rung_cli_fail(cmd, e) : RUNG_EXIT_OK;
}

const rung_opt_spec rung_vctx_opt_specs[] = {
	{RUNG_CLI_OPT_C(rung_vctx_opts, dir)},
	{RUNG_OPT_STR(rung_vctx_opts, task), .name = "task", .value = "DIR",
	 .help = "the task directory, where the repository has several"},
	{RUNG_OPT_STR(rung_vctx_opts, spec_rev), .name = "spec-rev", .value = "REV",
	 .help = "read rung.ini and the reference at this revision (default HEAD)"},
	{0}};

const rung_opt_spec rung_gpu_run_opt_specs[] = {
	{RUNG_OPT_BOOL(rung_gpu_run_opts, json), .name = "json", .help = "print one JSON object instead of the lines"},
	{RUNG_OPT_SEED(rung_gpu_run_opts, seed), RUNG_OPT_SEEN(rung_gpu_run_opts, has_seed), .name = "seed",
	 .value = "S", .help = "base seed for the input data"},
	{RUNG_OPT_SUBTABLE(rung_gpu_run_opts, where, rung_vctx_opt_specs)},
	{0}};

int rung_vctx_root_tasks(char ***tasks, int *n, const rung_vctx_opts *o)
{
	*tasks = NULL;
	*n = 0;
	if (o->task)
		return -1;
	rung_repo *r = NULL;
	if (rung_repo_open(&r, o->dir) < 0) {
		rung_error_clear();
		return -1; /* the command says what is wrong */
	}
	char *d = NULL;
	int e = rung_where_task(&d, r, o);
	free(d);
	if (e != RUNG_EINVAL || rung_repo_find_tasks(tasks, n, r) < 0 || *n < 2) {
		rung_error_clear();
		rung_strv_free(*tasks, *n);
		*tasks = NULL;
		*n = 0;
		rung_repo_free(r);
		return -1;
	}
	rung_error_clear();
	rung_repo_free(r);
	return 0;
}

void rung_root_task_path(char *abs, size_t len, const char *task)
{
	char buf[PATH_MAX];
	if (realpath(task[0] ? task : ".", buf))
		snprintf(abs, len, "%s", buf);
	else
		snprintf(abs, len, "%s", task);
}

int rung_vctx_each_task(const rung_vctx_opts *o, int argc, char **argv, int (*fn)(int, char **), bool header)
{
	char **tasks;
	int n;
	if (rung_vctx_root_tasks(&tasks, &n, o) < 0)
		return -1;
	int worst = RUNG_EXIT_OK;
	char **av = calloc((size_t)argc + 3, sizeof(char *));
	for (int i = 0; av && i < n; i++) {
		char abs[PATH_MAX];
		rung_root_task_path(abs, sizeof(abs), tasks[i]);
		memcpy(av, argv, (size_t)argc * sizeof(char *));
		av[argc] = "--task";
		av[argc + 1] = abs;
		av[argc + 2] = NULL;
		if (header) {
			printf("%s== task %s\n", i ? "\n" : "", tasks[i][0] ? tasks[i] : ".");
			fflush(stdout);
		}
		int rc = fn(argc + 2, av);
		if (rc > worst)
			worst = rc;
	}
	if (!av)
		worst = RUNG_EXIT_INTERNAL;
	free(av);
	rung_strv_free(tasks, n);
	return worst;
}

static int sanitize_fn(void *field, const rung_opt_spec *s, const char *cmd, const char *value)
{
	rung_sanitize_sel *sel = field;
	sel->set = true;
	if (!strcmp(s->name, "no-sanitize")) {
		sel->tools = 0;
		return 0;
	}
	if (!value) {
		sel->tools = RUNG_SAN_DEFAULT;
		return 0;
	}
	if (rung_san_tools_parse(&sel->tools, value) < 0) {
		fprintf(stderr, "rung %s: --sanitize: %s\n", cmd, rung_error_last());
		return -1;
	}
	return 0;
}

const rung_opt_spec rung_sanitize_opt_specs[] = {
	{.kind = RUNG_OPT_FN, .offset = 0, .fn = sanitize_fn, .name = "sanitize", .value = "TOOLS",
	 .flags = RUNG_OPTF_OPTIONAL, .choices = "memcheck racecheck synccheck initcheck",
	 .help = "add the sanitize rung: compute-sanitizer with these tools, a comma list (default memcheck,racecheck)"},
	{.kind = RUNG_OPT_FN, .offset = 0, .fn = sanitize_fn, .name = "no-sanitize",
	 .help = "no sanitize rung, whatever the spec's [check] sanitize says"},
	{0}};
