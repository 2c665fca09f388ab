// SPDX-License-Identifier: GPL-2.0-only
/* Log-linear histograms: growth of the stored group window, merging and quantiles. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/hist.h"

uint64_t ts_hist_bucket_low(unsigned int idx)
{
	unsigned int g = idx / TS_HIST_SUB, sub = idx % TS_HIST_SUB;

	if (g == 0)
		return sub;
	return (uint64_t)(TS_HIST_SUB + sub) << (g - 1);
}

uint64_t ts_hist_bucket_width(unsigned int idx)
{
	unsigned int g = idx / TS_HIST_SUB;

	return g == 0 ? 1 : (uint64_t)1 << (g - 1);
}

#define SMALL_IDX_MASK ((1u << TS_HIST_SMALL_SHIFT) - 1)
#define SMALL_MAX (UINT32_MAX >> TS_HIST_SMALL_SHIFT)

static inline unsigned int small_idx(uint32_t e)
{
	return e & SMALL_IDX_MASK;
}

static inline uint32_t small_count(uint32_t e)
{
	return e >> TS_HIST_SMALL_SHIFT;
}

/* The list's entries (nr 0): in the struct up to TS_HIST_INLINE of them, else allocated. */
static inline uint32_t *list(struct ts_hist *h)
{
	return h->ns <= TS_HIST_INLINE ? h->in : h->b;
}

static inline const uint32_t *clist(const struct ts_hist *h)
{
	return h->ns <= TS_HIST_INLINE ? h->in : h->b;
}

/* The counters or the list were allocated (not a list in the struct). */
static inline bool allocated(const struct ts_hist *h)
{
	return h->nr || h->ns > TS_HIST_INLINE;
}

/* Add @n to counter @c, saturating at UINT32_MAX. */
static inline void count_add(uint32_t *c, uint64_t n)
{
	*c = n >= (uint64_t)(UINT32_MAX - *c) ? UINT32_MAX : *c + (uint32_t)n;
}

/* Make the stored window span groups [lo, hi]; a list becomes a window. */
static int resize(struct ts_hist *h, unsigned int lo, unsigned int hi)
{
	unsigned int nr = hi - lo + 1, i;
	uint32_t *b;

	if (h->nr && lo == h->lo && nr == h->nr)
		return 0;
	b = calloc((size_t)nr * TS_HIST_SUB, sizeof(*b));
	if (!b)
		return -ENOMEM;
	if (h->nr) {
		memcpy(b + (size_t)(h->lo - lo) * TS_HIST_SUB, h->b,
		       (size_t)h->nr * TS_HIST_SUB * sizeof(*b));
	} else {
		const uint32_t *l = clist(h);

		for (i = 0; i < h->ns; i++)
			b[small_idx(l[i]) - lo * TS_HIST_SUB] = small_count(l[i]);
	}
	if (allocated(h))
		free(h->b);
	h->b = b;
	h->lo = (uint16_t)lo;
	h->nr = (uint16_t)nr;
	h->ns = 0;
	return 0;
}

/* Count @n in bucket @idx of the list; 1 when the list cannot hold it. */
static int small_add(struct ts_hist *h, unsigned int idx, uint64_t n)
{
	uint32_t *l = list(h);
	unsigned int i, j;

	for (i = 0; i < h->ns && small_idx(l[i]) < idx; i++)
		;
	if (i < h->ns && small_idx(l[i]) == idx) {
		if (n > SMALL_MAX - small_count(l[i]))
			return 1;
		l[i] += (uint32_t)n << TS_HIST_SMALL_SHIFT;
		return 0;
	}
	if (h->ns == TS_HIST_SMALL || n > SMALL_MAX)
		return 1;
	/*
	 * Past TS_HIST_SHORT entries a list spanning at most TS_HIST_NARROW groups becomes its
	 * window (about as small, and counted inline from then on); a wider one, the few values of
	 * a short-lived task far apart, stays a list: a window would cost 64 bytes a group.
	 */
	if (h->ns >= TS_HIST_SHORT &&
	    (idx > small_idx(l[h->ns - 1]) ? idx : small_idx(l[h->ns - 1])) / TS_HIST_SUB -
			    (idx < small_idx(l[0]) ? idx : small_idx(l[0])) / TS_HIST_SUB <
		    TS_HIST_NARROW)
		return 1;
	if (h->ns == TS_HIST_INLINE || h->ns == TS_HIST_SHORT) { /* room for more entries */
		unsigned int room = h->ns == TS_HIST_INLINE ? TS_HIST_SHORT : TS_HIST_SMALL;

		if (h->ns == TS_HIST_INLINE) {
			l = malloc(room * sizeof(*l));
			if (l)
				memcpy(l, h->in, sizeof(h->in));
		} else {
			l = realloc(h->b, room * sizeof(*l));
		}
		if (!l)
			return -ENOMEM;
		h->b = l;
	}
	for (j = h->ns; j > i; j--)
		l[j] = l[j - 1];
	l[i] = idx | (uint32_t)n << TS_HIST_SMALL_SHIFT;
	h->ns++;
	return 0;
}

/* The groups the histogram stores: [*lo, *hi]; false when it stores none. */
static bool span(const struct ts_hist *h, unsigned int *lo, unsigned int *hi)
{
	if (h->nr) {
		*lo = h->lo;
		*hi = h->lo + h->nr - 1u;
		return true;
	}
	if (!h->ns)
		return false;
	*lo = small_idx(clist(h)[0]) / TS_HIST_SUB;
	*hi = small_idx(clist(h)[h->ns - 1]) / TS_HIST_SUB;
	return true;
}

int ts_hist_add_slow(struct ts_hist *h, unsigned int idx, uint64_t n)
{
	unsigned int g = idx / TS_HIST_SUB, lo = g, hi = g;
	int err;

	if (!h->nr) {
		err = small_add(h, idx, n);
		if (err <= 0)
			return err;
	}
	if (span(h, &lo, &hi)) {
		lo = g < lo ? g : lo;
		hi = g > hi ? g : hi;
	}
	err = resize(h, lo, hi);
	if (err)
		return err;
	count_add(&h->b[idx - h->lo * TS_HIST_SUB], n);
	return 0;
}

const struct ts_hist ts_hist_none;

void ts_hist_release(struct ts_hist *h)
{
	if (allocated(h))
		free(h->b);
	memset(h, 0, sizeof(*h));
}

int ts_hist_merge(struct ts_hist *dst, const struct ts_hist *src)
{
	unsigned int lo, hi, dlo, dhi, i, off;
	int err;

	if (!src->count)
		return 0;
	if (!src->nr) {
		/* a list: bucket by bucket, so that a list stays a list while it can */
		const uint32_t *l = clist(src);

		for (i = 0; i < src->ns; i++) {
			unsigned int idx = small_idx(l[i]);

			if (idx / TS_HIST_SUB - dst->lo < dst->nr)
				count_add(&dst->b[idx - dst->lo * TS_HIST_SUB], small_count(l[i]));
			else if ((err = ts_hist_add_slow(dst, idx, small_count(l[i]))))
				return err;
		}
	} else {
		lo = src->lo;
		hi = src->lo + src->nr - 1u;
		if (span(dst, &dlo, &dhi)) {
			lo = lo < dlo ? lo : dlo;
			hi = hi > dhi ? hi : dhi;
		}
		err = resize(dst, lo, hi);
		if (err)
			return err;
		off = (src->lo - dst->lo) * TS_HIST_SUB;
		for (i = 0; i < (unsigned int)src->nr * TS_HIST_SUB; i++)
			count_add(&dst->b[off + i], src->b[i]);
	}
	if (!dst->count || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	dst->count += src->count;
	dst->sum += src->sum;
	return 0;
}

uint64_t ts_hist_quantile(const struct ts_hist *h, double q)
{
	uint64_t rank, seen = 0, v;
	unsigned int i, n;

	if (!h->count)
		return 0;
	if (q <= 0)
		return h->min;
	if (q >= 1)
		return h->max;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (!h->nr) {
		const uint32_t *l = clist(h);

		for (n = 0; n < h->ns; n++) {
			seen += small_count(l[n]);
			if (seen >= rank)
				break;
		}
		if (n == h->ns)
			return h->max;
		i = small_idx(l[n]);
	} else {
		n = (unsigned int)h->nr * TS_HIST_SUB;
		for (i = 0; i < n; i++) {
			seen += h->b[i];
			if (seen >= rank)
				break;
		}
		if (i == n)
			return h->max;
		i += h->lo * TS_HIST_SUB;
	}
	v = ts_hist_bucket_low(i) + (ts_hist_bucket_width(i) - 1) / 2;
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

uint64_t ts_hist_get(const struct ts_hist *h, unsigned int idx)
{
	unsigned int g = idx / TS_HIST_SUB, i;

	if (!h->nr) {
		const uint32_t *l = clist(h);

		for (i = 0; i < h->ns; i++)
			if (small_idx(l[i]) == idx)
				return small_count(l[i]);
		return 0;
	}
	if (g < h->lo || g >= (unsigned int)h->lo + h->nr)
		return 0;
	return h->b[idx - h->lo * TS_HIST_SUB];
}

unsigned int ts_hist_first(const struct ts_hist *h)
{
	unsigned int lo, hi;

	return span(h, &lo, &hi) ? lo * TS_HIST_SUB : 0;
}

unsigned int ts_hist_end(const struct ts_hist *h)
{
	unsigned int lo, hi;

	return span(h, &lo, &hi) ? (hi + 1) * TS_HIST_SUB : 0;
}
