// SPDX-License-Identifier: GPL-2.0-only
/*
 * Strings as dump's TSV and JSON write them: the bytes that need an escape (JSON) or a
 * space (TSV) looked for eight at a time; the runs that need none copied whole.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "dump.h"

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* Whether a byte of @x is 0 (exact as to whether there is one, not as to where). */
static inline uint64_t zero_byte(uint64_t x)
{
	return (x - ONES) & ~x & HIGHS;
}

/* A byte JSON escapes (below 0x20, '"' or '\\') in @x? */
static inline uint64_t json_special(uint64_t x)
{
	return ((x - 0x20 * ONES) & ~x & HIGHS) | zero_byte(x ^ ('"' * ONES)) |
	       zero_byte(x ^ ('\\' * ONES));
}

/* A byte TSV replaces (a tab or a newline) in @x? */
static inline uint64_t tsv_special(uint64_t x)
{
	return zero_byte(x ^ ('\t' * ONES)) | zero_byte(x ^ ('\n' * ONES));
}

/* Whether the whole words of @n bytes at @s from *@i on need no escape; *@i: after the last. */
static inline int plain_words(const char *s, size_t *i, size_t n, int json)
{
	uint64_t x;

	for (; *i + 8 <= n; *i += 8) {
		memcpy(&x, s + *i, 8);
		if (json ? json_special(x) : tsv_special(x))
			return 0;
	}
	return 1;
}

/* Whether @n bytes at @s need no escape: eight at a time, the tail one by one. */
static int plain_str(const char *s, size_t n, int json)
{
	size_t i = 0;

	if (!plain_words(s, &i, n, json))
		return 0;
	for (; i < n; i++) {
		unsigned char c = s[i];

		if (json ? c < 0x20 || c == '"' || c == '\\' : c == '\t' || c == '\n')
			return 0;
	}
	return 1;
}

/*
 * plain_str() of a payload's string, read eight bytes at a time to its end: the bytes after
 * it, up to the next multiple of 8, are the entry's (a payload is queued 8-aligned, padded,
 * with dump_lines.c's BATCH_SLACK after the last), and are set to 0xff, which neither form
 * escapes, before the test.
 */
int dump_plain_payload_str(const char *s, size_t n, int json)
{
	size_t i = 0;
	uint64_t x;

	if (!plain_words(s, &i, n, json))
		return 0;
	if (i == n)
		return 1;
	memcpy(&x, s + i, 8);
	x |= ~0ULL << 8 * (n - i); /* the bytes past the end: 0xff, which neither escapes */
	return !(json ? json_special(x) : tsv_special(x));
}

/* The runs that need no escape are copied whole. */
void dump_json_str(struct outbuf *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, run = 0;

	ob_putc(o, '"');
	if (plain_str(s, n, 1)) { /* nearly always */
		ob_mem(o, s, n);
		ob_putc(o, '"');
		return;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		ob_mem(o, s + run, i - run);
		run = i + 1;
		ob_room(o, 8);
		ob_putc(o, '\\');
		if (c >= 0x20) {
			ob_putc(o, c);
			continue;
		}
		ob_mem(o, "u00", 3);
		ob_putc(o, hex[c >> 4]);
		ob_putc(o, hex[c & 15]);
	}
	ob_mem(o, s + run, n - run);
	ob_putc(o, '"');
}

/* TSV cells must not hold tabs or newlines: those become spaces. */
void dump_tsv_str(struct outbuf *o, const char *s, size_t n)
{
	size_t i, run = 0;

	if (plain_str(s, n, 0)) {
		ob_mem(o, s, n);
		return;
	}
	for (i = 0; i < n; i++) {
		if (s[i] != '\t' && s[i] != '\n')
			continue;
		ob_mem(o, s + run, i - run);
		ob_putc(o, ' ');
		run = i + 1;
	}
	ob_mem(o, s + run, n - run);
}
