// SPDX-License-Identifier: GPL-2.0-only
/* The workqueue model: execute pairs by worker, queue latency by work, unmatched ends. */
#include "events.h"
#include "tap.h"
#include "tickscope/wq.h"

static struct ts_wq *m;

static void ev(uint64_t t, int cpu, int pid, int kind, uint64_t work, uint64_t fn)
{
	struct ts_event e = tev_wq(kind, t, cpu, pid, work, fn);

	ts_wq_feed(m, &e);
}

int main(void)
{
	const struct ts_wq_fn *vm = NULL, *f;
	const struct ts_wq_totals *t;
	size_t i;

	ok(ts_wq_new(&m, NULL) == 0, "new");
	ev(1, 0, 50, TS_EV_WQ_END, 0x10, 0x900); /* started before the trace */
	ev(10, 0, 1, TS_EV_WQ_QUEUE, 0x10, 0x900);
	ev(40, 0, 50, TS_EV_WQ_START, 0x10, 0x900);
	/* another worker on the same CPU runs while the first sleeps */
	ev(45, 0, 51, TS_EV_WQ_START, 0x20, 0x800);
	ev(50, 0, 51, TS_EV_WQ_END, 0x20, 0x800);
	ev(90, 0, 50, TS_EV_WQ_END, 0x10, 0x900);
	ev(100, 2, 52, TS_EV_WQ_START, 0x10, 0x900); /* not queued in the trace: no latency */
	ev(103, 2, 52, TS_EV_WQ_END, 0x10, 0x900);
	ev(110, 3, 53, TS_EV_WQ_START, 0x30, 0x900); /* open at the end */
	ts_wq_finish(m, 200);
	for (i = 0; i < ts_wq_nr_fns(m); i++) {
		f = ts_wq_fn_at(m, i);
		if (f->function == 0x900)
			vm = f;
	}
	ok(vm != NULL, "function 0x900 found");
	if (!vm)
		return tap_done();
	is_int(vm->nr_exec, 3, "3 executions");
	is_int(vm->duration.count, 2, "2 complete");
	is_int(vm->duration.sum, 50 + 3, "durations by worker pid");
	is_int(vm->queue_lat.count, 1, "1 queue latency");
	is_int(vm->queue_lat.sum, 30, "queue -> execute 30");
	ok(vm->nr_cpu > 3 && vm->per_cpu[0] == 1 && vm->per_cpu[2] == 1 && vm->per_cpu[3] == 1,
	   "per-CPU executions");
	t = ts_wq_totals(m);
	is_int(t->unmatched_ends, 1, "end at trace start: unmatched");
	is_int(t->open_at_end, 1, "open at end");
	ts_wq_free(m);
	return tap_done();
}
