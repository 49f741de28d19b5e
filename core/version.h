#ifndef RUNG_CORE_VERSION_H
#define RUNG_CORE_VERSION_H
/* Bumped whenever a change alters what is measured or how: part of every result key. */
#define RUNG_MEASUREMENT_VERSION 5 /* 2: CUPTI serial kernel records; 3: every bench launch verified (2026-12-01); 4: poison and guard bands drawn per run, the determinism run on a finite poison (issue 25); 5: records of 50 us and more less their launch floor (issue 31) */
#endif
