#define _XOPEN_SOURCE 700 /* nftw */
#include "harness.h"

#include "core/err.h"

#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int t_failures, t_cases, t_case_failed;
const char *t_current = "";

/* RUNG_TEST_SHARD=I/N (set by ctest for a program split in N, CMakeLists.txt):
 * only the cases whose number, counting T_RUN calls from 0, is I modulo N run. */
static bool in_shard(void)
{
	static int i = -1, n = 1, k = 0;
	if (i < 0) {
		const char *e = getenv("RUNG_TEST_SHARD");
		if (!e || sscanf(e, "%d/%d", &i, &n) != 2 || n < 1 || i < 0 || i >= n)
			i = 0, n = 1;
	}
	return k++ % n == i;
}

void t_run(const char *name, void (*fn)(void))
{
	if (!in_shard())
		return;
	t_current = name;
	t_case_failed = 0;
	fn();
	t_cases++;
	if (t_case_failed) {
		t_failures++;
		fprintf(stderr, "FAIL %s\n", name);
	} else {
		printf("ok   %s\n", name);
	}
}

/* Every directory t_tmpdir made, removed by t_done when every case passed
 * (kept for a look when one failed). */
static char *made[512];
static int nmade;

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	remove(path); /* best effort: carry on */
	return 0;
}

int t_done(void)
{
	printf("%d passed, %d failed\n", t_cases - t_failures, t_failures);
	if (t_failures && nmade)
		fprintf(stderr, "temporary files kept for a look: %s%s\n", made[0], nmade > 1 ? " and others like it" : "");
	for (int i = 0; i < nmade; i++) {
		if (!t_failures)
			nftw(made[i], rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		free(made[i]);
	}
	nmade = 0;
	return t_failures ? 1 : 0;
}

int t_sh(char **out, const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	char full[8300];
	snprintf(full, sizeof(full), "(%s) 2>&1", cmd);
	FILE *p = popen(full, "r");
	if (!p)
		return -1;
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	size_t n;
	while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0) {
		len += n;
		if (cap - len < 2) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	buf[len] = 0;
	int st = pclose(p);
	if (out)
		*out = buf;
	else
		free(buf);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

const char *t_tmpdir(void)
{
	static char bufs[16][256];
	static int next;
	char *b = bufs[next++ % 16];
	const char *base = getenv("TMPDIR");
	snprintf(b, 256, "%s/rung-test-XXXXXX", base ? base : "/tmp");
	if (!mkdtemp(b))
		return NULL;
	if (nmade < (int)(sizeof(made) / sizeof(made[0])))
		made[nmade++] = strdup(b);
	return b;
}

int t_write(const char *path, const char *text)
{
	char dir[1024];
	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + 1; *p; p++) {
		if (*p == '/') {
			*p = 0;
			mkdir(dir, 0755);
			*p = '/';
		}
	}
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f) == 0 ? 0 : -1;
}

char *t_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *b = NULL;
	long n = -1;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
		b = malloc((size_t)n + 1);
	if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
		free(b);
		b = NULL;
	}
	fclose(f);
	if (!b)
		return NULL;
	b[n] = 0;
	if (len)
		*len = (size_t)n;
	return b;
}

int t_gpu_open(rung_worker **w, rung_env *env)
{
	signal(SIGPIPE, SIG_IGN);
	rung_worker_opts o = {.exe = RUNG_BIN};
	*w = NULL;
	if (rung_worker_open(w, &o))
		return 1;
	int rc = rung_worker_env(env, *w);
	if (rc == RUNG_ENODEV) {
		printf("skipped: %s\n", rung_error_last());
		rung_worker_close(*w);
		*w = NULL;
		return T_SKIP;
	}
	if (rc) {
		fprintf(stderr, "worker: %s\n", rung_error_last());
		return 1;
	}
	printf("device: %s (%s), driver %s, CUDA %s\n", env->gpu, env->arch, env->driver, env->cuda);
	return 0;
}
