// SPDX-License-Identifier: GPL-2.0-only
/*
 * The probes model: probe:F and probe:F__return (perf probe's names for a kprobe and a return
 * probe on function F; probe_BINARY:F and probe_BINARY:F__return for a uprobe pair in BINARY,
 * perf probe -x) paired into durations. A task's call returns in the same task, perhaps
 * on another CPU after sleeping (synchronize_srcu()); the idle tasks all have pid 0 and never
 * migrate, so theirs pair by CPU. Nested calls of one function in one task keep the innermost
 * entry: its return pairs with it, the outer return is unmatched.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink.h"
#include "common/map.h"
#include "tickscope/probes.h"

struct ts_probes {
	struct ts_probe p[TS_PROBES_MAX];
	const char *ev_name[TS_PROBES_MAX][2]; /* the decoder's names seen: entry, return */
	int nr;
	struct ts_map open[TS_PROBES_MAX]; /* task key -> entry time + 1 */
	uint64_t idle_entries, other;
};

int ts_probe_split(const char *name, char *fn, size_t len, int *ret)
{
	static const char pfx[] = "probe", sfx[] = "__return";
	size_t n, s = sizeof(sfx) - 1, g;
	const char *colon;

	/* perf probe's groups: "probe" (kernel), "probe_BINARY" (-x BINARY: uprobes) */
	if (!name || strncmp(name, pfx, sizeof(pfx) - 1) || !len)
		return 0;
	colon = strchr(name, ':');
	g = colon ? (size_t)(colon - name) : 0;
	if (!colon || (g != sizeof(pfx) - 1 && (name[sizeof(pfx) - 1] != '_' || g == sizeof(pfx))))
		return 0;
	/* the kernel's keep their bare name F; a binary's are named "probe_BINARY:F" */
	if (g == sizeof(pfx) - 1)
		name = colon + 1;
	n = strlen(name);
	*ret = n > s && !strcmp(name + n - s, sfx);
	if (*ret)
		n -= s;
	if (!n || name[n - 1] == ':')
		return 0;
	if (n >= len)
		n = len - 1;
	memcpy(fn, name, n);
	fn[n] = 0;
	return 1;
}

/* The index of function @fn, added when new; -2 past TS_PROBES_MAX (counted in other). */
static int fn_index(struct ts_probes *m, const char *fn)
{
	int i;

	for (i = 0; i < m->nr && strcmp(m->p[i].name, fn); i++)
		;
	if (i == m->nr) {
		if (m->nr == TS_PROBES_MAX)
			return -2;
		snprintf(m->p[i].name, sizeof(m->p[i].name), "%s", fn);
		m->nr++;
	}
	return i;
}

int ts_probes_note(struct ts_probes *m, const char *fn)
{
	return fn_index(m, fn) < 0 ? -ENOSPC : 0;
}

/* The probe of event name @name (its index), adding it when new; -1 when not a probe. */
static int probe_of(struct ts_probes *m, const char *name, int *ret)
{
	char fn[sizeof(m->p[0].name)];
	int i;

	for (i = 0; i < m->nr; i++) {
		if (m->ev_name[i][0] == name || m->ev_name[i][1] == name) {
			*ret = m->ev_name[i][1] == name;
			return i;
		}
	}
	if (!ts_probe_split(name, fn, sizeof(fn), ret))
		return -1;
	i = fn_index(m, fn);
	if (i < 0) {
		m->other++;
		return i;
	}
	m->ev_name[i][*ret] = name; /* the decoder's copy: later events compare by pointer */
	return i;
}

static int on_probe(struct ts_probes *m, const struct ts_event *ev, int i, int ret)
{
	/* pid 0: the CPU's idle task (key above any pid) */
	uint64_t key = ev->pid ? (uint64_t)(uint32_t)ev->pid : (1ull << 40) | (uint32_t)ev->cpu;
	struct ts_probe *p = &m->p[i];
	uint64_t *v, d;
	int err;

	if (!p->ip)
		p->ip = ev->probe.ip;
	if (!ret) {
		p->entries++;
		err = ts_map_insert(&m->open[i], key, &v);
		if (err < 0)
			return err;
		*v = ev->time + 1;
		return 0;
	}
	p->returns++;
	v = ts_map_find(&m->open[i], key);
	if (!v || ev->time + 1 < *v) {
		p->unmatched_returns++;
		return 0;
	}
	d = ev->time + 1 - *v;
	ts_map_remove(&m->open[i], key);
	if (!ev->pid)
		p->from_idle++;
	err = ts_hist_add(&p->duration, d);
	if (err || ev->cpu < 0)
		return err;
	if (ev->cpu >= p->nr_cpu) {
		struct ts_hist *n = ts_grow_zeroed(p->per_cpu, &p->nr_cpu, ev->cpu, sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->per_cpu = n;
	}
	return ts_hist_add(&p->per_cpu[ev->cpu], d);
}

int ts_probes_feed(struct ts_probes *m, const struct ts_event *ev)
{
	int i, ret;

	if (ev->kind == TS_EV_SWITCH) {
		m->idle_entries += ev->sw.next_pid == 0;
		return 0;
	}
	if (ev->kind != TS_EV_OTHER)
		return 0;
	i = probe_of(m, ev->name, &ret);
	return i < 0 ? 0 : on_probe(m, ev, i, ret);
}

void ts_probes_finish(struct ts_probes *m, uint64_t end)
{
	int i;

	(void)end;
	for (i = 0; i < m->nr; i++)
		m->p[i].open_at_end = m->open[i].nr;
}

int ts_probes_new(struct ts_probes **mp, const struct ts_model_opts *opts)
{
	(void)opts;
	*mp = calloc(1, sizeof(**mp));
	return *mp ? 0 : -ENOMEM;
}

void ts_probes_free(struct ts_probes *m)
{
	int i, c;

	if (!m)
		return;
	for (i = 0; i < m->nr; i++) {
		ts_hist_release(&m->p[i].duration);
		for (c = 0; c < m->p[i].nr_cpu; c++)
			ts_hist_release(&m->p[i].per_cpu[c]);
		free(m->p[i].per_cpu);
		ts_map_release(&m->open[i]);
	}
	free(m);
}

size_t ts_probes_nr(const struct ts_probes *m)
{
	return (size_t)m->nr;
}

const struct ts_probe *ts_probes_at(const struct ts_probes *m, size_t i)
{
	return i < (size_t)m->nr ? &m->p[i] : NULL;
}

uint64_t ts_probes_idle_entries(const struct ts_probes *m)
{
	return m->idle_entries;
}

uint64_t ts_probes_other(const struct ts_probes *m)
{
	return m->other;
}

/*
 * Per probed function F: probes.F.duration (count, sum, p50, p99, max in ns), probes.F.per_s,
 * and probes.F.ns_per_idle_entry: F's time over the idle entries (sched_switch to the idle
 * task: each is one pass of do_idle()'s way in) of the range, the cost an idle-entry path such
 * as quiet_vmstat() adds to each entry.
 */
static int probes_metrics(const void *mv, struct ts_metric_sink *s)
{
	const struct ts_probes *m = mv;
	const char *idle = tm_why(s, TS_EV_SWITCH);
	const struct ts_probe *p;
	int i;

	for (i = 0; i < m->nr; i++) {
		p = &m->p[i];
		tm_dist(s, TS_DIR_LOWER, &p->duration, NULL, "%s.duration", p->name);
		tm_rate(s, TS_DIR_LOWER, p->duration.count, NULL, "%s.per_s", p->name);
		if (!idle && !m->idle_entries)
			idle = "no idle entry in the range";
		if (idle)
			tm_null(s, "ns", TS_DIR_LOWER, TS_METRIC_VALUE, idle,
				"%s.ns_per_idle_entry", p->name);
		else
			tm_value(s, "ns", TS_DIR_LOWER,
				 (double)p->duration.sum / (double)m->idle_entries,
				 "%s.ns_per_idle_entry", p->name);
	}
	return s->err;
}

TS_SECTION_GLUE_VOID(probes, struct ts_probes)

/* Fed every event (a probe is a tracepoint of no kind), it uses switches and probes only. */
static int probes_wants(int kind, const char *name)
{
	char fn[sizeof(((struct ts_probe *)0)->name)];
	int ret;

	if (kind == TS_EV_OTHER)
		return ts_probe_split(name, fn, sizeof(fn), &ret);
	return kind == TS_EV_SWITCH;
}

static const uint16_t also[] = { TS_EV_SWITCH };

const struct ts_section_ops ts_probes_section = {
	.name = "probes",
	.also = also,
	.nr_also = 1,
	.flags = TS_SECF_ALL_EVENTS,
	.wants = probes_wants,
	TS_SECTION_OPS_GLUE(probes),
	.metrics = probes_metrics,
};
