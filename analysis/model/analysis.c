// SPDX-License-Identifier: GPL-2.0-only
/*
 * One run's analysis: the filters, the dispatch to the models, and the bookkeeping of which
 * events each section needed, which were recorded or seen, and which lost events touch it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_priv.h"
#include "sink.h"
#include "tickscope/error.h"
#include "tickscope/probes.h"

#define MAX_LOST_RECORDS 65536

static const struct ts_section_ops *const sections[TS_SEC_NR] = {
#define SECTION_OPS(id, ident) [TS_SEC_##id] = &ts_##ident##_section,
	TS_SECTIONS(SECTION_OPS)
#undef SECTION_OPS
};

/* The sections fed events of @kind: its own, those that ask for it, and those fed all. */
static uint32_t kind_feeds(int kind)
{
	uint32_t mask = 0;
	int s, i;

	if (ts_analysis_kind_section(kind) >= 0)
		mask |= 1u << ts_analysis_kind_section(kind);
	for (s = 0; s < TS_SEC_NR; s++) {
		for (i = 0; i < sections[s]->nr_also; i++)
			if (sections[s]->also[i] == kind)
				mask |= 1u << s;
		/* comm is bookkeeping, not activity: only the sections that ask get it */
		if ((sections[s]->flags & TS_SECF_ALL_EVENTS) && kind != TS_EV_COMM &&
		    kind != TS_EV_FORK && kind != TS_EV_LOST)
			mask |= 1u << s;
	}
	return mask;
}

/* Of the sections in @mask, those whose feed does something with @kind (tracepoint @name). */
static uint32_t wanted(uint32_t mask, int kind, const char *name)
{
	int s;

	for (s = 0; s < TS_SEC_NR; s++)
		if ((mask >> s & 1) && sections[s]->wants && !sections[s]->wants(kind, name))
			mask &= ~(1u << s);
	return mask;
}

/* @rt: the sections of @mask as a list of their feeds, in table order, for @kind (@name). */
static void make_routes(const struct ts_analysis *a, uint32_t mask, int kind, const char *name,
			struct routes *rt)
{
	int (*feed)(void *m, const struct ts_event *ev);
	const uint8_t *gate;
	int s;

	rt->n = 0;
	rt->kindless = mask & a->kindless;
	for (s = 0; s < TS_SEC_NR; s++) {
		if (!(mask >> s & 1))
			continue;
		gate = sections[s]->gate ? sections[s]->gate(a->model[s], kind, name) : NULL;
		feed = sections[s]->feed_kind ? sections[s]->feed_kind(kind) : NULL;
		rt->r[rt->n++] = (struct route){ feed ? feed : sections[s]->feed, a->model[s],
						 gate ? gate : a->ones, s };
	}
}

/*
 * The sections a tracepoint of no kind goes to, decided once per tracepoint: the decoder gives
 * each its own name string for the run, so the pointer tells them apart. Past the memo's size
 * the list is made again for each event.
 */
static const struct routes *other_routes(struct ts_analysis *a, const char *name)
{
	struct routes *rt = &a->other_spill;
	int i;

	if (!name)
		return &a->routes[TS_EV_OTHER];
	for (i = 0; i < a->nr_other; i++) {
		if (a->other[i].name == name) {
			a->other[i].count++;
			a->other_last = i + 1;
			return &a->other[i].routes;
		}
	}
	if (a->nr_other < TS_OTHER_MEMO) {
		a->other[a->nr_other].name = name;
		a->other[a->nr_other].count = 1;
		snprintf(a->other[a->nr_other].label, sizeof(a->other[0].label), "%s", name);
		a->other_last = a->nr_other + 1;
		rt = &a->other[a->nr_other++].routes;
	} else {
		a->other_spilled = 1;
	}
	make_routes(a, wanted(a->feeds[TS_EV_OTHER], TS_EV_OTHER, name), TS_EV_OTHER, name, rt);
	return rt;
}

int ts_analysis_note_recorded(struct ts_analysis *a, const char *name)
{
	int k = ts_event_kind(name), s, ret;
	char fn[sizeof(((struct ts_probe *)0)->name)];

	a->have_recorded = 1;
	if (k != TS_EV_OTHER) {
		a->recorded[k] = 1;
		for (s = 0; s < TS_SEC_NR; s++)
			if ((a->feeds[k] >> s & 1) && sections[s]->recorded)
				sections[s]->recorded(a->model[s], k);
		return 1;
	}
	if (ts_idle_is_ipi(name))
		a->ipi_recorded = 1;
	if (ts_probe_split(name, fn, sizeof(fn), &ret) && a->model[TS_SEC_PROBES]) {
		/* a probe that never fires is 0 calls; past TS_PROBES_MAX its events count as other */
		(void)ts_probes_note(a->model[TS_SEC_PROBES], fn);
		return 1;
	}
	return 0;
}

int ts_analysis_parse_cpus(const char *s, uint64_t *bits)
{
	long lo, hi, c;
	char *end;

	memset(bits, 0, TS_MAX_CPUS / 8);
	while (*s) {
		lo = strtol(s, &end, 10);
		if (end == s || lo < 0 || lo >= TS_MAX_CPUS)
			return -TS_EUSAGE;
		hi = lo;
		if (*end == '-') {
			s = end + 1;
			hi = strtol(s, &end, 10);
			if (end == s || hi < lo || hi >= TS_MAX_CPUS)
				return -TS_EUSAGE;
		}
		for (c = lo; c <= hi; c++)
			bits[c / 64] |= 1ull << (c % 64);
		if (*end == ',')
			end++;
		else if (*end)
			return -TS_EUSAGE;
		s = end;
	}
	return 0;
}

static int parse_sec(const char *s, const char *stop, uint64_t *ns)
{
	char *end;
	double v;

	if (s == stop) {
		*ns = 0;
		return 0;
	}
	v = strtod(s, &end);
	/* written so that NaN fails too ("nan" was a window of (uint64_t)NaN ns) */
	if (end != stop || !(v >= 0 && v <= 1.8e10))
		return -TS_EUSAGE;
	*ns = (uint64_t)(v * 1e9 + 0.5);
	return 0;
}

int ts_analysis_parse_time(const char *s, uint64_t *start, uint64_t *end)
{
	const char *comma = strchr(s, ',');

	if (!comma)
		return -TS_EUSAGE;
	if (parse_sec(s, comma, start) || parse_sec(comma + 1, comma + strlen(comma), end))
		return -TS_EUSAGE;
	/* an END given as 0 (or below 0.5 ns) is no window: 0 stands for "no END" */
	if (comma[1] && !*end)
		return -TS_EUSAGE;
	if (*end && *start > *end) /* START == END: the events at that instant */
		return -TS_EUSAGE;
	return 0;
}

static int task_filter(void *ctx, int32_t pid, const char *comm)
{
	const struct ts_analysis *a = ctx;
	int i;

	for (i = 0; i < a->opts.nr_pids; i++)
		if (a->pids[i] == pid)
			return 1;
	return a->comm[0] && !strncmp(a->comm, comm, TS_COMM_LEN);
}

static int copy_filters(struct ts_analysis *a, const struct ts_analysis_opts *o)
{
	int err;

	a->opts = *o;
	a->opts.cpus = NULL;
	a->opts.comm = NULL;
	if (o->cpus) {
		a->cpus = malloc(TS_MAX_CPUS / 8);
		if (!a->cpus)
			return -ENOMEM;
		err = ts_analysis_parse_cpus(o->cpus, a->cpus);
		if (err)
			return err;
	}
	if (o->nr_pids > 0) {
		a->pids = malloc((size_t)o->nr_pids * sizeof(*a->pids));
		if (!a->pids)
			return -ENOMEM;
		memcpy(a->pids, o->pids, (size_t)o->nr_pids * sizeof(*a->pids));
	} else {
		a->opts.nr_pids = 0;
	}
	if (o->comm)
		strncpy(a->comm, o->comm, TS_COMM_LEN - 1);
	a->task_filter = a->opts.nr_pids > 0 || a->comm[0];
	a->event_filter = a->cpus || a->opts.time_start || a->opts.time_end;
	return 0;
}

int ts_analysis_new(struct ts_analysis **ap, const struct ts_analysis_opts *opts)
{
	static const struct ts_analysis_opts none;
	struct ts_model_opts mo = { 0 };
	struct ts_analysis *a = calloc(1, sizeof(*a));
	int err, k, s;

	if (!a)
		return -ENOMEM;
	err = copy_filters(a, opts ? opts : &none);
	if (err)
		goto free_analysis;
	for (k = 0; k < TS_EV_NR_KINDS; k++) {
		a->ksec[k] = (int8_t)ts_analysis_kind_section(k);
		a->feeds[k] = kind_feeds(k);
		a->kr[k].first = UINT64_MAX;
	}
	for (s = 0; s < TS_SEC_NR; s++) {
		const uint16_t *kinds;
		const uint8_t *req;

		if (!ts_analysis_section_kinds(s, &kinds, &req) && sections[s]->wants)
			a->kindless |= 1u << s;
	}
	for (s = 0; s < TS_SEC_NR && a->task_filter; s++)
		if (sections[s]->flags & TS_SECF_TASK_OWNED)
			a->owned |= 1u << s;
	mo.max_stacks = a->opts.max_stacks;
	mo.top_tasks = a->opts.top_tasks;
	if (a->task_filter) {
		mo.task_filter = task_filter;
		mo.filter_ctx = a;
	}
	for (s = 0; s < TS_SEC_NR && !err; s++)
		err = sections[s]->create(&a->model[s], &mo);
	if (err)
		goto free_analysis;
	/* a tracepoint of no kind that the decoder does not name goes to every section fed it */
	memset(a->ones, 1, sizeof(a->ones));
	for (k = 0; k < TS_EV_NR_KINDS; k++) {
		make_routes(a, k == TS_EV_OTHER ? a->feeds[k] : wanted(a->feeds[k], k, NULL), k,
			    NULL, &a->routes[k]);
		a->plain[k] = k != TS_EV_OTHER && k != TS_EV_COMM && k != TS_EV_FORK &&
			      k != TS_EV_LOST && !a->event_filter && !a->owned;
	}
	a->other_plain = !a->event_filter && !a->owned;
	*ap = a;
	return 0;
free_analysis:
	ts_analysis_free(a);
	return err;
}

void ts_analysis_free(struct ts_analysis *a)
{
	int s;

	if (!a)
		return;
	for (s = 0; s < TS_SEC_NR; s++)
		if (a->model[s])
			sections[s]->free(a->model[s]);
	free(a->cpus);
	free(a->pids);
	free(a->lost);
	free(a);
}

static int cpu_kept(const struct ts_analysis *a, int32_t cpu)
{
	return cpu >= 0 && cpu < TS_MAX_CPUS && (a->cpus[cpu / 64] >> (cpu % 64) & 1);
}

static int kept(const struct ts_analysis *a, const struct ts_event *ev)
{
	if (a->opts.time_start && ev->time < a->opts.time_start)
		return 0;
	if (a->opts.time_end && ev->time > a->opts.time_end)
		return 0;
	if (!a->cpus || cpu_kept(a, ev->cpu))
		return 1;
	/* A wakeup matters to the CPU it targets as much as to the waker's. */
	if (ev->kind == TS_EV_WAKING || ev->kind == TS_EV_WAKEUP || ev->kind == TS_EV_WAKEUP_NEW)
		return cpu_kept(a, ev->wake.target_cpu);
	return 0;
}

static int note_lost(struct ts_analysis *a, const struct ts_event *ev)
{
	struct lost_rec *l;

	if (ev->time && ((a->opts.time_start && ev->time < a->opts.time_start) ||
			 (a->opts.time_end && ev->time > a->opts.time_end)))
		return 0;
	if (ev->lost.samples) {
		/* time 0 and a second count of what LOST records say: never in a time range */
		a->lost_samples += ev->lost.lost;
		a->lost_samples_records++;
		return 0;
	}
	a->lost_total += ev->lost.lost;
	a->lost_records++;
	if (a->nr_lost == MAX_LOST_RECORDS || !ev->time) {
		a->lost_unplaced += ev->lost.lost;
		return 0;
	}
	if (a->nr_lost == a->cap_lost) {
		l = realloc(a->lost, (a->cap_lost ? a->cap_lost * 2 : 64) * sizeof(*l));
		if (!l)
			return -ENOMEM;
		a->lost = l;
		a->cap_lost = a->cap_lost ? a->cap_lost * 2 : 64;
	}
	a->lost[a->nr_lost].time = ev->time;
	a->lost[a->nr_lost++].lost = ev->lost.lost;
	return 0;
}

/*
 * A section with no kinds of its own that picks tracepoints by name (probes: ops->wants) has
 * no range or event count from the kinds: they come from the tracepoints it takes, so that
 * its first and last event and the losses inside that range are the recording's. (idlepath,
 * fed every event without choosing, takes its range from its kinds.)
 */
static void note_kindless(struct ts_analysis *a, const struct ts_event *ev, const struct routes *rt)
{
	int r, s;

	if (!rt->kindless) /* most tracepoints of no kind: no probe, nothing to count */
		return;
	for (r = 0; r < rt->n; r++) {
		s = rt->r[r].s;
		if (!(a->kindless >> s & 1))
			continue;
		if (!a->sec_first[s] || ev->time < a->sec_first[s])
			a->sec_first[s] = ev->time;
		if (ev->time > a->sec_last[s])
			a->sec_last[s] = ev->time;
		a->sec_events[s]++;
	}
}

/* The gates' byte for @ev's CPU: its own below TS_GATE_CPUS, else the last one (always 1). */
static inline uint32_t gate_index(const struct ts_event *ev)
{
	return (uint32_t)ev->cpu < TS_GATE_CPUS ? (uint32_t)ev->cpu : TS_GATE_CPUS;
}

/* route() with --pid/--comm: task-owned sections only for the selected tasks. */
static __attribute__((noinline)) int route_owned(struct ts_analysis *a, const struct ts_event *ev,
						 const struct routes *rt)
{
	const struct route *r = rt->r, *end = r + rt->n;
	uint32_t g = gate_index(ev);
	int err;

	for (; r < end; r++) {
		if (!r->gate[g])
			continue;
		/* asked here, after the sched section (the first) has seen the event */
		if ((a->owned >> r->s & 1) && !ts_sched_selected(a->model[TS_SEC_SCHED], ev->pid))
			continue;
		err = r->feed(r->m, ev);
		if (err)
			return err;
	}
	return 0;
}

/* Feed @ev to the sections of @rt whose gate @g (gate_index()) is open. */
static inline int route_gated(const struct routes *rt, uint32_t g, const struct ts_event *ev)
{
	const struct route *r = rt->r, *end = r + rt->n;
	int err;

	for (; r < end; r++) {
		if (!r->gate[g])
			continue;
		err = r->feed(r->m, ev);
		if (err)
			return err;
	}
	return 0;
}

/* Feed @ev to the sections of @rt whose gate is open on its CPU. */
static inline int route(struct ts_analysis *a, const struct ts_event *ev, const struct routes *rt)
{
	if (a->owned)
		return route_owned(a, ev, rt);
	return route_gated(rt, gate_index(ev), ev);
}

/* The earlier nonzero time of @x and @y, 0 for neither (a first of UINT64_MAX is none). */
static uint64_t first_of(uint64_t x, uint64_t y)
{
	x = x == UINT64_MAX ? 0 : x;
	y = y == UINT64_MAX ? 0 : y;
	return !x || (y && y < x) ? y : x;
}

/* Section @s's first time: what was folded in, then its kinds' since. */
static uint64_t sec_first(const struct ts_analysis *a, int s)
{
	uint64_t t = a->sec_first[s];
	int k;

	for (k = 0; k < TS_EV_NR_KINDS; k++)
		if (a->ksec[k] == s && k != TS_EV_COMM && k != TS_EV_FORK)
			t = first_of(t, a->kr[k].first);
	return t;
}

/*
 * An event of kind @k at time 0: the run's first time and its section's are 0 until the next
 * event's (the others keep theirs, folded into sec_first[] before the kinds start again).
 */
static __attribute__((noinline)) void ranges_at_zero(struct ts_analysis *a, int k)
{
	int s;

	for (s = 0; s < TS_SEC_NR; s++)
		a->sec_first[s] = s == a->ksec[k] ? 0 : sec_first(a, s);
	for (k = 0; k < TS_EV_NR_KINDS; k++)
		a->kr[k].first = UINT64_MAX;
}

/* ts_analysis_feed() of an event that is not plain (a->plain[]): every check. */
static __attribute__((noinline)) int feed_checked(struct ts_analysis *a, const struct ts_event *ev)
{
	int k = ev->kind < TS_EV_NR_KINDS ? ev->kind : TS_EV_OTHER;

	if (k == TS_EV_LOST) /* sections that keep state per CPU (irq) drop what it may hide */
		return note_lost(a, ev) ?: (ev->lost.samples ? 0 : route(a, ev, &a->routes[k]));
	if (k == TS_EV_COMM || k == TS_EV_FORK) { /* names and the tree, whatever the filters */
		a->fed[k]++;
		return route(a, ev, &a->routes[k]);
	}
	if (a->event_filter && !kept(a, ev)) {
		a->filtered++;
		return 0;
	}
	a->fed[k]++;
	if (!ev->time)
		ranges_at_zero(a, k);
	if (ev->time && ev->time < a->kr[k].first)
		a->kr[k].first = ev->time;
	if (ev->time > a->kr[k].last)
		a->kr[k].last = ev->time;
	if (k == TS_EV_OTHER) {
		const struct routes *rt = other_routes(a, ev->name);

		note_kindless(a, ev, rt);
		return route(a, ev, rt);
	}
	return route(a, ev, &a->routes[k]);
}

/*
 * feed_checked() of a tracepoint of no kind that is the last one's again (sched_stat_runtime,
 * a fifth of a busy trace), with no filters and a time: the same steps in the same order,
 * without the checks that cannot apply.
 */
static inline int feed_other_again(struct ts_analysis *a, const struct ts_event *ev,
				   struct other_memo *o)
{
	struct kind_range *kr = &a->kr[TS_EV_OTHER];

	a->fed[TS_EV_OTHER]++;
	if (ev->time < kr->first)
		kr->first = ev->time;
	if (ev->time > kr->last)
		kr->last = ev->time;
	o->count++;
	note_kindless(a, ev, &o->routes);
	return route_gated(&o->routes, gate_index(ev), ev);
}

/*
 * Every event comes here. A plain one (the most: a kind of the table, no filters) is counted,
 * its kind's range moved, and fed to its routes' open gates, with no other check.
 */
int ts_analysis_feed(struct ts_analysis *a, const struct ts_event *ev)
{
	unsigned int k = ev->kind;
	struct kind_range *kr;
	uint64_t t = ev->time;

	if (k >= TS_EV_NR_KINDS || !a->plain[k]) {
		if (k == TS_EV_OTHER && a->other_plain && a->other_last && t &&
		    ev->name == a->other[a->other_last - 1].name)
			return feed_other_again(a, ev, &a->other[a->other_last - 1]);
		return feed_checked(a, ev);
	}
	a->fed[k]++;
	kr = &a->kr[k];
	if (__builtin_expect(!t, 0))
		ranges_at_zero(a, (int)k);
	else if (t < kr->first)
		kr->first = t;
	if (t > kr->last)
		kr->last = t;
	return route_gated(&a->routes[k], gate_index(ev), ev);
}

int ts_analysis_section_other(const struct ts_analysis *a, enum ts_section s, int i,
			      const char **name, uint64_t *count)
{
	int j, n;

	if (a->other_spilled)
		return -1;
	for (j = 0, n = 0; j < a->nr_other; j++) {
		const struct routes *rt = &a->other[j].routes;
		int r, fed = 0;

		for (r = 0; r < rt->n; r++)
			fed |= rt->r[r].s == (int)s && (a->kindless >> s & 1);
		if (fed && n++ == i) {
			*name = a->other[j].label;
			*count = a->other[j].count;
			return 1;
		}
	}
	return 0;
}

static void finish_section(struct ts_analysis *a, int s)
{
	struct ts_section_info *in = &a->info[s];
	enum ts_presence p = TS_NOT_RECORDED, kp;
	size_t i;
	int j;
	const uint16_t *kinds;
	const uint8_t *req;
	int nr = ts_analysis_section_kinds(s, &kinds, &req);

	in->name = sections[s]->name;
	in->nr_events = a->sec_events[s];
	in->first = sec_first(a, s);
	in->last = a->sec_last[s];
	for (j = 0; j < TS_EV_NR_KINDS; j++) {
		if (a->ksec[j] != s || j == TS_EV_COMM || j == TS_EV_FORK)
			continue;
		in->nr_events += a->fed[j];
		if (a->kr[j].last > in->last)
			in->last = a->kr[j].last;
	}
	/*
	 * Present only if a required event is: optional ones alone (hrtimer_start without the
	 * expiries) would give zeros that look like measurements. Else empty if a required kind
	 * was recorded, else not recorded.
	 */
	for (j = 0; j < nr; j++) {
		if (!req[j])
			continue;
		kp = ts_analysis_kind_presence(a, kinds[j]);
		if (kp == TS_PRESENT)
			p = TS_PRESENT;
		else if (kp == TS_RECORDED_EMPTY && p != TS_PRESENT)
			p = TS_RECORDED_EMPTY;
	}
	/* A section with no events of its own (idlepath, probes): as the kinds it is fed. */
	for (j = 0; !nr && j < sections[s]->nr_also; j++) {
		kp = ts_analysis_kind_presence(a, sections[s]->also[j]);
		if (kp == TS_PRESENT || (kp == TS_RECORDED_EMPTY && p != TS_PRESENT))
			p = kp;
	}
	in->presence = p;
	in->lost = a->lost_unplaced;
	in->lost_records = 0;
	for (i = 0; i < a->nr_lost && in->last; i++) {
		if (a->lost[i].time >= in->first && a->lost[i].time <= in->last) {
			in->lost += a->lost[i].lost;
			in->lost_records++;
		}
	}
}

void ts_analysis_set_per_task(struct ts_analysis *a, int per_task)
{
	ts_sched_set_per_task(a->model[TS_SEC_SCHED], per_task);
}

int ts_analysis_finish(struct ts_analysis *a)
{
	uint64_t first, last;
	int s, err = 0, e;

	ts_analysis_range(a, &first, &last);
	for (s = 0; s < TS_SEC_NR; s++) {
		e = sections[s]->finish(a->model[s], last);
		if (e && !err)
			err = e;
		finish_section(a, s);
	}
	a->ipi_seen = ts_idle_totals(a->model[TS_SEC_IDLE])->exits[TS_EXIT_IPI] != 0;
	return err;
}

void ts_analysis_range(const struct ts_analysis *a, uint64_t *first, uint64_t *last)
{
	int k;

	*first = 0;
	*last = 0;
	for (k = 0; k < TS_EV_NR_KINDS; k++) {
		*first = first_of(*first, a->kr[k].first);
		if (a->kr[k].last > *last)
			*last = a->kr[k].last;
	}
}

void ts_analysis_lost(const struct ts_analysis *a, uint64_t *lost, uint64_t *records)
{
	/*
	 * perf's "Total Lost Samples" counts LOST_SAMPLES records when the file has them (perf
	 * 6.0 and later write one per event at the end); older files have LOST records only.
	 * Both count the same samples: never add them.
	 */
	*lost = a->lost_samples_records ? a->lost_samples : a->lost_total;
	*records = a->lost_records + a->lost_samples_records;
}

int ts_analysis_lost_measured(const struct ts_analysis *a)
{
	return !a->opts.lost_unmeasured;
}

void ts_analysis_lost_detail(const struct ts_analysis *a, struct ts_lost_detail *d)
{
	d->lost = a->lost_total;
	d->lost_records = a->lost_records;
	d->lost_samples = a->lost_samples;
	d->lost_samples_records = a->lost_samples_records;
}

uint64_t ts_analysis_filtered(const struct ts_analysis *a)
{
	return a->filtered;
}

int ts_analysis_has_task_filter(const struct ts_analysis *a)
{
	return a->task_filter;
}

const void *ts_analysis_model(const struct ts_analysis *a, enum ts_section s)
{
	return s >= 0 && s < TS_SEC_NR ? a->model[s] : NULL;
}

const struct ts_sched *ts_analysis_sched(const struct ts_analysis *a)
{
	return a->model[TS_SEC_SCHED];
}

const struct ts_idle *ts_analysis_idle(const struct ts_analysis *a)
{
	return a->model[TS_SEC_IDLE];
}

const struct ts_timer *ts_analysis_timer(const struct ts_analysis *a)
{
	return a->model[TS_SEC_TIMER];
}

const struct ts_wq *ts_analysis_wq(const struct ts_analysis *a)
{
	return a->model[TS_SEC_WQ];
}

const struct ts_rcu *ts_analysis_rcu(const struct ts_analysis *a)
{
	return a->model[TS_SEC_RCU];
}

const struct ts_shrinker *ts_analysis_shrinker(const struct ts_analysis *a)
{
	return a->model[TS_SEC_SHRINKER];
}

void ts_analysis_set_symbols(struct ts_analysis *a,
			     const char *(*sym)(void *ctx, uint64_t addr, uint64_t *off), void *ctx)
{
	a->sym = sym;
	a->sym_ctx = ctx;
}

const char *ts_analysis_fn_name(const struct ts_analysis *a, uint64_t addr, char *buf, size_t len)
{
	struct ts_metric_sink sink = { .a = a, .sym = a->sym, .sym_ctx = a->sym_ctx };

	return tm_fn(&sink, addr, buf, len);
}

int ts_analysis_has_symbols(const struct ts_analysis *a)
{
	return a->sym != NULL;
}

const char *ts_analysis_stack_name(const struct ts_analysis *a, const struct ts_sched_stack *st,
				   char *out, size_t len)
{
	struct ts_metric_sink sink = { .a = a, .sym = a->sym, .sym_ctx = a->sym_ctx };

	return tm_stack_name(&sink, st, out, len);
}

/* The metrics hooks' walk: metrics through @sink->emit, or distributions (@sink->dist_emit). */
static int walk(const struct ts_analysis *a, struct ts_metric_sink *sink)
{
	uint64_t first, last;
	int s;

	ts_analysis_range(a, &first, &last);
	sink->a = a;
	sink->span = last > first ? (double)(last - first) / 1e9 : 0;
	sink->sym = a->sym;
	sink->sym_ctx = a->sym_ctx;
	for (s = 0; s < TS_SEC_NR && !sink->err; s++) {
		sink->section = sections[s]->name;
		if (sections[s]->metrics)
			sections[s]->metrics(a->model[s], sink);
	}
	ts_map_release(&sink->seen);
	return sink->err;
}

int ts_analysis_metrics(const struct ts_analysis *a, ts_metric_fn emit, void *ctx)
{
	struct ts_metric_sink sink = { .emit = emit, .ctx = ctx };

	return walk(a, &sink);
}

int ts_analysis_dists(const struct ts_analysis *a, ts_dist_fn emit, void *ctx)
{
	struct ts_metric_sink sink = { .dist_emit = emit, .ctx = ctx };

	return walk(a, &sink);
}
