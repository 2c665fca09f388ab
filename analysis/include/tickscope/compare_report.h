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

/**
 * ts_summary_key() - the key of @data's summary: TS_SUMMARY_MAGIC, @version, the file's size
 * and mtime, the benchmark's @comm (NULL: none) and operation count @ops
 * Return: a malloc'd line, or NULL (errno set) when @data cannot be stat'ed.
 */
char *ts_summary_key(const char *data, const char *comm, double ops, const char *version);

/**
 * ts_summary_read() - add the metrics of summary file @path to @r if its first line is @key
 * Return: 1 when read, 0 when absent or stale, -ENOMEM.
 */
int ts_summary_read(const char *path, const char *key, struct ts_run *r);

/**
 * ts_summary_write() - write @key, @r's lost events and its metrics from index @from on to
 * @path, through a temporary file renamed over it
 * Return: 0 or a negative errno.
 */
int ts_summary_write(const char *path, const char *key, const struct ts_run *r, int from);

/** ts_compare_adjust_name() - "Benjamini-Hochberg", "Holm" or "none" */
const char *ts_compare_adjust_name(enum ts_adjust a);

#endif
