// SPDX-License-Identifier: GPL-2.0-only
/*
 * Which attrs perf record's command line filtered (source/perf_filter.c): the words as perf
 * record's option parser reads them (clusters, abbreviations, values, the workload), event
 * lists with blanks, and more -e's than any fixed table holds.
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/perf_filter.h"
#include "tap.h"

#define MAX 400

/* The marks of attrs @ev (tracepoints, "dummy:HG" perf's software one) under words @w. */
static const char *marks(const char *const *w, const char *const *ev)
{
	static char got[MAX + 1];
	static struct ts_attr a[MAX];
	static char args[64 * 1024];
	uint8_t out[MAX];
	size_t len = 0;
	int nw, n, i;

	for (nw = 0; w[nw]; nw++) {
		strcpy(args + len, w[nw]);
		len += strlen(w[nw]) + 1;
	}
	for (n = 0; ev[n]; n++) {
		memset(&a[n], 0, sizeof(a[n]));
		a[n].type = strcmp(ev[n], "dummy:HG") ? PERF_TYPE_TRACEPOINT : PERF_TYPE_SOFTWARE;
		a[n].config = n;
		a[n].index = n;
	}
	if (ts_filter_mark(args, nw, a, ev, n, out))
		return "ENOMEM";
	for (i = 0; i < n; i++)
		got[i] = out[i] ? '1' : '0';
	got[n] = 0;
	return got;
}

#define CHECK(want, name, ...)                                  \
	do {                                                    \
		const char *const w_[] = { __VA_ARGS__, NULL }; \
		const char *got_ = marks(w_, ev);               \
		ok(!strcmp(got_, want), "%s", name);            \
		if (strcmp(got_, want))                         \
			diag("marks %s, want %s", got_, want);  \
	} while (0)

int main(void)
{
	static char names[MAX][32], *w[2 * MAX + 8];
	const char *ev2[] = { "sched:sched_switch", "sched:sched_waking", NULL };
	const char *const *ev = ev2;
	const char *big[MAX + 1];
	int i, n;

	CHECK("10", "the filter is on the -e before it", "/usr/bin/perf", "record", "-e",
	      "sched:sched_switch", "--filter", "prev_pid != 0", "-e", "sched:sched_waking", "-a",
	      "--", "stress-ng");
	CHECK("11", "an event list with blanks is one -e: both events filtered", "perf", "record",
	      "-a", "-e", "sched:sched_switch , sched:sched_waking", "--filter", "common_pid != 0");
	{
		const char *rev[] = { "sched:sched_waking", "sched:sched_switch", NULL };

		ev = rev;
		CHECK("11", "so is it with the later event first", "perf", "record", "-a", "-e",
		      "sched:sched_waking, sched:sched_switch", "--filter", "common_pid != 0", "--",
		      "sleep", "1");
		ev = ev2;
	}
	CHECK("10", "-e in a cluster (-ae X)", "perf", "record", "-ae", "sched:sched_switch",
	      "--filter", "prev_pid != 0", "-e", "sched:sched_waking");
	CHECK("10", "-e in a cluster with its value (-aeX)", "perf", "record",
	      "-aesched:sched_switch", "--filter", "prev_pid != 0", "-e", "sched:sched_waking");
	CHECK("10", "--event and --filter abbreviated (--ev, --fi)", "perf", "record", "--ev",
	      "sched:sched_switch", "--fi", "prev_pid != 0", "-e", "sched:sched_waking");
	CHECK("10", "--ev=X, and --exclude-perf abbreviated (--ex)", "perf", "record",
	      "--ev=sched:sched_switch", "--ex", "-e", "sched:sched_waking");
	CHECK("10", "--filter=F", "perf", "record", "-e", "sched:sched_switch",
	      "--filter=prev_pid != 0", "-e", "sched:sched_waking");
	CHECK("00", "a workload's own --exclude is not perf's --exclude-perf", "perf", "record",
	      "-e", "sched:sched_switch,sched:sched_waking", "-a", "-o", "x.data", "-m", "8",
	      "stress-ng", "--exclude", "cpu", "--switch", "1");
	CHECK("00", "nor are its -e and --filter perf's", "perf", "record", "-e",
	      "sched:sched_switch", "-e", "sched:sched_waking", "./bench", "-e", "x", "--filter",
	      "y");
	CHECK("01", "an option's value is no option (-o --exclude-perf.data)", "perf", "record",
	      "-e", "sched:sched_switch", "-o", "--exclude-perf.data", "-e", "sched:sched_waking",
	      "--exclude-perf");
	CHECK("10", "after an option perf 6.1 has not, a filter past a word still counts", "perf",
	      "record", "--a-later-option", "value", "-e", "sched:sched_switch", "stress-ng",
	      "--exclude", "cpu", "-e", "sched:sched_waking");
	CHECK("00", "no filter, nothing marked", "perf", "record", "-e", "sched:sched_switch", "-e",
	      "sched:sched_waking");
	CHECK("00", "a --filter before any -e (perf refuses it) marks nothing", "perf", "record",
	      "--filter", "x", "-e", "sched:sched_switch", "-e", "sched:sched_waking");
	CHECK("00", "no perf record on the line", "tickscope", "report", "-e", "x", "--filter",
	      "y");
	{
		const char *sch[] = { "sched:sched_switch", "sched:sched_stat_wait",
				      "sched:sched_process_exec", "dummy:HG", NULL };

		ev = sch;
		CHECK("0010", "perf sched record: its own events first, the user's -e filtered",
		      "perf", "sched", "record", "-e", "sched:sched_process_exec", "--filter",
		      "common_pid != 0");
	}
	{
		const char *glob[] = { "sched:sched_waking", "sched:sched_wakeup",
				       "sched:sched_wakeup_new", "sched:sched_switch", NULL };

		ev = glob;
		CHECK("1110", "a glob's events all filtered, not the next -e's", "perf", "record",
		      "-e", "sched:sched_w*", "--filter", "common_pid != 0", "-e",
		      "sched:sched_switch");
	}

	/* 300 -e's, the last one filtered: only its event */
	n = 0;
	w[n++] = "perf";
	w[n++] = "record";
	for (i = 0; i < 300; i++) {
		snprintf(names[i], sizeof(names[i]), "t:e%d", i);
		big[i] = names[i];
		w[n++] = "-e";
		w[n++] = names[i];
	}
	big[300] = NULL;
	w[n++] = "--filter";
	w[n++] = "common_pid != 0";
	w[n] = NULL;
	{
		const char *got = marks((const char *const *)w, big);
		int bad = strlen(got) != 300 || got[299] != '1' || strchr(got, '1') != got + 299;

		ok(!bad, "300 -e's, the last filtered: its event marked, no other");
		if (bad)
			diag("first mark at %ld",
			     strchr(got, '1') ? (long)(strchr(got, '1') - got) : -1L);
	}
	return tap_done();
}
