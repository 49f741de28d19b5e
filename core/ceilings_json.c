/* Ceilings as JSON (core/ceilings_json.h). */
#include "core/ceilings_json.h"

#include <math.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"

rung_ceiling *rung_ceilings_field(rung_ceilings *c, const char *name)
{
	if (!strcmp(name, "dram")) return &c->dram;
	if (!strcmp(name, "l2")) return &c->l2;
	if (!strcmp(name, "l1")) return &c->l1;
	if (!strcmp(name, "fp32")) return &c->fp32;
	if (!strcmp(name, "fp64")) return &c->fp64;
	for (int t = 0; t < RUNG_TC_COUNT; t++)
		if (!strcmp(name, rung_tc_name((rung_tc_type)t)))
			return &c->tensor[t];
	return NULL;
}

char *rung_ceilings_to_json(const rung_ceilings *c)
{
	static const char *names[] = {"dram", "l2", "l1", "fp32", "fp64", "f16", "bf16", "tf32", "fp8", "int8", "f64"};
	json_t *o = json_object();
	rung_ceilings tmp = *c;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const rung_ceiling *f = rung_ceilings_field(&tmp, names[i]);
		if (!f || f->src == RUNG_CEIL_NONE || !isfinite(f->value))
			continue;
		json_object_set_new(o, names[i], json_pack("{s:f,s:s}", "value", f->value, "src", rung_ceil_src_name(f->src)));
	}
	char *s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS | JSON_REAL_PRECISION(17));
	json_decref(o);
	return s;
}

int rung_ceilings_from_json(rung_ceilings *out, const char *text)
{
	rung_ceilings_init(out);
	json_error_t e;
	json_t *o = json_loads(text ? text : "", 0, &e);
	if (!json_is_object(o)) {
		json_decref(o);
		return rung_error_set(RUNG_EINVAL, "ceilings: bad JSON: %s", e.text);
	}
	const char *key;
	json_t *v;
	json_object_foreach(o, key, v) {
		rung_ceiling *f = rung_ceilings_field(out, key);
		const char *src = json_string_value(json_object_get(v, "src"));
		double val = json_number_value(json_object_get(v, "value"));
		if (!f || !src || !(val > 0))
			continue;
		f->value = val;
		f->src = !strcmp(src, "measured") ? RUNG_CEIL_MEASURED : !strcmp(src, "datasheet") ? RUNG_CEIL_DATASHEET : RUNG_CEIL_NONE;
		if (f->src == RUNG_CEIL_NONE)
			f->value = NAN;
	}
	json_decref(o);
	return 0;
}
