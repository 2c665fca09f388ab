// SPDX-License-Identifier: GPL-2.0-only
/* The meta.txt boards/record.sh writes beside each run's perf.data, for the report header. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tickscope/report.h"

static void copy(char *dst, size_t len, const char *v)
{
	snprintf(dst, len, "%s", v);
}

/* Pinned or not, from the workload's command line: ping-pong's --pin, or taskset. */
static void pinning(struct ts_run_meta *m, const char *cmd)
{
	const char *p = strstr(cmd, "--pin ");

	if (p && !strncmp(p + 6, "none", 4)) {
		m->pinned = 0;
	} else if (p) {
		m->pinned = 1;
		copy(m->pin, sizeof(m->pin), p);
	} else if (strstr(cmd, "taskset ")) {
		m->pinned = 1;
		copy(m->pin, sizeof(m->pin), strstr(cmd, "taskset "));
	} else {
		m->pinned = 0;
	}
}

/* A run number: a whole decimal from 1 (atoi() read "-3" as a run 18446744073709551613). */
static int count(const char *v, int *out)
{
	char *end;
	long n;

	if (*v < '1' || *v > '9')
		return -1;
	errno = 0;
	n = strtol(v, &end, 10);
	if (*end || errno || n > INT_MAX)
		return -1;
	*out = (int)n;
	return 0;
}

/* One "key=value" line; -1 for a value of the wrong form. */
static int field(struct ts_run_meta *m, const char *k, const char *v)
{
	if (!strcmp(k, "board"))
		copy(m->board, sizeof(m->board), v);
	else if (!strcmp(k, "variant"))
		copy(m->variant, sizeof(m->variant), v);
	else if (!strcmp(k, "workload"))
		copy(m->workload, sizeof(m->workload), v);
	else if (!strcmp(k, "run"))
		return count(v, &m->run);
	else if (!strcmp(k, "runs"))
		return count(v, &m->runs);
	else if (!strcmp(k, "workload_cmd"))
		pinning(m, v);
	else if (!strcmp(k, "result"))
		copy(m->result, sizeof(m->result), v);
	else if (!strcmp(k, "result_unit"))
		copy(m->result_unit, sizeof(m->result_unit), v);
	return 0;
}

int cli_run_meta(const char *input, struct ts_run_meta *m)
{
	const char *slash = strrchr(input, '/');
	char path[4096], line[4096], bad[64] = "", *eq, *nl;
	int ours = 0, nr = 0, bad_line = 0;
	FILE *f;

	if (!strcmp(input, "-"))
		return 0;
	snprintf(path, sizeof(path), "%.*smeta.txt", slash ? (int)(slash - input + 1) : 0, input);
	f = fopen(path, "r");
	if (!f)
		return 0;
	memset(m, 0, sizeof(*m));
	m->pinned = -1;
	while (fgets(line, sizeof(line), f)) {
		nr++;
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		eq = strchr(line, '=');
		if (!eq)
			continue;
		*eq = 0;
		if (!strcmp(line, "format"))
			ours = !strcmp(eq + 1, "tickscope-run-1");
		if (field(m, line, eq + 1) && !bad_line) {
			bad_line = nr;
			snprintf(bad, sizeof(bad), "%.20s=%.40s", line, eq + 1);
		}
	}
	fclose(f);
	if (ours && bad_line) {
		cli_error("%s:%d: %s is not a run number (a whole number from 1)", path, bad_line,
			  bad);
		return -1;
	}
	if (ours && m->runs && m->run > m->runs) {
		cli_error("%s: run=%d of runs=%d: a run past the last", path, m->run, m->runs);
		return -1;
	}
	return ours;
}
