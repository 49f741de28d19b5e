/* An excerpt of an nvdisasm listing for an agent's context (the MCP dump
 * tool's sass text, docs/CLI.md): the line info written once per source line
 * (nvdisasm -gi repeats `//## File "...", line N` before every instruction of
 * that line: 57% of a listing), and, when that is still over the budget, the
 * listing's head and the part around its first tensor-core or async-copy
 * instruction (HMMA, IMMA, DMMA, HGMMA, LDGSTS, UTMALDG: where a tensor-core
 * kernel's main loop is), each cut said in a line of its own. */
#ifndef RUNG_CORE_SASS_EXCERPT_H
#define RUNG_CORE_SASS_EXCERPT_H

#include <stdbool.h>
#include <stddef.h>

/* A new string (NULL: out of memory) of at most about max bytes (the cut
 * lines' own words aside); *cut set when anything but repeated line info was
 * left out. */
char *rung_sass_excerpt(const char *listing, size_t n, size_t max, bool *cut);

#endif
