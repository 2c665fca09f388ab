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

int ts_memo_alloc(struct ts_memo *m)
{
	m->e = calloc(TS_MEMO_SLOTS, sizeof(*m->e));
	m->dropped = !m->e;
	return m->dropped;
}

void ts_memo_window(struct ts_memo *m)
{
	m->dropped = m->hit < TS_MEMO_WINDOW / 2;
	m->look = m->hit = 0;
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
