/* rung ceilings [--json] [-C DIR]
 *
 * Measures the device's roofline ceilings in the worker (gpu/ceilings.h),
 * stores them in the repository's results store when run inside a git
 * repository (per device UUID and clocks: vcs/ceil_store.h), and prints each
 * beside its datasheet value:
 *   device NVIDIA H200 (sm_90, 132 SMs, 1980 MHz SM, 3201 MHz memory)
 *   dram       4.31 TB/s      measured   datasheet 4.81 TB/s
 * Exit: 0, 4 without a GPU, 5 when a measurement failed. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "core/ceilings_json.h"
#include "core/err.h"
#include "core/roofline_guard.h"
#include "gpu/ceilings.h"
#include "gpu/worker.h"
#include "cli/ceilings_print.h"
#include "cli/cli.h"
#include "vcs/ceil_store.h"
#include "vcs/repo.h"
#include "vcs/store.h"

static void progress(void *ud, rung_step_id step, double frac, const char *msg)
{
	(void)ud;
	(void)step;
	rung_cli_tty_status("[ceilings] %3.0f%% %s", 100 * (isfinite(frac) ? frac : 0), msg ? msg : "");
}

static const struct {
	const char *key, *label;
	bool bytes;
} rows[] = {
	{"dram", "dram", true},      {"l2", "l2", true},           {"l1", "l1", true},
	{"fp32", "fp32", false},
	{"fp64", "fp64", false},     {"bf16", "bf16-mma", false}, {"tf32", "tf32-mma", false},
};

static void fmt_val(char *buf, size_t len, const rung_ceiling *c, bool bytes)
{
	if (c->src == RUNG_CEIL_NONE || !isfinite(c->value))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3g %s", c->value / 1e12, bytes ? "TB/s" : "TFLOP/s");
}

void rung_ceilings_print(FILE *f, const rung_env *e, const rung_ceilings *m, const rung_ceilings *d)
{
	fprintf(f, "device %s (%s, %d SMs, %d MHz SM, %d MHz memory)\n", e->gpu, e->arch, e->sms, e->sm_clock_mhz,
		e->mem_clock_mhz);
	rung_ceilings mm = *m, dd = *d;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char a[48], b[48];
		const rung_ceiling *mc = rung_ceilings_field(&mm, rows[i].key);
		const rung_ceiling *dc = rung_ceilings_field(&dd, rows[i].key);
		fmt_val(a, sizeof(a), mc, rows[i].bytes);
		fmt_val(b, sizeof(b), dc, rows[i].bytes);
		fprintf(f, "%-9s %-16s %-10s datasheet %s\n", rows[i].label, a, rung_ceil_src_name(mc->src), b);
	}
}

typedef struct {
	bool json;
	const char *dir;
} ceilings_opts;

static const rung_opt_spec ceilings_specs[] = {
	{RUNG_OPT_BOOL(ceilings_opts, json), .name = "json", .help = "print one JSON object instead of the table"},
	{RUNG_CLI_OPT_C(ceilings_opts, dir)},
	{0}};
const rung_opt_table rung_opts_ceilings = {.cmd = "ceilings", .args = "", .max_args = 0, .opts = ceilings_specs};

int rung_cmd_ceilings(int argc, char **argv)
{
	ceilings_opts o = {0};
	int rc, nargs;
	if (rung_opts_parse(&rc, &rung_opts_ceilings, &o, argc, argv, &nargs))
		return rc;
	const bool json = o.json;
	rung_worker *w = NULL;
	if (rung_worker_open(&w, NULL))
		return RUNG_EXIT_INTERNAL;
	rung_ceilings m;
	rung_env env;
	bool tty = isatty(STDERR_FILENO);
	rc = rung_worker_ceilings(&m, &env, w, tty ? progress : NULL, NULL);
	if (tty)
		fprintf(rung_cli_tty_stderr(), "\r\033[K");
	rung_worker_detach(w);
	if (rc == RUNG_ENODEV) {
		fprintf(stderr, "rung ceilings: SKIPPED %s\n", rung_error_last());
		if (json) { /* stdout carries the answer for a script too */
			json_t *o = json_pack("{s:s,s:s}", "status", "SKIPPED", "reason", rung_error_last());
			char *s = o ? json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII) : NULL;
			if (s)
				puts(s);
			free(s);
			json_decref(o);
		}
		return RUNG_EXIT_NOGPU;
	}
	if (rc) {
		fprintf(stderr, "rung ceilings: %s\n", rung_error_last());
		return RUNG_EXIT_INTERNAL;
	}
	/* Store them when inside a repository (silently skipped elsewhere). */
	rung_repo *repo = NULL;
	rung_store *st = NULL;
	bool stored = false;
	if (rung_repo_open(&repo, o.dir) == 0 && rung_store_open_repo(&st, repo) == 0) {
		if (rung_store_put_ceilings(st, &env, &m, (int64_t)time(NULL)) == 0)
			stored = true;
		else
			fprintf(stderr, "rung ceilings: %s\n", rung_error_last());
	}
	rung_error_clear();
	rung_store_close(st);
	rung_repo_free(repo);

	rung_ceilings d;
	rung_ceilings_init(&d);
	rung_device_attrs a;
	if (rung_env_device_attrs(&a, &env) == 0)
		rung_ceilings_datasheet(&d, &a);
	if (json) {
		char *ms = rung_ceilings_to_json(&m), *ds = rung_ceilings_to_json(&d);
		json_t *o = json_pack("{s:s,s:s,s:s,s:i,s:i,s:o,s:o,s:b}", "gpu", env.gpu, "uuid", env.uuid, "arch",
				      env.arch, "sm_clock_mhz", env.sm_clock_mhz, "mem_clock_mhz", env.mem_clock_mhz,
				      "measured", json_loads(ms ? ms : "{}", 0, NULL), "datasheet",
				      json_loads(ds ? ds : "{}", 0, NULL), "stored", stored);
		char *s = json_dumps(o, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_REAL_PRECISION(6));
		if (s)
			puts(s);
		free(s);
		free(ms);
		free(ds);
		json_decref(o);
	} else {
		rung_ceilings_print(stdout, &env, &m, &d);
		if (stored)
			printf("stored for %s at %d/%d MHz\n", env.uuid, env.sm_clock_mhz, env.mem_clock_mhz);
	}
	return RUNG_EXIT_OK;
}
