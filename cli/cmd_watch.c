/* rung watch [--interval SEC] [--count N] [--compile-only] [--workers SPEC] [-C DIR]
 * [--task DIR] [--spec-rev REV]: polls the refs
 * and evaluates each new version of the task as it is committed, printing one
 * rung line per version. Versions present when watching starts are left alone
 * (`rung eval --missing` runs those). After each poll's versions, the fastest
 * passing version is sanitized before it is recommended, as by rung eval
 * (app/sanitize_gate.h). --count N stops after N polls (tests).
 * --workers SPEC (or `workers =` in the user's config) evaluates them on a
 * pool of workers as `rung eval --workers` does (app/pool.h): the versions
 * one poll finds go out together, their lines in commit order, each naming
 * its worker. SIGINT/SIGTERM stop it between versions with exit 0. */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "cli/cli.h"
#include "app/pipeline.h"
#include "tui/theme.h"

static volatile sig_atomic_t stop;
static void on_int(int sig) { (void)sig; stop = 1; }

typedef struct {
	char (*ids)[41];
	int n, cap;
} idset;

static bool has(const idset *s, const char *id)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->ids[i], id))
			return true;
	return false;
}

static void add(idset *s, const char *id)
{
	if (s->n == s->cap) {
		int nc = s->cap ? s->cap * 2 : 64;
		void *p = realloc(s->ids, (size_t)nc * sizeof(*s->ids));
		if (!p)
			return;
		s->ids = p;
		s->cap = nc;
	}
	snprintf(s->ids[s->n++], 41, "%s", id);
}

typedef struct {
	double interval;
	int count;
	bool compile_only;
	const char *workers;
	rung_vctx_opts where;
} watch_opts;

static const rung_opt_spec watch_specs[] = {
	{RUNG_OPT_DBL(watch_opts, interval, 0, 86400), .flags = RUNG_OPTF_GT, .name = "interval", .value = "SEC",
	 .help = "seconds between two looks at HEAD (default 2)"},
	{RUNG_OPT_NUM(watch_opts, count, 0, INT_MAX), .name = "count", .value = "N",
	 .help = "stop after N looks (default 0: until stopped)"},
	{RUNG_OPT_BOOL(watch_opts, compile_only), .name = "compile-only", .help = "the compile rung only (no GPU needed)"},
	{RUNG_OPT_STR(watch_opts, workers), .name = "workers", .value = "SPEC",
	 .help = "a pool of workers, as rung eval's: local:N, local:0,1,3, ssh:HOST[,HOST], slurm:N[,partition=P][,gres=G]"},
	{RUNG_OPT_SUBTABLE(watch_opts, where, rung_vctx_opt_specs)},
	{0}};
const rung_opt_table rung_opts_watch = {.cmd = "watch", .args = "", .max_args = 0, .opts = watch_specs};

typedef struct {
	rung_evaler *ev;
	int failed;
} watch_batch;

/* One line per version of a pooled batch, in commit order (rung_evaler_run_all's callback). */
static void print_pooled(void *ud, int i, const rung_version *v, rung_result *r, int err)
{
	watch_batch *b = ud;
	(void)i;
	if (stop)
		b->ev->cancel = 1; /* the versions not started are left */
	if (err < 0) {
		fprintf(stderr, "rung watch: %s: %s\n", v->short_id, rung_error_last());
		return;
	}
	rung_cli_print_result_line(v, r);
	b->failed += rung_result_status(r) == RUNG_S_FAILED;
}

int rung_cmd_watch(int argc, char **argv)
{
	watch_opts wo = {.interval = 2};
	int rc, nargs;
	if (rung_opts_parse(&rc, &rung_opts_watch, &wo, argc, argv, &nargs))
		return rc;
	const unsigned flags = wo.compile_only ? RUNG_EVAL_COMPILE_ONLY : 0;
	/* SIGINT/SIGTERM end the poll loop cleanly (exit 0): set before any output
	 * so that a caller who waits for the banner can always stop us */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_int;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* a pool: --workers, else `workers =` in the user's config (checked now: a bad one is a usage error at once) */
	rung_config cfg;
	if (!wo.workers && !wo.compile_only) {
		if (rung_config_read(&cfg) < 0) {
			fprintf(stderr, "rung watch: %s\n", rung_error_last());
			return RUNG_EXIT_USAGE;
		}
		if (cfg.workers[0])
			wo.workers = cfg.workers;
	}
	rung_pool pool;
	bool pooled = wo.workers && !wo.compile_only;
	if (pooled && rung_pool_parse(&pool, wo.workers) < 0) {
		fprintf(stderr, "rung watch: %s\n", rung_error_last());
		return RUNG_EXIT_USAGE;
	}
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	int jobs = cores < 2 ? 3 : cores > 16 ? 17 : (int)cores + 1; /* as rung eval's default */
	rung_vctx c;
	rc = rung_cli_vctx_open(&c, "watch", &wo.where, RUNG_VCTX_TASK | RUNG_VCTX_STORE);
	if (rc)
		return rc;
	idset known = {0};
	char head[41] = "";
	rung_repo_resolve(head, c.repo, "HEAD");
	rung_error_clear();
	rung_history_opts ho = rung_vtask_history_opts(&c.task);
	ho.worktree = false;
	rung_history *h;
	rung_version v;
	if (rung_history_open(&h, c.repo, &ho) == 0) {
		while (rung_history_next(&v, h) == 0)
			add(&known, v.id);
		rung_history_free(h);
	}
	fprintf(stderr, "rung watch: %s, %d version(s) so far; waiting for commits (Ctrl-C stops)\n", c.task.kernel_path,
		known.n);
	rung_evaler ev;
	bool ev_open = false;
	for (int poll = 0; !stop && (wo.count == 0 || poll < wo.count); poll++) {
		if (poll) {
			struct timespec ts = {(time_t)wo.interval, (long)((wo.interval - (double)(time_t)wo.interval) * 1e9)};
			nanosleep(&ts, NULL);
		}
		char now[41] = "";
		if (rung_repo_resolve(now, c.repo, "HEAD") < 0 || !strcmp(now, head))
			continue;
		snprintf(head, sizeof(head), "%s", now);
		/* the new versions: newest first until a known one */
		rung_version *fresh = NULL;
		int nf = 0;
		if (rung_history_open(&h, c.repo, &ho) < 0) {
			fprintf(stderr, "rung watch: %s\n", rung_error_last());
			continue;
		}
		while (rung_history_next(&v, h) == 0 && !has(&known, v.id)) {
			rung_version *p = realloc(fresh, (size_t)(nf + 1) * sizeof(*p));
			if (!p)
				break;
			fresh = p;
			fresh[nf++] = v;
		}
		rung_history_free(h);
		if (nf && !ev_open) {
			if (pooled && rung_pool_open(&pool) < 0) {
				fprintf(stderr, "rung watch: %s\n", rung_error_last());
				free(fresh);
				rc = rung_error_last_code() == RUNG_EUSAGE ? RUNG_EXIT_USAGE : RUNG_EXIT_INTERNAL;
				break;
			}
			if (rung_evaler_open_pool(&ev, &c, flags, pooled ? &pool : NULL) < 0) {
				fprintf(stderr, "rung watch: %s\n", rung_error_last());
				if (pooled)
					rung_pool_close(&pool);
				free(fresh);
				rc = RUNG_EXIT_INTERNAL;
				break;
			}
			ev_open = true;
			if (!pooled && !ev.env.valid && !(flags & RUNG_EVAL_COMPILE_ONLY))
				fprintf(stderr, "rung watch: %s: GPU rungs will be SKIPPED and results not stored\n", ev.no_gpu);
		}
		if (pooled && nf) { /* the poll's versions together on the pool, oldest first */
			rung_version *batch = malloc((size_t)nf * sizeof(*batch));
			for (int i = 0; batch && i < nf; i++) {
				batch[i] = fresh[nf - 1 - i];
				add(&known, batch[i].id);
			}
			watch_batch wb = {.ev = &ev};
			if (!batch || rung_evaler_run_all(&ev, batch, nf, jobs, print_pooled, &wb) < 0)
				fprintf(stderr, "rung watch: %s\n", batch ? rung_error_last() : "out of memory");
			free(batch);
			free(fresh);
			continue;
		}
		for (int i = nf - 1; i >= 0 && !stop; i--) {
			add(&known, fresh[i].id);
			rung_cli_bar bar = {.cmd = "watch", .index = -1, .last_step = -1};
			ev.progress = rung_cli_eval_progress;
			ev.progress_ud = &bar;
			rung_result r;
			int er = rung_evaler_run(&ev, &fresh[i], &r);
			rung_cli_progress_clear();
			if (er < 0) {
				fprintf(stderr, "rung watch: %s: %s\n", fresh[i].short_id, rung_error_last());
			} else {
				rung_cli_print_result_line(&fresh[i], &r);
			}
			rung_result_clear(&r);
		}
		/* the would-be best is sanitized before it is recommended (app/sanitize_gate.h) */
		int gate_failed = 0;
		if (nf && !stop && !(flags & RUNG_EVAL_COMPILE_ONLY) &&
		    rung_cli_gate_batch(&ev, "watch", false, &gate_failed) < 0)
			rung_error_clear(); /* said on stderr; watching goes on */
		fflush(stdout);
		free(fresh);
	}
	if (ev_open) {
		rung_evaler_close(&ev);
		if (pooled)
			rung_pool_close(&pool);
	}
	free(known.ids);
	rung_vctx_close(&c);
	return rc;
}
