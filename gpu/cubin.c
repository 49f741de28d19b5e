#include "gpu/cubin.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/err.h"
#include "core/sha256.h"

typedef struct {
	const unsigned char *d;
	size_t n;
	uint64_t shoff;
	uint16_t shentsize, shnum, shstrndx;
} elf;

static uint64_t rd(const unsigned char *p, int bytes)
{
	uint64_t v = 0;
	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static int elf_open(elf *e, const void *d, size_t n)
{
	e->d = d;
	e->n = n;
	if (n < 64 || memcmp(d, "\x7f" "ELF", 4) != 0 || e->d[4] != 2 /* ELFCLASS64 */ || e->d[5] != 1 /* LE */)
		return -1;
	e->shoff = rd(e->d + 0x28, 8);
	e->shentsize = (uint16_t)rd(e->d + 0x3A, 2);
	e->shnum = (uint16_t)rd(e->d + 0x3C, 2);
	e->shstrndx = (uint16_t)rd(e->d + 0x3E, 2);
	if (e->shentsize < 64 || e->shstrndx >= e->shnum || e->shoff > n ||
	    (uint64_t)e->shnum * e->shentsize > n - e->shoff)
		return -1;
	return 0;
}

/* Section i: name, data and size; -1 when out of bounds. */
static int section(const elf *e, int i, const char **name, const unsigned char **data, uint64_t *size)
{
	const unsigned char *sh = e->d + e->shoff + (uint64_t)i * e->shentsize;
	const unsigned char *str = e->d + e->shoff + (uint64_t)e->shstrndx * e->shentsize;
	uint64_t stroff = rd(str + 0x18, 8), strsize = rd(str + 0x20, 8);
	uint64_t nameoff = rd(sh, 4), type = rd(sh + 4, 4), off = rd(sh + 0x18, 8);
	*size = rd(sh + 0x20, 8);
	if (stroff > e->n || strsize > e->n - stroff || nameoff >= strsize)
		return -1;
	*name = (const char *)e->d + stroff + nameoff;
	if (!memchr(*name, 0, strsize - nameoff))
		return -1;
	if (type == 8 /* SHT_NOBITS */) {
		*data = NULL;
		return 0;
	}
	if (off > e->n || *size > e->n - off)
		return -1;
	*data = e->d + off;
	return 0;
}

/* Next ".text*" section at or after *i; 0 when none left, -1 on a bad image. */
static int next_text(const elf *e, int *i, const char **name, const unsigned char **data, uint64_t *size)
{
	for (; *i < e->shnum; (*i)++) {
		if (section(e, *i, name, data, size))
			return -1;
		if (!strncmp(*name, ".text", 5)) {
			(*i)++;
			return 1;
		}
	}
	return 0;
}

int rung_cubin_same_code(const void *a, size_t na, const void *b, size_t nb)
{
	elf ea, eb;
	if (elf_open(&ea, a, na) || elf_open(&eb, b, nb))
		return rung_error_set(RUNG_EINVAL, "not an ELF64 CUBIN");
	int ia = 0, ib = 0;
	for (;;) {
		const char *n1, *n2;
		const unsigned char *d1, *d2;
		uint64_t s1, s2;
		int r1 = next_text(&ea, &ia, &n1, &d1, &s1), r2 = next_text(&eb, &ib, &n2, &d2, &s2);
		if (r1 < 0 || r2 < 0)
			return rung_error_set(RUNG_EINVAL, "malformed CUBIN section table");
		if (r1 != r2)
			return 0;
		if (r1 == 0)
			return 1;
		if (strcmp(n1, n2) || s1 != s2 || (d1 && d2 && memcmp(d1, d2, s1)) || (!d1 != !d2))
			return 0;
	}
}

/* Sections that describe the source, not what runs: line tables, debug info, notes. */
static bool source_only(const char *name)
{
	static const char *const prefixes[] = {".debug", ".nv_debug", ".note", ".rel.debug", ".rela.debug",
					       ".rel.nv_debug", ".rela.nv_debug"};
	for (size_t k = 0; k < sizeof(prefixes) / sizeof(prefixes[0]); k++)
		if (!strncmp(name, prefixes[k], strlen(prefixes[k])))
			return true;
	return false;
}

int rung_cubin_code_key(char out[65], const void *cubin, size_t n)
{
	elf e;
	out[0] = 0;
	if (elf_open(&e, cubin, n))
		return rung_error_set(RUNG_EINVAL, "not an ELF64 CUBIN");
	rung_sha256_ctx c;
	rung_sha256_init(&c);
	/* the ELF header's machine and flags (the arch), then every section that runs */
	rung_sha256_update(&c, e.d + 0x12, 2);
	rung_sha256_update(&c, e.d + 0x30, 4);
	for (int i = 0; i < e.shnum; i++) {
		const char *name;
		const unsigned char *data;
		uint64_t size;
		if (section(&e, i, &name, &data, &size))
			return rung_error_set(RUNG_EINVAL, "malformed CUBIN section table");
		if (!*name || source_only(name))
			continue;
		rung_sha256_update(&c, name, strlen(name) + 1);
		rung_sha256_update(&c, &size, sizeof(size));
		if (data)
			rung_sha256_update(&c, data, (size_t)size);
	}
	rung_sha256_final_hex(&c, out);
	return 0;
}
