// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON report: one document, "schema": "tickscope-report", "version": 1, described in
 * docs/report-json.md. A section without its events carries its status and no figures.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "report_priv.h"
#include "common/io.h"

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
	if (r->run) /* 0: meta.txt has no run= */
		rp_ju64(w, "run", (uint64_t)r->run);
	else
		rp_jnull(w, "run");
	if (r->runs)
		rp_ju64(w, "runs", (uint64_t)r->runs);
	else
		rp_jnull(w, "runs");
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
		if (in->cmdline) {
			rp_jstr(w, "cmdline", in->cmdline);
			rp_jnull(w, "cmdline_null_reason");
		} else {
			rp_jnull(w, "cmdline");
			rp_jstr(w, "cmdline_null_reason", TS_NO_CMDLINE_WHY);
		}
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
	if (first) { /* an event's time is never 0: 0 is none analysed */
		rp_ju64(w, "first_ns", first);
		rp_ju64(w, "last_ns", last);
		rp_ju64(w, "duration_ns", last - first);
	} else {
		rp_jnull(w, "first_ns");
		rp_jnull(w, "last_ns");
		rp_jnull(w, "duration_ns");
	}
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
	return ts_stream_err(f);
}
