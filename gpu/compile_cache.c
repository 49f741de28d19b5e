/* NVRTC's output kept by content (gpu/compile_cache.h). */
#include "gpu/compile_cache.h"

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

#define MAGIC "rung-cubin-cache 1\n"
#define CACHE_REL "cubin"
/* larger than any CUBIN rung is given (the worker protocol's blob limit is lower) */
#define MAX_ENTRY ((size_t)256 << 20)

static bool key_ok(const char *key)
{
	for (int i = 0; i < 64; i++)
		if (!((key[i] >= '0' && key[i] <= '9') || (key[i] >= 'a' && key[i] <= 'f')))
			return false;
	return key[64] == 0;
}

static void payload_hash(char out[65], const rung_compiled *c)
{
	rung_sha256_ctx h;
	rung_sha256_init(&h);
	rung_sha256_update(&h, c->lowered, strlen(c->lowered) + 1);
	rung_sha256_update(&h, c->ptx, c->ptx_len);
	rung_sha256_update(&h, c->cubin, c->cubin_len);
	rung_sha256_update(&h, c->log, strlen(c->log));
	rung_sha256_final_hex(&h, out);
}

/* The whole of dirfd/name, a regular file of at most MAX_ENTRY bytes, not a link. */
static char *read_entry(int dirfd, const char *name, size_t *len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat st;
	char *buf = NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size <= MAX_ENTRY &&
	    (buf = malloc((size_t)st.st_size + 1))) {
		size_t got = 0;
		while (got < (size_t)st.st_size) {
			ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			got += (size_t)n;
		}
		if (got != (size_t)st.st_size) {
			free(buf);
			buf = NULL;
		} else {
			buf[got] = 0;
			*len = got;
		}
	}
	close(fd);
	return buf;
}

/* The next header line of [*p, end) into line (NUL-terminated, at most cap-1 bytes). */
static bool next_line(char *line, size_t cap, const char **p, const char *end)
{
	const char *eol = memchr(*p, '\n', (size_t)(end - *p));
	if (!eol || (size_t)(eol - *p) >= cap)
		return false;
	memcpy(line, *p, (size_t)(eol - *p));
	line[eol - *p] = 0;
	*p = eol + 1;
	return true;
}

int rung_compile_cache_get(rung_compiled *out, const char *dir, const char *key)
{
	if (!dir || !*dir || !key_ok(key))
		return 0;
	int dfd;
	if (rung_fs_open_dir_in(&dfd, dir, CACHE_REL, false) < 0) {
		rung_error_clear();
		return 0;
	}
	size_t len = 0;
	char *buf = read_entry(dfd, key, &len);
	close(dfd);
	if (!buf)
		return 0;
	const char *p = buf, *end = buf + len;
	char lowered[sizeof(out->lowered)], sizes[96], sum[80];
	unsigned long long np = 0, nc = 0, nl = 0;
	int hit = 0;
	rung_compiled c;
	memset(&c, 0, sizeof(c));
	if (len < sizeof(MAGIC) - 1 || memcmp(buf, MAGIC, sizeof(MAGIC) - 1))
		goto done;
	p += sizeof(MAGIC) - 1;
	char extra;
	if (!next_line(lowered, sizeof(lowered), &p, end) || !*lowered || !next_line(sizes, sizeof(sizes), &p, end) ||
	    sscanf(sizes, "%llu %llu %llu%c", &np, &nc, &nl, &extra) != 3 || !next_line(sum, sizeof(sum), &p, end) ||
	    strlen(sum) != 64 || nc == 0 || np > len || nc > len || nl > len || (size_t)(end - p) != np + nc + nl)
		goto done;
	if (!(c.ptx = malloc(np + 1)) || !(c.cubin = malloc(nc)) || !(c.log = malloc(nl + 1)))
		goto done;
	memcpy(c.ptx, p, np);
	c.ptx[np] = 0;
	memcpy(c.cubin, p + np, nc);
	memcpy(c.log, p + np + nc, nl);
	c.log[nl] = 0;
	c.ptx_len = np;
	c.cubin_len = nc;
	snprintf(c.lowered, sizeof(c.lowered), "%s", lowered);
	if (memchr(c.ptx, 0, np) || memchr(c.log, 0, nl))
		goto done;
	char want[65];
	payload_hash(want, &c);
	if (strcmp(want, sum) != 0)
		goto done;
	out->ptx = c.ptx;
	out->ptx_len = c.ptx_len;
	out->cubin = c.cubin;
	out->cubin_len = c.cubin_len;
	out->log = c.log;
	snprintf(out->lowered, sizeof(out->lowered), "%s", c.lowered);
	c.ptx = NULL;
	c.cubin = NULL;
	c.log = NULL;
	hit = 1;
done:
	rung_compiled_clear(&c);
	free(buf);
	return hit;
}

int rung_compile_cache_put(const char *dir, const char *key, const rung_compiled *c)
{
	if (!dir || !*dir || !key_ok(key) || !c->ptx || !c->cubin || !c->cubin_len || !c->log || !c->lowered[0] ||
	    strchr(c->lowered, '\n'))
		return rung_error_set(RUNG_EINVAL, "compile cache: nothing to keep");
	int dfd;
	int rc = rung_fs_mkdirs(dir, 0700); /* the user's cache directory (rung_fs_cache_dir) */
	if (rc == 0)
		rc = rung_fs_open_dir_in(&dfd, dir, CACHE_REL, true);
	if (rc < 0)
		return rc;
	char sum[65];
	payload_hash(sum, c);
	size_t nl = strlen(c->log);
	char head[sizeof(MAGIC) + sizeof(c->lowered) + 200];
	int nh = snprintf(head, sizeof(head), MAGIC "%s\n%zu %zu %zu\n%s\n", c->lowered, c->ptx_len, c->cubin_len, nl, sum);
	size_t total = (size_t)nh + c->ptx_len + c->cubin_len + nl;
	char *buf = nh > 0 && (size_t)nh < sizeof(head) ? malloc(total) : NULL;
	if (!buf) {
		close(dfd);
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	}
	memcpy(buf, head, (size_t)nh);
	memcpy(buf + nh, c->ptx, c->ptx_len);
	memcpy(buf + nh + c->ptx_len, c->cubin, c->cubin_len);
	memcpy(buf + nh + c->ptx_len + c->cubin_len, c->log, nl);
	char shown[4200];
	snprintf(shown, sizeof(shown), "%s" CACHE_REL "/%s", dir, key);
	rc = rung_fs_write_in(dfd, key, buf, total, shown);
	free(buf);
	close(dfd);
	return rc;
}
