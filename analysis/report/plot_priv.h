/* SPDX-License-Identifier: GPL-2.0-only */
/* What the chart writers of one run share: the run, and adding a chart that may go missing. */
#ifndef TS_PLOT_PRIV_H
#define TS_PLOT_PRIV_H

#include "report_priv.h"
#include "tickscope/chart.h"

struct plot_run {
	struct ts_charts *cs;
	const struct ts_analysis *a;
	const struct ts_report_opts *o;
	double span; /* s */
	int err; /* the first error; later writers do nothing */
};

/* A new chart titled @title; NULL (and r->err set) on ENOMEM or after an error. */
struct ts_chart *plot_add(struct plot_run *r, const char *name, const char *script,
			  const char *title);

/*
 * Whether the events behind chart @c were recorded and happened (any of @kinds is enough).
 * If not, @c->missing says which to record, or that none happened, and 0 is returned.
 */
int plot_need(struct plot_run *r, struct ts_chart *c, const int *kinds, int nr);

/* Keep the first error. */
void plot_done(struct plot_run *r, int err);

/* "inner ← outer": the first two frames of an off-CPU stack worth showing, by name. */
void plot_stack_label(const struct ts_report_opts *o, const struct ts_sched_stack *s, char *out,
		      size_t size);

/* Timers, work items, off-CPU stacks, shrinkers and grace periods (plot_funcs.c). */
void plot_functions(struct plot_run *r);

#endif
