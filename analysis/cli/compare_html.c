// SPDX-License-Identifier: GPL-2.0-only
/*
 * tickscope compare --html FILE: one self-contained page: the headline (the benchmark's
 * change, its components and the kernel mechanisms) and the decomposition's waterfall first,
 * the kernel differences, the confounders, every chart inlined as SVG (or what to record for
 * it), then folded: the full text, the compare tables and every run's recording conditions.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/io.h"
#include "compare_charts.h"
#include "tickscope/error.h"
#include "tickscope/html.h"

static char *text_of(const struct ts_cmp *c, const struct ts_compare_report_opts *ro)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	ts_compare_text(f, c, ro);
	fclose(f);
	return buf;
}

static void confounders(FILE *h, const struct ts_cmp *c)
{
	int i;

	if (!c->nr_conf) {
		ts_html_para(h, "note", "No confounder found: the variants were recorded alike.");
		return;
	}
	for (i = 0; i < c->nr_conf; i++)
		ts_html_para(h, "warn", c->conf[i].text);
}

/*
 * What differs in the kernels themselves, from the configs and the traces: the notes (the
 * preemption model, task classes in one variant only) and each variant's wakers that woke
 * in one kernel only or changed significantly.
 */
static void kernel_differences(FILE *h, const struct ts_cmp *c)
{
	char text[640];
	int any = 0;

	for (int i = 0; i < c->nr_notes; i++, any = 1)
		ts_html_para(h, "note", c->notes[i].text);
	for (int v = 1; v < c->nr_var; v++)
		for (int i = 0; i < c->nr_wakes[v]; i++) {
			const struct ts_cmp_wake *w = &c->wakes[v][i];

			if (!w->only && !w->significant)
				continue;
			int n = snprintf(text, sizeof(text),
					 "%s vs %s, wakes of %s: %s %.3g%% -> %.3g%%",
					 c->var[v].name, c->var[0].name, w->scope, w->w.cls, w->w.a,
					 w->w.b);

			if (w->only && n > 0 && (size_t)n < sizeof(text))
				snprintf(text + n, sizeof(text) - n,
					 " (in every run of %s only)%s%s",
					 c->var[w->only > 0 ? v : 0].name, *w->hint ? ": " : "",
					 w->hint);
			ts_html_para(h, "note", text);
			any = 1;
		}
	if (!any)
		ts_html_para(h, "note",
			     "The traces and configs show no difference in the kernels' "
			     "threads, preemption model or wakers.");
}

/* Every run's recording facts, a row per run. */
static void conditions(FILE *h, const struct ts_cmp *c)
{
	int v, r, f;

	fputs("<table class=\"runs\"><tr><th>variant</th><th>run</th>", h);
	for (f = 0; f < TS_FACT_NR; f++) {
		fputs("<th>", h);
		ts_html_text(h, ts_cmp_fact_name(f));
		fputs("</th>", h);
	}
	fputs("<th>lost events</th></tr>\n", h);
	for (v = 0; v < c->nr_var; v++)
		for (r = 0; r < c->var[v].nr_runs; r++) {
			const struct ts_run *run = &c->var[v].runs[r];
			char lost[32];

			fputs("<tr><td>", h);
			ts_html_text(h, c->var[v].name);
			fputs("</td><td>", h);
			ts_html_text(h, run->label);
			fputs("</td>", h);
			for (f = 0; f < TS_FACT_NR; f++) {
				fputs("<td>", h);
				ts_html_text(h, run->fact[f] ? run->fact[f] : "-");
				fputs("</td>", h);
			}
			snprintf(lost, sizeof(lost), isnan(run->lost) ? "-" : "%.0f", run->lost);
			fprintf(h, "<td class=\"n\">%s</td></tr>\n", lost);
		}
	fputs("</table>\n", h);
}

static void cell(FILE *h, const char *cls, const char *text)
{
	fprintf(h, "<td%s>", cls ? cls : "");
	ts_html_text(h, text);
	fputs("</td>", h);
}

/*
 * Row @r of variant @v against the baseline as the text says it: in kernel words, the medians
 * in the text's units, the change in words (a share's in percentage points), the p-value.
 */
static void metric_row(FILE *h, const struct ts_cmp *c, const struct ts_cmp_row *r, int v,
		       const char *rank, double share)
{
	double ref = fmax(fabs(r->cell[0].s.median), fabs(r->cell[v].s.median));
	char w[400], a[48], b[48], e[48], p[32], sh[32];
	const char *n = " class=\"n\"";

	fputs("<tr>", h);
	if (rank)
		cell(h, n, rank);
	cell(h, NULL, c->var[v].name);
	cell(h, NULL, ts_cmp_metric_words(r->name, w, sizeof(w)));
	cell(h, n, ts_compare_value_words(a, sizeof(a), r->cell[0].s.median, r->unit, ref));
	cell(h, n, ts_compare_value_words(b, sizeof(b), r->cell[v].s.median, r->unit, ref));
	cell(h, NULL,
	     r->cell[v].significant ? ts_compare_change_words(e, sizeof(e), r, v) :
				      "~ not significant");
	snprintf(p, sizeof(p), isfinite(r->cell[v].p_adj) ? "%.2g" : "-", r->cell[v].p_adj);
	cell(h, n, p);
	if (rank) {
		snprintf(sh, sizeof(sh), share > 0 && share <= 100 ? "%.0f%%" : "-", share);
		cell(h, n, sh);
	}
	fputs("</tr>\n", h);
}

static void table_head(FILE *h, const char *caption, int ranked)
{
	fputs("<table class=\"tsv\"><caption>", h);
	ts_html_text(h, caption);
	fprintf(h,
		"</caption>\n<tr>%s<th>variant</th><th>what</th><th>baseline</th><th>variant's"
		"</th><th>change</th><th>p (adjusted)</th>%s</tr>\n",
		ranked ? "<th>rank</th>" : "",
		ranked ? "<th>share of the benchmark's change</th>" : "");
}

/* The ranked changes and the significant metrics, in the text's words, units and figures. */
static void word_tables(FILE *h, const struct ts_cmp *c)
{
	char rank[16];

	table_head(h, "What changed, ranked (medians of the runs)", 1);
	for (int v = 1; v < c->nr_var; v++)
		for (int i = 0; i < c->nr_changes[v]; i++) {
			snprintf(rank, sizeof(rank), "%d", i + 1);
			metric_row(h, c, c->changes[v][i].row, v, rank, c->changes[v][i].share);
		}
	fputs("</table>\n", h);
	table_head(h,
		   "Every metric compared that changed significantly (medians of the runs; "
		   "the JSON and TSV have them all, by name)",
		   0);
	for (int i = 0; i < c->nr_rows; i++)
		for (int v = 1; v < c->nr_var; v++)
			if (c->rows[i].cell[v].significant)
				metric_row(h, c, &c->rows[i], v, NULL, NAN);
	fputs("</table>\n", h);
}

static void part_row(FILE *h, const struct ts_cmp *c, int v, const struct ts_cmp_part *p, int *odd)
{
	char a[48], b[48], d[48], s[32];
	const char *n = " class=\"n\"";

	fputs("<tr>", h);
	cell(h, NULL, c->var[v].name);
	cell(h, NULL, p->label);
	cell(h, n, ts_compare_value_words(a, sizeof(a), p->a, "µs/op", 0));
	cell(h, n, ts_compare_value_words(b, sizeof(b), p->b, "µs/op", 0));
	cell(h, n, ts_compare_value_words(d, sizeof(d), p->delta, "µs/op", 0));
	cell(h, n, ts_compare_share_words(s, sizeof(s), p->share, odd));
	fputs("</tr>\n", h);
}

/* The decomposition as the text's table: the same parts, units, figures and share words. */
static void decomp_table(FILE *h, const struct ts_cmp *c)
{
	int odd = 0;

	fputs("<table class=\"tsv\"><caption>The decomposition of the benchmark's change "
	      "(medians of the runs)</caption>\n<tr><th>variant</th><th>component</th>"
	      "<th>baseline</th><th>variant's</th><th>change</th><th>share</th></tr>\n",
	      h);
	for (int v = 1; v < c->nr_var; v++) {
		const struct ts_cmp_decomp *d = &c->dec[v];
		struct ts_cmp_part total = { "total", NULL, d->a, d->b, d->delta, 100 };

		for (int i = 0; d->kind && i < d->nr; i++)
			part_row(h, c, v, &d->part[i], &odd);
		for (int i = 0; d->kind && i < d->nr_detail; i++)
			part_row(h, c, v, &d->detail[i], &odd);
		if (d->kind)
			part_row(h, c, v, &total, &odd);
	}
	fputs("</table>\n", h);
	if (odd)
		ts_html_para(h, "note",
			     "share: \"against\" moved the other way from the change; \"more\" "
			     "moved more than the whole change, other parts moving against it.");
}

/* The decomposition, the ranked changes and the metrics, as the text says them. */
static int tables(FILE *h, const struct ts_cmp *c)
{
	decomp_table(h, c);
	word_tables(h, c);
	return ts_stream_err(h);
}

/* Every variant's headline, as the text prints it (the same figures and units). */
static void headlines(FILE *h, const struct ts_cmp *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	for (int v = 1; v < c->nr_var; v++)
		for (int i = 0; i < c->head[v].nr_lines; i++)
			fprintf(f, "%s%s\n", v > 1 && !i ? "\n" : "", c->head[v].line[i]);
	fclose(f);
	ts_html_pre(h, buf ? buf : "");
	free(buf);
}

/* The waterfalls ("explain*") first, then the other charts; Return: 0 or an error. */
static int charts_html(FILE *h, const struct ts_charts *cs, int waterfalls)
{
	int err = 0;

	for (size_t i = 0; i < cs->nr && !err; i++)
		if ((strncmp(cs->c[i].name, "explain", 7) == 0) == waterfalls)
			err = ts_html_chart(h, cs->dir, &cs->c[i], (int)i);
	return err;
}

static void folded(FILE *h, const char *id, const char *summary)
{
	fprintf(h, "<details id=\"%s\"><summary>", id);
	ts_html_text(h, summary);
	fputs("</summary>\n", h);
}

/*
 * The headline and the decomposition's waterfall first, then the kernel differences, the
 * confounders and the mechanism charts; the full text, the tables and the recording
 * conditions folded under <details>.
 */
static int page(FILE *h, const struct ts_charts *cs, const struct ts_cmp *c,
		const struct ts_compare_report_opts *ro)
{
	char *text = text_of(c, ro), title[256];
	int err = 0, v;

	if (!text)
		return -ENOMEM;
	snprintf(title, sizeof(title), "tickscope compare: %s", c->var[0].name);
	for (v = 1; v < c->nr_var; v++)
		snprintf(title + strlen(title), sizeof(title) - strlen(title), " vs %s",
			 c->var[v].name);
	ts_html_begin(h, title, "kernel variants, N runs each: the benchmark's change and why");
	ts_html_section(h, "headline", "Headline: the change and the kernel mechanisms behind it");
	headlines(h, c);
	err = charts_html(h, cs, 1);
	fputs("<nav><a href=\"#kernels\">Kernels</a><a href=\"#confounders\">Confounders</a>"
	      "<a href=\"#charts\">Charts</a><a href=\"#summary\">Full text</a>"
	      "<a href=\"#tables\">Tables</a><a href=\"#conditions\">Recording</a></nav>\n",
	      h);
	ts_html_section(h, "kernels", "Kernel differences seen in the configs and the traces");
	kernel_differences(h, c);
	ts_html_section(h, "confounders", "Confounders");
	confounders(h, c);
	ts_html_section(h, "charts", "Charts");
	err = err ?: charts_html(h, cs, 0);
	folded(h, "summary", "The full text report");
	ts_html_pre(h, text);
	fputs("</details>\n", h);
	folded(h, "tables", "Tables: decomposition, ranked changes, every metric");
	err = err ?: tables(h, c);
	fputs("</details>\n", h);
	folded(h, "conditions", "Recording conditions of every run");
	fputs("<div style=\"overflow-x:auto\">", h);
	conditions(h, c);
	fputs("</div></details>\n", h);
	free(text);
	return err ?: ts_html_end(h);
}

int cmp_html(const char *path, const struct ts_charts *cs, const struct ts_cmp *c,
	     const struct ts_compare_report_opts *ro)
{
	struct cli_page pg;
	FILE *h = cli_page_open(path, &pg);
	int err;

	if (!h)
		return 1;
	err = cli_page_close(h, &pg, page(h, cs, c, ro));
	return err ? cli_error("writing %s: %s", path, ts_strerror(err)) : 0;
}
