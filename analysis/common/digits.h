/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Decimal and hex digits without printf, for the printers that write millions of numbers
 * (dump's lines, its compiled print fmts): two digits per table load, lengths known first.
 */
#ifndef TICKSCOPE_DIGITS_H
#define TICKSCOPE_DIGITS_H

#include <stdint.h>
#include <string.h>

/* "00" "01" ... "99" */
extern const char ts_digit_pairs[200];

/* Decimal digits of @v (1 for 0): the bit length's estimate, corrected by one comparison. */
static inline int ts_ndigits(uint64_t v)
{
	static const uint64_t pow10[20] = { 1ULL,
					    10ULL,
					    100ULL,
					    1000ULL,
					    10000ULL,
					    100000ULL,
					    1000000ULL,
					    10000000ULL,
					    100000000ULL,
					    1000000000ULL,
					    10000000000ULL,
					    100000000000ULL,
					    1000000000000ULL,
					    10000000000000ULL,
					    100000000000000ULL,
					    1000000000000000ULL,
					    10000000000000000ULL,
					    100000000000000000ULL,
					    1000000000000000000ULL,
					    10000000000000000000ULL };
	int t;

	v |= 1;
	t = (64 - __builtin_clzll(v)) * 1233 >> 12;
	return t + (v >= pow10[t]);
}

/* The decimal digits of @v, ending just before @e. */
static inline void ts_digits(char *e, uint64_t v)
{
	while (v >= 100) {
		uint64_t q = v / 100;

		e -= 2;
		memcpy(e, ts_digit_pairs + 2 * (v - 100 * q), 2);
		v = q;
	}
	if (v >= 10)
		memcpy(e - 2, ts_digit_pairs + 2 * v, 2);
	else
		e[-1] = (char)('0' + v);
}

/*
 * @v (below 10^9) as exactly nine digits at @p, zeros first (a time's nanoseconds): split in
 * parts whose divisions do not wait for each other, unlike ts_digits()'s chain of four.
 */
static inline void ts_digits9(char *p, uint32_t v)
{
	uint32_t hi = v / 100000000u, lo = v % 100000000u;
	uint32_t a = lo / 10000u, b = lo % 10000u;

	p[0] = (char)('0' + hi);
	memcpy(p + 1, ts_digit_pairs + 2 * (a / 100u), 2);
	memcpy(p + 3, ts_digit_pairs + 2 * (a % 100u), 2);
	memcpy(p + 5, ts_digit_pairs + 2 * (b / 100u), 2);
	memcpy(p + 7, ts_digit_pairs + 2 * (b % 100u), 2);
}

/* Hex digits of @v (1 for 0). */
static inline int ts_nxdigits(uint64_t v)
{
	return v ? (67 - __builtin_clzll(v)) / 4 : 1;
}

/* The lowercase hex digits of @v, ending just before @e. */
static inline void ts_xdigits(char *e, uint64_t v)
{
	do {
		*--e = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
}

#endif
