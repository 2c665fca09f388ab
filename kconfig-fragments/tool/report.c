// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reports: the verdicts as text for people (one line per request, the reason indented below)
 * and as JSON for machines (schema "tickscope-kconfig", version 1, documented in README.md).
 */
#include <stdbool.h>
#include <string.h>

#include "ts_kconfig.h"

static const char *const verdict_names[] = {
	[TS_V_KEPT] = "kept",
	[TS_V_DROPPED] = "dropped",
	[TS_V_OVERRIDDEN] = "overridden",
	[TS_V_SAME] = "same",
	[TS_V_UNKNOWN] = "unknown",
	[TS_V_INEFFECTIVE] = "ineffective",
	[TS_V_CHECK_OK] = "check-ok",
	[TS_V_CHECK_FAILED] = "check-failed",
	[TS_V_NOT_IN_ERA] = "not-in-era",
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

static const char *const group_titles[] = {
	[TS_G_REQUESTED] = "requested by the fragments",
	[TS_G_PULLED] = "pulled in or out by other changes (select, depends on)",
	[TS_G_CHOICE] = "choices and defaults that moved",
	[TS_G_SHOWN] = "off before and after, only the \"is not set\" line came or went",
};

static const char *const group_names[] = {
	[TS_G_REQUESTED] = "requested",
	[TS_G_PULLED] = "pulled",
	[TS_G_CHOICE] = "choice-or-default",
	[TS_G_SHOWN] = "shown",
};

/* Equal .config values, a string's quotes aside: the final value comes unquoted. */
static bool same_text(const char *cfg, const char *v)
{
	size_t n;

	if (!cfg || !v)
		return false;
	n = strlen(cfg);
	if (n >= 2 && cfg[0] == '"' && cfg[n - 1] == '"')
		return strlen(v) == n - 2 && !strncmp(cfg + 1, v, n - 2);
	return !strcmp(cfg, v);
}

/* The diff as scripts/diffconfig prints it ("-X v", "+X v", " X old -> new"), grouped. */
static void diff_text(FILE *out, const struct ts_set *set, bool verbose)
{
	char what[512];
	int i, shown = 0;

	fprintf(out, "diff against the base: %d changed line%s (as scripts/diffconfig)\n",
		set->ndiff, set->ndiff == 1 ? "" : "s");
	for (i = 0; i < set->ndiff; i++) {
		const struct ts_change *c = &set->diff[i];

		if (c->group == TS_G_SHOWN && !verbose) {
			shown++;
			continue;
		}
		if (!i || c->group != set->diff[i - 1].group)
			fprintf(out, "  %s:\n", group_titles[c->group]);
		if (!c->old)
			snprintf(what, sizeof(what), "+%s %s", c->name, c->new);
		else if (!c->new)
			snprintf(what, sizeof(what), "-%s %s", c->name, c->old);
		else
			snprintf(what, sizeof(what), " %s %s -> %s", c->name, c->old, c->new);
		fprintf(out, "  %-40s %s\n", what, c->why ? c->why : "");
		if (c->confounder)
			fprintf(out, "  %-40s confounder: %s\n", "", c->confounder);
	}
	if (shown)
		fprintf(out, "  and %d line%s of symbols off before and after (\"is not set\" came or "
			"went; -v lists them)\n", shown, shown == 1 ? "" : "s");
}

static void req_line(FILE *out, const struct ts_req *r, const char *kver, bool allow)
{
	char what[512], where[512];

	req_text(what, sizeof(what), r);
	snprintf(where, sizeof(where), "%s:%d", r->frag, r->line);
	fprintf(out, "%-12s %-40s %s", ts_verdict_name(r->verdict), what, where);
	if (r->final && r->verdict != TS_V_KEPT && r->verdict != TS_V_CHECK_OK &&
	    r->verdict != TS_V_SAME)
		fprintf(out, "  (now %s)", *r->final ? r->final : "\"\"");
	if (r->verdict == TS_V_KEPT && same_text(r->base, r->final))
		fputs("  (as in the base)", out);
	fputc('\n', out);
	if (r->reason)
		fprintf(out, "             %s\n", r->reason);
	if (r->era == TS_ERA_STANDIN)
		fprintf(out, "             asked as CONFIG_%s: %s\n", r->asked, r->era_note);
	if (r->expected)
		fprintf(out, "             expected on Linux %s (before %s): %s\n", kver,
			r->xfail_before, r->xfail_why);
	if (r->warn_only && r->verdict == TS_V_CHECK_FAILED)
		fprintf(out, "             a warning only (check-warn): this does not fail\n");
	if (r->failed && (r->purpose || r->purpose_of))
		fprintf(out, "             the purpose of %s: this kernel is not what it asks for%s\n",
			r->purpose_of ? r->purpose_of : r->frag,
			allow ? " (allowed: --allow-drops, ALLOW_DROPS=1)" :
				"; FAIL (--allow-drops, ALLOW_DROPS=1, accepts it)");
	else if (r->failed && allow)
		fprintf(out, "             allowed: --allow-drops, ALLOW_DROPS=1\n");
	else if (r->warned)
		fprintf(out, "             a warning: not the purpose of %s\n", r->frag);
}

/* The purposes that did not survive, by fragment, and the run's verdict. */
static void result_text(FILE *out, const struct ts_set *set)
{
	const int *c = set->counts;

	fprintf(out,
		"result: %d kept, %d dropped (%d expected on this kernel), %d overridden, "
		"%d same, %d unknown, %d not in this era, %d ineffective, %d/%d checks failed; ",
		c[TS_V_KEPT], c[TS_V_DROPPED], set->expected, c[TS_V_OVERRIDDEN], c[TS_V_SAME],
		c[TS_V_UNKNOWN], c[TS_V_NOT_IN_ERA], c[TS_V_INEFFECTIVE], c[TS_V_CHECK_FAILED],
		c[TS_V_CHECK_FAILED] + c[TS_V_CHECK_OK]);
	if (set->failures)
		fprintf(out, "%d purpose%s not met, %d warning%s: FAIL\n", set->failures,
			set->failures == 1 ? "" : "s", set->warnings, set->warnings == 1 ? "" : "s");
	else if (set->allowed)
		fprintf(out, "%d purpose%s not met (allowed), %d warning%s: OK\n", set->allowed,
			set->allowed == 1 ? "" : "s", set->warnings, set->warnings == 1 ? "" : "s");
	else
		fprintf(out, "every purpose met, %d warning%s: OK\n", set->warnings,
			set->warnings == 1 ? "" : "s");
}

void ts_report_text(FILE *out, const struct ts_set *set, const struct ts_report_opts *o)
{
	int i;

	fprintf(out, "== ARCH=%s Linux %s, base %s, fragments: %s\n", o->arch ? o->arch : "?",
		o->kver ? o->kver : "?", o->base_name ? o->base_name : "?", set->label);
	if (o->diff_only) {
		diff_text(out, set, o->verbose);
		return;
	}
	for (i = 0; i < set->nreqs; i++)
		if (set->reqs[i].verdict != TS_V_SAME || o->verbose)
			req_line(out, &set->reqs[i], o->kver, set->allow_drops);
	for (i = 0; i < set->neffects; i++)
		fprintf(out, "side effect: %s\n", set->effects[i]);
	diff_text(out, set, o->verbose);
	result_text(out, set);
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

/* ,"@key":@v, where the key is not the object's first */
static void json_kv(FILE *out, const char *key, const char *v)
{
	fprintf(out, ",\"%s\":", key);
	json_str(out, v);
}

static void json_req(FILE *out, const struct ts_req *r)
{
	fputs("{\"fragment\":", out);
	json_str(out, r->frag);
	json_kv(out, "file", r->file);
	fprintf(out, ",\"line\":%d,\"kind\":\"%s\",\"symbol\":", r->line,
		r->kind == TS_REQ_CHECK ? "check" : "set");
	json_str(out, r->name);
	json_kv(out, "requested", r->value);
	json_kv(out, "final", r->final);
	json_kv(out, "base", r->base);
	json_kv(out, "verdict", ts_verdict_name(r->verdict));
	fprintf(out,
		",\"expected\":%s,\"warn_only\":%s,\"reason\":", r->expected ? "true" : "false",
		r->warn_only ? "true" : "false");
	json_str(out, r->reason);
	json_kv(out, "xfail_before", r->xfail_before);
	fprintf(out, ",\"purpose\":%s,\"failed\":%s,\"warning\":%s,\"asked_as\":",
		r->purpose || r->purpose_of ? "true" : "false", r->failed ? "true" : "false",
		r->warned ? "true" : "false");
	json_str(out, r->asked);
	json_kv(out, "era", r->era_note);
	fputs("}", out);
}

static void json_diff(FILE *out, const struct ts_set *set)
{
	int i;

	fputs(",\"diff\":[", out);
	for (i = 0; i < set->ndiff; i++) {
		const struct ts_change *c = &set->diff[i];

		fputs(i ? ",\n {\"symbol\":" : "\n {\"symbol\":", out);
		json_str(out, c->name);
		json_kv(out, "old", c->old);
		json_kv(out, "new", c->new);
		fprintf(out, ",\"group\":\"%s\",\"why\":", group_names[c->group]);
		json_str(out, c->why);
		json_kv(out, "confounder", c->confounder);
		fputs("}", out);
	}
	fputs("]", out);
}

void ts_report_json(FILE *out, const struct ts_set *sets, int nsets,
		    const struct ts_report_opts *o)
{
	int s, i;

	fputs("{\"schema\":\"tickscope-kconfig\",\"version\":1,\"arch\":", out);
	json_str(out, o->arch);
	json_kv(out, "kernelversion", o->kver);
	json_kv(out, "base", o->base_name);
	fputs(",\"sets\":[", out);
	for (s = 0; s < nsets; s++) {
		const struct ts_set *set = &sets[s];

		fputs(s ? ",\n{\"fragments\":" : "\n{\"fragments\":", out);
		json_str(out, set->label);
		fprintf(out, ",\"ok\":%s,\"failures\":%d,\"allowed\":%d,\"warnings\":%d,"
			"\"requests\":[", set->failures ? "false" : "true", set->failures,
			set->allowed, set->warnings);
		for (i = 0; i < set->nreqs; i++) {
			fputs(i ? ",\n " : "\n ", out);
			json_req(out, &set->reqs[i]);
		}
		fputs("],\"side_effects\":[", out);
		for (i = 0; i < set->neffects; i++) {
			fputs(i ? "," : "", out);
			json_str(out, set->effects[i]);
		}
		fputs("]", out);
		json_diff(out, set);
		fputs("}", out);
	}
	fputs("]}\n", out);
}
