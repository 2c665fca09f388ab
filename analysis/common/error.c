// SPDX-License-Identifier: GPL-2.0-only
/* ts_strerror(): text for the codes in error.h, and for plain errno values. */
#include <string.h>

#include "tickscope/error.h"

static const char *const texts[] = {
#define TS_TEXT_ENTRY(name, text) [name - TS_EBASE - 1] = text,
	TS_ERRORS(TS_TEXT_ENTRY)
#undef TS_TEXT_ENTRY
};

const char *ts_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err > TS_EBASE && err < TS_EMAX)
		return texts[err - TS_EBASE - 1];
	return strerror(err);
}
