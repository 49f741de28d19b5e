/* Untrusted text made inert: kernel output (device printf, assert messages)
 * and anything else a kernel controls is data, never terminal input. It is
 * stored as text (rung_inert_utf8) and written to a terminal or a log only
 * through rung_inert, which makes every control visible. The workbench has its
 * own renderer for the same purpose (tui/draw.h rung_tui_sanitize: ^[ and
 * <U+XXXX>, tab expansion by column); this one is for plain text output. */
#ifndef RUNG_CORE_INERT_H
#define RUNG_CORE_INERT_H

#include <stddef.h>
#include <stdint.h>

/* Writes src (srclen bytes, NUL included as data) to dst as text that a
 * terminal cannot act on: ESC and every other C0 control, DEL and bytes that
 * are not valid UTF-8 (a lone 0x9b, overlong forms, surrogates) become \xNN
 * (\t, \n and \r stay readable as those two characters); the C1 controls
 * (U+0080..U+009F) and the bidirectional controls (U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069) and U+2028/U+2029 become \u{XXXX}; other
 * valid UTF-8 is kept. A backslash is kept as it is, so the form is for eyes,
 * not for decoding. Writes at most dstlen-1 bytes and a NUL, never half an
 * escape or half a character; returns the number of source bytes consumed
 * (srclen when it all fitted). */
size_t rung_inert(char *dst, size_t dstlen, const char *src, size_t srclen);

/* The same for text meant to be read as lines (the command line's own output:
 * commit subjects, notes, compiler messages): newline and tab are kept as they
 * are, everything else as rung_inert writes it (a carriage return, which would
 * let text overwrite a line, becomes \r). */
size_t rung_inert_lines(char *dst, size_t dstlen, const char *src, size_t srclen);

/* The length of src's longest prefix that does not end inside a UTF-8
 * sequence (a stream filter holds the rest back for the next write). */
size_t rung_utf8_whole(const char *src, size_t n);

/* The stored form of captured output: src as valid UTF-8 (malloc'd, NUL
 * terminated), with NUL and every byte that is not valid UTF-8 written \xNN,
 * and DEL and the code points rung_inert shows by number written \u{XXXX}. The
 * C0 controls (ESC, BEL, newline, ...) are kept: every JSON writer escapes them
 * (\u001B), so the record is inert in any JSON output, and screens and
 * rung_inert make them visible. NULL when out of memory. */
char *rung_inert_utf8(const char *src, size_t srclen);

/* "812 B", "3.2 KiB", "40.0 MiB", "1.5 GiB". */
void rung_fmt_bytes(char *buf, size_t len, int64_t bytes);

#endif
