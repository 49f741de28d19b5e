/* SASS normalization and instruction mix. One pass splits the listing into
 * function, label and instruction lines (cleaned in place into a scratch
 * buffer) and reads the line info before each instruction, a second trims each function's tail (self-branch, NOP padding, end
 * labels), a third rewrites labels (and optionally registers) by first use. */
#include "core/sass.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

#define KIND_DROPPED (-1)

typedef struct {
	int kind; /* rung_sass_kind or KIND_DROPPED */
	int func;
	int64_t pc;
	size_t off, len; /* text in the scratch buffer */
	rung_sass_loc src, call;
} raw_line;

static const rung_sass_loc NO_LOC = {-1, 0};

typedef struct {
	raw_line *v;
	int n, cap;
} raw_vec;

static int raw_push(raw_vec *r, raw_line l)
{
	if (r->n == r->cap) {
		int cap = r->cap ? r->cap * 2 : 1024;
		raw_line *v = realloc(r->v, (size_t)cap * sizeof(*v));
		if (!v)
			return RUNG_ENOMEM;
		r->v = v;
		r->cap = cap;
	}
	r->v[r->n++] = l;
	return 0;
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

/* Copies [p, end) to dst dropping comments, collapsing blanks, trimming and
 * dropping a trailing ';'. Returns the length written. */
static size_t clean_text(char *dst, const char *p, const char *end)
{
	size_t n = 0;
	bool blank = false;
	while (p < end) {
		if (p + 1 < end && p[0] == '/' && p[1] == '*') {
			const char *q = p + 2;
			while (q + 1 < end && !(q[0] == '*' && q[1] == '/'))
				q++;
			p = q + 1 < end ? q + 2 : end;
			blank = true;
			continue;
		}
		char c = *p++;
		if (c == ' ' || c == '\t' || c == '\r') {
			blank = true;
			continue;
		}
		if (blank && n > 0)
			dst[n++] = ' ';
		blank = false;
		dst[n++] = c;
	}
	while (n > 0 && (dst[n - 1] == ';' || dst[n - 1] == ' '))
		n--;
	return n;
}

static int add_func(rung_sass *s, const char *name, size_t n)
{
	char **f = realloc(s->funcs, (size_t)(s->nfuncs + 1) * sizeof(*f));
	if (!f)
		return RUNG_ENOMEM;
	s->funcs = f;
	char *c = malloc(n + 1);
	if (!c)
		return RUNG_ENOMEM;
	memcpy(c, name, n);
	c[n] = 0;
	s->funcs[s->nfuncs++] = c;
	return 0;
}

/* The index of file name[0..n) in s->files, added when new; negative on ENOMEM. */
static int add_file(rung_sass *s, const char *name, size_t n)
{
	for (int i = 0; i < s->nfiles; i++)
		if (strlen(s->files[i]) == n && memcmp(s->files[i], name, n) == 0)
			return i;
	char **f = realloc(s->files, (size_t)(s->nfiles + 1) * sizeof(*f));
	if (!f)
		return RUNG_ENOMEM;
	s->files = f;
	char *c = malloc(n + 1);
	if (!c)
		return RUNG_ENOMEM;
	memcpy(c, name, n);
	c[n] = 0;
	s->files[s->nfiles] = c;
	return s->nfiles++;
}

/* A line number above this is no line. */
#define SRC_LINE_MAX 100000000

/* `"NAME", line N` at *pp (before end): the name (which may hold quotes: it
 * ends at the first `", line ` and a digit) and N >= 1; *pp moves past it. */
static bool parse_name_line(const char **pp, const char *end, const char **name, size_t *nlen, int *line)
{
	const char *p = *pp;
	if (p >= end || *p != '"')
		return false;
	p++;
	const char *q = p;
	while (q + 9 <= end && !(strncmp(q, "\", line ", 8) == 0 && isdigit((unsigned char)q[8])))
		q++;
	if (q + 9 > end)
		return false;
	*name = p;
	*nlen = (size_t)(q - p);
	q += 8;
	long n = 0;
	while (q < end && isdigit((unsigned char)*q)) {
		if (n <= SRC_LINE_MAX)
			n = n * 10 + (*q - '0');
		q++;
	}
	if (n < 1 || n > SRC_LINE_MAX || *nlen == 0)
		return false;
	*line = (int)n;
	*pp = q;
	return true;
}

/* A line-info comment `//## File "k.cu", line 27` with any number of
 * ` inlined at "k.cu", line 104` after it, from [p, e): its first location
 * into *first, its last (the outermost call site) into *last. 0, 1 when the
 * line is no such comment (it is dropped), RUNG_ENOMEM. */
static int parse_line_info(rung_sass *s, const char *p, const char *e, rung_sass_loc *first, rung_sass_loc *last)
{
	static const char head[] = "//## File ", inl[] = " inlined at ";
	if ((size_t)(e - p) < sizeof(head) - 1 || strncmp(p, head, sizeof(head) - 1) != 0)
		return 1;
	p += sizeof(head) - 1;
	for (int k = 0;; k++) {
		const char *name;
		size_t n;
		int line;
		if (!parse_name_line(&p, e, &name, &n, &line))
			return 1;
		int f = add_file(s, name, n);
		if (f < 0)
			return f;
		rung_sass_loc loc = {f, line};
		if (k == 0)
			*first = loc;
		*last = loc;
		if (p == e)
			return 0;
		if ((size_t)(e - p) < sizeof(inl) - 1 || strncmp(p, inl, sizeof(inl) - 1) != 0)
			return 1;
		p += sizeof(inl) - 1;
	}
}

/* Phase 1: classify and clean every line. Line info: nvdisasm writes a group
 * of comments where the location changes, and it holds for the instructions
 * after it. With -gi a group is the inline chain, innermost first, each
 * comment "A inlined at B", then the outermost location alone: the group's
 * first location is where the code is written, its last the call site. */
static int split_lines(rung_sass *s, raw_vec *raw, char *scratch, const char *listing)
{
	size_t used = 0;
	int func = -1;
	rung_sass_loc cur_src = NO_LOC, cur_call = NO_LOC;
	bool in_group = false; /* the last line-info comment has no instruction after it yet */
	const char *line = listing;
	while (*line) {
		const char *end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line);
		const char *p = line;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		const char *e = end;
		while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
			e--;
		raw_line l = {.kind = KIND_DROPPED, .func = func, .pc = -1, .src = NO_LOC, .call = NO_LOC};
		if (e - p > 5 && strncmp(p, "//## ", 5) == 0) {
			rung_sass_loc first, last;
			int rc = parse_line_info(s, p, e, &first, &last);
			if (rc < 0)
				return rc;
			if (rc == 0) {
				if (!in_group)
					cur_src = first;
				cur_call = last;
				in_group = true;
			}
		} else if (p == e || (e - p >= 2 && p[0] == '/' && p[1] == '/')) {
			/* blank or section banner */
		} else if (p[0] == '/' && e - p > 2 && p[1] == '*') {
			/* instruction: address comment first */
			const char *q = p + 2;
			int64_t pc = 0;
			bool hex = false;
			while (q < e && isxdigit((unsigned char)*q)) {
				int c = (unsigned char)*q++;
				/* an address above INT64_MAX is no address: the instruction keeps pc -1 */
				if (pc >= 0)
					pc = pc > (INT64_MAX >> 4) ? -1 : pc * 16 + (isdigit(c) ? c - '0' : (tolower(c) - 'a' + 10));
				hex = true;
			}
			if (hex && q + 1 < e && q[0] == '*' && q[1] == '/' && func >= 0) {
				size_t n = clean_text(scratch + used, q + 2, e);
				if (n > 0 && scratch[used] != '.') {
					l.kind = RUNG_SASS_INST;
					l.pc = pc;
					l.src = cur_src;
					l.call = cur_call;
					in_group = false;
					l.off = used;
					l.len = n;
					used += n;
				}
			}
		} else if (p[0] == '.') {
			/* ".L_x_3:" is a label; ".text.x:" and directives are dropped */
			if (e[-1] == ':' && e - p > 3 && p[1] == 'L' && func >= 0) {
				memcpy(scratch + used, p, (size_t)(e - p - 1));
				l.kind = RUNG_SASS_LABEL;
				l.off = used;
				l.len = (size_t)(e - p - 1);
				used += l.len;
			}
		} else if (e - p > 11 && strncmp(p, "Function : ", 11) == 0) {
			/* cuobjdump */
			if (add_func(s, p + 11, (size_t)(e - p - 11)) < 0)
				return RUNG_ENOMEM;
			func = s->nfuncs - 1;
			cur_src = cur_call = NO_LOC;
			in_group = false;
			l.kind = RUNG_SASS_FUNC;
			l.func = func;
		} else if (e[-1] == ':' && is_ident(p[0])) {
			const char *q = p;
			while (q < e - 1 && *q != ' ' && *q != '\t')
				q++;
			if (q == e - 1) {
				if (add_func(s, p, (size_t)(e - p - 1)) < 0)
					return RUNG_ENOMEM;
				func = s->nfuncs - 1;
				cur_src = cur_call = NO_LOC;
				in_group = false;
				l.kind = RUNG_SASS_FUNC;
				l.func = func;
			}
		}
		if (l.kind != KIND_DROPPED && raw_push(raw, l) < 0)
			return RUNG_ENOMEM;
		line = *end ? end + 1 : end;
	}
	return 0;
}

static bool text_is(const char *scratch, const raw_line *l, const char *s)
{
	size_t n = strlen(s);
	return l->len == n && memcmp(scratch + l->off, s, n) == 0;
}

/* True for "BRA `(.L_x_7)" (unpredicated) whose target is the label text `label`. */
static bool is_self_branch(const char *scratch, const raw_line *bra, const raw_line *label)
{
	const char *t = scratch + bra->off;
	if (bra->len < 8 || strncmp(t, "BRA `(", 6) != 0 || t[bra->len - 1] != ')')
		return false;
	size_t n = bra->len - 7;
	return n == label->len && memcmp(t + 6, scratch + label->off, n) == 0;
}

/* Phase 2: per function, drop trailing labels, NOPs and the final self-branch. */
static void trim_tails(raw_vec *raw, const char *scratch)
{
	int i = raw->n - 1;
	while (i >= 0) {
		int f = raw->v[i].func;
		int j = i; /* walk back over this function's tail */
		bool changed = true;
		while (changed) {
			changed = false;
			while (j >= 0 && raw->v[j].func == f && raw->v[j].kind == KIND_DROPPED)
				j--;
			if (j < 0 || raw->v[j].func != f)
				break;
			raw_line *l = &raw->v[j];
			if (l->kind == RUNG_SASS_LABEL || (l->kind == RUNG_SASS_INST && text_is(scratch, l, "NOP"))) {
				l->kind = KIND_DROPPED;
				changed = true;
			} else if (l->kind == RUNG_SASS_INST && j > 0 && raw->v[j - 1].func == f &&
			           raw->v[j - 1].kind == RUNG_SASS_LABEL &&
			           is_self_branch(scratch, l, &raw->v[j - 1])) {
				l->kind = KIND_DROPPED;
				raw->v[j - 1].kind = KIND_DROPPED;
				changed = true;
			}
		}
		while (i >= 0 && raw->v[i].func == f)
			i--;
	}
}

/* First-use renumbering tables, reset per function by a generation stamp. */
typedef struct {
	int *map, *gen;
	int cap, next, cur_gen;
} renum;

/* Numbers above this are not renumbered: the tables hold an int per number up
 * to it, and nvdisasm numbers labels and registers from 0. */
#define LABEL_MAX (1L << 20)

static int renum_get(renum *r, long old)
{
	if (old < 0 || old > LABEL_MAX)
		return (int)old;
	if (old >= r->cap) {
		int cap = r->cap ? r->cap : 256;
		while (cap <= old)
			cap *= 2;
		int *m = realloc(r->map, (size_t)cap * sizeof(int));
		if (!m)
			return -1;
		r->map = m;
		int *g = realloc(r->gen, (size_t)cap * sizeof(int));
		if (!g)
			return -1;
		r->gen = g;
		memset(r->gen + r->cap, 0, (size_t)(cap - r->cap) * sizeof(int));
		r->cap = cap;
	}
	if (r->gen[old] != r->cur_gen) {
		r->gen[old] = r->cur_gen;
		r->map[old] = r->next++;
	}
	return r->map[old];
}

static void renum_reset(renum *r)
{
	r->cur_gen++;
	r->next = 0;
}

typedef struct {
	char *v;
	size_t n, cap;
} outbuf;

static int out_reserve(outbuf *o, size_t more)
{
	if (o->n + more <= o->cap)
		return 0;
	size_t cap = o->cap ? o->cap : 4096;
	while (cap < o->n + more)
		cap *= 2;
	char *v = realloc(o->v, cap);
	if (!v)
		return RUNG_ENOMEM;
	o->v = v;
	o->cap = cap;
	return 0;
}

/* Writes "prefix<num>" */
static void out_num(outbuf *o, const char *prefix, int num)
{
	size_t pl = strlen(prefix);
	memcpy(o->v + o->n, prefix, pl);
	o->n += pl;
	char tmp[16];
	int k = 0;
	do {
		tmp[k++] = (char)('0' + num % 10);
		num /= 10;
	} while (num > 0);
	while (k > 0)
		o->v[o->n++] = tmp[--k];
}

/* Register classes renamed: R, P, UR, UP, B. */
#define NREGCLS 5

/* Phase 3: rewrite one line's text into o (labels always, registers if asked). */
static int rewrite(outbuf *o, const char *t, size_t len, unsigned flags, renum *lab, renum *regs[NREGCLS])
{
	/* Renumbered tokens grow by at most 8 chars each, and every token needs >= 2 chars. */
	if (out_reserve(o, len * 5 + 16) < 0)
		return RUNG_ENOMEM;
	size_t i = 0;
	while (i < len) {
		char c = t[i];
		bool boundary = i == 0 || (!is_ident(t[i - 1]) && t[i - 1] != '.');
		if (c == '.' && i + 5 < len + 0 && strncmp(t + i, ".L_x_", 5) == 0 &&
		    isdigit((unsigned char)t[i + 5])) {
			size_t j = i + 5;
			long v = 0;
			while (j < len && isdigit((unsigned char)t[j])) {
				if (v <= LABEL_MAX)
					v = v * 10 + (t[j] - '0');
				j++;
			}
			if (v > LABEL_MAX) {
				/* beyond the renumbering table: kept as written */
				memcpy(o->v + o->n, t + i, j - i);
				o->n += j - i;
			} else {
				int nv = renum_get(lab, v);
				if (nv < 0)
					return RUNG_ENOMEM;
				out_num(o, ".L_x_", nv);
			}
			i = j;
			continue;
		}
		if (boundary && (flags & RUNG_SASS_RENAME_REGS) && (c == 'R' || c == 'P' || c == 'U' || c == 'B')) {
			/* R7 -> r0, UR4 -> ur0, P3 -> p0, UP1 -> up0, B2 -> b0: lower case, so a
			 * renamed listing never reads as hardware names; RZ, PT, URZ, UPT stay */
			size_t j = i;
			int cls;
			const char *prefix;
			if (c == 'U' && i + 1 < len && (t[i + 1] == 'R' || t[i + 1] == 'P')) {
				cls = t[i + 1] == 'R' ? 2 : 3;
				prefix = cls == 2 ? "ur" : "up";
				j += 2;
			} else if (c != 'U') {
				cls = c == 'R' ? 0 : c == 'P' ? 1 : 4;
				prefix = cls == 0 ? "r" : cls == 1 ? "p" : "b";
				j += 1;
			} else {
				cls = -1;
				prefix = NULL;
			}
			if (cls >= 0 && j < len && isdigit((unsigned char)t[j])) {
				size_t k = j;
				long v = 0;
				while (k < len && isdigit((unsigned char)t[k]) && v < 100000)
					v = v * 10 + (t[k++] - '0');
				if (k == len || !is_ident(t[k])) {
					int nv = renum_get(regs[cls], v);
					if (nv < 0)
						return RUNG_ENOMEM;
					out_num(o, prefix, nv);
					i = k;
					continue;
				}
			}
		}
		o->v[o->n++] = c;
		i++;
	}
	o->v[o->n++] = 0;
	return 0;
}

int rung_sass_normalize(rung_sass *out, const char *listing, unsigned flags)
{
	memset(out, 0, sizeof(*out));
	if (!listing)
		listing = "";
	size_t len = strlen(listing);
	char *scratch = malloc(len + 1);
	raw_vec raw = {0};
	renum lab = {0}, rr[NREGCLS] = {{0}};
	renum *regs[NREGCLS] = {&rr[0], &rr[1], &rr[2], &rr[3], &rr[4]};
	outbuf o = {0};
	int rc = RUNG_ENOMEM;
	if (!scratch)
		goto done;
	if ((rc = split_lines(out, &raw, scratch, listing)) < 0)
		goto done;
	trim_tails(&raw, scratch);

	int kept = 0;
	for (int i = 0; i < raw.n; i++)
		kept += raw.v[i].kind != KIND_DROPPED;
	rc = RUNG_ENOMEM;
	out->lines = calloc((size_t)(kept ? kept : 1), sizeof(*out->lines));
	size_t *offs = calloc((size_t)(kept ? kept : 1), sizeof(size_t));
	if (!out->lines || !offs) {
		free(offs);
		goto done;
	}
	int cur = -2;
	for (int i = 0; i < raw.n; i++) {
		const raw_line *l = &raw.v[i];
		if (l->kind == KIND_DROPPED)
			continue;
		if (l->func != cur) {
			cur = l->func;
			renum_reset(&lab);
			for (int k = 0; k < NREGCLS; k++)
				renum_reset(regs[k]);
		}
		rung_sass_line *sl = &out->lines[out->nlines];
		sl->kind = (rung_sass_kind)l->kind;
		sl->func = l->func;
		sl->pc = l->kind == RUNG_SASS_INST ? l->pc : -1;
		sl->src = l->kind == RUNG_SASS_INST ? l->src : NO_LOC;
		sl->call = l->kind == RUNG_SASS_INST ? l->call : NO_LOC;
		offs[out->nlines] = o.n;
		if (l->kind == RUNG_SASS_FUNC) {
			const char *name = out->funcs[l->func];
			size_t n = strlen(name);
			if (out_reserve(&o, n + 1) < 0) {
				free(offs);
				goto done;
			}
			memcpy(o.v + o.n, name, n + 1);
			o.n += n + 1;
		} else if (rewrite(&o, scratch + l->off, l->len, flags, &lab, regs) < 0) {
			free(offs);
			goto done;
		}
		out->nlines++;
	}
	if (out_reserve(&o, 1) < 0) {
		free(offs);
		goto done;
	}
	out->buf = o.v;
	o.v = NULL;
	for (int i = 0; i < out->nlines; i++)
		out->lines[i].text = out->buf + offs[i];
	free(offs);
	rc = 0;
done:
	free(scratch);
	free(raw.v);
	free(lab.map);
	free(lab.gen);
	for (int k = 0; k < NREGCLS; k++) {
		free(rr[k].map);
		free(rr[k].gen);
	}
	free(o.v);
	if (rc < 0) {
		rung_sass_clear(out);
		return rung_error_set(rc, "out of memory normalizing SASS");
	}
	return 0;
}

void rung_sass_clear(rung_sass *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nfuncs; i++)
		free(s->funcs[i]);
	free(s->funcs);
	for (int i = 0; i < s->nfiles; i++)
		free(s->files[i]);
	free(s->files);
	free(s->lines);
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

int rung_sass_find_func(const rung_sass *s, const char *name)
{
	for (int i = 0; i < s->nfuncs; i++)
		if (strcmp(s->funcs[i], name) == 0)
			return i;
	return -1;
}

char *rung_sass_text(const rung_sass *s, int func)
{
	size_t n = 1;
	for (int i = 0; i < s->nlines; i++)
		if (func < 0 || s->lines[i].func == func)
			n += strlen(s->lines[i].text) + 4;
	char *t = malloc(n), *p = t;
	if (!t)
		return NULL;
	for (int i = 0; i < s->nlines; i++) {
		const rung_sass_line *l = &s->lines[i];
		if (func >= 0 && l->func != func)
			continue;
		size_t k = strlen(l->text);
		if (l->kind == RUNG_SASS_INST) {
			*p++ = ' ';
			*p++ = ' ';
		}
		memcpy(p, l->text, k);
		p += k;
		if (l->kind != RUNG_SASS_INST)
			*p++ = ':';
		*p++ = '\n';
	}
	*p = 0;
	return t;
}

static const char *const mix_names[] = {
#define RUNG_SASS_MIX_NAME(id, name) name,
    RUNG_SASS_MIX_LIST(RUNG_SASS_MIX_NAME)
#undef RUNG_SASS_MIX_NAME
};

const char *rung_mix_name(rung_mix_id id)
{
	if ((int)id < 0 || id >= RUNG_MIX_COUNT)
		return "?";
	return mix_names[id];
}

/* Access width of an LDG/STG opcode from its ".64"/".128" modifier; 32 otherwise. */
static int width_of(const char *op, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (op[i] != '.')
			continue;
		size_t j = i + 1;
		while (j < n && op[j] != '.')
			j++;
		if (j - i - 1 == 2 && strncmp(op + i + 1, "64", 2) == 0)
			return 64;
		if (j - i - 1 == 3 && strncmp(op + i + 1, "128", 3) == 0)
			return 128;
	}
	return 32;
}

int rung_sass_classify(const char *inst)
{
	const char *p = inst;
	while (*p == ' ')
		p++;
	if (*p == '@') {
		while (*p && *p != ' ')
			p++;
		while (*p == ' ')
			p++;
	}
	size_t n = strcspn(p, " ;");
	size_t b = strcspn(p, " .;");
	if (b > n)
		b = n;
#define BASE(s) (b == sizeof(s) - 1 && strncmp(p, s, b) == 0)
	if (BASE("FFMA"))
		return RUNG_MIX_FFMA;
	if (BASE("FADD"))
		return RUNG_MIX_FADD;
	if (BASE("FMUL"))
		return RUNG_MIX_FMUL;
	if (BASE("HMMA"))
		return RUNG_MIX_HMMA;
	if (BASE("HGMMA"))
		return RUNG_MIX_HGMMA;
	if (BASE("IMAD"))
		return RUNG_MIX_IMAD;
	if (BASE("LDG")) {
		int w = width_of(p, n);
		return w == 128 ? RUNG_MIX_LDG128 : w == 64 ? RUNG_MIX_LDG64 : RUNG_MIX_LDG32;
	}
	if (BASE("STG")) {
		int w = width_of(p, n);
		return w == 128 ? RUNG_MIX_STG128 : w == 64 ? RUNG_MIX_STG64 : RUNG_MIX_STG32;
	}
	if (BASE("LDS"))
		return RUNG_MIX_LDS;
	if (BASE("STS"))
		return RUNG_MIX_STS;
	if (BASE("LDSM"))
		return RUNG_MIX_LDSM;
	if (BASE("BAR"))
		return RUNG_MIX_BAR;
	if (BASE("LDL"))
		return RUNG_MIX_LDL;
	if (BASE("STL"))
		return RUNG_MIX_STL;
	if (BASE("BRA"))
		return RUNG_MIX_BRA;
#undef BASE
	return -1;
}

void rung_sass_count(rung_sass_mix *out, const rung_sass *s, int func)
{
	memset(out, 0, sizeof(*out));
	for (int i = 0; i < s->nlines; i++) {
		const rung_sass_line *l = &s->lines[i];
		if (l->kind != RUNG_SASS_INST || (func >= 0 && l->func != func))
			continue;
		int c = rung_sass_classify(l->text);
		if (c >= 0)
			out->n[c]++;
		out->n[RUNG_MIX_TOTAL]++;
	}
}

int rung_mix_present(rung_mix_id *out, const rung_sass_mix *a, const rung_sass_mix *b)
{
	int n = 0;
	for (int k = 0; k < RUNG_MIX_COUNT; k++)
		if (a->n[k] || b->n[k])
			out[n++] = (rung_mix_id)k;
	return n;
}

typedef struct {
	rung_sass *out;
	const char *listing;
	unsigned flags;
	int rc;
	char err[256];
} norm_job;

static void *norm_thread(void *arg)
{
	norm_job *j = arg;
	j->rc = rung_sass_normalize(j->out, j->listing, j->flags);
	if (j->rc < 0)
		snprintf(j->err, sizeof(j->err), "%s", rung_error_last()); /* the message is per thread */
	return NULL;
}

int rung_sass_normalize_pair(rung_sass *a, rung_sass *b, const char *la, const char *lb, unsigned flags)
{
	memset(a, 0, sizeof(*a));
	memset(b, 0, sizeof(*b));
	norm_job jb = {.out = b, .listing = lb, .flags = flags};
	pthread_t th;
	bool threaded = pthread_create(&th, NULL, norm_thread, &jb) == 0;
	int ra = rung_sass_normalize(a, la, flags);
	if (threaded)
		pthread_join(th, NULL);
	else
		norm_thread(&jb);
	if (ra < 0 || jb.rc < 0) {
		int rc = ra < 0 ? ra : rung_error_set(jb.rc, "%s", jb.err);
		if (ra == 0)
			rung_sass_clear(a);
		if (jb.rc == 0)
			rung_sass_clear(b);
		return rc;
	}
	return 0;
}
