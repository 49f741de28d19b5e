/* The SASS diff by basic block (core/sass_diff.h). Four steps: each line is
 * read once into its shape (the text with every register, predicate, barrier
 * and label number replaced by '#', hashed), its opcode and its numbered
 * tokens; the lines are cut into blocks; the blocks are aligned by signature
 * (the hash of their opcode sequence); then each region (an aligned pair of
 * blocks, or the blocks between two aligned pairs) is aligned line by line on
 * shapes, and the lines that align are the same when their tokens map through
 * the renaming voted in that region. */
#include "core/sass_diff.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

/* Token classes: what a number names. */
enum { TOK_R, TOK_UR, TOK_P, TOK_UP, TOK_B, TOK_LABEL };

/* Numbers above this are folded to it: they still compare, never overflow. */
#define NUM_MAX ((1L << 30) - 1)

/* A token: its number (30 bits), its class (bits 32..34), whether the line
 * writes it (bit 35: in the first operand, outside brackets). */
#define NUM_MASK 0x3fffffffULL
#define TOK_CLS (7ULL << 32)
#define TOK_DEF (1ULL << 35)
#define TOK_ID (NUM_MASK | TOK_CLS)

typedef struct {
	uint64_t shape; /* hash of the text with numbers of tokens as '#' */
	uint64_t op;    /* hash of the opcode (with modifiers, guard dropped); of the text for other lines */
	int tok0, ntok; /* tokens in the side's token array */
	bool ends;      /* the line ends a block */
	int kind;
} line_info;

typedef struct {
	uint64_t *tok; /* class << 32 | number */
	int ntok, cap;
	line_info *li;
	int n;
	int *block0; /* first line of each block, then n */
	int nblocks;
	uint64_t *sig;
} side;

#define FNV_OFF 1469598103934665603ULL
#define FNV_PRIME 1099511628211ULL

static uint64_t fnv(uint64_t h, unsigned char c)
{
	return (h ^ c) * FNV_PRIME;
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

static int tok_push(side *s, int cls, long num, bool def)
{
	if (s->ntok == s->cap) {
		int cap = s->cap ? s->cap * 2 : 1024;
		uint64_t *v = realloc(s->tok, (size_t)cap * sizeof(*v));
		if (!v)
			return RUNG_ENOMEM;
		s->tok = v;
		s->cap = cap;
	}
	s->tok[s->ntok++] = (uint64_t)cls << 32 | (uint64_t)num | (def ? TOK_DEF : 0);
	return 0;
}

/* The class of a renamed register at t (boundary checked by the caller) and the
 * length of its prefix, or -1: "r", "ur", "p", "up", "b" then a digit. */
static int reg_class(const char *t, int *plen)
{
	int cls = -1, n = 0;
	if (t[0] == 'u' && (t[1] == 'r' || t[1] == 'p')) {
		cls = t[1] == 'r' ? TOK_UR : TOK_UP;
		n = 2;
	} else if (t[0] == 'r' || t[0] == 'p' || t[0] == 'b') {
		cls = t[0] == 'r' ? TOK_R : t[0] == 'p' ? TOK_P : TOK_B;
		n = 1;
	}
	if (cls < 0 || !isdigit((unsigned char)t[n]))
		return -1;
	*plen = n;
	return cls;
}

bool rung_sass_ends_block(const char *inst)
{
	const char *p = inst;
	if (*p == '@') {
		while (*p && *p != ' ')
			p++;
		while (*p == ' ')
			p++;
	}
	size_t n = strcspn(p, " .");
	static const char *const ends[] = {"BRA", "BRX", "JMP", "JMX", "RET", "EXIT", "KILL"};
	for (size_t k = 0; k < sizeof(ends) / sizeof(ends[0]); k++)
		if (strlen(ends[k]) == n && strncmp(p, ends[k], n) == 0)
			return true;
	return false;
}

/* Reads one line: its shape, opcode and tokens. */
static int read_line(side *s, line_info *li, const rung_sass_line *l)
{
	const char *t = l->text;
	li->kind = l->kind;
	li->tok0 = s->ntok;
	li->ntok = 0;
	uint64_t h = fnv(FNV_OFF, (unsigned char)('0' + l->kind));
	/* the first operand, where an instruction writes: from after the opcode
	 * (and the guard before it) to the first comma outside brackets */
	size_t def0 = 0, depth = 0;
	bool comma = false;
	if (l->kind == RUNG_SASS_INST) {
		if (t[0] == '@')
			def0 = strcspn(t, " ");
		while (t[def0] == ' ')
			def0++;
		def0 += strcspn(t + def0, " ");
	} else {
		comma = true; /* labels are only ever read */
	}
	for (size_t i = 0; t[i];) {
		bool boundary = i == 0 || (!ident_char(t[i - 1]) && t[i - 1] != '.');
		int cls = -1, plen = 0;
		if (l->kind != RUNG_SASS_FUNC) {
			if (t[i] == '.' && strncmp(t + i, ".L_x_", 5) == 0 && isdigit((unsigned char)t[i + 5])) {
				cls = TOK_LABEL;
				plen = 5;
			} else if (boundary) {
				cls = reg_class(t + i, &plen);
			}
		}
		if (cls >= 0) {
			size_t j = i + (size_t)plen;
			long v = 0;
			while (isdigit((unsigned char)t[j])) {
				v = v >= NUM_MAX / 10 ? NUM_MAX : v * 10 + (t[j] - '0');
				j++;
			}
			if (cls == TOK_LABEL || !ident_char(t[j])) {
				for (size_t k = i; k < i + (size_t)plen; k++)
					h = fnv(h, (unsigned char)t[k]);
				h = fnv(h, '#');
				if (tok_push(s, cls, v, !comma && depth == 0 && i >= def0) < 0)
					return RUNG_ENOMEM;
				li->ntok++;
				i = j;
				continue;
			}
		}
		if (t[i] == '[')
			depth++;
		else if (t[i] == ']' && depth > 0)
			depth--;
		else if (t[i] == ',' && depth == 0 && i >= def0)
			comma = true;
		h = fnv(h, (unsigned char)t[i]);
		i++;
	}
	li->shape = h;
	li->ends = false;
	if (l->kind == RUNG_SASS_INST) {
		const char *p = t;
		if (*p == '@') {
			while (*p && *p != ' ')
				p++;
			while (*p == ' ')
				p++;
		}
		uint64_t o = FNV_OFF;
		for (; *p && *p != ' '; p++)
			o = fnv(o, (unsigned char)*p);
		li->op = o;
		li->ends = rung_sass_ends_block(t);
	} else if (l->kind == RUNG_SASS_FUNC) {
		li->op = h; /* the function's name: functions align by name */
	} else {
		li->op = fnv(FNV_OFF, ':'); /* any label */
	}
	return 0;
}

/* Cuts the listing into blocks: a block starts at a function line, at a label
 * (unless the block so far is that function's line alone) and after a line
 * that ends one. */
static int read_side(side *s, const rung_sass *x)
{
	memset(s, 0, sizeof(*s));
	s->n = x->nlines;
	s->li = calloc((size_t)(s->n + 1), sizeof(*s->li));
	s->block0 = calloc((size_t)(s->n + 2), sizeof(*s->block0));
	s->sig = calloc((size_t)(s->n + 1), sizeof(*s->sig));
	if (!s->li || !s->block0 || !s->sig)
		return RUNG_ENOMEM;
	for (int i = 0; i < s->n; i++)
		if (read_line(s, &s->li[i], &x->lines[i]) < 0)
			return RUNG_ENOMEM;
	for (int i = 0; i < s->n; i++) {
		const line_info *l = &s->li[i];
		bool start = i == 0 || l->kind == RUNG_SASS_FUNC || s->li[i - 1].ends ||
			     (l->kind == RUNG_SASS_LABEL && s->li[i - 1].kind != RUNG_SASS_FUNC) ||
			     x->lines[i].func != x->lines[i - 1].func;
		if (start)
			s->block0[s->nblocks++] = i;
	}
	s->block0[s->nblocks] = s->n;
	for (int b = 0; b < s->nblocks; b++) {
		uint64_t h = FNV_OFF;
		for (int i = s->block0[b]; i < s->block0[b + 1]; i++)
			for (int k = 0; k < 8; k++)
				h = fnv(h, (unsigned char)(s->li[i].op >> (8 * k)));
		s->sig[b] = h;
	}
	return 0;
}

static void side_clear(side *s)
{
	free(s->tok);
	free(s->li);
	free(s->block0);
	free(s->sig);
	memset(s, 0, sizeof(*s));
}

/* The longest common subsequence of x[0..n) and y[0..m): the matched index
 * pairs, in order, into mi/mj (room for min(n, m)); returns how many. The
 * common prefix and suffix match first; what is left above the cell limit is
 * left unmatched. Ties prefer leaving x's element unmatched first (deletions
 * before additions). RUNG_ENOMEM on failure. */
static int lcs(int *mi, int *mj, const uint64_t *x, int n, const uint64_t *y, int m)
{
	int k = 0, pre = 0, suf = 0;
	while (pre < n && pre < m && x[pre] == y[pre]) {
		mi[k] = mj[k] = pre;
		k++;
		pre++;
	}
	while (suf < n - pre && suf < m - pre && x[n - 1 - suf] == y[m - 1 - suf])
		suf++;
	int cn = n - pre - suf, cm = m - pre - suf;
	if (cn > 0 && cm > 0 && (long)(cn + 1) * (cm + 1) <= RUNG_SASS_DIFF_CELLS) {
		/* L[i][j]: LCS of x[pre+i..], y[pre+j..] in the middle; it is at most
		 * min(cn, cm) <= sqrt(cells) < 65536 */
		size_t w = (size_t)cm + 1;
		uint16_t *L = calloc(((size_t)cn + 1) * w, sizeof(*L));
		if (!L)
			return RUNG_ENOMEM;
		for (int i = cn - 1; i >= 0; i--)
			for (int j = cm - 1; j >= 0; j--) {
				uint16_t v;
				if (x[pre + i] == y[pre + j])
					v = (uint16_t)(L[(size_t)(i + 1) * w + (size_t)j + 1] + 1);
				else {
					uint16_t d = L[(size_t)(i + 1) * w + (size_t)j], r = L[(size_t)i * w + (size_t)j + 1];
					v = d > r ? d : r;
				}
				L[(size_t)i * w + (size_t)j] = v;
			}
		int i = 0, j = 0;
		while (i < cn && j < cm) {
			if (x[pre + i] == y[pre + j]) {
				mi[k] = pre + i++;
				mj[k] = pre + j++;
				k++;
			} else if (L[(size_t)(i + 1) * w + (size_t)j] >= L[(size_t)i * w + (size_t)j + 1]) {
				i++;
			} else {
				j++;
			}
		}
		free(L);
	}
	for (int s = suf; s > 0; s--) {
		mi[k] = n - s;
		mj[k] = m - s;
		k++;
	}
	return k;
}

/* An open-addressing table of uint64 keys (never ~0) to ints. */
typedef struct {
	uint64_t *key;
	int *val;
	size_t cap; /* a power of two */
} table;

static int table_init(table *t, size_t want)
{
	t->cap = 16;
	while (t->cap < want * 2)
		t->cap *= 2;
	t->key = malloc(t->cap * sizeof(*t->key));
	t->val = malloc(t->cap * sizeof(*t->val));
	if (!t->key || !t->val)
		return RUNG_ENOMEM;
	memset(t->key, 0xff, t->cap * sizeof(*t->key));
	return 0;
}

static void table_clear(table *t)
{
	free(t->key);
	free(t->val);
	memset(t, 0, sizeof(*t));
}

static size_t table_slot(const table *t, uint64_t k)
{
	size_t h = (size_t)((k * 0x9e3779b97f4a7c15ULL) >> 17) & (t->cap - 1);
	while (t->key[h] != UINT64_MAX && t->key[h] != k)
		h = (h + 1) & (t->cap - 1);
	return h;
}

/* The value at k, or -1. */
static int table_get(const table *t, uint64_t k)
{
	size_t h = table_slot(t, k);
	return t->key[h] == k ? t->val[h] : -1;
}

static void table_put(table *t, uint64_t k, int v)
{
	size_t h = table_slot(t, k);
	t->key[h] = k;
	t->val[h] = v;
}

typedef struct {
	rung_sass_diff *d;
	int cap;
} rows;

static int row_push(rows *r, rung_sd_op op, int a, int b)
{
	rung_sass_diff *d = r->d;
	if (d->n == r->cap) {
		int cap = r->cap ? r->cap * 2 : 1024;
		rung_sd_row *v = realloc(d->rows, (size_t)cap * sizeof(*v));
		if (!v)
			return RUNG_ENOMEM;
		d->rows = v;
		r->cap = cap;
	}
	d->rows[d->n++] = (rung_sd_row){op, a, b};
	return 0;
}

/* Unmatched lines a[i0..i1) and b[j0..j1): paired as changes, the rest deleted or added. */
static int push_unmatched(rows *r, int i0, int i1, int j0, int j1)
{
	while (i0 < i1 || j0 < j1) {
		int a = i0 < i1 ? i0++ : -1, b = j0 < j1 ? j0++ : -1;
		if (row_push(r, a >= 0 && b >= 0 ? RUNG_SD_CHANGE : a >= 0 ? RUNG_SD_DEL : RUNG_SD_ADD, a, b) < 0)
			return RUNG_ENOMEM;
	}
	return 0;
}

/* The renaming between a and b as it stands at a point of the walk: a's token
 * to b's number and b's token to a's number (-1: unbound). Keys carry the
 * function's index, so each function starts unbound. */
typedef struct {
	table fa, fb;
} renaming;

static uint64_t tok_key(uint64_t tok, int func)
{
	return (uint64_t)(func < 0 ? 0 : func & 0x7fffff) << 40 | (tok & TOK_ID);
}

static void unbind_a(renaming *m, uint64_t ka, int fb)
{
	int x = table_get(&m->fa, ka);
	if (x >= 0) {
		table_put(&m->fb, (uint64_t)fb << 40 | (ka & TOK_CLS) | (uint64_t)x, -1);
		table_put(&m->fa, ka, -1);
	}
}

static void unbind_b(renaming *m, uint64_t kb, int fa)
{
	int x = table_get(&m->fb, kb);
	if (x >= 0) {
		table_put(&m->fa, (uint64_t)fa << 40 | (kb & TOK_CLS) | (uint64_t)x, -1);
		table_put(&m->fb, kb, -1);
	}
}

static void bind(renaming *m, uint64_t ka, int fa, uint64_t kb, int fb)
{
	unbind_a(m, ka, fb);
	unbind_b(m, kb, fa);
	table_put(&m->fa, ka, (int)(kb & NUM_MASK));
	table_put(&m->fb, kb, (int)(ka & NUM_MASK));
}

/* A line of a (or b) only: the values it writes are no longer the other side's. */
static void kill_defs(renaming *m, const side *S, int i, int func, bool is_a)
{
	const line_info *l = &S->li[i];
	for (int t = 0; t < l->ntok; t++) {
		uint64_t tok = S->tok[l->tok0 + t];
		if (!(tok & TOK_DEF))
			continue;
		/* the other side's function index is unknown here; the partner is looked up under the same one */
		if (is_a)
			unbind_a(m, tok_key(tok, func), func);
		else
			unbind_b(m, tok_key(tok, func), func);
	}
}

/* Lines la (of a, function fa) and lb (b, fb), aligned with the same shape:
 * the same when every token read is the partner of the other's (a token seen
 * first on both sides binds), then what they write binds afresh. */
static bool same_through(renaming *m, const side *A, const line_info *la, int fa, const side *B, const line_info *lb,
			 int fb)
{
	bool same = la->ntok == lb->ntok, mapped = same, literal = same;
	for (int t = 0; t < la->ntok && same; t++) {
		uint64_t ta = A->tok[la->tok0 + t], tb = B->tok[lb->tok0 + t];
		literal = literal && (ta & TOK_ID) == (tb & TOK_ID);
		if ((ta & TOK_CLS) != (tb & TOK_CLS)) {
			same = mapped = false;
			break;
		}
		if (ta & TOK_DEF)
			continue;
		uint64_t ka = tok_key(ta, fa), kb = tok_key(tb, fb);
		int xa = table_get(&m->fa, ka), xb = table_get(&m->fb, kb);
		if (xa < 0 && xb < 0)
			bind(m, ka, fa, kb, fb);
		else if (xa != (int)(tb & NUM_MASK))
			mapped = false;
	}
	if (same)
		for (int t = 0; t < la->ntok; t++) {
			uint64_t ta = A->tok[la->tok0 + t], tb = B->tok[lb->tok0 + t];
			if (ta & TOK_DEF)
				bind(m, tok_key(ta, fa), fa, tok_key(tb, fb), fb);
		}
	return same && (mapped || literal);
}

/* One region: a[ia..ia+na) against b[ib..ib+nb). */
static int diff_region(rows *r, renaming *m, const side *A, const rung_sass *sa, const side *B, const rung_sass *sb,
		       int ia, int na, int ib, int nb)
{
	int rc = RUNG_ENOMEM;
	int mn = na < nb ? na : nb;
	uint64_t *x = malloc(sizeof(*x) * (size_t)(na + 1)), *y = malloc(sizeof(*y) * (size_t)(nb + 1));
	int *mi = malloc(sizeof(int) * (size_t)(mn + 1)), *mj = malloc(sizeof(int) * (size_t)(mn + 1));
	if (!x || !y || !mi || !mj)
		goto done;
	for (int i = 0; i < na; i++)
		x[i] = A->li[ia + i].shape;
	for (int j = 0; j < nb; j++)
		y[j] = B->li[ib + j].shape;
	int k = lcs(mi, mj, x, na, y, nb);
	if (k < 0)
		goto done;
	int pi = 0, pj = 0;
	for (int q = 0; q <= k; q++) {
		int ei = q < k ? mi[q] : na, ej = q < k ? mj[q] : nb;
		for (int i = ia + pi; i < ia + ei; i++)
			kill_defs(m, A, i, sa->lines[i].func, true);
		for (int j = ib + pj; j < ib + ej; j++)
			kill_defs(m, B, j, sb->lines[j].func, false);
		if (push_unmatched(r, ia + pi, ia + ei, ib + pj, ib + ej) < 0)
			goto done;
		if (q == k)
			break;
		bool same = same_through(m, A, &A->li[ia + ei], sa->lines[ia + ei].func, B, &B->li[ib + ej],
					 sb->lines[ib + ej].func);
		if (row_push(r, same ? RUNG_SD_SAME : RUNG_SD_CHANGE, ia + ei, ib + ej) < 0)
			goto done;
		pi = ei + 1;
		pj = ej + 1;
	}
	rc = 0;
done:
	free(x);
	free(y);
	free(mi);
	free(mj);
	return rc;
}

/* The label (or function) line that starts the block holding line i, or -1. */
static int block_head(const rung_sass *s, int i)
{
	for (int k = i; k >= 0 && i >= 0; k--) {
		if (s->lines[k].func != s->lines[i].func)
			break;
		if (s->lines[k].kind != RUNG_SASS_INST)
			return k;
	}
	return -1;
}

static int make_hunks(rung_sass_diff *d, const rung_sass *a, const rung_sass *b, int context)
{
	int cap = 0;
	for (int i = 0; i < d->n;) {
		if (d->rows[i].op == RUNG_SD_SAME) {
			i++;
			continue;
		}
		/* a hunk from i: changes, joined while the same lines between them are at most 2 * context */
		int first = i, last = i;
		int j = i + 1;
		while (j < d->n) {
			if (d->rows[j].op != RUNG_SD_SAME) {
				last = j++;
				continue;
			}
			int s = j;
			while (s < d->n && d->rows[s].op == RUNG_SD_SAME)
				s++;
			if (s >= d->n || s - j > 2 * context)
				break;
			j = s;
		}
		rung_sd_hunk h = {0};
		h.r0 = first - context < 0 ? 0 : first - context;
		h.r1 = last + 1 + context > d->n ? d->n : last + 1 + context;
		for (int k = h.r0; k < h.r1; k++) {
			const rung_sd_row *r = &d->rows[k];
			if (r->a >= 0 && !h.na++)
				h.a0 = r->a + 1;
			if (r->b >= 0 && !h.nb++)
				h.b0 = r->b + 1;
		}
		/* the block of the first change: of the nearest line at or before it, each side */
		h.block_a = h.block_b = -1;
		for (int k = first; k >= 0 && h.block_a < 0; k--)
			if (d->rows[k].a >= 0)
				h.block_a = block_head(a, d->rows[k].a);
		for (int k = first; k >= 0 && h.block_b < 0; k--)
			if (d->rows[k].b >= 0)
				h.block_b = block_head(b, d->rows[k].b);
		if (d->nhunks == cap) {
			cap = cap ? cap * 2 : 16;
			rung_sd_hunk *v = realloc(d->hunks, (size_t)cap * sizeof(*v));
			if (!v)
				return RUNG_ENOMEM;
			d->hunks = v;
		}
		d->hunks[d->nhunks++] = h;
		i = last + 1;
	}
	return 0;
}

int rung_sass_diff_build(rung_sass_diff *out, const rung_sass *a, const rung_sass *b, int context)
{
	memset(out, 0, sizeof(*out));
	if (context < 0)
		context = 3;
	side A, B;
	int rc = RUNG_ENOMEM;
	int *mi = NULL, *mj = NULL;
	rows r = {out, 0};
	renaming m;
	memset(&m, 0, sizeof(m));
	memset(&B, 0, sizeof(B));
	if (read_side(&A, a) < 0 || read_side(&B, b) < 0)
		goto done;
	out->nblocks_a = A.nblocks;
	out->nblocks_b = B.nblocks;
	int mn = A.nblocks < B.nblocks ? A.nblocks : B.nblocks;
	mi = malloc(sizeof(int) * (size_t)(mn + 1));
	mj = malloc(sizeof(int) * (size_t)(mn + 1));
	if (!mi || !mj)
		goto done;
	int k = lcs(mi, mj, A.sig, A.nblocks, B.sig, B.nblocks);
	if (k < 0 || table_init(&m.fa, (size_t)A.ntok + 1) < 0 || table_init(&m.fb, (size_t)B.ntok + 1) < 0)
		goto done;
	out->matched_blocks = k;
	int pa = 0, pb = 0; /* next unaligned block of each side */
	for (int q = 0; q <= k; q++) {
		int ea = q < k ? mi[q] : A.nblocks, eb = q < k ? mj[q] : B.nblocks;
		/* the gap before this pair, then the pair */
		if (diff_region(&r, &m, &A, a, &B, b, A.block0[pa], A.block0[ea] - A.block0[pa], B.block0[pb],
				B.block0[eb] - B.block0[pb]) < 0)
			goto done;
		if (q == k)
			break;
		if (diff_region(&r, &m, &A, a, &B, b, A.block0[ea], A.block0[ea + 1] - A.block0[ea], B.block0[eb],
				B.block0[eb + 1] - B.block0[eb]) < 0)
			goto done;
		pa = ea + 1;
		pb = eb + 1;
	}
	for (int i = 0; i < out->n; i++) {
		out->adds += out->rows[i].op == RUNG_SD_ADD || out->rows[i].op == RUNG_SD_CHANGE;
		out->dels += out->rows[i].op == RUNG_SD_DEL || out->rows[i].op == RUNG_SD_CHANGE;
	}
	if (make_hunks(out, a, b, context) < 0)
		goto done;
	rc = 0;
done:
	free(mi);
	free(mj);
	table_clear(&m.fa);
	table_clear(&m.fb);
	side_clear(&A);
	side_clear(&B);
	if (rc < 0) {
		rung_sass_diff_clear(out);
		return rung_error_set(rc, "out of memory diffing SASS");
	}
	return 0;
}

void rung_sass_diff_clear(rung_sass_diff *d)
{
	if (!d)
		return;
	free(d->rows);
	free(d->hunks);
	memset(d, 0, sizeof(*d));
}
