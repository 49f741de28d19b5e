#include "gpu/plan.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/expr.h"
#include "core/rng.h"

static const char *const init_names[] = { "randn", "uniform", "ones", "zeros", "arange", "npy" };
static const char *const kind_names[] = { "input", "output", "inout", "scalar" };

static void set_kernel(rung_plan_kernel *k, const char *name, const char *file)
{
	snprintf(k->name, sizeof(k->name), "%s", name ? name : "");
	snprintf(k->file, sizeof(k->file), "%s", file ? file : "");
}

static int eval_shape(rung_plan_shape *sh, const rung_spec *spec, const rung_launch *kl, const rung_launch *rl,
		      const rung_dimset *ds, bool bench)
{
	memset(sh, 0, sizeof(*sh));
	sh->dims = *ds;
	sh->bench = bench;
	for (int i = 0; i < spec->nargs; i++) {
		const rung_arg *a = &spec->args[i];
		if (a->kind == RUNG_ARG_SCALAR) {
			if (rung_arg_value(&sh->ival[i], &sh->fval[i], a, ds, spec->path))
				return RUNG_EINVAL;
			sh->numel[i] = 1;
			continue;
		}
		if (rung_arg_numel(&sh->numel[i], a, ds, spec->path))
			return RUNG_EINVAL;
		sh->rank[i] = a->rank;
		for (int r = 0; r < a->rank; r++)
			if (rung_expr_eval(&sh->extent[i][r], a->shape[r].text, ds))
				return rung_error_set(RUNG_EINVAL, "%s:%d: [arg %s] shape: %s", spec->path, a->shape[r].line,
						      a->name, rung_error_last());
		size_t es = rung_dtype_size(a->dtype);
		if (sh->numel[i] > (INT64_C(1) << 62) / (int64_t)(es ? es : 1))
			return rung_error_set(RUNG_EINVAL, "%s:%d: [arg %s] shape: %lld elements is too large", spec->path,
					      a->line, a->name, (long long)sh->numel[i]);
	}
	if (rung_launch_eval(&sh->geom, kl, ds))
		return RUNG_EINVAL;
	if (rl && rung_launch_eval(&sh->ref_geom, rl, ds))
		return rung_error_set(RUNG_EINVAL, "reference launch: %s", rung_error_last());
	/* scratch: the spec's own sizes, then the sidecar's per program over the grid */
	for (int i = 0; i < spec->nargs; i++)
		if (spec->args[i].scratch && rung_arg_scratch_bytes(&sh->scratch_bytes[i], &spec->args[i], ds, spec->path))
			return RUNG_EINVAL;
	for (int k = 0; !spec->nscratch && k < kl->nscratch; k++) {
		int i = spec->nargs + k;
		if (rung_launch_scratch_bytes(&sh->scratch_bytes[i], kl, k, ds))
			return RUNG_EINVAL;
		sh->numel[i] = 1;
	}
	return 0;
}

static bool dimset_equal(const rung_dimset *a, const rung_dimset *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++) {
		int64_t v;
		if (rung_dimset_get(&v, b, a->d[i].name) || v != a->d[i].value)
			return false;
	}
	return true;
}

static int in_set(int rc, const rung_dimset *ds)
{
	rung_error_state st;
	rung_error_save(&st);
	char set[512];
	if (rung_dimset_format(set, sizeof(set), ds) != 0)
		snprintf(set, sizeof(set), "...");
	return rung_error_set(rc, "%s (check sizes %s)", st.msg, set);
}

int rung_plan_build(rung_plan *out, const rung_spec *spec, const rung_launch *kl, const rung_launch *rl,
		    uint64_t base_seed)
{
	memset(out, 0, sizeof(*out));
	set_kernel(&out->kernel, spec->entry, spec->kernel);
	out->has_ref = spec->reference != NULL;
	if (out->has_ref)
		set_kernel(&out->ref, spec->reference_entry ? spec->reference_entry : spec->entry, spec->reference);
	if (spec->nargs > RUNG_MAX_ARGS)
		return rung_error_set(RUNG_EINVAL, "%s: too many arguments", spec->path);
	int added = spec->nscratch ? 0 : kl->nscratch; /* the sidecar's scratch arguments */
	if (spec->nargs + added > RUNG_MAX_ARGS)
		return rung_error_set(RUNG_EINVAL, "%s: too many arguments with the %d scratch arguments %s adds", spec->path,
				      added, kl->sidecar);
	out->nargs = spec->nargs + added;
	for (int k = 0; k < added; k++) {
		rung_plan_arg *p = &out->args[spec->nargs + k];
		snprintf(p->name, sizeof(p->name), "%s", kl->scratch[k].name);
		p->kind = RUNG_ARG_SCALAR;
		p->dtype = RUNG_DT_I64;
		p->scratch = true;
	}
	for (int i = 0; i < spec->nargs; i++) {
		const rung_arg *a = &spec->args[i];
		rung_plan_arg *p = &out->args[i];
		snprintf(p->name, sizeof(p->name), "%s", a->name);
		p->kind = a->kind;
		p->dtype = a->dtype;
		p->init = a->init;
		p->a = a->init_a;
		p->b = a->init_b;
		p->scratch = a->scratch;
		if (a->npy_path)
			snprintf(p->npy, sizeof(p->npy), "%s", a->npy_path);
		if (a->golden)
			snprintf(p->golden, sizeof(p->golden), "%s", a->golden);
	}
	int rc;
	/* Sets equal to the benchmark shape add nothing (it is checked anyway); with
	 * none left (no `sizes`: the spec's one set is [dims] itself), an odd shape. */
	int nsets = 0;
	for (int i = 0; i < spec->ncheck; i++)
		if (!dimset_equal(&spec->check[i], &spec->dims))
			nsets++;
	if (nsets > 0) {
		for (int i = 0; i < spec->ncheck && out->nshapes < RUNG_PLAN_MAX_SHAPES - 1; i++) {
			if (dimset_equal(&spec->check[i], &spec->dims))
				continue;
			if ((rc = eval_shape(&out->shapes[out->nshapes], spec, kl, rl, &spec->check[i], false)))
				return in_set(rc, &spec->check[i]);
			out->nshapes++;
		}
	} else {
		rung_dimset odd = spec->dims;
		bool differs = false;
		for (int i = 0; i < odd.n; i++) {
			if (odd.d[i].value > 1) {
				odd.d[i].value--;
				differs = true;
			}
		}
		/* Data from .npy files (inputs or golden outputs) fixes the shape: no odd shape then. */
		for (int i = 0; i < spec->nargs; i++)
			if (spec->args[i].init == RUNG_INIT_NPY || spec->args[i].golden)
				differs = false;
		/* An odd shape the spec's expressions reject is left out rather than failing the job. */
		if (differs && eval_shape(&out->shapes[out->nshapes], spec, kl, rl, &odd, false) == 0)
			out->nshapes++;
		rung_error_clear();
	}
	if ((rc = eval_shape(&out->shapes[out->nshapes], spec, kl, rl, &spec->dims, true)))
		return rc;
	out->nshapes++;

	out->base_seed = base_seed;
	out->nseeds = spec->seeds > 0 ? spec->seeds : 3;
	if (out->nseeds > RUNG_PLAN_MAX_SEEDS)
		out->nseeds = RUNG_PLAN_MAX_SEEDS;
	for (int i = 0; i < out->nseeds; i++)
		out->seeds[i] = rung_seed_derive(base_seed, i);
	out->ndists = 1;
	out->dists[0] = RUNG_DIST_NORMAL;
	for (int i = 1; i < spec->ninputs && i < RUNG_NDISTS; i++)
		out->dists[out->ndists++] = spec->inputs[i];
	out->special = spec->special_line ? spec->special : RUNG_SPECIAL_ALL;
	out->inputs_default = spec->inputs_default;
	out->has_atol = spec->has_atol, out->atol = spec->atol;
	out->has_rtol = spec->has_rtol, out->rtol = spec->rtol;
	out->has_min_psnr = spec->has_min_psnr, out->min_psnr = spec->min_psnr;
	out->has_min_cossim = spec->has_min_cossim, out->min_cossim = spec->min_cossim;
	out->nondeterministic = spec->nondeterministic;
	out->flops = out->bytes = NAN;
	int64_t v;
	if (spec->flops.text) {
		if (rung_expr_eval(&v, spec->flops.text, &spec->dims))
			return rung_error_set(RUNG_EINVAL, "%s:%d: [roofline] flops: %s", spec->path, spec->flops.line,
					      rung_error_last());
		out->flops = (double)v;
	}
	if (spec->bytes.text) {
		if (rung_expr_eval(&v, spec->bytes.text, &spec->dims))
			return rung_error_set(RUNG_EINVAL, "%s:%d: [roofline] bytes: %s", spec->path, spec->bytes.line,
					      rung_error_last());
		out->bytes = (double)v;
	}
	out->budget_s = 2.0;
	return 0;
}

int rung_plan_cases(const rung_plan *p, rung_plan_case *out, int max)
{
	int n = 0, bench = p->nshapes - 1;
#define ADD(s, k, d, r) \
	do { \
		if (out && n < max) \
			out[n] = (rung_plan_case){ .shape = (s), .seed = (k), .dist = (d), .run = (r) }; \
		n++; \
	} while (0)
	if (p->nshapes < 1)
		return 0;
	ADD(bench, 0, RUNG_DIST_NORMAL, true);
	for (int s = 0; s < bench; s++)
		for (int k = 0; k < p->nseeds; k++)
			ADD(s, k, RUNG_DIST_NORMAL, false);
	for (int d = 1; d < p->ndists; d++) {
		for (int s = 0; s < bench; s++)
			ADD(s, 0, p->dists[d], false);
		if (bench == 0)
			ADD(bench, 0, p->dists[d], false);
	}
#undef ADD
	return n;
}

int rung_plan_first_output(const rung_plan *p)
{
	for (int i = 0; i < p->nargs; i++)
		if (p->args[i].kind == RUNG_ARG_OUTPUT || p->args[i].kind == RUNG_ARG_INOUT)
			return i;
	return -1;
}

/* --- JSON ------------------------------------------------------------------ */

static json_t *u64_json(uint64_t v)
{
	char buf[24];
	snprintf(buf, sizeof(buf), "%016" PRIx64, v);
	return json_string(buf);
}

static int u64_from(uint64_t *out, const json_t *j)
{
	if (!json_is_string(j))
		return -1;
	char *end;
	*out = strtoull(json_string_value(j), &end, 16);
	return *end ? -1 : 0;
}

static json_t *i64_array(const int64_t *v, int n)
{
	json_t *a = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(a, json_integer((json_int_t)v[i]));
	return a;
}

static int i64_from_array(int64_t *v, int max, int *n, const json_t *a)
{
	if (!json_is_array(a) || (int)json_array_size(a) > max)
		return -1;
	for (size_t i = 0; i < json_array_size(a); i++) {
		const json_t *x = json_array_get(a, i);
		if (!json_is_integer(x))
			return -1;
		v[i] = (int64_t)json_integer_value(x);
	}
	if (n)
		*n = (int)json_array_size(a);
	return 0;
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static double num_from(const json_t *j)
{
	return json_is_number(j) ? json_number_value(j) : NAN;
}

static json_t *geom_json(const rung_geom *g)
{
	return json_pack("{s:o,s:o,s:I}", "grid", i64_array(g->grid, 3), "block", i64_array(g->block, 3), "smem",
			 (json_int_t)g->smem);
}

static int geom_from(rung_geom *g, const json_t *j)
{
	int n1 = 0, n2 = 0;
	if (!json_is_object(j) || i64_from_array(g->grid, 3, &n1, json_object_get(j, "grid")) ||
	    i64_from_array(g->block, 3, &n2, json_object_get(j, "block")) || n1 != 3 || n2 != 3 ||
	    !json_is_integer(json_object_get(j, "smem")))
		return -1;
	g->smem = (int64_t)json_integer_value(json_object_get(j, "smem"));
	return 0;
}

static json_t *kernel_json(const rung_plan_kernel *k)
{
	return json_pack("{s:s,s:s,s:s}", "name", k->name, "lowered", k->lowered, "file", k->file);
}

static int copy_str(char *dst, size_t len, const json_t *j)
{
	if (!json_is_string(j) || strlen(json_string_value(j)) >= len)
		return -1;
	strcpy(dst, json_string_value(j));
	return 0;
}

static int kernel_from(rung_plan_kernel *k, const json_t *j)
{
	if (!json_is_object(j) || copy_str(k->name, sizeof(k->name), json_object_get(j, "name")) ||
	    copy_str(k->lowered, sizeof(k->lowered), json_object_get(j, "lowered")) ||
	    copy_str(k->file, sizeof(k->file), json_object_get(j, "file")))
		return -1;
	return 0;
}

json_t *rung_plan_to_json(const rung_plan *p)
{
	json_t *j = json_object();
	json_object_set_new(j, "type", json_string("job"));
	json_object_set_new(j, "kernel", kernel_json(&p->kernel));
	if (p->has_ref)
		json_object_set_new(j, "reference", kernel_json(&p->ref));
	json_t *args = json_array();
	for (int i = 0; i < p->nargs; i++) {
		const rung_plan_arg *a = &p->args[i];
		json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:o,s:o}", "name", a->name, "kind", kind_names[a->kind], "dtype",
				      rung_dtype_name(a->dtype), "init", init_names[a->init], "a", num(a->a), "b", num(a->b));
		if (a->npy[0])
			json_object_set_new(o, "npy", json_string(a->npy));
		if (a->golden[0])
			json_object_set_new(o, "golden", json_string(a->golden));
		if (a->scratch)
			json_object_set_new(o, "scratch", json_true());
		json_array_append_new(args, o);
	}
	json_object_set_new(j, "args", args);
	json_t *shapes = json_array();
	for (int s = 0; s < p->nshapes; s++) {
		const rung_plan_shape *sh = &p->shapes[s];
		json_t *dims = json_array();
		for (int d = 0; d < sh->dims.n; d++)
			json_array_append_new(dims, json_pack("[s,I]", sh->dims.d[d].name, (json_int_t)sh->dims.d[d].value));
		json_t *sargs = json_array();
		for (int i = 0; i < p->nargs; i++) {
			if (p->args[i].scratch)
				json_array_append_new(sargs, json_pack("{s:I,s:o,s:I}", "i", (json_int_t)sh->ival[i], "f",
								       json_real(sh->fval[i]), "bytes",
								       (json_int_t)sh->scratch_bytes[i]));
			else if (p->args[i].kind == RUNG_ARG_SCALAR)
				json_array_append_new(sargs, json_pack("{s:I,s:o}", "i", (json_int_t)sh->ival[i], "f",
								       json_real(sh->fval[i])));
			else
				json_array_append_new(sargs, json_pack("{s:o}", "shape", i64_array(sh->extent[i], sh->rank[i])));
		}
		json_array_append_new(shapes, json_pack("{s:o,s:b,s:o,s:o,s:o}", "dims", dims, "bench", sh->bench, "args",
							sargs, "geom", geom_json(&sh->geom), "ref_geom",
							geom_json(&sh->ref_geom)));
	}
	json_object_set_new(j, "shapes", shapes);
	json_object_set_new(j, "base_seed", u64_json(p->base_seed));
	json_t *seeds = json_array();
	for (int i = 0; i < p->nseeds; i++)
		json_array_append_new(seeds, u64_json(p->seeds[i]));
	json_object_set_new(j, "seeds", seeds);
	if (p->ndists > 1) { /* absent: normal only (plans of specs without [check] inputs are unchanged) */
		json_t *in = json_array();
		for (int i = 0; i < p->ndists; i++)
			json_array_append_new(in, json_string(rung_dist_name(p->dists[i])));
		json_object_set_new(j, "inputs", in);
		for (int i = 0; i < p->ndists; i++)
			if (p->dists[i] == RUNG_DIST_SPECIAL)
				json_object_set_new(j, "special", json_integer(p->special));
		if (p->inputs_default)
			json_object_set_new(j, "inputs_default", json_true());
	}
	json_t *tol = json_object();
	if (p->has_atol)
		json_object_set_new(tol, "atol", json_real(p->atol));
	if (p->has_rtol)
		json_object_set_new(tol, "rtol", json_real(p->rtol));
	if (p->has_min_psnr)
		json_object_set_new(tol, "min_psnr", json_real(p->min_psnr));
	if (p->has_min_cossim)
		json_object_set_new(tol, "min_cossim", json_real(p->min_cossim));
	json_object_set_new(j, "tol", tol);
	if (p->nondeterministic)
		json_object_set_new(j, "nondeterministic", json_true());
	json_object_set_new(j, "flops", num(p->flops));
	json_object_set_new(j, "bytes", num(p->bytes));
	json_object_set_new(j, "budget_s", json_real(p->budget_s));
	json_object_set_new(j, "flags", json_integer((json_int_t)p->flags));
	return j;
}

static int enum_from(int *out, const char *const *names, int n, const json_t *j)
{
	if (!json_is_string(j))
		return -1;
	for (int i = 0; i < n; i++) {
		if (strcmp(names[i], json_string_value(j)) == 0) {
			*out = i;
			return 0;
		}
	}
	return -1;
}

static int bad(const char *what)
{
	return rung_error_set(RUNG_EIO, "worker protocol: malformed job (%s)", what);
}

int rung_plan_from_json(rung_plan *out, const json_t *j)
{
	memset(out, 0, sizeof(*out));
	if (!json_is_object(j))
		return bad("not an object");
	if (kernel_from(&out->kernel, json_object_get(j, "kernel")))
		return bad("kernel");
	const json_t *ref = json_object_get(j, "reference");
	if (ref) {
		if (kernel_from(&out->ref, ref))
			return bad("reference");
		out->has_ref = true;
	}
	const json_t *args = json_object_get(j, "args");
	if (!json_is_array(args) || json_array_size(args) > RUNG_MAX_ARGS)
		return bad("args");
	out->nargs = (int)json_array_size(args);
	for (int i = 0; i < out->nargs; i++) {
		const json_t *o = json_array_get(args, i);
		rung_plan_arg *a = &out->args[i];
		int kind, init;
		if (!json_is_object(o) || copy_str(a->name, sizeof(a->name), json_object_get(o, "name")) ||
		    enum_from(&kind, kind_names, 4, json_object_get(o, "kind")) ||
		    enum_from(&init, init_names, 6, json_object_get(o, "init")) ||
		    !json_is_string(json_object_get(o, "dtype")) ||
		    rung_dtype_parse(&a->dtype, json_string_value(json_object_get(o, "dtype"))))
			return bad("arg");
		a->kind = (rung_arg_kind)kind;
		a->init = (rung_init_kind)init;
		a->a = num_from(json_object_get(o, "a"));
		a->b = num_from(json_object_get(o, "b"));
		if (json_object_get(o, "npy") && copy_str(a->npy, sizeof(a->npy), json_object_get(o, "npy")))
			return bad("arg npy");
		if (json_object_get(o, "golden") && copy_str(a->golden, sizeof(a->golden), json_object_get(o, "golden")))
			return bad("arg golden");
		a->scratch = json_is_true(json_object_get(o, "scratch"));
		if (a->scratch && a->kind != RUNG_ARG_SCALAR)
			return bad("arg scratch");
	}
	const json_t *shapes = json_object_get(j, "shapes");
	if (!json_is_array(shapes) || json_array_size(shapes) < 1 || json_array_size(shapes) > RUNG_PLAN_MAX_SHAPES)
		return bad("shapes");
	out->nshapes = (int)json_array_size(shapes);
	for (int s = 0; s < out->nshapes; s++) {
		const json_t *o = json_array_get(shapes, s);
		rung_plan_shape *sh = &out->shapes[s];
		const json_t *dims = json_object_get(o, "dims"), *sargs = json_object_get(o, "args");
		if (!json_is_array(dims) || json_array_size(dims) > RUNG_MAX_DIMS || !json_is_array(sargs) ||
		    (int)json_array_size(sargs) != out->nargs)
			return bad("shape");
		for (size_t d = 0; d < json_array_size(dims); d++) {
			const json_t *pair = json_array_get(dims, d);
			const json_t *nm = json_array_get(pair, 0), *v = json_array_get(pair, 1);
			if (!json_is_string(nm) || !json_is_integer(v) || strlen(json_string_value(nm)) >= RUNG_NAME_MAX)
				return bad("dims");
			rung_dimset_set(&sh->dims, json_string_value(nm), (int64_t)json_integer_value(v));
		}
		sh->bench = json_is_true(json_object_get(o, "bench"));
		for (int i = 0; i < out->nargs; i++) {
			const json_t *ao = json_array_get(sargs, i);
			if (out->args[i].kind == RUNG_ARG_SCALAR) {
				if (!json_is_integer(json_object_get(ao, "i")) || !json_is_number(json_object_get(ao, "f")))
					return bad("scalar");
				sh->ival[i] = (int64_t)json_integer_value(json_object_get(ao, "i"));
				sh->fval[i] = json_number_value(json_object_get(ao, "f"));
				sh->numel[i] = 1;
				if (out->args[i].scratch) {
					const json_t *b = json_object_get(ao, "bytes");
					if (!json_is_integer(b) || json_integer_value(b) < 0)
						return bad("scratch bytes");
					sh->scratch_bytes[i] = (int64_t)json_integer_value(b);
				}
				continue;
			}
			if (i64_from_array(sh->extent[i], RUNG_MAX_RANK, &sh->rank[i], json_object_get(ao, "shape")))
				return bad("arg shape");
			int64_t n = 1;
			for (int r = 0; r < sh->rank[i]; r++) {
				if (sh->extent[i][r] < 1 || __builtin_mul_overflow(n, sh->extent[i][r], &n))
					return bad("arg extent");
			}
			sh->numel[i] = n;
		}
		if (geom_from(&sh->geom, json_object_get(o, "geom")) || geom_from(&sh->ref_geom, json_object_get(o, "ref_geom")))
			return bad("geometry");
	}
	if (u64_from(&out->base_seed, json_object_get(j, "base_seed")))
		return bad("base_seed");
	const json_t *seeds = json_object_get(j, "seeds");
	if (!json_is_array(seeds) || json_array_size(seeds) < 1 || json_array_size(seeds) > RUNG_PLAN_MAX_SEEDS)
		return bad("seeds");
	out->nseeds = (int)json_array_size(seeds);
	for (int i = 0; i < out->nseeds; i++)
		if (u64_from(&out->seeds[i], json_array_get(seeds, i)))
			return bad("seed");
	out->ndists = 1;
	out->dists[0] = RUNG_DIST_NORMAL;
	const json_t *in = json_object_get(j, "inputs");
	if (in) {
		if (!json_is_array(in) || json_array_size(in) < 1 || json_array_size(in) > RUNG_NDISTS)
			return bad("inputs");
		out->ndists = (int)json_array_size(in);
		for (int i = 0; i < out->ndists; i++) {
			rung_dist d;
			const json_t *x = json_array_get(in, (size_t)i);
			if (!json_is_string(x) || rung_dist_parse(&d, json_string_value(x)) || (i == 0) != (d == RUNG_DIST_NORMAL))
				return bad("inputs");
			for (int k = 0; k < i; k++)
				if (out->dists[k] == d)
					return bad("inputs");
			out->dists[i] = d;
		}
	}
	out->inputs_default = json_is_true(json_object_get(j, "inputs_default"));
	out->special = RUNG_SPECIAL_ALL;
	const json_t *sp = json_object_get(j, "special");
	if (sp) {
		if (!json_is_integer(sp) || json_integer_value(sp) < 0 || json_integer_value(sp) > RUNG_SPECIAL_ALL)
			return bad("special");
		out->special = (uint32_t)json_integer_value(sp);
	}
	const json_t *tol = json_object_get(j, "tol");
#define TOL(name) \
	if (json_is_number(json_object_get(tol, #name))) { \
		out->has_##name = true; \
		out->name = json_number_value(json_object_get(tol, #name)); \
	}
	TOL(atol) TOL(rtol) TOL(min_psnr) TOL(min_cossim)
#undef TOL
	out->nondeterministic = json_is_true(json_object_get(j, "nondeterministic"));
	out->flops = num_from(json_object_get(j, "flops"));
	out->bytes = num_from(json_object_get(j, "bytes"));
	out->budget_s = num_from(json_object_get(j, "budget_s"));
	if (!(out->budget_s > 0))
		out->budget_s = 2.0;
	const json_t *fl = json_object_get(j, "flags");
	out->flags = json_is_integer(fl) ? (unsigned)json_integer_value(fl) : 0;
	return 0;
}

int rung_plan_sanitize_shape(const rung_plan *p)
{
	int best = -1;
	double best_n = 0;
	for (int s = 0; s < p->nshapes; s++) {
		double n = 0; /* in double: a sum of int64 counts cannot overflow it */
		for (int i = 0; i < p->nargs; i++)
			if (p->args[i].kind != RUNG_ARG_SCALAR)
				n += (double)p->shapes[s].numel[i];
		if (best < 0 || n < best_n)
			best = s, best_n = n;
	}
	return best;
}

int rung_plan_sanitize(rung_plan *p)
{
	int best = rung_plan_sanitize_shape(p);
	if (best > 0)
		p->shapes[0] = p->shapes[best];
	if (p->nshapes > 0)
		p->nshapes = 1;
	if (p->nseeds > 1)
		p->nseeds = 1;
	return best;
}

int rung_plan_sanitize_bench(rung_plan *p)
{
	int small = rung_plan_sanitize_shape(p);
	if (p->nshapes > 1)
		p->shapes[0] = p->shapes[p->nshapes - 1];
	if (p->nshapes > 0)
		p->nshapes = 1;
	if (p->nseeds > 1)
		p->nseeds = 1;
	p->ndists = 1; /* normal: the run case only (a sanitized reference at this shape is costly enough) */
	return small;
}
