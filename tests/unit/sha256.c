// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of SHA-256 (common/sha256.c): FIPS 180-4's example messages, and every length
 * around the padding's block boundary fed in pieces, checked against coreutils' sha256sum;
 * each for the plain C rounds and for the CPU's SHA instructions when it has them. The file
 * is included, not linked, to choose between the two.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/sha256.c"
#include "tap.h"

static void hash(const void *p, size_t n, size_t piece, char *hex)
{
	struct ts_sha256 s;
	const char *c = p;

	ts_sha256_init(&s);
	for (size_t at = 0; at < n; at += piece)
		ts_sha256_update(&s, c + at, n - at < piece ? n - at : piece);
	ts_sha256_final(&s, hex);
}

static void test_fips(void)
{
	static const struct {
		const char *msg, *want;
	} v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	};
	char hex[TS_SHA256_HEX], *m = malloc(1000000);

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		hash(v[i].msg, strlen(v[i].msg), 64, hex);
		if (!ok(!strcmp(hex, v[i].want), "FIPS 180-4 example \"%.8s...\"", v[i].msg))
			diag("got %s", hex);
	}
	if (!m)
		return;
	memset(m, 'a', 1000000);
	hash(m, 1000000, 4093, hex); /* pieces that straddle blocks */
	ok(!strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
	   "FIPS 180-4: one million 'a', hashed 4093 bytes at a time");
	free(m);
}

/* Lengths 0..130 bytes (every padding case), one byte at a time and whole, as sha256sum says. */
static void test_against_sha256sum(void)
{
	unsigned char msg[131];
	int bad = 0, n = 0;

	for (int i = 0; i < (int)sizeof(msg); i++)
		msg[i] = (unsigned char)(i * 37 + 11);
	for (int len = 0; len <= 130; len++) {
		char cmd[64], want[TS_SHA256_HEX] = "", one[TS_SHA256_HEX], whole[TS_SHA256_HEX];
		char path[] = "/tmp/ts-sha256-XXXXXX";
		int fd = mkstemp(path);
		FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL, *p;

		if (!f)
			break;
		fwrite(msg, 1, len, f);
		fclose(f);
		snprintf(cmd, sizeof(cmd), "sha256sum %s", path);
		p = popen(cmd, "r");
		if (p && fscanf(p, "%64s", want) == 1)
			n++;
		if (p)
			pclose(p);
		unlink(path);
		hash(msg, len, 1, one);
		hash(msg, len, len ? len : 1, whole);
		bad += strcmp(one, want) || strcmp(whole, want);
	}
	if (!n) {
		printf("ok %d # SKIP no sha256sum\n", ++tap_n);
		return;
	}
	ok(n == 131 && !bad, "lengths 0-130, bytewise and whole: %d of %d as sha256sum", n - bad,
	   n);
}

int main(void)
{
	int cpu;

	use_sha = 0;
	diag("plain C rounds");
	test_fips();
	test_against_sha256sum();
#if defined(__x86_64__) || defined(__aarch64__)
	cpu = have_sha();
#else
	cpu = 0;
#endif
	if (cpu) {
		use_sha = 1;
		diag("the CPU's SHA-256 instructions");
		test_fips();
		test_against_sha256sum();
	} else {
		printf("ok %d # SKIP this CPU has no SHA-256 instructions\n", ++tap_n);
	}
	return tap_done();
}
