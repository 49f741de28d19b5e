#include "gpu/cubin.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
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

/* ---- kernels and their parameters (a CUBIN committed as it is) ---------------- */

#define EIFMT_SVAL 4
#define EIATTR_KPARAM_INFO 0x17
#define EIATTR_REGCOUNT 0x2f

/* Walks an .nv.info attribute list: calls fn for each EIFMT_SVAL attribute. */
static void each_attr(const unsigned char *d, uint64_t n, void (*fn)(void *, int, const unsigned char *, uint64_t),
		      void *ud)
{
	for (uint64_t p = 0; p + 2 <= n;) {
		int fmt = d[p], attr = d[p + 1];
		if (fmt == EIFMT_SVAL) {
			if (p + 4 > n)
				return;
			uint64_t l = rd(d + p + 2, 2);
			if (l > n - p - 4)
				return;
			fn(ud, attr, d + p + 4, l);
			p += 4 + l;
		} else if (fmt == 3) { /* EIFMT_HVAL: 2 bytes of value */
			p += 4;
		} else if (fmt == 2) { /* EIFMT_BVAL */
			p += 3;
		} else {
			p += 2;
		}
	}
}

static void kparam(void *ud, int attr, const unsigned char *b, uint64_t l)
{
	rung_cubin_entry *e = ud;
	if (attr != EIATTR_KPARAM_INFO || l < 12)
		return;
	int ord = (int)rd(b + 4, 2);
	uint64_t tmp = rd(b + 8, 4);
	if (ord >= 0 && ord < RUNG_CUBIN_MAX_PARAMS) {
		e->size[ord] = (int64_t)((tmp >> 18) & 0x3fff);
		if (ord + 1 > e->nparams)
			e->nparams = ord + 1;
	}
}

int rung_cubin_entry_names(char *buf, size_t len, int *count, const void *cubin, size_t n)
{
	elf e;
	if (len)
		buf[0] = 0;
	if (count)
		*count = 0;
	if (elf_open(&e, cubin, n))
		return rung_error_set(RUNG_EINVAL, "not an ELF64 CUBIN");
	size_t used = 0;
	for (int i = 0; i < e.shnum; i++) {
		const char *name;
		const unsigned char *data;
		uint64_t size;
		if (section(&e, i, &name, &data, &size))
			return rung_error_set(RUNG_EINVAL, "malformed CUBIN section table");
		if (strncmp(name, ".nv.info.", 9) || !name[9])
			continue;
		if (count)
			(*count)++;
		if (len && used < len - 1) {
			int w = snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name + 9);
			used = w < 0 || used + (size_t)w >= len ? len - 1 : used + (size_t)w;
		}
	}
	return 0;
}

typedef struct {
	uint32_t sym;
	uint32_t regs; /* as stored: checked by the caller */
	bool found;
} regcount;

/* No architecture gives a thread more registers than this. */
enum { MAX_REGS_THREAD = 255 };

static void regcount_attr(void *ud, int attr, const unsigned char *b, uint64_t l)
{
	regcount *r = ud;
	if (attr == EIATTR_REGCOUNT && l >= 8 && rd(b, 4) == r->sym) {
		r->regs = (uint32_t)rd(b + 4, 4);
		r->found = true;
	}
}

int rung_cubin_entry_info(rung_cubin_entry *out, const void *cubin, size_t n, const char *entry)
{
	memset(out, 0, sizeof(*out));
	elf e;
	if (elf_open(&e, cubin, n))
		return rung_error_set(RUNG_EINVAL, "not an ELF64 CUBIN");
	bool found = false;
	int symtab = -1;
	const unsigned char *global = NULL;
	uint64_t global_n = 0;
	for (int i = 0; i < e.shnum; i++) {
		const char *name;
		const unsigned char *data;
		uint64_t size;
		if (section(&e, i, &name, &data, &size))
			return rung_error_set(RUNG_EINVAL, "malformed CUBIN section table");
		if (!strcmp(name, ".symtab"))
			symtab = i;
		else if (!strcmp(name, ".nv.info") && data)
			global = data, global_n = size;
		else if (!strncmp(name, ".nv.info.", 9) && !strcmp(name + 9, entry) && data) {
			found = true;
			each_attr(data, size, kparam, out);
		}
	}
	if (!found)
		return rung_error_set(RUNG_ENOTFOUND, "CUBIN: no kernel %s", entry);
	/* registers: EIATTR_REGCOUNT in .nv.info names the kernel by its symbol index */
	if (symtab >= 0 && global) {
		const char *name;
		const unsigned char *syms, *strs;
		uint64_t ssize, strsize;
		const unsigned char *sh = e.d + e.shoff + (uint64_t)symtab * e.shentsize;
		uint64_t link = rd(sh + 0x28, 4);
		if (section(&e, symtab, &name, &syms, &ssize) == 0 && syms && link < e.shnum &&
		    section(&e, (int)link, &name, &strs, &strsize) == 0 && strs) {
			for (uint64_t k = 0; k + 24 <= ssize; k += 24) {
				uint64_t no = rd(syms + k, 4);
				if (no >= strsize || !memchr(strs + no, 0, strsize - no) || strcmp((const char *)strs + no, entry))
					continue;
				regcount r = {.sym = (uint32_t)(k / 24)};
				each_attr(global, global_n, regcount_attr, &r);
				if (r.found && r.regs > MAX_REGS_THREAD)
					return rung_error_set(RUNG_EINVAL,
					                      "CUBIN: kernel %s: EIATTR_REGCOUNT says %" PRIu32
					                      " registers a thread, more than any GPU has (%d): a damaged CUBIN",
					                      entry, r.regs, MAX_REGS_THREAD);
				if (r.found) {
					out->has_regs = true;
					out->regs = (int)r.regs;
				}
				break;
			}
		}
	}
	return 0;
}
