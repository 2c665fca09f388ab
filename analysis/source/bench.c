// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark outputs as metrics (see tickscope/bench.h). Every format is recognised by its own
 * marker line; columns are taken by position in data rows, never by splitting a header.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/bench.h"
#include "tickscope/error.h"

struct lines {
	char *buf;
	char **l;
	int n;
	int cut; /* the index of a last line that no newline ends, else -1 */
};

static int split_lines(const char *text, size_t len, struct lines *ls)
{
	size_t i;
	int n = 1;

	ls->buf = malloc(len + 1);
	if (!ls->buf)
		return -ENOMEM;
	memcpy(ls->buf, text, len);
	ls->buf[len] = '\0';
	for (i = 0; i < len; i++)
		n += ls->buf[i] == '\n';
	ls->l = malloc(n * sizeof(*ls->l));
	if (!ls->l) {
		free(ls->buf);
		return -ENOMEM;
	}
	ls->n = 0;
	for (char *p = ls->buf, *nl; p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		if (nl && nl > p && nl[-1] == '\r')
			nl[-1] = '\0';
		ls->l[ls->n++] = p;
	}
	/* a final newline ends the last line; it does not start another */
	if (ls->n > 1 && !*ls->l[ls->n - 1])
		ls->n--;
	/* a figure on a line no newline ends may be cut short ("12295.59" as "1229") */
	ls->cut = len && text[len - 1] != '\n' ? ls->n - 1 : -1;
	return 0;
}

/*
 * A number at *p (after blanks), followed by a blank or the end; advances *p. Every figure
 * these benchmarks print (times, counts, rates, latencies) is a plain decimal >= 0: digits
 * with at most one '.'. A sign, "nan", "inf", an exponent (5e3) or strtod()'s hexadecimal is
 * a damaged output, not a measurement.
 */
static int number(const char **p, double *v)
{
	const char *q;
	char *end;
	int digits = 0, dots = 0;

	while (**p == ' ' || **p == '\t')
		(*p)++;
	for (q = *p; (*q >= '0' && *q <= '9') || *q == '.'; q++) {
		digits += *q != '.';
		dots += *q == '.';
	}
	if (!digits || dots > 1 || (*q && *q != ' ' && *q != '\t'))
		return -1;
	*v = strtod(*p, &end);
	if (end != q || !isfinite(*v))
		return -1;
	*p = end;
	return 0;
}

static int add(struct ts_bench *b, const char *prefix, const char *name, const char *unit,
	       enum ts_metric_dir dir, enum ts_metric_kind kind, double v)
{
	struct ts_bench_metric *m;

	if (b->nr >= TS_BENCH_MAX)
		return -TS_EBENCH;
	m = &b->m[b->nr++];
	snprintf(m->name, sizeof(m->name), "%s%s%s", prefix ? prefix : "", prefix ? "." : "", name);
	m->unit = unit;
	m->dir = dir;
	m->kind = kind;
	m->value = v;
	return 0;
}

/* lmbench lat_unix and our ping-pong: "AF_UNIX sock stream latency: 17.9296 microseconds". */
static int parse_lat_unix(const struct lines *ls, struct ts_bench *b, int *line)
{
	static const char mark[] = "AF_UNIX sock stream latency:";
	int i, found = 0, again = 0;
	double v;

	for (i = 0; i < ls->n; i++) {
		const char *p = strstr(ls->l[i], mark), *q;

		if (strstr(ls->l[i], "# pingpong:")) {
			double it = NAN, warm = 0;

			*line = i + 1;
			/*
			 * a second run's header (a re-run appended with >>) gave its round trips
			 * to the first run's latency, silently: refused at its result, else here
			 */
			if (!strcmp(b->kind, "pingpong") && !again)
				again = i + 1;
			b->kind = "pingpong";
			/* the trace holds the warm-up round trips too */
			q = strstr(ls->l[i], "iterations=");
			if (q && (q += 11, number(&q, &it)))
				return -TS_EBENCH;
			/* no round trip timed: its latency line, if any, is no measurement */
			if (q && !(it > 0))
				return -TS_EBENCHNONE;
			q = strstr(ls->l[i], "warmup=");
			if (q && (q += 7, number(&q, &warm)))
				return -TS_EBENCH;
			b->ops = it + warm;
		}
		if (!p)
			continue;
		*line = i + 1;
		p += sizeof(mark) - 1;
		/* a latency below zero is no measurement: an error (number()), not an outlier */
		if (found++)
			return -TS_EBENCHTWICE;
		/*
		 * and nothing after the unit: "... 17.9296 microseconds 12.3" (two outputs run
		 * into one line) was read as 17.9296, silently
		 */
		if (number(&p, &v) || strncmp(p, " microseconds", 13) ||
		    p[13 + strspn(p + 13, " \t")])
			return -TS_EBENCH;
		/* and one of zero timed nothing (no round trip, or a clock that did not move) */
		if (v == 0)
			return -TS_EBENCHNONE;
		if (add(b, NULL, "latency", "us", TS_DIR_LOWER, TS_METRIC_VALUE, v))
			return -TS_EBENCH;
	}
	if (again)
		return *line = again, -TS_EBENCHTWICE;
	return found ? 0 : 1;
}

/* The figure a perf bench line gives, as a bit, or 0. */
static int perf_bench_key(const char *l)
{
	static const char *const keys[] = { "Total time:", " usecs/op", " ops/sec", "# Executed " };

	for (int k = 0; k < 4; k++)
		if (strstr(l, keys[k]))
			return 1 << k;
	return 0;
}

/* perf bench sched pipe / messaging. */
/*
 * perf bench's figures as @b's metrics: sched/pipe's time per op (its rate and total time when
 * printed), sched/messaging's total time. NAN: not printed. 0, or -TS_EBENCH without the figure
 * that must be there.
 */
static int perf_bench_metrics(struct ts_bench *b, int pipe, double total, double usop, double opss)
{
	int err;

	b->kind = pipe ? "perf-bench-pipe" : "perf-bench-messaging";
	b->wall_s = total;
	if (pipe && isnan(usop))
		return -TS_EBENCH;
	if (!pipe && isnan(total))
		return -TS_EBENCH;
	if (!pipe)
		return add(b, NULL, "total_time", "s", TS_DIR_LOWER, TS_METRIC_VALUE, total);
	err = add(b, NULL, "usecs_per_op", "us/op", TS_DIR_LOWER, TS_METRIC_VALUE, usop);
	if (!err && !isnan(opss))
		err = add(b, NULL, "ops_per_s", "ops/s", TS_DIR_HIGHER, TS_METRIC_RATE, opss);
	if (!err && !isnan(total))
		err = add(b, NULL, "total_time", "s", TS_DIR_LOWER, TS_METRIC_VALUE, total);
	return err;
}

/*
 * The pipe figures are one measurement: perf prints the time truncated to ms, usecs/op as time
 * over operations and ops/sec as its inverse, truncated. A figure that lost or gained a digit
 * disagrees with the others, and was taken as the result. Returns the line of the figure that
 * disagrees, 0 when they agree.
 */
static int pipe_disagree(const struct ts_bench *b, double total, double usop, double opss,
			 int l_usop, int l_opss)
{
	if (!isnan(total) && b->ops > 0 && fabs(usop * b->ops / 1e6 - total) > 0.001 + 0.01 * total)
		return l_usop;
	if (!isnan(opss) && fabs(opss - 1e6 / usop) > 1 + 0.01 * opss)
		return l_opss;
	return 0;
}

static int parse_perf_bench(const struct lines *ls, struct ts_bench *b, int *line)
{
	int i, pipe = -1, err = 0, none = 0, seen = 0, k, l_usop = 0, l_opss = 0;
	double v, total = NAN, usop = NAN, opss = NAN;

	for (i = 0; i < ls->n && pipe < 0; i++) {
		if (strstr(ls->l[i], "# Running 'sched/pipe' benchmark"))
			pipe = 1;
		else if (strstr(ls->l[i], "# Running 'sched/messaging' benchmark"))
			pipe = 0;
	}
	if (pipe < 0)
		return 1;
	for (; i < ls->n && !err; i++) {
		const char *p = ls->l[i], *q;

		*line = i + 1;
		/*
		 * Each figure once: two runs' outputs in one file (a re-run appended with >>)
		 * had the last one's figures win silently.
		 */
		k = perf_bench_key(p);
		if (strstr(p, "# Running '") || (k & seen))
			return -TS_EBENCHTWICE;
		seen |= k;
		if ((q = strstr(p, "Total time:"))) {
			q += 11;
			err = number(&q, &total) || strncmp(q, " [sec]", 6);
			none = !err && !(total > 0);
		} else if ((q = strstr(p, " usecs/op"))) {
			err = number(&p, &usop) || p != q;
			none = !err && !(usop > 0);
			l_usop = i + 1;
		} else if ((q = strstr(p, " ops/sec"))) {
			err = number(&p, &opss) || p != q;
			none = !err && !(opss > 0);
			l_opss = i + 1;
		} else if ((q = strstr(p, "# Executed "))) {
			q += 11;
			err = number(&q, &v);
			b->ops = v;
			none = !err && !(v > 0);
		}
		/* a zero time, rate or count: perf bench ran nothing it could time */
		if (none)
			return -TS_EBENCHNONE;
	}
	if (err)
		return -TS_EBENCH;
	if (pipe && (err = pipe_disagree(b, total, usop, opss, l_usop, l_opss)))
		return *line = err, -TS_EBENCH;
	return perf_bench_metrics(b, pipe, total, usop, opss);
}

/*
 * The body of a stress-ng line: after "stress-ng:", an optional --timestamp time, the level
 * ("info:", "metrc:") and "[pid]".
 */
static const char *sng_body(const char *l)
{
	const char *p = strstr(l, "stress-ng:");

	if (!p)
		return NULL;
	p += 10;
	for (int words = 0; words < 3; words++) {
		p += strspn(p, " \t");
		if (*p == '[') {
			p = strchr(p, ']');
			return p ? p + 1 + strspn(p + 1, " \t") : NULL;
		}
		p += strcspn(p, " \t");
	}
	return NULL;
}

/*
 * A line by which stress-ng says the run failed: one at the level "fail:" (a stressor that
 * failed its verification, a killed instance: "metrics-check: stressor metrics corrupted, data
 * is compromised") or its "unsuccessful run completed". The table is printed all the same,
 * rates of what ran, and was taken as the result.
 */
static int sng_failed(const char *l)
{
	const char *p = strstr(l, "stress-ng:");

	if (!p)
		return 0;
	if (strstr(p, "unsuccessful run completed"))
		return 1;
	p += 10;
	for (int words = 0; words < 3; words++) {
		p += strspn(p, " \t");
		if (*p == '[')
			return 0;
		if (!strncmp(p, "fail:", 5))
			return 1;
		p += strcspn(p, " \t");
	}
	return 0;
}

/* Instances of @name in "dispatching hogs: 9 ramfs" or "...: 2 ramfs, 2 cpu"; NAN if absent. */
static double sng_instances(const struct lines *ls, const char *name)
{
	size_t len = strlen(name);

	for (int i = 0; i < ls->n; i++) {
		const char *p = strstr(ls->l[i], "dispatching hogs:");

		if (!p)
			continue;
		for (p += 17;;) {
			const char *end = p;
			double n;

			if (number(&end, &n))
				break;
			p = end + strspn(end, " \t");
			if (!strncmp(p, name, len) && (!p[len] || strchr(", \t", p[len])))
				return n;
			p += strcspn(p, ",");
			p += strspn(p, ", \t");
		}
	}
	return NAN;
}

/* One data row: the stressor's name, then 6 numbers, 7 (+ CPU used %) or 8 (+ RSS max). */
static int sng_row(const char *body, char *name, size_t sz, double *col, int *nc)
{
	const char *p = body + strcspn(body, " \t");
	double v;

	if ((size_t)(p - body) >= sz || p == body)
		return 1;
	memcpy(name, body, p - body);
	name[p - body] = '\0';
	for (*nc = 0; *p && *nc < 8; (*nc)++) {
		const char *q = p;

		if (number(&q, &v))
			return *nc ? -1 : 1;
		col[*nc] = v;
		p = q + strspn(q, " \t");
	}
	return (*p || *nc < 6) ? -1 : 0;
}

static int sng_add_row(const struct lines *ls, struct ts_bench *b, const char *name,
		       const double *c, int real_first)
{
	double real = real_first ? c[4] : c[5], cpu = real_first ? c[5] : c[4];
	int err;

	/* a misread column shows here: the real-time rate is bogo ops over real time */
	if (c[1] >= 1 && fabs(real - c[0] / c[1]) > 0.05 * real)
		return -TS_EBENCH;
	/*
	 * and the usr+sys rate is bogo ops over usr + sys time, each printed to 0.01 s: a damaged
	 * time or rate ("0.19" as "1.9") disagreed, and the rate was taken as the result
	 */
	if (cpu > 0 && c[2] + c[3] > 0 &&
	    fabs(c[0] / cpu - (c[2] + c[3])) > 0.01 + 0.01 * (c[2] + c[3]))
		return -TS_EBENCH;
	/*
	 * No time, or not one bogo op: the stressor did not run (stress-ng prints such a row
	 * for one that failed to start), and its rates of 0 would read as a throughput.
	 */
	if (!(c[1] > 0) || !(c[0] > 0))
		return -TS_EBENCHNONE;
	err = add(b, name, "bogo_ops_per_s_real", "ops/s", TS_DIR_HIGHER, TS_METRIC_RATE, real);
	err = err   ?:
		      add(b, name, "bogo_ops_per_s_usr_sys", "ops/s", TS_DIR_HIGHER, TS_METRIC_RATE,
			  cpu);
	err = err ?: add(b, name, "bogo_ops", "count", TS_DIR_NEUTRAL, TS_METRIC_VALUE, c[0]);
	err = err ?: add(b, name, "usr_time", "s", TS_DIR_NEUTRAL, TS_METRIC_VALUE, c[2]);
	err = err ?: add(b, name, "sys_time", "s", TS_DIR_NEUTRAL, TS_METRIC_VALUE, c[3]);
	if (err || b->nr > 5)
		return err;
	b->ops = c[0];
	b->wall_s = c[1];
	b->cpu_s = c[2] + c[3];
	b->instances = sng_instances(ls, name);
	return 0;
}

/* --metrics-brief: a "stressor ... bogo ops" header, a units line, then one row per stressor. */
static int parse_sng_brief(const struct lines *ls, struct ts_bench *b, int *line)
{
	const char *body, *r, *u;
	double col[8];
	char name[48];
	int i, nc, rc, real_first;

	for (i = 0; i < ls->n; i++) {
		body = sng_body(ls->l[i]);
		if (body && !strncmp(body, "stressor", 8) && strstr(body, "bogo ops"))
			break;
	}
	if (i >= ls->n)
		return 1;
	*line = i + 2;
	body = i + 1 < ls->n ? sng_body(ls->l[i + 1]) : NULL;
	r = body ? strstr(body, "(real time)") : NULL;
	u = body ? strstr(body, "(usr+sys time)") : NULL;
	if (!r || !u)
		return -TS_EBENCH;
	real_first = r < u;
	b->kind = "stress-ng";
	for (i += 2; i < ls->n; i++) {
		*line = i + 1;
		body = sng_body(ls->l[i]);
		if (!body)
			break;
		rc = sng_row(body, name, sizeof(name), col, &nc);
		if (rc > 0)
			break;
		if (!rc && i == ls->cut)
			return -TS_EBENCHCUT;
		if (rc < 0)
			return -TS_EBENCH;
		rc = sng_add_row(ls, b, name, col, real_first);
		if (rc)
			return rc;
	}
	/* a second run's table (outputs appended with >>) was ignored */
	for (; i < ls->n; i++) {
		body = sng_body(ls->l[i]);
		if (body && !strncmp(body, "stressor", 8) && strstr(body, "bogo ops")) {
			*line = i + 1;
			return -TS_EBENCHTWICE;
		}
	}
	return b->nr ? 0 : -TS_EBENCH;
}

/* One "key: value" line of the YAML's metrics list; Return: 0, 1 (not a number), -1. */
static int yaml_kv(const char *l, const char *key, double *v)
{
	size_t len = strlen(key);
	const char *p = l + strspn(l, " -");

	if (strncmp(p, key, len) || p[len] != ':')
		return 1;
	p += len + 1;
	return number(&p, v) || *p ? -1 : 0;
}

/* Entry @from..@to; Return: 0, or -TS_EBENCH(NONE) with @line set. */
static int yaml_entry(const struct lines *ls, int from, int to, struct ts_bench *b, int *line)
{
	static const char *const keys[] = { "bogo-ops",
					    "wall-clock-time",
					    "user-time",
					    "system-time",
					    "bogo-ops-per-second-real-time",
					    "bogo-ops-per-second-usr-sys-time",
					    "cpu-usage-per-instance" };
	double v[7] = { NAN, NAN, NAN, NAN, NAN, NAN, NAN }, c[6];
	const char *name = strstr(ls->l[from], "stressor:") + 9;
	int err;

	name += strspn(name, " \t'\"");
	*line = from + 1;
	for (int i = from + 1; i < to; i++) {
		for (int k = 0; k < 7; k++) {
			if (yaml_kv(ls->l[i], keys[k], &v[k]) < 0) {
				*line = i + 1;
				return -TS_EBENCH;
			}
		}
	}
	if (isnan(v[4]) || isnan(v[5]) || isnan(v[0]))
		return -TS_EBENCH;
	c[0] = v[0];
	c[1] = v[1];
	c[2] = isnan(v[2]) ? 0 : v[2];
	c[3] = isnan(v[3]) ? 0 : v[3];
	c[4] = v[4];
	c[5] = v[5];
	err = sng_add_row(ls, b, name, c, 1);
	if (err)
		return err;
	/* no instance count in the YAML: cpu-usage-per-instance = 100 (usr + sys) / (wall N) */
	if (b->nr == 5 && isnan(b->instances) && v[6] > 0 && v[1] > 0)
		b->instances = round(100 * (c[2] + c[3]) / (v[1] * v[6]));
	return 0;
}

/* --yaml: "metrics:" holds "- stressor: NAME" entries with their keys. */
static int parse_sng_yaml(const struct lines *ls, struct ts_bench *b, int *line)
{
	int i, start = -1, err;

	for (i = 0; i < ls->n && strcmp(ls->l[i], "metrics:"); i++)
		;
	if (i >= ls->n)
		return 1;
	b->kind = "stress-ng-yaml";
	for (i++; i <= ls->n; i++) {
		int top = i == ls->n || (ls->l[i][0] && ls->l[i][0] != ' ');

		if (!top && !strstr(ls->l[i], "- stressor:"))
			continue;
		if (start >= 0 && ls->cut >= start && ls->cut < i) {
			*line = ls->cut + 1; /* an entry's last value may be cut short */
			return -TS_EBENCHCUT;
		}
		if (start >= 0) {
			err = yaml_entry(ls, start, i, b, line);
			if (err)
				return err;
		}
		if (top)
			break;
		start = i;
	}
	*line = i;
	/* a second run's metrics (outputs appended with >>) were ignored */
	for (int j = i; j < ls->n; j++)
		if (!strcmp(ls->l[j], "metrics:")) {
			*line = j + 1;
			return -TS_EBENCHTWICE;
		}
	return b->nr ? 0 : -TS_EBENCH;
}

int ts_bench_parse(const char *text, size_t len, struct ts_bench *b, int *line)
{
	static int (*const parsers[])(const struct lines *, struct ts_bench *, int *) = {
		parse_sng_brief,
		parse_sng_yaml,
		parse_perf_bench,
		parse_lat_unix,
	};
	struct lines ls;
	int rc = 1, err;

	memset(b, 0, sizeof(*b));
	*line = 0;
	err = split_lines(text, len, &ls);
	if (err)
		return err;
	/*
	 * A run stress-ng says failed, whatever else its output holds: a table it could not
	 * finish, or none, left the output unrecognised, and compare then read the run's
	 * stress-ng.yaml in its place, which says nothing of how the run ended.
	 */
	for (int j = 0; j < ls.n && rc > 0; j++)
		if (sng_failed(ls.l[j])) {
			b->kind = "stress-ng";
			*line = j + 1;
			rc = -TS_EBENCHFAIL;
		}
	for (size_t i = 0; i < sizeof(parsers) / sizeof(parsers[0]) && rc > 0; i++) {
		memset(b, 0, sizeof(*b));
		b->ops = b->wall_s = b->cpu_s = b->instances = NAN;
		b->kind = "lat_unix";
		rc = parsers[i](&ls, b, line);
	}
	if (rc > 0) {
		*line = ls.n > 1 ? ls.n : 1;
		rc = -TS_EBENCH;
	}
	if (!rc && isnan(b->instances) && strncmp(b->kind, "stress-ng", 9))
		b->instances = 1;
	free(ls.l);
	free(ls.buf);
	return rc;
}

int ts_bench_read(const char *path, struct ts_bench *b, int *line)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int err;

	*line = 0;
	if (!f)
		return -errno;
	do {
		if (len + 4096 > cap) {
			char *nb = realloc(buf, cap = 2 * cap + 4096);

			if (!nb) {
				free(buf);
				fclose(f);
				return -ENOMEM;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	err = ferror(f) ? -EIO : 0;
	fclose(f);
	if (!err)
		err = ts_bench_parse(buf ? buf : "", len, b, line);
	free(buf);
	return err;
}

/*
 * How far the output's m[0] may be from the figure ts-record.sh copied: stress-ng
 * --metrics-brief prints it "%.2f", the result comes from its YAML's "%f"; lat_unix, ping-pong
 * and the YAML are the very text copied.
 */
static double rounding(const struct ts_bench *b)
{
	return !strcmp(b->kind, "stress-ng") ? 0.005 : 0;
}

int ts_bench_result(const char *value, const char *unit, const struct ts_bench *b)
{
	static const char rtt[] = "us_per_round_trip", ops[] = "bogo_ops_per_s_real_time",
			  real[] = ".bogo_ops_per_s_real";
	const char *p = value;
	int is_rtt = !strcmp(unit, rtt);
	size_t n;
	double v;

	if (!*value && !*unit)
		return 0;
	if (!is_rtt && strcmp(unit, ops))
		return -TS_ERESULTUNIT;
	if (!*value)
		return 0; /* ts-record.sh found no result line: none recorded */
	if (*value == ' ' || *value == '\t' || number(&p, &v) || *p)
		return -TS_ERESULT;
	if (!b || !b->nr)
		return 0;
	n = strlen(b->m[0].name);
	if (is_rtt ? strcmp(b->m[0].name, "latency") :
		     n < sizeof(real) || strcmp(b->m[0].name + n - (sizeof(real) - 1), real))
		return -TS_ERESULTDIFF;
	if (fabs(v - b->m[0].value) > rounding(b) * (1 + 1e-9) + 1e-12 * fabs(v))
		return -TS_ERESULTDIFF;
	return 0;
}

const struct ts_bench_metric *ts_bench_find(const struct ts_bench *b, const char *name)
{
	for (int i = 0; i < b->nr; i++)
		if (!strcmp(b->m[i].name, name))
			return &b->m[i];
	return NULL;
}
