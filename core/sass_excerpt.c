/* SASS excerpts (see sass_excerpt.h). */
#define _GNU_SOURCE /* memmem */
#include "core/sass_excerpt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/sass_prof.h"
#include "core/stall.h"

static bool is_line_info(const char *s, size_t n)
{
	size_t k = 0;
	while (k < n && (s[k] == ' ' || s[k] == '\t'))
		k++;
	return n - k >= 4 && !memcmp(s + k, "//##", 4);
}

/* The path of the first `File "..."` of the listing (its main source), or NULL. */
static const char *main_file(const char *src, size_t n, size_t *len)
{
	const char *f = memmem(src, n, "//## File \"", 11);
	if (!f)
		return NULL;
	f += 11;
	const char *q = memchr(f, '"', n - (size_t)(f - src));
	if (!q)
		return NULL;
	*len = (size_t)(q - f);
	return f;
}

/* The listing with its line info made short: `File "<main>", line 79 inlined
 * at "<main>", line 116` becomes `line 79 inlined at line 116` (the main
 * file named once, at the top), and a line-info line that says what the last
 * one said is dropped. */
static char *dedup(const char *src, size_t n, size_t *out_len)
{
	size_t mlen = 0;
	const char *m = main_file(src, n, &mlen);
	char *out = malloc(n + mlen + 128);
	if (!out)
		return NULL;
	size_t o = 0;
	if (m)
		o += (size_t)sprintf(out, "//## line info below: line N is \"%.*s\", line N\n", (int)mlen, m);
	char last[2048] = "";
	for (size_t i = 0; i < n;) {
		const char *nl = memchr(src + i, '\n', n - i);
		size_t len = nl ? (size_t)(nl - (src + i)) : n - i;
		const char *s = src + i;
		i += len + (nl ? 1 : 0);
		if (!is_line_info(s, len)) {
			memcpy(out + o, s, len);
			o += len;
			if (nl)
				out[o++] = '\n';
			continue;
		}
		char buf[2048];
		size_t b = 0;
		for (size_t k = 0; k < len && b < sizeof(buf) - 1;) {
			if (m && k + 6 + mlen + 3 <= len && !memcmp(s + k, "File \"", 6) && !memcmp(s + k + 6, m, mlen) &&
			    !memcmp(s + k + 6 + mlen, "\", ", 3)) {
				k += 6 + mlen + 3;
			} else if (m && k + 1 + mlen + 3 <= len && s[k] == '"' && !memcmp(s + k + 1, m, mlen) &&
				   !memcmp(s + k + 1 + mlen, "\", ", 3)) {
				k += 1 + mlen + 3;
			} else {
				buf[b++] = s[k++];
			}
		}
		buf[b] = 0;
		if (!strcmp(buf, last))
			continue;
		memcpy(last, buf, b + 1);
		memcpy(out + o, buf, b);
		o += b;
		if (nl)
			out[o++] = '\n';
	}
	out[o] = 0;
	*out_len = o;
	return out;
}

/* One line of the short listing. */
enum { L_OTHER, L_INFO, L_LABEL, L_INSN };
enum { C_OTHER, C_TENSOR, C_MEMORY, C_BRANCH };
typedef struct {
	size_t at, len;
	int kind, cls;
	int64_t pc;     /* L_INSN */
	size_t pcat, pclen, body; /* L_INSN: where the pc comment is, its length, where the rest starts (from at) */
	int info;       /* the line info in force (its line index), -1 none */
	int prio;       /* INT32_MAX: not kept */
	double heat;
} xline;

static bool word_in(const char *w, size_t n, const char *const *list)
{
	for (; *list; list++)
		if (strlen(*list) == n && !memcmp(*list, w, n))
			return true;
	return false;
}

/* The class of an opcode (its first word before any '.'). */
static int op_class(const char *op, size_t n)
{
	static const char *const tensor[] = {"HMMA", "IMMA", "DMMA", "BMMA", "HGMMA", "IGMMA", "QGMMA", "BGMMA",
					     "UTCHMMA", "UTCIMMA", "UTCQMMA", "UTCMMA", NULL};
	static const char *const memory[] = {"LDG", "STG", "LDS", "STS", "LDSM", "STSM", "LDGSTS", "LDGDEPBAR", "DEPBAR",
					     "LDL", "STL", "LD", "ST", "ATOM", "ATOMS", "ATOMG", "RED", "LDC", "BAR",
					     "MEMBAR", "UTMALDG", "UTMASTG", "UTMAPF", "UBLKCP", "UBLKRED", "SYNCS",
					     "ARRIVES", "CCTL", "LDTM", "STTM", NULL};
	size_t k = 0;
	while (k < n && op[k] != '.')
		k++;
	if (k == 3 && !memcmp(op, "BRA", 3))
		return C_BRANCH;
	if (word_in(op, k, tensor))
		return C_TENSOR;
	/* LDC reads the constant bank: not what an agent looks for */
	if (!(k == 3 && !memcmp(op, "LDC", 3)) && word_in(op, k, memory))
		return C_MEMORY;
	return C_OTHER;
}

/* Reads an instruction line (spaces, the pc as a comment, an optional
 * predicate "@!P0", the opcode "HMMA.1688.F32.TF32", its operands):
 * its pc and the class of its opcode; false when it is not one. */
static bool parse_insn(const char *s, size_t n, int64_t *pc, int *cls, const char **op, size_t *oplen, size_t *pcat,
		       size_t *pclen, size_t *body)
{
	size_t k = 0;
	while (k < n && (s[k] == ' ' || s[k] == '\t'))
		k++;
	if (k + 4 > n || s[k] != '/' || s[k + 1] != '*')
		return false;
	*pcat = k;
	k += 2;
	int64_t v = 0;
	size_t d = 0;
	for (; k < n && d < 16; k++, d++) {
		char c = s[k];
		int x = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (x < 0)
			break;
		v = v * 16 + x;
	}
	if (!d || k + 2 > n || s[k] != '*' || s[k + 1] != '/')
		return false;
	k += 2;
	*pclen = k - *pcat;
	while (k < n && (s[k] == ' ' || s[k] == '\t'))
		k++;
	*body = k;
	while (k < n && s[k] == '{')
		k++;
	while (k < n && (s[k] == ' ' || s[k] == '\t'))
		k++;
	if (k < n && s[k] == '@') { /* a predicate */
		while (k < n && s[k] != ' ')
			k++;
		while (k < n && s[k] == ' ')
			k++;
	}
	size_t o = k;
	while (k < n && s[k] != ' ' && s[k] != ';')
		k++;
	if (k == o)
		return false;
	*pc = v;
	*op = s + o;
	*oplen = k - o;
	*cls = op_class(s + o, k - o);
	return true;
}

/* The label a branch goes to ("`(.L_x_55)"): its text in [*lab, *lab + *len). */
static bool branch_target(const char *s, size_t n, const char **lab, size_t *len)
{
	const char *p = memmem(s, n, "`(", 2);
	if (!p)
		return false;
	p += 2;
	const char *q = memchr(p, ')', n - (size_t)(p - s));
	if (!q || q == p)
		return false;
	*lab = p;
	*len = (size_t)(q - p);
	return true;
}

/* The choice in progress: the lines, the budget and what it holds so far. */
typedef struct {
	xline *l;
	int n;
	size_t budget, used;
} picker;

/* The cost of keeping line i now: its bytes, its line info's when that is
 * not kept yet, and a cut line's when no neighbour is kept. */
/* The bytes of line x as written: an instruction as two spaces, its pc comment, a space and the rest
 * (nvdisasm's padding cut: a quarter of every instruction line). */
static size_t shown_len(const xline *x)
{
	return x->kind == L_INSN ? 2 + x->pclen + 1 + (x->len - x->body) : x->len;
}

/* Writes line x as shown_len says; returns the bytes written. */
static size_t put_line(char *out, const char *d, const xline *x)
{
	if (x->kind != L_INSN) {
		memcpy(out, d + x->at, x->len);
		return x->len;
	}
	size_t o = 0;
	out[o++] = ' ';
	out[o++] = ' ';
	memcpy(out + o, d + x->at + x->pcat, x->pclen);
	o += x->pclen;
	out[o++] = ' ';
	memcpy(out + o, d + x->at + x->body, x->len - x->body);
	return o + x->len - x->body;
}

static size_t cost(const picker *p, int i)
{
	const xline *x = &p->l[i];
	size_t c = shown_len(x) + 1;
	if (x->kind == L_INSN && x->info >= 0 && p->l[x->info].prio == INT32_MAX)
		c += p->l[x->info].len + 1;
	bool near = (i > 0 && p->l[i - 1].prio != INT32_MAX) || (i + 1 < p->n && p->l[i + 1].prio != INT32_MAX);
	if (!near)
		c += 24;
	return c;
}

/* Keeps line i (priority prio) when it fits; false when the budget is spent. */
static bool keep(picker *p, int i, int prio)
{
	if (i < 0 || i >= p->n || p->l[i].prio != INT32_MAX)
		return true;
	size_t c = cost(p, i);
	if (p->used + c > p->budget)
		return false;
	p->used += c;
	p->l[i].prio = prio;
	if (p->l[i].kind == L_INSN && p->l[i].info >= 0)
		p->l[p->l[i].info].prio = prio;
	return true;
}

static int by_heat(const void *a, const void *b, void *ctx)
{
	const xline *l = ctx;
	int x = *(const int *)a, y = *(const int *)b;
	return l[x].heat < l[y].heat ? 1 : l[x].heat > l[y].heat ? -1 : x - y;
}

static int by_dist(const void *a, const void *b, void *ctx)
{
	const int *dist = ctx;
	int x = *(const int *)a, y = *(const int *)b;
	return dist[x] != dist[y] ? (dist[x] < dist[y] ? -1 : 1) : x - y;
}

static int cmp_heat_pc(const void *a, const void *b)
{
	const rung_sass_heat *x = a, *y = b;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The index of the next instruction line after (dir 1) or before (dir -1) i, or -1. */
static int next_insn(const xline *l, int n, int i, int dir)
{
	for (int k = i + dir; k >= 0 && k < n; k += dir) {
		if (l[k].kind == L_INSN)
			return k;
	}
	return -1;
}

char *rung_sass_excerpt_hot(const char *listing, size_t n, size_t max, const rung_sass_heat *heat, int nheat,
			    const char *heat_what, bool *cut)
{
	*cut = false;
	size_t len = 0;
	char *d = dedup(listing, n, &len);
	if (!d || len <= max)
		return d;
	*cut = true;
	int nl = 1;
	for (size_t i = 0; i < len; i++)
		nl += d[i] == '\n';
	xline *l = calloc((size_t)nl, sizeof(*l));
	rung_sass_heat *hs = nheat > 0 ? malloc(sizeof(*hs) * (size_t)nheat) : NULL;
	int *order = malloc(sizeof(int) * (size_t)nl);
	char *out = malloc(max + 1);
	if (!l || !order || !out || (nheat > 0 && !hs)) {
		free(l);
		free(hs);
		free(order);
		free(out);
		free(d);
		return NULL;
	}
	if (hs) {
		memcpy(hs, heat, sizeof(*hs) * (size_t)nheat);
		qsort(hs, (size_t)nheat, sizeof(*hs), cmp_heat_pc);
	}
	/* the lines, each with its kind, class, pc and the line info in force */
	int m = 0, info = -1, first_insn = -1, ninsn = 0;
	for (size_t i = 0; i < len && m < nl;) {
		const char *nlp = memchr(d + i, '\n', len - i);
		size_t ll = nlp ? (size_t)(nlp - (d + i)) : len - i;
		xline *x = &l[m];
		x->at = i;
		x->len = ll;
		x->info = -1;
		x->prio = INT32_MAX;
		const char *op;
		size_t oplen;
		if (is_line_info(d + i, ll)) {
			x->kind = L_INFO;
			info = m;
		} else if (parse_insn(d + i, ll, &x->pc, &x->cls, &op, &oplen, &x->pcat, &x->pclen, &x->body)) {
			x->kind = L_INSN;
			x->info = info;
			if (first_insn < 0)
				first_insn = m;
			ninsn++;
			if (hs) {
				rung_sass_heat key = {x->pc, 0};
				const rung_sass_heat *h = bsearch(&key, hs, (size_t)nheat, sizeof(*hs), cmp_heat_pc);
				x->heat = h ? h->weight : 0;
			}
		} else if (ll && d[i] != ' ' && d[i] != '\t' && d[i + ll - 1] == ':') {
			x->kind = L_LABEL;
			/* the line info in force goes on past a label (it is written again after one) */
		} else {
			x->kind = L_OTHER;
			if (ll >= 2 && d[i] == '/' && d[i + 1] == '/')
				info = -1; /* a new function's section */
		}
		m++;
		i += ll + (nlp ? 1 : 0);
	}
	/* the main loop: of the backward branches, the one whose body holds the
	 * most tensor-core instructions, then memory ones, then instructions */
	int loop_from = -1, loop_to = -1, loop_tensor = 0, loop_mem = 0;
	double best_score = 0;
	for (int i = 0; i < m; i++) {
		const char *lab;
		size_t lablen;
		if (l[i].kind != L_INSN || l[i].cls != C_BRANCH || !branch_target(d + l[i].at, l[i].len, &lab, &lablen))
			continue;
		for (int k = i - 1; k >= 0; k--) {
			if (l[k].kind != L_LABEL || l[k].len != lablen + 1 || memcmp(d + l[k].at, lab, lablen))
				continue;
			int nt = 0, nm = 0, ni = 0;
			for (int j = k; j <= i; j++) {
				nt += l[j].kind == L_INSN && l[j].cls == C_TENSOR;
				nm += l[j].kind == L_INSN && l[j].cls == C_MEMORY;
				ni += l[j].kind == L_INSN;
			}
			double score = 1e6 * nt + 1e3 * nm + ni;
			if (score > best_score) {
				best_score = score;
				loop_from = k;
				loop_to = i;
				loop_tensor = nt;
				loop_mem = nm;
			}
			break;
		}
	}
	/* the first line: what the excerpt holds */
	char head[600];
	int nhot = 0;
	for (int i = 0; i < m; i++)
		nhot += l[i].kind == L_INSN && l[i].heat > 0;
	char loopw[200] = "";
	if (loop_from >= 0) {
		int a = next_insn(l, m, loop_from, 1);
		snprintf(loopw, sizeof(loopw), ", the main loop %.*s (0x%04llx to 0x%04llx: %d tensor-core and %d memory instructions)",
			 (int)(l[loop_from].len - 1 < 60 ? l[loop_from].len - 1 : 60), d + l[loop_from].at,
			 (unsigned long long)(a >= 0 ? l[a].pc : 0), (unsigned long long)l[loop_to].pc, loop_tensor, loop_mem);
	}
	char hotw[120] = "";
	if (nhot)
		snprintf(hotw, sizeof(hotw), ", the hottest instructions by %s", heat_what && *heat_what ? heat_what : "samples");
	int hl = snprintf(head, sizeof(head),
			  "//## rung's excerpt of a listing of %zu bytes (line info once per source line) and %d instructions: "
			  "the head%s%s, the tensor-core and memory instructions, as many as fit; \"[... N left out]\": "
			  "N instructions cut there\n",
			  len, ninsn, hotw, loopw);
	if (hl < 0 || (size_t)hl >= sizeof(head) || (size_t)hl + 64 > max) /* no room for it: none */
		hl = 0;
	size_t budget = max > (size_t)hl + 64 ? max - (size_t)hl - 64 : 0;
	size_t o = 0;
	/* the order of the rest: the main loop's tensor-core instructions, the
	 * others, the main loop's memory instructions (nearest a tensor-core one
	 * first: the loads that feed it), the rest of the main loop, the other
	 * memory instructions, then everything from the top */
	int *cand = malloc(sizeof(int) * (size_t)(4 * m + 1)), ncand = 0;
	int *dist = malloc(sizeof(int) * (size_t)(m + 1));
	if (cand && dist) {
		for (int i = 0, last = -1; i < m; i++) { /* instructions from the nearest tensor-core one, each way */
			if (l[i].kind == L_INSN && l[i].cls == C_TENSOR)
				last = i;
			dist[i] = last < 0 ? INT32_MAX : i - last;
		}
		for (int i = m - 1, next = -1; i >= 0; i--) {
			if (l[i].kind == L_INSN && l[i].cls == C_TENSOR)
				next = i;
			if (next >= 0 && next - i < dist[i])
				dist[i] = next - i;
		}
		for (int pass = 0; pass < 6; pass++) {
			int from = ncand;
			for (int i = 0; i < m; i++) {
				bool in = loop_from >= 0 && i > loop_from && i <= loop_to, insn = l[i].kind == L_INSN;
				bool want = pass == 0   ? insn && in && l[i].cls == C_TENSOR
					    : pass == 1 ? insn && !in && l[i].cls == C_TENSOR
					    : pass == 2 ? insn && in && l[i].cls == C_MEMORY
					    : pass == 3 ? insn && in
					    : pass == 4 ? insn && l[i].cls == C_MEMORY
							: insn || l[i].kind == L_LABEL;
				if (want)
					cand[ncand++] = i;
			}
			if (pass == 2 && loop_tensor) /* nearest a tensor-core instruction first, then in order */
				qsort_r(cand + from, (size_t)(ncand - from), sizeof(int), by_dist, dist);
		}
	}
	char *best = malloc(max + 1);
	size_t best_len = 0;
	if (!best || !cand || !dist) {
		free(cand);
		free(dist);
		free(l);
		free(hs);
		free(order);
		free(out);
		free(d);
		return NULL;
	}
	for (int attempt = 0; attempt < 8; attempt++) {
		for (int i = 0; i < m; i++)
			l[i].prio = INT32_MAX;
		picker p = {l, m, budget, 0};
		/* 1: the head (to the first instruction, at most an eighth of the
		 * budget) and every function's label */
		for (int i = 0; i < m && (first_insn < 0 || i < first_insn); i++)
			if (p.used + l[i].len + 1 <= budget / 8 || l[i].kind == L_LABEL)
				keep(&p, i, 1);
		for (int i = 0; i < m; i++)
			if (l[i].kind == L_LABEL && l[i].len && d[l[i].at] != '.')
				keep(&p, i, 1);
		/* 2: the hottest instructions (the 32 hottest at most, in a third of
		 * the budget: the main loop gets the rest), a neighbour each side */
		int nord = 0;
		for (int i = 0; i < m; i++)
			if (l[i].kind == L_INSN && l[i].heat > 0)
				order[nord++] = i;
		qsort_r(order, (size_t)nord, sizeof(int), by_heat, l);
		size_t hot_end = p.used + budget / 3;
		for (int k = 0; k < nord && k < 32 && p.used < hot_end; k++) {
			if (!keep(&p, order[k], 2))
				break;
			keep(&p, next_insn(l, m, order[k], -1), 2);
			keep(&p, next_insn(l, m, order[k], 1), 2);
		}
		/* 3: the main loop's label, first instructions and branch back */
		if (loop_from >= 0) {
			keep(&p, loop_from, 3);
			for (int i = loop_from, k = 0; k < 4 && (i = next_insn(l, m, i, 1)) >= 0 && i <= loop_to; k++)
				keep(&p, i, 3);
			keep(&p, next_insn(l, m, loop_to, -1), 3);
			keep(&p, loop_to, 3);
		}
		/* 4-8: the candidates in their order (made once, below); the first
		 * that does not fit ends the excerpt's choice */
		for (int k = 0; k < ncand; k++)
			if (!keep(&p, cand[k], 4))
				break;
		/* written in order: line info once per change, each cut in a line */
		o = 0;
		memcpy(out, head, (size_t)hl);
		o = (size_t)hl;
		int last_info = -1, gap = 0;
		bool over = false;
		for (int i = 0; i < m && !over; i++) {
			const xline *x = &l[i];
			if (x->prio == INT32_MAX || x->kind == L_INFO) {
				if (x->kind == L_INSN)
					gap++;
				continue;
			}
			char cutline[160];
			int cl = 0;
			if (gap)
				cl = snprintf(cutline, sizeof(cutline), "  [... %d left out]\n", gap);
			gap = 0;
			const xline *inf = x->kind == L_INSN && x->info >= 0 ? &l[x->info] : NULL;
			bool put_info = inf && (last_info < 0 || l[last_info].len != inf->len ||
						memcmp(d + l[last_info].at, d + inf->at, inf->len));
			size_t need = (size_t)cl + shown_len(x) + 1 + (put_info ? inf->len + 1 : 0);
			if (o + need > max) {
				over = true;
				break;
			}
			memcpy(out + o, cutline, (size_t)cl);
			o += (size_t)cl;
			if (put_info) {
				memcpy(out + o, d + inf->at, inf->len);
				o += inf->len;
				out[o++] = '\n';
				last_info = x->info;
			}
			if (x->kind == L_LABEL)
				last_info = -1;
			o += put_line(out + o, d, x);
			out[o++] = '\n';
		}
		if (!over && gap) {
			char cutline[160];
			int cl = snprintf(cutline, sizeof(cutline), "  [... %d left out]\n", gap);
			if (o + (size_t)cl <= max) {
				memcpy(out + o, cutline, (size_t)cl);
				o += (size_t)cl;
			} else {
				over = true;
			}
		}
		/* the costs are estimates (a line info shared, a cut line or not):
		 * over the budget, again with less; well under it, again with more,
		 * the fullest excerpt that fits kept */
		if (!over && o > best_len) {
			memcpy(best, out, o);
			best_len = o;
		}
		if (over)
			budget = budget > max / 8 ? budget - max / 8 : 0;
		else if (max - o > 256 && budget < max)
			budget += (max - o) * 9 / 10;
		else
			break;
	}
	memcpy(out, best, best_len);
	o = best_len;
	out[o] = 0;
	free(best);
	free(cand);
	free(dist);
	free(l);
	free(hs);
	free(order);
	free(d);
	return out;
}

char *rung_sass_excerpt(const char *listing, size_t n, size_t max, bool *cut)
{
	return rung_sass_excerpt_hot(listing, n, max, NULL, 0, NULL, cut);
}

rung_sass_heat *rung_sass_heat_of_stall(const rung_stall *s, int *n)
{
	*n = 0;
	rung_sass_heat *h = s && s->n > 0 ? malloc(sizeof(*h) * (size_t)s->n) : NULL;
	for (int i = 0; h && i < s->n; i++) {
		h[*n].pc = s->pc[i];
		h[*n].weight = (double)rung_stall_row_total(s, i);
		*n += h[*n].weight > 0;
	}
	if (h && !*n) {
		free(h);
		h = NULL;
	}
	return h;
}

rung_sass_heat *rung_sass_heat_of_counts(const rung_sass_counts *c, int *n)
{
	*n = 0;
	rung_sass_heat *h = c && c->n > 0 ? malloc(sizeof(*h) * (size_t)c->n) : NULL;
	for (int i = 0; h && i < c->n; i++) {
		h[*n].pc = c->pcs[i].pc;
		h[*n].weight = (double)c->pcs[i].inst;
		*n += h[*n].weight > 0;
	}
	if (h && !*n) {
		free(h);
		h = NULL;
	}
	return h;
}
