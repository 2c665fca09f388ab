// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TSV tables the sections' writers (report/<section>.c) fill: one file per table with its
 * header row, distributions as eight columns, "-" for what was not measured.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "report_priv.h"
#include "common/io.h"

static const char *const dist_cols[] = { "count",  "sum_ns", "min_ns",	"p50_ns",
					 "p90_ns", "p99_ns", "p999_ns", "max_ns" };

FILE *rp_tsv_open(struct rp_tsv *t, const char *name, const char *cols, const char *const *dists)
{
	char path[4096], *head = NULL;
	size_t len = 0;
	FILE *f, *h;
	int i;

	if (t->err)
		return NULL;
	/* the header first: a file of this name that does not start with it is not replaced */
	h = open_memstream(&head, &len);
	if (!h) {
		t->err = -errno;
		return NULL;
	}
	fputs(cols, h);
	for (; dists && *dists; dists++)
		for (i = 0; i < 8; i++)
			fprintf(h, "\t%s_%s", *dists, dist_cols[i]);
	fputc('\n', h);
	if (fclose(h)) {
		t->err = -ENOMEM;
		free(head);
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/%s.tsv", t->dir, name);
	if (t->check) {
		t->err = ts_out_check(path, t->o->keep, head);
		f = NULL;
	} else {
		f = ts_fopen_table(path, t->o->keep, head, &t->err);
	}
	if (t->err && t->bad)
		snprintf(t->bad, t->bad_len, "%s", path);
	free(head);
	return f;
}

void rp_tsv_close(struct rp_tsv *t, FILE *f)
{
	if (!f)
		return;
	int err = ts_fclose_err(f);

	if (err && !t->err)
		t->err = err;
}

void rp_tsv_rate(FILE *f, uint64_t n, double span)
{
	if (span > 0)
		fprintf(f, "%.3f", (double)n / span);
	else
		fputc('-', f);
}

void rp_tsv_dist(FILE *f, const struct ts_hist *h)
{
	struct rp_dist d;

	rp_dist(h, &d);
	if (!d.count) {
		fprintf(f, "\t0\t0\t-\t-\t-\t-\t-\t-");
		return;
	}
	fprintf(f,
		"\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
		"\t%" PRIu64 "\t%" PRIu64,
		d.count, d.sum, d.min, d.p50, d.p90, d.p99, d.p999, d.max);
}

const char *rp_tsv_fn(struct rp_tsv *t, uint64_t addr, char *buf, size_t len)
{
	return rp_sym(t->o, addr, buf, len);
}

int rp_tsv_present(struct rp_tsv *t, enum ts_section s)
{
	return ts_analysis_section(t->a, s)->presence == TS_PRESENT;
}

int rp_tsv_kind_present(struct rp_tsv *t, int kind)
{
	return ts_analysis_kind_presence(t->a, kind) == TS_PRESENT;
}
