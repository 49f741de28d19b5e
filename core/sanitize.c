/* compute-sanitizer's text report into findings (core/sanitize.h).
 *
 * A report is a sequence of records. A record starts at a line that is not
 * indented after the "========= " prefix ("Invalid __global__ read of size 4
 * bytes", "Error: Race reported between ...", "Barrier error detected. ...",
 * "Uninitialized __global__ memory read of size 4 bytes", "Program hit
 * CUDA_ERROR_... on CUDA API call to ...", "Leaked N bytes at ..."), and its
 * indented lines add detail: "at KERNEL+0xOFF in FILE:LINE" (or the older
 * "at 0xOFF in FILE:LINE:KERNEL"), "by thread (x,y,z) in block (x,y,z)",
 * "Address 0x... is out of bounds", "and Read access at ... [N hazards]",
 * "Write Thread (0,0,0) at ...", "Device Frame: ...". Summaries ("ERROR
 * SUMMARY: N errors", "RACECHECK SUMMARY: ...") say the tool finished.
 * Anything else is skipped; every string is cut to its buffer. */
#include "core/sanitize.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/err.h"
#include "core/result.h"

static const char *const tool_names[] = {
#define RUNG_SAN_TOOL_NAME(id, name) name,
	RUNG_SAN_TOOL_LIST(RUNG_SAN_TOOL_NAME)
#undef RUNG_SAN_TOOL_NAME
};

static const char *const kind_names[] = {
#define RUNG_SAN_KIND_NAME(id, name) name,
	RUNG_SAN_KIND_LIST(RUNG_SAN_KIND_NAME)
#undef RUNG_SAN_KIND_NAME
};

static const char *const where_names[] = {
#define RUNG_SAN_WHERE_NAME(id, name) name,
	RUNG_SAN_WHERE_LIST(RUNG_SAN_WHERE_NAME)
#undef RUNG_SAN_WHERE_NAME
};

static const char *const bench_names[] = {
#define RUNG_SAN_BENCH_NAME(id, name) name,
	RUNG_SAN_BENCH_LIST(RUNG_SAN_BENCH_NAME)
#undef RUNG_SAN_BENCH_NAME
};

const char *rung_san_bench_name(rung_san_bench b)
{
	return (unsigned)b < RUNG_NSAN_BENCH ? bench_names[b] : "?";
}

const char *rung_san_tool_name(rung_san_tool t)
{
	return (unsigned)t < RUNG_NSAN_TOOLS ? tool_names[t] : "?";
}

const char *rung_san_kind_name(rung_san_kind k)
{
	return (unsigned)k < RUNG_NSAN_KINDS ? kind_names[k] : "?";
}

const char *rung_san_where_name(rung_san_where w)
{
	return (unsigned)w < RUNG_NSAN_WHERE ? where_names[w] : "?";
}

static int name_index(const char *const *names, int n, const char *name)
{
	for (int i = 0; name && i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

int rung_san_tool_parse(rung_san_tool *out, const char *name)
{
	int i = name_index(tool_names, RUNG_NSAN_TOOLS, name);
	if (i < 0)
		return RUNG_EINVAL;
	*out = (rung_san_tool)i;
	return 0;
}

int rung_san_bench_parse(rung_san_bench *out, const char *name)
{
	int i = name_index(bench_names, RUNG_NSAN_BENCH, name);
	if (i < 0)
		return RUNG_EINVAL;
	*out = (rung_san_bench)i;
	return 0;
}

int rung_san_kind_parse(rung_san_kind *out, const char *name)
{
	int i = name_index(kind_names, RUNG_NSAN_KINDS, name);
	if (i < 0)
		return RUNG_EINVAL;
	*out = (rung_san_kind)i;
	return 0;
}

int rung_san_where_parse(rung_san_where *out, const char *name)
{
	int i = name_index(where_names, RUNG_NSAN_WHERE, name);
	if (i < 0)
		return RUNG_EINVAL;
	*out = (rung_san_where)i;
	return 0;
}

bool rung_san_kind_is_host(rung_san_kind k)
{
	return k == RUNG_SANK_API_ERROR || k == RUNG_SANK_LEAK;
}

void rung_san_tools_format(char *buf, size_t len, unsigned mask)
{
	size_t o = 0;
	if (len)
		buf[0] = 0;
	for (int t = 0; t < RUNG_NSAN_TOOLS && o < len; t++)
		if (mask & RUNG_SAN_BIT(t))
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", tool_names[t]);
}

int rung_san_tools_parse(unsigned *mask, const char *text)
{
	unsigned m = 0;
	const char *p = text ? text : "";
	for (;;) {
		while (*p == ',' || isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		const char *s = p;
		while (*p && *p != ',' && !isspace((unsigned char)*p))
			p++;
		size_t n = (size_t)(p - s);
		int found = -1;
		for (int t = 0; t < RUNG_NSAN_TOOLS && found < 0; t++)
			if (strlen(tool_names[t]) == n && !strncmp(tool_names[t], s, n))
				found = t;
		if (found < 0) {
			char list[96];
			rung_san_tools_format(list, sizeof(list), RUNG_SAN_ALL);
			return rung_error_set(RUNG_EINVAL, "unknown tool '%.*s' (expected %s)", (int)(n > 64 ? 64 : n), s, list);
		}
		m |= RUNG_SAN_BIT(found);
	}
	if (!m)
		return rung_error_set(RUNG_EINVAL, "no tool given (expected memcheck, racecheck, synccheck or initcheck)");
	*mask = m;
	return 0;
}

/* --- small string helpers ------------------------------------------------- */

/* snprintf that cuts silently (the messages are bounded on purpose). */
static void sfmt(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void sfmt(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

/* Bounded copy of n bytes of s (always terminated). */
static void copyn(char *dst, size_t cap, const char *s, size_t n)
{
	if (!cap)
		return;
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = 0;
}

static void copys(char *dst, size_t cap, const char *s)
{
	copyn(dst, cap, s, strlen(s));
}

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static bool starts_ci(const char *s, const char *prefix)
{
	return !strncasecmp(s, prefix, strlen(prefix));
}

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static void trim_end(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '.' || s[n - 1] == ':'))
		s[--n] = 0;
}

/* A decimal count that may hold thousands separators ("5,959,904"); -1 when none. */
static int64_t parse_count(const char *s)
{
	s = skip_ws(s);
	if (!isdigit((unsigned char)*s))
		return -1;
	int64_t v = 0;
	for (; isdigit((unsigned char)*s) || (*s == ',' && isdigit((unsigned char)s[1])); s++) {
		if (*s == ',')
			continue;
		if (v > (INT64_MAX - 9) / 10)
			return INT64_MAX;
		v = v * 10 + (*s - '0');
	}
	return v;
}

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

void rung_san_base_name(char *buf, size_t len, const char *name)
{
	if (!len)
		return;
	buf[0] = 0;
	if (!name)
		return;
	const char *s = skip_ws(name);
	if (starts(s, "_Z")) { /* Itanium mangling: _Z<len><id>, _ZN<len><id>...E */
		const char *p = s + 2;
		bool nested = *p == 'N';
		if (nested)
			p++;
		const char *last = NULL;
		size_t lastn = 0;
		while (isdigit((unsigned char)*p)) {
			char *end;
			unsigned long n = strtoul(p, &end, 10);
			if (n == 0 || n > 4096 || strnlen(end, n) < n)
				break;
			last = end, lastn = n;
			p = end + n;
			if (!nested)
				break;
		}
		if (last) {
			copyn(buf, len, last, lastn);
			return;
		}
	}
	for (const char *pre; (pre = starts(s, "void ") ? "void " : starts(s, "__global__ ") ? "__global__ " : NULL);)
		s = skip_ws(s + strlen(pre));
	size_t n = strcspn(s, "(<+ ");
	/* "ns::kernel": the last component */
	const char *id = s;
	for (size_t i = 0; i + 1 < n; i++)
		if (s[i] == ':' && s[i + 1] == ':')
			id = s + i + 2;
	copyn(buf, len, id, n - (size_t)(id - s));
}

/* --- locations ------------------------------------------------------------ */

typedef struct {
	char func[96];
	char file[128];
	int line;
	bool have;
} loc;

/* "FILE:LINE" at s (up to end): sets file and line when s ends in ':' digits. */
static bool file_line(loc *l, const char *s, size_t n)
{
	size_t i = n;
	while (i > 0 && isdigit((unsigned char)s[i - 1]))
		i--;
	if (i == n || i < 2 || s[i - 1] != ':')
		return false;
	copyn(l->file, sizeof(l->file), s, i - 1);
	l->line = atoi(s + i);
	return true;
}

/* Where a location ends: the first " and <Op> access at", " [" (hazard count) or the end. */
static size_t loc_end(const char *s)
{
	size_t n = strlen(s);
	const char *b = strstr(s, " [");
	if (b && (size_t)(b - s) < n)
		n = (size_t)(b - s);
	for (const char *a = s; (a = strstr(a, " and ")) && (size_t)(a - s) < n; a += 5) {
		const char *w = a + 5;
		const char *sp = strchr(w, ' ');
		if (sp && starts(sp, " access at ")) {
			n = (size_t)(a - s);
			break;
		}
	}
	while (n && s[n - 1] == ' ')
		n--;
	return n;
}

/* The text after "at " (or "Device Frame:"): "softmax+0x350 in k.cu:10",
 * "void f<1>(float *)+0x70 in /p/k.cu:6", "0x000000c8 in /p/h.cuh:75:void f<double>(double*, int)",
 * "0x2c8 in kernel(float *)", "kernel_name+0x15520". */
static void parse_loc(loc *l, const char *s)
{
	memset(l, 0, sizeof(*l));
	s = skip_ws(s);
	size_t n = loc_end(s);
	if (!n)
		return;
	l->have = true;
	char seg[RUNG_SAN_LINE_MAX];
	copyn(seg, sizeof(seg), s, n);
	n = strlen(seg);
	const char *in = strstr(seg, " in ");
	if (starts(seg, "0x")) { /* offset first: the older forms */
		if (!in)
			return;
		const char *r = in + 4;
		/* "FILE:LINE:NAME" */
		const char *c = r;
		while ((c = strchr(c, ':'))) {
			const char *d = c + 1;
			while (isdigit((unsigned char)*d))
				d++;
			if (d > c + 1 && *d == ':') {
				copyn(l->file, sizeof(l->file), r, (size_t)(c - r));
				l->line = atoi(c + 1);
				copys(l->func, sizeof(l->func), d + 1);
				return;
			}
			c++;
		}
		if (!file_line(l, r, strlen(r)))
			copys(l->func, sizeof(l->func), r);
		return;
	}
	const char *plus = strstr(seg, "+0x");
	if (plus) {
		copyn(l->func, sizeof(l->func), seg, (size_t)(plus - seg));
		const char *after = plus + 3;
		while (isxdigit((unsigned char)*after))
			after++;
		if (starts(after, " in ")) {
			const char *f = after + 4;
			file_line(l, f, strlen(f));
		}
		return;
	}
	/* no offset: "FILE:LINE" or a name */
	if (!file_line(l, seg, n))
		copys(l->func, sizeof(l->func), seg);
}

static void loc_text(char *buf, size_t len, const loc *l)
{
	if (l->file[0] && l->line > 0)
		snprintf(buf, len, "%s:%d", base_of(l->file), l->line);
	else if (l->file[0])
		snprintf(buf, len, "%s", base_of(l->file));
	else if (l->func[0])
		rung_san_base_name(buf, len, l->func);
	else
		snprintf(buf, len, "?");
}

/* --- records -------------------------------------------------------------- */

enum { REC_NONE, REC_RACE, REC_HAZARD, REC_ACCESS, REC_UNINIT, REC_SYNC, REC_API, REC_LEAK, REC_UNKNOWN };

#define MAX_ACC 4

typedef struct {
	int type;
	rung_san_kind kind;
	bool warning;
	char head[224];
	loc at;
	char frame[96];   /* the outermost device frame: the kernel */
	char thread[96];  /* "thread (0,0,0) in block (3,0,0)" */
	char addr[160];
	int64_t hazards;
	int nacc, more;
	char op[MAX_ACC][12];
	loc acc[MAX_ACC];
} rec;

static void add_access(rec *r, const char *op, size_t opn, const char *where)
{
	if (r->nacc >= MAX_ACC) {
		r->more++;
	} else {
		copyn(r->op[r->nacc], sizeof(r->op[0]), op, opn);
		for (char *c = r->op[r->nacc]; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		parse_loc(&r->acc[r->nacc], where);
		r->nacc++;
	}
	/* "[N hazards]" right after this location (not after a later one) */
	const char *w = skip_ws(where);
	const char *b = w + loc_end(w);
	if (starts(b, " [")) {
		int64_t h = parse_count(b + 2);
		if (h > 0)
			r->hazards += h;
	}
}

/* "Read access at X and Write access at Y [N hazards]": every "<Op> access at". */
static void race_accesses(rec *r, const char *s)
{
	const char *p = s;
	const char *a;
	while ((a = strstr(p, " access at "))) {
		const char *w = a;
		while (w > p && w[-1] != ' ')
			w--;
		add_access(r, w, (size_t)(a - w), a + 11);
		p = a + 11;
	}
}

static rung_san_kind invalid_kind(const char *space, const char *op)
{
	bool rd = starts(op, "read"), wr = starts(op, "write");
	if (!rd && !wr)
		return RUNG_SANK_INVALID_ACCESS;
	if (starts(space, "__global__"))
		return rd ? RUNG_SANK_INVALID_GLOBAL_READ : RUNG_SANK_INVALID_GLOBAL_WRITE;
	if (starts(space, "__shared__"))
		return rd ? RUNG_SANK_INVALID_SHARED_READ : RUNG_SANK_INVALID_SHARED_WRITE;
	if (starts(space, "__local__"))
		return rd ? RUNG_SANK_INVALID_LOCAL_READ : RUNG_SANK_INVALID_LOCAL_WRITE;
	return RUNG_SANK_INVALID_ACCESS;
}

static void lower_first(char *s)
{
	if (s[0] && isupper((unsigned char)s[0]) && !isupper((unsigned char)s[1]))
		s[0] = (char)tolower((unsigned char)s[0]);
}

typedef struct {
	rung_san_report *rep;
	const rung_san_names *names;
	char kbase[96], kfile[128], rbase[96], rfile[128];
	rec r;
} pstate;

static bool same_base(const char *a, const char *b)
{
	return a[0] && b[0] && !strcmp(a, b);
}

static rung_san_where attribute(const pstate *ps, const char *kernel, const char *file)
{
	char base[96];
	rung_san_base_name(base, sizeof(base), kernel);
	bool k = same_base(base, ps->kbase), r = same_base(base, ps->rbase);
	if (k != r)
		return k ? RUNG_SANW_CANDIDATE : RUNG_SANW_REFERENCE;
	/* both names equal, or neither matches (a __device__ function that was
	 * not inlined and no frame): the file decides; else the candidate */
	const char *fb = base_of(file);
	if (fb[0] && same_base(fb, ps->rfile) && !same_base(fb, ps->kfile))
		return RUNG_SANW_REFERENCE;
	return RUNG_SANW_CANDIDATE;
}

static bool same_finding(const rung_san_finding *a, const rung_san_finding *b)
{
	if (a->tool != b->tool || a->kind != b->kind || a->where != b->where)
		return false;
	if (a->where == RUNG_SANW_HOST)
		return !strcmp(a->message, b->message);
	if (a->kind == RUNG_SANK_RACE)
		return !strcmp(a->message, b->message) && !strcmp(a->kernel, b->kernel);
	return !strcmp(a->kernel, b->kernel) && !strcmp(a->file, b->file) && a->line == b->line;
}

static void add_finding(rung_san_report *rep, const rung_san_finding *f)
{
	for (int i = 0; i < rep->n; i++) {
		if (same_finding(&rep->f[i], f)) {
			int64_t c = rep->f[i].count + f->count;
			rep->f[i].count = c < rep->f[i].count ? INT64_MAX : c;
			return;
		}
	}
	if (rep->n >= RUNG_SAN_PARSE_MAX) {
		rep->dropped++;
		return;
	}
	rep->f[rep->n++] = *f;
}

/* Turns the record in progress into a finding (or drops it). */
static void flush(pstate *ps)
{
	rec *r = &ps->r;
	int type = r->type;
	r->type = REC_NONE;
	if (type == REC_NONE)
		return;
	rung_san_finding f;
	memset(&f, 0, sizeof(f));
	f.tool = ps->rep->tool;
	f.kind = r->kind;
	f.count = 1;
	if (type == REC_API || type == REC_LEAK) {
		f.where = RUNG_SANW_HOST;
		copys(f.message, sizeof(f.message), r->head);
		add_finding(ps->rep, &f);
		return;
	}
	const loc *l = (type == REC_RACE || type == REC_HAZARD) && r->nacc ? &r->acc[0] : &r->at;
	if (type == REC_UNKNOWN && !l->have)
		return; /* a line we do not know, with no device location: not a finding */
	if (type == REC_UNKNOWN)
		f.kind = RUNG_SANK_DEVICE_EXCEPTION;
	const char *kernel = r->frame[0] ? r->frame : l->func;
	char base[96];
	rung_san_base_name(base, sizeof(base), kernel);
	if (starts(base, "rung_")) {
		ps->rep->own++;
		return;
	}
	/* "sgemm<128, 8>": the name without its parameter list */
	const char *k = skip_ws(kernel);
	if (starts(k, "void "))
		k = skip_ws(k + 5);
	size_t kn = strcspn(k, "(");
	if (starts(k, "_Z"))
		copys(f.kernel, sizeof(f.kernel), base);
	else
		copyn(f.kernel, sizeof(f.kernel), k, kn);
	trim_end(f.kernel);
	copys(f.file, sizeof(f.file), base_of(l->file));
	f.line = l->line;
	f.where = attribute(ps, kernel, l->file);
	char at[160], in[112] = "";
	loc_text(at, sizeof(at), l);
	if (f.kernel[0] && (l->file[0] || !l->func[0]))
		sfmt(in, sizeof(in), " in %s", f.kernel);
	if (type == REC_RACE || type == REC_HAZARD) {
		char a2[160] = "";
		if (r->nacc > 1)
			loc_text(a2, sizeof(a2), &r->acc[1]);
		char pre[64];
		if (type == REC_HAZARD)
			sfmt(pre, sizeof(pre), "%s", r->head);
		else
			sfmt(pre, sizeof(pre), "race%s", r->warning ? " (warning)" : "");
		char tail[64] = "";
		if (r->nacc + r->more > 2)
			sfmt(tail, sizeof(tail), " and %d more access%s", r->nacc + r->more - 2,
				 r->nacc + r->more - 2 == 1 ? "" : "es");
		char hz[48] = "";
		if (r->hazards > 0)
			sfmt(hz, sizeof(hz), " (%lld hazard%s)", (long long)r->hazards, r->hazards == 1 ? "" : "s");
		if (r->nacc > 1)
			sfmt(f.message, sizeof(f.message), "%s between %s at %s and %s at %s%s%s", pre, r->op[0], at,
				 r->op[1], a2, tail, hz);
		else if (r->nacc == 1)
			sfmt(f.message, sizeof(f.message), "%s at %s (%s)%s", pre, at, r->op[0], hz);
		else
			sfmt(f.message, sizeof(f.message), "%s%s", pre, hz);
		if (r->hazards > 0)
			f.count = r->hazards;
		add_finding(ps->rep, &f);
		return;
	}
	if (r->addr[0] && strstr(r->addr, "misaligned") &&
	    (f.kind >= RUNG_SANK_INVALID_GLOBAL_READ && f.kind <= RUNG_SANK_INVALID_ACCESS))
		f.kind = RUNG_SANK_MISALIGNED;
	char head[224];
	copys(head, sizeof(head), r->head);
	lower_first(head);
	sfmt(f.message, sizeof(f.message), "%s at %s%s%s%s%s%s", head, at, in, r->thread[0] ? " by " : "", r->thread,
		 r->addr[0] ? ": " : "", r->addr);
	add_finding(ps->rep, &f);
}

static void start(pstate *ps, int type, rung_san_kind kind, const char *head, bool warning)
{
	flush(ps);
	memset(&ps->r, 0, sizeof(ps->r));
	ps->r.type = type;
	ps->r.kind = kind;
	ps->r.warning = warning;
	copys(ps->r.head, sizeof(ps->r.head), head);
	trim_end(ps->r.head);
}

static void top_line(pstate *ps, const char *t)
{
	rung_san_report *rep = ps->rep;
	bool warning = false, error = false;
	const char *s = t;
	if (starts_ci(s, "error:"))
		s = skip_ws(s + 6), error = true;
	else if (starts_ci(s, "warning:"))
		s = skip_ws(s + 8), warning = true;
	if (starts(s, "COMPUTE-SANITIZER") || starts(s, "LEAK SUMMARY")) {
		flush(ps);
		return;
	}
	if (starts(s, "ERROR SUMMARY:")) {
		flush(ps);
		rep->have_summary = true;
		rep->summary_errors = parse_count(s + 14);
		return;
	}
	if (starts(s, "RACECHECK SUMMARY:")) {
		flush(ps);
		rep->have_summary = true;
		const char *paren = strchr(s, '(');
		int64_t e = paren ? parse_count(paren + 1) : -1;
		const char *comma = paren ? strchr(paren, ',') : NULL;
		int64_t w = comma ? parse_count(comma + 1) : 0;
		if (e < 0)
			e = parse_count(s + 18);
		if (rep->summary_errors < 0)
			rep->summary_errors = 0;
		rep->summary_errors += (e > 0 ? e : 0) + (w > 0 ? w : 0);
		return;
	}
	if (starts(s, "Race reported between")) {
		start(ps, REC_RACE, RUNG_SANK_RACE, "race", warning);
		race_accesses(&ps->r, s);
		return;
	}
	if (starts(s, "Potential ") && strstr(s, " hazard")) {
		char head[64];
		const char *h = s + 10;
		snprintf(head, sizeof(head), "%.*s hazard", (int)strcspn(h, " "), h);
		start(ps, REC_HAZARD, RUNG_SANK_RACE, head, warning);
		return;
	}
	if (starts(s, "Invalid ")) {
		char space[32] = "", op[32] = "";
		sscanf(s + 8, "%31s %31s", space, op);
		start(ps, REC_ACCESS, invalid_kind(space, op), s, false);
		return;
	}
	if (starts(s, "Uninitialized ")) {
		start(ps, REC_UNINIT, RUNG_SANK_UNINITIALIZED_READ, s, false);
		if (strstr(s, " on access by ") || strstr(s, "by host") || strstr(s, "API"))
			ps->r.type = REC_API; /* a host copy read it: rung's own call */
		return;
	}
	if (starts(s, "Host API")) {
		start(ps, REC_API, RUNG_SANK_API_ERROR, s, false);
		return;
	}
	if (starts(s, "Barrier error detected")) {
		start(ps, REC_SYNC, RUNG_SANK_SYNC_HAZARD, s, false);
		return;
	}
	if (starts(s, "Program hit ")) {
		start(ps, REC_API, RUNG_SANK_API_ERROR, s, false);
		return;
	}
	if (starts(s, "Leaked ")) {
		start(ps, REC_LEAK, RUNG_SANK_LEAK, s, false);
		return;
	}
	if (starts(s, "Internal Sanitizer Error") || (error && !rep->tool_error[0])) {
		flush(ps);
		if (!rep->tool_error[0])
			copys(rep->tool_error, sizeof(rep->tool_error), t);
		return;
	}
	if (starts(s, "Target application") || starts(s, "Running ")) {
		flush(ps);
		return;
	}
	/* "Warp Illegal Address", "Illegal Instruction", ...: a device error when an "at" follows */
	start(ps, REC_UNKNOWN, RUNG_SANK_OTHER, s, false);
}

static void detail_line(pstate *ps, const char *s)
{
	rec *r = &ps->r;
	if (r->type == REC_NONE)
		return;
	if (starts(s, "at ")) {
		if (!r->at.have)
			parse_loc(&r->at, s + 3);
		return;
	}
	if (starts(s, "by thread ")) {
		if (!r->thread[0]) {
			copys(r->thread, sizeof(r->thread), s + 3);
			trim_end(r->thread);
		}
		return;
	}
	if (starts(s, "Address ")) {
		if (!r->addr[0]) {
			copys(r->addr, sizeof(r->addr), s);
			lower_first(r->addr);
			trim_end(r->addr);
		}
		return;
	}
	if (starts(s, "Device Frame:")) {
		loc l;
		parse_loc(&l, s + 13);
		if (l.func[0])
			copys(r->frame, sizeof(r->frame), l.func);
		return;
	}
	if (r->type == REC_RACE && starts(s, "and ")) {
		race_accesses(r, s);
		return;
	}
	if (r->type == REC_HAZARD) {
		/* "Write Thread (0,0,0) at raceWAW+0x88 in raceWAW.cu:18" */
		const char *th = strstr(s, " Thread ");
		const char *at = th ? strstr(th, " at ") : NULL;
		if (th && at)
			add_access(r, s, (size_t)(th - s), at + 4);
	}
}

void rung_san_parse(rung_san_report *out, rung_san_tool tool, const char *text, size_t len,
		    const rung_san_names *names)
{
	memset(out, 0, sizeof(*out));
	out->tool = tool;
	out->summary_errors = -1;
	pstate ps;
	memset(&ps, 0, sizeof(ps));
	ps.rep = out;
	static const rung_san_names none;
	ps.names = names ? names : &none;
	rung_san_base_name(ps.kbase, sizeof(ps.kbase), ps.names->kernel);
	rung_san_base_name(ps.rbase, sizeof(ps.rbase), ps.names->ref);
	copys(ps.kfile, sizeof(ps.kfile), base_of(ps.names->kernel_file ? ps.names->kernel_file : ""));
	copys(ps.rfile, sizeof(ps.rfile), base_of(ps.names->ref_file ? ps.names->ref_file : ""));
	if (!text)
		return;
	char line[RUNG_SAN_LINE_MAX];
	size_t i = 0;
	while (i < len && text[i]) {
		size_t e = i;
		while (e < len && text[e] && text[e] != '\n')
			e++;
		size_t n = e - i;
		copyn(line, sizeof(line), text + i, n);
		i = e < len && text[e] == '\n' ? e + 1 : e;
		out->lines++;
		/* control characters (escape sequences, \r) are blanks and bytes
		 * outside ASCII '?': what is kept is inert text and valid UTF-8 */
		for (char *c = line; *c; c++)
			if ((unsigned char)*c < 0x20 || (unsigned char)*c == 0x7f)
				*c = ' ';
			else if ((unsigned char)*c >= 0x80)
				*c = '?';
		const char *s = line;
		if (*s == '=') {
			while (*s == '=')
				s++;
			if (*s == ' ')
				s++;
		}
		bool indented = *s == ' ' || *s == '\t';
		s = skip_ws(s);
		if (!*s)
			continue;
		if (indented)
			detail_line(&ps, s);
		else
			top_line(&ps, s);
	}
	flush(&ps);
}

void rung_san_describe(char *buf, size_t len, const rung_san_finding *f)
{
	char cnt[48] = "";
	if (f->count > 1 && f->kind != RUNG_SANK_RACE)
		snprintf(cnt, sizeof(cnt), " (%lld reports)", (long long)f->count);
	sfmt(buf, len, "%s: %s%s", rung_san_tool_name(f->tool), f->message, cnt);
}

/* --- the sanitize rung of a result ---------------------------------------- */

void rung_result_sanitize_add(rung_result *r, const rung_san_report *rep)
{
	r->sanitize_tools |= RUNG_SAN_BIT(rep->tool);
	for (int i = 0; i < rep->n; i++) {
		const rung_san_finding *f = &rep->f[i];
		int n = r->nsanitize;
		if (n >= RUNG_SAN_MAX_FINDINGS) {
			if (r->sanitize[n - 1].where <= f->where)
				continue; /* full of findings at least as important */
			n = --r->nsanitize;
		}
		/* after every finding of the same or a more important place */
		int at = n;
		while (at > 0 && r->sanitize[at - 1].where > f->where)
			at--;
		memmove(&r->sanitize[at + 1], &r->sanitize[at], (size_t)(n - at) * sizeof(r->sanitize[0]));
		r->sanitize[at] = *f;
		r->nsanitize++;
	}
}

static const rung_san_finding *first_at(const rung_result *r, rung_san_where w)
{
	for (int i = 0; i < r->nsanitize; i++)
		if (r->sanitize[i].where == w)
			return &r->sanitize[i];
	return NULL;
}

void rung_result_sanitize_judge(rung_result *r, const char *incomplete)
{
	rung_step *st = &r->steps[RUNG_STEP_SANITIZE];
	char d[400];
	const rung_san_finding *f;
	st->cause = RUNG_CAUSE_NONE;
	if ((f = first_at(r, RUNG_SANW_CANDIDATE))) {
		rung_san_describe(d, sizeof(d), f);
		st->status = RUNG_S_FAILED;
		sfmt(st->reason, sizeof(st->reason), "%s", d);
	} else if ((f = first_at(r, RUNG_SANW_REFERENCE))) {
		rung_san_describe(d, sizeof(d), f);
		st->status = RUNG_S_FAILED;
		sfmt(st->reason, sizeof(st->reason), "reference failed: %s", d);
		st->cause = RUNG_CAUSE_REFERENCE;
	} else if (incomplete && *incomplete) {
		st->status = RUNG_S_FAILED;
		sfmt(st->reason, sizeof(st->reason), "%s", incomplete);
	} else {
		char tools[96];
		rung_san_tools_format(tools, sizeof(tools), r->sanitize_tools);
		int64_t host = 0;
		for (int i = 0; i < r->nsanitize; i++)
			if (r->sanitize[i].where == RUNG_SANW_HOST)
				host += r->sanitize[i].count;
		st->status = RUNG_S_OK;
		if (host > 0)
			sfmt(st->reason, sizeof(st->reason),
				 "no findings (%s); %lld host-side report%s (rung's own CUDA calls) not counted", tools,
				 (long long)host, host == 1 ? "" : "s");
		else
			sfmt(st->reason, sizeof(st->reason), "no findings (%s)", tools);
	}
}

void rung_result_sanitize_copy(rung_result *dst, const rung_result *src)
{
	dst->steps[RUNG_STEP_SANITIZE] = src->steps[RUNG_STEP_SANITIZE];
	dst->sanitize_tools = src->sanitize_tools;
	dst->nsanitize = src->nsanitize;
	memcpy(dst->sanitize, src->sanitize, sizeof(dst->sanitize));
	memcpy(dst->sanitize_ms, src->sanitize_ms, sizeof(dst->sanitize_ms));
	memcpy(dst->sanitize_bench_ms, src->sanitize_bench_ms, sizeof(dst->sanitize_bench_ms));
	memcpy(dst->sanitize_bench, src->sanitize_bench, sizeof(dst->sanitize_bench));
	dst->sanitize_bench_limit_s = src->sanitize_bench_limit_s;
}
