// SPDX-License-Identifier: GPL-2.0-only
/*
 * The models' tables: the hash map in both widths (Fibonacci hashing, linear probing,
 * backward-shift deletion), object, per-CPU and name tables.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/map.h"

/*
 * Both widths' functions from one text: @map names the struct and its entry (struct map##_ent),
 * @kt the type of its keys and values, @empty the key of an empty slot.
 */
#define TS_MAP_DEFINE(map, kt, empty)                                                        \
	kt *map##_find(const struct map *m, kt key)                                          \
	{                                                                                    \
		size_t i;                                                                    \
                                                                                             \
		if (!m->nr)                                                                  \
			return NULL;                                                         \
		for (i = map##_slot(m, key);; i = (i + 1) & (m->cap - 1)) {                  \
			if (m->e[i].key == key)                                              \
				return &m->e[i].val;                                         \
			if (m->e[i].key == (empty))                                          \
				return NULL;                                                 \
		}                                                                            \
	}                                                                                    \
                                                                                             \
	static int map##_rehash(struct map *m, size_t cap)                                   \
	{                                                                                    \
		struct map##_ent *old = m->e;                                                \
		size_t oldcap = m->cap, i, j;                                                \
                                                                                             \
		m->e = malloc(cap * sizeof(*m->e));                                          \
		if (!m->e) {                                                                 \
			m->e = old;                                                          \
			return -ENOMEM;                                                      \
		}                                                                            \
		m->cap = cap;                                                                \
		for (i = 0; i < cap; i++)                                                    \
			m->e[i].key = (empty);                                               \
		for (i = 0; i < oldcap; i++) {                                               \
			if (old[i].key == (empty))                                           \
				continue;                                                    \
			for (j = map##_slot(m, old[i].key); m->e[j].key != (empty);          \
			     j = (j + 1) & (cap - 1))                                        \
				;                                                            \
			m->e[j] = old[i];                                                    \
		}                                                                            \
		free(old);                                                                   \
		return 0;                                                                    \
	}                                                                                    \
                                                                                             \
	int map##_add(struct map *m, kt key, kt **val)                                       \
	{                                                                                    \
		size_t i;                                                                    \
                                                                                             \
		if (key == (empty))                                                          \
			return -EINVAL;                                                      \
		if ((m->nr + 1) * 4 > m->cap * 3) {                                          \
			int err = map##_rehash(m, m->cap ? m->cap * 2 : 64);                 \
			if (err)                                                             \
				return err;                                                  \
		}                                                                            \
		for (i = map##_slot(m, key);; i = (i + 1) & (m->cap - 1)) {                  \
			if (m->e[i].key == key) {                                            \
				*val = &m->e[i].val;                                         \
				return 0;                                                    \
			}                                                                    \
			if (m->e[i].key == (empty))                                          \
				break;                                                       \
		}                                                                            \
		m->e[i].key = key;                                                           \
		m->e[i].val = 0;                                                             \
		m->nr++;                                                                     \
		*val = &m->e[i].val;                                                         \
		return 1;                                                                    \
	}                                                                                    \
                                                                                             \
	/* Later members of the probe run shift back, so that no lookup meets a hole. */     \
	int map##_remove(struct map *m, kt key)                                              \
	{                                                                                    \
		size_t i, j, mask = m->cap - 1;                                              \
		kt *v = map##_find(m, key);                                                  \
                                                                                             \
		if (!v)                                                                      \
			return 0;                                                            \
		i = (size_t)((struct map##_ent *)(void *)((char *)v -                        \
							  offsetof(struct map##_ent, val)) - \
			     m->e);                                                          \
		for (j = (i + 1) & mask; m->e[j].key != (empty); j = (j + 1) & mask) {       \
			size_t home = map##_slot(m, m->e[j].key);                            \
                                                                                             \
			if (((j - home) & mask) >= ((j - i) & mask)) {                       \
				m->e[i] = m->e[j];                                           \
				i = j;                                                       \
			}                                                                    \
		}                                                                            \
		m->e[i].key = (empty);                                                       \
		m->nr--;                                                                     \
		return 1;                                                                    \
	}                                                                                    \
                                                                                             \
	void map##_release(struct map *m)                                                    \
	{                                                                                    \
		free(m->e);                                                                  \
		m->e = NULL;                                                                 \
		m->cap = m->nr = 0;                                                          \
	}

TS_MAP_DEFINE(ts_map, uint64_t, TS_MAP_EMPTY)
TS_MAP_DEFINE(ts_map32, uint32_t, TS_MAP32_EMPTY)

const struct ts_map_ent *ts_map_next(const struct ts_map *m, size_t *pos)
{
	while (*pos < m->cap) {
		const struct ts_map_ent *e = &m->e[(*pos)++];

		if (e->key != TS_MAP_EMPTY)
			return e;
	}
	return NULL;
}

void *ts_blocks_add(struct ts_blocks *b)
{
	size_t j = b->nr / TS_OBJTAB_FIRST + 1;
	unsigned int k = 63 - (unsigned int)__builtin_clzll(j);

	if (k >= TS_OBJTAB_BLOCKS)
		return NULL;
	if (!b->blk[k] && !(b->blk[k] = calloc((size_t)TS_OBJTAB_FIRST << k, b->size)))
		return NULL; /* the first object of block k: its room */
	return ts_blocks_at(b, b->nr++);
}

void ts_blocks_release(struct ts_blocks *b)
{
	for (size_t i = 0; i < TS_OBJTAB_BLOCKS; i++) {
		free(b->blk[i]);
		b->blk[i] = NULL;
	}
	b->nr = 0;
}

void *ts_objtab_find(const struct ts_objtab *t, uint64_t key)
{
	uint64_t *v;
	uint32_t *n;

	if (!t->wide) {
		n = key < TS_MAP32_EMPTY ? ts_map32_find(&t->narrow, (uint32_t)key) : NULL;
		return n ? ts_objtab_at(t, *n - 1) : NULL;
	}
	v = ts_map_find(&t->map, key);
	return v ? (void *)(uintptr_t)*v : NULL;
}

/* The first key wider than 32 bits: every object into the map of addresses. */
static int widen(struct ts_objtab *t)
{
	uint64_t *v;
	size_t i;

	for (i = 0; i < t->narrow.cap; i++) {
		const struct ts_map32_ent *e = &t->narrow.e[i];

		if (e->key == TS_MAP32_EMPTY)
			continue;
		if (ts_map_add(&t->map, e->key, &v) < 0) {
			ts_map_release(&t->map);
			return -ENOMEM;
		}
		*v = (uintptr_t)ts_objtab_at(t, e->val - 1);
	}
	ts_map32_release(&t->narrow);
	t->wide = 1;
	return 0;
}

/*
 * @key's object in *@obj, or a slot for a new one: in narrow its index plus one, in map its
 * address (object @t->nr, whose block is there). Return: as ts_map_insert().
 */
static int objtab_insert(struct ts_objtab *t, uint64_t key, void **obj)
{
	uint64_t *v;
	uint32_t *n;
	int ret;

	if (!t->wide && key >= TS_MAP32_EMPTY && (ret = widen(t)))
		return ret;
	if (!t->wide) {
		ret = ts_map32_insert(&t->narrow, (uint32_t)key, &n);
		if (ret == 0)
			*obj = ts_objtab_at(t, *n - 1);
		else if (ret == 1)
			*n = (uint32_t)t->nr + 1;
		return ret;
	}
	ret = ts_map_insert(&t->map, key, &v);
	if (ret == 0)
		*obj = (void *)(uintptr_t)*v;
	else if (ret == 1)
		*v = (uintptr_t)ts_objtab_at(t, t->nr);
	return ret;
}

void *ts_objtab_add(struct ts_objtab *t, uint64_t key, int *isnew)
{
	size_t j = t->nr / TS_OBJTAB_FIRST + 1;
	unsigned int k = 63 - (unsigned int)__builtin_clzll(j);
	void *obj = NULL;
	int ret;

	if (isnew)
		*isnew = 0;
	if (k >= TS_OBJTAB_BLOCKS || t->nr >= TS_MAP32_EMPTY - 1)
		return NULL;
	/* the first object of block k: TS_OBJTAB_FIRST << k of them (kept if @key is there) */
	if (!t->blk[k] && !(t->blk[k] = calloc((size_t)TS_OBJTAB_FIRST << k, t->size)))
		return NULL;
	ret = objtab_insert(t, key, &obj);
	if (ret <= 0)
		return obj;
	if (isnew)
		*isnew = 1;
	return ts_objtab_at(t, t->nr++);
}

void ts_objtab_release(struct ts_objtab *t, void (*fini)(void *obj))
{
	size_t i;

	if (fini)
		for (i = 0; i < t->nr; i++)
			fini(ts_objtab_at(t, i));
	for (i = 0; i < TS_OBJTAB_BLOCKS; i++) {
		free(t->blk[i]);
		t->blk[i] = NULL;
	}
	ts_map_release(&t->map);
	ts_map32_release(&t->narrow);
	t->wide = 0;
	t->nr = 0;
}

void *ts_grow_zeroed(void *arr, int *nr, int idx, size_t elsize)
{
	char *na;
	int n;

	if (idx < 0 || idx > 65535)
		return NULL;
	if (idx < *nr)
		return arr;
	n = idx + 1 > *nr * 2 ? idx + 1 : *nr * 2;
	na = realloc(arr, (size_t)n * elsize);
	if (!na)
		return NULL;
	memset(na + (size_t)*nr * elsize, 0, (size_t)(n - *nr) * elsize);
	*nr = n;
	return na;
}

int ts_count_cpu(uint64_t **v, int *nr, int cpu)
{
	uint64_t *nv;

	if (cpu < 0 || cpu > 65535)
		return 0;
	nv = ts_grow_zeroed(*v, nr, cpu, sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[cpu]++;
	return 0;
}

void *ts_cputab_make(struct ts_cputab *t, int cpu, int *isnew)
{
	void **v = ts_grow_zeroed(t->v, &t->nr, cpu, sizeof(*v));

	if (isnew)
		*isnew = 0;
	if (!v)
		return NULL;
	t->v = v;
	if (!v[cpu]) {
		v[cpu] = calloc(1, t->size);
		if (v[cpu] && isnew)
			*isnew = 1;
	}
	return v[cpu];
}

int ts_cputab_nr(const struct ts_cputab *t)
{
	int n = t->nr;

	while (n > 0 && !t->v[n - 1])
		n--;
	return n;
}

void ts_cputab_release(struct ts_cputab *t, void (*fini)(void *obj))
{
	int i;

	for (i = 0; i < t->nr; i++) {
		if (t->v[i] && fini)
			fini(t->v[i]);
		free(t->v[i]);
	}
	free(t->v);
	t->v = NULL;
	t->nr = 0;
}

size_t ts_objtab_count_set(const struct ts_objtab *t, size_t flag_off)
{
	size_t i, n = 0;
	int flag;

	for (i = 0; i < t->nr; i++) {
		memcpy(&flag, (const char *)ts_objtab_at(t, i) + flag_off, sizeof(flag));
		n += flag != 0;
	}
	return n;
}

void *ts_tables_new(size_t size, const struct ts_tab_spec *tabs, size_t nr)
{
	char *m = calloc(1, size);
	size_t i;

	for (i = 0; m && i < nr; i++)
		memcpy(m + tabs[i].size_off, &tabs[i].obj_size, sizeof(size_t));
	return m;
}

/* FNV-1a, 32 bits: the slot and the quick check of a probe */
static uint32_t str_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

#define STRIX_IDX ((1u << 20) - 1)

long ts_strix_find(const struct ts_strix *x, const char *name, ts_strix_name_fn *name_of,
		   const void *ctx)
{
	uint32_t h, tag;
	size_t i;

	if (!x->nr)
		return -1;
	h = str_hash(name);
	tag = h & ~STRIX_IDX;
	for (i = h & (x->cap - 1); x->slot[i]; i = (i + 1) & (x->cap - 1)) {
		size_t k = (x->slot[i] & STRIX_IDX) - 1;

		if ((x->slot[i] & ~STRIX_IDX) == tag && !strcmp(name_of(ctx, k), name))
			return (long)k;
	}
	return -1;
}

static void strix_put(uint32_t *slot, size_t cap, uint32_t h, uint32_t v)
{
	size_t i;

	for (i = h & (cap - 1); slot[i]; i = (i + 1) & (cap - 1))
		;
	slot[i] = v;
}

int ts_strix_add(struct ts_strix *x, const char *name, size_t i, ts_strix_name_fn *name_of,
		 const void *ctx)
{
	uint32_t h = str_hash(name);

	if (i > TS_STRIX_MAX)
		return -ENOMEM;
	if ((x->nr + 1) * 4 > x->cap * 3) {
		size_t cap = x->cap ? 2 * x->cap : 64;
		uint32_t *s = calloc(cap, sizeof(*s));

		if (!s)
			return -ENOMEM;
		/* a slot keeps only the hash's top bits: the names say where they go now */
		for (size_t k = 0; k < x->cap; k++)
			if (x->slot[k])
				strix_put(s, cap,
					  str_hash(name_of(ctx, (x->slot[k] & STRIX_IDX) - 1)),
					  x->slot[k]);
		free(x->slot);
		x->slot = s;
		x->cap = cap;
	}
	strix_put(x->slot, x->cap, h, (h & ~STRIX_IDX) | (uint32_t)(i + 1));
	x->nr++;
	return 0;
}

void ts_strix_release(struct ts_strix *x)
{
	free(x->slot);
	memset(x, 0, sizeof(*x));
}
