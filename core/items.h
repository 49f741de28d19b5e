/* Comma-separated lists of names in a spec value ("normal, wide", "inf, nan"):
 * one tokenizer for every such value, so that spaces, empty items and the
 * last item are treated alike everywhere. Pure C, header only. */
#ifndef RUNG_CORE_ITEMS_H
#define RUNG_CORE_ITEMS_H

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

/* Walks *cur to the next item: sets *item and *len to it, trimmed of spaces
 * (it may be empty: "a,,b", "a," or ""), and returns true; returns false once
 * the last item has been given. Start with *cur = the value, *done = false. */
static inline bool rung_items_next(const char **cur, bool *done, const char **item, size_t *len)
{
	if (*done)
		return false;
	const char *p = *cur;
	const char *comma = strchr(p, ',');
	const char *e = comma ? comma : p + strlen(p);
	while (p < e && isspace((unsigned char)*p))
		p++;
	while (e > p && isspace((unsigned char)e[-1]))
		e--;
	*item = p;
	*len = (size_t)(e - p);
	if (comma)
		*cur = comma + 1;
	else
		*done = true;
	return true;
}

#endif
