/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Log-linear histograms of nanosecond values: exact count/sum/min/max, 16 linear sub-buckets per
 * power of two, mergeable across runs. Quantiles are within 1/32 (3.125%) of the true value.
 */
#ifndef TICKSCOPE_HIST_H
#define TICKSCOPE_HIST_H

#include <stdint.h>

/*
 * Bucket layout. Group 0 holds the values 0..15 one per bucket. Group g >= 1 holds
 * [2^(g+3), 2^(g+4)) in 16 buckets of width 2^(g-1), so values below 32 are exact and a bucket
 * is never wider than 1/16 of its lower bound. Index = group * 16 + sub-bucket; the layout is
 * part of the JSON schema (docs/report-json.md), so merging across runs is index-wise.
 */
#define TS_HIST_SUB_BITS 4
#define TS_HIST_SUB (1u << TS_HIST_SUB_BITS)
#define TS_HIST_GROUPS 61
#define TS_HIST_NR_BUCKETS (TS_HIST_GROUPS * TS_HIST_SUB)

/*
 * Counters exist only for the groups between the lowest and the highest value seen: at most
 * TS_HIST_NR_BUCKETS u32 (3.8 KiB), usually a few hundred bytes. A histogram that has seen
 * few distinct buckets keeps them as a short sorted list instead (nr 0, ns entries of bucket
 * index | count << TS_HIST_SMALL_SHIFT), so that the per-task histograms of the many
 * short-lived tasks of a busy machine cost 32 bytes each, not a window of groups: up to
 * TS_HIST_SHORT entries, then up to TS_HIST_SMALL while they span more than TS_HIST_NARROW
 * groups (a window would cost 64 bytes a group; a narrower list becomes its window, counted
 * inline). A list of at most TS_HIST_INLINE entries lies in the struct itself (most of those
 * tasks' have one or two), and no allocation is made for it.
 * A bucket saturates at UINT32_MAX (4.29e9 values in one bucket); count, sum, min and max are
 * u64 and always exact. A zeroed struct is empty.
 */
#define TS_HIST_SMALL 16
#define TS_HIST_SMALL_SHIFT 10
#define TS_HIST_INLINE 2
#define TS_HIST_SHORT 6
#define TS_HIST_NARROW 3
struct ts_hist {
	uint64_t count, sum, min, max;
	union {
		uint32_t *b; /* the window of nr groups from group lo, or the list when nr is 0 */
		uint32_t in[TS_HIST_INLINE]; /* the list, when nr is 0 and ns <= TS_HIST_INLINE */
	};
	uint16_t lo, nr, ns;
};

/* An empty histogram, for a pointer that must point somewhere before the first value. */
extern const struct ts_hist ts_hist_none;

/**
 * ts_hist_bucket() - the bucket index of a value
 *
 * With k the top bit of @v (at least TS_HIST_SUB_BITS, which puts 0..15 in group 0 one per
 * bucket), the group is k - 3 and the sub-bucket the 4 bits under the top one: the index is
 * (k - 4) * 16 + (v >> (k - 4)), the top bit adding the 16 of the group's offset. No branch.
 */
static inline unsigned int ts_hist_bucket(uint64_t v)
{
	unsigned int k = 63 - (unsigned int)__builtin_clzll(v | TS_HIST_SUB) - TS_HIST_SUB_BITS;

	return k * TS_HIST_SUB + (unsigned int)(v >> k);
}

/** ts_hist_bucket_low() - the lowest value of bucket @idx */
uint64_t ts_hist_bucket_low(unsigned int idx);

/** ts_hist_bucket_width() - how many values bucket @idx holds */
uint64_t ts_hist_bucket_width(unsigned int idx);

/* The out-of-line part of ts_hist_add(): counts @n in bucket @idx outside the window. */
int ts_hist_add_slow(struct ts_hist *h, unsigned int idx, uint64_t n);

/**
 * ts_hist_add_n() - record @n occurrences of the value @v
 * Return: 0, or -ENOMEM (the histogram is then unchanged).
 */
static inline int ts_hist_add_n(struct ts_hist *h, uint64_t v, uint64_t n)
{
	unsigned int idx = ts_hist_bucket(v);

	/* one compare: a group below lo wraps; no window (empty or a list) is nr 0 */
	if (idx / TS_HIST_SUB - h->lo >= h->nr) {
		int err = ts_hist_add_slow(h, idx, n);

		if (err)
			return err;
	} else {
		uint32_t *c = &h->b[idx - h->lo * TS_HIST_SUB];

		*c = n >= (uint64_t)(UINT32_MAX - *c) ? UINT32_MAX : *c + (uint32_t)n;
	}
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count += n;
	h->sum += v * n;
	return 0;
}

/** ts_hist_add() - record one value; Return: 0 or -ENOMEM */
static inline int ts_hist_add(struct ts_hist *h, uint64_t v)
{
	return ts_hist_add_n(h, v, 1);
}

/** ts_hist_release() - free the counters; the histogram is empty again */
void ts_hist_release(struct ts_hist *h);

/**
 * ts_hist_merge() - add every value of @src to @dst (count, sum, min and max stay exact)
 * Return: 0 or -ENOMEM (@dst unchanged).
 */
int ts_hist_merge(struct ts_hist *dst, const struct ts_hist *src);

/**
 * ts_hist_quantile() - the value at quantile @q (0..1)
 *
 * The rank is ceil(q * count) (at least 1); the answer is the middle of the bucket holding that
 * rank, clamped to [min, max]. Buckets are at most 1/16 of their value wide, so the answer is
 * within 1/32 of the exact order statistic; values below 32 are exact, q = 0 gives min and
 * q = 1 gives max. Return: 0 for an empty histogram.
 */
uint64_t ts_hist_quantile(const struct ts_hist *h, double q);

/** ts_hist_get() - the count in bucket @idx (0 outside the stored range) */
uint64_t ts_hist_get(const struct ts_hist *h, unsigned int idx);

/** ts_hist_first() - the lowest stored bucket index; ts_hist_end() - one past the highest */
unsigned int ts_hist_first(const struct ts_hist *h);
unsigned int ts_hist_end(const struct ts_hist *h);

#endif
