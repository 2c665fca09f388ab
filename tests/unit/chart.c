// SPDX-License-Identifier: GPL-2.0-only
/*
 * The chart table writers on known inputs: a CDF from histogram buckets, a table that drops
 * its all-zero and unmeasured columns, a table of nothing (not drawn), and label cleaning.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "tickscope/chart.h"

static char *slurp(const char *dir, const char *name)
{
	static char buf[4096];
	char path[512];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static void cdf(struct ts_charts *cs)
{
	struct ts_hist a = { 0 }, b = { 0 };
	const struct ts_hist *h[2] = { &a, &b };
	const char *labels[2] = { "A", "B" };
	struct ts_chart *c = ts_charts_add(cs, "cdf", "latency-cdf.gp");
	const char *t;

	/* A: 1, 2, 2, 3 (exact buckets below 16); B: nothing. */
	ts_hist_add(&a, 1);
	ts_hist_add_n(&a, 2, 2);
	ts_hist_add(&a, 3);
	ok(c && !ts_chart_cdf(cs, c, 2, labels, h), "a CDF of one series and one empty");
	t = slurp(cs->dir, "cdf.tsv");
	ok(t && !strcmp(t, "upper_ns\tA (N=4)\n"
			   "1\t0\n2\t0.25\n3\t0.75\n4\t1\n"),
	   "the empty series is left out; rows at each bucket's upper bound: %s", t ? t : "-");
	t = slurp(cs->dir, "cdf-marks.tsv");
	ok(t && !strcmp(t, "series\tp50_ns\tp99_ns\nA\t2\t3\n"), "p50 and p99 marks: %s",
	   t ? t : "-");
	ok(c && !c->missing[0] && c->marks, "drawn, with marks");
	c = ts_charts_add(cs, "none", "latency-cdf.gp");
	ok(c && !ts_chart_cdf(cs, c, 1, labels + 1, h + 1) && c->missing[0], "nothing: not drawn");
	ts_hist_release(&a);
}

static void table(struct ts_charts *cs)
{
	static const char *const rows[] = { "cpu0", "cpu1" };
	static const char *const cols[] = { "zero", "nan", "it\"s", "some" };
	const double v[] = { 0, NAN, 1.5, 0, 0, NAN, NAN, 2 };
	const double z[] = { 0, NAN, 0, 0, 0, NAN, NAN, 0 };
	struct ts_chart_table t = { "group", 2, 4, rows, cols, v, 0 };
	struct ts_chart *c = ts_charts_add(cs, "tab", "stacked-bars.gp");
	const char *s;

	ok(c && !ts_chart_table(cs, c, &t), "a table");
	s = slurp(cs->dir, "tab.tsv");
	ok(s && !strcmp(s, "group\tit_s\tsome\ncpu0\t1.5\t0\ncpu1\t-\t2\n"),
	   "zero and unmeasured columns go, '-' stands for unmeasured, quotes are cleaned: %s",
	   s ? s : "-");
	c = ts_charts_add(cs, "zeros", "stacked-bars.gp");
	t.v = z;
	ok(c && !ts_chart_table(cs, c, &t) && !strcmp(c->missing, "recorded, but none happened"),
	   "only zeros: not drawn, and says why");
	{
		char path[512];

		snprintf(path, sizeof(path), "%s/zeros.tsv", cs->dir);
		ok(access(path, F_OK) != 0, "and no file");
	}
}

int main(void)
{
	char dir[] = "/tmp/tickscope-chart-XXXXXX";
	struct ts_charts cs = { 0 };
	char s[] = "a'b\"c$d`e\\f\tg";

	if (!mkdtemp(dir)) {
		tap_skip_all("no temporary folder");
		return 0;
	}
	cs.dir = dir;
	cdf(&cs);
	table(&cs);
	ok(!strcmp(ts_chart_clean(s), "a_b_c_d_e_f_g"), "labels lose quotes, $, `, \\ and tabs");
	ts_charts_release(&cs);
	{
		char cmd[64];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			diag("could not remove %s", dir);
	}
	return tap_done();
}
