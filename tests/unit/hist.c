// SPDX-License-Identifier: GPL-2.0-only
/* ts_hist: quantiles against exact order statistics on random data, merging, edge cases. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "tickscope/hist.h"

static uint64_t rng_state = 0x1234567887654321ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The exact order statistic with ts_hist_quantile()'s rank rule. */
static uint64_t exact_q(const uint64_t *sorted, size_t n, double q)
{
	size_t rank = (size_t)ceil(q * (double)n);

	if (rank < 1)
		rank = 1;
	return sorted[rank - 1];
}

static void check_quantiles(const char *name, const struct ts_hist *h, uint64_t *v, size_t n)
{
	static const double qs[] = { 0.01, 0.1, 0.5, 0.9, 0.99, 0.999 };
	double worst = 0, err;
	uint64_t want, got;
	size_t i;

	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		want = exact_q(v, n, qs[i]);
		got = ts_hist_quantile(h, qs[i]);
		err = want ? fabs((double)got - (double)want) / (double)want : (double)got;
		if (err > worst)
			worst = err;
	}
	ok(worst <= 1.0 / 32, "%s: quantiles within 1/32 (worst %.4f)", name, worst);
	is_int(ts_hist_quantile(h, 0), v[0], "min via q=0");
	is_int(ts_hist_quantile(h, 1), v[n - 1], "max via q=1");
}

int main(void)
{
	enum { N = 200000 };
	uint64_t *v = malloc(N * sizeof(*v)), sum = 0;
	struct ts_hist a = { 0 }, b = { 0 }, m = { 0 };
	unsigned int i, bad = 0;
	size_t k;

	/* Every bucket's bounds are consistent with the index function. */
	for (i = 0; i < TS_HIST_NR_BUCKETS; i++) {
		uint64_t lo = ts_hist_bucket_low(i), w = ts_hist_bucket_width(i);

		if (ts_hist_bucket(lo) != i || ts_hist_bucket(lo + w - 1) != i)
			bad++;
		if (i >= 2 * TS_HIST_SUB && w * TS_HIST_SUB > lo)
			bad++;
	}
	is_int(bad, 0, "bucket bounds round-trip and widths <= 1/16 of the value");
	is_int(ts_hist_bucket(UINT64_MAX), TS_HIST_NR_BUCKETS - 1, "UINT64_MAX in the last bucket");
	is_int(ts_hist_quantile(&a, 0.5), 0, "empty histogram: quantile 0");

	/* Log-uniform values from 1 ns to ~1 s, the shape of latencies. */
	for (k = 0; k < N; k++) {
		v[k] = (uint64_t)exp((double)(rnd() % 20000000) / 1000000.0);
		sum += v[k];
		if (ts_hist_add(k % 2 ? &a : &b, v[k]))
			break;
	}
	ok(k == N, "added %d values", N);
	ok(ts_hist_merge(&m, &a) == 0 && ts_hist_merge(&m, &b) == 0, "merged two halves");
	is_int(m.count, N, "merged count exact");
	ok(m.sum == sum, "merged sum exact");
	check_quantiles("log-uniform merged", &m, v, N);

	/* Merge equals adding everything to one histogram, bucket by bucket. */
	ts_hist_release(&a);
	for (k = 0; k < N; k++)
		ts_hist_add(&a, v[k]);
	for (bad = 0, i = 0; i < TS_HIST_NR_BUCKETS; i++)
		bad += ts_hist_get(&a, i) != ts_hist_get(&m, i);
	is_int(bad, 0, "merge == single histogram, bucket by bucket");

	/* Small exact values and a narrow cluster. */
	ts_hist_release(&a);
	for (k = 0; k < N; k++) {
		v[k] = k % 2 ? rnd() % 32 : 1000000 + rnd() % 1000;
		ts_hist_add(&a, v[k]);
	}
	check_quantiles("bimodal", &a, v, N);
	ts_hist_release(&a);
	ts_hist_add_n(&a, 7, 3);
	is_int(ts_hist_quantile(&a, 0.5), 7, "values below 32 are exact");
	is_int(a.count, 3, "add_n count");
	is_int(a.sum, 21, "add_n sum");
	ts_hist_release(&a);
	ts_hist_release(&b);
	ts_hist_release(&m);
	free(v);
	return tap_done();
}
