// SPDX-License-Identifier: GPL-2.0-only
/* The memo of memo.h: a direct-mapped table of texts by a hash of their payload span. */
#include <stdlib.h>
#include <string.h>

#include "memo.h"

_Static_assert(TS_MEMO_SLOTS == 256, "ts_memo_find() takes a slot from a hash's top 8 bits");

void ts_memo_span(struct ts_memo *m, uint32_t lo, uint32_t hi, uint32_t size)
{
	uint32_t words = hi > lo ? (hi - lo + 7) / 8 : 0;

	m->key_words = 0;
	if (!words || words > TS_MEMO_WORDS)
		return;
	/*
	 * Whole words from @lo, when the payloads hold them; else ending at @hi (bytes before
	 * @lo in the key, a common field, only lower the hits)
	 */
	m->key_off = lo + 8 * words <= size || hi < 8 * words ? lo : hi - 8 * words;
	m->key_words = words;
	m->need = m->key_off + 8 * words > hi ? m->key_off + 8 * words : hi;
}

/*
 * A payload's key words hashed by independent multiplies (no chain of eight, each waiting for
 * the one before) and compared without a branch per word: a lookup is on every line dump prints.
 */
struct ts_memo_ent *ts_memo_find(struct ts_memo *m, const unsigned char *p, uint32_t size,
				 uint64_t *key, int *hit)
{
	static const uint64_t mul[TS_MEMO_WORDS] = {
		0x9e3779b97f4a7c15ULL, 0xc2b2ae3d27d4eb4fULL, 0x165667b19e3779f9ULL,
		0xd6e8feb86659fd93ULL, 0xff51afd7ed558ccdULL, 0xc4ceb9fe1a85ec53ULL,
		0x94d049bb133111ebULL, 0xbf58476d1ce4e5b9ULL,
	};
	const unsigned char *k = p + m->key_off;
	uint32_t i, words = m->key_words;
	uint64_t h = 0, diff = 0;
	struct ts_memo_ent *e;

	*hit = 0;
	if (!words || m->dropped || size < m->need)
		return NULL;
	if (!m->e) {
		m->e = calloc(TS_MEMO_SLOTS, sizeof(*m->e));
		if (!m->e) {
			m->dropped = 1;
			return NULL;
		}
	}
	for (i = 0; i < words; i++) {
		memcpy(&key[i], k + 8 * i, 8);
		h += (key[i] ^ key[i] >> 32) * mul[i];
	}
	e = &m->e[(h ^ h >> 32) * 0x9e3779b97f4a7c15ULL >> 56]; /* TS_MEMO_SLOTS is 256 */
	for (i = 0; i < words; i++)
		diff |= e->key[i] ^ key[i];
	*hit = !diff && e->len;
	m->hit += *hit;
	if (++m->look == TS_MEMO_WINDOW) {
		m->dropped = m->hit < TS_MEMO_WINDOW / 2;
		m->look = m->hit = 0;
	}
	return e;
}

void ts_memo_keep(const struct ts_memo *m, struct ts_memo_ent *e, const uint64_t *key,
		  const char *text, size_t n)
{
	if (!n || n > TS_MEMO_TEXT)
		return;
	memcpy(e->key, key, m->key_words * 8);
	memcpy(e->text, text, n);
	e->len = (uint32_t)n;
}

void ts_memo_free(struct ts_memo *m)
{
	free(m->e);
	m->e = NULL;
}
