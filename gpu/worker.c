/* Parent side of the GPU worker: spawns `rung worker` lazily, compiles in the
 * parent (NVRTC needs no GPU), sends the plan, and turns whatever happens to the
 * child (result, crash, sticky error, missed deadline) into steps of a result.
 * The parent never calls the driver. */
#include "gpu/worker.h"

#include <errno.h>
#include <poll.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/timing.h"
#include "core/err.h"
#include "core/fs.h"
#include "core/ptxscan.h"
#include "core/inert.h"
#include "core/rng.h"
#include "core/roofline_guard.h"
#include "gpu/children.h"
#include "gpu/plan.h"
#include "gpu/protocol.h"
#include "gpu/worker_internal.h"

#define HELLO_TIMEOUT_MS 60000
#define DEFAULT_DEADLINE_S 10.0

int rung_worker_open(rung_worker **out, const rung_worker_opts *opts)
{
	rung_worker *w = calloc(1, sizeof(*w));
	if (!w)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	const char *exe = opts && opts->exe ? opts->exe : getenv("RUNG_WORKER_EXE");
	snprintf(w->exe, sizeof(w->exe), "%s", exe && *exe ? exe : "/proc/self/exe");
	w->fd = -1;
	w->pid = -1;
	rung__capture_init(&w->cap);
	w->stdio = opts && opts->stdio;
	w->cancel = opts ? opts->cancel : NULL;
	if (opts && opts->argv_prefix && opts->argv_prefix[0]) {
		if (!strcmp(w->exe, "/proc/self/exe")) {
			/* under the wrapper, /proc/self/exe is the wrapper: name rung itself */
			char real[sizeof(w->exe)];
			ssize_t n = readlink("/proc/self/exe", real, sizeof(real) - 1);
			if (n <= 0 || n >= (ssize_t)sizeof(real) - 1) {
				free(w);
				return rung_error_set(RUNG_EIO, "worker: cannot resolve the rung binary (/proc/self/exe): %s",
						      strerror(errno));
			}
			real[n] = 0;
			memcpy(w->exe, real, (size_t)n + 1);
		}
		int n = 0;
		while (opts->argv_prefix[n])
			n++;
		w->prefix = calloc((size_t)n + 1, sizeof(char *));
		for (int i = 0; w->prefix && i < n; i++)
			if (!(w->prefix[i] = strdup(opts->argv_prefix[i]))) {
				for (int k = 0; k < i; k++)
					free(w->prefix[k]);
				free(w->prefix);
				w->prefix = NULL;
			}
		if (!w->prefix) {
			free(w);
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		}
	}
	*out = w;
	return 0;
}

static void free_prefix(rung_worker *w)
{
	for (int i = 0; w->prefix && w->prefix[i]; i++)
		free(w->prefix[i]);
	free(w->prefix);
	w->prefix = NULL;
}

/* SIGKILL to the child, and to its process group when it has one of its own
 * (a wrapper such as compute-sanitizer and the worker under it). */
static void kill_child(rung_worker *w)
{
	if (w->pid <= 0)
		return;
	if (w->prefix)
		kill(-w->pid, SIGKILL);
	kill(w->pid, SIGKILL);
}

/* Waits up to ms for the child to exit; returns its status or -1 if still running. */
static int wait_exit(pid_t pid, int ms)
{
	for (int t = 0;; t += 10) {
		int st;
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return st;
		if (r < 0 && errno != EINTR)
			return 0;
		if (t >= ms)
			return -1;
		struct timespec ts = {0, 10 * 1000000};
		nanosleep(&ts, NULL);
	}
}

/* Forgets the child: closes the channel and reaps it (SIGKILL if it lingers).
 * Returns the wait status (or -1 when there was no child). */
static int worker_reap(rung_worker *w, bool kill_now, int grace_ms)
{
	int st = -1;
	if (w->pid > 0) {
		if (kill_now)
			kill_child(w);
		st = wait_exit(w->pid, kill_now ? 5000 : grace_ms);
		if (st == -1) {
			kill_child(w);
			st = wait_exit(w->pid, 5000);
		} else if (w->prefix) {
			kill(-w->pid, SIGKILL); /* anything the wrapper left behind */
		}
		if (st != -1)
			rung_children_del(w->pid);
	}
	if (w->fd >= 0)
		close(w->fd);
	rung__capture_close(&w->cap); /* what it printed before it went stays with the job */
	rung_chan_clear(&w->chan);
	w->fd = -1;
	w->pid = -1;
	w->running = false;
	w->hello_pending = false;
	return st;
}

void rung_worker_close(rung_worker *w)
{
	if (!w)
		return;
	if (w->running && w->hello_pending) {
		worker_reap(w, true, 0); /* prestarted but never used: nothing to finish */
	} else if (w->running) {
		json_t *q = json_pack("{s:s}", "type", "quit");
		rung_msg_write(w->fd, q, NULL, 0);
		json_decref(q);
		shutdown(w->fd, SHUT_WR);
		worker_reap(w, false, 2000);
	}
	rung__capture_clear(&w->cap);
	free_prefix(w);
	free(w);
}

int rung_worker_finish(rung_worker *w, int grace_ms)
{
	if (!w || !w->running)
		return -1;
	if (!w->hello_pending) {
		json_t *q = json_pack("{s:s}", "type", "quit");
		rung_msg_write(w->fd, q, NULL, 0);
		json_decref(q);
	}
	shutdown(w->fd, SHUT_WR);
	return worker_reap(w, false, grace_ms);
}

void rung_worker_detach(rung_worker *w)
{
	if (!w)
		return;
	if (w->running && w->hello_pending) {
		kill_child(w); /* prestarted but never used */
	} else if (w->running) {
		json_t *q = json_pack("{s:s}", "type", "quit");
		rung_msg_write(w->fd, q, NULL, 0);
		json_decref(q);
	}
	if (w->running)
		rung_children_detach(w->pid); /* reaped by rung_children_reap, or left to init at exit */
	if (w->fd >= 0)
		close(w->fd); /* the worker also quits on end of input */
	rung__capture_clear(&w->cap);
	rung_chan_clear(&w->chan);
	free_prefix(w);
	free(w);
}

void rung__describe_exit(char *buf, size_t len, int st)
{
	if (st == -1)
		snprintf(buf, len, "worker vanished");
	else if (WIFSIGNALED(st))
		snprintf(buf, len, "worker crashed (%s, signal %d)", strsignal(WTERMSIG(st)), WTERMSIG(st));
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		snprintf(buf, len, "worker could not be started (exec failed)");
	else if (WIFEXITED(st))
		snprintf(buf, len, "worker exited unexpectedly (status %d)", WEXITSTATUS(st));
	else
		snprintf(buf, len, "worker ended (wait status %d)", st);
}

/* The child's descriptors: 0 is the socket, which carries the protocol both
 * ways (`rung worker --socket`); 1 and 2 are the capture pipes (the kernel's
 * output, gpu/capture.h), so nothing the kernel prints reaches our terminal
 * or the protocol stream. */
static int spawn(rung_worker *w)
{
	/* the child's argv, built before the fork (the child only execs):
	 * [argv_prefix...] exe "worker" "--socket" */
	int n = 0;
	while (w->prefix && w->prefix[n])
		n++;
	char **argv = calloc((size_t)n + 4, sizeof(char *));
	if (!argv)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	for (int i = 0; i < n; i++)
		argv[i] = w->prefix[i];
	argv[n] = w->exe;
	argv[n + 1] = "worker";
	argv[n + 2] = w->stdio ? "--stdio" : "--socket";
	/* Under a wrapper (compute-sanitizer launches its target through its own
	 * launcher, which need not hand fd 0 on), the worker also gets a private
	 * socket path to connect back to: `--connect PATH` (cmd_worker.c). */
	char ldir[256] = "", lpath[300] = "";
	int lfd = -1;
	if (w->prefix && !w->stdio) {
		const char *tmp = getenv("TMPDIR");
		snprintf(ldir, sizeof(ldir), "%s/rung-worker-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		struct sockaddr_un sa = {.sun_family = AF_UNIX};
		if (mkdtemp(ldir)) {
			snprintf(lpath, sizeof(lpath), "%s/w.sock", ldir);
			if (strlen(lpath) < sizeof(sa.sun_path) && (lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) >= 0) {
				memcpy(sa.sun_path, lpath, strlen(lpath) + 1);
				if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(lfd, 1) < 0) {
					close(lfd);
					lfd = -1;
				}
			}
		} else {
			ldir[0] = 0;
		}
		if (lfd >= 0) {
			char **more = realloc(argv, (size_t)(n + 6) * sizeof(char *));
			if (more) {
				argv = more;
				argv[n + 3] = "--connect";
				argv[n + 4] = lpath;
				argv[n + 5] = NULL;
			}
		}
	}
	int cout, cerr;
	int rc = rung__capture_open(&w->cap, &cout, &cerr);
	if (rc) {
		free(argv);
		return rc;
	}
	int sv[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		close(cout);
		close(cerr);
		rung__capture_close(&w->cap);
		free(argv);
		return rung_error_set(RUNG_EIO, "worker: socketpair: %s", strerror(errno));
	}
	pid_t pid = fork();
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		close(cout);
		close(cerr);
		rung__capture_close(&w->cap);
		free(argv);
		return rung_error_set(RUNG_EIO, "worker: fork: %s", strerror(errno));
	}
	if (pid == 0) {
		/* Child (dup2 clears CLOEXEC). */
		signal(SIGPIPE, SIG_DFL);
		rung_children_unblock();
		if (dup2(sv[1], 0) < 0 || dup2(w->stdio ? sv[1] : cout, 1) < 0 || dup2(cerr, 2) < 0)
			_exit(127);
		if (w->prefix)
			setpgid(0, 0); /* a wrapper (gpu/sanitize.c) and the worker under it: one group */
		execv(argv[0], argv);
		_exit(127);
	}
	free(argv);
	rung_children_add(pid, w->prefix != NULL);
	close(sv[1]);
	close(cout);
	close(cerr);
	if (w->prefix)
		setpgid(pid, pid); /* also here: a kill may come before the child runs */
	w->fd = sv[0];
	if (lfd >= 0) {
		/* the worker speaks on whichever it has: a connection to the path, or fd 0 */
		int64_t until = rung_now_ms() + HELLO_TIMEOUT_MS;
		bool fd0_open = true; /* until the wrapper is seen to have closed it */
		while (rung_now_ms() < until && !(w->cancel && *w->cancel)) { /* a cancel: the hello read says so */
			struct pollfd pf[2] = {{.fd = lfd, .events = POLLIN}, {.fd = fd0_open ? sv[0] : -1, .events = POLLIN}};
			if (poll(pf, 2, 200) < 0 && errno != EINTR)
				break;
			if (pf[0].revents & POLLIN) {
				int c = accept(lfd, NULL, NULL);
				if (c >= 0) {
					fcntl(c, F_SETFD, FD_CLOEXEC);
					close(sv[0]);
					w->fd = c;
				}
				break;
			}
			if (pf[1].revents) {
				char b;
				if (recv(sv[0], &b, 1, MSG_PEEK | MSG_DONTWAIT) > 0)
					break; /* the worker speaks on fd 0 */
				fd0_open = false; /* closed by the wrapper: wait for the connection */
			}
			if (waitpid(pid, NULL, WNOHANG | WNOWAIT) == pid)
				break; /* gone: the hello read reports it */
		}
		close(lfd);
	}
	if (lpath[0])
		unlink(lpath);
	if (ldir[0])
		rmdir(ldir);
	w->pid = pid;
	w->running = true;
	rung_chan_init(&w->chan, w->fd);
	w->chan.cancel = w->cancel;
	rung__capture_attach(&w->cap, &w->chan);
	return 0;
}

void rung_worker_prestart(rung_worker *w)
{
	if (w->running || w->nodev)
		return;
	if (spawn(w) == 0)
		w->hello_pending = true;
	else
		rung_error_clear(); /* rung__worker_start will try again and report */
}

bool rung_worker_lost(const rung_worker *w)
{
	return w && w->lost;
}

int rung_worker_pid(const rung_worker *w)
{
	return w && w->pid > 0 ? (int)w->pid : -1;
}

bool rung_worker_cancelled(const rung_worker *w)
{
	return w && w->cancelled;
}

static int worker_start(rung_worker *w);

int rung__worker_start(rung_worker *w)
{
	int rc = worker_start(w);
	w->lost = rc && rc != RUNG_ENODEV && rc != RUNG_ENOMEM;
	return rc;
}

static int worker_start(rung_worker *w)
{
	if (w->running && !w->hello_pending)
		return 0;
	if (w->nodev)
		return rung_error_set(RUNG_ENODEV, "%s", w->nodev_reason);
	int rc = 0;
	if (!w->running && (rc = spawn(w)))
		return rc;
	w->hello_pending = false;
	rung_msg m;
	rc = rung_msg_read(&m, &w->chan, rung_now_ms() + HELLO_TIMEOUT_MS);
	if (rc) {
		char why[256];
		if (rc == RUNG_ETIMEOUT && w->cancel && *w->cancel) {
			worker_reap(w, true, 0);
			w->cancelled = true;
			return rung_error_set(RUNG_ETIMEOUT, "cancelled");
		}
		if (rc == RUNG_ETIMEOUT) {
			worker_reap(w, true, 0);
			return rung_error_set(RUNG_ETIMEOUT, "worker did not say hello within %d s", HELLO_TIMEOUT_MS / 1000);
		}
		rung_error_state err;
		rung_error_save(&err);
		int st = worker_reap(w, false, 5000);
		rung__describe_exit(why, sizeof(why), st);
		return rung_error_set(RUNG_EIO, "%s before hello (%s)", why, err.msg);
	}
	if (strcmp(m.type, "hello") != 0) {
		rung_msg_clear(&m);
		worker_reap(w, true, 0);
		return rung_error_set(RUNG_EIO, "worker protocol: expected hello, got '%s'", m.type);
	}
	json_int_t proto = json_integer_value(json_object_get(m.json, "proto"));
	if (proto != RUNG_PROTO_VERSION) { /* a remote rung of another build (app/pool.h) */
		rung_msg_clear(&m);
		worker_reap(w, true, 0);
		return rung_error_set(RUNG_EIO, "worker protocol %lld, this rung speaks %d: the worker's rung is another build",
				      (long long)proto, RUNG_PROTO_VERSION);
	}
	if (!json_is_true(json_object_get(m.json, "ok"))) {
		const char *reason = json_string_value(json_object_get(m.json, "reason"));
		snprintf(w->nodev_reason, sizeof(w->nodev_reason), "%s", reason ? reason : "no CUDA device");
		w->nodev = true;
		rung_msg_clear(&m);
		worker_reap(w, false, 5000);
		return rung_error_set(RUNG_ENODEV, "%s", w->nodev_reason);
	}
	rung_env_from_json(&w->env, json_object_get(m.json, "env"));
	w->have_env = true;
	rung_msg_clear(&m);
	return 0;
}

int rung_worker_env(rung_env *out, rung_worker *w)
{
	memset(out, 0, sizeof(*out));
	int rc = rung__worker_start(w);
	if (rc)
		return rc;
	*out = w->env;
	return 0;
}

/* --- evaluation ------------------------------------------------------------ */

static void set_step(rung_result *r, rung_step_id s, rung_status st, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void set_step(rung_result *r, rung_step_id s, rung_status st, const char *fmt, ...)
{
	r->steps[s].status = st;
	r->steps[s].cause = RUNG_CAUSE_NONE;
	if (fmt) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(r->steps[s].reason, sizeof(r->steps[s].reason), fmt, ap);
		va_end(ap);
	} else {
		r->steps[s].reason[0] = 0;
	}
}

static void progress(rung_progress_fn cb, void *ud, rung_step_id s, double frac, const char *msg)
{
	if (cb)
		cb(ud, s, frac, msg);
}

double rung__deadline_s(const rung_job *job)
{
	if (job && job->deadline_s > 0)
		return job->deadline_s;
	const char *e = getenv("RUNG_DEADLINE");
	if (e && *e) {
		char *end;
		double v = strtod(e, &end);
		if (end != e && v > 0)
			return v;
	}
	return DEFAULT_DEADLINE_S;
}

static char *read_file(const char *path, size_t *len)
{
	char *text = NULL;
	rung_fs_read_file(&text, len, path, RUNG_FS_MAX_TEXT);
	return text;
}

/* Moves what the worker measured into out (which holds the compile rung). */
static void merge(rung_result *out, rung_result *wr)
{
	for (int s = RUNG_STEP_RUN; s < RUNG_NSTEPS; s++)
		if (wr->steps[s].status != RUNG_S_NONE)
			out->steps[s] = wr->steps[s];
	out->run_dims = wr->run_dims;
	out->run_ms = wr->run_ms;
	out->run_finite = wr->run_finite;
	out->nondet_elements = wr->nondet_elements;
	out->nondet_max_abs = wr->nondet_max_abs;
	free(out->metrics);
	out->metrics = wr->metrics;
	out->nmetrics = wr->nmetrics;
	wr->metrics = NULL;
	wr->nmetrics = 0;
	out->nshapes = wr->nshapes;
	out->nseeds = wr->nseeds;
	out->ninputs = wr->ninputs;
	memcpy(out->inputs, wr->inputs, sizeof(out->inputs));
	free(out->bench.samples);
	out->bench = wr->bench;
	wr->bench.samples = NULL;
	if (wr->env.valid)
		out->env = wr->env;
	out->impossible = wr->impossible;
	out->floor_ms = wr->floor_ms;
	out->gpu_busy_ms = wr->gpu_busy_ms;
	out->gpu_kernels = wr->gpu_kernels;
	for (int k = 0; k < wr->nsuspects; k++) /* the worker's evidence after the compile's */
		rung_result_add_suspect(out, wr->suspects[k].kind, "%s", wr->suspects[k].reason);
	free(out->counters);
	out->counters = wr->counters;
	out->ncounters = wr->ncounters;
	wr->counters = NULL;
	wr->ncounters = 0;
	free(out->aux); /* profile side data (--sass, trace) */
	out->aux = wr->aux;
	wr->aux = NULL;
}

/* The speed-of-light guard: floor_ms and impossible from the plan's [roofline]
 * counts at the benchmark shape and the device ceilings. */
static void judge_roofline(rung_result *out, const rung_plan *plan, const rung_job *job)
{
	rung_ceilings c;
	rung_ceilings_guard(&c, &out->env, job->ceilings);
	rung_dtype dts[RUNG_MAX_ARGS];
	int n = 0;
	for (int i = 0; i < plan->nargs; i++)
		if (plan->args[i].kind != RUNG_ARG_SCALAR)
			dts[n++] = plan->args[i].dtype;
	double peak = rung_ceilings_peak_for_dtypes(&c, dts, n);
	rung_result_judge_roofline(out, plan->flops, plan->bytes, peak, c.dram.value, RUNG_ROOFLINE_TOL);
}

static rung_step_id step_from_name(const char *name)
{
	for (int s = 0; s < RUNG_NSTEPS; s++)
		if (name && strcmp(rung_step_name((rung_step_id)s), name) == 0)
			return (rung_step_id)s;
	return RUNG_STEP_RUN;
}

static int exchange(rung_worker *w, json_t *hdr, const rung_blob *blobs, int nblobs, double deadline_s,
		    rung_progress_fn cb, void *ud, rung_exchange *ex)
{
	memset(ex, 0, sizeof(*ex));
	ex->step = RUNG_STEP_RUN;
	int rc = rung_msg_write(w->fd, hdr, blobs, nblobs);
	if (rc) {
		/* The worker stopped reading: it may have said why before it went. */
		int64_t until = rung_now_ms() + 1000;
		rung_msg m;
		while (rung_msg_read(&m, &w->chan, until) == 0) {
			if (!strcmp(m.type, "result") || !strcmp(m.type, "error")) {
				ex->msg = m;
				ex->have_msg = true;
				worker_reap(w, false, 2000);
				return 0;
			}
			rung_msg_clear(&m);
		}
		int st = worker_reap(w, true, 0);
		rung__describe_exit(ex->reason, sizeof(ex->reason), st);
		ex->failed = true;
		return 0;
	}
	int64_t window = (int64_t)(deadline_s * 1000.0);
	for (;;) {
		rung_msg m;
		int64_t since = rung_now_ms();
		rung__capture_arm(&w->cap, since, window);
		rc = rung_msg_read(&m, &w->chan, since + window);
		if (rc == RUNG_ETIMEOUT && w->cancel && *w->cancel) { /* asked to stop: killed now */
			worker_reap(w, true, 0);
			w->cancelled = true;
			snprintf(ex->reason, sizeof(ex->reason), "cancelled");
			ex->failed = true;
			return 0;
		}
		if (rc == RUNG_ETIMEOUT) {
			int64_t printed = w->cap.printed_since;
			double waited = (double)(rung_now_ms() - since) / 1000.0;
			worker_reap(w, true, 0);
			w->deadline_hit = true;
			if (printed > 0) { /* output kept it alive for a while, never for ever */
				char b[32];
				rung_fmt_bytes(b, sizeof(b), printed);
				snprintf(ex->reason, sizeof(ex->reason),
					 "killed at deadline after %.1f s (it printed %s but sent no progress; kernel never finished?): "
					 "a launch in which every thread prints takes minutes in the driver's printf, so its timing "
					 "would measure printf; print from one thread, or remove the printf (the first %d KiB of its "
					 "output are kept)",
					 waited, b, RUNG_OUTPUT_KEEP / 1024);
			} else {
				snprintf(ex->reason, sizeof(ex->reason), "killed at deadline after %.1f s (kernel never finished?)",
					 deadline_s);
			}
			ex->failed = true;
			return 0;
		}
		if (rc) {
			rung_error_state err;
			rung_error_save(&err);
			int st = worker_reap(w, false, 5000);
			rung__describe_exit(ex->reason, sizeof(ex->reason), st);
			if (!strstr(err.msg, "end of stream")) {
				size_t n = strlen(ex->reason);
				snprintf(ex->reason + n, sizeof(ex->reason) - n, ": %s", err.msg);
			}
			ex->failed = true;
			return 0;
		}
		if (!strcmp(m.type, "progress")) {
			ex->step = step_from_name(json_string_value(json_object_get(m.json, "step")));
			const char *pm = json_string_value(json_object_get(m.json, "msg"));
			double frac = json_number_value(json_object_get(m.json, "frac"));
			progress(cb, ud, ex->step, frac, pm ? pm : "");
			rung_msg_clear(&m);
			continue;
		}
		if (!strcmp(m.type, "result") || !strcmp(m.type, "error") || !strcmp(m.type, "compare_result")) {
			ex->msg = m;
			ex->have_msg = true;
			if (json_is_true(json_object_get(m.json, "fatal")))
				worker_reap(w, false, 10000);
			return 0;
		}
		/* Unknown message: ignore (forward compatible). */
		rung_msg_clear(&m);
	}
}

int rung__worker_exchange(rung_worker *w, json_t *hdr, const rung_blob *blobs, int nblobs, double deadline_s,
			  rung_progress_fn cb, void *ud, rung_exchange *ex)
{
	rung__capture_begin(&w->cap);
	w->cancelled = false;
	int rc = exchange(w, hdr, blobs, nblobs, deadline_s, cb, ud, ex);
	w->lost = rc == 0 && ex->failed;
	/* The worker writes its output before the message that follows it, so
	 * what the job printed is in the pipes now. */
	rung__capture_drain(&w->cap);
	rung__capture_end(&w->cap, &ex->output, &ex->output_bytes, &ex->output_dropped);
	if (rc < 0) {
		free(ex->output);
		ex->output = NULL;
	}
	return rc;
}

void rung__exchange_clear(rung_exchange *ex)
{
	if (ex->have_msg)
		rung_msg_clear(&ex->msg);
	ex->have_msg = false;
	free(ex->output);
	ex->output = NULL;
}

static void skip_gpu_steps(rung_result *out, const char *why)
{
	for (int s = RUNG_STEP_RUN; s <= RUNG_STEP_BENCH; s++)
		set_step(out, (rung_step_id)s, RUNG_S_SKIPPED, "%s", why);
}

static int eval_gpu(rung_result *out, rung_worker *w, const rung_job *job, const rung_compiled *kc,
		    const rung_compiled *rc, const char *ref_src, rung_progress_fn cb, void *ud)
{
	const rung_spec *spec = job->spec;
	if (!w) {
		skip_gpu_steps(out, "no worker");
		return 0;
	}
	double tw = rung_now_s();
	int start_rc = rung__worker_start(w);
	tw = rung_timing_lap("worker start (spawn, context, hello)", tw);
	if (start_rc) {
		if (start_rc == RUNG_ENODEV)
			skip_gpu_steps(out, w->nodev_reason);
		else
			set_step(out, RUNG_STEP_RUN, RUNG_S_FAILED, "%s", rung_error_last());
		return 0;
	}
	out->env = w->env;

	rung_launch kl, rl;
	memset(&kl, 0, sizeof(kl));
	memset(&rl, 0, sizeof(rl));
	rung_plan *plan = NULL;
	int ret = 0;
	/* Launch geometry: [launch] or the source's `// rung:` line, for both kernels. */
	if (job->kernel_launch ? rung_launch_copy(&kl, job->kernel_launch) < 0
	                       : rung_launch_from_source(&kl, spec, job->kernel_src,
	                                                 job->kernel_file ? job->kernel_file : spec->kernel) < 0) {
		set_step(out, RUNG_STEP_RUN, RUNG_S_FAILED, "%s", rung_error_last());
		goto done;
	}
	if (spec->reference &&
	    rung_launch_from_source(&rl, spec, ref_src, job->ref_file ? job->ref_file : spec->reference) < 0) {
		set_step(out, RUNG_STEP_RUN, RUNG_S_FAILED, "reference failed: %s", rung_error_last());
		out->steps[RUNG_STEP_RUN].cause = RUNG_CAUSE_REFERENCE;
		goto done;
	}
	plan = malloc(sizeof(*plan));
	if (!plan) {
		ret = rung_error_set(RUNG_ENOMEM, "out of memory");
		goto done;
	}
	if (rung_plan_build(plan, spec, &kl, spec->reference ? &rl : NULL, out->base_seed)) {
		set_step(out, RUNG_STEP_RUN, RUNG_S_FAILED, "%s", rung_error_last());
		goto done;
	}
	snprintf(plan->kernel.lowered, sizeof(plan->kernel.lowered), "%s", kc->lowered);
	if (job->kernel_file)
		snprintf(plan->kernel.file, sizeof(plan->kernel.file), "%s", job->kernel_file);
	if (plan->has_ref) {
		if (!rc || !rc->cubin) {
			set_step(out, RUNG_STEP_RUN, RUNG_S_FAILED, "reference failed: not compiled");
			out->steps[RUNG_STEP_RUN].cause = RUNG_CAUSE_REFERENCE;
			goto done;
		}
		snprintf(plan->ref.lowered, sizeof(plan->ref.lowered), "%s", rc->lowered);
		if (job->ref_file)
			snprintf(plan->ref.file, sizeof(plan->ref.file), "%s", job->ref_file);
	}
	plan->budget_s = job->budget_s > 0 ? job->budget_s : 2.0;
	plan->flags = job->flags;
	if ((job->flags & RUNG_JOB_SANITIZE) && (job->flags & RUNG_JOB_SANITIZE_BENCH))
		rung_plan_sanitize_bench(plan);
	else if (job->flags & RUNG_JOB_SANITIZE)
		rung_plan_sanitize(plan);

	json_t *hdr = rung_plan_to_json(plan);
	rung_blob blobs[2] = {{kc->cubin, kc->cubin_len}, {rc ? rc->cubin : NULL, rc ? rc->cubin_len : 0}};
	double deadline_s = rung__deadline_s(job);
	rung_exchange ex;
	out->steps[RUNG_STEP_RUN].status = RUNG_S_RUNNING;
	ret = rung__worker_exchange(w, hdr, blobs, plan->has_ref ? 2 : 1, deadline_s, cb, ud, &ex);
	rung_timing_lap("worker job (send, run/check/bench, result)", tw);
	json_decref(hdr);
	if (ret)
		goto done;
	/* what the kernel printed, whatever the verdict (a crash's last words too) */
	free(out->output);
	out->output = ex.output;
	out->output_bytes = ex.output_bytes;
	out->output_dropped = ex.output_dropped;
	ex.output = NULL;
	if (ex.failed) {
		/* Steps before the one in progress passed (the worker stops at a failure). */
		for (int s = RUNG_STEP_RUN; s < (int)ex.step; s++)
			set_step(out, (rung_step_id)s, RUNG_S_OK, NULL);
		set_step(out, ex.step, RUNG_S_FAILED, "%s", ex.reason);
		for (int s = ex.step + 1; s < RUNG_NSTEPS; s++)
			set_step(out, (rung_step_id)s, RUNG_S_NONE, NULL);
	} else if (!strcmp(ex.msg.type, "error")) {
		const char *why = json_string_value(json_object_get(ex.msg.json, "reason"));
		rung_step_id s = step_from_name(json_string_value(json_object_get(ex.msg.json, "step")));
		set_step(out, s, RUNG_S_FAILED, "%s", why ? why : "worker error");
	} else if (ex.msg.nblobs < 1) {
		set_step(out, RUNG_STEP_RUN, RUNG_S_FAILED, "worker protocol: result without a record");
	} else {
		rung_result wr;
		if (rung_result_from_json(&wr, ex.msg.blobs[0].data)) {
			set_step(out, RUNG_STEP_RUN, RUNG_S_FAILED, "worker protocol: bad result record: %s", rung_error_last());
		} else {
			merge(out, &wr);
			rung_result_clear(&wr);
			judge_roofline(out, plan, job);
		}
	}
	rung__exchange_clear(&ex);
done:
	free(plan);
	rung_launch_clear(&kl);
	rung_launch_clear(&rl);
	return ret;
}

int rung_evaluate_gpu(rung_result *out, rung_worker *w, const rung_job *job, const rung_compiled *kernel,
		      const rung_compiled *ref, rung_progress_fn cb, void *ud)
{
	if (!out || !job || !job->spec || !job->kernel_src || !kernel || !kernel->cubin)
		return rung_error_set(RUNG_EINVAL, "rung_evaluate_gpu: result, job, spec, kernel source and CUBIN are required");
	if (out->base_seed == 0)
		out->base_seed = job->seed_set ? job->seed : rung_seed_fresh();
	if (job->seed_set)
		out->base_seed = job->seed;
	out->run_dims = job->spec->dims;
	char *ref_owned = NULL;
	const char *ref_src = job->ref_src;
	if (job->spec->reference && !ref_src) {
		char path[2048];
		const rung_spec *spec = job->spec;
		if (spec->reference[0] == '/' || !spec->dir)
			snprintf(path, sizeof(path), "%s", spec->reference);
		else
			snprintf(path, sizeof(path), "%s/%s", spec->dir, spec->reference);
		ref_src = ref_owned = read_file(path, NULL);
	}
	int rc = eval_gpu(out, w, job, kernel, ref, ref_src, cb, ud);
	free(ref_owned);
	rung_timing_flush("parent");
	return rc;
}
