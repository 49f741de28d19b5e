/* Synthetic kernel texts (source, PTX, SASS) for the in-memory model, tests
 * and benchmarks. Deterministic for a given (n, seed, gen). */
#ifndef RUNG_TUI_SYNTH_H
#define RUNG_TUI_SYNTH_H

/* A cuobjdump-style SASS listing of n instructions: addresses, encodings and
 * register numbers vary with seed; the instruction mix shifts with gen. malloc'd. */
char *rung_synth_sass(int n, unsigned seed, int gen);
char *rung_synth_ptx(int gen);
char *rung_synth_source(int gen);

#endif
