/* SHA-256 (FIPS 180-4), pure C. Used for content keys of stored results. */
#ifndef RUNG_CORE_SHA256_H
#define RUNG_CORE_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	uint32_t h[8];
	uint64_t len; /* bytes hashed so far */
	uint8_t buf[64];
	size_t nbuf;
} rung_sha256_ctx;

void rung_sha256_init(rung_sha256_ctx *c);
void rung_sha256_update(rung_sha256_ctx *c, const void *data, size_t len);
void rung_sha256_final(rung_sha256_ctx *c, uint8_t out[32]);
/* Finishes and writes 64 lowercase hex digits and a NUL. */
void rung_sha256_final_hex(rung_sha256_ctx *c, char out[65]);
/* One-shot hex digest. */
void rung_sha256_hex(char out[65], const void *data, size_t len);

#endif
