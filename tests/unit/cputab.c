// SPDX-License-Identifier: GPL-2.0-only
/*
 * The models' shared tables (common/map.h): per-CPU table, table set-up, open-at-end count, and
 * the name index (every name of a few thousand found at its index, absent ones not found), an
 * object table over many blocks (each object where it was made, in first-seen order; narrow
 * and wide keys), the map in both widths, and objects in blocks by index alone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "common/map.h"

struct obj {
	uint64_t a;
	int open;
};

struct model {
	int pad;
	struct ts_cputab cpus;
	struct ts_objtab tab;
};

static int nr_fini;

static void fini(void *o)
{
	nr_fini += ((struct obj *)o)->a == 7;
}

static const struct ts_tab_spec tabs[] = {
	TS_TAB(struct model, cpus, struct obj),
	TS_TAB(struct model, tab, struct obj),
};

static const char *name_at(const void *ctx, size_t i)
{
	return ((char *const *)ctx)[i];
}

/* 5,000 names ("m.0" ... ) indexed one by one, each found; names never added are not. */
static void strix(void)
{
	enum { N = 5000 };
	char **names = calloc(N, sizeof(*names)), buf[32];
	struct ts_strix x = { 0 };
	int bad = 0, err = 0;

	ok(ts_strix_find(&x, "m.0", name_at, names) == -1, "an empty index finds nothing");
	for (int i = 0; i < N && !err; i++) {
		snprintf(buf, sizeof(buf), "m.%d", i);
		names[i] = strdup(buf);
		err = ts_strix_add(&x, names[i], (size_t)i, name_at, names);
		/* every name so far, after each growth of the table */
		for (int k = 0; (i & (i + 1)) == 0 && k <= i; k++)
			bad += ts_strix_find(&x, names[k], name_at, names) != k;
	}
	ok(!err, "5,000 names indexed");
	for (int i = 0; i < N; i++)
		bad += ts_strix_find(&x, names[i], name_at, names) != i;
	for (int i = N; i < 2 * N; i++) {
		snprintf(buf, sizeof(buf), "m.%d", i);
		bad += ts_strix_find(&x, buf, name_at, names) != -1;
	}
	bad += ts_strix_find(&x, "", name_at, names) != -1;
	is_int(bad, 0, "each name at its index, 5,001 others absent");
	ts_strix_release(&x);
	ok(!x.slot && !x.nr && ts_strix_find(&x, "m.1", name_at, names) == -1,
	   "a released index is empty");
	for (int i = 0; i < N; i++)
		free(names[i]);
	free(names);
}

/* 5,000 objects, across the table's blocks (8, 16, 32, ... objects): counted by hand. */
static void objtab_blocks(void)
{
	struct ts_objtab t = { .size = sizeof(struct obj) };
	struct obj **made = calloc(5000, sizeof(*made)), *o, *p;
	size_t i, bad_at = 0, bad_find = 0, bad_new = 0, bad_val = 0;
	int isnew;

	if (!made)
		return;
	for (i = 0; i < 5000; i++) { /* keys out of order, so that first-seen is not sorted */
		made[i] = ts_objtab_get(&t, i * 7919 % 5003 + 1, &isnew);
		bad_new += !made[i] || !isnew || made[i]->a;
		if (made[i])
			made[i]->a = i;
	}
	for (i = 0; i < 5000; i++) {
		o = ts_objtab_get(&t, i * 7919 % 5003 + 1, &isnew);
		bad_at += ts_objtab_at(&t, i) != made[i];
		bad_find += ts_objtab_find(&t, i * 7919 % 5003 + 1) != made[i] || o != made[i] ||
			    isnew;
		bad_val += made[i] && made[i]->a != i;
	}
	is_int((int)t.nr, 5000, "5,000 objects made");
	is_int((int)bad_new, 0, "each one new and zeroed when made");
	is_int((int)bad_at, 0, "the object at i is the i-th made, across blocks");
	is_int((int)bad_find, 0, "find and get give the same object again, not new");
	is_int((int)bad_val, 0, "no object was overwritten by a later one (none overlap)");
	ok(!ts_objtab_find(&t, 5004) && !ts_objtab_find(&t, 0), "an absent key is not found");
	ok(!t.wide, "32-bit keys: the narrow map");
	/* a key wider than 32 bits moves every object's key to the map of addresses */
	o = ts_objtab_get(&t, (uint64_t)1 << 40, &isnew);
	ok(o && isnew && t.wide && ts_objtab_at(&t, 5000) == o, "a 40-bit key: a new object");
	p = ts_objtab_get(&t, 0xffffffffu, &isnew);
	ok(p && isnew && p != o && ts_objtab_find(&t, 0xffffffffu) == p,
	   "UINT32_MAX is a key like any other");
	for (i = 0, bad_find = 0; i < 5000; i++)
		bad_find += ts_objtab_find(&t, i * 7919 % 5003 + 1) != made[i] ||
			    ts_objtab_get(&t, i * 7919 % 5003 + 1, &isnew) != made[i] || isnew;
	is_int((int)bad_find, 0, "once wide, every object is found where it was made");
	ok(ts_objtab_find(&t, (uint64_t)1 << 40) == o && !ts_objtab_find(&t, 5004),
	   "the wide key found, an absent one not");
	ts_objtab_release(&t, NULL);
	ok(!t.nr && !t.map.nr && !t.narrow.nr && !t.wide && !t.blk[0],
	   "the released table is empty");
	free(made);
}

/*
 * Both widths of the map, one test text: @map (ts_map, ts_map32), its key type @kt, its empty
 * key, and @hi added to every key (keys wider than 32 bits for ts_map). Against a plain array:
 * 20,000 keys added, every third removed, all looked up. Then keys that share one home slot
 * near the end of a 64-slot table, so that their probe run wraps to its start, and keys homed
 * inside that run: removing the run's middle must leave every other key found (backward-shift
 * deletion leaves no hole, across the wrap too).
 */
#define MAP_TEST(map, kt, empty, hi)                                                               \
	static void test_##map(void)                                                               \
	{                                                                                          \
		enum { N = 20000, R = 12 };                                                        \
		static kt want[N];                                                                 \
		struct map m = { 0 }, probe = { .cap = 64 };                                       \
		kt *v, k, run[R + 2];                                                              \
		size_t i, n = 0, bad_add = 0, bad_find = 0;                                        \
                                                                                                   \
		for (i = 0; i < N; i++) {                                                          \
			k = (kt)((hi) + i * 2654435761u % 4000037u);                               \
			bad_add += map##_insert(&m, k, &v) != 1 || *v;                             \
			*v = want[i] = (kt)i + 1;                                                  \
		}                                                                                  \
		ok(map##_insert(&m, empty, &v) == -EINVAL, #map ": the empty key is refused");     \
		for (i = 0; i < N; i += 3) {                                                       \
			k = (kt)((hi) + i * 2654435761u % 4000037u);                               \
			bad_add += map##_remove(&m, k) != 1;                                       \
			want[i] = 0;                                                               \
		}                                                                                  \
		for (i = 0; i < N; i++) {                                                          \
			k = (kt)((hi) + i * 2654435761u % 4000037u);                               \
			v = map##_find(&m, k);                                                     \
			bad_find += want[i] ? !v || *v != want[i] : v != NULL;                     \
		}                                                                                  \
		is_int((int)bad_add, 0, #map ": each key new when added, each removed one there"); \
		is_int((int)bad_find, 0,                                                           \
		       #map ": every key left has its value, no removed key is found");            \
		is_int((int)m.nr, N - (N + 2) / 3, #map ": the count");                            \
		ok(map##_remove(&m, (kt)(hi)) == 0,                                                \
		   #map ": a key removed before is not there to remove");                          \
		map##_release(&m);                                                                 \
		ok(!m.nr && !m.cap && !map##_find(&m, 1), #map ": the released map is empty");     \
                                                                                                   \
		/* R keys homed at slot 62, then one homed at 0 and one at 1, inside the run */    \
		for (k = (kt)(hi); n < R; k++)                                                     \
			if (map##_slot(&probe, k) == 62)                                           \
				run[n++] = k;                                                      \
		for (k = (kt)(hi); n < R + 2; k++)                                                 \
			if (map##_slot(&probe, k) == n - R)                                        \
				run[n++] = k;                                                      \
		for (i = 0, bad_add = 0; i < R + 2; i++) {                                         \
			bad_add += map##_add(&m, run[i], &v) != 1;                                 \
			*v = (kt)i + 1;                                                            \
		}                                                                                  \
		ok(!bad_add && m.cap == 64 && m.e[62].key == run[0] && m.e[1].key == run[3],       \
		   #map ": a probe run of 14 keys from slot 62 wraps to the table's start");       \
		for (i = 2; i < 8; i++)                                                            \
			bad_add += map##_remove(&m, run[i]) != 1;                                  \
		for (i = 0, bad_find = 0; i < R + 2; i++) {                                        \
			v = map##_find(&m, run[i]);                                                \
			bad_find += i >= 2 && i < 8 ? v != NULL : !v || *v != (kt)i + 1;           \
		}                                                                                  \
		ok(!bad_add && !bad_find && m.nr == R + 2 - 6,                                     \
		   #map ": the run's middle removed across the wrap, every other key found");      \
		map##_release(&m);                                                                 \
	}

MAP_TEST(ts_map, uint64_t, TS_MAP_EMPTY, (uint64_t)1 << 40)
MAP_TEST(ts_map32, uint32_t, TS_MAP32_EMPTY, 0)

/* ts_map_next() walks every key once. */
static void map_next(void)
{
	struct ts_map m = { 0 };
	const struct ts_map_ent *e;
	uint64_t *v, sum = 0;
	size_t pos = 0, n = 0;

	for (uint64_t k = 1; k <= 1000; k++)
		if (ts_map_insert(&m, k << 33, &v) == 1)
			*v = k;
	while ((e = ts_map_next(&m, &pos))) {
		n++;
		sum += e->val;
	}
	ok(n == 1000 && sum == 1000 * 1001 / 2, "ts_map_next() walks each of 1,000 keys once");
	ts_map_release(&m);
}

/* ts_blocks: 5,000 objects zeroed and apart, object i the i-th made. */
static void blocks(void)
{
	struct ts_blocks b = { .size = sizeof(struct obj) };
	struct obj *made[5000];
	size_t i, bad = 0;

	for (i = 0; i < 5000; i++) {
		made[i] = ts_blocks_add(&b);
		bad += !made[i] || made[i]->a || made[i]->open;
		if (made[i])
			made[i]->a = i;
	}
	for (i = 0; i < 5000; i++)
		bad += ts_blocks_at(&b, i) != made[i] || made[i]->a != i;
	is_int((int)bad, 0, "5,000 objects: zeroed when made, each at its index, none overlap");
	ts_blocks_release(&b);
	ok(!b.nr && !b.blk[0], "the released blocks are empty");
}

int main(void)
{
	struct model *m = ts_tables_new(sizeof(*m), tabs, 2);
	struct obj *o, *p;
	int isnew = -1;

	ok(m && m->cpus.size == sizeof(struct obj) && m->tab.size == sizeof(struct obj) &&
		   !m->pad && !m->cpus.nr && !m->tab.nr,
	   "ts_tables_new() zeroes the model and sets both tables' object sizes");
	is_int(ts_cputab_nr(&m->cpus), 0, "an empty per-CPU table has no CPUs");
	ok(!ts_cputab_find(&m->cpus, 0) && !ts_cputab_find(&m->cpus, -1), "nothing to find");
	o = ts_cputab_get(&m->cpus, 5, &isnew);
	ok(o && isnew == 1 && !o->a && !o->open, "CPU 5 is made zeroed, and said to be new");
	o->a = 7;
	p = ts_cputab_get(&m->cpus, 5, &isnew);
	ok(p == o && isnew == 0, "CPU 5 again: the same object, not new");
	is_int(ts_cputab_nr(&m->cpus), 6, "the count is the highest CPU plus one");
	ok(!ts_cputab_find(&m->cpus, 4) && ts_cputab_find(&m->cpus, 5) == o,
	   "find sees only CPU 5");
	ok(!ts_cputab_get(&m->cpus, -1, NULL) && !ts_cputab_get(&m->cpus, 65536, NULL),
	   "a negative or huge CPU is refused");
	o = ts_cputab_get(&m->cpus, 300, NULL);
	p = ts_cputab_find(&m->cpus, 5);
	ok(o && p && p->a == 7, "growing keeps what was there");
	o->a = 7;
	is_int(ts_cputab_nr(&m->cpus), 301, "CPU 300 counts");
	o = ts_objtab_get(&m->tab, 1, NULL);
	o->open = 1;
	ts_objtab_get(&m->tab, 2, NULL);
	o = ts_objtab_get(&m->tab, 3, NULL);
	o->open = 5;
	is_int((int)ts_objtab_count_set(&m->tab, offsetof(struct obj, open)), 2,
	       "two of three objects are still open");
	ts_cputab_release(&m->cpus, fini);
	is_int(nr_fini, 2, "release calls fini on each object");
	ok(!m->cpus.v && !m->cpus.nr, "the released table is empty");
	ts_objtab_release(&m->tab, NULL);
	free(m);
	strix();
	objtab_blocks();
	test_ts_map();
	test_ts_map32();
	map_next();
	blocks();
	return tap_done();
}
