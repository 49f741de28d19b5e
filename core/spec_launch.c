/* Evaluating a parsed spec: launch geometry (from [launch] or a `// rung:` line in
 * the kernel source), element counts and scalar values, each error naming file:line. */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/expr.h"
#include "core/sidecar.h"
#include "core/spec_internal.h"

int rung__fail(const char *file, int line, const char *label, const char *key, const char *fmt, ...)
{
	char msg[768];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (label && key)
		return rung_error_set(RUNG_EINVAL, "%s:%d: %s %s: %s", file, line, label, key, msg);
	if (label || key)
		return rung_error_set(RUNG_EINVAL, "%s:%d: %s: %s", file, line, label ? label : key, msg);
	return rung_error_set(RUNG_EINVAL, "%s:%d: %s", file, line, msg);
}

int rung__too_small(const char *file, int line, const char *label, const char *key, const char *axis,
                    const char *text, int64_t v, int64_t min)
{
	const char *t = text;
	while (isspace((unsigned char)*t))
		t++;
	size_t digits = strspn(t, "0123456789");
	bool literal = digits > 0 && t[digits + strspn(t + digits, " \t")] == 0;
	char ax[16] = "";
	if (axis)
		snprintf(ax, sizeof(ax), "%s: ", axis);
	if (literal)
		return rung__fail(file, line, label, key, "%sgot %lld, must be at least %lld", ax, (long long)v, (long long)min);
	return rung__fail(file, line, label, key, "%s'%s' = %lld, must be at least %lld", ax, text, (long long)v,
	                  (long long)min);
}

int rung__expr_at(int64_t *out, const rung_expr_src *e, const rung_dimset *ds,
                  const char *file, const char *label, const char *key)
{
	if (!e->text)
		return rung__fail(file, e->line, label, key, "missing");
	if (rung_expr_eval(out, e->text, ds) == 0)
		return 0;
	return rung__fail(file, e->line, label, key, "%s", rung_error_last());
}

int rung__in_set(int code, const rung_dimset *ds, const rung_dimset *bench)
{
	if (ds == bench)
		return code;
	rung_error_state st;
	rung_error_save(&st);
	char set[512];
	if (rung_dimset_format(set, sizeof(set), ds) != 0)
		snprintf(set, sizeof(set), "...");
	return rung_error_set(code, "%s (check sizes %s)", st.msg, set);
}

int rung__split_top(char **parts, int max, const char *text, size_t len)
{
	int n = 0, depth = 0;
	size_t start = 0;
	for (size_t i = 0; i <= len; i++) {
		char c = i < len ? text[i] : ',';
		if (c == '(')
			depth++;
		else if (c == ')' && depth > 0)
			depth--;
		if (c != ',' || (depth > 0 && i < len))
			continue;
		size_t a = start, b = i;
		start = i + 1;
		while (a < b && isspace((unsigned char)text[a]))
			a++;
		while (b > a && isspace((unsigned char)text[b - 1]))
			b--;
		int err = 0;
		if (a == b)
			err = -2;
		else if (n == max)
			err = -1;
		else if (!(parts[n] = strndup(text + a, b - a)))
			err = -3;
		if (err) {
			while (n > 0)
				free(parts[--n]);
			return err;
		}
		n++;
	}
	return n;
}

static const char *const axis[3] = { "x", "y", "z" };

int rung__launch_eval(rung_geom *out, const rung_launch *l, const rung_dimset *ds, const char *label)
{
	static const int64_t grid_max[3] = { 2147483647, 65535, 65535 };
	static const int64_t block_max[3] = { 1024, 1024, 64 };
	const char *f = l->file;
	if (l->ngrid < 1 || l->nblock < 1)
		return rung__fail(f, 1, label, l->ngrid < 1 ? "grid" : "block", "missing");
	int64_t threads = 1;
	for (int i = 0; i < 3; i++) {
		out->grid[i] = out->block[i] = 1;
		if (i < l->ngrid) {
			const rung_expr_src *e = &l->grid[i];
			int64_t v;
			if (rung__expr_at(&v, e, ds, f, label, "grid"))
				return RUNG_EINVAL;
			if (v < 1)
				return rung__too_small(f, e->line, label, "grid", axis[i], e->text, v, 1);
			if (v > grid_max[i])
				return rung__fail(f, e->line, label, "grid", "%s = %lld exceeds the CUDA limit of %lld", axis[i],
				                  (long long)v, (long long)grid_max[i]);
			out->grid[i] = v;
		}
		if (i < l->nblock) {
			const rung_expr_src *e = &l->block[i];
			int64_t v;
			if (rung__expr_at(&v, e, ds, f, label, "block"))
				return RUNG_EINVAL;
			if (v < 1)
				return rung__too_small(f, e->line, label, "block", axis[i], e->text, v, 1);
			if (v > block_max[i])
				return rung__fail(f, e->line, label, "block", "%s = %lld exceeds the CUDA limit of %lld", axis[i],
				                  (long long)v, (long long)block_max[i]);
			out->block[i] = v;
			threads *= v;
		}
	}
	if (threads > 1024)
		return rung__fail(f, l->block[0].line, label, "block", "%lld threads per block exceeds the CUDA limit of 1024",
		                  (long long)threads);
	out->smem = 0;
	if (l->smem.text) {
		if (rung__expr_at(&out->smem, &l->smem, ds, f, label, "smem"))
			return RUNG_EINVAL;
		if (out->smem < 0)
			return rung__too_small(f, l->smem.line, label, "smem", NULL, l->smem.text, out->smem, 0);
	}
	return 0;
}

int rung_launch_eval(rung_geom *out, const rung_launch *l, const rung_dimset *ds)
{
	return rung__launch_eval(out, l, ds, "[launch]");
}

int rung__launch_check(const rung_launch *l, const rung_spec *s, const char *label)
{
	rung_geom g;
	if (rung__launch_eval(&g, l, &s->dims, label))
		return RUNG_EINVAL;
	for (int i = 0; i < s->ncheck; i++)
		if (rung__launch_eval(&g, l, &s->check[i], label))
			return rung__in_set(RUNG_EINVAL, &s->check[i], &s->dims);
	return 0;
}

void rung_launch_clear(rung_launch *l)
{
	if (!l)
		return;
	for (int i = 0; i < 3; i++) {
		free(l->grid[i].text);
		free(l->block[i].text);
	}
	free(l->smem.text);
	memset(l, 0, sizeof(*l));
}

static int launch_copy(rung_launch *out, const rung_launch *in);

static int copy_src(rung_expr_src *dst, const rung_expr_src *src)
{
	dst->line = src->line;
	dst->text = NULL;
	if (src->text && !(dst->text = strdup(src->text)))
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	return 0;
}

int rung_launch_copy(rung_launch *out, const rung_launch *in)
{
	int rc = launch_copy(out, in);
	if (rc)
		rung_launch_clear(out);
	return rc;
}

static int launch_copy(rung_launch *out, const rung_launch *in)
{
	memset(out, 0, sizeof(*out));
	out->ngrid = in->ngrid;
	out->nblock = in->nblock;
	memcpy(out->file, in->file, sizeof(out->file));
	int rc = 0;
	for (int i = 0; i < 3 && !rc; i++) {
		rc = copy_src(&out->grid[i], &in->grid[i]);
		if (!rc)
			rc = copy_src(&out->block[i], &in->block[i]);
	}
	if (!rc)
		rc = copy_src(&out->smem, &in->smem);
	out->nscratch = in->nscratch;
	memcpy(out->scratch, in->scratch, sizeof(out->scratch));
	memcpy(out->sidecar, in->sidecar, sizeof(out->sidecar));
	return rc;
}

/* Returns the text after "//<spaces>rung:" on [p, eol), or NULL. */
static const char *find_marker(const char *p, const char *eol)
{
	for (const char *c = p; c + 1 < eol; c++) {
		if (c[0] != '/' || c[1] != '/')
			continue;
		const char *k = c + 2;
		while (k < eol && (*k == ' ' || *k == '\t'))
			k++;
		if (eol - k >= 5 && strncmp(k, "rung:", 5) == 0)
			return k + 5;
	}
	return NULL;
}

static int parse_item(rung_launch *out, const char *a, const char *b, const char *file, int line, int key_line[3])
{
	static const char *const keys[3] = { "grid", "block", "smem" };
	const char *eq = memchr(a, '=', (size_t)(b - a));
	if (!eq)
		return rung__fail(file, line, "rung", NULL, "expected 'key = value', found '%.*s'", (int)(b - a), a);
	const char *ke = eq;
	while (ke > a && isspace((unsigned char)ke[-1]))
		ke--;
	int k = -1;
	for (int i = 0; i < 3; i++)
		if ((size_t)(ke - a) == strlen(keys[i]) && strncmp(a, keys[i], (size_t)(ke - a)) == 0)
			k = i;
	if (k < 0)
		return rung__fail(file, line, "rung", NULL, "unknown key '%.*s' (expected grid, block or smem)", (int)(ke - a), a);
	if (key_line[k])
		return rung__fail(file, line, "rung", keys[k], "duplicate key (first at line %d)", key_line[k]);
	key_line[k] = line;
	char *parts[4];
	int n = rung__split_top(parts, k == 2 ? 1 : 3, eq + 1, (size_t)(b - eq - 1));
	if (n == -3)
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	if (n == -2 || n == 0)
		return rung__fail(file, line, "rung", keys[k], "missing value");
	if (n == -1)
		return rung__fail(file, line, "rung", keys[k], k == 2 ? "expected one expression"
		                                                      : "expected 1 to 3 comma-separated expressions");
	rung_expr_src *dst = k == 0 ? out->grid : k == 1 ? out->block : &out->smem;
	int old = k == 0 ? out->ngrid : k == 1 ? out->nblock : 1;
	for (int i = 0; i < old; i++) {
		free(dst[i].text);
		dst[i].text = NULL;
	}
	for (int i = 0; i < n; i++) {
		dst[i].text = parts[i];
		dst[i].line = line;
	}
	if (k == 0)
		out->ngrid = n;
	else if (k == 1)
		out->nblock = n;
	return 0;
}

static int parse_line(rung_launch *out, const char *p, const char *eol, const char *file, int line, int key_line[3])
{
	int items = 0;
	while (p < eol) {
		const char *semi = memchr(p, ';', (size_t)(eol - p));
		const char *b = semi ? semi : eol;
		const char *a = p;
		p = semi ? semi + 1 : eol;
		while (a < b && isspace((unsigned char)*a))
			a++;
		while (b > a && isspace((unsigned char)b[-1]))
			b--;
		if (a == b)
			continue;
		int rc = parse_item(out, a, b, file, line, key_line);
		if (rc)
			return rc;
		items++;
	}
	if (!items)
		return rung__fail(file, line, "rung", NULL, "empty; expected e.g. 'grid = cdiv(N,128); block = 256'");
	return 0;
}

/* The `// rung:` lines of src over spec's [launch]; key_line: the line of each
 * key (grid, block, smem) the lines give, 0 for the others. */
static int from_source(rung_launch *out, const rung_spec *spec, const char *src, const char *file, int key_line[3])
{
	int rc = launch_copy(out, &spec->launch);
	if (rc) {
		rung_launch_clear(out);
		return rc;
	}
	int found = 0, lineno = 0;
	for (const char *p = src ? src : ""; *p;) {
		lineno++;
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		const char *c = find_marker(p, eol);
		if (c) {
			found = 1;
			if ((rc = parse_line(out, c, eol, file, lineno, key_line)))
				goto fail;
		}
		p = *eol ? eol + 1 : eol;
	}
	if (found)
		snprintf(out->file, sizeof(out->file), "%s", file);
	return found;
fail:
	rung_launch_clear(out);
	return rc;
}

/* A spec whose kernel is PTX or CUBIN may leave [launch] block out (the
 * sidecar or the kernel's `// rung:` line gives it): say where it can come from. */
static int no_block(const rung_spec *spec, const char *file)
{
	int line = spec->launch.grid[0].line ? spec->launch.grid[0].line : 1;
	return rung__fail(spec->path, line, "[launch]", "block", "missing for %s: give it in [launch], in a // rung: line "
	                  "of the kernel, or from the kernel's sidecar (num_warps in its .json, docs/SPEC.md \"The sidecar\")",
	                  file ? file : "the kernel");
}

int rung_launch_from_source(rung_launch *out, const rung_spec *spec, const char *src, const char *file)
{
	return rung_launch_for_kernel(out, spec, src, file, NULL);
}

/* An explicit value (the `// rung:` line's, else rung.ini's) that the sidecar
 * contradicts: block other than num_warps * 32, smem under shared. */
static int against_sidecar(const rung_launch *l, const rung_spec *spec, const rung_sidecar *sc, bool block_explicit,
                           bool smem_explicit, const char *bfile, const char *sfile)
{
	for (int i = -1; i < spec->ncheck; i++) {
		const rung_dimset *ds = i < 0 ? &spec->dims : &spec->check[i];
		rung_geom g;
		if (rung__launch_eval(&g, l, ds, "rung"))
			return i < 0 ? RUNG_EINVAL : rung__in_set(RUNG_EINVAL, ds, &spec->dims);
		int64_t want = sc->num_warps * 32;
		if (block_explicit && sc->has_num_warps && (g.block[0] != want || g.block[1] != 1 || g.block[2] != 1)) {
			int rc = rung__fail(bfile, l->block[0].line, bfile == spec->path ? "[launch]" : "rung", "block",
			                    "%lld x %lld x %lld threads, but %s:%d says num_warps = %lld: the kernel was compiled "
			                    "for a block of %lld threads (num_warps x 32); drop block here or make it %lld",
			                    (long long)g.block[0], (long long)g.block[1], (long long)g.block[2], sc->file,
			                    sc->num_warps_line, (long long)sc->num_warps, (long long)want, (long long)want);
			return i < 0 ? rc : rung__in_set(rc, ds, &spec->dims);
		}
		if (smem_explicit && sc->has_shared && g.smem < sc->shared) {
			int rc = rung__fail(sfile, l->smem.line, sfile == spec->path ? "[launch]" : "rung", "smem",
			                    "%lld bytes, but %s:%d says shared = %lld: the kernel needs at least that much dynamic "
			                    "shared memory; drop smem here or make it at least %lld",
			                    (long long)g.smem, sc->file, sc->shared_line, (long long)sc->shared,
			                    (long long)sc->shared);
			return i < 0 ? rc : rung__in_set(rc, ds, &spec->dims);
		}
	}
	return 0;
}

/* Bytes for `per` bytes per program of l's grid under ds. */
static int per_grid(int64_t *out, int64_t *programs, const rung_launch *l, int64_t per, const rung_dimset *ds)
{
	rung_geom g;
	if (rung__launch_eval(&g, l, ds, "rung"))
		return RUNG_EINVAL;
	int64_t n = g.grid[0] * g.grid[1]; /* < 2^47: no overflow */
	if (__builtin_mul_overflow(n, g.grid[2], &n) || __builtin_mul_overflow(n, per, out))
		return rung_error_set(RUNG_EINVAL, "%s: %lld bytes of scratch per program overflows 64 bits over the grid",
		                      l->file, (long long)per);
	if (programs)
		*programs = n;
	return 0;
}

int rung_launch_scratch_bytes(int64_t *out, const rung_launch *l, int k, const rung_dimset *ds)
{
	if (k < 0 || k >= l->nscratch)
		return rung_error_set(RUNG_EINVAL, "no scratch argument %d", k);
	return per_grid(out, NULL, l, l->scratch[k].per_program, ds);
}

int rung_arg_scratch_bytes(int64_t *out, const rung_arg *a, const rung_dimset *ds, const char *file)
{
	char label[RUNG_NAME_MAX + 8];
	snprintf(label, sizeof(label), "[arg %s]", a->name);
	return rung__expr_at(out, &a->size, ds, file, label, "size");
}

/* The sidecar's global and profile scratch (Triton 3.3+: bytes per program,
 * docs/SPEC.md "The sidecar"): added to l after the [arg] sections when the
 * spec declares no kind = scratch argument; else the k-th declared one must
 * hold the k-th of the sidecar's under every size set (an explicit value
 * wins, and is checked, like block and smem). */
static int sidecar_scratch(rung_launch *l, const rung_spec *spec, const rung_sidecar *sc)
{
	const struct {
		bool has;
		int64_t size, align;
		int line, align_line;
		const char *name, *key, *akey, *what;
	} k[RUNG_LAUNCH_MAX_SCRATCH] = {
		{sc->has_global_scratch, sc->global_scratch, sc->has_global_align ? sc->global_align : 1,
		 sc->global_scratch_line, sc->global_align_line, "global_scratch", "global_scratch_size",
		 "global_scratch_align", "global"},
		{sc->has_profile_scratch, sc->profile_scratch, sc->has_profile_align ? sc->profile_align : 1,
		 sc->profile_scratch_line, sc->profile_align_line, "profile_scratch", "profile_scratch_size",
		 "profile_scratch_align", "profile"},
	};
	snprintf(l->sidecar, sizeof(l->sidecar), "%s", sc->file);
	int n = 0;
	for (int i = 0; i < RUNG_LAUNCH_MAX_SCRATCH; i++) {
		if (!k[i].has)
			continue;
		if (k[i].size > 0 && k[i].align > RUNG_SCRATCH_ALIGN)
			return rung_error_set(RUNG_EINVAL, "%s:%d: %s = %lld: rung's scratch buffers are aligned to %d bytes, "
			                      "so a larger alignment is not supported", sc->file, k[i].align_line, k[i].akey,
			                      (long long)k[i].align, RUNG_SCRATCH_ALIGN);
		int64_t per = k[i].size * sc->num_ctas; /* <= 2^30 * 16 */
		if (spec->nscratch == 0) {
			rung_launch_scratch *x = &l->scratch[l->nscratch++];
			snprintf(x->name, sizeof(x->name), "%s", k[i].name);
			snprintf(x->key, sizeof(x->key), "%s", k[i].key);
			x->per_program = per;
			x->line = k[i].line;
			continue;
		}
		if (n >= spec->nscratch)
			break;
		const rung_arg *a = &spec->args[spec->nargs - spec->nscratch + n++];
		for (int s = -1; s < spec->ncheck; s++) {
			const rung_dimset *ds = s < 0 ? &spec->dims : &spec->check[s];
			int64_t want = 0, have = 0, programs = 0;
			if (per_grid(&want, &programs, l, per, ds) || rung_arg_scratch_bytes(&have, a, ds, spec->path))
				return s < 0 ? RUNG_EINVAL : rung__in_set(RUNG_EINVAL, ds, &spec->dims);
			if (have >= want)
				continue;
			char label[RUNG_NAME_MAX + 8];
			snprintf(label, sizeof(label), "[arg %s]", a->name);
			int rc = rung__fail(spec->path, a->size.line, label, "size",
			                    "%lld bytes, but %s:%d says %s = %lld: the kernel needs that much %s scratch per "
			                    "program (x %lld programs = %lld bytes); drop the kind = scratch arguments (the "
			                    "sidecar adds them) or make it at least %lld",
			                    (long long)have, sc->file, k[i].line, k[i].key, (long long)k[i].size, k[i].what,
			                    (long long)programs * sc->num_ctas, (long long)want, (long long)want);
			return s < 0 ? rc : rung__in_set(rc, ds, &spec->dims);
		}
	}
	return 0;
}

static int set_number(rung_expr_src *e, int64_t v, int line)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	free(e->text);
	if (!(e->text = strdup(buf)))
		return rung_error_set(RUNG_ENOMEM, "out of memory");
	e->line = line;
	return 0;
}

int rung_launch_for_kernel(rung_launch *out, const rung_spec *spec, const char *src, const char *file,
                           const struct rung_sidecar *sc)
{
	int key_line[3] = { 0, 0, 0 };
	int found = from_source(out, spec, src, file, key_line);
	if (found < 0)
		return found;
	int rc = 0;
	if (sc) {
		bool bx = key_line[1] || spec->launch.nblock > 0, sx = key_line[2] || spec->launch.smem.text;
		const char *bfile = key_line[1] ? file : spec->path, *sfile = key_line[2] ? file : spec->path;
		if (!bx && sc->has_num_warps) {
			if ((rc = set_number(&out->block[0], sc->num_warps * 32, sc->num_warps_line)))
				goto fail;
			out->nblock = 1;
			found = 1;
		}
		if (out->nblock > 0 && (bx || sx) && (rc = against_sidecar(out, spec, sc, bx, sx, bfile, sfile)))
			goto fail;
		if (!sx && sc->has_shared && sc->shared > 0) {
			if ((rc = set_number(&out->smem, sc->shared, sc->shared_line)))
				goto fail;
			found = 1;
		}
	}
	if (out->nblock < 1) {
		rc = no_block(spec, file);
		goto fail;
	}
	if (found && (rc = rung__launch_check(out, spec, key_line[0] || key_line[1] || key_line[2] ? "rung" : "[launch]")))
		goto fail;
	if (sc && (rc = sidecar_scratch(out, spec, sc)))
		goto fail;
	return found;
fail:
	rung_launch_clear(out);
	return rc;
}

static const char *arg_label(char *buf, size_t len, const rung_arg *a)
{
	snprintf(buf, len, "[arg %s]", a->name);
	return buf;
}

int rung_arg_numel(int64_t *out, const rung_arg *a, const rung_dimset *ds, const char *file)
{
	char label[RUNG_NAME_MAX + 8];
	arg_label(label, sizeof(label), a);
	int64_t n = 1;
	for (int i = 0; i < a->rank; i++) {
		int64_t v;
		if (rung__expr_at(&v, &a->shape[i], ds, file, label, "shape"))
			return RUNG_EINVAL;
		if (v < 1)
			return rung__too_small(file, a->shape[i].line, label, "shape", NULL, a->shape[i].text, v, 1);
		if (__builtin_mul_overflow(n, v, &n))
			return rung__fail(file, a->shape[i].line, label, "shape", "element count overflows 64 bits");
	}
	*out = n;
	return 0;
}

/* A decimal literal for a float scalar: "0.5", "-1e-3", "2". */
static bool parse_float_literal(double *out, const char *s)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (end == s || errno || !isfinite(v))
		return false;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return false;
	*out = v;
	return true;
}

int rung_arg_value(int64_t *ival, double *fval, const rung_arg *a, const rung_dimset *ds, const char *file)
{
	char label[RUNG_NAME_MAX + 8];
	arg_label(label, sizeof(label), a);
	const rung_expr_src *e = &a->value;
	if (!e->text)
		return rung__fail(file, a->line, label, "value", "missing");
	int64_t i;
	double f;
	if (rung_expr_eval(&i, e->text, ds) == 0) {
		f = (double)i;
	} else if (rung_dtype_is_float(a->dtype) && parse_float_literal(&f, e->text)) {
		/* range first: converting a double beyond int64 (or NaN) is undefined */
		if (f >= 9.2e18 || f <= -9.2e18)
			i = f > 0 ? INT64_MAX : INT64_MIN;
		else
			i = f == f ? (int64_t)f : 0;
	} else {
		return rung__expr_at(&i, e, ds, file, label, "value");
	}
	bool fits = true;
	switch (a->dtype) {
	case RUNG_DT_I32: fits = i >= INT32_MIN && i <= INT32_MAX; break;
	case RUNG_DT_U8: fits = i >= 0 && i <= 255; break;
	case RUNG_DT_F16: fits = fabs(f) <= 65504.0; break;
	case RUNG_DT_F32:
	case RUNG_DT_BF16: fits = fabs(f) <= FLT_MAX; break;
	default: break;
	}
	if (!fits)
		return rung__fail(file, e->line, label, "value", "%s = %.17g does not fit in %s", e->text, f,
		                  rung_dtype_name(a->dtype));
	if (ival)
		*ival = i;
	if (fval)
		*fval = f;
	return 0;
}
