#include "app/suspects.h"

#include <stdio.h>
#include <string.h>

#include "core/inert.h"

const char *rung_suspect_text(char *buf, size_t len, const rung_suspect *s)
{
	char raw[400];
	snprintf(raw, sizeof raw, "%s: %s", rung_suspect_name(s->kind), s->reason);
	/* C0 controls as ^X (ESC as ^[, as the screens draw them), then C1, bidi
	 * and bad UTF-8 made visible by core/inert.h */
	char caret[800];
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)raw; *p && o + 3 < sizeof caret; p++) {
		if (*p < 0x20 || *p == 0x7f) {
			caret[o++] = '^';
			caret[o++] = *p == 0x7f ? '?' : (char)(*p + 64);
		} else {
			caret[o++] = (char)*p;
		}
	}
	caret[o] = 0;
	rung_inert(buf, len, caret, o);
	return buf;
}

const char *rung_suspect_kinds(char *buf, size_t len, const rung_result *r)
{
	size_t n = 0;
	buf[0] = 0;
	for (int k = 0; r && k < r->nsuspects && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", k ? ", " : "", rung_suspect_name(r->suspects[k].kind));
	return buf;
}
