// SPDX-License-Identifier: GPL-2.0-only
/*
 * The JSON document of a comparison ("schema": "tickscope-compare", documented in
 * docs/compare-json.md). Unmeasured figures are null.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "tickscope/compare_report.h"
#include "common/io.h"
#include "tickscope/stats.h"

static void str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* A string, or null for NULL (str() writes "" for it). */
static void str_or_null(FILE *f, const char *s)
{
	if (s)
		str(f, s);
	else
		fputs("null", f);
}

static void num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		fprintf(f, "%.10g", v);
}

static void key_num(FILE *f, const char *k, double v)
{
	fprintf(f, ",\"%s\":", k);
	num(f, v);
}

/*
 * A p-value: below TS_STATS_P_FLOOR (thousands of runs that do not overlap: the double's range
 * ends there) it is the floor, "p_floor" at the top says so, an upper bound and never 0.
 */
static void key_p(FILE *f, const char *k, double p)
{
	key_num(f, k, p < TS_STATS_P_FLOOR ? TS_STATS_P_FLOOR : p);
}

static const char *dir_name(enum ts_metric_dir d)
{
	return d == TS_DIR_LOWER ? "lower" : d == TS_DIR_HIGHER ? "higher" : "neutral";
}

static const char *family_name(enum ts_cmp_family f)
{
	static const char *const n[] = { "result", "bench", "task", "trace" };

	return n[f];
}

static void runs(FILE *f, const struct ts_cmp_variant *v)
{
	fputs("\"runs\":[", f);
	for (int r = 0; r < v->nr_runs; r++) {
		fprintf(f, "%s{\"label\":", r ? "," : "");
		str(f, v->runs[r].label);
		key_num(f, "lost", v->runs[r].lost);
		fputs(",\"facts\":{", f);
		for (int k = 0; k < TS_FACT_NR; k++) {
			fprintf(f, "%s\"%s\":", k ? "," : "", ts_cmp_fact_name(k));
			str_or_null(f, v->runs[r].fact[k]);
		}
		fputs("}}", f);
	}
	fputc(']', f);
}

static void cell(FILE *f, const struct ts_cmp *c, const struct ts_cmp_cell *x, int v)
{
	fprintf(f, "{\"variant\":");
	str(f, c->var[v].name);
	fprintf(f, ",\"n\":%d", x->s.n);
	key_num(f, "median", x->s.median);
	key_num(f, "mean", x->s.mean);
	key_num(f, "sd", x->s.sd);
	key_num(f, "cv", x->s.cv);
	key_num(f, "min", x->s.min);
	key_num(f, "max", x->s.max);
	fprintf(f, ",\"measured\":%d,\"why_null\":", x->measured);
	str_or_null(f, x->why_null);
	fprintf(f, ",\"noisy\":%s,\"values\":[", x->noisy ? "true" : "false");
	for (int r = 0; r < c->var[v].nr_runs; r++) {
		fputs(r ? "," : "", f);
		num(f, x->values[r]);
	}
	fputs("],\"outliers\":[", f);
	for (int r = 0, k = 0; r < c->var[v].nr_runs; r++)
		if (x->outlier[r])
			fprintf(f, "%s%d", k++ ? "," : "", r);
	fputc(']', f);
	if (v) {
		key_num(f, "change_pct", x->change);
		key_num(f, "raw", x->raw);
		fputs(",\"ci_pct\":[", f);
		num(f, x->ci_lo);
		fputc(',', f);
		num(f, x->ci_hi);
		fputc(']', f);
		key_num(f, "ci_level", x->t.level);
		key_p(f, "p", x->p);
		key_p(f, "p_adjusted", x->p_adj);
		fprintf(f, ",\"p_exact\":%s", x->t.exact ? "true" : "false");
		/* a metric not tested (a side without values) has no smallest p either */
		key_p(f, "min_p", isnan(x->p) ? NAN : x->t.min_p);
		key_p(f, "welch_p", x->welch_p);
		fprintf(f, ",\"significant\":%s", x->significant ? "true" : "false");
	}
	fputc('}', f);
}

static void metrics(FILE *f, const struct ts_cmp *c)
{
	fputs(",\"metrics\":[", f);
	for (int i = 0; i < c->nr_rows; i++) {
		const struct ts_cmp_row *r = &c->rows[i];

		fprintf(f, "%s\n{\"name\":", i ? "," : "");
		str(f, r->name);
		fputs(",\"unit\":", f);
		str(f, r->unit);
		fprintf(f, ",\"direction\":\"%s\",\"kind\":\"%s\",\"family\":\"%s\",\"variants\":[",
			dir_name(r->dir), r->kind == TS_METRIC_RATE ? "rate" : "value",
			family_name(r->family));
		for (int v = 0; v < c->nr_var; v++) {
			fputs(v ? "," : "", f);
			cell(f, c, &r->cell[v], v);
		}
		fputs("]}", f);
	}
	fputc(']', f);
}

/* One part of a decomposition, or one of its details (whose metric is never NULL). */
static void part(FILE *f, const struct ts_cmp_part *p, int first)
{
	fprintf(f, "%s{\"label\":", first ? "" : ",");
	str(f, p->label);
	fputs(",\"metric\":", f);
	str_or_null(f, p->metric);
	key_num(f, "a", p->a);
	key_num(f, "b", p->b);
	key_num(f, "delta", p->delta);
	key_num(f, "share_pct", p->share);
	fputc('}', f);
}

static void decomposition(FILE *f, const struct ts_cmp *c, int v)
{
	const struct ts_cmp_decomp *d = &c->dec[v];
	char res[1024];

	if (!d->kind) {
		fputs("null", f);
		return;
	}
	fprintf(f, "{\"kind\":\"%s\",\"total_metric\":", d->kind);
	str(f, d->total_metric);
	fputs(",\"unit\":\"us/op\"", f);
	key_num(f, "a", d->a);
	key_num(f, "b", d->b);
	key_num(f, "delta", d->delta);
	fputs(",\"parts\":[", f);
	for (int i = 0; i < d->nr; i++)
		part(f, &d->part[i], i == 0);
	fputs("],\"details\":[", f);
	for (int i = 0; i < d->nr_detail; i++)
		part(f, &d->detail[i], i == 0);
	fputs("],\"residual\":{", f);
	fputs("\"said\":", f);
	str_or_null(f, ts_cmp_residual_words(c, v, res, sizeof(res)) ? res : NULL);
	key_num(f, "none_a", d->none_a);
	key_num(f, "none_b", d->none_b);
	key_num(f, "window_a", d->window_a);
	key_num(f, "window_b", d->window_b);
	fputs("}}", f);
}

static void waker(FILE *f, const struct ts_cmp_waker *w)
{
	fputs("{\"class\":", f);
	str(f, w->cls);
	fputs(",\"metric\":", f);
	str(f, w->row->name);
	key_num(f, "a", w->a);
	key_num(f, "b", w->b);
}

static void waits(FILE *f, const struct ts_cmp *c, int v)
{
	fputs(",\"waits\":[", f);
	for (int i = 0; i < c->nr_waits[v]; i++) {
		const struct ts_cmp_wait *w = &c->waits[v][i];

		fprintf(f, "%s{\"stack\":", i ? "," : "");
		str(f, w->stack);
		fputs(",\"state\":", f);
		str(f, w->state);
		fputs(",\"metric\":", f);
		str(f, w->row->name);
		fputs(",\"unit\":\"us/op\"", f);
		key_num(f, "a", w->a);
		key_num(f, "b", w->b);
		fputs(",\"ended_by\":[", f);
		for (int k = 0; k < w->nr_by; k++) {
			fputs(k ? "," : "", f);
			waker(f, &w->by[k]);
			fputc('}', f);
		}
		fputs("]}", f);
	}
	fputc(']', f);
}

static void wakeup_path(FILE *f, const struct ts_cmp *c, int v)
{
	fputs(",\"wakeup_path\":[", f);
	for (int i = 0; i < c->nr_wakes[v]; i++) {
		const struct ts_cmp_wake *w = &c->wakes[v][i];

		fputs(i ? "," : "", f);
		waker(f, &w->w);
		fputs(",\"scope\":", f);
		str(f, w->scope);
		fprintf(f, ",\"only_in\":");
		if (w->only)
			str(f, c->var[w->only > 0 ? v : 0].name);
		else
			fputs("null", f);
		fprintf(f, ",\"significant\":%s", w->significant ? "true" : "false");
		key_p(f, "p_adjusted", w->p_adj);
		fputs(",\"known_for\":", f);
		str(f, w->hint);
		fputc('}', f);
	}
	fputc(']', f);
}

/* The rows of @v's comparison with no figure in any run of one side, by side and reason. */
static void unmeasured(FILE *f, const struct ts_cmp *c, int v)
{
	fputs(",\"unmeasured\":[", f);
	for (int i = 0; i < c->nr_unmeasured[v]; i++) {
		const struct ts_cmp_unmeasured *u = &c->unmeasured[v][i];

		fputs(i ? ",{\"variant\":" : "{\"variant\":", f);
		str(f, c->var[u->side].name);
		fputs(",\"why\":", f);
		str(f, u->why);
		fprintf(f, ",\"metrics\":%d,\"first\":", u->nr_rows);
		str(f, u->first->name);
		fputc('}', f);
	}
	fputc(']', f);
}

static void mechanism(FILE *f, const struct ts_cmp_mech *m)
{
	fputs("{\"metric\":", f);
	str(f, m->row->name);
	fputs(",\"label\":", f);
	str(f, m->label);
	fputs(",\"component\":", f);
	str(f, m->component);
	key_num(f, "a", m->a);
	key_num(f, "b", m->b);
	fputs(",\"unit\":", f);
	str(f, m->unit);
	key_p(f, "p", m->tested ? m->p : NAN);
	fputs(",\"separation\":", f);
	str(f, m->separation);
	key_num(f, "share_pct", m->share > 0 && m->share <= 100 ? m->share : NAN);
	key_num(f, "effect", m->effect);
	fprintf(f, ",\"tested\":%s}", m->tested ? "true" : "false");
}

/* The headline of variant @v: its mechanisms best first, and the text's lines. */
/*
 * The benchmark's own timing against the trace's window per operation (version 8): the
 * verdict, "disagrees" or "none" (tested, no disagreement shown), null when not tested, and why.
 */
static void timing(FILE *f, const struct ts_cmp_timing *t)
{
	static const char *const verdict[] = {
		[TS_TIMING_NONE] = "none", [TS_TIMING_DISAGREE] = "disagrees"
	};

	fputs(",\"timing\":{\"verdict\":", f);
	str_or_null(f, t->verdict == TS_TIMING_UNTESTED ? NULL : verdict[t->verdict]);
	fputs(",\"why\":", f);
	str_or_null(f, t->why);
	key_num(f, "result_a", t->res_a);
	key_num(f, "result_b", t->res_b);
	key_num(f, "window_a", t->win_a);
	key_num(f, "window_b", t->win_b);
	key_p(f, "window_p", t->win_p);
	key_num(f, "ratio_a", t->ratio_a);
	key_num(f, "ratio_b", t->ratio_b);
	key_p(f, "p", t->p);
	key_p(f, "min_p", t->min_p);
	fprintf(f, ",\"runs_a\":%d,\"runs_b\":%d}", t->nr_a, t->nr_b);
}

static void headline(FILE *f, const struct ts_cmp *c, int v)
{
	const struct ts_cmp_headline *h = &c->head[v];
	const struct ts_cmp_benchdef *d = &c->bdef[v];

	fputs("{\"variant\":", f);
	str(f, c->var[v].name);
	fputs(",\"mechanisms\":[", f);
	for (int i = 0; i < h->nr_mech; i++) {
		fputs(i ? "," : "", f);
		mechanism(f, &h->mech[i]);
	}
	fputs("],\"benchmark_differs\":[", f);
	for (int i = 0; i < d->nr_diff; i++) {
		fputs(i ? ",{\"fact\":" : "{\"fact\":", f);
		str(f, ts_cmp_fact_name(d->diff[i].fact));
		fputs(",\"a\":", f);
		str(f, d->diff[i].a);
		fputs(",\"b\":", f);
		str(f, d->diff[i].b);
		fputs("}", f);
	}
	fprintf(f, "],\"kernel_ab\":%s,\"kernel\":",
		d->kernels == TS_KERNELS_SAME	? "false" :
		d->kernels == TS_KERNELS_DIFFER ? "true" :
						  "null");
	str(f, d->kernel);
	timing(f, &h->timing);
	fputs(",\"lines\":[", f);
	for (int i = 0; i < h->nr_lines; i++) {
		fputs(i ? "," : "", f);
		str(f, h->line[i]);
	}
	fputs("]}", f);
}

static void explanations(FILE *f, const struct ts_cmp *c)
{
	fputs(",\n\"explanations\":[", f);
	for (int v = 1; v < c->nr_var; v++) {
		fprintf(f, "%s{\"variant\":", v > 1 ? "," : "");
		str(f, c->var[v].name);
		fputs(",\"headline\":", f);
		headline(f, c, v);
		fputs(",\"decomposition\":", f);
		decomposition(f, c, v);
		fputs(",\"changes\":[", f);
		for (int i = 0; i < c->nr_changes[v]; i++) {
			const struct ts_cmp_change *ch = &c->changes[v][i];

			fprintf(f, "%s{\"metric\":", i ? "," : "");
			str(f, ch->row->name);
			key_num(f, "share_pct", ch->share);
			key_num(f, "change_pct", ch->change);
			key_p(f, "p_adjusted", ch->p_adj);
			fputc('}', f);
		}
		fputc(']', f);
		waits(f, c, v);
		wakeup_path(f, c, v);
		unmeasured(f, c, v);
		fputc('}', f);
	}
	fputc(']', f);
}

int ts_compare_json(FILE *f, const struct ts_cmp *c, const struct ts_compare_report_opts *o)
{
	fprintf(f, "{\"schema\":\"tickscope-compare\",\"version\":%d", TS_CMP_VERSION);
	key_num(f, "alpha", c->o.alpha);
	key_num(f, "p_floor", TS_STATS_P_FLOOR);
	fputs(",\"adjust\":", f);
	str(f, ts_compare_adjust_name(c->o.adjust));
	key_num(f, "cv_max", c->o.cv_max);
	fputs(",\"result\":", f);
	str_or_null(f, c->result ? c->result->name : NULL);
	fputs(",\n\"headline\":", f);
	headline(f, c, 1);
	fputs(",\n\"variants\":[", f);
	for (int v = 0; v < c->nr_var; v++) {
		fprintf(f, "%s{\"name\":", v ? "," : "");
		str(f, c->var[v].name);
		fprintf(f, ",\"baseline\":%s,", v ? "false" : "true");
		runs(f, &c->var[v]);
		fputc('}', f);
	}
	fputc(']', f);
	metrics(f, c);
	explanations(f, c);
	fputs(",\n\"confounders\":[", f);
	for (int i = 0; i < c->nr_conf; i++) {
		fputs(i ? "," : "", f);
		str(f, c->conf[i].text);
	}
	fputs("],\n\"notes\":[", f);
	for (int i = 0; i < c->nr_notes; i++) {
		fputs(i ? "," : "", f);
		str(f, c->notes[i].text);
	}
	fputs("]}\n", f);
	return ts_stream_err(f);
}
