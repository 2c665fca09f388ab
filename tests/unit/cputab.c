// SPDX-License-Identifier: GPL-2.0-only
/* The models' shared tables (common/map.h): per-CPU table, table set-up, open-at-end count. */
#include <stdlib.h>

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
	return tap_done();
}
