/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Statistics over runs for `tickscope compare`: summaries, the Mann-Whitney U test (exact with
 * ties for small samples), Welch's t-test, the Hodges-Lehmann shift with its U-based 95% CI,
 * Holm and Benjamini-Hochberg adjustment, and the outlier rule. Pure: no I/O, no globals.
 */
#ifndef TICKSCOPE_STATS_H
#define TICKSCOPE_STATS_H

/* Exact U distributions are used up to this many runs in total (both sides). */
#define TS_STATS_EXACT_MAX 60
/* A run is an outlier when it lies more than this many scaled MADs from the median. */
#define TS_STATS_OUTLIER_MADS 3.5

struct ts_summary {
	int n;
	double median, mean, sd, cv; /* mean is harmonic for rates; cv = sd / mean (NAN if n<2) */
	double min, max;
};

struct ts_test {
	double shift; /* Hodges-Lehmann estimate of B - A (median of pairwise differences) */
	double lo, hi; /* its confidence interval (NAN when there are no runs) */
	double level; /* the interval's achieved confidence (>= 0.95, or lower when N is too small) */
	double p; /* two-sided Mann-Whitney p-value */
	int exact; /* 1: exact distribution (with ties); 0: normal approximation */
	double min_p; /* the smallest p the test could give at these sample sizes */
};

/**
 * ts_stats_summary() - N, median, mean, sd, CV of @x (unsorted, not modified)
 * @rate: 1 to take the harmonic mean (rates; falls back to NAN if any value is <= 0)
 * Return: 0, or -ENOMEM.
 */
int ts_stats_summary(const double *x, int n, int rate, struct ts_summary *s);

/**
 * ts_stats_mwu() - Mann-Whitney U test of @a against @b, with the Hodges-Lehmann shift
 * of b - a and its distribution-free confidence interval at @level (0.95)
 * Return: 0, -EINVAL when a side is empty, or -ENOMEM.
 */
int ts_stats_mwu(const double *a, int na, const double *b, int nb, double level, struct ts_test *t);

/**
 * ts_stats_welch() - Welch's two-sample t-test
 * @t, @df: out, may be NULL
 * Return: the two-sided p-value, or NAN when a side has fewer than 2 runs or no variance.
 */
double ts_stats_welch(const double *a, int na, const double *b, int nb, double *t, double *df);

/** ts_stats_t_sf2() - two-sided tail P(|T| >= |t|) of Student's t with @df degrees */
double ts_stats_t_sf2(double t, double df);

/*
 * The smallest p-value printed as a number: the normal tail of a large sample (a few thousand
 * runs a side that do not overlap) falls below the double range and would read 0, which no
 * test can give. Below it the text says "p<1e-300".
 */
#define TS_STATS_P_FLOOR 1e-300

/**
 * ts_stats_p_text() - "p=0.031" (%.2g), "p<1e-300" below TS_STATS_P_FLOOR, "p=-" for NaN
 * Return: @buf.
 */
const char *ts_stats_p_text(char *buf, size_t n, double p);

/** ts_stats_norm_sf() - upper tail P(Z >= z) of the standard normal */
double ts_stats_norm_sf(double z);

enum ts_adjust { TS_ADJ_NONE = 0, TS_ADJ_HOLM, TS_ADJ_BH };

/**
 * ts_stats_adjust() - adjust @p[0..n) in place for multiple comparisons; NAN entries are
 * ignored and stay NAN.
 * Return: 0 or -ENOMEM.
 */
int ts_stats_adjust(double *p, int n, enum ts_adjust how);

/**
 * ts_stats_outliers() - flag runs farther than TS_STATS_OUTLIER_MADS scaled MADs
 * (1.4826 x the median absolute deviation) from the median; none when the MAD is 0
 * @flag: out, one per run: 1 for an outlier
 * Return: how many were flagged, or -ENOMEM.
 */
int ts_stats_outliers(const double *x, int n, int *flag);

#endif
