/* SASS listings kept by machine code (gpu/sass_cache.h). */
#include "gpu/sass_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/fs.h"
#include "core/sha256.h"
#include "gpu/nvdisasm.h"

#define MAGIC "rung-sass-cache 1\n"
#define CACHE_REL "sass"
#define MAX_ENTRY ((size_t)256 << 20)

/* The key: the CUBIN and the nvdisasm that reads it; false without nvdisasm. */
static bool sass_key(char out[65], const void *cubin, size_t len)
{
	const char *nv = rung_nvdisasm_path();
	struct stat st;
	if (!nv || stat(nv, &st) != 0)
		return false;
	char who[4200];
	int n = snprintf(who, sizeof(who), "rung-sass 1\n%s\n%lld %lld.%09ld\n", nv, (long long)st.st_size,
			 (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
	rung_sha256_ctx h;
	rung_sha256_init(&h);
	rung_sha256_update(&h, who, (size_t)n);
	rung_sha256_update(&h, cubin, len);
	rung_sha256_final_hex(&h, out);
	return true;
}

/* The listing kept under key, or NULL. */
static char *get(int dfd, const char *key)
{
	int fd = openat(dfd, key, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	char *buf = NULL;
	size_t got = 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= MAX_ENTRY &&
	    (buf = malloc((size_t)st.st_size + 1))) {
		while (got < (size_t)st.st_size) {
			ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			got += (size_t)r;
		}
	}
	close(fd);
	size_t head = sizeof(MAGIC) - 1 + 65;
	if (!buf || got != (size_t)st.st_size || got < head || memcmp(buf, MAGIC, sizeof(MAGIC) - 1) ||
	    buf[head - 1] != '\n') {
		free(buf);
		return NULL;
	}
	buf[got] = 0;
	char sum[65];
	rung_sha256_hex(sum, buf + head, got - head);
	if (memcmp(sum, buf + sizeof(MAGIC) - 1, 64) || memchr(buf + head, 0, got - head)) {
		free(buf);
		return NULL;
	}
	memmove(buf, buf + head, got - head + 1);
	return buf;
}

static void put(int dfd, const char *dir, const char *key, const char *text)
{
	size_t n = strlen(text), head = sizeof(MAGIC) - 1 + 65;
	char *buf = malloc(head + n);
	if (!buf)
		return;
	memcpy(buf, MAGIC, sizeof(MAGIC) - 1);
	rung_sha256_hex(buf + sizeof(MAGIC) - 1, text, n);
	buf[head - 1] = '\n';
	memcpy(buf + head, text, n);
	char shown[4200];
	snprintf(shown, sizeof(shown), "%s" CACHE_REL "/%s", dir, key);
	if (rung_fs_write_in(dfd, key, buf, head + n, shown) < 0)
		rung_error_clear();
	free(buf);
}

int rung_sass_from_cubin_kept(char **out_text, const void *cubin, size_t len, const char *dir, bool *cached)
{
	*cached = false;
	char key[65];
	int dfd = -1;
	if (dir && *dir && sass_key(key, cubin, len)) {
		if (rung_fs_mkdirs(dir, 0700) < 0 || rung_fs_open_dir_in(&dfd, dir, CACHE_REL, true) < 0) {
			rung_error_clear();
			dfd = -1;
		} else if ((*out_text = get(dfd, key))) {
			close(dfd);
			*cached = true;
			return 0;
		}
	}
	int e = rung_sass_from_cubin(out_text, cubin, len);
	if (e == 0 && dfd >= 0)
		put(dfd, dir, key, *out_text);
	if (dfd >= 0)
		close(dfd);
	return e;
}
