// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the digit writers of dump's printers (common/digits.h) against snprintf():
 * every value below 2,000,000 and around each power of ten, the top of each range, and a
 * million pseudo-random values of each width.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/digits.h"
#include "tap.h"

/* One value through every writer it is in range of; 0 when each equals snprintf's. */
static int check(uint64_t v, char *why, size_t len)
{
	char got[32], want[32];
	int n;

	n = snprintf(want, sizeof(want), "%llu", (unsigned long long)v);
	if (ts_ndigits(v) != n) {
		snprintf(why, len, "ts_ndigits(%llu) = %d", (unsigned long long)v, ts_ndigits(v));
		return -1;
	}
	memset(got, 'x', sizeof(got));
	ts_digits(got + n, v);
	if (memcmp(got, want, n)) {
		snprintf(why, len, "ts_digits(%llu) = %.*s", (unsigned long long)v, n, got);
		return -1;
	}
	n = snprintf(want, sizeof(want), "%llx", (unsigned long long)v);
	memset(got, 'x', sizeof(got));
	ts_xdigits(got + ts_nxdigits(v), v);
	if (ts_nxdigits(v) != n || memcmp(got, want, n)) {
		snprintf(why, len, "ts_xdigits(%llx) = %.*s", (unsigned long long)v, n, got);
		return -1;
	}
	if (v < 100000000ULL) {
		snprintf(want, sizeof(want), "%08u", (unsigned int)v);
		memset(got, 'x', sizeof(got));
		ts_digits8(got, (uint32_t)v);
		if (memcmp(got, want, 8) || got[8] != 'x') { /* nothing written past the eight */
			snprintf(why, len, "ts_digits8(%llu) = %.9s", (unsigned long long)v, got);
			return -1;
		}
	}
	if (v < 1000000000ULL) {
		snprintf(want, sizeof(want), "%09u", (unsigned int)v);
		memset(got, 'x', sizeof(got));
		ts_digits9(got, (uint32_t)v);
		if (memcmp(got, want, 9) || got[9] != 'x') {
			snprintf(why, len, "ts_digits9(%llu) = %.10s", (unsigned long long)v, got);
			return -1;
		}
	}
	return 0;
}

/* xorshift64: the same values on every run */
static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

int main(void)
{
	char why[128] = "";
	uint64_t v, p, s = 0x9e3779b97f4a7c15ULL;
	int bad, k;

	for (bad = 0, v = 0; v < 2000000 && !bad; v++)
		bad = check(v, why, sizeof(why));
	ok(!bad, "every value below 2,000,000: %s", bad ? why : "as snprintf");

	for (bad = 0, k = 1, p = 10; k < 20 && !bad; k++, p *= 10)
		for (v = p - 1000; v <= p + 1000 && !bad; v++)
			bad = check(v, why, sizeof(why));
	ok(!bad, "1,000 values on each side of 10^1 .. 10^19: %s", bad ? why : "as snprintf");

	for (bad = 0, v = 0; v < 1000000 && !bad; v++)
		bad = check(99999999 - v, why, sizeof(why)) ||
		      check(999999999 - v, why, sizeof(why)) ||
		      check(UINT64_MAX - v, why, sizeof(why));
	ok(!bad, "the top million of 8 and 9 digits and of 64 bits: %s", bad ? why : "as snprintf");

	for (bad = 0, k = 0; k < 1000000 && !bad; k++) {
		v = next(&s);
		bad = check(v % 100000000, why, sizeof(why)) ||
		      check(v % 1000000000, why, sizeof(why)) || check(v, why, sizeof(why)) ||
		      check(v >> (v & 63), why, sizeof(why));
	}
	ok(!bad, "a million pseudo-random values of each width: %s", bad ? why : "as snprintf");
	return tap_done();
}
