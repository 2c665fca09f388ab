// SPDX-License-Identifier: GPL-2.0-only
/* The meta.txt boards/record.sh writes beside each run's perf.data, for the report header. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tickscope/bench.h"
#include "tickscope/error.h"
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
	return 0;
}

/*
 * result= and result_unit=, the benchmark's figure ts-record.sh copied from its output, into
 * @m: a plain decimal >= 0 and a unit this tree writes, once each (ts_bench_result()), or
 * an error naming the file and line; the report printed "nan", "-3 furlongs" or the second of
 * two results as the run's own. Return: 0 or -1 (said).
 */
static int result(struct ts_run_meta *m, const char *path, FILE *f)
{
	static const char *const key[2] = { "result=", "result_unit=" };
	char line[4096], *nl, *v, what[2][48] = { "", "" };
	int nr = 0, at[2] = { 0, 0 }, k, err;

	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		nr++;
		for (k = 0; k < 2 && strncmp(line, key[k], strlen(key[k])); k++)
			;
		if (k == 2)
			continue;
		v = line + strlen(key[k]);
		nl = strchr(v, '\n');
		if (nl)
			*nl = 0;
		if (at[k]) {
			cli_error("%s:%d: %s given again (first at line %d)", path, nr, key[k],
				  at[k]);
			return -1;
		}
		at[k] = nr;
		/* a longer value was cut to fit, and "123456...7.5" could be read as another */
		snprintf(what[k], sizeof(what[k]), "%s%.40s", strlen(v) > 40 ? "..." : "",
			 v + (strlen(v) > 40 ? strlen(v) - 40 : 0));
		if (strlen(v) >= sizeof(m->result)) {
			cli_error("%s:%d: %s%s: longer than %zu characters, not one a benchmark or "
				  "this tree writes",
				  path, nr, key[k], what[k], sizeof(m->result) - 1);
			return -1;
		}
		copy(k ? m->result_unit : m->result, sizeof(m->result), v);
	}
	err = ts_bench_result(m->result, m->result_unit, NULL);
	if (!err)
		return 0;
	k = err == -TS_ERESULTUNIT && at[1];
	cli_error("%s:%d: result=%s result_unit=%s: %s", path, at[k] ? at[k] : at[!k], what[0],
		  what[1], ts_strerror(err));
	return -1;
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
	if (ours && !bad_line && result(m, path, f)) {
		fclose(f);
		return -1;
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
