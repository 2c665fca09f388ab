// SPDX-License-Identifier: GPL-2.0-only
/*
 * The models' shared tables (common/map.h): per-CPU table, table set-up, open-at-end count, and
 * the name index (every name of a few thousand found at its index, absent ones not found).
 */
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
	return tap_done();
}
