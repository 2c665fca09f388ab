/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tickscope's version, and the identity of the analysis code that a cached summary is keyed by
 * (TS_MODELS_ID: a hash of analysis/'s sources, made by the Makefile in $(BUILD)/gen).
 */
#ifndef TICKSCOPE_VERSION_H
#define TICKSCOPE_VERSION_H

#include "tickscope/models_id.h"

#define TS_VERSION "0.1"

/*
 * The version a summary is written and keyed with: "0.1+<models id>". A summary cached beside
 * its trace is taken only under the very same string (other code computes other numbers); one
 * that stands alone, without its trace, needs the same TS_VERSION only (it cannot be computed
 * again here).
 */
#define TS_SUMMARY_VERSION TS_VERSION "+" TS_MODELS_ID

#endif
