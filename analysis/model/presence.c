// SPDX-License-Identifier: GPL-2.0-only
/*
 * What one run's events were, below the section models: the event table's kinds by section,
 * and whether each kind was recorded and seen. The models ask it why a figure is missing
 * (metric.c's "not recorded", idle.c's exits that could not be seen) and the reports what to
 * print; analysis.c fills the state (analysis_priv.h) as it feeds the models.
 */
#include <stdio.h>

#include "analysis_priv.h"

/* The event table's columns, in its order: kind, section, required. */
#define EVENT_KIND(kind, name, sec, req, dec) TS_EV_##kind,
static const uint16_t table_kinds[] = { TS_EVENTS(EVENT_KIND) };
#undef EVENT_KIND
#define EVENT_SEC(kind, name, sec, req, dec) TS_SEC_##sec,
static const int8_t table_secs[] = { TS_EVENTS(EVENT_SEC) };
#undef EVENT_SEC
#define EVENT_REQ(kind, name, sec, req, dec) req,
static const uint8_t table_req[] = { TS_EVENTS(EVENT_REQ) };
#undef EVENT_REQ
#define NR_TABLE ((int)(sizeof(table_kinds) / sizeof(table_kinds[0])))

int ts_analysis_kind_section(int kind)
{
	int i;

	for (i = 0; i < NR_TABLE; i++)
		if (table_kinds[i] == kind)
			return table_secs[i];
	return -1;
}

const char *ts_analysis_kind_name(int kind)
{
	return ts_event_name(kind);
}

int ts_analysis_section_kinds(enum ts_section s, const uint16_t **kinds, const uint8_t **required)
{
	int i, n = 0;

	for (i = 0; i < NR_TABLE && table_secs[i] != (int)s; i++)
		;
	while (i + n < NR_TABLE && table_secs[i + n] == (int)s) /* a section's lines are together */
		n++;
	*kinds = &table_kinds[i];
	if (required)
		*required = &table_req[i];
	return n;
}

static enum ts_presence presence(const struct ts_analysis *a, int kind)
{
	if (a->fed[kind])
		return TS_PRESENT;
	return a->have_recorded && a->recorded[kind] ? TS_RECORDED_EMPTY : TS_NOT_RECORDED;
}

enum ts_presence ts_analysis_kind_presence(const struct ts_analysis *a, int kind)
{
	return kind >= 0 && kind < TS_EV_NR_KINDS ? presence(a, kind) : TS_NOT_RECORDED;
}

uint64_t ts_analysis_kind_count(const struct ts_analysis *a, int kind)
{
	return kind >= 0 && kind < TS_EV_NR_KINDS ? a->fed[kind] : 0;
}

const struct ts_section_info *ts_analysis_section(const struct ts_analysis *a, enum ts_section s)
{
	return s >= 0 && s < TS_SEC_NR ? &a->info[s] : NULL;
}

/* The other half of @kind's pair: an entry and its exit, or -1. */
static int pair_of(int kind)
{
	static const uint16_t pairs[][2] = {
		{ TS_EV_HRTIMER_EXPIRE_ENTRY, TS_EV_HRTIMER_EXPIRE_EXIT },
		{ TS_EV_TIMER_EXPIRE_ENTRY, TS_EV_TIMER_EXPIRE_EXIT },
		{ TS_EV_WQ_START, TS_EV_WQ_END },
		{ TS_EV_SHRINK_START, TS_EV_SHRINK_END },
		{ TS_EV_IRQ_ENTRY, TS_EV_IRQ_EXIT },
		{ TS_EV_SOFTIRQ_ENTRY, TS_EV_SOFTIRQ_EXIT },
	};

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		if (pairs[i][0] == kind || pairs[i][1] == kind)
			return pairs[i][pairs[i][0] == kind];
	return -1;
}

/* Recorded, never sampled, while its pair's other half was: the events were lost. */
static int unseen(const struct ts_analysis *a, int kind)
{
	int pair = pair_of(kind);

	return presence(a, kind) == TS_RECORDED_EMPTY && pair >= 0 && a->fed[pair];
}

const char *ts_analysis_kind_why(const struct ts_analysis *a, int kind, char *buf, size_t len)
{
	if (kind < 0 || kind >= TS_EV_NR_KINDS)
		return NULL;
	if (presence(a, kind) == TS_NOT_RECORDED)
		snprintf(buf, len, "%s not recorded", ts_event_name(kind));
	else if (unseen(a, kind))
		snprintf(buf, len, "%s recorded but never seen while %s was, %llu times",
			 ts_event_name(kind), ts_event_name(pair_of(kind)),
			 (unsigned long long)a->fed[pair_of(kind)]);
	else
		return NULL;
	return buf;
}

static int traced(const struct ts_analysis *a, int kind)
{
	return presence(a, kind) != TS_NOT_RECORDED && !unseen(a, kind);
}

int ts_analysis_exit_traced(const struct ts_analysis *a, int cause)
{
	switch (cause) {
	case TS_EXIT_HRTIMER:
		return traced(a, TS_EV_HRTIMER_EXPIRE_ENTRY);
	case TS_EXIT_TIMER:
		return traced(a, TS_EV_TIMER_EXPIRE_ENTRY);
	case TS_EXIT_WAKEUP:
		return traced(a, TS_EV_WAKING) || traced(a, TS_EV_WAKEUP) ||
		       traced(a, TS_EV_WAKEUP_NEW);
	case TS_EXIT_SWITCH:
		return traced(a, TS_EV_SWITCH);
	case TS_EXIT_IPI: /* or, without the file's event list, seen */
		return a->ipi_recorded || a->ipi_seen;
	case TS_EXIT_IRQ:
		return traced(a, TS_EV_IRQ_ENTRY);
	default:
		return 1;
	}
}
