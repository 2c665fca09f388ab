// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON writer the sections' writers (report/<section>.c) and the report's header use: keys,
 * numbers, nulls for what was not measured, distributions, symbols and a section's status.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "report_priv.h"

static void jstr(struct rp_json *w, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	fputc('"', w->f);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(w->f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(w->f, "\\u%04x", *p);
		else
			fputc(*p, w->f);
	}
	fputc('"', w->f);
}

/* Start a value: its key when in an object, else the comma an array needs. */
static void value(struct rp_json *w, const char *k)
{
	if (w->more[w->depth])
		fputc(',', w->f);
	w->more[w->depth] = 1;
	if (k) {
		jstr(w, k);
		fputc(':', w->f);
	}
}

void rp_jbegin(struct rp_json *w, const char *k, char open)
{
	value(w, k);
	fputc(open, w->f);
	if (w->depth < 63)
		w->depth++;
	w->more[w->depth] = 0;
}

void rp_jend(struct rp_json *w, char close)
{
	fputc(close, w->f);
	w->depth--;
}

void rp_ju64(struct rp_json *w, const char *k, uint64_t v)
{
	value(w, k);
	fprintf(w->f, "%" PRIu64, v);
}

void rp_ji64(struct rp_json *w, const char *k, int64_t v)
{
	value(w, k);
	fprintf(w->f, "%" PRId64, v);
}

void rp_jdbl(struct rp_json *w, const char *k, double v)
{
	value(w, k);
	fprintf(w->f, "%.6g", v);
}

void rp_jstr(struct rp_json *w, const char *k, const char *s)
{
	value(w, k);
	jstr(w, s);
}

void rp_jnull(struct rp_json *w, const char *k)
{
	value(w, k);
	fputs("null", w->f);
}

void rp_jrate(struct rp_json *w, const char *k, uint64_t n, double span)
{
	if (span > 0)
		rp_jdbl(w, k, (double)n / span);
	else
		rp_jnull(w, k);
}

void rp_jdist(struct rp_json *w, const char *k, const struct ts_hist *h)
{
	static const char *const names[] = { "min_ns", "p50_ns",  "p90_ns",
					     "p99_ns", "p999_ns", "max_ns" };
	struct rp_dist d;
	uint64_t v[6];
	unsigned int i;

	rp_dist(h, &d);
	v[0] = d.min;
	v[1] = d.p50;
	v[2] = d.p90;
	v[3] = d.p99;
	v[4] = d.p999;
	v[5] = d.max;
	rp_jbegin(w, k, '{');
	rp_ju64(w, "count", d.count);
	rp_ju64(w, "sum_ns", d.sum);
	for (i = 0; i < 6; i++) {
		if (d.count)
			rp_ju64(w, names[i], v[i]);
		else
			rp_jnull(w, names[i]);
	}
	rp_jbegin(w, "buckets", '[');
	for (i = ts_hist_first(h); i < ts_hist_end(h); i++) {
		if (!ts_hist_get(h, i))
			continue;
		rp_jbegin(w, NULL, '[');
		rp_ju64(w, NULL, i);
		rp_ju64(w, NULL, ts_hist_get(h, i));
		rp_jend(w, ']');
	}
	rp_jend(w, ']');
	rp_jend(w, '}');
}

void rp_jsym(struct rp_json *w, const char *k, const struct ts_report_opts *o, uint64_t addr)
{
	char buf[160];
	const char *name = rp_sym_name(o, addr);

	rp_ju64(w, "function_addr", addr);
	if (name)
		rp_jstr(w, k, rp_sym(o, addr, buf, sizeof(buf)));
	else
		rp_jnull(w, k);
}

int rp_jsection(struct rp_json *w, const struct ts_analysis *a, enum ts_section s)
{
	const struct ts_section_info *in = ts_analysis_section(a, s);
	const uint16_t *kinds;
	const uint8_t *req;
	int i, n = ts_analysis_section_kinds(s, &kinds, &req);
	enum ts_presence p;
	const char *name;
	uint64_t count;

	rp_jbegin(w, in->name, '{');
	rp_jstr(w, "status", rp_presence(in->presence, 0));
	if (!n && ts_analysis_section_other(a, s, 0, &name, &count) < 0) {
		rp_jnull(w, "events"); /* more tracepoints than the analysis keeps counts of */
		rp_jstr(w, "events_null_reason", "more than 64 tracepoints of no event kind");
	} else {
		rp_jbegin(w, "events", '[');
	}
	/* a section with no kinds of its own (probes): the tracepoints it took */
	for (i = 0; !n && ts_analysis_section_other(a, s, i, &name, &count) > 0; i++) {
		rp_jbegin(w, NULL, '{');
		rp_jstr(w, "name", name);
		rp_ju64(w, "required", 0);
		rp_jstr(w, "status", rp_presence(TS_PRESENT, 0));
		rp_ju64(w, "count", count);
		rp_jend(w, '}');
	}
	for (i = 0; i < n; i++) {
		p = ts_analysis_kind_presence(a, kinds[i]);
		rp_jbegin(w, NULL, '{');
		rp_jstr(w, "name", ts_analysis_kind_name(kinds[i]));
		rp_ju64(w, "required", req[i]);
		rp_jstr(w, "status", rp_presence(p, 0));
		rp_ju64(w, "count", ts_analysis_kind_count(a, kinds[i]));
		rp_jend(w, '}');
	}
	if (n || ts_analysis_section_other(a, s, 0, &name, &count) >= 0)
		rp_jend(w, ']');
	if (in->presence != TS_PRESENT)
		return 0;
	rp_ju64(w, "first_ns", in->first);
	rp_ju64(w, "last_ns", in->last);
	if (ts_analysis_lost_measured(a)) {
		rp_ju64(w, "lost_events", in->lost);
		rp_ju64(w, "lost_records", in->lost_records);
	} else {
		rp_jnull(w, "lost_events");
		rp_jnull(w, "lost_records");
	}
	return 1;
}

void rp_jper_cpu(struct rp_json *w, const char *k, const uint64_t *v, int n)
{
	int i;

	rp_jbegin(w, k, '{');
	for (i = 0; i < n; i++) {
		char c[16];

		if (!v[i])
			continue;
		snprintf(c, sizeof(c), "%d", i);
		rp_ju64(w, c, v[i]);
	}
	rp_jend(w, '}');
}
