/* SPDX-License-Identifier: GPL-2.0-only */
/* tickscope compare --plots DIR / --html FILE: the charts and the one-file report. */
#ifndef TS_COMPARE_CHARTS_H
#define TS_COMPARE_CHARTS_H

#include "compare_load.h"
#include "tickscope/chart.h"
#include "tickscope/compare_report.h"

/* Every run's analysis folded into its variant while compare loads the runs. */
struct cmp_charts {
	struct ts_plot_variant *v[TS_CMP_MAX_VAR];
	int cur; /* the variant being loaded */
	int untraced[TS_CMP_MAX_VAR]; /* runs with a summary but neither trace nor chart data */
	struct load_hook hook;
	int beside; /* save chart data beside the trace (summary --charts), not in the cache */
};

/* cmp_charts_init() - have load_run() hand every run's analysis to @cc (no cache read) */
int cmp_charts_init(struct cmp_charts *cc, struct load_opts *lo);

/* cmp_charts_variant() - the runs loaded next belong to variant @i; 1 after printing why */
int cmp_charts_variant(struct cmp_charts *cc, int i);

/*
 * cmp_charts_write() - draw the comparison's charts into @dir (a temporary folder when NULL)
 * and write the HTML report @html (if not NULL). Returns 0, or 1 after printing why.
 */
int cmp_charts_write(struct cmp_charts *cc, const struct ts_cmp *c,
		     const struct ts_compare_report_opts *ro, const char *dir, const char *html);

void cmp_charts_release(struct cmp_charts *cc);

/* cmp_html() - the self-contained page (compare_html.c); 0, or 1 after printing why */
int cmp_html(const char *path, const struct ts_charts *cs, const struct ts_cmp *c,
	     const struct ts_compare_report_opts *ro);

#endif
