// SPDX-License-Identifier: GPL-2.0-only
/* The shrinker model: start/end pairs by task, scanned and freed, unmatched ends. */
#include "events.h"
#include "tap.h"
#include "tickscope/shrinker.h"

static struct ts_shrinker *m;

static void ev(uint64_t t, int pid, int kind, uint64_t shr, uint64_t fn, int64_t total_scan,
	       int64_t retval)
{
	struct ts_event e = tev_shrink(kind, t, pid, shr, fn, total_scan, retval);

	e.shrink.nr_objects_to_shrink = 7;
	ts_shrinker_feed(m, &e);
}

int main(void)
{
	const struct ts_shrink_fn *f;
	const struct ts_shrink_totals *t;

	ok(ts_shrinker_new(&m, NULL) == 0, "new");
	ev(5, 10, TS_EV_SHRINK_END, 0x1, 0x500, 0, 3); /* started before the trace */
	ev(10, 10, TS_EV_SHRINK_START, 0x1, 0x500, 1000, 0);
	ev(12, 11, TS_EV_SHRINK_START, 0x1, 0x500, 200, 0); /* two tasks, same shrinker */
	ev(40, 11, TS_EV_SHRINK_END, 0x1, 0x500, 72, 100);
	ev(110, 10, TS_EV_SHRINK_END, 0x1, 0x500, 104, 800);
	ev(120, 12, TS_EV_SHRINK_START, 0x2, 0x600, 10, 0); /* open at the end */
	ts_shrinker_finish(m, 200);
	t = ts_shrinker_totals(m);
	f = ts_shrinker_fn_at(m, 0);
	ok(f && f->function == 0x500, "function 0x500");
	is_int(f ? f->nr : 0, 2, "2 calls");
	is_int(f ? f->duration.sum : 0, 100 + 28, "durations paired by task");
	is_int(f ? f->scanned : 0, (1000 - 104) + (200 - 72), "scanned = start - end total_scan");
	is_int(f ? f->freed : 0, 900, "freed = sum of retval");
	is_int(t->nr, 2, "totals: 2 calls");
	is_int(t->scanned, (1000 - 104) + (200 - 72), "totals: scanned over both calls");
	is_int(t->freed, 900, "totals: freed over both calls");
	is_int(t->duration.sum, 100 + 28, "totals: durations");
	is_int(t->unmatched_ends, 1, "end at trace start: unmatched");
	is_int(ts_shrinker_nr_tasks(m), 2, "two tasks ran complete calls");
	ok(ts_shrinker_task_at(m, 0)->pid == 11 && ts_shrinker_task_at(m, 0)->time_ns == 28,
	   "per task: pid 11, 28 ns");
	ok(f && f->nr_cpu >= 1 && f->per_cpu[0] == 2, "per-CPU calls");
	is_int(t->open_at_end, 1, "open at end");
	ts_shrinker_free(m);
	return tap_done();
}
