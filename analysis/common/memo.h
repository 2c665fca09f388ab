/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A memo of printed text by the payload bytes it was printed from, for dump's printers: a
 * format whose text depends on one short span of the payload alone prints it once per
 * distinct span, then copies it (sched_switch between the same two tasks, a wakeup of the
 * same one).
 */
#ifndef TICKSCOPE_MEMO_H
#define TICKSCOPE_MEMO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define TS_MEMO_WORDS 8 /* the longest key: 64 bytes of payload */
#define TS_MEMO_TEXT 184 /* an entry of 256 bytes; sched_switch between 15-byte comms is 126 */
#define TS_MEMO_SLOTS 256
#define TS_MEMO_WINDOW 4096 /* lookups; fewer than half of them hits: the memo is dropped */

struct ts_memo_ent {
	uint64_t key[TS_MEMO_WORDS];
	uint32_t len; /* 0: empty */
	char text[TS_MEMO_TEXT];
};

/* A zeroed struct keeps nothing until ts_memo_span() gives it a key. */
struct ts_memo {
	uint32_t key_off, key_words; /* the key: key_words words at key_off; 0 words: none */
	uint32_t need; /* a payload shorter than this is not looked up */
	uint32_t look, hit;
	int dropped;
	struct ts_memo_ent *e; /* TS_MEMO_SLOTS of them, allocated on the first lookup */
};

/**
 * ts_memo_span() - key @m by the payload bytes [@lo, @hi), the only ones the text depends on
 * (when a payload holds them all); a span longer than TS_MEMO_WORDS words keeps no memo
 * @size: the length of the payloads to expect (whole words of key run past @hi within it)
 */
void ts_memo_span(struct ts_memo *m, uint32_t lo, uint32_t hi, uint32_t size);

/* ts_memo_find()'s cold parts (memo.c): the table's first allocation, a window's end. */
int ts_memo_alloc(struct ts_memo *m);
void ts_memo_window(struct ts_memo *m);

/**
 * ts_memo_find() - the slot of payload @p (@size bytes), its key into @key
 * @hit: set to 1 when the slot holds @p's text
 *
 * Inline: the printers look up every line, and a call cost a fifth of a lookup.
 * Return: the slot (to fill with ts_memo_keep() on a miss), or NULL when @m keeps nothing
 * for @p: no key, a payload too short, no memory, or dropped (too few hits: a format
 * printing a counter, sched_stat_runtime's runtime, costs more than it saves).
 */
static inline struct ts_memo_ent *ts_memo_find(struct ts_memo *m, const unsigned char *p,
					       uint32_t size, uint64_t *key, int *hit)
{
	struct ts_memo_ent *e;
	uint64_t h = 0, diff = 0;
	uint32_t i;

	*hit = 0;
	if (!m->key_words || m->dropped || size < m->need || (!m->e && ts_memo_alloc(m)))
		return NULL;
	for (i = 0; i < m->key_words; i++) {
		memcpy(&key[i], p + m->key_off + 8 * i, 8);
		h = (h ^ key[i]) * 0x9e3779b97f4a7c15ULL;
	}
	e = &m->e[(h ^ h >> 29) % TS_MEMO_SLOTS];
	for (i = 0; i < m->key_words; i++) /* no early exit: a hit compares every word anyway */
		diff |= e->key[i] ^ key[i];
	*hit = !diff && e->len;
	m->hit += *hit;
	if (++m->look == TS_MEMO_WINDOW)
		ts_memo_window(m);
	return e;
}

/** ts_memo_keep() - @n bytes of @text for @key in slot @e; longer texts are not kept */
void ts_memo_keep(const struct ts_memo *m, struct ts_memo_ent *e, const uint64_t *key,
		  const char *text, size_t n);

/** ts_memo_free() - free what @m keeps (its key stays) */
void ts_memo_free(struct ts_memo *m);

#endif
