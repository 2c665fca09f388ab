// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON report: one document, "schema": "tickscope-report", "version": 1, described in
 * docs/report-json.md. A section without its events carries its status and no figures.
 */
#include <errno.h>
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

	rp_jbegin(w, in->name, '{');
	rp_jstr(w, "status", rp_presence(in->presence, 0));
	rp_jbegin(w, "events", '[');
	for (i = 0; i < n; i++) {
		p = ts_analysis_kind_presence(a, kinds[i]);
		rp_jbegin(w, NULL, '{');
		rp_jstr(w, "name", ts_analysis_kind_name(kinds[i]));
		rp_ju64(w, "required", req[i]);
		rp_jstr(w, "status", rp_presence(p, 0));
		rp_ju64(w, "count", ts_analysis_kind_count(a, kinds[i]));
		rp_jend(w, '}');
	}
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

/* The run's meta.txt beside the input, or null. */
static void run_json(struct rp_json *w, const struct ts_run_meta *r)
{
	if (!r) {
		rp_jnull(w, "run");
		return;
	}
	rp_jbegin(w, "run", '{');
	rp_jstr(w, "board", r->board);
	rp_jstr(w, "variant", r->variant);
	rp_jstr(w, "workload", r->workload);
	rp_ju64(w, "run", (uint64_t)r->run);
	rp_ju64(w, "runs", (uint64_t)r->runs);
	if (r->pinned < 0)
		rp_jnull(w, "pinned");
	else
		rp_jstr(w, "pinned", r->pinned ? "yes" : "no");
	rp_jstr(w, "pin", r->pin);
	if (r->result[0]) {
		rp_jstr(w, "result", r->result);
		rp_jstr(w, "result_unit", r->result_unit);
	} else {
		rp_jnull(w, "result");
		rp_jnull(w, "result_unit");
	}
	rp_jend(w, '}');
}

static void input_json(struct rp_json *w, const struct ts_analysis *a,
		       const struct ts_report_opts *o)
{
	const struct ts_file_info *in = o->info;
	uint64_t first, last, lost, recs;

	rp_jbegin(w, "input", '{');
	rp_jstr(w, "path", o->input ? o->input : "");
	if (in) {
		rp_jstr(w, "hostname", in->hostname);
		rp_jstr(w, "osrelease", in->osrelease);
		rp_jstr(w, "arch", in->arch);
		rp_jstr(w, "perf_version", in->version);
		rp_ju64(w, "nr_cpus_online", in->nr_cpus_online);
		rp_ju64(w, "samples", in->nr_samples);
		rp_jstr(w, "pipe", in->kind == TS_INPUT_PIPE ? "yes" : "no");
		if (in->cut_at)
			rp_ju64(w, "cut_at_offset", in->cut_at);
		else
			rp_jnull(w, "cut_at_offset");
	}
	if (o->kallsyms) {
		rp_jstr(w, "kallsyms", o->kallsyms);
		rp_ji64(w, "kallsyms_shift", o->kallsyms_shift);
	} else {
		rp_jnull(w, "kallsyms");
	}
	run_json(w, o->run);
	rp_jend(w, '}');
	ts_analysis_range(a, &first, &last);
	ts_analysis_lost(a, &lost, &recs);
	rp_jbegin(w, "trace", '{');
	rp_ju64(w, "first_ns", first);
	rp_ju64(w, "last_ns", last);
	rp_ju64(w, "duration_ns", last - first);
	if (ts_analysis_lost_measured(a)) {
		rp_ju64(w, "lost_events", lost);
		rp_ju64(w, "lost_records", recs);
	} else {
		rp_jnull(w, "lost_events");
		rp_jnull(w, "lost_records");
	}
	rp_ju64(w, "filtered_events", ts_analysis_filtered(a));
	rp_ju64(w, "task_filter", (uint64_t)ts_analysis_has_task_filter(a));
	rp_jend(w, '}');
	rp_jbegin(w, "histogram", '{');
	rp_ju64(w, "sub_bucket_bits", TS_HIST_SUB_BITS);
	rp_jstr(w, "unit", "ns");
	rp_jend(w, '}');
}

int ts_report_json(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	static const struct ts_report_opts none;
	struct rp_json w = { .f = f };
	int s;

	if (!o)
		o = &none;
	rp_jbegin(&w, NULL, '{');
	rp_jstr(&w, "schema", "tickscope-report");
	rp_ju64(&w, "version", TS_REPORT_JSON_VERSION);
	input_json(&w, a, o);
	rp_jbegin(&w, "sections", '{');
	for (s = 0; s < TS_SEC_NR; s++)
		rp_writers[s]->json(&w, a, o);
	rp_jend(&w, '}');
	rp_jend(&w, '}');
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}
