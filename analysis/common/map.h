/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The models' tables: a u64 -> u64 hash map (pid -> task, function -> stats, work -> queue
 * time) and its u32 twin, open addressing with linear probing, sized by the keys seen,
 * backward-shift deletion; object tables over it, per-CPU tables, a name index.
 */
#ifndef TICKSCOPE_MAP_H
#define TICKSCOPE_MAP_H

#include <stddef.h>
#include <stdint.h>

/*
 * Two widths of one map: ts_map (u64 keys and values, 16 bytes a slot) and ts_map32 (u32, 8
 * bytes a slot, for the tables that hold an entry per task of a busy machine's trace: a tid ->
 * a tid or an index). Their functions are generated from one text for both slot layouts:
 * TS_MAP_INLINES() below, TS_MAP_DEFINE() in map.c.
 */

/* The one key that cannot be stored: no pid, kernel address or sequence number takes it. */
#define TS_MAP_EMPTY UINT64_MAX
#define TS_MAP32_EMPTY UINT32_MAX

struct ts_map_ent {
	uint64_t key, val;
};

struct ts_map32_ent {
	uint32_t key, val;
};

/* A zeroed struct is an empty map. */
struct ts_map {
	struct ts_map_ent *e;
	size_t cap, nr; /* cap is 0 or a power of two */
};

struct ts_map32 {
	struct ts_map32_ent *e;
	size_t cap, nr; /* as ts_map's */
};

/** ts_map_find() - the value slot of @key, or NULL; valid until the next insert or remove */
uint64_t *ts_map_find(const struct ts_map *m, uint64_t key);
uint32_t *ts_map32_find(const struct ts_map32 *m, uint32_t key);

/**
 * ts_map_add() - find or add @key
 * @val: out: its value slot (0 when new); valid until the next insert or remove
 * Return: 1 when added, 0 when it was there, -ENOMEM, or -EINVAL for TS_MAP_EMPTY (ts_map32:
 * TS_MAP32_EMPTY).
 */
int ts_map_add(struct ts_map *m, uint64_t key, uint64_t **val);
int ts_map32_add(struct ts_map32 *m, uint32_t key, uint32_t **val);

/** ts_map_remove() - drop @key; Return: 1 if it was there, else 0 */
int ts_map_remove(struct ts_map *m, uint64_t key);
int ts_map32_remove(struct ts_map32 *m, uint32_t key);

/** ts_map_release() - free the table; the map is empty again */
void ts_map_release(struct ts_map *m);
void ts_map32_release(struct ts_map32 *m);

/*
 * ts_map_slot(): the slot @key hashes to in a table of @m->cap slots (Fibonacci hashing).
 * ts_map_home(): @key's entry when it is in its home slot and ts_map_add() would not grow the
 * table first, else NULL. ts_map_insert(): as ts_map_add(). The models look up a task or an
 * object on most events, and the key is nearly always in its home slot: that case inline, and
 * only where the table's size, and the order ts_map_next() walks it in, stay what they were.
 */
#define TS_MAP_INLINES(map, kt, empty)                                               \
	static inline size_t map##_slot(const struct map *m, kt key)                 \
	{                                                                            \
		return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (m->cap - 1); \
	}                                                                            \
                                                                                     \
	static inline struct map##_ent *map##_home(const struct map *m, kt key)      \
	{                                                                            \
		if (key != (empty) && (m->nr + 1) * 4 <= m->cap * 3) {               \
			struct map##_ent *e = &m->e[map##_slot(m, key)];             \
                                                                                     \
			if (e->key == key)                                           \
				return e;                                            \
		}                                                                    \
		return NULL;                                                         \
	}                                                                            \
                                                                                     \
	static inline int map##_insert(struct map *m, kt key, kt **val)              \
	{                                                                            \
		struct map##_ent *e = map##_home(m, key);                            \
                                                                                     \
		if (e) {                                                             \
			*val = &e->val;                                              \
			return 0;                                                    \
		}                                                                    \
		return map##_add(m, key, val);                                       \
	}

TS_MAP_INLINES(ts_map, uint64_t, TS_MAP_EMPTY)
TS_MAP_INLINES(ts_map32, uint32_t, TS_MAP32_EMPTY)

/**
 * ts_map_next() - iterate: start with *@pos = 0
 * Return: the next entry, or NULL at the end. Do not insert or remove while iterating.
 */
const struct ts_map_ent *ts_map_next(const struct ts_map *m, size_t *pos);

/*
 * An object table: key -> a zeroed object of @size bytes, stable in memory, kept in first-seen
 * order for iteration. A struct with only @size set is an empty table. The objects lie side by
 * side in blocks, block k holding TS_OBJTAB_FIRST << k of them, so that an object costs its
 * size and no allocation of its own (a busy machine's trace has tens of thousands: a task's
 * wait entries, its interrupt and migration figures); the map holds each one's address.
 */
#define TS_OBJTAB_FIRST 8
#define TS_OBJTAB_BLOCKS 40

/* Object @i of blocks @blk of objects of @size bytes (block k: TS_OBJTAB_FIRST << k of them). */
static inline void *ts_blk_at(void *const *blk, size_t size, size_t i)
{
	size_t j = i / TS_OBJTAB_FIRST + 1;
	unsigned int k = 63 - (unsigned int)__builtin_clzll(j);

	return (char *)blk[k] + (i - TS_OBJTAB_FIRST * (((size_t)1 << k) - 1)) * size;
}

/*
 * Objects by index alone, in the blocks of an object table and with no map: for a model that
 * finds them its own way (the sched model's tasks by its pid map, its wait entries by an index
 * table keyed by their fields). A struct with only @size set is empty.
 */
struct ts_blocks {
	void *blk[TS_OBJTAB_BLOCKS];
	size_t nr, size;
};

/** ts_blocks_add() - a new zeroed object, index @b->nr - 1; NULL on no memory */
void *ts_blocks_add(struct ts_blocks *b);

/** ts_blocks_at() - object @i (0 .. @b->nr - 1) */
static inline void *ts_blocks_at(const struct ts_blocks *b, size_t i)
{
	return ts_blk_at(b->blk, b->size, i);
}

/** ts_blocks_release() - free the objects; empty again */
void ts_blocks_release(struct ts_blocks *b);

struct ts_objtab {
	/*
	 * While every key fits in 32 bits (a tid, a pid), narrow: key -> the object's index plus
	 * one, 8 bytes a slot; from the first wider key on, map: key -> the object's address
	 */
	struct ts_map32 narrow;
	struct ts_map map;
	int wide;
	void *blk[TS_OBJTAB_BLOCKS];
	size_t nr, size;
};

/**
 * ts_objtab_get() - find or add the object for @key
 * @isnew: out, may be NULL: 1 when it was just added (zeroed)
 * Return: the object, or NULL on allocation failure.
 */
void *ts_objtab_add(struct ts_objtab *t, uint64_t key, int *isnew);

/** ts_objtab_at() - object @i (0 .. @t->nr - 1) in first-seen order */
static inline void *ts_objtab_at(const struct ts_objtab *t, size_t i)
{
	return ts_blk_at(t->blk, t->size, i);
}

/* As ts_map_insert(): an object whose key is in its home slot inline, the rest out of line. */
static inline void *ts_objtab_get(struct ts_objtab *t, uint64_t key, int *isnew)
{
	const struct ts_map_ent *e;

	if (!t->wide) {
		const struct ts_map32_ent *n =
			key < TS_MAP32_EMPTY ? ts_map32_home(&t->narrow, (uint32_t)key) : NULL;

		if (n) {
			if (isnew)
				*isnew = 0;
			return ts_objtab_at(t, n->val - 1);
		}
	} else if ((e = ts_map_home(&t->map, key))) {
		if (isnew)
			*isnew = 0;
		return (void *)(uintptr_t)e->val;
	}
	return ts_objtab_add(t, key, isnew);
}

/** ts_objtab_find() - the object for @key, or NULL */
void *ts_objtab_find(const struct ts_objtab *t, uint64_t key);

/** ts_objtab_release() - call @fini (may be NULL) on each object, free them and the table */
void ts_objtab_release(struct ts_objtab *t, void (*fini)(void *obj));

/*
 * A per-CPU table: cpu -> a zeroed object of @size bytes, made on first use, stable in memory.
 * A struct with only @size set is an empty table.
 */
struct ts_cputab {
	void **v;
	int nr;
	size_t size;
};

/**
 * ts_cputab_get() - the object of @cpu (0..65535), made zeroed when new
 * @isnew: out, may be NULL: 1 when it was just made
 * Return: the object, or NULL for a bad @cpu or no memory.
 */
void *ts_cputab_make(struct ts_cputab *t, int cpu, int *isnew);

/* Every event of most models looks its CPU up: the common case inline, the rest out of line. */
static inline void *ts_cputab_get(struct ts_cputab *t, int cpu, int *isnew)
{
	if ((unsigned int)cpu < (unsigned int)t->nr && t->v[cpu]) {
		if (isnew)
			*isnew = 0;
		return t->v[cpu];
	}
	return ts_cputab_make(t, cpu, isnew);
}

/** ts_cputab_find() - the object of @cpu, or NULL when none was made */
static inline void *ts_cputab_find(const struct ts_cputab *t, int cpu)
{
	return (unsigned int)cpu < (unsigned int)t->nr ? t->v[cpu] : NULL;
}

/** ts_cputab_nr() - one more than the highest CPU with an object, or 0 */
int ts_cputab_nr(const struct ts_cputab *t);

/*
 * A model's two public per-CPU getters, ts_<ident>_nr_cpus() and ts_<ident>_cpu(), for a
 * struct ts_<ident> whose @cpus table holds struct cpu objects with the public @pubtype in st.
 */
#define TS_CPUTAB_GETTERS(ident, pubtype)                                    \
	int ts_##ident##_nr_cpus(const struct ts_##ident *m)                 \
	{                                                                    \
		return ts_cputab_nr(&m->cpus);                               \
	}                                                                    \
	const pubtype *ts_##ident##_cpu(const struct ts_##ident *m, int cpu) \
	{                                                                    \
		const struct cpu *c = ts_cputab_find(&m->cpus, cpu);         \
		return c ? &c->st : NULL;                                    \
	}

/*
 * A name -> index table over names the caller keeps in an array of its own (a run's metrics,
 * compare's rows): open addressing, each slot 12 bits of the name's hash and its index + 1
 * (up to TS_STRIX_MAX names), so a probe compares strings mostly on a likely match only.
 * Found names are always confirmed with strcmp.
 */
#define TS_STRIX_MAX ((1u << 20) - 2)

struct ts_strix {
	uint32_t *slot; /* 0: empty; else hash's top 12 bits << 20 | (index + 1) */
	size_t cap, nr; /* cap is 0 or a power of two */
};

/* The name of entry @i of the caller's array. */
typedef const char *ts_strix_name_fn(const void *ctx, size_t i);

/** ts_strix_find() - the index of @name, or -1 */
long ts_strix_find(const struct ts_strix *x, const char *name, ts_strix_name_fn *name_of,
		   const void *ctx);

/**
 * ts_strix_add() - index @name (not yet there) as entry @i
 * @name_of, @ctx: the names of the entries already indexed (the table grows by them)
 * Return: 0, or -ENOMEM (also for @i above TS_STRIX_MAX)
 */
int ts_strix_add(struct ts_strix *x, const char *name, size_t i, ts_strix_name_fn *name_of,
		 const void *ctx);

/** ts_strix_release() - free the table; it is empty again */
void ts_strix_release(struct ts_strix *x);

/** ts_cputab_release() - call @fini (may be NULL) on each object, free them and the table */
void ts_cputab_release(struct ts_cputab *t, void (*fini)(void *obj));

/**
 * ts_objtab_count_set() - how many objects have the int at byte @flag_off non-zero
 * (a model's "still open at the end": work items, shrinks that never ended)
 */
size_t ts_objtab_count_set(const struct ts_objtab *t, size_t flag_off);

/* A table inside a model (struct ts_objtab or ts_cputab): its size field, its objects' size. */
struct ts_tab_spec {
	size_t size_off, obj_size;
};

#define TS_TAB(type, member, obj)                        \
	{                                                \
		offsetof(type, member.size), sizeof(obj) \
	}

/**
 * ts_tables_new() - a zeroed struct of @size bytes whose @nr tables are set up as @tabs say
 * Return: it, or NULL for no memory.
 */
void *ts_tables_new(size_t size, const struct ts_tab_spec *tabs, size_t nr);

/**
 * ts_grow_zeroed() - make room for index @idx (0..65535) in an array, zeroing what is new
 * @arr: the array, or NULL; @nr: in/out: its length in elements; @elsize: bytes per element
 * Return: the array (moved, perhaps), or NULL for a bad @idx or no memory; @arr stays valid.
 */
void *ts_grow_zeroed(void *arr, int *nr, int idx, size_t elsize);

/**
 * ts_count_cpu() - add one to (*@v)[@cpu], growing the array (*@nr entries) as needed
 * Return: 0, or -ENOMEM; a negative or huge @cpu is ignored.
 */
int ts_count_cpu(uint64_t **v, int *nr, int cpu);

#endif
