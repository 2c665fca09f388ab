// SPDX-License-Identifier: GPL-2.0-only
/*
 * Chart tables: the TSV files that the plots/ scripts read (columns documented in each
 * script), written from histograms, per-run results and row-by-column tables; the chart list.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/chart.h"
#include "common/io.h"

struct ts_chart *ts_charts_add(struct ts_charts *cs, const char *name, const char *script)
{
	struct ts_chart *c;

	if (cs->nr == cs->cap) {
		size_t cap = cs->cap ? cs->cap * 2 : 16;
		struct ts_chart *n = realloc(cs->c, cap * sizeof(*n));

		if (!n)
			return NULL;
		cs->c = n;
		cs->cap = cap;
	}
	c = &cs->c[cs->nr++];
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->script = script;
	return c;
}

void ts_charts_release(struct ts_charts *cs)
{
	free(cs->c);
	cs->c = NULL;
	cs->nr = cs->cap = 0;
}

char *ts_chart_clean(char *s)
{
	char *p;

	for (p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f || strchr("'\"\\$`", *p))
			*p = '_';
	return s;
}

FILE *ts_charts_open(const struct ts_charts *cs, const char *name, const char *suffix, int *err)
{
	char path[4096];
	FILE *f;

	if (cs->dry) {
		f = fopen("/dev/null", "we");
		if (!f)
			*err = -errno;
		return f;
	}
	snprintf(path, sizeof(path), "%s/%s%s.tsv", cs->dir, name, suffix);
	f = ts_fopen_w(path, cs->keep, err);
	return f;
}

static int close_data(FILE *f)
{
	return ts_fclose_err(f);
}

/* A legend or label cell: no tabs, newlines or quotes. */
static void cell(FILE *f, const char *s)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "%s", s && *s ? s : "-");
	fputs(ts_chart_clean(buf), f);
}

static void num(FILE *f, double v)
{
	if (isnan(v))
		fputs("\t-", f);
	else
		fprintf(f, "\t%.6g", v);
}

static int cdf_rows(FILE *f, size_t nr, const struct ts_hist *const *h)
{
	unsigned int lo = ~0u, hi = 0, i;
	uint64_t *cum = calloc(nr ? nr : 1, sizeof(*cum));
	size_t s;

	if (!cum)
		return -ENOMEM;
	/* From the lowest bucket holding a value to the highest: stored groups run wider. */
	for (s = 0; s < nr; s++)
		for (i = ts_hist_first(h[s]); i < ts_hist_end(h[s]); i++)
			if (ts_hist_get(h[s], i)) {
				lo = i < lo ? i : lo;
				hi = i + 1 > hi ? i + 1 : hi;
			}
	if (lo < hi && ts_hist_bucket_low(lo) > 0) {
		fprintf(f, "%" PRIu64, ts_hist_bucket_low(lo));
		for (s = 0; s < nr; s++)
			fputs("\t0", f);
		fputc('\n', f);
	}
	for (i = lo; i < hi; i++) {
		fprintf(f, "%" PRIu64, ts_hist_bucket_low(i) + ts_hist_bucket_width(i));
		for (s = 0; s < nr; s++) {
			cum[s] += ts_hist_get(h[s], i);
			fprintf(f, "\t%.6g", (double)cum[s] / (double)h[s]->count);
		}
		fputc('\n', f);
	}
	free(cum);
	return 0;
}

static int cdf_files(const struct ts_charts *cs, struct ts_chart *c, size_t nr,
		     const char *const *labels, const struct ts_hist *const *h)
{
	FILE *f, *m;
	size_t s;
	int err = 0, ret;

	f = ts_charts_open(cs, c->name, "", &err);
	if (!f)
		return err;
	m = ts_charts_open(cs, c->name, "-marks", &err);
	if (!m) {
		fclose(f);
		return err;
	}
	fputs("upper_ns", f);
	fputs("series\tp50_ns\tp99_ns\n", m);
	for (s = 0; s < nr; s++) {
		char lab[256];

		snprintf(lab, sizeof(lab), "%s (N=%" PRIu64 ")", labels[s], h[s]->count);
		fputc('\t', f);
		cell(f, lab);
		cell(m, labels[s]);
		fprintf(m, "\t%" PRIu64 "\t%" PRIu64 "\n", ts_hist_quantile(h[s], 0.5),
			ts_hist_quantile(h[s], 0.99));
	}
	fputc('\n', f);
	err = cdf_rows(f, nr, h);
	ret = close_data(f);
	err = err ?: ret;
	ret = close_data(m);
	err = err ?: ret;
	c->marks = 1;
	return err;
}

int ts_chart_cdf(const struct ts_charts *cs, struct ts_chart *c, size_t nr,
		 const char *const *labels, const struct ts_hist *const *hists)
{
	const struct ts_hist **h = calloc(nr ? nr : 1, sizeof(*h));
	const char **l = calloc(nr ? nr : 1, sizeof(*l));
	size_t i, n = 0;
	int err;

	if (!h || !l) {
		free(h);
		free(l);
		return -ENOMEM;
	}
	for (i = 0; i < nr; i++)
		if (hists[i] && hists[i]->count) {
			h[n] = hists[i];
			l[n++] = labels[i];
		}
	if (n)
		err = cdf_files(cs, c, n, l, h);
	else
		err = 0;
	if (!n && !c->missing[0])
		snprintf(c->missing, sizeof(c->missing), "no values were measured");
	free(h);
	free(l);
	return err;
}

static int box_rows(FILE *f, size_t nr, const double *const *runs, const size_t *n, const int *keep)
{
	size_t r, v, most = 0;

	for (v = 0; v < nr; v++)
		if (keep[v] && n[v] > most)
			most = n[v];
	for (r = 0; r < most; r++) {
		fprintf(f, "%zu", r + 1);
		for (v = 0; v < nr; v++)
			if (keep[v])
				num(f, r < n[v] ? runs[v][r] : NAN);
		fputc('\n', f);
	}
	return 0;
}

int ts_chart_box(const struct ts_charts *cs, struct ts_chart *c, size_t nr,
		 const char *const *labels, const double *const *runs, const size_t *n)
{
	int *keep = calloc(nr ? nr : 1, sizeof(*keep)), err = 0, any = 0;
	size_t v, r;
	FILE *f;

	if (!keep)
		return -ENOMEM;
	for (v = 0; v < nr; v++)
		for (r = 0; r < n[v] && !keep[v]; r++)
			keep[v] = !isnan(runs[v][r]);
	for (v = 0; v < nr; v++)
		any |= keep[v];
	if (!any) {
		snprintf(c->missing, sizeof(c->missing), "no benchmark results were found");
		free(keep);
		return 0;
	}
	f = ts_charts_open(cs, c->name, "", &err);
	if (f) {
		fputs("run", f);
		for (v = 0; v < nr; v++)
			if (keep[v]) {
				fputc('\t', f);
				cell(f, labels[v]);
			}
		fputc('\n', f);
		box_rows(f, nr, runs, n, keep);
		err = close_data(f);
	}
	free(keep);
	return err;
}

int ts_chart_table(const struct ts_charts *cs, struct ts_chart *c, const struct ts_chart_table *t)
{
	int *keep = calloc(t->nr_cols ? t->nr_cols : 1, sizeof(*keep)), err = 0, any = 0;
	int measured = 0;
	size_t r, k;
	FILE *f;

	if (!keep)
		return -ENOMEM;
	/* A column of zeros draws nothing but a legend entry; only zeros, an empty frame. */
	for (k = 0; k < t->nr_cols; k++)
		for (r = 0; r < t->nr_rows; r++) {
			double v = t->v[r * t->nr_cols + k];

			measured |= !isnan(v);
			if (!isnan(v) && v != 0)
				any = keep[k] = 1;
		}
	for (k = 0; k < t->nr_cols && t->keep_cols; k++)
		keep[k] = 1;
	if (!any) {
		if (!c->missing[0])
			snprintf(c->missing, sizeof(c->missing), "%s",
				 measured ? "recorded, but none happened" :
					    "no values were measured");
		free(keep);
		return 0;
	}
	f = ts_charts_open(cs, c->name, "", &err);
	if (f) {
		fputs(t->first, f);
		for (k = 0; k < t->nr_cols; k++)
			if (keep[k]) {
				fputc('\t', f);
				cell(f, t->cols[k]);
			}
		fputc('\n', f);
		for (r = 0; r < t->nr_rows; r++) {
			cell(f, t->rows[r]);
			for (k = 0; k < t->nr_cols; k++)
				if (keep[k])
					num(f, t->v[r * t->nr_cols + k]);
			fputc('\n', f);
		}
		err = close_data(f);
	}
	free(keep);
	return err;
}

int ts_chart_waterfall(const struct ts_charts *cs, struct ts_chart *c,
		       const struct ts_chart_step *steps, size_t nr)
{
	int err = 0;
	size_t i;
	FILE *f;

	if (!nr) {
		snprintf(c->missing, sizeof(c->missing), "no decomposition of the change");
		return 0;
	}
	f = ts_charts_open(cs, c->name, "", &err);
	if (!f)
		return err;
	fputs("step\tfrom_val\tto_val\tkind\tshare_pct\n", f);
	for (i = 0; i < nr; i++) {
		cell(f, steps[i].label);
		num(f, steps[i].from);
		num(f, steps[i].to);
		fprintf(f, "\t%s", steps[i].kind);
		num(f, steps[i].share_pct);
		fputc('\n', f);
	}
	return close_data(f);
}
