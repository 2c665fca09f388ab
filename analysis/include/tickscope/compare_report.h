/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reports of a comparison: text (benchmark table, explanation, metrics), one JSON document
 * (docs/compare-json.md) or TSV tables (docs/compare-tsv.md).
 */
#ifndef TICKSCOPE_COMPARE_REPORT_H
#define TICKSCOPE_COMPARE_REPORT_H

#include <stdio.h>

#include "tickscope/compare.h"

struct ts_compare_report_opts {
	int all; /* every metric row, not only significant ones and the explanation's */
	unsigned int top; /* ranked changes shown (0: 10) */
};

/** ts_compare_text() - Return: 0 or -EIO */
int ts_compare_text(FILE *f, const struct ts_cmp *c, const struct ts_compare_report_opts *o);

/** ts_compare_json() - one document ("schema": "tickscope-compare"); Return: 0 or -EIO */
int ts_compare_json(FILE *f, const struct ts_cmp *c, const struct ts_compare_report_opts *o);

/** ts_compare_tsv() - runs.tsv, metrics.tsv, decomposition.tsv, changes.tsv into @dir */
int ts_compare_tsv(const char *dir, const struct ts_cmp *c);

/** ts_compare_adjust_name() - "Benjamini-Hochberg", "Holm" or "none" */
const char *ts_compare_adjust_name(enum ts_adjust a);

#endif
