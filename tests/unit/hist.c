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

/* A histogram against plain per-bucket counts: every bucket, the stored range, quantiles. */
static int same_as_ref(const struct ts_hist *h, const uint64_t *ref)
{
	static const double qs[] = { 0.01, 0.25, 0.5, 0.9, 0.99 };
	unsigned int i, lo = TS_HIST_NR_BUCKETS, hi = 0, nq;
	uint64_t count = 0;

	for (i = 0; i < TS_HIST_NR_BUCKETS; i++) {
		if (ts_hist_get(h, i) != ref[i])
			return 0;
		if (ref[i]) {
			lo = i < lo ? i : lo;
			hi = i;
		}
		count += ref[i];
	}
	if (!count)
		return !h->count && !ts_hist_first(h) && !ts_hist_end(h) &&
		       !ts_hist_quantile(h, 0.5);
	if (count != h->count || ts_hist_first(h) != lo / TS_HIST_SUB * TS_HIST_SUB ||
	    ts_hist_end(h) != (hi / TS_HIST_SUB + 1) * TS_HIST_SUB)
		return 0;
	for (nq = 0; nq < sizeof(qs) / sizeof(qs[0]); nq++) {
		uint64_t rank = (uint64_t)ceil(qs[nq] * (double)count), seen = 0, q;

		for (i = 0; seen + ref[i] < rank; i++)
			seen += ref[i];
		q = ts_hist_bucket_low(i) + (ts_hist_bucket_width(i) - 1) / 2;
		q = q < h->min ? h->min : q > h->max ? h->max : q;
		if (ts_hist_quantile(h, qs[nq]) != q)
			return 0;
	}
	return 1;
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
	/*
	 * Few distinct buckets are kept as a list, more as a window of groups: both, and every
	 * merge between them, agree with plain counts.
	 */
	{
		static uint64_t ref[TS_HIST_NR_BUCKETS], refm[TS_HIST_NR_BUCKETS];
		unsigned int distinct, round, fails = 0;

		for (round = 0; round < 400; round++) {
			struct ts_hist x = { 0 }, y = { 0 };

			distinct = 1 + round % (2 * TS_HIST_SMALL + 2);
			memset(ref, 0, sizeof(ref));
			memset(refm, 0, sizeof(refm));
			for (k = 0; k < 3 * distinct; k++) {
				uint64_t val = (uint64_t)1 << (rnd() % 40) | rnd() % 7;
				uint64_t val2 = (rnd() % 1000) * (1 + k % distinct);

				ts_hist_add(&x, val);
				ref[ts_hist_bucket(val)]++;
				if (k < (round % 3) * distinct) {
					ts_hist_add(&y, val2);
					refm[ts_hist_bucket(val2)]++;
				}
			}
			fails += !same_as_ref(&x, ref);
			fails += !same_as_ref(&y, refm);
			for (i = 0; i < TS_HIST_NR_BUCKETS; i++)
				refm[i] += ref[i];
			if (round % 2 ? ts_hist_merge(&y, &x) : ts_hist_merge(&x, &y))
				fails++;
			fails += !same_as_ref(round % 2 ? &y : &x, refm);
			ts_hist_release(&x);
			ts_hist_release(&y);
		}
		is_int(fails, 0, "lists, windows and their merges match plain counts");

		/* a list's counter past its 22 bits moves to a window; counters saturate */
		ts_hist_add_n(&a, 100, 4000000);
		ts_hist_add_n(&a, 100, 1000000);
		is_int(ts_hist_get(&a, ts_hist_bucket(100)), 5000000, "list counter overflow");
		ts_hist_add_n(&a, 100, (uint64_t)UINT32_MAX + 5);
		is_int(ts_hist_get(&a, ts_hist_bucket(100)), UINT32_MAX, "bucket saturates");
		ts_hist_release(&a);
	}
	ts_hist_release(&b);
	ts_hist_release(&m);
	free(v);
	return tap_done();
}
