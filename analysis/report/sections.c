// SPDX-License-Identifier: GPL-2.0-only
/* The sections' writers, in the order of TS_SECTIONS: what report_{text,json,tsv}.c loop over. */
#include "report_priv.h"

const struct rp_writers *const rp_writers[TS_SEC_NR] = {
#define RP_WRITERS(id, ident) [TS_SEC_##id] = &rp_##ident##_writers,
	TS_SECTIONS(RP_WRITERS)
#undef RP_WRITERS
};
