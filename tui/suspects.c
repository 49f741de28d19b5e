#include "tui/suspects.h"

#include <string.h>

#include "tui/draw.h"

const char *rung_suspect_text(char *buf, size_t len, const rung_suspect *s)
{
	char raw[400];
	snprintf(raw, sizeof raw, "%s: %s", rung_suspect_name(s->kind), s->reason);
	rung_tui_sanitize(buf, len, raw, -1, 0);
	return buf;
}

void rung_suspects_print(FILE *f, const rung_result *r, const char *prefix)
{
	char buf[1024];
	for (int k = 0; r && k < r->nsuspects; k++)
		fprintf(f, "%s%s\n", prefix, rung_suspect_text(buf, sizeof buf, &r->suspects[k]));
}

const char *rung_suspect_kinds(char *buf, size_t len, const rung_result *r)
{
	size_t n = 0;
	buf[0] = 0;
	for (int k = 0; r && k < r->nsuspects && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", k ? ", " : "", rung_suspect_name(r->suspects[k].kind));
	return buf;
}
