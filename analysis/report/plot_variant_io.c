// SPDX-License-Identifier: GPL-2.0-only
/*
 * A variant's chart data as text, so that a run read once is not read again: distributions as
 * their buckets, rates per run, ranked rows. Lines are "tag<TAB>fields", one header line first.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot_variant.h"
#include "common/io.h"

#define IO_MAGIC "tickscope-plot-variant 3"

static void save_hist(FILE *f, const char *tag, int i, const struct ts_hist *h)
{
	unsigned int b;

	fprintf(f, "%s\t%d\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64, tag, i, h->count,
		h->sum, h->min, h->max);
	for (b = ts_hist_first(h); h->count && b < ts_hist_end(h); b++)
		if (ts_hist_get(h, b))
			fprintf(f, "\t%u:%" PRIu64, b, ts_hist_get(h, b));
	fputc('\n', f);
}

int ts_plot_variant_save(FILE *f, const char *key, const struct ts_plot_variant *v)
{
	int i, k, j;

	fprintf(f, IO_MAGIC "\t%s\nruns\t%d\n", key, v->nr_runs);
	for (i = 0; i <= VD_NR; i++)
		fprintf(f, "seen\t%d\t%d\n", i, v->seen[i]);
	for (i = 0; i < VR_NR; i++)
		fprintf(f, "rec\t%d\t%d\n", i, v->rec[i]);
	fprintf(f, "unmeasured\t%d\n", v->unmeasured);
	for (i = 0; i < VD_NR; i++)
		save_hist(f, "dist", i, &v->dist[i]);
	for (i = 0; i < TS_WAKE_NR; i++)
		save_hist(f, "cls", i, &v->cls[i]);
	for (j = 0; j < v->nr_runs; j++) {
		for (i = 0; i < VX_NR; i++)
			fprintf(f, "exit\t%d\t%d\t%.17g\n", j, i, v->exits[i][j]);
		for (i = 0; i < TS_IDLE_NR_STATES; i++)
			fprintf(f, "resid\t%d\t%d\t%.17g\n", j, i, v->resid[i][j]);
	}
	for (k = 0; k < VR_NR; k++)
		for (i = 0; i < v->nr_rows[k]; i++)
			for (j = 0; j < v->nr_runs; j++)
				if (!isnan(v->rows[k][i].v[j]))
					fprintf(f, "row\t%d\t%d\t%.17g\t%s\n", j, k,
						v->rows[k][i].v[j], v->rows[k][i].label);
	return ts_stream_err(f);
}

static int load_hist(struct ts_hist *h, char *rest)
{
	uint64_t count, sum, min, max, n;
	char *tok, *save = NULL;
	unsigned int b;
	int err = 0;

	if (sscanf(rest, "%" SCNu64 "\t%" SCNu64 "\t%" SCNu64 "\t%" SCNu64, &count, &sum, &min,
		   &max) != 4)
		return -EINVAL;
	for (tok = strtok_r(rest, "\t", &save); tok && !err; tok = strtok_r(NULL, "\t", &save))
		if (strchr(tok, ':') && sscanf(tok, "%u:%" SCNu64, &b, &n) == 2)
			err = b < TS_HIST_NR_BUCKETS ? ts_hist_add_n(h, ts_hist_bucket_low(b), n) :
						       -EINVAL;
	if (!err && count) { /* the bucket lows are approximations of what was added */
		h->count = count;
		h->sum = sum;
		h->min = min;
		h->max = max;
	}
	return err;
}

/* One "run" line's per-run value: run @j, index @i < @nr, into @a (grown as needed). */
static int load_run_val(double **a, int nr, char *rest, int nr_runs)
{
	int j, i;
	double val;

	if (sscanf(rest, "%d\t%d\t%lf", &j, &i, &val) != 3 || j < 0 || j >= nr_runs || i < 0 ||
	    i >= nr)
		return -EINVAL;
	a[i][j] = val;
	return 0;
}

static int load_row(struct ts_plot_variant *v, char *rest)
{
	int j, k, n = 0;
	double val;

	if (sscanf(rest, "%d\t%d\t%lf\t%n", &j, &k, &val, &n) != 3 || !n || j < 0 ||
	    j >= v->nr_runs || k < 0 || k >= VR_NR)
		return -EINVAL;
	rest[strcspn(rest, "\n")] = 0;
	return plot_variant_row(v, k, j, rest + n, val);
}

/* Size the per-run arrays for @n runs, all NAN. */
static int load_runs(struct ts_plot_variant *v, int n)
{
	int i, j;

	if (n < 1 || n > 100000 || v->nr_runs)
		return -EINVAL;
	v->nr_runs = n;
	for (i = 0; i < VX_NR + TS_IDLE_NR_STATES; i++) {
		double **a = i < VX_NR ? &v->exits[i] : &v->resid[i - VX_NR];

		*a = malloc((size_t)n * sizeof(**a));
		if (!*a)
			return -ENOMEM;
		for (j = 0; j < n; j++)
			(*a)[j] = NAN;
	}
	return 0;
}

static int load_line(struct ts_plot_variant *v, char *l)
{
	char *tab = strchr(l, '\t');
	int i, x;

	if (!tab)
		return -EINVAL;
	*tab++ = 0;
	if (!strcmp(l, "runs"))
		return load_runs(v, atoi(tab));
	if (!strcmp(l, "seen") || !strcmp(l, "rec")) {
		if (sscanf(tab, "%d\t%d", &i, &x) != 2 || i < 0 ||
		    i > (*l == 's' ? VD_NR : VR_NR - 1))
			return -EINVAL;
		(*l == 's' ? v->seen : v->rec)[i] = (uint8_t)x;
		return 0;
	}
	if (!strcmp(l, "unmeasured")) {
		if (sscanf(tab, "%d", &x) != 1 || x < 0 || x > (VU_WAKES | VU_RUN | VU_OFF))
			return -EINVAL;
		v->unmeasured = (uint8_t)x;
		return 0;
	}
	if (!strcmp(l, "dist") || !strcmp(l, "cls")) {
		i = atoi(tab);
		if (i < 0 || i >= (*l == 'd' ? VD_NR : TS_WAKE_NR))
			return -EINVAL;
		return load_hist(*l == 'd' ? &v->dist[i] : &v->cls[i], strchr(tab, '\t') ?: tab);
	}
	if (!strcmp(l, "exit"))
		return load_run_val(v->exits, VX_NR, tab, v->nr_runs);
	if (!strcmp(l, "resid"))
		return load_run_val(v->resid, TS_IDLE_NR_STATES, tab, v->nr_runs);
	if (!strcmp(l, "row"))
		return load_row(v, tab);
	return -EINVAL;
}

int ts_plot_variant_load(FILE *f, const char *key, struct ts_plot_variant *v)
{
	char *l = NULL;
	size_t cap = 0, n = strlen(IO_MAGIC);
	ssize_t len;
	int err = 0;

	len = getline(&l, &cap, f);
	if (len <= 0 || strncmp(l, IO_MAGIC, n) || l[n] != '\t' ||
	    strncmp(l + n + 1, key, strlen(key)) || l[n + 1 + strlen(key)] != '\n')
		err = -ENOENT; /* another key: a stale or foreign file */
	while (!err && (len = getline(&l, &cap, f)) > 0) {
		if (l[len - 1] == '\n')
			l[len - 1] = 0;
		err = load_line(v, l);
	}
	free(l);
	return err;
}
