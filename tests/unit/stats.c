// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the compare statistics (model/stats.c, model/stats_rank.c) against answers
 * derived by hand (closed forms, enumerations small enough to count) and published t tables.
 */
#include <math.h>
#include <string.h>
#include <stdlib.h>

#include "tickscope/stats.h"
#include "tap.h"

#define near(got, want, tol, name)                             \
	do {                                                   \
		double g_ = (got), w_ = (want);                \
		if (!ok(fabs(g_ - w_) <= (tol), "%s", name))   \
			diag("got %.10g, want %.10g", g_, w_); \
	} while (0)

static void test_summary(void)
{
	/* mean 5, sum of squares 32: sd = sqrt(32/7); median (4+5)/2 */
	const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 }, r[] = { 1, 2, 4 };
	struct ts_summary s;

	ts_stats_summary(x, 8, 0, &s);
	near(s.mean, 5, 1e-12, "mean");
	near(s.median, 4.5, 1e-12, "median of an even count");
	near(s.sd, sqrt(32.0 / 7), 1e-12, "sample sd");
	near(s.cv, sqrt(32.0 / 7) / 5, 1e-12, "cv = sd / mean");
	/* harmonic mean of 1, 2, 4 is 3 / (1 + 1/2 + 1/4) = 12/7 */
	ts_stats_summary(r, 3, 1, &s);
	near(s.mean, 12.0 / 7, 1e-12, "harmonic mean for rates");
	near(s.median, 2, 0, "median of an odd count");
	ts_stats_summary(r, 1, 0, &s);
	ok(isnan(s.sd) && isnan(s.cv), "one run has no sd or cv");
}

/*
 * Exact p-values: with complete separation only the two extreme assignments are as extreme, so
 * p = 2 / C(n1 + n2, n1): 2/20, 2/70, 2/252. One swapped pair (U = 1) doubles the tail count:
 * 4/252. The tied and interleaved cases were counted over all C(8,4) = 70 and C(12,6) = 924
 * assignments of midranks (an enumeration in Python with exact fractions, not committed).
 */
static void test_mwu_exact(void)
{
	const double a3[] = { 1, 2, 3 }, b3[] = { 4, 5, 6 };
	const double a4[] = { 1, 2, 3, 4 }, b4[] = { 5, 6, 7, 8 };
	const double a5[] = { 1, 2, 3, 4, 5 }, b5[] = { 6, 7, 8, 9, 10 };
	const double c5[] = { 1, 2, 3, 4, 6 }, d5[] = { 5, 7, 8, 9, 10 };
	const double ta[] = { 1, 2, 2, 3 }, tb[] = { 2, 3, 4, 5 };
	const double ia[] = { 1, 2, 3, 4, 5, 6 }, ib[] = { 1.5, 2.5, 3.5, 4.5, 5.5, 6.5 };
	const double e[] = { 3, 3, 3 };
	struct ts_test t;

	ts_stats_mwu(a3, 3, b3, 3, 0.95, &t);
	near(t.p, 0.1, 1e-12, "3 vs 3 separated: p = 2/20");
	ok(t.exact, "small samples use the exact distribution");
	near(t.min_p, 0.1, 1e-12, "3 vs 3 cannot reach p < 0.05");
	ts_stats_mwu(a4, 4, b4, 4, 0.95, &t);
	near(t.p, 2.0 / 70, 1e-12, "4 vs 4 separated: p = 2/70");
	ts_stats_mwu(b5, 5, a5, 5, 0.95, &t);
	near(t.p, 2.0 / 252, 1e-12, "5 vs 5 separated: p = 2/252 (either order)");
	ts_stats_mwu(c5, 5, d5, 5, 0.95, &t);
	near(t.p, 4.0 / 252, 1e-12, "5 vs 5 with U = 1: p = 4/252");
	ts_stats_mwu(ta, 4, tb, 4, 0.95, &t);
	near(t.p, 0.2, 1e-12, "ties: exact midrank permutation p = 1/5");
	ts_stats_mwu(ia, 6, ib, 6, 0.95, &t);
	near(t.p, 323.0 / 462, 1e-12, "interleaved 6 vs 6: p = 323/462");
	ts_stats_mwu(e, 3, e, 3, 0.95, &t);
	near(t.p, 1, 1e-12, "all equal: p = 1");
	near(t.shift, 0, 0, "all equal: no shift");
	ok(ts_stats_mwu(e, 0, e, 3, 0.95, &t) < 0, "an empty side is an error");
}

/*
 * Large samples: 1..40 against 31..70 (ten tied pairs), U = 50, tie-corrected variance
 * 1600/12 * (81 - 60/6320), z = (|50 - 800| - 0.5) / sqrt(var) = 7.2124898, p = erfc(z/sqrt2).
 */
static void test_mwu_normal(void)
{
	double a[40], b[40];
	struct ts_test t;

	for (int i = 0; i < 40; i++) {
		a[i] = i + 1;
		b[i] = i + 31;
	}
	ts_stats_mwu(a, 40, b, 40, 0.95, &t);
	ok(!t.exact, "80 runs use the normal approximation");
	near(t.p / 5.493794800445091e-13, 1, 1e-6, "tie-corrected normal p");
	near(t.shift, 30, 0, "Hodges-Lehmann shift 30");
}

/*
 * At the exact test's cap (30 + 30 runs) the distribution is still built whole: samples that
 * do not overlap have the smallest p there is, 2 / C(60, 30), in both orders; and 3,000 runs a
 * side that do not overlap have a normal tail below the double range, printed as a bound.
 */
static void test_mwu_edges(void)
{
	double a[3000], b[3000];
	struct ts_test t;
	char buf[32];

	for (int i = 0; i < 3000; i++) {
		a[i] = i + 1;
		b[i] = i + 3001;
	}
	ts_stats_mwu(a, 30, b, 30, 0.95, &t);
	ok(t.exact, "30 + 30 runs: the exact distribution (TS_STATS_EXACT_MAX)");
	near(t.p / 1.6911233892144735e-17, 1, 1e-9, "separated at the cap: p = 2 / C(60, 30)");
	ts_stats_mwu(b, 30, a, 30, 0.95, &t);
	near(t.p / 1.6911233892144735e-17, 1, 1e-9, "and the same the other way round");
	ts_stats_mwu(a, 3000, b, 3000, 0.95, &t);
	ok(!t.exact && t.p < TS_STATS_P_FLOOR, "3,000 a side apart: p below the double range");
	ok(!strcmp(ts_stats_p_text(buf, sizeof(buf), t.p), "p<1e-300"),
	   "printed as a bound, not 0");
	ok(!strcmp(ts_stats_p_text(buf, sizeof(buf), 0.0312), "p=0.031"), "other p: two digits");
	ok(!strcmp(ts_stats_p_text(buf, sizeof(buf), NAN), "p=-"), "no p: a dash");
}

/*
 * Hodges-Lehmann: 1..5 against 11..15, the 25 differences are 6 (once) ... 10 (5 times) ...
 * 14 (once). Untied U for 5 vs 5 counts 1, 1, 2, 3 ways for U = 0..3 out of 252, so the largest
 * c with P(U <= c) <= 0.025 is 2 (4/252): the interval is [d(3), d(23)] = [7, 13] at
 * 1 - 8/252 = 96.83%. For 3 vs 3 no c qualifies (P(U = 0) = 0.05): [min, max] at 90%.
 */
static void test_hl(void)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 11, 12, 13, 14, 15 };
	const double a3[] = { 1, 2, 3 }, b3[] = { 4, 5, 6 };
	const double a2[] = { 0, 0 }, b2[] = { 1, 2 };
	struct ts_test t;

	ts_stats_mwu(a, 5, b, 5, 0.95, &t);
	near(t.shift, 10, 0, "HL shift 10");
	near(t.lo, 7, 0, "HL 95% CI low d(3) = 7");
	near(t.hi, 13, 0, "HL 95% CI high d(23) = 13");
	near(t.level, 1 - 8.0 / 252, 1e-12, "achieved coverage 96.83%");
	ts_stats_mwu(a3, 3, b3, 3, 0.95, &t);
	near(t.shift, 3, 0, "3 vs 3 shift 3");
	ok(t.lo == 1 && t.hi == 5, "3 vs 3 interval is the whole range");
	near(t.level, 0.9, 1e-12, "3 vs 3 achieved coverage only 90%");
	/* 2 vs 2: differences 1, 2, 1, 2, sorted 1 1 2 2: an even count, the two middle ones */
	ts_stats_mwu(a2, 2, b2, 2, 0.95, &t);
	near(t.shift, 1.5, 0, "2 vs 2 shift 1.5, the mean of the middle two differences");
}

/*
 * Student's t: df 1 is Cauchy, p = 1 - 2 atan(|t|)/pi; df 2 has p = 1 - |t|/sqrt(2 + t^2);
 * the 0.975 quantiles 12.7062 (df 1), 2.570582 (df 5) and 2.228139 (df 10) are the published
 * two-sided 5% critical values. Welch on 1..5 against 3,5,..,11: t = 4/sqrt(2.5),
 * df = 2.5^2 / (0.5^2/4 + 2^2/4) = 5.882353.
 */
static void test_t(void)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 3, 5, 7, 9, 11 };
	double t, df, p;

	near(ts_stats_t_sf2(1, 1), 0.5, 1e-12, "df 1, t 1: p = 0.5");
	near(ts_stats_t_sf2(2, 2), 1 - 2 / sqrt(6), 1e-12, "df 2, t 2: closed form");
	near(ts_stats_t_sf2(12.7062, 1), 0.05, 1e-5, "t table: df 1");
	near(ts_stats_t_sf2(2.570582, 5), 0.05, 1e-6, "t table: df 5");
	near(ts_stats_t_sf2(2.228139, 10), 0.05, 1e-6, "t table: df 10");
	near(ts_stats_t_sf2(1.959964, 1e9), 0.05, 1e-6, "large df is normal");
	near(ts_stats_norm_sf(1.959964), 0.025, 1e-7, "normal upper 2.5%");
	p = ts_stats_welch(a, 5, b, 5, &t, &df);
	near(t, 4 / sqrt(2.5), 1e-12, "Welch t");
	near(df, 6.25 / 1.0625, 1e-12, "Welch df");
	ok(p > 0.04 && p < 0.05, "Welch p between the df 5 and df 6 critical values (%g)", p);
	ok(isnan(ts_stats_welch(a, 1, b, 5, NULL, NULL)), "Welch needs 2 runs a side");
}

/*
 * p = .01 .04 .03 .005 (m = 4). Holm: sorted .005x4, .01x3, .03x2, .04x1 = .02 .03 .06 .04,
 * running max .02 .03 .06 .06. BH: 4p/i = .02 .02 .04 .04, running min from the top.
 */
static void test_adjust(void)
{
	double h[] = { 0.01, 0.04, 0.03, 0.005, NAN }, bh[] = { 0.01, 0.04, 0.03, 0.005, NAN };

	ts_stats_adjust(h, 5, TS_ADJ_HOLM);
	ok(fabs(h[0] - 0.03) < 1e-12 && fabs(h[1] - 0.06) < 1e-12 && fabs(h[2] - 0.06) < 1e-12 &&
		   fabs(h[3] - 0.02) < 1e-12 && isnan(h[4]),
	   "Holm step-down");
	ts_stats_adjust(bh, 5, TS_ADJ_BH);
	ok(fabs(bh[0] - 0.02) < 1e-12 && fabs(bh[1] - 0.04) < 1e-12 && fabs(bh[2] - 0.04) < 1e-12 &&
		   fabs(bh[3] - 0.02) < 1e-12 && isnan(bh[4]),
	   "Benjamini-Hochberg step-up");
}

/* median 10.5, MAD 0.5, threshold 3.5 x 1.4826 x 0.5 = 2.59: only 30 is out */
static void test_outliers(void)
{
	const double x[] = { 10, 11, 10.5, 10.2, 30 }, same[] = { 4, 4, 4, 9 };
	const double near_out[] = { 10, 11, 10.5, 10.2, 13.2 },
		     near_in[] = { 10, 11, 10.5, 10.2, 13 };
	int f[5];

	is_int(ts_stats_outliers(x, 5, f), 1, "one outlier");
	ok(f[4] == 1 && f[0] == 0, "the outlier is the 30");
	is_int(ts_stats_outliers(same, 4, f), 0, "MAD 0 flags nothing");
	/* the same median and MAD: 2.7 from the median is out, 2.5 is not (threshold 2.59) */
	is_int(ts_stats_outliers(near_out, 5, f), 1, "2.7 from the median, just past 3.5 MADs");
	is_int(ts_stats_outliers(near_in, 5, f), 0, "2.5 from the median, just inside 3.5 MADs");
}

static int cmp_d(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/*
 * The shift and interval come from a selection over the implicit sorted differences: they must
 * equal the order statistics of all na x nb differences built and sorted, for every size
 * (1 x 1 up), with ties (small integers), with negative values and with the large-sample rule.
 */
static void test_hl_select(void)
{
	static double a[80], b[80], d[80 * 80];
	const int sizes[][2] = { { 1, 1 }, { 1, 7 }, { 7, 1 }, { 2, 3 }, { 5, 5 }, { 8, 13 },
				 { 30, 30 }, { 31, 31 }, { 40, 80 }, { 80, 3 } };
	unsigned int seed = 12345;
	int bad = 0;

	for (int s = 0; s < (int)(sizeof(sizes) / sizeof(sizes[0])); s++) {
		for (int ties = 0; ties < 2; ties++) {
			int na = sizes[s][0], nb = sizes[s][1], m = na * nb, k;
			struct ts_test t;
			double shift;

			for (int i = 0; i < na + nb; i++) {
				seed = seed * 1103515245 + 12345;
				double v = ties ? (double)((seed >> 16) % 7) - 3
						: (double)(seed >> 8) / 1e5 - 80;
				if (i < na)
					a[i] = v;
				else
					b[i - na] = v;
			}
			for (int i = 0; i < na; i++)
				for (int j = 0; j < nb; j++)
					d[i * nb + j] = b[j] - a[i];
			qsort(d, m, sizeof(*d), cmp_d);
			ts_stats_mwu(a, na, b, nb, 0.95, &t);
			shift = m % 2 ? d[m / 2] : (d[m / 2 - 1] + d[m / 2]) / 2;
			/* some k has [d(k), d(m + 1 - k)] equal to the interval given */
			for (k = 1; k <= m && !(d[k - 1] == t.lo && d[m - k] == t.hi); k++)
				;
			if (t.shift != shift || k > m) {
				bad++;
				diag("%d x %d ties %d: shift %g want %g, lo %g hi %g", na, nb, ties,
				     t.shift, shift, t.lo, t.hi);
			}
		}
	}
	is_int(bad, 0, "HL by selection equals the sorted differences (20 cases, with ties)");
}

int main(void)
{
	test_summary();
	test_mwu_exact();
	test_mwu_normal();
	test_mwu_edges();
	test_hl();
	test_hl_select();
	test_t();
	test_adjust();
	test_outliers();
	return tap_done();
}
