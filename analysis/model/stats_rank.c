// SPDX-License-Identifier: GPL-2.0-only
/*
 * Rank statistics for `tickscope compare`: the Mann-Whitney U test (exact permutation
 * distribution of the rank sum with midranks, so ties are exact too), the Hodges-Lehmann shift
 * with its U-based confidence interval, multiple-comparison adjustment and the outlier rule.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/stats.h"

struct obs {
	double v;
	int side; /* 0: a, 1: b */
};

static int cmp_obs(const void *pa, const void *pb)
{
	const struct obs *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

static int cmp_dbl(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/*
 * Doubled midranks (integers: 2 x the midrank) of the pooled sorted sample; also the tie term
 * sum(t^3 - t) of the normal approximation's variance.
 */
static void midranks2(const struct obs *o, int n, int *r2, double *ties)
{
	int i = 0, j;

	*ties = 0;
	while (i < n) {
		for (j = i + 1; j < n && o[j].v == o[i].v; j++)
			;
		/* ranks i+1..j share (i+1+j)/2; doubled that is i+1+j */
		for (int k = i; k < j; k++)
			r2[k] = i + 1 + j;
		*ties += (double)(j - i) * (j - i) * (j - i) - (j - i);
		i = j;
	}
}

/*
 * The permutation distribution of the sum of @k doubled ranks chosen from @r2[0..n): cnt[s] is
 * the number of k-subsets whose sum is s (0 <= s <= n(n+1)). Counts are doubles: C(60,30) fits.
 */
static double *rank_sum_counts(const int *r2, int n, int k)
{
	int smax = n * (n + 1), i, j, s, cum, *pre = malloc((n + 1) * sizeof(*pre));
	double *cnt = calloc((size_t)(k + 1) * (smax + 1), sizeof(*cnt));

	if (!cnt || !pre) {
		free(pre);
		free(cnt);
		return NULL;
	}
	/* r2 rises (midranks of the sorted sample): pre[j], the sum of its j smallest */
	for (pre[0] = 0, i = 0; i < n; i++)
		pre[i + 1] = pre[i] + r2[i];
	cnt[0] = 1;
	/*
	 * Only the sums a j-subset of the first i+1 can have, from the j smallest to the j
	 * largest, and only the j from which k can still be reached with the n-1-i left: the
	 * other counts are 0, so the answer is the same to the last bit.
	 */
	for (i = 0, cum = 0; i < n; i++) {
		int jlo = k - (n - 1 - i) > 1 ? k - (n - 1 - i) : 1;

		for (cum += r2[i], j = (i + 1 < k ? i + 1 : k); j >= jlo; j--) {
			int lo = pre[j - 1] + r2[i], hi = cum - pre[i + 1 - j];

			for (s = hi; s >= lo; s--)
				cnt[(size_t)j * (smax + 1) + s] +=
					cnt[(size_t)(j - 1) * (smax + 1) + s - r2[i]];
		}
	}
	free(pre);
	memmove(cnt, cnt + (size_t)k * (smax + 1), (smax + 1) * sizeof(*cnt));
	return cnt;
}

/* Exact two-sided p: P(|W2 - E2| >= |w2 - E2|) under random assignment of the runs. */
static int exact_p(const int *r2, int n, int na, long w2, double *p)
{
	int smax = n * (n + 1), s;
	double *cnt = rank_sum_counts(r2, n, na), tot = 0, tail = 0;
	long e2 = (long)na * (n + 1), d = labs(w2 - e2);

	if (!cnt)
		return -ENOMEM;
	for (s = 0; s <= smax; s++) {
		tot += cnt[s];
		if (labs(s - e2) >= d)
			tail += cnt[s];
	}
	free(cnt);
	*p = tot > 0 ? fmin(1, tail / tot) : NAN;
	return 0;
}

/* P(U <= u) for untied samples of na and nb, for u = 0..na*nb (the HL interval's rule). */
static double *u_cdf(int na, int nb)
{
	int n = na + nb, i, s, m = na * nb;
	int *r2 = malloc(n * sizeof(*r2));
	double *cnt, *cdf = calloc(m + 1, sizeof(*cdf)), tot = 0, run = 0;

	if (!r2 || !cdf)
		goto fail;
	for (i = 0; i < n; i++)
		r2[i] = 2 * (i + 1);
	cnt = rank_sum_counts(r2, n, na);
	if (!cnt)
		goto fail;
	for (s = 0; s <= n * (n + 1); s++)
		tot += cnt[s];
	/* W2 = 2U + na(na+1) */
	for (i = 0; i <= m; i++) {
		run += cnt[2 * i + na * (na + 1)];
		cdf[i] = run / tot;
	}
	free(cnt);
	free(r2);
	return cdf;
fail:
	free(r2);
	free(cdf);
	return NULL;
}

/* z with P(Z >= z) = @q, by bisection (only the large-sample interval needs it). */
static double z_upper(double q)
{
	double lo = 0, hi = 40;

	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (ts_stats_norm_sf(mid) > q)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/*
 * The k-th smallest (1-based) of the na x nb differences b[j] - a[i], both sides sorted, without
 * building them: row i's differences rise with j and fall with i (floating-point subtraction is
 * monotone in each operand, so this holds for the rounded values too). Each step takes an
 * active difference as the pivot, counts the differences below and equal to it with one pointer
 * that only moves forward (the row's count cannot fall as a[i] rises), and drops the rows'
 * columns on the pivot's wrong side: O(na + nb) a step, O(log(na nb)) steps expected. The
 * answer is one of the differences, exactly as in the sorted list of all of them.
 */
struct hl_rows {
	const double *a, *b;
	int na, nb;
	int *lo, *hi; /* row i's active columns: [lo[i], hi[i]) */
	int *le, *lt; /* per row: columns <= pivot, < pivot */
	unsigned long long rng;
};

static long count_le(struct hl_rows *h, double p, int strict, int *cnt)
{
	long tot = 0;
	int j = 0;

	for (int i = 0; i < h->na; i++) {
		while (j < h->nb && (strict ? h->b[j] - h->a[i] < p : h->b[j] - h->a[i] <= p))
			j++;
		cnt[i] = j;
		tot += j;
	}
	return tot;
}

/* A pseudo-random active difference (xorshift; the answer does not depend on the choice). */
static double pick_pivot(struct hl_rows *h, long active)
{
	long r;
	int i;

	h->rng ^= h->rng << 13;
	h->rng ^= h->rng >> 7;
	h->rng ^= h->rng << 17;
	r = (long)(h->rng % (unsigned long long)active);
	for (i = 0; r >= h->hi[i] - h->lo[i]; i++)
		r -= h->hi[i] - h->lo[i];
	return h->b[h->lo[i] + r] - h->a[i];
}

static double kth_diff(struct hl_rows *h, long k)
{
	long active = (long)h->na * h->nb;

	for (int i = 0; i < h->na; i++) {
		h->lo[i] = 0;
		h->hi[i] = h->nb;
	}
	while (active > 0) {
		double p = pick_pivot(h, active);
		long lt = count_le(h, p, 1, h->lt), le = count_le(h, p, 0, h->le);

		if (k > lt && k <= le)
			return p;
		active = 0;
		for (int i = 0; i < h->na; i++) {
			if (k <= lt)
				h->hi[i] = h->lt[i] < h->hi[i] ? h->lt[i] : h->hi[i];
			else
				h->lo[i] = h->le[i] > h->lo[i] ? h->le[i] : h->lo[i];
			if (h->hi[i] < h->lo[i])
				h->hi[i] = h->lo[i];
			active += h->hi[i] - h->lo[i];
		}
	}
	return NAN; /* not reached: the k-th difference stays active until it is the pivot */
}

/* Sorted copies of both sides and the row bounds, in one allocation each. */
static int hl_rows_init(struct hl_rows *h, const double *a, int na, const double *b, int nb)
{
	double *s = malloc((size_t)(na + nb) * sizeof(*s));
	int *w = malloc((size_t)4 * na * sizeof(*w));

	if (!s || !w) {
		free(s);
		free(w);
		return -ENOMEM;
	}
	memcpy(s, a, na * sizeof(*s));
	memcpy(s + na, b, nb * sizeof(*s));
	qsort(s, na, sizeof(*s), cmp_dbl);
	qsort(s + na, nb, sizeof(*s), cmp_dbl);
	*h = (struct hl_rows){ s, s + na, na, nb, w, w + na, w + 2 * na, w + 3 * na,
			       0x9e3779b97f4a7c15ULL };
	return 0;
}

static void hl_rows_free(struct hl_rows *h)
{
	free((double *)h->a);
	free(h->lo);
}

/* Hodges-Lehmann shift of b - a and its interval [d(k), d(M+1-k)] over sorted differences. */
static int hodges_lehmann(const double *a, int na, const double *b, int nb, double level, int exact,
			  struct ts_test *t)
{
	long m = (long)na * nb, k = 1;
	double alpha2 = (1 - level) / 2;
	struct hl_rows h;

	if (hl_rows_init(&h, a, na, b, nb))
		return -ENOMEM;
	t->shift = m % 2 ? kth_diff(&h, m / 2 + 1)
			 : (kth_diff(&h, m / 2) + kth_diff(&h, m / 2 + 1)) / 2;
	if (exact) {
		double *cdf = u_cdf(na, nb);
		long c = -1;

		if (!cdf) {
			hl_rows_free(&h);
			return -ENOMEM;
		}
		/* c: the largest U with P(U <= c) <= alpha/2; coverage is 1 - 2 P(U <= k - 1) */
		while (c + 1 < (m + 1) / 2 && cdf[c + 1] <= alpha2)
			c++;
		k = c + 1 > 1 ? c + 1 : 1;
		t->level = 1 - 2 * cdf[k - 1];
		free(cdf);
	} else {
		double n1 = na, n2 = nb, sd = sqrt(n1 * n2 * (n1 + n2 + 1) / 12);

		k = (long)floor(m / 2.0 - z_upper(alpha2) * sd);
		k = k < 1 ? 1 : k;
		t->level = level;
	}
	t->lo = kth_diff(&h, k);
	t->hi = kth_diff(&h, m + 1 - k);
	hl_rows_free(&h);
	return 0;
}

/* The smallest two-sided p of the exact test without ties: 2 / C(na + nb, na). */
static double min_p(int na, int nb)
{
	double lc = lgamma(na + nb + 1.0) - lgamma(na + 1.0) - lgamma(nb + 1.0);

	return fmin(1, 2 * exp(-lc));
}

int ts_stats_mwu(const double *a, int na, const double *b, int nb, double level, struct ts_test *t)
{
	int n = na + nb, i, *r2 = NULL, err = -ENOMEM;
	struct obs *o = malloc((n ? n : 1) * sizeof(*o));
	double ties;
	long w2 = 0;

	memset(t, 0, sizeof(*t));
	t->shift = t->lo = t->hi = t->p = t->level = NAN;
	if (na <= 0 || nb <= 0) {
		free(o);
		return -EINVAL;
	}
	r2 = malloc(n * sizeof(*r2));
	if (!o || !r2)
		goto out;
	for (i = 0; i < n; i++)
		o[i] = (struct obs){ i < na ? a[i] : b[i - na], i >= na };
	qsort(o, n, sizeof(*o), cmp_obs);
	midranks2(o, n, r2, &ties);
	for (i = 0; i < n; i++)
		if (!o[i].side)
			w2 += r2[i];
	t->min_p = min_p(na, nb);
	t->exact = n <= TS_STATS_EXACT_MAX;
	if (t->exact) {
		err = exact_p(r2, n, na, w2, &t->p);
		if (err)
			goto out;
	} else {
		/* normal approximation with the tie correction and a continuity correction */
		double u = w2 / 2.0 - na * (na + 1) / 2.0, mu = (double)na * nb / 2;
		double var = (double)na * nb / 12 * ((n + 1) - ties / ((double)n * (n - 1)));
		double z = var > 0 ? (fabs(u - mu) - 0.5) / sqrt(var) : 0;

		t->p = var > 0 ? fmin(1, 2 * ts_stats_norm_sf(z < 0 ? 0 : z)) : 1;
	}
	err = hodges_lehmann(a, na, b, nb, level, t->exact, t);
out:
	free(o);
	free(r2);
	return err;
}

struct pidx {
	double p;
	int i;
};

static int cmp_pidx(const void *pa, const void *pb)
{
	const struct pidx *a = pa, *b = pb;

	return (a->p > b->p) - (a->p < b->p);
}

int ts_stats_adjust(double *p, int n, enum ts_adjust how)
{
	struct pidx *s;
	int m = 0, i;
	double run;

	if (how == TS_ADJ_NONE || n <= 0)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (!isnan(p[i]))
			s[m++] = (struct pidx){ p[i], i };
	qsort(s, m, sizeof(*s), cmp_pidx);
	if (how == TS_ADJ_HOLM) {
		/* step-down: max over j <= i of (m - j) p(j), capped at 1 */
		for (run = 0, i = 0; i < m; i++) {
			run = fmax(run, fmin(1, (m - i) * s[i].p));
			p[s[i].i] = run;
		}
	} else {
		/* Benjamini-Hochberg step-up: min over j >= i of m p(j) / (j + 1) */
		for (run = 1, i = m - 1; i >= 0; i--) {
			run = fmin(run, (double)m * s[i].p / (i + 1));
			p[s[i].i] = run;
		}
	}
	free(s);
	return 0;
}

int ts_stats_outliers(const double *x, int n, int *flag)
{
	double *c, *dev, med, mad;
	int i, nr = 0;

	memset(flag, 0, n * sizeof(*flag));
	if (n < 3)
		return 0;
	c = malloc(2 * n * sizeof(*c));
	if (!c)
		return -ENOMEM;
	dev = c + n;
	memcpy(c, x, n * sizeof(*c));
	qsort(c, n, sizeof(*c), cmp_dbl);
	med = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
	for (i = 0; i < n; i++)
		dev[i] = fabs(x[i] - med);
	qsort(dev, n, sizeof(*dev), cmp_dbl);
	mad = 1.4826 * (n % 2 ? dev[n / 2] : (dev[n / 2 - 1] + dev[n / 2]) / 2);
	for (i = 0; mad > 0 && i < n; i++) {
		flag[i] = fabs(x[i] - med) > TS_STATS_OUTLIER_MADS * mad;
		nr += flag[i];
	}
	free(c);
	return nr;
}
