// SPDX-License-Identifier: GPL-2.0-only
/*
 * The text report: one block per section, each naming the events it needed and lost events in
 * its range. Times are ms for totals and us for latencies, like perf sched latency but tighter.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_priv.h"
#include "common/io.h"

/* Lost events once, as perf counts them, with where the figure comes from. */
static void lost_line(FILE *f, const struct ts_analysis *a, uint64_t lost)
{
	struct ts_lost_detail d;

	ts_analysis_lost_detail(a, &d);
	fprintf(f, "  LOST %" PRIu64 " events (%" PRIu64 " in %" PRIu64 " LOST records", lost,
		d.lost, d.lost_records);
	if (d.lost_samples_records)
		fprintf(f, "; %" PRIu64 " in %" PRIu64 " LOST_SAMPLES records, the same events",
			d.lost_samples, d.lost_samples_records);
	fprintf(f, ")\n");
}

/* The run's meta.txt: which benchmark run, pinned or not, and its own result. */
static void run_line(FILE *f, const struct ts_run_meta *r)
{
	char run[16] = "-", runs[16] = "-"; /* 0: meta.txt has no run= or runs= */

	if (r->run)
		snprintf(run, sizeof(run), "%d", r->run);
	if (r->runs)
		snprintf(runs, sizeof(runs), "%d", r->runs);
	fprintf(f, "  run: %s/%s %s run %s of %s, %s", r->board, r->variant, r->workload, run, runs,
		r->pinned < 0 ? "pinning unknown" :
		r->pinned     ? "pinned" :
				"not pinned");
	if (r->pinned > 0 && r->pin[0])
		fprintf(f, " (%s)", r->pin);
	if (r->result[0])
		fprintf(f, "; benchmark result %s %s", r->result, r->result_unit);
	else
		fprintf(f, "; no benchmark result recorded");
	fputc('\n', f);
}

static void header(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_file_info *in = o->info;
	uint64_t first, last, lost, recs;

	ts_analysis_range(a, &first, &last);
	ts_analysis_lost(a, &lost, &recs);
	fprintf(f, "tickscope report: %s\n", o->input ? o->input : "-");
	if (in && in->osrelease[0])
		fprintf(f, "  host %s, kernel %s, %s, %u CPUs online, perf %s\n", in->hostname,
			in->osrelease, in->arch, in->nr_cpus_online, in->version);
	if (first) /* an event's time is never 0: 0 is none analysed */
		fprintf(f, "  trace %.6f .. %.6f s (%.3f s)", (double)first / 1e9,
			(double)last / 1e9, rp_span_s(a));
	else
		fprintf(f, "  trace - (no event analysed)");
	/* a recording of another machine is named only by its own kernel's kallsyms: say so */
	if (o->kallsyms)
		fprintf(f, ", symbols: %s", o->kallsyms);
	else
		fprintf(f,
			", symbols: none (raw addresses: give the recording kernel's kallsyms, "
			"%s)",
			o->kallsyms_how ? o->kallsyms_how : "--kallsyms FILE");
	if (o->kallsyms && o->kallsyms_shift)
		fprintf(f, " (another boot: kernel moved %s%#llx, modules unnamed)",
			o->kallsyms_shift < 0 ? "-" : "+",
			(unsigned long long)(o->kallsyms_shift < 0 ? -(uint64_t)o->kallsyms_shift :
								     (uint64_t)o->kallsyms_shift));
	fputc('\n', f);
	if (o->run)
		run_line(f, o->run);
	if (in && in->cut_at)
		fprintf(f,
			"  INPUT CUT at offset %#llx, inside a record: the figures cover what came "
			"before\n",
			(unsigned long long)in->cut_at);
	if (!ts_analysis_lost_measured(a))
		fprintf(f, "  lost events: - (not measured: perf hands a dlfilter no LOST records; "
			   "tickscope info counts them)\n");
	else if (lost)
		lost_line(f, a, lost);
	if (ts_analysis_filtered(a))
		fprintf(f, "  %" PRIu64 " events outside --time/--cpu filters\n",
			ts_analysis_filtered(a));
}

int ts_report_text(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	static const struct ts_report_opts none;
	int s;

	if (!o)
		o = &none;
	header(f, a, o);
	for (s = 0; s < TS_SEC_NR; s++)
		rp_writers[s]->text(f, a, o);
	fprintf(f,
		"\n(* marks the events a section needs, - a figure with nothing measured; times: ms"
		" totals, us latencies)\n"
		"(schdly: sched delay by perf sched timehist's rule, its \"sch delay\": from\n"
		" sched_waking (else sched_wakeup) to the switch-in, time runnable after a preemption\n"
		" not counted; rqdly: run-queue delay, from sched_wakeup or a preempting switch-out\n"
		" to the switch-in, preempted time counted)\n");
	return ts_stream_err(f);
}
