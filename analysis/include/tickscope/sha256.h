/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SHA-256 (FIPS 180-4), so that a run's summary can name the trace it was computed from
 * without a crypto library: the static board binary and the perf plugin link it too.
 */
#ifndef TICKSCOPE_SHA256_H
#define TICKSCOPE_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define TS_SHA256_HEX 65 /* 64 hex digits and the NUL */

struct ts_sha256 {
	uint32_t h[8];
	uint64_t bytes; /* hashed so far */
	unsigned char buf[64];
	size_t fill; /* bytes waiting in @buf */
};

/** ts_sha256_init() - start a new hash in @s */
void ts_sha256_init(struct ts_sha256 *s);

/** ts_sha256_update() - hash @n more bytes of @p */
void ts_sha256_update(struct ts_sha256 *s, const void *p, size_t n);

/**
 * ts_sha256_final() - finish the hash and write it as lower-case hex (what sha256sum prints)
 * @hex: TS_SHA256_HEX bytes
 */
void ts_sha256_final(struct ts_sha256 *s, char *hex);

#endif
