/* Reading `rung export` lines into a store as recorded results ("recorded on
 * <GPU>, <date>"), kept apart from live ones: shared by `rung import` and
 * `rung demo` (which imports the recorded results embedded with the examples). */
#ifndef RUNG_APP_IMPORT_H
#define RUNG_APP_IMPORT_H

#include <stdio.h>

#include "vcs/store.h"

/* Imports every line of f into s; the first bad line stops the import. *n
 * counts the results stored. Returns 0, RUNG_EUSAGE (a bad line: the message
 * is "<name>:<line>: ...") or the store's error (same message form). */
int rung_import_stream(int *n, rung_store *s, FILE *f, const char *name);

#endif
