/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The probes model: kprobe pairs as durations. A kernel function timed by a kprobe and a
 * return probe (perf probe's names: probe:NAME at the entry, probe:NAME__return on return)
 * gives one duration per call, paired by task (by CPU for the idle tasks, pid 0 on every CPU).
 */
#ifndef TICKSCOPE_PROBES_H
#define TICKSCOPE_PROBES_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/event.h"
#include "tickscope/hist.h"
#include "tickscope/model.h"

#define TS_PROBES_MAX 32 /* distinct probed functions kept */

struct ts_probe {
	char name[64]; /* the function: NAME of probe:NAME */
	struct ts_hist duration; /* ns, entry to return, every CPU */
	struct ts_hist *per_cpu; /* the same per CPU, nr_cpu of them */
	int nr_cpu;
	uint64_t entries, returns; /* events seen */
	uint64_t unmatched_returns; /* a return without its entry (trace start, lost events) */
	uint64_t open_at_end; /* entered, not returned by the end */
	uint64_t from_idle; /* calls made by an idle task (pid 0) */
	/*
	 * the address probed, as the first of its events that carries one says (the kprobe's
	 * __probe_ip, the return probe's __probe_func); 0 when none did. Its symbol is the
	 * function the kprobe sits on: F, or a clone of it (F.constprop.0).
	 */
	uint64_t ip;
};

struct ts_probes;

/** ts_probes_new() - a new probes model; Return: 0 or -ENOMEM */
int ts_probes_new(struct ts_probes **mp, const struct ts_model_opts *opts);

/** ts_probes_feed() - feed one event: probe:* events pair, switches to idle are counted */
int ts_probes_feed(struct ts_probes *m, const struct ts_event *ev);

/**
 * ts_probes_note() - the input recorded probe:@fn (its attrs): @fn is listed, with no calls
 * until its events come, so that a probe that never fired counts 0 calls, not "not measured"
 * Return: 0, or -ENOSPC past TS_PROBES_MAX functions.
 */
int ts_probes_note(struct ts_probes *m, const char *fn);

/** ts_probes_finish() - count the calls still open at the end */
void ts_probes_finish(struct ts_probes *m, uint64_t end);

/** ts_probes_free() - free (NULL is fine) */
void ts_probes_free(struct ts_probes *m);

/** ts_probes_nr() - distinct probed functions seen */
size_t ts_probes_nr(const struct ts_probes *m);

/** ts_probes_at() - function @i in first-seen order */
const struct ts_probe *ts_probes_at(const struct ts_probes *m, size_t i);

/** ts_probes_idle_entries() - switches to the idle task: the denominator of "per idle entry" */
uint64_t ts_probes_idle_entries(const struct ts_probes *m);

/** ts_probes_other() - probe events beyond TS_PROBES_MAX functions, not counted */
uint64_t ts_probes_other(const struct ts_probes *m);

/**
 * ts_probe_split() - whether tracepoint @name is a probe event: "probe:F" (*@ret = 0) or
 * "probe:F__return" (*@ret = 1); F goes to @fn (@len bytes, cut to fit). Any other group
 * perf probe makes, "probe_BINARY" (uprobes: perf probe -x BINARY), pairs the same way; its
 * @fn keeps the group, "probe_libc:malloc", so that a kernel F and a binary's F stay apart.
 */
int ts_probe_split(const char *name, char *fn, size_t len, int *ret);

#endif
