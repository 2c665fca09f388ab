// SPDX-License-Identifier: GPL-2.0-only
/* The event table's names: kind to tracepoint name and back, aliases included. */
#include <string.h>

#include "tickscope/event.h"

#define EVENT_NAME(kind, name, sec, req, dec) [TS_EV_##kind] = name,
static const char *const names[TS_EV_NR_KINDS] = { TS_EVENTS(EVENT_NAME) };
#undef EVENT_NAME

#define EVENT_REQ(kind, name, sec, req, dec) [TS_EV_##kind] = req,
static const unsigned char required[TS_EV_NR_KINDS] = { TS_EVENTS(EVENT_REQ) };
#undef EVENT_REQ

#define ALIAS(kind, name, dec) { name, TS_EV_##kind },
static const struct {
	const char *name;
	int kind;
} aliases[] = { TS_EVENT_ALIASES(ALIAS) };
#undef ALIAS

const char *ts_event_name(int kind)
{
	return kind > 0 && kind < TS_EV_NR_KINDS && names[kind] ? names[kind] : "";
}

int ts_event_kind(const char *name)
{
	size_t i;
	int k;

	for (k = 1; k < TS_EV_NR_KINDS; k++)
		if (names[k] && !strcmp(names[k], name))
			return k;
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(aliases[i].name, name))
			return aliases[i].kind;
	return TS_EV_OTHER;
}

int ts_event_required(int kind)
{
	return kind > 0 && kind < TS_EV_NR_KINDS ? required[kind] : 0;
}
