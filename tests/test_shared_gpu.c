/* A timing taken beside another process on the GPU (#18 item 12), without a
 * GPU: the process list in the result JSON (bench.shared) and back, the
 * bench line of `rung check`, the eval line, the best pick of rung brief and
 * the workbench (a shared timing only when there is no other), and the
 * workbench's table and detail, from fixture results. */
#include "harness.h"

#include <stdlib.h>
#include <string.h>

#include "app/session.h"
#include "cli/report.h"
#include "core/err.h"
#include "core/result.h"
#include "tui/model/model.h"
#include "tui/model/rowmetrics.h"
#include "tui/view.h"

static rung_result *timed(double median_ms, bool shared)
{
	rung_result *r = rung_model_fake_result("0123456789abcdef0123456789abcdef01234567", median_ms, 1e-6, true, 3);
	if (shared)
		rung_gpu_procs_add(&r->bench.shared, 4242, "python3");
	r->bench.shared.read = true;
	return r;
}

static void free_result(rung_result *r)
{
	rung_result_clear(r);
	free(r);
}

static void test_procs(void)
{
	rung_gpu_procs s;
	memset(&s, 0, sizeof(s));
	char buf[512];
	rung_gpu_procs_str(buf, sizeof(buf), &s);
	CHECK_STR(buf, "");
	CHECK(!rung_gpu_procs_any(&s));
	rung_gpu_procs_add(&s, 4242, "python3");
	rung_gpu_procs_add(&s, 4242, "python3"); /* once by pid */
	rung_gpu_procs_add(&s, 77, "a\x1b]0;x\x07.out");
	CHECK_INT(s.n, 2);
	CHECK_STR(s.p[1].name, "a?]0;x?.out"); /* printable ASCII only */
	rung_gpu_procs_str(buf, sizeof(buf), &s);
	CHECK_STR(buf, "shared GPU: pid 4242 python3, pid 77 a?]0;x?.out");
	for (int i = 0; i < 10; i++)
		rung_gpu_procs_add(&s, 1000 + i, "w");
	CHECK_INT(s.n, RUNG_MAX_GPU_PROCS);
	CHECK_INT(s.more, 4);
	rung_gpu_procs_str(buf, sizeof(buf), &s);
	CHECK_CONTAINS(buf, ", pid 1005 w (+4 more)");
}

static void test_json_round_trip(void)
{
	rung_result *r = timed(1.5, true);
	rung_gpu_procs_add(&r->bench.shared, 99, "nvbandwidth");
	char *j = rung_result_to_json(r);
	CHECK_CONTAINS(j, "\"shared\":{\"read\":true,\"procs\":[{\"pid\":4242,\"name\":\"python3\"},{\"pid\":99,\"name\":\"nvbandwidth\"}],\"more\":0}");
	rung_result back;
	CHECK_INT(rung_result_from_json(&back, j), 0);
	CHECK(back.bench.shared.read);
	CHECK_INT(back.bench.shared.n, 2);
	CHECK_INT(back.bench.shared.p[0].pid, 4242);
	CHECK_STR(back.bench.shared.p[0].name, "python3");
	CHECK_STR(back.bench.shared.p[1].name, "nvbandwidth");
	CHECK(rung_bench_shared(&back.bench));
	rung_result_clear(&back);
	free(j);
	/* a record from before: no list, not read, not shared */
	CHECK_INT(rung_result_from_json(&back, "{\"bench\":{\"valid\":true,\"median\":1.0,\"samples\":[1.0]}}"), 0);
	CHECK(!back.bench.shared.read);
	CHECK(!rung_bench_shared(&back.bench));
	rung_result_clear(&back);
	/* hostile or malformed entries: skipped, names cleaned, "more" bounded */
	CHECK_INT(rung_result_from_json(&back, "{\"bench\":{\"shared\":{\"read\":true,\"procs\":[{\"pid\":\"x\"},{\"pid\":-3},"
					       "{\"pid\":5,\"name\":\"\\u001b[2Jevil\"},7],\"more\":99999999999}}}"), 0);
	CHECK_INT(back.bench.shared.n, 1);
	CHECK_INT(back.bench.shared.p[0].pid, 5);
	CHECK_STR(back.bench.shared.p[0].name, "?[2Jevil");
	CHECK_INT(back.bench.shared.more, 1000000);
	rung_result_clear(&back);
	free_result(r);
}

static char *bench_line(const rung_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	rung_check_print_gpu_step(f, r, NULL, RUNG_STEP_BENCH);
	fclose(f);
	return buf;
}

static void test_check_line(void)
{
	rung_result *r = timed(1.5, true);
	char *s = bench_line(r);
	CHECK(s && strncmp(s, "[bench] ok median=1.500ms", 25) == 0);
	CHECK(s && strlen(s) > 30 && !strcmp(s + strlen(s) - 30, " shared GPU: pid 4242 python3\n"));
	free(s);
	free_result(r);
	r = timed(1.5, false); /* alone on the GPU: no mark */
	s = bench_line(r);
	CHECK(s && !strstr(s, "shared"));
	free(s);
	/* the eval and watch line */
	rung_gpu_procs_add(&r->bench.shared, 4242, "python3");
	rung_version v;
	memset(&v, 0, sizeof(v));
	snprintf(v.short_id, sizeof(v.short_id), "abc1234");
	snprintf(v.subject, sizeof(v.subject), "tile it");
	char line[1024];
	rung_vrow_line(line, sizeof(line), &v, r);
	CHECK_CONTAINS(line, "tile it  shared GPU: pid 4242 python3");
	free_result(r);
}

static void test_best_pick(void)
{
	rung_vrow rows[3];
	memset(rows, 0, sizeof(rows));
	rows[0].result = timed(3.0, false);
	rows[1].result = timed(1.0, true); /* fastest, but beside another process */
	rows[2].result = timed(2.0, false);
	CHECK_INT(rung_vrows_best(rows, 3), 2);
	/* none timed alone: the fastest of the shared ones */
	rung_gpu_procs_add(&rows[0].result->bench.shared, 1, "x");
	rung_gpu_procs_add(&rows[2].result->bench.shared, 1, "x");
	CHECK_INT(rung_vrows_best(rows, 3), 1);
	for (int i = 0; i < 3; i++)
		free_result(rows[i].result);
}

static const char *run_script(rung_model *m, const char *script)
{
	const char *dir = t_tmpdir();
	char path[1024];
	snprintf(path, sizeof(path), "%s/script", dir);
	CHECK_INT(t_write(path, script), 0);
	rung_tui_opts o = {.script = path, .lines = 30, .cols = 110, .dump_dir = dir, .theme = "default"};
	CHECK_INT(rung_tui_run(m, &o), 0);
	return dir;
}

static char *dump_of(const char *dir, const char *name)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return t_slurp(p, NULL);
}

/* The row of the versions table that holds id, up to its newline. */
static char *row_of(const char *screen, const char *id)
{
	const char *p = screen ? strstr(screen, id) : NULL;
	if (!p)
		return strdup("");
	const char *b = p;
	while (b > screen && b[-1] != '\n')
		b--;
	const char *e = strchr(p, '\n');
	return strndup(b, e ? (size_t)(e - b) : strlen(b));
}

static void test_workbench(void)
{
	rung_model *m = NULL;
	CHECK_INT(rung_model_mem_new(&m), 0);
	CHECK_INT(rung_model_mem_demo(m, 12, 1), 0);
	int best = rung_model_best(m);
	CHECK(best > 0);
	if (best <= 0) {
		rung_model_free(m);
		return;
	}
	char id[8];
	snprintf(id, sizeof(id), "%.7s", m->rows[best].hash);
	/* the best version's result, now timed beside pid 4242 */
	rung_model_event ev = {.kind = RUNG_EV_RESULT};
	snprintf(ev.hash, sizeof(ev.hash), "%s", m->rows[best].hash);
	ev.result = rung_model_fake_result(m->rows[best].hash, m->rows[best].result->bench.median, 1e-6, true, 5);
	rung_gpu_procs_add(&ev.result->bench.shared, 4242, "python3");
	ev.result->bench.shared.read = true;
	CHECK_INT(rung_model_post(m, &ev), 0);
	CHECK_INT(rung_model_apply_events(m), 1);
	CHECK(rung_model_best(m) != best); /* the best is among those timed alone */
	CHECK(!m->rows[best].best);
	rung_row_metrics mx;
	rung_row_metrics_get(&mx, m, best, rung_model_baseline(m));
	CHECK(mx.shared);
	CHECK_STR(mx.shared_why, "shared GPU: pid 4242 python3");
	CHECK(mx.has_delta && mx.delta_shared);
	CHECK_INT(mx.cmp, RUNG_CMP_SAME); /* no A/B verdict */
	/* the table marks its median and delta; the detail names the process */
	char script[256];
	snprintf(script, sizeof(script), ":dump versions.txt\n");
	for (int i = 0; i < best; i++)
		strcat(script, "j\n");
	strcat(script, "<Enter>\n:dump detail.txt\n");
	const char *dir = run_script(m, script);
	char *v = dump_of(dir, "versions.txt");
	char *row = row_of(v, id);
	CHECK_CONTAINS(row, " ~");
	CHECK(strstr(row, "\xe2\x98\x85") == NULL); /* no ★ on it */
	free(row);
	free(v);
	char *d = dump_of(dir, "detail.txt");
	CHECK_CONTAINS(d, "shared GPU: pid 4242 python3: another process ran on the GPU during the bench; the timing is not trusted");
	CHECK_CONTAINS(d, "vs baseline (noise band +-");
	CHECK_CONTAINS(d, "no verdict, this version was timed on a shared GPU");
	free(d);
	rung_model_free(m);
}

int main(void)
{
	T_RUN(test_procs);
	T_RUN(test_json_round_trip);
	T_RUN(test_check_line);
	T_RUN(test_best_pick);
	T_RUN(test_workbench);
	return t_done();
}
