/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perf script's own command line, as the dlfilter plugin needs it: the input file and the
 * sample filters (--time, -C, --pid, --tid, --comms), which perf applies only after
 * filter_event_early() has returned, so the plugin applies them itself.
 */
#ifndef TICKSCOPE_PLUGIN_PERF_CMDLINE_H
#define TICKSCOPE_PLUGIN_PERF_CMDLINE_H

#include <stddef.h>
#include <stdint.h>

#include "tickscope/analysis.h"

#define PERF_CMDLINE_MAX_TIDS 256

struct perf_cmdline {
	char input[4096]; /* -i/--input, "" when not given */
	char time[128]; /* --time, "" when not given */
	char cpus[512]; /* -C/--cpu */
	char comm[64]; /* -c/--comms */
	int32_t tids[PERF_CMDLINE_MAX_TIDS]; /* --pid or --tid, parsed */
	int nr_tids;
	int by_pid; /* the list came from --pid (process ids), not --tid */
	char error[256]; /* why an option cannot be honoured, "" if all can */
};

/**
 * perf_cmdline_parse() - parse perf's argv (NUL-separated, @len bytes) into @c
 * Return: 0, or -EINVAL with @c->error saying which option the plugin cannot honour.
 */
int perf_cmdline_parse(struct perf_cmdline *c, const char *argv, size_t len);

/** perf_cmdline_read() - parse /proc/self/cmdline; Return: 0, -EINVAL or a negative errno */
int perf_cmdline_read(struct perf_cmdline *c);

/**
 * perf_cmdline_filters() - the same filters as tickscope report options into @o
 * (@o->pids points into @c). Return: 0, or -EINVAL with @c->error set.
 */
int perf_cmdline_filters(struct perf_cmdline *c, struct ts_analysis_opts *o);

#endif
