/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reports of one analysis: text sections (default), one JSON document (schema in
 * docs/report-json.md) or one TSV per table (columns in docs/report-tsv.md).
 */
#ifndef TICKSCOPE_REPORT_H
#define TICKSCOPE_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "tickscope/analysis.h"
#include "tickscope/info.h"

#define TS_REPORT_JSON_VERSION 1
#define TS_REPORT_TOP_DEFAULT 20

/*
 * What boards/record.sh wrote beside the perf.data (meta.txt): which run of which benchmark,
 * whether it was pinned, and the benchmark's own result. Strings are "" when absent.
 */
struct ts_out_keep; /* common/io.h */

struct ts_run_meta {
	char board[32], variant[32], workload[32];
	int run, runs;
	int pinned; /* 1 pinned, 0 not, -1 unknown */
	char pin[64]; /* how: "--pin cross --cpus 0,1", "" when not pinned or unknown */
	char result[32], result_unit[32];
};

struct ts_report_opts {
	/*
	 * Symbolization (the CLI passes ts_ksyms_lookup): the name containing @addr or NULL,
	 * with @off (which may be NULL) set to the offset into it. NULL prints raw addresses.
	 */
	const char *(*sym)(void *ctx, uint64_t addr, uint64_t *off);
	void *sym_ctx;
	const char *kallsyms; /* where symbols came from, for the header; may be NULL */
	/* how this front end is given a kallsyms, said when there is none; NULL: --kallsyms */
	const char *kallsyms_how;
	int64_t kallsyms_shift; /* how far its kernel symbols were moved to the recording boot */
	const char *input; /* the input path; may be NULL */
	const struct ts_file_info *info; /* header facts; may be NULL */
	const struct ts_run_meta *run; /* the run's meta.txt, when beside the input; may be NULL */
	unsigned int top; /* rows of ranked tables; 0 for TS_REPORT_TOP_DEFAULT */
	/* Functions always listed in their tables, NULL-terminated; NULL for {"vmstat_update"} */
	const char *const *watch;
	const struct ts_out_keep *keep; /* files --tsv must not replace (common/io.h); may be NULL */
};

/**
 * ts_report_text() - write the text report
 * Return: 0, or -EIO when writing failed.
 */
int ts_report_text(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o);

/**
 * ts_report_json() - write one JSON document ("schema": "tickscope-report", "version": 1)
 * Return: 0, or -EIO when writing failed.
 */
int ts_report_json(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o);

/* The first line of sections.tsv, the first table --tsv writes: the mark of its folder. */
#define TS_REPORT_TSV_MARK "section\tstatus\tevents\tfirst_ns\tlast_ns\tlost_events\n"

/**
 * ts_report_tsv() - write one TSV file per table into @dir (created if missing); every table's
 * file is checked (ts_out_check()) before the first is written, so that a refused one leaves
 * none written
 * @bad: with @len > 0, set to the file an error is about ("" for none, a write error)
 * Return: 0, or a negative errno or TS_E* code from checking, creating or writing a file.
 */
int ts_report_tsv(const char *dir, const struct ts_analysis *a, const struct ts_report_opts *o,
		  char *bad, size_t len);

#endif
