/* The worker pool: members from a --workers value, and the batch scheduler
 * with its re-run of a lost worker's job (app/pool.h). */
#include "app/pool.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "core/timing.h"

enum { J_QUEUED, J_RUNNING, J_ENDED };

typedef struct {
	int state, attempts;
	int last_member; /* the member it was lost on (-1) */
	char after[400]; /* "label: reason" of the lost attempt */
} pjob;

struct rung_pool_run {
	rung_pool *p;
	int n, next;
	pjob *jobs;
	rung_pool_job_fn run;
	rung_pool_giveup_fn giveup;
	void *ud;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t th[RUNG_POOL_MAX];
	struct member_arg {
		rung_pool_run *r;
		int k;
	} args[RUNG_POOL_MAX];
	int started, live;
	bool cancel;
};

/* A name for a host, partition or gres: letters, digits and ._-@:= (ssh's
 * user@host, gres's gpu:1), not starting with '-' (never an option). */
static bool plain_name(const char *s)
{
	if (!*s || *s == '-')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-@:=", *s))
			return false;
	return true;
}

/* A path for the remote shell: no character a shell would read. */
static bool plain_path(const char *s)
{
	if (!*s || *s == '-')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-/+~", *s))
			return false;
	return true;
}

/* execv needs a path: name looked up in $PATH. */
static int in_path(char *out, size_t len, const char *name)
{
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path; *p;) {
		const char *e = strchr(p, ':');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n && (size_t)snprintf(out, len, "%.*s/%s", (int)n, p, name) < len && access(out, X_OK) == 0)
			return 0;
		p += n + (e ? 1 : 0);
	}
	return rung_error_set(RUNG_EUSAGE, "--workers: '%s' is not in PATH", name);
}

static rung_pool_member *add(rung_pool *p, const char *label)
{
	if (p->n >= RUNG_POOL_MAX) {
		rung_error_set(RUNG_EUSAGE, "--workers: more than %d workers", RUNG_POOL_MAX);
		return NULL;
	}
	rung_pool_member *m = &p->m[p->n++];
	memset(m, 0, sizeof(*m));
	snprintf(m->label, sizeof(m->label), "%s", label);
	return m;
}

static void arg(rung_pool_member *m, const char *fmt, const char *v)
{
	int k = 0;
	while (m->argv[k])
		k++;
	if (k >= 12) {
		m->bad = true;
		return;
	}
	int w = snprintf(m->args[k], sizeof(m->args[k]), fmt, v);
	if (w < 0 || w >= (int)sizeof(m->args[k])) {
		m->bad = true; /* a path past 255 bytes: refused by rung_pool_parse */
		return;
	}
	m->argv[k] = m->args[k];
	m->argv[k + 1] = NULL;
}

static int parse_local(rung_pool *p, const char *v)
{
	char env[1024];
	int rc = in_path(env, sizeof(env), "env");
	if (rc)
		return rc;
	char *end;
	long count = strchr(v, ',') ? -1 : strtol(v, &end, 10);
	if (count >= 0 && (*end || count < 1 || count > RUNG_POOL_MAX))
		return rung_error_set(RUNG_EUSAGE, "--workers local:%s: give a count (1..%d) or a device list (0,1,3)",
		                      v, RUNG_POOL_MAX);
	const char *s = v;
	for (long i = 0; count >= 0 ? i < count : *s; i++) {
		long dev = i;
		if (count < 0) {
			dev = strtol(s, &end, 10);
			if (end == s || (*end && *end != ',') || dev < 0 || dev > 1023)
				return rung_error_set(RUNG_EUSAGE, "--workers local:%s: '%s' is not a device number", v,
				                      s);
			s = *end ? end + 1 : end;
		}
		char label[64], d[24]; /* a long in decimal, whatever the compiler can prove of its range */
		snprintf(d, sizeof(d), "%ld", dev);
		int same = 0; /* a second worker on one device (local:0,0): local:0#2 */
		for (int k = 0; k < p->n; k++)
			same += !strcmp(p->m[k].args[1] + strlen("CUDA_VISIBLE_DEVICES="), d);
		if (same)
			snprintf(label, sizeof(label), "local:%ld#%d", dev, same + 1);
		else
			snprintf(label, sizeof(label), "local:%ld", dev);
		rung_pool_member *m = add(p, label);
		if (!m)
			return RUNG_EUSAGE;
		arg(m, "%s", env);
		arg(m, "CUDA_VISIBLE_DEVICES=%s", d);
		m->stdio = true; /* no socket path in TMPDIR for env(1) to be bypassed with */
	}
	return 0;
}

static int remote_rung(char *out, size_t len, const char *dflt)
{
	const char *r = getenv("RUNG_REMOTE_RUNG");
	snprintf(out, len, "%s", r && *r ? r : dflt);
	if (!plain_path(out))
		return rung_error_set(RUNG_EUSAGE, "RUNG_REMOTE_RUNG '%s' is not a plain path", out);
	return 0;
}

static int parse_ssh(rung_pool *p, const char *v)
{
	char ssh[1024], exe[1024];
	int rc = in_path(ssh, sizeof(ssh), "ssh");
	if (rc || (rc = remote_rung(exe, sizeof(exe), "rung")))
		return rc;
	const char *cfg = getenv("RUNG_SSH_CONFIG");
	char *dup = strdup(v);
	if (!dup)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	for (char *save, *h = strtok_r(dup, ",", &save); h; h = strtok_r(NULL, ",", &save)) {
		char label[64];
		if (!plain_name(h) || strlen(h) > 50) {
			rc = rung_error_set(RUNG_EUSAGE, "--workers ssh: '%s' is not a host name", h);
			break;
		}
		snprintf(label, sizeof(label), "ssh:%s", h);
		rung_pool_member *m = add(p, label);
		if (!m) {
			rc = RUNG_EUSAGE;
			break;
		}
		arg(m, "%s", ssh);
		arg(m, "%s", "-T");
		arg(m, "%s", "-o");
		arg(m, "%s", "BatchMode=yes");
		if (cfg && *cfg) {
			arg(m, "%s", "-F");
			arg(m, "%s", cfg);
		}
		arg(m, "%s", "--");
		arg(m, "%s", h);
		snprintf(m->exe, sizeof(m->exe), "%s", exe);
		m->stdio = true;
	}
	free(dup);
	if (!rc && p->n == 0)
		rc = rung_error_set(RUNG_EUSAGE, "--workers ssh: name at least one host");
	return rc;
}

static int parse_slurm(rung_pool *p, const char *v)
{
	char srun[1024], self[1024] = "", exe[1024];
	int rc = in_path(srun, sizeof(srun), "srun");
	if (rc)
		return rc;
	ssize_t k = readlink("/proc/self/exe", self, sizeof(self) - 1);
	self[k > 0 ? k : 0] = 0;
	if ((rc = remote_rung(exe, sizeof(exe), self)))
		return rc;
	char *end;
	long count = strtol(v, &end, 10);
	if (end == v || (*end && *end != ',') || count < 1 || count > RUNG_POOL_MAX)
		return rung_error_set(RUNG_EUSAGE, "--workers slurm:%s: give the number of workers (1..%d) first", v,
		                      RUNG_POOL_MAX);
	char partition[128] = "", gres[128] = "";
	char *dup = strdup(*end ? end + 1 : "");
	if (!dup)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	for (char *save, *o = strtok_r(dup, ",", &save); o && !rc; o = strtok_r(NULL, ",", &save)) {
		char *val = strchr(o, '=');
		if (val)
			*val++ = 0;
		char *dst = !strcmp(o, "partition") ? partition : !strcmp(o, "gres") ? gres : NULL;
		if (!dst || !val || !plain_name(val) || strlen(val) >= sizeof(partition))
			rc = rung_error_set(RUNG_EUSAGE, "--workers slurm: '%s%s%s' is not partition=NAME or gres=SPEC",
			                    o, val ? "=" : "", val ? val : "");
		else
			snprintf(dst, sizeof(partition), "%s", val);
	}
	free(dup);
	for (long i = 0; !rc && i < count; i++) {
		char label[64];
		snprintf(label, sizeof(label), "slurm:%ld", i);
		rung_pool_member *m = add(p, label);
		if (!m)
			return RUNG_EUSAGE;
		arg(m, "%s", srun);
		arg(m, "%s", "--ntasks=1");
		arg(m, "%s", "--nodes=1");
		arg(m, "%s", "--quiet");
		arg(m, "%s", "--job-name=rung-worker");
		if (partition[0])
			arg(m, "--partition=%s", partition);
		if (gres[0])
			arg(m, "--gres=%s", gres);
		snprintf(m->exe, sizeof(m->exe), "%s", exe);
		m->stdio = true;
	}
	return rc;
}

int rung_pool_parse(rung_pool *p, const char *spec)
{
	memset(p, 0, sizeof(*p));
	p->mu = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
	p->cv = (pthread_cond_t)PTHREAD_COND_INITIALIZER;
	int rc;
	if (!strncmp(spec, "local:", 6))
		rc = parse_local(p, spec + 6);
	else if (!strncmp(spec, "ssh:", 4))
		rc = parse_ssh(p, spec + 4);
	else if (!strncmp(spec, "slurm:", 6))
		rc = parse_slurm(p, spec + 6);
	else
		rc = rung_error_set(RUNG_EUSAGE,
		                    "--workers '%s': give local:N, local:0,1,3, ssh:HOST[,HOST] or "
		                    "slurm:N[,partition=P][,gres=G]",
		                    spec);
	for (int i = 0; !rc && i < p->n; i++)
		if (p->m[i].bad)
			rc = rung_error_set(RUNG_EUSAGE, "--workers %s: a path or name of over 255 bytes", p->m[i].label);
	if (rc)
		p->n = 0;
	for (int i = 0; i < p->n; i++) {
		p->m[i].gpu_slot = -1;
		p->m[i].worker_pid = -1;
	}
	return rc;
}

/* ---- one GPU, one job at a time ---- */

/* m's device, known from its worker's hello (under p->mu). */
static void register_gpu(rung_pool *p, rung_pool_member *m, const rung_env *env)
{
	snprintf(m->gpu, sizeof(m->gpu), "%s", env->gpu);
	snprintf(m->host, sizeof(m->host), "%s", env->host);
	if (m->gpu_slot < 0 || strcmp(m->uuid, env->uuid)) { /* first hello, or a worker restarted elsewhere */
		if (m->gpu_slot >= 0)
			p->gpus[m->gpu_slot].members--;
		snprintf(m->uuid, sizeof(m->uuid), "%s", env->uuid);
		int k = 0;
		while (k < p->ngpus && strcmp(p->gpus[k].uuid, env->uuid))
			k++;
		if (k == p->ngpus && k < RUNG_POOL_MAX) {
			memset(&p->gpus[k], 0, sizeof(p->gpus[k]));
			snprintf(p->gpus[k].uuid, sizeof(p->gpus[k].uuid), "%s", env->uuid);
			p->gpus[k].mu = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
			p->ngpus++;
		}
		m->gpu_slot = k < RUNG_POOL_MAX ? k : -1; /* more UUIDs than members cannot be */
		if (m->gpu_slot >= 0)
			p->gpus[k].members++;
	}
	m->worker_pid = rung_worker_pid(m->w);
}

static bool all_said_hello(const rung_pool *p)
{
	for (int i = 0; i < p->n; i++)
		if (p->m[i].hello_pending && !p->m[i].retired)
			return false;
	return true;
}

static void hello_settled(rung_pool *p, rung_pool_member *m)
{
	pthread_mutex_lock(&p->mu);
	if (m->hello_pending) {
		m->hello_pending = false;
		pthread_cond_broadcast(&p->cv);
	}
	pthread_mutex_unlock(&p->mu);
}

void rung_pool_member_hello(rung_pool *p, rung_pool_member *m, const rung_env *env)
{
	pthread_mutex_lock(&p->mu);
	if (env && env->valid && env->uuid[0])
		register_gpu(p, m, env);
	m->hello_pending = false;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

bool rung_pool_no_gpu_here(rung_pool *p, rung_pool_member *m, const char *why)
{
	pthread_mutex_lock(&p->mu);
	m->hello_pending = false;
	pthread_cond_broadcast(&p->cv);
	while (!all_said_hello(p))
		pthread_cond_wait(&p->cv, &p->mu);
	bool other = p->ngpus > 0;
	if (other)
		snprintf(m->retired_why, sizeof(m->retired_why), "no GPU: %.180s", why && *why ? why : "none reported");
	pthread_mutex_unlock(&p->mu);
	return other;
}

void rung_pool_gpu_hold(rung_pool *p, rung_pool_member *m, const rung_env *env)
{
	if (!env || !env->valid || !env->uuid[0])
		return;
	pthread_mutex_lock(&p->mu);
	register_gpu(p, m, env);
	m->hello_pending = false;
	while (!all_said_hello(p)) /* who else is on this GPU is known before anything is timed */
		pthread_cond_wait(&p->cv, &p->mu);
	int k = m->gpu_slot;
	if (k < 0) {
		pthread_mutex_unlock(&p->mu);
		return;
	}
	m->waiting_gpu = true;
	pthread_mutex_unlock(&p->mu);
	double t0 = rung_now_s();
	pthread_mutex_lock(&p->gpus[k].mu);
	double waited = rung_now_s() - t0;
	pthread_mutex_lock(&p->mu);
	m->waiting_gpu = false;
	m->holding_gpu = true;
	m->wait_s += waited;
	pthread_mutex_unlock(&p->mu);
}

void rung_pool_gpu_release(rung_pool *p, rung_pool_member *m)
{
	pthread_mutex_lock(&p->mu);
	bool held = m->holding_gpu;
	int k = m->gpu_slot;
	m->holding_gpu = false;
	pthread_mutex_unlock(&p->mu);
	if (held && k >= 0)
		pthread_mutex_unlock(&p->gpus[k].mu);
}

static int sharers_locked(const rung_pool *p, const rung_pool_member *m)
{
	return m->gpu_slot >= 0 ? p->gpus[m->gpu_slot].members - 1 : 0;
}

int rung_pool_gpu_sharers(rung_pool *p, const rung_pool_member *m)
{
	pthread_mutex_lock(&p->mu);
	int n = sharers_locked(p, m);
	pthread_mutex_unlock(&p->mu);
	return n;
}

int rung_pool_mark_shared(rung_pool *p, const rung_pool_member *m, rung_bench *b)
{
	int added = 0;
	pthread_mutex_lock(&p->mu);
	for (int i = 0; m->gpu_slot >= 0 && i < p->n; i++) {
		const rung_pool_member *o = &p->m[i];
		if (o == m || o->gpu_slot != m->gpu_slot)
			continue;
		bool listed = false;
		for (int k = 0; k < b->shared.n && o->worker_pid > 0; k++)
			listed |= b->shared.p[k].pid == o->worker_pid;
		if (listed)
			continue;
		char name[64];
		snprintf(name, sizeof(name), "rung worker (pool %.40s)", o->label);
		rung_gpu_procs_add(&b->shared, o->worker_pid, name);
		b->shared.read = true;
		added++;
	}
	pthread_mutex_unlock(&p->mu);
	return added;
}

void rung_pool_member_doing(rung_pool *p, rung_pool_member *m, const char *what)
{
	pthread_mutex_lock(&p->mu);
	snprintf(m->doing, sizeof(m->doing), "%s", what ? what : "");
	pthread_mutex_unlock(&p->mu);
}

void rung_pool_member_failed(rung_pool *p, rung_pool_member *m)
{
	pthread_mutex_lock(&p->mu);
	m->failed++;
	m->failed_total++;
	pthread_mutex_unlock(&p->mu);
}

int rung_pool_status_get(rung_pool *p, rung_pool_status *out, int max)
{
	pthread_mutex_lock(&p->mu);
	for (int i = 0; i < p->n && i < max; i++) {
		const rung_pool_member *m = &p->m[i];
		rung_pool_status *s = &out[i];
		memset(s, 0, sizeof(*s));
		snprintf(s->label, sizeof(s->label), "%s", m->label);
		snprintf(s->host, sizeof(s->host), "%s", m->host);
		snprintf(s->gpu, sizeof(s->gpu), "%s", m->gpu);
		snprintf(s->uuid, sizeof(s->uuid), "%s", m->uuid);
		snprintf(s->doing, sizeof(s->doing), "%s", m->doing);
		s->waiting_gpu = m->waiting_gpu;
		s->sharers = sharers_locked(p, m);
		s->done = m->done;
		s->failed = m->failed;
		s->lost = m->lost;
		s->done_total = m->done_total;
		s->failed_total = m->failed_total;
		s->busy_s = m->busy_s;
		s->wait_s = m->wait_s;
		s->retired = m->retired;
		snprintf(s->retired_why, sizeof(s->retired_why), "%s", m->retired_why);
	}
	int n = p->n;
	pthread_mutex_unlock(&p->mu);
	return n;
}

int rung_pool_open(rung_pool *p)
{
	for (int i = 0; i < p->n; i++) {
		rung_worker_opts o = {
		    .exe = p->m[i].exe[0] ? p->m[i].exe : NULL, .argv_prefix = p->m[i].argv, .stdio = p->m[i].stdio};
		int rc = rung_worker_open(&p->m[i].w, &o);
		if (rc) {
			rung_pool_close(p);
			return rc;
		}
	}
	return 0;
}

void rung_pool_close(rung_pool *p)
{
	for (int i = 0; i < p->n; i++) {
		rung_worker_close(p->m[i].w);
		p->m[i].w = NULL;
	}
}

/* The next job for member k (under the lock): the first queued one, but not
 * one lost on k while another member still lives. -1: none now. */
static int pick(rung_pool_run *r, int k)
{
	for (int i = 0; i < r->n; i++) {
		pjob *j = &r->jobs[i];
		if (j->state == J_QUEUED && (j->last_member != k || r->live == 1))
			return i;
	}
	return -1;
}

static bool all_ended(const rung_pool_run *r)
{
	for (int i = 0; i < r->n; i++)
		if (r->jobs[i].state != J_ENDED)
			return false;
	return true;
}

static void *member_thread(void *arg)
{
	struct member_arg *a = arg;
	rung_pool_run *r = a->r;
	rung_pool_member *m = &r->p->m[a->k];
	pthread_mutex_lock(&r->mu);
	for (;;) {
		if (r->cancel || all_ended(r))
			break;
		int i = pick(r, a->k);
		if (i < 0) { /* only jobs lost here: another member takes them */
			pthread_mutex_unlock(&r->mu);
			hello_settled(r->p, m); /* nothing of it on a GPU meanwhile */
			pthread_mutex_lock(&r->mu);
			if (pick(r, a->k) >= 0 || r->cancel || all_ended(r))
				continue;
			pthread_cond_wait(&r->cv, &r->mu);
			continue;
		}
		pjob *j = &r->jobs[i];
		j->state = J_RUNNING;
		int attempt = ++j->attempts;
		char after[sizeof(j->after)];
		snprintf(after, sizeof(after), "%s", j->after);
		pthread_mutex_unlock(&r->mu);
		int rc = r->run(r->ud, i, m, attempt, attempt > 1 ? after : NULL);
		hello_settled(r->p, m); /* a compile verdict never asked its worker */
		bool lost = rc == 0 && rung_worker_lost(m->w);
		pthread_mutex_lock(&r->mu);
		if (rc == 2) { /* not for this member (no GPU here): back as it was, and it takes no more */
			j->state = J_QUEUED;
			j->attempts--;
			pthread_mutex_lock(&r->p->mu);
			m->retired = true;
			m->doing[0] = 0;
			r->live--;
			pthread_cond_broadcast(&r->p->cv);
			pthread_mutex_unlock(&r->p->mu);
			pthread_cond_broadcast(&r->cv);
			break;
		}
		pthread_mutex_lock(&r->p->mu); /* the counts rung_pool_status reads */
		if (lost) {
			m->lost++;
			m->run_of_lost++;
		} else {
			m->run_of_lost = 0;
		}
		if (lost && attempt == 1) {
			j->state = J_QUEUED;
			j->last_member = a->k;
			snprintf(j->after, sizeof(j->after), "%s", m->label);
		} else {
			j->state = J_ENDED;
			m->done++;
			m->done_total++;
		}
		if (m->run_of_lost >= 2) {
			m->retired = true;
			r->live--;
			pthread_cond_broadcast(&r->p->cv);
		}
		m->doing[0] = 0;
		pthread_mutex_unlock(&r->p->mu);
		pthread_cond_broadcast(&r->cv);
		if (m->retired)
			break;
	}
	if (m->retired && r->live == 0) { /* nobody left for what is still queued */
		for (int i = 0; i < r->n; i++)
			if (r->jobs[i].state == J_QUEUED) {
				r->jobs[i].state = J_ENDED;
				pthread_mutex_unlock(&r->mu);
				r->giveup(r->ud, i, "every worker of the pool was lost");
				pthread_mutex_lock(&r->mu);
			}
		pthread_cond_broadcast(&r->cv);
	}
	pthread_mutex_unlock(&r->mu);
	hello_settled(r->p, m); /* no job for it */
	return NULL;
}

int rung_pool_start(rung_pool *p, int n, rung_pool_job_fn run, rung_pool_giveup_fn giveup, void *ud)
{
	rung_pool_run *r = calloc(1, sizeof(*r));
	if (!r || !(r->jobs = calloc((size_t)(n > 0 ? n : 1), sizeof(*r->jobs)))) {
		free(r);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	r->p = p;
	r->n = n;
	r->run = run;
	r->giveup = giveup;
	r->ud = ud;
	for (int i = 0; i < n; i++)
		r->jobs[i].last_member = -1;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	p->run = r;
	r->live = p->n;
	pthread_mutex_lock(&r->mu);
	for (int k = 0; k < p->n; k++) {
		rung_pool_member *m = &p->m[k];
		pthread_mutex_lock(&p->mu);
		m->hello_pending = true; /* until its first job's hello, or none */
		m->retired_why[0] = 0;
		m->busy_s = m->wait_s = 0;
		m->done = m->lost = m->run_of_lost = m->failed = 0;
		m->retired = false;
		pthread_mutex_unlock(&p->mu);
		r->args[k].r = r;
		r->args[k].k = k;
		if (pthread_create(&r->th[r->started], NULL, member_thread, &r->args[k]) == 0) {
			r->started++;
		} else {
			r->live--;
			pthread_mutex_lock(&p->mu);
			m->hello_pending = false; /* nobody waits for it */
			pthread_mutex_unlock(&p->mu);
		}
	}
	pthread_mutex_unlock(&r->mu);
	if (r->started == 0) {
		rung_pool_join(p);
		return rung_error_set(RUNG_EIO, "pool: no worker thread could start");
	}
	return 0;
}

void rung_pool_wait(rung_pool *p, int i)
{
	rung_pool_run *r = p->run;
	pthread_mutex_lock(&r->mu);
	while (r->jobs[i].state != J_ENDED && !(r->cancel && r->jobs[i].state == J_QUEUED))
		pthread_cond_wait(&r->cv, &r->mu);
	pthread_mutex_unlock(&r->mu);
}

void rung_pool_cancel(rung_pool *p)
{
	rung_pool_run *r = p->run;
	pthread_mutex_lock(&r->mu);
	r->cancel = true;
	pthread_cond_broadcast(&r->cv);
	pthread_mutex_unlock(&r->mu);
}

void rung_pool_join(rung_pool *p)
{
	rung_pool_run *r = p->run;
	if (!r)
		return;
	rung_pool_cancel(p);
	for (int k = 0; k < r->started; k++)
		pthread_join(r->th[k], NULL);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
	free(r->jobs);
	free(r);
	p->run = NULL;
}
