// SPDX-License-Identifier: GPL-2.0-only
/* The memo of memo.h: a direct-mapped table of texts by a hash of their payload span. */
#include <stdlib.h>
#include <string.h>

#include "memo.h"

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

struct ts_memo_ent *ts_memo_find(struct ts_memo *m, const unsigned char *p, uint32_t size,
				 uint64_t *key, int *hit)
{
	struct ts_memo_ent *e;
	uint64_t h = 0;
	uint32_t i;

	*hit = 0;
	if (!m->key_words || m->dropped || size < m->need)
		return NULL;
	if (!m->e) {
		m->e = calloc(TS_MEMO_SLOTS, sizeof(*m->e));
		if (!m->e) {
			m->dropped = 1;
			return NULL;
		}
	}
	for (i = 0; i < m->key_words; i++) {
		memcpy(&key[i], p + m->key_off + 8 * i, 8);
		h = (h ^ key[i]) * 0x9e3779b97f4a7c15ULL;
	}
	e = &m->e[(h ^ h >> 29) % TS_MEMO_SLOTS];
	for (i = 0; i < m->key_words && e->key[i] == key[i]; i++)
		;
	*hit = i == m->key_words && e->len;
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
