#include "core/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a file";
}

static int read_whole(char **out, size_t *len, const char *path, size_t max, bool cut)
{
	*out = NULL;
	if (len)
		*len = 0;
	/* O_NONBLOCK: opening a FIFO for reading would wait for a writer. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return rung_error_set(errno == ENOENT ? RUNG_ENOTFOUND : RUNG_EIO, "%s: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) != 0) {
		int e = errno;
		close(fd);
		return rung_error_set(RUNG_EIO, "%s: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return rung_error_set(RUNG_EIO, "%s: not a regular file (%s)", path, kind_of(st.st_mode));
	}
	if (max && !cut && st.st_size > 0 && (uintmax_t)st.st_size > max) {
		close(fd);
		return rung_error_set(RUNG_EIO, "%s: larger than %zu bytes", path, max);
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	/* The size is a hint: the file may change while it is read. */
	size_t cap = st.st_size > 0 ? (size_t)st.st_size + 2 : 4096, n = 0;
	if (max && cap > max + 1)
		cap = max + 1;
	char *buf = malloc(cap);
	int rc = 0;
	while (buf) {
		if (n + 1 >= cap) {
			if (max && n >= max) {
				if (!cut) {
					/* one byte more tells a file that grew past max */
					char c;
					ssize_t r;
					while ((r = read(fd, &c, 1)) < 0 && errno == EINTR)
						;
					if (r > 0)
						rc = rung_error_set(RUNG_EIO, "%s: larger than %zu bytes", path, max);
				}
				break;
			}
			size_t ncap = cap * 2;
			if (max && ncap > max + 1)
				ncap = max + 1;
			char *nb = realloc(buf, ncap);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap = ncap;
		}
		ssize_t r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			rc = rung_error_set(RUNG_EIO, "%s: read error: %s", path, strerror(errno));
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (!buf)
		return rung_error_set(RUNG_ENOMEM, "%s: out of memory", path);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[n] = 0;
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

int rung_fs_read_file(char **out, size_t *len, const char *path, size_t max)
{
	return read_whole(out, len, path, max, false);
}

int rung_fs_read_head(char **out, size_t *len, const char *path, size_t max)
{
	if (!max) {
		*out = NULL;
		if (len)
			*len = 0;
		return rung_error_set(RUNG_EINVAL, "%s: read of no bytes", path);
	}
	return read_whole(out, len, path, max, true);
}

int rung_fs_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

char *rung_fs_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return strdup(".");
	if (slash == path)
		return strdup("/");
	return strndup(path, (size_t)(slash - path));
}

/* "." and ".." of an absolute path resolved textually, in place ("/a/./b/../c" ->
 * "/a/c"; ".." at "/" stays at "/"); repeated slashes become one. */
static void normalise_abs(char *p)
{
	char *w = p; /* p[0] == '/' */
	const char *r = p;
	while (*r) {
		while (*r == '/')
			r++;
		if (!*r)
			break;
		const char *e = strchr(r, '/');
		size_t n = e ? (size_t)(e - r) : strlen(r);
		if (n == 1 && r[0] == '.') {
			/* nothing */
		} else if (n == 2 && r[0] == '.' && r[1] == '.') {
			while (w > p && *--w != '/')
				;
		} else {
			*w++ = '/';
			memmove(w, r, n);
			w += n;
		}
		r += n;
	}
	if (w == p)
		*w++ = '/';
	*w = 0;
}

/* path resolved through the file system as far as it exists, the rest textually. */
static char *resolve(const char *path)
{
	char *abs;
	if (path[0] == '/') {
		abs = strdup(path);
	} else {
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd)))
			return NULL;
		size_t n = strlen(cwd) + strlen(path) + 2;
		if ((abs = malloc(n)))
			snprintf(abs, n, "%s/%s", cwd, path);
	}
	if (!abs)
		return NULL;
	char real[PATH_MAX];
	if (realpath(abs, real)) {
		free(abs);
		return strdup(real);
	}
	/* the longest prefix that resolves, then the rest on top of it */
	size_t cut = strlen(abs);
	while (cut > 0) {
		while (cut > 0 && abs[cut - 1] != '/')
			cut--;
		if (cut == 0)
			break;
		char save = abs[cut - 1];
		abs[cut - 1] = 0;
		bool ok = realpath(cut == 1 ? "/" : abs, real) != NULL;
		abs[cut - 1] = save;
		if (ok) {
			size_t n = strlen(real) + strlen(abs + cut) + 2;
			char *out = malloc(n);
			if (out) {
				snprintf(out, n, "%s/%s", real, abs + cut);
				normalise_abs(out);
			}
			free(abs);
			return out;
		}
		cut--;
	}
	normalise_abs(abs);
	return abs;
}

int rung_fs_confined(char **resolved, const char *root, const char *path)
{
	if (resolved)
		*resolved = NULL;
	char realroot[PATH_MAX];
	if (!root || !*root || !realpath(root, realroot))
		return rung_error_set(RUNG_EIO, "%s: %s", root ? root : "(no root)", root && *root ? strerror(errno) : "no directory");
	char *res = resolve(path);
	if (!res)
		return rung_error_set(RUNG_ENOMEM, "%s: out of memory", path);
	size_t l = strlen(realroot);
	bool inside = strcmp(realroot, "/") == 0 ||
		      (strncmp(res, realroot, l) == 0 && (res[l] == 0 || res[l] == '/'));
	int rc = inside ? 0 : rung_error_set(RUNG_EINVAL, "%s is outside %s (it is %s)", path, realroot, res);
	if (resolved)
		*resolved = res;
	else
		free(res);
	return rc;
}

int rung_fs_rel_below(char **rel, const char *root, const char *path)
{
	*rel = NULL;
	char *res = NULL;
	int rc = rung_fs_confined(&res, root, path);
	if (rc < 0) {
		free(res);
		return rc;
	}
	char realroot[PATH_MAX];
	if (!realpath(root, realroot)) {
		free(res);
		return rung_error_set(RUNG_EIO, "%s: %s", root, strerror(errno));
	}
	size_t l = strcmp(realroot, "/") == 0 ? 0 : strlen(realroot);
	const char *r = res + l;
	while (*r == '/')
		r++;
	*rel = strdup(r);
	free(res);
	return *rel ? 0 : rung_error_set(RUNG_ENOMEM, "%s: out of memory", path);
}

/* the shown path of the first n bytes of rel below root, for messages */
static int refuse_part(const char *root, const char *rel, size_t n, const char *why)
{
	return rung_error_set(RUNG_EINVAL, "%s/%.*s: %s", root, (int)n, rel, why);
}

int rung_fs_open_dir_in(int *out, const char *root, const char *rel, bool create)
{
	*out = -1;
	int fd = open(root && *root ? root : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return rung_error_set(RUNG_EIO, "%s: %s", root && *root ? root : ".", strerror(errno));
	for (const char *p = rel ? rel : ""; *p;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		char part[NAME_MAX + 1];
		size_t upto = (size_t)(p - rel) + n;
		if (n > NAME_MAX) {
			close(fd);
			return refuse_part(root, rel, upto, "name too long");
		}
		memcpy(part, p, n);
		part[n] = 0;
		if (!strcmp(part, ".") || !strcmp(part, "..")) {
			close(fd);
			return refuse_part(root, rel, upto, "'.' and '..' are not allowed here");
		}
		int nfd = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0 && errno == ENOENT && create) {
			if (mkdirat(fd, part, 0755) != 0 && errno != EEXIST) {
				int e2 = errno;
				close(fd);
				return rung_error_set(RUNG_EIO, "%s/%.*s: %s", root, (int)upto, rel, strerror(e2));
			}
			nfd = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (nfd < 0) {
			int e2 = errno;
			struct stat st;
			bool link = fstatat(fd, part, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
			close(fd);
			if (link || e2 == ELOOP)
				return refuse_part(root, rel, upto,
						   "a symbolic link: rung never writes through a link inside a repository");
			if (e2 == ENOTDIR)
				return refuse_part(root, rel, upto, "not a directory");
			return rung_error_set(e2 == ENOENT ? RUNG_ENOTFOUND : RUNG_EIO, "%s/%.*s: %s", root, (int)upto,
					      rel, strerror(e2));
		}
		close(fd);
		fd = nfd;
		p += n;
	}
	*out = fd;
	return 0;
}

int rung_fs_write_in(int dirfd, const char *name, const void *data, size_t len, const char *shown)
{
	if (!name || !*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return rung_error_set(RUNG_EINVAL, "%s: not a plain file name", shown);
	char tmp[NAME_MAX + 16];
	int fd = -1;
	static atomic_ulong counter; /* compile threads write cache entries at once */
	for (int tries = 0; tries < 100 && fd < 0; tries++) {
		unsigned long r = ((unsigned long)getpid() << 16) ^ (unsigned long)time(NULL) ^
				  ((atomic_fetch_add(&counter, 1) + 1) * 2654435761u);
		snprintf(tmp, sizeof(tmp), ".%.*s.%06lx", NAME_MAX - 8, name, r & 0xffffff);
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (fd < 0 && errno != EEXIST)
			return rung_error_set(RUNG_EIO, "%s: %s", shown, strerror(errno));
	}
	if (fd < 0)
		return rung_error_set(RUNG_EIO, "%s: no temporary name is free", shown);
	int rc = 0;
	if (len && rung_fs_write_all(fd, data, len) != 0)
		rc = rung_error_set(RUNG_EIO, "%s: write failed: %s", shown, strerror(errno));
	if (close(fd) != 0 && !rc)
		rc = rung_error_set(RUNG_EIO, "%s: write failed: %s", shown, strerror(errno));
	if (!rc && renameat(dirfd, tmp, dirfd, name) != 0)
		rc = rung_error_set(RUNG_EIO, "%s: %s", shown, strerror(errno));
	if (rc)
		unlinkat(dirfd, tmp, 0);
	return rc;
}

bool rung_fs_rel_inside(const char *rel)
{
	if (!rel || rel[0] == '/')
		return false;
	int depth = 0;
	for (const char *p = rel; *p;) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0)
				return false;
		} else if (!(n == 1 && p[0] == '.')) {
			depth++;
		}
		p += n;
	}
	return true;
}

bool rung_fs_is_exec(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

bool rung_fs_glob_exec(char *buf, size_t len, const char *pattern)
{
	glob_t g;
	bool ok = false;
	if (glob(pattern, 0, NULL, &g) == 0) {
		for (size_t i = g.gl_pathc; i-- > 0 && !ok;) {
			if (rung_fs_is_exec(g.gl_pathv[i])) {
				snprintf(buf, len, "%s", g.gl_pathv[i]);
				ok = true;
			}
		}
	}
	globfree(&g);
	return ok;
}

static bool try_dir(char *buf, size_t len, const char *dir, size_t dlen, const char *prog)
{
	if (!dlen || dlen + 1 + strlen(prog) + 1 > len)
		return false;
	snprintf(buf, len, "%.*s/%s", (int)dlen, dir, prog);
	return rung_fs_is_exec(buf);
}

bool rung_fs_which(char *buf, size_t len, const char *prog, const char *const *extra)
{
	if (!len)
		return false;
	if (prog && *prog && !strchr(prog, '/')) {
		const char *path = getenv("PATH");
		for (const char *p = path; p && *p;) {
			const char *e = strchr(p, ':');
			size_t n = e ? (size_t)(e - p) : strlen(p);
			if (try_dir(buf, len, p, n, prog))
				return true;
			if (!e)
				break;
			p = e + 1;
		}
		for (int i = 0; extra && extra[i]; i++)
			if (try_dir(buf, len, extra[i], strlen(extra[i]), prog))
				return true;
	}
	buf[0] = 0;
	return false;
}

int rung_fs_cache_dir(char *buf, size_t len)
{
	const char *own = getenv("RUNG_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;
	if (own && *own) {
		if (!strcmp(own, "off"))
			return rung_error_set(RUNG_ENOTFOUND, "RUNG_CACHE_DIR=off: no cache");
		if (own[0] != '/')
			return rung_error_set(RUNG_ENOTFOUND, "RUNG_CACHE_DIR=%s: not an absolute path: no cache", own);
		n = snprintf(buf, len, "%s%s", own, own[strlen(own) - 1] == '/' ? "" : "/");
	} else if (xdg && xdg[0] == '/') {
		n = snprintf(buf, len, "%s%srung/", xdg, xdg[strlen(xdg) - 1] == '/' ? "" : "/");
	} else if (home && home[0] == '/') {
		n = snprintf(buf, len, "%s%s.cache/rung/", home, home[strlen(home) - 1] == '/' ? "" : "/");
	} else {
		return rung_error_set(RUNG_ENOTFOUND, "no cache directory: neither RUNG_CACHE_DIR, XDG_CACHE_HOME nor HOME is an absolute path");
	}
	if (n < 0 || (size_t)n >= len)
		return rung_error_set(RUNG_ENOTFOUND, "the cache directory's path is too long");
	return 0;
}

int rung_fs_mkdirs(const char *path, mode_t mode)
{
	char p[PATH_MAX];
	size_t n = strlen(path);
	if (n == 0 || n >= sizeof(p))
		return rung_error_set(RUNG_EINVAL, "%s: bad directory path", path);
	memcpy(p, path, n + 1);
	for (size_t i = 1; i <= n; i++) {
		if (p[i] != '/' && p[i] != 0)
			continue;
		char c = p[i];
		p[i] = 0;
		struct stat st;
		if (mkdir(p, mode) != 0 && errno != EEXIST)
			return rung_error_set(RUNG_EIO, "%s: %s", p, strerror(errno));
		if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode))
			return rung_error_set(RUNG_EINVAL, "%s: not a directory", p);
		p[i] = c;
	}
	return 0;
}
