/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * An output buffer for commands that write millions of lines (dump): bytes, strings and
 * numbers appended without stdio, one write(2) per megabyte.
 */
#ifndef TS_OUTBUF_H
#define TS_OUTBUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/digits.h"

#define OB_SIZE (1u << 20)
#define OB_LINE (1u << 17) /* room ob_line() makes: a printed event is written in place */
#define OB_SLACK 256 /* room kept after a string, for the numbers and chars that follow */

struct outbuf {
	char *b;
	size_t n;
	int fd;
	int err; /* the first write(2) error, negative */
};

/* ob_open() - an empty buffer onto @fd; Return: 0 or -ENOMEM */
int ob_open(struct outbuf *o, int fd);

/* ob_flush() - write what is buffered; Return: 0 or the first write error (negative) */
int ob_flush(struct outbuf *o);

/* ob_close() - flush and free; Return: as ob_flush() */
int ob_close(struct outbuf *o);

/* ob_write() - append @n bytes of any length, OB_SLACK bytes left free after them */
void ob_write(struct outbuf *o, const void *s, size_t n);

/* ob_room() - make room for @n bytes at o->b + o->n, flushing if need be */
static inline void ob_room(struct outbuf *o, size_t n)
{
	if (o->n + n > OB_SIZE)
		ob_flush(o);
}

/* ob_line() - room for the start of a line: the unchecked appends below, OB_SLACK bytes */
static inline void ob_line(struct outbuf *o)
{
	ob_room(o, OB_LINE);
}

/*
 * Unchecked appends of short items (a char, a number): the caller made room with ob_line()
 * or ob_room(); strings of any length go through ob_mem(), which keeps OB_SLACK bytes free.
 */
static inline void ob_putc(struct outbuf *o, char c)
{
	o->b[o->n++] = c;
}

static inline void ob_mem(struct outbuf *o, const void *s, size_t n)
{
	if (o->n + n + OB_SLACK > OB_SIZE) {
		ob_write(o, s, n);
		return;
	}
	memcpy(o->b + o->n, s, n);
	o->n += n;
}

static inline void ob_str(struct outbuf *o, const char *s)
{
	ob_mem(o, s, strlen(s));
}

/* @n (up to 16) copies of @c: two unconditional 8-byte stores (OB_SLACK leaves room) */
static inline void ob_fill(struct outbuf *o, char c, int n)
{
	uint64_t f = 0x0101010101010101ULL * (unsigned char)c;

	memcpy(o->b + o->n, &f, 8);
	memcpy(o->b + o->n + 8, &f, 8);
	o->n += n;
}

/* @v in decimal, right-aligned in @w columns (up to 16) with @fill (' ' or '0'); w 0: as is */
static inline void ob_num(struct outbuf *o, uint64_t v, int w, char fill)
{
	int n = ts_ndigits(v);

	if (w > n)
		ob_fill(o, fill, w - n);
	o->n += n;
	ts_digits(o->b + o->n, v);
}

/* @v in decimal, with a '-' when @is_signed and negative, as printf's %lld / %llu */
static inline void ob_snum(struct outbuf *o, uint64_t v, int is_signed)
{
	if (is_signed && (int64_t)v < 0) {
		ob_putc(o, '-');
		v = -v;
	}
	ob_num(o, v, 0, ' ');
}

#endif
