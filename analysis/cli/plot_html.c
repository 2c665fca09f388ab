// SPDX-License-Identifier: GPL-2.0-only
/*
 * tickscope plot --html: one self-contained page for one run: the recording's conditions and
 * warnings, every chart inlined as SVG (or what to record for it), and the text report.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/io.h"
#include "tickscope/analysis.h"
#include "tickscope/chart.h"
#include "tickscope/error.h"
#include "tickscope/html.h"
#include "tickscope/report.h"
#include "tickscope/source.h"

#define NR_COND 10

/* The recording's conditions as name/value pairs, into @buf (NR_COND rows of 128 bytes). */
static size_t conditions(const struct ts_report_opts *o, const struct ts_analysis *a,
			 char (*buf)[128], const char **kv)
{
	const struct ts_file_info *in = o->info;
	uint64_t first, last, lost, recs;
	size_t n = 0;

	ts_analysis_range(a, &first, &last);
	ts_analysis_lost(a, &lost, &recs);
#define ROW(name, ...)                                         \
	do {                                                   \
		snprintf(buf[n], sizeof(buf[n]), __VA_ARGS__); \
		kv[2 * n] = name;                              \
		kv[2 * n + 1] = buf[n];                        \
		n++;                                           \
	} while (0)
	ROW("input", "%s", o->input ? o->input : "-");
	if (in) {
		ROW("host", "%s", in->hostname[0] ? in->hostname : "-");
		ROW("kernel", "%.90s (%.30s)", in->osrelease[0] ? in->osrelease : "-",
		    in->arch[0] ? in->arch : "-");
		ROW("CPUs", "%u online of %u", in->nr_cpus_online, in->nr_cpus_avail);
		ROW("perf", "%s", in->version[0] ? in->version : "-");
		ROW("command", "%.120s", in->cmdline ? in->cmdline : "-");
		ROW("samples", "%" PRIu64, in->nr_samples);
	}
	ROW("span", "%.3f s", last > first ? (double)(last - first) / 1e9 : 0.0);
	ROW("lost events", "%" PRIu64 " in %" PRIu64 " LOST records", lost, recs);
	ROW("symbols", "%s", o->kallsyms ? o->kallsyms : "none: raw addresses");
#undef ROW
	return n;
}

static char *text_report(const struct ts_analysis *a, const struct ts_report_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	ts_report_text(f, a, o);
	fclose(f);
	return buf;
}

static void warnings(FILE *f, const struct ts_analysis *a, const struct ts_charts *cs)
{
	uint64_t lost, recs;
	char msg[256];
	size_t i, missing = 0;

	ts_analysis_lost(a, &lost, &recs);
	if (lost) {
		snprintf(msg, sizeof(msg),
			 "%" PRIu64 " events were lost: figures near the loss are incomplete "
			 "(record with a bigger buffer, perf record -m).",
			 lost);
		ts_html_para(f, "warn", msg);
	}
	for (i = 0; i < cs->nr; i++)
		missing += cs->c[i].missing[0] != 0;
	if (missing) {
		snprintf(msg, sizeof(msg),
			 "%zu chart%s not drawn: each says which events to record.", missing,
			 missing == 1 ? " was" : "s were");
		ts_html_para(f, "note", msg);
	}
}

static int page(FILE *f, const struct ts_charts *cs, const struct ts_analysis *a,
		const struct ts_report_opts *o)
{
	char(*buf)[128] = calloc(NR_COND, sizeof(*buf));
	const char *kv[2 * NR_COND];
	char *text = text_report(a, o);
	size_t i, n;
	int ret = 0;

	if (!buf || !text) {
		free(buf);
		free(text);
		return -ENOMEM;
	}
	n = conditions(o, a, buf, kv);
	ts_html_begin(f, "tickscope: one run", o->input);
	fputs("<nav><a href=\"#conditions\">Recording</a><a href=\"#charts\">Charts</a>"
	      "<a href=\"#report\">Report</a></nav>\n",
	      f);
	ts_html_section(f, "conditions", "Recording conditions");
	ts_html_kv(f, NULL, kv, n);
	warnings(f, a, cs);
	ts_html_section(f, "charts", "Charts");
	for (i = 0; i < cs->nr && !ret; i++)
		ret = ts_html_chart(f, cs->dir, &cs->c[i], (int)i);
	ts_html_section(f, "report", "Report");
	ts_html_pre(f, text);
	if (!ret)
		ret = ts_html_end(f);
	free(buf);
	free(text);
	return ret;
}

int cli_plot_html(const char *path, const struct ts_charts *cs, const struct ts_analysis *a,
		  const struct ts_report_opts *o)
{
	struct cli_page pg;
	FILE *f = cli_page_open(path, &pg);
	int ret;

	if (!f)
		return 1;
	ret = cli_page_close(f, &pg, page(f, cs, a, o));
	if (ret)
		return cli_error("writing %s: %s", path, ts_strerror(ret));
	return 0;
}
