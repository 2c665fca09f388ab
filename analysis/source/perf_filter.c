// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tracepoints recorded through a filter. perf record's --filter F, and --exclude-perf (a filter
 * "common_pid != perf's pid"), apply to every event of the -e given last before them; the
 * kernel then writes only the hits that pass. No record of the file says so, and the counts
 * cannot (a filter on a lone attr has no twin to compare with): only the command line perf
 * keeps (HEADER_CMDLINE, its argv word by word) does. The analyses need every hit of an event
 * (a switch-out without its switch-in), so such an attr is left out, as one sampled 1 hit in N
 * is (attr_left_out()).
 *
 * The words are read as perf record's parse_options() reads them: options in clusters (-ae X),
 * long ones by any unambiguous prefix (--ev X, --fi=F), an option's value never taken for an
 * option, and the first word that is neither (the workload: perf stops there) ends them, so
 * that a workload's own --exclude is not perf's --exclude-perf. An option perf 6.1 does not
 * have (a later perf's) may take a value this cannot tell from the workload: after one, every
 * later word is still read, and a filter seen there counts (left out rather than analysed from
 * a subset).
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "perf_filter.h"
#include "source_priv.h"

struct ev_group {
	const char *text; /* the -e argument: events split by commas, globs, {groups}, :modifiers */
	int filtered;
};

enum { NO_ARG, ARG, OPT_ARG /* only attached: -zN, --aio=N */ };

/* perf record's options (perf 6.1's `perf record -h`): long name, short letter, value */
static const struct popt {
	const char *name;
	char letter;
	char arg;
} popts[] = {
	{ "all-cpus", 'a', NO_ARG },
	{ "branch-any", 'b', NO_ARG },
	{ "no-buildid", 'B', NO_ARG },
	{ "count", 'c', ARG },
	{ "cpu", 'C', ARG },
	{ "data", 'd', NO_ARG },
	{ "delay", 'D', ARG },
	{ "event", 'e', ARG },
	{ "freq", 'F', ARG },
	{ NULL, 'g', NO_ARG },
	{ "cgroup", 'G', ARG },
	{ "intr-regs", 'I', OPT_ARG },
	{ "no-inherit", 'i', NO_ARG },
	{ "branch-filter", 'j', ARG },
	{ "clockid", 'k', ARG },
	{ "mmap-pages", 'm', ARG },
	{ "no-buildid-cache", 'N', NO_ARG },
	{ "no-samples", 'n', NO_ARG },
	{ "output", 'o', ARG },
	{ "period", 'P', NO_ARG },
	{ "pid", 'p', ARG },
	{ "quiet", 'q', NO_ARG },
	{ "raw-samples", 'R', NO_ARG },
	{ "realtime", 'r', ARG },
	{ "snapshot", 'S', OPT_ARG },
	{ "stat", 's', NO_ARG },
	{ "tid", 't', ARG },
	{ "timestamp", 'T', NO_ARG },
	{ "uid", 'u', ARG },
	{ "verbose", 'v', NO_ARG },
	{ "weight", 'W', NO_ARG },
	{ "compression-level", 'z', OPT_ARG },
	{ "affinity", 0, ARG },
	{ "aio", 0, OPT_ARG },
	{ "all-cgroups", 0, NO_ARG },
	{ "all-kernel", 0, NO_ARG },
	{ "all-user", 0, NO_ARG },
	{ "aux-sample", 0, OPT_ARG },
	{ "buildid-all", 0, NO_ARG },
	{ "buildid-mmap", 0, NO_ARG },
	{ "call-graph", 0, ARG },
	{ "clang-opt", 0, ARG },
	{ "clang-path", 0, ARG },
	{ "code-page-size", 0, NO_ARG },
	{ "control", 0, ARG },
	{ "data-page-size", 0, NO_ARG },
	{ "debuginfod", 0, OPT_ARG },
	{ "dry-run", 0, NO_ARG },
	{ "exclude-perf", 0, NO_ARG },
	{ "filter", 0, ARG },
	{ "group", 0, NO_ARG },
	{ "kcore", 0, NO_ARG },
	{ "kernel-callchains", 0, NO_ARG },
	{ "max-size", 0, ARG },
	{ "mmap-flush", 0, ARG },
	{ "namespaces", 0, NO_ARG },
	{ "no-bpf-event", 0, NO_ARG },
	{ "no-buffering", 0, NO_ARG },
	{ "num-thread-synthesize", 0, ARG },
	{ "off-cpu", 0, NO_ARG },
	{ "overwrite", 0, NO_ARG },
	{ "per-thread", 0, NO_ARG },
	{ "phys-data", 0, NO_ARG },
	{ "proc-map-timeout", 0, ARG },
	{ "running-time", 0, NO_ARG },
	{ "sample-cpu", 0, NO_ARG },
	{ "sample-identifier", 0, NO_ARG },
	{ "strict-freq", 0, NO_ARG },
	{ "switch-events", 0, NO_ARG },
	{ "switch-max-files", 0, ARG },
	{ "switch-output", 0, OPT_ARG },
	{ "switch-output-event", 0, ARG },
	{ "synth", 0, ARG },
	{ "tail-synthesize", 0, NO_ARG },
	{ "threads", 0, OPT_ARG },
	{ "timestamp-boundary", 0, NO_ARG },
	{ "timestamp-filename", 0, NO_ARG },
	{ "transaction", 0, NO_ARG },
	{ "user-callchains", 0, NO_ARG },
	{ "user-regs", 0, OPT_ARG },
	{ "vmlinux", 0, ARG },
};

#define NR_POPTS (sizeof(popts) / sizeof(popts[0]))

/* The long option @w ("event=X" without its dashes) names: exact, or the one it abbreviates */
static const struct popt *long_opt(const char *w)
{
	const struct popt *found = NULL;
	size_t n = strcspn(w, "="), i;

	for (i = 0; i < NR_POPTS; i++) {
		if (!popts[i].name || strncmp(popts[i].name, w, n))
			continue;
		if (!popts[i].name[n])
			return &popts[i];
		if (found)
			return NULL; /* ambiguous: perf refuses it */
		found = &popts[i];
	}
	if (!found && !strncmp(w, "no-", 3)) { /* --no-X of a flag */
		found = long_opt(w + 3);
		if (found && found->arg != NO_ARG)
			found = NULL;
	}
	return found;
}

static const struct popt *short_opt(char c)
{
	size_t i;

	for (i = 0; i < NR_POPTS; i++)
		if (popts[i].letter == c)
			return &popts[i];
	return NULL;
}

static int is_name(const struct popt *o, const char *name)
{
	return o && o->name && !strcmp(o->name, name);
}

/* Does event @name ("sched:sched_switch") match one of the events of -e argument @text? */
static int matches(const char *text, const char *name)
{
	char one[256];
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, ","), i, j = 0, colons = 0;

		/* braces of a group and blanks dropped; a modifier (:k, }:S) and /terms/ cut */
		for (i = 0; i < n && j < sizeof(one) - 1; i++) {
			if (p[i] == '{' || p[i] == '}' || isspace((unsigned char)p[i]))
				continue;
			if (p[i] == '/' || (p[i] == ':' && ++colons > 1))
				break;
			one[j++] = p[i];
		}
		one[j] = 0;
		if (j && !fnmatch(one, name, 0))
			return 1;
		p += n + !!p[n];
	}
	return 0;
}

/*
 * The -e arguments of perf record's words @w (@nr of them), and which a filter followed, into
 * @g (room for @nr); Return: how many, or 0 if no filter followed one.
 */
static int groups_of(const char *const *w, int nr, struct ev_group *g)
{
	int i = 0, nr_groups = 0, any = 0, known = 1;

	while (i < nr && strcmp(w[i], "record"))
		i++;
	for (i++; i < nr && strcmp(w[i], "--"); i++) {
		const struct popt *o = NULL;
		const char *val = NULL, *c;

		if (w[i][0] != '-' || !w[i][1]) {
			if (known)
				break; /* the workload */
			continue;
		}
		if (w[i][1] == '-') {
			o = long_opt(w[i] + 2);
			c = strchr(w[i], '=');
			if (c)
				val = c + 1;
			else if (o && o->arg == ARG && i + 1 < nr)
				val = w[++i];
		} else {
			for (c = w[i] + 1; *c; c++) {
				o = short_opt(*c);
				if (!o)
					known = 0;
				if (!o || o->arg == NO_ARG)
					continue;
				if (c[1])
					val = c + 1;
				else if (o->arg == ARG && i + 1 < nr)
					val = w[++i];
				break;
			}
		}
		if (!o)
			known = 0;
		else if (is_name(o, "event") && val)
			g[nr_groups++] = (struct ev_group){ .text = val };
		else if (nr_groups && (is_name(o, "filter") || is_name(o, "exclude-perf")))
			g[nr_groups - 1].filtered = any = 1;
	}
	return any ? nr_groups : 0;
}

/*
 * Mark the attrs of a filtered -e. The attrs are in the order of the -e arguments, each
 * argument's events (a glob's too) once: an attr whose name the current argument matches, and
 * that it has not given yet, is its; else the next argument matching it is. When no argument
 * does (a command line this does not read), every attr a filtered argument matches is marked:
 * left out rather than analysed from a subset.
 */
static void mark(struct ev_group *g, int nr_groups, const struct ts_attr *a,
		 const char *const *names, int nr, uint8_t *out)
{
	int i, k, gi = 0, first = 0;

	for (i = 0; i < nr; i++) {
		int seen = 0;

		for (k = first; k < i && !seen; k++)
			seen = a[k].type == a[i].type && a[k].config == a[i].config;
		if (seen || !matches(g[gi].text, names[i])) {
			for (k = gi + 1; k < nr_groups && !matches(g[k].text, names[i]); k++)
				;
			if (k == nr_groups && a[i].type != PERF_TYPE_TRACEPOINT)
				continue; /* perf's own (dummy:HG): out[i] stays 0 */
			if (k == nr_groups)
				goto fallback;
			gi = k;
			first = i;
		}
		out[i] = g[gi].filtered && a[i].type == PERF_TYPE_TRACEPOINT;
	}
	return;
fallback:
	for (i = 0; i < nr; i++)
		for (k = 0, out[i] = 0; k < nr_groups && !out[i]; k++)
			out[i] = g[k].filtered && a[i].type == PERF_TYPE_TRACEPOINT &&
				 matches(g[k].text, names[i]);
}

int ts_filter_mark(const char *args, uint32_t nr_args, const struct ts_attr *a,
		   const char *const *names, int nr, uint8_t *out)
{
	const char **w = malloc((nr_args ? nr_args : 1) * sizeof(*w));
	struct ev_group *g = calloc(nr_args ? nr_args : 1, sizeof(*g));
	const char *p = args;
	uint32_t i;
	int nr_groups;

	memset(out, 0, nr);
	if (!w || !g) {
		free(w);
		free(g);
		return -ENOMEM;
	}
	for (i = 0; i < nr_args; i++, p += strlen(p) + 1)
		w[i] = p;
	nr_groups = groups_of(w, (int)nr_args, g);
	if (nr_groups)
		mark(g, nr_groups, a, names, nr, out);
	free(g);
	free(w);
	return 0;
}

static const char *attr_name(struct ts_source *s, const struct ts_attr *a)
{
	const char *name = a->name[0] || !s->dec ? a->name :
						   ts_decoder_event_name(s->dec, (int)a->config);

	return name ? name : "";
}

int ts_source_find_filters(struct ts_source *s)
{
	const struct ts_file_info *info = ts_reader_info(s->reader);
	const struct ts_attr *a;
	const char **names;
	uint8_t *out;
	int nr, i, ret;

	a = ts_reader_attrs(s->reader, &nr);
	if (nr <= s->nr_filtered)
		return 0;
	out = realloc(s->filtered, nr);
	if (!out)
		return -ENOMEM;
	s->filtered = out;
	s->nr_filtered = nr;
	memset(out, 0, nr);
	if (!info->args || (!strstr(info->cmdline, " --fi") && !strstr(info->cmdline, " --ex")))
		return 0;
	names = malloc(nr * sizeof(*names));
	if (!names)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		names[i] = attr_name(s, &a[i]);
	ret = ts_filter_mark(info->args, info->nr_args, a, names, nr, out);
	free(names);
	return ret;
}

int ts_source_check_filters(struct ts_source *s)
{
	return s->opts.every_attr ? 0 : ts_source_find_filters(s);
}

int ts_source_attr_filtered(const struct ts_source *s, const struct ts_attr *a)
{
	return a->index < s->nr_filtered && s->filtered[a->index];
}
