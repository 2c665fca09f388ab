// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tracepoints recorded through a filter. perf record's --filter F, and --exclude-perf (a filter
 * "common_pid != perf's pid"), apply to every event of the -e given last before them; the
 * kernel then writes only the hits that pass. No record of the file says so, and the counts
 * cannot (a filter on a lone attr has no twin to compare with): only the command line perf
 * keeps (HEADER_CMDLINE, which the reader joins with spaces) does. The analyses need every hit
 * of an event (a switch-out without its switch-in), so such an attr is left out, as one sampled
 * 1 hit in N is (attr_left_out()).
 */
#include <errno.h>
#include <fnmatch.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "source_priv.h"

#define MAX_GROUPS 256

struct ev_group {
	char *text; /* the -e argument: events split by commas, globs, {groups}, :modifiers */
	int filtered;
};

static int prefix_of(const char *tok, const char *opt, size_t min)
{
	size_t n = strcspn(tok, "=");

	return n >= min && n <= strlen(opt) && !strncmp(tok, opt, n);
}

/* Does event @name ("sched:sched_switch") match one of the events of -e argument @text? */
static int matches(const char *text, const char *name)
{
	char one[256];
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, ","), i, j = 0, colons = 0;

		/* braces of a group dropped; a modifier (:k, }:S) and /terms/ cut */
		for (i = 0; i < n && j < sizeof(one) - 1; i++) {
			if (p[i] == '{' || p[i] == '}')
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

static const char *attr_name(struct ts_source *s, const struct ts_attr *a)
{
	const char *name = a->name[0] || !s->dec ? a->name :
						   ts_decoder_event_name(s->dec, (int)a->config);

	return name ? name : "";
}

/* The -e arguments of perf record's command line, and which a filter followed. */
static int groups_of(char *cmd, struct ev_group *g)
{
	char *tok, *save = NULL;
	int nr = 0, any = 0, record = 0, next_is_event = 0;

	for (tok = strtok_r(cmd, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!record) {
			record = !strcmp(tok, "record");
			continue;
		}
		if (!strcmp(tok, "--"))
			break;
		if (next_is_event) {
			next_is_event = 0;
			if (nr < MAX_GROUPS)
				g[nr++] = (struct ev_group){ .text = tok };
		} else if (!strcmp(tok, "-e") || !strcmp(tok, "--event")) {
			next_is_event = 1;
		} else if ((!strncmp(tok, "-e", 2) && tok[2] != '-') ||
			   !strncmp(tok, "--event=", 8)) {
			if (nr < MAX_GROUPS)
				g[nr++] =
					(struct ev_group){ .text = tok + (tok[1] == 'e' ? 2 : 8) };
		} else if (nr &&
			   (prefix_of(tok, "--filter", 5) || prefix_of(tok, "--exclude-perf", 5))) {
			g[nr - 1].filtered = 1;
			any = 1;
		}
	}
	return any ? nr : 0;
}

/*
 * Mark the attrs of a filtered -e. The attrs are in the order of the -e arguments, each
 * argument's events (a glob's too) once: an attr whose name the current argument matches, and
 * that it has not given yet, is its; else the next argument matching it is. When no argument
 * does (a command line this does not read), every attr a filtered argument matches is marked:
 * left out rather than analysed from a subset.
 */
static void mark(struct ts_source *s, struct ev_group *g, int nr_groups, const struct ts_attr *a,
		 int nr, uint8_t *out)
{
	int i, k, gi = 0, first = 0;

	for (i = 0; i < nr; i++) {
		const char *name = attr_name(s, &a[i]);
		int seen = 0;

		for (k = first; k < i && !seen; k++)
			seen = a[k].type == a[i].type && a[k].config == a[i].config;
		if (seen || !matches(g[gi].text, name)) {
			for (k = gi + 1; k < nr_groups && !matches(g[k].text, name); k++)
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
				 matches(g[k].text, attr_name(s, &a[i]));
}

int ts_source_find_filters(struct ts_source *s)
{
	const struct ts_file_info *info = ts_reader_info(s->reader);
	const struct ts_attr *a;
	struct ev_group *g = NULL;
	char *cmd = NULL;
	uint8_t *out;
	int nr, nr_groups;

	a = ts_reader_attrs(s->reader, &nr);
	if (nr <= s->nr_filtered)
		return 0;
	out = realloc(s->filtered, nr);
	if (!out)
		return -ENOMEM;
	s->filtered = out;
	s->nr_filtered = nr;
	memset(out, 0, nr);
	if (!info->cmdline ||
	    (!strstr(info->cmdline, " --fil") && !strstr(info->cmdline, " --exc")))
		return 0;
	cmd = strdup(info->cmdline);
	g = calloc(MAX_GROUPS, sizeof(*g));
	if (!cmd || !g) {
		free(cmd);
		free(g);
		return -ENOMEM;
	}
	nr_groups = groups_of(cmd, g);
	if (nr_groups)
		mark(s, g, nr_groups, a, nr, out);
	free(g);
	free(cmd);
	return 0;
}

int ts_source_check_filters(struct ts_source *s)
{
	return s->opts.every_attr ? 0 : ts_source_find_filters(s);
}

int ts_source_attr_filtered(const struct ts_source *s, const struct ts_attr *a)
{
	return a->index < s->nr_filtered && s->filtered[a->index];
}
