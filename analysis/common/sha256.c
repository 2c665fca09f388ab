// SPDX-License-Identifier: GPL-2.0-only
/*
 * SHA-256 as FIPS 180-4 defines it: 64-byte blocks, 64 rounds, big-endian words. The CPU's
 * own SHA-256 instructions (x86 SHA extensions, Armv8 SHA2) when it has them: in plain C the
 * hash of a trace costs several times its decoding.
 */
#include <stdio.h>
#include <string.h>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#elif defined(__aarch64__)
#include <arm_neon.h>
#include <sys/auxv.h>
#endif

#include "tickscope/sha256.h"

/* The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static inline uint32_t ror(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

static inline uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint32_t big0(uint32_t x)
{
	return ror(x, 2) ^ ror(x, 13) ^ ror(x, 22);
}

static inline uint32_t big1(uint32_t x)
{
	return ror(x, 6) ^ ror(x, 11) ^ ror(x, 25);
}

static inline uint32_t small0(uint32_t x)
{
	return ror(x, 7) ^ ror(x, 18) ^ (x >> 3);
}

static inline uint32_t small1(uint32_t x)
{
	return ror(x, 17) ^ ror(x, 19) ^ (x >> 10);
}

/*
 * One round, the eight working variables renamed instead of moved (the caller rotates the
 * arguments), so that the compiler keeps them in registers.
 */
#define ROUND(a, b, c, d, e, f, g, h, kw)                                \
	do {                                                             \
		uint32_t t1 = h + big1(e) + ((e & f) ^ (~e & g)) + (kw); \
		d += t1;                                                 \
		h = t1 + big0(a) + ((a & b) ^ (a & c) ^ (b & c));        \
	} while (0)

static void block_c(uint32_t st[8], const unsigned char *p)
{
	uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6],
		 h = st[7], w[16];
	int i;

	for (i = 0; i < 16; i++)
		w[i] = be32(p + 4 * i);
	for (i = 0; i < 64; i += 8) {
		/* the schedule as 16 words updated in place: w[j & 15] held word j - 16 */
		for (int j = i; i >= 16 && j < i + 8; j++)
			w[j & 15] += small1(w[(j + 14) & 15]) + w[(j + 9) & 15] +
				     small0(w[(j + 1) & 15]);
		ROUND(a, b, c, d, e, f, g, h, K[i] + w[i & 15]);
		ROUND(h, a, b, c, d, e, f, g, K[i + 1] + w[(i + 1) & 15]);
		ROUND(g, h, a, b, c, d, e, f, K[i + 2] + w[(i + 2) & 15]);
		ROUND(f, g, h, a, b, c, d, e, K[i + 3] + w[(i + 3) & 15]);
		ROUND(e, f, g, h, a, b, c, d, K[i + 4] + w[(i + 4) & 15]);
		ROUND(d, e, f, g, h, a, b, c, K[i + 5] + w[(i + 5) & 15]);
		ROUND(c, d, e, f, g, h, a, b, K[i + 6] + w[(i + 6) & 15]);
		ROUND(b, c, d, e, f, g, h, a, K[i + 7] + w[(i + 7) & 15]);
	}
	st[0] += a;
	st[1] += b;
	st[2] += c;
	st[3] += d;
	st[4] += e;
	st[5] += f;
	st[6] += g;
	st[7] += h;
}

#if defined(__x86_64__)
/*
 * x86 SHA extensions: the state lives in two registers as ABEF and CDGH; sha256rnds2 does two
 * rounds from the low two words of its message operand; sha256msg1 and sha256msg2 compute the
 * schedule's sigma0 and sigma1 parts, four words at a time.
 */
__attribute__((target("sha,sse4.1,ssse3"))) static void blocks_x86(uint32_t st[8],
								   const unsigned char *p, size_t n)
{
	const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
	__m128i s0, s1, t, m[4], wk, save0, save1;

	t = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&st[0]), 0xb1); /* CDAB */
	s1 = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&st[4]), 0x1b); /* HGFE */
	s0 = _mm_alignr_epi8(t, s1, 8); /* ABEF */
	s1 = _mm_blend_epi16(s1, t, 0xf0); /* CDGH */
	for (; n; n--, p += 64) {
		save0 = s0;
		save1 = s1;
		for (int i = 0; i < 4; i++)
			m[i] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * i)),
						swap);
#pragma GCC unroll 16
		/*
		 * unrolled, m[] stays in registers: with the loop kept, it went through the stack
		 * and the rounds waited for it (0.75 GB/s, 1.0-1.2 unrolled, issue 33)
		 */
		for (int g = 0; g < 16; g++) {
			__m128i *w = &m[g & 3];

			if (g >= 4) /* words 4g..4g+3 from the four groups before them */
				*w = _mm_sha256msg2_epu32(
					_mm_add_epi32(_mm_sha256msg1_epu32(*w, m[(g + 1) & 3]),
						      _mm_alignr_epi8(m[(g + 3) & 3],
								      m[(g + 2) & 3], 4)),
					m[(g + 3) & 3]);
			wk = _mm_add_epi32(*w, _mm_loadu_si128((const __m128i *)&K[4 * g]));
			s1 = _mm_sha256rnds2_epu32(s1, s0, wk);
			s0 = _mm_sha256rnds2_epu32(s0, s1, _mm_shuffle_epi32(wk, 0x0e));
		}
		s0 = _mm_add_epi32(s0, save0);
		s1 = _mm_add_epi32(s1, save1);
	}
	t = _mm_shuffle_epi32(s0, 0x1b); /* FEBA */
	s1 = _mm_shuffle_epi32(s1, 0xb1); /* DCHG */
	_mm_storeu_si128((__m128i *)&st[0], _mm_blend_epi16(t, s1, 0xf0)); /* DCBA */
	_mm_storeu_si128((__m128i *)&st[4], _mm_alignr_epi8(s1, t, 8)); /* HGFE */
}

static int have_sha(void)
{
	unsigned int a, b, c, d;

	/* CPUID leaf 7: EBX bit 29 is SHA; the code above also needs SSSE3 and SSE4.1 */
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 29)))
		return 0;
	return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) && (c & bit_SSE4_1);
}
#elif defined(__aarch64__)
/* Armv8 SHA2: sha256h/sha256h2 do four rounds on ABCD and EFGH, sha256su0/su1 the schedule. */
__attribute__((target("+crypto"))) static void blocks_arm(uint32_t st[8], const unsigned char *p,
							  size_t n)
{
	uint32x4_t abcd = vld1q_u32(&st[0]), efgh = vld1q_u32(&st[4]), m[4], wk, a0, e0, t;

	for (; n; n--, p += 64) {
		a0 = abcd;
		e0 = efgh;
		for (int i = 0; i < 4; i++)
			m[i] = vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p + 16 * i)));
		for (int g = 0; g < 16; g++) {
			wk = vaddq_u32(m[g & 3], vld1q_u32(&K[4 * g]));
			t = abcd;
			abcd = vsha256hq_u32(abcd, efgh, wk);
			efgh = vsha256h2q_u32(efgh, t, wk);
			if (g < 12) /* group g+4 replaces group g, whose rounds are done */
				m[g & 3] =
					vsha256su1q_u32(vsha256su0q_u32(m[g & 3], m[(g + 1) & 3]),
							m[(g + 2) & 3], m[(g + 3) & 3]);
		}
		abcd = vaddq_u32(abcd, a0);
		efgh = vaddq_u32(efgh, e0);
	}
	vst1q_u32(&st[0], abcd);
	vst1q_u32(&st[4], efgh);
}

static int have_sha(void)
{
	return !!(getauxval(AT_HWCAP) & (1ul << 6)); /* HWCAP_SHA2 */
}
#endif

/*
 * The CPU has SHA-256 instructions: -1 not asked yet. Threads that ask at once (compare's
 * workers) write the same answer, atomically.
 */
static int use_sha = -1;

/* @n blocks of @p into @st, by the CPU's instructions when it has them. */
static void blocks(uint32_t st[8], const unsigned char *p, size_t n)
{
#if defined(__x86_64__) || defined(__aarch64__)
	int sha = __atomic_load_n(&use_sha, __ATOMIC_RELAXED);

	if (sha < 0) {
		sha = have_sha();
		__atomic_store_n(&use_sha, sha, __ATOMIC_RELAXED);
	}
	if (sha) {
#if defined(__x86_64__)
		blocks_x86(st, p, n);
#else
		blocks_arm(st, p, n);
#endif
		return;
	}
#endif
	for (; n; n--, p += 64)
		block_c(st, p);
}

void ts_sha256_init(struct ts_sha256 *s)
{
	/* the first 32 bits of the fractional parts of the square roots of the first 8 primes */
	static const uint32_t h0[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
					0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };

	memcpy(s->h, h0, sizeof(h0));
	s->bytes = 0;
	s->fill = 0;
}

void ts_sha256_update(struct ts_sha256 *s, const void *p, size_t n)
{
	const unsigned char *c = p;

	s->bytes += n;
	if (s->fill) {
		size_t k = n < 64 - s->fill ? n : 64 - s->fill;

		memcpy(s->buf + s->fill, c, k);
		s->fill += k;
		c += k;
		n -= k;
		if (s->fill < 64)
			return;
		blocks(s->h, s->buf, 1);
		s->fill = 0;
	}
	blocks(s->h, c, n / 64);
	c += n / 64 * 64;
	n %= 64;
	memcpy(s->buf, c, n);
	s->fill = n;
}

void ts_sha256_final(struct ts_sha256 *s, char *hex)
{
	uint64_t bits = s->bytes * 8;
	int i;

	/* a 1 bit, zeros up to 56 bytes of the last block, then the length in bits */
	s->buf[s->fill++] = 0x80;
	if (s->fill > 56) {
		memset(s->buf + s->fill, 0, 64 - s->fill);
		blocks(s->h, s->buf, 1);
		s->fill = 0;
	}
	memset(s->buf + s->fill, 0, 56 - s->fill);
	for (i = 0; i < 8; i++)
		s->buf[56 + i] = (unsigned char)(bits >> (56 - 8 * i));
	blocks(s->h, s->buf, 1);
	for (i = 0; i < 8; i++)
		snprintf(hex + 8 * i, 9, "%08x", s->h[i]);
}
