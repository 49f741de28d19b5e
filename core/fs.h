/* File-system helpers that several modules need: whole-file reads with a size
 * limit, writing a buffer whole, the directory of a path, and the search for
 * an executable on $PATH.
 * Errors follow core/err.h and name the path. */
#ifndef RUNG_CORE_FS_H
#define RUNG_CORE_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The limit for text files read whole: sources, specs, themes, configs. */
#define RUNG_FS_MAX_TEXT ((size_t)64 << 20)

/* Reads a whole regular file into a NUL-terminated heap buffer (*out, free()
 * it); *len (len may be NULL) gets its size. Anything that is not a regular
 * file (a directory, a FIFO, a device such as /dev/zero) is refused without
 * reading from it, and so is a file of more than max bytes (0: no limit), so a
 * read never blocks on a FIFO nor grows without bound. Errors name the path:
 * RUNG_ENOTFOUND "p: No such file or directory", RUNG_EIO "p: <strerror>",
 * "p: not a regular file (a FIFO)", "p: larger than N bytes", "p: read error: ...",
 * RUNG_ENOMEM "p: out of memory". *out is NULL on error. */
int rung_fs_read_file(char **out, size_t *len, const char *path, size_t max);
/* The same, but a file longer than max bytes is cut at max (a log whose head
 * is what matters) instead of refused. max must be > 0. */
int rung_fs_read_head(char **out, size_t *len, const char *path, size_t max);

/* Writes all len bytes of data to fd, again after EINTR. 0, or -1 with errno
 * set by the write that failed (the caller names the file in its message). */
int rung_fs_write_all(int fd, const void *data, size_t len);

/* The directory part of path, on the heap (free() it): "a/b/c.cu" -> "a/b",
 * "c.cu" -> ".", "/c.cu" -> "/". NULL when out of memory. */
char *rung_fs_dir_of(const char *path);

/* Resolves path (absolute, or relative to the current directory) with its
 * symlinks followed, as far as it exists (a part that does not exist yet is
 * joined on with "." and ".." resolved textually), and checks that the result
 * lies inside root (resolved the same way) on a path boundary: "/r/x" is inside
 * "/r", "/rx" is not. Returns 0 with *resolved (may be NULL; free() it) the
 * resolved absolute path; RUNG_EINVAL when it lies outside, with the message
 * "PATH is outside ROOT (it is RESOLVED)" and *resolved set all the same;
 * RUNG_EIO when root cannot be resolved; RUNG_ENOMEM. */
int rung_fs_confined(char **resolved, const char *root, const char *path);

/* True when rel, a relative path, stays inside the directory it starts from:
 * not absolute, and no ".." climbs above its start ("a/../b" stays, "a/../../b"
 * and "/etc/passwd" do not). Textual only. */
bool rung_fs_rel_inside(const char *rel);

/* Writing inside a repository. A repository can commit symbolic links (git
 * checks them out as links), so every file rung writes there is reached
 * without following one: rung_fs_open_dir_in walks rel below root one part at
 * a time with O_NOFOLLOW (creating missing parts when create), and
 * rung_fs_write_in writes a file through a temporary file and a rename in
 * that directory, which replaces a link of that name instead of writing where
 * it points. root itself is the user's (a home directory reached through a
 * link is fine); rel is relative, without "." or ".." parts.
 *
 * rung_fs_open_dir_in: 0 and *out a directory fd (close() it); RUNG_EINVAL
 * "ROOT/a/b: a symbolic link: rung never writes through a link inside a
 * repository" (or "not a directory", or a bad rel); RUNG_EIO with strerror. */
int rung_fs_open_dir_in(int *out, const char *root, const char *rel, bool create);
/* Writes len bytes as dirfd/name (a bare name, no '/'), whole or not at all:
 * a temporary ".name.XXXXXX" created with O_EXCL|O_NOFOLLOW, then renamed
 * over name. shown names the file in errors. 0, or RUNG_EIO / RUNG_EINVAL. */
int rung_fs_write_in(int dirfd, const char *name, const void *data, size_t len, const char *shown);
/* The relative path from root to path, both resolved (symlinks followed as
 * the OS does) into *rel (free() it; "" when they are the same directory).
 * RUNG_EINVAL "PATH is outside ROOT" when path is not below root. */
int rung_fs_rel_below(char **rel, const char *root, const char *path);

/* rung's own caches (gpu/compile_cache.h, gpu/sass_cache.h) live outside
 * every repository: a repository's .git is written by whoever commits to it
 * (the agent), and a cache entry there could make a reference or a kernel run
 * other machine code than its source says. The directory is $RUNG_CACHE_DIR
 * (absolute; "off": no cache), else $XDG_CACHE_HOME/rung (absolute), else
 * $HOME/.cache/rung; buf gets it with a trailing '/'. Nothing is created
 * (rung_fs_mkdirs). 0; RUNG_ENOTFOUND (message set) when there is none: off,
 * no HOME, or a relative path. */
int rung_fs_cache_dir(char *buf, size_t len);
/* mkdir -p: path and its missing parents, each made with mode. 0, or RUNG_EIO
 * (RUNG_EINVAL when a part is not a directory) with the message set. */
int rung_fs_mkdirs(const char *path, mode_t mode);
/* True when path is a regular file this process may execute. */
bool rung_fs_is_exec(const char *path);
/* The last (glob sorts: the newest package, cu13 after cu12) executable match
 * of a glob pattern into buf; false, buf untouched, when none. */
bool rung_fs_glob_exec(char *buf, size_t len, const char *pattern);
/* Finds the executable prog: in each directory of $PATH in order, then in
 * each directory of extra (a NULL-terminated list, may be NULL); empty
 * directory names are skipped. On success writes "dir/prog" to
 * buf and returns true; otherwise buf is "" and it returns false (also when a
 * candidate would not fit in len). prog must be a bare name (no '/'). */
bool rung_fs_which(char *buf, size_t len, const char *prog, const char *const *extra);

#endif
