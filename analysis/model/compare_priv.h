/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared between compare.c (statistics) and compare_explain.c (the explanation). */
#ifndef TS_COMPARE_PRIV_H
#define TS_COMPARE_PRIV_H

#include "tickscope/compare.h"

/* Decomposition, ranked changes and confounders, once every row is computed. */
int ts_cmp_explain(struct ts_cmp *c);

#endif
