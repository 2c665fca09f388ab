/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reports of a comparison: text (benchmark table, explanation, metrics), one JSON document
 * (docs/compare-json.md) or TSV tables (docs/compare-tsv.md).
 */
#ifndef TICKSCOPE_COMPARE_REPORT_H
#define TICKSCOPE_COMPARE_REPORT_H

#include <stdio.h>

#include "tickscope/compare.h"
#include "tickscope/sha256.h"

struct ts_compare_report_opts {
	int all; /* every metric row, not only significant ones and the explanation's */
	unsigned int top; /* ranked changes shown (0: 10) */
	int metric_names; /* the metrics' raw names beside their words (--metric-names) */
};

/**
 * ts_compare_change_words() - variant @v's change of row @r as the text says it: "12.3%
 * better", "(4.0% lower)" (neutral), "0.1 pp higher" (shares), "-"; Return: @buf
 */
const char *ts_compare_change_words(char *buf, size_t n, const struct ts_cmp_row *r, int v);

/**
 * ts_compare_value_words() - @v in @unit as the text says it, ns as µs when @scale_ref is 10
 * µs or more ("475.1 us"); Return: @buf
 */
const char *ts_compare_value_words(char *buf, size_t n, double v, const char *unit,
				   double scale_ref);

/**
 * ts_compare_share_words() - a part's share of the change, never over 100% or below 0:
 * "46.0%", "-" without a change, "against" (it moved the other way), "more" (it moved more
 * than the whole change: other parts moved against it); *@odd is set for the last two.
 * Return: @buf
 */
const char *ts_compare_share_words(char *buf, size_t n, double share, int *odd);

/** ts_compare_text() - Return: 0 or -EIO */
int ts_compare_text(FILE *f, const struct ts_cmp *c, const struct ts_compare_report_opts *o);

/** ts_compare_json() - one document ("schema": "tickscope-compare"); Return: 0 or -EIO */
int ts_compare_json(FILE *f, const struct ts_cmp *c, const struct ts_compare_report_opts *o);

/* The first line of runs.tsv, the first table compare --tsv writes: the mark of its folder. */
#define TS_COMPARE_TSV_MARK "variant\trun\tlabel\tmetric\tunit\tvalue\n"

/**
 * ts_compare_tsv() - runs.tsv, metrics.tsv, decomposition.tsv, changes.tsv, confounders.tsv
 * into @dir, each file checked (ts_out_check()) before the first is written
 * @bad: with @len > 0, set to the file a refusal is about ("" for none)
 */
int ts_compare_tsv(const char *dir, const struct ts_cmp *c, char *bad, size_t len);

/**
 * ts_summary_key() - the key of @data's summary: TS_SUMMARY_MAGIC, @version, the file's size
 * and mtime, the benchmark's @comm (NULL: none), operation count @ops and the sha256 of the
 * kallsyms file @ksyms the symbols are read from ("ksyms:HEX"; "-" when @ksyms is NULL)
 * Return: a malloc'd line, or NULL (errno set) when @data or @ksyms cannot be read.
 */
char *ts_summary_key(const char *data, const char *ksyms, const char *comm, double ops,
		     const char *version);

/**
 * ts_summary_key_sha() - ts_summary_key() with the kallsyms named by its sha256 @ksyms_sha
 * (64 hex digits; NULL for none), for a kallsyms whose hash is known without reading it
 */
char *ts_summary_key_sha(const char *data, const char *ksyms_sha, const char *comm, double ops,
			 const char *version);

/*
 * What a summary says it was computed from: its first line (the key) split into its fields,
 * and its second, the trace's sha256 and size (of perf.data as recorded: uncompressed).
 */
struct ts_summary_head {
	char *key; /* the first line as written */
	char *format; /* "tickscope-summary 11" */
	char *version; /* the tool's */
	long long file_size; /* the file it sat next to (perf.data or perf.data.xz) */
	char *comm; /* the benchmark's tasks, "-" for none */
	char *ops; /* the operation count as written ("%.17g") */
	char *ksyms; /* "ksyms:SHA256" of the kallsyms used, "-" for none */
	char sha256[TS_SHA256_HEX]; /* the trace's */
	long long trace_size; /* its bytes */
};

/**
 * ts_summary_head() - read the first two lines of summary file @path into @h
 * @line: out: the line that is malformed, for -TS_ESUMMARY
 * Return: 0, -TS_ESUMMARY (not a summary, or one without the trace line: an older format
 * gets the fields it has and @h->sha256 ""), -ENOMEM, or -errno when @path cannot be read.
 */
int ts_summary_head(const char *path, struct ts_summary_head *h, int *line);

/** ts_summary_head_release() - free what ts_summary_head() allocated */
void ts_summary_head_release(struct ts_summary_head *h);

/**
 * ts_summary_ops() - @ops as a summary's key writes it, into @buf
 * Return: @buf.
 */
const char *ts_summary_ops(double ops, char *buf, size_t len);

/**
 * ts_summary_read() - add the metrics of summary file @path to @r if its first line is @key;
 * @r is left as it was unless the whole file reads
 * @line: out: the malformed line, for -TS_ESUMMARY (may be NULL)
 * Return: 1 when read, 0 when absent or under another key, -TS_ESUMMARY, -ENOMEM.
 */
int ts_summary_read(const char *path, const char *key, struct ts_run *r, int *line);

/**
 * ts_summary_write() - write @key, the trace's @sha256 and @trace_size, @r's lost events and
 * its metrics from index @from on to @path, through a temporary file renamed over it; a
 * regular file there with these very bytes is left in place (its times set to now)
 * Return: 0 or a negative errno.
 */
int ts_summary_write(const char *path, const char *key, const char *sha256, long long trace_size,
		     const struct ts_run *r, int from);

/**
 * ts_summary_trace_id() - the sha256 and size of the file @path, as a summary names its trace
 * @hex: TS_SHA256_HEX bytes
 * Return: 0 or -errno.
 */
int ts_summary_trace_id(const char *path, char *hex, long long *size);

/** ts_compare_adjust_name() - "Benjamini-Hochberg", "Holm" or "none" */
const char *ts_compare_adjust_name(enum ts_adjust a);

#endif
