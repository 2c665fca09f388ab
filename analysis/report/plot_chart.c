// SPDX-License-Identifier: GPL-2.0-only
/* The charts of one run, one at a time: adding a chart, whether its events are there, its error. */
#include <errno.h>
#include <stdio.h>

#include "plot_priv.h"
#include "tickscope/analysis.h"

/*
 * Whether the events behind a chart were recorded and happened. If not, @c->missing says
 * which to record (or that none happened) and the chart is not drawn.
 */
int plot_need(struct plot_run *r, struct ts_chart *c, const int *kinds, int nr)
{
	size_t len = 0;
	int i, absent = 0, seen = 0;

	for (i = 0; i < nr; i++) {
		enum ts_presence p = ts_analysis_kind_presence(r->a, kinds[i]);

		seen |= p == TS_PRESENT;
		if (p != TS_NOT_RECORDED)
			continue;
		len += snprintf(c->missing + len, sizeof(c->missing) - len, "%s%s",
				absent++ ? ", " : "record ", ts_analysis_kind_name(kinds[i]));
		if (len >= sizeof(c->missing))
			len = sizeof(c->missing) - 1;
	}
	if (!absent && !seen)
		snprintf(c->missing, sizeof(c->missing), "%s recorded, but none in this trace",
			 ts_analysis_kind_name(kinds[0]));
	else if (seen)
		c->missing[0] = 0; /* enough to draw: another event stands in (waking/wakeup) */
	return !c->missing[0];
}

struct ts_chart *plot_add(struct plot_run *r, const char *name, const char *script,
			  const char *title)
{
	struct ts_chart *c = r->err ? NULL : ts_charts_add(r->cs, name, script);

	if (!c) {
		r->err = r->err ? r->err : -ENOMEM;
		return NULL;
	}
	snprintf(c->title, sizeof(c->title), "%s", title);
	return c;
}

void plot_done(struct plot_run *r, int err)
{
	if (err && !r->err)
		r->err = err;
}
