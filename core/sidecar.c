/* A PTX or CUBIN kernel's metadata sidecar (see sidecar.h). */
#include "core/sidecar.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/err.h"
#include "core/spec.h"

char *rung_sidecar_path(const char *kernel_path)
{
	if (!kernel_path || rung_kernel_lang_of(kernel_path) == RUNG_LANG_CUDA)
		return NULL;
	const char *dot = strrchr(kernel_path, '.');
	size_t stem = (size_t)(dot - kernel_path);
	char *p = malloc(stem + 6);
	if (p) {
		memcpy(p, kernel_path, stem);
		memcpy(p + stem, ".json", 6);
	}
	return p;
}

/* Substrings that name something to run wherever they stand in a key
 * ("precommand", "post_hook", "ptxas_path"), and words that do when they are a
 * whole word of it ("cmd", "run", "bin"). */
static const char *const run_parts[] = {"command", "hook", "exec", "launcher", "compiler", "ptxas", "nvcc",
					"nvdisasm", "script", "program", "shell", "interpreter", "entrypoint", NULL};
static const char *const run_words[] = {"cmd", "cmds", "run", "runner", "sh", "bash", "bin", "binary", "argv",
					"tool", "spawn", "popen", "system", NULL};

bool rung_sidecar_key_runs(const char *key)
{
	char low[256];
	size_t n = 0;
	for (const char *k = key; *k && n + 1 < sizeof(low); k++)
		low[n++] = (char)tolower((unsigned char)*k);
	low[n] = 0;
	for (int i = 0; run_parts[i]; i++)
		if (strstr(low, run_parts[i]))
			return true;
	for (char *p = low; *p;) {
		while (*p && !isalnum((unsigned char)*p))
			p++;
		char *s = p;
		while (isalnum((unsigned char)*p))
			p++;
		size_t l = (size_t)(p - s);
		for (int i = 0; l && run_words[i]; i++)
			if (strlen(run_words[i]) == l && !strncmp(s, run_words[i], l))
				return true;
	}
	return false;
}

/* The line of the first `"key"` followed by ':' in text (1 if not found). */
static int key_line(const char *text, size_t len, const char *key)
{
	size_t kl = strlen(key);
	int line = 1;
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '\n') {
			line++;
			continue;
		}
		if (text[i] != '"' || i + kl + 2 > len || memcmp(text + i + 1, key, kl) || text[i + 1 + kl] != '"')
			continue;
		size_t j = i + kl + 2;
		while (j < len && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\n'))
			j++;
		if (j < len && text[j] == ':')
			return line;
	}
	return 1;
}

/* Every key of an object, and of the objects and arrays inside it. */
static int refuse_runners(const json_t *o, const char *text, size_t len, const char *file, const char *at)
{
	if (json_is_array(o)) {
		size_t i;
		json_t *v;
		json_array_foreach(o, i, v) {
			int e = refuse_runners(v, text, len, file, at);
			if (e)
				return e;
		}
		return 0;
	}
	if (!json_is_object(o))
		return 0;
	const char *k;
	json_t *v;
	json_object_foreach((json_t *)o, k, v) {
		if (rung_sidecar_key_runs(k))
			return rung_error_set(RUNG_EINVAL,
					      "%s:%d: key '%s%s%s': rung never runs a program named by the repository "
					      "(it runs only ptxas and nvdisasm, with command lines it builds itself); "
					      "remove the key",
					      file, key_line(text, len, k), at, *at ? "." : "", k);
		char sub[256];
		snprintf(sub, sizeof(sub), "%s%s%s", at, *at ? "." : "", k);
		int e = refuse_runners(v, text, len, file, sub);
		if (e)
			return e;
	}
	return 0;
}

static int get_int(int64_t *out, bool *has, int *line, const json_t *o, const char *key, int64_t lo, int64_t hi,
		   const char *text, size_t len, const char *file)
{
	json_t *v = json_object_get(o, key);
	if (!v || json_is_null(v))
		return 0;
	*line = key_line(text, len, key);
	if (!json_is_integer(v))
		return rung_error_set(RUNG_EINVAL, "%s:%d: %s: expected an integer", file, *line, key);
	json_int_t x = json_integer_value(v);
	if (x < lo || x > hi)
		return rung_error_set(RUNG_EINVAL, "%s:%d: %s: %lld is out of range (%lld to %lld)", file, *line, key,
				      (long long)x, (long long)lo, (long long)hi);
	*out = (int64_t)x;
	*has = true;
	return 0;
}

int rung_sidecar_parse(rung_sidecar *out, const char *text, size_t len, const char *file)
{
	memset(out, 0, sizeof(*out));
	snprintf(out->file, sizeof(out->file), "%s", file ? file : "sidecar.json");
	file = out->file;
	if (len > RUNG_SIDECAR_MAX)
		return rung_error_set(RUNG_EINVAL, "%s: %zu bytes, over the sidecar limit of %zu (a DSL's metadata is a few KiB)",
				      file, len, RUNG_SIDECAR_MAX);
	if (!text || memchr(text, 0, len))
		return rung_error_set(RUNG_EINVAL, "%s: not JSON text (a NUL byte)", file);
	json_error_t je;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return rung_error_set(RUNG_EINVAL, "%s:%d: not valid JSON: %s", file, je.line > 0 ? je.line : 1, je.text);
	int e = 0;
	if (!json_is_object(root)) {
		e = rung_error_set(RUNG_EINVAL, "%s:1: expected a JSON object (the kernel's metadata)", file);
		goto done;
	}
	if ((e = refuse_runners(root, text, len, file, "")))
		goto done;
	if ((e = get_int(&out->num_warps, &out->has_num_warps, &out->num_warps_line, root, "num_warps", 1, 32, text, len,
			 file)) ||
	    (e = get_int(&out->shared, &out->has_shared, &out->shared_line, root, "shared", 0, (int64_t)1 << 31, text, len,
			 file)) ||
	    (e = get_int(&out->global_scratch, &out->has_global_scratch, &out->global_scratch_line, root,
			 "global_scratch_size", 0, RUNG_SIDECAR_SCRATCH_MAX, text, len, file)) ||
	    (e = get_int(&out->profile_scratch, &out->has_profile_scratch, &out->profile_scratch_line, root,
			 "profile_scratch_size", 0, RUNG_SIDECAR_SCRATCH_MAX, text, len, file)) ||
	    (e = get_int(&out->global_align, &out->has_global_align, &out->global_align_line, root,
			 "global_scratch_align", 1, (int64_t)1 << 20, text, len, file)) ||
	    (e = get_int(&out->profile_align, &out->has_profile_align, &out->profile_align_line, root,
			 "profile_scratch_align", 1, (int64_t)1 << 20, text, len, file)) ||
	    (e = get_int(&out->num_ctas, &out->has_num_ctas, &out->num_ctas_line, root, "num_ctas", 1, 16, text, len,
			 file)))
		goto done;
	if (!out->has_num_ctas)
		out->num_ctas = 1;
	json_t *nm = json_object_get(root, "name");
	if (nm && json_is_string(nm))
		snprintf(out->name, sizeof(out->name), "%s", json_string_value(nm));
done:
	json_decref(root);
	return e;
}

int rung_launch_with_sidecar(rung_launch *out, const rung_spec *spec, const char *src, const char *file,
			     const char *sc_text, size_t sc_len, const char *sc_file)
{
	if (!sc_text)
		return rung_launch_for_kernel(out, spec, src, file, NULL);
	memset(out, 0, sizeof(*out));
	rung_sidecar sc;
	int e = rung_sidecar_parse(&sc, sc_text, sc_len, sc_file);
	if (e < 0)
		return e;
	return rung_launch_for_kernel(out, spec, src, file, &sc);
}
