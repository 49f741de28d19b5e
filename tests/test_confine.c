/* Paths the spec and the kernels name stay inside the repository (#18 item 7):
 * rung_fs_confined and rung_fs_rel_inside (core/fs.c), the #include scanner
 * (core/source.c rung_include_scan) and rung_spec_confine (core/spec.c), each
 * error at its rung.ini:LINE. */
#include "core/err.h"
#include "core/fs.h"
#include "core/source.h"
#include "core/spec.h"
#include "harness.h"

#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[PATH_MAX]; /* resolved: messages name resolved paths */

static void test_confined(void)
{
	char root[PATH_MAX + 16], p[PATH_MAX + 64], want[5 * PATH_MAX];
	snprintf(root, sizeof(root), "%s/r", dir);
	snprintf(p, sizeof(p), "%s/r/sub/a.cu", dir);
	CHECK_INT(t_write(p, "x\n"), 0);
	char *res = NULL;
	/* inside: a file, one that does not exist yet, and ".." that stays in */
	CHECK_INT(rung_fs_confined(&res, root, p), 0);
	CHECK_STR(res, p);
	free(res);
	snprintf(p, sizeof(p), "%s/r/sub/../new/b.cu", dir);
	CHECK_INT(rung_fs_confined(&res, root, p), 0);
	snprintf(want, sizeof(want), "%s/r/new/b.cu", dir);
	CHECK_STR(res, want);
	free(res);
	CHECK_INT(rung_fs_confined(NULL, root, root), 0);
	/* outside: ".." above the root, an absolute path, a sibling sharing the prefix */
	snprintf(p, sizeof(p), "%s/r/sub/../../x.cu", dir);
	CHECK_INT(rung_fs_confined(&res, root, p), RUNG_EINVAL);
	snprintf(want, sizeof(want), "%s/x.cu", dir);
	CHECK_STR(res, want);
	free(res);
	snprintf(want, sizeof(want), "%s is outside %s (it is %s/x.cu)", p, root, dir);
	CHECK_STR(rung_error_last(), want);
	CHECK_INT(rung_fs_confined(NULL, root, "/etc/passwd"), RUNG_EINVAL);
	snprintf(p, sizeof(p), "%s/rx/a.cu", dir);
	CHECK_INT(t_write(p, "x\n"), 0);
	CHECK_INT(rung_fs_confined(NULL, root, p), RUNG_EINVAL);
	/* symlinks are followed: a link out, a link to a directory out, then a path below it */
	snprintf(p, sizeof(p), "%s/r/sub/link.cu", dir);
	CHECK_INT(symlink("/etc/passwd", p), 0);
	CHECK_INT(rung_fs_confined(&res, root, p), RUNG_EINVAL);
	CHECK_STR(res, "/etc/passwd");
	free(res);
	snprintf(p, sizeof(p), "%s/r/etc", dir);
	CHECK_INT(symlink("/etc", p), 0);
	snprintf(p, sizeof(p), "%s/r/etc/no-such-file", dir);
	CHECK_INT(rung_fs_confined(&res, root, p), RUNG_EINVAL);
	CHECK_STR(res, "/etc/no-such-file");
	free(res);
	/* a link that points back inside is fine */
	snprintf(p, sizeof(p), "%s/r/in.cu", dir);
	CHECK_INT(symlink("sub/a.cu", p), 0);
	CHECK_INT(rung_fs_confined(NULL, root, p), 0);
	/* relative paths are taken from the current directory */
	char cwd[PATH_MAX];
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL);
	CHECK_INT(chdir(root), 0);
	CHECK_INT(rung_fs_confined(NULL, ".", "sub/a.cu"), 0);
	CHECK_INT(rung_fs_confined(NULL, ".", "../rx/a.cu"), RUNG_EINVAL);
	CHECK_INT(chdir(cwd), 0);
	/* a root that does not exist */
	CHECK_INT(rung_fs_confined(NULL, "/no/such/root", "/no/such/root/a"), RUNG_EIO);
}

static void test_rel_inside(void)
{
	CHECK(rung_fs_rel_inside("a.cu"));
	CHECK(rung_fs_rel_inside("t/./a.cu"));
	CHECK(rung_fs_rel_inside("t/../a.cu"));
	CHECK(rung_fs_rel_inside("t//x/../../a.cu"));
	CHECK(!rung_fs_rel_inside("../a.cu"));
	CHECK(!rung_fs_rel_inside("t/../../a.cu"));
	CHECK(!rung_fs_rel_inside("/etc/passwd"));
	CHECK(!rung_fs_rel_inside(NULL));
}

/* The scanner sees what the preprocessor sees, and nothing in comments or strings. */
static void test_include_scan(void)
{
	static const char src[] =
		"#include \"a.h\"\n"                          /* 1 */
		"  #  include <b/c.h>\n"                      /* 2 */
		"// #include \"commented.h\"\n"               /* 3 */
		"/* #include \"in-block.h\"\n"                /* 4 */
		"   #include \"still-in-block.h\" */\n"       /* 5 */
		"const char *s = \"#include \\\"str.h\\\"\";\n" /* 6 */
		"#inc\\\n"                                    /* 7 */
		"lude \"spliced.h\"\n"                        /* 8 */
		"/* c */ %: include /* d */ \"digraph.h\"\n"  /* 9 */
		"#define P \"/etc/passwd\"\n"                 /* 10 */
		"#include P\n"                                /* 11 */
		"const char *r = R\"x(\n"                     /* 12 */
		"#include \"raw.h\"\n"                        /* 13 */
		")x\";\n"                                     /* 14 */
		"#include_next \"next.h\"\n"                  /* 15 */
		"#include /* a\n"                             /* 16 */
		" comment */ \"after-comment.h\"\n"           /* 17 */
		"int x = 1'000; #include \"no.h\"\n"          /* 18 */
		"#include \"../../etc/passwd\"";              /* 19, no newline */
	rung_include *v = NULL;
	int n = 0;
	CHECK_INT(rung_include_scan(&v, &n, src, sizeof(src) - 1), 0);
	static const struct {
		const char *name;
		int line;
		bool angle;
	} want[] = { { "a.h", 1, false },     { "b/c.h", 2, true },          { "spliced.h", 7, false },
		         { "digraph.h", 9, false }, { NULL, 11, false },          { "next.h", 15, false },
		         { "after-comment.h", 16, false }, { "../../etc/passwd", 19, false } };
	int nw = (int)(sizeof(want) / sizeof(want[0]));
	CHECK_INT(n, nw);
	for (int i = 0; i < n && i < nw; i++) {
		if (want[i].name)
			CHECK_STR(v[i].name, want[i].name);
		else
			CHECK(v[i].name == NULL);
		CHECK_INT(v[i].line, want[i].line);
		CHECK_INT(v[i].angle, want[i].angle);
	}
	rung_includes_free(v, n);
	/* empty text, and text with no directive */
	CHECK_INT(rung_include_scan(&v, &n, "", 0), 0);
	CHECK_INT(n, 0);
	rung_includes_free(v, n);
	CHECK_INT(rung_include_scan(&v, &n, "\n\n", 2), 0);
	CHECK_INT(n, 0);
	rung_includes_free(v, n);
}

static const char spec_text[] =
	"[task]\n"                   /* 1 */
	"name = t\n"                 /* 2 */
	"kernel = k.cu\n"            /* 3 */
	"entry = k\n"                /* 4 */
	"reference = ref.cu\n"       /* 5 */
	"reference_entry = r\n"      /* 6 */
	"headers = inc\n"            /* 7 */
	"options = -lineinfo\n"      /* 8 */
	"[dims]\nN = 8\n"            /* 9, 10 */
	"[arg x]\n"                  /* 11 */
	"kind = input\n"             /* 12 */
	"dtype = f32\n"              /* 13 */
	"shape = N\n"                /* 14 */
	"init = npy:data/x.npy\n"    /* 15 */
	"[arg y]\n"                  /* 16 */
	"kind = output\n"            /* 17 */
	"dtype = f32\n"              /* 18 */
	"shape = N\n"                /* 19 */
	"golden = data/y.npy\n"      /* 20 */
	"[launch]\ngrid = 1\nblock = N\n";

/* The spec with `from` replaced by `to`, confined to root; the error message or "". */
static int confine_with(char *msg, size_t len, const char *taskdir, const char *root, const char *from, const char *to)
{
	char text[4096];
	const char *at = strstr(spec_text, from);
	if (!at)
		return 99;
	snprintf(text, sizeof(text), "%.*s%s%s", (int)(at - spec_text), spec_text, to, at + strlen(from));
	char ini[PATH_MAX + 16];
	snprintf(ini, sizeof(ini), "%s/rung.ini", taskdir);
	rung_spec *s = NULL;
	int rc = rung_spec_parse(&s, text, ini, taskdir);
	if (rc == 0)
		rc = rung_spec_confine(s, root, "the repository");
	snprintf(msg, len, "%s", rc ? rung_error_last() : "");
	rung_spec_free(s);
	return rc;
}

static void test_spec_confine(void)
{
	char root[PATH_MAX + 16], task[PATH_MAX + 32], p[PATH_MAX + 64], msg[1024], want[5 * PATH_MAX];
	snprintf(root, sizeof(root), "%s/repo", dir);
	snprintf(task, sizeof(task), "%s/repo/t", dir);
	snprintf(p, sizeof(p), "%s/inc/x.h", task);
	CHECK_INT(t_write(p, "\n"), 0);
	/* the spec as written is fine, with the root or textually */
	CHECK_INT(confine_with(msg, sizeof(msg), task, root, "k.cu", "k.cu"), 0);
	CHECK_INT(confine_with(msg, sizeof(msg), "t", NULL, "k.cu", "k.cu"), 0);
	/* ".." inside the repository is fine: a kernel beside the task */
	CHECK_INT(confine_with(msg, sizeof(msg), task, root, "kernel = k.cu", "kernel = ../shared/k.cu"), 0);
	/* each key, at its line */
	CHECK_INT(confine_with(msg, sizeof(msg), task, root, "reference = ref.cu", "reference = /etc/shadow"), RUNG_EINVAL);
	snprintf(want, sizeof(want),
	         "%s/rung.ini:5: [task] reference: '/etc/shadow' is an absolute path; rung reads only files inside the "
	         "repository: name it relative to the task directory", task);
	CHECK_STR(msg, want);
	CHECK_INT(confine_with(msg, sizeof(msg), task, root, "kernel = k.cu", "kernel = ../../k.cu"), RUNG_EINVAL);
	snprintf(want, sizeof(want), "%s/rung.ini:3: [task] kernel: '../../k.cu' is outside the repository (%s): it is %s/k.cu",
	         task, root, dir);
	CHECK_STR(msg, want);
	CHECK_INT(confine_with(msg, sizeof(msg), task, root, "headers = inc", "headers = inc, ../../.."), RUNG_EINVAL);
	CHECK_CONTAINS(msg, "rung.ini:7: [task] headers: '../../..' is outside the repository");
	CHECK_INT(confine_with(msg, sizeof(msg), task, root, "npy:data/x.npy", "npy:../../x.npy"), RUNG_EINVAL);
	CHECK_CONTAINS(msg, "rung.ini:15: [arg x] init: '../../x.npy' is outside the repository");
	CHECK_INT(confine_with(msg, sizeof(msg), task, root, "npy:data/x.npy", "npy: /tmp/x.npy"), RUNG_EINVAL);
	CHECK_CONTAINS(msg, "rung.ini:15: [arg x] init: '/tmp/x.npy' is an absolute path");
	CHECK_INT(confine_with(msg, sizeof(msg), task, root, "golden = data/y.npy", "golden = /etc/y.npy"), RUNG_EINVAL);
	CHECK_CONTAINS(msg, "rung.ini:20: [arg y] golden: '/etc/y.npy' is an absolute path");
	/* NVRTC options naming a path: not taken (headers lists include directories) */
	CHECK_INT(confine_with(msg, sizeof(msg), task, root, "-lineinfo", "-I/usr/include"), RUNG_EINVAL);
	snprintf(want, sizeof(want),
	         "%s/rung.ini:8: [task] options: '-I/usr/include' names a path, which rung does not pass to NVRTC (it would "
	         "read it from wherever rung runs); list include directories in headers, relative to the task directory", task);
	CHECK_STR(msg, want);
	CHECK_INT(confine_with(msg, sizeof(msg), task, root, "-lineinfo", "--use_fast_math --pre-include=/etc/passwd"), RUNG_EINVAL);
	CHECK_CONTAINS(msg, "rung.ini:8: [task] options: '--pre-include=/etc/passwd' names a path");
	CHECK_INT(confine_with(msg, sizeof(msg), task, root, "-lineinfo", "-include x.h"), RUNG_EINVAL);
	CHECK_CONTAINS(msg, "options: '-include' names a path");
	CHECK_INT(confine_with(msg, sizeof(msg), task, root, "-lineinfo", "--time=t.csv"), RUNG_EINVAL);
	CHECK_INT(confine_with(msg, sizeof(msg), task, root, "-lineinfo", "-lineinfo --use_fast_math -DX=1 --include-pathx"), 0);
	/* a symlink in the task directory that leads out */
	snprintf(p, sizeof(p), "%s/ref.cu", task);
	CHECK_INT(symlink("/etc/passwd", p), 0);
	CHECK_INT(confine_with(msg, sizeof(msg), task, root, "ref.cu", "ref.cu"), RUNG_EINVAL);
	snprintf(want, sizeof(want), "%s/rung.ini:5: [task] reference: 'ref.cu' is outside the repository (%s): it is /etc/passwd",
	         task, root);
	CHECK_STR(msg, want);
	/* textual (a bare repository): the task dir is repo-relative */
	CHECK_INT(confine_with(msg, sizeof(msg), "t", NULL, "kernel = k.cu", "kernel = ../../k.cu"), RUNG_EINVAL);
	CHECK_STR(msg, "t/rung.ini:3: [task] kernel: '../../k.cu' is outside the repository");
	CHECK_INT(confine_with(msg, sizeof(msg), "t", NULL, "kernel = k.cu", "kernel = ../k.cu"), 0);
}

int main(void)
{
	const char *d = t_tmpdir();
	if (!d || !realpath(d, dir))
		return 1;
	T_RUN(test_confined);
	T_RUN(test_rel_inside);
	T_RUN(test_include_scan);
	T_RUN(test_spec_confine);
	return t_done();
}
