// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reports: the verdicts as text for people (one line per request, the reason indented below)
 * and as JSON for machines (schema "tickscope-kconfig", version 1, documented in README.md).
 */
#include <string.h>

#include "ts_kconfig.h"

static const char *const verdict_names[] = {
	[TS_V_KEPT] = "kept",
	[TS_V_DROPPED] = "dropped",
	[TS_V_OVERRIDDEN] = "overridden",
	[TS_V_UNKNOWN] = "unknown",
	[TS_V_INEFFECTIVE] = "ineffective",
	[TS_V_CHECK_OK] = "check-ok",
	[TS_V_CHECK_FAILED] = "check-failed",
};

const char *ts_verdict_name(enum ts_verdict v)
{
	return verdict_names[v];
}

static void req_text(char *buf, size_t n, const struct ts_req *r)
{
	if (r->kind == TS_REQ_SET && !strcmp(r->value, "n"))
		snprintf(buf, n, "# CONFIG_%s is not set", r->name);
	else if (r->quoted)
		snprintf(buf, n, "CONFIG_%s=\"%s\"", r->name, r->value);
	else
		snprintf(buf, n, "CONFIG_%s=%s", r->name, r->value);
}

void ts_report_text(FILE *out, const struct ts_set *set, const char *arch, const char *kver,
		    const char *base_name)
{
	char what[512], where[512];
	int i;

	fprintf(out, "== ARCH=%s Linux %s, base %s, fragments: %s\n", arch ? arch : "?",
		kver ? kver : "?", base_name ? base_name : "?", set->label);
	for (i = 0; i < set->nreqs; i++) {
		const struct ts_req *r = &set->reqs[i];
		const char *v = ts_verdict_name(r->verdict);

		req_text(what, sizeof(what), r);
		snprintf(where, sizeof(where), "%s:%d", r->frag, r->line);
		fprintf(out, "%-12s %-40s %s", v, what, where);
		if (r->final && r->verdict != TS_V_KEPT && r->verdict != TS_V_CHECK_OK)
			fprintf(out, "  (now %s)", *r->final ? r->final : "\"\"");
		fputc('\n', out);
		if (r->reason)
			fprintf(out, "             %s\n", r->reason);
		if (r->expected)
			fprintf(out, "             expected on Linux %s (before %s): %s\n", kver,
				r->xfail_before, r->xfail_why);
		if (r->warn_only && r->verdict == TS_V_CHECK_FAILED)
			fprintf(out,
				"             a warning only (check-warn): this does not fail\n");
	}
	for (i = 0; i < set->neffects; i++)
		fprintf(out, "side effect: %s\n", set->effects[i]);
	fprintf(out,
		"result: %d kept, %d dropped (%d expected on this kernel), %d overridden, "
		"%d unknown, %d ineffective, %d/%d checks failed: %s\n",
		set->counts[TS_V_KEPT], set->counts[TS_V_DROPPED], set->expected,
		set->counts[TS_V_OVERRIDDEN], set->counts[TS_V_UNKNOWN],
		set->counts[TS_V_INEFFECTIVE], set->counts[TS_V_CHECK_FAILED],
		set->counts[TS_V_CHECK_FAILED] + set->counts[TS_V_CHECK_OK],
		set->failures ? "FAIL" : "OK");
}

static void json_str(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void json_req(FILE *out, const struct ts_req *r)
{
	fputs("{\"fragment\":", out);
	json_str(out, r->frag);
	fputs(",\"file\":", out);
	json_str(out, r->file);
	fprintf(out, ",\"line\":%d,\"kind\":\"%s\",\"symbol\":", r->line,
		r->kind == TS_REQ_CHECK ? "check" : "set");
	json_str(out, r->name);
	fputs(",\"requested\":", out);
	json_str(out, r->value);
	fputs(",\"final\":", out);
	json_str(out, r->final);
	fputs(",\"verdict\":", out);
	json_str(out, ts_verdict_name(r->verdict));
	fprintf(out,
		",\"expected\":%s,\"warn_only\":%s,\"reason\":", r->expected ? "true" : "false",
		r->warn_only ? "true" : "false");
	json_str(out, r->reason);
	fputs(",\"xfail_before\":", out);
	json_str(out, r->xfail_before);
	fputs("}", out);
}

void ts_report_json(FILE *out, const struct ts_set *sets, int nsets, const char *arch,
		    const char *kver, const char *base_name)
{
	int s, i;

	fputs("{\"schema\":\"tickscope-kconfig\",\"version\":1,\"arch\":", out);
	json_str(out, arch);
	fputs(",\"kernelversion\":", out);
	json_str(out, kver);
	fputs(",\"base\":", out);
	json_str(out, base_name);
	fputs(",\"sets\":[", out);
	for (s = 0; s < nsets; s++) {
		const struct ts_set *set = &sets[s];

		fputs(s ? ",\n{\"fragments\":" : "\n{\"fragments\":", out);
		json_str(out, set->label);
		fprintf(out, ",\"ok\":%s,\"failures\":%d,\"requests\":[",
			set->failures ? "false" : "true", set->failures);
		for (i = 0; i < set->nreqs; i++) {
			fputs(i ? ",\n " : "\n ", out);
			json_req(out, &set->reqs[i]);
		}
		fputs("],\"side_effects\":[", out);
		for (i = 0; i < set->neffects; i++) {
			fputs(i ? "," : "", out);
			json_str(out, set->effects[i]);
		}
		fputs("]}", out);
	}
	fputs("]}\n", out);
}
