// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run folder without its trace for `tickscope compare` (compare_trace.c): its summary
 * (perf.data.tsum, as the bundled fixtures hold it) stands in for the trace when this
 * tickscope reads its format and it names the trace meta.txt records; else the run is its
 * benchmark alone, or refused, said in one line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "compare_trace.h"
#include "unxz.h"
#include "tickscope/compare_report.h"
#include "tickscope/error.h"

/* Why @dir has no perf.data[.xz] to read, in @buf: missing, a directory, a symlink loop... */
static const char *no_trace_why(const char *dir, char *buf, size_t n)
{
	static const char *const names[] = { "perf.data", "perf.data.xz" };
	struct stat st;

	for (int i = 0; i < 2; i++) {
		char *p = cli_join(dir, names[i]);
		int e = 0;

		if (p && stat(p, &st))
			e = errno;
		if (!p || (e == ENOENT && lstat(p, &st))) {
			free(p);
			continue;
		}
		if (e == ENOENT)
			snprintf(buf, n, "%s is a symbolic link to nothing", names[i]);
		else if (e)
			snprintf(buf, n, "%s: %s", names[i], strerror(e));
		else if (S_ISDIR(st.st_mode))
			snprintf(buf, n, "%s is a directory", names[i]);
		else
			snprintf(buf, n, "%s is not a regular file", names[i]);
		free(p);
		return buf;
	}
	snprintf(buf, n, "no perf.data or perf.data.xz");
	return buf;
}

/*
 * A summary without its trace is read in its own format from TS_SUMMARY_OLDEST on (compare.h
 * says why); one next to its trace is always computed again in this format instead.
 */
static int readable_format(const char *format)
{
	static const char pre[] = "tickscope-summary ";
	char *end;
	long v;

	if (!strcmp(format, TS_SUMMARY_MAGIC))
		return 1;
	if (strncmp(format, pre, sizeof(pre) - 1))
		return 0;
	v = strtol(format + sizeof(pre) - 1, &end, 10);
	return !*end && v >= TS_SUMMARY_OLDEST && v < atol(TS_SUMMARY_MAGIC + sizeof(pre) - 1);
}

/*
 * A run folder without perf.data: its summary (perf.data.tsum, or perf.data.xz.tsum when the
 * trace was compressed; either may itself be compressed, .tsum.xz, as the bundled fixtures
 * are), if it names the trace meta.txt recorded.
 */
static const char *const summary_names[] = { "perf.data.tsum", "perf.data.xz.tsum",
					     "perf.data.tsum.xz", "perf.data.xz.tsum.xz" };

/* The first of summary_names in @dir in *@sp; Return: 1 found, 0 not, -ENOMEM. */
static int find_summary(const char *dir, char **sp)
{
	struct stat st;

	for (size_t i = 0; i < sizeof(summary_names) / sizeof(summary_names[0]); i++) {
		*sp = cli_join(dir, summary_names[i]);
		if (!*sp)
			return -ENOMEM;
		if (!stat(*sp, &st))
			return 1;
		free(*sp);
	}
	*sp = NULL;
	return 0;
}

/*
 * The length of @v's release, without the "+<models id>" of the code that wrote it: a summary
 * without its trace is read by any build of the same release (it cannot be computed again).
 */
static size_t release_len(const char *v)
{
	return strcspn(v, "+");
}

/*
 * Why summary @sp (its head @h) cannot stand in for this run, in @msg: a format or version
 * this tickscope does not read, another benchmark or operation count, or another trace than
 * meta.txt records. Return: 1 refused, 0 taken.
 */
static int summary_refused(const char *sp, const struct ts_summary_head *h, const char *comm,
			   double ops, const struct trace_id *id, const struct load_opts *o,
			   char *msg, size_t n)
{
	char want[32];

	if (!readable_format(h->format) || release_len(h->version) != release_len(o->version) ||
	    strncmp(h->version, o->version, release_len(o->version))) {
		snprintf(
			msg, n,
			"%s: written by tickscope %.*s (%s); this tickscope %.*s reads %s: compute "
			"it again where the trace is (tickscope summary RUN)",
			sp, (int)release_len(h->version), h->version, h->format,
			(int)release_len(o->version), o->version, TS_SUMMARY_MAGIC);
		return 1;
	}
	if (strcmp(h->comm, comm ? comm : "-") || strcmp(h->ops, ts_summary_ops(ops, want, 32))) {
		snprintf(msg, n,
			 "%s: computed for the tasks '%s' and %s operations; this run's benchmark "
			 "gives '%s' and %s (meta.txt, workload.out)",
			 sp, h->comm, h->ops, comm ? comm : "-", want);
		return 1;
	}
	/*
	 * A meta.txt with neither perf_data_sha256 nor perf_data_size predates them (the bundled
	 * built-kernel fixtures): the summary's own trace line, written from the trace when the
	 * run was recorded, is all that names the trace, and it is taken. One with a size but no
	 * sha256 lost it since: refused.
	 */
	if (!id->sha256 && id->size >= 0) {
		snprintf(msg, n,
			 "%s: meta.txt records no perf_data_sha256: without perf.data nothing ties "
			 "this summary to the run's trace",
			 sp);
		return 1;
	}
	if (id->sha256 &&
	    (strcmp(h->sha256, id->sha256) || (id->size >= 0 && h->trace_size != id->size))) {
		snprintf(
			msg, n,
			"%s: the summary of another trace (sha256 %.16s..., %lld bytes); meta.txt's "
			"perf.data is %.16s... (%lld bytes)",
			sp, h->sha256, h->trace_size, id->sha256, id->size);
		return 1;
	}
	return 0;
}

/*
 * Summary @sp, unpacked into a temporary file when compressed, and its head into @h (the
 * line it ends on in @line). Return: the file to read (a copy of @sp), or NULL with @msg
 * saying why not.
 */
static char *summary_open(const char *sp, struct ts_summary_head *h, int *line, char *msg, size_t n)
{
	int xz = cli_ends_with(sp, ".xz"), err;
	char xwhy[400], *plain = xz ? cli_unxz(sp, xwhy, sizeof(xwhy)) : strdup(sp);

	if (!plain) {
		snprintf(msg, n, "%s: %s", sp, xz ? "cannot unpack it" : "out of memory");
		if (xz)
			snprintf(msg + strlen(msg), n - strlen(msg), ": %s", xwhy);
		return NULL;
	}
	err = ts_summary_head(plain, h, line);
	if (err == -TS_ESUMMARY && h->format && strcmp(h->format, TS_SUMMARY_MAGIC))
		err = 0; /* an older layout: said by summary_refused(), as any other format */
	if (!err)
		return plain;
	snprintf(msg, n, "%s:%d: %s", sp, *line, ts_strerror(err));
	if (strcmp(plain, sp))
		unlink(plain); /* the unpacked copy */
	free(plain);
	return NULL;
}

/*
 * No summary in @dir to read (or summarise, which needs the trace): a run without a trace is
 * its benchmark alone (said), one whose meta.txt records a trace is refused. @why: why there
 * is no trace; @bad: one is there but cannot be read. Return: 0 or 1 (said).
 */
static int no_summary(const char *dir, const char *why, int bad, const struct trace_id *id,
		      const struct load_opts *o)
{
	if (o->summarise)
		return cli_error("%s: %s to summarise", dir,
				 bad ? why : "no perf.data or perf.data.xz");
	if (!id->sha256) { /* a run without a trace: its benchmark alone, said */
		fprintf(cli_err(),
			"tickscope: warning: %s: no trace (%s): its benchmark result only\n", dir,
			why);
		return 0;
	}
	return cli_error("%s: neither perf.data[.xz] nor its summary perf.data.tsum, though "
			 "meta.txt records a trace (perf_data_sha256=)%s%s",
			 dir, bad ? "; " : "", bad ? why : "");
}

int from_summary(const char *dir, const char *comm, double ops, const struct trace_id *id,
		 const struct load_opts *o, struct ts_run *r)
{
	char *sp = NULL, *plain = NULL, *dp = NULL, why[160], msg[700] = "";
	struct ts_summary_head h = { 0 };
	int line = 1, err, bad, found = find_summary(dir, &sp);

	if (found < 0)
		return cli_error("%s: out of memory", dir);
	/* a perf.data[.xz] that is there but cannot be read (a loop, a directory): named first */
	no_trace_why(dir, why, sizeof(why));
	bad = strncmp(why, "no perf.data", 12) != 0;
	if (o->summarise || !found) {
		free(sp);
		return no_summary(dir, why, bad, id, o);
	}
	err = -1;
	if (o->no_cache) {
		snprintf(
			msg, sizeof(msg),
			"%s: --no-cache, but there is no perf.data[.xz] to compute the summary from: "
			"only %s",
			dir, strrchr(sp, '/') + 1);
		goto out;
	}
	plain = summary_open(sp, &h, &line, msg, sizeof(msg));
	if (!plain || summary_refused(sp, &h, comm, ops, id, o, msg, sizeof(msg)))
		goto out;
	err = ts_summary_read(plain, h.key, r, &line);
	if (err <= 0) {
		snprintf(msg, sizeof(msg), "%s:%d: %s", sp, line,
			 ts_strerror(err ? err : -TS_ESUMMARY));
		err = -1;
		goto out;
	}
	err = 0;
	if (bad)
		fprintf(cli_err(), "tickscope: warning: %s: %s: compared from its summary %s\n",
			dir, why, strrchr(sp, '/') + 1);
	/* the charts: chart data computed with the summary (perf.data.tplot), else none */
	dp = strndup(sp, strlen(sp) - strlen(cli_ends_with(sp, ".xz") ? ".tsum.xz" : ".tsum"));
	/* said as compare from the trace says it, naming the trace the summary was made of */
	if (r->filters_unknown)
		fprintf(cli_err(), "tickscope: warning: %s: %s\n", dp ? dp : sp,
			r->filters_unknown);
	if (o->hook && (!dp || !o->hook->cached(o->hook->ctx, dp, h.key)))
		o->hook->untraced(o->hook->ctx, dir);
out:
	if (err && bad)
		err = cli_error("%s: %s, and its summary cannot stand in for it: %s", dir, why,
				msg);
	else if (err)
		err = cli_error("%s", msg);
	ts_summary_head_release(&h);
	if (plain && sp && strcmp(plain, sp))
		unlink(plain); /* the unpacked copy */
	free(plain);
	free(dp);
	free(sp);
	return err;
}
