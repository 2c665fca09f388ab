// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TSV report: one file per table, each with a header row; the sections' tables come from
 * their writers (report/<section>.c). The column names are the contract with the gnuplot
 * scripts in plots/ (docs/report-tsv.md); "-" marks a value that was not measured.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report_priv.h"

static void sections_tsv(struct rp_tsv *t)
{
	char cols[] = TS_REPORT_TSV_MARK;
	FILE *f;

	FILE *g;
	const struct ts_section_info *in;
	const uint16_t *kinds;
	const uint8_t *req;
	int s, i, n;

	cols[sizeof(cols) - 2] = '\0'; /* rp_tsv_open() ends the row */
	f = rp_tsv_open(t, "sections", cols, NULL);
	g = rp_tsv_open(t, "events", "section\tevent\trequired\tstatus\tcount", NULL);

	for (s = 0; f && g && s < TS_SEC_NR; s++) {
		in = ts_analysis_section(t->a, s);
		fprintf(f, "%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t", in->name,
			rp_presence(in->presence, 0), in->nr_events, in->first, in->last);
		if (ts_analysis_lost_measured(t->a))
			fprintf(f, "%" PRIu64 "\n", in->lost);
		else
			fputs("-\n", f);
		n = ts_analysis_section_kinds(s, &kinds, &req);
		for (i = 0; i < n; i++)
			fprintf(g, "%s\t%s\t%d\t%s\t%" PRIu64 "\n", in->name,
				ts_analysis_kind_name(kinds[i]), req[i],
				rp_presence(ts_analysis_kind_presence(t->a, kinds[i]), 0),
				ts_analysis_kind_count(t->a, kinds[i]));
	}
	rp_tsv_close(t, f);
	rp_tsv_close(t, g);
}

/* Every table, or with @t->check every table's file checked and none written. */
static void tables(struct rp_tsv *t)
{
	sections_tsv(t);
	for (int s = 0; s < TS_SEC_NR; s++)
		rp_writers[s]->tsv(t);
}

int ts_report_tsv(const char *dir, const struct ts_analysis *a, const struct ts_report_opts *o,
		  char *bad, size_t len)
{
	static const struct ts_report_opts none;
	struct rp_tsv t = {
		.dir = dir, .a = a, .o = o ? o : &none, .bad = len ? bad : NULL, .bad_len = len
	};
	uint64_t first, last;

	if (t.bad)
		t.bad[0] = '\0';
	if (mkdir(dir, 0777) && errno != EEXIST)
		return -errno;
	ts_analysis_range(a, &first, &last);
	t.span = last > first ? (double)(last - first) / 1e9 : 0;
	/* a table refused after others were written left them: all are checked first */
	t.check = 1;
	tables(&t);
	t.check = 0;
	if (!t.err)
		tables(&t);
	return t.err;
}
