/* Small tables behind core/spec.h: element types, argument kinds, dim sets. */
#include <stdio.h>
#include <string.h>

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
