// SPDX-License-Identifier: GPL-2.0-only
/*
 * `tickscope report --interval N`: the models of each N seconds of trace time (from the first
 * event), printed when the first event past its end arrives, beside the models of the whole.
 */
#include <errno.h>
#include <stdio.h>

#include "cli.h"
#include "report_interval.h"
#include "tickscope/analysis.h"
#include "tickscope/event.h"
#include "tickscope/source.h"

static int fresh(struct report_interval *ri)
{
	int err = ts_analysis_new(&ri->cur, ri->an);

	if (!err)
		ts_source_note_recorded(ri->src, ri->cur);
	return err;
}

int report_interval_init(struct report_interval *ri, uint64_t ns, struct ts_analysis *whole,
			 const struct ts_analysis_opts *an, struct ts_source *src,
			 interval_print_fn print, void *ctx)
{
	*ri = (struct report_interval){
		.ns = ns, .whole = whole, .an = an, .src = src, .print = print, .ctx = ctx
	};
	return fresh(ri);
}

/* the current interval's report, then new models for the next */
static int close_interval(struct report_interval *ri)
{
	uint64_t start = ri->next - ri->ns;
	char head[160];
	int err;

	err = cli_finish(ri->src, ri->cur);
	if (err)
		return err;
	snprintf(head, sizeof(head),
		 "== interval %d: %.3f-%.3f s of the recording "
		 "(perf clock %llu.%09llu-%llu.%09llu) ==",
		 ri->k + 1, (start - ri->t0) / 1e9, (ri->next - ri->t0) / 1e9,
		 (unsigned long long)(start / 1000000000), (unsigned long long)(start % 1000000000),
		 (unsigned long long)(ri->next / 1000000000),
		 (unsigned long long)(ri->next % 1000000000));
	if (ri->print(ri->ctx, head, ri->cur))
		return -EIO;
	ri->k++;
	ts_analysis_free(ri->cur);
	ri->cur = NULL;
	ri->next += ri->ns;
	return fresh(ri);
}

int report_interval_feed(void *ctx, const struct ts_event *ev, const struct ts_sample *s)
{
	struct report_interval *ri = ctx;
	int err;

	if (ri->err)
		return ri->err;
	/* side-band records without a time belong to whichever interval is open */
	if (ev->time && !ri->t0) {
		ri->t0 = ev->time;
		ri->next = ev->time + ri->ns;
	}
	while (ri->t0 && ev->time >= ri->next) {
		err = close_interval(ri);
		if (err)
			return ri->err = err;
	}
	err = ts_analysis_feed(ri->whole, ev) ?: ts_analysis_feed(ri->cur, ev);
	return err ? (ri->err = err) : 0;
}

void report_interval_free(struct report_interval *ri)
{
	ts_analysis_free(ri->cur);
	ri->cur = NULL;
}
