/* SPDX-License-Identifier: GPL-2.0-only */
/* `tickscope report --interval N`: a report of each N seconds of the recording, then the whole. */
#ifndef TS_CLI_REPORT_INTERVAL_H
#define TS_CLI_REPORT_INTERVAL_H

#include <stdint.h>

struct ts_analysis;
struct ts_analysis_opts;
struct ts_event;
struct ts_sample;
struct ts_source;

/* Print the report of @a, headed by @head (NULL for the final one); 0 or an exit code. */
typedef int (*interval_print_fn)(void *ctx, const char *head, struct ts_analysis *a);

struct report_interval {
	uint64_t ns; /* the interval */
	uint64_t t0, next; /* the first event's time; the end of the current interval */
	int k; /* intervals printed */
	int err; /* sticky: the first failure */
	struct ts_analysis *whole, *cur;
	const struct ts_analysis_opts *an;
	struct ts_source *src;
	interval_print_fn print;
	void *ctx;
};

/*
 * Start with @whole (fed every event, printed by the caller at the end) and a first interval's
 * models with the same filters @an. Return 0 or a negative error code.
 */
int report_interval_init(struct report_interval *ri, uint64_t ns, struct ts_analysis *whole,
			 const struct ts_analysis_opts *an, struct ts_source *src,
			 interval_print_fn print, void *ctx);

/*
 * ts_source_run()'s callback (@ctx the struct report_interval): an event at or past the end of
 * the current interval first prints that interval's report (and an empty one for each interval
 * without events), then starts new models.
 */
int report_interval_feed(void *ctx, const struct ts_event *ev, const struct ts_sample *s);

void report_interval_free(struct report_interval *ri);

#endif
