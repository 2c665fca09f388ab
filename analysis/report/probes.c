// SPDX-License-Identifier: GPL-2.0-only
/*
 * The probes section's writers: each probed function's calls and durations (kprobe to return
 * probe), over all CPUs and per CPU, and its time per idle entry.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report_priv.h"
#include "tickscope/probes.h"

static const struct ts_probes *model(const struct ts_analysis *a)
{
	return ts_analysis_model(a, TS_SEC_PROBES);
}

/*
 * The symbol @p's kprobe sat on (its address through the report's symbols, "+0x.." past a
 * function's start), NULL when the trace or the symbols do not say.
 */
static const char *probed(const struct ts_report_opts *o, const struct ts_probe *p, char *buf,
			  size_t len)
{
	return p->ip && rp_sym_name(o, p->ip) ? rp_sym(o, p->ip, buf, len) : NULL;
}

static void probes_text(FILE *f, const struct ts_analysis *a, const struct ts_report_opts *o)
{
	const struct ts_probes *m = model(a);
	uint64_t idle = ts_probes_idle_entries(m);
	const struct ts_probe *p;
	const char *as;
	char buf[160];
	struct rp_dist d;
	size_t i;
	int c;

	if (!rp_banner(f, a, TS_SEC_PROBES))
		return;
	if (!ts_probes_nr(m)) {
		fprintf(f,
			"  no probe:F / probe:F__return events (make record PROBES=\"F ...\")\n");
		return;
	}
	fprintf(f, "  %-24s %5s %9s %11s %9s %9s %9s %12s\n", "function (kprobe pairs)", "cpu",
		"calls", "total ms", "p50 us", "p99 us", "max us", "ns/idle entry");
	for (i = 0; i < ts_probes_nr(m); i++) {
		p = ts_probes_at(m, i);
		rp_dist(&p->duration, &d);
		fprintf(f, "  %-24s %5s %9" PRIu64, p->name, "all", d.count);
		rp_cells(f, &d, 11, 1, 1, &d.sum);
		rp_cells(f, &d, 9, 0, 3, (const uint64_t[]){ d.p50, d.p99, d.max });
		if (idle)
			fprintf(f, " %12.1f\n", (double)d.sum / (double)idle);
		else
			fprintf(f, " %12s\n", "-");
		for (c = 0; rp_cpus_measured(o) && c < p->nr_cpu; c++) {
			rp_dist(&p->per_cpu[c], &d);
			if (!d.count)
				continue;
			fprintf(f, "  %-24s %5d %9" PRIu64, "", c, d.count);
			rp_cells(f, &d, 11, 1, 1, &d.sum);
			rp_cells(f, &d, 9, 0, 3, (const uint64_t[]){ d.p50, d.p99, d.max });
			fputc('\n', f);
		}
		as = probed(o, p, buf, sizeof(buf));
		if (as && strcmp(as, p->name))
			fprintf(f, "  %s (probed as %s)\n", p->name, as);
		if (p->unmatched_returns || p->open_at_end)
			fprintf(f,
				"  %-24s unmatched returns %" PRIu64 ", open at end %" PRIu64 "\n",
				"", p->unmatched_returns, p->open_at_end);
	}
	fprintf(f, "  idle entries (switches to the idle task): %" PRIu64 "\n", idle);
}

static void probes_json(struct rp_json *w, const struct ts_analysis *a,
			const struct ts_report_opts *o)
{
	const struct ts_probes *m = model(a);
	const struct ts_probe *p;
	const char *as;
	char buf[160];
	size_t i;
	int c;

	if (rp_jsection(w, a, TS_SEC_PROBES)) {
		rp_ju64(w, "idle_entries", ts_probes_idle_entries(m));
		rp_ju64(w, "other", ts_probes_other(m));
		rp_jbegin(w, "functions", '[');
		for (i = 0; i < ts_probes_nr(m); i++) {
			p = ts_probes_at(m, i);
			rp_jbegin(w, NULL, '{');
			rp_jstr(w, "function", p->name);
			as = probed(o, p, buf, sizeof(buf));
			if (as)
				rp_jstr(w, "probed", as);
			else
				rp_jnull(w, "probed");
			rp_ju64(w, "entries", p->entries);
			rp_ju64(w, "returns", p->returns);
			rp_ju64(w, "unmatched_returns", p->unmatched_returns);
			rp_ju64(w, "open_at_end", p->open_at_end);
			rp_ju64(w, "from_idle", p->from_idle);
			rp_jdist(w, "duration", &p->duration);
			if (ts_probes_idle_entries(m))
				rp_jdbl(w, "ns_per_idle_entry",
					(double)p->duration.sum /
						(double)ts_probes_idle_entries(m));
			else
				rp_jnull(w, "ns_per_idle_entry");
			rp_jbegin(w, "per_cpu", '[');
			for (c = 0; rp_cpus_measured(o) && c < p->nr_cpu; c++) {
				if (!p->per_cpu[c].count)
					continue;
				rp_jbegin(w, NULL, '{');
				rp_ji64(w, "cpu", c);
				rp_jdist(w, "duration", &p->per_cpu[c]);
				rp_jend(w, '}');
			}
			rp_jend(w, ']');
			rp_jend(w, '}');
		}
		rp_jend(w, ']');
	}
	rp_jend(w, '}');
}

static void probes_tsv(struct rp_tsv *t)
{
	const struct ts_probes *m = model(t->a);
	static const char *const dists[] = { "duration", NULL };
	FILE *f = rp_tsv_open(t, "probes", "function\tcpu\tunmatched_returns\topen_at_end", dists);
	const struct ts_probe *p;
	size_t i;
	int c;

	for (i = 0; f && rp_tsv_present(t, TS_SEC_PROBES) && i < ts_probes_nr(m); i++) {
		p = ts_probes_at(m, i);
		fprintf(f, "%s\tall\t%" PRIu64 "\t%" PRIu64, p->name, p->unmatched_returns,
			p->open_at_end);
		rp_tsv_dist(f, &p->duration);
		fputc('\n', f);
		for (c = 0; rp_cpus_measured(t->o) && c < p->nr_cpu; c++) {
			if (!p->per_cpu[c].count)
				continue;
			fprintf(f, "%s\t%d\t-\t-", p->name, c);
			rp_tsv_dist(f, &p->per_cpu[c]);
			fputc('\n', f);
		}
	}
	rp_tsv_close(t, f);
}

const struct rp_writers rp_probes_writers = {
	.text = probes_text,
	.json = probes_json,
	.tsv = probes_tsv,
};
