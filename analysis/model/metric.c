// SPDX-License-Identifier: GPL-2.0-only
/*
 * The metric sink the sections' metrics hooks write through: unique dotted names, rates over
 * the analysed range, distributions, and NAN with the reason for what was not measured.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sink.h"

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h == TS_MAP_EMPTY ? h - 1 : h;
}

/* Make @name unique in the run: a name seen before gets "#2", "#3", ... */
static int unique(struct ts_metric_sink *s, char *name, size_t len)
{
	size_t base = strlen(name);
	uint64_t *v;
	int n, ret;

	for (n = 2;; n++) {
		ret = ts_map_insert(&s->seen, name_hash(name), &v);
		if (ret < 0)
			return ret;
		if (ret == 1)
			return 0;
		snprintf(name + base, len - base, "#%d", n);
	}
}

static int emit(struct ts_metric_sink *s, const char *unit, enum ts_metric_dir dir,
		enum ts_metric_kind kind, double v, const char *why, const char *fmt, va_list ap)
{
	struct ts_metric m = { .section = s->section, .unit = unit, .dir = dir, .kind = kind };
	char name[512];
	int n, err;

	if (s->err || s->dist_emit)
		return s->err;
	n = snprintf(name, sizeof(name), "%s.", s->section);
	vsnprintf(name + n, sizeof(name) - (size_t)n - 8, fmt, ap);
	err = unique(s, name, sizeof(name));
	if (err)
		return s->err = err;
	m.name = name;
	m.value = why ? NAN : v;
	m.why_null = why;
	if (isnan(m.value) && !m.why_null)
		m.why_null = "not measured";
	s->err = s->emit(s->ctx, &m);
	return s->err;
}

int tm_value(struct ts_metric_sink *s, const char *unit, enum ts_metric_dir dir, double v,
	     const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = emit(s, unit, dir, TS_METRIC_VALUE, v, NULL, fmt, ap);
	va_end(ap);
	return ret;
}

int tm_rate(struct ts_metric_sink *s, enum ts_metric_dir dir, uint64_t count, const char *why,
	    const char *fmt, ...)
{
	va_list ap;
	int ret;

	if (!why && !(s->span > 0))
		why = "empty time range";
	va_start(ap, fmt);
	ret = emit(s, "1/s", dir, TS_METRIC_RATE, s->span > 0 ? (double)count / s->span : NAN, why,
		   fmt, ap);
	va_end(ap);
	return ret;
}

int tm_null(struct ts_metric_sink *s, const char *unit, enum ts_metric_dir dir,
	    enum ts_metric_kind kind, const char *why, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = emit(s, unit, dir, kind, NAN, why, fmt, ap);
	va_end(ap);
	return ret;
}

static int dist_series(struct ts_metric_sink *s, const struct ts_hist *h, const char *prefix)
{
	struct ts_dist_series d = { .section = s->section, .unit = "ns", .hist = h };
	char name[512];
	int err;

	if (s->err)
		return s->err;
	snprintf(name, sizeof(name) - 8, "%s.%s", s->section, prefix);
	err = unique(s, name, sizeof(name));
	if (err)
		return s->err = err;
	d.name = name;
	return s->err = s->dist_emit(s->ctx, &d);
}

int tm_dist(struct ts_metric_sink *s, enum ts_metric_dir dir, const struct ts_hist *h,
	    const char *why, const char *fmt, ...)
{
	static const char *const stat[] = { "p50", "p99", "max" };
	static const double q[] = { 0.5, 0.99, 1.0 };
	char prefix[400];
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	if (s->dist_emit)
		return why ? s->err : dist_series(s, h, prefix);
	if (why) {
		tm_null(s, "count", TS_DIR_NEUTRAL, TS_METRIC_VALUE, why, "%s.count", prefix);
		tm_null(s, "ns", dir, TS_METRIC_VALUE, why, "%s.sum", prefix);
	} else {
		tm_value(s, "count", TS_DIR_NEUTRAL, (double)h->count, "%s.count", prefix);
		tm_value(s, "ns", dir, (double)h->sum, "%s.sum", prefix);
	}
	if (!why && !h->count)
		why = "no values";
	for (i = 0; i < 3; i++) {
		if (why)
			tm_null(s, "ns", dir, TS_METRIC_VALUE, why, "%s.%s", prefix, stat[i]);
		else
			tm_value(s, "ns", dir, (double)ts_hist_quantile(h, q[i]), "%s.%s", prefix,
				 stat[i]);
	}
	return s->err;
}

static char *why_buf(struct ts_metric_sink *s)
{
	s->why_next = (s->why_next + 1) % 4;
	return s->why[s->why_next];
}

const char *tm_why(struct ts_metric_sink *s, int kind)
{
	return ts_analysis_kind_why(s->a, kind, why_buf(s), sizeof(s->why[0]));
}

const char *tm_section_why(struct ts_metric_sink *s, enum ts_section sec)
{
	const struct ts_section_info *in = ts_analysis_section(s->a, sec);
	const uint16_t *kinds;
	const uint8_t *req;
	int i, n = ts_analysis_section_kinds(sec, &kinds, &req);
	char *b;

	if (in->presence != TS_NOT_RECORDED)
		return NULL;
	for (i = 0; i < n && !req[i]; i++)
		;
	b = why_buf(s);
	snprintf(b, sizeof(s->why[0]), "%s not recorded",
		 i < n ? ts_analysis_kind_name(kinds[i]) : in->name);
	return b;
}

const char *tm_fn(struct ts_metric_sink *s, uint64_t addr, char *buf, size_t len)
{
	const char *name = s->sym && addr ? s->sym(s->sym_ctx, addr, NULL) : NULL;

	if (name)
		return name;
	snprintf(buf, len, "%#llx", (unsigned long long)addr);
	return buf;
}
