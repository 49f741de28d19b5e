/* Reading `rung export` lines into a store as recorded results ("recorded on
 * <GPU>, <date>"), kept apart from live ones: shared by `rung import` and
 * `rung demo` (which imports the recorded results embedded with the examples). */
#ifndef RUNG_TUI_IMPORT_H
#define RUNG_TUI_IMPORT_H

#include <stdio.h>

#include "vcs/store.h"

/* Imports every line of f into s. Errors are printed as "rung <cmd>: <name>:<line>: ..."
 * and stop the import. *n counts the results stored. Returns RUNG_EXIT_OK,
 * RUNG_EXIT_USAGE (a bad line) or RUNG_EXIT_INTERNAL (the store failed). */
int rung_import_stream(int *n, rung_store *s, FILE *f, const char *name, const char *cmd);

#endif
