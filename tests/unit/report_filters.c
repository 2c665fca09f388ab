// SPDX-License-Identifier: GPL-2.0-only
/* ts_analysis: the --cpu/--time/--pid/--comm filters, recorded vs seen, lost events by range. */
#include <string.h>

#include "events.h"
#include "tap.h"
#include "tickscope/analysis.h"
#include "tickscope/error.h"

static void sw(struct ts_analysis *a, uint64_t t, int cpu, int prev, int next, const char *comm)
{
	struct ts_event ev = tev_switch(t, cpu, prev, TS_STATE_SLEEPING, next);

	strcpy(ev.sw.next_comm, comm);
	ts_analysis_feed(a, &ev);
}

static void wakeup(struct ts_analysis *a, uint64_t t, int cpu, int pid, int target)
{
	struct ts_event ev = { .time = t, .cpu = cpu, .pid = 0, .kind = TS_EV_WAKEUP };

	ev.wake.pid = pid;
	ev.wake.target_cpu = target;
	ts_analysis_feed(a, &ev);
}

static void lost(struct ts_analysis *a, uint64_t t, uint64_t n)
{
	struct ts_event ev = tev_lost(t, n);

	ts_analysis_feed(a, &ev);
}

int main(void)
{
	struct ts_analysis_opts o = { .cpus = "1,3-4", .time_start = 100, .time_end = 1000 };
	const struct ts_section_info *s;
	struct ts_analysis *a;
	uint64_t bits[TS_MAX_CPUS / 64], st, en, first, last;
	struct ts_event tk = { .time = 5000, .cpu = 0, .kind = TS_EV_TICK_STOP };
	int32_t pid = 21;

	is_int(ts_analysis_parse_cpus("0-2,7", bits), 0, "cpu list parses");
	ok(bits[0] == 0x87, "cpu bits 0-2,7");
	is_int(ts_analysis_parse_cpus("3-1", bits), -TS_EUSAGE, "reversed range rejected");
	is_int(ts_analysis_parse_cpus("1,x", bits), -TS_EUSAGE, "junk rejected");
	ok(ts_analysis_parse_time("1.5,2", &st, &en) == 0 && st == 1500000000 && en == 2000000000,
	   "time START,END in seconds");
	ok(ts_analysis_parse_time(",3", &st, &en) == 0 && st == 0 && en == 3000000000,
	   "open start");
	is_int(ts_analysis_parse_time("3,1", &st, &en), -TS_EUSAGE, "END before START rejected");
	ok(ts_analysis_parse_time("1,1", &st, &en) == 0 && st == en,
	   "a window of one instant (the events at that time)");
	is_int(ts_analysis_parse_time("nan,", &st, &en), -TS_EUSAGE, "START nan rejected");
	is_int(ts_analysis_parse_time("1,nan", &st, &en), -TS_EUSAGE, "END nan rejected");
	is_int(ts_analysis_parse_time("-nan,", &st, &en), -TS_EUSAGE, "START -nan rejected");

	ok(ts_analysis_new(&a, &o) == 0, "analysis with --cpu and --time");
	ts_analysis_note_recorded(a, "sched:sched_switch");
	ts_analysis_note_recorded(a, "timer:tick_stop");
	ts_analysis_note_recorded(a, "power:cpu_idle");
	sw(a, 50, 1, 0, 10, "a"); /* before --time */
	sw(a, 200, 1, 0, 10, "a");
	sw(a, 300, 2, 0, 11, "b"); /* CPU 2 filtered */
	sw(a, 400, 3, 0, 12, "c");
	lost(a, 350, 7); /* inside sched's range */
	lost(a, 2000, 9); /* outside --time: dropped */
	sw(a, 900, 1, 10, 0, "swapper/1");
	ts_analysis_feed(a, &tk); /* outside --time */
	wakeup(a, 500, 2, 13, 3); /* on CPU 2, but it targets CPU 3: kept */
	wakeup(a, 600, 2, 14, 2); /* on CPU 2 for CPU 2: filtered */
	ts_analysis_finish(a);
	ts_analysis_range(a, &first, &last);
	ok(first == 200 && last == 900, "range of kept events");
	is_int(ts_analysis_filtered(a), 4, "4 events filtered");
	is_int(ts_analysis_kind_count(a, TS_EV_WAKEUP), 1,
	       "--cpu keeps a wakeup from another CPU that targets a kept one");
	is_int(ts_analysis_kind_count(a, TS_EV_SWITCH), 3, "3 switches kept");
	s = ts_analysis_section(a, TS_SEC_SCHED);
	ok(s->presence == TS_PRESENT, "sched present");
	is_int(s->lost, 7, "lost events inside sched's range");
	s = ts_analysis_section(a, TS_SEC_IDLE);
	ok(s->presence == TS_RECORDED_EMPTY, "idle: recorded, none kept: recorded_empty");
	ok(ts_analysis_kind_presence(a, TS_EV_WAKING) == TS_NOT_RECORDED,
	   "sched_waking not recorded");
	ok(ts_analysis_section(a, TS_SEC_WQ)->presence == TS_NOT_RECORDED,
	   "workqueue not recorded");
	ok(ts_sched_task_find(ts_analysis_sched(a), 11) == NULL, "CPU 2's task never seen");
	ts_analysis_free(a);

	memset(&o, 0, sizeof(o));
	o.pids = &pid;
	o.nr_pids = 1;
	o.comm = "d";
	ok(ts_analysis_new(&a, &o) == 0, "analysis with --pid 21 --comm d");
	sw(a, 100, 0, 0, 20, "d");
	sw(a, 200, 0, 20, 21, "e");
	sw(a, 300, 0, 21, 22, "f");
	sw(a, 400, 0, 22, 0, "swapper/0");
	ts_analysis_finish(a);
	ok(ts_sched_task_find(ts_analysis_sched(a), 20)->selected, "selected by comm");
	ok(ts_sched_task_find(ts_analysis_sched(a), 21)->selected, "selected by pid");
	ok(!ts_sched_task_find(ts_analysis_sched(a), 22)->selected, "22 not selected");
	is_int(ts_sched_totals(ts_analysis_sched(a))->run.count, 2, "totals over selected tasks");
	ok(ts_analysis_has_task_filter(a), "task filter on");
	ok(ts_analysis_section(a, TS_SEC_IDLE)->presence == TS_NOT_RECORDED,
	   "no attr list: unseen kinds read as not recorded");
	ts_analysis_free(a);

	/*
	 * An event at time 0 restarts the run's first time and its own section's, not the
	 * others': the earliest time is "0 for none", so the next event's time replaces it.
	 */
	ok(ts_analysis_new(&a, NULL) == 0, "analysis without filters");
	sw(a, 500, 0, 0, 10, "a");
	tk.time = 300;
	ts_analysis_feed(a, &tk);
	sw(a, 0, 0, 10, 11, "b");
	sw(a, 700, 0, 11, 12, "c");
	tk.time = 800;
	ts_analysis_feed(a, &tk);
	ts_analysis_finish(a);
	ts_analysis_range(a, &first, &last);
	ok(first == 700 && last == 800, "a time 0 restarts the run's first time");
	s = ts_analysis_section(a, TS_SEC_SCHED);
	ok(s->first == 700 && s->last == 700 && s->nr_events == 3,
	   "and its section's, whose events all count");
	s = ts_analysis_section(a, TS_SEC_IDLE);
	ok(s->first == 300 && s->last == 800 && s->nr_events == 2, "not another section's");
	ts_analysis_free(a);
	return tap_done();
}
