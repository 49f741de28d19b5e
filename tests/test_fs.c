/* core/fs.c: whole-file reads (regular files only, a size limit), dir_of, and
 * the PATH search for an executable. */
#include "core/err.h"
#include "core/fs.h"
#include "core/npy.h"
#include "core/spec.h"
#include "harness.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[256];

static void path_in(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static void test_regular_file(void)
{
	char p[512];
	path_in(p, sizeof(p), "a.txt");
	CHECK_INT(t_write(p, "hello\nworld\n"), 0);
	char *s = (char *)1;
	size_t n = 99;
	CHECK_INT(rung_fs_read_file(&s, &n, p, 0), 0);
	CHECK_STR(s, "hello\nworld\n");
	CHECK_INT(n, 12);
	free(s);
	/* len may be NULL; an empty file reads as "" */
	path_in(p, sizeof(p), "empty");
	CHECK_INT(t_write(p, ""), 0);
	CHECK_INT(rung_fs_read_file(&s, NULL, p, 0), 0);
	CHECK_STR(s, "");
	free(s);
	/* bytes after a NUL are kept: the length says where the file ends */
	path_in(p, sizeof(p), "nul.bin");
	FILE *f = fopen(p, "wb");
	CHECK(f != NULL);
	if (f) {
		fwrite("ab\0cd", 1, 5, f);
		fclose(f);
	}
	CHECK_INT(rung_fs_read_file(&s, &n, p, 0), 0);
	CHECK_INT(n, 5);
	CHECK(s && memcmp(s, "ab\0cd", 6) == 0);
	free(s);
}

static void test_missing_file(void)
{
	char p[512], want[600];
	path_in(p, sizeof(p), "nope/x.cu");
	char *s = (char *)1;
	size_t n = 7;
	CHECK_INT(rung_fs_read_file(&s, &n, p, 0), RUNG_ENOTFOUND);
	CHECK(s == NULL);
	CHECK_INT(n, 0);
	snprintf(want, sizeof(want), "%s: No such file or directory", p);
	CHECK_STR(rung_error_last(), want);
}

static void on_alarm(int sig)
{
	(void)sig;
	static const char msg[] = "test_fs: a read blocked\n";
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(2);
}

/* A FIFO with no writer would block open() and read(); /dev/zero never ends. */
static void test_not_regular_refused(void)
{
	char p[512], want[600];
	path_in(p, sizeof(p), "fifo");
	CHECK_INT(mkfifo(p, 0600), 0);
	signal(SIGALRM, on_alarm);
	alarm(20);
	char *s = (char *)1;
	CHECK_INT(rung_fs_read_file(&s, NULL, p, 0), RUNG_EIO);
	CHECK(s == NULL);
	snprintf(want, sizeof(want), "%s: not a regular file (a FIFO)", p);
	CHECK_STR(rung_error_last(), want);
	CHECK_INT(rung_fs_read_head(&s, NULL, p, 100), RUNG_EIO);
	CHECK_STR(rung_error_last(), want);
	CHECK_INT(rung_fs_read_file(&s, NULL, "/dev/zero", 0), RUNG_EIO);
	CHECK_STR(rung_error_last(), "/dev/zero: not a regular file (a character device)");
	alarm(0);
	signal(SIGALRM, SIG_DFL);
	CHECK_INT(rung_fs_read_file(&s, NULL, dir, 0), RUNG_EIO);
	snprintf(want, sizeof(want), "%s: not a regular file (a directory)", dir);
	CHECK_STR(rung_error_last(), want);
	CHECK(s == NULL);
}

/* The readers that now use it: a rung.ini or a .npy that is a FIFO is refused, not waited on. */
static void test_callers_refuse_fifo(void)
{
	char task[512], p[600], want[700];
	path_in(task, sizeof(task), "task");
	CHECK_INT(mkdir(task, 0755), 0);
	snprintf(p, sizeof(p), "%s/rung.ini", task);
	CHECK_INT(mkfifo(p, 0600), 0);
	signal(SIGALRM, on_alarm);
	alarm(20);
	rung_spec *spec = NULL;
	CHECK_INT(rung_spec_load(&spec, task), RUNG_EIO);
	CHECK(spec == NULL);
	snprintf(want, sizeof(want), "%s: not a regular file (a FIFO)", p);
	CHECK_STR(rung_error_last(), want);
	rung_npy arr;
	CHECK_INT(rung_npy_load(&arr, p), RUNG_EIO);
	CHECK_STR(rung_error_last(), want);
	alarm(0);
	signal(SIGALRM, SIG_DFL);
}

static void test_size_limit(void)
{
	char p[512], want[600], text[101];
	memset(text, 'q', 100);
	text[100] = 0;
	path_in(p, sizeof(p), "hundred");
	CHECK_INT(t_write(p, text), 0);
	char *s = NULL;
	size_t n = 0;
	CHECK_INT(rung_fs_read_file(&s, &n, p, 100), 0);
	CHECK_INT(n, 100);
	CHECK_STR(s, text);
	free(s);
	CHECK_INT(rung_fs_read_file(&s, &n, p, 99), RUNG_EIO);
	CHECK(s == NULL);
	snprintf(want, sizeof(want), "%s: larger than 99 bytes", p);
	CHECK_STR(rung_error_last(), want);
	/* the head: cut, not refused */
	CHECK_INT(rung_fs_read_head(&s, &n, p, 10), 0);
	CHECK_INT(n, 10);
	CHECK_STR(s, "qqqqqqqqqq");
	free(s);
	CHECK_INT(rung_fs_read_head(&s, &n, p, 1000), 0);
	CHECK_INT(n, 100);
	free(s);
	/* a file whose size stat does not tell (procfs says 0) is still held to the limit */
	CHECK_INT(rung_fs_read_file(&s, &n, "/proc/self/status", 8), RUNG_EIO);
	CHECK_STR(rung_error_last(), "/proc/self/status: larger than 8 bytes");
	CHECK_INT(rung_fs_read_file(&s, &n, "/proc/self/status", 0), 0);
	CHECK(n > 8 && s && strstr(s, "Pid:"));
	free(s);
}

static void test_dir_of(void)
{
	static const struct {
		const char *path, *dir;
	} cases[] = {
		{ "a/b/c.cu", "a/b" }, { "c.cu", "." }, { "/c.cu", "/" }, { "/a/b", "/a" },
		{ "tasks/sgemm/", "tasks/sgemm" }, { "", "." },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *d = rung_fs_dir_of(cases[i].path);
		CHECK_STR(d, cases[i].dir);
		free(d);
	}
}

static void put_tool(const char *sub, mode_t mode, bool as_dir)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", dir, sub);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/%s/tool", dir, sub);
	if (as_dir) {
		CHECK_INT(mkdir(p, 0755), 0);
		return;
	}
	CHECK_INT(t_write(p, "#!/bin/sh\n"), 0);
	CHECK_INT(chmod(p, mode), 0);
}

static void test_which(void)
{
	put_tool("noexec", 0644, false); /* not executable */
	put_tool("isdir", 0, true);      /* a directory named tool, searchable */
	put_tool("bin", 0755, false);
	put_tool("extra", 0755, false);
	char *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	char path[2048], buf[512], want[600];
	snprintf(path, sizeof(path), "::%s/nothere:%s/noexec:%s/isdir:%s/bin:%s/extra", dir, dir, dir, dir, dir);
	setenv("PATH", path, 1);
	CHECK(rung_fs_which(buf, sizeof(buf), "tool", NULL));
	snprintf(want, sizeof(want), "%s/bin/tool", dir);
	CHECK_STR(buf, want);
	/* the extra directories come after $PATH, in their order */
	char ex1[512], ex2[512];
	snprintf(ex1, sizeof(ex1), "%s/noexec", dir);
	snprintf(ex2, sizeof(ex2), "%s/extra", dir);
	const char *extra[] = { "", ex1, ex2, NULL };
	snprintf(path, sizeof(path), "%s/noexec:%s/isdir", dir, dir);
	setenv("PATH", path, 1);
	CHECK(rung_fs_which(buf, sizeof(buf), "tool", extra));
	snprintf(want, sizeof(want), "%s/extra/tool", dir);
	CHECK_STR(buf, want);
	CHECK(!rung_fs_which(buf, sizeof(buf), "tool", NULL));
	CHECK_STR(buf, "");
	/* no PATH at all: only the extra directories */
	unsetenv("PATH");
	CHECK(rung_fs_which(buf, sizeof(buf), "tool", extra));
	CHECK_STR(buf, want);
	/* a candidate that does not fit is not found; a name with '/' is not searched */
	CHECK(!rung_fs_which(buf, strlen(want), "tool", extra));
	CHECK_STR(buf, "");
	CHECK(!rung_fs_which(buf, sizeof(buf), "extra/tool", extra));
	CHECK(rung_fs_is_exec(want));
	snprintf(want, sizeof(want), "%s/noexec/tool", dir);
	CHECK(!rung_fs_is_exec(want));
	if (old) {
		setenv("PATH", old, 1);
		free(old);
	}
}

/* writing inside a repository: a link on the way is refused, a link in the
 * file's place is replaced and what it pointed to is left alone */
static void test_confined_writes(void)
{
	char p[512], target[512], link[512];
	path_in(target, sizeof(target), "outside.txt");
	CHECK_INT(t_write(target, "mine\n"), 0);
	path_in(p, sizeof(p), "repo");
	CHECK_INT(mkdir(p, 0755), 0);
	int fd = -1;
	CHECK_INT(rung_fs_open_dir_in(&fd, p, "a/b", true), 0);
	CHECK(fd >= 0);
	path_in(link, sizeof(link), "repo/a/b/f");
	CHECK_INT(symlink(target, link), 0);
	CHECK_INT(rung_fs_write_in(fd, "f", "new\n", 4, "f"), 0);
	char *s = t_slurp(target, NULL);
	CHECK_STR(s, "mine\n");
	free(s);
	struct stat st;
	CHECK_INT(lstat(link, &st), 0);
	CHECK(S_ISREG(st.st_mode));
	s = t_slurp(link, NULL);
	CHECK_STR(s, "new\n");
	free(s);
	CHECK_INT(rung_fs_write_in(fd, "../x", "", 0, "x"), RUNG_EINVAL);
	close(fd);
	/* a folder link on the way, at the end or in the middle, is refused */
	path_in(link, sizeof(link), "repo/a/c");
	CHECK_INT(symlink(dir, link), 0);
	CHECK_INT(rung_fs_open_dir_in(&fd, p, "a/c", false), RUNG_EINVAL);
	CHECK_CONTAINS(rung_error_last(), "a/c: a symbolic link");
	CHECK_INT(rung_fs_open_dir_in(&fd, p, "a/c/d", true), RUNG_EINVAL);
	CHECK_INT(fd, -1);
	path_in(link, sizeof(link), "d");
	CHECK(access(link, F_OK) != 0); /* nothing was made through the link */
	CHECK_INT(rung_fs_open_dir_in(&fd, p, "a/../a", false), RUNG_EINVAL);
	CHECK_INT(rung_fs_open_dir_in(&fd, p, "a/b/f", false), RUNG_EINVAL);
	CHECK_CONTAINS(rung_error_last(), "not a directory");
	/* the relative path below a root */
	char *rel = NULL;
	path_in(link, sizeof(link), "repo/a/b");
	CHECK_INT(rung_fs_rel_below(&rel, p, link), 0);
	CHECK_STR(rel, "a/b");
	free(rel);
	CHECK_INT(rung_fs_rel_below(&rel, p, p), 0);
	CHECK_STR(rel, "");
	free(rel);
	CHECK_INT(rung_fs_rel_below(&rel, p, dir), RUNG_EINVAL);
	CHECK(rel == NULL);
}

int main(void)
{
	const char *d = t_tmpdir();
	if (!d)
		return 1;
	snprintf(dir, sizeof(dir), "%s", d);
	T_RUN(test_regular_file);
	T_RUN(test_missing_file);
	T_RUN(test_not_regular_refused);
	T_RUN(test_callers_refuse_fifo);
	T_RUN(test_size_limit);
	T_RUN(test_dir_of);
	T_RUN(test_which);
	T_RUN(test_confined_writes);
	char *out = NULL;
	t_sh(&out, "rm -rf '%s'", dir);
	free(out);
	return t_done();
}
