/* Small tables behind core/spec.h: element types, argument kinds, dim sets. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/items.h"
#include "core/err.h"
#include "core/spec.h"

static const struct {
	const char *name;
	size_t size;
	bool is_float;
} dtypes[RUNG_DT_COUNT] = {
	[RUNG_DT_F64] = { "f64", 8, true },
	[RUNG_DT_F32] = { "f32", 4, true },
	[RUNG_DT_F16] = { "f16", 2, true },
	[RUNG_DT_BF16] = { "bf16", 2, true },
	[RUNG_DT_I64] = { "i64", 8, false },
	[RUNG_DT_I32] = { "i32", 4, false },
	[RUNG_DT_U8] = { "u8", 1, false },
};

const char *rung_dtype_name(rung_dtype dt)
{
	return (unsigned)dt < RUNG_DT_COUNT ? dtypes[dt].name : "?";
}

size_t rung_dtype_size(rung_dtype dt)
{
	return (unsigned)dt < RUNG_DT_COUNT ? dtypes[dt].size : 0;
}

bool rung_dtype_is_float(rung_dtype dt)
{
	return (unsigned)dt < RUNG_DT_COUNT && dtypes[dt].is_float;
}

int rung_dtype_parse(rung_dtype *out, const char *s)
{
	for (int i = 0; s && i < RUNG_DT_COUNT; i++) {
		if (strcmp(s, dtypes[i].name) == 0) {
			*out = (rung_dtype)i;
			return 0;
		}
	}
	return rung_error_set(RUNG_EINVAL, "unknown dtype '%s' (expected f64, f32, f16, bf16, i64, i32 or u8)",
	                      s ? s : "");
}

const char *rung_arg_kind_name(rung_arg_kind k)
{
	switch (k) {
	case RUNG_ARG_INPUT: return "input";
	case RUNG_ARG_OUTPUT: return "output";
	case RUNG_ARG_INOUT: return "inout";
	case RUNG_ARG_SCALAR: return "scalar";
	}
	return "?";
}

static const char *const dist_names[RUNG_NDISTS] = {
#define RUNG_DIST_NAME(id, name, help) name,
	RUNG_DIST_LIST(RUNG_DIST_NAME)
#undef RUNG_DIST_NAME
};

static const char *const dist_help[RUNG_NDISTS] = {
#define RUNG_DIST_HELP(id, name, help) help,
	RUNG_DIST_LIST(RUNG_DIST_HELP)
#undef RUNG_DIST_HELP
};

const char *rung_dist_name(rung_dist d)
{
	return (unsigned)d < RUNG_NDISTS ? dist_names[d] : "?";
}

const char *rung_dist_help(rung_dist d)
{
	return (unsigned)d < RUNG_NDISTS ? dist_help[d] : "?";
}

const char *rung_dist_names(void)
{
#define RUNG_DIST_SEP(id, name, help) ", " name
	static const char list[] = "" RUNG_DIST_LIST(RUNG_DIST_SEP);
#undef RUNG_DIST_SEP
	return list + 2; /* past the first ", " */
}

int rung_dist_parse(rung_dist *out, const char *s)
{
	for (int i = 0; s && i < RUNG_NDISTS; i++) {
		if (strcmp(s, dist_names[i]) == 0) {
			*out = (rung_dist)i;
			return 0;
		}
	}
	return rung_error_set(RUNG_EINVAL, "unknown distribution '%s' (%s)", s ? s : "", rung_dist_names());
}

rung_init_kind rung_dist_init(rung_dist d, rung_dtype dt, rung_init_kind declared)
{
	if (!rung_dtype_is_float(dt) || (declared != RUNG_INIT_RANDN && declared != RUNG_INIT_UNIFORM))
		return declared;
	switch (d) {
	case RUNG_DIST_WIDE: return RUNG_INIT_WIDE;
	case RUNG_DIST_CONSTANT: return RUNG_INIT_CONSTANT;
	case RUNG_DIST_INTS: return RUNG_INIT_INTS;
	case RUNG_DIST_SPECIAL: return RUNG_INIT_SPECIAL;
	default: return declared;
	}
}

int rung_dimset_get(int64_t *out, const rung_dimset *ds, const char *name)
{
	for (int i = 0; ds && i < ds->n; i++) {
		if (strcmp(ds->d[i].name, name) == 0) {
			*out = ds->d[i].value;
			return 0;
		}
	}
	return rung_error_set(RUNG_ENOTFOUND, "unknown dim '%s'", name);
}

int rung_dimset_set(rung_dimset *ds, const char *name, int64_t value)
{
	size_t len = strlen(name);
	if (len == 0 || len >= RUNG_NAME_MAX)
		return rung_error_set(RUNG_EINVAL, "bad dim name '%s'", name);
	for (int i = 0; i < ds->n; i++) {
		if (strcmp(ds->d[i].name, name) == 0) {
			ds->d[i].value = value;
			return 0;
		}
	}
	if (ds->n >= RUNG_MAX_DIMS)
		return rung_error_set(RUNG_EINVAL, "more than %d dims", RUNG_MAX_DIMS);
	memcpy(ds->d[ds->n].name, name, len + 1);
	ds->d[ds->n].value = value;
	ds->n++;
	return 0;
}

int rung_dimset_format(char *buf, size_t len, const rung_dimset *ds)
{
	if (!buf || !len)
		return rung_error_set(RUNG_EINVAL, "no buffer");
	size_t used = 0;
	buf[0] = 0;
	for (int i = 0; i < ds->n; i++) {
		int n = snprintf(buf + used, len - used, "%s%s=%lld", i ? "," : "", ds->d[i].name,
		                 (long long)ds->d[i].value);
		if (n < 0 || (size_t)n >= len - used)
			return rung_error_set(RUNG_EINVAL, "dim set does not fit in %zu bytes", len);
		used += (size_t)n;
	}
	return 0;
}

static const char *const special_names[RUNG_NSPECIAL] = {
#define RUNG_SPECIAL_NAME(id, name) name,
	RUNG_SPECIAL_LIST(RUNG_SPECIAL_NAME)
#undef RUNG_SPECIAL_NAME
};

void rung_special_format(char *buf, size_t len, uint32_t mask)
{
	size_t at = 0;
	if (len)
		buf[0] = 0;
	for (int k = 0; k < RUNG_NSPECIAL && len; k++) {
		if (!((mask >> k) & 1))
			continue;
		int w = snprintf(buf + at, len - at, "%s%s", at ? ", " : "", special_names[k]);
		if (w < 0 || (size_t)w >= len - at)
			return;
		at += (size_t)w;
	}
}

int rung_special_parse(uint32_t *mask, const char *s)
{
	uint32_t m = 0;
	const char *cur = s ? s : "", *p;
	size_t len;
	bool done = false;
	char all[128];
	rung_special_format(all, sizeof(all), RUNG_SPECIAL_ALL);
	while (rung_items_next(&cur, &done, &p, &len)) {
		if (len == 0)
			return rung_error_set(RUNG_EINVAL, "empty item in '%s' (the values are %s)", s ? s : "", all);
		int k = 0;
		while (k < RUNG_NSPECIAL && !(len == strlen(special_names[k]) && !strncmp(p, special_names[k], len)))
			k++;
		if (k == RUNG_NSPECIAL)
			return rung_error_set(RUNG_EINVAL, "unknown special value '%.*s' (the values are %s)", (int)len, p, all);
		if ((m >> k) & 1)
			return rung_error_set(RUNG_EINVAL, "'%s' given twice", special_names[k]);
		m |= 1u << k;
	}
	*mask = m;
	return 0;
}
