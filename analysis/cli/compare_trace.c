// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run's trace metrics for `tickscope compare`: perf.data (or perf.data.xz, unpacked into a
 * temporary file) through every model once. Its summary is read from "<perf.data>.tsum" beside
 * it (`tickscope summary` writes it there), else from the user's cache (cli_cache_file(),
 * where compare writes it: never into the run folder), keyed by the file's size and mtime, the
 * tool's version, the benchmark's comm and operation count, and the sha256 of the kallsyms file
 * its symbols come from.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "compare_trace.h"
#include "common/cache.h"
#include "common/io.h"
#include "unxz.h"
#include "tickscope/analysis.h"
#include "tickscope/cpath.h"
#include "tickscope/error.h"
#include "tickscope/info.h"
#include "tickscope/metric.h"
#include "tickscope/reader.h"
#include "tickscope/compare_report.h"
#include "tickscope/report.h"
#include "tickscope/sha256.h"
#include "tickscope/source.h"

static char *join(const char *dir, const char *name)
{
	char *p;

	return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

/* @dir/@name, else @dir/@name.xz; NULL if neither is a file. */
static char *find(const char *dir, const char *name)
{
	struct stat st;
	char *p = join(dir, name), *x;

	if (p && !stat(p, &st) && S_ISREG(st.st_mode))
		return p;
	free(p);
	x = NULL;
	if (asprintf(&x, "%s/%s.xz", dir, name) < 0)
		return NULL;
	if (!stat(x, &st) && S_ISREG(st.st_mode))
		return x;
	free(x);
	return NULL;
}

static int ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && !strcmp(s + n - m, suf);
}

struct feed_ctx {
	struct ts_analysis *a;
	struct ts_cpath *path; /* NULL without the benchmark's comm */
};

static int feed(void *ctx, const struct ts_event *ev, const struct ts_sample *s)
{
	struct feed_ctx *fc = ctx;

	return ts_analysis_feed(fc->a, ev) ?: (fc->path ? ts_cpath_feed(fc->path, ev) : 0);
}

/*
 * Whether every address of the kallsyms @path is 0, as /proc/kallsyms reads for a user
 * without the right to see them: every symbol would be the same one. Return: 1, 0, -errno.
 */
static int ksyms_zeroed(const char *path)
{
	FILE *f = fopen(path, "r");
	char *l = NULL;
	size_t cap = 0;
	int lines = 0, zero = 1;

	if (!f)
		return -errno;
	while (zero && getline(&l, &cap, f) > 0) {
		size_t n = strspn(l, "0");

		lines++;
		zero = n && l[n] == ' ';
	}
	free(l);
	fclose(f);
	return lines && zero;
}

/*
 * A kallsyms's (or kallsyms.xz's unpacked) sha256 and whether its addresses are all 0,
 * remembered in the kallsyms cache folder (cli_ksyms_cache()) by the file's device, inode,
 * size and times: a compare from cached summaries then unpacks no kallsyms (5.4 MB each
 * here), and a cold one hashes each kallsyms once, not on every compare.
 */
static int memo_path(const char *xz, char *key, size_t klen, char *path, size_t plen)
{
	int xzed = ends_with(xz, ".xz");
	const char *dir = cli_ksyms_cache();
	char hex[TS_SHA256_HEX];
	struct ts_sha256 s;
	struct stat st;
	int n;

	if (!dir || stat(xz, &st) || !S_ISREG(st.st_mode))
		return -1;
	n = snprintf(key, klen, "%s %llu %llu %lld %lld.%09ld %lld.%09ld", xzed ? "xz" : "file",
		     (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
		     (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		     (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
	if (n < 0 || (size_t)n >= klen)
		return -1;
	ts_sha256_init(&s);
	ts_sha256_update(&s, key, (size_t)n);
	ts_sha256_final(&s, hex);
	n = snprintf(path, plen, "%s/%s.%s", dir, hex, xzed ? "xzsum" : "ksum");
	return n > 0 && (size_t)n < plen ? 0 : -1;
}

/* Return: 1 with @sha and *@zeroed from the memo of @xz, else 0. */
static int memo_get(const char *xz, char *sha, int *zeroed)
{
	char key[200], path[4200], line[512], want[300];
	size_t n;
	FILE *f;

	if (memo_path(xz, key, sizeof(key), path, sizeof(path)))
		return 0;
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(line, 1, sizeof(line) - 1, f);
	fclose(f);
	line[n] = 0;
	/* "KEY\nSHA256 Z\n": the key again, so that a name's collision cannot answer */
	snprintf(want, sizeof(want), "%s\n", key);
	if (strncmp(line, want, strlen(want)))
		return 0;
	if (sscanf(line + strlen(want), "%64[0-9a-f] %d", sha, zeroed) != 2 ||
	    strlen(sha) != TS_SHA256_HEX - 1 || (*zeroed != 0 && *zeroed != 1))
		return 0;
	return 1;
}

static void memo_put(const char *xz, const char *sha, int zeroed)
{
	char key[200], path[4200], tmp[4220];
	FILE *f;
	int fd;

	if (memo_path(xz, key, sizeof(key), path, sizeof(path)) ||
	    snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return;
	/* the folder is the kallsyms cache's: made by report, dump or plot, else here */
	ts_mkdir_p(cli_ksyms_cache(), 0700);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return;
	}
	fprintf(f, "%s\n%s %d\n", key, sha, zeroed);
	if (fclose(f) || rename(tmp, path))
		unlink(tmp);
}

/*
 * The perf.data header's facts, as perf report --header-only prints them: arch, nrcpus,
 * cpudesc, cpuid, os release.
 */
static int header_facts(const struct ts_file_info *i, struct ts_run *r)
{
	char cpus[48], cpu[400];
	int err;

	snprintf(cpus, sizeof(cpus), "%u online of %u", i->nr_cpus_online, i->nr_cpus_avail);
	snprintf(cpu, sizeof(cpu), "%s%s%s%s", i->cpudesc, i->cpudesc[0] && i->cpuid[0] ? " (" : "",
		 i->cpuid, i->cpudesc[0] && i->cpuid[0] ? ")" : "");
	err = ts_run_set_fact(r, TS_FACT_ARCH, i->arch[0] ? i->arch : NULL);
	err = err ?: ts_run_set_fact(r, TS_FACT_NR_CPUS, i->nr_cpus_online ? cpus : NULL);
	err = err ?: ts_run_set_fact(r, TS_FACT_CPU, cpu[0] ? cpu : NULL);
	return err ?: ts_run_set_fact(r, TS_FACT_RELEASE, i->osrelease[0] ? i->osrelease : NULL);
}

/* Whether @file starts as a perf.data does (file or pipe mode: both start with PERFILE2) */
static int is_perf_data(const char *file)
{
	char magic[8];
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	int ok = fd >= 0 && read(fd, magic, sizeof(magic)) == (ssize_t)sizeof(magic) &&
		 !memcmp(magic, "PERFILE2", sizeof(magic));

	if (fd >= 0)
		close(fd);
	return ok;
}

/*
 * The trace's sha256 and size against what meta.txt recorded; prints one line on mismatch,
 * saying what the file is instead: not a perf.data, one cut short, or another trace.
 */
static int check_id(const char *label, const char *file, const struct trace_id *id, char *sha,
		    long long *size)
{
	int err = ts_summary_trace_id(file, sha, size);

	if (err)
		return cli_error("%s: %s", label, strerror(-err));
	if (id->sha256 && (strcmp(sha, id->sha256) || (id->size >= 0 && *size != id->size)) &&
	    !is_perf_data(file))
		return cli_error(
			"%s: %s%lld bytes that are not a perf.data (no PERFILE2 at the "
			"start), not the trace meta.txt records (%lld bytes, sha256 %.16s...)",
			label, strcmp(label, file) ? "unpacks to " : "", *size, id->size,
			id->sha256);
	if (id->sha256 && strcmp(sha, id->sha256) && id->size >= 0 && *size < id->size)
		return cli_error("%s: %sa perf.data cut short: %lld of the %lld bytes meta.txt "
				 "records (sha256 %.16s..., not %.16s...)",
				 label, strcmp(label, file) ? "unpacks to " : "", *size, id->size,
				 sha, id->sha256);
	if (id->sha256 && (strcmp(sha, id->sha256) || (id->size >= 0 && *size != id->size)))
		return cli_error("%s: sha256 %.16s... (%lld bytes), but meta.txt records %.16s... "
				 "(%lld bytes): not the trace this run recorded, or damaged since",
				 label, sha, *size, id->sha256, id->size);
	return 0;
}

/*
 * Checking a trace against meta.txt (check_id()) in the read that decodes it: @label the
 * user's file, @file the one read (an unpacked copy of @label, or @label), @sha and @size the
 * answer; @checked once check_id() ran, before the read.
 */
struct trace_check {
	const char *label, *file;
	const struct trace_id *id;
	char *sha;
	long long *size;
	int checked;
};

/*
 * After the reader: its hash of the file (ts_reader_hashed()) against meta.txt's; a mismatch,
 * or a file the reader could not hash whole, goes through check_id() (which reads it again and
 * says what the file is instead), so that no figure of another trace is used. Return: 0, 1.
 */
static int check_read(struct trace_check *tc, struct ts_sha256 *h, struct ts_source *src)
{
	const struct trace_id *id = tc->id;

	tc->checked = 1;
	if (src && ts_reader_hashed(ts_source_reader(src), tc->size)) {
		ts_sha256_final(h, tc->sha);
		if (!id->sha256 ||
		    (!strcmp(tc->sha, id->sha256) && (id->size < 0 || *tc->size == id->size)))
			return 0;
	}
	return check_id(tc->label, tc->file, id, tc->sha, tc->size);
}

/*
 * Run every model over @data; prints one line on failure. @kcache: the folder of parsed
 * kallsyms tables to take @ksyms's from (NULL: parse it). @tc: the trace checked against
 * meta.txt already, else here, by the reader's hash (a failed read checks it first: a
 * damaged upload is said as such, not as what the decoder made of it).
 */
static int analyse(const char *label, const char *data, const char *ksyms, const char *kcache,
		   const char *comm, double ops, const struct load_opts *o, const char *key,
		   struct trace_check *tc, struct ts_run *r)
{
	struct ts_sha256 h;
	struct ts_report_opts ro = { 0 };
	struct ts_source_opts so = { .input = data,
				     .kallsyms = ksyms,
				     .ksyms_cache = kcache,
				     .need_decoder = 1,
				     .symbols = ksyms ? TS_SYMS_TABLE : 0,
				     .threaded = !o->one_thread };
	struct ts_analysis_opts ao = { 0 };
	struct ts_source *src = NULL;
	struct ts_analysis *a = NULL;
	struct feed_ctx fc = { 0 };
	int err = ts_analysis_new(&a, &ao);

	err = err ?: (comm ? ts_cpath_new(&fc.path, comm) : 0);
	fc.a = a;
	if (!tc->checked) {
		ts_sha256_init(&h);
		so.sha256 = &h;
	}
	if (!err) {
		err = ts_source_open(&src, &so);
		if (!err) {
			ts_source_note_recorded(src, a);
			err = ts_source_run(src, feed, &fc);
		}
		/* the trace is the one meta.txt records before any figure of it is used */
		if (!tc->checked && check_read(tc, &h, err ? NULL : src)) {
			err = 1;
			goto out;
		}
		if (!err) {
			/* metrics name functions through the kallsyms, loaded by now */
			ts_source_report_opts(src, &ro);
			ts_analysis_set_symbols(a, ro.sym, ro.sym_ctx);
			err = header_facts(ts_reader_info(ts_source_reader(src)), r);
		}
		if (err) {
			/* the source names the file it read: the user's, or xz's temporary one */
			const char *m = src ? ts_source_error(src) : ts_strerror(err);
			size_t n = strlen(data);

			if (!strncmp(m, data, n) && !strncmp(m + n, ": ", 2))
				m += n + 2;
			cli_error("%s%s: %s", label, strcmp(label, data) ? " (unpacked)" : "", m);
			goto out;
		}
	}
	err = err ?: cli_finish(src, a);
	err = err ?: ts_run_add_analysis(r, a, fc.path, comm, ops);
	if (!err && o->hook) /* the charts fold this run into its variant */
		err = o->hook->analysis(o->hook->ctx, a, &ro, comm, label, key);
	if (err)
		cli_error("%s: %s", label, ts_strerror(err));
out:
	ts_cpath_free(fc.path);
	ts_source_close(src);
	ts_analysis_free(a);
	return err;
}

/* Why @dir has no perf.data[.xz] to read, in @buf: missing, a directory, a symlink loop... */
static const char *no_trace_why(const char *dir, char *buf, size_t n)
{
	static const char *const names[] = { "perf.data", "perf.data.xz" };
	struct stat st;

	for (int i = 0; i < 2; i++) {
		char *p = join(dir, names[i]);
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
		*sp = join(dir, summary_names[i]);
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
	int xz = ends_with(sp, ".xz"), err;
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

static int from_summary(const char *dir, const char *comm, double ops, const struct trace_id *id,
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
	dp = strndup(sp, strlen(sp) - strlen(ends_with(sp, ".xz") ? ".tsum.xz" : ".tsum"));
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

/*
 * A summary of this trace under another key: the file was copied or unpacked since (tar keeps
 * the time to the second, the key has its nanoseconds), or it came from a board with its
 * summary. The trace line proves which trace it is: take it, and key it to the file as it is
 * now in the user's cache, @dst (best effort; NULL: none). Return: 1 taken, 0 not, -ENOMEM.
 */
static int same_trace(const char *cpath, const char *dst, const char *data, const char *key,
		      const char *comm, double ops, const char *sha, long long size,
		      const struct load_opts *o, struct ts_run *r)
{
	struct ts_run tmp = { .lost = NAN };
	struct ts_summary_head h;
	const char *ks = strrchr(key, '\t');
	int line, rc = 0, from = r->nr;
	char want[32];

	if (!ts_summary_head(cpath, &h, &line) && !strcmp(h.format, TS_SUMMARY_MAGIC) && ks &&
	    !strcmp(h.ksyms, ks + 1) && !strcmp(h.version, o->version) &&
	    !strcmp(h.comm, comm ? comm : "-") &&
	    !strcmp(h.ops, ts_summary_ops(ops, want, sizeof(want))) && !strcmp(h.sha256, sha) &&
	    h.trace_size == size)
		rc = ts_summary_read(cpath, h.key, &tmp, NULL);
	if (rc > 0 && o->hook && !o->hook->cached(o->hook->ctx, data, h.key))
		rc = 0; /* the charts need the trace read again */
	for (int i = 0; rc > 0 && i < tmp.nr; i++) {
		const struct ts_run_metric *m = &tmp.m[i];

		rc = ts_run_add(r, m->name, m->unit, m->dir, m->kind, m->value, m->why_null) ?: 1;
	}
	for (int k = TS_FACT_TRACE_FIRST; rc > 0 && k < TS_FACT_TRACE_END; k++)
		rc = (tmp.fact[k] ? ts_run_set_fact(r, k, tmp.fact[k]) : 0) ?: 1;
	if (rc > 0) {
		r->lost = tmp.lost;
		if (dst && !cli_cache_mkdir() && !ts_summary_write(dst, key, sha, size, r, from))
			cli_cache_used(dst);
	}
	ts_run_release(&tmp);
	ts_summary_head_release(&h);
	return rc == -TS_ESUMMARY || rc == -TS_ESUMMARYCUT ? 0 : rc;
}

/*
 * One copy of each kallsyms content, named by its sha256 in the kallsyms cache folder: every
 * run of that kernel reads it, so that its table is parsed once and then mapped from that
 * folder (ts_ksyms_load_cached(), as report keeps its tables), where each run parsed (and
 * first unpacked) its own 121,000-line copy: a quarter of a cold compare's CPU (issue 33).
 * Only a kallsyms that a run was just read with is copied: one that does not parse is named by
 * the user's path, never by the cache's. The copies count within the folder's cap
 * ($TS_KSYMS_CACHE_MB) with the tables, the oldest removed first.
 */
#define SHARED_SUFFIX ".kallsyms"

/* The copy of content @ksha in the cache folder @dir, if there is one. */
static char *shared_ksyms(const char *dir, const char *ksha)
{
	struct stat st;
	char *p;

	if (!dir || asprintf(&p, "%s/%s" SHARED_SUFFIX, dir, ksha) < 0)
		return NULL;
	/* not touched when used: its times are its table's key (the oldest copy goes first) */
	if (!stat(p, &st) && S_ISREG(st.st_mode))
		return p;
	free(p);
	return NULL;
}

/*
 * Copy @from (of content @ksha) into @dir, through a temporary file linked into place: a copy
 * there already (another worker's) is not replaced, so that its table's key stays.
 */
static void share_ksyms(const char *dir, const char *from, const char *ksha)
{
	static const char *const suffixes[] = { ".ksyms", SHARED_SUFFIX, NULL };
	char path[4200], tmp[4220], buf[64 * 1024];
	int in = -1, out = -1, bad = 0;
	ssize_t n;

	if (!dir ||
	    snprintf(path, sizeof(path), "%s/%s" SHARED_SUFFIX, dir, ksha) >= (int)sizeof(path) ||
	    snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp) ||
	    ts_mkdir_p(dir, 0700))
		return;
	in = open(from, O_RDONLY | O_CLOEXEC);
	out = in >= 0 ? mkostemp(tmp, O_CLOEXEC) : -1;
	if (out < 0) {
		if (in >= 0)
			close(in);
		return;
	}
	while (!bad && (n = read(in, buf, sizeof(buf))) != 0)
		bad = n < 0 ? errno != EINTR : ts_write_full(out, buf, (size_t)n) != 0;
	close(in);
	bad |= close(out);
	/* a folder where files cannot be linked (vfat): renamed, replacing */
	if (!bad && link(tmp, path) && errno != EEXIST)
		bad = rename(tmp, path);
	unlink(tmp);
	if (bad)
		return;
	ts_cache_prune(dir, suffixes, ts_cache_cap("TS_KSYMS_CACHE_MB", 128),
		       strrchr(path, '/') + 1);
}

/*
 * The kallsyms *@ksyms and its content's sha256 into @ksha (the key takes it: it names the
 * functions). A kallsyms seen before (its memo) is not read for it, and a kallsyms.xz not
 * unpacked but when the trace is analysed; else an .xz is unpacked into *@uksyms. One whose
 * every address is 0 is dropped, said. Return: 0, 1 (said).
 */
static int usable_ksyms(char **ksyms, char **uksyms, char *ksha)
{
	int memo, kzero = 0, rc;
	long long ksize;
	char why[600];

	*uksyms = NULL;
	if (!*ksyms)
		return 0;
	memo = memo_get(*ksyms, ksha, &kzero);
	if (ends_with(*ksyms, ".xz") && !memo) {
		*uksyms = cli_unxz(*ksyms, why, sizeof(why));
		if (!*uksyms)
			return cli_error("%s: cannot unpack it: %s", *ksyms, why);
	}
	if (!memo) {
		kzero = ksyms_zeroed(*uksyms ? *uksyms : *ksyms) > 0;
		rc = ts_summary_trace_id(*uksyms ? *uksyms : *ksyms, ksha, &ksize);
		if (rc)
			return cli_error("%s: %s", *ksyms, strerror(-rc));
		memo_put(*ksyms, ksha, kzero);
	}
	if (kzero) {
		fprintf(cli_err(),
			"tickscope: warning: %s: every address in it is 0 (read without the right to "
			"see addresses: kptr_restrict); not used: functions are not named\n",
			*ksyms);
		free(*ksyms);
		*ksyms = NULL;
		if (*uksyms)
			unlink(*uksyms);
		free(*uksyms);
		*uksyms = NULL;
	}
	return 0;
}

/*
 * The summary cached for this very file (its size and time, in @key) into @r: the one beside
 * the trace, @cpath (tickscope summary or a board wrote it), else compare's own in the user's
 * cache, @upath; unless the options want the trace read. Return: 1 taken, 0 not, -1 (said).
 */
static int from_cache(const char *cpath, const char *upath, const char *data, const char *key,
		      const struct load_opts *o, struct ts_run *r)
{
	const char *p = cpath;
	int rc = 0;

	if (o->no_cache || o->summarise || o->check)
		return 0;
	if (cpath)
		rc = ts_summary_read(cpath, key, r, NULL);
	if (rc <= 0 && rc != -ENOMEM && upath) {
		p = upath;
		rc = ts_summary_read(upath, key, r, NULL);
		if (rc > 0) /* used now: the last to be pruned */
			utimensat(AT_FDCWD, upath, NULL, 0);
	}
	if (rc == -ENOMEM) {
		cli_error("%s: out of memory", p);
		return -1;
	}
	return rc > 0 && (!o->hook || o->hook->cached(o->hook->ctx, data, key));
}

/* The cache key of @data read with kallsyms of content @ksha (NULL: none); NULL when said. */
static char *run_key(const char *data, const char *ksha, const char *comm, double ops,
		     const struct load_opts *o)
{
	char *key = ts_summary_key_sha(data, ksha, comm, ops, o->version);

	if (!key)
		cli_error("%s: %s", data, strerror(errno));
	return key;
}

/*
 * Trace @data, unpacked into *@udata when compressed, checked against what meta.txt records
 * (@tc->id: its sha256 into @tc->sha, its size into @tc->size) now when @now, else by
 * analyse() in the read that decodes it. Return: 0, 1 (said).
 */
static int open_trace(const char *data, char **udata, int now, struct trace_check *tc)
{
	char why[600];

	*udata = ends_with(data, ".xz") ? cli_unxz(data, why, sizeof(why)) : NULL;
	if (ends_with(data, ".xz") && !*udata)
		return cli_error("%s: cannot unpack it: %s", data, why);
	tc->label = data;
	tc->file = *udata ? *udata : data;
	tc->checked = now;
	return now ? check_id(tc->label, tc->file, tc->id, tc->sha, tc->size) : 0;
}

/* Whether @path is there (a summary that same_trace() might take); NULL is not. */
static int exists(const char *path)
{
	struct stat st;

	return path && !stat(path, &st);
}

int load_trace(const char *path, int folder, const char *given, const char *comm, double ops,
	       const struct trace_id *id, const struct load_opts *o, struct ts_run *r)
{
	char *data = folder ? find(path, "perf.data") : strdup(path);
	char *ksyms = given ? strdup(given) : folder ? find(path, "kallsyms") : NULL;
	char *cpath = NULL, *upath = NULL, *key = NULL, *shared = NULL;
	char *udata = NULL, *uksyms = NULL, sha[TS_SHA256_HEX], ksha[TS_SHA256_HEX], why[600];
	const char *kdir;
	int err = 0, from = r->nr, rc, now;
	long long size = 0;
	struct trace_check tc = { .id = id, .sha = sha, .size = &size };

	if (!data) {
		free(ksyms); /* a run without its trace may still have its kallsyms */
		return folder ? from_summary(path, comm, ops, id, o, r) :
				cli_error("%s: out of memory", path);
	}
	err = usable_ksyms(&ksyms, &uksyms, ksha);
	if (err)
		goto out;
	key = run_key(data, ksyms ? ksha : NULL, comm, ops, o);
	if (!key) {
		err = 1;
		goto out;
	}
	/* read beside the trace; written there by summary alone, by compare in the user's cache */
	if (asprintf(&cpath, "%s.tsum", data) < 0)
		cpath = NULL;
	upath = cli_cache_file(data, ".tsum");
	rc = from_cache(cpath, upath, data, key, o, r);
	if (rc) {
		err = rc < 0;
		goto out;
	}
	if (o->check && !id->sha256)
		goto out; /* a trace meta.txt does not name: nothing to check it against */
	/*
	 * The sha256 before the read when a summary there might be of this trace (same_trace()
	 * needs it) or only the check is asked for; else in the read that decodes the trace.
	 */
	now = o->check || (!o->no_cache && !o->summarise && (exists(cpath) || exists(upath)));
	err = open_trace(data, &udata, now, &tc);
	if (err || o->check)
		goto out;
	rc = 0;
	if (now && cpath)
		rc = same_trace(cpath, upath, data, key, comm, ops, sha, size, o, r);
	if (!rc && now && upath)
		rc = same_trace(upath, upath, data, key, comm, ops, sha, size, o, r);
	if (rc < 0)
		err = cli_error("%s: out of memory", data);
	if (rc)
		goto out;
	kdir = ksyms ? cli_ksyms_cache() : NULL;
	shared = ksyms ? shared_ksyms(kdir, ksha) : NULL;
	if (!shared && ksyms && ends_with(ksyms, ".xz") && !uksyms) {
		uksyms = cli_unxz(ksyms, why, sizeof(why));
		if (!uksyms) {
			err = cli_error("%s: cannot unpack it: %s", ksyms, why);
			goto out;
		}
	}
	err = analyse(data, udata ? udata : data,
		      shared ? shared :
		      uksyms ? uksyms :
			       ksyms,
		      shared ? kdir : NULL, comm, ops, o, key, &tc, r);
	if (!err && ksyms && !shared)
		share_ksyms(kdir, uksyms ? uksyms : ksyms, ksha);
	if (!err && o->summarise && cpath) {
		/* summary names the run folder as its output; it must write there */
		rc = ts_summary_write(cpath, key, sha, size, r, from);
		if (rc)
			err = cli_error("cannot write %s: %s", cpath, ts_strerror(rc));
	} else if (!err && upath && !cli_cache_mkdir() &&
		   !ts_summary_write(upath, key, sha, size, r, from)) {
		cli_cache_used(upath); /* compare goes without a cache it cannot write */
	}
out:
	if (udata)
		unlink(udata);
	if (uksyms)
		unlink(uksyms);
	free(udata);
	free(uksyms);
	free(shared);
	free(data);
	free(ksyms);
	free(cpath);
	free(upath);
	free(key);
	return err ? 1 : 0;
}
