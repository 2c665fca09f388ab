// SPDX-License-Identifier: GPL-2.0-only
/* The timeline chart's table (plots/timeline.gp): one row per interval, mark or wakeup. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report_priv.h"
#include "common/io.h"
#include "tickscope/chart.h"
#include "tickscope/timeline.h"

static const char *const kind_names[TS_TL_NR] = {
	[TS_TL_RUN] = "run",
	[TS_TL_IDLE] = "idle",
	[TS_TL_TICK_STOP] = "tick_stop",
	[TS_TL_TICK_STOP_FAIL] = "tick_stop_fail",
	[TS_TL_HRTIMER] = "hrtimer",
	[TS_TL_TIMER] = "timer",
	[TS_TL_WORK] = "work",
	[TS_TL_WAKE] = "wake",
	[TS_TL_IPI] = "ipi",
};

static void row(FILE *f, const struct ts_tl_item *it, uint64_t start,
		const struct ts_report_opts *o)
{
	char buf[128], name[sizeof(it->name) + 1];
	const char *what = "-";

	memcpy(name, it->name, sizeof(it->name));
	name[sizeof(it->name)] = 0;
	if (it->function)
		what = rp_sym(o, it->function, buf, sizeof(buf));
	else if (name[0])
		what = ts_chart_clean(name);
	fprintf(f, "%s\t%d\t%.3f\t%.3f\t%d\t%d\t%u\t%s\n", kind_names[it->kind], it->cpu,
		(double)(it->start - start) / 1e3, (double)(it->end - start) / 1e3, it->to_cpu,
		it->tid, it->state, what);
}

int ts_plot_timeline(struct ts_charts *cs, struct ts_chart *c, const struct ts_timeline *t,
		     const struct ts_report_opts *o)
{
	uint64_t start, end;
	size_t i;
	FILE *f;
	int err = 0;

	ts_timeline_window(t, &start, &end);
	if (!ts_timeline_nr(t)) {
		snprintf(c->missing, sizeof(c->missing),
			 "nothing happened in the window: record sched:sched_switch and "
			 "power:cpu_idle, and pick a window inside the trace");
		return 0;
	}
	f = ts_charts_open(cs, c->name, "", &err);
	if (!f)
		return err;
	fputs("kind\tcpu\tstart_us\tend_us\tto_cpu\ttid\tstate\tname\n", f);
	for (i = 0; i < ts_timeline_nr(t); i++)
		row(f, ts_timeline_at(t, i), start, o);
	return ts_fclose_err(f);
}
