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
 * @v (below 10^8) as exactly eight digits at @p, zeros first, in one 64-bit word whose bytes
 * are the digits in the order they are written (the first the lowest, on a little-endian
 * CPU): the halves of four digits go to two 32-bit lanes, each lane's halves of two digits to
 * its two 16-bit lanes, each of those to two bytes, every lane split by the same multiply and
 * shift (exact below 10^8, 10^4 and 100: n * 0x68db8bb >> 40 is n / 10^4, n * 5243 >> 19 is
 * n / 100, n * 103 >> 10 is n / 10); no lane's product reaches the next one. Tested against
 * snprintf("%08u") by tests/unit/digits.c.
 */
static inline void ts_digits8(char *p, uint32_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t x, t;

	t = ((uint64_t)v * 0x68db8bbULL) >> 40;
	x = t | (uint64_t)(v - 10000u * (uint32_t)t) << 32;
	t = ((x * 5243) >> 19) & 0x0000007f0000007fULL;
	x = t | (x - 100 * t) << 16;
	t = ((x * 103) >> 10) & 0x000f000f000f000fULL;
	x = t | (x - 10 * t) << 8;
	x += 0x3030303030303030ULL;
	memcpy(p, &x, 8);
#else
	uint32_t a = v / 10000u, b = v % 10000u;

	memcpy(p, ts_digit_pairs + 2 * (a / 100u), 2);
	memcpy(p + 2, ts_digit_pairs + 2 * (a % 100u), 2);
	memcpy(p + 4, ts_digit_pairs + 2 * (b / 100u), 2);
	memcpy(p + 6, ts_digit_pairs + 2 * (b % 100u), 2);
#endif
}

/* @v (below 10^9) as exactly nine digits at @p, zeros first (a time's nanoseconds). */
static inline void ts_digits9(char *p, uint32_t v)
{
	p[0] = (char)('0' + v / 100000000u);
	ts_digits8(p + 1, v % 100000000u);
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
