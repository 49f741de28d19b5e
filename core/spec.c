/* rung.ini: reading and validating a task spec (format: docs/SPEC.md).
 *
 * The INI syntax is parsed by inih (ini_parse_stream). Our line reader feeds it
 * one line at a time, so the handler always knows the line it is on (the
 * packaged inih is built without INI_HANDLER_LINENO). The reader also keeps
 * inih from changing a spec silently: it handles [section] headers itself,
 * strips indentation (so no line is folded into the previous value), protects
 * ';' inside values (inih would cut "a ; b" as a comment), and turns a line
 * longer than inih's buffer into an error instead of a split line.
 *
 * Reading fills the spec and a side table of where each key was written; then
 * validate() checks what needs the whole file, evaluating every expression
 * under [dims] and under every [check] size set. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include <ini.h>

#include "core/items.h"
#include "core/err.h"
#include "core/fs.h"
#include "core/expr.h"
#include "core/sanitize.h"
#include "core/spec_internal.h"

enum { SEC_NONE, SEC_TASK, SEC_DIMS, SEC_CHECK, SEC_ARG, SEC_LAUNCH, SEC_ROOFLINE, SEC_GOAL, SEC_COUNT };
static const char *const sec_names[SEC_COUNT] = { "", "task", "dims", "check", "arg", "launch", "roofline", "goal" };

enum { T_NAME, T_KERNEL, T_ENTRY, T_REFERENCE, T_REFERENCE_ENTRY, T_ARCH, T_OPTIONS, T_HEADERS, T_COUNT };
static const char *const task_keys[] = { "name", "kernel", "entry", "reference", "reference_entry",
	                                     "arch", "options", "headers", NULL };
enum { C_SIZES, C_SEEDS, C_ATOL, C_RTOL, C_MIN_PSNR, C_MIN_COSSIM, C_DETERMINISTIC, C_INPUTS, C_SANITIZE, C_SPECIAL,
       C_COUNT };
static const char *const check_keys[] = { "sizes", "seeds", "atol", "rtol", "min_psnr", "min_cossim",
	                                      "deterministic", "inputs", "sanitize", "special", NULL };
enum { A_KIND, A_DTYPE, A_SHAPE, A_INIT, A_VALUE, A_GOLDEN, A_SIZE, A_COUNT };
static const char *const arg_keys[] = { "kind", "dtype", "shape", "init", "value", "golden", "size", NULL };
enum { L_GRID, L_BLOCK, L_SMEM, L_COUNT };
static const char *const launch_keys[] = { "grid", "block", "smem", NULL };
enum { R_FLOPS, R_BYTES, R_COUNT };
static const char *const roof_keys[] = { "flops", "bytes", NULL };
enum { G_ROOF, G_SPEEDUP, G_PLATEAU, G_VERSIONS, G_COUNT };
static const char *const goal_keys[] = { "roof", "speedup", "plateau", "versions", NULL };

typedef struct {
	rung_spec *s;
	const char *path;
	int sec;                       /* section being read */
	char label[RUNG_NAME_MAX + 8]; /* "[task]", "[arg C]" */
	int sec_line[SEC_COUNT];       /* first header line of each (non-arg) section */
	int task_line[T_COUNT], check_line[C_COUNT], launch_line[L_COUNT], roof_line[R_COUNT], goal_line[G_COUNT];
	int arg_line[RUNG_MAX_ARGS][A_COUNT];
	char *dim_text[RUNG_MAX_DIMS];
	int dim_line[RUNG_MAX_DIMS];
	char *sizes;
} pstate;

static int fail(pstate *ps, int line, const char *key, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int fail(pstate *ps, int line, const char *key, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return rung__fail(ps->path, line, ps->label[0] ? ps->label : NULL, key, "%s", msg);
}

static int nomem(void) { return rung_error_set(RUNG_ENOMEM, "out of memory"); }

static bool is_ident(const char *s, size_t len)
{
	if (!len || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (size_t i = 1; i < len; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return false;
	return true;
}

static int key_index(const char *const *keys, const char *key)
{
	for (int i = 0; keys[i]; i++)
		if (strcmp(keys[i], key) == 0)
			return i;
	return -1;
}

static const char *const *section_keys(int sec)
{
	switch (sec) {
	case SEC_TASK: return task_keys;
	case SEC_CHECK: return check_keys;
	case SEC_ARG: return arg_keys;
	case SEC_LAUNCH: return launch_keys;
	case SEC_ROOFLINE: return roof_keys;
	case SEC_GOAL: return goal_keys;
	}
	return NULL;
}

static void key_list(char *buf, size_t len, const char *const *keys)
{
	size_t used = 0;
	buf[0] = 0;
	for (int i = 0; keys[i] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", keys[i]);
}

/* --- values --------------------------------------------------------------- */

static bool parse_double(double *out, const char *s)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v))
		return false;
	*out = v;
	return true;
}

static int set_str(pstate *ps, char **dst, const char *v)
{
	if (!(*dst = strdup(v)))
		return nomem();
	return 0;
}

/* "dir/rel", or rel itself when absolute. */
static char *join_dir(const char *dir, const char *rel)
{
	if (rel[0] == '/' || !dir || !dir[0])
		return strdup(rel);
	size_t n = strlen(dir) + strlen(rel) + 2;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s", dir, rel);
	return p;
}

/* Splits a comma-separated expression list into e[0..max). */
static int set_exprs(pstate *ps, rung_expr_src *e, int *n, int max, const char *key, const char *v, int line)
{
	char *parts[RUNG_MAX_RANK + 1];
	int k = rung__split_top(parts, max, v, strlen(v));
	if (k == -3)
		return nomem();
	if (k == -2)
		return fail(ps, line, key, "empty item in '%s'", v);
	if (k == -1)
		return fail(ps, line, key, "more than %d comma-separated expressions", max);
	for (int i = 0; i < k; i++) {
		e[i].text = parts[i];
		e[i].line = line;
	}
	*n = k;
	return 0;
}

static int set_one_expr(pstate *ps, rung_expr_src *e, const char *key, const char *v, int line)
{
	int n;
	return set_exprs(ps, e, &n, 1, key, v, line);
}

static int parse_init(pstate *ps, rung_arg *a, const char *v, int line)
{
	static const struct {
		const char *name;
		rung_init_kind kind;
	} simple[] = { { "randn", RUNG_INIT_RANDN }, { "ones", RUNG_INIT_ONES },
		           { "zeros", RUNG_INIT_ZEROS }, { "arange", RUNG_INIT_ARANGE } };
	for (size_t i = 0; i < sizeof(simple) / sizeof(simple[0]); i++) {
		if (strcmp(v, simple[i].name) == 0) {
			a->init = simple[i].kind;
			return 0;
		}
	}
	if (strncmp(v, "npy:", 4) == 0) {
		const char *p = v + 4;
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			return fail(ps, line, "init", "npy: needs a path, e.g. npy:data/a.npy");
		a->init = RUNG_INIT_NPY;
		a->npy_absolute = p[0] == '/';
		if (!(a->npy_path = join_dir(ps->s->dir, p)))
			return nomem();
		return 0;
	}
	if (strncmp(v, "uniform", 7) == 0) {
		const char *p = v + 7;
		while (isspace((unsigned char)*p))
			p++;
		size_t len = strlen(p);
		char inner[256];
		if (*p != '(' || len < 2 || p[len - 1] != ')' || len - 2 >= sizeof(inner))
			return fail(ps, line, "init", "expected uniform(a,b), found '%s'", v);
		memcpy(inner, p + 1, len - 2);
		inner[len - 2] = 0;
		char *comma = strchr(inner, ',');
		if (!comma)
			return fail(ps, line, "init", "expected uniform(a,b), found '%s'", v);
		*comma = 0;
		char *sa = inner, *sb = comma + 1;
		while (isspace((unsigned char)*sa))
			sa++;
		while (isspace((unsigned char)*sb))
			sb++;
		for (char *e = sa + strlen(sa); e > sa && isspace((unsigned char)e[-1]);)
			*--e = 0;
		for (char *e = sb + strlen(sb); e > sb && isspace((unsigned char)e[-1]);)
			*--e = 0;
		if (!parse_double(&a->init_a, sa) || !parse_double(&a->init_b, sb))
			return fail(ps, line, "init", "bad number in '%s'", v);
		if (!(a->init_a < a->init_b))
			return fail(ps, line, "init", "uniform(a,b) needs a < b, found '%s'", v);
		a->init = RUNG_INIT_UNIFORM;
		return 0;
	}
	return fail(ps, line, "init", "unknown init '%s' (expected randn, uniform(a,b), ones, zeros, arange or npy:PATH)", v);
}

static int set_task(pstate *ps, int k, const char *v, int line)
{
	rung_spec *s = ps->s;
	char **dst[T_COUNT] = { &s->name, &s->kernel, &s->entry, &s->reference, &s->reference_entry,
		                    &s->arch, &s->options, &s->headers };
	if (k == T_ENTRY || k == T_REFERENCE_ENTRY) {
		int depth = 0;
		bool ok = isalpha((unsigned char)v[0]) || v[0] == '_';
		for (const char *p = v; *p && ok; p++) {
			depth += *p == '<' ? 1 : *p == '>' ? -1 : 0;
			ok = depth >= 0 && (depth > 0 || !isspace((unsigned char)*p));
		}
		if (!ok || depth != 0)
			return fail(ps, line, task_keys[k], "'%s' is not a kernel name (e.g. sgemm or sgemm<128,8>)", v);
	}
	if (k == T_ARCH) {
		bool virt = strncmp(v, "compute_", 8) == 0;
		const char *p = strncmp(v, "sm_", 3) == 0 ? v + 3 : virt ? v + 8 : NULL;
		size_t digits = p ? strspn(p, "0123456789") : 0;
		if (!p || digits < 2 || digits > 3 || (p[digits] && (strchr("af", p[digits]) == NULL || p[digits + 1])))
			return fail(ps, line, "arch", "'%s' is not an architecture (e.g. sm_90, sm_90a)", v);
		/* a virtual architecture gives PTX but no CUBIN, and every rung after compile needs one */
		if (virt)
			return fail(ps, line, "arch", "'%s' is a virtual architecture (PTX only); rung needs a CUBIN: use sm_%s",
			            v, p);
		/* whether NVRTC compiles for it is the compile's to say (gpu/compile.c), at this line */
		s->arch_line = line;
	}
	if (k == T_OPTIONS)
		s->options_line = line;
	if (k == T_KERNEL)
		s->kernel_line = line;
	if (k == T_REFERENCE)
		s->reference_line = line;
	if (k == T_HEADERS)
		s->headers_line = line;
	return set_str(ps, dst[k], v);
}

static int set_dim(pstate *ps, const char *key, const char *v, int line)
{
	rung_spec *s = ps->s;
	if (strlen(key) >= RUNG_NAME_MAX)
		return fail(ps, line, key, "name longer than %d characters", RUNG_NAME_MAX - 1);
	if (!strcmp(key, "cdiv") || !strcmp(key, "min") || !strcmp(key, "max"))
		return fail(ps, line, key, "'%s' is a function name", key);
	for (int i = 0; i < s->dims.n; i++)
		if (strcmp(s->dims.d[i].name, key) == 0)
			return fail(ps, line, key, "duplicate key (first at line %d)", ps->dim_line[i]);
	if (s->dims.n >= RUNG_MAX_DIMS)
		return fail(ps, line, key, "more than %d dims", RUNG_MAX_DIMS);
	int64_t val;
	if (rung_expr_eval(&val, v, &s->dims))
		return fail(ps, line, key, "%s", rung_error_last());
	if (val < 1)
		return rung__too_small(ps->path, line, ps->label, key, NULL, v, val, 1);
	int i = s->dims.n;
	if (!(ps->dim_text[i] = strdup(v)))
		return nomem();
	ps->dim_line[i] = line;
	return rung_dimset_set(&s->dims, key, val);
}

/* [check] inputs = normal, wide, ...: distribution names, each once, normal among them.
 * Stored normal first, then the others in the order written. */
static int set_inputs(pstate *ps, const char *v, int line)
{
	rung_spec *s = ps->s;
	rung_dist seen[RUNG_NDISTS];
	int n = 0;
	bool normal = false;
	const char *cur = v, *p;
	size_t len;
	bool done = false;
	while (rung_items_next(&cur, &done, &p, &len)) {
		if (len == 0)
			return fail(ps, line, "inputs", "empty item in '%s'", v);
		char name[64];
		snprintf(name, sizeof(name), "%.*s", (int)len, p);
		rung_dist d;
		if (rung_dist_parse(&d, name))
			return fail(ps, line, "inputs", "%s", rung_error_last());
		for (int i = 0; i < n; i++)
			if (seen[i] == d)
				return fail(ps, line, "inputs", "'%s' given twice", name);
		seen[n++] = d;
		normal |= d == RUNG_DIST_NORMAL;
	}
	if (!normal)
		return fail(ps, line, "inputs",
		            "'normal' is missing: the run case and the bench always use it (e.g. inputs = normal, %s)",
		            rung_dist_name(seen[0]));
	s->ninputs = 1;
	s->inputs[0] = RUNG_DIST_NORMAL;
	for (int i = 0; i < n; i++)
		if (seen[i] != RUNG_DIST_NORMAL)
			s->inputs[s->ninputs++] = seen[i];
	s->inputs_line = line;
	return 0;
}

static int set_check(pstate *ps, int k, const char *v, int line)
{
	rung_spec *s = ps->s;
	if (k == C_INPUTS)
		return set_inputs(ps, v, line);
	if (k == C_SPECIAL) {
		if (rung_special_parse(&s->special, v))
			return fail(ps, line, "special", "%s", rung_error_last());
		s->special_line = line;
		return 0;
	}
	if (k == C_SIZES) {
		if (!ps->sizes)
			return set_str(ps, &ps->sizes, v);
		/* a repeated `sizes` line adds more sets (long lists over several lines) */
		size_t n = strlen(ps->sizes) + strlen(v) + 2;
		char *joined = malloc(n);
		if (!joined)
			return nomem();
		snprintf(joined, n, "%s;%s", ps->sizes, v);
		free(ps->sizes);
		ps->sizes = joined;
		return 0;
	}
	if (k == C_SANITIZE) { /* compute-sanitizer tools: names from a fixed list only */
		unsigned mask;
		if (rung_san_tools_parse(&mask, v) < 0)
			return fail(ps, line, "sanitize", "%s", rung_error_last());
		s->sanitize = mask;
		s->sanitize_line = line;
		return 0;
	}
	if (k == C_SEEDS) {
		char *end;
		errno = 0;
		long n = strtol(v, &end, 10);
		if (end == v || *end || errno || n < 1 || n > 1000)
			return fail(ps, line, "seeds", "expected an integer from 1 to 1000, found '%s'", v);
		s->seeds = (int)n;
		return 0;
	}
	if (k == C_DETERMINISTIC) {
		if (!strcmp(v, "true") || !strcmp(v, "yes") || !strcmp(v, "1"))
			s->nondeterministic = false;
		else if (!strcmp(v, "false") || !strcmp(v, "no") || !strcmp(v, "0"))
			s->nondeterministic = true;
		else
			return fail(ps, line, "deterministic", "expected true or false, found '%s'", v);
		return 0;
	}
	double d;
	if (!parse_double(&d, v))
		return fail(ps, line, check_keys[k], "bad number '%s'", v);
	switch (k) {
	case C_ATOL:
	case C_RTOL:
		if (d < 0)
			return fail(ps, line, check_keys[k], "must not be negative, found '%s'", v);
		if (k == C_ATOL)
			s->atol = d, s->has_atol = true;
		else
			s->rtol = d, s->has_rtol = true;
		return 0;
	case C_MIN_PSNR:
		s->min_psnr = d, s->has_min_psnr = true;
		return 0;
	default:
		if (d < -1 || d > 1)
			return fail(ps, line, "min_cossim", "must be between -1 and 1, found '%s'", v);
		s->min_cossim = d, s->has_min_cossim = true;
		return 0;
	}
}

static int set_arg(pstate *ps, int k, const char *v, int line)
{
	rung_arg *a = &ps->s->args[ps->s->nargs - 1];
	switch (k) {
	case A_KIND:
		for (int i = RUNG_ARG_INPUT; i <= RUNG_ARG_SCALAR; i++) {
			if (strcmp(v, rung_arg_kind_name((rung_arg_kind)i)) == 0) {
				a->kind = (rung_arg_kind)i;
				return 0;
			}
		}
		if (strcmp(v, "scratch") == 0) { /* a pointer the kernel takes and rung does not check (Triton's scratch) */
			a->kind = RUNG_ARG_SCALAR;
			a->scratch = true;
			return 0;
		}
		return fail(ps, line, "kind", "unknown kind '%s' (expected input, output, inout, scalar or scratch)", v);
	case A_DTYPE:
		if (rung_dtype_parse(&a->dtype, v))
			return fail(ps, line, "dtype", "%s", rung_error_last());
		return 0;
	case A_SHAPE:
		return set_exprs(ps, a->shape, &a->rank, RUNG_MAX_RANK, "shape", v, line);
	case A_INIT:
		a->init_line = line;
		return parse_init(ps, a, v, line);
	case A_VALUE:
		return set_one_expr(ps, &a->value, "value", v, line);
	case A_SIZE:
		return set_one_expr(ps, &a->size, "size", v, line);
	default:
		a->golden_line = line;
		a->golden_absolute = v[0] == '/';
		if (!(a->golden = join_dir(ps->s->dir, v)))
			return nomem();
		return 0;
	}
}

/* [goal] roof = 80% (a percent, the '%' optional), speedup = 20x (the 'x'
 * optional), plateau = 3 and versions = 40 (whole numbers). */
static int set_goal(pstate *ps, int k, const char *v, int line)
{
	rung_goal_spec *g = &ps->s->goal;
	char num[64];
	size_t n = strlen(v);
	char unit = k == G_ROOF ? '%' : k == G_SPEEDUP ? 'x' : 0;
	if (unit && n && v[n - 1] == unit)
		n--;
	if (n >= sizeof(num))
		return fail(ps, line, goal_keys[k], "bad number '%s'", v);
	snprintf(num, sizeof(num), "%.*s", (int)n, v);
	for (char *e = num + strlen(num); e > num && isspace((unsigned char)e[-1]);)
		*--e = 0;
	if (k == G_PLATEAU || k == G_VERSIONS) {
		char *end;
		errno = 0;
		long c = strtol(num, &end, 10);
		if (end == num || *end || errno || c < 1 || c > 100000)
			return fail(ps, line, goal_keys[k], "expected a whole number from 1 to 100000, found '%s'", v);
		if (k == G_PLATEAU)
			g->plateau = (int)c, g->plateau_line = line;
		else
			g->versions = (int)c, g->versions_line = line;
		return 0;
	}
	double d;
	if (!parse_double(&d, num))
		return fail(ps, line, goal_keys[k], "bad number '%s' (e.g. %s)", v, k == G_ROOF ? "80%" : "20x");
	if (k == G_ROOF) {
		if (!(d > 0 && d <= 100))
			return fail(ps, line, "roof", "'%s': a percent of the roof above 0 and at most 100 (e.g. 80%%)", v);
		g->roof = d, g->roof_line = line;
	} else {
		if (!(d > 1))
			return fail(ps, line, "speedup", "'%s': a speedup over the baseline above 1 (e.g. 20x)", v);
		g->speedup = d, g->speedup_line = line;
	}
	return 0;
}

static int set_key(pstate *ps, const char *key, const char *v, int line)
{
	if (ps->sec == SEC_NONE)
		return rung__fail(ps->path, line, NULL, NULL, "'%s' is outside any section; start with [task]", key);
	if (ps->sec == SEC_DIMS)
		return set_dim(ps, key, v, line);
	const char *const *keys = section_keys(ps->sec);
	int k = key_index(keys, key);
	if (k < 0) {
		char list[128];
		key_list(list, sizeof(list), keys);
		return fail(ps, line, NULL, "unknown key '%s' (expected %s)", key, list);
	}
	int *seen = ps->sec == SEC_TASK ? ps->task_line : ps->sec == SEC_CHECK ? ps->check_line
	            : ps->sec == SEC_LAUNCH ? ps->launch_line : ps->sec == SEC_ROOFLINE ? ps->roof_line
	            : ps->sec == SEC_GOAL ? ps->goal_line : ps->arg_line[ps->s->nargs - 1];
	bool repeatable = ps->sec == SEC_CHECK && k == C_SIZES;
	if (seen[k] && !repeatable)
		return fail(ps, line, key, "duplicate key (first at line %d)", seen[k]);
	if (!seen[k])
		seen[k] = line;
	if (!*v)
		return fail(ps, line, key, "missing value");
	rung_spec *s = ps->s;
	switch (ps->sec) {
	case SEC_TASK: return set_task(ps, k, v, line);
	case SEC_CHECK: return set_check(ps, k, v, line);
	case SEC_ARG: return set_arg(ps, k, v, line);
	case SEC_GOAL: return set_goal(ps, k, v, line);
	case SEC_LAUNCH:
		if (k == L_GRID)
			return set_exprs(ps, s->launch.grid, &s->launch.ngrid, 3, key, v, line);
		if (k == L_BLOCK)
			return set_exprs(ps, s->launch.block, &s->launch.nblock, 3, key, v, line);
		return set_one_expr(ps, &s->launch.smem, key, v, line);
	default:
		return set_one_expr(ps, k == R_FLOPS ? &s->flops : &s->bytes, key, v, line);
	}
}

static int set_section(pstate *ps, const char *name, int line)
{
	ps->label[0] = 0;
	if (strncmp(name, "arg", 3) == 0 && (!name[3] || isspace((unsigned char)name[3]))) {
		const char *an = name + 3;
		while (isspace((unsigned char)*an))
			an++;
		rung_spec *s = ps->s;
		if (!*an)
			return rung__fail(ps->path, line, "[arg]", NULL, "missing argument name, e.g. [arg A]");
		snprintf(ps->label, sizeof(ps->label), "[arg %.*s]", RUNG_NAME_MAX, an);
		if (!is_ident(an, strlen(an)) || strlen(an) >= RUNG_NAME_MAX)
			return fail(ps, line, NULL, "'%s' is not a valid argument name", an);
		for (int i = 0; i < s->nargs; i++)
			if (strcmp(s->args[i].name, an) == 0)
				return fail(ps, line, NULL, "duplicate argument (first at line %d)", s->args[i].line);
		if (s->nargs >= RUNG_MAX_ARGS)
			return fail(ps, line, NULL, "more than %d arguments", RUNG_MAX_ARGS);
		rung_arg *a = &s->args[s->nargs++];
		snprintf(a->name, sizeof(a->name), "%s", an);
		a->line = line;
		ps->sec = SEC_ARG;
		return 0;
	}
	snprintf(ps->label, sizeof(ps->label), "[%.*s]", RUNG_NAME_MAX, name);
	for (int i = SEC_TASK; i < SEC_COUNT; i++) {
		if (i == SEC_ARG || strcmp(name, sec_names[i]) != 0)
			continue;
		if (ps->sec_line[i])
			return fail(ps, line, NULL, "duplicate section (first at line %d)", ps->sec_line[i]);
		ps->sec_line[i] = line;
		ps->sec = i;
		if (i == SEC_GOAL)
			ps->s->goal.line = line;
		return 0;
	}
	return fail(ps, line, NULL, "unknown section (expected [task], [dims], [check], [arg NAME], [launch] or [roofline])");
}

/* --- the INI layer: inih with a line-numbering reader ---------------------- */

#define PROTECTED_SEMI '\x1f' /* stands for ';' inside a value while inih splits the line */

typedef struct {
	pstate *ps;
	const char *p; /* next unread byte */
	int lineno;    /* line most recently handed to inih */
	int rc;        /* first error (ours or the handler's) */
} ini_src;

/* Handles a [section] header line (already trimmed); returns 0 or an error. */
static int header_line(pstate *ps, char *line, size_t len, int lineno)
{
	if (line[len - 1] != ']')
		return rung__fail(ps->path, lineno, NULL, NULL, "section header '%s' does not end with ']'", line);
	line[len - 1] = 0;
	char *n = line + 1;
	while (isspace((unsigned char)*n))
		n++;
	for (char *e = n + strlen(n); e > n && isspace((unsigned char)e[-1]);)
		*--e = 0;
	return set_section(ps, n, lineno);
}

/* Checks a key = value line before inih splits it: it must have '=' and a valid key. */
static int key_line(pstate *ps, const char *line, int lineno)
{
	const char *eq = strchr(line, '=');
	const char *colon = strchr(line, ':');
	const char *ke = eq ? eq : line + strlen(line);
	if (colon && colon < ke)
		ke = colon; /* inih would also accept "key: value"; rung.ini does not */
	while (ke > line && isspace((unsigned char)ke[-1]))
		ke--;
	char key[128];
	snprintf(key, sizeof(key), "%.*s", (int)(ke - line), line);
	if (!eq || (colon && colon < eq)) {
		if (!ps->label[0])
			return rung__fail(ps->path, lineno, NULL, NULL, "expected '[section]' or 'key = value', found '%s'", line);
		return fail(ps, lineno, NULL, "expected 'key = value', found '%s'", line);
	}
	if (!is_ident(key, strlen(key)))
		return fail(ps, lineno, NULL, "'%s' is not a valid key", key);
	return 0;
}

/* inih's reader: hands over one cleaned line per call; NULL ends the parse. */
static char *ini_line_reader(char *buf, int num, void *stream)
{
	ini_src *src = stream;
	if (src->rc || !*src->p)
		return NULL;
	const char *eol = strchr(src->p, '\n');
	if (!eol)
		eol = src->p + strlen(src->p);
	const char *a = src->p, *b = eol;
	src->p = *eol ? eol + 1 : eol;
	src->lineno++;
	if (src->lineno == 1 && strncmp(a, "\xEF\xBB\xBF", 3) == 0)
		a += 3;
	while (a < b && isspace((unsigned char)*a))
		a++;
	buf[0] = 0;
	if (a == b || *a == ';' || *a == '#')
		return buf; /* blank or comment: inih sees an empty line */
	const char *hash = memchr(a, '#', (size_t)(b - a));
	if (hash)
		b = hash;
	while (b > a && isspace((unsigned char)b[-1]))
		b--;
	size_t len = (size_t)(b - a);
	char *line = strndup(a, len);
	if (!line) {
		src->rc = nomem();
		return NULL;
	}
	if (line[0] == '[') {
		src->rc = header_line(src->ps, line, len, src->lineno);
	} else if (!(src->rc = key_line(src->ps, line, src->lineno))) {
		if (len + 3 > (size_t)num) {
			src->rc = fail(src->ps, src->lineno, NULL,
			               "line is %zu characters long, more than the %d the INI reader takes; "
			               "split it (a [check] sizes line may be repeated)", len, num - 3);
		} else {
			for (size_t i = 0; i < len; i++)
				buf[i] = line[i] == ';' ? PROTECTED_SEMI : line[i];
			buf[len] = '\n';
			buf[len + 1] = 0;
		}
	}
	free(line);
	return src->rc ? NULL : buf;
}

/* inih's handler: one key = value of the current line. Returns 1 to go on. */
static int spec_ini_handler(void *user, const char *section, const char *name, const char *value)
{
	(void)section; /* sections are tracked by header_line, with their line numbers */
	ini_src *src = user;
	if (src->rc)
		return 0;
	char *v = strdup(value ? value : "");
	if (!v) {
		src->rc = nomem();
		return 0;
	}
	for (char *c = v; *c; c++)
		if (*c == PROTECTED_SEMI)
			*c = ';';
	src->rc = set_key(src->ps, name, v, src->lineno);
	free(v);
	return src->rc ? 0 : 1;
}

static int read_lines(pstate *ps, const char *text)
{
	ini_src src = { .ps = ps, .p = text };
	int r = ini_parse_stream(ini_line_reader, &src, spec_ini_handler, &src);
	if (src.rc)
		return src.rc;
	if (r == -2)
		return nomem();
	if (r != 0)
		return rung__fail(ps->path, r > 0 ? r : src.lineno, NULL, NULL, "malformed line");
	return 0;
}

/* --- whole-file validation -------------------------------------------------- */

static void use_label(pstate *ps, const char *fmt, const char *name)
{
	snprintf(ps->label, sizeof(ps->label), fmt, name);
}

/* Builds each [check] size set: [dims] in order, with overridden dims taking the set's
 * value and the others re-evaluated from their expressions. */
static int build_check_sets(pstate *ps)
{
	rung_spec *s = ps->s;
	use_label(ps, "%s", "[check]");
	int line = ps->check_line[C_SIZES];
	if (!ps->sizes) {
		s->ncheck = 1;
		s->check[0] = s->dims;
		return 0;
	}
	const char *p = ps->sizes;
	int set = 0;
	for (;;) {
		const char *semi = strchr(p, ';');
		size_t len = semi ? (size_t)(semi - p) : strlen(p);
		set++;
		if (set > RUNG_MAX_CHECK_SETS)
			return fail(ps, line, "sizes", "more than %d size sets", RUNG_MAX_CHECK_SETS);
		char *items[RUNG_MAX_DIMS + 1];
		int n = rung__split_top(items, RUNG_MAX_DIMS, p, len);
		if (n == -3)
			return nomem();
		if (n == -2)
			return fail(ps, line, "sizes", "size set %d is empty or has an empty item; expected e.g. 'M=127,N=255; M=1024,N=1024'", set);
		if (n == -1)
			return fail(ps, line, "sizes", "size set %d has more than %d items", set, RUNG_MAX_DIMS);
		rung_dimset over = { 0 };
		int rc = 0;
		for (int i = 0; i < n && !rc; i++) {
			char *eq = strchr(items[i], '=');
			if (!eq) {
				rc = fail(ps, line, "sizes", "size set %d: expected NAME=VALUE, found '%s'", set, items[i]);
				break;
			}
			char *ke = eq;
			while (ke > items[i] && isspace((unsigned char)ke[-1]))
				ke--;
			*ke = 0;
			int64_t v, dummy;
			if (rung_dimset_get(&dummy, &s->dims, items[i]))
				rc = fail(ps, line, "sizes", "size set %d: unknown dim '%s' (not in [dims])", set, items[i]);
			else if (rung_dimset_get(&dummy, &over, items[i]) == 0)
				rc = fail(ps, line, "sizes", "size set %d: '%s' given twice", set, items[i]);
			else if (rung_expr_eval(&v, eq + 1, NULL)) {
				rc = fail(ps, line, "sizes", "size set %d: %s: %s", set, items[i], rung_error_last());
			} else if (v < 1)
				rc = fail(ps, line, "sizes", "size set %d: %s = %lld, must be at least 1", set, items[i], (long long)v);
			else
				rc = rung_dimset_set(&over, items[i], v);
		}
		for (int i = 0; i < n; i++)
			free(items[i]);
		if (rc)
			return rc;
		rung_dimset *ds = &s->check[s->ncheck++];
		ds->n = 0;
		for (int i = 0; i < s->dims.n; i++) {
			const char *name = s->dims.d[i].name;
			int64_t v;
			if (rung_dimset_get(&v, &over, name) != 0 && rung_expr_eval(&v, ps->dim_text[i], ds) != 0) {
				use_label(ps, "%s", "[dims]");
				return rung__in_set(fail(ps, ps->dim_line[i], name, "%s", rung_error_last()), &over, NULL);
			}
			if (v < 1) {
				use_label(ps, "%s", "[dims]");
				return rung__in_set(rung__too_small(ps->path, ps->dim_line[i], ps->label, name, NULL, ps->dim_text[i], v, 1),
				                    &over, NULL);
			}
			rung_dimset_set(ds, name, v);
		}
		if (!semi)
			break;
		p = semi + 1;
	}
	return 0;
}

/* Evaluates e under [dims] and every check set; also requires >= min. */
static int check_expr(pstate *ps, const rung_expr_src *e, const char *key, int64_t min)
{
	rung_spec *s = ps->s;
	for (int i = -1; i < s->ncheck; i++) {
		const rung_dimset *ds = i < 0 ? &s->dims : &s->check[i];
		int64_t v;
		int rc = rung__expr_at(&v, e, ds, ps->path, ps->label, key);
		if (!rc && v < min)
			rc = rung__too_small(ps->path, e->line, ps->label, key, NULL, e->text, v, min);
		if (rc)
			return rung__in_set(rc, ds, &s->dims);
	}
	return 0;
}

/* [arg X] kind = scratch: a global scratch pointer of a DSL's kernel (Triton
 * passes global and profile scratch after the kernel's own arguments). Its
 * size in bytes is an expression >= 0 under every size set: the worker passes
 * a zero-filled buffer of that size, a null pointer for 0. It must come after
 * every other argument (a kernel may take the arguments without the scratch
 * ones: a CUDA version, the reference). */
static int check_scratch(pstate *ps, int idx)
{
	rung_spec *s = ps->s;
	rung_arg *a = &s->args[idx];
	int *seen = ps->arg_line[idx];
	static const int not_for[] = { A_DTYPE, A_SHAPE, A_INIT, A_VALUE, A_GOLDEN };
	for (size_t k = 0; k < sizeof(not_for) / sizeof(not_for[0]); k++)
		if (seen[not_for[k]])
			return fail(ps, seen[not_for[k]], arg_keys[not_for[k]], "a scratch argument takes only 'size' (bytes)");
	if (!seen[A_SIZE])
		return fail(ps, a->line, "size", "missing; a scratch argument needs a size in bytes (e.g. size = 0)");
	if (check_expr(ps, &a->size, "size", 0))
		return RUNG_EINVAL;
	for (int k = idx + 1; k < s->nargs; k++)
		if (!s->args[k].scratch)
			return fail(ps, s->args[k].line, NULL, "[arg %s] comes after the scratch argument [arg %s]; scratch "
			            "arguments go last", s->args[k].name, a->name);
	/* a 64-bit pointer, passed by value like a scalar (the worker puts the
	 * buffer's address in its place, gpu/worker/launch.c) */
	a->dtype = RUNG_DT_I64;
	free(a->value.text);
	if (!(a->value.text = strdup("0")))
		return nomem();
	a->value.line = a->line;
	s->nscratch++;
	return 0;
}

static int check_arg(pstate *ps, int idx)
{
	rung_spec *s = ps->s;
	rung_arg *a = &s->args[idx];
	int *seen = ps->arg_line[idx];
	use_label(ps, "[arg %s]", a->name);
	if (!seen[A_KIND])
		return fail(ps, a->line, "kind", "missing (input, output, inout, scalar or scratch)");
	if (a->scratch)
		return check_scratch(ps, idx);
	if (seen[A_SIZE])
		return fail(ps, seen[A_SIZE], "size", "only a scratch argument takes a size");
	if (!seen[A_DTYPE])
		return fail(ps, a->line, "dtype", "missing (f64, f32, f16, bf16, i64, i32 or u8)");
	const char *kind = rung_arg_kind_name(a->kind);
	if (a->kind == RUNG_ARG_SCALAR) {
		if (seen[A_SHAPE])
			return fail(ps, seen[A_SHAPE], "shape", "a scalar has no shape");
		if (seen[A_INIT])
			return fail(ps, seen[A_INIT], "init", "a scalar takes 'value', not 'init'");
		if (seen[A_GOLDEN])
			return fail(ps, seen[A_GOLDEN], "golden", "only outputs and inouts take a golden file");
		if (!seen[A_VALUE])
			return fail(ps, a->line, "value", "missing; a scalar needs a value (e.g. value = M)");
		for (int i = -1; i < s->ncheck; i++) {
			const rung_dimset *ds = i < 0 ? &s->dims : &s->check[i];
			if (rung_arg_value(NULL, NULL, a, ds, ps->path))
				return rung__in_set(RUNG_EINVAL, ds, &s->dims);
		}
		return 0;
	}
	if (seen[A_VALUE])
		return fail(ps, seen[A_VALUE], "value", "only scalars take a value; an %s has a shape", kind);
	if (!seen[A_SHAPE])
		return fail(ps, a->line, "shape", "missing; an %s needs a shape (e.g. shape = M, K)", kind);
	if (a->kind == RUNG_ARG_OUTPUT && seen[A_INIT])
		return fail(ps, seen[A_INIT], "init", "an output is written by the kernel; use kind = inout to give it initial values");
	if (a->kind == RUNG_ARG_INPUT && seen[A_GOLDEN])
		return fail(ps, seen[A_GOLDEN], "golden", "only outputs and inouts take a golden file");
	if (a->kind != RUNG_ARG_OUTPUT && !seen[A_INIT]) {
		a->init = rung_dtype_is_float(a->dtype) ? RUNG_INIT_RANDN : RUNG_INIT_UNIFORM;
		a->init_a = 0;
		a->init_b = a->init == RUNG_INIT_UNIFORM ? 100 : 0;
	}
	if (seen[A_INIT] && a->init == RUNG_INIT_RANDN && !rung_dtype_is_float(a->dtype))
		return fail(ps, seen[A_INIT], "init", "randn needs a float dtype, not %s; use uniform(a,b) or arange",
		            rung_dtype_name(a->dtype));
	for (int d = 0; d < a->rank; d++)
		if (check_expr(ps, &a->shape[d], "shape", 1))
			return RUNG_EINVAL;
	for (int i = -1; i < s->ncheck; i++) {
		const rung_dimset *ds = i < 0 ? &s->dims : &s->check[i];
		int64_t n;
		if (rung_arg_numel(&n, a, ds, ps->path))
			return rung__in_set(RUNG_EINVAL, ds, &s->dims);
		if (n > INT64_MAX / 8)
			return rung__in_set(fail(ps, seen[A_SHAPE], "shape", "%lld elements is too many", (long long)n), ds, &s->dims);
	}
	return 0;
}

/* [check] inputs, once the arguments are known: each distribution besides normal
 * must change some argument, and golden outputs hold the normal inputs' results. */
static int check_inputs(pstate *ps)
{
	rung_spec *s = ps->s;
	bool special = false;
	for (int d = 1; d < s->ninputs; d++)
		special |= s->inputs[d] == RUNG_DIST_SPECIAL;
	use_label(ps, "%s", "[check]");
	if (s->special_line && !special)
		return fail(ps, s->special_line, "special",
		            "the special values are drawn only by the 'special' distribution: add it to inputs (inputs = normal, special)");
	if (!s->special_line)
		s->special = RUNG_SPECIAL_ALL;
	if (s->ninputs == 0) {
		s->ninputs = 1;
		s->inputs[0] = RUNG_DIST_NORMAL;
		return 0;
	}
	for (int d = 1; d < s->ninputs; d++) {
		bool changes = false;
		for (int i = 0; i < s->nargs; i++) {
			const rung_arg *a = &s->args[i];
			if (a->golden)
				return fail(ps, s->inputs_line, "inputs",
				            "'%s' cannot be checked against the golden file of [arg %s] (it holds the result of the normal inputs)",
				            rung_dist_name(s->inputs[d]), a->name);
			if ((a->kind == RUNG_ARG_INPUT || a->kind == RUNG_ARG_INOUT) &&
			    rung_dist_init(s->inputs[d], a->dtype, a->init) != a->init)
				changes = true;
		}
		if (!changes)
			return fail(ps, s->inputs_line, "inputs",
			            "'%s' changes no argument (it replaces float inputs whose init is randn or uniform)",
			            rung_dist_name(s->inputs[d]));
	}
	return 0;
}

/* e evaluates under ds to at least min (absent: true). */
static bool evals_at_least(const rung_expr_src *e, const rung_dimset *ds, int64_t min)
{
	int64_t v;
	return !e->text || (rung_expr_eval(&v, e->text, ds) == 0 && v >= min);
}

/* A size set below the block (issue 25): where the task's own size sets vary
 * the row length D (the last extent of its first output, a plain [dims] name)
 * and none of them has D below the block's x threads B, a set with D = B/2 + 1
 * and every other dim from its [dims] expression, kept in s->small (added by
 * rung_spec_default_checks). Left out, silently, where any shape, launch or
 * roofline expression would not hold under it. */
static void small_check_set(pstate *ps)
{
	rung_spec *s = ps->s;
	s->has_small = false;
	if (!ps->sizes || s->launch.nblock < 1 || s->ncheck >= RUNG_MAX_CHECK_SETS)
		return;
	int64_t bx, bench;
	if (rung_expr_eval(&bx, s->launch.block[0].text, &s->dims) || bx < 4)
		return;
	const rung_arg *out = NULL;
	for (int i = 0; i < s->nargs; i++)
		if (s->args[i].npy_path || s->args[i].golden)
			return; /* data of one shape */
	for (int i = 0; i < s->nargs && !out; i++)
		if ((s->args[i].kind == RUNG_ARG_OUTPUT || s->args[i].kind == RUNG_ARG_INOUT) && s->args[i].rank > 0)
			out = &s->args[i];
	if (!out)
		return;
	char dname[RUNG_NAME_MAX];
	const char *t = out->shape[out->rank - 1].text;
	while (t && isspace((unsigned char)*t))
		t++;
	size_t len = t ? strcspn(t, " \t") : 0;
	if (!len || len >= sizeof(dname) || (t[len] && t[len + strspn(t + len, " \t")]))
		return;
	snprintf(dname, sizeof(dname), "%.*s", (int)len, t);
	if (rung_dimset_get(&bench, &s->dims, dname))
		return;
	bool varies = false;
	for (int k = 0; k < s->ncheck; k++) {
		int64_t v;
		if (rung_dimset_get(&v, &s->check[k], dname))
			return;
		if (v < bx)
			return; /* the task has one already */
		varies |= v != bench;
	}
	if (!varies)
		return;
	rung_dimset ds = { 0 }, over = { 0 };
	rung_dimset_set(&over, dname, bx / 2 + 1);
	for (int i = 0; i < s->dims.n; i++) {
		int64_t v;
		if (rung_dimset_get(&v, &over, s->dims.d[i].name) != 0 &&
		    (rung_expr_eval(&v, ps->dim_text[i], &ds) != 0 || v < 1))
			return;
		rung_dimset_set(&ds, s->dims.d[i].name, v);
	}
	for (int i = 0; i < s->nargs; i++) {
		for (int r = 0; r < s->args[i].rank; r++)
			if (!evals_at_least(&s->args[i].shape[r], &ds, 1))
				return;
		if (!evals_at_least(&s->args[i].value, &ds, INT64_MIN) || !evals_at_least(&s->args[i].size, &ds, 0))
			return;
	}
	for (int k = 0; k < s->launch.ngrid; k++)
		if (!evals_at_least(&s->launch.grid[k], &ds, 1))
			return;
	for (int k = 0; k < s->launch.nblock; k++)
		if (!evals_at_least(&s->launch.block[k], &ds, 1))
			return;
	if (!evals_at_least(&s->launch.smem, &ds, 0) || !evals_at_least(&s->flops, &ds, 0) ||
	    !evals_at_least(&s->bytes, &ds, 0))
		return;
	s->small = ds;
	s->has_small = true;
}

static int validate(pstate *ps)
{
	rung_spec *s = ps->s;
	if (!ps->sec_line[SEC_TASK])
		return rung__fail(ps->path, 1, "[task]", NULL, "missing section");
	use_label(ps, "%s", "[task]");
	for (int k = T_NAME; k <= T_REFERENCE_ENTRY; k++)
		if (!ps->task_line[k])
			return fail(ps, ps->sec_line[SEC_TASK], task_keys[k], "missing (required)");
	int rc = build_check_sets(ps);
	if (rc)
		return rc;
	if (s->seeds == 0)
		s->seeds = 3;
	if (s->nargs == 0)
		return rung__fail(ps->path, 1, NULL, NULL, "no [arg NAME] sections; declare one per kernel parameter, in order");
	bool has_out = false;
	for (int i = 0; i < s->nargs; i++) {
		if ((rc = check_arg(ps, i)))
			return rc;
		has_out |= s->args[i].kind == RUNG_ARG_OUTPUT || s->args[i].kind == RUNG_ARG_INOUT;
	}
	if (!has_out)
		return rung__fail(ps->path, s->args[0].line, NULL, NULL,
		                  "no argument is an output or inout, so there is nothing to check");
	if ((rc = check_inputs(ps)))
		return rc;
	if (!ps->sec_line[SEC_LAUNCH])
		return rung__fail(ps->path, 1, "[launch]", NULL, "missing section (grid and block are required)");
	use_label(ps, "%s", "[launch]");
	if (!s->launch.ngrid)
		return fail(ps, ps->sec_line[SEC_LAUNCH], "grid", "missing (required)");
	/* a PTX or CUBIN kernel may take its block from its sidecar or its `// rung:`
	 * line (rung_launch_for_kernel says so when neither gives one) */
	bool dsl = s->kernel && rung_kernel_lang_of(s->kernel) != RUNG_LANG_CUDA;
	if (!s->launch.nblock && !dsl)
		return fail(ps, ps->sec_line[SEC_LAUNCH], "block", "missing (required)");
	if (s->launch.nblock) {
		if ((rc = rung__launch_check(&s->launch, s, "[launch]")))
			return rc;
	} else {
		rung_launch l = s->launch; /* grid and smem checked with a block of 1 */
		l.nblock = 1;
		l.block[0].text = "1";
		l.block[0].line = ps->sec_line[SEC_LAUNCH];
		if ((rc = rung__launch_check(&l, s, "[launch]")))
			return rc;
	}
	use_label(ps, "%s", "[roofline]");
	if (s->flops.text && (rc = check_expr(ps, &s->flops, "flops", 0)))
		return rc;
	if (s->bytes.text && (rc = check_expr(ps, &s->bytes, "bytes", 0)))
		return rc;
	const rung_goal_spec *g = &s->goal;
	use_label(ps, "%s", "[goal]");
	if (g->line && !g->roof_line && !g->speedup_line && !g->plateau_line && !g->versions_line)
		return fail(ps, g->line, NULL, "no goal in it (expected roof, speedup, plateau or versions, e.g. roof = 80%%)");
	if (g->roof_line && !s->flops.text && !s->bytes.text)
		return fail(ps, g->roof_line, "roof", "needs [roofline] flops or bytes: without them there is no roof to reach");
	small_check_set(ps);
	return 0;
}

/* --- public ------------------------------------------------------------------ */

/* Whether line [a, b) is a section header, and whether it is [goal]. */
static int header_kind(const char *a, const char *b)
{
	while (a < b && isspace((unsigned char)*a))
		a++;
	while (b > a && isspace((unsigned char)b[-1]))
		b--;
	if (a == b || *a != '[' || b[-1] != ']')
		return 0;
	a++, b--;
	while (a < b && isspace((unsigned char)*a))
		a++;
	while (b > a && isspace((unsigned char)b[-1]))
		b--;
	return b - a == 4 && !strncmp(a, "goal", 4) ? 2 : 1;
}

static bool blank_or_comment(const char *a, const char *b)
{
	while (a < b && isspace((unsigned char)*a))
		a++;
	return a == b || *a == '#' || *a == ';';
}

char *rung_spec_text_without_goal(const char *text)
{
	size_t len = strlen(text);
	char *out = malloc(len + 1);
	if (!out)
		return NULL;
	size_t o = 0, keep = 0; /* keep: where the blank and comment lines above the next line start */
	bool in_goal = false;
	for (const char *p = text; *p;) {
		const char *eol = strchr(p, '\n');
		const char *next = eol ? eol + 1 : p + strlen(p);
		int h = header_kind(p, eol ? eol : next);
		if (h)
			in_goal = h == 2;
		if (h == 2)
			o = keep; /* drop the comments and blank lines above it too */
		if (!in_goal) {
			bool bc = blank_or_comment(p, eol ? eol : next);
			memcpy(out + o, p, (size_t)(next - p));
			o += (size_t)(next - p);
			if (!bc)
				keep = o;
		}
		p = next;
	}
	out[o] = 0;
	return out;
}

int rung_spec_parse(rung_spec **out, const char *text, const char *path, const char *dir)
{
	*out = NULL;
	if (!path)
		path = "rung.ini";
	rung_spec *s = calloc(1, sizeof(*s));
	if (!s)
		return nomem();
	s->path = strdup(path);
	s->dir = dir ? strdup(dir) : rung_fs_dir_of(path);
	if (!s->path || !s->dir) {
		rung_spec_free(s);
		return nomem();
	}
	snprintf(s->launch.file, sizeof(s->launch.file), "%s", path);
	pstate ps = { .s = s, .path = s->path };
	int rc = read_lines(&ps, text ? text : "");
	if (!rc)
		rc = validate(&ps);
	for (int i = 0; i < RUNG_MAX_DIMS; i++)
		free(ps.dim_text[i]);
	free(ps.sizes);
	if (rc) {
		rung_spec_free(s);
		return rc;
	}
	*out = s;
	return 0;
}

int rung_spec_check_headers(const rung_spec *s)
{
	for (const char *p = s->headers; p && *p;) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		const char *b = p;
		while (*p && *p != ' ' && *p != '\t' && *p != ',')
			p++;
		if (p == b)
			break;
		char *name = strndup(b, (size_t)(p - b));
		char *dir = name ? join_dir(s->dir, name) : NULL;
		if (!dir) {
			free(name);
			return nomem();
		}
		struct stat st;
		int rc = 0;
		if (stat(dir, &st) != 0)
			rc = rung__fail(s->path, s->headers_line, "[task]", "headers", "'%s': %s (%s)", name,
			                errno == ENOENT ? "no such directory" : strerror(errno), dir);
		else if (!S_ISDIR(st.st_mode))
			rc = rung__fail(s->path, s->headers_line, "[task]", "headers", "'%s' is not a directory (%s)", name, dir);
		free(name);
		free(dir);
		if (rc)
			return rc;
	}
	return 0;
}

/* One path the spec names (name as written, joined: resolved against s->dir). */
static int confine_one(const rung_spec *s, const char *root, const char *what, const char *label, const char *key,
		       int line, const char *name, const char *joined)
{
	if (name[0] == '/')
		return rung__fail(s->path, line, label, key,
				  "'%s' is an absolute path; rung reads only files inside %s: name it relative to the task directory",
				  name, what);
	if (!root)
		return rung_fs_rel_inside(joined) ? 0
		       : rung__fail(s->path, line, label, key, "'%s' is outside %s", name, what);
	char *res = NULL;
	int rc = rung_fs_confined(&res, root, joined);
	if (rc == RUNG_EINVAL) {
		char realroot[PATH_MAX];
		rc = rung__fail(s->path, line, label, key, "'%s' is outside %s (%s): it is %s", name, what,
				realpath(root, realroot) ? realroot : root, res ? res : joined);
	}
	free(res);
	return rc;
}

/* The name as written of a path that join_dir joined to the task dir. */
static const char *as_written(const rung_spec *s, const char *joined, bool absolute)
{
	size_t n = s->dir ? strlen(s->dir) : 0;
	if (!absolute && n && strncmp(joined, s->dir, n) == 0 && joined[n] == '/')
		return joined + n + 1;
	return joined;
}

/* NVRTC options that name a file or directory, read or written (-I also
 * written together with its directory: -Iinc). NVRTC takes their paths from
 * the current directory, wherever rung runs, and the compile's #include check
 * (gpu/compile.c) follows only the task's own directories, so they are not
 * taken: `headers` lists include directories, relative to the task. */
static const char *const path_opts[] = { "-I", "--include-path", "-include", "--pre-include", "-use-pch", "--use-pch",
	                                     "-pch-dir", "--pch-dir", "-create-pch", "--create-pch", "-time", "--time",
	                                     "-fdevice-time-trace", "--fdevice-time-trace", NULL };

static int confine_options(const rung_spec *s)
{
	for (const char *p = s->options; p && *p;) {
		while (isspace((unsigned char)*p))
			p++;
		const char *b = p;
		while (*p && !isspace((unsigned char)*p))
			p++;
		size_t n = (size_t)(p - b);
		for (int k = 0; path_opts[k] && n; k++) {
			size_t l = strlen(path_opts[k]);
			if (n < l || strncmp(b, path_opts[k], l) != 0 || (n > l && b[l] != '=' && k != 0))
				continue;
			return rung__fail(s->path, s->options_line, "[task]", "options",
			                  "'%.*s' names a path, which rung does not pass to NVRTC (it would read it from "
			                  "wherever rung runs); list include directories in headers, relative to the task directory",
			                  (int)n, b);
		}
	}
	return 0;
}

int rung_spec_confine(const rung_spec *s, const char *root, const char *what)
{
	if (!what)
		what = "the repository";
	const struct {
		const char *key, *name;
		int line;
	} files[] = { { "kernel", s->kernel, s->kernel_line }, { "reference", s->reference, s->reference_line } };
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (!files[i].name)
			continue;
		char *j = join_dir(s->dir, files[i].name);
		int rc = j ? confine_one(s, root, what, "[task]", files[i].key, files[i].line, files[i].name, j) : nomem();
		free(j);
		if (rc)
			return rc;
	}
	for (const char *p = s->headers; p && *p;) {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		const char *b = p;
		while (*p && *p != ' ' && *p != '\t' && *p != ',')
			p++;
		if (p == b)
			break;
		char *name = strndup(b, (size_t)(p - b));
		char *j = name ? join_dir(s->dir, name) : NULL;
		int rc = j ? confine_one(s, root, what, "[task]", "headers", s->headers_line, name, j) : nomem();
		free(name);
		free(j);
		if (rc)
			return rc;
	}
	int orc = confine_options(s);
	if (orc)
		return orc;
	for (int i = 0; i < s->nargs; i++) {
		const rung_arg *a = &s->args[i];
		char label[RUNG_NAME_MAX + 8];
		snprintf(label, sizeof(label), "[arg %s]", a->name);
		int rc = 0;
		/* npy_path and golden are joined already: an absolute one was written so */
		if (a->npy_path)
			rc = confine_one(s, root, what, label, "init", a->init_line, as_written(s, a->npy_path, a->npy_absolute),
					  a->npy_path);
		if (!rc && a->golden)
			rc = confine_one(s, root, what, label, "golden", a->golden_line, as_written(s, a->golden, a->golden_absolute),
					  a->golden);
		if (rc)
			return rc;
	}
	return 0;
}

int rung_spec_load(rung_spec **out, const char *path)
{
	*out = NULL;
	struct stat st;
	if (stat(path, &st) != 0)
		return rung_error_set(RUNG_EIO, "%s: %s", path, strerror(errno));
	char *ini, *dir;
	if (S_ISDIR(st.st_mode)) {
		size_t n = strlen(path) + sizeof("/rung.ini");
		ini = malloc(n);
		if (ini)
			snprintf(ini, n, "%s%srung.ini", path, path[strlen(path) - 1] == '/' ? "" : "/");
		dir = strdup(path);
	} else {
		ini = strdup(path);
		dir = rung_fs_dir_of(path);
	}
	if (!ini || !dir) {
		free(ini);
		free(dir);
		return nomem();
	}
	char *text = NULL;
	size_t len = 0;
	int rc = rung_fs_read_file(&text, &len, ini, RUNG_FS_MAX_TEXT);
	if (rc == RUNG_ENOTFOUND) /* any unreadable rung.ini is RUNG_EIO */
		rc = rung_error_set(RUNG_EIO, "%s", rung_error_last());
	else if (rc == 0 && strlen(text) != len)
		rc = rung_error_set(RUNG_EINVAL, "%s: contains a NUL byte; not a text file", ini);
	else if (rc == 0 && (rc = rung_spec_parse(out, text, ini, dir)) == 0 && (rc = rung_spec_check_headers(*out)) < 0) {
		rung_spec_free(*out);
		*out = NULL;
	}
	free(text);
	free(ini);
	free(dir);
	return rc;
}

void rung_spec_free(rung_spec *s)
{
	if (!s)
		return;
	free(s->path);
	free(s->dir);
	free(s->name);
	free(s->kernel);
	free(s->entry);
	free(s->reference);
	free(s->reference_entry);
	free(s->arch);
	free(s->options);
	free(s->headers);
	for (int i = 0; i < s->nargs; i++) {
		rung_arg *a = &s->args[i];
		for (int d = 0; d < a->rank; d++)
			free(a->shape[d].text);
		free(a->npy_path);
		free(a->golden);
		free(a->value.text);
		free(a->size.text);
	}
	for (int i = 0; i < 3; i++) {
		free(s->launch.grid[i].text);
		free(s->launch.block[i].text);
	}
	free(s->launch.smem.text);
	free(s->flops.text);
	free(s->bytes.text);
	free(s);
}

static bool has_ext(const char *p, const char *ext)
{
	size_t n = p ? strlen(p) : 0, m = strlen(ext);
	return n > m && strcmp(p + n - m, ext) == 0;
}

rung_kernel_lang rung_kernel_lang_of(const char *path)
{
	if (!path)
		return RUNG_LANG_CUDA;
	/* a version read from git is named "t/softmax.ptx@a1b2c3d" */
	const char *at = strrchr(path, '@'), *slash = strrchr(path, '/');
	char buf[1024];
	if (at && (!slash || at > slash) && at[1] && strspn(at + 1, "0123456789abcdefWORKTRE") == strlen(at + 1) &&
	    (size_t)(at - path) < sizeof(buf)) {
		memcpy(buf, path, (size_t)(at - path));
		buf[at - path] = 0;
		path = buf;
	}
	if (has_ext(path, ".ptx"))
		return RUNG_LANG_PTX;
	if (has_ext(path, ".cubin"))
		return RUNG_LANG_CUBIN;
	return RUNG_LANG_CUDA;
}

const char *rung_kernel_lang_name(rung_kernel_lang l)
{
	return l == RUNG_LANG_PTX ? "ptx" : l == RUNG_LANG_CUBIN ? "cubin" : "cuda";
}

int rung_spec_peek_task(char **kernel, char **entry, const char *text)
{
	*kernel = *entry = NULL;
	bool in_task = false;
	for (const char *p = text ? text : ""; *p;) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		const char *a = p, *b = eol;
		p = *eol ? eol + 1 : eol;
		while (a < b && (*a == ' ' || *a == '\t' || *a == '\r' || (unsigned char)*a == 0xef ||
		                 (unsigned char)*a == 0xbb || (unsigned char)*a == 0xbf))
			a++;
		if (a == b || *a == '#' || *a == ';')
			continue;
		const char *hash = memchr(a, '#', (size_t)(b - a));
		if (hash)
			b = hash;
		while (b > a && isspace((unsigned char)b[-1]))
			b--;
		if (*a == '[') {
			in_task = (size_t)(b - a) == 6 && !strncmp(a, "[task]", 6);
			continue;
		}
		const char *eq = in_task ? memchr(a, '=', (size_t)(b - a)) : NULL;
		if (!eq)
			continue;
		const char *ke = eq, *v = eq + 1;
		while (ke > a && isspace((unsigned char)ke[-1]))
			ke--;
		while (v < b && isspace((unsigned char)*v))
			v++;
		char **dst = (ke - a == 6 && !strncmp(a, "kernel", 6)) ? kernel
		             : (ke - a == 5 && !strncmp(a, "entry", 5)) ? entry : NULL;
		if (!dst || *dst || v == b)
			continue;
		if (!(*dst = strndup(v, (size_t)(b - v)))) {
			free(*kernel);
			free(*entry);
			*kernel = *entry = NULL;
			return rung_error_set(RUNG_ENOMEM, "out of memory");
		}
	}
	return 0;
}

int rung_spec_default_inputs(rung_spec *s)
{
	if (!s || s->inputs_line || s->ninputs > 1)
		return 0;
	bool changes = false;
	for (int i = 0; i < s->nargs; i++) {
		const rung_arg *a = &s->args[i];
		if (a->golden)
			return 0;
		if ((a->kind == RUNG_ARG_INPUT || a->kind == RUNG_ARG_INOUT) &&
		    rung_dist_init(RUNG_DIST_WIDE, a->dtype, a->init) != a->init) {
			if (a->dtype != RUNG_DT_F32 && a->dtype != RUNG_DT_F64)
				return 0;
			changes = true;
		}
	}
	if (!changes)
		return 0;
	s->ninputs = 2;
	s->inputs[0] = RUNG_DIST_NORMAL;
	s->inputs[1] = RUNG_DIST_WIDE;
	s->inputs_default = true;
	return 1;
}

int rung_spec_default_checks(rung_spec *s)
{
	if (!s || !s->has_small || s->ncheck >= RUNG_MAX_CHECK_SETS)
		return 0;
	for (int k = 0; k < s->ncheck; k++)
		if (!memcmp(&s->check[k], &s->small, sizeof(s->small)))
			return 0; /* added already */
	s->check[s->ncheck++] = s->small;
	return 1;
}
