// SPDX-License-Identifier: GPL-2.0-only
/*
 * The TSV tables of a comparison (docs/compare-tsv.md): runs.tsv, metrics.tsv,
 * decomposition.tsv, changes.tsv and confounders.tsv, one header row each; `-` is unmeasured.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tickscope/escape.h"
#include "common/io.h"
#include "tickscope/compare_report.h"
#include "tickscope/stats.h"

#define METRICS_HEAD                                                                    \
	"metric\tunit\tdirection\tfamily\tvariant\tn\tmedian\tmean\tsd\tcv\tchange_pct" \
	"\traw\tci_lo_pct\tci_hi_pct\tp\tp_adjusted\tsignificant\tnoisy\toutliers"
#define DECOMP_HEAD "variant\tkind\tcomponent\tmetric\ta_us\tb_us\tdelta_us\tshare_pct"
#define CHANGES_HEAD "variant\trank\tmetric\tunit\tshare_pct\tchange_pct\tp_adjusted"
#define CONF_HEAD "confounder"

static const struct {
	const char *name, *head;
} tables[] = {
	{ "runs.tsv", TS_COMPARE_TSV_MARK },	   { "metrics.tsv", METRICS_HEAD "\n" },
	{ "decomposition.tsv", DECOMP_HEAD "\n" }, { "changes.tsv", CHANGES_HEAD "\n" },
	{ "confounders.tsv", CONF_HEAD "\n" },
};

/* @dir/@name with its header row @head (its '\n' included) */
static FILE *open_tsv(const char *dir, const char *name, const char *head)
{
	char *path;
	FILE *f;
	int err = 0;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return NULL;
	/* a file of this name that is not this table (another header) is not replaced */
	f = ts_fopen_table(path, NULL, head, &err);
	if (!f)
		errno = -err; /* the callers return -errno (TS_EOUTLINK for a link) */
	free(path);
	return f;
}

static int close_tsv(FILE *f)
{
	return ts_fclose_err(f);
}

static void num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("\t-", f);
	else
		fprintf(f, "\t%.10g", v);
}

/* A p-value: below TS_STATS_P_FLOOR, the floor, an upper bound (compare_json.c's key_p()). */
static void num_p(FILE *f, double p)
{
	num(f, p < TS_STATS_P_FLOOR ? TS_STATS_P_FLOOR : p);
}

static int runs_tsv(const char *dir, const struct ts_cmp *c)
{
	FILE *f = open_tsv(dir, "runs.tsv", TS_COMPARE_TSV_MARK);

	if (!f)
		return -errno;
	for (int i = 0; i < c->nr_rows; i++)
		for (int v = 0; v < c->nr_var; v++)
			for (int r = 0; r < c->var[v].nr_runs; r++) {
				ts_escape_put(f, c->var[v].name);
				fprintf(f, "\t%d\t", r + 1);
				ts_escape_put(f, c->var[v].runs[r].label);
				fprintf(f, "\t%s\t%s", c->rows[i].name, c->rows[i].unit);
				num(f, c->rows[i].cell[v].values[r]);
				fputc('\n', f);
			}
	return close_tsv(f);
}

static int metrics_tsv(const char *dir, const struct ts_cmp *c)
{
	static const char *const dirs[] = { "neutral", "lower", "higher" };
	static const char *const fams[] = { "result", "bench", "task", "trace" };
	FILE *f = open_tsv(dir, "metrics.tsv", METRICS_HEAD "\n");

	if (!f)
		return -errno;
	for (int i = 0; i < c->nr_rows; i++)
		for (int v = 0; v < c->nr_var; v++) {
			const struct ts_cmp_row *r = &c->rows[i];
			const struct ts_cmp_cell *x = &r->cell[v];

			fprintf(f, "%s\t%s\t%s\t%s\t", r->name, r->unit, dirs[r->dir],
				fams[r->family]);
			ts_escape_put(f, c->var[v].name);
			fprintf(f, "\t%d", x->s.n);
			num(f, x->s.median);
			num(f, x->s.mean);
			num(f, x->s.sd);
			num(f, x->s.cv);
			num(f, x->change);
			num(f, x->raw);
			num(f, x->ci_lo);
			num(f, x->ci_hi);
			num_p(f, x->p);
			num_p(f, x->p_adj);
			fprintf(f, "\t%s\t%d\t%d\n", v ? (x->significant ? "1" : "0") : "-",
				x->noisy, x->nr_outliers);
		}
	return close_tsv(f);
}

static int explain_tsv(const char *dir, const struct ts_cmp *c)
{
	FILE *d = open_tsv(dir, "decomposition.tsv", DECOMP_HEAD "\n");
	FILE *k = open_tsv(dir, "changes.tsv", CHANGES_HEAD "\n");
	int err;

	if (!d || !k) {
		err = -errno;
		if (d)
			fclose(d);
		if (k)
			fclose(k);
		return err;
	}
	for (int v = 1; v < c->nr_var; v++) {
		const struct ts_cmp_decomp *x = &c->dec[v];

		for (int i = 0; x->kind && i < x->nr; i++) {
			ts_escape_put(d, c->var[v].name);
			fprintf(d, "\t%s\t%s\t%s", x->kind, x->part[i].label,
				x->part[i].metric ? x->part[i].metric : "-");
			num(d, x->part[i].a);
			num(d, x->part[i].b);
			num(d, x->part[i].delta);
			num(d, x->part[i].share);
			fputc('\n', d);
		}
		for (int i = 0; i < c->nr_changes[v]; i++) {
			const struct ts_cmp_change *ch = &c->changes[v][i];

			ts_escape_put(k, c->var[v].name);
			fprintf(k, "\t%d\t%s\t%s", i + 1, ch->row->name, ch->row->unit);
			num(k, ch->share);
			num(k, ch->change);
			num_p(k, ch->p_adj);
			fputc('\n', k);
		}
	}
	err = close_tsv(d);
	return close_tsv(k) ?: err;
}

/* Every table's file, before the first is written: a refused one left those before it. */
static int check_all(const char *dir, char *bad, size_t len)
{
	char path[4096];
	int err = 0;

	for (size_t i = 0; !err && i < sizeof(tables) / sizeof(tables[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, tables[i].name);
		err = ts_out_check(path, NULL, tables[i].head);
		if (err && len)
			snprintf(bad, len, "%s", path);
	}
	return err;
}

int ts_compare_tsv(const char *dir, const struct ts_cmp *c, char *bad, size_t len)
{
	FILE *f;
	int err;

	if (len)
		bad[0] = '\0';
	if (mkdir(dir, 0777) && errno != EEXIST)
		return -errno;
	err = check_all(dir, bad, len);
	if (err)
		return err;
	err = runs_tsv(dir, c);
	err = err ?: metrics_tsv(dir, c);
	err = err ?: explain_tsv(dir, c);
	if (err)
		return err;
	f = open_tsv(dir, "confounders.tsv", CONF_HEAD "\n");
	if (!f)
		return -errno;
	for (int i = 0; i < c->nr_conf; i++) {
		ts_escape_put(f, c->conf[i].text);
		fputc('\n', f);
	}
	return close_tsv(f);
}
