// SPDX-License-Identifier: GPL-2.0-only
/*
 * tickscope plot A.data B.data ...: each file one variant of one run, drawn side by side
 * (A against B CDFs, idle exits, timers, work, stacks), and --html's page for them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/io.h"
#include "jobs.h"
#include "tickscope/analysis.h"
#include "tickscope/chart.h"
#include "tickscope/error.h"
#include "tickscope/html.h"
#include "tickscope/report.h"
#include "tickscope/source.h"

/* One line of the recording conditions table per run. */
struct run_facts {
	char input[128], kernel[160], cpus[32], samples[32], lost[48], command[160];
};

static int feed(void *ctx, const struct ts_event *ev, const struct ts_sample *s)
{
	return ts_analysis_feed(ctx, ev);
}

static void facts(struct run_facts *f, const char *path, const struct ts_report_opts *o,
		  const struct ts_analysis *a)
{
	const struct ts_file_info *in = o->info;
	uint64_t lost, recs;

	ts_analysis_lost(a, &lost, &recs);
	snprintf(f->input, sizeof(f->input), "%s", path);
	snprintf(f->lost, sizeof(f->lost), "%" PRIu64, lost);
	if (!in)
		return;
	snprintf(f->kernel, sizeof(f->kernel), "%.120s (%.30s)", in->osrelease, in->arch);
	snprintf(f->cpus, sizeof(f->cpus), "%u", in->nr_cpus_online);
	snprintf(f->samples, sizeof(f->samples), "%" PRIu64, in->nr_samples);
	snprintf(f->command, sizeof(f->command), "%.150s", in->cmdline ? in->cmdline : "-");
}

/* Analyse @path and fold it into @v; prints one line on failure. */
static int load(const char *path, const struct ts_source_opts *so0,
		const struct ts_analysis_opts *ao, const char *comm, struct ts_plot_variant *v,
		struct run_facts *f)
{
	struct ts_source_opts so = *so0;
	struct ts_report_opts o = { 0 };
	struct ts_source *src = NULL;
	struct ts_analysis *a = NULL;
	int err;

	so.input = path;
	err = ts_analysis_new(&a, ao);
	if (err)
		return cli_error("%s", ts_strerror(err));
	err = ts_source_open(&src, &so);
	if (!err) {
		ts_source_note_recorded(src, a);
		err = ts_source_run(src, feed, a);
	}
	if (err) {
		cli_error("%s", src ? ts_source_error(src) : ts_strerror(err));
	} else {
		ts_source_report_opts(src, &o);
		err = cli_finish(src, a) ?: ts_plot_variant_add(v, a, &o, comm);
		if (err)
			cli_error("%s: %s", path, ts_strerror(err));
		else
			facts(f, path, &o, a);
	}
	ts_source_close(src);
	ts_analysis_free(a);
	return err ? 1 : 0;
}

/* plot A.data B.data ...: every file's job, for cli_jobs(). */
struct plot_jobs {
	char **files;
	const struct ts_source_opts *so;
	const struct ts_analysis_opts *ao;
	const char *comm;
	struct ts_plot_variant **v;
	struct run_facts *f;
};

static int load_one(void *ctx, int i)
{
	struct plot_jobs *j = ctx;

	return load(j->files[i], j->so, j->ao, j->comm, j->v[i], &j->f[i]);
}

static void facts_table(FILE *h, const struct run_facts *f, int n)
{
	static const char *const head[] = { "run",     "kernel",      "CPUs",
					    "samples", "lost events", "command" };
	int i;
	size_t k;

	fputs("<table class=\"runs\"><tr>", h);
	for (k = 0; k < sizeof(head) / sizeof(head[0]); k++)
		fprintf(h, "<th>%s</th>", head[k]);
	fputs("</tr>\n", h);
	for (i = 0; i < n; i++) {
		const char *cell[] = { f[i].input,   f[i].kernel, f[i].cpus,
				       f[i].samples, f[i].lost,	  f[i].command };

		fputs("<tr>", h);
		for (k = 0; k < sizeof(cell) / sizeof(cell[0]); k++) {
			const char *buf = cell[k][0] ? cell[k] : "-";

			fputs("<td>", h);
			ts_html_text(h, buf);
			fputs("</td>", h);
		}
		fputs("</tr>\n", h);
	}
	fputs("</table>\n", h);
}

static int page(const char *path, const struct ts_charts *cs, const struct run_facts *f, int n)
{
	FILE *h = fopen(path, "w");
	size_t i;
	int ret = 0;

	if (!h)
		return cli_error("cannot write %s: %s", path, strerror(errno));
	ts_html_begin(h, "tickscope: runs side by side", f[0].input);
	ts_html_section(h, "conditions", "Recording conditions");
	facts_table(h, f, n);
	ts_html_section(h, "charts", "Charts");
	for (i = 0; i < cs->nr && !ret; i++)
		ret = ts_html_chart(h, cs->dir, &cs->c[i], (int)i);
	if (!ret)
		ret = ts_html_end(h);
	if (!ret)
		ret = ts_fclose_err(h);
	else
		fclose(h);
	return ret ? cli_error("writing %s: %s", path, ts_strerror(ret)) : 0;
}

struct fill_ctx {
	struct ts_plot_variant *const *v;
	size_t nr;
};

static int fill(struct ts_charts *cs, void *ctx)
{
	struct fill_ctx *f = ctx;

	return ts_plot_variants(cs, f->v, f->nr);
}

int cli_plot_variants(char **files, int n, const struct ts_source_opts *so,
		      const struct ts_analysis_opts *ao, const char *comm, const char *dir,
		      const struct ts_out_keep *keep, const char *html)
{
	struct ts_plot_variant *v[TS_PLOT_MAX_VARIANTS] = { 0 };
	struct run_facts *f = calloc((size_t)n, sizeof(*f));
	struct ts_charts cs = { .dir = dir, .keep = keep };
	int i, ret = 0;

	if (n > TS_PLOT_MAX_VARIANTS || !f) {
		free(f);
		return cli_error("plot: at most %d files side by side", TS_PLOT_MAX_VARIANTS);
	}
	for (i = 0; i < n && !ret; i++) {
		const char *base = strrchr(files[i], '/');
		char label[96];

		snprintf(label, sizeof(label), "%c: %s", 'A' + i, base ? base + 1 : files[i]);
		ret = ts_plot_variant_new(&v[i], label) ? cli_error("out of memory") : 0;
	}
	if (!ret) { /* one worker per core, each file its own variant: the serial result */
		struct ts_source_opts one = *so;
		struct plot_jobs j = { files, &one, ao, comm, v, f };
		int workers = cli_jobs_workers(0, n);

		one.threaded = one.threaded && workers == 1; /* the cores are the workers' */
		ret = workers < 0 ? 1 : cli_jobs(n, workers, load_one, &j);
	}
	if (!ret && (ret = cli_charts_fill(&cs, fill, &(struct fill_ctx){ v, (size_t)n })) < 0)
		ret = cli_error("writing chart data into %s: %s", dir, ts_strerror(ret));
	if (!ret)
		ret = cli_draw(&cs);
	if (!ret && html)
		ret = page(html, &cs, f, n);
	if (!ret)
		cli_plot_summary(stdout, &cs);
	for (i = 0; i < n; i++)
		ts_plot_variant_free(v[i]);
	ts_charts_release(&cs);
	free(f);
	return ret ? 1 : 0;
}
