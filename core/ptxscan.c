/* PTX evidence scan (core/ptxscan.h). The PTX is cut into statements (';' ends
 * one; '{' and '}' open and close function bodies, except in an initializer),
 * module-scope statements declare the .global variables and the .extern
 * functions, and each function body is analysed on its own: a register holds
 * the address of a global when any instruction computes it from one (mov,
 * cvta, add, mad, ... of the symbol or of such a register; a load's result
 * does not), found flow-insensitively to a fixed point. Then a memory write
 * whose address operand mentions the symbol or such a register writes the
 * global, and such a register stored as a value or passed to a function lets
 * the address escape. Conservative by design: a flag is evidence for a person
 * to look at, not a failure. */
#include "core/ptxscan.h"

#include <ctype.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

/* ---- identifiers ---------------------------------------------------------- */

typedef struct {
	char **names; /* by id */
	int *gidx;    /* by id: index of the .global it names, or -1 */
	int n, cap;
	int *slots; /* hash table of ids (-1 empty) */
	size_t nslots;
} idtab;

static uint64_t hash_str(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static int idtab_grow(idtab *t)
{
	size_t ns = t->nslots ? t->nslots * 2 : 1024;
	int *slots = malloc(ns * sizeof(int));
	if (!slots)
		return RUNG_ENOMEM;
	for (size_t i = 0; i < ns; i++)
		slots[i] = -1;
	for (int id = 0; id < t->n; id++) {
		size_t h = hash_str(t->names[id], strlen(t->names[id])) & (ns - 1);
		while (slots[h] >= 0)
			h = (h + 1) & (ns - 1);
		slots[h] = id;
	}
	free(t->slots);
	t->slots = slots;
	t->nslots = ns;
	return 0;
}

/* The id of s[0..n), added when new; negative on ENOMEM. */
static int idtab_get(idtab *t, const char *s, size_t n)
{
	if ((size_t)t->n * 2 >= t->nslots && idtab_grow(t) < 0)
		return RUNG_ENOMEM;
	size_t h = hash_str(s, n) & (t->nslots - 1);
	for (; t->slots[h] >= 0; h = (h + 1) & (t->nslots - 1)) {
		const char *k = t->names[t->slots[h]];
		if (strncmp(k, s, n) == 0 && k[n] == 0)
			return t->slots[h];
	}
	if (t->n == t->cap) {
		int cap = t->cap ? t->cap * 2 : 512;
		char **nn = realloc(t->names, (size_t)cap * sizeof(char *));
		if (!nn)
			return RUNG_ENOMEM;
		t->names = nn;
		int *ng = realloc(t->gidx, (size_t)cap * sizeof(int));
		if (!ng)
			return RUNG_ENOMEM;
		t->gidx = ng;
		t->cap = cap;
	}
	char *k = malloc(n + 1);
	if (!k)
		return RUNG_ENOMEM;
	memcpy(k, s, n);
	k[n] = 0;
	t->names[t->n] = k;
	t->gidx[t->n] = -1;
	t->slots[h] = t->n;
	return t->n++;
}

static void idtab_free(idtab *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t->gidx);
	free(t->slots);
}

static bool id_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '$' || c == '%';
}

static bool id_char(char c)
{
	return id_start(c) || (c >= '0' && c <= '9');
}

/* ---- the scan's state ------------------------------------------------------- */

enum { I_GEN, I_WRITE, I_CALL };

typedef struct {
	int kind;
	bool param;   /* I_WRITE: st.param (an argument of the next call) */
	bool ro_call; /* I_CALL: the callee only reads its pointer arguments */
	int dst, ndst, src, nsrc, addr, naddr; /* ranges of the id pool */
} instr;

typedef struct {
	char name[128];
	bool written, escapes, literal;
} global;

typedef struct {
	idtab ids;
	global *g;
	int ng, gcap;
	/* the function being read */
	instr *in;
	int nin, incap;
	int *pool;
	int npool, poolcap;
	bool mentions; /* the function names a global */
	rung_ptxscan *out;
	int err;
} scan;

static const char *const heap_fns[] = {"malloc", "free", "__nv_aligned_device_malloc", "__cuda_syscall_aligned_malloc"};
static const char *const launch_fns[] = {"cudaLaunchDeviceV2", "cudaLaunchDevice", "cudaGetParameterBufferV2",
					 "cudaGetParameterBuffer", "cudaStreamCreateWithFlags"};
/* Callees that only read what their pointer arguments point at. */
static const char *const ro_fns[] = {"vprintf", "__assertfail"};
/* First opcode components whose memory operands are only read. */
static const char *const ro_ops[] = {"ld",   "ldu",  "ldmatrix", "prefetch", "prefetchu", "applypriority", "tex",
				     "tld4", "txq",  "suld",     "suq",      "createpolicy", "isspacep"};

static bool in_list(const char *const *list, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(list[i]) == len && strncmp(list[i], s, len) == 0)
			return true;
	return false;
}
#define IN_LIST(l, s, n) in_list(l, sizeof(l) / sizeof(l[0]), s, n)

static void note_call(scan *S, const char *name, size_t n)
{
	if (IN_LIST(heap_fns, name, n) && !S->out->heap_fn[0])
		snprintf(S->out->heap_fn, sizeof S->out->heap_fn, "%.*s", (int)n, name);
	if (IN_LIST(launch_fns, name, n) && !S->out->launch_fn[0])
		snprintf(S->out->launch_fn, sizeof S->out->launch_fn, "%.*s", (int)n, name);
}

static int pool_push(scan *S, int id)
{
	if (S->npool == S->poolcap) {
		int cap = S->poolcap ? S->poolcap * 2 : 4096;
		int *p = realloc(S->pool, (size_t)cap * sizeof(int));
		if (!p)
			return S->err = RUNG_ENOMEM;
		S->pool = p;
		S->poolcap = cap;
	}
	S->pool[S->npool++] = id;
	return 0;
}

/* Pushes the ids of the identifiers in s[0..n) (registers, symbols; numbers
 * and dotted suffixes such as %tid.x skipped); returns how many. */
static int push_ids(scan *S, const char *s, size_t n)
{
	int k = 0;
	for (size_t i = 0; i < n && !S->err;) {
		if (id_start(s[i])) {
			size_t j = i;
			while (j < n && id_char(s[j]))
				j++;
			int id = idtab_get(&S->ids, s + i, j - i);
			if (id < 0) {
				S->err = id;
				return k;
			}
			if (S->ids.gidx[id] >= 0)
				S->mentions = true;
			if (pool_push(S, id) == 0)
				k++;
			i = j;
			while (i < n && s[i] == '.') /* %tid.x, %ctaid.y */
				for (i++; i < n && id_char(s[i]); i++)
					;
		} else if (s[i] >= '0' && s[i] <= '9') {
			while (i < n && (id_char(s[i]) || s[i] == '.'))
				i++;
		} else {
			i++;
		}
	}
	return k;
}

/* ---- statements ---------------------------------------------------------------- */

typedef struct {
	const char *p;
	size_t n;
} span;

/* Splits s at top-level commas (outside (), [] and {}); returns the count. */
static int split_operands(span *ops, int max, const char *s, size_t n)
{
	int k = 0, depth = 0;
	size_t start = 0;
	for (size_t i = 0; i <= n; i++) {
		char c = i < n ? s[i] : ',';
		if (c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		else if (c == ',' && depth == 0) {
			size_t a = start, b = i;
			while (a < b && s[a] == ' ')
				a++;
			while (b > a && s[b - 1] == ' ')
				b--;
			if (k < max && b > a)
				ops[k++] = (span){s + a, b - a};
			start = i + 1;
		}
	}
	return k;
}

static int add_global(scan *S, const char *name, size_t n)
{
	int id = idtab_get(&S->ids, name, n);
	if (id < 0)
		return S->err = id;
	if (S->ids.gidx[id] >= 0)
		return 0; /* .extern then defined */
	if (S->ng == S->gcap) {
		int cap = S->gcap ? S->gcap * 2 : 16;
		global *g = realloc(S->g, (size_t)cap * sizeof(global));
		if (!g)
			return S->err = RUNG_ENOMEM;
		S->g = g;
		S->gcap = cap;
	}
	global *g = &S->g[S->ng];
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof g->name, "%.*s", (int)n, name);
	g->literal = n >= 4 && strncmp(name, "$str", 4) == 0; /* a string literal the compiler named */
	S->ids.gidx[id] = S->ng++;
	return 0;
}

static bool has_sub(const char *s, size_t n, const char *w)
{
	size_t wl = strlen(w);
	for (size_t i = 0; i + wl <= n; i++)
		if (strncmp(s + i, w, wl) == 0)
			return true;
	return false;
}

static bool has_word(const char *s, size_t n, const char *w)
{
	size_t wl = strlen(w);
	for (size_t i = 0; i + wl <= n; i++)
		if (strncmp(s + i, w, wl) == 0 && (i == 0 || s[i - 1] == ' ') && (i + wl == n || !id_char(s[i + wl])))
			return true;
	return false;
}

/* A statement at module scope: .global declarations, .extern .func
 * declarations, initializers that take a global's address. */
static void module_stmt(scan *S, const char *s, size_t n)
{
	const char *eq = memchr(s, '=', n);
	size_t head = eq ? (size_t)(eq - s) : n;
	if (eq) { /* .global .u64 p = generic(cache): cache's address escapes */
		for (size_t i = head + 1; i < n;) {
			if (!id_start(s[i])) {
				i++;
				continue;
			}
			size_t j = i;
			while (j < n && id_char(s[j]))
				j++;
			int id = idtab_get(&S->ids, s + i, j - i);
			if (id < 0) {
				S->err = id;
				return;
			}
			if (S->ids.gidx[id] >= 0)
				S->g[S->ids.gidx[id]].escapes = true;
			i = j;
		}
	}
	if (has_word(s, head, ".func")) {
		const char *f = strstr(s, ".func");
		size_t i = (size_t)(f - s) + 5;
		while (i < head && s[i] == ' ')
			i++;
		if (i < head && s[i] == '(') { /* (.param .b64 func_retval0) */
			int d = 0;
			for (; i < head; i++) {
				d += s[i] == '(';
				if (s[i] == ')' && --d == 0) {
					i++;
					break;
				}
			}
			while (i < head && s[i] == ' ')
				i++;
		}
		size_t j = i;
		while (j < head && id_char(s[j]))
			j++;
		if (j > i && has_word(s, head, ".extern"))
			note_call(S, s + i, j - i);
		return;
	}
	if (has_word(s, head, ".entry")) /* a kernel's header: its .param may say .ptr .global */
		return;
	if (!has_word(s, head, ".global") || has_word(s, head, ".texref") || has_word(s, head, ".samplerref") ||
	    has_word(s, head, ".surfref"))
		return;
	/* names: the tokens that are not directives (.align 4 .b8), numbers, or in [] () */
	for (size_t i = 0; i < head && !S->err;) {
		char c = s[i];
		if (c == '[' || c == '(') {
			char close = c == '[' ? ']' : ')';
			while (i < head && s[i] != close)
				i++;
			i++;
		} else if (c == '.') {
			while (i < head && (id_char(s[i]) || s[i] == '.'))
				i++;
			if (i < head && s[i] == '(') /* .attribute(.managed) */
				continue;
		} else if (c >= '0' && c <= '9') {
			while (i < head && id_char(s[i]))
				i++;
		} else if (id_start(c)) {
			size_t j = i;
			while (j < head && id_char(s[j]))
				j++;
			add_global(S, s + i, j - i);
			i = j;
		} else {
			i++;
		}
	}
}

/* An instruction inside a function body. */
static void func_stmt(scan *S, const char *s, size_t n)
{
	size_t i = 0;
	/* labels: "$L__BB0_2: ..." */
	for (;;) {
		size_t j = i;
		while (j < n && id_char(s[j]))
			j++;
		if (j > i && j < n && s[j] == ':' && (j + 1 >= n || s[j + 1] != ':')) {
			i = j + 1;
			while (i < n && s[i] == ' ')
				i++;
			continue;
		}
		break;
	}
	if (i < n && s[i] == '@') { /* guard predicate */
		while (i < n && s[i] != ' ')
			i++;
		while (i < n && s[i] == ' ')
			i++;
	}
	if (i >= n || s[i] == '.' || !id_start(s[i]))
		return; /* a directive (.reg, .local, .shared, .param, .loc, .pragma) */
	size_t op = i;
	while (i < n && s[i] != ' ')
		i++;
	size_t oplen = i - op, first = 0;
	while (first < oplen && s[op + first] != '.')
		first++;
	span ops[64];
	int nops = split_operands(ops, 64, s + i, n - i);

	if (S->nin == S->incap) {
		int cap = S->incap ? S->incap * 2 : 1024;
		instr *in = realloc(S->in, (size_t)cap * sizeof(instr));
		if (!in) {
			S->err = RUNG_ENOMEM;
			return;
		}
		S->in = in;
		S->incap = cap;
	}
	instr *I = &S->in[S->nin];
	memset(I, 0, sizeof(*I));

	if (first == 4 && strncmp(s + op, "call", 4) == 0) {
		int c = 0;
		while (c < nops && ops[c].p[0] == '(')
			c++;
		if (c >= nops)
			return;
		size_t cl = 0;
		while (cl < ops[c].n && id_char(ops[c].p[cl]))
			cl++;
		note_call(S, ops[c].p, cl);
		I->kind = I_CALL;
		I->ro_call = IN_LIST(ro_fns, ops[c].p, cl);
		S->nin++;
		return;
	}
	if (in_list(ro_ops, sizeof ro_ops / sizeof ro_ops[0], s + op, first) ||
	    (oplen >= 9 && strncmp(s + op, "wmma.load", 9) == 0) ||
	    (oplen >= 18 && strncmp(s + op, "multimem.ld_reduce", 18) == 0) ||
	    (oplen >= 22 && strncmp(s + op, "cp.async.bulk.prefetch", 22) == 0))
		return; /* reads memory; what it loads is not an address of a global */
	int b = 0;
	while (b < nops && ops[b].p[0] != '[')
		b++;
	if (b < nops) { /* writes memory at its first [address] */
		I->kind = I_WRITE;
		I->param = first == 2 && strncmp(s + op, "st", 2) == 0 && has_sub(s + op, oplen, ".param");
		I->addr = S->npool;
		I->naddr = push_ids(S, ops[b].p, ops[b].n);
		I->src = S->npool;
		for (int k = b + 1; k < nops; k++)
			if (ops[k].p[0] != '[') /* a second [address] (cp.async's source) is read */
				I->nsrc += push_ids(S, ops[k].p, ops[k].n);
	} else { /* d, a, b, ...: d gets what its sources hold */
		if (nops < 2)
			return;
		I->kind = I_GEN;
		I->dst = S->npool;
		I->ndst = push_ids(S, ops[0].p, ops[0].n);
		I->src = S->npool;
		for (int k = 1; k < nops; k++)
			I->nsrc += push_ids(S, ops[k].p, ops[k].n);
	}
	if (!S->err)
		S->nin++;
}

/* ---- one function's analysis --------------------------------------------------- */

static void taint_of(uint64_t *acc, const scan *S, const uint64_t *taint, int nw, int off, int cnt)
{
	for (int k = 0; k < cnt; k++) {
		int id = S->pool[off + k];
		for (int w = 0; w < nw; w++)
			acc[w] |= taint[(size_t)id * nw + w];
		int g = S->ids.gidx[id];
		if (g >= 0)
			acc[g / 64] |= 1ull << (g % 64);
	}
}

static void end_function(scan *S)
{
	if (S->mentions && S->ng > 0 && !S->err) {
		int nw = (S->ng + 63) / 64;
		uint64_t *taint = calloc((size_t)S->ids.n * nw, sizeof(uint64_t));
		uint64_t *acc = calloc((size_t)nw * 2, sizeof(uint64_t)), *pending = acc ? acc + nw : NULL;
		if (!taint || !acc) {
			S->err = RUNG_ENOMEM;
		} else {
			for (bool changed = true; changed;) {
				changed = false;
				for (int k = 0; k < S->nin; k++) {
					const instr *I = &S->in[k];
					if (I->kind != I_GEN)
						continue;
					memset(acc, 0, (size_t)nw * sizeof(uint64_t));
					taint_of(acc, S, taint, nw, I->src, I->nsrc);
					for (int d = 0; d < I->ndst; d++) {
						uint64_t *t = &taint[(size_t)S->pool[I->dst + d] * nw];
						for (int w = 0; w < nw; w++)
							if ((t[w] | acc[w]) != t[w]) {
								t[w] |= acc[w];
								changed = true;
							}
					}
				}
			}
			for (int k = 0; k < S->nin; k++) {
				const instr *I = &S->in[k];
				if (I->kind == I_WRITE) {
					memset(acc, 0, (size_t)nw * sizeof(uint64_t));
					taint_of(acc, S, taint, nw, I->addr, I->naddr);
					for (int g = 0; g < S->ng; g++)
						if (acc[g / 64] >> (g % 64) & 1)
							S->g[g].written = true;
					memset(acc, 0, (size_t)nw * sizeof(uint64_t));
					taint_of(acc, S, taint, nw, I->src, I->nsrc);
					for (int w = 0; w < nw; w++)
						if (I->param)
							pending[w] |= acc[w];
					for (int g = 0; !I->param && g < S->ng; g++)
						if (acc[g / 64] >> (g % 64) & 1 && !S->g[g].literal)
							S->g[g].escapes = true;
				} else if (I->kind == I_CALL) {
					for (int g = 0; !I->ro_call && g < S->ng; g++)
						if (pending[g / 64] >> (g % 64) & 1 && !S->g[g].literal)
							S->g[g].escapes = true;
					memset(pending, 0, (size_t)nw * sizeof(uint64_t));
				}
			}
		}
		free(taint);
		free(acc);
	}
	S->nin = 0;
	S->npool = 0;
	S->mentions = false;
}

/* ---- the lexer --------------------------------------------------------------------- */

typedef struct {
	char *p;
	size_t n, cap;
} sbuf;

static int sb_put(sbuf *b, char c)
{
	if (c == '\n' || c == '\t' || c == '\r')
		c = ' ';
	if (c == ' ' && (b->n == 0 || b->p[b->n - 1] == ' '))
		return 0;
	if (b->n + 1 >= b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		char *p = realloc(b->p, cap);
		if (!p)
			return RUNG_ENOMEM;
		b->p = p;
		b->cap = cap;
	}
	b->p[b->n++] = c;
	return 0;
}

static void emit(scan *S, sbuf *b, int depth)
{
	size_t n = b->n;
	while (n && b->p[n - 1] == ' ')
		n--;
	if (n) {
		b->p[n] = 0;
		if (depth == 0)
			module_stmt(S, b->p, n);
		else
			func_stmt(S, b->p, n);
	}
	b->n = 0;
}

/* Directives that end at the end of their line, without a ';' (-lineinfo puts
 * a .loc before most instructions: read on, it would swallow the next one). */
static bool line_directive(const sbuf *b)
{
	static const char *const names[] = {".loc", ".file", ".version", ".target", ".address_size"};
	size_t i = 0;
	while (i < b->n && (b->p[i] == ' ' || b->p[i] == '\t' || b->p[i] == '\n' || b->p[i] == '\r'))
		i++;
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		size_t l = strlen(names[k]);
		if (b->n - i > l && !strncmp(b->p + i, names[k], l) && (b->p[i + l] == ' ' || b->p[i + l] == '\t'))
			return true;
	}
	return false;
}

int rung_ptxscan_text(rung_ptxscan *out, const char *ptx, size_t len)
{
	if (!out || !ptx)
		return rung_error_set(RUNG_EINVAL, "ptxscan: no PTX");
	memset(out, 0, sizeof(*out));
	scan S;
	memset(&S, 0, sizeof(S));
	S.out = out;
	sbuf b = {0};
	int depth = 0, init = 0;
	for (size_t i = 0; i < len && ptx[i] && !S.err; i++) {
		char c = ptx[i];
		if (c == '/' && i + 1 < len && ptx[i + 1] == '/') {
			while (i + 1 < len && ptx[i + 1] != '\n')
				i++;
			S.err = sb_put(&b, ' ');
		} else if (c == '/' && i + 1 < len && ptx[i + 1] == '*') {
			for (i += 2; i + 1 < len && !(ptx[i] == '*' && ptx[i + 1] == '/'); i++)
				;
			i++;
			S.err = sb_put(&b, ' ');
		} else if (c == '"') {
			S.err = sb_put(&b, c);
			for (i++; i < len && ptx[i] != '"' && !S.err; i++) {
				if (ptx[i] == '\\' && i + 1 < len)
					S.err = sb_put(&b, ptx[i++]);
				S.err = S.err ? S.err : sb_put(&b, ptx[i]);
			}
			S.err = S.err ? S.err : sb_put(&b, '"');
		} else if (c == '\n' && !init && line_directive(&b)) {
			emit(&S, &b, depth); /* .loc 1 40 3 ends at its line: no ';' */
		} else if (c == ';' && !init) {
			emit(&S, &b, depth);
		} else if (c == '{' && (init || (b.n && (depth > 0 || memchr(b.p, '=', b.n))))) {
			init++; /* an initializer (= {1, 2, 3}) or a vector operand ({%r1, %r2}) */
			S.err = sb_put(&b, c);
		} else if (c == '}' && init) {
			init--;
			S.err = sb_put(&b, c);
		} else if (c == '{') {
			emit(&S, &b, depth); /* a function header, or nothing (a nested block) */
			depth++;
		} else if (c == '}') {
			emit(&S, &b, depth);
			if (depth > 0 && --depth == 0)
				end_function(&S);
		} else {
			S.err = sb_put(&b, c);
		}
	}
	if (!S.err)
		emit(&S, &b, depth);
	for (int g = 0; g < S.ng && !S.err; g++) {
		global *G = &S.g[g];
		if (!(G->written || G->escapes) || !strcmp(G->name, "__rung_trace"))
			continue;
		if (out->nmutable < RUNG_PTXSCAN_MAX_GLOBALS) {
			rung_ptx_global *m = &out->mutables[out->nmutable];
			snprintf(m->name, sizeof m->name, "%s", G->name);
			m->written = G->written;
			m->escapes = G->escapes;
		}
		out->nmutable++;
	}
	int err = S.err;
	free(b.p);
	free(S.g);
	free(S.in);
	free(S.pool);
	idtab_free(&S.ids);
	if (err)
		return rung_error_set(err, "ptxscan: out of memory");
	return 0;
}

/* ---- suspects --------------------------------------------------------------------- */

/* Reads "<len><id>" at *p; returns the id's length (0 when not one). */
static size_t source_name(const char **p, const char **id)
{
	size_t len = 0;
	const char *q = *p;
	while (*q >= '0' && *q <= '9' && len < 1000)
		len = len * 10 + (size_t)(*q++ - '0');
	if (!len || strnlen(q, len) < len)
		return 0;
	*id = q;
	*p = q + len;
	return len;
}

/* The C++ name of a mangled variable where it is a plain one: _ZN2ns5callsE
 * -> "ns::calls", _ZZ1kPfE5count -> "k::count" (a static local of k); else
 * the name as it is. */
static void display_name(char *out, size_t n, const char *m)
{
	snprintf(out, n, "%s", m);
	const char *p = m, *id;
	size_t len, o = 0;
	char buf[128];
	if (!strncmp(m, "_ZN", 3)) {
		for (p = m + 3; *p && *p != 'E';) {
			if (!(len = source_name(&p, &id)) || o + len + 3 >= sizeof buf)
				return;
			o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%.*s", o ? "::" : "", (int)len, id);
		}
		if (*p == 'E' && !p[1] && o)
			snprintf(out, n, "%s", buf);
	} else if (!strncmp(m, "_ZZ", 3)) {
		p = m + 3;
		if (!(len = source_name(&p, &id)))
			return;
		o = (size_t)snprintf(buf, sizeof buf, "%.*s::", (int)(len > 60 ? 60 : len), id);
		const char *e = strrchr(p, 'E');
		if (!e)
			return;
		p = e + 1;
		if ((len = source_name(&p, &id)) && (!*p || *p == '_') && o + len < sizeof buf) {
			snprintf(buf + o, sizeof buf - o, "%.*s", (int)len, id);
			snprintf(out, n, "%s", buf);
		}
	}
}

int rung_ptxscan_add_suspects(rung_result *r, const rung_ptxscan *s)
{
	int found = 0;
	if (s->nmutable > 0) {
		/* the reason holds 255 bytes: 66 of them are the words around the list */
		char list[190];
		size_t n = 0;
		int shown = 0, kept = s->nmutable < RUNG_PTXSCAN_MAX_GLOBALS ? s->nmutable : RUNG_PTXSCAN_MAX_GLOBALS;
		for (int k = 0; k < kept; k++) {
			const rung_ptx_global *g = &s->mutables[k];
			char one[200], name[128];
			display_name(name, sizeof name, g->name);
			snprintf(one, sizeof one, "%s'%.60s' (%s)", k ? ", " : "", name,
				 g->written ? "written by the kernel" : "its address escapes: it may be written through a pointer");
			if (n + strlen(one) + (k + 1 < s->nmutable ? 14 : 0) >= sizeof list) /* " and 99 more" */
				break;
			n += (size_t)snprintf(list + n, sizeof list - n, "%s", one);
			shown++;
		}
		if (shown < s->nmutable)
			snprintf(list + n, sizeof list - n, " and %d more", s->nmutable - shown);
		rung_result_add_suspect(r, RUNG_SUSPECT_MUTABLE_GLOBAL,
					"mutable __device__ global%s %s: state can carry over between launches",
					s->nmutable > 1 ? "s" : "", list);
		found++;
	}
	if (s->heap_fn[0]) {
		rung_result_add_suspect(r, RUNG_SUSPECT_DEVICE_MALLOC,
					"device-side %s in the PTX: the device heap keeps state between launches",
					s->heap_fn);
		found++;
	}
	if (s->launch_fn[0]) {
		rung_result_add_suspect(r, RUNG_SUSPECT_DEVICE_LAUNCH,
					"device-side launch (%s in the PTX): kernels started from the device may run "
					"outside the timed launch",
					s->launch_fn);
		found++;
	}
	return found;
}

int rung_ptxscan_result(rung_result *r, const char *ptx, size_t len)
{
	rung_ptxscan s;
	int e = rung_ptxscan_text(&s, ptx, len);
	return e < 0 ? e : rung_ptxscan_add_suspects(r, &s);
}

/* ---- kernel parameters ---------------------------------------------------- */

static bool ptx_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$';
}

static bool ptx_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* p at a "//" or a slash-star comment: the first byte after it. */
static const char *skip_comment(const char *p, const char *end)
{
	if (p[1] == '/') {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		return nl ? nl + 1 : end;
	}
	for (p += 2; p + 1 < end; p++)
		if (p[0] == '*' && p[1] == '/')
			return p + 2;
	return end;
}

/* True when p starts the directive `word` (".entry", ".param") as a whole token. */
static bool at_directive(const char *p, const char *end, const char *start, const char *word)
{
	size_t n = strlen(word);
	return (size_t)(end - p) > n && memcmp(p, word, n) == 0 && !ptx_ident_char(p[n]) &&
	       (p == start || !ptx_ident_char(p[-1]));
}

int rung_ptx_entry_params(int *n, const char *ptx, size_t len, const char *entry)
{
	*n = 0;
	if (!ptx || !entry || !*entry)
		return rung_error_set(RUNG_EINVAL, "rung_ptx_entry_params: PTX and entry are required");
	size_t el = strlen(entry);
	const char *end = ptx + len;
	for (const char *p = ptx; p < end;) {
		if (p + 1 < end && p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
			p = skip_comment(p, end);
			continue;
		}
		if (*p != '.' || !at_directive(p, end, ptx, ".entry")) {
			p++;
			continue;
		}
		const char *q = p + 6;
		while (q < end && ptx_space(*q))
			q++;
		if ((size_t)(end - q) < el || memcmp(q, entry, el) != 0 || (q + el < end && ptx_ident_char(q[el]))) {
			p = q;
			continue;
		}
		for (q += el; q < end && ptx_space(*q); q++)
			;
		if (q >= end || *q != '(')
			return 0; /* no parameter list: no parameters */
		int count = 0;
		for (q++; q < end && *q != ')'; q++)
			if (*q == '.' && at_directive(q, end, ptx, ".param"))
				count++;
		if (q >= end)
			return rung_error_set(RUNG_EINVAL, "PTX: the parameter list of .entry %s has no end", entry);
		*n = count;
		return 0;
	}
	return rung_error_set(RUNG_ENOTFOUND, "PTX: no .entry %s", entry);
}

/* ---- entries and their parameter lists (PTX kernels committed as they are) ---- */

/* p after ".entry": the name's start and length; 0 when there is none. */
static size_t entry_name(const char **name, const char *p, const char *end)
{
	while (p < end && ptx_space(*p))
		p++;
	const char *s = p;
	while (p < end && ptx_ident_char(*p))
		p++;
	*name = s;
	return (size_t)(p - s);
}

int rung_ptx_entry_names(char *buf, size_t len, int *count, const char *ptx, size_t plen)
{
	if (len)
		buf[0] = 0;
	if (count)
		*count = 0;
	if (!ptx)
		return rung_error_set(RUNG_EINVAL, "rung_ptx_entry_names: PTX is required");
	size_t used = 0;
	const char *end = ptx + plen;
	for (const char *p = ptx; p < end;) {
		if (p + 1 < end && p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
			p = skip_comment(p, end);
			continue;
		}
		if (*p != '.' || !at_directive(p, end, ptx, ".entry")) {
			p++;
			continue;
		}
		const char *name;
		size_t nl = entry_name(&name, p + 6, end);
		p = name + nl;
		if (!nl)
			continue;
		if (count)
			(*count)++;
		if (len && used < len - 1) {
			int w = snprintf(buf + used, len - used, "%s%.*s", used ? ", " : "", (int)nl, name);
			used = w < 0 ? len - 1 : used + (size_t)w >= len ? len - 1 : used + (size_t)w;
		}
	}
	return 0;
}

/* Bytes of a PTX parameter type: ".u64" 8, ".b8" 1, ".f16x2" 4; 0 when unknown. */
static int64_t type_bytes(const char *t, size_t n)
{
	if (n < 3 || t[0] != '.')
		return 0;
	if (n == 5 && !memcmp(t, ".pred", 5))
		return 0;
	if (!strchr("usbf", t[1]))
		return 0;
	int64_t bits = 0;
	size_t i = 2;
	for (; i < n && t[i] >= '0' && t[i] <= '9'; i++)
		bits = bits * 10 + (t[i] - '0');
	if (i + 2 < n + 1 && i < n && t[i] == 'x') /* .f16x2 */
		bits *= atoi(t + i + 1);
	return bits >= 8 && bits % 8 == 0 ? bits / 8 : 0;
}

int rung_ptx_entry_info(rung_ptx_entry *out, const char *ptx, size_t len, const char *entry)
{
	memset(out, 0, sizeof(*out));
	if (!ptx || !entry || !*entry)
		return rung_error_set(RUNG_EINVAL, "rung_ptx_entry_info: PTX and entry are required");
	size_t el = strlen(entry);
	const char *end = ptx + len;
	for (const char *p = ptx; p < end;) {
		if (p + 1 < end && p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
			p = skip_comment(p, end);
			continue;
		}
		if (*p != '.' || !at_directive(p, end, ptx, ".entry")) {
			p++;
			continue;
		}
		const char *name;
		size_t nl = entry_name(&name, p + 6, end);
		p = name + nl;
		if (nl != el || memcmp(name, entry, el) != 0)
			continue;
		const char *q = p;
		while (q < end && ptx_space(*q))
			q++;
		if (q < end && *q == '(') {
			for (q++; q < end && *q != ')';) {
				if (q + 1 < end && q[0] == '/' && (q[1] == '/' || q[1] == '*')) {
					q = skip_comment(q, end);
					continue;
				}
				if (*q != '.' || !at_directive(q, end, ptx, ".param")) {
					q++;
					continue;
				}
				/* one parameter: ".param .u64 .ptr .global .align 1 name" or
				 * ".param .align 8 .b8 name[16]", up to ',' or ')' */
				int64_t tb = 0, count = 1;
				for (q += 6; q < end && *q != ',' && *q != ')';) {
					if (*q == '.') {
						const char *t = q;
						while (q < end && (*q == '.' || ptx_ident_char(*q)))
							q++;
						if (!tb && (size_t)(q - t) >= 3 && strncmp(t, ".align", 6) && strncmp(t, ".ptr", 4) &&
						    strncmp(t, ".global", 7) && strncmp(t, ".const", 6) && strncmp(t, ".shared", 7) &&
						    strncmp(t, ".local", 6))
							tb = type_bytes(t, (size_t)(q - t));
					} else if (*q == '[') {
						count = atoll(q + 1);
						q++;
					} else {
						q++;
					}
				}
				if (out->nparams < RUNG_PTX_MAX_PARAMS)
					out->size[out->nparams] = tb * (count > 0 ? count : 1);
				out->nparams++;
			}
			if (q >= end)
				return rung_error_set(RUNG_EINVAL, "PTX: the parameter list of .entry %s has no end", entry);
			q++;
		}
		/* performance directives up to the body: .maxntid, .reqntid, .maxnreg */
		for (; q < end && *q != '{'; q++) {
			int *dst = NULL;
			if (*q == '.' && at_directive(q, end, ptx, ".reqntid"))
				dst = out->reqntid, q += 8;
			else if (*q == '.' && at_directive(q, end, ptx, ".maxntid"))
				dst = out->maxntid, q += 8;
			if (!dst)
				continue;
			for (int k = 0; k < 3; k++)
				dst[k] = 1;
			for (int k = 0; k < 3 && q < end; k++) {
				while (q < end && ptx_space(*q))
					q++;
				dst[k] = atoi(q);
				while (q < end && *q >= '0' && *q <= '9')
					q++;
				while (q < end && ptx_space(*q))
					q++;
				if (q >= end || *q != ',')
					break;
				q++;
			}
			q--;
		}
		return 0;
	}
	return rung_error_set(RUNG_ENOTFOUND, "PTX: no .entry %s", entry);
}

bool rung_text_uses_mma(const char *text)
{
	static const char *const pat[] = {"mma.sync", "wgmma.", "wmma.", "wmma::", "mma_sync", "tcgen05.mma", "HMMA.", "IMMA.", "HGMMA."};
	for (size_t k = 0; text && k < sizeof(pat) / sizeof(pat[0]); k++)
		if (strstr(text, pat[k]))
			return true;
	return false;
}

/* The source with comments, string and character literals blanked (same length). */
static char *blank_comments(const char *src)
{
	size_t n = strlen(src);
	char *b = malloc(n + 1);
	if (!b)
		return NULL;
	memcpy(b, src, n + 1);
	for (size_t i = 0; i < n; i++) {
		if (b[i] == '/' && b[i + 1] == '/') {
			while (i < n && b[i] != '\n')
				b[i++] = ' ';
		} else if (b[i] == '/' && b[i + 1] == '*') {
			b[i] = b[i + 1] = ' ';
			for (i += 2; i < n && !(b[i] == '*' && b[i + 1] == '/'); i++)
				if (b[i] != '\n')
					b[i] = ' ';
			if (i < n)
				b[i] = b[i + 1] = ' ', i++;
		} else if (b[i] == '"' || b[i] == '\'') {
			char q = b[i];
			b[i] = ' ';
			for (i++; i < n && b[i] != q && b[i] != '\n'; i++) {
				if (b[i] == '\\' && i + 1 < n)
					b[i++] = ' ';
				b[i] = ' ';
			}
			if (i < n && b[i] == q)
				b[i] = ' ';
		}
	}
	return b;
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

int rung_cuda_kernel_names(char *buf, size_t len, const char *src)
{
	if (len)
		buf[0] = 0;
	char *b = src ? blank_comments(src) : NULL;
	if (!b)
		return 0;
	int count = 0;
	size_t o = 0;
	static const char kw[] = "__global__";
	for (char *p = b; (p = strstr(p, kw)) != NULL; p += sizeof(kw) - 1) {
		if ((p > b && ident_char(p[-1])) || ident_char(p[sizeof(kw) - 1]))
			continue;
		/* the identifier right before the first '(' outside <...>, before any ';'
		 * or '{', that is not an attribute's (__launch_bounds__(256), ...) */
		int depth = 0;
		char *q = p + sizeof(kw) - 1, *s = NULL, *e = NULL;
		for (; *q && *q != ';' && *q != '{'; q++) {
			if (*q != '(' || depth) {
				depth += *q == '<' ? 1 : *q == '>' && depth > 0 ? -1 : 0;
				continue;
			}
			e = q;
			while (e > p && isspace((unsigned char)e[-1]))
				e--;
			s = e;
			while (s > p && ident_char(s[-1]))
				s--;
			size_t k = (size_t)(e - s);
			bool attr = (k > 4 && !strncmp(s, "__", 2) && !strncmp(e - 2, "__", 2)) || (k == 7 && !strncmp(s, "alignas", 7));
			if (!attr)
				break;
			int par = 0; /* past the attribute's arguments */
			for (; *q; q++) {
				par += *q == '(' ? 1 : *q == ')' ? -1 : 0;
				if (par == 0)
					break;
			}
			s = e = NULL;
			if (!*q)
				break;
		}
		if (*q != '(' || !s || s == e || isdigit((unsigned char)*s))
			continue;
		char name[128];
		snprintf(name, sizeof(name), "%.*s", (int)(e - s), s);
		/* each once */
		bool seen = false;
		for (const char *t = buf; len && *t && !seen;) {
			size_t k = strcspn(t, ",");
			seen = k == strlen(name) && !strncmp(t, name, k);
			t += k;
			while (*t == ',' || *t == ' ')
				t++;
		}
		if (seen)
			continue;
		count++;
		if (len && o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", name);
	}
	free(b);
	return count;
}
