// SPDX-License-Identifier: GPL-2.0-only
/*
 * perf script's command line for tickscope.so: perf runs filter_event_early() before its own
 * --time, -C, --pid, --tid and --comms checks, so the plugin reads them here and gives them to
 * the analysis as the equivalent `tickscope report` filters (docs/plugin.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perf_cmdline.h"

enum opt_kind { K_INPUT, K_TIME, K_CPU, K_PID, K_TID, K_COMM, K_REFUSE, K_VALUE };

/* perf script options we act on, refuse, or must step over (their value may look like -X). */
static const struct {
	const char *name;
	char short_name;
	enum opt_kind kind;
} perf_opts[] = {
	{ "input", 'i', K_INPUT },
	{ "time", 0, K_TIME },
	{ "cpu", 'C', K_CPU },
	{ "pid", 0, K_PID },
	{ "tid", 0, K_TID },
	{ "comms", 'c', K_COMM },
	{ "symbols", 'S', K_REFUSE },
	{ "dsos", 0, K_REFUSE },
	{ "switch-on", 0, K_REFUSE },
	{ "switch-off", 0, K_REFUSE },
	{ "fields", 'F', K_VALUE },
	{ "script", 's', K_VALUE },
	{ "gen-script", 'g', K_VALUE },
	{ "vmlinux", 'k', K_VALUE },
	{ "kallsyms", 0, K_VALUE },
	{ "symfs", 0, K_VALUE },
	{ "dlfilter", 0, K_VALUE },
	{ "dlarg", 0, K_VALUE },
	{ "itrace", 0, K_VALUE },
	{ "max-stack", 0, K_VALUE },
	{ "addr-range", 0, K_VALUE },
	{ "graph-function", 0, K_VALUE },
	{ "stop-bt", 0, K_VALUE },
	{ "field-separator", 0, K_VALUE },
};

#define NR_OPTS (int)(sizeof(perf_opts) / sizeof(perf_opts[0]))

static void copy_str(char *out, size_t len, const char *s)
{
	size_t n = strnlen(s, len - 1);

	memcpy(out, s, n);
	out[n] = 0;
}

/*
 * The option "--NAME[=...]" names: perf takes any unambiguous prefix of a long name, and it
 * has already refused ambiguous ones, so a prefix of one of ours is ours. Return: index or -1.
 */
static int find_long(const char *arg, const char **value)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	int i, found = -1;

	*value = eq ? eq + 1 : NULL;
	for (i = 0; i < NR_OPTS && n; i++) {
		if (strncmp(perf_opts[i].name, arg, n))
			continue;
		if (!perf_opts[i].name[n])
			return i; /* exact */
		found = found == -1 ? i : -2;
	}
	return found >= 0 ? found : -1;
}

static int find_short(char c)
{
	int i;

	for (i = 0; i < NR_OPTS; i++)
		if (c && perf_opts[i].short_name == c)
			return i;
	return -1;
}

static int parse_ids(struct perf_cmdline *c, const char *s, int by_pid)
{
	char *end;
	long v;

	if (c->nr_tids) {
		snprintf(c->error, sizeof(c->error),
			 "perf's --pid, --tid and --comms select tasks together (all must match); "
			 "tickscope.so takes one of them");
		return -EINVAL;
	}
	c->by_pid = by_pid;
	while (*s) {
		v = strtol(s, &end, 10);
		if (end == s || v < 0 || v > INT32_MAX || c->nr_tids == PERF_CMDLINE_MAX_TIDS)
			break;
		c->tids[c->nr_tids++] = (int32_t)v;
		s = *end == ',' ? end + 1 : end;
		if (s == end && *s)
			break;
	}
	if (!*s && c->nr_tids)
		return 0;
	snprintf(c->error, sizeof(c->error),
		 "perf's --%s '%.64s': tickscope.so takes a list of "
		 "at most %d numbers",
		 by_pid ? "pid" : "tid", s, PERF_CMDLINE_MAX_TIDS);
	return -EINVAL;
}

/* One recognised option with its value. */
static int take(struct perf_cmdline *c, int i, const char *v)
{
	switch (perf_opts[i].kind) {
	case K_INPUT:
		copy_str(c->input, sizeof(c->input), v);
		return 0;
	case K_TIME:
		copy_str(c->time, sizeof(c->time), v);
		return 0;
	case K_CPU:
		copy_str(c->cpus, sizeof(c->cpus), v);
		return 0;
	case K_PID:
	case K_TID:
		return parse_ids(c, v, perf_opts[i].kind == K_PID);
	case K_COMM:
		copy_str(c->comm, sizeof(c->comm), v);
		return 0;
	case K_REFUSE:
		snprintf(c->error, sizeof(c->error),
			 "perf's --%s drops samples after the plugin has taken them; "
			 "tickscope.so cannot honour it",
			 perf_opts[i].name);
		return -EINVAL;
	default:
		return 0;
	}
}

int perf_cmdline_parse(struct perf_cmdline *c, const char *argv, size_t len)
{
	const char *p = argv, *end = argv + len, *v, *next;
	int i, ret;

	memset(c, 0, sizeof(*c));
	for (; p < end; p = next) {
		next = p + strnlen(p, (size_t)(end - p)) + 1;
		if (p[0] != '-' || !p[1] || (p[1] == '-' && !p[2]))
			continue;
		i = -1; /* p[1] is set, so the loop below runs at least once: for the compiler */
		if (p[1] == '-') {
			i = find_long(p + 2, &v);
		} else {
			/* "-vC1": flags grouped before an option whose value is the rest */
			for (v = p + 1; *v && (i = find_short(*v)) < 0; v++)
				;
			v = *v && v[1] ? v + 1 : NULL;
		}
		if (i < 0)
			continue;
		if (!v && perf_opts[i].kind != K_REFUSE) {
			if (next >= end)
				break;
			v = next;
			next = v + strnlen(v, (size_t)(end - v)) + 1;
		}
		ret = take(c, i, v ? v : "");
		if (ret)
			return ret;
	}
	return 0;
}

int perf_cmdline_read(struct perf_cmdline *c)
{
	size_t cap = 65536, len = 0;
	char *buf = malloc(cap);
	ssize_t n;
	int fd, ret;

	if (!buf)
		return -ENOMEM;
	fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	while (len < cap && (n = read(fd, buf + len, cap - len)) > 0)
		len += (size_t)n;
	close(fd);
	if (len == cap) {
		free(buf);
		return -E2BIG;
	}
	ret = perf_cmdline_parse(c, buf, len);
	free(buf);
	return ret;
}

/* "START,END" with plain decimal seconds on either side, as tickscope report takes. */
static int plain_range(const char *s)
{
	int commas = 0;

	for (; *s; s++) {
		if (*s == ',')
			commas++;
		else if ((*s < '0' || *s > '9') && *s != '.')
			return 0;
	}
	return commas == 1;
}

int perf_cmdline_filters(struct perf_cmdline *c, struct ts_analysis_opts *o)
{
	if (c->time[0] && (!plain_range(c->time) ||
			   ts_analysis_parse_time(c->time, &o->time_start, &o->time_end))) {
		snprintf(c->error, sizeof(c->error),
			 "perf's --time '%.64s': tickscope.so takes one START,END range in seconds "
			 "(not percentages or several ranges)",
			 c->time);
		return -EINVAL;
	}
	if (c->cpus[0])
		o->cpus = c->cpus;
	if (c->comm[0] && (c->nr_tids || strchr(c->comm, ','))) {
		snprintf(
			c->error, sizeof(c->error),
			"perf's --comms '%.32s': tickscope.so takes one comm, without --pid or --tid",
			c->comm);
		return -EINVAL;
	}
	if (c->comm[0])
		o->comm = c->comm;
	o->pids = c->nr_tids ? c->tids : NULL;
	o->nr_pids = c->nr_tids;
	return 0;
}
