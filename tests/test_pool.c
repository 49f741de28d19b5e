/* app/pool.c: the argv each --workers kind builds, the values it refuses, and
 * the scheduler's re-run of a lost worker's job, with fake workers (shell
 * scripts: one that exits before its hello, one that says hello without a
 * device), no GPU needed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "app/pool.h"
#include "core/err.h"
#include "core/timing.h"

static int argc_of(const rung_pool_member *m)
{
	int n = 0;
	while (m->argv[n])
		n++;
	return n;
}

static void local_kinds(void)
{
	rung_pool p;
	CHECK_INT(rung_pool_parse(&p, "local:3"), 0);
	CHECK_INT(p.n, 3);
	CHECK_STR(p.m[2].label, "local:2");
	CHECK_INT(argc_of(&p.m[2]), 2);
	CHECK(strstr(p.m[2].argv[0], "/env") != NULL);
	CHECK_STR(p.m[2].argv[1], "CUDA_VISIBLE_DEVICES=2");
	CHECK(p.m[2].stdio);
	CHECK_INT(rung_pool_parse(&p, "local:0,1,3"), 0);
	CHECK_INT(p.n, 3);
	CHECK_STR(p.m[2].label, "local:3");
	CHECK_STR(p.m[2].argv[1], "CUDA_VISIBLE_DEVICES=3");
	CHECK_INT(rung_pool_parse(&p, "local:2,"), 0);
	CHECK_INT(p.n, 1);
	CHECK_STR(p.m[0].argv[1], "CUDA_VISIBLE_DEVICES=2");
	/* two workers on one device are told apart */
	CHECK_INT(rung_pool_parse(&p, "local:0,0,1,0"), 0);
	CHECK_INT(p.n, 4);
	CHECK_STR(p.m[0].label, "local:0");
	CHECK_STR(p.m[1].label, "local:0#2");
	CHECK_STR(p.m[2].label, "local:1");
	CHECK_STR(p.m[3].label, "local:0#3");
	CHECK_STR(p.m[3].argv[1], "CUDA_VISIBLE_DEVICES=0");
	/* the status a front end reads: before any batch, no device known, nothing done */
	rung_pool_status st[8];
	CHECK_INT(rung_pool_status_get(&p, st, 8), 4);
	CHECK_STR(st[1].label, "local:0#2");
	CHECK_STR(st[1].gpu, "");
	CHECK_STR(st[1].doing, "");
	CHECK_INT(st[1].done_total, 0);
	CHECK_INT(st[1].sharers, 0);
	CHECK(!st[1].retired);
	CHECK_INT(rung_pool_status_get(&p, st, 2), 4); /* fills 2, says 4 */
}

static void ssh_and_slurm(void)
{
	rung_pool p;
	unsetenv("RUNG_REMOTE_RUNG");
	setenv("RUNG_SSH_CONFIG", "/tmp/cfg", 1);
	if (rung_pool_parse(&p, "ssh:gpu1,ada@gpu2") != 0) { /* no ssh client installed */
		CHECK_CONTAINS(rung_error_last(), "not in PATH");
	} else {
		CHECK_INT(p.n, 2);
		CHECK_STR(p.m[1].label, "ssh:ada@gpu2");
		int n = argc_of(&p.m[1]);
		CHECK_INT(n, 8);
		CHECK_STR(p.m[1].argv[1], "-T");
		CHECK_STR(p.m[1].argv[3], "BatchMode=yes");
		CHECK_STR(p.m[1].argv[4], "-F");
		CHECK_STR(p.m[1].argv[5], "/tmp/cfg");
		CHECK_STR(p.m[1].argv[n - 2], "--"); /* the host is never read as an option */
		CHECK_STR(p.m[1].argv[n - 1], "ada@gpu2");
		CHECK_STR(p.m[1].exe, "rung");
		CHECK(p.m[1].stdio);
	}
	unsetenv("RUNG_SSH_CONFIG");
	if (rung_pool_parse(&p, "slurm:2,partition=gpu,gres=gpu:1") == 0) {
		CHECK_INT(p.n, 2);
		CHECK_STR(p.m[1].label, "slurm:1");
		int n = argc_of(&p.m[1]);
		CHECK_STR(p.m[1].argv[1], "--ntasks=1");
		CHECK_STR(p.m[1].argv[n - 2], "--partition=gpu");
		CHECK_STR(p.m[1].argv[n - 1], "--gres=gpu:1");
		CHECK(p.m[1].exe[0] == '/'); /* this binary's own path: a shared file system */
		CHECK(p.m[1].stdio);
	}
	const char *bad[] = {"local:0", "local:x", "local:1,y", "local:-1,", "gpu:2", "ssh:", "ssh:-oProxyCommand=x",
			     "ssh:a b", "ssh:a;b", "slurm:0", "slurm:x", "slurm:2,colour=red", "slurm:1,partition=-x",
			     "slurm:1,partition", NULL};
	for (int i = 0; bad[i]; i++) {
		int rc = rung_pool_parse(&p, bad[i]);
		if (rc == 0 || p.n != 0)
			fprintf(stderr, "accepted: %s\n", bad[i]);
		CHECK(rc == RUNG_EUSAGE);
		CHECK_INT(p.n, 0);
	}
	setenv("RUNG_REMOTE_RUNG", "rung; rm -rf ~", 1);
	CHECK(rung_pool_parse(&p, "ssh:gpu1") == RUNG_EUSAGE || strstr(rung_error_last(), "not in PATH"));
	unsetenv("RUNG_REMOTE_RUNG");
}

/* ---- the scheduler ---- */

typedef struct {
	int ended_on[8];  /* the member the job's last attempt ran on */
	int attempts[8];
	int runs;
	char after[8][64];
} sched;

static int run_job(void *ud, int i, rung_pool_member *m, int attempt, const char *after)
{
	sched *s = ud;
	rung_env env;
	rung_worker_env(&env, m->w); /* starts the worker: the dead one is lost, the other says no device */
	rung_error_clear();
	__atomic_add_fetch(&s->runs, 1, __ATOMIC_SEQ_CST);
	s->ended_on[i] = m->label[0] == 'd' ? 0 : 1;
	s->attempts[i] = attempt;
	snprintf(s->after[i], sizeof(s->after[i]), "%s", after ? after : "");
	return 0;
}

static void giveup(void *ud, int i, const char *why)
{
	sched *s = ud;
	(void)why;
	s->ended_on[i] = -1;
}

static char *script(const char *dir, const char *name, const char *body)
{
	static char paths[2][512];
	char *p = paths[name[0] == 'd' ? 0 : 1];
	snprintf(p, sizeof(paths[0]), "%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	if (f) {
		fprintf(f, "#!/bin/sh\n%s\n", body);
		fclose(f);
	}
	chmod(p, 0755);
	return p;
}

static void lost_jobs_run_again_once(void)
{
	const char *dir = t_tmpdir();
	rung_pool p;
	memset(&p, 0, sizeof(p));
	p.n = 2;
	snprintf(p.m[0].label, sizeof(p.m[0].label), "dead");
	snprintf(p.m[1].label, sizeof(p.m[1].label), "nodev");
	rung_worker_opts o0 = {.exe = script(dir, "dead", "exit 3")};
	rung_worker_opts o1 = {.exe = script(dir, "nodev",
					     "printf '{\"type\":\"hello\",\"proto\":1,\"ok\":false,\"reason\":\"no device\"}\\n' >&0")};
	CHECK_INT(rung_worker_open(&p.m[0].w, &o0), 0);
	CHECK_INT(rung_worker_open(&p.m[1].w, &o1), 0);
	sched s;
	memset(&s, 0, sizeof(s));
	CHECK_INT(rung_pool_start(&p, 6, run_job, giveup, &s), 0);
	for (int i = 0; i < 6; i++)
		rung_pool_wait(&p, i);
	rung_pool_join(&p);
	for (int i = 0; i < 6; i++) {
		CHECK_INT(s.ended_on[i], 1); /* every job ended on the worker that answers */
		if (s.attempts[i] == 2)
			CHECK_STR(s.after[i], "dead");
		else
			CHECK_INT(s.attempts[i], 1);
	}
	/* the dead worker takes one job or two before it is retired (two lost in
	 * a row) or the other has taken the rest: each of them ran again there */
	CHECK(p.m[0].lost >= 1 && p.m[0].lost <= 2);
	CHECK(p.m[0].retired == (p.m[0].lost == 2));
	CHECK_INT(p.m[0].done, 0);
	CHECK_INT(p.m[1].done, 6); /* each job ended once */
	CHECK_INT(s.runs, 6 + p.m[0].lost);
	int again = 0;
	for (int i = 0; i < 6; i++)
		again += s.attempts[i] == 2;
	CHECK_INT(again, p.m[0].lost);
	rung_pool_close(&p);
}

static void nobody_left(void)
{
	const char *dir = t_tmpdir();
	rung_pool p;
	memset(&p, 0, sizeof(p));
	p.n = 1;
	snprintf(p.m[0].label, sizeof(p.m[0].label), "dead");
	rung_worker_opts o0 = {.exe = script(dir, "dead", "exit 3")};
	CHECK_INT(rung_worker_open(&p.m[0].w, &o0), 0);
	sched s;
	memset(&s, 0, sizeof(s));
	CHECK_INT(rung_pool_start(&p, 3, run_job, giveup, &s), 0);
	for (int i = 0; i < 3; i++)
		rung_pool_wait(&p, i);
	rung_pool_join(&p);
	/* job 0: lost, run again on the same (only) worker, lost again: ended (its run said so);
	 * then the worker is retired and jobs 1 and 2 are given up */
	CHECK_INT(s.attempts[0], 2);
	CHECK_INT(s.ended_on[0], 0);
	CHECK_INT(s.ended_on[1], -1);
	CHECK_INT(s.ended_on[2], -1);
	CHECK(p.m[0].retired);
	rung_pool_close(&p);
}

typedef struct {
	rung_pool *p;
	rung_env *env;
	volatile int got;
} turn_arg;

static void *second_holder(void *arg)
{
	turn_arg *a = arg;
	rung_pool_gpu_hold(a->p, &a->p->m[1], a->env);
	a->got = 1;
	rung_pool_gpu_release(a->p, &a->p->m[1]);
	return NULL;
}

/* Two members on one UUID take turns (the second waits while the first holds,
 * its wait counted), each names the other in a timing's shared list; members
 * on two UUIDs do not wait for each other. */
static void gpu_turns(void)
{
	rung_pool p;
	CHECK_INT(rung_pool_parse(&p, "local:0,0"), 0);
	rung_env env;
	memset(&env, 0, sizeof(env));
	env.valid = true;
	snprintf(env.uuid, sizeof(env.uuid), "GPU-one");
	snprintf(env.gpu, sizeof(env.gpu), "Fake GPU");
	rung_pool_member_hello(&p, &p.m[0], &env);
	rung_pool_member_hello(&p, &p.m[1], &env);
	CHECK_INT(rung_pool_gpu_sharers(&p, &p.m[0]), 1);
	rung_pool_gpu_hold(&p, &p.m[0], &env);
	turn_arg a = {&p, &env, 0};
	pthread_t th;
	CHECK_INT(pthread_create(&th, NULL, second_holder, &a), 0);
	struct timespec ts = {0, 200 * 1000 * 1000};
	nanosleep(&ts, NULL);
	CHECK_INT(a.got, 0); /* still waiting: the GPU is held */
	rung_pool_status st[2];
	rung_pool_status_get(&p, st, 2);
	CHECK(st[1].waiting_gpu);
	CHECK_STR(st[0].gpu, "Fake GPU");
	rung_pool_gpu_release(&p, &p.m[0]);
	pthread_join(th, NULL);
	CHECK_INT(a.got, 1);
	CHECK(p.m[1].wait_s >= 0.15);
	CHECK(p.m[0].wait_s < 0.1);
	rung_bench b;
	memset(&b, 0, sizeof(b));
	CHECK_INT(rung_pool_mark_shared(&p, &p.m[0], &b), 1);
	CHECK_INT(b.shared.n, 1);
	CHECK_STR(b.shared.p[0].name, "rung worker (pool local:0#2)");
	CHECK(rung_bench_shared(&b));
	/* two devices: no turns, nothing shared */
	CHECK_INT(rung_pool_parse(&p, "local:0,1"), 0);
	rung_env env2 = env;
	snprintf(env2.uuid, sizeof(env2.uuid), "GPU-two");
	rung_pool_member_hello(&p, &p.m[0], &env);
	rung_pool_member_hello(&p, &p.m[1], &env2);
	CHECK_INT(rung_pool_gpu_sharers(&p, &p.m[0]), 0);
	rung_pool_gpu_hold(&p, &p.m[0], &env);
	double t0 = rung_now_s();
	rung_pool_gpu_hold(&p, &p.m[1], &env2); /* would block for ever on a shared lock */
	CHECK(rung_now_s() - t0 < 0.5);
	rung_pool_gpu_release(&p, &p.m[1]);
	rung_pool_gpu_release(&p, &p.m[0]);
	memset(&b, 0, sizeof(b));
	CHECK_INT(rung_pool_mark_shared(&p, &p.m[0], &b), 0);
}

int main(void)
{
	T_RUN(local_kinds);
	T_RUN(ssh_and_slurm);
	T_RUN(lost_jobs_run_again_once);
	T_RUN(nobody_left);
	T_RUN(gpu_turns);
	return t_done();
}
