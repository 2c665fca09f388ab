// SPDX-License-Identifier: GPL-2.0-only
/*
 * tickscope compare --plots DIR / --html FILE: the comparison's charts (benchmark by variant,
 * the explanation's waterfall, and every run's trace folded into its variant) drawn by
 * gnuplot, and one self-contained HTML page with the tables, charts and conditions.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "common/cache.h"
#include "compare_charts.h"
#include "tickscope/chart.h"
#include "tickscope/compare_report.h"
#include "tickscope/error.h"
#include "tickscope/html.h"

/* "<perf.data>.tplot": beside the trace, as `tickscope summary --charts` writes it */
static char *cache_path(const char *data)
{
	char *p;

	return asprintf(&p, "%s.tplot", data) < 0 ? NULL : p;
}

/* Merge the chart data saved at @path under @key into the current variant: 1, else 0. */
static int load(struct cmp_charts *cc, const char *path, const char *key)
{
	struct ts_plot_variant *one = NULL;
	FILE *f = path ? fopen(path, "r") : NULL;
	int ok = f && !ts_plot_variant_new(&one, "") && !ts_plot_variant_load(f, key, one) &&
		 !ts_plot_variant_merge(cc->v[cc->cur], one);

	if (f)
		fclose(f);
	ts_plot_variant_free(one);
	return ok;
}

/* The run's chart data if it was saved under @key, beside the trace or in the user's cache. */
static int cached(void *ctx, const char *data, const char *key)
{
	struct cmp_charts *cc = ctx;
	char *path = cache_path(data), *upath = NULL;
	int ok = load(cc, path, key);

	if (!ok) {
		upath = cli_cache_file(data, ".tplot");
		ok = load(cc, upath, key);
		if (ok) /* used now: the last to be pruned */
			utimensat(AT_FDCWD, upath, NULL, 0);
	}
	free(path);
	free(upath);
	return ok;
}

/*
 * Save the run alone: beside its perf.data for `summary --charts` (@cc->beside), else in the
 * user's cache (compare writes nothing into the run folders). A place that cannot be written
 * to goes without.
 */
static void save(struct cmp_charts *cc, const char *data, const char *key,
		 const struct ts_plot_variant *one)
{
	char *path = cc->beside ? cache_path(data) : cli_cache_file(data, ".tplot"), *tmp = NULL;
	int fd = -1, bad = 1, lock = -1, dir = cc->beside;
	FILE *f = NULL;

	if (path && !dir)
		dir = !cli_cache_mkdir(&lock);
	if (path && dir && asprintf(&tmp, "%s.XXXXXX", path) >= 0 && (fd = mkstemp(tmp)) >= 0) {
		fchmod(fd, 0644); /* as the summary: it travels with the run folder */
		f = fdopen(fd, "w");
		if (!f) {
			close(fd);
			unlink(tmp);
		} else {
			bad = ts_plot_variant_save(f, key, one);
			if (fclose(f) || bad || rename(tmp, path)) {
				unlink(tmp);
				bad = 1;
			}
		}
	}
	if (!bad && !cc->beside)
		cli_cache_used(path);
	ts_cache_unlock(lock);
	free(path);
	free(tmp);
}

static int fold(void *ctx, const struct ts_analysis *a, const struct ts_report_opts *o,
		const char *comm, const char *data, const char *key)
{
	struct cmp_charts *cc = ctx;
	struct ts_plot_variant *one = NULL;
	int err = ts_plot_variant_new(&one, "") ?: ts_plot_variant_add(one, a, o, comm);

	if (!err) {
		save(cc, data, key, one);
		err = ts_plot_variant_merge(cc->v[cc->cur], one);
	}
	ts_plot_variant_free(one);
	return err;
}

static void untraced(void *ctx, const char *label)
{
	struct cmp_charts *cc = ctx;

	cc->untraced[cc->cur]++;
}

int cmp_charts_init(struct cmp_charts *cc, struct load_opts *lo)
{
	cc->hook.cached = cached;
	cc->hook.analysis = fold;
	cc->hook.untraced = untraced;
	cc->hook.ctx = cc;
	lo->hook = &cc->hook;
	return 0;
}

int cmp_charts_variant(struct cmp_charts *cc, int i)
{
	char label[8];

	cc->cur = i;
	snprintf(label, sizeof(label), "%c", 'A' + i);
	if (!cc->v[i] && ts_plot_variant_new(&cc->v[i], label))
		return cli_error("out of memory");
	return 0;
}

void cmp_charts_release(struct cmp_charts *cc)
{
	int i;

	for (i = 0; i < TS_CMP_MAX_VAR; i++)
		ts_plot_variant_free(cc->v[i]);
}

/* "A: pingpong-same" */
static void vlabel(const struct ts_cmp *c, int i, char *buf, size_t len)
{
	snprintf(buf, len, "%c: %s", 'A' + i, c->var[i].name);
}

static void bench_chart(struct ts_charts *cs, const struct ts_cmp *c, int *err)
{
	const struct ts_cmp_row *r = c->result;
	char lab[TS_CMP_MAX_VAR][96];
	const char *labels[TS_CMP_MAX_VAR];
	const double *runs[TS_CMP_MAX_VAR];
	size_t n[TS_CMP_MAX_VAR];
	struct ts_chart *ch = ts_charts_add(cs, "bench", "bench-box.gp");
	const char *what; /* the benchmark's result in words, as the text says it */
	char words[128];
	int i;

	if (!ch) {
		*err = -ENOMEM;
		return;
	}
	if (!r) {
		snprintf(ch->title, sizeof(ch->title), "Benchmark result by variant");
		snprintf(ch->missing, sizeof(ch->missing),
			 "no benchmark output was found (workload.out, stress-ng.yaml or --bench)");
		return;
	}
	what = ts_cmp_metric_words(r->name, words, sizeof(words));
	for (i = 0; i < c->nr_var; i++) {
		vlabel(c, i, lab[i], sizeof(lab[i]));
		snprintf(lab[i] + strlen(lab[i]), sizeof(lab[i]) - strlen(lab[i]), " (N=%d)",
			 c->var[i].nr_runs);
		labels[i] = lab[i];
		runs[i] = r->cell[i].values;
		n[i] = (size_t)c->var[i].nr_runs;
	}
	{
		const struct ts_cmp_cell *b = &r->cell[1];

		/* in words, as the text report: "148.9% worse", never a bare sign */
		snprintf(ch->title, sizeof(ch->title), "%s: B against A %.1f%% %s%s, p = %.2g%s",
			 what, fabs(b->change), b->change >= 0 ? "better" : "worse",
			 b->significant ? "" : " (not significant)", b->p,
			 c->nr_var > 2 ? " (C... in the table)" : "");
	}
	ch->axis_var = "ylabel";
	snprintf(ch->axis, sizeof(ch->axis), "%s (%s, %s is better)", what, r->unit,
		 r->dir == TS_DIR_HIGHER ? "higher" :
		 r->dir == TS_DIR_LOWER	 ? "lower" :
					   "neither");
	snprintf(ch->caption, sizeof(ch->caption),
		 "Every run is a point; boxes span the quartiles; + is better in the title.");
	*err = ts_chart_box(cs, ch, (size_t)c->nr_var, labels, runs, n);
}

/* A share shown on a bar: none beyond 100% either way (where parts moved against the change) */
static double valid_share(double s)
{
	return fabs(s) <= 100 ? s : NAN;
}

/* The waterfall of variant @v against the baseline: A, the components, the residual, B. */
static void explain_chart(struct ts_charts *cs, const struct ts_cmp *c, int v, int *err)
{
	const struct ts_cmp_decomp *d = &c->dec[v];
	struct ts_chart_step st[TS_CMP_MAX_PARTS + 2];
	char a[96], b[96], name[32];
	struct ts_chart *ch;
	double at;
	int i, n = 0;

	snprintf(name, sizeof(name), v == 1 ? "explain" : "explain-%c", 'A' + v);
	ch = ts_charts_add(cs, name, "explain.gp");
	if (!ch) {
		*err = -ENOMEM;
		return;
	}
	vlabel(c, 0, a, sizeof(a));
	vlabel(c, v, b, sizeof(b));
	snprintf(ch->title, sizeof(ch->title),
		 "What the change is made of: %.30s, %.60s against %.60s",
		 d->kind ? d->kind : "benchmark", b, a);
	ch->axis_var = "ylabel";
	snprintf(ch->axis, sizeof(ch->axis), "µs per operation (medians of the runs)");
	if (!d->kind || !d->nr) {
		snprintf(ch->missing, sizeof(ch->missing),
			 "no decomposition: record sched:sched_switch, sched:sched_waking and "
			 "sched:sched_wakeup with the benchmark");
		return;
	}
	st[n++] = (struct ts_chart_step){ a, 0, d->a, "total_a", NAN };
	for (i = 0, at = d->a; i < d->nr; i++, n++) {
		st[n] = (struct ts_chart_step){ d->part[i].label, at, at + d->part[i].delta,
						i == d->nr - 1 ? "residual" : "component",
						valid_share(d->part[i].share) };
		at += d->part[i].delta;
	}
	st[n++] = (struct ts_chart_step){ b, 0, d->b, "total_b", NAN };
	snprintf(
		ch->caption, sizeof(ch->caption),
		"Each bar moves from A's total towards B's; its label is its share of the change.");
	*err = ts_chart_waterfall(cs, ch, st, (size_t)n);
}

static int charts(struct cmp_charts *cc, const struct ts_cmp *c, struct ts_charts *cs)
{
	int err = 0, i;

	bench_chart(cs, c, &err);
	for (i = 1; i < c->nr_var && !err; i++)
		explain_chart(cs, c, i, &err);
	for (i = 0; i < c->nr_var && !err; i++)
		if (!cc->v[i] || !ts_plot_variant_runs(cc->v[i])) {
			struct ts_chart *ch = ts_charts_add(cs, "traces", "latency-cdf.gp");

			if (!ch)
				return -ENOMEM;
			snprintf(ch->title, sizeof(ch->title), "Charts of the traces");
			if (cc->untraced[i])
				snprintf(ch->missing, sizeof(ch->missing),
					 "%.40s's runs came as summaries alone (no perf.data, no "
					 "chart data): the distributions need the traces, or "
					 "`tickscope summary --charts` where they are",
					 c->var[i].name);
			else
				snprintf(ch->missing, sizeof(ch->missing),
					 "no trace was read for %s (--no-trace, or runs without "
					 "perf.data)",
					 c->var[i].name);
			return 0;
		}
	if (!err) {
		for (i = 0; i < c->nr_var; i++) {
			char lab[96];

			vlabel(c, i, lab, sizeof(lab));
			/* runs without a trace are in the tables, not in these charts: say so */
			if (cc->untraced[i])
				snprintf(lab + strlen(lab), sizeof(lab) - strlen(lab),
					 " (without %d untraced run%s)", cc->untraced[i],
					 cc->untraced[i] > 1 ? "s" : "");
			ts_plot_variant_label(cc->v[i], lab);
		}
		err = ts_plot_variants(cs, cc->v, (size_t)c->nr_var);
	}
	return err;
}

struct fill_ctx {
	struct cmp_charts *cc;
	const struct ts_cmp *c;
};

static int fill(struct ts_charts *cs, void *ctx)
{
	struct fill_ctx *f = ctx;

	return charts(f->cc, f->c, cs);
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(p);
}

int cmp_charts_write(struct cmp_charts *cc, const struct ts_cmp *c,
		     const struct ts_compare_report_opts *ro, const char *dir, const char *html)
{
	const char *t = getenv("TMPDIR");
	struct ts_charts cs = { .dir = dir };
	char tmp[4096];
	int ret;

	if (!dir) { /* --html alone: the charts are drawn in a folder removed afterwards */
		snprintf(tmp, sizeof(tmp), "%s/tickscope-charts-XXXXXX", t ? t : "/tmp");
		cs.dir = mkdtemp(tmp);
		if (!cs.dir)
			return cli_error("cannot create a temporary folder: %s", strerror(errno));
		cli_cleanup_dir(cs.dir); /* a Ctrl-C leaves none of it behind */
	} else if (mkdir(dir, 0777) && errno != EEXIST) {
		return cli_error("cannot create %s: %s", dir, strerror(errno));
	}
	ret = cli_charts_fill(&cs, fill, &(struct fill_ctx){ cc, c });
	if (ret < 0)
		ret = cli_error("writing chart data into %s: %s", cs.dir, ts_strerror(ret));
	ret = ret ?: cli_draw(&cs);
	if (!ret && html)
		ret = cmp_html(html, &cs, c, ro);
	if (!ret && dir)
		cli_plot_summary(stderr, &cs);
	if (!dir) {
		nftw(cs.dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
		cli_cleanup_dir(NULL);
	}
	ts_charts_release(&cs);
	return ret;
}
