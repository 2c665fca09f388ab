// SPDX-License-Identifier: GPL-2.0-only
/* Log-linear histograms: growth of the stored group window, merging and quantiles. */
#include <errno.h>
#include <math.h>
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

/* Make the stored window span groups [lo, hi]. */
static int resize(struct ts_hist *h, unsigned int lo, unsigned int hi)
{
	unsigned int nr = hi - lo + 1;
	uint32_t *b;

	if (h->b && lo == h->lo && nr == h->nr)
		return 0;
	b = calloc((size_t)nr * TS_HIST_SUB, sizeof(*b));
	if (!b)
		return -ENOMEM;
	if (h->b) {
		memcpy(b + (size_t)(h->lo - lo) * TS_HIST_SUB, h->b,
		       (size_t)h->nr * TS_HIST_SUB * sizeof(*b));
		free(h->b);
	}
	h->b = b;
	h->lo = (uint16_t)lo;
	h->nr = (uint16_t)nr;
	return 0;
}

int ts_hist_grow(struct ts_hist *h, unsigned int idx)
{
	unsigned int g = idx / TS_HIST_SUB, lo = g, hi = g;

	if (h->b) {
		lo = g < h->lo ? g : h->lo;
		hi = g >= (unsigned int)h->lo + h->nr ? g : h->lo + h->nr - 1u;
	}
	return resize(h, lo, hi);
}

void ts_hist_release(struct ts_hist *h)
{
	free(h->b);
	memset(h, 0, sizeof(*h));
}

int ts_hist_merge(struct ts_hist *dst, const struct ts_hist *src)
{
	unsigned int lo, hi, i, off;
	int err;

	if (!src->count)
		return 0;
	lo = src->lo;
	hi = src->lo + src->nr - 1u;
	if (dst->b) {
		lo = lo < dst->lo ? lo : dst->lo;
		if ((unsigned int)dst->lo + dst->nr - 1u > hi)
			hi = dst->lo + dst->nr - 1u;
	}
	err = resize(dst, lo, hi);
	if (err)
		return err;
	off = (src->lo - dst->lo) * TS_HIST_SUB;
	for (i = 0; i < (unsigned int)src->nr * TS_HIST_SUB; i++) {
		uint32_t *c = &dst->b[off + i];

		*c = src->b[i] >= UINT32_MAX - *c ? UINT32_MAX : *c + src->b[i];
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
	n = (unsigned int)h->nr * TS_HIST_SUB;
	for (i = 0; i < n; i++) {
		seen += h->b[i];
		if (seen >= rank)
			break;
	}
	if (i == n)
		return h->max;
	i += h->lo * TS_HIST_SUB;
	v = ts_hist_bucket_low(i) + (ts_hist_bucket_width(i) - 1) / 2;
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

uint64_t ts_hist_get(const struct ts_hist *h, unsigned int idx)
{
	unsigned int g = idx / TS_HIST_SUB;

	if (!h->b || g < h->lo || g >= (unsigned int)h->lo + h->nr)
		return 0;
	return h->b[idx - h->lo * TS_HIST_SUB];
}

unsigned int ts_hist_first(const struct ts_hist *h)
{
	return h->b ? h->lo * TS_HIST_SUB : 0;
}

unsigned int ts_hist_end(const struct ts_hist *h)
{
	return h->b ? ((unsigned int)h->lo + h->nr) * TS_HIST_SUB : 0;
}
