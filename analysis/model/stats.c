// SPDX-License-Identifier: GPL-2.0-only
/*
 * Statistics over runs for `tickscope compare` (see tickscope/stats.h): summaries, the
 * Mann-Whitney U test with its exact permutation distribution (midranks for ties), Welch's test.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/stats.h"

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* Median of a sorted array. */
static double median_sorted(const double *x, int n)
{
	if (n <= 0)
		return NAN;
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

static double *sorted_copy(const double *x, int n)
{
	double *c = malloc((n ? n : 1) * sizeof(*c));

	if (!c)
		return NULL;
	memcpy(c, x, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_double);
	return c;
}

int ts_stats_summary(const double *x, int n, int rate, struct ts_summary *s)
{
	double sum = 0, inv = 0, ss = 0, *c;
	int i, nonpos = 0;

	memset(s, 0, sizeof(*s));
	s->n = n;
	s->median = s->mean = s->sd = s->cv = s->min = s->max = NAN;
	if (n <= 0)
		return 0;
	c = sorted_copy(x, n);
	if (!c)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		sum += c[i];
		if (c[i] > 0)
			inv += 1 / c[i];
		else
			nonpos = 1;
	}
	s->median = median_sorted(c, n);
	s->min = c[0];
	s->max = c[n - 1];
	s->mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (c[i] - s->mean) * (c[i] - s->mean);
	if (n > 1) {
		s->sd = sqrt(ss / (n - 1));
		s->cv = s->mean != 0 ? s->sd / fabs(s->mean) : NAN;
	}
	if (rate)
		s->mean = nonpos ? NAN : n / inv;
	free(c);
	return 0;
}

const char *ts_stats_p_text(char *buf, size_t n, double p)
{
	if (isnan(p))
		snprintf(buf, n, "p=-");
	else if (p < TS_STATS_P_FLOOR)
		snprintf(buf, n, "p<%.0e", TS_STATS_P_FLOOR);
	else
		snprintf(buf, n, "p=%.2g", p);
	return buf;
}

double ts_stats_norm_sf(double z)
{
	return 0.5 * erfc(z / M_SQRT2);
}

/* Continued fraction of the incomplete beta function (modified Lentz's method). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (m = 1; m <= 500; m++) {
		double aa, del;

		aa = m * (b - m) * x / ((a - 1 + 2 * m) * (a + 2 * m));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 1 + 2 * m));
		d = 1 + aa * d;
		c = 1 + aa / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* Regularized incomplete beta I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	double lbt;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1) / (a + b + 2))
		return exp(lbt) * beta_cf(a, b, x) / a;
	return 1 - exp(lbt) * beta_cf(b, a, 1 - x) / b;
}

double ts_stats_t_sf2(double t, double df)
{
	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	if (isinf(t))
		return 0;
	return beta_inc(df / 2, 0.5, df / (df + t * t));
}

static void mean_var(const double *x, int n, double *m, double *v)
{
	double s = 0, ss = 0;
	int i;

	for (i = 0; i < n; i++)
		s += x[i];
	*m = s / n;
	for (i = 0; i < n; i++)
		ss += (x[i] - *m) * (x[i] - *m);
	*v = ss / (n - 1);
}

double ts_stats_welch(const double *a, int na, const double *b, int nb, double *tp, double *dfp)
{
	double ma, va, mb, vb, sa, sb, t, df;

	if (tp)
		*tp = NAN;
	if (dfp)
		*dfp = NAN;
	if (na < 2 || nb < 2)
		return NAN;
	mean_var(a, na, &ma, &va);
	mean_var(b, nb, &mb, &vb);
	sa = va / na;
	sb = vb / nb;
	if (sa + sb <= 0)
		return NAN;
	t = (mb - ma) / sqrt(sa + sb);
	df = (sa + sb) * (sa + sb) / (sa * sa / (na - 1) + sb * sb / (nb - 1));
	if (tp)
		*tp = t;
	if (dfp)
		*dfp = df;
	return ts_stats_t_sf2(t, df);
}
