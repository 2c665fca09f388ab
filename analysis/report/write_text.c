// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the sections' text writers (report/<section>.c) print with: the banner naming the events a
 * section needs, distribution rows and cells, the trace's span.
 */
#include <inttypes.h>
#include <string.h>

#include "report_priv.h"

/*
 * @n figures of distribution @d, in us (ms with @ms), each @w wide; "-" when @d holds nothing,
 * because an empty distribution (exits not recorded, no wakeups) is not a zero.
 */
void rp_cells(FILE *f, const struct rp_dist *d, int w, int ms, int n, const uint64_t *v)
{
	int i;

	for (i = 0; i < n; i++) {
		if (!d->count)
			fprintf(f, " %*s", w, "-");
		else if (ms)
			fprintf(f, " %*.3f", w, MS(v[i]));
		else
			fprintf(f, " %*.1f", w, US(v[i]));
	}
}

void rp_rate(FILE *f, int w, int prec, uint64_t n, double span)
{
	if (span > 0)
		fprintf(f, "%*.*f", w, prec, (double)n / span);
	else
		fprintf(f, "%*s", w, "-");
}

double rp_span_s(const struct ts_analysis *a)
{
	uint64_t first, last;

	ts_analysis_range(a, &first, &last);
	return last > first ? (double)(last - first) / 1e9 : 0;
}

int rp_banner(FILE *f, const struct ts_analysis *a, enum ts_section s)
{
	const struct ts_section_info *in = ts_analysis_section(a, s);
	const uint16_t *kinds;
	const uint8_t *req;
	int i, n = ts_analysis_section_kinds(s, &kinds, &req);
	enum ts_presence p;
	const char *name;
	uint64_t count;

	fprintf(f, "\n== %s ==", in->name);
	if (in->presence != TS_PRESENT)
		fprintf(f, " %s", rp_presence(in->presence, 1));
	fprintf(f, "\n  events:");
	/* a section with no kinds of its own (probes): the tracepoints it took */
	for (i = 0; !n && ts_analysis_section_other(a, s, i, &name, &count) > 0; i++)
		fprintf(f, "%s %s %" PRIu64, i ? "," : "",
			strchr(name, ':') ? strchr(name, ':') + 1 : name, count);
	if (!n && ts_analysis_section_other(a, s, 0, &name, &count) < 0)
		fprintf(f, " - (more than 64 tracepoints of no event kind)");
	for (i = 0; i < n; i++) {
		p = ts_analysis_kind_presence(a, kinds[i]);
		fprintf(f, "%s %s%s", i ? "," : "",
			strchr(ts_analysis_kind_name(kinds[i]), ':') + 1, req[i] ? "*" : "");
		if (p == TS_PRESENT)
			fprintf(f, " %" PRIu64, ts_analysis_kind_count(a, kinds[i]));
		else
			fprintf(f, " (%s)", rp_presence(p, 1));
	}
	fprintf(f, "\n");
	if (in->presence == TS_PRESENT && in->lost)
		fprintf(f, "  WARNING: %" PRIu64 " events lost inside this section's time range\n",
			in->lost);
	return in->presence == TS_PRESENT;
}

void rp_dist_row(FILE *f, const char *name, const struct ts_hist *h)
{
	struct rp_dist d;

	rp_dist(h, &d);
	if (!d.count) {
		fprintf(f, "  %-22s %9s\n", name, "0");
		return;
	}
	fprintf(f, "  %-22s %9" PRIu64 " %11.3f %9.1f %9.1f %9.1f %9.1f %9.1f %9.1f\n", name,
		d.count, MS(d.sum), US(d.min), US(d.p50), US(d.p90), US(d.p99), US(d.p999),
		US(d.max));
}

void rp_dist_head(FILE *f, const char *what)
{
	fprintf(f, "  %-22s %9s %11s %9s %9s %9s %9s %9s %9s\n", what, "count", "total ms",
		"min us", "p50 us", "p90 us", "p99 us", "p99.9 us", "max us");
}
